"""Where does grounding go? For a sample of the bundled cases, the program the engine grounds (the
files the incident loads, and within them the rules that can fire: adjudicator/core/relevance.py) is
grounded whole, then with each file left out in turn: the difference is what that file (and what
only it makes derivable) costs. With --rules, each rule's own cost besides: the rule grounded alone
against the real answer set's atoms (rule_costs; a rule left out of the program could change what
the others derive, and leaving out the one that bounds the moments made grounding run away).
Alongside, clingo's own statistics of the whole: ground rules and atoms. Nothing here changes a
ruling; it only measures.

With --oracle it measures instead how far the rule selection is from the best any selection could
do: for each case, the rules whose positive body literals match the real answer set (found by
grounding each body against it) are the only ones that can matter; grounding just those is a
lower bound no analysis made before grounding can beat. Printed: the grounding with the engine's
selection and with that oracle's, and per file and per rule the rules kept that never fire.

    python benchmarks/where.py [--cases N] [--runs N] [--rules | --oracle] [CASES_DIR]

The figures overlap (a rule that feeds another also takes the other's work with it when left
out), so they rank the files and rules; they do not add up to the whole. Measured findings, and the
rule rewrites they suggest, are in benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import glob
import os
import statistics
import time
from collections import defaultdict


def control(statements, symbols, *options):
    """A Control holding these statements and these facts, as engine.solve builds it (not grounded)."""
    import clingo
    from adjudicator.core import engine
    return engine.fill(clingo.Control(["--warn=none", *options]), statements, symbols)


def ground_ms(statements, symbols, runs):
    ts, stats = [], None
    for _ in range(runs):
        ctl = control(statements, symbols, "--single-shot", "--stats")
        t = time.perf_counter()
        ctl.ground([("base", [])])
        ts.append((time.perf_counter() - t) * 1000)
        ctl.solve()
        stats = ctl.statistics
    lp = stats["problem"]["lp"]
    return statistics.median(ts), int(lp["rules"]), int(lp["atoms"])


def grounded(inc):
    """[(file, statement)] as engine.solve passes them to clingo once the files are parsed."""
    from adjudicator.core import engine, facts
    prog = engine.program(inc.code)
    sig = engine.signals(inc)
    parts = tuple(p for p in prog.parts if p.triggers is None or p.triggers & sig)
    symbols = facts.build(inc)
    pairs = [(p.path, stm) for p in parts for stm in p.statements]
    selector = prog.selector(parts)
    if selector is not None:
        keep = selector.select(symbols)
        pairs = [pair for i, pair in enumerate(pairs) if i in keep]
    return pairs, symbols


def answer_set(statements, symbols):
    """Every atom of the (one) answer set."""
    ctl = control(statements, symbols)
    ctl.ground([("base", [])])
    atoms: list = []
    ctl.solve(on_model=lambda m: atoms.extend(m.symbols(atoms=True)))
    return atoms


def firing(statements, atoms) -> set[int]:
    """The indices of the rules whose positive body atoms all match the answer set together (one
    substitution for all), and of every statement that is not a rule with a body: the rest can
    be left out without changing the answer set."""
    import clingo
    from clingo import ast
    T = ast.ASTType
    ctl = control([], atoms)
    keep = set()
    with ast.ProgramBuilder(ctl) as b:
        for i, stm in enumerate(statements):
            if stm.ast_type != T.Rule or not stm.body:
                keep.add(i)
                continue
            body = [lit for lit in stm.body if lit.ast_type == T.Literal and lit.sign == ast.Sign.NoSign
                    and lit.atom.ast_type == T.SymbolicAtom]
            loc = stm.location
            mark = ast.Function(loc, "fires__", [ast.SymbolicTerm(loc, clingo.Number(i))], 0)
            b.add(ast.Rule(loc, ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(mark)), body))
    ctl.ground([("base", [])])
    return keep | {a.symbol.arguments[0].number for a in ctl.symbolic_atoms.by_signature("fires__", 1)}


def rule_costs(statements, symbols, runs, copies=10):
    """Each rule's own grounding cost in ms (None for a fact or a #show): `copies` copies of it
    grounded against every atom of the real answer set given as facts, less those facts alone, per
    copy (the least of `runs`). Leaving a rule out of the program instead would change what the
    others derive: without the rule that bounds the moments, say, grounding does not end (it once
    took 24 GB). Against the real atoms, a rule can only do the work it does in the ruling."""
    from clingo import ast
    atoms = answer_set(statements, symbols)

    def least(stms):
        best = float("inf")
        for _ in range(runs):
            ctl = control(stms, atoms, "--single-shot")
            t = time.perf_counter()
            ctl.ground([("base", [])])
            best = min(best, time.perf_counter() - t)
        return best * 1000

    alone = least([])
    return [None if stm.ast_type != ast.ASTType.Rule or not stm.body
            else max(least([stm] * copies) - alone, 0.0) / copies for stm in statements]


def oracle(sample, runs, top):
    from adjudicator.core import incident, registry
    from adjudicator.errors import AdjudicatorError
    root = registry.rules_dir()
    engine_ms, oracle_ms, engine_n, oracle_n = [], [], [], []
    never, kept = defaultdict(int), defaultdict(int)
    rule_never, rule_kept, rule_text = defaultdict(int), defaultdict(int), {}
    for path in sample:
        try:
            inc = incident.load(path)
        except AdjudicatorError:
            continue
        pairs, symbols = grounded(inc)
        stms = [s for _, s in pairs]
        fires = firing(stms, answer_set(stms, symbols))
        engine_ms.append(ground_ms(stms, symbols, runs)[0])
        oracle_ms.append(ground_ms([s for i, s in enumerate(stms) if i in fires], symbols, runs)[0])
        engine_n.append(len(stms))
        oracle_n.append(len(fires))
        for i, (f, stm) in enumerate(pairs):
            kept[os.path.relpath(f, root)] += 1
            where = f"{os.path.relpath(f, root)}:{stm.location.begin.line}"
            rule_kept[where] += 1
            rule_text[where] = " ".join(str(stm).split())
            if i not in fires:
                never[os.path.relpath(f, root)] += 1
                rule_never[where] += 1
    n = len(engine_ms)
    print(f"{n} cases, medians: statements grounded {statistics.median(engine_n):.0f} by the engine, "
          f"{statistics.median(oracle_n):.0f} that can fire; grounding {statistics.median(engine_ms):.1f} ms "
          f"against {statistics.median(oracle_ms):.1f} ms with only those (means {statistics.mean(engine_ms):.1f} "
          f"/ {statistics.mean(oracle_ms):.1f})")
    print("\nfile                                          kept per case  never fire per case")
    for f, c in sorted(never.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {f:<44} {kept[f] / n:13.1f}  {c / n:19.1f}")
    print("\nrule                                   kept in  never fired in")
    for w, c in sorted(rule_never.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
        print(f"  {w:<38} {rule_kept[w]:7d}  {c:14d}  {rule_text[w][:90]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "cases"))
    ap.add_argument("--cases", dest="n", type=int, default=24, help="cases sampled, spread over the set")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rules", action="store_true",
                    help="also each rule's own cost, grounded alone against the answer set (slow)")
    ap.add_argument("--oracle", action="store_true",
                    help="the engine's rule selection against the rules that can fire (a lower bound)")
    ap.add_argument("--top", type=int, default=25, help="files and rules listed")
    args = ap.parse_args()
    from adjudicator.core import incident, registry
    from adjudicator.errors import AdjudicatorError
    paths = sorted(glob.glob(os.path.join(args.cases, "**", "*.yaml"), recursive=True))
    sample = [paths[int(i * (len(paths) - 1) / max(args.n - 1, 1))] for i in range(args.n)]
    if args.oracle:
        return oracle(sample, args.runs, args.top)
    by_file, by_rule, text = defaultdict(list), defaultdict(list), {}
    totals, rules, atoms, sizes = [], [], [], []
    root = registry.rules_dir()
    done = 0
    for path in sample:
        try:
            inc = incident.load(path)
        except AdjudicatorError:
            continue
        done += 1
        pairs, symbols = grounded(inc)
        stms = [s for _, s in pairs]
        whole, r, a = ground_ms(stms, symbols, args.runs)
        totals.append(whole)
        rules.append(r)
        atoms.append(a)
        sizes.append(len(stms))
        for f in dict.fromkeys(f for f, _ in pairs):
            without, _, _ = ground_ms([s for g, s in pairs if g != f], symbols, args.runs)
            by_file[os.path.relpath(f, root)].append(max(whole - without, 0.0))
        if args.rules:
            for (f, stm), ms in zip(pairs, rule_costs(stms, symbols, args.runs)):
                if ms is not None:
                    where = f"{os.path.relpath(f, root)}:{stm.location.begin.line}"
                    text[where] = " ".join(str(stm).split())
                    by_rule[where].append(ms)
    print(f"{done} cases: grounding median {statistics.median(totals):.1f} ms; statements grounded median "
          f"{statistics.median(sizes):.0f}; ground rules median {statistics.median(rules):.0f}, "
          f"atoms {statistics.median(atoms):.0f}")
    mean_whole = statistics.mean(totals)
    print("\nfile (left out in turn)                       cases  mean ms  share of grounding")
    for f, xs in sorted(by_file.items(), key=lambda kv: -sum(kv[1]))[:args.top]:
        mean = sum(xs) / done
        print(f"  {f:<44} {len(xs):5d}  {mean:7.2f}  {mean / mean_whole:6.1%}")
    if args.rules:
        print("\nrule (grounded alone against the answer set)  cases  mean ms")
        for w, xs in sorted(by_rule.items(), key=lambda kv: -sum(kv[1]))[:args.top]:
            print(f"  {w:<44} {len(xs):5d}  {sum(xs) / done:7.2f}  {text[w][:110]}")


if __name__ == "__main__":
    main()
