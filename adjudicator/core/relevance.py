"""Which rules of a law program can fire for an incident: the rest are left out before grounding.

clingo spends 15-40 microseconds grounding each non-ground rule even when the rule has nothing to
match (benchmarks/README.md), and most of a code's rules concern irregularities an incident does not
contain. Before a Control is built, this module reads the rules as clingo's parser gives them
(clingo.ast) and works out, from the incident's facts, which rules could ever have a true body; only
those go to the grounder. The answer set is the same: a rule whose body can never hold derives
nothing and blocks nothing.

The reasoning is an over-approximation (sound, not exact). Each atom is seen as its predicate and,
argument by argument, a constant (`lead`, `3`, `"24"`), a compound term's functor (`c/2` for
`c(14,spades)`), or "anything". Starting from the incident's facts, a rule *may fire* when each
positive literal of its body (outside aggregates and conditions) matches something that may be
derived; it then may derive its head, each head variable standing for every value its body
literals allow. A comparison that sets a variable equal to constants (`K = (shuffle;cut;deal)`)
allows it those values alone. Negation, other comparisons, aggregates and the joins between
literals are not evaluated: a rule they would block is kept, so nothing that can fire is ever
left out.

One kind of aggregate is read: `T = #min{ T2 : cond }` beside `T != #sup` (or #max beside
`T != #inf`), with one element, holds only when some instance of `cond` holds, so the positive
literals of `cond` are needed as the body's own are (its variables found nowhere else in the rule
standing for anything). "The first moment something happened" is written so throughout the rules;
before, such a rule was kept for every incident (nothing in its body to wait for), and so was all
that followed from it, while clingo spends some 40 microseconds on each aggregate even when
nothing matches it (benchmarks/README.md).

A constant that no rule body can test where it stands is seen as OTHER (it can match only a
variable): a body's constant is tested at its position, and so is whatever a variable carries from
one position to another (_relevant). So incidents that differ in such constants (times, names,
cards) share one selection, cached.
tests/test_engine.py checks on every bundled case that the ruling is the one the whole program gives.
"""
from __future__ import annotations

import heapq
from collections import defaultdict

import clingo

ANY = None                       # an argument that may be anything
OTHER = ("other",)               # a constant that no rule body can test where it stands
_NONE: frozenset = frozenset()


class Unsupported(Exception):
    """A statement this reasoning does not cover (#external, #const, a script...): the caller
    grounds the whole program instead."""


def _value(sym: clingo.Symbol):
    """A ground symbol as the reasoning sees it, in plain values (a rule's summary is kept between
    processes with the selector: adjudicator/core/rulecache.py): a number as itself, a name as its string, a string as
    ('"', text), a compound term by its functor ("f", name, arity)."""
    kind = sym.type
    if kind == clingo.SymbolType.Function:
        if sym.arguments:
            return ("f", sym.name, len(sym.arguments))
        return sym.name if sym.positive else ("-", sym.name)
    if kind == clingo.SymbolType.Number:
        return sym.number
    if kind == clingo.SymbolType.String:
        return ('"', sym.string)
    return (str(sym),)                  # #inf, #sup


# (clingo.ast is imported by the functions that read rules, only when rules are read: a one-shot
# call that finds them in the cache, adjudicator/core/rulecache.py, does not pay for its import.)


def _term(t):
    """An argument of an atom in a rule: ('c', value), ('v', variable), ('s', values of a pool of
    constants), or ANY (arithmetic, an interval, `_`...)."""
    from clingo.ast import ASTType as _T
    kind = t.ast_type
    if kind == _T.SymbolicTerm:
        return ("c", _value(t.symbol))
    if kind == _T.Variable:
        return ANY if t.name == "_" else ("v", t.name)
    if kind == _T.Function and not t.external:
        return ("c", ("f", t.name, len(t.arguments)) if t.arguments else t.name)
    if kind == _T.Pool:
        alts = [_term(a) for a in t.arguments]
        if all(a is not None and a[0] == "c" for a in alts):
            return ("s", frozenset(a[1] for a in alts))
    return ANY


