"""Chinese Whist: law 31's right to play the hand out is said with the limit the score is held to,
one short of the game the players made (rules/chinese-whist/penalties.lp), not law 31's six."""
from __future__ import annotations

import os

import pytest

from tests.conftest import ROOT, solved

CASES = os.path.join(ROOT, "cases", "chinese-whist")


@pytest.mark.parametrize("name, limit", [
    ("penalties-a-revoke-carries-the-whist-penalty-of-two-tricks", "nine"),
    ("objects-31-a-revoke-in-a-game-of-five-the-revoking-side-may-play-the-hand-out-up-to-four", "four"),
])
def test_the_play_out_is_said_one_short_of_the_game(name, limit):
    result = solved(os.path.join(CASES, name + ".yaml")).result
    [play_out] = [r for r in result["rulings"] if r["remedy"] == "play-out"]
    assert f"up to the score of {limit}, one short of the game" in play_out["text"]


def _texts(result):
    for r in result["rulings"]:
        yield r["text"]
        for m in r["may_not_exact"]:
            yield m.get("reason", "")
    for f in result["findings"]:
        yield f["text"]


@pytest.mark.parametrize("name, said", [
    # (the misdeal claimed in time: the account settles the bound, which the ruling no longer restates;
    # the Chinese sentence, not whist's "before the trump card is turned", is the one told)
    ("17-i-penalties-an-uncut-pack-claimed-before-the-play-begins-is-a-misdeal-and-loses-the-deal",
     "adversaries may claim a misdeal"),
    ("17-i-penalties-an-uncut-pack-claimed-after-the-first-lead-is-too-late",
     "the play had begun, the trump made, before the error was claimed"),
])
def test_no_trump_card_is_turned_in_the_rulings_on_an_uncut_pack(name, said):
    """MAKING THE TRUMP: the dealer names the trump suit; no card is turned up (law 17.I's bound)."""
    texts = list(_texts(solved(os.path.join(CASES, name + ".yaml")).result))
    assert any(said in t for t in texts)
    assert not any("trump card" in t for t in texts)
