"""What only some games' accounts hold, checked: the bid (Boston's family), the partie (piquet), the
stakes (loo, poker, the Boston family), loo's variations, the Dummies, and the event fields only one game reads.
"""
from __future__ import annotations

from adjudicator.core import registry, schema
from adjudicator.core.incident.checker import Checker, _check_keys
from adjudicator.core.incident.yamlread import MAX_NAME
from adjudicator.core.values import Y, shown
from adjudicator.errors import InputError


def _bid(ck: Checker, y: Y, game: str) -> dict:
    """The bid of a Boston, Solo Whist or Cayenne hand: {by, bid, partner}. Refused in another game,
    and where it cannot be: a bid unknown to the game, two single players (a partner to a bid played
    alone, or the bidder his own partner), a Misère Partout with a bidder."""
    bids = schema.BIDS.get(game)
    if bids is None:
        raise ck.err(y, f"`bid` is not a key of the game {game}",
                     "a bid belongs to the games " + ", ".join(schema.BIDS) + "; remove `bid`")
    m = ck.mapping(y, "bid")
    _check_keys(ck, y, {"by": None, "bid": None, "partner": None, "result": None}, "bid")
    if "bid" not in m:
        raise ck.err(y, "bid needs `bid`: what was undertaken", f"the bids of {game}: {', '.join(bids)}")
    out = {"bid": ck.choice(m["bid"], "bid.bid", bids)}
    if "result" in m:        # how the hand ended for the bidder: the rules check it against the tricks
        out["result"] = ck.choice(m["result"], "bid.result", ("won", "lost"))
        if game == "cayenne":
            # Cayenne's declaration names the trump suit (or none, or nullo) and undertakes
            # no number of tricks (rules/whist/american-1893/bids.lp): a result said of it
            # could be checked against nothing, and was read and then left unread
            raise ck.err(m["result"], f"bid.result: '{shown(m['result'])}', but a declaration at Cayenne names "
                         "the trump suit and undertakes no number of tricks: there is nothing for it to win or lose",
                         "remove `result`; the tricks each side took (`end-of-hand`) tell the hand")
    if out["bid"] == "misere-partout":
        if "by" in m or "partner" in m:
            raise ck.err(y, "bid: Misère Partout is played when no one bids: it has no bidder and no partner",
                         "write bid: {bid: misere-partout}")
        if "result" in m:
            raise ck.err(m["result"], f"bid.result: '{shown(m['result'])}', but Misère Partout has no bidder to "
                         "win or lose it: each plays for himself", "remove `result`; the tricks each took tell the hand")
        return out
    if "by" not in m:
        raise ck.err(y, "bid needs `by`: the seat of the player who made it", "e.g. bid: {by: N, bid: "
                     + bids[0] + "}")
    out["by"] = ck.seat(m["by"], "bid.by")
    partnered = schema.PARTNER_BIDS.get(game, frozenset())
    if "partner" in m:
        if out["bid"] not in partnered:
            raise ck.err(m["partner"], f"bid: the bid {out['bid']} is played alone: there cannot be two single "
                         "players, nor a partner to one",
                         (f"in {game} a partner joins only: {', '.join(sorted(partnered))}" if partnered
                          else f"in {game} no bid is played with a partner"))
        out["partner"] = ck.seat(m["partner"], "bid.partner")
        if out["partner"] == out["by"]:
            raise ck.err(m["partner"], "bid: the bidder's partner is another player than the bidder",
                         "name the partner's seat")
    elif out["bid"] == "proposal":
        raise ck.err(y, "bid: a proposal is played with the player who accepted it: `partner` is missing",
                     "e.g. bid: {by: N, bid: proposal, partner: S}")
    return out


def _partie(ck: Checker, y: Y, game: str) -> dict:
    """`partie: {deals: [{elder: 42, younger: 17}, ...], four-deals: true}`: piquet's partie so far.

    Each deal gives both players' scores, by seat or by name (the players as they sit in this
    incident's deal); the rules reckon the partie from them (laws 71-73)."""
    if game != "piquet":
        raise ck.err(y, f"partie: only a piquet incident has a partie (this is {game})",
                     "remove `partie`, or write `game: piquet`")
    m = ck.mapping(y, "partie")
    _check_keys(ck, y, {"deals": None, "four-deals": None}, "partie")
    if "deals" not in m:
        raise ck.err(y, "partie needs `deals`: the scores of the deals already played",
                     "e.g. partie: {deals: [{elder: 42, younger: 17}]}")
    deals_y = m["deals"]
    if not isinstance(deals_y.value, list):
        raise ck.err(deals_y, "partie.deals: expected a list of deals, each {player: score, ...}",
                     "e.g. deals: [{elder: 42, younger: 17}, {elder: 8, younger: 30}]")
    seats = list(registry.table(game).seats)
    deals = []
    for i, d in enumerate(deals_y.value, start=1):
        what = f"partie.deals[{i}]"
        dm = ck.mapping(d, what)
        scores, seen = {}, {}
        for k, v in dm.items():
            seat = ck.seat(d.keys[k], what)
            ck.once(seen, seat, d.keys[k], what, "player")
            scores[seat] = ck.integer(v, f"{what}.{k}", 0, 10_000)
        missing = [x for x in seats if x not in scores]
        if missing:
            who = [f"{ck.players[x]} ({x})" if x in ck.players else x for x in missing]
            raise ck.err(d, f"{what}: no score for {', '.join(who)}",
                         "give both players' scores in each deal, e.g. {elder: 42, younger: 0}")
        deals.append(scores)
    if len(deals) > 8:
        raise ck.err(deals_y, f"partie.deals: {len(deals)} deals; a partie has six, and at most two "
                     "more after a tie (law 71)", "give the deals of one partie")
    four = False
    if "four-deals" in m:
        four = ck.value(schema.Field("four-deals", "bool", ""), m["four-deals"], "partie.four-deals")
    return {"deals": deals, "four_deals": four}


