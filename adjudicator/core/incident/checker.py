"""Checking an account's values against the incident format (core/schema.py), one schema type at a
time: a seat, a player's name, a card, a number, a side. Each returns a normalised value (seats to
N/E/S/W, cards to (rank, suit)) or raises an InputError naming the line, the key and the fix.
"""
from __future__ import annotations

import re
import unicodedata

from adjudicator.core import registry, schema
from adjudicator.core.incident.yamlread import MAX_LIST, MAX_NAME
from adjudicator.core.values import Y, _or, name_key, seat_words, shown, side_words, suggest, unprintable
from adjudicator.errors import InputError


SUITS = {
    "s": "spades", "spade": "spades", "spades": "spades", "♠": "spades",
    "h": "hearts", "heart": "hearts", "hearts": "hearts", "♥": "hearts",
    "d": "diamonds", "diamond": "diamonds", "diamonds": "diamonds", "♦": "diamonds",
    "c": "clubs", "club": "clubs", "clubs": "clubs", "♣": "clubs",
}
RANKS = {"a": 14, "k": 13, "q": 12, "j": 11, "t": 10, "10": 10,
         **{str(n): n for n in range(2, 10)}}
CARD_RE = re.compile(r"(10|[2-9tjqka]) *(?:of +)?([shdc♠♥♦♣]|spades?|hearts?|diamonds?|clubs?)", re.I | re.ASCII)


# ----------------------------------------------------------------------------------------
# Value parsers, one per schema type. Each returns a normalised Python value or raises.
# ----------------------------------------------------------------------------------------
def last_trick(game: str | None) -> int:
    """The greatest number a trick of the game can have (rules/codes.yaml `tricks`); no bound of
    the game's for a game played without tricks (poker) or not yet known."""
    n = registry.tricks(game)
    return n if n is not None else 10_000


def _as_written(y: Y):
    """A seat's or a player's value: a scalar YAML reads as a number or a flag (a player named `42`
    or `Off` in `players`) is taken as written, as the names under `players` are."""
    v = y.value
    if not isinstance(v, (str, dict, list)) and y.raw is not None:
        return y.raw
    return v


