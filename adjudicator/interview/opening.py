"""The start of `adjudicator ask` without a file: the game and a few words.

The words pick the events the account is likely to hold (matched against each event's name and
what the format says it records, among the events the game's incidents may hold); the player
chooses what happened, in order, and answers each field, the game's seats offered by number.
Nothing here knows a game or a law: the events and their fields are the incident format's one
definition (schema.py), read through the web page's builder, and each event is checked by the
same reader as `adjudicate` as soon as it is given, so a mistake is told with its fix at once.
The incident built is then the interview's (ask.py), which asks only what the ruling turns on.
"""
from __future__ import annotations

import re
from typing import Callable, TextIO

from adjudicator.core import incident, reading, registry, schema
from adjudicator.errors import InputError, safe
from adjudicator.interview import builder

SHOWN = 8          # events offered for the words
_WORD = re.compile(r"[a-z]+")
_SMALL = {"the", "a", "an", "of", "to", "in", "on", "his", "her", "he", "she", "and", "or", "it", "at", "by",
          "with", "was", "is", "be", "for", "from", "before", "after", "who", "what", "card", "cards", "player"}


# The past tenses and participles the laws' verbs take that no suffix rule finds.
_IRREGULAR = {"led": "lead", "dealt": "deal", "threw": "throw", "thrown": "throw", "took": "take",
              "taken": "take", "drew": "draw", "drawn": "draw", "shown": "show", "spoke": "speak",
              "spoken": "speak", "saw": "see", "seen": "see", "won": "win", "lost": "lose", "gave": "give",
              "given": "give", "made": "make", "held": "hold", "fell": "fall", "cutting": "cut"}


def _stem(word: str) -> str:
    """A crude stem: the irregular forms above, the endings -ing, -ed, -es, -s taken off (a doubled
    last consonant undoubled: dropped -> drop), then the first five letters (leads, leading, led ->
    'lead'; played -> 'play'; exposes, exposed -> 'expos')."""
    w = _IRREGULAR.get(word, word)
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and not w.endswith("ss") and len(w) - len(suffix) >= 3:
            w = w[:-len(suffix)]
            if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
                w = w[:-1]
            break
    return w[:5]


def _stems(text: str) -> set[str]:
    """The stems of the words that say something (not 'the', 'a', 'card' ...)."""
    return {_stem(w) for w in _WORD.findall(text.lower().replace("-", " ")) if w not in _SMALL and len(w) > 2}


def matching_events(game: str, words: str) -> list[tuple[str, str]]:
    """The game's events best matching the words, best first: (name, what it records)."""
    want = _stems(words)
    scored = []
    for order, ev in enumerate(schema.EVENTS.values()):
        if not builder._allowed(game, ev.name):
            continue
        name_hits = len(want & _stems(ev.name))
        doc_hits = len(want & _stems(ev.doc + " " + " ".join(f.doc for f in ev.fields)))
        if name_hits or doc_hits:
            scored.append((-(3 * name_hits + doc_hits), order, ev.name, ev.doc))
    return [(name, doc) for _s, _o, name, doc in sorted(scored)[:SHOWN]]


AGAIN = object()       # what a parser gives for an answer it cannot read
STOP_HINT = ("answer each question on a line of its own: the number of a choice, or 0 or ? for \"I don't know\" "
             f"(at most {reading.MAX_ANSWER} bytes)")


