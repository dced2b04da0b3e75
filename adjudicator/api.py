"""The public API: the one way in to the engine, for the command, the web page and your own program.

    >>> import adjudicator
    >>> ruling = adjudicator.adjudicate(INCIDENT)          # YAML text, a path, or a dict
    >>> ruling.code
    'american-1893'
    >>> [r.remedy for r in ruling.rulings]
    ['call-suit', 'call-suit', 'take-back-cards']

Every function here is what a command calls: `adjudicate` is `adjudicator adjudicate` (its
`Ruling.as_dict()` is exactly what `--json` prints, `Ruling.text()` what the command prints),
`compare` is `adjudicator compare`, `law`, `search`, `topic`, `codes`, `remedies` and `event` the
lookups, `check` runs case files. Bad input raises the same errors the command shows
(adjudicator.errors: `InputError` with the file, line, column and hint; `InconsistentIncident` for an
account that cannot have happened), never a bare traceback. docs/api.md has a worked example.

The modules under adjudicator.core, adjudicator.lookup, adjudicator.study and adjudicator.interview
are the engine's parts: what they offer may change between versions; what this module offers is kept.
clingo and PyYAML are imported when a function first needs them, so `import adjudicator` is cheap.
"""
from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from adjudicator.core.limits import MAX_BYTES
from adjudicator.errors import AdjudicatorError, InputError, safe

if TYPE_CHECKING:
    from adjudicator.core.incident import Incident

__all__ = ["Ruling", "Remedy", "Finding", "Refused", "Comparison", "CaseResult", "Lookup", "Source",
           "adjudicate", "adjudicate_files", "compare", "check", "find_cases", "law", "search", "topic", "topics",
           "codes", "games", "laws", "law_ids", "topic_names", "remedies", "event", "events", "format_reference",
           "read_stdin", "check_settings", "time_limit", "AsGiven", "MAX_BYTES"]

Source = Union[str, bytes, "os.PathLike[str]", Mapping[str, Any]]
"""An incident: YAML text (str or bytes), a path (os.PathLike, or a str of one line naming a file),
or a mapping in the incident format (docs/incident-format.md)."""

STDIN = "-"           # a path that names standard input, as the command takes it
TEXT_NAME = "<incident>"   # what an error names for an incident given as text or a mapping


# --------------------------------------------------------------------------------------------------
# A ruling
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Refused:
    """One person who may not exact a remedy, the laws that say so and why."""

    seat: str
    laws: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Remedy:
    """One remedy (or consequence, or "no penalty") of a ruling, as `--json` gives it in `rulings`.

    `remedy` is its id (`adjudicator remedies` lists them), `text` its sentence, `laws` the laws
    cited, `status` where it stands (available, later, exacted, done, applies, none ...), `may_exact`
    the seats that may exact it, `may_not_exact` those who may not, with the law and the reason.
    `data` is the whole entry, with every key of the JSON contract."""

    remedy: str
    text: str
    laws: tuple[str, ...]
    status: str | None
    may_exact: tuple[str, ...]
    may_not_exact: tuple[Refused, ...]
    against: tuple[str, ...]
    in_favour_of: tuple[str, ...]
    choice: str | None
    data: Mapping[str, Any]

    @classmethod
    def _of(cls, r: Mapping[str, Any]) -> Remedy:
        return cls(r["remedy"], r.get("text", ""), tuple(r.get("laws") or ()), r.get("status"),
                   tuple(r.get("may_exact") or ()),
                   tuple(Refused(m["seat"], tuple(m.get("laws") or ()), m.get("reason", ""))
                         for m in r.get("may_not_exact") or ()),
                   tuple(r.get("against") or ()), tuple(r.get("in_favour_of") or ()), r.get("choice"), r)


@dataclass(frozen=True)
class Finding:
    """A fact the ruling rests on (`findings` in `--json`): its id, its sentence and its laws."""

    finding: str
    text: str
    laws: tuple[str, ...]


