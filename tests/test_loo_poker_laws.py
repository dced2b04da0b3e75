"""Loo and Draw Poker (issue 11): every paragraph of each code is encoded and exercised by a case,
or marked `adjudication: none` with its reason, or listed below as still to encode (the lists may
only shrink)."""
import re

import pytest

from adjudicator.lookup import laws

from .test_laws import _exercised_by_cases

# Paragraphs not yet encoded, with why. A paragraph encoded and exercised must leave its list.
POKER_TO_ENCODE: dict[str, str] = {}
LOO_TO_ENCODE: dict[str, str] = {}

REMAINING = {"draw-poker": POKER_TO_ENCODE, "loo": LOO_TO_ENCODE}


def _cited(code):
    text = "\n".join(open(p, encoding="utf-8").read() for p in laws.rule_files(code))
    return set(re.findall(r'"([0-9a-z.\-]+)"', "\n".join(laws._code_part(x) for x in text.splitlines())))


@pytest.mark.parametrize("code", ["draw-poker", "loo"])
def test_every_paragraph_is_encoded_and_exercised_or_marked_or_listed(code):
    cited, exercised = _cited(code), _exercised_by_cases(code)
    remaining = REMAINING[code]
    missing = []
    for law in laws.book(code)["laws"]:
        lid = law["id"]
        if law.get("adjudication"):
            assert law.get("reason"), f"{lid} is marked but gives no reason"
            assert lid not in remaining, f"{lid} is marked: take it off the list"
        elif lid in remaining:
            assert lid not in exercised, f"{lid} is exercised now: take it off the list"
        elif lid not in cited:
            missing.append(f"{lid}: not encoded and not marked")
        elif lid not in exercised:
            missing.append(f"{lid}: encoded but no case exercises it")
    assert not missing, "\n".join(missing)
    assert set(remaining) <= {law["id"] for law in laws.book(code)["laws"]}


def test_poker_rules_of_the_deal_are_all_encoded_or_marked():
    """The brief's first priority: rules 1-18 and the jack-pot, none left on the list."""
    assert not {str(n) for n in range(1, 19)} & set(POKER_TO_ENCODE)
    assert "jack-pot" not in POKER_TO_ENCODE and "foul-hand" not in POKER_TO_ENCODE