# The stakes each game's laws speak of (top-level `stakes`), and loo's variations.
# The Boston family counts in the counters its laws name: Boston's and Boston de Fontainebleau's
# white counters (the unit of the tables of payments: "five white counters" an over-trick, 19.boston's
# and 30.boston's red counters worth so many of them), French Boston's counters. Its stakes are given
# in that unit, which the rules name (no `unit`): a red counter's worth, the value of the bid played
# (what each adversary pays the bidder if he succeeds: the table of payments, which the seeds do not
# give), an over-trick's (Boston; Boston de Fontainebleau fixes it at five white counters,
# "payments"), and what is in the pool now.
STAKES = {"poker": ("ante", "limit"), "loo": ("single", "loo", "limit", "pool"),
          "boston": ("red-counter", "bid-value", "over-trick", "pool"),
          "boston-de-fontainebleau": ("red-counter", "bid-value", "pool"),
          "french-boston": ("bid-value", "pool")}
# (the games whose stakes are counted in their laws' own counters, and their name for them)
COUNTERS = {"boston": "white counters", "boston-de-fontainebleau": "white counters", "french-boston": "counters"}
LOO_VARIATIONS = ("club-law", "unlimited-loo", "mixed-loo", "five-card-loo", "irish-loo")


def _stakes(ck: Checker, y: Y, game: str) -> dict:
    """`stakes: {ante: 1, limit: 24, unit: pence}`: the stakes agreed, in one unit (loo, poker); the Boston
    family's, `stakes: {red-counter: 10, bid-value: 100, pool: 40}`, in its laws' own counters."""
    keys = STAKES.get(game)
    if keys is None:
        raise ck.err(y, f"stakes: only a loo, poker or Boston family incident gives stakes (this is {game})",
                     "remove `stakes`, or write the game whose stakes they are (" + ", ".join(STAKES) + ")")
    m = ck.mapping(y, "stakes")
    if game in COUNTERS and "unit" in m:
        raise ck.err(m["unit"], f"stakes.unit: {game} counts its stakes in {COUNTERS[game]}, the unit its laws name; "
                     "there is no other unit to give",
                     f"remove `unit`, and give each stake in {COUNTERS[game]}")
    _check_keys(ck, y, {**{k: None for k in keys}, **({} if game in COUNTERS else {"unit": None})},
                f"stakes (the stakes of {game})")
    out: dict = {k: ck.integer(m[k], f"stakes.{k}", 0, 1_000_000) for k in keys if k in m}
    if "unit" in m:
        out["unit"] = ck.text(m["unit"], "stakes.unit").strip()
        if not out["unit"] or len(out["unit"]) > MAX_NAME or not out["unit"].isprintable():
            raise ck.err(m["unit"], "stakes.unit: the unit's name, one short line of text", "e.g. unit: pence")
    if game == "poker" and "ante" in out and "limit" in out and out["ante"] * 2 > out["limit"]:
        raise ck.err(m["ante"], f"stakes.ante: an ante of {out['ante']} exceeds half the limit ({out['limit']}); "
                     "the ante \u201cmust not exceed one half the limit\u201d (ante.term, stakes.ante)",
                     "give the ante and the limit agreed")
    return out


def _variations(ck: Checker, y: Y) -> list[str]:
    """`variations: [club-law, mixed-loo]`: loo's variations agreed before play."""
    out: list[str] = []
    for it in ck.items(y, "variations", len(LOO_VARIATIONS)):
        v = ck.choice(it, "variations", LOO_VARIATIONS)
        if v in out:
            raise ck.err(it, f"variations: '{v}' is named twice", "name each variation once")
        out.append(v)
    if "unlimited-loo" in out and "mixed-loo" in out:
        raise ck.err(y, "variations: unlimited loo and mixed loo (unlimited with a limit) cannot both be played",
                     "name one of them")
    if "five-card-loo" in out and "irish-loo" in out:
        raise ck.err(y, "variations: five-card loo and Irish loo deal five and three cards: one of them",
                     "name one of them")
    return out


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
    sides = {ck.table.side_of(s) for s in seats}
    if len(seats) != 2 or len(sides) != 2:
        raise ck.err(y, "dummies: two seats, one Dummy on each side",
                     "each player has a Dummy for his partner, e.g. dummies: [N, E]")
    return seats


# Fields of an event that one game's laws give it and no other's: (event, field) -> (the game, its
# law). Written in another game's incident they are refused; an interview never asks them there, nor
# may an incident leave them `unknown` (adjudicator/interview/ask.py, adjudicator/core/unknowns.py).
# Each: (the game, its law, how another game's incident tells it, the fix).
GAME_ONLY_FIELDS = {("deal", "out-of-turn"): ("piquet", "law 16", "a deal out of turn is told by who dealt",
                                              "write `deal: {by: SEAT}` with the seat that dealt; the dealer's "
                                              "seat is the top-level `dealer`"),
                    ("other-pack-card", "where"): ("piquet", "laws 58, 75", "a card of the other pack is found in "
                                                   "a player's hand", "remove `where`: the card is in the hand of "
                                                   "`player`")}


def field_of_game(event: str, field: str, game: str) -> bool:
    """Whether `field` of the event `event` may be told in an incident of `game`."""
    only = GAME_ONLY_FIELDS.get((event, field))
    return only is None or only[0] == game