def _atoms(symbol) -> list[tuple[tuple[str, int], tuple]]:
    """The atoms a SymbolicAtom's term stands for: (predicate key, argument patterns)."""
    from clingo.ast import ASTType as _T
    kind = symbol.ast_type
    if kind == _T.Function and not symbol.external:
        return [((symbol.name, len(symbol.arguments)), tuple(_term(a) for a in symbol.arguments))]
    if kind == _T.SymbolicTerm and symbol.symbol.type == clingo.SymbolType.Function:
        s = symbol.symbol
        return [((s.name, len(s.arguments)), tuple(("c", _value(a)) for a in s.arguments))]
    if kind == _T.Pool:
        return [a for alt in symbol.arguments for a in _atoms(alt)]
    raise Unsupported(f"an atom written {symbol}")


def _head_atoms(head) -> list:
    from clingo.ast import ASTType as _T, Sign
    kind = head.ast_type
    if kind == _T.Literal:
        if head.atom.ast_type == _T.BooleanConstant:
            return []                                   # an integrity constraint
        if head.atom.ast_type == _T.SymbolicAtom and head.sign == Sign.NoSign:
            return _atoms(head.atom.symbol)
    elif kind in (_T.Disjunction, _T.Aggregate):
        return [a for e in head.elements for a in _head_atoms(e.literal)]
    elif kind == _T.HeadAggregate:
        return [a for e in head.elements for a in _head_atoms(e.condition.literal)]
    raise Unsupported(f"a rule head written {head}")


class Rule:
    """A rule as the reasoning sees it: the atoms its head may give, the atoms its body needs, and
    the values its body's comparisons allow a variable (`K = (shuffle;cut;deal)`: domains, each
    (variable, frozenset of values))."""
    __slots__ = ("heads", "needs", "keys", "body", "domains")

    def __init__(self, heads, needs, domains=()):
        self.heads, self.needs, self.domains = heads, needs, tuple(domains)
        self.keys = frozenset(k for k, _ in needs)
        # each body atom as the fixpoint reads it: its predicate, the constants it asks for
        # (position, value, or a set of values), and the variables it binds (position, name)
        self.body = [(key,
                      tuple((pos, a[1]) for pos, a in enumerate(args) if a is not None and a[0] == "c"),
                      tuple((pos, a[1]) for pos, a in enumerate(args) if a is not None and a[0] == "s"),
                      tuple((pos, a[1]) for pos, a in enumerate(args) if a is not None and a[0] == "v"))
                     for key, args in needs]


def summarize(stm) -> Rule | None:
    """A statement's Rule, or None for one that is always kept (#show, #defined)."""
    from clingo.ast import ASTType as _T, Sign
    kind = stm.ast_type
    if kind in (_T.ShowSignature, _T.ShowTerm, _T.Defined, _T.Comment, _T.Program):
        return None
    if kind != _T.Rule:
        raise Unsupported(f"a statement of kind {kind.name}")
    needs, domains = [], []
    body = list(stm.body)
    for n, lit in enumerate(body):
        if (lit.ast_type == _T.Literal and lit.sign == Sign.NoSign
                and lit.atom.ast_type == _T.SymbolicAtom and lit.atom.symbol.ast_type != _T.Pool):
            needs += _atoms(lit.atom.symbol)
        elif lit.ast_type == _T.Literal and lit.sign == Sign.NoSign and lit.atom.ast_type == _T.BodyAggregate:
            needs += _needed_by_aggregate(lit, stm.head, body[:n] + body[n + 1:], n)
        elif lit.ast_type == _T.Literal and lit.sign == Sign.NoSign and lit.atom.ast_type == _T.Comparison:
            domains += _domain(lit.atom)
    return Rule(_head_atoms(stm.head), needs, domains)


def _domain(cmp) -> list[tuple[str, frozenset]]:
    """The values a comparison of the body allows its variable: `K = (shuffle;cut;deal)` or
    `W = stand` (a variable equal to constants, or to a pool of them) allows those alone; any other
    comparison allows anything (nothing is read from it)."""
    from clingo.ast import ASTType as _T, ComparisonOperator
    if (cmp.term.ast_type != _T.Variable or cmp.term.name == "_" or len(cmp.guards) != 1
            or cmp.guards[0].comparison != ComparisonOperator.Equal):
        return []
    value = _term(cmp.guards[0].term)
    if value is None or value[0] not in ("c", "s"):
        return []
    return [(cmp.term.name, frozenset([value[1]]) if value[0] == "c" else value[1])]


