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


# ---------------------------------------------------------------- the Boston family's stakes (issue 41)
# A case file checks who pays whom and on which law; the sum a ruling names is in its text. Each sum
# below is worked out here from the law's own words (and, for Boston de Fontainebleau, the book's
# own examples), not copied from the program: the ruling must say it.
_RED, _BDF_RATE = 10, 5          # the cases' red counter (white counters); "five white counters each"
STAKED = {
    # "He bids nine hearts, and wins six tricks only. He must pay each adversary 115 white counters"
    # (payments); "pays into it the same amount that he loses to each adversary" (pool.unsuccessful-player)
    "boston-de-fontainebleau/payments-nine-tricks-bid-and-six-won-the-bidder-pays-each-adversary-115-white-counters"
    "-and-as-much-into-the-pool.yaml":
        {"pay-bid-lost": [f"{100 + 3 * _BDF_RATE} white counters"], "pay-pool": [f"{100 + 3 * _BDF_RATE} white counters"]},
    "boston-de-fontainebleau/payments-nine-tricks-bid-and-nine-won-each-adversary-pays-the-bid-and-the-bidder-takes"
    "-the-pool.yaml":
        {"pay-bid-won": ["100 white counters"], "take-pool": ["40 white counters"]},
    # "Each pays 135 counters to the adversary sitting next him, and then they make up 135 more" (pool.winning)
    "boston-de-fontainebleau/payments-seven-with-a-partner-and-nine-won-each-partner-pays-the-adversary-next-him-135"
    "-and-as-much-between-them-to-the-pool.yaml":
        {"pay-bid-lost": ["135 white counters", "135 white counters"], "pay-pool": ["135 white counters"]},
    # four honours "as for four over-tricks", three "as for two" (honours), with two over-tricks
    "boston-de-fontainebleau/honours-seven-won-with-four-honours-dealt-and-called-they-count-as-four-over-tricks.yaml":
        {"pay-bid-won": [f"{60 + (2 + 4) * _BDF_RATE} white counters"]},
    "boston-de-fontainebleau/honours-seven-won-with-three-honours-dealt-and-called-they-count-as-two-over-tricks.yaml":
        {"pay-bid-won": [f"{60 + (2 + 2) * _BDF_RATE} white counters"]},
    # "four red counters into the next pool ... pay the bidder as if he had been successful" (30.boston)
    "boston/30.boston-with-the-stakes-given-the-revoking-adversary-pays-forty-white-counters-into-the-pool-and-each"
    "-pays-the-bidder-the-bids-value.yaml":
        {"pay-pool": [f"four red counters ({4 * _RED} white counters)"], "pay-bidder": ["40 white counters each"]},
    # "after forfeiting one red counter to the pool" (19.boston)
    "boston/19.boston-with-the-stakes-given-the-misdealer-forfeits-a-red-counter-worth-ten-white-counters-to-the"
    "-pool.yaml":
        {"pay-pool": [f"a red counter ({_RED} white counters)"]},
    # "pays five red counters to each of his adversaries" (30.boston)
    "boston/30.boston-with-the-stakes-given-a-revoke-in-misere-partout-pays-fifty-white-counters-to-each-adversary.yaml":
        {"pay-each-player": [f"five red counters ({5 * _RED} white counters) to each"]},
    # "the bidder may immediately claim the stakes" (26.boston-solo-whist): the bid's value from each
    "boston/24.misere-with-the-stakes-given-the-misere-player-claims-the-bids-value-from-each-adversary.yaml":
        {"claim-stakes": ["40 white counters from each adversary"]},
    # "must double the pool" (French Boston, revokes): as much as it holds
    "french-boston/revokes-with-the-pool-given-the-revoking-player-doubles-it-paying-in-as-much-as-it-holds.yaml":
        {"double-pool": ["40 counters into it"]},
    # "the one who has not his complement of tricks must pay the adversaries and double the pool" (French
    # Boston, gathering-tricks): the pool's thirty counters paid into it
    "french-boston/gathering-tricks-a-simple-accepted-lost-the-demander-short-of-five-pays-the-adversaries-and-doubles"
    "-the-pool.yaml":
        {"double-pool": ["30 counters into it"]},
}


@pytest.mark.parametrize("case", sorted(STAKED))
def test_a_boston_family_ruling_says_the_sum_the_law_makes_of_the_stakes(case):
    import os
    from .conftest import ROOT, solved
    result = solved(os.path.join(ROOT, "cases", case)).result
    for remedy, sums in STAKED[case].items():
        texts = [r["text"] for r in result["rulings"] if r["remedy"] == remedy]
        assert len(texts) == len(sums), f"{remedy}: {texts}"
        for text, want in zip(sorted(texts), sums):
            assert want in text, f"{remedy}: expected '{want}' in: {text}"


def test_without_stakes_a_boston_ruling_names_the_payment_in_the_laws_words():
    import os
    from .conftest import ROOT, solved
    result = solved(os.path.join(ROOT, "cases", "boston", "30.boston-an-adversary-of-the-bidder-revoking-pays-four-red"
                                 "-counters-to-the-pool-and-with-his-partners-pays-the-bidder.yaml")).result
    text = {r["remedy"]: r["text"] for r in result["rulings"]}
    assert "four red counters into the next pool" in text["pay-pool"]
    assert "as if he had been successful" in text["pay-bidder"] and "counters" not in text["pay-bidder"]


# ------------------------------------------------------------ a law that decides, not only a finding
# Issue 41: a ruling cites the law it turns on. Each paragraph of Draw Poker and of the Boston
# family's own codes that the rules encode (not marked `adjudication: none`) is cited by a ruling of
# some case -- in its laws, or in the laws of who may not exact it -- not only by a finding; a
# paragraph a case cites only in findings is listed here with why (the list may only shrink).
FINDING_ONLY: dict[tuple[str, str], str] = {}


def _ruled_by_cases(code):
    from .conftest import CASES, case_code, solved
    out = set()
    for path in CASES:
        if case_code(str(path)) != (code, False):
            continue
        for r in solved(str(path)).result["rulings"]:
            out |= set(r["laws"])
            for m in r["may_not_exact"]:
                out |= set(m["laws"])
    return out


@pytest.mark.parametrize("code", ["draw-poker", "boston-de-fontainebleau", "french-boston"])
def test_every_encoded_paragraph_decides_a_ruling_not_only_a_finding(code):
    ruled = _ruled_by_cases(code)
    missing = [law["id"] for law in laws.book(code)["laws"]
               if not law.get("adjudication") and law["id"] not in ruled and (code, law["id"]) not in FINDING_ONLY]
    assert not missing, f"{code}: cited by no case's ruling: {missing}"
    for (c, lid) in FINDING_ONLY:
        assert c != code or lid not in ruled, f"{lid} now decides a ruling: take it off FINDING_ONLY"
