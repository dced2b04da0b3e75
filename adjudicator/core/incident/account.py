"""An account read whole: the top-level keys, the table, the events in order (parse, load).

`load` reads a file or standard input (yamlread), checks every value (checker, games) and returns
the checked Incident (model); what the values mean is left to the rules.
"""
from __future__ import annotations

from typing import Any

from adjudicator.core import registry, schema
from adjudicator.core.incident.checker import SUITS, Checker, _check_keys, last_trick
from adjudicator.core.incident.games import (GAME_ONLY_FIELDS, _bid, _dummies, _partie, _stakes, _variations,
                                             field_of_game)
from adjudicator.core.incident.model import Event, Incident
from adjudicator.core.incident.yamlread import MAX_EVENTS, load_text, read_source
from adjudicator.core.values import DECK, HAND, Y, name_key, shown, suggest
from adjudicator.errors import InputError


def parse(text: str, file: str, allow_case: bool = True, as_game: str | None = None,
          as_code: str | None = None) -> Incident:
    """`as_game`: read the incident as one of another game ruled by the same book of laws (`compare`:
    a Boston account under the American whist code); what only its own game has (the bid) is left
    out, and said so in `inc.left_out`. `as_code`: read it as an account under that code, whatever
    its `code` says (`compare`: a score is checked against each code's game)."""
    root = load_text(text, file)
    ck = Checker(file)
    if not isinstance(root.value, dict):
        raise ck.err(root, "an incident is a mapping with `game` and `events` at the top",
                     "see docs/incident-format.md")
    top = root.value
    if not set(top) & set(schema.TOP_KEYS):
        # not an incident at all (another file, a system file through a link): nothing of it is quoted
        raise ck.err(root, "this is not an incident: none of its keys is an incident's (`game`, `events` ...)",
                     "is this the right file? see docs/incident-format.md")
    _check_keys(ck, root, schema.TOP_KEYS, "the incident")
    for req in ("game", "events"):
        if req not in top:
            raise InputError(f"the incident has no `{req}`", file, root.line, root.col,
                             "an incident needs `game` and `events`; see docs/incident-format.md")
    if not allow_case:
        for k in ("name", "expected"):
            if k in top:
                raise ck.err(root.keys[k], f"`{k}` belongs in case files only",
                             f"remove `{k}` to rule on the incident, or run the case with `adjudicator check`")

    game = as_game or ck.text(top["game"], "game").strip().lower()
    games = registry.games()
    if game not in games:
        close = suggest(game, games)
        raise ck.err(top["game"], f"unknown game '{shown(game)}'",
                     f"did you mean '{close}'?" if close else f"known games: {', '.join(games)}")
    if "code" in top and as_game is None:
        code = ck.text(top["code"], "code").strip().lower()
        codes = registry.codes_of(game)
        if code not in codes:
            close = suggest(code, codes)
            raise ck.err(top["code"], f"'{shown(code)}' is not a code of {game}",
                         f"did you mean '{close}'?" if close else f"codes of {game}: {', '.join(codes)}")
    else:
        code = registry.default_code(game)
    code = as_code or code
    ck = Checker(file, table=registry.table(game))      # the game's seats and sides from here on
    ck.game = game

    out: dict[str, Any] = {}
    players: dict[str, str] = {}
    if "players" in top:
        m = ck.mapping(top["players"], "players")
        for k, v in m.items():
            seat = ck.seat(top["players"].keys[k], "players")
            if seat in players:
                raise ck.err(top["players"].keys[k], f"players: '{shown(k)}' is the seat {seat} again",
                             "give each seat once")
            name = ck.name(v, f"players.{k}")
            as_written = v.value if isinstance(v.value, str) else name     # (spaces around it and all)
            twin = next((p for p in players.values() if name_key(p) == name_key(name)), None)
            if twin is not None:
                how = "" if twin == as_written else f" ('{shown(twin)}' in another spelling: {ascii(as_written)})"
                raise ck.err(v, f"players.{k}: '{shown(as_written)}' is already the name of another seat{how}",
                             "each seat has its own player")
            players[seat] = name
        out["players"] = players
    candidates: list[str] = []
    if "candidates" in top:
        if not isinstance(top["candidates"].value, list):
            raise ck.err(top["candidates"], f"candidates: expected a list of names, not '{shown(top['candidates'])}'",
                         "write the names in a list, e.g. candidates: [Ames, Brown, Clark, Dodd]")
        candidates = ck.names(top["candidates"], "candidates")
        out["candidates"] = candidates
    info = registry.code_info(code)
    ck = Checker(file, players, candidates, (info.get("game-points", 7), str(info.get("game-law", "1"))),
                 table=registry.table(game))
    ck.game = game
    if "game-points" in top:        # the points of a game, where the code leaves them to the players
        agreed = info.get("game-points-agreed")
        if not agreed:
            raise ck.err(root.keys["game-points"], f"`game-points`: in {game} the players do not choose the "
                         f"points of a game", f"remove `game-points`: in this code a game is {ck.game_points} "
                         f"points (law {ck.game_law})")
        points = ck.integer(top["game-points"], "game-points", 1, 100)
        if points not in agreed:
            choices = ", ".join(map(str, agreed[:-1])) + f" or {agreed[-1]}"
            raise ck.err(top["game-points"], f"game-points: {points}; in {game} the players may make the game "
                         f"{choices} points (law {ck.game_law})",
                         f"write game-points: {choices} ({ck.game_points} when not said)")
        out["game_points"] = points
        ck.game_points = points        # the scores before the hand are read against it
    if ck.table.places_from_players and players:
        if len(players) < 2:
            raise ck.err(top["players"], f"players: {game} is played by two or more; `players` names the places taken",
                         "name every player at the table, e.g. players: {p1: Ames, p2: Brown, p3: Clark}")
        ck.seated = set(players)

    dummies = _dummies(ck, root, game)
    if dummies:
        out["dummies"] = dummies
    left_out = []
    if "bid" in top and as_game is not None and as_game not in schema.BIDS:
        left_out.append("bid")
    elif "bid" in top:
        out["bid"] = _bid(ck, top["bid"], game)
    if "dealer" in top:
        out["dealer"] = ck.seat(top["dealer"], "dealer")
    if "trump" in top and not registry.trumps(game):
        raise ck.err(root.keys["trump"], f"`trump`: {game} is played without trumps",
                     "remove `trump`")
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
    if "first-deal-of-rubber" in top:
        out["first_deal_of_rubber"] = ck.value(schema.TOP_KEYS["first-deal-of-rubber"],
                                               top["first-deal-of-rubber"], "first-deal-of-rubber")
    if "start" in top:
        m = ck.mapping(top["start"], "start")
        _check_keys(ck, top["start"], {"trick": None, "leader": None}, "start")
        if "trick" not in m or "leader" not in m:
            raise ck.err(top["start"], "start needs both `trick` and `leader`", "e.g. start: {trick: 5, leader: W}")
        out["start"] = (ck.integer(m["trick"], "start.trick", 1, last_trick(game)), ck.seat(m["leader"], "start.leader"))
    hand_lines: dict[str, int] = {}
    if "hands" in top:
        m = ck.mapping(top["hands"], "hands")
        hands = {}
        for k, v in m.items():
            seat = ck.seat(top["hands"].keys[k], "hands")
            if seat in hands:
                raise ck.err(top["hands"].keys[k], f"hands: '{shown(k)}' is the seat {seat} again",
                             "give each seat once")
            hands[seat] = ck.cards(v, f"hands.{k}")
            hand_lines[seat] = top["hands"].keys[k].line
        out["hands"] = hands
    if "partie" in top:
        out["partie"] = _partie(ck, top["partie"], game)
    if "stakes" in top:
        out["stakes"] = _stakes(ck, top["stakes"], game)
    if "jack-pot" in top:
        if game != "poker":
            raise ck.err(root.keys["jack-pot"], f"`jack-pot` is a key of the game poker, not of {game}",
                         "remove `jack-pot`, or write `game: poker`")
        out["jack_pot"] = ck.integer(top["jack-pot"], "jack-pot", 1, 100)
    if "variations" in top:
        if game != "loo":
            raise ck.err(root.keys["variations"], f"`variations` is a key of the game loo, not of {game}",
                         "remove `variations`, or write `game: loo`")
        out["variations"] = _variations(ck, top["variations"])
    if "games-played" in top:
        m = ck.mapping(top["games-played"], "games-played")
        gp, seen = {}, {}
        for k, v in m.items():
            kind, who = ck.person(top["games-played"].keys[k], "games-played")
            ck.once(seen, who, top["games-played"].keys[k], "games-played", "player")
            gp[who] = ck.integer(v, f"games-played.{k}", 0, 1000)
        out["games_played"] = gp

    events = parse_events(ck, top["events"])
    inc = Incident(file=file, game=game, code=code, top=out, events=events,
                   players=players, candidates=candidates)
    inc.code_given = "code" in top and as_game is None
    inc.left_out = left_out
    inc.hand_lines = hand_lines
    inc.key_lines = {k: top[k].line for k in top}
    if "name" in top:
        inc.name = ck.text(top["name"], "name")
    if "unknown" in top:
        inc.unknown = top["unknown"]     # read by unknowns.py: facts not known
    if "expected" in top:
        inc.expected = top["expected"]
        inc.expected_pos = (top["expected"].line, top["expected"].col)
    return inc


