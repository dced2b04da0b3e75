"""Solve an incident: the code's rules, the incident's facts, one grounding, one answer set.

A fresh clingo.Control per incident. Two things keep it fast:
- each rule file is parsed once per process and kept as clingo AST statements; the sentence
  templates (text/2 facts) are taken out then, since only Python reads them;
- each file declares on its first line when it can matter (`%! load-when: <events or keys>` or
  `always`), and only the files whose triggers the incident contains are grounded. Grounding costs
  about 10 microseconds per body literal of every rule, used or not, so a deal dispute need not pay
  for the revoke laws. tests/test_engine.py checks that this selection never changes a ruling;
- within those files, only the rules that can fire for the incident's facts are grounded
  (adjudicator/core/relevance.py): about a third of them for a typical incident. The same test compares
  every case with the whole program (`full`), which leaves nothing out. The selection reads the
  rules as clingo parses them, which costs 0.3-0.5 s a code; what it reads is kept between
  commands (adjudicator/core/rulecache.py), so a one-shot command selects too, and gives clingo the
  text of the selected rules alone.

The law programs are stratified by time, so there is exactly one answer set; a second would be a
fault in the rules and is reported as such (exit 1), as is running past the time limit.
"""
from __future__ import annotations

import atexit
import functools
import os
import re
import threading
from collections import defaultdict

import clingo

from adjudicator.core import facts as factmod
from adjudicator.core import allocator, registry, rulefiles
from adjudicator.core.limits import seconds_setting
from adjudicator.errors import InternalError, TimeLimit, UnknownCode, UsageError
from adjudicator.core.incident import Incident

# Seconds for grounding and solving together. The worst incident the input limits admit takes a
# few seconds (tests/test_hostile.py measures it); ADJUDICATOR_TIME_LIMIT changes the limit.
TIME_LIMIT_VARIABLE = "ADJUDICATOR_TIME_LIMIT"


DEFAULT_TIMEOUT = seconds_setting(os.environ.get(TIME_LIMIT_VARIABLE, "10"))


def time_limit_error() -> UsageError:
    """What a ruling says when ADJUDICATOR_TIME_LIMIT is not a time limit (DEFAULT_TIMEOUT None)."""
    from adjudicator.core.values import shown
    return UsageError(f"{TIME_LIMIT_VARIABLE} is '{shown(os.environ.get(TIME_LIMIT_VARIABLE, ''))}', "
                      "which is not a time limit",
                      hint="set it to a number of seconds above 0 and at most 86400 (e.g. 10), or unset it")

_WHEN = re.compile(r"^%!\s*load-when:\s*(.*)$")
# A sentence template is a fact on one line: text(name, "...").
_TEXT = re.compile(r'^text\(([a-z][A-Za-z0-9_]*),\s*"((?:[^"\\]+|\\.)*)"\)\.\s*(?:%.*)?$', re.M)