class Ruling:
    """The ruling on one incident: what `adjudicator adjudicate` prints, as data.

    A conditional ruling (an account with facts `unknown`) is a Ruling too: `conditional` is then
    True, and `unknowns` lists the facts not known and whether the ruling turns on them.
    """

    def __init__(self, data: dict[str, Any], players: Mapping[str, str], *, facts_shown: bool = False):
        self._data = data
        self._players = dict(players)
        self._facts_shown = facts_shown

    # -- what a program reads --------------------------------------------------------------------
    @property
    def game(self) -> str:
        return self._data["game"]

    @property
    def code(self) -> str:
        """The code of laws that ruled (the incident's `code`, else its game's default)."""
        return self._data["code"]

    @property
    def code_title(self) -> str:
        return self._data["code_title"]

    @property
    def file(self) -> str:
        """The incident's file as errors and the heading name it (`<incident>` for text)."""
        return self._data["file"]

    @property
    def story(self) -> str | None:
        """What happened, told in words (None when not asked for, or nothing to tell)."""
        return self._data.get("story")

    @property
    def summary(self) -> tuple[str, ...]:
        """The verdict: one to three sentences a player at the table acts on (what happens now, who
        chooses and between what, the score), each with its laws."""
        return tuple(self._data.get("summary", ()))

    @property
    def rulings(self) -> tuple[Remedy, ...]:
        return tuple(Remedy._of(r) for r in self._data.get("rulings", ()))

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(Finding(f["finding"], f.get("text", ""), tuple(f.get("laws") or ()))
                     for f in self._data.get("findings", ()))

    @property
    def conditional(self) -> bool:
        """Whether facts the ruling may turn on are not known (the account's `unknown`)."""
        return "unknowns" in self._data

    @property
    def unknowns(self) -> tuple[Mapping[str, Any], ...]:
        """The facts not known: id, question, alternatives, and whether the ruling turns on it."""
        return tuple(self._data.get("unknowns", ()))

    @property
    def facts(self) -> tuple[str, ...]:
        """The facts the rules saw (only when asked for: adjudicate(..., facts=True))."""
        return tuple(self._data.get("facts", ()))

    def as_dict(self) -> dict[str, Any]:
        """Exactly what `adjudicator adjudicate --json` prints for this incident (a copy)."""
        return copy.deepcopy(self._data)

    def text(self) -> str:
        """Exactly what `adjudicator adjudicate` prints for this incident: the story, then the ruling."""
        from adjudicator.core import render
        if self.conditional:
            from adjudicator.core import unknowns
            return (render.verdict_text(self._data, self._players) + "\n"
                    + _story_above(self._data, unknowns.text(self._data, self._players, verdict=False) + "\n"))
        out = ""
        if self._facts_shown:
            out += "Facts the rules saw:\n" + "".join(f"  {f}.\n" for f in self._data["facts"]) + "\n"
        # the verdict first, then what happened, then the details for the referee
        out += render.verdict_text(self._data, self._players) + "\n"
        return out + _story_above(self._data, render.ruling_text(self._data, self._players, verdict=False)) + "\n"

    @property
    def players(self) -> dict[str, str]:
        """The players' names by seat, as the account gives them."""
        return dict(self._players)

    def __repr__(self) -> str:
        return f"<Ruling {self.code} on {self.file}: {len(self._data.get('rulings', ()))} rulings>"

    def __reduce__(self):       # (a ruling made in a worker process travels back whole)
        return (Ruling, (self._data, self._players), {"_facts_shown": self._facts_shown})

    def __setstate__(self, state):
        self.__dict__.update(state)


def _story_text(story: str) -> str:
    from adjudicator.core.render import _wrap
    return "\n".join(_wrap(story, "What happened: ", "  ")) + "\n"


def _story_above(result: Mapping[str, Any], text: str) -> str:
    """The ruling's text with the story above it: none asked, or nothing to tell (an account with no
    event and no table), and the text alone, never a `What happened:` with nothing after it."""
    story = result.get("story")
    return (_story_text(story) + "\n" + text) if story else text


# --------------------------------------------------------------------------------------------------
# Reading an incident
# --------------------------------------------------------------------------------------------------
class AsGiven(str):
    """A path exactly as the user wrote it (pathlib would tidy it: `./a.yaml` into `a.yaml`, which
    errors would then name): any str that is a path, whatever it holds (even a newline)."""

    def __fspath__(self) -> str:
        return str(self)


