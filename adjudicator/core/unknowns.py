"""Rulings on incomplete accounts: facts the incident says are unknown, and what turns on them.

An incident may list, under the top-level key `unknown`, facts nobody can now establish:

    unknown:
      - {event: 2, field: holding}          # did East hold the suit led when he renounced?
      - {event: 3, field: card, one-of: [QH, 2C]}   # which card was exposed
      - {order: [5, 6]}                     # which of events 5 and 6 came first

Each becomes a choice among its possibilities, given to clingo through its backend (atoms and
rules built from symbols, never program text): exactly one alternative holds, and each
alternative's facts follow from it. The law rules are grounded once with every alternative's
facts possible; brave and cautious consequences of the shown atoms (the ruling atoms) then say
what holds whatever the facts were (cautious = brave) and what is still open. To find which fact
a ruling turns on, the same ground program is solved under assumptions (one alternative of one
unknown at a time), never reground and never by enumerating every combination: an unknown is
relevant when its alternatives give different consequences.

An order is the exception: its alternatives are grounded apart (a grounding for each, made
once; while there are at most MAX_APART of them together), and each question is put to every
grounding whose order agrees with what is assumed: brave consequences are the union of theirs,
cautious the intersection of those that have an answer set, no answer set when none has (the
answer sets of one grounding with the order a choice are exactly those of the groundings apart,
one order each). With both orders in one grounding each of the two events' facts is possible at
both moments, and every rule joining facts of one moment grounds every mix of the two: two Draw
Poker hands shown in an unknown order had each moment hold ten cards, and the value of the
hands (rules/poker/show.lp: a sum over the ranks of five cards, and each hand beaten by every
better one) took 11 s to ground (30 s on a busy machine), where each order grounds in under
0.3 s (Space.grounded).

The conditional ruling is the tree of those decisions; its leaves, where cautious and brave
agree, are the rulings `adjudicate` gives on the incident completed with the facts on that
branch.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

import clingo
from clingo import Function, Number

from adjudicator.core import engine, registry, ruling, schema
from adjudicator.core import facts as factmod
from adjudicator.errors import InconsistentIncident, InputError, InternalError
from adjudicator.core.incident import GAME_ONLY_FIELDS, Checker, Incident, field_of_game
from adjudicator.core.values import Y, shown

MAX_UNKNOWNS = 12
MAX_ALTERNATIVES = 13
MAX_SOLVES = 4000        # solves (each cautious or brave, under assumptions) for one ruling
MAX_APART = 8            # the most groundings of orders apart (more: the later orders a choice)
# The most facts not known the decision tree weighs. Weighing a fact costs two solves for each of
# its alternatives at every node of the tree, and an account of ninety events with twelve unknowns
# spent ten seconds weighing them all: past this many, the ones weighed are those that decide most
# at the root (then the first written); a branch still open once they are fixed goes on with the
# others in the order written, unweighed (one solve a node), so the ruling stays whole but may ask
# about them in a longer order than needed. The ruling says so (`not_weighed`; the verdict's last
# sentence).
MAX_WEIGHED = 6
SUIT_ONE = {"spades": "a spade", "hearts": "a heart", "diamonds": "a diamond", "clubs": "a club"}
_ALT = "adjudicator_unknown"     # the name of the choice atoms; not shown, read by no law rule


@dataclass
class Alternative:
    label: str                    # for people: "East held a spade"
    value: object                 # for the incident file: what to write (None: leave it out)
    symbols: list                 # the facts that hold under this alternative


@dataclass
class Unknown:
    id: str                       # u1, u2, ... in the order written
    kind: str                     # field, order
    question: str
    about: str                    # "line 14" / "lines 18-19"
    events: tuple                 # the event numbers it concerns
    field: str | None
    alternatives: list[Alternative]
    spec: dict = field(default_factory=dict)   # how it is written under `unknown`


def has_unknowns(inc: Incident) -> bool:
    return getattr(inc, "unknown", None) is not None


# --------------------------------------------------------------------------------------------
# Reading the `unknown` entries
# --------------------------------------------------------------------------------------------
def _who(inc: Incident, seat: str) -> str:
    name = inc.players.get(seat)
    return f"{name} ({seat})" if name else registry.table(inc.game).word(seat)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _told(inc: Incident, n: int) -> str:
    """Event n as the story tells it, mid-sentence and without its full stop ("Brown renounces with
    the three of clubs", "the trick is turned and quitted"): a question names an event by what
    happened, never by a line of the file (an account built on the page has none the user saw)."""
    told = getattr(inc, "_told", None)
    if told is None:
        from adjudicator.core import narrator
        teller = narrator.Narrator(inc)
        teller.setting()
        told = [teller.event(ev).rstrip(".") for ev in inc.events]   # (in order: a deal says who deals on)
        told = [t[:1].lower() + t[1:] if t.split(" ", 1)[0] in ("The", "A", "An") and t.split(" ", 1)[0]
                not in teller.names else t for t in told]
        inc._told = told
    return told[n - 1]


def _describe(inc: Incident, n: int) -> str:
    """Event n named for a question, as the story tells it: "the renounce by Brown (E) (the 2nd
    event: Brown renounces with the three of clubs)"."""
    ev = inc.events[n - 1]
    by = ev.fields.get("by")
    who = _who(inc, by) if isinstance(by, str) and by in registry.table(inc.game).seats else None
    return f"the {ev.name.replace('-', ' ')}" + (f" by {who}" if who else "") + f" (the {_ordinal(n)} event: {_told(inc, n)})"


