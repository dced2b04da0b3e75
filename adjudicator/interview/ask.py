"""`adjudicator ask`: a guided interview that asks only what the ruling turns on.

It starts from an incident file whose facts are incomplete: the facts listed under `unknown`,
or, when it lists none, the facts an account commonly leaves out (whether a player who renounced
held the suit led; a yes-or-no field of an event left unsaid). Nothing here knows a game: the
questions are the unknown facts, and which to ask comes from the rules. The incident is grounded
once (unknowns.Space); before each question the remaining unknowns are weighed under the answers
so far, by brave and cautious consequences under assumptions, and only one whose alternatives
give different consequences is asked, the most decisive first (the one settling the ruling on
most of its alternatives). Its reason cites the laws whose rulings differ between its answers.
"I don't know" is always an answer. At the end the incident with the answers is saved and the
ruling on it printed: what `adjudicate` gives on the saved file, citing the lines of the file the
user wrote. The file is read by `adjudicate`'s reader and checked as `adjudicate` checks it: an
account that contradicts itself is refused before any question, with `adjudicate`'s message.
"""
from __future__ import annotations

import os
from typing import Callable, TextIO

import yaml

from adjudicator.core import cases, incident, reading, render, ruling, schema, unknowns
from adjudicator.errors import InconsistentIncident, InputError, safe

DONT_KNOW = ("?", "0", "d", "dk", "don't know", "dont know", "i don't know", "i dont know", "unknown", "")


# Yes-or-no fields that say how the account is to be read, not a fact it leaves unsaid: a lead
# `again` is a second card led to the trick in progress (who may lead again is for the account to
# say), never a question to put to the players.
_NOT_ASKED = {("lead", "again")}


def candidates(inc: incident.Incident) -> list[dict]:
    """Unknown facts to consider when the incident names none: a renounce whose holding is not
    given, and yes-or-no fields an event leaves unsaid. The rules then say which matter.

    At most one for each event, as the format allows (`unknown`: each event the subject of one
    entry; the entries not answered are saved under it): the first the event leaves unsaid, the
    holding of a renounce before its yes-or-no fields, these in the format's order (a deal's
    `uncut` before its `out-of-turn`)."""
    out: list[dict] = []
    for ev in inc.events:
        spec = schema.EVENTS[ev.name]
        unsaid = (["holding"] if ev.name == "renounce" and "holding" not in ev.fields and "void" not in ev.fields
                  else [])
        unsaid += [f.name for f in spec.fields
                   if f.type == "bool" and f.name not in ev.fields and (ev.name, f.name) not in _NOT_ASKED
                   and incident.field_of_game(ev.name, f.name, inc.game)]
        if unsaid:
            out.append({"event": ev.index, "field": unsaid[0]})
    return out[: unknowns.MAX_UNKNOWNS]


def _entries(found: list[dict], inc: incident.Incident) -> incident.Y:
    """The `unknown` entries the interview adds, as the reader gives an incident's own: each at
    the line of its event in the file the user wrote (the questions cite it)."""
    def y(value, line):
        if isinstance(value, dict):
            out = incident.Y({k: y(v, line) for k, v in value.items()}, line, 1)
            out.keys = {k: incident.Y(k, line, 1) for k in value}
            return out
        return incident.Y(value, line, 1)
    first = inc.events[0].line if inc.events else 1
    return incident.Y([y(e, inc.events[e["event"] - 1].line) for e in found], first, 1)


def dump(data: dict) -> str:
    """The incident as saved: YAML that the reader reads back as these values (text that would
    read as something else, `Off`, `007`, `1:30`, `~`, is quoted)."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _laws(space: unknowns.Space, per) -> list[str]:
    """The laws of the ruling atoms that differ between an unknown's alternatives."""
    braves = [p[1] for p in per if p is not None]
    if not braves:
        return []
    common = frozenset.intersection(*braves)
    differ = frozenset.union(*braves) - common
    laws = {s.arguments[1].string for s in differ if s.name == "r_law"}
    if not laws:
        laws = {s.arguments[1].string for s in differ if s.name == "finding"}
    return sorted(laws, key=ruling.law_key)


