"""Every sentence a ruling prints reads as a sentence: no template placeholder left (`{2}`), no word
doubled ("the the"). Read over the ruling (or the refusal) of every case file; the random incidents
of tests/test_random_incidents.py pass through the same check (`faults`)."""
from __future__ import annotations

import re

import pytest

from tests.conftest import CASES, solved

PLACEHOLDER = re.compile(r"\{\d+\}")
# a word written twice running; "had had" and "that that" can be English, none of our templates
# needs them
DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.I)


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in ("facts", "file"):
                yield from _texts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)


def faults(value) -> list[str]:
    """The sentences in a ruling (any JSON value) with a placeholder left or a word doubled."""
    out = []
    for t in _texts(value):
        if PLACEHOLDER.search(t) or DOUBLED.search(t):
            out.append(t)
    return out


def self_cited(value) -> list[str]:
    """Sentences that end by citing, in brackets, a law their own citation prints again after them
    ("... they lose their right (84) (84)")."""
    out = []
    if isinstance(value, dict):
        for key in ("text", "reason"):
            t, laws = value.get(key), value.get("laws") or []
            if isinstance(t, str) and any(re.search(r"\((law )?%s(:[^)]*)?\)$" % re.escape(str(law)), t)
                                          for law in laws):
                out.append(t)
        for v in value.values():
            out += self_cited(v)
    elif isinstance(value, list):
        for v in value:
            out += self_cited(v)
    return out


def test_self_cited_finds_a_law_printed_twice():
    assert self_cited({"findings": [{"text": "they lose their right (84)", "laws": ["84"]}]})
    assert self_cited([{"text": "gone (84: such decision is final)", "laws": ["84"]}])
    assert not self_cited([{"text": "as law 39 says (39)", "laws": ["84"]}])


def test_faults_finds_both_kinds():
    assert faults({"rulings": [{"text": "East revoked in trick {2}"}]})
    assert faults(["the the trick"]) and not faults(["the trick, the lead"])


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.split("cases/")[-1])
def test_every_text_of_a_case_reads_as_a_sentence(path):
    s = solved(path)
    bad = faults(s.result) + faults(s.problems or []) + faults(s.error or "") + self_cited(s.result)
    assert not bad, "\n".join(bad)
