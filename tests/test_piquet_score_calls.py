"""The score of a piquet deal whose calls and replies are given (laws 46-56 with 62-64).

rules/piquet/score-calls.lp reckons the hand from what was said, not from the cards. When every
declaration is called as held and every reply is true -- the elder hand calls his best point, his
best sequence and his best quatorze or trio in the law's order (46), the younger hand replies
"good", "not good" or "equal" as the cards say, and calls what the elder hand had nothing of after
the lead -- the deal must score exactly as the cards read plainly (test_piquet_score.py's second
reading): the same random deals, the same fixed seed. And a player who sinks a declaration (does
not call it) reckons nothing for it (56): the same deals with the elder hand's point unsaid score
the younger hand's point instead when he calls it, or nobody's.
"""
from __future__ import annotations

import pytest

from tests.test_piquet_score import DEALS as PLAIN_DEALS, NAME, card, deal_totals, point, runs, sets

WORD = {14: "aces", 13: "kings", 12: "queens", 11: "knaves", 10: "tens"}


def best_point(hand):
    """(cards, pips) of the best point (law 62)."""
    return point(hand)


def best_sequence(hand):
    """(length, top, suit) of the longest, then highest, run of three or more; None if none."""
    return max(runs(hand), key=lambda run: run[:2], default=None)


def best_set(hand):
    """(strength, what, rank) of the best quatorze or trio of tens and above; None if none."""
    best = max(sets(hand), default=None)
    if best is None:
        return None
    strength, value = best
    return (strength, "quatorze", strength - 100) if value == 14 else (strength, "trio", strength)


def reply(mine, theirs):
    if theirs is None or mine[:2] > theirs[:2]:
        return "good"
    return "equal" if mine[:2] == theirs[:2] else "not-good"


def call_line(by, kind, held):
    if kind == "point":
        n, v = held
        return f"  - call: {{by: {by}, what: point, count: {n}, value: {v}}}"
    if kind == "sequence":
        n, top, suit = held
        return f"  - call: {{by: {by}, what: sequence, count: {n}, to: {card(top, suit)}}}"
    _, what, rank = held
    return f"  - call: {{by: {by}, what: {what}, of: {WORD[rank]}}}"


def with_calls(src, sink_point=False):
    """The deal's account with the calls and true replies put before the younger hand's first card."""
    head, events = src.split("events:\n")
    hands = {}
    for line in head.splitlines():
        for p in ("elder", "younger"):
            if line.strip().startswith(p + ":"):
                hands[p] = [parse(c) for c in line.split("[")[1].rstrip("]").split(", ")]
    elder_calls, younger_calls = [], []
    for kind, best in (("point", best_point), ("sequence", best_sequence), ("set", best_set)):
        e, y = best(hands["elder"]), best(hands["younger"])
        if kind == "point" and sink_point:
            e = None
        if e is not None:
            elder_calls += [call_line("elder", kind, e), f"  - reply: {{by: younger, answer: {reply(e, y)}}}"]
        elif y is not None:
            younger_calls += [call_line("younger", kind, y), "  - reply: {by: elder, answer: good}"]
    lines = events.rstrip("\n").split("\n")
    new = elder_calls + lines[:1] + younger_calls + lines[1:]
    return head + "events:\n" + "\n".join(new) + "\n", hands


def parse(c):
    rank = {v: k for k, v in NAME.items()}.get(c[:-1]) or int(c[:-1])
    return (rank, c[-1])


# test_piquet_score.py's deals (fixed seeds): its first eight ordinary and first eight strong ones
DEALS = PLAIN_DEALS[:8] + PLAIN_DEALS[16:24]


@pytest.mark.parametrize("src,expected", DEALS, ids=[f"deal-{i}" for i in range(len(DEALS))])
def test_true_calls_and_replies_score_as_the_cards(src, expected):
    called, _ = with_calls(src)
    assert "call:" in called
    assert deal_totals(called) == expected, called


def sunk_point_expected(src, expected):
    """The second reading of the deal with the elder hand's point sunk, or None where the point
    sunk could change a repique or a pique (either total thirty or more): those are left out."""
    _, hands = with_calls(src, sink_point=True)
    pe, py = best_point(hands["elder"]), best_point(hands["younger"])
    plain = dict(expected)
    if pe[:2] > py[:2]:                 # the elder's point was good: now nobody's but the younger's
        plain["elder"] -= pe[0]
        plain["younger"] += py[0]
    elif pe[:2] == py[:2]:              # equal: now the younger's alone
        plain["younger"] += py[0]
    if any(t >= 30 for t in list(expected.values()) + list(plain.values())):
        return None
    return plain


SUNK = [(src, sunk_point_expected(src, exp)) for src, exp in DEALS]
SUNK = [(src, exp) for src, exp in SUNK if exp is not None]


def test_the_sunk_point_deals_compare_something():
    assert len(SUNK) >= 4
    assert any(best_point(with_calls(src, True)[1]["elder"])[:2] > best_point(with_calls(src, True)[1]["younger"])[:2]
               for src, _ in SUNK)


@pytest.mark.parametrize("src,expected", SUNK, ids=[f"deal-{i}" for i in range(len(SUNK))])
def test_a_point_sunk_scores_nothing(src, expected):
    """The elder hand does not call his point: the younger hand's point, which he then calls and the
    elder allows, scores one for each card, and the elder's nothing (56). The rest as the cards."""
    called, _ = with_calls(src, sink_point=True)
    assert deal_totals(called) == expected, called
