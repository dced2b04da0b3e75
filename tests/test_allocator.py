"""clingo allocates with mimalloc in any process that imports the package first
(adjudicator/core/allocator.py): the package's own (the cmeel-mimalloc wheel) where it is installed,
else the machine's; never when ADJUDICATOR_MALLOC=system says to keep the C library's. No command
starts itself again (the jemalloc restart before issue 45)."""
from __future__ import annotations

import os
import platform
import sys

import pytest

from adjudicator.core import allocator
from tests import serving


@pytest.fixture
def execs(monkeypatch):
    """What os.execve would have started, instead of starting it."""
    calls: list = []
    monkeypatch.setattr(allocator.os, "execve", lambda exe, argv, env: calls.append((exe, argv, env)))
    for name in (allocator.VARIABLE, "LD_PRELOAD"):
        monkeypatch.delenv(name, raising=False)
    return calls


@pytest.mark.parametrize("setting", ["", "system", " System ", "jemalloc", "mimalloc"])
def test_no_command_starts_itself_again(execs, monkeypatch, setting):
    """The server and a command on many files started again with jemalloc preloaded, and its
    environment variables (ADJUDICATOR_MALLOC_STARTED, LD_PRELOAD) told the second start: mimalloc,
    loaded in-process, rules as fast (benchmarks/README.md). check_setting only checks the
    setting now."""
    monkeypatch.setenv(allocator.VARIABLE, setting)
    allocator.check_setting()
    assert execs == [] and "LD_PRELOAD" not in os.environ and "ADJUDICATOR_MALLOC_STARTED" not in os.environ


def test_the_server_sets_the_collector_for_a_long_run_and_a_command_run_in_a_test_does_not(execs, monkeypatch):
    """`adjudicator serve` looks for cyclic garbage less often (allocator.settle_collector): a process
    that rules incident after incident otherwise stops for 90-140 ms at a time to look through the
    whole heap. A command a test runs in its own process changes nothing of that process."""
    import gc

    import adjudicator
    from click.testing import CliRunner

    from adjudicator import cli, web
    was = gc.get_threshold()
    monkeypatch.setattr(web, "serve", lambda host, port, echo, workers=None: None)
    try:
        gc.set_threshold(700, 10, 10)
        assert CliRunner().invoke(cli.main, ["serve"]).exit_code == 0
        assert gc.get_threshold() == (700, 10, 10)
        monkeypatch.setattr(allocator, "leaves_with_exit", True)
        assert CliRunner().invoke(cli.main, ["serve"]).exit_code == 0
        assert gc.get_threshold() == allocator.COLLECTOR_THRESHOLDS != (700, 10, 10)
    finally:
        gc.set_threshold(*was)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc to read the process's libraries from")
def test_which_allocator_this_process_uses_is_told_by_what_it_loaded():
    """allocator.in_use() says jemalloc exactly when the process has it loaded (a test worker of
    `-n` is started with it where the machine has it: conftest.py)."""
    assert allocator.in_use() == ("jemalloc" if _maps_jemalloc(os.getpid()) else "system")


def _maps_jemalloc(pid: int) -> bool:
    with open(f"/proc/{pid}/maps", encoding="utf-8") as fh:
        return "jemalloc" in fh.read()


def _maps_mimalloc(pid: int) -> str | None:
    """The mimalloc library the process has loaded (its path), or None."""
    with open(f"/proc/{pid}/maps", encoding="utf-8") as fh:
        return next((line.split()[-1] for line in fh if "libmimalloc" in line), None)


@pytest.mark.skipif(next(allocator.mimalloc_libraries(), None) is None or not os.path.isdir("/proc/self"),
                    reason="no mimalloc here (pip install cmeel-mimalloc, or Debian: apt install libmimalloc2.0)")