class Interview:
    """The state of one interview: the grounded incident, the answers, what was asked."""

    def __init__(self, path: str, given: bytes | None = None):
        text, name = incident.read_source(path, given)     # given: path '-', these bytes (the web page)
        self.path = name
        # Read as `adjudicate` reads it: its messages for a bad file, and its values (YAML 1.2 core:
        # a player named Off or No stays that text). The plain data the answers are written into
        # comes from the same reader, never from another YAML loader.
        inc = incident.parse(text, name)
        self.data = cases.plain(incident.load_text(text, name))
        told_unknowns = unknowns.has_unknowns(inc)
        self.added = False          # the facts asked about are the interview's, not the account's
        if not told_unknowns:
            # An account that contradicts itself is refused before any question, as adjudicate
            # refuses it (its message, the user's file and lines), not after an interview on it.
            from adjudicator.core import engine
            ruling.build(inc, engine.solve(inc))
            found = candidates(inc)
            if found:
                self.added = True
                self.data["unknown"] = found
                inc.unknown = _entries(found, inc)
        self.data.pop("name", None)
        self.data.pop("expected", None)
        self.inc = inc
        self.space = unknowns.Space(inc)
        if told_unknowns and self.space.contradicts_itself():
            unknowns.conditional(inc, self.space)     # whatever the facts: refused as adjudicate refuses it
        self.answers: dict[int, int] = {}
        self.unknown: set[int] = set()          # answered "I don't know"
        self.asked: list[tuple[int, list[str]]] = []

    def next_question(self):
        """(unknown index, laws) of the most decisive relevant question, or None when nothing
        left to ask can change the ruling."""
        self.space.renew()
        cons = self.space.consequences(self.answers)
        if cons is None or cons[0] == cons[1]:
            return None
        remaining = [i for i in range(len(self.space.unknowns)) if i not in self.answers and i not in self.unknown]
        # (a fact whose answers differ only in whether the account can be at all, every possible one
        # giving the same ruling, is no question the ruling turns on: "did his call complete an
        # earlier one?" of a first call)
        relevant = [(ui, per) for ui, per in self.space.split(self.answers, remaining)
                    if len({p for p in per if self.space.can_be(p)}) > 1]
        if not relevant:
            return None
        ui, per = relevant[0]
        self.remaining = len(relevant)
        return ui, _laws(self.space, per)

    def answer(self, ui: int, ai: int | None) -> None:
        if ai is None:
            self.unknown.add(ui)
        else:
            self.answers[ui] = ai

    def completed(self) -> dict:
        """The incident with the answers written in. The facts the account itself left unknown stay
        under `unknown`; of those the interview added (candidates), only the ones answered "I don't
        know": a fact never asked cannot change the ruling, and no one said it was not known."""
        out = unknowns.complete(self.data, self.space.unknowns, self.answers)
        if self.added:
            kept = [dict(u.spec) for ui, u in enumerate(self.space.unknowns) if ui in self.unknown]
            if kept:
                out["unknown"] = kept
            else:
                out.pop("unknown", None)
        return out

    def progress(self) -> str:
        """"Question 2 of about 3": the questions asked, and those that can still change the ruling."""
        n = len(self.asked) + 1
        return f"Question {n} of about {max(n, len(self.asked) + getattr(self, 'remaining', 1))}"

    def as_told(self, saved: incident.Incident) -> incident.Incident:
        """The completed incident as read back from the saved file, citing the file the user wrote
        and its lines (each event the line it was written at, wherever an answer about the order
        put it; the top-level keys and hands theirs), never the lines of the saved copy."""
        lines = [ev.line for ev in self.inc.events]
        for ui, ai in self.answers.items():          # as unknowns.complete swaps them
            u = self.space.unknowns[ui]
            if u.kind == "order" and u.alternatives[ai].value == [u.events[1], u.events[0]]:
                a, b = u.events
                lines[a - 1], lines[b - 1] = lines[b - 1], lines[a - 1]
        for ev, line in zip(saved.events, lines):
            ev.line = line
        saved.file = self.path
        saved.key_lines = {k: v for k, v in self.inc.key_lines.items() if k in saved.key_lines}
        saved.hand_lines = dict(self.inc.hand_lines)
        return saved

    def refused(self, e: InconsistentIncident) -> InconsistentIncident:
        """A contradiction the answers brought: the problems (at the user's lines) and the answers."""
        said = [f"with the answer \"{self.space.unknowns[ui].alternatives[ai].label}\" to the question: "
                f"{question_words(self.inc, self.space.unknowns[ui])}" for ui, ai in sorted(self.answers.items())]
        return InconsistentIncident(self.path, e.problems + said)


