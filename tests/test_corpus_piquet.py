"""The law texts of Piquet (Portland Club): complete, numbered as the laws' own cross-references
require, and true to the seed they were taken from (when the seeds are at hand)."""
import os
import re

import pytest

from adjudicator.lookup import laws
from adjudicator.core import registry

CODE = "portland-club"
SEED = "001_d81be642b234ca0c.txt"

# Every "Law N" / "Laws N and M" in the texts: (the law that refers, the law it names, words the
# named law must contain for the reference to make sense). Worked out from the referring law's
# words, not from the file: if the numbering slipped by one anywhere before N, these would miss.
XREFS = [
    # 12: more than one card dealt wrongly -> fresh deal "(except as provided in Law 10)":
    # law 10 lets the dealer put a wrong deal right.
    ("12", "10", ["If the dealer deal the cards wrongly", "rectify the error"]),
    # 16: the elder hand deals twice running "with the same pack (except as provided in Law 76)":
    # law 76 lets a player call for fresh cards.
    ("16", "76", ["call for fresh cards", "two new packs"]),
    # 21: the elder hand "is obliged to discard one card (except as provided in Law 42)":
    # law 42, the elder hand with eleven cards, need not discard if he takes only one.
    ("21", "42", ["when he has eleven cards", "he need not discard any"]),
    # 22: the younger hand may take in three "(except as provided in Laws 41 and 43)":
    # in both, seven cards in the stock leave him only two.
    ("22", "41", ["there are seven in the stock", "the younger hand can only take two cards"]),
    ("22", "43", ["there are seven in the stock", "the younger hand can only take two cards"]),
    # 22: the younger hand "is obliged to discard one card (except as provided in Law 40)":
    # in law 40 he need not discard if he takes only one.
    ("22", "40", ["The younger hand must discard one less than he takes in",
                  "he need not discard any"]),
    # 27, 28: the elder hand may not touch or mix "the bottom three cards of the stock (except
    # as provided in Laws 41 and 43)": with seven in the stock he may reach into them.
    ("27", "41", ["there are seven in the stock", "the younger hand can only take two cards"]),
    ("27", "43", ["there are seven in the stock", "the younger hand can only take two cards"]),
    ("28", "41", ["there are seven in the stock", "the younger hand can only take two cards"]),
    ("28", "43", ["there are seven in the stock", "the younger hand can only take two cards"]),
    # 56: nothing omitted can be reckoned after the first trick "(except as provided in Law 54)":
    # law 54 lets the adversary of a miscaller reckon what he has good when the error comes out.
    ("56", "54", ["On discovery of the error, the adversary may reckon anything he has good"]),
    # 59: a card played "cannot be taken up, except as provided in Law 52": law 52 lets the elder
    # hand retake his lead when the younger corrects a miscall.
    ("59", "52", ["the elder hand is at liberty to retake the card he led"]),
]

REF = re.compile(r"\bLaws? (\d+)(?: and (\d+))?")


def _book():
    return laws.book(CODE)


def _by_id():
    return {law["id"]: law for law in _book()["laws"]}


def _refs(text):
    out = []
    for m in REF.finditer(text):
        out += [g for g in m.groups() if g and g not in out]
    return out


# (a) complete

def test_registered_with_its_texts_and_its_rules():
    assert registry.default_code("piquet") == CODE
    info = registry.code_info(CODE)
    assert info["game"] == "piquet" and info["laws"] == "piquet/laws.yaml"
    assert info["title"] == _book()["title"] == "The Laws of Piquet, Portland Club"
    assert registry.encoded(CODE) and info["rules"] == "piquet/main.lp"


def test_ids_are_consecutive_and_every_law_is_complete():
    book = _book()
    assert book["code"] == CODE and book["game"] == "piquet"
    ids = [law["id"] for law in book["laws"]]
    assert ids == [str(n) for n in range(1, len(ids) + 1)]
    for law in book["laws"]:
        assert law["text"].strip() and law["section"].strip(), law["id"]
        s = law["summary"].strip()
        assert s.endswith(".") and not re.search(r"[.;:]\s+[A-Z]", s), \
            f"law {law['id']}: the summary should be one sentence"
    src = book["source"]
    assert src["book"] and src["edition"] and src["year"] and src["seeds"] == [SEED]
    assert book["numbering"]["note"].strip()


def test_clauses_are_lines_of_the_text():
    for law in _book()["laws"]:
        lines = law["text"].split("\n")
        for c in law.get("clauses", []):
            assert f"{c['id']}. {c['text']}" in lines, (law["id"], c["id"])
    by_id = _by_id()
    assert [c["id"] for c in by_id["59"]["clauses"]] == ["I", "II", "III", "IV", "V"]
    assert [c["id"] for c in by_id["67"]["clauses"]] == ["I", "II", "III", "IV", "V", "VI"]


# (b) the cross-references pin the numbering