def parse_events(ck: Checker, y: Y) -> list[Event]:
    if not isinstance(y.value, list):
        raise ck.err(y, "events: expected a list, one '- name: {fields}' item per event",
                     "e.g.\n  events:\n    - lead: {by: W, card: KS}")
    if len(y.value) > MAX_EVENTS:
        raise ck.err(y.value[MAX_EVENTS], f"event {MAX_EVENTS + 1}: an incident has at most {MAX_EVENTS} events",
                     "describe only what the dispute turns on; `start: {trick: K, leader: X}` begins at a trick")
    out: list[Event] = []
    for i, item in enumerate(y.value, start=1):
        if isinstance(item.value, str) and item.value.strip() in schema.EVENTS:
            ev = schema.EVENTS[item.value.strip()]
            raise ck.err(item, f"event {i}: '{ev.name}' is written without its fields",
                         f"write it as a one-key mapping, e.g. {ev.example}")
        if not isinstance(item.value, dict) or not item.value:
            raise ck.err(item, f"event {i}: each event is a one-key mapping, '- name: {{fields}}'",
                         "e.g. - lead: {by: W, card: KS}")
        if len(item.value) > 1:
            first, second = list(item.keys.values())[:2]
            raise ck.err(second, f"event {i} ('{shown(first.value)}' at line {first.line}) has a second key "
                         f"'{shown(second.value)}': each event is a one-key mapping",
                         "put the fields inside the braces, e.g. - lead: {by: W, card: KS}; "
                         "or, for a new event, begin the line with '- '")
        (name, body), = item.value.items()
        kname = item.keys[name]
        ev = schema.EVENTS.get(name)
        if ev is None:
            close = suggest(name, schema.EVENTS)
            raise ck.err(kname, f"unknown event '{shown(name)}'",
                         f"did you mean '{close}'?" if close else "`adjudicator events` lists the events")
        own = schema.GAME_EVENTS.get(ck.game)
        shared = schema.EVENT_GAMES.get(name)
        if (own is not None and name not in own) or (own is None and name in schema.ONLY_FOR
                                                       and (shared is None or ck.game not in shared)):
            allowed = sorted(own) if own is not None else None
            raise ck.err(kname, f"'{shown(name)}' is not an event of {ck.game}",
                         f"the events of {ck.game}: {', '.join(allowed)}" if allowed else
                         f"it is an event of {', '.join(sorted(shared)) if shared else schema.ONLY_FOR[name]}")
        fields: dict[str, Any] = {}
        if body.value is None:
            body_map: dict[str, Y] = {}
        elif isinstance(body.value, dict):
            body_map = body.value
            allowed = {f.name: f for f in ev.fields}
            _check_keys(ck, body, allowed, f"event '{name}'")
        else:
            raise ck.err(body, f"event '{name}': its fields go in a mapping", f"write it as {ev.example}")
        for f in ev.fields:
            if f.name in body_map:
                fields[f.name] = ck.value(f, body_map[f.name], f"{name}.{f.name}")
            elif f.required:
                raise ck.err(kname, f"event '{name}' needs `{f.name}` ({f.doc})", f"e.g. {ev.example}")
        if name == "wrong-number" and ("surplus" in fields) == ("missing" in fields):
            raise ck.err(kname, "event 'wrong-number' needs exactly one of `surplus` and `missing`",
                         "e.g. - wrong-number: {player: W, missing: 1}")
        if name == "wrong-number":
            # a hand of thirteen cards: he cannot lack more than he was dealt, nor be wrong by none
            for key, top_n in (("missing", HAND), ("surplus", DECK - HAND)):
                if key in fields and not 1 <= fields[key] <= top_n:
                    raise ck.err(body_map[key], f"wrong-number.{key}: {fields[key]} cards "
                                 f"{'too few' if key == 'missing' else 'too many'} cannot be: a hand has {HAND} "
                                 f"cards and the pack {DECK}", f"give a number from 1 to {top_n}")
            # `cards` names the missing cards (English 46): none with a surplus, no more than are missing
            if "cards" in fields and "surplus" in fields:
                raise ck.err(body_map["cards"], "wrong-number.cards: the cards named are the missing ones, and "
                             f"a hand with {fields['surplus']} too many is missing none",
                             "remove `cards` (the cards too many are not named), or write `missing` with the "
                             "number of cards missing")
            if "cards" in fields and "missing" in fields and len(fields["cards"]) > fields["missing"]:
                n, m = len(fields["cards"]), fields["missing"]
                raise ck.err(body_map["cards"], f"wrong-number.cards: {n} missing cards named, but the hand is "
                             f"said to be missing {m}", f"name at most {m} card{'s' if m > 1 else ''}, or write "
                             f"missing: {n}")
        kind_who = fields.get("by") if name == "break-up-table" else None
        who = (kind_who[1] if kind_who[0] == "name" else ck.players.get(kind_who[1], kind_who[1])) if kind_who else None
        if who is not None and any(name_key(p) == name_key(who) for p in fields["players"]):
            raise ck.err(body_map["players"], f"break-up-table: {shown(who)} broke up the table, and is named "
                         "among the players left at it", f"list only the others who sat at it; {shown(who)} left it")
        if name == "leave-cards" and ck.game == "piquet" and fields["by"] == "elder" and fields["count"] > 5:
            raise ck.err(body_map["count"], f"leave-cards.count: the elder hand leaves {fields['count']} cards, "
                         "but his part of the stock is five (law 27: the elder hand's five, the younger "
                         "hand's three)", "give how many of his five he leaves, 1 to 5")
        # piquet's words for a deal (law 15's wrong pack; law 16's deal out of turn, in
        # GAME_ONLY_FIELDS) said of another game, where whose pack it was and whose turn it was are
        # told otherwise
        if name == "deal" and ck.game != "piquet":
            if fields.get("pack") == "wrong":
                raise ck.err(body_map["pack"], "deal.pack: `wrong` is piquet's (law 15: not the pack for this "
                             f"deal), not {ck.game}'s", "write whose pack it was: `pack: own` or `pack: adversaries`")
        for fname in fields:
            if not field_of_game(name, fname, ck.game):
                owner, law, told, fix = GAME_ONLY_FIELDS[(name, fname)]
                raise ck.err(body_map[fname], f"{name}.{fname} is {owner}'s ({law}), not {ck.game}'s: {told}", fix)
        if name == "consult" and len({ck.table.side_of(x) for x in fields["by"]}) > 1:
            raise ck.err(body_map["by"], f"consult: {' and '.join(fields['by'])} are not partners: partners "
                         "consult, adversaries do not", "write the side that consulted, e.g. by: N-S")
        out.append(Event(index=i, name=name, fields=fields, line=kname.line))
    return out


def load(path: str, stdin_text: str | bytes | None = None, allow_case: bool = True, as_game: str | None = None,
         as_code: str | None = None, name: str | None = None) -> Incident:
    """The incident at `path`, or in `stdin_text` when the path is '-' (standard input's bytes, or
    an incident given as text: `name` is then what errors call it, `<stdin>` by default)."""
    text, name = read_source(path, stdin_text, name)
    return parse(text, name, allow_case, as_game, as_code)