class Checker:
    def __init__(self, file: str, players: dict[str, str] | None = None, candidates=(), game=(7, "1"),
                 table=None):
        self.file = file
        # the game's table: its seats and sides, as written (rules/codes.yaml `tables:`)
        self.table = table or registry.table("whist")
        self.seat_words, self.side_words = seat_words(self.table), side_words(self.table)
        self.game = "whist"
        self.game_points, self.game_law = game     # what a game is, in the code in force
        self.players = players or {}          # seat -> name
        self.by_name = {name_key(v): k for k, v in self.players.items()}
        self.candidates = {name_key(c): c for c in candidates}
        self.seated: set[str] | None = None   # a round table's places taken (loo, poker), when `players` names them

    def err(self, y: Y, msg: str, hint: str | None = None):
        return InputError(msg, self.file, y.line, y.col, hint)

    def seat(self, y: Y, what: str):
        v = _as_written(y)
        if isinstance(v, str):
            s = self.seat_words.get(v.strip().lower()) or self.by_name.get(name_key(v))
            if s and self.seated is not None and s not in self.seated:
                taken = ", ".join(f"{x} ({self.players[x]})" for x in self.table.seats if x in self.seated)
                raise self.err(y, f"{what}: no one sits at '{shown(v)}' in this game: the places taken are "
                               f"those `players` names", f"the players: {taken}; or add the place to `players`")
            if s:
                return s
        names = ", ".join(self.players.values())
        hint = f"a seat is {_or(self.table.seats)}" + (f", or one of the players: {names}" if names else "")
        odd = next((c for c in v if ord(c) > 127), None) if isinstance(v, str) else None
        if odd and name_key(v) in self.seat_words:
            import unicodedata
            raise self.err(y, f"{what}: '{shown(y)}' looks like the seat {self.seat_words[name_key(v)]} but is "
                           f"written with {unicodedata.name(odd, 'a letter of another script').lower()} "
                           f"(U+{ord(odd):04X})", "type the seat in plain Latin letters: " + hint)
        raise self.err(y, f"{what}: '{shown(y)}' is not a seat", hint)

    def person(self, y: Y, what: str):
        v = _as_written(y)
        if isinstance(v, str):
            key = name_key(v)
            if key in self.candidates:
                return ("name", self.candidates[key])
            if key in self.seat_words or key in self.by_name:
                return ("seat", self.seat(y, what))
            close = suggest(v, list(self.candidates.values()))
            raise self.err(y, f"{what}: '{shown(v)}' is not among the candidates",
                           f"did you mean '{close}'?" if close else "list everyone in `candidates`")
        raise self.err(y, f"{what}: expected a player's name", "write the name as it is given under `players` or `candidates`")

    def card(self, y: Y, what: str):
        v = y.value
        if isinstance(v, (str, int)):
            m = CARD_RE.fullmatch(str(v).strip(" "))
            if m:
                rank = RANKS[m.group(1).lower()]
                s = m.group(2).lower()
                suit = SUITS.get(s) or SUITS.get(s[0])
                return (rank, suit)
        raise self.err(y, f"{what}: '{shown(y)}' is not a card",
                       "write rank then suit: AS, KH, QD, JC, 10S (or TS), 9H ... 2C")

    def suit(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in SUITS:
            return SUITS[v.strip().lower()]
        close = suggest(str(v).strip().lower(), ("spades", "hearts", "diamonds", "clubs"))
        raise self.err(y, f"{what}: '{shown(y)}' is not a suit",
                       f"did you mean '{close}'?" if close else "a suit is spades, hearts, diamonds or clubs")

    def holding(self, y: Y, what: str):
        out, items = [], self.items(y, what)
        for it in items:
            v = it.value
            if isinstance(v, str) and v.strip().lower() in SUITS:
                out.append(("suit", SUITS[v.strip().lower()]))
            else:
                try:
                    out.append(("card", self.card(it, what)))
                except InputError:
                    raise self.err(it, f"{what}: '{shown(v)}' is neither a card nor a suit",
                                   "e.g. holding: spades, or holding: [KS, 5S]")
        return self.listed_once(out, items, what)

    def listed_once(self, values: list, items: list, what: str, kind: str | None = None) -> list:
        """`values`, read from `items`, name nothing twice, in one spelling or two (`AS`, `as`,
        `A♠`; `hearts`, `H`; `N`, `north`): a list names each card, suit or seat once. `kind` names
        what the list holds; a holding's values say it themselves (("card", c), ("suit", s))."""
        first: dict = {}
        for value, it in zip(values, items):
            if value in first:
                was, k = first[value], kind or value[0]
                raise self.err(it, f"{what}: '{shown(it.text())}' is the {k} written '{shown(was.text())}' at "
                               f"line {was.line}: one {k} cannot be listed twice", f"list each {k} once")
            first[value] = it
        return values

    def cards(self, y: Y, what: str):
        items = self.items(y, what)
        return self.listed_once([self.card(it, what) for it in items], items, what, "card")

    def seats(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in self.side_words:
            return list(self.table.sides[self.side_words[v.strip().lower()]])
        items = self.items(y, what, len(self.table.seats))
        return self.listed_once([self.seat(it, what) for it in items], items, what, "seat")

    def side(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in self.side_words:
            return self.side_words[v.strip().lower()]
        raise self.err(y, f"{what}: '{shown(y)}' is not a side",
                       f"a side is {_or(self.table.sides)}" if self.table.sides
                       else "in this game each plays for himself: there are no sides")

    def integer(self, y: Y, what: str, lo=0, hi=10_000):
        v = y.value
        if isinstance(v, str) and re.fullmatch(r"[-+]?0[0-9_]+", v.strip()):
            n = v.strip().lstrip("+-0").replace("_", "") or "0"
            raise self.err(y, f"{what}: '{shown(v)}' has a leading zero, which some readers take for an "
                           "octal number", f"write {n}")
        if isinstance(v, str) and re.fullmatch(r"[-+]?[0-9]+(:[0-5]?[0-9])+", v.strip()):
            raise self.err(y, f"{what}: '{shown(v)}' is not a whole number (some readers take it for "
                           "minutes and seconds)", "write one whole number, e.g. 3")
        if isinstance(v, str) and re.fullmatch(r"[-+]?[0-9]+", v.strip()):
            raise self.err(y, f"{what}: '{shown(v)}' is written in quotes, which makes it text, not a number",
                           f"write {v.strip()} without the quotes")
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(y, f"{what}: expected a whole number, not '{shown(y.text())}'",
                           "write the number in plain decimal digits, e.g. 3")
        if not lo <= v <= hi:
            # (as written: `-0` and `+99` are said so, not as 0 and 99, which the file does not hold)
            raise self.err(y, f"{what}: {shown(y.text().strip())} is out of range ({lo} to {hi})",
                           f"write a number from {lo} to {hi}")
        return v

    def boolean(self, y: Y, what: str):
        if isinstance(y.value, bool):
            return y.value
        if isinstance(y.value, str) and y.value.strip() in ("true", "false"):
            # `'true'` in quotes is text: as with a number in quotes, say so (not "expected true,
            # not 'true'", which reads as a contradiction)
            raise self.err(y, f"{what}: '{shown(y.value)}' is written in quotes, which makes it text, not "
                           "true or false", f"write {y.value.strip()} without the quotes")
        raise self.err(y, f"{what}: expected true or false, not '{shown(y.text())}'",
                       "write true or false (yes, no, on and off are read as words)")

    def items(self, y: Y, what: str, limit: int = MAX_LIST) -> list[Y]:
        """A list's items (a single value is a list of one), at most `limit` of them."""
        items = y.value if isinstance(y.value, list) else [y]
        if len(items) > limit:
            raise self.err(items[limit], f"{what}: more than {limit} items in one list",
                           "a pack has 52 cards and a table four seats; is the list right?")
        return items

    def name(self, y: Y, what: str) -> str:
        """A player's name: one line of printable text, not a seat's name."""
        if isinstance(y.value, (dict, list)) or y.value is None:
            raise self.err(y, f"{what}: expected a player's name, not '{shown(y)}'",
                           "write the name after the seat, e.g. N: Ames")
        v = y.text().strip(" \t")       # (only spaces: a control character at either end is refused below)
        if not v or (v.isprintable() and not name_key(v)):      # (nothing visible: invisible characters alone)
            raise self.err(y, f"{what}: a player's name cannot be empty" + (f" (it holds only invisible characters: "
                           f"'{shown(v)}')" if v else ""),
                           "write the player's name, or leave the seat out of `players`")
        bad = next((c for c in v if not c.isprintable()), None)
        if bad is not None:
            raise self.err(y, f"{what}: the name '{shown(v)}' holds {unprintable(bad)} ({ascii(bad)})",
                           "a name is one line of printable text" + (", its spaces plain ones" if
                                                                      unicodedata.category(bad) == "Zs" else ""))
        if len(v) > MAX_NAME:
            raise self.err(y, f"{what}: a player's name is at most {MAX_NAME} characters, not {len(v):,}",
                           "shorten the name")
        if name_key(v) in self.seat_words or name_key(v) in self.side_words:
            same = "" if v.lower() in self.seat_words or v.lower() in self.side_words else \
                f" (written with look-alike or compatibility characters: {ascii(v)})"
            raise self.err(y, f"{what}: '{shown(v)}' is the name of a seat or a side, not of a player{same}",
                           "give the player's own name")
        return v

    def names(self, y: Y, what: str, limit: int = 20) -> list[str]:
        out: list[str] = []
        written: list[str] = []          # each as the file has it (spaces around it and all): quoted so
        for it in self.items(y, what, limit):
            v = self.name(it, what)
            as_written = it.value if isinstance(it.value, str) else v
            twin = next((w for o, w in zip(out, written) if name_key(o) == name_key(v)), None)
            if twin is not None:
                how = "" if twin == as_written else \
                    f" (as '{shown(twin)}' before: the same name in another spelling)"
                raise self.err(it, f"{what}: '{shown(as_written)}' is named twice{how}", "name each player once")
            out.append(v)
            written.append(as_written)
        return out

    def text(self, y: Y, what: str):
        """Free text (a player's words, a detail): printable, over one line or several. An escape
        in a quoted string (`"\\e[2J"`, `"\\u202e"`) could otherwise reach the terminal that
        shows the story and clear it, retitle it or turn the words round."""
        if isinstance(y.value, (dict, list)):
            raise self.err(y, f"{what}: expected text, not a list or a mapping",
                           "write it as one value on the line, in quotes if it holds a colon")
        v = "" if y.value is None else y.text()
        bad = next((c for c in v if not c.isprintable() and c not in "\n\t"), None)
        if bad is not None:
            raise self.err(y, f"{what}: the text '{shown(v)}' holds {unprintable(bad)} ({ascii(bad)[1:-1]})",
                           "write the words as plain printable text")
        return v

    def choice(self, y: Y, what: str, choices):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in choices:
            return v.strip().lower()
        close = suggest(str(v), choices)
        raise self.err(y, f"{what}: '{shown(y)}' is not one of {', '.join(choices)}",
                       f"did you mean '{close}'?" if close else "write one of them as it is spelled here")

    def remedy(self, y: Y, what: str):
        v = y.value
        ids = registry.remedy_ids()
        if isinstance(v, str) and v.strip().lower() in ids:
            return v.strip().lower()
        # the laws' own words for one (a "fresh deal", piquet 13) lead to its id by its description
        # (rules/remedies.yaml) before any look-alike spelling does
        # (the one whose description says them soonest: "a new deal (a fresh deal ...)" before
        # "... alters his discard instead of a fresh deal")
        words = str(v).strip().lower().replace("-", " ")
        described = sorted((d.lower().find(words), i) for i, d in registry.remedies().items()
                           if len(words) > 3 and words in d.lower() and i in ids)
        close = described[0][1] if described else suggest(str(v), ids)
        raise self.err(y, f"{what}: '{shown(y)}' is not a remedy the laws give",
                       f"did you mean '{close}'?" if close else "`adjudicator remedies` lists them")

    def mapping(self, y: Y, what: str):
        if not isinstance(y.value, dict):
            raise self.err(y, f"{what}: expected a mapping (key: value), not '{shown(y)}'",
                           f"write it as `key: value` pairs (`adjudicator events {what.split('.')[0].split('[')[0]}` "
                           "gives its keys)")
        return y.value

    def once(self, seen: dict, thing: str, ky: Y, what: str, kind: str):
        """`thing` (a side, a seat) read from key `ky` is not given twice in another spelling."""
        if thing in seen:
            first = seen[thing]
            raise self.err(ky, f"{what}: '{shown(ky.text())}' is the {kind} {thing} again (written "
                           f"'{shown(first.text())}' at line {first.line})", f"give each {kind} once")
        seen[thing] = ky

    def value(self, f: schema.Field, y: Y, what: str):
        t = f.type
        if f.choices:
            return self.choice(y, what, f.choices)
        if t == "seat":
            return self.seat(y, what)
        if t == "seats":
            return self.seats(y, what)
        if t == "person":
            return self.person(y, what)
        if t == "names":
            return self.names(y, what)
        if t == "card":
            return self.card(y, what)
        if t == "cards":
            return self.cards(y, what)
        if t == "holding":
            return self.holding(y, what)
        if t == "suit":
            return self.suit(y, what)
        if t == "suits":
            items = self.items(y, what, 4)
            return self.listed_once([self.suit(it, what) for it in items], items, what, "suit")
        if t == "int":
            return self.integer(y, what, *(f.span or (0, 10_000)))
        if t == "trick":
            return self.integer(y, what, 1, last_trick(getattr(self, "game", None)))
        if t == "bool":
            return self.boolean(y, what)
        if t == "text":
            return self.text(y, what)
        if t == "remedy":
            return self.remedy(y, what)
        if t == "side-scores" and not what.startswith("score") and not self.table.sides:
            # the tricks taken at a table with no fixed sides (Boston, Solo Whist: the sides of a hand
            # come from its bid, and at Misère Partout each plays for himself): each seat's own
            m = self.mapping(y, what)
            out, seen = {}, {}
            for k, v in m.items():
                try:
                    seat = self.seat(y.keys[k], f"{what} key")
                except InputError:
                    raise self.err(y.keys[k], f"{what} key: '{shown(k)}' is not a seat",
                                   "in this game each plays for himself: give each seat's tricks, e.g. "
                                   "tricks: {N: 5, E: 3, S: 3, W: 2} (the sides of the hand come from `bid`)") from None
                self.once(seen, seat, y.keys[k], what, "seat")
                out[seat] = self.integer(v, f"{what} of {seat}", 0, last_trick(getattr(self, "game", None)))
            return out
        if t == "side-scores":
            m = self.mapping(y, what)
            out = {}
            seen: dict = {}
            for k, v in m.items():
                side = self.side(y.keys[k], f"{what} key")
                self.once(seen, side, y.keys[k], what, "side")
                if what.startswith("score"):
                    n = self.integer(v, f"{what} of {side}", 0, 100)
                    g = self.game_points
                    if n >= g:
                        raise self.err(v, f"{what} of {side}: {n} is not a score before a hand",
                                       f"a game is {g} points; a side at {g} has already won it "
                                       f"(law {self.game_law})")
                    out[side] = n
                else:
                    out[side] = self.integer(v, f"{what} of {side}", 0, 13)
            return out
        if t == "side-games":
            m = self.mapping(y, what)
            games = {}
            seen = {}
            for k, v in m.items():
                side = self.side(y.keys[k], f"{what} key")
                self.once(seen, side, y.keys[k], what, "side")
                if not isinstance(v.value, list):
                    raise self.err(v, f"{what} of {side}: expected a list of the values of the games won",
                                   "e.g. rubber: {N-S: [2], E-W: []} (N-S have won a game worth two)")
                games[side] = [self.integer(g, f"{what} of {side}", 1, self.game_points) for g in v.value]
            return games
        raise self.err(y, f"{what}: unknown field type {t}")  # pragma: no cover


def _check_keys(ck: Checker, y: Y, allowed: dict, what: str):
    for key, ky in y.keys.items():
        if key not in allowed:
            close = suggest(key, allowed)
            hint = f"did you mean '{close}'?" if close else f"the keys are: {', '.join(allowed)}"
            raise ck.err(ky, f"unknown key '{shown(key)}' in {what}", hint)