@pytest.mark.parametrize("setting, expected", [({}, True), ({allocator.VARIABLE: "system"}, False)])
def test_the_server_runs_with_mimalloc_for_clingo_unless_told_not_to(setting, expected):
    """The server, started once: clingo's allocations to mimalloc (the first of
    allocator.mimalloc_libraries), no jemalloc preloaded, no second start."""
    env = {allocator.VARIABLE: "", **setting}
    proc, base, said = serving.start(env)
    try:
        assert said.startswith("Serving the referee's page at http://127.0.0.1:")
        assert _maps_jemalloc(proc.pid) is False
        mapped = _maps_mimalloc(proc.pid)
        assert (os.path.realpath(mapped) == os.path.realpath(next(allocator.mimalloc_libraries()))) if expected \
            else mapped is None
    finally:
        serving.stop(proc)


_RULE_WITH_ALLOCATOR = r"""
import glob, json, sys, time
from adjudicator.core import engine, incident, ruling
from adjudicator.errors import AdjudicatorError, TimeLimit
from adjudicator.core import allocator
assert allocator.clingo_allocator == sys.argv[1], "not the allocator asked for"
assert engine._KEPT_THREADS == (sys.argv[1] != "system")
out = {}
for path in sys.argv[2:]:
    inc = incident.load(path)
    try:
        out[path] = ruling.build(inc, engine.solve(inc))
    except AdjudicatorError as e:
        out[path] = str(e)
inc = incident.load(sys.argv[2])
t0 = time.monotonic()
try:
    engine.solve(inc, timeout=0.001, full=True)
    out["time limit"] = "not hit"
except TimeLimit as e:
    out["time limit"] = ["no ruling within the time limit of 0.001 s" in str(e), time.monotonic() - t0 < 1.0]
out["after it"] = ruling.build(inc, engine.solve(inc))       # (a kept thread is still grounding: another)
print(json.dumps(out, sort_keys=True, default=str), flush=True)
# (the grounding stopped at the time limit may still run in its thread: the process ends at once,
# as the command does, cli.entry; tearing the interpreter down under it can crash, exit -11)
import os
os._exit(0)
"""


def _mimalloc_library():
    return next(allocator.mimalloc_libraries(), None)


_NO_JEMALLOC = "this machine has no jemalloc (Debian: apt install libjemalloc2)"
_NO_MIMALLOC = "no mimalloc here (pip install cmeel-mimalloc, or Debian: apt install libmimalloc2.0)"


@pytest.mark.parametrize("allocates", [
    pytest.param("jemalloc", marks=pytest.mark.skipif(allocator.jemalloc_library() is None, reason=_NO_JEMALLOC)),
    pytest.param("mimalloc", marks=pytest.mark.skipif(_mimalloc_library() is None, reason=_NO_MIMALLOC))])
