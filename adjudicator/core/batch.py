"""Many incidents of one code ruled in one grounding: for `adjudicate` and `check` on many files.

Most of what clingo spends on a ruling is its work on each rule of the program, whatever the facts:
the rules an incident selects ground in ~4 ms with no facts at all against ~5 ms with its own
(benchmarks/README.md). A process that rules on many incidents pays that once for a whole batch
here. Each atom of every rule takes the incident's number as a first argument (`Incident__`), and
each incident's facts are given with theirs, so one grounding holds every incident of the batch
side by side and none can see another's atoms: the answer set is the union of each incident's
own, read back apart. (Aggregates read the number as a variable bound outside them, so a count is
an incident's own; a rule file's plain facts, and any rule with no positive atom in its body, are
made once per incident by `batch_incident__(Incident__)`.)

What each incident's part of the answer set is, exactly as engine.solve would find it:
- the rule files are those it loads itself (`%! load-when:`): a file that some of the batch do not
  load has each of its rules guarded by `batch_file__(Incident__, F)`, given only for those that do;
- within its files every rule is grounded, not only those the selection (adjudicator/core/relevance.py)
  keeps: the selection leaves out only rules that cannot fire for the incident's facts, so it never
  changes an answer set (tests/test_engine.py grounds every case both ways). Working the selection
  out afresh costs ~10 ms an incident, more than the batch saves by it;
- the shown atoms are put in one order (engine.canonical), as engine.solve puts them.
tests/test_batch.py rules on every bundled case in batches and compares each ruling with the one
ruled alone.

A batch that fails for any reason (the time limit, an answer set that is not one) is ruled again
one incident at a time, so that whatever fails is said of the incident it belongs to, as alone. An
incident with more facts than SOLO_FACTS (a very long account) is always ruled alone: in a batch it
could take the others past the time limit.
"""
from __future__ import annotations

import atexit
import functools
from collections import defaultdict

import clingo

from adjudicator.core import engine
from adjudicator.core import facts as factmod
from adjudicator.errors import AdjudicatorError
from adjudicator.core.incident import Incident

SIZE = 64           # incidents a grounding (benchmarks/README.md: 16, 32 and 64 measured)
FEWEST = 16         # a code with fewer incidents to rule is ruled one at a time, unless its rules
                    # are tagged already: tagging them, once a process (~0.05 s from the cache
                    # folder, ~0.4 s without), would cost more than batches save (~10 ms each)
SOLO_FACTS = 600    # an incident with more facts is ruled alone
WHO = "Incident__"  # the variable every atom of the tagged rules begins with


class Untaggable(Exception):
    """A statement the tagging does not cover (none of the rule files has one today)."""


def _T():
    from clingo import ast
    return ast


def _term(term):
    """An atom's term with the incident's variable put first among its arguments."""
    ast = _T()
    T = ast.ASTType
    loc = term.location
    t = term.ast_type
    if t == T.Function:
        return term.update(arguments=[ast.Variable(loc, WHO), *term.arguments])
    if t == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        s = term.symbol
        fn = ast.Function(loc, s.name, [ast.Variable(loc, WHO), *(ast.SymbolicTerm(loc, a) for a in s.arguments)], 0)
        return fn if s.positive else ast.UnaryOperation(loc, ast.UnaryOperator.Minus, fn)
    if t == T.Pool:
        return term.update(arguments=[_term(a) for a in term.arguments])
    if t == T.UnaryOperation and term.operator_type == ast.UnaryOperator.Minus:
        return term.update(argument=_term(term.argument))
    raise Untaggable(str(term))


def _literal(lit):
    ast = _T()
    T = ast.ASTType
    a = lit.atom
    t = a.ast_type
    if t == T.SymbolicAtom:
        return lit.update(atom=a.update(symbol=_term(a.symbol)))
    if t in (T.Comparison, T.BooleanConstant):
        return lit
    if t == T.BodyAggregate:
        return lit.update(atom=a.update(elements=[e.update(condition=[_literal(q) for q in e.condition])
                                                  for e in a.elements]))
    raise Untaggable(str(lit))