def _suit_led(inc: Incident, n: int) -> str | None:
    """The suit of the card led to the trick event n belongs to, when the events show it."""
    for ev in reversed(inc.events[: n - 1]):
        if ev.name == "turn-and-quit":
            return None
        if ev.name == "lead":
            c = ev.fields.get("card")
            return c[1] if c else None
    return None


def _label(f: schema.Field, v) -> str:
    if v is None:
        return "not so" if f.type != "holding" else "nothing of it"
    if f.type == "bool":
        return "yes" if v else "no"
    if f.type in ("card",):
        return _card(v)
    if f.type == "cards":
        return ", ".join(_card(c) for c in v)
    if f.type == "holding":
        return ", ".join(_card(x) if k == "card" else x for k, x in v)
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v)
    return str(v)


def _example(f: schema.Field, ck: Checker) -> str:
    """Two values a field of this kind may take, as written in an incident (a hint's example)."""
    if f.choices:
        return "[" + ", ".join(str(c) for c in list(f.choices)[:2]) + "]"
    seats = ck.table.seats
    return {"seat": f"[{seats[0]}, {seats[1]}]", "person": f"[{seats[0]}, {seats[1]}]",
            "card": "[KS, QS]", "cards": "[[KS], [QS]]", "holding": "[KS, spades]", "int": "[2, 3]",
            "trick": "[2, 3]", "suit": "[spades, hearts]", "bool": "[true, ~]",
            "seats": f"[[{seats[0]}], [{seats[1]}]]"}.get(f.type, "[..., ...]")


def _card(c) -> str:
    rank, suit = c
    return {14: "A", 13: "K", 12: "Q", 11: "J"}.get(rank, str(rank)) + suit[0].upper()


def _yaml_value(f: schema.Field, v):
    """The value as it would be written in the incident file."""
    if v is None:
        return None
    if f.type == "card":
        return _card(v)
    if f.type == "cards":
        return [_card(c) for c in v]
    if f.type == "holding":
        items = [_card(x) if k == "card" else x for k, x in v]
        return items[0] if len(items) == 1 else items
    if f.type == "seats":
        return list(v)
    return v


def _event_no(ck: Checker, inc: Incident, y: Y, what: str) -> int:
    n = y.value
    if isinstance(n, str) and re.fullmatch(r"[-+]?[0-9][0-9_:]*", n.strip()):
        ck.integer(y, what, 1, len(inc.events))     # (02, 1:30, '3': said as any number so written)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(inc.events):
        raise ck.err(y, f"{what}: '{shown(y)}' is not the number of an event",
                     f"events are numbered from 1 (the first) to {len(inc.events)} (the last), in the order written")
    return n