def test_rulings_made_with_a_faster_allocator_are_the_same(allocates):
    """With jemalloc preloaded (as the server runs), or mimalloc loaded for clingo (any process that
    imports the package first), the engine keeps its grounding threads and frees each Control in
    its thread (engine._bounded): the rulings are the same as a process with the C library's malloc
    makes, and a ruling stopped at the time limit leaves the next one unaffected."""
    import glob
    import json
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = sorted(glob.glob(os.path.join(root, "cases", "**", "*.yaml"), recursive=True))[::80]
    outs = {}
    for how in (allocates, "system"):     # (whichever this test's own process allocates with)
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        env[allocator.VARIABLE] = "system" if how == "system" else ""
        if how == "jemalloc":
            env["LD_PRELOAD"] = allocator.jemalloc_library()
        r = subprocess.run([sys.executable, "-c", _RULE_WITH_ALLOCATOR, how, *paths], env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        outs[how] = json.loads(r.stdout)
    got, expected = outs[allocates], outs["system"]
    for path in paths:
        assert got[path] == expected[path], path
    for out in (got, expected):
        assert out["time limit"] == [True, True]
        assert out["after it"] == out[paths[0]]


# In a process of its own: how much more the C library's malloc holds after a Control grounds a
# program of 100,000 atoms (mallinfo2: its bytes in use), and whether mimalloc is loaded.
_MIMALLOC_HOLDS = r"""
import ctypes, json, sys
first = sys.argv[1]
if first == "clingo":
    import clingo
import adjudicator
from adjudicator.core import allocator
import clingo
class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
mallinfo2 = ctypes.CDLL(None).mallinfo2
mallinfo2.restype = Info
before = mallinfo2().uordblks + mallinfo2().hblkhd
ctl = clingo.Control()
ctl.add("base", [], "a(1..100000). b(X) :- a(X).")
ctl.ground([("base", [])])
print(json.dumps({"clingo_allocator": allocator.clingo_allocator,
                  "loaded": any("libmimalloc" in line for line in open("/proc/self/maps")),
                  "malloc_grew": mallinfo2().uordblks + mallinfo2().hblkhd - before}))
"""


@pytest.mark.skipif(_mimalloc_library() is None or not os.path.isdir("/proc/self"), reason=_NO_MIMALLOC)
@pytest.mark.parametrize("setting, first, expected", [
    ("", "adjudicator", "mimalloc"),
    ("JEMALLOC", "adjudicator", "mimalloc"),     # (no second start here: what clingo can have)
    ("system", "adjudicator", "system"),
    ("", "clingo", "system")])                  # clingo first: its `new` is bound already
def test_clingo_allocates_with_mimalloc_when_the_package_is_imported_first(setting, first, expected):
    """allocator.give_clingo_mimalloc: with the package imported before clingo, most of what clingo
    grounds is not held by the C library's malloc (its `new`, mimalloc's); with
    ADJUDICATOR_MALLOC=system, or clingo imported first, mimalloc is not loaded at all."""
    import json
    import subprocess
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env[allocator.VARIABLE] = setting
    r = subprocess.run([sys.executable, "-c", _MIMALLOC_HOLDS, first], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["clingo_allocator"] == expected
    assert out["loaded"] is (expected == "mimalloc")
    # (measured: 6.4 MB with mimalloc, what clingo asks of malloc itself; 30.6 MB without)
    if expected == "mimalloc":
        assert out["malloc_grew"] < 12_000_000, out
    else:
        assert out["malloc_grew"] > 20_000_000, out



@pytest.mark.skipif(_mimalloc_library() is None or not os.path.isdir("/proc/self"), reason=_NO_MIMALLOC)
def test_adjudicate_on_many_files_rules_them_with_mimalloc_in_the_process_started():
    """A command on many files (allocator.MANY_FILES) was started again with jemalloc; it rules in
    the process started, clingo with mimalloc, and reads standard input as the others."""
    import json
    import shutil
    import subprocess
    import time
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    case = os.path.join(root, "cases", "whist", "american-1893",
                        "24-suit-call-only-by-the-adversary-on-the-right.yaml")
    exe = shutil.which("adjudicator", path=os.path.dirname(sys.executable)) or "adjudicator"
    env = {**os.environ, allocator.VARIABLE: ""}
    env.pop("LD_PRELOAD", None)
    others = allocator.MANY_FILES
    proc = subprocess.Popen([exe, "adjudicate", "--json", "-", *[case] * others], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=root)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:          # (until it waits in read(0, ...): x86-64 0, arm64 63)
            with open(f"/proc/{proc.pid}/syscall", encoding="utf-8") as fh:
                if fh.read().split()[:2] in (["0", "0x0"], ["63", "0x0"]):
                    break
            time.sleep(0.05)
        assert _maps_jemalloc(proc.pid) is False and _maps_mimalloc(proc.pid) is not None
        with open(case, "rb") as fh:
            out, err = proc.communicate(fh.read(), timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, err
    lines = [json.loads(line) for line in out.decode().splitlines()]
    assert len(lines) == others + 1
    assert all(line["rulings"] == lines[1]["rulings"] for line in lines)


def test_the_packages_own_mimalloc_is_tried_before_the_machines(tmp_path, monkeypatch):
    """The cmeel-mimalloc wheel's library (cmeel.prefix/lib under a site-packages folder of the
    module path) comes first: `pip install` brings it, where the machine may have none."""
    site = tmp_path / "site-packages"
    lib = site / "cmeel.prefix" / "lib"
    lib.mkdir(parents=True)
    (lib / "libmimalloc.so").write_bytes(b"")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "elsewhere"), str(site)])
    monkeypatch.setattr(allocator, "_MIMALLOC_PLACES", (str(tmp_path / "machine" / "libmimalloc.so.2"),))
    assert list(allocator.mimalloc_libraries()) == [str(lib / "libmimalloc.so")]
    (tmp_path / "machine").mkdir()
    (tmp_path / "machine" / "libmimalloc.so.2").write_bytes(b"")
    assert list(allocator.mimalloc_libraries()) == [str(lib / "libmimalloc.so"), str(tmp_path / "machine" / "libmimalloc.so.2")]


