"""Incidents ruled together in one grounding (adjudicator/core/batch.py) are ruled as each is alone.

Every bundled case is ruled in batches of its code, beside the other cases of its code (which load
other rule files and hold other facts), and its ruling or refusal compared with the one it gets
alone (tests/conftest.py's `solved`, the ruling `adjudicate` gives for the one file).
"""
from __future__ import annotations

import json
from collections import defaultdict

import pytest

from adjudicator.core import batch, engine, incident, ruling
from adjudicator.errors import AdjudicatorError, InconsistentIncident, InternalError
from tests.conftest import CASES, case_facts, solved


def _plain_cases_by_code() -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for path in CASES:
        code, all_known = case_facts(path)          # (incident.load's, read once per process)
        if all_known:
            out[code].append(path)
    return dict(out)


BY_CODE = _plain_cases_by_code()


def _as_solved(inc, sol) -> dict:
    """What tests/conftest.py's Solved holds, from a batch's answer for one incident."""
    if isinstance(sol, AdjudicatorError):
        return {"error": str(sol)}
    try:
        return {"result": json.loads(json.dumps(ruling.build(inc, sol)))}
    except InconsistentIncident as e:
        return {"problems": list(e.problems)}
    except AdjudicatorError as e:
        return {"error": str(e)}


@pytest.mark.parametrize("code", sorted(BY_CODE))
def test_every_case_ruled_in_a_batch_is_ruled_as_alone(code, monkeypatch):
    monkeypatch.setattr(batch, "FEWEST", 2)     # every code batched, however few its cases
    paths = BY_CODE[code]
    incs = [incident.load(p) for p in paths]
    sols = batch.solve_all(incs)
    assert len(sols) == len(incs)
    for path, inc, sol in zip(paths, incs, sols):
        alone = solved(path)
        want = {k: v for k, v in (("result", alone.result), ("problems", alone.problems), ("error", alone.error))
                if v is not None}
        assert _as_solved(inc, sol) == want, path


def test_the_batches_are_used_and_each_incident_sees_only_its_own_rule_files(monkeypatch):
    """A mixed batch: cases loading different rule files, ruled by one grounding (engine.solve is
    never called), each as alone."""
    calls = []
    real = engine.solve
    monkeypatch.setattr(engine, "solve", lambda inc, *a, **k: calls.append(inc) or real(inc, *a, **k))
    monkeypatch.setattr(batch, "FEWEST", 2)
    paths = BY_CODE["american-1893"][:batch.SIZE]
    incs = [incident.load(p) for p in paths]
    files = {tuple(p.path for p in engine.loaded_parts(engine.program(inc.code), inc)) for inc in incs}
    assert len(files) > 1                       # the batch mixes incidents loading different files
    sols = batch.solve_all(incs)
    assert calls == []
    for path, inc, sol in zip(paths, incs, sols):
        assert sol.files == [p.path for p in engine.loaded_parts(engine.program(inc.code), inc)]
        alone = solved(path)
        assert _as_solved(inc, sol) == {k: v for k, v in (("result", alone.result), ("problems", alone.problems),
                                                          ("error", alone.error)) if v is not None}, path


def test_a_batch_that_fails_is_ruled_again_one_incident_at_a_time(monkeypatch):
    def fails(*args):
        raise InternalError("a batch that gives no answer")
    monkeypatch.setattr(batch, "_solve_batch", fails)
    monkeypatch.setattr(batch, "FEWEST", 2)
    paths = BY_CODE["american-1893"][:4]
    incs = [incident.load(p) for p in paths]
    for path, inc, sol in zip(paths, incs, batch.solve_all(incs)):
        assert not isinstance(sol, Exception) or solved(path).error is not None
        assert _as_solved(inc, sol) == _as_solved(inc, _alone(inc)), path


def _alone(inc):
    try:
        return engine.solve(inc)
    except AdjudicatorError as e:
        return e


def test_few_incidents_of_a_code_and_a_long_account_are_ruled_alone(monkeypatch):
    batched = []
    real = batch._solve_batch
    monkeypatch.setattr(batch, "_solve_batch", lambda code, incs, *a: batched.append(len(incs)) or real(code, incs, *a))
    paths = BY_CODE["american-1893"]
    few = [incident.load(p) for p in paths[:batch.FEWEST - 1]]
    monkeypatch.setattr(batch, "_PREPARED", set())
    batch.solve_all(few)
    assert batched == []                        # fewer than FEWEST, not tagged yet: the tagging would cost more
    batch.solve_all([incident.load(p) for p in paths[:batch.FEWEST]])
    assert batched == [batch.FEWEST]            # FEWEST: one batch
    batched.clear()
    batch.solve_all(few)
    assert batched == [batch.FEWEST - 1]        # the rules tagged already: a batch of any size
    batched.clear()
    monkeypatch.setattr(batch, "SOLO_FACTS", 0)
    batch.solve_all([incident.load(p) for p in paths[:batch.FEWEST]])
    assert batched == []                        # every account "long": each ruled alone


def test_the_kept_texts_of_the_tagged_rules_parse_back_to_the_same_rules():
    """The cache folder keeps a code's tagged rules as texts (adjudicator/core/rulecache.py); parsed
    again they are the same statements."""
    prog = engine.program("american-1893")
    for part in prog.parts:
        tagged = [batch.tag(st) for st in part.statements]
        again = batch._parse([str(st) for st in tagged])
        assert again is not None and [str(st) for st in again] == [str(st) for st in tagged], part.path


def test_a_statement_the_tagging_does_not_cover_is_said_and_the_code_ruled_alone(monkeypatch):
    from clingo import ast
    stms: list = []
    ast.parse_string("{ a(X) : b(X) }.", stms.append)         # a choice: no rule file makes one
    with pytest.raises(batch.Untaggable):
        batch.tag(stms[-1])

    def untaggable(*args):
        raise batch.Untaggable("{ a(X) : b(X) }.")
    monkeypatch.setattr(batch, "_solve_batch", untaggable)
    monkeypatch.setattr(batch, "FEWEST", 2)
    paths = BY_CODE["american-1893"][:3]
    incs = [incident.load(p) for p in paths]
    for inc, sol in zip(incs, batch.solve_all(incs)):
        assert _as_solved(inc, sol) == _as_solved(inc, _alone(inc))