def _field_unknown(ck, inc, uid, y: Y, m: dict, base: list) -> Unknown:
    n = _event_no(ck, inc, m["event"], "unknown.event")
    ev = inc.events[n - 1]
    spec = schema.EVENTS[ev.name]
    if "field" not in m:
        raise ck.err(y, "unknown: an entry with `event` needs `field`: which of its fields is unknown",
                     f"the fields of '{ev.name}': {', '.join(f.name for f in spec.fields)}")
    fname = m["field"].value
    f = spec.field(fname) if isinstance(fname, str) else None
    if f is None:
        raise ck.err(m["field"], f"unknown.field: '{shown(m['field'])}' is not a field of the event '{ev.name}' "
                     f"(event {n}, line {ev.line})",
                     f"its fields: {', '.join(x.name for x in spec.fields)}")
    if not field_of_game(ev.name, fname, inc.game):
        owner, law = GAME_ONLY_FIELDS[(ev.name, fname)][:2]
        raise ck.err(m["field"], f"unknown.field: `{fname}` of the event '{ev.name}' (event {n}, line {ev.line}) "
                     f"is {owner}'s ({law}), not {inc.game}'s: it cannot be unknown here",
                     f"its fields at {inc.game}: "
                     + ", ".join(x.name for x in spec.fields if field_of_game(ev.name, x.name, inc.game)))
    if f.type == "text" and not f.choices:
        raise ck.err(m["field"], f"unknown.field: `{fname}` is free text, which the rules never read",
                     "name a field the rules read")
    values: list = []
    if "one-of" in m:
        ys = m["one-of"].value
        if not isinstance(ys, list) or len(ys) < 2:
            raise ck.err(m["one-of"], "unknown.one-of: expected a list of at least two possibilities",
                         f"give two or more values the field `{fname}` may take, e.g. one-of: "
                         f"{_example(f, ck)}; write ~ for 'not so'")
        items: list = []
        for it in ys:
            if it.value is None:
                if f.required:
                    raise ck.err(it, f"unknown.one-of: `{fname}` is required in '{ev.name}', so ~ (not so) "
                                 "is no possibility", "list only values")
                value = None
            else:
                value = ck.value(f, it, f"unknown.one-of ({ev.name}.{fname})")
            if value in values:     # read as the field reads it: `W`, `w` and `West` are one seat
                was = items[values.index(value)]
                raise ck.err(it, f"unknown.one-of: '{shown(it)}' is the possibility written '{shown(was)}' at "
                             f"line {was.line}: one possibility cannot be listed twice", "list each possibility once")
            values.append(value)
            items.append(it)
    elif f.type == "bool":
        values = [True, False]
    elif f.choices:
        values = list(f.choices) + ([] if f.required else [None])
    elif f.type == "seat":
        values = list(registry.table(inc.game).seats)
    elif f.type == "suit":
        values = ["spades", "hearts", "diamonds", "clubs"]
    elif f.type == "holding":
        led = _suit_led(inc, n)
        suits = [led] if led else ["spades", "hearts", "diamonds", "clubs"]
        values = [[("suit", s)] for s in suits] + [None]
    else:
        raise ck.err(m["field"], f"unknown.field: `{fname}` ({schema.TYPES.get(f.type, f.type)}) has too many "
                     "possibilities to guess", "list them: one-of: [...]")
    if len(values) > MAX_ALTERNATIVES:
        raise ck.err(y, f"unknown: at most {MAX_ALTERNATIVES} possibilities for one fact",
                     "keep the possibilities the ruling can turn on, or establish the fact")
    t = Number(n)
    key = factmod.const(fname)
    alts = []
    by = ev.fields.get("by")
    who = _who(inc, by) if isinstance(by, str) and by in registry.table(inc.game).seats else "the player"
    for v in values:
        syms = [] if v is None else [Function("arg", [t, key, s]) for s in factmod.value_symbols(f, v)]
        if f.type == "holding" and ev.name in ("lead", "play", "renounce"):
            label = (f"{who} held {_holding_words(v)}" if v is not None
                     else f"{who} did not hold {' or '.join(_holding_words(x) for x in values if x)}")
        elif f.type == "seat" and v is not None:
            label = f"it was {_who(inc, v)}"
        else:
            label = _label(f, v)
        alts.append(Alternative(label, _yaml_value(f, v), syms))
    if f.type == "holding" and ev.name in ("lead", "play", "renounce"):
        what = " or ".join(_holding_words(v) for v in values if v is not None)
        question = f"Did {who} hold {what} at the {ev.name.replace('-', ' ')} (the {_ordinal(n)} event: {_told(inc, n)})?"
    elif fname == "by":
        # (who did it is the question: the event is not told, its account names who is said to have)
        question = f"Who did the {ev.name.replace('-', ' ')} at the {_ordinal(n)} event?"
    else:
        question = f"At {_describe(inc, n)}, {fname.replace('-', ' ')}: {f.doc}?"
    base[:] = [s for s in base if not (s.name == "arg" and s.arguments[0] == t and s.arguments[1] == key)]
    return Unknown(uid, "field", question, f"line {ev.line}", (n,), fname, alts,
                   {"event": n, "field": fname, **({"one-of": [a.value for a in alts]} if "one-of" in m else {})})


def _unknown_pos(inc: Incident) -> tuple[int | None, int | None]:
    """Where the incident's `unknown` stands (line, column): a refusal of the unknowns as a whole
    names it."""
    y = getattr(inc, "unknown", None)
    return (y.line, y.col) if isinstance(y, Y) else (None, None)


def _holding_words(v) -> str:
    parts = [SUIT_ONE[x] if k == "suit" else _card(x) for k, x in v]
    return " and ".join(parts)


def _of_event(s: clingo.Symbol, n: int) -> bool:
    return s.name in ("ev", "arg") and s.arguments[0] == Number(n)


def _renumber(s: clingo.Symbol, to: int) -> clingo.Symbol:
    return Function(s.name, [Number(to), *s.arguments[1:]])


