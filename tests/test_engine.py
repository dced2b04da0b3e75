"""The engine: selective loading never changes a ruling; input can never become a rule."""
import json

import pytest

from adjudicator.core import batch, engine, facts, incident, ruling
from adjudicator.errors import AdjudicatorError

from .conftest import CASES, case_facts, shared_once, solved


def _run(inc, full):
    try:
        return json.dumps(ruling.build(inc, engine.solve(inc, full=full)), sort_keys=True)
    except AdjudicatorError as e:
        return f"refused: {e}"


def _triggered(path, inc):
    """The case as solved once for the run, with only the triggered files (tests/conftest.py)."""
    s = solved(path)
    if s.result is not None:
        return json.dumps(s.result, sort_keys=True)
    return f"refused: {s.inconsistent(inc.file) or s.error}"


_FULL: dict[str, str] = {}


def _whole_of_code(code: str) -> dict[str, str]:
    """Every case of `code` whose facts are all known, ruled with every rule file of the code, in
    batches (SIZE to a grounding: adjudicator/core/batch.py, which tests/test_batch.py checks against
    ruling each alone), as `_run(inc, full=True)` gives it."""
    paths = [p for p in CASES if case_facts(p) == (code, True)]
    loaded = [incident.load(p) for p in paths]
    out = {}
    for p, i, sol in zip(paths, loaded, batch.solve_all(loaded, full=True)):
        try:
            if isinstance(sol, Exception):
                raise sol
            out[p] = json.dumps(ruling.build(i, sol), sort_keys=True)
        except AdjudicatorError as e:
            out[p] = f"refused: {e}"
    return out


def _whole(path, inc):
    """The case ruled with every rule file of its code, as `_run(inc, full=True)` rules it: solved
    with the other cases of its code in batches (`_whole_of_code`), each code once for the run and
    shared by the -n workers (tests/conftest.py `shared_once`); a case with facts not known, alone."""
    if path not in _FULL:
        code, all_known = case_facts(path)
        if all_known:
            _FULL.update(shared_once(f"whole-program-{code}", lambda: _whole_of_code(code)))
    return _FULL.get(path) or _run(inc, full=True)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.split("cases/")[-1])
def test_loading_only_the_triggered_files_changes_nothing(path):
    inc = incident.load(path)
    assert _triggered(path, inc) == _whole(path, inc)


def test_the_whole_program_ruled_in_a_batch_is_ruled_as_alone():
    """What the test above compares with: a case ruled with every rule file, in a batch, is the
    ruling engine.solve(full=True) gives it alone (a sample: every 37th case)."""
    for path in CASES[::37]:
        inc = incident.load(path)
        assert _whole(path, inc) == _run(inc, full=True), path


def test_the_shared_solution_is_the_one_a_fresh_solve_gives():
    """The run's shared cache gives, for a case, the bytes a fresh solve in this process gives."""
    for path in CASES[::97]:
        inc = incident.load(path)
        assert _triggered(path, inc) == _run(inc, full=False), path


def test_every_rule_file_declares_when_it_is_loaded():
    prog = engine.program("american-1893")
    assert len(prog.parts) >= 15
    assert prog.templates, "no sentence templates found"


def test_templates_read_by_pattern_are_the_text_facts_clingo_parses():
    from clingo import ast
    for part in engine.program("american-1893").parts:
        stms = []
        ast.parse_string(part.text, stms.append)
        parsed = dict(t for t in map(engine._is_text_fact, stms) if t)
        assert parsed == part.templates, part.path


HOSTILE = 'x). ruling(pwned,"no-penalty"). #include "/etc/passwd". y('


def test_strings_from_the_incident_cannot_add_rules():
    src = f"""
game: whist
candidates: ['{HOSTILE}', 'Brown', 'Clark', 'Dodd']
events:
  - cut-for-table: {{by: '{HOSTILE}', card: 3H}}
  - cut-for-table: {{by: Brown, card: KS}}
  - cut-for-table: {{by: Clark, card: AD}}
  - cut-for-table: {{by: Dodd, card: 9C}}
"""
    inc = incident.parse(src, "hostile.yaml")
    syms = facts.build(inc)
    assert any(s.name == "candidate" and s.arguments[0].string == HOSTILE for s in syms)
    res = ruling.build(inc, engine.solve(inc))
    kinds = {r["remedy"] for r in res["rulings"]}
    assert kinds == {"partners", "first-deal"}
    assert all(r["remedy"] != "pwned" for r in res["rulings"])
    assert any(HOSTILE in r["text"] for r in res["rulings"]), "the name is kept as data, verbatim"


