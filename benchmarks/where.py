"""Where does grounding go? For a sample of the bundled cases, each rule file the incident loads is
left out in turn and the grounding timed without it: the difference is what that file (and what
only it makes derivable) costs. Alongside, clingo's own statistics of the full program: ground
rules and atoms. Nothing here changes a ruling; it only measures.

    python benchmarks/where.py [--cases N] [--runs N] [CASES_DIR]

The per-file figures overlap (a file that feeds another also takes the other's work with it when
left out), so they rank the files; they do not add up to the whole.
"""
from __future__ import annotations

import argparse
import glob
import os
import statistics
import time
from collections import defaultdict


def ground_ms(parts, symbols, runs):
    import clingo
    from clingo import ast
    ts, stats = [], None
    for _ in range(runs):
        ctl = clingo.Control(["--warn=none", "--single-shot", "--stats"])
        with ast.ProgramBuilder(ctl) as b:
            for p in parts:
                for stm in p.statements:
                    b.add(stm)
        with ctl.backend() as backend:
            for sym in symbols:
                backend.add_rule([backend.add_atom(sym)])
        t = time.perf_counter()
        ctl.ground([("base", [])])
        ts.append((time.perf_counter() - t) * 1000)
        ctl.solve()
        stats = ctl.statistics
    lp = stats["problem"]["lp"]
    return statistics.median(ts), int(lp["rules"]), int(lp["atoms"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "cases"))
    ap.add_argument("--cases", dest="n", type=int, default=24, help="cases sampled, spread over the set")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from adjudicator import engine, facts, incident, registry
    paths = sorted(glob.glob(os.path.join(args.cases, "**", "*.yaml"), recursive=True))
    sample = [paths[int(i * (len(paths) - 1) / max(args.n - 1, 1))] for i in range(args.n)]
    share = defaultdict(list)
    totals, rules, atoms = [], [], []
    root = registry.rules_dir()
    for path in sample:
        inc = incident.load(path)
        prog = engine.program(inc.code)
        sig = engine.signals(inc)
        parts = [p for p in prog.parts if p.triggers is None or p.triggers & sig]
        symbols = facts.build(inc)
        whole, r, a = ground_ms(parts, symbols, args.runs)
        totals.append(whole)
        rules.append(r)
        atoms.append(a)
        for p in parts:
            without, _, _ = ground_ms([q for q in parts if q is not p], symbols, args.runs)
            share[os.path.relpath(p.path, root)].append(max(whole - without, 0.0))
    print(f"{len(sample)} cases: grounding median {statistics.median(totals):.1f} ms; "
          f"ground rules median {statistics.median(rules):.0f}, atoms {statistics.median(atoms):.0f}")
    print("\nfile (left out in turn)                       cases  mean ms  share of grounding")
    whole = statistics.mean(totals)
    for f, xs in sorted(share.items(), key=lambda kv: -sum(kv[1])):
        mean = sum(xs) / len(sample)
        print(f"  {f:<44} {len(xs):5d}  {mean:7.2f}  {mean / whole:6.1%}")


if __name__ == "__main__":
    main()
