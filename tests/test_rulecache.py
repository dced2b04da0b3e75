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

from .conftest import CASES, ROOT, case_facts, made_once
from .test_engine import _triggered

CODES = [c["code"] for c in registry.all_codes() if c.get("rules")]
# The cache folder of the run (the root conftest.py sets it before any test): every command and test
# of the run that rules a case keeps its code's rules there, made by the first to need them.
RUN_CACHE = os.environ.get(cache.ENV)


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


def _as_ruled_in_the_run(path, inc) -> str:
    """The run's shared solve of the case (test_engine._triggered, which test_engine.py checks is the
    whole program's ruling), worked out, when this test is the first of the run to ask for it, in the
    run's cache folder: not in the test's own, which holds only what the test's commands keep (a
    solve there would make the file the test's first command is to make, and at a new command's
    cost). The process is then as a new command finds it again."""
    with pytest.MonkeyPatch.context() as mp:
        if RUN_CACHE:
            mp.setenv(cache.ENV, RUN_CACHE)
        out = _triggered(path, inc)
    _forget()
    return out


def _by_code() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in CASES:
        out.setdefault(case_facts(path)[0], []).append(path)      # (incident.load's code, read once per process)
    return out


BY_CODE = _by_code()
SMALL = BY_CODE["loo"][0]           # a case of the code with the fewest rules


@pytest.mark.parametrize("code", sorted(BY_CODE))
def test_a_one_shot_ruling_from_the_kept_rules_is_the_whole_programs(fresh, code):
    """For every game, a sample of its cases: the first ruling of a command (which makes the
    file) and a later command's (which reads it and gives clingo only the selected rules' texts)
    are each the ruling of the run's shared solve, which tests/test_engine.py checks is the whole
    program's."""
    sample = BY_CODE[code][::25]     # (each a new command's first reading of the kept file: ~0.5 s)
    for n, path in enumerate(sample):
        inc = incident.load(path)
        expected = _as_ruled_in_the_run(path, inc)
        if n == 0:
            first, _ = _one_shot(inc)
            assert first == expected, path
        later, from_kept = _one_shot(inc)
        assert from_kept, f"{path}: the kept rules were not used"
        assert later == expected, path


def _kept_by_the_run(code: str):
    """The file a command of this run keeps for the code's rules (`engine.program(code).cached`, in
    the run's cache folder: read there, or made there if no command of the run has made it yet)."""
    from pathlib import Path
    with pytest.MonkeyPatch.context() as mp:
        if RUN_CACHE:
            mp.setenv(cache.ENV, RUN_CACHE)
        _forget()
        prog = engine.program(code)
        assert prog.cached, code                              # (made, and kept)
        path = Path(rulecache._path(code, prog.parts))
        _forget()
    return path


@pytest.mark.parametrize("code", CODES)
def test_the_kept_sentences_are_those_of_the_rule_files(fresh, code):
    """A command that finds the file takes the code's sentence templates from it, not from the
    rule files' texts: the same templates, every file's, later files overriding earlier ones.
    (The file is the one the commands of the run keep in its cache folder, made once for the run:
    copied to this test's own folder. Made by the first command in an empty folder and read by the
    next: test_a_one_shot_ruling_from_the_kept_rules_is_the_whole_programs.)"""
    import shutil
    made = _kept_by_the_run(code)
    fresh.mkdir(parents=True, exist_ok=True)
    shutil.copy2(made, fresh / made.name)
    assert engine.program(code).cached                    # (kept, and read)
    assert [n for n in os.listdir(fresh) if n.startswith("rules-")] == [made.name]    # (read, not made again)
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
    whole = _as_ruled_in_the_run(SMALL, inc)
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
    whole = _as_ruled_in_the_run(SMALL, inc)
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
    whole = _as_ruled_in_the_run(SMALL, inc)
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


# ---------------------------------------------------------------------------------------------
# A cache that is checked (issue 45, 3): only regular files of the user's read, with a size bound;
# what a file holds used only once its digest is checked; a file that fails any check set aside
# and made again, with one line on standard error, never an internal error, never a ruling from it.
# ---------------------------------------------------------------------------------------------
import random  # noqa: E402
import shutil  # noqa: E402

from adjudicator.lookup import search  # noqa: E402

DAMAGED = ".damaged"          # a kept file set aside: its name, then this (cache.DAMAGED)


