"""pytest collects the case files under cases/: each YAML case is one test item.

A failure prints the file, the case's name (the ruling it proves) and the difference between the
rulings expected and those given.
"""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from adjudicator.core.cache import ENV as CACHE
from tests.conftest import SHARED, solved


def pytest_configure(config):
    """One folder per run where the workers share the cases they have solved (tests/conftest.py),
    and one for the run's cache (adjudicator/core/cache.py): the tests neither read nor fill the user's.
    (The workers of `-n` allocate as every process that imports the package does: clingo's
    allocations to mimalloc, adjudicator/core/allocator.py; they were started with jemalloc
    preloaded before issue 45, as the server then started itself.)"""
    if not hasattr(config, "workerinput") and SHARED not in os.environ:
        config._solved_dir = tempfile.mkdtemp(prefix="adjudicator-solved-")
        os.environ[SHARED] = config._solved_dir
        config._cache_dir = tempfile.mkdtemp(prefix="adjudicator-cache-")
        config._cache_before = os.environ.get(CACHE)
        os.environ[CACHE] = config._cache_dir


def pytest_unconfigure(config):
    folder = getattr(config, "_solved_dir", None)
    if folder:
        os.environ.pop(SHARED, None)
        shutil.rmtree(folder, ignore_errors=True)
    folder = getattr(config, "_cache_dir", None)
    if folder:
        if config._cache_before is None:
            os.environ.pop(CACHE, None)
        else:
            os.environ[CACHE] = config._cache_before
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".yaml" and "cases" in file_path.parts:
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFailure(Exception):
    def __init__(self, outcome):
        super().__init__(outcome.diff)
        self.outcome = outcome


class CaseFile(pytest.File):
    def collect(self):
        yield CaseItem.from_parent(self, name=self.path.stem)


class CaseItem(pytest.Item):
    def runtest(self):
        from adjudicator.core import cases, incident
        from adjudicator.errors import AdjudicatorError
        inc = incident.load(str(self.path))
        if getattr(inc, "unknown", None) is not None:    # facts not known: the conditional ruling
            out = cases.run(str(self.path))
            self.case_name = out.name
            if not out.ok:
                raise CaseFailure(out)
            return
        s = solved(str(self.path))
        if s.error is not None:
            raise AdjudicatorError(s.error)
        out = cases.judge(inc, s.result, s.inconsistent(inc.file))
        self.case_name = out.name
        if not out.ok:
            raise CaseFailure(out)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailure):
            o = excinfo.value.outcome
            return f"{o.path}\n  case: {o.name}\n{o.diff}"
        from adjudicator.errors import AdjudicatorError
        if isinstance(excinfo.value, AdjudicatorError):
            return f"{self.path}\n  {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"case {self.path.name}"


def pytest_terminal_summary(terminalreporter, config):
    """Where the web page's browser tests kept their screenshots (tests/e2e/conftest.py)."""
    from tests.e2e.conftest import screenshot_summary
    screenshot_summary(terminalreporter, config)