def parse(inc: Incident) -> tuple[list, list[Unknown]]:
    """The certain facts and the unknowns of an incident with an `unknown` key."""
    base = factmod.build(inc)
    y = getattr(inc, "unknown", None)
    if y is None:
        return base, []
    ck = Checker(inc.file, inc.players, inc.candidates, table=registry.table(inc.game))
    if not isinstance(y.value, list) or not y.value:
        raise ck.err(y, "unknown: expected a list of the facts that are not known",
                     "e.g. unknown: [{event: 2, field: holding}, {order: [5, 6]}]")
    if len(y.value) > MAX_UNKNOWNS:
        raise ck.err(y.value[MAX_UNKNOWNS], f"unknown: at most {MAX_UNKNOWNS} unknown facts",
                     "leave out those the dispute does not turn on")
    out: list[Unknown] = []
    used: dict[int, int] = {}
    for i, it in enumerate(y.value, start=1):
        uid = f"u{i}"
        if not isinstance(it.value, dict):
            raise ck.err(it, "unknown: each entry is a mapping",
                         "e.g. - {event: 2, field: holding} or - {order: [5, 6]}")
        m = it.value
        if "happened" in m:
            # Whether an event happened at all would renumber every later moment; the rules count
            # moments by number, so it is not offered (say which came first instead: `order`).
            raise ck.err(it.keys["happened"], "unknown: `happened` is not supported",
                         "say which of two events came first instead: - {order: [N, M]}")
        kinds = [k for k in ("event", "order") if k in m]
        allowed = {"event": ("event", "field", "one-of"), "order": ("order",)}
        if len(kinds) != 1:
            raise ck.err(it, "unknown: each entry has exactly one of `event` (with `field`) or `order`",
                         "e.g. - {event: 2, field: holding}")
        for k in m:
            if k not in allowed[kinds[0]]:
                raise ck.err(it.keys[k], f"unknown: '{shown(k)}' does not go with `{kinds[0]}`",
                             f"an entry with `{kinds[0]}` has: {', '.join(allowed[kinds[0]])}")
        kind = kinds[0]
        if kind == "event":
            u = _field_unknown(ck, inc, uid, it, m, base)
        else:
            ys = m["order"].value
            if not isinstance(ys, list) or len(ys) != 2:
                raise ck.err(m["order"], "unknown.order: expected two event numbers", "e.g. order: [5, 6]")
            a, b = (_event_no(ck, inc, v, "unknown.order") for v in ys)
            if a == b:
                raise ck.err(m["order"], "unknown.order: two different events", "e.g. order: [5, 6]")
            a, b = min(a, b), max(a, b)
            mine = [s for s in base if _of_event(s, a) or _of_event(s, b)]
            base[:] = [s for s in base if not (_of_event(s, a) or _of_event(s, b))]
            swapped = [_renumber(s, b if s.arguments[0] == Number(a) else a) for s in mine]
            da, db = _describe(inc, a), _describe(inc, b)
            u = Unknown(uid, "order", f"Which came first: {da} or {db}?",
                        f"lines {inc.events[a - 1].line}-{inc.events[b - 1].line}", (a, b), None,
                        [Alternative(f"{da.split(' (the ')[0]} came first", [a, b], mine),
                         Alternative(f"{db.split(' (the ')[0]} came first", [b, a], swapped)],
                        {"order": [a, b]})
        for n in u.events:
            if n in used:
                raise ck.err(it, f"unknown: event {n} is already the subject of unknown entry {used[n]}",
                             "give each event at most one unknown fact")
            used[n] = i
        out.append(u)
    return base, out


# --------------------------------------------------------------------------------------------
# One grounding, many questions
# --------------------------------------------------------------------------------------------
def _choice_rules(unknowns_: list[Unknown], fixed: dict[int, int] | None = None) -> list:
    """For each unknown: `{alt(U,0); ...; alt(U,k)} = 1.` and `fact :- alt(U,i).` for each fact of
    each alternative, as clingo AST made from symbols. An unknown fixed (fixed[U] = i, an order
    grounded apart) has only `alt(U,i).` and its facts: its other alternatives are not there."""
    fixed = fixed or {}
    from clingo import ast
    pos = ast.Position("<unknown facts>", 1, 1)
    loc = ast.Location(pos, pos)

    def lit(sym, sign=ast.Sign.NoSign):
        return ast.Literal(loc, sign, ast.SymbolicAtom(ast.SymbolicTerm(loc, sym)))
    one = ast.Guard(ast.ComparisonOperator.Equal, ast.SymbolicTerm(loc, Number(1)))
    out = []
    for ui, u in enumerate(unknowns_):
        alts = [(Function(_ALT, [Number(ui), Number(ai)]), alt) for ai, alt in enumerate(u.alternatives)]
        if ui in fixed:
            alts = [alts[fixed[ui]]]
            out.append(ast.Rule(loc, lit(alts[0][0]), []))
        else:
            out.append(ast.Rule(loc, ast.Aggregate(loc, one, [ast.ConditionalLiteral(loc, lit(a), []) for a, _ in alts],
                                                   one), []))
        for a, alt in alts:
            for sym in alt.symbols:
                out.append(ast.Rule(loc, lit(sym), [lit(a)]))
    return out


def _apart(unknowns_: list[Unknown]) -> list[dict[int, int]]:
    """The orders grounded apart: each grounding's fixed alternatives (unknown -> alternative),
    the orders in the order written while their groundings stay at most MAX_APART; [{}] (one
    grounding, every order a choice) when there is no order."""
    out: list[dict[int, int]] = [{}]
    for ui, u in enumerate(unknowns_):
        if u.kind == "order" and len(out) * len(u.alternatives) <= MAX_APART:
            out = [{**f, ui: ai} for f in out for ai in range(len(u.alternatives))]
    return out