def _yes_or_no(inc: incident.Incident, u: unknowns.Unknown) -> tuple[int, int] | None:
    """The alternatives "yes" and "no" choose, for a question they answer: "Did East hold a spade
    at the renounce?", its two alternatives that he held the suit and that he did not (the one
    left out of the file); else None. Never "Which came first: A or B?" nor "Who did the demand?":
    a yes there was taken for the first alternative (A came first, it was Dodd), a no for the
    second. (A yes-or-no field's alternatives are themselves "yes" and "no", read by their words.)"""
    if u.kind != "field" or len(u.alternatives) != 2 or not u.events:
        return None
    spec = schema.EVENTS[inc.events[u.events[0] - 1].name].field(u.field)
    held = [i for i, a in enumerate(u.alternatives) if a.value is not None]
    if spec is None or spec.type != "holding" or len(held) != 1:
        return None
    return held[0], 1 - held[0]


def _parse_answer(line: str, alts: list, yes_or_no: tuple[int, int] | None = None) -> int | None | str:
    """The alternative's index, None for "I don't know", or "again" when not understood. "yes" and
    "no" answer a question that they answer (`yes_or_no`: the alternatives they choose, _yes_or_no),
    and no other."""
    from adjudicator.interview import words
    # "I don’t know" as a phone or a word processor types it: the typographic apostrophe is the
    # prompt's own (it was asked again); "not sure", "no idea" as people say it
    s = line.strip().lower().rstrip(".").replace("\u2019", "'").replace("\u02bc", "'")
    if s in DONT_KNOW or words.is_dont_know(s):
        return None
    number = reading.chosen_number(s, 1, len(alts))
    if number is not None:
        return number - 1
    words = [a.label.lower() for a in alts]
    hits = [i for i, w in enumerate(words) if w.startswith(s) or s == w]
    if len(hits) == 1:
        return hits[0]
    if s in ("y", "yes") and yes_or_no:
        return yes_or_no[0]
    if s in ("n", "no") and yes_or_no:
        return yes_or_no[1]
    return "again"


def save_refusal(target: str):
    """What refuses a file --save cannot be: the file named short and escaped, and the fix."""
    def refuse(what: str) -> InputError:
        return InputError(f"cannot save the incident: {reading.path_quoted(target)} {what}", "adjudicator ask --save",
                          hint="name a new file, or a regular file to replace, in a folder that exists (--save FILE)")
    return refuse


def check_save(target: str) -> None:
    """The file --save names, checked before any question: a file that can be written
    (reading.check_writable), and never `-`, which names standard output, not a file: it was
    written as a file named '-', then read back from standard input, and the interview ended
    refused, "<stdin>:1:1: the file is empty" (from a game, the interview was on standard input)."""
    if target == "-":
        raise InputError("cannot save the incident to '-': that names standard output, not a file",
                         "adjudicator ask --save",
                         hint="name a file (--save FILE; ./- for a file called '-'), or leave --save out "
                              "(FILE-answered.yaml here, incident-answered.yaml from --game)")
    reading.check_writable(target, save_refusal(target))


def _save(target: str, text: str) -> None:
    """Write the incident to `target`: a regular file or a new one, written beside it and put in its
    place (reading.write_replacing: a write that fails is said as the save's, and leaves what was
    there whole), as the quiz writes its sheets."""
    reading.write_replacing(target, text, save_refusal(target))


