"""The score of a piquet deal (Portland Club laws 61-69), checked against a second reading.

The cases under cases/piquet/ prove each scoring law on deals worked by hand. Here random deals,
played out at random (following suit when able), are scored twice: by the rules
(rules/piquet/score.lp) and by the plain Python below, written from the laws' text alone, and the
two totals must agree. The seed is fixed: the same deals on every run.
"""
from __future__ import annotations

import random

import pytest

from adjudicator.core import engine, incident, ruling

RANKS = [7, 8, 9, 10, 11, 12, 13, 14]
SUITS = "SHDC"
NAME = {11: "J", 12: "Q", 13: "K", 14: "A"}
PIPS = {14: 11, 13: 10, 12: 10, 11: 10}
SEQ = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}


def card(rank: int, suit: str) -> str:
    return f"{NAME.get(rank, rank)}{suit}"


def point(hand):                      # law 62: most cards of a suit, then the pips
    return max((len(cs), sum(PIPS.get(r, r) for r in cs)) for cs in
               ([r for r, s in hand if s == suit] for suit in SUITS))


def runs(hand):                       # every run of three or more: (length, top, suit)
    out = []
    for suit in SUITS:
        ranks = sorted(r for r, s in hand if s == suit)
        start = 0
        for i in range(1, len(ranks) + 1):
            if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
                if i - start >= 3:
                    out.append((i - start, ranks[i - 1], suit))
                start = i
    return out


def sequences(hand):                  # every run of three or more: (length, top)
    return [(n, top) for n, top, _ in runs(hand)]


def sets(hand):                       # law 64: quatorzes (strength 100+) and trios, tens and above
    out = []
    for r in range(10, 15):
        n = sum(1 for rr, _ in hand if rr == r)
        if n == 4:
            out.append((100 + r, 14))
        elif n == 3:
            out.append((r, 3))
    return out


def score(elder, younger, tricks):
    """The deal's totals by laws 62-69; tricks: [(leader, winner)] in order."""
    hands = {"elder": elder, "younger": younger}
    cat = {p: {} for p in hands}
    pe, py = point(elder), point(younger)
    if pe != py:
        good = "elder" if pe > py else "younger"
        cat[good][2] = max(pe, py)[0]
    se, sy = sequences(elder), sequences(younger)
    be, by = max(se, default=None), max(sy, default=None)
    if be != by:
        good = "elder" if (be or (0, 0)) > (by or (0, 0)) else "younger"
        cat[good][3] = sum(SEQ[n] for n, _ in sequences(hands[good]))
    qe, qy = sets(elder), sets(younger)
    if qe or qy:
        good = "elder" if max(qe, default=(0, 0)) > max(qy, default=(0, 0)) else "younger"
        cat[good][4] = sum(v for _, v in sets(hands[good]))
    other = {"elder": "younger", "younger": "elder"}
    bonus = {p: 0 for p in hands}
    for p in hands:                   # law 68: thirty in hand before anything the other counts
        first = min((k for k in cat[other[p]] if k <= 4), default=5)
        if sum(v for k, v in cat[p].items() if k < first) >= 30:
            bonus[p] += 60
    play = {p: 0 for p in hands}
    won = {p: 0 for p in hands}
    running = sum(cat["elder"].values())
    pique_open = not cat["younger"] and bonus["elder"] == 0
    pique = False
    for i, (leader, winner) in enumerate(tricks):
        play[leader] += 1                               # law 65: each card led
        if leader == "elder" and pique_open:
            running += 1
        if winner != leader:
            play[winner] += 1                           # a trick won with a card not led
        if i == len(tricks) - 1:
            play[winner] += 1                           # the last trick: two instead of one
            if winner == "elder" and pique_open:
                running += 1
        if pique_open and running >= 30:
            pique = True
        if winner == "younger":
            pique_open = False
    if pique:
        bonus["elder"] += 30                            # law 69
    for p in hands:
        won[p] = sum(1 for _, w in tricks if w == p)
    cards = {p: (40 if won[p] == 12 else 10 if won[p] > 6 else 0) for p in hands}   # law 66
    return {p: sum(cat[p].values()) + bonus[p] + play[p] + cards[p] for p in hands}


def random_deal(rng, strong=False):
    """A deal at random; `strong`: the elder hand takes most of the high cards and leads them
    first, so that repiques, piques and capots come up."""
    pack = [(r, s) for r in RANKS for s in SUITS]
    rng.shuffle(pack)
    if strong:
        pack.sort(key=lambda c: -c[0] + rng.randint(0, 4))
    hands = {"elder": pack[:12], "younger": pack[12:24]}
    held = {p: list(h) for p, h in hands.items()}
    leader, events, tricks = "elder", [], []
    for _ in range(12):
        follower = "younger" if leader == "elder" else "elder"
        lead = max(held[leader]) if strong else rng.choice(held[leader])
        same = [c for c in held[follower] if c[1] == lead[1]]
        reply = rng.choice(same or held[follower])
        held[leader].remove(lead)
        held[follower].remove(reply)
        events.append(f"  - lead: {{by: {leader}, card: {card(*lead)}}}")
        events.append(f"  - play: {{by: {follower}, card: {card(*reply)}}}")
        winner = follower if reply[1] == lead[1] and reply[0] > lead[0] else leader
        tricks.append((leader, winner))
        leader = winner
    src = ("game: piquet\nhands:\n"
           + "".join(f"  {p}: [{', '.join(card(*c) for c in h)}]\n" for p, h in hands.items())
           + "events:\n" + "\n".join(events) + "\n")
    return src, score(hands["elder"], hands["younger"], tricks)


def deal_totals(src):
    """Each player's total for the deal, as the ruling's findings give it (deal-total)."""
    inc = incident.parse(src, "deal.yaml")
    result = ruling.build(inc, engine.solve(inc))
    out = {}
    for f in result["findings"]:
        if f["finding"].startswith("deal-total("):
            _, seat, n = f["finding"][len("deal-total("):-1].split(",")
            out[seat] = int(n)
    return out


DEALS = ([random_deal(random.Random(1000 + i)) for i in range(16)]
         + [random_deal(random.Random(2000 + i), strong=True) for i in range(16)])


@pytest.mark.parametrize("src,expected", DEALS, ids=[f"deal-{i}" for i in range(len(DEALS))])
def test_the_rules_score_a_deal_as_the_laws_read_plainly(src, expected):
    assert deal_totals(src) == expected, src


def test_the_deals_cover_what_they_should():
    """The seed gives deals that reach each score that matters, so the comparison means something."""
    srcs = [s for s, _ in DEALS]
    assert len(set(srcs)) == len(srcs)
    assert any(t["elder"] > 0 and t["younger"] > 0 for _, t in DEALS)
    plain = {i: score_parts(src) for i, (src, _) in enumerate(DEALS)}
    assert any("repique" in parts for parts in plain.values())
    assert any("pique" in parts for parts in plain.values())
    assert any("capot" in parts for parts in plain.values())


def score_parts(src):
    """What the rules found for a deal: repique, pique, capot."""
    inc = incident.parse(src, "deal.yaml")
    found = {f["finding"].split("(")[0] for f in ruling.build(inc, engine.solve(inc))["findings"]}
    return found
