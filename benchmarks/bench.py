"""How fast is a ruling? Every figure of issue 15's table, in one run, each beside its aim:

1. warm ruling: median milliseconds per adjudication in one warm process (read the incident, solve,
   build the ruling) over the bundled cases, after one warm-up pass that parses the rules;
2. a 13-trick hand with no irregularity against a one-event incident (how the cost grows with the
   length of the account);
3. incidents per second in one process, over the bundled cases in turn (one ruling after another,
   as a server answers them: each new to a process warmed on others), and ruled together as `adjudicate` and `check` rule many files;
4. the wall time of one CLI call (`adjudicator adjudicate CASE --json`) against the floor
   `python -c "import clingo, yaml, click"`, medians of repeated runs on the same machine, with the
   code's rules kept in the cache folder as any call after the first finds them; a first call,
   which reads and keeps them, is printed apart.

    python benchmarks/bench.py [--runs N] [--cli-runs N] [--malloc process|jemalloc|system] [CASES_DIR]

The table at the end gives each figure, its aim and figure/aim (at or under 1.00: the aim is met).
Timing lives here, never in the tests.
"""
from __future__ import annotations

import argparse
import glob
import os
import statistics
import subprocess
import sys
import time


def warm(paths, runs):
    from adjudicator.core import engine, incident, ruling
    from adjudicator.errors import AdjudicatorError

    def once(p):
        inc = incident.load(p)
        try:
            ruling.build(inc, engine.solve(inc))
        except AdjudicatorError:
            pass

    for p in paths:           # warm-up: parse the rules, fill the caches
        once(p)
    per_case = {}
    for p in paths:
        ts = []
        for _ in range(runs):
            t = time.perf_counter()
            once(p)
            ts.append((time.perf_counter() - t) * 1000)
        per_case[p] = statistics.median(ts)
    return per_case


def uncached(paths):
    """Median ms per ruling when the rule selection (adjudicator/core/relevance.py) is worked out
    afresh each time, as for an incident never seen in this process: its cache emptied first."""
    from adjudicator.core import engine, incident, ruling
    from adjudicator.errors import AdjudicatorError
    ts = []
    for p in paths:
        _forget_selections()
        t = time.perf_counter()
        inc = incident.load(p)
        try:
            ruling.build(inc, engine.solve(inc))
        except AdjudicatorError:
            pass
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts)


def wall(cmd, runs, env=None):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts)


FULL_HAND = None


def _full_hand_text() -> str:
    """A 13-trick hand played out with no irregularity: each seat follows suit, the highest wins."""
    seats = ["W", "N", "E", "S"]                   # dealer S: West leads the first trick
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    suits = ["S", "H", "D", "C"]
    hands = {seat: [r + suits[i] for r in ranks] for i, seat in enumerate(seats)}   # one suit each
    lines = ["game: whist", "dealer: S", "trump: spades", "hands:"]
    lines += [f"  {s}: [{', '.join(hands[s])}]" for s in seats]
    lines.append("events:")
    leader = "W"                                   # West holds the spades (trumps): he wins each trick
    for t in range(13):
        order = seats[seats.index(leader):] + seats[:seats.index(leader)]
        for k, seat in enumerate(order):
            verb = "lead" if k == 0 else "play"
            lines.append(f"  - {verb}: {{by: {seat}, card: {hands[seat][t]}}}")
    lines.append("  - end-of-hand: {tricks: {N-S: 0, E-W: 13}}")
    return "\n".join(lines) + "\n"


ONE_EVENT = "game: whist\ndealer: S\ntrump: hearts\nevents:\n  - lead: {by: N, card: KS}\n"


def _in_process_ms(text: str, runs: int) -> float:
    from adjudicator.core import engine, incident, ruling
    from adjudicator.errors import AdjudicatorError
    ts = []
    for _ in range(runs + 1):
        t = time.perf_counter()
        inc = incident.parse(text, "bench.yaml")
        try:
            ruling.build(inc, engine.solve(inc))
        except AdjudicatorError:
            pass
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts[1:])


def _forget_selections() -> None:
    """Empty the rule selections' caches (adjudicator/core/relevance.py): the next incident's is worked
    out afresh, as for an incident this process has not seen."""
    from adjudicator.core import engine
    for prog in engine._PROGRAMS.values():
        for sel in getattr(prog, "_selectors", {}).values():
            if sel is not None:
                sel._cache.clear()


def _rate(paths) -> float:
    """Incidents per second in one warm process: every given case once, in turn (a window of a few
    seconds from the start of the sorted list would time only the first games' cases)."""
    from adjudicator.core import engine, incident, ruling
    from adjudicator.errors import AdjudicatorError
    t0 = time.perf_counter()
    for p in paths:
        inc = incident.load(p)
        try:
            ruling.build(inc, engine.solve(inc))
        except AdjudicatorError:
            pass
    return len(paths) / (time.perf_counter() - t0)


def _rate_of_new(paths) -> float:
    """Incidents per second as a server that has run a while meets them: each new to the process
    (nothing of it cached), the process warmed on other incidents. Measured first, in a process
    that has ruled nothing: half the bundled cases (every other one) are ruled to warm it, and the
    other half timed, each once."""
    _rate(paths[0::2])
    return _rate(paths[1::2])