@pytest.mark.parametrize("value", ["sytem", "bogus", "glibc", "yes"])
def test_a_setting_no_allocator_is_refused_where_it_is_read(execs, monkeypatch, value):
    """ADJUDICATOR_MALLOC names `system` (or nothing, `mimalloc`, `jemalloc`): a typo was taken
    silently for the default. It is refused, saying what was set, where it is read (serve, many files); a command on
    one file does not read it."""
    import adjudicator
    from click.testing import CliRunner

    from adjudicator import cli
    from adjudicator.errors import UsageError
    monkeypatch.setenv(allocator.VARIABLE, value)
    with pytest.raises(UsageError, match=f"ADJUDICATOR_MALLOC is '{value}', which is no allocator"):
        allocator.check_setting()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    case = os.path.join(root, "cases", "whist", "american-1893", "24-suit-call-only-by-the-adversary-on-the-right.yaml")
    monkeypatch.setattr(allocator, "leaves_with_exit", True)
    many = CliRunner().invoke(cli.main, ["check", "-q"] + [case] * allocator.MANY_FILES)
    assert many.exit_code == 2 and "which is no allocator this command knows" in many.output
    assert "set it to `system`" in many.output
    one = CliRunner().invoke(cli.main, ["adjudicate", case])
    assert one.exit_code == 0 and execs == []


@pytest.mark.parametrize("value", ["system", " System ", "jemalloc", "JEMALLOC", "mimalloc", ""])
def test_the_settings_of_the_allocator_are_read_in_any_case(monkeypatch, value):
    monkeypatch.setenv(allocator.VARIABLE, value)
    assert allocator.setting() == value.strip().lower()


_FORK_AFTER_RULING = r"""
import os, sys, time
from adjudicator.core import engine, incident, ruling
assert engine._KEPT_THREADS, "neither jemalloc nor mimalloc is in use"
inc = incident.load(sys.argv[1])
first = ruling.build(inc, engine.solve(inc))          # (a grounding thread is now kept, idle)
pid = os.fork()
if pid == 0:
    t0 = time.monotonic()
    try:
        again = ruling.build(inc, engine.solve(inc, timeout=5))
        os._exit(0 if again == first and time.monotonic() - t0 < 4 else 3)
    except BaseException:
        os._exit(4)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(allocator.jemalloc_library() is None, reason="this machine has no jemalloc (Debian: apt install libjemalloc2)")
def test_a_process_forked_after_rulings_with_jemalloc_rules_in_turn():
    """With jemalloc the grounding threads are kept between rulings (engine._Worker); a process
    forked from one that has ruled (`--jobs`' workers, from a process that ruled before) has none
    of them, as a fork copies only the thread that forks. A ruling given to a kept thread there
    waited for the time limit and failed: `adjudicate --jobs 2` in a test's process, after others
    had ruled there, printed an internal error after 10 s for each file."""
    import subprocess
    case = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases", "whist",
                        "american-1893", "24-suit-call-only-by-the-adversary-on-the-right.yaml")
    env = {**os.environ, "LD_PRELOAD": allocator.jemalloc_library()}
    r = subprocess.run([sys.executable, "-c", _FORK_AFTER_RULING, case], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "0", r.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                    reason="mallopt(M_ARENA_MAX) is glibc's")
def test_one_arena_is_set_without_ctypes():
    """engine.py has every thread allocate from glibc's main arena (allocator.one_arena, called on
    import: grounding in a thread of its own took 40-50% longer in an arena of its own). It is set
    through _ctypes, not ctypes, whose Python layer cost every command 1 ms for the one call."""
    import subprocess
    assert allocator.one_arena() is True
    r = subprocess.run([sys.executable, "-c", "import sys, adjudicator.cli, adjudicator.core.engine; "
                        "print(sorted(m for m in ('ctypes', 'ctypes.util') if m in sys.modules))"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "[]", (r.stdout, r.stderr)