class Space:
    """The incident's rules grounded once over every possibility of its unknown facts (an order's
    alternatives in groundings apart: the module's docstring)."""

    def __init__(self, inc: Incident, timeout: float = engine.DEFAULT_TIMEOUT):
        self.inc = inc
        if timeout is None:             # ADJUDICATOR_TIME_LIMIT set to what is not a time limit
            raise engine.time_limit_error()
        self.timeout, self.deadline = timeout, time.monotonic() + timeout
        self.base, self.unknowns = parse(inc)
        prog = engine.program(inc.code)
        sig = engine.signals(inc)
        for u in self.unknowns:
            for a in u.alternatives:
                for s in a.symbols:
                    if s.name == "arg" and s.arguments[1] == Function("remedy"):
                        sig.add(f"demand:{s.arguments[2].string}")
        parts = [p for p in prog.parts if p.triggers is None or p.triggers & sig]
        self.templates = prog.templates
        self.files = [p.path for p in parts]
        messages: list[str] = []
        # The choices go in as rules the grounder sees (clingo AST built from symbols): atoms
        # that only the backend could make true would be unknown to the grounder, and the law
        # rules reading them never instantiated. One Control for each order grounded apart:
        # (the alternatives it fixes, the Control).
        self.grounded: list[tuple[dict[int, int], clingo.Control]] = []
        for fixed in _apart(self.unknowns):
            ctl = clingo.Control(["--warn=none"], logger=lambda c, m: messages.append(m), message_limit=5)
            engine.fill(ctl, [stm for part in parts for stm in part.statements]
                        + _choice_rules(self.unknowns, fixed), self.base)
            self.grounded.append((fixed, ctl))
        self.ctl = self.grounded[0][1]
        self._cache: dict[tuple, tuple] = {}
        self.solves = self.budget_from = 0
        self.not_weighed: list[int] = []      # the unknowns past MAX_WEIGHED (decide)

        def work(state):
            for _, ctl in self.grounded:
                try:
                    ctl.ground([("base", [])])
                except RuntimeError:
                    raise InternalError(f"the rules of {inc.code} do not ground", " ".join(messages))
            return 1
        bounded = getattr(engine, "_bounded", None)
        if bounded:
            bounded(self.ctl, timeout, work)
        else:  # pragma: no cover
            work({})

    def _agreeing(self, assumed) -> list[clingo.Control]:
        """The groundings whose orders agree with what is assumed."""
        return [ctl for fixed, ctl in self.grounded if all(assumed.get(ui, ai) == ai for ui, ai in fixed.items())]

    def contradicts_itself(self) -> bool:
        """True when no possibility of the unknown facts gives an account free of contradiction:
        every answer set holds an `inconsistent` atom (or there is none), so every branch of the
        conditional ruling is impossible and the account is refused whatever the facts were."""
        self.solves += 1
        for _, ctl in self.grounded:
            bad = [(a.symbol, False) for a in ctl.symbolic_atoms.by_signature("inconsistent", 1)]
            ctl.configuration.solve.enum_mode = "auto"
            ctl.configuration.solve.models = "1"
            if ctl.solve(assumptions=bad).satisfiable:
                return False
        return True

    def renew(self) -> None:
        """A fresh time and solve budget (an interview's next question)."""
        self.deadline, self.budget_from = time.monotonic() + self.timeout, self.solves

    def consequences(self, assumed: dict[int, int]) -> tuple[frozenset, frozenset] | None:
        """Cautious and brave shown atoms when unknown ui has alternative assumed[ui] (None: no model).
        Over groundings apart (each agreeing with assumed): cautious the intersection of theirs,
        brave the union, of those with a model. A solve is counted once for all of them."""
        key = tuple(sorted(assumed.items()))
        if key in self._cache:
            return self._cache[key]
        if self.solves - self.budget_from >= MAX_SOLVES or time.monotonic() > self.deadline:
            raise InputError("the ruling turns on too many unknown facts together (no conditional ruling within "
                             f"{self.timeout:g} s)", self.inc.file, *_unknown_pos(self.inc),
                             hint="establish some of them, or let `adjudicator ask` ask the decisive ones first")
        assumptions = [(Function(_ALT, [Number(u), Number(a)]), True) for u, a in key]
        cautious = brave = None
        self.solves += 1                # (cautious; brave once some grounding has a model)
        for ctl in self._agreeing(assumed):
            out = []
            for mode in ("cautious", "brave"):
                ctl.configuration.solve.enum_mode = mode
                ctl.configuration.solve.models = "0"
                last = None
                with ctl.solve(assumptions=assumptions, yield_=True) as handle:
                    for model in handle:
                        last = model.symbols(shown=True)
                if last is None:
                    break
                out.append(frozenset(last))
            if len(out) < 2:
                continue
            self.solves += cautious is None
            cautious = out[0] if cautious is None else cautious & out[0]
            brave = out[1] if brave is None else brave | out[1]
        self._cache[key] = None if cautious is None else (cautious, brave)
        return self._cache[key]

    def result(self, atoms) -> dict:
        """The ruling (the --json contract of `adjudicate`) for an exact set of shown atoms."""
        sol = engine.Solution(facts=self.base, templates=self.templates, files=self.files)
        for s in atoms:
            sol.atoms[s.name].append(tuple(s.arguments))
        return ruling.build(self.inc, engine.canonical(sol))

    @staticmethod
    def can_be(p: tuple[frozenset, frozenset] | None) -> bool:
        """Whether consequences (cautious, brave) are of an account that can have happened: a model,
        and no contradiction certain in it."""
        return p is not None and not any(a.name == "inconsistent" for a in p[0])

    def split(self, assumed: dict[int, int], remaining: list[int]):
        """Each remaining unknown's consequences alternative by alternative; the relevant ones
        (those whose alternatives do not all give the same consequences), most decisive first."""
        scored = []
        for ui in remaining:
            per = [self.consequences({**assumed, ui: ai}) for ai in range(len(self.unknowns[ui].alternatives))]
            if len(set(per)) <= 1:
                continue
            settled = sum(1 for p in per if p is None or p[0] == p[1])
            open_ = sum(len(p[1] - p[0]) for p in per if p is not None)
            scored.append(((-settled, open_, ui), ui, per))
        scored.sort(key=lambda x: x[0])
        return [(ui, per) for _, ui, per in scored]


