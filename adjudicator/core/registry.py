"""The games and codes known, and where their rules and law texts are (rules/codes.yaml)."""
from __future__ import annotations

import functools
import importlib.util
import os

import yaml

from adjudicator.errors import UnknownCode, safe

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def rules_dir() -> str:
    """The directory holding the rule files: the package data `adjudicator.rules`.

    (Found through the import system, as a plain path: importlib.resources and pathlib would add
    more than 10 ms to every command's start.)
    """
    spec = importlib.util.find_spec("adjudicator.rules")
    return list(spec.submodule_search_locations)[0]


@functools.cache
def _data() -> dict:
    """rules/codes.yaml, read. Every command reads it, and YAML takes 1.2 ms for it: what it gives
    is kept in the cache folder (adjudicator/core/cache.py), named by the file's bytes, and read back in
    a few hundredths of that."""
    from adjudicator.core import cache
    with open(os.path.join(rules_dir(), "codes.yaml"), "rb") as fh:
        raw = fh.read()
    path = cache.named("codes-", raw)
    data = cache.kept(path)
    if not isinstance(data, dict):
        data = yaml.load(raw.decode("utf-8"), Loader=_Loader)
        cache.keep(path, data, "codes-")
    return data


def _codes() -> dict:
    return _data()["games"]


def _tables() -> dict:
    return _data()["tables"]


class Table:
    """A game's table (rules/codes.yaml `tables:`): its seats in the order the play and the deal pass
    (each to the next on the left), the word for each, and its sides of partners (none: each plays
    for himself)."""

    def __init__(self, name: str, entry: dict):
        self.name = name
        self.seats: tuple[str, ...] = tuple(str(s) for s in entry["seats"])
        self.words: dict[str, str] = {str(k): str(v) for k, v in (entry.get("words") or {}).items()}
        self.sides: dict[str, tuple[str, ...]] = {str(k): tuple(str(x) for x in v)
                                                  for k, v in (entry.get("sides") or {}).items()}
        # a round table (loo, poker): the places taken are those the incident's `players` names
        self.places_from_players: bool = entry.get("places") == "players"
        # a table whose seats are named by the deal (two-hands: the younger hand deals)
        self.dealing_seat: str | None = entry.get("dealer")

    def word(self, seat: str) -> str:
        return self.words.get(seat, seat)

    def side_of(self, seat: str) -> str | None:
        return next((side for side, members in self.sides.items() if seat in members), None)

    def next(self, seat: str) -> str:
        """The seat on this one's left: who plays and deals after him."""
        i = self.seats.index(seat)
        return self.seats[(i + 1) % len(self.seats)]


@functools.cache
def table(game: str) -> Table:
    name = _codes()[game]["table"]
    return Table(name, _tables()[name])


def tricks(game: str | None) -> int | None:
    """How many tricks a hand of the game has (rules/codes.yaml `tricks`): the greatest number a
    trick can have. None for a game played without tricks (poker) or not yet known."""
    return _codes().get(game, {}).get("tricks") if game else None


def trumps(game: str | None) -> bool:
    """Whether the game has a trump suit (codes.yaml `trumps`, true unless said otherwise): an
    incident that names one for a game without trumps is refused."""
    return _codes().get(game or "", {}).get("trumps", True) is not False


def games() -> list[str]:
    return list(_codes())


def codes_of(game: str) -> list[str]:
    return list(_codes()[game]["codes"])


def default_code(game: str) -> str:
    return _codes()[game]["default"]


def resolve_code(name: str, command: str = "adjudicator") -> str:
    """The code a person means by NAME: a code as it is named (`portland-club`), or a game's name
    for its default code (`piquet`, `whist`), in any case and with spaces for hyphens. Unknown: the
    error lists what is known."""
    word = str(name).strip().lower().replace(" ", "-").replace("_", "-")
    g = _codes()
    for game, entry in g.items():
        if word in entry["codes"]:
            return word
    if word in g:
        return g[word]["default"]
    known = [c for game in g for c in g[game]["codes"]] + list(g)
    from adjudicator.core.values import shown, suggest
    close = suggest(word, known)
    raise UnknownCode(f"unknown code or game '{shown(name)}'" if name != "" else
                      "no code or game is named: the argument is empty", command,
                      hint=(f"did you mean '{close}'? " if close else "")
                      + "a code (`adjudicator codes` lists them) or a game's name for its default code")


def code_info(code: str) -> dict:
    for game, g in _codes().items():
        if code in g["codes"]:
            return {"game": game, "code": code, **g["codes"][code]}
    raise UnknownCode(f"unknown code '{safe(code, 40)}'", hint="`adjudicator codes` lists them")


def encoded(code: str) -> bool:
    """Whether the code's laws are encoded as rules (a code may carry its law texts only)."""
    return bool(code_info(code).get("rules"))


def all_codes() -> list[dict]:
    return [code_info(c) for g in games() for c in codes_of(g)]


@functools.cache
def remedies() -> dict[str, str]:
    with open(os.path.join(rules_dir(), "remedies.yaml"), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_Loader)


@functools.cache
def remedy_words() -> dict[str, str]:
    """Each remedy id in words, as a sentence names it (rules/remedy-words.yaml)."""
    with open(os.path.join(rules_dir(), "remedy-words.yaml"), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_Loader)


def remedy_ids() -> list[str]:
    return [r for r in remedies() if r not in ("no-penalty", "no-remedy", "score")]
