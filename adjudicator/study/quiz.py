"""Law-study quizzes graded by the engine: the question bank, the questions, the grading.

The bundled case files are the bank. Every question is made from the engine's ruling on the
case's incident (never from the case file's `expected` block) and graded against that ruling,
so the answer key is the same rules that settle real disputes. Kinds of question:

    remedy    which remedies the law gives here (or "no penalty")        choice of sets of remedy ids
    who       who may exact a remedy                                     free answer: a set of seats
    who-not   who may not exact it (the reasons are the explanation)     free answer: a set of seats
    law       which law decides                                          choice of neighbouring laws, or a number
    status    whether the right is open, not yet open, exacted, or follows of itself
    compare   whether two codes of the game rule alike on the incident   yes / no (adjudicator/core/compare.py)

Distractors come from the engine's vocabulary (rules/remedies.yaml, the seats, the code's law
numbers next to the right one) and are drawn with a random.Random seeded by the quiz seed and the
question's id, so a `--seed` reproduces a quiz exactly.
"""
from __future__ import annotations

import os
import random
import re
from dataclasses import asdict, dataclass, field

from adjudicator.lookup import laws
from adjudicator.core import reading, registry
from adjudicator.errors import AdjudicatorError, InputError, safe
from adjudicator.core.reading import MAX_ANSWER, MAX_LINE, MAX_TRIES, QUOTE, LongAnswer, read_answer  # noqa: F401 (quiz.X as before)
from adjudicator.core.reading import too_long as _too_long

NONE_REMEDIES = ("no-penalty", "no-remedy")
STATUS_CHOICES = {
    "open": "open: it may be exacted now",
    "later": "not yet: it may be exacted only later",
    "exacted": "already exacted (or done)",
    "applies": "it follows of itself: no one need exact it",
    "lost": "lost: it may no longer be had, or was never given",
}
STATUS_OF = {"available": "open", "later": "later", "exacted": "exacted", "done": "exacted",
             "applies": "applies"}
KINDS = ("remedy", "who", "who-not", "law", "status", "compare")
NOBODY = {"nobody", "no one", "noone", "none", "neither", "-", "no-one", "nil"}
YES = {"y", "yes", "alike", "same", "true"}
NO = {"n", "no", "differ", "different", "false"}
LETTERS = "abcdefgh"


@dataclass
class Question:
    qid: str                    # stable: case path (relative to the bank) # kind [: index]
    case: str                   # the case file
    code: str
    game: str
    kind: str
    prompt: str
    options: list[str] | None   # multiple choice, or None for a free answer
    answer: list[str]           # the key: remedy ids, seats, law ids, a status, yes/no
    answer_text: str            # the key as a person reads it
    laws: list[str]             # the laws of the ruling the question is about
    topics: list[str]
    story: str
    ruling_index: int | None = None
    hint: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


# --- the bank -----------------------------------------------------------------------------------

def bank_dir() -> str:
    """The bundled cases (lookup/laws.py `cases_dir`): the checkout's cases/, or the copy the
    installed package ships; or the folder ADJUDICATOR_CASES names."""
    from adjudicator.lookup import laws
    d = laws.cases_dir()
    if not d:
        raise InputError("no case files found to draw questions from", file="adjudicator quiz",
                         hint="ADJUDICATOR_CASES names no folder: name a folder of case files in it, or unset it "
                              "(the package's own cases are then the question bank)")
    return d


_RULINGS: dict[tuple[str, str], dict | None] = {}


def ruling_of(path: str, code: str | None = None) -> dict | None:
    """The engine's ruling on a case's incident (under `code`, else its own), as `adjudicator
    adjudicate --json` gives it without the story, solved once per run; None when the engine
    refuses the incident. Under another code the account is read as `adjudicator compare` reads it
    (a score of 6 is past the English game of five): an account the code refuses gets no ruling."""
    from adjudicator import api
    from adjudicator.core import incident
    key = (os.path.abspath(path), code or incident.load(path).code)
    if key not in _RULINGS:
        try:
            found = api.adjudicate(api.AsGiven(path), code=code, story=False)
            result = found.as_dict()
            result["_players"] = found.players
        except AdjudicatorError:
            result = None
        _RULINGS[key] = result
    return _RULINGS[key]


def case_files(root: str | None = None) -> list[str]:
    """The bank: every case file whose facts are all known (a case with `unknown:` facts has a
    conditional ruling, not one answer to grade against), and that can be read: a file the reader
    refuses (a FIFO or a link to /dev/zero named .yaml, a malformed incident) is no question, as an
    incident the engine refuses gives none (ruling_of). It was taken into the bank, and the quiz
    then stopped on it with the reader's hint for an incident ("pipe it in and give '-'")."""
    from adjudicator.core import cases
    return [p for p in cases.find([root or bank_dir()]) if _all_known(p)]


