"""The law texts, and that every law is either encoded and exercised by a case, or marked."""
import functools
import re
from pathlib import Path

import pytest
import yaml

from adjudicator.lookup import laws
from adjudicator.core import registry

from .conftest import CASES, case_code, solved

CODE = "american-1893"


def test_law_texts_are_complete():
    book = laws.book(CODE)
    ids = [law["id"] for law in book["laws"]]
    assert ids[:39] == [str(n) for n in range(1, 40)]
    for law in book["laws"]:
        assert law["text"].strip() and law["summary"].strip() and law["section"], law["id"]
    src = book["source"]
    assert src["book"] and src["edition"] and src["year"]
    assert {c["id"] for c in next(l for l in book["laws"] if l["id"] == "17")["clauses"]} == \
        {"I", "II", "III", "IV", "V", "VI"}


def _cited_in_rules(code):
    """Citations in the code's own folder and in the rule files the whist codes share (for the
    shared files, the laws the code names through cite/2)."""
    info = registry.code_info(code)
    folder = Path(registry.rules_dir()) / Path(info["rules"]).parent
    text = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.lp"))
    text += "\n".join(p.read_text(encoding="utf-8") for p in (Path(registry.rules_dir()) / "whist").glob("*.lp"))
    return set(re.findall(r'"([0-9]+(?:\.[IVX]+)?|etiquette\.[0-9]|erroneous-scores)"', text))


@functools.cache
def _exercised_by_cases(code):
    """The laws the code's cases make the engine cite, in a ruling or a finding."""
    out = set()
    for path in CASES:
        its_code, refused = case_code(str(path))
        if its_code != code:
            continue
        s = solved(str(path))       # each case solved once per run (tests/conftest.py)
        if refused:
            # an account refused as impossible exercises the law it cites (e.g. English 14)
            out |= set(s.refusal_strings)
            continue
        result = s.result
        for r in result["rulings"] + result["findings"]:
            out |= set(r["laws"])
        for r in result["rulings"]:
            for m in r["may_not_exact"]:
                out |= set(m["laws"])
    return out


def _coverage(code):
    cited, exercised = _cited_in_rules(code), _exercised_by_cases(code)
    head = lambda c: c.split(".")[0] if c[0].isdigit() else c
    cited_heads = {head(c) for c in cited} | cited
    exercised_heads = {head(c) for c in exercised} | exercised
    missing = []
    for law in laws.book(code)["laws"]:
        if law.get("games"):           # a paragraph for other games only (e.g. Boston bidding)
            continue
        lid = law["id"]
        if law.get("adjudication"):
            assert law.get("reason"), f"law {lid} is marked but gives no reason"
            continue
        if lid not in cited_heads:
            missing.append((lid, "not encoded in the rules and not marked"))
        elif lid not in exercised_heads:
            missing.append((lid, "encoded but no case exercises it"))
    return missing


@pytest.mark.parametrize("code", ["american-1893", "english-1864"])
def test_every_law_is_encoded_and_exercised_or_marked(code):
    missing = _coverage(code)
    assert not missing, "\n".join(f"{lid}: {why}" for lid, why in missing)