@dataclass
class Node:
    assumed: dict
    result: dict | None = None          # a settled ruling (cautious = brave)
    impossible: list | None = None      # the facts on this branch cannot all be so (at the file's lines)
    told: list | None = None            # the same, as a ruling says it (by the events, not the lines)
    unknown: int | None = None          # otherwise: the fact it turns on next
    children: list = field(default_factory=list)   # (alternative index, Node)


MAX_BRANCHES = 64


def decide(space: Space, assumed: dict | None = None, remaining: list[int] | None = None,
           budget: list | None = None) -> Node:
    """The decision tree: each node's ruling when settled, else the most decisive fact and a
    branch for each of its alternatives. Refused (exit 2) past MAX_BRANCHES branches: so many
    relevant facts together make no ruling a referee can read out."""
    budget = budget if budget is not None else [MAX_BRANCHES]
    budget[0] -= 1
    if budget[0] < 0:
        raise InputError(f"the ruling turns on too many unknown facts together (more than {MAX_BRANCHES} "
                         "branches)", space.inc.file, *_unknown_pos(space.inc),
                         hint="establish some of them, or let `adjudicator ask` ask the decisive ones first")
    assumed = dict(assumed or {})
    cons = space.consequences(assumed)
    node = Node(assumed)
    if cons is None:
        node.impossible = ["these facts together admit no account of the hand"]
        return node
    cautious, brave = cons
    if cautious == brave:
        try:
            node.result = space.result(cautious)
        except InconsistentIncident as e:
            node.impossible = e.problems
            node.told = getattr(e, "told", None) or e.problems
        return node
    if remaining is None:
        remaining = [i for i in range(len(space.unknowns)) if i not in assumed]
        if len(remaining) > MAX_WEIGHED:          # the most decisive at the root, then the first written
            first = [ui for ui, _ in space.split(assumed, remaining)]
            remaining = sorted((first + [u for u in remaining if u not in first])[:MAX_WEIGHED])
            space.not_weighed = [u for u in range(len(space.unknowns)) if u not in remaining and u not in assumed]
    relevant = space.split(assumed, remaining)
    # When no single fact decides anything by itself, the facts decide together: take the first;
    # every weighed fact fixed, the first not weighed.
    ui = relevant[0][0] if relevant else remaining[0] if remaining else \
        next((u for u in space.not_weighed if u not in assumed), None)
    if ui is None:     # pragma: no cover - every unknown fixed and still open: a fault in the rules
        raise InternalError("the rules give more than one answer for this incident")
    node.unknown = ui
    rest = [r for r in remaining if r != ui]
    for ai in range(len(space.unknowns[ui].alternatives)):
        node.children.append((ai, decide(space, {**assumed, ui: ai}, rest, budget)))
    return node


# --------------------------------------------------------------------------------------------
# The conditional ruling
# --------------------------------------------------------------------------------------------
def _key(r: dict) -> str:
    return json.dumps(r, sort_keys=True, ensure_ascii=False)


def _leaves(node: Node, path=()):
    if node.unknown is None:
        yield path, node
        return
    for ai, child in node.children:
        yield from _leaves(child, path + ((node.unknown, ai),))


def _common(nodes: list[Node], what: str) -> list[dict]:
    results = [n.result for n in nodes if n.result is not None]
    if not results:
        return []
    keys = set.intersection(*({_key(r) for r in res[what]} for res in results))
    return [r for r in results[0][what] if _key(r) in keys]