def test_names_of_players_never_reach_the_rules():
    src = f"""
game: whist
players: {{N: '{HOSTILE}', E: Brown, S: Clark, W: Dodd}}
dealer: S
start: {{trick: 2, leader: N}}
events:
  - lead: {{by: W, card: KS}}
"""
    inc = incident.parse(src, "hostile.yaml")
    assert all(HOSTILE not in str(s) for s in facts.build(inc))
    res = ruling.build(inc, engine.solve(inc))
    assert {r["remedy"] for r in res["rulings"]} == {"call-suit", "take-back-cards"}


def test_an_exception_for_another_game_overrules_a_remedy_and_is_cited():
    """The room left for Boston, Cayenne and Solo Whist: an `overruled/3` fact defeats a whist
    remedy, and the ruling says no penalty, citing the exception."""
    import clingo

    src = """
game: whist
dealer: S
start: {trick: 4, leader: N}
events:
  - expose: {by: E, card: QH}
"""
    inc = incident.parse(src, "exception.yaml")
    prog = engine.program(inc.code)
    ctl = clingo.Control(["--warn=none"])
    for part in prog.parts:
        ctl.add("base", [], part.text)
    # as a Boston exception file would: "In Boston ... no penalties for cards exposed by the single player"
    ctl.add("base", [], 'overruled(M,"20.boston",single_player) :- remedy(M,_,"call-card",_).\n'
                        'text(single_player, "he has no partner to take advantage of the information").')
    with ctl.backend() as b:
        for sym in facts.build(inc):
            b.add_rule([b.add_atom(sym)])
    ctl.ground([("base", [])])
    sol = engine.Solution(facts=[], templates={**prog.templates,
                                               "single_player": "he has no partner to take advantage"})
    with ctl.solve(yield_=True) as h:
        for m in h:
            for sym in m.symbols(shown=True):
                sol.atoms[sym.name].append(tuple(sym.arguments))
    res = ruling.build(inc, sol)
    assert [(r["remedy"], r["laws"]) for r in res["rulings"]] == [("no-penalty", ["20.boston"])]


def test_every_contradiction_a_case_gives_names_the_lines_that_conflict():
    """Each problem of a refused account points into the file (a line, or the key it concerns)."""
    import re
    refused = [(p, solved(p).problems) for p in CASES if solved(p).problems]
    assert refused
    bare = [f"{p}: {x}" for p, problems in refused for x in problems if not re.search(r"\bline \d+\b", x)]
    assert not bare, "\n".join(bare)


def test_a_code_with_law_texts_only_is_refused_naming_the_file_and_line(monkeypatch):
    from adjudicator.core import registry
    from adjudicator.errors import UnknownCode
    inc = incident.parse("game: whist\ncode: english-1864\nevents:\n  - lead: {by: N, card: KS}\n", "texts.yaml")
    monkeypatch.setattr(registry, "encoded", lambda code: False)
    with pytest.raises(UnknownCode) as e:
        engine.solve(inc)
    assert (e.value.file, e.value.line) == ("texts.yaml", 2) and "not encoded" in e.value.message


def test_the_selection_helped_by_other_incidents_is_the_one_worked_out_alone():
    """The rule selection (adjudicator/core/relevance.py) keeps what it worked out of each rule body
    between incidents, by the patterns the body reads: the rules selected for a case after many
    others (in reverse order, all kept) are those selected for it with nothing kept."""
    work = []
    for path in CASES[::7]:
        try:
            inc = incident.load(path)
        except AdjudicatorError:
            continue
        prog = engine.program(inc.code)
        parts = engine.loaded_parts(prog, inc)
        for p in parts:
            p.statements                  # noqa: B018 - (parsed, as a warm process has them)
        view = prog.selector(tuple(parts))
        if view is not None:
            work.append((path, view, facts.build(inc)))
    alone = {}
    for path, view, symbols in work:
        view.selector.__dict__.pop("_kept_answers", None)
        view._cache.clear()
        alone[path] = view.select(symbols)
    assert len(alone) > 100
    for path, view, symbols in reversed(work):
        view._cache.clear()
        assert view.select(symbols) == alone[path], path
    assert any(len(view.selector.__dict__.get("_kept_answers", ({},))[0]) > 1000 for _, view, _ in work)


