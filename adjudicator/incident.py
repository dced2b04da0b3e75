"""Read an incident (or a case file) from YAML, check it against the schema, keep positions.

Every error names the file, the line and column, the key or event, what was expected, and a
suggestion. Values are normalised here (seats to N/E/S/W, cards to (rank, suit)); what they
mean is left to the rules.
"""
from __future__ import annotations

import re
from typing import Any

import yaml

from . import registry, schema
from .errors import InputError

MAX_BYTES = 1_000_000          # an incident is a page of text; refuse anything far larger
MAX_DEPTH = 12                 # incidents nest four or five levels deep
MAX_NODES = 50_000

try:  # libyaml when present: ten times faster
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

SUITS = {
    "s": "spades", "spade": "spades", "spades": "spades", "♠": "spades",
    "h": "hearts", "heart": "hearts", "hearts": "hearts", "♥": "hearts",
    "d": "diamonds", "diamond": "diamonds", "diamonds": "diamonds", "♦": "diamonds",
    "c": "clubs", "club": "clubs", "clubs": "clubs", "♣": "clubs",
}
RANKS = {"a": 14, "k": 13, "q": 12, "j": 11, "t": 10, "10": 10,
         **{str(n): n for n in range(2, 10)}}
SEAT_WORDS = {"n": "N", "north": "N", "e": "E", "east": "E", "s": "S", "south": "S",
              "w": "W", "west": "W"}
SIDE_WORDS = {"n-s": "N-S", "ns": "N-S", "n/s": "N-S", "e-w": "E-W", "ew": "E-W", "e/w": "E-W"}
CARD_RE = re.compile(r"^(10|[2-9tjqka])\s*(?:of\s+)?([shdc♠♥♦♣]|spades?|hearts?|diamonds?|clubs?)$", re.I)


class Y:
    """A YAML value with its position (1-based line and column)."""

    __slots__ = ("value", "line", "col", "keys")

    def __init__(self, value: Any, line: int, col: int):
        self.value, self.line, self.col = value, line, col


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
        self.candidates = candidates or []

    def line_of(self, t: int) -> int | None:
        if 1 <= t <= len(self.events):
            return self.events[t - 1].line
        return None


def suggest(word: str, options) -> str | None:
    import difflib  # only on the error path
    close = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.6)
    return close[0] if close else None


class Reader:
    """Turns composed YAML nodes into Y values, refusing aliases and absurd sizes."""

    def __init__(self, file: str):
        self.file = file
        self.nodes = 0

    def err(self, msg, node_or_y=None, hint=None):
        line = col = None
        if isinstance(node_or_y, Y):
            line, col = node_or_y.line, node_or_y.col
        elif node_or_y is not None and hasattr(node_or_y, "start_mark"):
            line, col = node_or_y.start_mark.line + 1, node_or_y.start_mark.column + 1
        return InputError(msg, self.file, line, col, hint)

    def convert(self, node, depth=0, seen=None) -> Y:
        if seen is None:
            seen = set()
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.err(f"the file has more than {MAX_NODES} values; an incident is far smaller", node)
        if depth > MAX_DEPTH:
            raise self.err(f"values are nested more than {MAX_DEPTH} deep; an incident never needs that", node)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if id(node) in seen:
                raise self.err("YAML anchors and aliases (&name, *name) are not allowed in an incident", node,
                               "write each value out in full")
            seen.add(id(node))
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Y] = {}
            keys: dict[str, Y] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    raise self.err("a key must be a plain word", knode)
                if knode.tag == "tag:yaml.org,2002:merge":
                    raise self.err("YAML merge keys (<<) are not allowed in an incident", knode)
                key = str(knode.value)
                if key in out:
                    raise self.err(f"the key '{key}' is given twice", knode)
                out[key] = self.convert(vnode, depth + 1, seen)
                keys[key] = Y(key, knode.start_mark.line + 1, knode.start_mark.column + 1)
            y = Y(out, line, col)
            y.keys = keys
            return y
        if isinstance(node, yaml.SequenceNode):
            return Y([self.convert(n, depth + 1, seen) for n in node.value], line, col)
        # scalars: resolve with the safe constructor's rules
        return Y(_scalar(node), line, col)