def _as_text(source: Source, name: str | None) -> tuple[str, bytes | None, str | None]:
    """(path, the bytes when the incident is given in memory, the name errors give it)."""
    if isinstance(source, Mapping):
        import yaml
        try:
            text = yaml.safe_dump(dict(source), sort_keys=False, allow_unicode=True)
        except yaml.YAMLError as e:
            raise InputError(f"this mapping cannot be written as an incident: {safe(e, 120)}", name or TEXT_NAME,
                             hint="give plain values: words, numbers, lists and mappings of them") from None
        return STDIN, text.encode("utf-8"), name or TEXT_NAME
    if isinstance(source, bytes):
        return STDIN, source, name or TEXT_NAME
    if isinstance(source, os.PathLike):
        return os.fspath(source), None, name
    if isinstance(source, str):
        if "\n" in source or source.lstrip().startswith("{"):
            return STDIN, source.encode("utf-8", "surrogateescape"), name or TEXT_NAME
        return source, None, name
    raise TypeError(f"an incident is YAML text, a path or a mapping, not {type(source).__name__}")


def _load(source: Source, *, name: str | None = None, as_game: str | None = None, as_code: str | None = None,
          allow_case: bool = True) -> Incident:
    from adjudicator.core import incident
    path, data, shown_as = _as_text(source, name)
    return incident.load(path, data, allow_case, as_game, as_code, name=shown_as)


def check_settings() -> None:
    """Refuse the engine's settings from the environment that cannot be used (UsageError, exit 2):
    ADJUDICATOR_TIME_LIMIT that is not a number of seconds. A long-running face (the server) calls it
    before it starts, rather than refuse every ruling later."""
    from adjudicator.core import engine
    if engine.DEFAULT_TIMEOUT is None:
        raise engine.time_limit_error()


def time_limit() -> float:
    """The seconds one ruling may take (ADJUDICATOR_TIME_LIMIT, 10 by default), past which it is
    stopped (TimeLimit); a face that watches its rulings from outside (the server's workers) gives
    them this and some more. UsageError when the setting is not a time limit (check_settings)."""
    from adjudicator.core import engine
    check_settings()
    return engine.DEFAULT_TIMEOUT


def read_stdin() -> bytes:
    """Standard input's bytes, never more than an incident may hold (and one byte over, to say so)."""
    from adjudicator.core import incident
    return incident.read_stdin()


# --------------------------------------------------------------------------------------------------
# Rulings
# --------------------------------------------------------------------------------------------------
def adjudicate(source: Source, *, code: str | None = None, name: str | None = None, story: bool = True,
               facts: bool = False) -> Ruling:
    """Rule on one incident.

    `source`: YAML text, a path, or a mapping (Source). `code`: rule under this code (or a game's
    name for its default code) instead of the one the account names; a code of a game ruled by the
    same book (Boston's account under the American whist code) reads the account as that game's.
    `name`: what errors call an incident given as text (default `<incident>`). `story`: tell what
    happened in words (the `story` of the JSON). `facts`: keep the facts the rules saw.

    Raises InputError (bad input: file, line, column, hint), InconsistentIncident (an account that
    cannot have happened), InternalError (a fault to report).
    """
    as_game = as_code = None
    if code is not None:
        from adjudicator.core import registry
        as_code = registry.resolve_code(code, "adjudicate(code=...)")
        first = _load(source, name=name)
        game = registry.code_info(as_code)["game"]
        as_game = game if game != first.game else None
    inc = _load(source, name=name, as_game=as_game, as_code=as_code)
    if as_code is not None:
        inc.code = as_code
    return _rule(inc, None, story, facts)


def _rule(inc: Incident, solution, story: bool, facts: bool) -> Ruling:
    """The ruling on a loaded incident; `solution` when already worked out (or the error it gave)."""
    from adjudicator.core import engine, narrator, ruling
    if getattr(inc, "unknown", None) is not None:     # facts not known: the conditional ruling
        from adjudicator.core import unknowns
        result = unknowns.conditional(inc)
        if story:
            result["story"] = narrator.tell(inc)
        return Ruling(result, inc.players)
    if isinstance(solution, Exception):
        raise solution
    sol = solution or engine.solve(inc)
    result = ruling.build(inc, sol)
    if facts:
        result["facts"] = sorted(str(s) for s in sol.facts)
    if story:
        result["story"] = narrator.tell(inc)
    return Ruling(result, inc.players, facts_shown=facts)


def _rule_chunk(items: list[tuple[str, bytes | None, bool, bool]]) -> list[Ruling | AdjudicatorError]:
    """Several files, each ruled as adjudicate() rules it, in order: the incidents ruled plainly
    solved together, a code's at a time (core/batch.py). Module-level: worker processes run it."""
    from adjudicator.core import batch, incident
    loaded: list = []
    for path, stdin, _, _ in items:
        try:
            inc = incident.load(path, stdin)
        except AdjudicatorError as e:
            inc = e
        loaded.append(inc)
    solved = batch.solve_loaded(loaded)
    out: list[Ruling | AdjudicatorError] = []
    for (_, _, story, facts), inc in zip(items, loaded):
        try:
            if isinstance(inc, Exception):
                raise inc
            out.append(_rule(inc, solved.get(id(inc)), story, facts))
        except AdjudicatorError as e:
            out.append(e)
    return out


