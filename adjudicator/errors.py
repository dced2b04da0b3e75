"""Errors a user can act on. Each names where the problem is and, when it can, the fix."""
from __future__ import annotations


# Characters drawn as nothing though printable (not control or format characters): variation
# selectors, the combining grapheme joiner, the Hangul fillers, the Khmer and Mongolian invisible
# marks. A message escapes them as it does a control character, so that what it quotes shows what
# was written (`Ames\ufe0f`, not a bare `Ames`); names are compared without them (incident.name_key).
INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x3164,
                       *range(0xFE00, 0xFE10), 0xFFA0, *range(0xE0100, 0xE01F0)])


def safe(text, limit: int = 300) -> str:
    """A file name (or any text from outside) as a message may print it: one line, control and
    direction-changing characters escaped (a name cannot forge an output line or clear the
    screen), and invisible ones (INVISIBLE), cut short when long."""
    text = str(text)
    cut = len(text) > limit
    out = "".join(c if c.isprintable() and ord(c) not in INVISIBLE else _escaped(c) for c in text[:limit])
    return out + ("..." if cut else "")


def _escaped(c: str) -> str:
    """A character a message does not print, as an escape: a byte that was not UTF-8 in a command
    line's argument or a file's name (kept by Python as a lone surrogate, U+DC80 to U+DCFF) as the
    byte it was, `\\xff`, not `\\udcff`, a character the user never wrote."""
    if "\udc80" <= c <= "\udcff":
        return f"\\x{ord(c) - 0xdc00:02x}"
    return ascii(c)[1:-1]


def _rebuilt(cls, args: tuple, state: dict) -> "AdjudicatorError":
    err = cls.__new__(cls)
    Exception.__init__(err, *args)
    err.__dict__.update(state)
    return err


class AdjudicatorError(Exception):
    """Base class: anything raised on purpose by the adjudicator."""

    exit_code = 1

    def __reduce__(self):
        """Pickled whole, with its file, line and hint (an error met in a worker process, `--jobs`
        or the server's, is said as it was met): Exception's own pickling calls __init__ again with
        the rendered message alone."""
        return (_rebuilt, (type(self), self.args, dict(self.__dict__)))


def error_json(err: BaseException, files=()) -> dict:
    """An error as every `--json` and the web API give it: {"error": {message, exit_code, and file,
    line, column, hint, problems when known}}; a fault that is not ours, by its kind alone. `file`
    names a file: an error said at the command line itself (a usage error, or one said at the
    command or an option of it, `adjudicator law`, `adjudicator search --code`) names it under
    `command` instead ("file": "adjudicator law" named no file). `files`: the names the command was
    given, files whatever they are called (an incident named `adjudicator`)."""
    if not isinstance(err, AdjudicatorError):
        return {"error": {"message": f"internal error ({type(err).__name__})", "exit_code": 1}}
    out = {"message": getattr(err, "message", str(err)), "exit_code": err.exit_code}
    for key in ("file", "line", "column", "hint", "problems"):
        if getattr(err, key, None) is not None:
            out[key] = getattr(err, key)
    named = out.get("file")
    if isinstance(named, str) and (isinstance(err, UsageError) or (
            (named == "adjudicator" or named.startswith("adjudicator ")) and named not in files)):
        out = {("command" if k == "file" else k): v for k, v in out.items()}
    return {"error": out}


def said(text: str | None, limit: int) -> str | None:
    """A message or a hint as printed: each of its lines made safe (safe()). Most messages quote
    what was written through incident.shown, cut at 40 characters; this also covers what a command
    line gives (`law whist $'24\\e[2J'`, a topic of 100 KB), which reaches a message whole."""
    if text is None:
        return None
    return "\n".join(safe(line, limit) for line in str(text).split("\n"))


class InputError(AdjudicatorError):
    """The incident (or case file) is malformed: exit code 2."""

    exit_code = 2

    def __init__(self, message: str, file: str = "<input>", line: int | None = None,
                 column: int | None = None, hint: str | None = None):
        message, hint = said(message, 400), said(hint, 600)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        where = safe(self.file)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class UsageError(InputError):
    """A setting or a path that cannot be used (not the incident): exit code 2, said by the
    command itself (`adjudicator: ...`) rather than at a line of a file."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message, "adjudicator", hint=hint)


class InconsistentIncident(AdjudicatorError):
    """The incident describes something that cannot have happened: exit code 2."""

    exit_code = 2

    def __init__(self, file: str, problems: list[str]):
        self.file = file
        self.problems = problems
        super().__init__(self.render())

    SHOWN = 20   # on the terminal; --json lists them all

    def render(self) -> str:
        lines = [f"{safe(self.file)}: this incident cannot have happened as described:"]
        lines += [f"  - {p}" for p in self.problems[:self.SHOWN]]
        if len(self.problems) > self.SHOWN:
            lines.append(f"  ... and {len(self.problems) - self.SHOWN} more (--json lists them all)")
        lines.append("  Correct the account and run again; no ruling is drawn from a contradiction.")
        return "\n".join(lines)


class UnknownCode(InputError):
    """A game or code that is not encoded."""


class InternalError(AdjudicatorError):
    """Something the adjudicator did not expect: exit code 1 (a bug to report). `details` holds
    what the solver said, shown only with --debug."""

    exit_code = 1

    def __init__(self, message: str, details: str | None = None):
        self.message = message
        self.details = details or None
        self.file: str | None = None        # the incident it met, once known (engine.solve)
        super().__init__(message)

    def __str__(self) -> str:
        return f"{safe(self.file)}: {self.message}" if self.file is not None else self.message


class TimeLimit(InternalError):
    """Grounding or solving ran past the time limit: exit code 1. The input limits keep every
    incident the format admits far inside it, so this is a fault to report, not the user's."""

    def __init__(self, seconds: float, phase: str):
        self.seconds, self.phase = seconds, phase
        super().__init__(f"no ruling within the time limit of {seconds:g} s: the {phase} of the rules did "
                         "not finish. This should not happen for an incident the format accepts; please "
                         "report it with the incident")
