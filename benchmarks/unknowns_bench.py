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

Measured 2026-11-23 on this 2-vCPU machine (branch unknowns at d78fc20, the choices given to the
grounder as AST rules; editable install; `python benchmarks/unknowns_bench.py --runs 15`, medians;
the machine was shared, load average 4-5, so figures are up to 2x high):

    incident (unknowns)                    ruling ms  solves  first question ms  later ms  CLI ms
    28-29 quitted before correction (1)        65.3       6              35.1       1.2     227
    28 whether East held a spade (1)           32.4       6              37.1       0.9     356
    33 claim before the cut (2)                60.4      10              69.8       3.5     183
    35-39 who required the highest (1)         38.1       6              54.5       0.8     231
    fixture: no unknown key (ask's own)        47.4       2              61.8       2.2     256
    fixture: quitted-maybe (2)                107.2      10              69.4       2.4     250

An interview question: at most 70 ms for the first (reading and grounding included), under 4 ms
for later ones (solves under assumptions on the same grounding): well under the second the issue
asks. A CLI call on a file with one unknown took 0.25 s against 0.24 s for the same incident with
the fact given (median of 5 runs, `/usr/bin/time`, same load). Refusals: 64 branches
(tests/fixtures/unknowns-too-many.yaml, 12 unknowns) in 3.7 s; past the time budget (the engine's
10 s limit) for twelve cards each one of thirteen.
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
    from adjudicator.interview import ask
    from adjudicator.core import incident, unknowns
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