def _all_known(path: str) -> bool:
    from adjudicator.core import incident
    try:
        return getattr(incident.load(path), "unknown", None) is None
    except AdjudicatorError:
        return False


def _rel(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def questions_for(path: str, root: str | None = None, kinds=KINDS) -> list[Question]:
    """Every question of these kinds the case's incident gives, keyed by the engine's ruling on it
    (`compare` costs a second ruling, under the game's other code: left out unless asked for)."""
    from adjudicator.core import incident, narrator
    from adjudicator.lookup import laws
    root = root or bank_dir()
    inc = incident.load(path)
    result = ruling_of(path)
    if result is None or not result["rulings"]:
        return []
    rel = _rel(path, root)
    story = narrator.tell(inc)
    code, game = inc.code, inc.game
    players = inc.players
    out: list[Question] = []
    rulings = result["rulings"]
    all_laws = sorted({l for r in rulings for l in r["laws"]}, key=_law_sort)

    def topics_of(ids):
        names: list[str] = []
        for i in ids:
            for t in _topics(code, i):
                if t not in names:
                    names.append(t)
        return names

    people = {name.lower(): seat for seat, name in players.items()}
    people.update({name.lower(): name for name in inc.candidates})

    def q(kind, prompt, options, answer, answer_text, ids, index=None, suffix="", hint="", extra=None):
        out.append(Question(qid=f"{rel}#{kind}{suffix}", case=rel, code=code, game=game, kind=kind,
                            prompt=prompt, options=options, answer=answer, answer_text=answer_text,
                            laws=list(ids), topics=topics_of(ids), story=story, ruling_index=index,
                            hint=hint, extra={**(extra or {}), "people": people}))

    # which remedies
    given = sorted({r["remedy"] for r in rulings})
    q("remedy", "Which remedies, rights or consequences does the law give here?",
      _remedy_options(given, rel, code, all_laws), given, _remedy_text(given), all_laws,
      hint="a letter, or remedy ids separated by commas (e.g. call-card, take-first-trick; or: no penalty)")

    for i, r in enumerate(rulings):
        if r["remedy"] == "no-remedy":      # a right asked for and refused: lost, and the ruling says why
            q("status", f"A right is asked for or claimed in this incident [{_laws_tag(r['laws'])}]. "
              "Where does it stand now?", list(STATUS_CHOICES.values()), ["lost"], STATUS_CHOICES["lost"],
              r["laws"], i, f":{i}")
        if r["remedy"] in NONE_REMEDIES:
            continue
        what = f"\u201c{r['remedy']}\u201d ({_remedy_words(r['remedy'])}) [{_laws_tag(r['laws'])}]"
        if len(rulings) > 1 and sum(x["remedy"] == r["remedy"] for x in rulings) > 1:
            continue    # two rulings of one remedy: "who may exact it" would be ambiguous
        if r["may_exact"] or r["may_not_exact"]:
            q("who", f"Who may exact {what}?", None, list(r["may_exact"]), _seats_text(r["may_exact"], players),
              r["laws"], i, f":{i}", hint="seats or names, e.g. N and S, north, south, Ames; or: nobody")
        if r["may_not_exact"]:
            nots = [m["seat"] for m in r["may_not_exact"]]
            q("who-not", f"Who may NOT exact {what}?", None, nots, _seats_text(nots, players),
              r["laws"], i, f":{i}", hint="seats or names, e.g. E and W; or: nobody")
        status = STATUS_OF.get(r["status"])
        if status:
            q("status", f"Consider {what}. Where does that right stand now?",
              list(STATUS_CHOICES.values()), [status], STATUS_CHOICES[status], r["laws"], i, f":{i}")

    # which law decides: the ruling that is not a "no penalty" first, else the first
    main = next((r for r in rulings if r["remedy"] not in NONE_REMEDIES), rulings[0])
    index = rulings.index(main)
    options = _law_options(code, main["laws"], rel)
    if options:
        about = "" if main["remedy"] in NONE_REMEDIES else f" on \u201c{main['remedy']}\u201d"
        q("law", f"Which law of {registry.code_info(code)['title']} decides{about}?", options,
          list(main["laws"]), _laws_tag(main["laws"]), main["laws"], index,
          hint="a letter, or the law's number (e.g. 24 or 20.I)")

    # two codes of the game: do they rule alike?
    others = [c for c in registry.codes_of(game) if registry.encoded(c) and c != code]
    if others and "compare" in kinds:
        other = others[0]
        alike = _alike(path, [code, other])
        if alike is not None:
            q("compare", f"Do {registry.code_info(code)['title']} and {registry.code_info(other)['title']} "
              "rule alike on this incident (the same remedies to the same persons)?",
              ["yes, they rule alike", "no, they differ"], ["yes" if alike else "no"],
              "yes, they rule alike" if alike else "no, they differ", all_laws,
              hint="yes or no", extra={"codes": [code, other]})
    del laws
    return out


def _alike(path: str, codes: list[str]) -> bool | None:
    """Whether the codes rule alike, as `adjudicator compare` decides it (compare.py: the same
    remedies, each as many times, to the same persons, with the same status and choice), on the
    rulings solved once for the bank. tests/test_quiz.py checks it against compare.compare."""
    from adjudicator.core.compare import _shape, _summary
    results = [ruling_of(path, c) for c in codes]
    if any(r is None for r in results):
        return None
    remedies = {r["remedy"] for res in results for r in res["rulings"]}
    for remedy in remedies:
        shapes = {tuple(_shape([_summary(r) for r in res["rulings"] if r["remedy"] == remedy]))
                  for res in results}
        if len(shapes) > 1:
            return False
    return True


def _law_sort(law: str):
    from adjudicator.core.ruling import law_key
    return law_key(law)


def _topics(code: str, ident: str) -> list[str]:
    from adjudicator.lookup import laws
    try:
        return laws.topics_of(code, ident)
    except Exception:   # noqa: BLE001 - a law of the base code (Dummy cites whist's): no topics of its own
        return []


def _laws_tag(ids) -> str:
    return ("law " if len(ids) == 1 else "laws ") + ", ".join(ids)


def _remedy_words(rid: str) -> str:
    if rid == "no-penalty":
        return "no penalty"
    if rid == "no-remedy":
        return "no remedy"
    return registry.remedies().get(rid, rid)


def _remedy_text(ids) -> str:
    return ", ".join(ids)


def _seats_text(seats, players) -> str:
    from adjudicator.core.render import _who
    return _who(seats, players or {}) if seats else "no one"


def _rng(qid: str, salt: str = "") -> random.Random:
    return random.Random(f"{qid}|{salt}")


_FILE_REMEDIES: dict[str, set[str]] = {}


def _remedies_in(rel_file: str) -> set[str]:
    """The remedy ids a rule file names (its quoted strings that are remedy ids)."""
    if rel_file not in _FILE_REMEDIES:
        try:
            with open(os.path.join(registry.rules_dir(), rel_file), encoding="utf-8") as fh:
                text = fh.read()
        except OSError:
            text = ""
        ids = set(registry.remedies())
        _FILE_REMEDIES[rel_file] = {m for m in re.findall(r'"([a-z][a-z-]*)"', text) if m in ids}
    return _FILE_REMEDIES[rel_file]


_ENCODED: dict[tuple[str, str], list] = {}


def _encoded_in(code: str, ident: str) -> list:
    from adjudicator.lookup import laws
    key = (code, ident)
    if key not in _ENCODED:
        try:
            _ENCODED[key] = laws.encoded_in(code, ident)
        except Exception:  # noqa: BLE001 - a law of the base code: no encoding listed under this code
            _ENCODED[key] = []
    return _ENCODED[key]


def _near_remedies(code: str, cited: list[str]) -> list[str]:
    """Plausible wrong remedies: those the rule files encoding the cited laws name, then those of
    the laws on the same topics, in a stable order."""
    from adjudicator.lookup import laws
    out: list[str] = []
    idents = list(cited)
    for t in {t for c in cited for t in _topics(code, c)}:
        idents += laws.topic_laws(t, code)
    for ident in dict.fromkeys(idents):
        for place in _encoded_in(code, ident):
            for r in sorted(_remedies_in(place["file"])):
                if r not in out:
                    out.append(r)
    return out


def _remedy_options(given: list[str], rel: str, code: str = "", cited: list[str] | None = None) -> list[str]:
    """The right set and three wrong ones, each near the right: one remedy swapped, one added or
    one taken away, drawn first from the remedies the rules on the same laws and topics give, then
    from the rest of rules/remedies.yaml."""
    rng = _rng(rel, "remedy")
    every = [r for r in registry.remedies() if r not in given and r not in NONE_REMEDIES]
    near = [r for r in (_near_remedies(code, cited or []) if code else []) if r in every]
    right = tuple(given)
    wrong: list[tuple] = []
    candidates = []
    for k in range(40):
        vocab = near if near and k < 30 else every
        g = list(given)
        move = rng.choice(("swap", "add", "drop"))
        if move == "swap" or (move == "drop" and len(g) == 1):
            g[rng.randrange(len(g))] = rng.choice(vocab)
        elif move == "add":
            g.append(rng.choice(vocab))
        else:
            g.pop(rng.randrange(len(g)))
        if "no-penalty" in g and len(g) > 1:
            g.remove("no-penalty")
        candidates.append(tuple(sorted(set(g))))
    if right != ("no-penalty",):
        candidates.insert(rng.randrange(3), ("no-penalty",))
    for c in candidates:
        if c and c != right and c not in wrong:
            wrong.append(c)
        if len(wrong) == 3:
            break
    opts = [right] + wrong
    rng.shuffle(opts)
    return [", ".join(o) for o in opts]


def _law_options(code: str, cited: list[str], rel: str) -> list[str] | None:
    """The cited law and its neighbours in the code (the laws just before and after)."""
    from adjudicator.lookup import laws
    try:
        ids = laws.law_ids(code)
    except Exception:  # noqa: BLE001
        return None
    heads = {laws._law_of(code, c) for c in cited if laws._law_of(code, c) in ids}
    if not heads:
        return None
    rng = _rng(rel, "law")
    right = laws._law_of(code, cited[0]) if laws._law_of(code, cited[0]) in ids else cited[0]
    pos = ids.index(laws._law_of(code, right)) if laws._law_of(code, right) in ids else 0
    near = [ids[j] for j in range(max(0, pos - 3), min(len(ids), pos + 4))
            if ids[j] not in heads and not any(_law_matches(ids[j], c) for c in cited)]
    rng.shuffle(near)
    opts = [right] + near[:3]
    rng.shuffle(opts)
    return opts


def _law_matches(given: str, cited: str) -> bool:
    """'24' matches 24, 24.II and 24.boston; '17.II' matches 17.II only."""
    g = given.strip().lower()
    c = cited.lower()
    return g == c or (("." not in g) and c.split(".")[0] == g)


# --- grading ------------------------------------------------------------------------------------

class Grade:
    def __init__(self, right: bool, understood: bool = True, said: str = ""):
        self.right, self.understood, self.said = right, understood, said


def _option(q: Question, text: str) -> str | None:
    t = text.strip().lower()
    if q.options and len(t) == 1 and t in LETTERS[:len(q.options)]:
        return q.options[LETTERS.index(t)]
    number = reading.chosen_number(t, 1, len(q.options)) if q.options and q.kind != "law" else None
    if number is not None:
        return q.options[number - 1]
    return None


def parse_seats(text: str, people: dict[str, str] | None = None, game: str = "whist") -> set[str] | None:
    """'N and S', 'north, south', 'N-S', 'Ames & Clark', 'NS', 'nobody': a set of seats (or of
    candidates' names); None if not understood. `people`: lower-case name -> seat or name. The
    seats and sides are the game's table's."""
    from adjudicator.core import registry
    from adjudicator.core.values import seat_words, side_words
    table = registry.table(game)
    seats_by_word = seat_words(table)
    sides_by_word = {w: set(table.sides[s]) for w, s in side_words(table).items()}
    sides_by_word.update({"-".join(table.word(m).lower() for m in members): set(members)
                          for members in table.sides.values()})
    t = text.strip().lower()
    if t in NOBODY:
        return set()
    by_name = people or {}
    out: set[str] = set()
    for tok in re.split(r"[\s,;/&+]+|\band\b", t):
        tok = tok.strip(" .")
        if not tok or tok == "and":
            continue
        if tok in seats_by_word:
            out.add(seats_by_word[tok])
        elif tok in by_name:
            out.add(by_name[tok])
        elif tok in sides_by_word:
            out |= sides_by_word[tok]
        elif tok.strip("()") in seats_by_word:
            out.add(seats_by_word[tok.strip("()")])
        else:
            return None
    return out or None


def parse_remedies(text: str) -> set[str] | None:
    t = text.strip().lower()
    if t in NOBODY or t in ("no penalty", "no-penalty", "nothing"):
        return {"no-penalty"}
    ids = set(registry.remedies()) | set(NONE_REMEDIES)
    out = set()
    for tok in re.split(r"[,;]+|\s+and\s+|\s+&\s+", t):
        tok = tok.strip().replace(" ", "-")
        if not tok:
            continue
        if tok not in ids:
            return None
        out.add(tok)
    return out or None


def grade(q: Question, text: str) -> Grade:
    """Grade a person's answer against the engine's key. `understood` is False when the answer
    could not be read (the quiz then asks again), as for one longer than MAX_ANSWER."""
    said = text.strip()
    if _too_long(said):
        return Grade(False, False, said[:MAX_ANSWER])
    chosen = _option(q, said)
    if q.kind == "remedy":
        got = parse_remedies(chosen or said)
        if got is None:
            return Grade(False, False, said)
        return Grade(got == set(q.answer), True, said)
    if q.kind in ("who", "who-not"):
        got = parse_seats(said, q.extra.get("people"), q.game)
        if got is None:
            return Grade(False, False, said)
        return Grade(got == set(q.answer), True, said)
    if q.kind == "law":
        t = (chosen or re.sub(r"^(law|art(icle)?|rule)\s*", "", said.lower())).strip().lower()
        if not re.fullmatch(r"[0-9a-z][0-9a-z-]*(\.[0-9a-z-]+)?", t or "-"):
            return Grade(False, False, said)
        # a word is a law only if the code has a law of that name ("erroneous-scores"); "zzz" is not read
        known = {i.lower() for i in laws.law_ids(q.code)} | {i.lower().split(".")[0] for i in laws.law_ids(q.code)}
        if not t[0].isdigit() and t not in known and t.split(".")[0] not in known:
            return Grade(False, False, said)
        return Grade(any(_law_matches(t, c) for c in q.answer), True, said)
    if q.kind == "status":
        t = (chosen or said).lower()
        for key, words in STATUS_CHOICES.items():
            if t == words.lower() or t == key or t == words.split(":")[0].lower() or (
                    len(t) >= 3 and words.lower().startswith(t)):
                return Grade(key == q.answer[0], True, said)
        return Grade(False, False, said)
    if q.kind == "compare":
        t = (chosen or said).lower().split(",")[0].strip()
        if t in YES:
            return Grade(q.answer == ["yes"], True, said)
        if t in NO:
            return Grade(q.answer == ["no"], True, said)
        return Grade(False, False, said)
    return Grade(False, False, said)  # pragma: no cover - every kind is graded above


# --- drawing a quiz -----------------------------------------------------------------------------

def refuse_empty(code: str | None, topic: str | None, law: str | None, kind: str | None) -> None:
    """A filter given empty (`--kind ''`, `--code ' '`) is refused as a filter naming nothing is,
    never taken for the filter left out (None): it drew questions of every kind."""
    for flag, given in (("--code", code), ("--topic", topic), ("--law", law), ("--kind", kind)):
        if given is not None and not given.strip():
            raise InputError(f"{flag} is '{safe(given, QUOTE)}', which names nothing" if given else
                             f"{flag} is empty: it names nothing", file="adjudicator quiz",
                             hint=f"give {flag} a value (`adjudicator quiz --help`), or leave it out")


def check_filters(code: str | None, topic: str | None, law: str | None, kind: str | None) -> str | None:
    """Validate the filters (exit 2 with the fix on a bad one, quoting the filter short and
    escaped); return the topic's canonical name."""
    from adjudicator.lookup import laws
    refuse_empty(code, topic, law, kind)
    if code:
        registry.code_info(code)
        if not registry.encoded(code):
            raise InputError(f"--code {safe(code, QUOTE)}: this code has law texts only, no rules yet, so no questions",
                             file="adjudicator quiz",
                             hint="codes with questions: " + ", ".join(c["code"] for c in registry.all_codes()
                                                                      if registry.encoded(c["code"])))
    if law and not code:
        raise InputError(f"--law {safe(law, QUOTE)}: say which code's law", file="adjudicator quiz",
                         hint=f"e.g. --code american-1893 --law {safe(law, QUOTE)}")
    if law:
        try:
            laws.find(code, law)
        except InputError as e:
            raise InputError(f"--law {safe(law, QUOTE)}: {_unquoted(e.message, law, f'{code} has no such law')}",
                             file="adjudicator quiz",
                             hint=e.hint) from None
    if kind and kind not in KINDS:
        raise InputError(f"--kind {safe(kind, QUOTE)}: no such kind of question", file="adjudicator quiz",
                         hint="kinds: " + ", ".join(KINDS))
    if topic:
        try:
            return laws.resolve_topic(topic)
        except InputError as e:
            raise InputError(f"--topic {safe(topic, QUOTE)}: {_unquoted(e.message, topic, 'no such topic')}",
                             file="adjudicator quiz",
                             hint=e.hint) from None
    return None


def _unquoted(message: str, given: str, instead: str) -> str:
    """A message of laws.py about a filter with the filter's words, quoted there at any length (and
    a line in them split off), quoted short; `instead` when they cannot be found in it."""
    from adjudicator.errors import said
    quoted = said(given, 400)
    return message.replace(quoted, safe(given, QUOTE)) if quoted and quoted in message else instead


def _fits(q: Question, code, topic, law, kind) -> bool:
    if code and q.code != code:
        return False
    if topic and topic not in q.topics:
        return False
    if law and not any(_law_matches(law, c) or c == law for c in q.laws):
        return False
    if kind and q.kind != kind:
        return False
    return True


def _case_code(path: str) -> str | None:
    from adjudicator.core import incident
    try:
        return incident.load(path).code
    except AdjudicatorError:
        return None


def _likely(path: str, root: str, code, topic_laws, law) -> bool:
    """A cheap guess from the case's path (folder = code, name starts with the laws it proves)
    of whether a case may hold a fitting question: cases that do are solved first."""
    name = os.path.basename(path).split("-")
    heads = set()
    for tok in name:
        if tok.isdigit() or re.fullmatch(r"[IVX]+", tok):
            heads.add(tok)
        else:
            break
    wanted = set(topic_laws or []) | ({law.split(".")[0]} if law else set())
    return not wanted or bool(heads & {w.split(".")[0] for w in wanted})


def draw(n: int, seed: int | None = None, code=None, topic=None, law=None, kind=None,
         only: set[str] | None = None, root: str | None = None) -> list[Question]:
    """n questions, at most one per case, reproducible under `seed`. Cases are solved lazily, most
    likely first, so a quiz of ten does not rule on the whole bank."""
    from adjudicator.lookup import laws
    root = root or bank_dir()
    rng = random.Random(seed)
    files = case_files(root)
    if not files:         # (an empty folder named by ADJUDICATOR_CASES was "no question fits these filters")
        raise InputError(f"no case files found to draw questions from in '{reading.path_shown(root)}'",
                         file="adjudicator quiz",
                         hint="the question bank is a folder of case files whose facts are all known: name one "
                              "in ADJUDICATOR_CASES, or unset it (the package's own cases are then the bank)")
    rng.shuffle(files)
    tl = None
    if topic:
        tl = []
        for c in ([code] if code else [c["code"] for c in registry.all_codes() if registry.encoded(c["code"])]):
            tl += laws.topic_laws(topic, c)
    if only is not None:
        files = [f for f in files if _rel(f, root) in {o.split("#")[0] for o in only}]
    else:
        files.sort(key=lambda f: not _likely(f, root, code, tl, law))
    out: list[Question] = []
    for f in files:
        if len(out) >= n:
            break
        if code and _case_code(f) != code:
            continue
        qs = [q for q in questions_for(f, root, (kind,) if kind else KINDS) if _fits(q, code, topic, law, kind)
              and (only is None or q.qid in only)]
        if qs:
            out.append(rng.choice(qs))
    return out


# --- what is shown after an answer --------------------------------------------------------------

def law_text(code: str, ident: str) -> str:
    """The law's words (the clause when one is cited), from the code or the code it amends."""
    from adjudicator.lookup import laws
    for c in (code, laws.book(code).get("base_code")):
        if not c:
            continue
        try:
            entry, clause, exception = laws.find(c, ident)
        except InputError:
            continue
        if exception:
            for ex in entry.get("exceptions") or []:
                if ex["id"] == exception:
                    return ex["text"]
        if clause:
            for cl in entry.get("clauses") or []:
                if cl["id"] == clause:
                    return cl["text"]
        return entry.get("text") or entry.get("summary") or ""
    return ""


def explanation(q: Question) -> str:
    """The ruling as `adjudicate` prints it, the text of each law it cites, the because chain."""
    from adjudicator.core import render
    result = ruling_of(os.path.join(bank_dir(), q.case))
    lines = ["The ruling:", ""]
    shown = {k: v for k, v in result.items() if not k.startswith("_")}
    shown["file"] = "cases/" + q.case
    lines.append(render.ruling_text(shown, result.get("_players") or {}).rstrip())
    if q.kind == "compare":
        other = q.extra["codes"][1]
        o = ruling_of(os.path.join(bank_dir(), q.case), other)
        if o:
            lines += ["", f"Under {o['code_title']}:", ""]
            lines.append(render.ruling_text({**{k: v for k, v in o.items() if not k.startswith("_")},
                                             "file": "cases/" + q.case}, result.get("_players") or {}).rstrip())
    lines.append("")
    for ident in q.laws:
        words = law_text(q.code, ident)
        if words:
            lines += render._wrap(f"Law {ident}: \u201c{' '.join(words.split())}\u201d", "", "  ")
    return "\n".join(lines).rstrip() + "\n"


# --- the interactive drill ----------------------------------------------------------------------

QUIT = {"q", "quit", "exit", ":q"}
# The bound on answers (MAX_ANSWER, MAX_LINE, MAX_TRIES, read_answer) is the one every interactive
# command reads with: reading.py.


def not_read(q: Question, said: str, too_long: bool = False) -> str:
    """What is said of an answer that cannot be read: it quoted short and escaped, the form expected."""
    said = said.strip()
    why = f" (it is longer than {MAX_ANSWER} bytes)" if too_long or _too_long(said) else ""
    return (f"I could not read '{safe(said, QUOTE)}' as an answer{why}. "
            f"Answer with {q.hint or 'a letter'}.")


def ask_text(q: Question, number: int, total: int) -> str:
    """The question as shown: where it comes from, the story, the question, the choices."""
    from adjudicator.core.render import _wrap
    lines = [f"Question {number} of {total}  ({registry.code_info(q.code)['title']}; {q.case})", ""]
    lines += _wrap(q.story, "  ", "  ")
    lines.append("")
    lines += _wrap(q.prompt, "", "")
    for i, o in enumerate(q.options or []):
        lines += _wrap(o, f"  {LETTERS[i]}) ", "     ")
    if q.hint:
        lines.append(f"(Answer with {q.hint}; q to stop.)")
    return "\n".join(lines)


def run(questions: list[Question], store, read, echo) -> dict:
    """Ask each question, read an answer (`read()` returns a line, or None at the end of input, or
    raises LongAnswer), grade it against the engine's ruling, explain, and record it. 'q' stops;
    answers so far are kept. MAX_TRIES answers in a row that cannot be read, or a line without end,
    stop the quiz too: `unreadable` then says why (the command's exit code 2)."""
    right = asked = 0

    def stop(why: str | None = None) -> dict:
        echo(_summary(right, asked, store, stopped=True))
        return {"right": right, "asked": asked, "stopped": True, "unreadable": why}

    for i, q in enumerate(questions, start=1):
        echo(ask_text(q, i, len(questions)))
        tries = 0
        while True:
            too_long = False
            try:
                line = read()
            except LongAnswer as e:
                if e.endless:
                    return stop(reading.endless(e.start))
                line, too_long = e.start, True
            if line is None or line.strip().lower() in QUIT:
                return stop()
            g = grade(q, line) if not too_long else None
            if g is not None and g.understood:
                break
            tries += 1
            echo(not_read(q, line, too_long))
            if tries >= MAX_TRIES:
                return stop(reading.unreadable(f"to question {i}", line))
        asked += 1
        right += g.right
        due = store.record(q, g.right, g.said) if store is not None else None
        echo("")
        echo("Right." if g.right else f"Wrong. The answer: {q.answer_text}.")
        echo("")
        echo(explanation(q))
        if due is not None:
            echo(f"(Next review of this question: {due.strftime('%Y-%m-%d %H:%M')} UTC.)")
        echo("-" * 78)
    echo(_summary(right, asked, store, stopped=False))
    return {"right": right, "asked": asked, "stopped": False, "unreadable": None}


def _summary(right: int, asked: int, store, stopped: bool) -> str:
    head = "Stopped. " if stopped else ""
    where = f" Progress is kept in {safe(store.path)}." if store is not None else ""
    return f"{head}{right} of {asked} right.{where}"


def review_questions(ids: list[str], n: int) -> list[Question]:
    """The questions with these ids (missed first, then due), as the bank makes them today; an id
    whose case is gone or now gives other questions is left out."""
    root = bank_dir()
    out: list[Question] = []
    for qid in ids:
        if len(out) >= n:
            break
        path = os.path.join(root, qid.split("#")[0])
        if not os.path.exists(path):
            continue
        for q in questions_for(path, root):
            if q.qid == qid:
                out.append(q)
    return out


# --- sheets for teachers and clubs --------------------------------------------------------------

def _tail(path: str) -> str:
    """A path quoted short by its end (which of the sheet's files), made safe."""
    return reading.path_shown(path)


def _sheet_refusal(path: str, out: str, what: str):
    return InputError(f"'{_tail(path)}' {what}", file="adjudicator quiz --out",
                      hint="name a new file, or a regular file to replace, in a folder that exists "
                           "(--out is the name without .md and .html)")


def _check_sheet_path(path: str, out: str) -> None:
    """A sheet's file must be a regular file or a new one: a FIFO (which would wait for a reader
    for ever), a device or a folder is refused (reading.check_writable, as `ask --save`)."""
    reading.check_writable(path, lambda what: _sheet_refusal(path, out, what))


def write_sheet(out: str, questions: list[Question], seed) -> tuple[str, str]:
    """Write OUT.md and OUT.html (both paths checked before either is written); return their names.
    OUT given with either ending (`--out club.md`) names the same two files: it wrote club.md.md."""
    stem, ending = os.path.splitext(out)
    if ending.lower() in (".md", ".html") and os.path.basename(stem).strip(" ."):
        out = stem
    md, html = f"{out}.md", f"{out}.html"
    # '', 'club/', ' ', '.', '..': the sheet would be a hidden '.md' (or '..md' beside the folder)
    if not os.path.basename(out).strip() or os.path.basename(out) in (".", ".."):
        raise InputError(f"'{safe(out, QUOTE)}' names a folder or nothing, not a file" if out else
                         "it is empty: it names no file",
                         file="adjudicator quiz --out",
                         hint="give the sheet's name without .md and .html, e.g. --out club/quiz-sheet")
    texts = {md: sheet_markdown(questions, seed), html: sheet_html(questions, seed)}
    for path in (md, html):
        _check_sheet_path(path, out)
    for path in (md, html):
        reading.write_replacing(path, texts[path], lambda what, path=path: _sheet_refusal(path, out, what))
    return md, html


def sheet_markdown(questions: list[Question], seed) -> str:
    lines = ["# Law quiz", "", f"{len(questions)} questions (seed {seed}). Each is ruled on by the adjudicator; "
             "the answer key, with the laws, is at the end.", ""]
    for i, q in enumerate(questions, start=1):
        lines += [f"## {i}. {registry.code_info(q.code)['title']}", "", q.story, "", f"**{q.prompt}**", ""]
        for j, o in enumerate(q.options or []):
            lines.append(f"- {LETTERS[j]}) {o}")
        if not q.options:
            lines.append("Answer: ______________________________")
        lines.append("")
    lines += ["---", "", "## Answer key", ""]
    for i, q in enumerate(questions, start=1):
        letter = ""
        if q.options:
            for j, o in enumerate(q.options):
                if grade(q, LETTERS[j]).right:
                    letter = f"{LETTERS[j]}) "
                    break
        lines.append(f"{i}. {letter}{q.answer_text} ({_laws_tag(q.laws)}; case {q.case})")
        result = ruling_of(os.path.join(bank_dir(), q.case))
        for r in result["rulings"]:
            lines.append(f"   - {r['text']} [{_laws_tag(r['laws'])}]")
    return "\n".join(lines) + "\n"


_CSS = """
body { font-family: Georgia, "Times New Roman", serif; max-width: 46em; margin: 2em auto; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
.story { margin-left: 1.5em; font-style: italic; }
ol.choices { list-style: lower-alpha; } .blank { border-bottom: 1px solid #000; display: inline-block; width: 20em; }
.key { page-break-before: always; break-before: page; } .key li { margin-bottom: .6em; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  section.q { break-inside: avoid; page-break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
"""


def sheet_html(questions: list[Question], seed) -> str:
    from html import escape as e
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>Law quiz</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Law quiz</h1>",
             f"<p>{len(questions)} questions (seed {e(str(seed))}). The answer key, with the laws, is at the end.</p>"]
    for i, q in enumerate(questions, start=1):
        parts.append(f'<section class="q"><h2>{i}. {e(registry.code_info(q.code)["title"])}</h2>')
        parts.append(f'<p class="story">{e(q.story)}</p><p><strong>{e(q.prompt)}</strong></p>')
        if q.options:
            parts.append('<ol class="choices">' + "".join(f"<li>{e(o)}</li>" for o in q.options) + "</ol>")
        else:
            parts.append('<p>Answer: <span class="blank">&nbsp;</span></p>')
        parts.append("</section>")
    parts.append('<section class="key"><h2>Answer key</h2><ol>')
    for q in questions:
        letter = ""
        for j, _o in enumerate(q.options or []):
            if grade(q, LETTERS[j]).right:
                letter = f"{LETTERS[j]}) "
                break
        result = ruling_of(os.path.join(bank_dir(), q.case))
        rulings = "".join(f"<li>{e(r['text'])} [{e(_laws_tag(r['laws']))}]</li>" for r in result["rulings"])
        parts.append(f"<li><strong>{e(letter + q.answer_text)}</strong> ({e(_laws_tag(q.laws))}; "
                     f"case {e(q.case)})<ul>{rulings}</ul></li>")
    parts.append("</ol></section></body></html>")
    return "\n".join(parts) + "\n"
