"""Errors a user can act on. Each names where the problem is and, when it can, the fix."""
from __future__ import annotations


class AdjudicatorError(Exception):
    """Base class: anything raised on purpose by the adjudicator."""

    exit_code = 1


class InputError(AdjudicatorError):
    """The incident (or case file) is malformed: exit code 2."""

    exit_code = 2

    def __init__(self, message: str, file: str = "<input>", line: int | None = None,
                 column: int | None = None, hint: str | None = None):
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class InconsistentIncident(AdjudicatorError):
    """The incident describes something that cannot have happened: exit code 2."""

    exit_code = 2

    def __init__(self, file: str, problems: list[str]):
        self.file = file
        self.problems = problems
        super().__init__(self.render())

    def render(self) -> str:
        lines = [f"{self.file}: this incident cannot have happened as described:"]
        lines += [f"  - {p}" for p in self.problems]
        lines.append("  Correct the account and run again; no ruling is drawn from a contradiction.")
        return "\n".join(lines)


class UnknownCode(InputError):
    """A game or code that is not encoded."""


class InternalError(AdjudicatorError):
    """Something the adjudicator did not expect: exit code 1 (a bug to report)."""

    exit_code = 1