@pytest.mark.parametrize("src,dst,words", XREFS, ids=[f"{s}->{d}" for s, d, _ in XREFS])
def test_a_reference_lands_on_the_law_it_describes(src, dst, words):
    by_id = _by_id()
    assert dst in _refs(by_id[src]["text"]), f"law {src} does not cite law {dst}"
    assert dst in by_id, f"law {src} cites law {dst}, which does not exist"
    missing = [w for w in words if w not in by_id[dst]["text"]]
    assert not missing, f"law {src} cites law {dst}, which does not say {missing}"


def test_every_reference_in_the_corpus_is_in_the_table():
    found = {(law["id"], n) for law in _book()["laws"] for n in _refs(law["text"])}
    table = {(s, d) for s, d, _ in XREFS}
    assert found == table, (f"unchecked references: {sorted(found - table)}; "
                            f"stale table rows: {sorted(table - found)}")
    assert found, "no reference found: the pattern is broken"


def test_refers_to_lists_the_references_of_the_text():
    for law in _book()["laws"]:
        assert law.get("refers_to", []) == _refs(law["text"]), law["id"]


def test_folding_law_60_into_law_59_would_break_law_16s_reference():
    """The one judgement in the numbering: the unnumbered '- A player is entitled to examine ...'
    line after law 59's clauses is a law of its own. Read as part of 59, every later law moves
    down by one and law 16's 'Law 76' would fall on torn or marked cards, not on fresh cards."""
    texts = [law["text"] for law in _book()["laws"]]
    folded = texts[:58] + [texts[58] + "\n" + texts[59]] + texts[60:]
    words = dict(((s, d), w) for s, d, w in XREFS)[("16", "76")]
    assert all(w in texts[75] for w in words)
    assert not any(w in folded[75] for w in words)
    assert len(folded) == len(texts) - 1


# (c) a recount against the seed (skipped on a clean checkout, where the seeds are absent)

def _seed_lines():
    folder = os.environ.get("ADJUDICATOR_SEEDS", "/work/shared/seeds")
    path = os.path.join(folder, SEED)
    if not os.path.exists(path):
        pytest.skip(f"seed {SEED} not found in {folder} (set ADJUDICATOR_SEEDS)")
    with open(path, encoding="utf-8") as fh:
        return fh.read().splitlines()


def _norm(s):
    return " ".join(s.split())


CLAUSE_LINE = re.compile(r"^- ([IVX]+)\. ")


def test_recount_against_the_seed():
    lines = _seed_lines()
    book = _book()
    num = book["numbering"]
    dash = sum(1 for ln in lines if ln.strip() == "-")
    assert dash == num["dash_lines"]
    inline = [ln for ln in lines if ln.startswith("- ")]
    clause_lines = [CLAUSE_LINE.match(ln).group(1) for ln in inline if CLAUSE_LINE.match(ln)]
    law_lines = [ln[2:] for ln in inline if not CLAUSE_LINE.match(ln)]
    assert clause_lines == [c for law in sorted(num["clause_lines"], key=int)
                            for c in num["clause_lines"][law]]
    assert len(law_lines) == len(num["inline_laws"])
    assert dash + len(num["inline_laws"]) == len(book["laws"])
    by_id = _by_id()
    for lid, ln in zip(num["inline_laws"], law_lines):
        first = ln
        for r in by_id[lid].get("repairs", []):
            first = first.replace(r["seed"], r["text"])
        assert by_id[lid]["text"].startswith(first), lid
    for lid, ids in num["clause_lines"].items():
        assert [c["id"] for c in by_id[lid]["clauses"]] == ids


def test_every_law_is_the_seed_text_as_repaired_and_in_the_seed_order():
    lines = _seed_lines()
    book = _book()
    seed = _norm(" ".join(ln[2:] if ln.startswith("- ") else ln
                          for ln in lines if ln.strip() != "-"))
    repaired = seed
    for law in book["laws"]:
        for r in law.get("repairs", []):
            assert r["seed"] in seed, f"law {law['id']}: repair of {r['seed']!r}, not in the seed"
            assert r["text"] in law["text"], f"law {law['id']}: repair {r['text']!r} not in text"
            repaired = repaired.replace(r["seed"], r["text"])
    pos = 0
    for law in book["laws"]:
        at = repaired.find(_norm(law["text"]), pos)
        assert at >= 0, f"law {law['id']}: its text (as repaired) is not in the seed after law " \
                        f"{int(law['id']) - 1}"
        pos = at + 1


def test_sections_are_the_seed_headings_in_order():
    lines = _seed_lines()
    book = _book()
    notes = tuple(book["numbering"]["within_laws"].values())
    headings = [ln for i, ln in enumerate(lines[1:-1], 1)
                if not ln.startswith("-") and lines[i + 1].startswith("-")
                and lines[i - 1].strip() != "-" and not ln.startswith(notes)]
    sections = []
    for law in book["laws"]:
        if not sections or sections[-1] != law["section"]:
            sections.append(law["section"])
    assert sections == headings
