"""Turn a checked incident into clingo facts, with clingo's symbol API only.

Nothing here is formatted into program text: every fact is a clingo.Symbol, so no string in an
incident can ever become a rule. The rules (rules/common/events.lp) read:

    ev(T,Kind)        event number T is of kind Kind (the event's name, '-' as '_')
    arg(T,Key,Value)  one fact per field value (lists give one fact per element)
    now(N)            the moment after the last event
the game's table from rules/codes.yaml (seat/1, first_seat/1, dealing_seat/1, next/2, seats/1, side/1, side_of/2, other_side/2),
and the top-level facts game/1, code/1, contract/1, bidder/1, acceptor/1 (the bid), dummy/1 (each Dummy hand's seat), dealer/1, trump/1, trump_card/1,
score/2, start/2, dealt/2, candidate/1, games_played/2, rubber_game/3 (side, its I-th game, the game's value),
stake/2, stake_unit/1, jack_pot/1, variation/1 (loo, poker), game_points/1 (the points of a game: rules/codes.yaml's, or the players'),
game_points_agreed/1 (the players' choice, where the code leaves it to them).
"""
from __future__ import annotations

from clingo import Function, Number, String
from clingo.symbol import Symbol, Tuple_

from adjudicator.core import registry, schema
from adjudicator.core.incident import Incident
from adjudicator.core.narrator import unit_singular   # (the unit of the stakes, told as one: the rules read it too)

class _Names(dict):
    """Seat or side ids of any game's table to their atoms: `N` -> n, `elder` -> elder, `N-S` -> ns."""

    def __missing__(self, key: str) -> Symbol:
        return Function(key.lower().replace("-", ""))


SEAT: dict[str, Symbol] = _Names()
SIDE: dict[str, Symbol] = _Names()
SUIT = {s: Function(s) for s in ("spades", "hearts", "diamonds", "clubs")}
TRUE, FALSE = Function("true"), Function("false")


def const(name: str) -> Symbol:
    return Function(name.replace("-", "_"))


def card(c) -> Symbol:
    rank, suit = c
    return Function("c", [Number(rank), SUIT[suit]])


def value_symbols(f: schema.Field, v) -> list[Symbol]:
    t = f.type
    if f.choices:
        return [const(v)]
    if t == "seat":
        return [SEAT[v]]
    if t == "seats":
        return [SEAT[s] for s in v]
    if t == "person":
        kind, who = v
        return [SEAT[who] if kind == "seat" else String(who)]
    if t == "names":
        return [String(n) for n in v]
    if t == "card":
        return [card(v)]
    if t == "cards":
        return [card(c) for c in v]
    if t == "holding":
        return [card(x) if k == "card" else SUIT[x] for k, x in v]
    if t == "suit":
        return [SUIT[v]]
    if t == "suits":
        return [SUIT[s] for s in v]
    if t in ("int", "trick"):
        return [Number(v)]
    if t == "bool":
        return [TRUE if v else FALSE]
    if t == "remedy":
        return [String(v)]
    if t == "side-scores":
        return [Tuple_([SIDE[s], Number(n)]) for s, n in v.items()]
    if t == "text":
        return []          # the rules never read free text
    raise ValueError(f"no symbol for field type {t}")  # pragma: no cover


def table_facts(game: str, taken=None) -> list[Symbol]:
    """The game's table as facts (rules/common/seats.lp reads them): seat/1; next/2, who sits on
    whose left; and, where there are partners, side/1, side_of/2 and other_side/2. At a round table
    (loo, poker) `taken` is the places the incident's players sit in: those are the seats of this
    game, each followed by the next place taken on his left, in the table's order."""
    t = registry.table(game)
    seats = [x for x in t.seats if x in taken] if taken and t.places_from_players else list(t.seats)
    out = [Function("seat", [SEAT[x]]) for x in seats]
    out += [Function("next", [SEAT[x], SEAT[seats[(i + 1) % len(seats)]]]) for i, x in enumerate(seats)]
    out.append(Function("seats", [Number(len(seats))]))
    out.append(Function("first_seat", [SEAT[seats[0]]]))      # (the table's order begins there)
    if t.dealing_seat:          # (two-hands: the dealer is the younger hand, by the seats' names)
        out.append(Function("dealing_seat", [SEAT[t.dealing_seat]]))
    for side, members in t.sides.items():
        out.append(Function("side", [SIDE[side]]))
        out += [Function("side_of", [SEAT[x], SIDE[side]]) for x in members]
        out += [Function("other_side", [SIDE[side], SIDE[o]]) for o in t.sides if o != side]
    return out