def _needed_by_aggregate(lit, head, others: list, place: int) -> list:
    """What a body aggregate needs to be there for its rule to fire: for `V = #min{ W : cond }`
    beside `V != #sup` (#max beside `V != #inf`), one element, the positive atoms of `cond`; else
    nothing. A variable of cond found nowhere else in the rule is the element's own: it is renamed
    for the aggregate's place in the body, so that it joins cond's atoms to each other and nothing
    else (another aggregate of the rule may use the name for a variable of its own)."""
    from clingo.ast import AggregateFunction, ASTType as _T, ComparisonOperator, Sign
    agg = lit.atom
    empty = {AggregateFunction.Min: clingo.SymbolType.Supremum,
             AggregateFunction.Max: clingo.SymbolType.Infimum}.get(agg.function)
    guard = agg.left_guard
    if (empty is None or len(agg.elements) != 1 or agg.right_guard is not None or guard is None
            or guard.comparison != ComparisonOperator.Equal or guard.term.ast_type != _T.Variable):
        return []
    value = guard.term.name

    def never_empty(other) -> bool:        # `V != #sup` (#inf): the rule cannot hold on an empty set
        if other.ast_type != _T.Literal or other.sign != Sign.NoSign or other.atom.ast_type != _T.Comparison:
            return False
        cmp = other.atom
        return (cmp.term.ast_type == _T.Variable and cmp.term.name == value and len(cmp.guards) == 1
                and cmp.guards[0].comparison == ComparisonOperator.NotEqual
                and cmp.guards[0].term.ast_type == _T.SymbolicTerm and cmp.guards[0].term.symbol.type == empty)
    if not any(never_empty(other) for other in others):
        return []
    elsewhere = _variables(head).union(*(_variables(other) for other in others))
    needs = []
    for cond in agg.elements[0].condition:
        if (cond.ast_type == _T.Literal and cond.sign == Sign.NoSign
                and cond.atom.ast_type == _T.SymbolicAtom and cond.atom.symbol.ast_type != _T.Pool):
            try:
                atoms = _atoms(cond.atom.symbol)
            except Unsupported:
                continue            # (needing less keeps more: never wrong)
            needs += [(key, tuple(("v", f"{a[1]} of aggregate {place}")
                                  if a is not None and a[0] == "v" and a[1] not in elsewhere else a
                                  for a in args)) for key, args in atoms]
    return needs


def _variables(node) -> set[str]:
    """The names of the variables in a piece of a rule (clingo AST), found by clingo's own walker."""
    from clingo.ast import Transformer

    class Names(Transformer):
        def visit_Variable(self, variable):
            found.add(variable.name)
            return variable

    found: set[str] = set()
    Names()(node)
    return found