def _one_line_about(err: str, name: str) -> None:
    """Standard error is one line, and it names the file set aside."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert name in lines[0] and "cache file" in lines[0] and "Traceback" not in err, err


def _kinds(folder) -> dict[str, str]:
    """The kept files by kind (rules, codes, batch, laws): their names."""
    out = {}
    for name in os.listdir(folder):
        if not name.startswith(".") and not name.endswith(DAMAGED):
            out[name.split("-")[0]] = name
    return out


def _fill(folder):
    """A cache folder as commands leave it: the games' table, a code's rules, its rules for a
    batch, and the law search's index."""
    inc = incident.load(SMALL)
    _one_shot(inc)
    _batch(inc)
    search.connect()
    return inc


def _filled_once(folder) -> None:
    """`_fill` run once, in a process as a new command finds it (nothing read, an empty folder)."""
    from adjudicator.core import registry as reg
    folder.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ADJUDICATOR_CACHE", str(folder))
        _forget()
        reg._data.cache_clear()
        _fill(folder)
        _forget()
        reg._data.cache_clear()


@pytest.fixture(scope="module")
def filled_once(tmp_path_factory):
    """A cache folder as commands leave it (`_fill`), filled once for the run (the -n workers share
    it): each test below damages a copy of its files, byte for byte the ones `_fill` writes."""
    return made_once("filled-cache", _filled_once, tmp_path_factory)


@pytest.fixture
def filled(filled_once, fresh):
    from adjudicator.core import registry as reg
    reg._data.cache_clear()
    shutil.copytree(filled_once, fresh)         # (fresh: no folder yet, as _fill finds it)
    inc = incident.load(SMALL)
    assert sorted(_kinds(fresh)) == ["batch", "codes", "laws", "rules"]
    yield inc, fresh
    reg._data.cache_clear()


def test_a_copy_of_the_filled_folder_is_what_fill_leaves(filled_once, fresh):
    """(What `filled` gives, a copy of a folder filled once: the files `_fill` writes in the
    test's own folder, byte for byte.)"""
    from adjudicator.core import registry as reg
    reg._data.cache_clear()
    _fill(fresh)
    reg._data.cache_clear()
    assert sorted(os.listdir(fresh)) == sorted(os.listdir(filled_once))
    for name in os.listdir(fresh):
        assert (fresh / name).read_bytes() == (filled_once / name).read_bytes(), name


def _reads(kind: str, inc):
    """What a command reads of a kind of kept file, in this process: (what it gives, whether the
    kept file gave it)."""
    from adjudicator.core import batch
    from adjudicator.core import registry as reg
    if kind == "rules":
        out, from_kept = _one_shot(inc)
        return out, from_kept
    if kind == "codes":
        reg._data.cache_clear()
        return json.dumps(reg._data(), sort_keys=True), None
    if kind == "batch":
        return _batch(inc), None
    conn, info = search.connect()
    return json.dumps(search.search("revoke", conn=conn)["results"][:3]), not info["built"]


def _batch(inc) -> str:
    """The rulings of the incident ruled as many files are (adjudicator/core/batch.py), by a new
    command: its code's rules tagged from the kept texts, or tagged and kept."""
    from adjudicator.core import batch
    _forget()
    batch._PREPARED.clear()
    batch._TAGGED.clear()
    sols = batch.solve_all([inc] * batch.FEWEST)
    assert inc.code in batch._PREPARED
    return json.dumps([ruling.build(inc, s) for s in sols], sort_keys=True)


