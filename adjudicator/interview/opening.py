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


def _ask_field(p: Prompt, spec: dict, game: str) -> str:
    """One field's answer as the builder's form takes it: '' to leave it out, '?' for unknown."""
    table = registry.table(game)
    need = "" if spec["required"] else " (Enter to leave it out)"
    p.say(f"  {spec['name']}: {spec['doc']}{need}")
    if spec["widget"] == "select":
        labels = [f"{o} ({table.word(o)})" if o in table.seats else o for o in spec["options"]]
        for i, label in enumerate(labels, start=1):
            p.say(f"    {i}. {label}")
        if spec["dont_know"]:
            p.say("    ?. I don't know")

        def parse(got: str):
            if got == "?" and spec["dont_know"]:
                return "?"
            if got == "" and not spec["required"]:
                return ""
            number = reading.chosen_number(got, 1, len(labels))
            if number is not None:
                return spec["options"][number - 1]
            return got if got in spec["options"] else AGAIN
        got = p.answer(parse, lambda _got: f"    Please answer 1-{len(labels)}"
                       + ("" if spec["required"] else ", or Enter to leave it out")
                       + (", or ? for \"I don't know\"." if spec["dont_know"] else "."))
        return "" if p.ended else got
    got = p.answer(lambda got: got if got or not spec["required"] else AGAIN,
                   lambda _got: f"    {spec['name']} is needed: {spec['type_doc'] or spec['doc']}")
    return "" if p.ended else got


def build(game: str, words: str, p: Prompt) -> dict:
    """The incident (as the format's mapping) from the game, the words and the answers."""
    game = builder.game_named(game, "adjudicator ask --game")
    table = registry.table(game)
    data = builder.table({"game": game})
    p.say(f"{game}: tell me what happened, one event at a time.")
    if len(table.seats) > 2 and "dealer" in schema.TOP_KEYS:
        p.say("")
        p.say("Who dealt this hand?")
        for i, s in enumerate(table.seats, start=1):
            p.say(f"  {i}. {s} ({table.word(s)})")
        d = p.pick(list(table.seats), "I don't know")
        if d is not None:
            data["dealer"] = table.seats[d]
    offered = matching_events(game, words)
    if not offered:
        p.say("")
        p.say(f"No event of {game} matches \"{safe(words, 60)}\"; here are all of them.")
        offered = [(n, doc) for _g, evs in builder.event_groups(game) for n, doc in evs]
    refused = 0
    while not p.ended:
        p.say("")
        p.say("What happened " + ("first?" if not data["events"] else "next?"))
        for i, (name, doc) in enumerate(offered, start=1):
            p.say(f"  {i}. {name}: {doc}")
        p.say("  0. Nothing more")
        chosen = p.pick([n for n, _d in offered], "nothing more")
        if chosen is None:
            break
        name = offered[chosen][0]
        form = {}
        for spec in builder.fields_of(name, game):
            got = _ask_field(p, spec, game)
            if p.ended:
                # (the input ended with the event half told: a ruling without it could be another's)
                raise InputError(f"the answers ended in the middle of the `{name}` event, at its "
                                 f"`{spec['name']}`: no ruling is drawn from an account cut short",
                                 "adjudicator ask",
                                 hint="answer every question of an event, then 0 (nothing more) to have the ruling")
            form[f"f_{spec['name']}"] = got
        try:
            trial = builder.add_event(data, name, form)
            incident.parse(builder.dump(trial), "the incident being built")
        except InputError as e:
            p.say(f"  That cannot be taken: {e.message}" + (f" ({e.hint})" if e.hint else "") + ". Again:")
            refused += 1
            if refused >= reading.MAX_TRIES:        # `yes 1`: events refused for ever, one after another
                raise InputError(f"the interview stops: {reading.MAX_TRIES} events in a row could not be taken "
                                 f"(the last: {e.message})", "adjudicator ask", hint=STOP_HINT) from None
            continue
        refused = 0
        data = trial
    if not data["events"]:
        raise InputError("nothing happened to rule on: no event was given", "adjudicator ask",
                         hint="choose at least one event, or give an incident file")
    return data
