"""Shared by the tests: the case files, and each case solved once per run.

Several test files read the ruling of every case (the case itself, the --json contract, selective
loading, the coverage of the laws). `solved(path)` solves a case once and keeps what every one of
them needs: in this process (functools.cache) and, under pytest-xdist, in a folder the workers
share for the run (`ADJUDICATOR_SOLVED`, set by the root conftest.py), so a case solved on one
worker is read, not solved again, on the other. The folder lives for one run only: no result ever
outlives the rules that gave it.
"""
from __future__ import annotations

import functools
import glob
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests: the same examples on every run of the test command (`ci`, the default: a fixed
# derandomized draw, no example database, so a fresh clone and a reused checkout run the same
# tests); the long exploration draws new examples each time and keeps the failures it finds:
#   HYPOTHESIS_PROFILE=explore .venv/bin/python -m pytest -n 2 tests/test_random_incidents.py
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", max_examples=150, derandomize=True, database=None, deadline=None,
                          suppress_health_check=_QUIET, print_blob=True)
settings.register_profile("explore", max_examples=3000, deadline=None, suppress_health_check=_QUIET,
                          print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True))
SHARED = "ADJUDICATOR_SOLVED"


@pytest.fixture(scope="session")
def case_files():
    return CASES


@dataclass
class Solved:
    """A case's ruling (`result`) or its refusal (`problems` of the contradiction, or `error`, the
    message of any other refusal), and the strings the contradiction's atoms cite."""
    result: dict | None = None
    problems: list[str] | None = None
    error: str | None = None
    refusal_strings: list[str] = field(default_factory=list)

    def inconsistent(self, file: str):
        from adjudicator.errors import InconsistentIncident
        return InconsistentIncident(file, self.problems) if self.problems is not None else None


def _strings(sym):
    if sym.type == sym.type.String:
        yield sym.string
    elif sym.type == sym.type.Function:
        for a in sym.arguments:
            yield from _strings(a)


def _solve(path: str) -> Solved:
    from adjudicator.core import engine, incident, ruling
    from adjudicator.errors import AdjudicatorError, InconsistentIncident
    inc = incident.load(path)
    try:
        sol = engine.solve(inc)
    except AdjudicatorError as e:
        return Solved(error=str(e))
    strings = sorted({s for atom in sol.get("inconsistent") for s in _strings(atom[0])})
    try:
        return Solved(result=ruling.build(inc, sol), refusal_strings=strings)
    except InconsistentIncident as e:
        return Solved(problems=list(e.problems), refusal_strings=strings)
    except AdjudicatorError as e:
        return Solved(error=str(e), refusal_strings=strings)


def made_once(name: str, make, tmp_path_factory) -> Path:
    """A folder `make(folder)` fills, made once for the run and shared by the -n workers (the first
    to ask makes it, under a lock; the others wait and read it); without workers, made here."""
    import fcntl
    shared = os.environ.get(SHARED)
    if not shared:
        folder = tmp_path_factory.mktemp(name) / name
        make(folder)
        return folder
    folder = Path(shared) / name
    with open(f"{folder}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (Path(shared) / f"{name}.done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            make(folder)
            (Path(shared) / f"{name}.done").touch()
    return folder


@functools.cache
def case_code(path: str) -> tuple[str, bool]:
    """A case's code (its own, else its game's default) and whether it expects a refusal: read once
    per process, with libyaml (the coverage tests ask it of every case for each code they check)."""
    import yaml
    from adjudicator.core import registry
    with open(path, encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    code = data.get("code") or registry.default_code(data.get("game", "whist"))
    return code, bool((data.get("expected") or {}).get("error"))


@functools.cache
def solved(path: str) -> Solved:
    """The case at `path`, solved once per run (with the rule files its events trigger)."""
    folder = os.environ.get(SHARED)
    if not folder:
        return Solved(**json.loads(json.dumps(_solve(path).__dict__)))   # as a worker would read it
    key = hashlib.sha1(os.path.abspath(path).encode()).hexdigest()
    store = os.path.join(folder, key + ".json")
    try:
        with open(store, encoding="utf-8") as fh:
            return Solved(**json.load(fh))
    except (OSError, ValueError):
        pass
    out = _solve(path)
    tmp = f"{store}.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(out.__dict__, fh)
    os.replace(tmp, store)          # whole or absent: a worker never reads half a result
    return out
