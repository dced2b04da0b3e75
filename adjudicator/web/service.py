"""What the web page and its API ask of the engine: the command line's own answers, as data.

Each function returns exactly what the matching command prints with `--json` for the same input
(tests/test_web_api.py compares them with the command's output over the bundled cases), through the
same public API the command calls (adjudicator/api.py): an incident is read as `adjudicator
adjudicate -` reads standard input (the same size limit, the same refusals with line, key and fix,
the same time limit), never from a path given by a request.

The engine keeps caches per process (parsed rule files, rulings of the quiz's cases, the search
index's connection). Served by `adjudicator serve`, what rules on a client's incident (`engine`:
a ruling, a comparison, the interview, the builder's step) runs in a worker process of its own
(web/workers.py), within a time and memory budget; elsewhere (the app called in a test's process)
in a thread, one at a time under the ENGINE lock. Law lookups, search, topics and codes are answered
in the server's own process under a lock of their own (LOOKUPS), never behind a ruling.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from adjudicator import api
from adjudicator.errors import AdjudicatorError, InputError, TimeLimit, error_json

ENGINE = threading.Lock()
LOOKUPS = threading.Lock()
POOL = None                # the worker processes, while `adjudicator serve` runs (workers.Pool)
STDIN = "<stdin>"          # the incident comes as standard input's bytes do: there is no file


@dataclass
class Refusal(Exception):
    """A refusal, as the command line gives it: its exit code, the JSON it prints with --json,
    and the error itself (for the page's message)."""

    exit_code: int
    payload: dict
    error: BaseException | None = None
    status: int | None = None          # (as decided where it was refused: a worker, the budget)

    @property
    def http_status(self) -> int:
        if self.status is not None:
            return self.status
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


def _refuse(err: BaseException) -> Refusal:
    code = err.exit_code if isinstance(err, AdjudicatorError) else 1
    return Refusal(code, error_json(err), err)


def _guarded(fn, *args, lock=ENGINE):
    """fn(*args) under the engine's lock (or `lock`); every failure becomes a Refusal."""
    with lock:
        try:
            return fn(*args)
        except AdjudicatorError as e:
            raise _refuse(e) from None
        except Refusal:
            raise
        except Exception as e:  # noqa: BLE001 - an internal fault, said as the command says it
            raise _refuse(e) from None


async def engine(fn, *args):
    """fn(*args), one of this module's functions that rule: in a worker process while the server
    has them (POOL), else in a thread (under the ENGINE lock)."""
    if POOL is not None:
        return await POOL.run(fn, *args)
    from starlette.concurrency import run_in_threadpool
    return await run_in_threadpool(fn, *args)


def in_worker(fn, *args) -> tuple:
    """In a worker: fn(*args) as ("ok", value), or its refusal as plain data (the error itself is
    not sent across: its status is decided here), and whether a grounding past the engine's time
    limit still runs in this process (the worker is then replaced)."""
    try:
        return ("ok", fn(*args))
    except Refusal as r:
        abandoned = isinstance(r.error, TimeLimit) and r.error.phase == "grounding"
        return ("refused", r.exit_code, r.payload, r.http_status, abandoned)


def over_budget(why: str) -> Refusal:
    """A ruling stopped by the server's budget (its worker killed and replaced): 503."""
    return Refusal(1, {"error": {"message": f"no ruling within the server's budget: {why}, and was stopped",
                                 "exit_code": 1,
                                 "hint": "establish some of the facts not known, or shorten the account; if it "
                                         "is an ordinary incident, report it"}}, status=503)


def busy(waiting: int) -> Refusal:
    """Too many rulings waiting for a worker: 503, at once."""
    return Refusal(1, {"error": {"message": f"the server is busy: {waiting} rulings are waiting for it",
                                 "exit_code": 1, "hint": "try again in a few seconds"}}, status=503)


def ruling(data: bytes) -> api.Ruling:
    """`adjudicator adjudicate -` on these bytes: the ruling (or the conditional ruling on an
    incident with facts not known), with the story; its `as_dict()` is `--json`, its `text()` what
    the terminal shows."""
    return _guarded(lambda: api.adjudicate(data, name=STDIN))


def adjudicate(data: bytes) -> dict:
    """`adjudicator adjudicate - --json` on these bytes."""
    return ruling(data).as_dict()


def compare(data: bytes, codes: str | None) -> tuple[dict, dict]:
    """`adjudicator compare - [--codes CODES] --json`, and the players' names."""
    def go():
        found = api.compare(data, codes, name=STDIN)
        return found.as_dict(), dict(found.data.get("players") or {})
    return _guarded(go)


_LAWS: dict[tuple[str, str], dict] = {}
LAWS_KEPT = 4096           # laws answered kept in memory (a law's first lookup reads the case files)


def law(code_or_game: str, number: str) -> dict:
    """`adjudicator law CODE NUMBER --json`. The answer is kept: the law books, rules and cases do
    not change while the server runs, and a law's first lookup (its cases read, its rules scanned)
    takes some 0.3 s where a kept one is answered in about a millisecond."""
    import copy
    key = (code_or_game, number)
    found = _LAWS.get(key)
    if found is None:
        found = _guarded(lambda: api.law(code_or_game, number).as_dict(), lock=LOOKUPS)
        if len(_LAWS) < LAWS_KEPT:
            _LAWS[key] = found
    return copy.deepcopy(found)


def search(words: str, code_given: str | None = None, limit: int = 10, offset: int = 0) -> dict:
    """`adjudicator search WORDS [--code CODE] [--limit N] [--page P] --json`, the words given as one
    string (`offset`: the laws before the page)."""
    def go():
        if not words.split():
            raise InputError("give the words to search for", file="adjudicator search",
                             hint="e.g. `adjudicator search lead out of turn`")
        # the command takes the words as arguments and joins them with spaces
        return api.search(" ".join(words.split()), code=code_given, limit=limit, offset=offset).as_dict()
    return _guarded(go, lock=LOOKUPS)


def topic(name: str | None) -> dict | list:
    """`adjudicator topic [NAME] --json`."""
    # (a name of spaces is a name, refused as the command refuses it)
    return _guarded(lambda: (api.topics() if name is None else api.topic(name)).as_dict(), lock=LOOKUPS)


def codes() -> list[dict]:
    """`adjudicator codes --json`."""
    return _guarded(api.codes, lock=LOOKUPS)


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

def interview(data: bytes, answers: list[str]) -> dict:
    """One step of `adjudicator ask` on these bytes, the answers so far replayed in order
    (interview/ask.py `step`): the next question, or the incident with the answers written in."""
    from adjudicator.interview import ask
    return _guarded(lambda: ask.step(data, answers))


# --- the quiz -----------------------------------------------------------------------------------
#
# Progress is kept per person (study/progress.py `person_path`): a name the person gives, or a key
# this device keeps in a cookie, never one progress for the whole club. No account: whoever gives a
# name studies as that name.

COOKIE = "adjudicator_quiz"
NAME_MAX = 40


def new_device() -> str:
    """A device's person key: random, kept in its cookie."""
    import secrets
    return "d." + secrets.token_urlsafe(18)


def person_of_name(name: str) -> str:
    """A name's person key, as its cookie keeps it (the name as given, its blanks made one)."""
    import base64
    return "n." + base64.urlsafe_b64encode(" ".join(name.split()).encode("utf-8")).decode("ascii").rstrip("=")


def _kept_as(person: str) -> str:
    """Whose progress file a person's key opens: a name's is the name folded to one case ("Ann Lee",
    "ann  LEE"), a device's its key."""
    name = person_name(person)
    return "name:" + name.casefold() if name is not None else person


def name_refused(name: str) -> str | None:
    """Why a name cannot be one to study under (None: it can)."""
    from adjudicator.core.values import shown
    name = " ".join(name.split())
    if not name:
        return None
    if len(name) > NAME_MAX:
        return f"the name is longer than {NAME_MAX} characters"
    if not all(c.isprintable() for c in name):
        return f"the name '{shown(name)}' holds a character that is not printable"
    return None


def person_from_cookie(value: str | None) -> str | None:
    """The person a cookie names, if it is one this page set ("d." and a device key, or "n." and a
    name's letters); else None (a new device key is then given)."""
    import re
    if value and re.fullmatch(r"[dn]\.[A-Za-z0-9_-]{1,240}", value):
        return value
    return None


def person_name(person: str) -> str | None:
    """The name a person key holds (None: a device's key)."""
    import base64
    if not person.startswith("n."):
        return None
    raw = person[2:]
    try:
        return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _store(person: str, create: bool = True):
    """The person's progress file, opened (None when it does not exist and need not be made: a
    person who has answered nothing has no file)."""
    import os

    from adjudicator.study import progress
    path = progress.person_path(_kept_as(person))
    if not os.path.exists(path):
        if not create:
            return None
        folder = os.path.dirname(path)
        if os.path.isdir(folder) and len(os.listdir(folder)) >= progress.MAX_PEOPLE:
            raise InputError(f"this page already keeps the progress of {progress.MAX_PEOPLE:,} people",
                             "the quiz", hint="study under a name already used, or ask the club to make room")
    return progress.Store(path)


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


def quiz_draw(seed: int, code: str | None = None, topic: str | None = None, person: str | None = None):
    """One question, as `adjudicator quiz -n 1 --seed SEED [--code C] [--topic T]` draws it: a new
    one for the person (one not answered yet), within the day's limit of new questions. Returns the
    question and a message: the question is None when the day's new questions are done."""
    from adjudicator.study import quiz
    from adjudicator.core import registry

    def go():
        c = registry.resolve_code(code, "adjudicator quiz --code") if code else None
        topic_name = quiz.check_filters(c, topic or None, None, None)
        store = _store(person, create=False) if person else None
        exclude, notices = None, []
        try:
            if store is not None:
                notices = store.notices
                n, said = quiz.allowance(store, 1, False, page=True)
                if said:
                    return None, said, notices
                exclude = store.seen_ids()
        finally:
            if store is not None:
                store.close()
        qs = quiz.draw(1, seed, c, topic_name, None, None, exclude=exclude)
        if not qs:
            raise InputError("no question fits these filters" if not exclude else
                             "no new question fits these filters: you have answered every one",
                             file="adjudicator quiz",
                             hint="widen them: `adjudicator topic` lists topics, `adjudicator codes` codes")
        return qs[0], None, notices
    return _guarded(go)


def quiz_review(person: str):
    """The first question to review (missed, then due), as `adjudicator quiz --review` asks them,
    its choices shuffled afresh, or None when there is nothing to review; with the notices of
    opening the progress file (a damaged one kept aside)."""
    import random

    from adjudicator.study import quiz

    def go():
        store = _store(person, create=False)
        if store is None:
            return None, []
        try:
            ids = store.review_ids()
        finally:
            store.close()
        found = quiz.review_questions(ids, 1, random.Random())
        return (found[0] if found else None), store.notices
    return _guarded(go)


def quiz_token(qid: str) -> str:
    """The question's id as the page carries it: its case file hashed (the file is named after the
    ruling it proves, so its name would give the answer away), then the kind."""
    from adjudicator.study import quiz
    case, _, kind = qid.partition("#")
    return f"{quiz.case_token(case)}#{kind}"


def quiz_question(token: str):
    """The question a page's token names, if the bank has it today: its case is looked for among
    the bank's case files by the hash, never opened from the request's words."""
    from adjudicator.study import quiz

    def go():
        root, cases = _bank_cached()
        digest, _, kind = token.partition("#")
        found_case = next((c for c in cases if quiz.case_token(c) == digest), None)
        qid = f"{found_case}#{kind}"
        if found_case is None:
            raise InputError("no such question in the bank", "the quiz", hint="draw a new question")
        found = quiz.review_questions([qid], 1)
        if not found:
            raise InputError("no such question in the bank", "the quiz", hint="draw a new question")
        return found[0]
    return _guarded(go)


def quiz_case(token: str) -> str:
    """The case a feedback's token names (`quiz.case_token`), found among the bank's files."""
    from adjudicator.study import quiz

    def go():
        root, cases = _bank_cached()
        found = next((c for c in cases if quiz.case_token(c) == token), None)
        if found is None:
            raise InputError("no such question in the bank", "the quiz", hint="draw a new question")
        return found
    return _guarded(go)


def quiz_whole_ruling(token: str) -> tuple[dict, str]:
    """The whole ruling on the incident of a question (after its answer): the ruling as
    `adjudicate --json` gives it, with its players, and the story."""
    from adjudicator.study import quiz
    case = quiz_case(token)
    return _guarded(quiz.whole_ruling_data, case)


# The question pages drawn, each by the one-time token its form carries: when it was drawn (the time
# an answer took) and, once answered, whose answer it was and its row (a second Answer is graded and
# shown, never recorded twice; the grade can then be changed). Kept in the server's memory, the
# last ANSWERED_KEPT of them.
ANSWERED_KEPT = 10_000
_answered: dict[str, tuple | None] = {}
_drawn: dict[str, float] = {}
_answered_lock = threading.Lock()
SLOWEST = 3600.0          # an answer past an hour: its time is not the question's (the page was left open)


def quiz_once() -> str:
    """A new question page's one-time token; the time it was drawn is kept."""
    import secrets
    import time
    once = secrets.token_urlsafe(12)
    with _answered_lock:
        _drawn[once] = time.monotonic()
        while len(_drawn) > ANSWERED_KEPT:
            del _drawn[next(iter(_drawn))]
    return once


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


def _seconds(once: str) -> float | None:
    import time
    with _answered_lock:
        drawn = _drawn.pop(once, None) if once else None
    if drawn is None:
        return None
    took = time.monotonic() - drawn
    return took if took <= SLOWEST else None


def quiz_answer(q, said: str | list[str], once: str = "", person: str = "") -> dict:
    """Grade an answer (the keys of the choices ticked, or a line typed as in the terminal) against
    the engine's ruling and record it in the person's progress file with the grade inferred from it
    and the time it took, once for the question page `once` names; with the feedback
    (quiz.feedback), the grade and why, when it is next due, and whether it was counted now (False:
    sent again, counted when first sent)."""
    from adjudicator.study import quiz

    def go():
        if isinstance(said, list):
            known = [k for k in said if k in q.keys]
            if said and len(known) == len(said) and (q.many or len(known) == 1):
                g = quiz.grade_keys(q, known, ", ".join(known))
            else:
                g = quiz.grade(q, " ".join(said))
        else:
            g = quiz.grade(q, said)
        if not g.understood:
            return {"understood": False}
        seconds = _seconds(once)
        counted = _first_answer(once)
        rating, why = quiz.infer_grade(q, g.right, seconds)
        store = _store(person)
        try:
            due = store.record(q, g.right, g.said, rating=rating, seconds=seconds) if counted else None
            if counted and once:
                with _answered_lock:
                    _answered[once] = (person, store.last_id)
            stats = store.stats()
        finally:
            store.close()
        return {"understood": True, "right": g.right, "due": due, "stats": stats, "counted": counted,
                "notices": store.notices, "feedback": quiz.feedback(q, g), "chosen": g.chosen,
                "rating": rating, "grade": quiz.progress_grade(rating), "why": why, "once": once}
    return _guarded(go)


def quiz_regrade(once: str, rating: int, person: str) -> dict:
    """The grade of the answer the question page `once` sent changed to `rating` (1-4): rescheduled
    as if so graded then. Only the person who answered can, and only his question's last answer."""
    from adjudicator.study import progress

    def go():
        with _answered_lock:
            found = _answered.get(once) if once else None
        if not found or found[0] != person or found[1] is None or rating not in progress.GRADES:
            raise InputError("this answer's grade cannot be changed here", "the quiz",
                             hint="change the grade on the page shown after the answer, in the same browser")
        store = _store(person)
        try:
            done = store.regrade(found[1], rating)
        finally:
            store.close()
        if done is None:
            raise InputError("this answer's grade can no longer be changed: the question has been answered since",
                             "the quiz", hint="the grade of the latest answer counts")
        due, given = done
        return {"grade": progress.GRADES[given], "due": due, "kept_again": given != rating}
    return _guarded(go)


def quiz_stats(person: str | None) -> tuple[dict, str, list[str]]:
    """`adjudicator quiz stats --json` for the person (nothing answered: no file, empty stats), with
    the progress file's place and any notice."""
    from adjudicator.study import progress

    def go():
        store = _store(person, create=False) if person else None
        if store is None:
            return progress.empty_stats(), "", []
        try:
            return store.stats(), store.path, store.notices
        finally:
            store.close()
    return _guarded(go)


def too_large() -> Refusal:
    """The refusal of an incident over the size limit, as `adjudicator adjudicate -` words it."""
    try:
        api.adjudicate(bytes(api.MAX_BYTES + 1), name=STDIN)
    except AdjudicatorError as e:
        return _refuse(e)
    raise AssertionError("an input over the limit was read")  # pragma: no cover


# --- the incident builder (interview/story.py: the same questions as `ask --game`) -----------------

def story_page(draft_token: str | None, game: str | None = None):
    """The draft an address carries (or a new one) and its next questions: (draft, step, told)."""
    from adjudicator.interview import story

    def go():
        d = story.Draft.from_token(draft_token) if draft_token else story.start(game or None)
        return d, story.next_step(d), story.told(d)
    return _guarded(go)


def story_send(fields: dict):
    """One step of the builder on the draft the form carries: (draft after it, None), or, refused,
    (the draft as it was, the step again with what was typed and the problems)."""
    from adjudicator.interview import story

    def go():
        d = _draft_of(fields)
        action = (fields.get("step") or "answer").strip()
        try:
            if action == "answer":
                return story.answer(d, fields), None
            if action == "change":
                return story.change(d, fields.get("what", "")), None
            if action == "remove":
                return story.remove(d, fields.get("what", "")), None
            if action == "more":
                return story.add_more(d, fields.get("more", "")), None
            if action == "table":            # the table and the game in one form (the page before this one)
                return story.whole_table(fields), None
            if action == "choose":
                return story.add_more(d, fields.get("event", "")), None
            if action == "add":
                d = story.add_more(d, fields.get("event", ""))
                return story.answer(d, fields), None
            if action == "undo":
                return (story.remove(d, str(len(d.events))) if d.events else d), None
        except story.Refused as e:
            return d, e.step
        raise InputError("no such step", "the incident builder", hint="start again")
    return _guarded(go)


def _draft_of(fields: dict):
    """The draft a form carries: its token (`d`), or the incident's YAML as the earlier page carried it
    (`incident`: an account told event by event, its table as written)."""
    from adjudicator.interview import builder, story
    if fields.get("d"):
        return story.Draft.from_token(fields["d"])
    text = fields.get("incident") or ""
    if not text:
        return story.start()
    return story.from_incident(builder.load(text))


def story_told(d):
    from adjudicator.interview import story
    return _guarded(lambda: (story.next_step(d), story.told(d)))


def build_step(text: str, step: str, form: dict) -> tuple[str, str | None]:
    """One step of the builder (interview/builder.py) on the incident carried by the page: its YAML
    after the step, and what happened so far told in words (None before the first event)."""
    from adjudicator.interview import builder
    return _guarded(lambda: builder.step(text, step, form))


def build_fields(name: str, text: str = "") -> list[dict]:
    """The fields of an event for the incident the page carries (its game's seats and events)."""
    from adjudicator.interview import builder
    return _guarded(lambda: builder.fields_for(name, text))
