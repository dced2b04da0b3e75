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
# an atom of the rules printed for want of its sentence: `none(revoke(2,E,12))`, `demanded(7,N,x)`,
# or one capitalized at the head of a sentence: `Chosen(3,elder,alter-own-discard).`
RAW_TERM = re.compile(r"\b[A-Za-z][a-z_-]*\([^()\s]*[,(]")
# one of a thing counted in the plural ("took 1 tricks", "(1 points)"), or a plural left open
# ("revoke(s)")
ONE_IN_PLURAL = re.compile(r"(?<![\d.])\b1 (tricks|points|revokes|honours|cards|counters|games)\b|\w\(s\)")


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


def _sentences(value, key=None):
    """The values a reader is told in words (the ids, `because` and `finding`, are atoms by design)."""
    if isinstance(value, str):
        if key in (None, "text", "reason", "when", "story", "fact", "question"):
            yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _sentences(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _sentences(v, key)


def faults(value) -> list[str]:
    """The sentences in a ruling (any JSON value) with a placeholder left, an atom of the rules in
    place of a sentence, a word doubled, or one thing counted in the plural."""
    out = [t for t in _sentences(value) if RAW_TERM.search(t) or ONE_IN_PLURAL.search(t)]
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


def test_faults_finds_every_kind():
    assert faults({"rulings": [{"text": "East revoked in trick {2}"}]})
    assert faults(["the the trick"]) and not faults(["the trick, the lead"])
    assert faults(["No penalty: none(revoke(2,E,12)); the cards have been cut"])
    assert faults(["E-W took 1 tricks"]) and faults(["for 1 revoke(s): the score"])
    assert not faults(["E-W took 1 trick", "N-S took 11 tricks", "it scores 2.1 points"])


CONDITIONAL = [p for p in CASES if "\nunknown:" in open(p, encoding="utf-8").read()]


@pytest.mark.parametrize("path", CONDITIONAL, ids=lambda p: p.split("cases/")[-1])
def test_every_text_of_a_conditional_ruling_reads_as_a_sentence(path):
    """A ruling on facts not known (adjudicator/core/unknowns.py) is built apart from a plain one: its
    branches once printed `none(revoke(2,E,12))` where the plain ruling said who revoked."""
    import json
    from click.testing import CliRunner
    from adjudicator.cli import main
    r = CliRunner().invoke(main, ["adjudicate", "--json", path])
    assert r.exit_code == 0, r.output
    bad = faults(json.loads(r.stdout)) + self_cited(json.loads(r.stdout))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.split("cases/")[-1])
def test_every_text_of_a_case_reads_as_a_sentence(path):
    s = solved(path)
    bad = faults(s.result) + faults(s.problems or []) + faults(s.error or "") + self_cited(s.result)
    if s.result:        # and as printed: no rule term in any line (a choice's id printed as "(choice
        from adjudicator.core import render      # b24(lead-out-of-turn(1,E,1,W)))", once)
        bad += [f"printed: {line}" for line in render.ruling_text(s.result, {}).splitlines()
                if RAW_TERM.search(line)]
    assert not bad, "\n".join(bad)


def test_a_ruling_given_two_sentences_by_the_rules_is_a_fault_said_not_a_sentence_picked():
    """Which of two texts a ruling printed once hung on the order clingo lists atoms in."""
    from clingo import Function, Number, String
    from adjudicator.core import engine, incident, ruling
    from adjudicator.errors import InternalError
    inc = incident.parse("game: whist\ndealer: S\nevents:\n  - lead: {by: N, card: KS}\n", "two.yaml")
    offence = Function("revoke", [Number(2), Function("e"), Number(12)])
    none = Function("none", [offence])
    sol = engine.Solution(templates={})
    sol.atoms["ruling"].append((none, String("no-penalty")))
    sol.atoms["r_text"] += [(none, none), (none, offence)]
    with pytest.raises(InternalError, match="more than one r_text"):
        ruling.build(inc, engine.canonical(sol))
    sol.atoms["r_text"].pop(0)
    assert ruling.build(inc, engine.canonical(sol))["rulings"][0]["remedy"] == "no-penalty"