def run(path: str, save: str | None, read: Callable[[], str | None], out: TextIO,
        echo: bool = False, on_saved: Callable[[str], None] | None = None, in_words: bool = False) -> dict:
    """Interview, save, and return what was done: the file, each question asked with the answer
    given, the file saved and the ruling (`ask --json`). `read()` gives one answer's line, read with
    the bound of reading.read_answer; `echo` repeats each answer read (from a file or a pipe, which
    the terminal does not show); `on_saved(file)` is told once the incident is saved, so that an
    output failing after it (a full disk, a reader gone) is said with the file saved."""
    from adjudicator.interview.opening import AGAIN, Prompt   # the same prompt as the opening's (it echoes an answer escaped)
    iv = Interview(path, incident.read_stdin() if path == "-" else None)   # '-': the answers come from --answers
    target = save if save is not None else _default_save(iv.path)    # (`--save ''` is refused, not the default)
    check_save(target)      # before any question, not after the interview
    prompt = Prompt(read, out, echo)
    say = prompt.say
    told = _in_events(iv.inc) if in_words else (lambda text: text)
    if in_words and not iv.added:
        # told in answer to the builder's questions: what the player said nobody knows is not asked again
        iv.unknown = set(range(len(iv.space.unknowns)))
    say(f"{iv.inc.game} -- {iv.path}")
    say("I ask only what the ruling turns on. Answer with the number; 0 or ? for \"I don't know\".")
    asked = []
    while True:
        q = iv.next_question()
        if q is None:
            break
        ui, laws = q
        u = iv.space.unknowns[ui]
        say("")
        say(f"[{iv.progress()}]")
        say(told(question_words(iv.inc, u, cite=not in_words)))
        if laws:
            say(f"  (I ask because {render.laws_tag(laws)} turn{'s' if len(laws) == 1 else ''} on it.)")
        for i, a in enumerate(u.alternatives, start=1):
            say(f"  {i}. {a.label[:1].upper()}{a.label[1:]}")
        say("  0. I don't know")

        def parse(line: str, alts=u.alternatives, yes_or_no=_yes_or_no(iv.inc, u)):
            got = _parse_answer(line, alts, yes_or_no)
            return AGAIN if got == "again" else got
        got = prompt.answer(parse, lambda _line, n=len(u.alternatives):
                            f"  Please answer 1-{n}, or 0 for \"I don't know\".")
        iv.asked.append((ui, laws))
        iv.answer(ui, got)
        asked.append({"id": u.id, "question": told(question_words(iv.inc, u, cite=not in_words)), "laws": laws,
                      "alternatives": [a.label for a in u.alternatives],
                      "answer": None if got is None else u.alternatives[got].label})
        if prompt.ended:                         # end of input: nothing more is known
            break
    data = iv.completed()
    _save(target, "# Built by `adjudicator ask`; `adjudicator adjudicate` rules on it again.\n" + dump(data))
    if on_saved is not None:
        on_saved(target)
    saved = iv.as_told(incident.load(target))    # the saved file as adjudicate reads it, at the user's lines
    shown = _lines_in_words(saved) if in_words else (lambda r: r)
    try:
        if unknowns.has_unknowns(saved):
            result = unknowns.conditional(saved)
            told = unknowns.text(shown(result), saved.players)
        else:
            from adjudicator.core import engine, narrator
            result = ruling.build(saved, engine.solve(saved))
            told = render.ruling_text(shown(result), saved.players)
            result["story"] = narrator.tell(saved)     # as `adjudicate --json` gives it
    except InconsistentIncident as e:
        raise iv.refused(e) from None
    say("")
    say(told.rstrip("\n"))
    say("")
    say(f"Saved the incident to {safe(target)}.")
    return {"file": iv.path, "questions": asked, "saved": target, "ruling": result}


# The questions about a yes-or-no fact an account leaves unsaid, in a sentence (`{told}`: the event
# as the story tells it); any other is asked "When ...: was it so that <the format's words>?".
_YES_OR_NO = {
    ("lead", "winning"): "When {told}, was the card better than any card the adversaries held of its suit?",
    ("deal", "uncut"): "When {told}, had the pack been left uncut?",
    ("deal", "out-of-turn"): "When {told}, was it out of his turn?",
    ("shuffle", "below-table"): "When {told}, did he shuffle below the table?",
    ("turn-trump", "face-down"): "When {told}, did he place the trump card face downward?",
    ("faced-in-pack", "last"): "When {told}, was it the last card, the trump card?",
    ("interrupt", "upheld"): "When {told}, was his claim proved right?",
    ("examine", "proves"): "When {told}, did the examination prove the revoke?",
    ("cut", "confusion"): "When {told}, were the cards confused, or was it doubtful where the pack was separated?",
    ("expose", "among-last"): "When {told}, was it one of the last cards dealt?",
}


def question_words(inc: incident.Incident, u: unknowns.Unknown, cite: bool = True) -> str:
    """The interview's question in a sentence: a yes-or-no fact left unsaid is asked of the event as
    the story tells it ("When East leads the king of spades, was the card better than any card the
    adversaries held of its suit?"), never by the field's name and its definition."""
    if u.kind != "field" or not u.events:
        return u.question
    ev = inc.events[u.events[0] - 1]
    spec = schema.EVENTS[ev.name].field(u.field)
    if spec is None or spec.type != "bool":
        return u.question
    from adjudicator.core import narrator
    teller = narrator.Narrator(inc)
    teller.setting()
    said = ""
    for e in inc.events:
        t = teller.event(e).rstrip(".")
        if e is ev:
            said = t
    said = said[:1].lower() + said[1:] if said.split(" ", 1)[0] in ("The", "A", "An") else said
    if cite:           # (which event of the account, as the other questions say it; never a line)
        said += f" (the {_ordinal(u.events[0])} event)"
    template = _YES_OR_NO.get((ev.name, u.field))
    if template is None:
        import re as _re
        doc = _re.sub(r"`([^`]*)`", r"\1", spec.doc).split(" (")[0]
        template = "When {told}, was it so that " + doc + "?"
    return template.format(told=said)