class Selector:
    """The rules of a code (a list of Rule or None, in the program's order: every rule file of the
    code, one after the other), ready to tell which can fire for a set of facts. Made once a code;
    what it works out from the rules (`state()`) is kept between commands with them
    (adjudicator/core/rulecache.py), so a one-shot command does not work it out again. An incident loads
    only some of the files: `view()` is the selector seen from those."""

    CAP = 16          # head patterns a rule may give before a position is widened to ANY

    def __init__(self, rules: list[Rule | None]):
        # Each statement's body as the fixpoint reads it (Rule.body), or None for a statement that
        # is always kept (a #show).
        self.bodies = [r.body if r else None for r in rules]
        # The values its comparisons allow a variable (Rule.domains), for each rule that has some.
        self.domains = {i: r.domains for i, r in enumerate(rules) if r and r.domains}
        # The constants that can matter at each argument position (predicate, position): any other
        # constant there, an incident's or a head's, is OTHER to the rules (_relevant).
        self.relevant = _relevant(rules)
        self.heads = [[(k, tuple(self._seen(k, pos, a) for pos, a in enumerate(args))) for k, args in r.heads]
                      if r else None for r in rules]
        # Predicates in dependency order, so that a rule is looked at once its body's predicates
        # are settled (except within a recursive group, looked at until nothing changes).
        rank = _ranks(rules)
        self.order = [(rank.get(r.heads[0][0], 0) if r and r.heads else 0, i) for i, r in enumerate(rules)]
        users: dict = defaultdict(list)
        for i, r in enumerate(rules):
            for k in r.keys if r else ():
                users[k].append(i)
        self.users = dict(users)
        # The rules with nothing in their body to wait for (facts of the rule files, rules whose
        # body is all negation or comparison): looked at first.
        self.free = [i for i, r in enumerate(rules) if r is not None and not r.needs]
        # The predicates each rule's body reads, in order (its answers are kept by the patterns
        # derived for them), and how many different ones: worked out here, and kept with the rest,
        # not again by every process that selects (0.9 ms, a one-shot call's).
        self.body_keys = [tuple(b[0] for b in body) if body is not None else () for body in self.bodies]
        self.wants = [len(set(k)) for k in self.body_keys]

    def state(self) -> tuple:
        """What the selector worked out, in plain values (Selector.restored(state) is it again)."""
        return (self.bodies, self.domains, self.relevant, self.heads, self.order, self.users, self.free,
                self.body_keys, self.wants)

    @classmethod
    def restored(cls, state: tuple) -> "Selector":
        self = cls.__new__(cls)
        (self.bodies, self.domains, self.relevant, self.heads, self.order, self.users, self.free,
         self.body_keys, self.wants) = state
        return self

    def view(self, spans: list[tuple[int, int]]) -> "View":
        """The selector for the statements in these spans of the code's (the files an incident
        loads, each [start, end)), numbered from 0 in that order."""
        return View(self, spans)

    def _seen(self, key, pos, a):
        """A head's argument as the reasoning sees it at its position: a constant that cannot
        matter there is OTHER."""
        if a is None or a[0] == "v":
            return a
        matters = self.relevant.get((key, pos), _NONE)
        if a[0] == "c":
            return ("c", a[1] if a[1] in matters else OTHER)
        return ("s", frozenset(v if v in matters else OTHER for v in a[1]))

    def abstract(self, facts: list[clingo.Symbol]) -> frozenset:
        """The incident's facts as the reasoning sees them. Each fact's view is kept (by the
        symbol: one call into clingo to look it up, where working it out makes one for each
        argument and more): most facts of an incident were another's too."""
        relevant = self.relevant
        seen = self.__dict__.setdefault("_seen_facts", {})
        if len(seen) > self.MEMO_LIMIT:
            seen.clear()
        out = set()
        for f in facts:
            view = seen.get(f)
            if view is None:
                arguments = f.arguments
                key = (f.name, len(arguments))
                args = []
                for pos, a in enumerate(arguments):
                    v = _value(a)
                    args.append(v if v in relevant.get((key, pos), _NONE) else OTHER)
                view = seen[f] = (key, tuple(args))
            out.add(view)
        return frozenset(out)

    def fire(self, facts: frozenset, active: bytearray, start: tuple | None = None) -> frozenset[int]:
        """The indexes (the code's) of the rules that may fire for these abstract facts, of those
        marked in `active` (the files loaded): a rule of a file not loaded neither fires nor gives
        anything. `start` is what these rules give with no facts at all (settled(), the same for
        every incident loading these files), to go on from."""
        return frozenset(self._fixpoint(facts, active, start)[1])

    def settled(self, active: bytearray) -> tuple[dict, frozenset, tuple]:
        """What the rules marked in `active` give with no incident's facts (the rule files' own
        facts, and what follows from them alone), which of them fire, and how many of each rule's
        body predicates are still without an atom: a quarter of the work of selecting for an
        incident, done once for a set of files."""
        derived, fired, missing = self._fixpoint(frozenset(), active, None)
        return {k: frozenset(v) for k, v in derived.items()}, frozenset(fired), tuple(missing)

    # What a rule's body gives depends only on the patterns derived for the predicates it reads:
    # _evaluate's answers are kept by (rule, those pattern sets), each set named by a number
    # (`names`). Incidents share most of them: over the bundled cases in turn, each new, seven
    # lookups in ten find the answer; selecting afresh for every bundled case took 2.9 ms a case
    # the first time through (4.2 without this) and 1.8 ms once the answers were kept (4.2).
    MEMO_LIMIT = 200_000        # answers kept, and named pattern sets, before both are forgotten

    def _memo(self) -> tuple[dict, dict, list, list]:
        memo = self.__dict__.get("_kept_answers")
        if memo is None or len(memo[0]) > self.MEMO_LIMIT or len(memo[1]) > self.MEMO_LIMIT:
            memo = self.__dict__["_kept_answers"] = ({}, {}, self.body_keys, self.wants)
        return memo

    def _fixpoint(self, facts: frozenset, active: bytearray, start: tuple | None) -> tuple[dict, set, list]:
        bodies, heads_of, order, users, domains = self.bodies, self.heads, self.order, self.users, self.domains
        answers, names, body_keys, wants = self._memo()
        none: list = []
        derived: dict = defaultdict(set)
        named: dict = {}                # predicate -> the number naming its patterns now
        # A rule is looked at only once every predicate its body reads has some atom: `missing`
        # counts, for each rule, those that have none yet (a quarter of the rules a fixpoint looked
        # at stopped there: 666 looks a new incident became 457, and selecting took 1.80 against
        # 1.97 ms, with the rules reading what a rule gave looked up once a rule, not once a head).
        if start is None:
            fired = set()
            missing = list(wants)
            queued = {i for i in self.free if active[i]}
        else:
            for k, v in start[0].items():
                derived[k] = set(v)
            fired = set(start[1])
            missing = list(start[2])
            queued = set()
        given = set()
        for k, args in facts:
            have = derived[k]
            if not have:
                for j in users.get(k, none):
                    missing[j] -= 1
            have.add(args)
            given.add(k)
        queued.update(i for k in given for i in users.get(k, none) if active[i] and not missing[i])
        queue = [order[i] for i in queued]
        heapq.heapify(queue)
        while queue:
            _, i = heapq.heappop(queue)
            queued.discard(i)
            key = [i]
            for k in body_keys[i]:
                n = named.get(k)
                if n is None:
                    n = named[k] = names.setdefault(frozenset(derived[k]), len(names))
                key.append(n)
            memo_key = tuple(key)
            heads = answers.get(memo_key, answers)
            if heads is answers:
                heads = answers[memo_key] = _evaluate(bodies[i], heads_of[i], derived, self.CAP,
                                                      domains.get(i, ()))
            if heads is None:
                continue
            fired.add(i)
            grown = None
            for k, args in heads:
                have = derived[k]
                if args not in have:
                    if not have:
                        for j in users.get(k, none):
                            missing[j] -= 1
                    have.add(args)
                    if grown is None:
                        grown = {k}
                    else:
                        grown.add(k)
            if grown is None:
                continue
            for k in grown:                 # (the rules reading what grew are looked at again)
                named.pop(k, None)
                for j in users.get(k, none):
                    if active[j] and not missing[j] and j not in queued:
                        queued.add(j)
                        heapq.heappush(queue, order[j])
        return derived, fired, missing


