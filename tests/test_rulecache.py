"""The rules kept between commands (adjudicator/core/rulecache.py): a one-shot ruling that selects its
rules from the kept file gives the ruling the whole program gives; the file is made once, read
after, made again when the rules change or it is damaged, and never needed."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from clingo import ast

from adjudicator.core import cache, engine, incident, registry, rulecache, ruling
from adjudicator.errors import AdjudicatorError

from .conftest import CASES, ROOT
from .test_engine import _triggered

CODES = [c["code"] for c in registry.all_codes() if c.get("rules")]


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """This process as a new command finds it: no rule file read, an empty cache folder."""
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    _forget()
    yield tmp_path / "cache"
    _forget()


def _forget():
    engine._release()
    engine._SEEN.clear()


def _ruling(inc, full=False) -> str:
    try:
        return json.dumps(ruling.build(inc, engine.solve(inc, full=full)), sort_keys=True)
    except AdjudicatorError as e:
        return f"refused: {e}"


def _one_shot(inc) -> tuple[str, bool]:
    """The ruling as a new command gives it, and whether it took the kept rules' texts (no file
    of the code was parsed to give it)."""
    _forget()
    out = _ruling(inc)
    parsed = any(p.parsed for p in engine.program(inc.code).parts)
    return out, not parsed


def _by_code() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in CASES:
        out.setdefault(incident.load(path).code, []).append(path)
    return out


BY_CODE = _by_code()
SMALL = BY_CODE["loo"][0]           # a case of the code with the fewest rules


@pytest.mark.parametrize("code", sorted(BY_CODE))
def test_a_one_shot_ruling_from_the_kept_rules_is_the_whole_programs(fresh, code):
    """For every game, a sample of its cases: the first ruling of a command (which makes the
    file) and a later command's (which reads it and gives clingo only the selected rules' texts)
    are each the ruling of the run's shared solve, which tests/test_engine.py checks is the whole
    program's."""
    sample = BY_CODE[code][::9]
    for n, path in enumerate(sample):
        inc = incident.load(path)
        expected = _triggered(path, inc)
        if n == 0:
            first, _ = _one_shot(inc)
            assert first == expected, path
        later, from_kept = _one_shot(inc)
        assert from_kept, f"{path}: the kept rules were not used"
        assert later == expected, path


@pytest.mark.parametrize("code", CODES)
def test_the_kept_sentences_are_those_of_the_rule_files(fresh, code):
    """A command that finds the file takes the code's sentence templates from it, not from the
    rule files' texts: the same templates, every file's, later files overriding earlier ones."""
    assert engine.program(code).cached                    # (made, and kept)
    _forget()
    prog = engine.program(code)
    assert prog.cached and prog._kept_templates is not None
    kept = prog.templates
    assert kept == prog._templates_read() and kept


def test_each_kept_rule_text_is_the_rule_clingo_parsed(fresh):
    """The text a one-shot call gives clingo for each rule parses back to that same rule."""
    seen = set()
    for code in CODES:
        for part in engine.program(code).parts:
            if part.path in seen:
                continue
            seen.add(part.path)
            for stm, text in zip(part.statements, part.texts):
                again: list = []
                ast.parse_string(text, again.append)
                rules = [s for s in again if s.ast_type != ast.ASTType.Program]
                assert [str(s) for s in rules] == [str(stm)], f"{part.path}: {text}"


def test_the_file_is_made_once_and_read_after(fresh):
    inc = incident.load(SMALL)
    _one_shot(inc)
    files = sorted(os.listdir(fresh))
    assert len(files) == 1 and files[0].startswith(f"rules-{inc.code}-") and files[0].endswith(".marshal")
    stamp = os.stat(fresh / files[0]).st_mtime_ns
    _, from_kept = _one_shot(inc)
    assert from_kept
    assert sorted(os.listdir(fresh)) == files and os.stat(fresh / files[0]).st_mtime_ns == stamp


def test_changed_rules_are_another_file_and_the_older_is_forgotten(fresh, monkeypatch):
    inc = incident.load(SMALL)
    _one_shot(inc)
    [before] = os.listdir(fresh)
    prog = engine.program(inc.code)
    part = prog.parts[-1]
    monkeypatch.setitem(part.__dict__, "text", part.text + "\n% an edit\n")
    assert rulecache.load(inc.code, prog.parts) is None          # not read for other rules
    del prog.__dict__["cached"]
    assert prog.cached                                            # made again, for these rules
    [after] = os.listdir(fresh)
    assert after != before


@pytest.mark.parametrize("damage", [b"", b"not marshal at all", b"\x00" * 64, "truncated"],
                         ids=["empty", "text", "zeros", "truncated"])
def test_a_damaged_file_is_made_again_and_the_ruling_is_the_same(fresh, damage):
    inc = incident.load(SMALL)
    whole = _triggered(SMALL, inc)
    _one_shot(inc)
    [name] = os.listdir(fresh)
    path = fresh / name
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage == "truncated" else damage)
    out, _ = _one_shot(inc)
    assert out == whole
    _, from_kept = _one_shot(inc)
    assert from_kept                                              # the file was made again


def test_a_damaged_entry_is_read_from_the_rule_file(fresh):
    inc = incident.load(SMALL)
    whole = _triggered(SMALL, inc)
    _one_shot(inc)
    prog = engine.program(inc.code)
    _forget()
    prog = engine.program(inc.code)
    assert prog.cached
    for part in prog.parts:
        part.kept = b"\x00garbage"
    assert _ruling(inc) == whole


@pytest.mark.parametrize("where", ["/dev/null", "/dev/null/cache", "/proc/version"])
def test_no_cache_folder_means_the_rules_are_read_every_call(fresh, monkeypatch, where):
    monkeypatch.setenv("ADJUDICATOR_CACHE", where)
    inc = incident.load(SMALL)
    whole = _triggered(SMALL, inc)
    _forget()
    assert _ruling(inc) == whole
    assert engine.program(inc.code).cached is False


def test_commands_share_the_file(tmp_path):
    """Two commands in a row: the first makes the file, the second reads it; the same bytes."""
    env = {**os.environ, "ADJUDICATOR_CACHE": str(tmp_path)}
    # (a case the engine rules, not one it refuses on purpose: the middle one of a code's)
    ruled = [c for c in BY_CODE["english-1864"] if "error:" not in open(c, encoding="utf-8").read()]
    case = ruled[len(ruled) // 2]
    cmd = [sys.executable, "-m", "adjudicator", "adjudicate", "--json", case]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    files = os.listdir(tmp_path)
    second = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout and first.stderr == second.stderr == ""
    # (one file for the code's rules, one for the games' table, rules/codes.yaml: registry.py)
    assert sorted(f.split("-")[0] for f in files) == ["codes", "rules"]
    assert sorted(os.listdir(tmp_path)) == sorted(files)


def test_a_tilde_in_the_setting_is_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ADJUDICATOR_CACHE", "~/kept")
    monkeypatch.chdir(tmp_path)
    assert cache.folder() == str(tmp_path / "home" / "kept")
    assert rulecache.writable()
    assert (tmp_path / "home" / "kept").is_dir() and not (tmp_path / "~").exists()