class Part:
    """One rule file: when it is loaded; its text, statements and templates, read on first use.

    What the rule selection needs of it (which parsed statements are rules, their texts and their
    summaries) may instead come from the cache (adjudicator/core/rulecache.py): `kept`."""

    def __init__(self, path: str, triggers: frozenset[str] | None):
        self.path, self.triggers = path, triggers
        self.kept: bytes | None = None

    @functools.cached_property
    def text(self) -> str:
        return rulefiles.text(self.path)

    @functools.cached_property
    def templates(self) -> dict[str, str]:
        return _templates(self.text)

    @property
    def parsed(self) -> bool:
        return "statements" in self.__dict__

    def release(self) -> None:
        for name in ("statements", "rules", "texts", "positions", "_parse", "_entry"):
            self.__dict__.pop(name, None)

    @functools.cached_property
    def _parse(self) -> list:
        from clingo import ast
        stms: list = []
        messages: list[str] = []
        try:
            ast.parse_string(self.text, stms.append, logger=lambda c, msg: messages.append(msg))
        except RuntimeError:
            raise InternalError(f"the rule file {os.path.basename(self.path)} does not parse",
                                " ".join(messages))
        return stms

    @functools.cached_property
    def _entry(self) -> tuple | None:
        """This file's entry in the cache, when there is one and it can be read."""
        from adjudicator.core import rulecache
        return None if self.kept is None else rulecache.entry(self.kept)

    @functools.cached_property
    def positions(self) -> tuple[int, ...]:
        """Which of the statements clingo parses from the file are its rules: not the comments, nor
        the `#program base.` clingo puts at its head, nor the text facts (the templates)."""
        if self._entry is not None:
            return self._entry[0]
        from clingo import ast
        drop = (ast.ASTType.Program, ast.ASTType.Comment)
        return tuple(i for i, st in enumerate(self._parse) if st.ast_type not in drop and not _is_text_fact(st))

    @functools.cached_property
    def statements(self) -> list:
        """Its rules as clingo AST."""
        stms = self._parse
        out = [stms[i] for i in self.positions if i < len(stms)]
        self.__dict__.pop("_parse", None)
        return out

    @functools.cached_property
    def texts(self) -> list[str]:
        """Its rules as clingo prints them (the same rules when parsed again: tests/test_rulecache.py)."""
        if self._entry is not None:
            return self._entry[1]
        return [str(st) for st in self.statements]

    @functools.cached_property
    def rules(self) -> list:
        """Its rules as the rule selection reads them (adjudicator/core/relevance.py), in order: worked
        out once a process for a file that several codes read (the whist family's), as its text is."""
        from adjudicator.core import relevance
        got = _SUMMARIES.get(self.path)
        if got is None:
            got = _SUMMARIES[self.path] = [relevance.summarize(st) for st in self.statements]
        return got


# A rule file's summaries (Part.rules) by its path, for every code reading it (they do not change
# them: relevance.Selector reads them); emptied with the parsed statements (_release).
_SUMMARIES: dict[str, list] = {}