_SCALAR_LOADER = yaml.SafeLoader("")


def _scalar(node):
    tag = node.tag
    if tag in ("tag:yaml.org,2002:str",):
        return node.value
    if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
               "tag:yaml.org,2002:float"):
        return _SCALAR_LOADER.construct_object(node)
    return str(node.value)


def load_text(text: str, file: str) -> Y:
    """Parse YAML text into Y values, with clear errors."""
    reader = Reader(file)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        problem = e.problem or "not valid YAML"
        raise InputError(f"this is not valid YAML: {problem}", file, line, col,
                         "check the indentation and that every event is a '- name: {...}' item")
    except yaml.YAMLError as e:
        raise InputError(f"this is not valid YAML: {e}", file)
    except RecursionError:
        raise InputError("this YAML is nested too deeply to be an incident", file)
    if node is None:
        raise InputError("the file is empty: an incident needs at least `game` and `events`", file, 1, 1)
    return reader.convert(node)


def read_source(path: str, stdin_text: str | None = None) -> tuple[str, str]:
    """Return (text, display name) for a path or '-' (standard input)."""
    if path == "-":
        data = (stdin_text or "").encode("utf-8") if isinstance(stdin_text, str) else (stdin_text or b"")
        name = "<stdin>"
    else:
        name = path
        try:
            import os
            size = os.path.getsize(path)
            if size > MAX_BYTES:
                raise InputError(f"the file is {size:,} bytes; an incident is at most {MAX_BYTES:,}", name,
                                 hint="is this the right file?")
            with open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except FileNotFoundError:
            raise InputError("no such file", name)
        except IsADirectoryError:
            raise InputError("this is a directory, not an incident file", name)
        except PermissionError:
            raise InputError("the file cannot be read (permission denied)", name)
    if len(data) > MAX_BYTES:
        raise InputError(f"the input is over {MAX_BYTES:,} bytes; an incident is far smaller", name)
    if b"\x00" in data:
        raise InputError("this is binary data, not a YAML incident", name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"the file is not UTF-8 text (byte {e.start})", name)
    return text, name