class Prompt:
    """Questions and answers on a terminal, a pipe or an answers file. `read()` gives one answer's
    line (reading.read_answer: None at the end of input; LongAnswer past the bound), so every
    answer is read with the quiz's bound: a line without end, or reading.MAX_TRIES answers in a
    row that cannot be read, stop the interview (exit 2)."""

    def __init__(self, read: Callable[[], str | None], out: TextIO, echo: bool):
        self.read, self.out, self.echo = read, out, echo
        self.ended = False
        self.long = False            # the last line was longer than reading.MAX_ANSWER

    def say(self, s: str = "") -> None:
        print(s, file=self.out, flush=True)

    def line(self) -> str:
        self.out.write("> ")
        self.out.flush()
        self.long = False
        try:
            got = self.read()
        except reading.LongAnswer as e:
            if e.endless:
                self.say("")
                raise InputError(f"the interview stops: {reading.endless(e.start)}", "adjudicator ask",
                                 hint=STOP_HINT) from None
            got, self.long = e.start, True
        if got is None:
            self.ended = True
            self.say("")
            return ""
        if self.echo:                            # an answer from a file, shown escaped
            self.out.write(safe(got, 200) + "\n")
        return got.strip()

    def answer(self, parse: Callable[[str], object], again: Callable[[str], str]):
        """parse(line) of the first line it can read (AGAIN: it cannot), `again(line)` said after each
        it cannot; None at the end of input (self.ended). reading.MAX_TRIES in a row stop the interview."""
        tries = 0
        while True:
            got = self.line()
            if self.ended:
                return None
            value = AGAIN if self.long else parse(got)
            if value is not AGAIN:
                return value
            tries += 1
            if self.long:
                self.say(f"  That answer is longer than {reading.MAX_ANSWER} bytes.")
            self.say(again(got))
            if tries >= reading.MAX_TRIES:
                raise InputError(f"the interview stops: {reading.unreadable('to one question', got)}",
                                 "adjudicator ask", hint=STOP_HINT)

    def pick(self, options: list[str], none: str | None) -> int | None:
        """The number of an option (0-based), or None for the `none` answer (0) or the input's end."""
        def parse(got: str):
            if none and reading.chosen_number(got, 0, 0) == 0:
                return None
            number = reading.chosen_number(got, 1, len(options))
            if number is not None:
                return number - 1
            hits = [i for i, o in enumerate(options) if o.lower().startswith(got.lower())] if got else []
            return hits[0] if len(hits) == 1 else AGAIN
        return self.answer(parse, lambda _got: f"  Please answer 1-{len(options)}"
                           + (f", or 0 for {none}." if none else "."))


# --------------------------------------------------------------------------------------------
# The dispute told in the terminal: story.py's questions, one by one
# --------------------------------------------------------------------------------------------
def _options_line(q) -> list[str]:
    return [f"    {i}. {w}" for i, (_v, w) in enumerate(q.options, start=1)]


def _say_question(p: Prompt, q, d) -> None:
    p.say(f"{q.text}")
    if q.kind in ("seat", "choice", "wrong", "event", "suit") and q.options:
        if q.kind in ("seat", "suit") and len(q.options) <= 8:
            p.say("    " + "   ".join(f"{i}. {w}" for i, (_v, w) in enumerate(q.options, start=1)))
        else:
            for line in _options_line(q):
                p.say(line)
    extra = []
    if q.kind == "seat":
        extra.append("a number, the seat or the name")
    elif q.kind == "card":
        extra.append("e.g. king of spades, KS or K\u2660")
    elif q.kind == "cards":
        extra.append("the cards, e.g. AH KH QH 10S")
    elif q.kind == "yesno":
        extra.append("yes or no")
    elif q.hint and q.kind not in ("choice", "wrong", "event"):
        extra.append(q.hint)
    if q.dont_know:
        extra.append("\u201cdon't know\u201d if nobody knows")
    if not q.required:
        extra.append("Enter to leave it")
    if q.value:
        extra.append(f"Enter keeps \u201c{q.value}\u201d")
    if extra:
        p.say("  (" + "; ".join(extra) + ")")


def _ask_one(p: Prompt, q, d, step_name: str):
    """One question's answer, read as people say it and checked at once (story._read): a line it
    cannot read is said why and asked again, reading.MAX_TRIES in a row stop the interview."""
    from adjudicator.interview import story
    _say_question(p, q, d)
    tries = 0
    while True:
        got = p.line()
        if p.ended:
            return None
        if p.long:
            problem = f"that answer is longer than {reading.MAX_ANSWER} bytes"
        else:
            if got == "" and q.value:
                return q.value
            try:
                v = story._read(q, got, d)
                if v is None and q.required:
                    raise ValueError("this one must be answered" + (": if nobody knows, say \u201cdon't know\u201d"
                                                                   if q.dont_know else ""))
                if q.kind in ("seat", "choice", "wrong", "event", "suit", "card") and isinstance(v, str):
                    return v            # (the choice as read here: its number is the list's as shown)
                return got
            except ValueError as e:
                problem = str(e)
        tries += 1
        p.say(f"  {problem[:1].upper()}{problem[1:]}. Again:")
        if tries >= reading.MAX_TRIES:
            raise InputError(f"the interview stops: {reading.unreadable('to one question', got)}",
                             "adjudicator ask", hint=STOP_HINT)


