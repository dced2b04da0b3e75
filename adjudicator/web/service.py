"""What the web page and its API ask of the engine: the command line's own answers, as data.

Each function returns exactly what the matching command prints with `--json` for the same input
(tests/test_web_api.py compares them with the command's output over the bundled cases): an
incident is read as `adjudicator adjudicate -` reads standard input (the same size limit, the same
refusals with line, key and fix, the same time limit), never from a path given by a request.

The engine keeps caches per process (parsed rule files, rulings of the quiz's cases, the search
index's connection); one lock lets a single request use them at a time. A ruling takes tens of
milliseconds, so a few tables at once wait a few tens of milliseconds for each other.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from adjudicator.core import reading
from adjudicator.errors import AdjudicatorError, InputError, TimeLimit, safe

ENGINE = threading.Lock()
STDIN = "-"          # the incident comes as standard input's bytes do: there is no file


@dataclass
class Refusal(Exception):
    """A refusal, as the command line gives it: its exit code, the JSON it prints with --json,
    and the error itself (for the page's message)."""

    exit_code: int
    payload: dict
    error: BaseException | None = None

    @property
    def http_status(self) -> int:
        msg = self.payload.get("error", {}).get("message", "")
        if isinstance(self.error, TimeLimit) or msg.startswith("no ruling within the time limit"):
            return 503                     # the engine's time limit: try again, or report it
        if self.exit_code == 2:
            return 413 if "bytes; an incident is at most" in msg else 400
        return 500

    @property
    def detail(self) -> dict:
        """The error as --json gives it: message, exit_code, and file, line, column, hint, problems
        when known."""
        return self.payload.get("error", {})


def _error_json(err: BaseException) -> dict:
    from adjudicator.cli import _error_json as cli_error_json
    if isinstance(err, AdjudicatorError):
        return cli_error_json(err)
    # as the command's --json says it (cli._fail): the kind of fault, never its details
    return {"error": {"message": f"internal error ({type(err).__name__})", "exit_code": 1}}


def _refuse(err: BaseException) -> Refusal:
    code = err.exit_code if isinstance(err, AdjudicatorError) else 1
    return Refusal(code, _error_json(err), err)


def _guarded(fn, *args):
    """fn(*args) under the engine's lock; every failure becomes a Refusal."""
    with ENGINE:
        try:
            return fn(*args)
        except AdjudicatorError as e:
            raise _refuse(e) from None
        except Refusal:
            raise
        except Exception as e:  # noqa: BLE001 - an internal fault, said as the command says it
            raise _refuse(e) from None


def adjudicate(data: bytes) -> dict:
    """`adjudicator adjudicate - --json` on these bytes: the ruling (or the conditional ruling
    on an incident with facts not known), with the story."""
    from adjudicator import cli

    def go():
        out, err, code, result = cli._adjudicate_one((STDIN, data, True, False, False, False))
        if code:
            result = dict(result or {})
            result.pop("file", None)       # one incident: its error is printed without the file key
            raise Refusal(code, result)
        return result
    return _guarded(go)


def incident_of(data: bytes):
    """The incident read from these bytes (its players' names, for the text as the terminal
    shows it); the caller has had its ruling already, so it reads."""
    from adjudicator.core import incident
    with ENGINE:
        return incident.load(STDIN, data)


def terminal_text(result: dict, data: bytes) -> str:
    """The ruling as `adjudicator adjudicate -` prints it, story first."""
    from adjudicator import cli
    from adjudicator.core import render, unknowns
    inc = incident_of(data)
    if "unknowns" in result:
        return cli._story_above(result, unknowns.text(result, inc.players))
    return cli._story_above(result, render.ruling_text(result, inc.players))


def compare(data: bytes, codes: str | None) -> dict:
    """`adjudicator compare - [--codes CODES] --json`."""
    from adjudicator.core import compare as cmp

    def go():
        result = cmp.compare(STDIN, cmp.wanted(codes, STDIN, data), data)
        players = result.pop("players", None)
        return result, players or {}
    return _guarded(go)


def law(code_or_game: str, number: str) -> dict:
    """`adjudicator law CODE NUMBER --json` (laws.Answer, the command's own)."""
    from adjudicator.lookup import laws
    return _guarded(lambda: laws.Answer(code_or_game, number).data())


def search(words: str, code_given: str | None = None, limit: int = 10) -> dict:
    """`adjudicator search WORDS [--code CODE] [--limit N] --json`."""
    from adjudicator.lookup import laws
    from adjudicator.core import registry
    from adjudicator.lookup import search as searching

    def go():
        if not words.split():
            raise InputError("give the words to search for", file="adjudicator search",
                             hint="e.g. `adjudicator search lead out of turn`")
        if not 1 <= limit <= 500:
            raise InputError(f"--limit is {limit}: it is from 1 to 500", file="adjudicator search")
        code = registry.resolve_code(code_given, "adjudicator search --code") if code_given is not None else None
        if code:
            code = laws.book_code(code)     # (Boston, Cayenne, Solo Whist: the American book)
        if code and code not in laws.codes():
            raise InputError(f"code '{safe(code, 40)}' has no law texts", file="adjudicator search",
                             hint="`adjudicator codes` lists the codes")
        # the command takes the words as arguments and joins them with spaces
        result = searching.search(" ".join(words.split()), code=code, limit=limit)
        if not result["groups"]:
            raise searching.nothing_to_search(words)
        return result
    return _guarded(go)


def topic(name: str | None) -> dict | list:
    """`adjudicator topic [NAME] --json`."""
    from adjudicator.lookup import laws

    def go():
        if name is None:        # (a name of spaces is a name, refused as the command refuses it)
            return laws.topic_list()
        return laws.topic(laws.resolve_topic(name))
    return _guarded(go)


def codes() -> list[dict]:
    """`adjudicator codes --json`."""
    from adjudicator.core import registry

    def go():
        rows = []
        for game in registry.games():
            for code in registry.codes_of(game):
                info = registry.code_info(code)
                rows.append({"game": game, "code": code, "title": info["title"],
                             "default": code == registry.default_code(game)})
        return rows
    return _guarded(go)


def law_words(code: str, ident: str) -> str:
    """The words of a law (its clause, its exception), as the quiz shows them after an answer."""
    from adjudicator.study import quiz
    # read while a page is drawn, so without the engine's lock: the law books are files read once
    # (functools.cache) and never changed, and reading them runs no rule
    try:
        return quiz.law_text(code, ident)
    except AdjudicatorError:
        return ""


# --- the interview (`adjudicator ask`), one question a page --------------------------------------

DONT_KNOW = "?"


def _answer_token(token: str, ui: int, n_alts: int) -> int | None:
    """An answer the page sent back: 'U:A' (alternative A of unknown U) or 'U:?' (I don't know)."""
    u, _, a = token.partition(":")
    # (reading.chosen_number: ASCII digits only; '²' was a 500, '١' taken for 1)
    if reading.chosen_number(u, ui, ui) is None:
        raise InputError("the answers sent do not fit the questions of this incident", "the interview",
                         hint="start the interview again from the incident")
    if a == DONT_KNOW:
        return None
    chosen = reading.chosen_number(a, 0, n_alts - 1)
    if chosen is None:
        raise InputError(f"no answer '{a[:20]}' to this question", "the interview",
                         hint="choose one of the answers shown, or \"I don't know\"")
    return chosen


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _in_events(inc):
    """The interview's questions on the page, citing each event as the story tells it, never a line
    of the file: `ask` cites the lines of the file the user wrote ("the renounce (event 2, line
    15)"), but an incident built step by step, or carried from page to page, is YAML the referee
    never saw. "(event 2, line 15)" reads "(the 2nd event: Brown renounces with the three of clubs)"."""
    import re

    from adjudicator.core import narrator
    teller = narrator.Narrator(inc)
    teller.setting()
    told = [teller.event(ev).rstrip(".") for ev in inc.events]       # (in order: a deal says who deals on)
    # mid-sentence, an article small: "the 5th event: the trick is turned" (a name, a seat as written)
    told = [t[:1].lower() + t[1:] if t.split(" ", 1)[0] in ("The", "A", "An") and t.split(" ", 1)[0] not in teller.names
            else t for t in told]

    def event(n: str, telling: bool = True) -> str:
        i = int(n)
        return f"the {_ordinal(i)} event" + (f": {told[i - 1]}" if telling and 1 <= i <= len(told) else "")

    def said(text: str) -> str:
        # who did it is the question: the event is not told, its account names who is said to have
        text = re.sub(r"at event (\d+) \(lines? [\d-]+\)", lambda m: f"at {event(m[1], False)}", text)
        return re.sub(r"\(event (\d+), lines? [\d-]+\)", lambda m: f"({event(m[1])})", text)
    return said


def interview(data: bytes, answers: list[str]) -> dict:
    """One step of `adjudicator ask` on these bytes, the answers so far replayed in order.

    Returns {"asked": [{question, answer}], "question": {...} | None, "incident": YAML | None}:
    the next question (the most decisive one still open, with the laws turning on it), or, when
    nothing left can change the ruling, the incident with the answers written in, as `ask` saves it.
    The questions cite their events as the story tells them, not the lines `ask` cites (_in_events).
    """
    import yaml

    from adjudicator.interview import ask

    def go():
        iv = ask.Interview(STDIN, data)
        said = _in_events(iv.inc)
        asked = []
        for token in answers:
            q = iv.next_question()
            if q is None:
                raise InputError("more answers were sent than there are questions", "the interview",
                                 hint="start the interview again from the incident")
            ui, laws = q
            u = iv.space.unknowns[ui]
            ai = _answer_token(token, ui, len(u.alternatives))
            iv.asked.append((ui, laws))
            iv.answer(ui, ai)
            asked.append({"question": said(u.question), "laws": laws,
                          "answer": "I don't know" if ai is None else u.alternatives[ai].label})
        q = iv.next_question()
        if q is not None:
            ui, laws = q
            u = iv.space.unknowns[ui]
            from adjudicator.core import narrator
            return {"game": iv.inc.game, "asked": asked, "incident": None, "story": narrator.tell(iv.inc),
                    "question": {"unknown": ui, "text": said(u.question), "laws": laws, "code": iv.inc.code,
                                 "alternatives": [a.label for a in u.alternatives]}}
        built = ("# Built by the interview of `adjudicator serve`; `adjudicator adjudicate` rules on it again.\n"
                 + yaml.safe_dump(iv.completed(), sort_keys=False, allow_unicode=True))
        return {"game": iv.inc.game, "asked": asked, "question": None, "incident": built}
    return _guarded(go)


# --- the quiz -----------------------------------------------------------------------------------

def _bank() -> tuple[str, set[str]]:
    """The question bank's folder and its case files (relative): a question named in a request
    is looked for only among these, never opened as a path."""
    import os

    from adjudicator.study import quiz
    root = quiz.bank_dir()
    return root, {os.path.relpath(p, root).replace(os.sep, "/") for p in quiz.case_files(root)}


_BANK: dict = {}


def _bank_cached() -> tuple[str, set[str]]:
    if "bank" not in _BANK:
        _BANK["bank"] = _bank()
    return _BANK["bank"]


def quiz_draw(seed: int, code: str | None = None, topic: str | None = None):
    """One question, as `adjudicator quiz -n 1 --seed SEED [--code C] [--topic T]` draws it."""
    from adjudicator.study import quiz
    from adjudicator.core import registry

    def go():
        c = registry.resolve_code(code, "adjudicator quiz --code") if code else None
        topic_name = quiz.check_filters(c, topic or None, None, None)
        qs = quiz.draw(1, seed, c, topic_name, None, None)
        if not qs:
            raise InputError("no question fits these filters", file="adjudicator quiz",
                             hint="widen them: `adjudicator topic` lists topics, `adjudicator codes` codes")
        return qs[0]
    return _guarded(go)


def quiz_review():
    """The first question to review (missed, then due), as `adjudicator quiz --review` asks them,
    or None when there is nothing to review; with the notices of opening the progress file (a
    damaged one kept aside)."""
    from adjudicator.study import progress, quiz

    def go():
        store = progress.Store()
        try:
            ids = store.review_ids()
        finally:
            store.close()
        found = quiz.review_questions(ids, 1)
        return (found[0] if found else None), store.notices
    return _guarded(go)


def _case_token(case: str) -> str:
    import hashlib
    return hashlib.sha256(case.encode("utf-8")).hexdigest()[:16]


def quiz_token(qid: str) -> str:
    """The question's id as the page carries it: its case file hashed (the file is named after the
    ruling it proves, so its name would give the answer away), then the kind."""
    case, _, kind = qid.partition("#")
    return f"{_case_token(case)}#{kind}"


def quiz_question(token: str):
    """The question a page's token names, if the bank has it today: its case is looked for among
    the bank's case files by the hash, never opened from the request's words."""
    from adjudicator.study import quiz

    def go():
        root, cases = _bank_cached()
        digest, _, kind = token.partition("#")
        found_case = next((c for c in cases if _case_token(c) == digest), None)
        qid = f"{found_case}#{kind}"
        if found_case is None:
            raise InputError("no such question in the bank", "the quiz", hint="draw a new question")
        found = quiz.review_questions([qid], 1)
        if not found:
            raise InputError("no such question in the bank", "the quiz", hint="draw a new question")
        return found[0]
    return _guarded(go)


# The question pages drawn, each by the one-time token its form carries, whose answer is recorded:
# the same form sent again (a reload of the answer page, a second tap on Answer, the back button
# and Answer again) is graded and shown, never recorded twice. Kept in the server's memory, the
# last ANSWERED_KEPT of them.
ANSWERED_KEPT = 10_000
_answered: dict[str, None] = {}
_answered_lock = threading.Lock()


def quiz_once() -> str:
    """A new question page's one-time token."""
    import secrets
    return secrets.token_urlsafe(12)


def _first_answer(once: str) -> bool:
    """Whether this is the first answer sent from the question page the token names (a form without
    one, sent by another client than the page: always)."""
    if not once:
        return True
    with _answered_lock:
        if once in _answered:
            return False
        _answered[once] = None
        while len(_answered) > ANSWERED_KEPT:
            del _answered[next(iter(_answered))]
        return True


def quiz_answer(q, said: str, once: str = "") -> dict:
    """Grade an answer against the engine's ruling and record it in the progress file, as the
    terminal's quiz does, once for the question page `once` names; with the ruling it was graded
    against, and whether it was counted now (False: sent again, counted when first sent)."""
    import os

    from adjudicator.study import progress, quiz

    def go():
        g = quiz.grade(q, said)
        if not g.understood:
            return {"understood": False}
        counted = _first_answer(once)
        store = progress.Store()
        try:
            due = store.record(q, g.right, g.said) if counted else None
            stats = store.stats()
        finally:
            store.close()
        ruling = quiz.ruling_of(os.path.join(quiz.bank_dir(), q.case))
        other = None
        if q.kind == "compare":
            other = quiz.ruling_of(os.path.join(quiz.bank_dir(), q.case), q.extra["codes"][1])
        return {"understood": True, "right": g.right, "due": due, "stats": stats, "counted": counted,
                "notices": store.notices, "ruling": ruling, "other": other}
    return _guarded(go)


def quiz_stats() -> tuple[dict, str, list[str]]:
    """`adjudicator quiz stats --json`, with the progress file's place and any notice."""
    from adjudicator.study import progress

    def go():
        store = progress.Store()
        try:
            return store.stats(), store.path, store.notices
        finally:
            store.close()
    return _guarded(go)


def too_large() -> Refusal:
    """The refusal of an incident over the size limit, as `adjudicator adjudicate -` words it."""
    from adjudicator.core import incident
    try:
        incident.read_source(STDIN, bytes(incident.MAX_BYTES + 1))
    except AdjudicatorError as e:
        return _refuse(e)
    raise AssertionError("an input over the limit was read")  # pragma: no cover


# --- the incident builder -------------------------------------------------------------------------

def build_step(text: str, step: str, form: dict) -> tuple[str, str | None]:
    """One step of the builder (web/builder.py) on the incident carried by the page: its YAML
    after the step, and what happened so far told in words (None before the first event). The
    command's reader checks every step: a mistake is refused with its line and fix."""
    from adjudicator.core import incident, narrator
    from adjudicator.interview import builder

    def go():
        if step == "table":
            data = builder.table(form)
        else:
            data = builder.load(text)
            if step == "add":
                data = builder.add_event(data, form.get("event", ""), form)
            elif step == "undo":
                data = builder.remove_last(data)
        out = builder.dump(data)
        # (the table too: a dealer 'Q' or a player named 'N' was taken at the table's step, and
        # refused only when the first event was added, on the event's form)
        inc = incident.load(STDIN, out.encode("utf-8"))
        if not data.get("events"):
            return out, None
        return out, narrator.tell(inc)
    return _guarded(go)


def build_fields(name: str, text: str = "") -> list[dict]:
    """The fields of an event for the incident the page carries (its game's seats and events)."""
    from adjudicator.interview import builder

    def go():
        game = builder.load(text).get("game", "whist") if text else "whist"
        return builder.fields_of(name, game)
    return _guarded(go)