def test_law_files_read_refined_concepts_never_the_raw_input():
    """Only the refinement layer (rules/common/events*.lp, play.lp, tricks.lp; a game's own events.lp)
    reads ev/2 and arg/3."""
    rules = Path(registry.rules_dir())
    offenders = []
    for p in sorted((rules / "whist").rglob("*.lp")) + [rules / "common" / f for f in
                                                         ("rights.lp", "demands.lp", "consistency.lp")] + [
            p for p in sorted((rules / "german-whist").glob("*.lp")) if p.name not in ("events.lp", "main.lp")]:
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("%", 1)[0]
            if re.search(r"\b(ev|arg)\(", code):
                offenders.append(f"{p.relative_to(rules)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_every_piquet_law_the_rules_cite_is_exercised_by_a_case():
    """Piquet is encoded law by law (issue 10): each law its rule files cite has a case that makes the
    engine cite it. (Which of laws 1-78 remain to encode is the issue's note, not a test.)"""
    folder = Path(registry.rules_dir()) / "piquet"
    text = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.lp"))
    code_part = "\n".join(line.split("%", 1)[0] for line in text.splitlines())
    cited = set(re.findall(r'"([0-9]+)"', code_part))
    exercised = {c.split(".")[0] for c in _exercised_by_cases("portland-club")}
    assert cited, "no piquet law cited"
    assert cited <= exercised, f"cited but exercised by no case: {sorted(cited - exercised, key=int)}"


# Paragraphs for Boston, Cayenne and Solo Whist not yet encoded (issue 12): each with why. A
# paragraph leaves this list when it is encoded and a case exercises it.
EXCEPTIONS_REMAINING: dict[str, str] = {}


def _game_exceptions(game):
    """The exception paragraphs (and paragraphs of their own) the American book gives a game."""
    out = []
    for law in laws.book("american-1893")["laws"]:
        if game in (law.get("games") or []):
            out.append(law)
        out += [ex for ex in law.get("exceptions") or [] if game in (ex.get("games") or [])]
    return out


@pytest.mark.parametrize("game", ["boston", "cayenne", "solo-whist"])
def test_every_exception_paragraph_is_encoded_and_exercised_or_marked(game):
    """Each paragraph Foster inserts for the game is cited by its rules and exercised by one of its
    cases, or marked `adjudication: none` with the reason, or listed above as not yet encoded."""
    code = registry.default_code(game)
    rules_text = "\n".join(open(p, encoding="utf-8").read() for p in laws.rule_files(code))
    code_part = "\n".join(laws._code_part(line) for line in rules_text.splitlines())
    cited = set(re.findall(r'"([0-9a-z.\-]+)"', code_part))
    exercised = _exercised_by_cases(code)
    missing = []
    for ex in _game_exceptions(game):
        eid = ex["id"]
        if ex.get("adjudication"):
            assert ex.get("reason"), f"{eid} is marked but gives no reason"
            continue
        if eid in EXCEPTIONS_REMAINING:
            assert eid not in exercised, f"{eid} is exercised now: take it off EXCEPTIONS_REMAINING"
            continue
        if eid not in cited:
            missing.append(f"{eid}: not encoded in the rules of {code} and not marked")
        elif eid not in exercised:
            missing.append(f"{eid}: encoded but no case of {game} exercises it")
    assert not missing, "\n".join(missing)


# Paragraphs of those games not yet encoded, with why.
PARAGRAPHS_REMAINING: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("code", ["chinese-whist", "boston-de-fontainebleau", "french-boston", "german-whist"])
def test_every_paragraph_of_a_game_ruled_on_the_american_code_is_exercised_or_marked(code):
    """A game whose own description sends its penalties to whist's (issue 12): each paragraph of it
    is cited by its rules and exercised by a case, or marked `adjudication: none` with the reason."""
    text = "\n".join(open(p, encoding="utf-8").read() for p in laws.rule_files(code))
    cited = set(re.findall(r'"([0-9a-z.\-]+)"', "\n".join(laws._code_part(x) for x in text.splitlines())))
    exercised = _exercised_by_cases(code)
    missing = []
    for law in laws.book(code)["laws"]:
        if law.get("adjudication"):
            assert law.get("reason"), f"{law['id']} is marked but gives no reason"
        elif (code, law["id"]) in PARAGRAPHS_REMAINING:
            assert law["id"] not in exercised, f"{law['id']} is exercised now: take it off the list"
        elif law["id"] not in cited:
            missing.append(f"{law['id']}: not encoded and not marked")
        elif law["id"] not in exercised:
            missing.append(f"{law['id']}: encoded but no case exercises it")
    assert not missing, "\n".join(missing)


# Piquet laws not yet encoded nor marked (issue 10): the list may only shrink. A law encoded or
# marked must leave it; a law missing from it and from the rules fails.
PIQUET_TO_ENCODE = set()


def test_every_piquet_law_is_encoded_and_exercised_or_marked_or_listed_as_still_to_encode():
    missing = dict(_coverage("portland-club"))
    assert set(missing) == PIQUET_TO_ENCODE, (
        f"newly covered (drop from the list): {sorted(PIQUET_TO_ENCODE - set(missing), key=int)}; "
        f"uncovered: {sorted(set(missing) - PIQUET_TO_ENCODE, key=int)}")