KINDS = ["rules", "codes", "batch", "laws"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("damage", ["fifo", "link to /dev/zero", "folder", "link to a good copy",
                                    "five crafted bytes", "over the bound"])
def test_a_kept_file_that_fails_a_check_is_set_aside_said_once_and_made_again(filled, capsys, kind, damage):
    inc, folder = filled
    name = _kinds(folder)[kind]
    path = folder / name
    before, _ = _reads(kind, inc)
    capsys.readouterr()
    good = path.read_bytes()
    os.remove(path)
    if damage == "fifo":
        os.mkfifo(path)
    elif damage == "link to /dev/zero":
        os.symlink("/dev/zero", path)
    elif damage == "folder":
        os.mkdir(path)
    elif damage == "link to a good copy":
        (folder / "elsewhere").write_bytes(good)
        os.symlink(folder / "elsewhere", path)
    elif damage == "five crafted bytes":
        path.write_bytes(b"{0\x00\x00\x00")             # marshal's empty dict, and three bytes more
    else:
        with open(path, "wb") as fh:
            fh.truncate((16 << 20) + 1)
    after, _ = _reads(kind, inc)
    assert after == before
    _one_line_about(capsys.readouterr().err, name)
    assert os.path.lexists(str(path) + DAMAGED)             # set aside, not lost
    assert path.is_file() and not path.is_symlink() and path.read_bytes() != b""     # made again
    again, _ = _reads(kind, inc)
    assert again == before and capsys.readouterr().err == ""      # and read after, without a word


def _corrupted(rng: random.Random, data: bytes) -> bytes:
    """One of the ways a file is damaged: bytes changed, cut short, grown, a run zeroed, replaced."""
    how = rng.randrange(6)
    b = bytearray(data)
    if how == 0:
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(b))
            b[i] = (b[i] + rng.randint(1, 255)) % 256
    elif how == 1:
        b = b[:rng.randrange(len(b))]
    elif how == 2:
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif how == 3:
        i = rng.randrange(len(b))
        b[i:i + rng.randint(1, 4096)] = bytes(len(b[i:i + 4096]))[:len(b[i:i + rng.randint(1, 4096)])]
    elif how == 4:
        b = bytearray(rng.randbytes(rng.randint(0, 200)))
    else:
        i = rng.randrange(len(b))              # one byte, the length kept
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b) if bytes(b) != data else bytes(b) + b"\x00"


@pytest.mark.parametrize("kind", KINDS)
def test_random_corruptions_are_each_refused_and_said_in_one_line(filled, capsys, kind):
    """300 corruptions of each kind of kept file (seeded): each time the file is refused (what it
    gives is not read), set aside, and said in one line."""
    from adjudicator.core import registry as reg
    inc, folder = filled
    name = _kinds(folder)[kind]
    path = folder / name
    good = path.read_bytes()
    prog = engine.program(inc.code)
    rng = random.Random(45)
    for n in range(300):
        path.write_bytes(_corrupted(rng, good))
        capsys.readouterr()
        if kind == "rules":
            got = rulecache.load(inc.code, prog.parts)
        elif kind == "batch":
            got = rulecache.load_batch(inc.code, prog.parts)
        elif kind == "codes":
            with open(os.path.join(reg.rules_dir(), "codes.yaml"), "rb") as fh:
                got = cache.kept(cache.named("codes-", fh.read()))
        else:
            got = cache.read_checked(str(path))
        assert got is None, n
        _one_line_about(capsys.readouterr().err, name)
        assert not path.exists() and (folder / (name + DAMAGED)).exists(), n
    path.write_bytes(good)
    capsys.readouterr()
    assert _reads(kind, inc)[0] and capsys.readouterr().err == ""


def test_a_one_byte_edit_that_keeps_the_length_never_reaches_a_ruling(filled, capsys):
    """A sentence template edited in the kept file, its length kept ("{P}'s lead" made "{9}'s
    lead"): the file is refused, and the ruling and the templates are the rule files'."""
    inc, folder = filled
    name = _kinds(folder)["rules"]
    path = folder / name
    whole, _ = _reads("rules", inc)
    prog = engine.program(inc.code)
    templates = prog._templates_read()
    data = path.read_bytes()
    text = next(t.encode() for t in templates.values() if "{" in t and t.encode() in data)
    at = data.index(text) + text.index(b"{") + 1
    path.write_bytes(data[:at] + b"9" + data[at + 1:])
    capsys.readouterr()
    out, _ = _reads("rules", inc)
    assert out == whole
    _one_line_about(capsys.readouterr().err, name)
    assert engine.program(inc.code).templates == templates


def test_a_kept_file_of_another_user_is_set_aside(filled, capsys):
    if os.getuid() != 0:
        pytest.skip("only root can give a file to another user")
    inc, folder = filled
    name = _kinds(folder)["rules"]
    whole, _ = _reads("rules", inc)
    os.chown(folder / name, 65534, 65534)
    capsys.readouterr()
    out, _ = _reads("rules", inc)
    assert out == whole
    _one_line_about(capsys.readouterr().err, name)
    assert os.stat(folder / name).st_uid == os.getuid()