def _lines_in_words(inc: incident.Incident):
    """The ruling with each "at line N" of a file the player never wrote said as the event it is
    ("when Clark plays the two of diamonds"): an account told in answer to questions."""
    import re as _re

    from adjudicator.core import narrator
    teller = narrator.Narrator(inc)
    teller.setting()
    told = {ev.line: teller.event(ev).rstrip(".") for ev in inc.events}
    told = {k: (v[:1].lower() + v[1:] if v.split(" ", 1)[0] in ("The", "A", "An") else v) for k, v in told.items()}
    pattern = _re.compile(r"\b(?:at|on) lines? (\d+)(?:-\d+)?|\(lines? (\d+)(?:-\d+)?\)|\blines? (\d+)")

    def one(m):
        line = int(m.group(1) or m.group(2) or m.group(3))
        t = told.get(line)
        if t is None:
            return m.group(0)
        return f"when {t}" if m.group(1) or m.group(3) else f"(when {t})"

    def walk(x):
        if isinstance(x, str):
            return pattern.sub(one, x)
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        return x
    return walk


def _default_save(path: str) -> str:
    if path in ("-", "<stdin>"):
        return "incident-answered.yaml"
    base, _ = os.path.splitext(os.path.basename(path))
    return base + "-answered.yaml"


def run_from_game(game: str, words: str, save: str | None, read: Callable[[], str | None], out: TextIO,
                  echo: bool = False, on_saved: Callable[[str], None] | None = None) -> dict:
    """Build the incident from the game and a few words (opening.py), save it, and interview on it."""
    from adjudicator.interview import opening
    target = save if save is not None else "incident-answered.yaml"
    check_save(target)     # before any question
    p = opening.Prompt(read, out, echo)
    data = opening.build(game, words, p)
    _save(target, dump(data))
    out.write("\n")
    done = run(target, target, read, out, echo=echo, on_saved=on_saved, in_words=True)
    opening.forget_draft(data["game"])         # ruled: the account told is the saved file now
    return done


# --------------------------------------------------------------------------------------------
# The interview one question a page (the web page's /ask)
# --------------------------------------------------------------------------------------------
PAGE_DONT_KNOW = "?"      # the token a page sends for "I don't know"


def _answer_token(token: str, ui: int, n_alts: int) -> int | None:
    """An answer the page sent back: 'U:A' (alternative A of unknown U) or 'U:?' (I don't know)."""
    u, _, a = token.partition(":")
    # (reading.chosen_number: ASCII digits only; '²' was a 500, '١' taken for 1)
    if reading.chosen_number(u, ui, ui) is None:
        raise InputError("the answers sent do not fit the questions of this incident", "the interview",
                         hint="start the interview again from the incident")
    if a == PAGE_DONT_KNOW:
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


def step(data: bytes, answers: list[str]) -> dict:
    """One step of the interview on an incident given as bytes (the web page's, one question a
    page), the answers so far replayed in order: each answer 'U:A' (alternative A of unknown U) or
    'U:?' (I don't know).

    Returns {"asked": [{question, answer}], "question": {...} | None, "incident": YAML | None}:
    the next question (the most decisive one still open, with the laws turning on it), or, when
    nothing left can change the ruling, the incident with the answers written in, as `ask` saves it.
    The questions cite their events as the story tells them, not the lines `ask` cites (_in_events).
    """
    iv = Interview("-", data)
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
        asked.append({"question": said(question_words(iv.inc, u, cite=False)), "laws": laws,
                      "answer": "I don't know" if ai is None else u.alternatives[ai].label})
    q = iv.next_question()
    if q is not None:
        ui, laws = q
        u = iv.space.unknowns[ui]
        from adjudicator.core import narrator
        return {"game": iv.inc.game, "asked": asked, "incident": None, "story": narrator.tell(iv.inc),
                "question": {"unknown": ui, "text": said(question_words(iv.inc, u, cite=False)), "laws": laws, "code": iv.inc.code,
                             "alternatives": [a.label for a in u.alternatives], "progress": iv.progress()}}
    built = ("# Built by the interview of `adjudicator serve`; `adjudicator adjudicate` rules on it again.\n"
             + yaml.safe_dump(iv.completed(), sort_keys=False, allow_unicode=True))
    return {"game": iv.inc.game, "asked": asked, "question": None, "incident": built}