class Program:
    """A code's rule files, in order."""

    def __init__(self, code: str, parts: list[Part]):
        self.code, self.parts = code, parts
        self._selectors: dict = {}

    @functools.cached_property
    def templates(self) -> dict[str, str]:
        """The sentence templates of every file of the code, later files overriding earlier ones
        (a code's own sentence over a shared file's), whichever files an incident loads: as the
        cache keeps them for these rules (adjudicator/core/rulecache.py), or picked out of the texts."""
        if self._kept_templates is not None:
            from adjudicator.core import rulecache
            kept = rulecache.templates(self._kept_templates)
            if kept is not None:
                return kept
        return self._templates_read()

    def _templates_read(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for p in self.parts:
            out.update(p.templates)
        return out

    @functools.cached_property
    def cached(self) -> bool:
        """Whether every part's rules, their texts and summaries, and the code's rule selector, are
        at hand without parsing: read from the cache (adjudicator/core/rulecache.py), or, when none was
        kept for these rules and one can be, worked out now (parsing every file once) and kept for
        the next process."""
        from adjudicator.core import relevance, rulecache
        kept = rulecache.load(self.code, self.parts)
        if kept is not None:
            entries, self._kept_selector, self._kept_templates = kept
            for part, entry in zip(self.parts, entries):
                part.kept = entry
            return True
        if not rulecache.writable():
            return False
        try:
            entries = [(p.positions, p.texts) for p in self.parts]
            selector = self.code_selector
        except relevance.Unsupported:
            return False
        if selector is None:
            return False
        rulecache.save(self.code, self.parts, entries, (self.counts, selector.state()), self._templates_read())
        return True

    _kept_selector: bytes | None = None
    _kept_templates: bytes | None = None

    @functools.cached_property
    def _from_cache(self) -> tuple | None:
        from adjudicator.core import rulecache
        return None if self._kept_selector is None else rulecache.selector(self._kept_selector)

    @functools.cached_property
    def counts(self) -> list[int]:
        """How many statements of each part's are rules, in order (the code's rules are numbered
        one file after the other)."""
        if self._from_cache is not None:
            return list(self._from_cache[0])
        return [len(p.rules) for p in self.parts]

    @functools.cached_property
    def code_selector(self):
        """The rule selection (adjudicator/core/relevance.py) over every rule of the code: kept in the
        cache, or made from the parts' rules (parsing the files not yet read); None when the rules
        hold a statement it does not cover."""
        from adjudicator.core import relevance
        if self._from_cache is not None:
            return relevance.Selector.restored(self._from_cache[1])
        try:
            return relevance.Selector([r for p in self.parts for r in p.rules])
        except relevance.Unsupported:
            return None

    def selector(self, parts: tuple[Part, ...]):
        """The code's rule selection seen from these parts (relevance.View: their statements
        numbered from 0 in order), made once for each set of files; None when the rules hold a
        statement it does not cover."""
        if parts not in self._selectors:
            code = self.code_selector
            if code is None:
                self._selectors[parts] = None
            else:
                starts, at = {}, 0
                for p, n in zip(self.parts, self.counts):
                    starts[p.path] = (at, at + n)
                    at += n
                self._selectors[parts] = code.view([starts[p.path] for p in parts])
        return self._selectors[parts]


def _templates(text: str) -> dict[str, str]:
    """The file's sentence templates. Every call reads them (a one-shot call too), so only the lines
    that begin `text(` are matched, a run of plain characters at a time: the English code's files
    take 0.5 ms, where matching from every position a character at a time took 2.0."""
    out: dict[str, str] = {}
    at = 0 if text.startswith("text(") else text.find("\ntext(")
    while at != -1:
        m = _TEXT.match(text, at + (text[at] == "\n"))
        if m:
            out[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        at = text.find("\ntext(", at + 1)
    return out


class Solution:
    """The shown atoms of the answer set, by predicate name, with what produced them."""

    def __init__(self, facts=None, templates=None, files=None):
        self.atoms: dict[str, list[tuple]] = defaultdict(list)
        self.facts: list[clingo.Symbol] = facts or []
        self.templates: dict[str, str] = templates or {}
        self.files: list[str] = files or []

    def get(self, name: str) -> list[tuple]:
        return self.atoms.get(name, [])


def entry_file(code: str) -> str:
    info = registry.code_info(code)
    if not info.get("rules"):
        raise UnknownCode(f"the laws of {code} are in the law texts (`adjudicator law {code} ...`) "
                          "but are not encoded for adjudication",
                          hint="codes that can rule on an incident: "
                          + ", ".join(c["code"] for c in registry.all_codes() if c.get("rules")))
    return os.path.join(registry.rules_dir(), info["rules"])


def _is_text_fact(stm) -> tuple[str, str] | None:
    from clingo import ast
    if stm.ast_type != ast.ASTType.Rule or stm.body or stm.head.ast_type != ast.ASTType.Literal:
        return None
    atom = stm.head.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return None
    term = atom.symbol
    if term.ast_type != ast.ASTType.Function or term.name != "text" or len(term.arguments) != 2:
        return None
    name, tmpl = term.arguments
    if tmpl.ast_type != ast.ASTType.SymbolicTerm or tmpl.symbol.type != clingo.SymbolType.String:
        return None
    if name.ast_type == ast.ASTType.SymbolicTerm and name.symbol.type == clingo.SymbolType.Function:
        return name.symbol.name, tmpl.symbol.string
    if name.ast_type == ast.ASTType.Function and not name.arguments:
        return name.name, tmpl.symbol.string
    return None


@functools.cache
def program(code: str) -> Program:
    """The code's rule files in order, with their load-when lines; the rest is read on first use."""
    parts = []
    entry = entry_file(code)
    for path in rulefiles.files(entry):
        first = rulefiles.text(path).split("\n", 1)[0]
        m = _WHEN.match(first)
        if not m:
            raise InternalError(f"{path} does not say when it is loaded (first line: %! load-when: ...)")
        words = m.group(1).split()
        parts.append(Part(path, None if words == ["always"] else frozenset(words)))
    prog = Program(code, parts)
    _PROGRAMS[code] = prog
    return prog


_SEEN: dict[str, bool] = {}

# In a process that ends with os._exit (allocator.leaves_with_exit, set by cli.entry) the last
# Control is kept rather than freed: freeing it costs ~5 ms, a twentieth of a one-shot call, and
# buys nothing when the process ends at once. Only the latest is kept; an earlier one is freed
# when the next replaces it.
_last: list = []


def _release() -> None:
    """Drop the parsed statements before the interpreter tears clingo down (its AST objects free
    themselves through clingo's library, which may be gone by then)."""
    for code in list(_PROGRAMS):
        for part in _PROGRAMS[code].parts:
            part.release()
    _PROGRAMS.clear()
    _SUMMARIES.clear()
    program.cache_clear()


atexit.register(_release)
_PROGRAMS: dict[str, "Program"] = {}


def signals(inc: Incident) -> set[str]:
    """What an incident contains, in the words the load-when lines use: event names, top-level
    keys, and `demand:<remedy>` for each remedy demanded."""
    out = {ev.name for ev in inc.events}
    out |= {f"demand:{ev.fields['remedy']}" for ev in inc.events if ev.name == "demand"}
    out |= {k.replace("_", "-") for k in inc.top}
    return out


def _one_arena() -> None:
    """Have every thread allocate from the process's main memory arena (glibc's M_ARENA_MAX = 1).

    A ruling grounds in a thread of its own (_bounded), and glibc gives such a thread an arena of
    its own: grounding there took 40-50% longer than the same grounding in the main thread
    (median of 40 cases, 3 runs each, interleaved: 17.7 against 12.3 ms); with one arena, 5-10%
    longer (benchmarks/README.md). Rulings rarely run at once, so sharing one arena costs nothing that
    was measured. Set when this module is imported, before the threads of a web server or a
    pool ground anything. Elsewhere than glibc (macOS, musl) nothing is done (allocator.one_arena)."""
    allocator.one_arena()


_one_arena()       # before any thread that grounds is started


# Whether clingo allocates with jemalloc (`adjudicator serve` where the machine has it) or mimalloc
# (any process that imported this package before clingo, where the machine has it):
# adjudicator/core/allocator.py. The threads that ground are then kept, and free their Controls: with
# mimalloc 7.7-8.0 against 8.3-8.6 ms a warm ruling (a plain loop over the bundled cases, three
# runs each, in turn).
_KEPT_THREADS = allocator.clingo_allocator != "system"


class _Worker:
    """A thread that grounds and solves one ruling at a time, kept between rulings while clingo
    allocates with jemalloc or mimalloc (adjudicator/core/allocator.py): there a kept thread's warm caches
    made a ruling 0.6 ms quicker than a thread started for each (8.5 against 9.1 ms, the bundled
    cases), where with glibc's malloc it was 4 ms slower (19.7-20.2 against 15.6-15.7 ms) and each
    ruling has a thread of its own, ended when it is done."""

    idle: list["_Worker"] = []
    lock = threading.Lock()

    def __init__(self):
        import queue
        self.jobs: "queue.SimpleQueue" = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="adjudicator-solve", daemon=True).start()

    def _serve(self) -> None:
        while True:
            self.jobs.get()()
            with self.lock:
                self.idle.append(self)

    @classmethod
    def forget_after_fork(cls) -> None:
        """In a process forked from this one (`--jobs`' workers) the kept threads are not there: a
        fork copies only the thread that forks. A ruling given to one would wait for the time
        limit and fail ("no ruling within the time limit"). The child starts with none kept."""
        cls.idle = []
        cls.lock = threading.Lock()

    @classmethod
    def start(cls, job) -> None:
        if not _KEPT_THREADS:
            threading.Thread(target=job, name="adjudicator-solve", daemon=True).start()
            return
        with cls.lock:
            worker = cls.idle.pop() if cls.idle else None
        (worker or cls()).jobs.put(job)


os.register_at_fork(after_in_child=_Worker.forget_after_fork)


def _bounded(ctl: clingo.Control | None, seconds: float, work):
    """Run work(state) (grounding, then solving) in a thread of its own (_Worker) and wait at most
    `seconds`; its value, or what it raised.

    clingo.Control.interrupt() stops a solve but not a grounding, which no signal or timer can
    stop inside one process. So the caller does not wait on it: at the limit the solve (if any)
    is interrupted and TimeLimit raised at once; a grounding still running finishes in its
    thread, unwatched, and the command ends the process (cli.entry leaves with os._exit).

    The Control is `ctl`, or one work() makes in its thread and puts in state["ctl"]. With jemalloc
    or mimalloc such a Control is dropped in that thread once the caller has the answer, so that freeing it
    (0.4 ms) is done beside what the caller does next (building the ruling): 8.1-8.2 against 8.5 ms
    a ruling. With glibc's malloc, whose one arena (_one_arena) the two threads would then contend
    for, that was slower (16.8-17.2 against 15.2-15.6 ms): there the caller makes the Control and
    frees it, as before (ground_and_solve)."""
    state = {"phase": "grounding", "abandoned": False}
    box: dict = {}
    done = threading.Event()

    def job():
        try:
            box["value"] = work(state)
        except BaseException as e:  # noqa: BLE001 - handed back to the caller's thread
            box["error"] = e
        done.set()
        if _KEPT_THREADS:
            state.pop("ctl", None)      # (freed here, unless the caller keeps it)

    _Worker.start(job)
    if not done.wait(seconds):
        state["abandoned"] = True       # a grounding that ends after this does not go on to solve
        made = state.get("ctl", ctl)
        if made is not None:
            made.interrupt()
        raise TimeLimit(seconds, state["phase"])
    if "error" in box:
        raise box["error"]
    return box["value"]


def fill(ctl: clingo.Control, statements: list, symbols: list[clingo.Symbol]) -> clingo.Control:
    """Give a Control, not yet grounded, parsed statements (clingo AST) and facts (symbols, through
    the backend: no text is ever made of them)."""
    if statements:             # (clingo.ast is imported only when there are some: a one-shot call has none)
        from clingo import ast
        with ast.ProgramBuilder(ctl) as builder:
            for stm in statements:
                builder.add(stm)
    with ctl.backend() as backend:
        for sym in symbols:
            backend.add_rule([backend.add_atom(sym)])
    return ctl


def solve(inc: Incident, timeout: float = DEFAULT_TIMEOUT, full: bool = False) -> Solution:
    """Ground and solve; `full` loads every rule file of the code, whatever the incident holds."""
    if not registry.encoded(inc.code):      # named in the incident: the error names its file and line
        line = getattr(inc, "key_lines", {}).get("code") or getattr(inc, "key_lines", {}).get("game")
        raise UnknownCode(f"the laws of {inc.code} are in the law texts (`adjudicator law {inc.code} ...`) "
                          "but are not encoded for adjudication", inc.file, line,
                          hint="codes that can rule on an incident: "
                          + ", ".join(c["code"] for c in registry.all_codes() if c.get("rules")))
    if timeout is None:
        raise time_limit_error()
    prog = program(inc.code)
    symbols = factmod.build(inc)
    parts = loaded_parts(prog, inc, full)
    messages: list[str] = []
    # Only the rules that can fire for these facts are grounded (adjudicator/core/relevance.py); `full`
    # grounds them all, as a check that this changes nothing. The first time a file is needed in
    # this process, clingo is given text (cheapest for a one-shot command): the selected rules'
    # texts when the cache (adjudicator/core/rulecache.py) holds the code's rules, else the whole file.
    # From the second time on, its parsed statements are reused (cheapest for many rulings in one
    # process). Every way gives the same answer set.
    fresh = [p for p in parts if not p.parsed and not _SEEN.get(p.path)]
    for part in parts:
        _SEEN[part.path] = True
    if fresh and not full and prog.cached:
        fresh = [p for p in fresh if not p.parsed]      # (making the cache parsed every file)
    texts: list[str] = []
    statements: list = []
    if fresh and not full and prog.cached:
        every = [t for p in parts for t in p.texts]
        selector = prog.selector(tuple(parts))
        if selector is not None:
            keep = selector.select(symbols)
            every = [t for i, t in enumerate(every) if i in keep]
        texts.append("\n".join(every))
    else:
        texts += [p.text for p in fresh]
        statements = [stm for p in parts if p not in fresh for stm in p.statements]
        selector = None if fresh or full else prog.selector(tuple(parts))
        if selector is not None:
            keep = selector.select(symbols)
            statements = [stm for i, stm in enumerate(statements) if i in keep]

    def make() -> clingo.Control:
        ctl = clingo.Control(["--warn=none", "--single-shot"], logger=lambda code, msg: messages.append(msg),
                             message_limit=5)
        try:
            for text in texts:
                ctl.add("base", [], text)
        except RuntimeError:
            raise InternalError(f"the rules of {inc.code} do not parse", " ".join(messages))
        return fill(ctl, statements, symbols)

    sol = Solution(facts=symbols, templates=prog.templates, files=[p.path for p in parts])
    try:
        models = ground_and_solve(make, inc.code, messages, timeout,
                                  lambda sym: sol.atoms[sym.name].append(tuple(sym.arguments)), "this incident")
        if models == 0:
            raise InternalError("the rules give no answer for this incident")
    except InternalError as e:          # (the time limit too): said with the file, when many are ruled
        e.file = inc.file
        raise
    return canonical(sol)


def ground_and_solve(make, code: str, messages: list[str], timeout: float, take, what: str) -> int:
    """Make the Control (make(): with jemalloc or mimalloc it is made, filled, grounded, solved and
    freed in the thread _bounded runs it in), ground and solve it within the time limit, giving take() each shown atom
    of the answer set; the number of answer sets (0 or 1: a second is an InternalError)."""
    # (with glibc's malloc, made and freed in the caller's thread, as before: _bounded)
    made = None if _KEPT_THREADS else make()

    def work(state: dict) -> int:
        ctl = state["ctl"] = make() if made is None else made
        if allocator.leaves_with_exit:
            _last[:] = [ctl]
        try:
            ctl.ground([("base", [])])
        except RuntimeError:
            raise InternalError(f"the rules of {code} do not ground", " ".join(messages))
        if state["abandoned"]:
            return 0
        state["phase"] = "solving"
        models = 0
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                models += 1
                if models > 1:
                    raise InternalError(f"the rules give more than one answer for {what}")
                for sym in model.symbols(shown=True):
                    take(sym)
            if handle.get().interrupted:
                raise TimeLimit(timeout, "solving")
        return models

    return _bounded(None, timeout, work)


def loaded_parts(prog: Program, inc: Incident, full: bool = False) -> list[Part]:
    """The rule files an incident loads: those its contents trigger (`%! load-when:`); `full`, all."""
    sig = signals(inc)
    return [p for p in prog.parts if full or p.triggers is None or p.triggers & sig]


def canonical(sol: Solution) -> Solution:
    """The shown atoms of each predicate in one order (clingo's own order depends on how the
    program was grounded: alone, or in a batch, adjudicator/core/batch.py)."""
    for rows in sol.atoms.values():
        rows.sort()
    return sol