def test_the_selection_reads_an_aggregate_that_cannot_be_empty_and_no_other():
    """relevance._needed_by_aggregate: `V = #min{ W : cond }` beside `V != #sup` (or #max beside
    `V != #inf`), one element, needs cond's positive atoms, its own variables renamed so that they
    join cond's atoms and nothing else; without the guard (the empty set gives #sup), with two
    elements (either may hold), or another function, it needs nothing more."""
    from clingo import ast
    from adjudicator.core import relevance
    rules = []
    ast.parse_string("h(T) :- p(X), T = #min{ T2 : q(T2,X), not r(T2) }, T != #sup.\n"
                     "k(C) :- C = #max{ C2 : s(C2,Y), t(Y) }, C != #inf.\n"
                     "g(T) :- T = #min{ T2 : q(T2,_) }.\n"
                     "m(T) :- T = #min{ T2 : a(T2); T3 : b(T3) }, T != #sup.\n"
                     "n(N) :- N = #count{ C : a(C) }, N != #sup.\n", rules.append)
    needs = [relevance.summarize(r).needs for r in rules[1:]]
    assert needs[0] == [(("p", 1), (("v", "X"),)), (("q", 2), (("v", "T2 of aggregate 1"), ("v", "X")))]
    assert needs[1] == [(("s", 2), (("v", "C2 of aggregate 0"), ("v", "Y of aggregate 0"))),
                        (("t", 1), (("v", "Y of aggregate 0"),))]
    assert needs[2:] == [[], [], []]


def test_the_selection_reads_a_variable_equal_to_constants_and_no_other_comparison():
    """relevance._domain: `K = (b;c)` or `K = b` allows K those values alone, so a rule whose atoms
    give K none of them is left out, and its head is given for those values only; a constant named
    by nothing but the comparison is still told apart from the incident's others (it is named);
    `K != b`, `K < 3` and `K = X+1` allow anything."""
    import clingo
    from clingo import ast
    from adjudicator.core import relevance
    rules = []
    ast.parse_string("p(T,K) :- ev(T,K), K = (b;c).\n"
                     "q(T) :- p(T,b).\n"
                     "s(K) :- ev(_,K), K = e.\n"
                     "u(K) :- ev(_,K), K != b.\n"
                     "w(K) :- ev(_,K), K < 3.\n"
                     "x(K) :- ev(_,X), K = X+1.\n", rules.append)
    summaries = [relevance.summarize(r) for r in rules[1:]]
    assert [r.domains for r in summaries] == [(("K", frozenset({"b", "c"})),), (), (("K", frozenset({"e"})),),
                                              (), (), ()]
    view = relevance.Selector(summaries).view([(0, len(summaries))])

    def chosen(*kinds):
        return {i for i in view.select([clingo.Function("ev", [clingo.Number(1), clingo.Function(k)])
                                        for k in kinds])}
    assert chosen("a") == {3, 4, 5}                 # neither b, c nor e: p, q and s are left out
    assert chosen("c") == {0, 3, 4, 5}              # p gives p(T,c) only: q, which needs p(T,b), is out
    assert chosen("b") == {0, 1, 3, 4, 5}
    assert chosen("e") == {2, 3, 4, 5}              # e is named by s's comparison alone


def test_the_selection_tells_apart_only_the_constants_a_rule_can_test_where_they_stand():
    """relevance._relevant: a constant is told apart at a position when a rule body names it there,
    or names it where a variable carries it (through a head, or a join with another atom); anywhere
    else it is one value (OTHER), so incidents that differ only there share one selection."""
    import clingo
    from clingo import ast
    from adjudicator.core import relevance
    rules = []
    ast.parse_string("p(X) :- e(X).\n"            # e's value reaches p's, which q tests for 5
                     "q :- p(5).\n"
                     "s :- a(X), b(X).\n"          # a's value is joined with b's, which t tests for 3
                     "t :- b(3).\n"
                     "r(T) :- ev(T).\n", rules.append)    # nothing tests ev's or r's value
    summaries = [relevance.summarize(r) for r in rules[1:]]
    selector = relevance.Selector(summaries)
    assert selector.relevant[(("e", 1), 0)] == selector.relevant[(("p", 1), 0)] == {5}
    assert selector.relevant[(("a", 1), 0)] == selector.relevant[(("b", 1), 0)] == {3}
    assert (("ev", 1), 0) not in selector.relevant and (("r", 1), 0) not in selector.relevant
    view = selector.view([(0, len(summaries))])

    def chosen(*atoms):
        return set(view.select([clingo.Function(name, [clingo.Number(n)]) for name, n in atoms]))
    assert chosen(("e", 5)) == {0, 1}               # p(5) is given, and q tests it
    assert chosen(("e", 6)) == {0}                  # p(6) is not p(5)
    assert chosen(("a", 3), ("b", 4)) == set()      # 3 and 4 never join, and b(3) is not there
    assert chosen(("a", 3), ("b", 3)) == {2, 3}
    assert chosen(("a", 4), ("b", 4)) == {2}        # (4 is OTHER at both, and joins)
    assert chosen(("a", 4), ("b", 6)) == {2}        # (so are 4 and 6: more may fire, never less)
    assert selector.abstract([clingo.Function("ev", [clingo.Number(1)])]) == \
        selector.abstract([clingo.Function("ev", [clingo.Number(9)])])
    assert selector.abstract([clingo.Function("e", [clingo.Number(5)])]) != \
        selector.abstract([clingo.Function("e", [clingo.Number(9)])])