@pytest.mark.parametrize("damage", ["fifo", "link to /dev/zero", "five crafted bytes", "one byte edited"])
def test_the_command_rules_past_a_damaged_cache_in_bounded_time(tmp_path, damage):
    """Through the command: the FIFO that hung every command and the link to /dev/zero read until
    memory ran out; each damaged kept file (the code's rules, the games' table) set aside, the ruling
    the same, one line on standard error, the next call silent."""
    env = {**os.environ, "ADJUDICATOR_CACHE": str(tmp_path)}
    cmd = [sys.executable, "-m", "adjudicator", "adjudicate", "--json", SMALL]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    for kind in ("rules", "codes"):
        name = _kinds(tmp_path)[kind]
        path = tmp_path / name
        data = path.read_bytes()
        os.remove(path)
        if damage == "fifo":
            os.mkfifo(path)
        elif damage == "link to /dev/zero":
            os.symlink("/dev/zero", path)
        elif damage == "five crafted bytes":
            path.write_bytes(b"{0\x00\x00\x00")
        else:
            path.write_bytes(data[:-10] + bytes([data[-10] ^ 0x20]) + data[-9:])
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        assert r.returncode == 0 and r.stdout == first.stdout, r.stderr
        _one_line_about(r.stderr, name)
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        assert r.returncode == 0 and r.stdout == first.stdout and r.stderr == "", r.stderr
    shutil.rmtree(tmp_path, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The rules shipped in the package (issue 45, 4): made when a wheel is built (setup.py runs
# keep.ship), found by a code's first ruling after an install, checked as the cache's are.
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def shipped(tmp_path_factory, monkeypatch):
    """A package's kept/ folder as a wheel's build makes it (once for the module: it reads every
    code's rules)."""
    global _SHIPPED_ONCE
    if _SHIPPED_ONCE is None:
        _SHIPPED_ONCE = made_once("shipped-kept", _ship, tmp_path_factory)
    monkeypatch.setattr(rulecache, "SHIPPED", str(_SHIPPED_ONCE))
    return _SHIPPED_ONCE


_SHIPPED_ONCE = None


def _ship(folder) -> None:
    r = subprocess.run([sys.executable, "-m", "adjudicator.core.keep", str(folder)], capture_output=True,
                       text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr


def test_the_wheel_ships_every_codes_rules(shipped):
    names = os.listdir(shipped)
    assert sorted(n.split("-")[0] for n in names).count("rules") == len(CODES)
    assert all(cache.read_checked(str(shipped / n), shipped=True) is not None for n in names)


def test_a_first_ruling_after_an_install_reads_the_shipped_rules(fresh, shipped, capsys):
    """A new user's first call for a code (an empty cache folder) selects from the rules shipped:
    no rule file parsed, nothing written for them in the cache folder, the ruling the whole
    program's."""
    inc = incident.load(SMALL)
    whole = _as_ruled_in_the_run(SMALL, inc)
    out, from_kept = _one_shot(inc)
    assert from_kept and out == whole
    assert not [n for n in (os.listdir(fresh) if fresh.exists() else []) if n.startswith("rules-")]
    assert capsys.readouterr().err == ""


def test_a_damaged_shipped_file_is_said_and_the_rules_are_kept_in_the_cache_folder(fresh, shipped, capsys,
                                                                                   monkeypatch, tmp_path):
    """A shipped file that fails its check is never moved (the package is not the user's to
    change): said in one line, and the rules kept in the cache folder, which answers after."""
    inc = incident.load(SMALL)
    whole = _as_ruled_in_the_run(SMALL, inc)
    package = tmp_path / "damaged-package"
    shutil.copytree(shipped, package)
    name = next(n for n in os.listdir(package) if n.startswith(f"rules-{inc.code}-"))
    data = (package / name).read_bytes()
    (package / name).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    monkeypatch.setattr(rulecache, "SHIPPED", str(package))
    capsys.readouterr()
    out, _ = _one_shot(inc)
    assert out == whole
    _one_line_about(capsys.readouterr().err, name)
    assert (package / name).exists() and [n for n in os.listdir(fresh) if n == name]
    again, from_kept = _one_shot(inc)
    assert again == whole and from_kept and capsys.readouterr().err == ""
