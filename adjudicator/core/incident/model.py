"""A checked incident: its events in order, each with its moment, fields and line."""
from __future__ import annotations

from typing import Any


class Event:
    """One event as read: its moment T (1 for the first), name, checked fields, and line."""

    __slots__ = ("index", "name", "fields", "line")

    def __init__(self, index: int, name: str, fields: dict[str, Any], line: int):
        self.index, self.name, self.fields, self.line = index, name, fields, line


class Incident:
    """A checked incident: the game and code, the top-level values, the events in order."""

    def __init__(self, file: str, game: str, code: str, top: dict[str, Any], events: list[Event],
                 players: dict[str, str] | None = None, candidates: list[str] | None = None):
        self.file, self.game, self.code, self.top, self.events = file, game, code, top, events
        self.name: str | None = None
        self.expected: Any = None
        self.expected_pos: tuple[int, int] | None = None
        self.players = players or {}            # seat -> name
        self.code_given = True                  # False: no `code`, the game's default code rules
        self.candidates = candidates or []
        self.hand_lines: dict[str, int] = {}    # seat -> line of its entry under `hands`
        self.key_lines: dict[str, int] = {}     # top-level key -> its line (key_line(K) in the rules)

    def line_of(self, t: int) -> int | None:
        if 1 <= t <= len(self.events):
            return self.events[t - 1].line
        return None