def _body_item(item):
    T = _T().ASTType
    if item.ast_type == T.Literal:
        return _literal(item)
    if item.ast_type == T.ConditionalLiteral:
        return item.update(literal=_literal(item.literal), condition=[_literal(q) for q in item.condition])
    raise Untaggable(str(item))


def _atom(name: str, *args):
    """The body literal name(Incident__, args...)."""
    ast = _T()
    loc = ast.Location(ast.Position("<batch>", 1, 1), ast.Position("<batch>", 1, 1))
    terms = [ast.Variable(loc, WHO), *(ast.SymbolicTerm(loc, clingo.Number(a)) for a in args)]
    return ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, name, terms, 0)))


def tag(stm):
    """A rule (or #show) as it is grounded in a batch: each atom with the incident's number first."""
    ast = _T()
    T = ast.ASTType
    if stm.ast_type == T.ShowSignature:
        return stm.update(arity=stm.arity + 1)
    if stm.ast_type != T.Rule or stm.head.ast_type != T.Literal:
        raise Untaggable(str(stm))
    body = [_body_item(b) for b in stm.body]
    bound = any(b.ast_type == T.Literal and b.sign == ast.Sign.NoSign and b.atom.ast_type == T.SymbolicAtom
                for b in stm.body)
    if not bound:
        body.insert(0, _atom("batch_incident__"))
    return stm.update(head=_literal(stm.head), body=body)


class _Tagged:
    """A rule file's statements tagged, and the same guarded by the file's number: made once a
    process, from the texts kept in the cache folder when there are some (tagging a code's rules
    through clingo's AST takes ~0.4 s; parsing the kept texts ~0.05 s). A file is numbered once,
    whichever codes include it: rules/common's are in all."""

    def __init__(self, part: engine.Part, texts: list[str] | None = None):
        self.part, self.number, self.texts = part, len(_TAGGED), texts

    @functools.cached_property
    def plain(self) -> list:
        if self.texts is not None:
            parsed = _parse(self.texts)
            if parsed is not None:
                return parsed
        return [tag(s) for s in self.part.statements]

    @functools.cached_property
    def guarded(self) -> list:
        T = _T().ASTType
        guard = _atom("batch_file__", self.number)
        return [s if s.ast_type != T.Rule else s.update(body=[guard, *s.body]) for s in self.plain]


_TAGGED: dict[str, _Tagged] = {}


@atexit.register
def _release() -> None:
    """Drop the tagged statements before the interpreter tears clingo down (as engine._release)."""
    _TAGGED.clear()


def _tagged(part: engine.Part) -> _Tagged:
    if part.path not in _TAGGED:
        _TAGGED[part.path] = _Tagged(part)
    return _TAGGED[part.path]


def _parse(texts: list[str]) -> list | None:
    """Statements parsed from kept texts, one each; None if they are not (then tagged again)."""
    from clingo import ast
    out: list = []
    try:
        ast.parse_string("\n".join(texts), out.append, logger=lambda c, m: None)
    except RuntimeError:
        return None
    out = [st for st in out if st.ast_type != ast.ASTType.Program]
    return out if len(out) == len(texts) else None


_PREPARED: set[str] = set()


def _prepare(code: str, prog: engine.Program) -> None:
    """Every rule file of the code tagged, or ready to be from the texts kept for it; when none
    were kept, tagged now and kept for the next process (adjudicator/core/rulecache.py)."""
    if code in _PREPARED:
        return
    _PREPARED.add(code)
    from adjudicator.core import rulecache
    kept = rulecache.load_batch(code, prog.parts)
    if kept is not None:
        for part, texts in zip(prog.parts, kept):
            if part.path not in _TAGGED:
                _TAGGED[part.path] = _Tagged(part, texts)
        return
    rulecache.save_batch(code, prog.parts, [[str(st) for st in _tagged(p).plain] for p in prog.parts])


def _with_number(j: int, sym: clingo.Symbol) -> clingo.Symbol:
    return clingo.Function(sym.name, [clingo.Number(j), *sym.arguments], sym.positive)


