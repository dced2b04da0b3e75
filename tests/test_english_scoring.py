"""The English scoring laws (1-12): the cases that need a revoke are there (they run under cases/
with the revoke laws); and the input the scoring laws read (a score before the hand, the games of
the rubber), refused with a clear error when it cannot be.
"""
import os

import pytest

from adjudicator.core import incident
from adjudicator.errors import InputError

from .conftest import ROOT

ENGLISH = os.path.join(ROOT, "cases", "whist", "english-1864")

# The scoring cases whose incidents hold a revoke.
WITH_REVOKE = [
    "04-72-a-side-at-four-whose-score-a-revoke-penalty-cuts-to-one-still-cannot-score-honours.yaml",
    "05-72-the-claimants-at-two-add-three-and-win-a-treble-though-the-revokers-made-thirteen-tricks-and-four-honours.yaml",
    "05-72-three-tricks-taken-for-a-revoke-are-scored-with-the-claimants-tricks.yaml",
    "05-72-three-points-deducted-from-the-revoking-side-make-the-claimants-game-a-treble.yaml",
    "05-72-the-score-awaits-the-adversaries-choice-of-the-revoke-penalty.yaml",
    "05-82-the-revoking-side-cannot-win-the-game-and-scores-no-more-than-four.yaml",
]


def test_the_revoke_cases_are_there():
    for name in WITH_REVOKE:
        assert os.path.exists(os.path.join(ENGLISH, name)), name


def _parse(src):
    return incident.parse(src, "score.yaml")


def test_a_score_of_five_before_a_hand_is_refused_under_the_english_code():
    with pytest.raises(InputError) as e:
        _parse("game: whist\ncode: english-1864\nscore: {N-S: 5}\nevents: []\n")
    assert e.value.line == 3
    assert "a game is 5 points" in str(e.value) and "law 2" in str(e.value)
    # four is a score before a hand; under the American code, six is too
    _parse("game: whist\ncode: english-1864\nscore: {N-S: 4}\nevents: []\n")
    _parse("game: whist\nscore: {N-S: 6}\nevents: []\n")
    with pytest.raises(InputError) as e:
        _parse("game: whist\nscore: {N-S: 7}\nevents: []\n")
    assert "law 1" in str(e.value)


def test_the_games_of_the_rubber_are_lists_of_values():
    inc = _parse("game: whist\ncode: english-1864\nrubber: {N-S: [2], E-W: []}\nevents: []\n")
    assert inc.top["rubber"] == {"N-S": [2], "E-W": []}
    with pytest.raises(InputError) as e:
        _parse("game: whist\ncode: english-1864\nrubber: {N-S: 2}\nevents: []\n")
    assert e.value.line == 3 and "list" in str(e.value)
    with pytest.raises(InputError) as e:
        _parse("game: whist\ncode: english-1864\nrubber: {N-S: [0]}\nevents: []\n")
    assert "out of range" in str(e.value)
