"""How fast are rulings on unknown facts, and an interview's questions?

On every incident with an `unknown` key (cases/**/unknown-*.yaml and tests/fixtures/unknowns/):

1. the conditional ruling, warm (one process, rules already parsed): grounding once over every
   possibility, then the brave/cautious solves under assumptions that build the decision tree;
2. one interview question, warm: the first question of a fresh interview (reading the file and
   grounding included: its slowest), and a later one ("weigh": the relevance of every remaining
   unknown weighed under the answers so far, by solves on the one grounding);
3. the wall time of one CLI call `adjudicator adjudicate FILE --json` on such a file.

    python benchmarks/unknowns_bench.py [--runs N]

Aim: an interview question well under a second (the issue's target); the conditional ruling
within a few plain rulings' time.

Measured 2026-11-23 on this 2-vCPU machine (branch unknowns at 5182ba6, editable install,
`python benchmarks/unknowns_bench.py --runs 20`, medians):

    incident (unknowns)                    ruling ms  solves  first question ms  later ms  CLI ms
    28-29 quitted before correction (1)        34.3       6              49.5       2.1     214
    28 whether East held a spade (1)           45.4       6              52.7       0.8     222
    33 claim before the cut (2)                88.2      10              66.7       4.6     272
    35-39 who required the highest (1)         66.4       6              66.9       0.8     196
    fixture: no unknown key (ask's own)        59.2       2              76.8       2.4     196
    fixture: quitted-maybe (2)                 91.0      10              72.1       3.5     226

An interview question: at most 77 ms for the first (grounding included), under 5 ms for the
next ones (solves under assumptions on the same grounding): well under the second the issue
asks. A CLI call on a file with one unknown took 0.23 s against 0.16 s for the same incident
with the fact given (median of 5 runs, `/usr/bin/time`). The cap of 64 branches
(unknowns.MAX_BRANCHES) refuses tests/fixtures/unknowns-too-many.yaml (12 unknowns) in 2.4 s.
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def files():
    return sorted(glob.glob(os.path.join(ROOT, "cases", "**", "unknown-*.yaml"), recursive=True)) + \
        sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "unknowns", "*.yaml")))


def ms(f):
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    from adjudicator import ask, incident, unknowns
    paths = files()
    for p in paths:                                   # warm-up: parse the rules
        unknowns.conditional(incident.load(p))
    print(f"{'incident':70} {'unknowns':>8} {'ruling ms':>10} {'solves':>6} {'question ms':>12} {'weigh ms':>9} {'CLI ms':>8}")
    exe = shutil.which("adjudicator") or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    worst_q = 0.0
    for p in paths:
        inc = incident.load(p)
        solves = []

        def rule():
            space = unknowns.Space(inc)
            unknowns.conditional(inc, space)
            solves.append(space.solves)
        r = statistics.median(ms(rule) for _ in range(args.runs))

        def question():
            ask.Interview(p).next_question()
        q = statistics.median(ms(question) for _ in range(args.runs))
        iv = ask.Interview(p)

        def weigh():                                 # a later question: no grounding, only solves
            iv.space._cache.clear()
            iv.next_question()
        w = statistics.median(ms(weigh) for _ in range(args.runs))
        worst_q = max(worst_q, q)
        cli = statistics.median(ms(lambda: subprocess.run([exe, "adjudicate", "--json", p], capture_output=True))
                                for _ in range(max(3, args.runs // 4)))
        n = len(unknowns.parse(inc)[1])
        print(f"{os.path.basename(p)[:70]:70} {n:>8} {r:>10.1f} {solves[0]:>6} {q:>12.1f} {w:>9.1f} {cli:>8.0f}")
    print(f"slowest first question (grounding included): {worst_q:.1f} ms")


if __name__ == "__main__":
    main()