def _laws_turning(node: Node) -> list[str]:
    """The laws of the rulings that differ between the branches of a node."""
    results = [n.result for _, n in _leaves(node) if n.result is not None]
    if not results:
        return []
    all_keys = [{_key(r) for r in res["rulings"]} for res in results]
    common = set.intersection(*all_keys)
    laws = set()
    for res in results:
        for r in res["rulings"]:
            if _key(r) not in common:
                laws.update(r["laws"])
    return sorted(laws, key=ruling.law_key)


def conditional(inc: Incident, space: Space | None = None) -> dict:
    """The ruling on an incident with unknown facts: what holds whatever they were, and under
    which facts each further ruling holds (the --json contract of a conditional ruling)."""
    space = space or Space(inc)
    tree = decide(space)
    leaves = list(_leaves(tree))
    possible = [n for _, n in leaves if n.result is not None]
    if not possible:       # whatever the facts were, the account cannot be: as adjudicate refuses it
        raise InconsistentIncident(inc.file, sorted({p for _, n in leaves for p in n.impossible or []}))
    info = registry.code_info(inc.code)
    out = {"game": inc.game, "code": inc.code, "code_title": info["title"],
           "code_given": getattr(inc, "code_given", True), "file": inc.file,
           "unknowns": [{"id": u.id, "question": u.question, "about": u.about, "kind": u.kind,
                         "alternatives": [a.label for a in u.alternatives],
                         "relevant": False} for u in space.unknowns],
           "rulings": _common(possible, "rulings"), "findings": _common(possible, "findings"),
           "conditional": []}
    for path, n in leaves:
        for ui, _ in path:
            out["unknowns"][ui]["relevant"] = True
        entry = {"if": [{"unknown": space.unknowns[ui].id, "fact": space.unknowns[ui].alternatives[ai].label}
                        for ui, ai in path]}
        if n.result is None:
            entry["impossible"] = n.told or n.impossible
        else:
            common = {_key(r) for r in out["rulings"]}
            entry["rulings"] = n.result["rulings"]
            entry["extra"] = [i for i, r in enumerate(n.result["rulings"]) if _key(r) not in common]
            entry["findings"] = n.result["findings"]
        out["conditional"].append(entry)
    out["depends_on"] = _tree_json(space, tree)
    out["settled"] = tree.unknown is None
    if space.not_weighed:
        for ui in space.not_weighed:
            out["unknowns"][ui]["not_weighed"] = True
        out["not_weighed"] = [space.unknowns[ui].id for ui in space.not_weighed]
    # The facts not known may decide only whether the account can be at all: every branch that can
    # be gives the same ruling, the others cannot have been so. The ruling still turns on them in
    # the sense above (a completion refused against one ruled), but a referee has one ruling to
    # give, and is told so, not that it depends on them.
    same = {_key({"rulings": n.result["rulings"], "findings": n.result["findings"]}) for n in possible}
    out["only_whether_possible"] = not out["settled"] and len(same) == 1
    said = summary(out, inc.players)          # (the verdict first, after what names the ruling)
    head = {k: out.pop(k) for k in ("game", "code", "code_title", "code_given", "file")}
    return {**head, "summary": said, **out}


def _tree_json(space: Space, node: Node):
    if node.unknown is None:
        return None
    u = space.unknowns[node.unknown]
    return {"unknown": u.id, "question": u.question, "laws": _laws_turning(node),
            "branches": [{"fact": u.alternatives[ai].label, "depends_on": _tree_json(space, child)}
                         for ai, child in node.children]}


def _body(result: dict, players: dict[str, str]) -> str:
    """render.ruling_text's rulings and findings, without its verdict and heading."""
    from adjudicator.core import render
    return render.ruling_text({**result, "code_title": "-", "file": "-"}, players, verdict=False).split("\n", 2)[2]


def summary(result: dict, players: dict[str, str]) -> list[str]:
    """The verdict of a conditional ruling: what the ruling turns on, what each answer gives, and
    what holds whatever the facts were (render.summary says each); last, where the search stopped
    weighing at MAX_WEIGHED facts, the ones it did not weigh."""
    said = _summary(result, players)
    return said + [bound_sentence(result)] if result.get("not_weighed") else said


def _summary(result: dict, players: dict[str, str]) -> list[str]:
    from adjudicator.core import render
    relevant = [u for u in result["unknowns"] if u["relevant"]]
    common = render.summary(result, players) if result["rulings"] else []
    if result["settled"]:
        return ["The facts not known do not change the ruling."] + common[:2]
    if result.get("only_whether_possible"):
        return ["The facts not known decide only whether the account can have happened, and wherever it can, "
                "the ruling is the same: " + " ".join(u["question"] for u in relevant)] + common[:2]
    n = len(relevant)
    out = [f"The ruling turns on {'a fact' if n == 1 else f'{n} facts'} not known: "
           + " ".join(u["question"] for u in relevant)]
    branches = []
    names = tuple(players.values())
    for entry in result["conditional"]:
        cond = " and ".join(c["fact"] for c in entry["if"])
        if "impossible" in entry:
            branches.append(f"If {cond}, that cannot have been so.")
            continue
        extra = [entry["rulings"][i] for i in entry["extra"]]
        if not extra:
            branches.append(f"If {cond}, nothing more than what holds whatever the facts.")
            continue
        said = render.summary({**result, "rulings": extra, "findings": entry["findings"], "summary": None}, players)
        said = [x.rstrip(".") for x in said]
        said = [x if k == 0 else render.mid_sentence(x, names) for k, x in enumerate(said)]
        branches.append(f"If {cond}: " + "; ".join(said) + ".")
    out += branches[:4]
    if len(branches) > 4:
        out.append(f"And {len(branches) - 4} more cases (below).")
    if common:
        out.append("Whatever the facts were: " + " ".join(common))
    return out