def draft_path(game: str) -> str:
    """Where the terminal keeps the account being told (ADJUDICATOR_DATA_DIR, else the user's data
    folder), so that a closed terminal loses nothing: `ask --game GAME` offers to go on with it."""
    import os
    folder = os.environ.get("ADJUDICATOR_DATA_DIR")
    if not folder:
        import platformdirs
        folder = platformdirs.user_data_dir("adjudicator", appauthor=False)
    return os.path.join(folder, f"ask-draft-{game}.json")


def _save_draft(d) -> None:
    import json
    import os
    path = draft_path(d.game)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        reading.write_replacing(path, json.dumps(d.to_json(), ensure_ascii=False), lambda what: OSError(what))
    except OSError:
        pass            # (a draft that cannot be kept costs nothing of the interview itself)


def forget_draft(game: str) -> None:
    import os
    try:
        os.unlink(draft_path(game))
    except OSError:
        pass


def _resumed(p: Prompt, game: str):
    """The draft kept from a terminal closed in the middle of telling, if the player goes on with it."""
    import json
    from adjudicator.interview import story
    try:
        with open(draft_path(game), encoding="utf-8") as fh:
            d = story.Draft.from_json(json.load(fh))
    except (OSError, ValueError, InputError):
        return None
    if d.game != game or not (d.events or d.wrong):
        return None
    said = story.told(d)
    p.say(f"You were telling a {game.replace('-', ' ')} dispute:")
    for line in said["table"] + said["events"]:
        p.say(f"  {line}")
    p.say("Go on with it? (yes, or no to start again)")
    got = p.line()
    if p.ended:
        return None
    return d if words_yes(got) else None


def words_yes(got: str) -> bool:
    from adjudicator.interview import words as w
    return w.yes_no(got) is True or got.strip() == "1"


def _rank_wrongs(q, game: str, said: str) -> None:
    """The names of what went wrong, those the player's words match first."""
    from adjudicator.interview import irregularities as irr
    want = _stems(said)
    if not want:
        return False

    def score(opt):
        w = irr.BY_KEY.get(opt[0])
        if w is None:
            return 0
        return 3 * len(want & _stems(w.name)) + len(want & _stems(w.also))
    ranked = sorted(enumerate(q.options), key=lambda io: (-score(io[1]), io[0]))
    q.options = [o for _i, o in ranked]
    return any(score(o) for o in q.options)


def _review(p: Prompt, d, game: str):
    """The review: everything told, numbered; Enter rules on it, a number changes that step,
    "remove N" takes an event out, words tell something more. Returns the draft after it, or None
    to rule."""
    from adjudicator.interview import story
    said = story.told(d)
    p.say("")
    p.say("Here is what you told me:")
    p.say(f"  1. {' '.join(said['table']) or 'The table: nothing said of it.'}")
    for i, e in enumerate(said["events"], start=2):
        p.say(f"  {i}. {e}")
    p.say("Enter to rule on it. A number to change that step; \u201cremove 3\u201d to take an event out; or say "
          "in a few words what else happened.")
    tries = 0
    while True:
        got = p.line()
        if p.ended or got.strip().lower() in ("", "0", "rule", "no", "n", "done", "nothing", "nothing more", "that's all"):
            return None
        m = re.fullmatch(r"(?:remove|delete|take out|r)\s*(\d+)", got.strip().lower())
        try:
            if m:
                n = int(m.group(1))
                if n < 2:
                    raise InputError("the table cannot be taken out; change it instead (its number, 1)", "ask")
                return story.remove(d, f"event:{n - 1}")
            if re.fullmatch(r"\d+", got.strip()):
                n = int(got.strip())
                if n == 1:
                    return story.change(d, "table")
                return story.change(d, f"event:{n - 1}")
            found = matching_events(game, got)
            if not found:
                raise InputError(f"nothing of {game} matches \u201c{safe(got, 60)}\u201d: try other words", "ask")
            p.say("Which is it?")
            for i, (name, _doc) in enumerate(found, start=1):
                p.say(f"    {i}. {story.event_words(name)}")
            p.say("    0. none of these")
            chosen = p.pick([n for n, _d in found], "none of these")
            if chosen is None:
                p.say("Enter to rule on it, a number to change a step, or other words:")
                continue
            return story.add_more(d, found[chosen][0])
        except InputError as e:
            tries += 1
            p.say(f"  {e.message[:1].upper()}{e.message[1:]}. Again:")
        except story.Refused as e:
            tries += 1
            p.say("  That cannot be: " + "; ".join(e.step.problems or [str(e)]) + ". Again:")
        if tries >= reading.MAX_TRIES:
            raise InputError(f"the interview stops: {reading.unreadable('at the review', got)}", "adjudicator ask",
                             hint=STOP_HINT)