def solve_all(incs: list[Incident], timeout: float | None = engine.DEFAULT_TIMEOUT, full: bool = False) -> list:
    """Each incident's Solution, or the AdjudicatorError engine.solve raises for it, in order: the
    incidents of one code ruled SIZE at a time in one grounding, as engine.solve would rule each;
    `full` loads every rule file of the code for each, as engine.solve(full=True) does."""
    out: list = [None] * len(incs)
    groups: dict[str, list[int]] = defaultdict(list)
    for i, inc in enumerate(incs):
        groups[inc.code].append(i)
    for code, members in groups.items():
        batchable = []
        if timeout is None or not engine.registry.encoded(code):
            continue                               # refused alone, as engine.solve refuses it
        if len(members) < FEWEST and code not in _PREPARED:
            continue                               # ruled alone: the tagging would cost more
        for i in members:
            inc = incs[i]
            symbols = factmod.build(inc)
            if len(symbols) <= SOLO_FACTS:
                batchable.append((i, symbols))
        for k in range(0, len(batchable), SIZE):
            chunk = batchable[k:k + SIZE]
            if len(chunk) < 2:
                continue
            try:
                sols = _solve_batch(code, [incs[i] for i, _ in chunk], [s for _, s in chunk], timeout, full)
            except (AdjudicatorError, Untaggable):
                continue                           # each is ruled alone below, and fails there if it must
            for (i, _), sol in zip(chunk, sols):
                out[i] = sol
    for i, inc in enumerate(incs):
        if out[i] is None:
            try:
                out[i] = engine.solve(inc, timeout, full)
            except AdjudicatorError as e:
                out[i] = e
    return out


def solve_loaded(loaded: list) -> dict[int, object]:
    """For incidents as read for several files (each an Incident, or the error reading it gave),
    the solution (or error) of each ruled plainly (no `unknown` facts), by id() of the incident:
    solved together by solve_all when there are several. A conditional ruling is worked out apart
    (adjudicator/core/unknowns.py)."""
    plain = [inc for inc in loaded if not isinstance(inc, Exception) and getattr(inc, "unknown", None) is None]
    return dict(zip(map(id, plain), solve_all(plain))) if len(plain) > 1 else {}


def _solve_batch(code: str, incs: list[Incident], symbols: list[list[clingo.Symbol]], timeout: float,
                 full: bool = False) -> list:
    prog = engine.program(code)
    _prepare(code, prog)
    loads = [engine.loaded_parts(prog, inc, full) for inc in incs]
    everyone = set.intersection(*(set(p.path for p in ps) for ps in loads))
    anyone = {p.path for ps in loads for p in ps}
    statements: list = []
    facts: list[clingo.Symbol] = []
    for part in prog.parts:
        if part.path not in anyone:
            continue
        tagged = _tagged(part)
        statements += tagged.plain if part.path in everyone else tagged.guarded
    for j, (parts, syms) in enumerate(zip(loads, symbols)):
        facts.append(clingo.Function("batch_incident__", [clingo.Number(j)]))
        facts += [clingo.Function("batch_file__", [clingo.Number(j), clingo.Number(_tagged(p).number)])
                  for p in parts if p.path not in everyone]
        facts += [_with_number(j, s) for s in syms]
    messages: list[str] = []

    def make() -> clingo.Control:
        ctl = clingo.Control(["--warn=none", "--single-shot"], logger=lambda c, m: messages.append(m),
                             message_limit=5)
        return engine.fill(ctl, statements, facts)

    sols = [engine.Solution(facts=syms, templates=prog.templates, files=[p.path for p in parts])
            for parts, syms in zip(loads, symbols)]

    def take(sym: clingo.Symbol) -> None:
        args = sym.arguments
        sols[args[0].number].atoms[sym.name].append(tuple(args[1:]))

    if engine.ground_and_solve(make, code, messages, timeout, take, "a batch") == 0:
        raise engine.InternalError("the rules give no answer for a batch")
    for sol in sols:
        engine.canonical(sol)
    return sols