def bound_sentence(result: dict) -> str:
    """What a conditional ruling says when its search stopped weighing at MAX_WEIGHED facts."""
    left = [u for u in result["unknowns"] if u.get("not_weighed")]
    n = len(left)
    return (f"The search weighed {MAX_WEIGHED} of the {len(result['unknowns'])} facts not known (those that "
            f"decide most) and stopped there: {'the other was' if n == 1 else f'the other {n} were'} taken as "
            "written, without weighing which decides first, so the ruling is whole but may ask about "
            f"{'it' if n == 1 else 'them'} in a longer order than needed: " + " ".join(u["question"] for u in left))


def text(result: dict, players: dict[str, str], verdict: bool = True) -> str:
    """The conditional ruling as a referee would read it out: the verdict (unless the caller said
    it), then for the referee what it turns on and each possibility."""
    from adjudicator.core import render
    lines = []
    if verdict:
        lines += render.verdict_text(result, players).rstrip("\n").split("\n")
        lines.append("")
    head = render.ruling_text({**result, "rulings": [], "findings": []}, players, verdict=False).rstrip("\n")
    lines.append(head)
    lines.append("")
    unknown_rel = [u for u in result["unknowns"] if u["relevant"]]
    if not result["settled"] and not result.get("only_whether_possible"):
        laws = render.laws_turned_on(result["depends_on"])
        if laws:
            tag = render.laws_tag(laws)
            lines += render._wrap(f"{tag[0].upper()}{tag[1:]} turn{'s' if len(laws) == 1 else ''} on "
                                  f"{'it' if len(unknown_rel) == 1 else 'them'}.", "", "  ")
    idle = [u for u in result["unknowns"] if not u["relevant"]]
    if idle and not result["settled"]:
        lines += render._wrap("Whatever the answer, these do not change it: "
                              + "; ".join(u["question"] for u in idle), "", "  ")
    if lines[-1] != "":
        lines.append("")
    only = result.get("only_whether_possible")
    if result["rulings"]:
        lines.append("The ruling:" if result["settled"] or only else "Whatever the facts were:")
        body = _body(result, players)
        lines += ["  " + x if x else x for x in body.rstrip("\n").split("\n")]
        lines.append("")
    if not result["settled"]:
        for entry in result["conditional"]:
            cond = " and ".join(c["fact"] for c in entry["if"])
            if "impossible" in entry:
                lines += render._wrap(f"If {cond}: that cannot have been so ({'; '.join(entry['impossible'])}).",
                                      "", "  ")
                lines.append("")
                continue
            if only:        # (each branch that can be gives the ruling above, and no more)
                continue
            extra = [entry["rulings"][i] for i in entry["extra"]]
            lines += render._wrap(f"If {cond}:", "", "  ")
            if not extra:
                lines += render._wrap("nothing more than the rulings above.", "  ", "  ")
            else:
                body = _body({**result, "rulings": extra, "findings": entry["findings"]}, players)
                lines += ["  " + x if x else x for x in body.rstrip("\n").split("\n")]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------------------------
# Case files with unknown facts
# --------------------------------------------------------------------------------------------
# --------------------------------------------------------------------------------------------
# Completing an incident: the file with some unknown facts answered
# --------------------------------------------------------------------------------------------
def complete(data: dict, unknowns: list[Unknown], answers: dict[int, int]) -> dict:
    """The incident (as plain YAML data) with unknown ui replaced by its alternative answers[ui];
    the unknowns not answered stay under `unknown` (no answer renumbers an event)."""
    import copy
    out = copy.deepcopy(data)
    events = out["events"]
    for ui, ai in answers.items():
        u, alt = unknowns[ui], unknowns[ui].alternatives[answers[ui]]
        if u.kind == "field":
            (name, body), = events[u.events[0] - 1].items()
            body = dict(body or {})
            if alt.value is None:
                body.pop(u.field, None)
            else:
                body[u.field] = alt.value
            events[u.events[0] - 1] = {name: body}
        elif u.kind == "order":
            a, b = u.events
            if alt.value == [b, a]:
                events[a - 1], events[b - 1] = events[b - 1], events[a - 1]
    kept = []
    for ui, u in enumerate(unknowns):
        if ui in answers:
            continue
        kept.append(dict(u.spec))
    if kept:
        out["unknown"] = kept
    else:
        out.pop("unknown", None)
    return out