def in_order(fn, items: list, jobs: int) -> Iterator:
    """fn(item) for each item, in the order of the items: in this process, or over `jobs` worker
    processes (0: one per core). The output is the same either way."""
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(items) <= 1:
        yield from map(fn, items)
        return
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=min(jobs, len(items))) as pool:
        yield from pool.map(fn, items, chunksize=max(1, min(16, len(items) // (4 * jobs))))


def _in_batches(fn_many, items: list, jobs: int) -> Iterator:
    """fn_many(chunk) -> one result an item, for chunks of the items, flattened in the order of the
    items: so that a chunk's incidents can be ruled together (core/batch.py), in this process or
    over `jobs` worker processes, each taking whole chunks."""
    from adjudicator.core import batch
    workers = jobs or os.cpu_count() or 1
    size = max(1, min(2 * batch.SIZE, -(-len(items) // workers)))
    chunks = [items[k:k + size] for k in range(0, len(items), size)]
    for results in in_order(fn_many, chunks, jobs):
        yield from results


def adjudicate_files(paths: Iterable[str], *, stdin: bytes | None = None, story: bool = True, facts: bool = False,
                     jobs: int = 1) -> Iterator[Ruling | AdjudicatorError]:
    """Rule on many incident files, in order: for each, its Ruling, or the AdjudicatorError that
    refused it (bad input, a contradiction). Incidents of one code are ruled together, up to 64 to
    a grounding (each exactly as adjudicate() rules it alone); `jobs` spreads them over processes
    (0: one per core). `stdin`: the bytes a path '-' stands for."""
    work = [(p, stdin, story, facts) for p in paths]
    yield from _in_batches(_rule_chunk, work, jobs)


@dataclass(frozen=True)
class Comparison:
    """One incident ruled under several codes, each remedy marked where the codes part."""

    data: Mapping[str, Any]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(self.data["codes"])

    @property
    def errors(self) -> Mapping[str, Any]:
        """The codes that could not rule on the account, with why."""
        return self.data["errors"]

    def as_dict(self) -> dict[str, Any]:
        """Exactly what `adjudicator compare --json` prints."""
        return {k: copy.deepcopy(v) for k, v in self.data.items() if k != "players"}

    def text(self) -> str:
        """Exactly what `adjudicator compare` prints (without the last newline)."""
        from adjudicator.core import compare as cmp
        return cmp.render(dict(self.data))


def compare(source: Source, codes: Iterable[str] | str | None = None, *, name: str | None = None) -> Comparison:
    """Rule on one incident under several codes side by side (`adjudicator compare`). `codes`: the
    codes or games' names (a list, or one string separated by commas); None: every encoded code of
    the incident's game (refused for a game ruled by one code)."""
    from adjudicator.core import compare as cmp
    path, data, shown_as = _as_text(source, name)
    wanted = codes if codes is None or isinstance(codes, str) else ",".join(codes)
    return Comparison(cmp.compare(path, cmp.wanted(wanted, path, data, shown_as), data, shown_as))


# --------------------------------------------------------------------------------------------------
# Case files
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CaseResult:
    """A case file run (`adjudicator check`): whether the engine's ruling is the one expected."""

    file: str
    ok: bool
    name: str | None = None
    diff: str = ""
    error: AdjudicatorError | None = None


def find_cases(paths: Iterable[str]) -> list[str]:
    """The case files the paths name: a file itself, or every .yaml file under a folder."""
    from adjudicator.core import cases
    return cases.find(list(paths))


def _check_chunk(paths: list[str]) -> list[CaseResult]:
    from adjudicator.core import cases
    out = []
    for path, got in zip(paths, cases.run_all(paths)):
        if isinstance(got, AdjudicatorError):
            out.append(CaseResult(path, False, error=got))
        else:
            out.append(CaseResult(path, got.ok, got.name, got.diff))
    return out


def check(paths: Iterable[str], *, jobs: int = 1) -> Iterator[CaseResult]:
    """Run case files (`adjudicator check`), in order; `jobs` as for adjudicate_files."""
    yield from _in_batches(_check_chunk, find_cases(paths), jobs)


# --------------------------------------------------------------------------------------------------
# The laws
# --------------------------------------------------------------------------------------------------
def law(code: str, ident: str):
    """Law `ident` of `code` (or a game's name for its default code): `law("whist", "24")`,
    `law("american-1893", "17.II")`. The answer's `.data()` is `adjudicator law --json`; `.text()`
    what the command prints. An id the code has not raises InputError saying what it has."""
    from adjudicator.lookup import laws
    return laws.Answer(code, ident)


@dataclass(frozen=True)
class Lookup:
    """A lookup's answer (search, topic, the list of topics): `as_dict()` is the command's `--json`,
    `text()` what it prints."""

    data: Any
    kind: str

    def as_dict(self) -> Any:
        return copy.deepcopy(self.data)

    def text(self) -> str:
        from adjudicator.core import render
        return {"search": render.search_text, "topic": render.topic_text, "topics": render.topics_text,
                "event": render.event_text}[self.kind](self.data)


def search(words: str, *, code: str | None = None, limit: int = 10, offset: int = 0) -> Lookup:
    """The laws of every code (or of `code`) on these plain words, best first: `adjudicator search
    --json`; `total` counts every law found, `offset` skips the first ones (a page: `--page`).
    Refuses a limit outside 1-500, a code with no law texts, and words that leave nothing to search
    for (none, blanks, only common words)."""
    from adjudicator.core import registry
    from adjudicator.lookup import laws
    from adjudicator.lookup import search as searching
    if not 1 <= limit <= 500:
        raise InputError(f"--limit is {limit}: it is from 1 to 500", file="adjudicator search")
    book = registry.resolve_code(code, "adjudicator search --code") if code is not None else None
    if book:
        book = laws.book_code(book)     # (Boston, Cayenne, Solo Whist: the American book)
        if book not in laws.codes():
            raise InputError(f"code '{safe(book, 40)}' has no law texts", file="adjudicator search",
                             hint="`adjudicator codes` lists the codes")
    if offset < 0:
        raise InputError(f"the offset is {offset}: it is 0 or more", file="adjudicator search")
    result = searching.search(words, code=book, limit=limit, offset=offset)
    if not result["groups"]:
        raise searching.nothing_to_search(words)
    return Lookup(result, "search")


def laws(code: str) -> dict[str, Any]:
    """The laws of `code` (or a game's name for its default code) in the book's order, each with its
    id, its section, our one-sentence summary and the ids of its clauses and of the exceptions
    inserted in it (`17.II`, `24.boston`): `adjudicator law CODE --json`. A code that reads another
    code's book (Boston, Cayenne, Solo Whist: the American book) gives that book's, with `asked_code`;
    `base_code` names the code whose laws its rulings cite beside these (Dummy: the English code)."""
    from adjudicator.core import registry
    from adjudicator.lookup import laws as texts
    asked = registry.resolve_code(code, "adjudicator law")
    book_code = texts.book_code(asked)
    book = texts.book(book_code)
    return {"code": book_code, **({"asked_code": asked} if asked != book_code else {}),
            "title": registry.code_info(book_code)["title"], "base_code": book.get("base_code"),
            "laws": [{"id": str(x["id"]), "section": x.get("section", ""), "summary": x.get("summary", ""),
                      "clauses": [f"{x['id']}.{c['id']}" for c in x.get("clauses") or []],
                      "exceptions": [str(e["id"]) for e in x.get("exceptions") or []]} for x in book["laws"]]}


def law_ids(code: str) -> dict[str, list[str]]:
    """The ids of `code`'s laws (a game's name for its default code) in the book's order, each with
    the ids of its clauses and exceptions: what `laws(code)` gives, the ids alone, for TAB
    completion, which runs the command again at each press. Kept in the cache folder (named by the
    law file's bytes: core/cache.py), so that a press reads no YAML and no law texts."""
    from adjudicator.core import cache, registry
    book = registry.code_info(registry.resolve_code(code, "adjudicator law"))["laws"]      # (Boston's: the American)
    with open(os.path.join(registry.rules_dir(), book), "rb") as fh:
        raw = fh.read()
    prefix = "law-ids-" + book.rsplit(".", 1)[0].replace("/", "-") + "-"     # (one kept file a book)
    path = cache.named(prefix, raw)
    ids = cache.kept(path)
    if not isinstance(ids, dict):
        ids = {x["id"]: x["clauses"] + x["exceptions"] for x in laws(code)["laws"]}
        cache.keep(path, ids, prefix)
    return ids


def topic_names() -> list[str]:
    """The names of the concordance's topics (`adjudicator topic NAME`), in its order."""
    from adjudicator.lookup import laws as texts
    return texts.topic_names()


def _only_codes(codes: Iterable[str]) -> set[str]:
    from adjudicator.core import registry
    from adjudicator.lookup import laws
    return {laws.book_code(registry.resolve_code(c, "adjudicator topic --code")) for c in codes}


def topics(*, codes: Iterable[str] = ()) -> Lookup:
    """The topics of the concordance (`adjudicator topic --json`), each with the codes that treat it;
    `codes`: only these codes' (a game's name for its default code)."""
    from adjudicator.lookup import laws
    only = _only_codes(codes)
    rows = laws.topic_list()
    if only:
        rows = [{**r, "codes": [c for c in r["codes"] if c in only]} for r in rows]
        rows = [r for r in rows if r["codes"]]
    return Lookup(rows, "topics")


def topic(name: str, *, codes: Iterable[str] = ()) -> Lookup:
    """The laws of every code on one topic, side by side (`adjudicator topic NAME --json`); the name
    in plain words (`lead out of turn`)."""
    from adjudicator.lookup import laws
    only = _only_codes(codes)
    t = laws.topic(laws.resolve_topic(name))
    if only:
        t["codes"] = [c for c in t["codes"] if c["code"] in only]
        t["not_covered"] = [c for c in t["not_covered"] if c in only]
    return Lookup(t, "topic")


def codes() -> list[dict[str, Any]]:
    """The games and codes known (`adjudicator codes --json`): game, code, title, and whether it is
    the game's default."""
    from adjudicator.core import registry
    rows = []
    for game in registry.games():
        for code in registry.codes_of(game):
            info = registry.code_info(code)
            rows.append({"game": game, "code": code, "title": info["title"],
                         "default": code == registry.default_code(game)})
    return rows


def games() -> list[str]:
    """The games known, in the order of rules/codes.yaml."""
    from adjudicator.core import registry
    return list(registry.games())


def remedies() -> dict[str, str]:
    """The remedy ids a ruling can name, each with what it means (`adjudicator remedies --json`)."""
    from adjudicator.core import registry
    return dict(registry.remedies())


def events() -> dict[str, Any]:
    """The incident format's top-level keys and events (`adjudicator events --json`)."""
    from adjudicator.core import schema
    return {"keys": [{"name": f.name, "type": f.type, "doc": f.doc, "required": f.required} for f in schema.TOP],
            "events": [{"name": e.name, "group": e.group, "fields": [f.name for f in e.fields]}
                       for e in schema.EVENTS.values()]}


def format_reference() -> str:
    """The incident format's reference, as docs/incident-format.md holds it (Markdown)."""
    from adjudicator.lookup import formatdoc
    return formatdoc.block()


def event(name: str) -> Lookup:
    """One event of the format, or one top-level key (`adjudicator events NAME`): what it records,
    its fields, an example, and the laws of every code whose rules read it."""
    from adjudicator.core import schema
    from adjudicator.core.values import shown, suggest
    ev = schema.EVENTS.get(name.strip().lower())
    top = schema.TOP_KEYS.get(name.strip().lower())
    if ev is None and top is None:
        close = suggest(name.strip().lower(), list(schema.EVENTS) + list(schema.TOP_KEYS))
        raise InputError(f"no event or key '{shown(name)}'" if name else
                         "no event or key is named: the argument is empty", "adjudicator events",
                         hint=(f"did you mean '{close}'? " if close else "") + "`adjudicator events` lists them")
    if ev is None:
        return Lookup({"key": top.name, "type": top.type, "doc": top.doc, "required": top.required}, "event")
    # The laws of every code whose rules read the event, worked out from the rules (laws.event_laws)
    from adjudicator.lookup import laws
    by_code = laws.event_laws(ev.name)
    return Lookup({"event": ev.name, "group": ev.group, "doc": ev.doc, "example": ev.example,
                   "laws": list(by_code.get("american-1893", ())),
                   "laws_by_code": {c: list(ls) for c, ls in by_code.items()},
                   "fields": [{"name": f.name, "type": f.type, "doc": f.doc, "required": f.required,
                               **({"choices": list(f.choices)} if f.choices else {})} for f in ev.fields]}, "event")
