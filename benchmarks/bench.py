"""How fast is a ruling? Two figures, on the bundled cases:

1. median milliseconds per adjudication in one warm process (read the incident, solve, build the
   ruling), after one warm-up pass that parses the rules;
2. the wall time of one CLI call (`adjudicator adjudicate CASE --json`) against the floor
   `python -c "import clingo, yaml, click"`, medians of repeated runs on the same machine.

    python benchmarks/bench.py [--runs N] [--cli-runs N] [CASES_DIR]

Aims: warm adjudication under 10 ms; a CLI call within 1.5x of the import floor.
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import time


def warm(paths, runs):
    from adjudicator import engine, incident, ruling
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


def wall(cmd, runs):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "cases"))
    ap.add_argument("--runs", type=int, default=15, help="solves per case in the warm process")
    ap.add_argument("--cli-runs", type=int, default=15, help="CLI calls per measurement")
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(args.cases, "**", "*.yaml"), recursive=True))
    if not paths:
        sys.exit("no cases found")

    per_case = warm(paths, args.runs)
    values = sorted(per_case.values())
    print(f"cases: {len(paths)}")
    print(f"warm adjudication, median of per-case medians: {statistics.median(values):.1f} ms "
          f"(fastest {values[0]:.1f}, slowest {values[-1]:.1f}, 90th percentile "
          f"{values[int(0.9 * (len(values) - 1))]:.1f})")
    slow = sorted(per_case.items(), key=lambda kv: -kv[1])[:3]
    for p, ms in slow:
        print(f"  slowest: {ms:6.1f} ms  {os.path.relpath(p)}")

    exe = shutil.which("adjudicator")
    if not exe:
        print("CLI: `adjudicator` not on PATH; install the package to time a CLI call")
        return
    # five cases spread over the set, from the fastest to the slowest to solve
    ranked = sorted(per_case, key=per_case.get)
    samples = [ranked[int(i * (len(ranked) - 1) / 4)] for i in range(5)]
    floors, ratios = [], []
    for sample in samples:
        floor = wall([sys.executable, "-c", "import clingo, yaml, click"], args.cli_runs)
        cli = wall([exe, "adjudicate", "--json", sample], args.cli_runs)
        floors.append(floor)
        ratios.append(cli / floor)
        print(f"  CLI call {cli:5.0f} ms vs floor {floor:3.0f} ms = {cli / floor:.2f}x  ({os.path.relpath(sample)})")
    print(f"import floor (python -c 'import clingo, yaml, click'): median {statistics.median(floors):.0f} ms")
    print(f"one CLI call: median {statistics.median(ratios):.2f}x the floor "
          f"(from {min(ratios):.2f}x for the quickest case to {max(ratios):.2f}x for the slowest)")


if __name__ == "__main__":
    main()