class View:
    """A code's Selector seen from the rule files an incident loads: their statements numbered
    from 0, in order, as the engine gives them to clingo."""

    def __init__(self, selector: Selector, spans: list[tuple[int, int]]):
        self.selector = selector
        self.index = [i for start, end in spans for i in range(start, end)]     # ours -> the code's
        self.active = bytearray(len(selector.bodies))
        for start, end in spans:
            self.active[start:end] = b"\1" * (end - start)
        self._cache: dict = {}
        self._settled: tuple | None = None

    def select(self, facts: list[clingo.Symbol]) -> frozenset[int]:
        """The indexes (ours) of the statements to ground: those always kept and the rules that may
        fire (cached by the abstract facts)."""
        key = self.selector.abstract(facts)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > 512:
                self._cache.clear()
            # (the settled state is worked out from the second incident on: a one-shot call
            # selects once, and would only pay for copying it)
            if self._settled is None and self._cache:
                self._settled = self.selector.settled(self.active)
            fired = self.selector.fire(key, self.active, self._settled)
            bodies = self.selector.bodies
            hit = self._cache[key] = frozenset(n for n, i in enumerate(self.index)
                                               if bodies[i] is None or i in fired)
        return hit


def _evaluate(body: list, heads: list, derived: dict, cap: int, domains: tuple = ()):
    """The head atoms (of `heads`, the rule's as the Selector sees them) a rule with this body
    (Rule.body) and these comparisons (Rule.domains) may give now, or None while its body cannot
    hold. (Written for speed: an incident the cache has not seen evaluates some 800 rule bodies,
    on every call.)"""
    values: dict = {}                 # variable -> set of values, or ANY
    for key, consts, choices, variables in body:
        have = derived.get(key)
        if not have:
            return None
        if choices or len(consts) > 1:    # (a derived ANY, None, matches whatever is asked)
            found = [p for p in have
                     if all(p[pos] is None or p[pos] == v for pos, v in consts)
                     and all(p[pos] is None or p[pos] in vs for pos, vs in choices)]
            if not found:
                return None
        elif consts:
            pos, v = consts[0]
            found = [p for p in have if p[pos] == v or p[pos] is None]
            if not found:
                return None
        else:
            found = have
        for pos, name in variables:
            vals = {p[pos] for p in found}
            if None in vals:
                vals = ANY
            if name not in values:
                values[name] = vals
            elif vals is not ANY:
                old = values[name]
                values[name] = vals if old is ANY else old & vals
                if not values[name]:
                    return None       # two literals agree on no value of the variable
    for name, allowed in domains:     # (the values a comparison allows are constants some rule names)
        old = values.get(name, ANY)
        values[name] = allowed if old is ANY else old & allowed
        if not values[name]:
            return None               # the atoms give the variable no value the comparison allows
    out = []
    for key, args in heads:
        patterns = [()]
        for a in args:
            if a is None:
                options = [ANY]
            elif a[0] == "c":
                options = [a[1]]
            elif a[0] == "s":
                options = list(a[1])
            else:
                v = values.get(a[1], ANY)
                options = [ANY] if v is ANY else list(v)
            patterns = [p + (o,) for p in patterns for o in options]
            if len(patterns) > cap:
                patterns = list(dict.fromkeys(p[:-1] + (ANY,) for p in patterns))
        out += [(key, p) for p in patterns]
    return tuple(out)       # (kept in the answers: a tuple of plain values, the collector stops tracking it)


