"""The --json contract: every ruling carries its keys, its laws, and covers every player."""
import pytest

from adjudicator.core import incident, registry
from adjudicator.lookup import laws

from .conftest import CASES, solved

RULING_KEYS = {"remedy", "text", "laws", "against", "in_favour_of", "may_exact", "may_not_exact",
               "choice", "because"}


def _result(path):
    inc = incident.load(path)
    return inc, solved(path).result     # None for a case that must be refused (solved once per run)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.split("cases/")[-1])
def test_contract(path):
    inc, res = _result(path)
    if res is None:
        return
    assert {"game", "code", "summary", "rulings", "findings"} <= set(res)
    assert res["summary"] and all(isinstance(x, str) and x for x in res["summary"])
    assert res["rulings"], "never an empty answer: 'no penalty' is a ruling too"
    known = laws.citations(inc.code)
    remedies = set(registry.remedies())
    findings = {f["finding"] for f in res["findings"]}
    table = registry.table(inc.game)
    parties = set(inc.candidates) if inc.candidates else set(table.seats)
    if table.places_from_players and inc.players:       # a round table: the places taken (loo, poker)
        parties = set(inc.players)
    for f in res["findings"]:
        assert f["text"] and f["laws"] and set(f["laws"]) <= known, f
    for r in res["rulings"]:
        assert RULING_KEYS <= set(r), r
        assert r["remedy"] in remedies, r["remedy"]
        assert r["text"] and r["laws"], r
        assert set(r["laws"]) <= known, f"unknown citation in {r['laws']}"
        may = set(r["may_exact"])
        may_not = {m["seat"] for m in r["may_not_exact"]}
        assert not may & may_not, r
        if r["status"] == "applies":
            # a consequence that follows of itself is no one's to exact: any player not named under
            # may_not_exact (Dummy, "blind and deaf") may insist on it
            assert not may, f"{r['remedy']} follows of itself, yet {may} may exact it"
        else:
            assert may | may_not == parties, f"{r['remedy']}: may {may} and may not {may_not} must cover {parties}"
        for m in r["may_not_exact"]:
            assert m["reason"] and m["laws"] and set(m["laws"]) <= known, m
        assert set(r["because"]) <= findings, r["because"]
        if r["remedy"] in ("no-penalty", "no-remedy"):
            assert not may, "no one may exact a penalty that cannot be enforced"


def test_case_files_state_a_name_and_expectation():
    for path in CASES:
        inc = incident.load(path)
        assert inc.name and len(inc.name) > 20, f"{path}: `name` must state the ruling"
        assert inc.expected is not None, f"{path}: no `expected`"
