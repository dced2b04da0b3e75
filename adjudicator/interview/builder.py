"""Build an incident on the page without writing YAML: the table, then one event at a time.

Nothing here knows a game: the events offered and their fields come from the incident format's
one definition (schema.py), each field shown by its type (a seat as the four seats and their
players, a yes-or-no as yes / no / not said / I don't know). "I don't know" writes the fact
under `unknown` (docs/unknowns.md), so the ruling says what turns on it, or the interview asks.
The incident travels in the page as YAML (nothing is kept on the server), and the same reader as
the command's checks it after every step, so a mistake is shown with its fix at once.
"""
from __future__ import annotations

import re

import yaml

from adjudicator.core import registry, schema
from adjudicator.errors import InputError

SUITS = ("spades", "hearts", "diamonds", "clubs")
DONT_KNOW = "?"
LISTS = {"cards", "holding", "suits", "seats", "names"}
SELECTS = {"seat", "suit", "bool", "remedy"}
UNKNOWABLE = {"seat", "suit", "bool", "holding"}          # docs/unknowns.md: no list of values needed
SKIPPED = {"side-scores"}                                  # written in the YAML by hand


def games() -> list[tuple[str, list[str]]]:
    """Each game with an encoded code, and its encoded codes (its default first)."""
    out = []
    for g in registry.games():
        codes = [c for c in registry.codes_of(g) if registry.encoded(c)]
        if codes:
            default = registry.default_code(g)
            out.append((g, sorted(codes, key=lambda c: c != default)))
    return out


def seat_words() -> list[tuple[str, str]]:
    """The seats of every game that can be ruled on, each with its word, from the games' tables
    (rules/codes.yaml): whist's four, then piquet's elder and younger hands ..."""
    out: dict[str, str] = {}
    for game, _codes in games():
        t = registry.table(game)
        for seat in t.seats:
            out.setdefault(seat, t.word(seat))
    return list(out.items())


def _allowed(game: str | None, name: str) -> bool:
    """Whether the game's incidents may hold the event (schema.GAME_EVENTS); any game: None."""
    if game is None:
        return True
    own = schema.GAME_EVENTS.get(game)
    return name in own if own is not None else name not in schema.ONLY_FOR