def build(game: str, said: str, p: Prompt) -> dict:
    """The incident (as the format's mapping) told in answer to story.py's questions: what went
    wrong (the player's words order the names), the table once, each event's few facts, the review.
    The draft is kept after every step (draft_path) and offered again if the terminal closes."""
    from adjudicator.interview import story
    game = builder.game_named(game, "adjudicator ask --game")
    d = _resumed(p, game) or story.start(game)
    p.say(f"{game.replace('-', ' ').capitalize()}: tell me what went wrong. Answer in words or by number; "
          "\u201cdon't know\u201d when nobody knows.")
    refused = 0
    typed: dict = {}            # a step refused: what was typed, kept (Enter keeps it)
    while not p.ended:
        step = story.next_step(d)
        for q in step.questions:
            if typed.get(q.id):
                q.value = typed[q.id]
        if step.kind == "review":
            after = _review(p, d, game)
            if after is None:
                break
            d = after
            _save_draft(d)
            continue
        p.say("")
        p.say(f"[{step.progress}] {step.title}")
        if step.kind == "wrong" and not _rank_wrongs(step.questions[0], game, said) and said.strip():
            p.say(f"No event of {game} matches \"{safe(said, 60)}\"; here are all of them.")
        form = {}
        for q in step.questions:
            cond = getattr(q, "when", ())
            if cond and form.get(f"f_{cond[0]}") is not None:
                chosen = story._read(next(x for x in step.questions if x.id == f"f_{cond[0]}"),
                                     form[f"f_{cond[0]}"], d) if form.get(f"f_{cond[0]}") else None
                if chosen not in cond[1]:
                    continue
            q.text = story.refill(d, q, form)
            got = _ask_one(p, q, d, step.title)
            if p.ended:
                if step.kind == "wrong":
                    break
                raise InputError(f"the answers ended in the middle of telling \u201c{step.title}\u201d, at the "
                                 f"question \u201c{q.text}\u201d: no ruling is drawn from an account cut short",
                                 "adjudicator ask",
                                 hint="answer every question of a step; at the review, Enter rules on it")
            form[q.id] = got
        if p.ended:
            break
        try:
            d = story.answer(d, form)
        except story.Refused as e:
            refused += 1
            for q in e.step.questions:
                if q.error:
                    p.say(f"  {q.text} \u2014 {q.error}.")
            for problem in e.step.problems:
                p.say(f"  That cannot be: {problem}.")
            p.say("  Tell it again (what you typed is kept: Enter keeps it).")
            if refused >= reading.MAX_TRIES:
                raise InputError(f"the interview stops: {reading.MAX_TRIES} steps in a row could not be taken "
                                 f"(the last: {str(e)[:200]})", "adjudicator ask", hint=STOP_HINT) from None
            typed = {q.id: form.get(q.id, "") for q in e.step.questions if not q.error}
            continue
        refused, typed = 0, {}
        _save_draft(d)
    if not d.events:
        raise InputError("nothing happened to rule on: no event was given", "adjudicator ask",
                         hint="say what went wrong, or give an incident file")
    return story.incident_of(d)

