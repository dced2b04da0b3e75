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


def shared_once(name: str, make):
    """`make()`'s JSON value, worked out once for the run and shared by the -n workers (the first to
    ask makes it, under a lock; the others wait and read it); without workers, made here."""
    import fcntl
    shared = os.environ.get(SHARED)
    if not shared:
        return json.loads(json.dumps(make()))
    store = Path(shared) / f"{name}.json"
    with open(f"{store}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(store, encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            pass
        out = make()
        tmp = f"{store}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(out, fh)
        os.replace(tmp, store)
        return json.loads(json.dumps(out))


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
def case_facts(path: str) -> tuple[str, bool]:
    """A case's code and whether its facts are all known (no `unknown:`), as `incident.load` reads
    them: read once per process for the test files that group the cases at collection (by code in
    test_batch.py and test_rulecache.py), where each file read every case again."""
    from adjudicator.core import incident
    inc = incident.load(path)
    return inc.code, getattr(inc, "unknown", None) is None


# The quiz's bank (adjudicator/study/quiz.py `case_files`) reads every case file of the bank with
# `_all_known` at each draw: a quiz drawn in a test's process read all 1,451 cases again (2 s),
# some sixty times a run. `_all_known` is a function of the file alone: its answer is kept per
# process for a regular file whose identity, size and time of change are the same (a file replaced
# or edited is read again; a FIFO, a device, a link or a folder is always read), worked out by the
# quiz's own `_all_known` the first time. A command the tests start reads its bank as it does.
_BANK: dict[tuple, bool] = {}


def bank_case(path: str) -> bool:
    """quiz._all_known(path), kept for the file as it is (see above)."""
    import stat
    from adjudicator.study import quiz
    real = getattr(quiz._all_known, "__wrapped__", quiz._all_known)
    try:
        st = os.lstat(path)
    except OSError:
        return real(path)
    if not stat.S_ISREG(st.st_mode):
        return real(path)
    key = (os.path.abspath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _BANK:
        _BANK[key] = real(path)
    return _BANK[key]


@pytest.fixture(scope="session", autouse=True)
def _bank_read_once():
    """Every test's process reads the quiz's bank through `bank_case` (above)."""
    from adjudicator.study import quiz
    real = quiz._all_known

    @functools.wraps(real)
    def kept(path: str) -> bool:
        return bank_case(path)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(quiz, "_all_known", kept)
        yield


# The run's cache folder (the root conftest.py sets $ADJUDICATOR_CACHE for the run), as the first test
# of this process finds it: a test may give itself a folder of its own (tests/test_rulecache.py).
_RUN: dict[str, str | None] = {}


@pytest.fixture(scope="session", autouse=True)
def _run_cache_folder():
    from adjudicator.core.cache import ENV
    _RUN["cache"] = os.environ.get(ENV)


def _store(folder: str, path: str) -> str:
    return os.path.join(folder, hashlib.sha1(os.path.abspath(path).encode()).hexdigest() + ".json")


def _stored(store: str) -> Solved | None:
    try:
        with open(store, encoding="utf-8") as fh:
            return Solved(**json.load(fh))
    except (OSError, ValueError):
        return None


def _keep(store: str, out: Solved) -> None:
    tmp = f"{store}.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(out.__dict__, fh)
    os.replace(tmp, store)          # whole or absent: a worker never reads half a result


_INDEX = {p: i for i, p in enumerate(CASES)}
AHEAD = 64          # how far past a case another worker is solving one solves the next cases meanwhile


def _solve_one_ahead(folder: str, path: str) -> bool:
    """While another worker solves `path`: solve, for the run, the first of the cases after it (the
    order the per-case tests ask for them) that no worker has solved or is solving. False if none."""
    from adjudicator.core.cache import ENV
    import fcntl
    if path not in _INDEX or os.environ.get(ENV) != _RUN.get("cache"):
        return False        # (only in the run's own cache folder, never in a test's)
    for other in CASES[_INDEX[path] + 1:_INDEX[path] + 1 + AHEAD]:
        store = _store(folder, other)
        if os.path.exists(store):
            continue
        with open(f"{store}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            if not os.path.exists(store):
                try:
                    out = _solve(other)
                except Exception:  # noqa: BLE001 - said by the test that asks for that case, not this one
                    return False
                _keep(store, out)
                return True
    return False


@functools.cache
def solved(path: str) -> Solved:
    """The case at `path`, solved once per run (with the rule files its events trigger): by the first
    worker to ask for it, under a lock, the other reading what it kept (while it waits, it solves the
    cases that come next: the two never solve one case twice, nor wait on each other in turn)."""
    import fcntl
    import time
    folder = os.environ.get(SHARED)
    if not folder:
        return Solved(**json.loads(json.dumps(_solve(path).__dict__)))   # as a worker would read it
    store = _store(folder, path)
    while True:
        got = _stored(store)
        if got is not None:
            return got
        with open(f"{store}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pass                        # another worker is solving it
            else:
                got = _stored(store)
                if got is None:
                    got = _solve(path)
                    _keep(store, got)
                return got
        if not _solve_one_ahead(folder, path):
            time.sleep(0.005)