def event_groups(game: str | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """The events, grouped as the format groups them: (group, [(name, what it records)]); with a
    game, only the events its incidents may hold."""
    groups: dict[str, list] = {}
    for ev in schema.EVENTS.values():
        if _allowed(game, ev.name):
            groups.setdefault(ev.group, []).append((ev.name, ev.doc))
    return list(groups.items())


def fields_of(name: str, game: str = "whist") -> list[dict]:
    """How the page asks for each field of the event: its widget, its choices (a seat: the game's
    seats), whether "I don't know" is an answer."""
    ev = schema.EVENTS.get(name)
    if ev is None:
        raise InputError(f"no event '{name[:40]}'", "the incident builder", hint="choose one of the events listed")
    if not _allowed(game, name):
        raise InputError(f"'{name[:40]}' is not an event of {game}", "the incident builder",
                         hint="choose one of the events listed for the game")
    seats = list(registry.table(game).seats) if game in registry.games() else []
    out = []
    for f in ev.fields:
        if f.type in SKIPPED:
            continue
        if f.choices:
            widget, options = "select", list(f.choices)
        elif f.type in ("seat", "person"):
            widget, options = "select", seats
        elif f.type == "suit":
            widget, options = "select", list(SUITS)
        elif f.type == "bool":
            widget, options = "select", ["true", "false"]
        elif f.type == "remedy":
            widget, options = "select", registry.remedy_ids()
        elif f.type in ("int", "trick"):
            widget, options = "number", []
        else:
            widget, options = "text", []
        out.append({"name": f.name, "type": f.type, "doc": f.doc, "required": f.required, "widget": widget,
                    "options": options, "type_doc": schema.TYPES.get(f.type, ""),
                    "dont_know": f.type in UNKNOWABLE or bool(f.choices)})
    return out


_WHOLE = re.compile(r"-?[0-9]+")


def _number(text: str) -> int | str:
    """A number field as written: plain ASCII decimal digits (with a minus) become the number, so that
    the reader checks its range; anything else stays the text written, which the reader refuses with
    its fix. str.isdigit() passed '²' (int() then failed: a 500), '--3' (likewise) and '١' or '𝟑',
    which int() silently made 1 and 3 where the command refuses `trick: ١`; and '-1' was written
    as the text '-1', refused as "written in quotes", which the user never wrote."""
    return int(text) if _WHOLE.fullmatch(text) else text


def _listed(text: str) -> str | list[str]:
    items = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    return items[0] if len(items) == 1 else items


def game_named(given: str, where: str) -> str:
    """The game a builder is given (the web page's form, `ask --game`), read as the reader reads
    `game:` (stripped, any case: `Whist` is whist), or refused, quoting what was written."""
    game = given.strip().lower()
    known = dict(games())
    if game not in known:
        raise InputError(f"no game '{given.strip()[:40]}' to rule on" if given else "no game is named: it is empty", where,
                         hint="choose one of: " + ", ".join(known))
    return game


def table(form: dict) -> dict:
    """The incident's table from the first form: game (and code), players, dealer, trump, where
    the account starts. Values are written as given; the reader checks them."""
    game = game_named(form.get("game") or "", "the incident builder")
    known = dict(games())
    data: dict = {"game": game}
    code = (form.get("code") or "").strip()
    if code:
        if code not in known[game]:
            raise InputError(f"'{code[:40]}' is not a code of {game}", "the incident builder",
                             hint="codes of " + game + ": " + ", ".join(known[game]))
        data["code"] = code
    seats = registry.table(game).seats
    players = {s: form.get(f"player_{s}", "").strip() for s in seats}
    strays = [s for s, _w in seat_words() if s not in seats and form.get(f"player_{s}", "").strip()]
    if strays:
        raise InputError(f"{game} has no seat {strays[0]}", "the incident builder",
                         hint=f"the seats of {game}: {', '.join(seats)}")
    if any(players.values()):
        data["players"] = {s: n for s, n in players.items() if n}
    for key in ("dealer", "trump"):
        if (form.get(key) or "").strip():
            data[key] = form[key].strip()
    trick, leader = (form.get("trick") or "").strip(), (form.get("leader") or "").strip()
    if trick or leader:
        data["start"] = {**({"trick": _number(trick)} if trick else {}),
                         **({"leader": leader} if leader else {})}
    data["events"] = []
    return data


def add_event(data: dict, name: str, form: dict) -> dict:
    """The incident with one more event, from the event's form; a field answered "I don't know"
    is written under `unknown` (at most one a event, as the format allows)."""
    specs = fields_of(name, data.get("game", "whist"))
    fields: dict = {}
    unknown = []
    for spec in specs:
        key = spec["name"]
        value = (form.get(f"f_{key}") or "").strip()
        if value == DONT_KNOW or form.get(f"dk_{key}"):
            if not spec["dont_know"]:
                raise InputError(f"'{key}' of {name} cannot be left unknown here", "the incident builder",
                                 hint="give its value, or leave it out")
            unknown.append(key)
            if spec["required"]:
                fields[key] = spec["options"][0] if spec["options"] else value   # replaced by the possibilities
            continue
        if not value:
            continue
        if spec["type"] == "bool":
            fields[key] = value == "true"
        elif spec["type"] in ("int", "trick"):
            fields[key] = _number(value)
        elif spec["type"] in LISTS:
            fields[key] = _listed(value)
        else:
            fields[key] = value
    if len(unknown) > 1:
        raise InputError(f"{', '.join(unknown)}: only one fact of an event can be unknown", "the incident builder",
                         hint="answer all but one of them (or write the event twice as two accounts)")
    events = list(data.get("events") or [])
    events.append({name: fields})
    out = {**data, "events": events}
    if unknown:
        out["unknown"] = list(data.get("unknown") or []) + [{"event": len(events), "field": unknown[0]}]
    return out


def remove_last(data: dict) -> dict:
    events = list(data.get("events") or [])
    if not events:
        return data
    n = len(events)
    events.pop()
    out = {**data, "events": events}
    rest = [u for u in (data.get("unknown") or []) if not (isinstance(u, dict) and u.get("event") == n)]
    if rest:
        out["unknown"] = rest
    else:
        out.pop("unknown", None)
    return out


def dump(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def values(text: str, name: str = "the incident builder"):
    """The values of an incident's YAML as written, read by the command's reader (incident.load_text,
    YAML 1.2 core: a player named `Off` or `No` stays that text, never a yes-or-no), as plain
    Python data; it refuses what that reader refuses (InputError)."""
    from adjudicator.core.cases import plain
    from adjudicator.core.incident import load_text
    return plain(load_text(text, name))


def load(text: str) -> dict:
    """The incident carried in the page (any YAML the reader accepts is re-read by it later)."""
    from adjudicator.core.incident import MAX_BYTES, read_source
    text, name = read_source("-", text.encode("utf-8", "surrogateescape"))   # size and encoding, as the command
    data = values(text, name)      # the command's reader: no alias, tag or merge key, limits kept, values as written
    if not isinstance(data, dict) or "game" not in data:
        raise InputError("the incident carried by the page is not one the builder made", "the incident builder",
                         hint=f"start again (an incident of at most {MAX_BYTES:,} bytes)")
    return data


def step(text: str, what: str, form: dict) -> tuple[str, str | None]:
    """One step of the builder on the incident carried by the page (`what`: table, add, undo, keep):
    its YAML after the step, and what happened so far told in words (None before the first event).
    The command's reader checks every step: a mistake is refused with its line and fix."""
    from adjudicator.core import incident, narrator
    if what == "table":
        data = table(form)
    else:
        data = load(text)
        if what == "add":
            data = add_event(data, form.get("event", ""), form)
        elif what == "undo":
            data = remove_last(data)
    out = dump(data)
    # (the table too: a dealer 'Q' or a player named 'N' was taken at the table's step, and
    # refused only when the first event was added, on the event's form)
    inc = incident.load("-", out.encode("utf-8"))
    if not data.get("events"):
        return out, None
    return out, narrator.tell(inc)


def fields_for(name: str, text: str = "") -> list[dict]:
    """The fields of an event for the incident the page carries (its game's seats and events)."""
    game = load(text).get("game", "whist") if text else "whist"
    return fields_of(name, game)