# ----------------------------------------------------------------------------------------
# Value parsers, one per schema type. Each returns a normalised Python value or raises.
# ----------------------------------------------------------------------------------------
class Checker:
    def __init__(self, file: str, players: dict[str, str] | None = None, candidates=(), game=(7, "1")):
        self.file = file
        self.game_points, self.game_law = game     # what a game is, in the code in force
        self.players = players or {}          # seat -> name
        self.by_name = {v.lower(): k for k, v in self.players.items()}
        self.candidates = {c.lower(): c for c in candidates}

    def err(self, y: Y, msg: str, hint: str | None = None):
        return InputError(msg, self.file, y.line, y.col, hint)

    def seat(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str):
            s = SEAT_WORDS.get(v.strip().lower())
            if s:
                return s
            s = self.by_name.get(v.strip().lower())
            if s:
                return s
        names = ", ".join(self.players.values())
        hint = "a seat is N, E, S or W" + (f", or one of the players: {names}" if names else "")
        raise self.err(y, f"{what}: '{v}' is not a seat", hint)

    def person(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str):
            key = v.strip().lower()
            if key in self.candidates:
                return ("name", self.candidates[key])
            if key in SEAT_WORDS or key in self.by_name:
                return ("seat", self.seat(y, what))
            close = suggest(v, list(self.candidates.values()))
            raise self.err(y, f"{what}: '{v}' is not among the candidates",
                           f"did you mean '{close}'?" if close else "list everyone in `candidates`")
        raise self.err(y, f"{what}: expected a player's name")

    def card(self, y: Y, what: str):
        v = y.value
        if isinstance(v, (str, int)):
            m = CARD_RE.match(str(v).strip())
            if m:
                rank = RANKS[m.group(1).lower()]
                s = m.group(2).lower()
                suit = SUITS.get(s) or SUITS.get(s[0])
                return (rank, suit)
        raise self.err(y, f"{what}: '{v}' is not a card",
                       "write rank then suit: AS, KH, QD, JC, 10S (or TS), 9H ... 2C")

    def suit(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in SUITS:
            return SUITS[v.strip().lower()]
        raise self.err(y, f"{what}: '{v}' is not a suit", "a suit is spades, hearts, diamonds or clubs")

    def holding(self, y: Y, what: str):
        items = y.value if isinstance(y.value, list) else [y]
        out = []
        for it in items:
            v = it.value
            if isinstance(v, str) and v.strip().lower() in SUITS:
                out.append(("suit", SUITS[v.strip().lower()]))
            else:
                try:
                    out.append(("card", self.card(it, what)))
                except InputError:
                    raise self.err(it, f"{what}: '{v}' is neither a card nor a suit",
                                   "e.g. holding: spades, or holding: [KS, 5S]")
        return out

    def cards(self, y: Y, what: str):
        items = y.value if isinstance(y.value, list) else [y]
        return [self.card(it, what) for it in items]

    def seats(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in SIDE_WORDS:
            return list(schema.SIDES[SIDE_WORDS[v.strip().lower()]])
        items = v if isinstance(v, list) else [y]
        return [self.seat(it, what) for it in items]

    def side(self, y: Y, what: str):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in SIDE_WORDS:
            return SIDE_WORDS[v.strip().lower()]
        raise self.err(y, f"{what}: '{v}' is not a side", "a side is N-S or E-W")

    def integer(self, y: Y, what: str, lo=0, hi=10_000):
        v = y.value
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(y, f"{what}: expected a whole number, not '{v}'")
        if not lo <= v <= hi:
            raise self.err(y, f"{what}: {v} is out of range ({lo} to {hi})")
        return v

    def boolean(self, y: Y, what: str):
        if isinstance(y.value, bool):
            return y.value
        raise self.err(y, f"{what}: expected true or false, not '{y.value}'")

    def text(self, y: Y, what: str):
        if isinstance(y.value, (dict, list)):
            raise self.err(y, f"{what}: expected text")
        return "" if y.value is None else str(y.value)

    def choice(self, y: Y, what: str, choices):
        v = y.value
        if isinstance(v, str) and v.strip().lower() in choices:
            return v.strip().lower()
        close = suggest(str(v), choices)
        raise self.err(y, f"{what}: '{v}' is not one of {', '.join(choices)}",
                       f"did you mean '{close}'?" if close else None)

    def remedy(self, y: Y, what: str):
        v = y.value
        ids = registry.remedy_ids()
        if isinstance(v, str) and v.strip().lower() in ids:
            return v.strip().lower()
        close = suggest(str(v), ids)
        raise self.err(y, f"{what}: '{v}' is not a remedy the laws give",
                       f"did you mean '{close}'?" if close else "`adjudicator remedies` lists them")

    def mapping(self, y: Y, what: str):
        if not isinstance(y.value, dict):
            raise self.err(y, f"{what}: expected a mapping (key: value)")
        return y.value

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
            items = y.value if isinstance(y.value, list) else [y]
            return [self.text(i, what) for i in items]
        if t == "card":
            return self.card(y, what)
        if t == "cards":
            return self.cards(y, what)
        if t == "holding":
            return self.holding(y, what)
        if t == "suit":
            return self.suit(y, what)
        if t == "suits":
            items = y.value if isinstance(y.value, list) else [y]
            return [self.suit(i, what) for i in items]
        if t == "int":
            return self.integer(y, what)
        if t == "trick":
            return self.integer(y, what, 1, 13)
        if t == "bool":
            return self.boolean(y, what)
        if t == "text":
            return self.text(y, what)
        if t == "remedy":
            return self.remedy(y, what)
        if t == "side-scores":
            m = self.mapping(y, what)
            out = {}
            for k, v in m.items():
                side = self.side(y.keys[k], f"{what} key")
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
            for k, v in m.items():
                side = self.side(y.keys[k], f"{what} key")
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
            raise ck.err(ky, f"unknown key '{key}' in {what}", hint)


def parse(text: str, file: str, allow_case: bool = True) -> Incident:
    root = load_text(text, file)
    ck = Checker(file)
    if not isinstance(root.value, dict):
        raise ck.err(root, "an incident is a mapping with `game` and `events` at the top",
                     "see docs/incident-format.md")
    top = root.value
    _check_keys(ck, root, schema.TOP_KEYS, "the incident")
    for req in ("game", "events"):
        if req not in top:
            raise InputError(f"the incident has no `{req}`", file, root.line, root.col,
                             "an incident needs `game` and `events`; see docs/incident-format.md")
    if not allow_case:
        for k in ("name", "expected"):
            if k in top:
                raise ck.err(root.keys[k], f"`{k}` belongs in case files only")

    game = ck.text(top["game"], "game").strip().lower()
    games = registry.games()
    if game not in games:
        close = suggest(game, games)
        raise ck.err(top["game"], f"unknown game '{game}'",
                     f"did you mean '{close}'?" if close else f"known games: {', '.join(games)}")
    if "code" in top:
        code = ck.text(top["code"], "code").strip().lower()
        codes = registry.codes_of(game)
        if code not in codes:
            close = suggest(code, codes)
            raise ck.err(top["code"], f"'{code}' is not a code of {game}",
                         f"did you mean '{close}'?" if close else f"codes of {game}: {', '.join(codes)}")
    else:
        code = registry.default_code(game)

    out: dict[str, Any] = {}
    players: dict[str, str] = {}
    if "players" in top:
        m = ck.mapping(top["players"], "players")
        for k, v in m.items():
            seat = ck.seat(top["players"].keys[k], "players")
            players[seat] = ck.text(v, f"players.{k}").strip()
        out["players"] = players
    candidates: list[str] = []
    if "candidates" in top:
        items = top["candidates"].value
        if not isinstance(items, list):
            raise ck.err(top["candidates"], "candidates: expected a list of names")
        candidates = [ck.text(i, "candidates").strip() for i in items]
        out["candidates"] = candidates
    info = registry.code_info(code)
    ck = Checker(file, players, candidates, (info.get("game-points", 7), str(info.get("game-law", "1"))))

    dummies = _dummies(ck, root, game)
    if dummies:
        out["dummies"] = dummies
    if "dealer" in top:
        out["dealer"] = ck.seat(top["dealer"], "dealer")
    if "trump" in top:
        y = top["trump"]
        if isinstance(y.value, str) and y.value.strip().lower() in SUITS:
            out["trump"] = SUITS[y.value.strip().lower()]
        else:
            c = ck.card(y, "trump (a suit or the trump card)")
            out["trump"] = c[1]
            out["trump_card"] = c
    if "score" in top:
        out["score"] = ck.value(schema.TOP_KEYS["score"], top["score"], "score")
    if "rubber" in top:
        out["rubber"] = ck.value(schema.TOP_KEYS["rubber"], top["rubber"], "rubber")
    if "start" in top:
        m = ck.mapping(top["start"], "start")
        _check_keys(ck, top["start"], {"trick": None, "leader": None}, "start")
        if "trick" not in m or "leader" not in m:
            raise ck.err(top["start"], "start needs both `trick` and `leader`", "e.g. start: {trick: 5, leader: W}")
        out["start"] = (ck.integer(m["trick"], "start.trick", 1, 13), ck.seat(m["leader"], "start.leader"))
    if "hands" in top:
        m = ck.mapping(top["hands"], "hands")
        hands = {}
        for k, v in m.items():
            seat = ck.seat(top["hands"].keys[k], "hands")
            hands[seat] = ck.cards(v, f"hands.{k}")
        out["hands"] = hands
    if "games-played" in top:
        m = ck.mapping(top["games-played"], "games-played")
        gp = {}
        for k, v in m.items():
            kind, who = ck.person(top["games-played"].keys[k], "games-played")
            gp[who] = ck.integer(v, f"games-played.{k}", 0, 1000)
        out["games_played"] = gp

    events = parse_events(ck, top["events"])
    inc = Incident(file=file, game=game, code=code, top=out, events=events,
                   players=players, candidates=candidates)
    if "name" in top:
        inc.name = ck.text(top["name"], "name")
    if "expected" in top:
        inc.expected = top["expected"]
        inc.expected_pos = (top["expected"].line, top["expected"].col)
    return inc


# Which top-level key names the Dummy hands, for each game that has them.
DUMMY_KEYS = {"dummy": "dummy", "double-dummy": "dummies"}


def _dummies(ck: Checker, root: Y, game: str) -> list[str]:
    """The seats of the Dummy hands: `dummy: N` (game dummy), `dummies: [N, E]` (double-dummy).

    Required for those games, refused for any other; the rules derive who plays each hand."""
    top = root.value
    want = DUMMY_KEYS.get(game)
    for key in ("dummy", "dummies"):
        if key in top and key != want:
            if want:
                hint = f"in {game} the Dummy hand{'s are' if want == 'dummies' else ' is'} given by `{want}`"
            else:
                hint = f"a Dummy hand belongs to the games dummy (`dummy: N`) and double-dummy " \
                       f"(`dummies: [N, E]`); remove `{key}`, or say `game: dummy`"
            raise ck.err(root.keys[key], f"`{key}` is not a key of the game {game}", hint)
    if want is None:
        return []
    if want not in top:
        example = "dummy: N" if want == "dummy" else "dummies: [N, E]"
        raise InputError(f"the game {game} needs `{want}`: which seat is Dummy's hand", ck.file,
                         root.line, root.col, f"add e.g. `{example}` at the top of the incident")
    y = top[want]
    if want == "dummy":
        if isinstance(y.value, list):
            raise ck.err(y, "dummy: one seat, the seat of Dummy's hand", "e.g. dummy: N")
        return [ck.seat(y, "dummy")]
    seats = ck.seats(y, "dummies")
    sides = {side for side, members in schema.SIDES.items() for s in seats if s in members}
    if len(seats) != 2 or len(sides) != 2:
        raise ck.err(y, "dummies: two seats, one Dummy on each side",
                     "each player has a Dummy for his partner, e.g. dummies: [N, E]")
    return seats


def parse_events(ck: Checker, y: Y) -> list[Event]:
    if not isinstance(y.value, list):
        raise ck.err(y, "events: expected a list, one '- name: {fields}' item per event",
                     "e.g.\n  events:\n    - lead: {by: W, card: KS}")
    out: list[Event] = []
    for i, item in enumerate(y.value, start=1):
        if not isinstance(item.value, dict) or len(item.value) != 1:
            raise ck.err(item, f"event {i}: each event is a one-key mapping, '- name: {{fields}}'",
                         "e.g. - lead: {by: W, card: KS}")
        (name, body), = item.value.items()
        kname = item.keys[name]
        ev = schema.EVENTS.get(name)
        if ev is None:
            close = suggest(name, schema.EVENTS)
            raise ck.err(kname, f"unknown event '{name}'",
                         f"did you mean '{close}'?" if close else "docs/incident-format.md lists the events")
        fields: dict[str, Any] = {}
        if body.value is None:
            body_map: dict[str, Y] = {}
        elif isinstance(body.value, dict):
            body_map = body.value
            allowed = {f.name: f for f in ev.fields}
            _check_keys(ck, body, allowed, f"event '{name}'")
        else:
            raise ck.err(body, f"event '{name}': its fields go in a mapping, e.g. '- {ev.example[2:]}'")
        for f in ev.fields:
            if f.name in body_map:
                fields[f.name] = ck.value(f, body_map[f.name], f"{name}.{f.name}")
            elif f.required:
                raise ck.err(kname, f"event '{name}' needs `{f.name}` ({f.doc})", f"e.g. {ev.example}")
        if name == "wrong-number" and ("surplus" in fields) == ("missing" in fields):
            raise ck.err(kname, "event 'wrong-number' needs exactly one of `surplus` and `missing`",
                         "e.g. - wrong-number: {player: W, missing: 1}")
        out.append(Event(index=i, name=name, fields=fields, line=kname.line))
    return out


def load(path: str, stdin_text: str | None = None, allow_case: bool = True) -> Incident:
    text, name = read_source(path, stdin_text)
    return parse(text, name, allow_case)