def _relevant(rules: list[Rule | None]) -> dict:
    """The constants that can matter at each argument position ((predicate, arity), position): those
    a rule body names there (`ev(T,lead)`: lead at ev/2's second), or that a comparison allows a
    variable found there (`K = (shuffle;cut;deal)`), and those that can matter where a variable
    carries the value: the positions one variable of a rule joins (in its body and its head) are
    one class, with one set. A constant found nowhere in the set of its position is seen as OTHER,
    as the incident gives it and as a head gives it.

    Why this gives the rules' answer (nothing that can fire is left out): a body's constant is in
    its position's set, so it tells apart what it told apart before; two positions a variable joins
    have the same set, so a value is seen the same at both (two different values seen as OTHER
    agree: more may fire, never less); a head gives at each position the value its body saw at a
    position of the same class, seen as that position sees it. So the event times, which no rule
    tests but moment 0, are one value to the rules, and incidents that differ only in when things
    happened share one selection (before, a time was told apart wherever any rule named the
    number: 142 of 665 incidents new to a warm process found their selection cached, now 286)."""
    parent: dict = {}

    def find(x):
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    named: list = []                    # (position, constants)
    for r in rules:
        if r is None:
            continue
        where: dict = defaultdict(list)  # variable -> the positions it stands at, body and head
        for in_body, atoms in ((True, r.needs), (False, r.heads)):
            for key, args in atoms:
                for pos, a in enumerate(args):
                    if a is None:
                        continue
                    if a[0] == "v":
                        where[a[1]].append((key, pos))
                    elif in_body:           # (a head's constant is given, never tested)
                        named.append(((key, pos), (a[1],) if a[0] == "c" else a[1]))
        for name, allowed in r.domains:
            for place in where.get(name, ()):
                named.append((place, allowed))
        for places in where.values():
            first = find(places[0])
            for place in places[1:]:
                other = find(place)
                if other != first:
                    parent[other] = first
    sets: dict = defaultdict(set)
    for place, values in named:
        sets[find(place)].update(values)
    frozen = {root: frozenset(values) for root, values in sets.items()}
    return {place: frozen[find(place)] for place in list(parent) + [p for p, _ in named]
            if find(place) in frozen}


def _ranks(rules: list[Rule | None]) -> dict:
    """Each predicate's place in an order where a predicate comes after those its rules' bodies
    need (the predicates of a recursive group share a place): Tarjan's algorithm, iteratively."""
    graph: dict = defaultdict(set)
    for r in rules:
        if r:
            for k, _ in r.heads:
                graph[k] |= r.keys
    index: dict = {}
    low: dict = {}
    rank: dict = {}
    stack: list = []
    on_stack: set = set()
    counter = places = 0
    for root in list(graph):
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    rank[member] = places
                    if member == node:
                        break
                places += 1
    return rank