def _batch_rate(paths) -> float:
    """Incidents per second in one warm process when they are ruled as `adjudicate` and `check`
    rule many files: read, solved together a code's at a time (adjudicator/core/batch.py), each ruling
    built. Every bundled case once, timed from reading the first to the last ruling; the rules'
    tagging for batches is done first, as warming up (kept in the cache folder between commands)."""
    from adjudicator.core import batch, incident, ruling
    from adjudicator.errors import AdjudicatorError

    def once():
        incs = []
        for p in paths:
            try:
                inc = incident.load(p)
            except AdjudicatorError:
                continue
            if getattr(inc, "unknown", None) is None:
                incs.append(inc)
        for inc, sol in zip(incs, batch.solve_all(incs)):
            if not isinstance(sol, Exception):
                try:
                    ruling.build(inc, sol)
                except AdjudicatorError:
                    pass
        return len(incs)

    once()                      # warm-up: the rules parsed and tagged
    t0 = time.perf_counter()
    n = once()
    return n / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "cases"))
    ap.add_argument("--runs", type=int, default=15, help="solves per case in the warm process")
    ap.add_argument("--cli-runs", type=int, default=15, help="CLI calls per measurement")
    ap.add_argument("--exe", default=None,
                    help="the `adjudicator` command to time (default: the one beside this Python). "
                         "Time a non-editable install (`pip install .` in a fresh venv): an editable one "
                         "adds its import hook to every start, and with PYTHONDONTWRITEBYTECODE set "
                         "compiles the package's modules on every call")
    ap.add_argument("--malloc", choices=["process", "jemalloc", "system"], default="process",
                    help="the allocator of the in-process figures: `process` as every process that imports "
                         "the package runs (the server, a command), clingo with mimalloc (the package's own, "
                         "cmeel-mimalloc, else the machine's); `jemalloc`, preloaded for all (as `serve` "
                         "started itself before issue 45: to compare); `system`, the C library's malloc for "
                         "all (adjudicator/core/allocator.py). The CLI calls are timed as any one-shot call runs")
    args = ap.parse_args()
    if args.malloc == "system":         # (read when the package is imported: set before, and given back)
        was = os.environ.get("ADJUDICATOR_MALLOC")
        os.environ["ADJUDICATOR_MALLOC"] = "system"
    if args.malloc == "jemalloc" and "BENCH_JEMALLOC" not in os.environ:
        import ctypes.util
        library = next((p for p in ("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
                                    "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2") if os.path.isfile(p)),
                       None) or ctypes.util.find_library("jemalloc")
        if library is None:
            sys.exit("no jemalloc on this machine (Debian: apt install libjemalloc2)")
        env = {**os.environ, "BENCH_JEMALLOC": "1",
               "LD_PRELOAD": " ".join(x for x in (library, os.environ.get("LD_PRELOAD")) if x)}
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], env)
    os.environ.pop("LD_PRELOAD", None)      # (the CLI calls below: as a user's)
    from adjudicator.core import allocator
    if args.malloc == "system":
        if was is None:
            os.environ.pop(allocator.VARIABLE)
        else:
            os.environ[allocator.VARIABLE] = was
    allocator.settle_collector()        # (as `adjudicator serve` runs, whichever the allocator)
    print(f"the in-process figures' allocator: {allocator.in_use()} for all, clingo's {allocator.clingo_allocator}"
          + (f" ({allocator.clingo_library})" if allocator.clingo_library else ""))
    paths = sorted(glob.glob(os.path.join(args.cases, "**", "*.yaml"), recursive=True))
    if not paths:
        sys.exit("no cases found")

    new_rate = _rate_of_new(paths)      # (first: before any of the timed half has been ruled)
    per_case = warm(paths, args.runs)
    values = sorted(per_case.values())
    print(f"cases: {len(paths)}")
    print(f"warm adjudication, median of per-case medians: {statistics.median(values):.1f} ms "
          f"(fastest {values[0]:.1f}, slowest {values[-1]:.1f}, 90th percentile "
          f"{values[int(0.9 * (len(values) - 1))]:.1f})")
    slow = sorted(per_case.items(), key=lambda kv: -kv[1])[:3]
    for p, ms in slow:
        print(f"  slowest: {ms:6.1f} ms  {os.path.relpath(p)}")

    print(f"  the same with the rule selection worked out afresh for each incident (never cached): "
          f"median {uncached(paths):.1f} ms")

    full = _in_process_ms(_full_hand_text(), args.runs)
    one = _in_process_ms(ONE_EVENT, args.runs)
    print(f"13-trick hand with no irregularity {full:.1f} ms / one-event incident {one:.1f} ms "
          f"= {full / one:.2f}x")
    rate = new_rate
    print(f"incidents per second, one process, the bundled cases in turn, each new to the process "
          f"(warmed on the other half): {rate:.0f} (each ruled before in it: {_rate(paths):.0f})")
    together = _batch_rate(paths)
    print(f"incidents per second, one process, the bundled cases ruled together as `adjudicate` "
          f"and `check` rule many files (adjudicator/core/batch.py): {together:.0f}")
    table = [("warm ruling, median over the bundled cases (ms)", statistics.median(values), 10.0),
             ("13-trick hand / one-event incident (x)", full / one, 3.0),
             ("incidents per second, one process, one at a time", rate, 100.0),
             ("incidents per second, one process, many files at once", together, 100.0)]
    exe = args.exe or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    python = os.path.join(os.path.dirname(exe), os.path.basename(sys.executable))   # the floor, same venv
    if not os.path.exists(python):
        python = sys.executable
    if not os.path.exists(exe):
        print("CLI: `adjudicator` not installed beside this Python; install the package to time a CLI call")
        _table(table)
        return
    # five cases spread over the set, from the fastest to the slowest to solve
    ranked = sorted(per_case, key=per_case.get)
    samples = [ranked[int(i * (len(ranked) - 1) / 4)] for i in range(5)]
    # The calls keep what they work out (adjudicator/core/cache.py) in a folder of this run's, which
    # each sample's first call fills before the timed ones; a first call after an install (an empty
    # cache folder: its code's rules as the package ships them, adjudicator/core/rulecache.py, else
    # read and kept) is timed apart, each time in an empty folder, paired with the floor.
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="bench-cache-")
    env = {**os.environ, "ADJUDICATOR_CACHE": folder}
    floors, ratios, firsts, first_ratios = [], [], [], []
    for sample in samples:
        for _ in range(3):
            empty = tempfile.mkdtemp(prefix="bench-cache-")
            floor = wall([python, "-c", "import clingo, yaml, click"], 1)
            firsts.append(wall([exe, "adjudicate", "--json", sample], 1,
                               env={**os.environ, "ADJUDICATOR_CACHE": empty}))
            first_ratios.append(firsts[-1] / floor)
            shutil.rmtree(empty, ignore_errors=True)
        wall([exe, "adjudicate", "--json", sample], 1, env=env)
        # The floor and the call in turn, and the ratio taken pair by pair (as farm-bench pairs
        # them): the machine's speed drifts over a run, and two blocks timed one after the other
        # would measure the drift with the call (the figure moved by 0.05 from run to run so).
        pairs = [(wall([python, "-c", "import clingo, yaml, click"], 1),
                  wall([exe, "adjudicate", "--json", sample], 1, env=env)) for _ in range(args.cli_runs)]
        floor = statistics.median(f for f, _ in pairs)
        cli = statistics.median(c for _, c in pairs)
        ratio = statistics.median(c / f for f, c in pairs)
        floors.append(floor)
        ratios.append(ratio)
        print(f"  CLI call {cli:5.0f} ms vs floor {floor:3.0f} ms: {ratio:.2f}x pair by pair  ({os.path.relpath(sample)})")
    # `check` on many files, one process (-j 1), as it runs (clingo with mimalloc) and with
    # ADJUDICATOR_MALLOC=system, in turn
    many = paths[::8]
    own, system = [], []
    for _ in range(3):
        own.append(wall([exe, "check", "-q", "-j", "1", *many], 1, env=env))
        system.append(wall([exe, "check", "-q", "-j", "1", *many], 1, env={**env, allocator.VARIABLE: "system"}))
    check_rate = len(many) / (statistics.median(own) / 1000)
    # (not one of the figures: a command's start, the restart and each code's rules read for
    # its batch are in it, beside the rulings)
    print(f"`check -j 1` on {len(many)} cases: {statistics.median(own) / 1000:.1f} s ({check_rate:.0f} a second), "
          f"with ADJUDICATOR_MALLOC=system {statistics.median(system) / 1000:.1f} s "
          f"({len(many) / (statistics.median(system) / 1000):.0f} a second)")
    shutil.rmtree(folder, ignore_errors=True)
    print(f"a first call for its code after an install (an empty cache folder): median "
          f"{statistics.median(firsts):.0f} ms, {statistics.median(first_ratios):.2f}x the floor pair by pair")
    print(f"timed: {exe}")
    print(f"import floor ({python} -c 'import clingo, yaml, click'): median {statistics.median(floors):.0f} ms")
    print(f"one CLI call: median {statistics.median(ratios):.2f}x the floor "
          f"(from {min(ratios):.2f}x for the quickest case to {max(ratios):.2f}x for the slowest)")
    table.append(("one CLI ruling / import floor (x)", statistics.median(ratios), 1.5))
    table.append(("a first ruling after an install / import floor (x)", statistics.median(first_ratios), 3.0))
    _table(table)


def _table(rows):
    """figure, aim, and figure/aim (for incidents per second, aim/figure): at most 1.00 meets it."""
    print("\n| figure | now | aim | now/aim |\n|---|---|---|---|")
    for name, now, aim in rows:
        if name.startswith("incidents per second"):
            print(f"| {name} | {now:.0f} | >= {aim:.0f} | {aim / now:.2f} |")
        else:
            print(f"| {name} | {now:.2f} | <= {aim:g} | {now / aim:.2f} |")


if __name__ == "__main__":
    main()
