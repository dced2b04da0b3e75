"""Solve an incident: load the code's rules, add the facts through clingo's backend, ground, solve.

One fresh clingo.Control per incident, holding only the rules of the incident's code (unused codes
would still cost grounding). The law programs are stratified by time, so there is exactly one
answer set; a second one would be a fault in the rules and is reported as such.
"""
from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field

import clingo

from . import facts as factmod
from . import registry
from .errors import InternalError
from .incident import Incident

DEFAULT_TIMEOUT = 10.0  # seconds for grounding and solving together


@dataclass
class Solution:
    atoms: dict[str, list[tuple]] = field(default_factory=lambda: defaultdict(list))
    facts: list[clingo.Symbol] = field(default_factory=list)

    def get(self, name: str) -> list[tuple]:
        return self.atoms.get(name, [])


def entry_file(code: str) -> str:
    info = registry.code_info(code)
    return str(registry.rules_dir() / info["rules"])


class _Timeout:
    """Interrupt clingo when it runs past the time limit."""

    def __init__(self, ctl: clingo.Control, seconds: float):
        self.ctl, self.fired = ctl, False
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True

    def _fire(self):
        self.fired = True
        self.ctl.interrupt()

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.cancel()


def solve(inc: Incident, timeout: float = DEFAULT_TIMEOUT) -> Solution:
    symbols = factmod.build(inc)
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda code, msg: messages.append(msg), message_limit=5)
    try:
        ctl.load(entry_file(inc.code))
    except RuntimeError as e:  # a broken rule file: a fault of ours, not the user's
        raise InternalError(f"the rules of {inc.code} do not load: {' '.join(messages) or e}")
    with ctl.backend() as backend:
        for sym in symbols:
            backend.add_rule([backend.add_atom(sym)])
    sol = Solution(facts=symbols)
    models = 0
    with _Timeout(ctl, timeout) as guard:
        try:
            ctl.ground([("base", [])])
        except RuntimeError:
            raise InternalError(f"the rules of {inc.code} do not ground: {' '.join(messages)}")
        if guard.fired:
            raise InternalError(f"grounding took longer than {timeout:g} s")
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                models += 1
                if models > 1:
                    raise InternalError("the rules give more than one answer for this incident")
                for sym in model.symbols(shown=True):
                    sol.atoms[sym.name].append(tuple(sym.arguments))
        if guard.fired:
            raise InternalError(f"solving took longer than {timeout:g} s")
    if models == 0:
        raise InternalError("the rules give no answer for this incident")
    return sol