def hand_facts(game: str) -> list[Symbol]:
    """How many tricks a hand of the game has (rules/codes.yaml `tricks`): tricks_in_hand/1, none
    for a game played without tricks."""
    n = registry.tricks(game)
    return [Function("tricks_in_hand", [Number(n)])] if n is not None else []


def build(inc: Incident) -> list[Symbol]:
    out: list[Symbol] = [Function("game", [const(inc.game)]), Function("code", [String(inc.code)])]
    out += table_facts(inc.game, inc.players)
    out += hand_facts(inc.game)
    top = inc.top
    for seat in top.get("dummies", []):
        out.append(Function("dummy", [SEAT[seat]]))
    if "bid" in top:        # Boston, Solo Whist, Cayenne: contract/1, bidder/1, acceptor/1
        bid = top["bid"]
        out.append(Function("contract", [const(bid["bid"])]))
        if "by" in bid:
            out.append(Function("bidder", [SEAT[bid["by"]]]))
        if "partner" in bid:
            out.append(Function("acceptor", [SEAT[bid["partner"]]]))
        if "result" in bid:
            out.append(Function("bid_result", [const(bid["result"])]))
    if "dealer" in top:
        out.append(Function("dealer", [SEAT[top["dealer"]]]))
    if top.get("first_deal_of_rubber"):
        out.append(Function("first_deal_of_rubber"))
    if "trump" in top:
        out.append(Function("trump", [SUIT[top["trump"]]]))
    if "trump_card" in top:
        out.append(Function("trump_card", [card(top["trump_card"])]))
    for side, n in top.get("score", {}).items():
        out.append(Function("score", [SIDE[side], Number(n)]))
    for side, values in top.get("rubber", {}).items():
        out.extend(Function("rubber_game", [SIDE[side], Number(i), Number(v)])
                   for i, v in enumerate(values, start=1))
    if "start" in top:
        k, leader = top["start"]
        out.append(Function("start", [Number(k), SEAT[leader]]))
    for seat, cards in top.get("hands", {}).items():
        out.extend(Function("dealt", [SEAT[seat], card(c)]) for c in cards)
    partie = top.get("partie")
    if partie:
        for k, scores in enumerate(partie["deals"], start=1):
            out.extend(Function("partie_deal", [Number(k), SEAT[seat], Number(n)])
                       for seat, n in scores.items())
        out.append(Function("partie_given", [Number(len(partie["deals"]))]))
        if partie["four_deals"]:
            out.append(Function("partie_of_four_deals"))
    # loo and poker: the stakes agreed (stake/2, stake_unit/1), the jack-pot's place in its series,
    # the variations of loo agreed before play
    for key, n in top.get("stakes", {}).items():
        out.append(Function("stake_unit", [String(n)]) if key == "unit" else Function("stake", [const(key), Number(n)]))
        if key == "unit":       # the unit's name for one of it: "1 penny", not "1 pence"
            out.append(Function("stake_unit_one", [String(unit_singular(n))]))
    if "jack_pot" in top:
        out.append(Function("jack_pot", [Number(top["jack_pot"])]))
    # the points that make a game: the players' choice where the code leaves it to them, else the code's
    points = top.get("game_points") or registry.code_info(inc.code).get("game-points")
    if points:
        out.append(Function("game_points", [Number(points)]))
    if "game_points" in top:
        out.append(Function("game_points_agreed", [Number(top["game_points"])]))
    for v in top.get("variations", []):
        out.append(Function("variation", [const(v)]))
    for name in top.get("candidates", []):
        out.append(Function("candidate", [String(name)]))
    for name, n in top.get("games_played", {}).items():
        out.append(Function("games_played", [String(name), Number(n)]))
    for ev in inc.events:
        t = Number(ev.index)
        out.append(Function("ev", [t, const(ev.name)]))
        spec = schema.EVENTS[ev.name]
        for fname, v in ev.fields.items():
            key = const(fname)
            for sym in value_symbols(spec.field(fname), v):
                out.append(Function("arg", [t, key, sym]))
    out.append(Function("now", [Number(len(inc.events) + 1)]))
    return out
