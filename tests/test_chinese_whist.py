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
