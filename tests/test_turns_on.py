"""The law a ruling turns on: every ruling of every bundled case cites, for each condition that
decided it, a law whose words state that condition.

The rules say what decided each ruling (rules/common/rights.lp, turns_on/2; in --json each ruling's
`turns_on`, ids as the findings' are): a standing remedy its offence, as the law that names or
decides it defines it (a renounce corrected "in time": the law that says until when), and what it
waits for; a right exercised in time, the event that would have ended it; a no-penalty ruling, the
reason no penalty can be had (the law that allows what was done, or the time that ran out, or what
defeated the claim); a right lost, what ended it.

Which laws state a condition is not the rules' word: it is read from the law texts, and kept in
tables beside the rules (rules/**/turns-on*.yaml), each entry a law and the words of that law that
state the condition, checked here against the law's text. A ruling citing only the law that names
its remedy, when another law set the condition (the time of a correction, the consultation that
ends a choice), has none of the laws the table gives for it: the test fails, naming the condition,
the laws cited and the laws that would state it.
"""
from __future__ import annotations

import functools
import glob
import os
import re

import pytest
import yaml

from adjudicator.core import registry
from adjudicator.errors import InputError
from adjudicator.lookup import laws

from .conftest import CASES, ROOT, solved

TABLES = sorted(glob.glob(os.path.join(ROOT, "rules", "**", "turns-on*.yaml"), recursive=True))


def condition_name(ident: str) -> str:
    """A condition's id without its arguments: `corrected-renounce(2,E,3)` -> `corrected-renounce`."""
    return ident.split("(", 1)[0]


@functools.cache
def tables() -> dict[str, dict[str, list[dict]]]:
    """For each code, each condition's entries: [{law, words}], from every table naming the code."""
    out: dict[str, dict[str, list[dict]]] = {}
    for path in TABLES:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        for code in data["codes"]:
            mine = out.setdefault(code, {})
            for name, entries in (data.get("conditions") or {}).items():
                mine.setdefault(name, []).extend(dict(e, table=os.path.relpath(path, ROOT)) for e in entries)
    return out


def _plain(text: str) -> str:
    """Text compared word for word: runs of spaces and line breaks as one space."""
    return re.sub(r"\s+", " ", text).strip()


@functools.cache
def law_text(code: str, ident: str) -> str | None:
    """The words of the law, clause or exception `ident` as `code` cites it (Dummy's rulings cite
    the English laws, French Boston's Boston's: laws.base_with), or None if the code has none."""
    for c in (code, laws.base_with(code, ident)):
        if c is None:
            continue
        try:
            law, clause, exception = laws.find(c, ident)
        except InputError:
            continue
        if exception:
            ex = next(e for e in law.get("exceptions") or [] if e["id"] == exception)
            return _plain(ex.get("text") or "")
        full = _plain(law["text"])
        if clause:
            # a clause is read with the words that open its law ("The penalty for a revoke-- I. Is at
            # the option of the adversaries ..."): the law's text before its first clause
            first = _plain(law["clauses"][0]["text"])
            head = full[:full.find(first)] if first in full else ""
            return f"{head} {_plain(next(k['text'] for k in law['clauses'] if k['id'] == clause))}".strip()
        return full
    return None


def unbacked(code: str, ruling: dict) -> list[str]:
    """What is wrong with a ruling's citations, against the tables: a condition none of whose
    stating laws it cites, or no condition at all. [] when every condition is backed."""
    problems = []
    conditions = ruling.get("turns_on") or []
    if not conditions:
        problems.append(f"{ruling['remedy']}: the rules say nothing it turns on")
    table = tables().get(code, {})
    for ident in conditions:
        name = condition_name(ident)
        stating = [e["law"] for e in table.get(name, [])]
        if not set(stating) & set(ruling["laws"]):
            where = (f"the laws that state it are {', '.join(stating)}" if stating else
                     f"no table gives a law stating `{name}` for {code} (rules/**/turns-on*.yaml)")
            problems.append(f"{ruling['remedy']} [{', '.join(ruling['laws'])}] turns on {ident}: "
                            f"it cites no law that states it; {where}")
    return problems


def _cases():
    return [p for p in CASES if "/cases/" in p]


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.split("cases/")[-1])
def test_each_ruling_cites_the_law_it_turns_on(path):
    s = solved(path)
    if s.result is None:            # (an account refused as impossible: no ruling)
        return
    code = s.result["code"]
    problems = [p for r in s.result["rulings"] for p in unbacked(code, r)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", TABLES, ids=lambda p: os.path.relpath(p, ROOT))
def test_each_entry_quotes_its_law(path):
    """Every entry's words are the law's own (whitespace aside), in a code the table names."""
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    codes = data["codes"]
    assert codes and all(registry.code_info(c) for c in codes)
    wrong = []
    for name, entries in (data.get("conditions") or {}).items():
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", name), f"{name}: a condition id, as the rules name it"
        for e in entries:
            assert set(e) == {"law", "words"} and e["words"].strip(), (name, e)
            texts = {c: law_text(c, str(e["law"])) for c in codes}
            found = [c for c, t in texts.items() if t is not None]
            if not found:
                wrong.append(f"{name}: law {e['law']} is none of {', '.join(codes)}'s")
            for c in found:
                if _plain(e["words"]) not in texts[c]:
                    wrong.append(f"{name}: '{e['words']}' is not in law {e['law']} of {c}")
    assert not wrong, "\n".join(wrong)


# --- the check is exact ----------------------------------------------------------------------------
def test_a_ruling_citing_only_the_law_naming_the_remedy_fails_when_another_law_set_the_condition():
    """English 76 names the remedies of a renounce corrected in time; law 73 says until when it may
    be corrected. A ruling on the corrected renounce citing 76 alone is refused; with 73, accepted."""
    ruling = {"remedy": "call-card", "laws": ["76"], "turns_on": ["corrected-renounce(2,E,3)"]}
    assert unbacked("english-1864", ruling)
    assert not unbacked("english-1864", dict(ruling, laws=["73", "76"]))
    american = {"remedy": "call-card", "laws": ["21", "29"], "turns_on": ["corrected-renounce(2,E,3)"]}
    assert unbacked("american-1893", american)
    assert not unbacked("american-1893", dict(american, laws=["21", "28", "29"]))


def test_no_penalty_citing_only_the_law_on_penalties_fails():
    """The trump card still on the table during the first trick (English 52) or before the second
    is turned and quitted (American 18): no penalty, and it is law 52 or 18 that allows it. The law
    on penalties incurred (87, 39) states no such thing."""
    for code, general in (("english-1864", "87"), ("american-1893", "39")):
        ruling = {"remedy": "no-penalty", "laws": [general], "turns_on": ["nothing-incurred"]}
        assert unbacked(code, ruling), code


def test_a_right_lost_by_consulting_cites_the_law_that_ends_it():
    """English 84: partners who consult which of two penalties to exact lose their right."""
    lost = {"remedy": "call-card", "laws": ["56", "64", "73", "76"], "turns_on": ["consulted(5,N-S)"]}
    assert unbacked("english-1864", lost)
    assert not unbacked("english-1864", dict(lost, laws=lost["laws"] + ["84"]))


def test_a_ruling_that_says_nothing_it_turns_on_fails():
    assert unbacked("american-1893", {"remedy": "call-suit", "laws": ["24"], "turns_on": []})
