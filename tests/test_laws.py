"""The law texts, and that every law is either encoded and exercised by a case, or marked."""
import re
from pathlib import Path

import yaml

from adjudicator import incident, laws, registry

from .conftest import CASES

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
    info = registry.code_info(code)
    folder = Path(registry.rules_dir()) / Path(info["rules"]).parent
    text = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.lp"))
    text += (Path(registry.rules_dir()) / "whist" / "mechanics.lp").read_text(encoding="utf-8")
    return set(re.findall(r'"([0-9]+(?:\.[IVX]+)?|etiquette\.[0-9]|erroneous-scores)"', text))


def _exercised_by_cases():
    out = set()
    for path in CASES:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        for r in (data.get("expected") or {}).get("rulings") or []:
            out |= {str(x) for x in r.get("laws", [])}
    return out


def test_every_law_is_encoded_and_exercised_or_marked():
    cited, exercised = _cited_in_rules(CODE), _exercised_by_cases()
    head = lambda c: c.split(".")[0] if c[0].isdigit() else c
    cited_heads = {head(c) for c in cited} | cited
    exercised_heads = {head(c) for c in exercised} | exercised
    missing = []
    for law in laws.book(CODE)["laws"]:
        if law.get("games"):           # a paragraph for other games only (e.g. Boston bidding)
            continue
        lid = law["id"]
        if law.get("adjudication"):
            assert law.get("reason"), f"law {lid} is marked but gives no reason"
            continue
        if lid not in cited_heads:
            missing.append(f"{lid}: not encoded in the rules and not marked")
        elif lid not in exercised_heads:
            missing.append(f"{lid}: encoded but no case exercises it")
    assert not missing, "\n".join(missing)


def test_law_files_read_refined_concepts_never_the_raw_input():
    """Only the refinement layer (rules/common/events*.lp, play.lp, tricks.lp) reads ev/2 and arg/3."""
    rules = Path(registry.rules_dir())
    offenders = []
    for p in sorted((rules / "whist").rglob("*.lp")) + [rules / "common" / f for f in
                                                         ("rights.lp", "demands.lp", "consistency.lp")]:
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("%", 1)[0]
            if re.search(r"\b(ev|arg)\(", code):
                offenders.append(f"{p.relative_to(rules)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
