"""Law-study quizzes graded by the engine: the question bank, the questions, the grading, the feedback.

The bundled case files are the bank (shipped with the package: lookup/laws.py `cases_dir`). Every
question is made from the engine's ruling on the case's incident (never from the case file's
`expected` block) and graded against that ruling, so the answer key is the same rules that settle
real disputes. A question tells the situation in words (the narrator's story: no file name, no law
number) and asks one thing about it, with choices of one kind:

    remedy    what the law gives on these facts        remedies as sentences; every one that applies
    who       who may exact a right the law gives      the people at the table; everyone who may
    law       which law decides a ruling               laws with their gist; every law it rests on
    status    where a right stands now                 open, not yet, exacted, follows of itself, lost
    compare   whether two codes of the game rule alike (adjudicator/core/compare.py)   yes / no

Never a question on a finding, nor "who may exact" or "where does it stand" on a consequence that
nobody exacts (a right that follows of itself, something done, the course of the game: the score,
the game, who plays, who deals): those are told in the feedback, not asked. The key of a `law`
question is the ruling's laws, which cite the law the ruling turns on; a law and its clause cited
together count as the clause.

The choices are in the laws' and the remedies' words: a remedy as the sentence of
rules/remedies.yaml (its game and law numbers left out), a law as its number and our summary (a
clause as its words), a person as the name at the table. Wrong choices are drawn near the right
one (the remedies the rule files of the same laws and topics give; the laws of the same topics and
the neighbouring ones), never one the ruling gives or cites anywhere else. Draws use a
random.Random seeded by the quiz seed and the question's id, so `--seed` reproduces a quiz, choices
in their order included; a review shuffles the choices afresh each time.
"""
from __future__ import annotations

import dataclasses
import hashlib
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
# The course of the game, not a remedy: what a ruling states (the score, the game, who plays, who
# deals, who takes the pool) is told after an answer, never asked as something the law "gives" or
# someone "exacts" (issue 44: "Who may exact 'score' [law 2]?").
OUTCOMES = frozenset({
    "score", "game", "rubber", "honours", "partners", "first-deal", "seats-and-cards", "cut-again", "plays",
    "belongs-to-table", "no-place", "next-to-enter", "retires", "enter-table", "loses-re-entry", "substitute",
    "sit-opposite", "deal-first", "draw-again", "take-pool", "show-hands", "jack-pot", "flush",
    "reckon-carte-blanche"})
STATUS_CHOICES = {
    "open": "open: it may be exacted now",
    "later": "not yet: it may be exacted only later",
    "exacted": "already exacted",
    "applies": "it follows of itself: no one need exact it",
    "lost": "lost: it may no longer be had",
}
# the statuses of a right someone exacts (a question is asked on these only), as the key says them
STATUS_OF = {"available": "open", "later": "later", "exacted": "exacted", "lost": "lost"}
KINDS = ("remedy", "who", "law", "status", "compare")
MANY = ("remedy", "who", "law")     # every choice that applies is to be given
NOBODY = {"nobody", "no one", "noone", "none", "neither", "-", "no-one", "nil", "no player", "none of them"}
EVERYONE = {"all", "everyone", "everybody", "every player", "any player", "anyone", "anybody", "all four",
            "all of them", "all players", "all the players", "each player", "every one", "any one",
            "any of them", "all the four", "all three", "all five"}
YES = {"y", "yes", "alike", "same", "true"}
NO = {"n", "no", "differ", "different", "false"}
LETTERS = "abcdefgh"
GIST = 200            # a law's gist, as a choice shows it, in characters at most


@dataclass
class Question:
    qid: str                    # stable: case path (relative to the bank) # kind [: index]
    case: str                   # the case file
    code: str
    game: str
    kind: str
    prompt: str
    options: list[str]          # the choices, in the order shown
    keys: list[str]             # what each choice stands for: a remedy id, a seat, a law id, a status, yes/no
    answer: list[str]           # the key: the keys of the right choices
    answer_text: str            # the key as a person reads it
    laws: list[str]             # the laws of the ruling the question is about
    topics: list[str]
    story: str
    many: bool = False          # every choice that applies is to be given (checkboxes, not one letter)
    ruling_index: int | None = None
    hint: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)

    def letters_of(self, keys) -> list[str]:
        return [LETTERS[i] for i, k in enumerate(self.keys) if k in set(keys)]


def present(q: Question, rng: random.Random) -> Question:
    """The question with its choices in an order drawn by `rng` (the key goes with its choice)."""
    order = list(range(len(q.options)))
    if q.kind not in ("compare", "who"):       # (yes before no; the people in their places at the table)
        rng.shuffle(order)
    return dataclasses.replace(q, options=[q.options[i] for i in order], keys=[q.keys[i] for i in order],
                               answer_text=_answer_text([q.options[i] for i in order], [q.keys[i] for i in order],
                                                        q.answer))


def _answer_text(options: list[str], keys: list[str], answer: list[str]) -> str:
    """The right choices, each by its letter and its words (a law by its number alone)."""
    right = [f"{LETTERS[i]}) {o.split(': ')[0] if o.startswith(('Law ', 'The law')) else o.rstrip('.')}"
             for i, (o, k) in enumerate(zip(options, keys)) if k in set(answer)]
    return "; ".join(right) if right else "none of them"


def case_token(case: str) -> str:
    """A case of the bank as a page or a command names it after an answer: its file hashed (the file
    is named after the ruling it proves, so its name would give the answer away)."""
    return hashlib.sha256(case.encode("utf-8")).hexdigest()[:16]


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


# --- the words of the choices -------------------------------------------------------------------

# A remedy's sentence leaves out the bracket naming its game or its law ("(piquet, law 52)"): the
# code is said above the question, and a law number would answer a `law` question.
_TAG = re.compile(r"\s*\((?=[^()]*\b(?:law|laws|rule|rules|piquet|poker|loo|Boston|Solo Whist|Cayenne|"
                  r"Misère Partout|declaring|playing|betting\.stood|a ruling, never demanded)\b)[^()]*\)")


def remedy_sentence(rid: str) -> str:
    """A remedy as a choice says it: its sentence in rules/remedies.yaml, without the bracket naming
    its game or law, as a sentence."""
    if rid == "no-penalty":
        return "No penalty can be enforced."
    text = registry.remedies().get(rid) or rid.replace("-", " ")
    text = _TAG.sub("", text)
    text = re.sub(r";\s*the burden says who pays$", "", text).strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


def _people(inc, players: dict) -> list[tuple[str, str]]:
    """The people at the table, in the table's order: (seat, how a choice names him)."""
    table = registry.table(inc.game)
    seats = [s for s in table.seats if s in players] if players else list(table.seats)
    out = []
    for seat in seats:
        word = table.word(seat)
        out.append((seat, f"{players[seat]} ({word})" if players.get(seat) else word[:1].upper() + word[1:]))
    return out


def _laws_tag(ids) -> str:
    return ("law " if len(ids) == 1 else "laws ") + ", ".join(ids)


def _law_sort(law: str):
    from adjudicator.core.ruling import law_key
    return law_key(law)


def _topics(code: str, ident: str) -> list[str]:
    from adjudicator.lookup import laws
    try:
        return laws.topics_of(code, ident)
    except Exception:   # noqa: BLE001 - a law of the base code (Dummy cites whist's): no topics of its own
        return []


def _found(code: str, ident: str):
    """The law (its entry, clause, exception) under the code or the code it amends; None if neither has it."""
    from adjudicator.lookup import laws
    for c in (code, laws.book(code).get("base_code")):
        if not c:
            continue
        try:
            return laws.find(c, ident)
        except InputError:
            continue
    return None


def law_gist(code: str, ident: str, limit: int = GIST) -> str:
    """What a law holds, in one line: our summary of it, or the words of the clause or exception cited."""
    found = _found(code, ident)
    if not found:
        return ""
    entry, clause, exception = found
    text = ""
    if exception:
        text = next((ex["text"] for ex in entry.get("exceptions") or [] if ex["id"] == exception), "")
    elif clause:
        text = next((cl["text"] for cl in entry.get("clauses") or [] if cl["id"] == clause), "")
    text = " ".join((text or entry.get("summary") or entry.get("text") or "").split())
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " \u2026"
    return text


def law_name(ident: str) -> str:
    """A law as a sentence names it: 'law 24', 'law 17.IV', the law 'dealing' (a law named, not numbered)."""
    return f"law {ident}" if re.match(r"(?:\d|[IVX]+(?:\.|$))", ident) else f"the law \u201c{ident}\u201d"


def _law_choice(code: str, ident: str) -> str:
    gist = law_gist(code, ident)
    name = law_name(ident)
    name = name[:1].upper() + name[1:]
    return f"{name}: {gist}" if gist else name


# A ruling's sentence, as the question on its law quotes it, without the law numbers in it
# ("law 35 reaches ...", "(87)"): they would answer the question.
_NUMBER = r"(?:\d+|[IVX]+)(?:\.[\w-]+)?"
_WORD = r"(?:[Ll]aws?|[Rr]ules?|[Pp]aragraphs?)"
_CITED = re.compile(rf"\s*\((?:{_WORD} )?{_NUMBER}(?:(?:, | and ){_NUMBER})*\)")
_LAWS_OWN = re.compile(rf"\b({_WORD}) {_NUMBER}'s\b")
_LAWS = re.compile(rf"\b({_WORD}) {_NUMBER}(?:(?:, | and | or ){_NUMBER})*(?![\w.])")


def unnumbered(text: str, ids=()) -> str:
    """A ruling's sentence without the numbers of laws in it: "law 35 reaches" -> "the law reaches",
    "rule 18's" -> "the rule's", "(87)", "(rules 12, 13)" left out, and a law's number set off by
    commas ("a false lead, 24, or") when `ids` (the code's laws) has it."""
    def one(word: str) -> str:
        w = word.lower().rstrip("s")
        return "the " + w
    text = _CITED.sub("", text)
    text = _LAWS_OWN.sub(lambda m: one(m.group(1)) + "'s", text)
    text = _LAWS.sub(lambda m: one(m.group(1)), text)
    known = {i for i in ids}
    text = re.sub(r",\s*(\d+(?:\.[\w-]+)?)(?=\s*[,)])", lambda m: "" if m.group(1) in known else m.group(0), text)
    return text


_IDS_IN_PROSE: list = []


def plainly(text: str) -> str:
    """A ruling's sentence as a question quotes it: a remedy named by its id ("demanded call-suit")
    said in its words, and no line of the incident's file ("at line 15"): the student has the story,
    not the file."""
    if not _IDS_IN_PROSE:
        ids = sorted((r for r in registry.remedies() if "-" in r and r not in NONE_REMEDIES and r != "jack-pot"),
                     key=len, reverse=True)
        _IDS_IN_PROSE.append(re.compile(r"(?<![\w\u201c-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])"))
    def words(m) -> str:
        said = remedy_sentence(m.group(1))[:-1]
        return _quoted(said[:1].lower() + said[1:])
    text = _IDS_IN_PROSE[0].sub(words, text)
    return re.sub(r",? at lines? \d+(?:(?:, | and )\d+)*", "", text)


def _quoted(text: str) -> str:
    return f"\u201c{text.rstrip('.')}\u201d"


# --- the questions of a case --------------------------------------------------------------------

def questions_for(path: str, root: str | None = None, kinds=KINDS) -> list[Question]:
    """Every question of these kinds the case's incident gives, keyed by the engine's ruling on it
    (`compare` costs a second ruling, under the game's other code: left out unless asked for)."""
    from adjudicator.core import incident, narrator
    root = root or bank_dir()
    inc = incident.load(path)
    result = ruling_of(path)
    if result is None or not result["rulings"]:
        return []
    rel = _rel(path, root)
    story = narrator.tell(inc)
    code, game = inc.code, inc.game
    players = inc.players or {}
    people = _people(inc, players)
    seats = [s for s, _ in people]
    out: list[Question] = []
    rulings = result["rulings"]
    all_laws = sorted({l for r in rulings for l in r["laws"]}, key=_law_sort)
    cited = set(all_laws) | {l for f in result.get("findings") or [] for l in f.get("laws") or []} | {
        l for r in rulings for m in r["may_not_exact"] for l in m.get("laws") or []}

    def topics_of(ids):
        names: list[str] = []
        for i in ids:
            for t in _topics(code, i):
                if t not in names:
                    names.append(t)
        return names

    def q(kind, prompt, choices, answer, ids, index=None, suffix="", hint="", extra=None):
        options = [c for c, _ in choices]
        keys = [k for _, k in choices]
        out.append(Question(qid=f"{rel}#{kind}{suffix}", case=rel, code=code, game=game, kind=kind,
                            prompt=prompt, options=options, keys=keys, answer=list(answer),
                            answer_text=_answer_text(options, keys, answer), laws=list(ids),
                            topics=topics_of(ids), story=story, many=kind in MANY, ruling_index=index,
                            hint=hint, extra={**(extra or {}), "people": [list(p) for p in people],
                                              "demanded": demanded}))

    once = [r["remedy"] for r in rulings]
    # the remedies the story says were demanded or declined (a wrong choice then says why it is not had)
    demanded = sorted({str(ev.fields.get("remedy")) for ev in inc.events
                       if ev.name in ("demand", "decline") and ev.fields.get("remedy")})

    def single(r) -> bool:        # a remedy given once: "who may exact it" names one right
        return once.count(r["remedy"]) == 1

    # what the law gives: every remedy, right or consequence on these facts, the course of the game aside
    given = [r for r in rulings if r["remedy"] not in OUTCOMES and r["remedy"] != "no-remedy"
             and r.get("status") != "lost"]
    key = list(dict.fromkeys(r["remedy"] for r in given))
    choices = _remedy_choices(key, rel, code, all_laws, set(once)) if key and not (
        "no-penalty" in key and len(key) > 1) else []
    if choices:
        q("remedy", "What does the law give on these facts? Choose every one that applies.", choices, key,
          sorted({l for r in given for l in r["laws"]}, key=_law_sort),
          hint="the letters of every one that applies, e.g. a, c")

    for i, r in enumerate(rulings):
        rid = r["remedy"]
        if rid == "no-remedy":          # a right asked for and refused: lost, and the ruling says why
            q("status", "A right is asked for or claimed in this incident. Where does it stand now?",
              [(w, k) for k, w in STATUS_CHOICES.items()], ["lost"], r["laws"], i, f":{i}",
              hint="a letter")
            continue
        if rid in NONE_REMEDIES or rid in OUTCOMES or not single(r):
            continue
        status = STATUS_OF.get(r["status"])
        if status is None:              # it follows of itself, or is done: nobody exacts it
            continue
        what = _quoted(remedy_sentence(rid))
        if r["may_exact"] and set(r["may_exact"]) <= set(seats):
            q("who", f"The law gives this on these facts: {what}. Who may exact it? Choose everyone who may.",
              [(label, seat) for seat, label in people], r["may_exact"], r["laws"], i, f":{i}",
              hint="the letters of everyone who may, or names and seats (N and S; Ames; all; nobody)")
        q("status", f"The law gives this on these facts: {what}. Where does that right stand now?",
          [(w, k) for k, w in STATUS_CHOICES.items()], [status], r["laws"], i, f":{i}", hint="a letter")

    # which law decides: each ruling (the first of those citing the same laws), on its own sentence
    asked: set[tuple] = set()
    order = sorted(range(len(rulings)), key=lambda j: (rulings[j]["remedy"] in OUTCOMES,
                                                         rulings[j]["remedy"] in NONE_REMEDIES))
    for i in order:
        r = rulings[i]
        key_laws = turning_laws(r)
        if not key_laws or tuple(key_laws) in asked or r.get("because") == ["nothing-incurred"]:
            continue        # ("nothing in this account is an irregularity": no law decides it, none to ask)
        choices = _law_choices(code, key_laws, rel, cited)
        if not choices:
            continue
        asked.add(tuple(key_laws))
        q("law", f"Which law decides this: {_quoted(plainly(unnumbered(r['text'], laws.law_ids(code))))}? "
          "Choose every law it rests on.",
          choices, key_laws, key_laws, i, f":{i}" if len(asked) > 1 else "",
          hint="the letters of every law it rests on, or the laws' numbers (e.g. 24 or 20.I)")

    # two codes of the game: do they rule alike?
    others = [c for c in registry.codes_of(game) if registry.encoded(c) and c != code]
    if others and "compare" in kinds:
        other = others[0]
        alike = _alike(path, [code, other])
        if alike is not None:
            q("compare", f"Do {registry.code_info(code)['title']} and {registry.code_info(other)['title']} "
              "rule alike on this incident (the same remedies to the same persons)?",
              [("yes, they rule alike", "yes"), ("no, they differ", "no")], ["yes" if alike else "no"], all_laws,
              hint="yes or no", extra={"codes": [code, other]})
    return [x for x in out if x.kind in kinds]


def turning_laws(r: dict) -> list[str]:
    """The laws a ruling rests on, as its key: the ruling's laws (which cite the law it turns on), a
    law cited with one of its own clauses counted as the clause."""
    ids = list(dict.fromkeys(r["laws"]))
    return [l for l in ids if not any(o != l and o.split(".")[0] == l and "." not in l for o in ids)]


def _alike(path: str, codes: list[str]) -> bool | None:
    """Whether the codes rule alike, as `adjudicator compare` decides it (compare.differences: the
    same remedies, each as many times, to the same persons, with the same status and choice, saying
    the same things), on the rulings solved once for the bank. tests/test_quiz.py checks it against
    compare.compare."""
    from adjudicator.core.compare import _summary, differences
    results = [ruling_of(path, c) for c in codes]
    if any(r is None for r in results):
        return None
    remedies = {r["remedy"] for res in results for r in res["rulings"]}
    players = results[0].get("_players") or {}
    for remedy in remedies:
        per = {c: [_summary(r) for r in res["rulings"] if r["remedy"] == remedy] for c, res in zip(codes, results)}
        if differences(per, players):
            return False
    return True


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
    for t in sorted({t for c in cited for t in _topics(code, c)}):
        idents += laws.topic_laws(t, code)
    for ident in dict.fromkeys(idents):
        for place in _encoded_in(code, ident):
            for r in sorted(_remedies_in(place["file"])):
                if r not in out:
                    out.append(r)
    return out


_CODE_REMEDIES: dict[str, list[str]] = {}


def _code_remedies(code: str) -> list[str]:
    """Every remedy the code's rule files name: the wrong choices of last resort (never another game's)."""
    from adjudicator.lookup import laws
    if code not in _CODE_REMEDIES:
        found: list[str] = []
        try:
            files = laws.rule_files(code)
        except Exception:  # noqa: BLE001 - a code with texts only
            files = []
        for f in files:
            rel = os.path.relpath(f, registry.rules_dir()) if os.path.isabs(f) else f
            for r in sorted(_remedies_in(rel)):
                if r not in found:
                    found.append(r)
        _CODE_REMEDIES[code] = found
    return _CODE_REMEDIES[code]


def _remedy_choices(key: list[str], rel: str, code: str, cited: list[str], in_ruling: set[str]) -> list[tuple[str, str]]:
    """The right remedies and wrong ones near them (two or three more than the right), each as its
    sentence: drawn from the remedies the rule files of the same laws and topics give, then from the
    code's others; never one the ruling gives in any way, nor the course of the game."""
    rng = _rng(rel, "remedy")
    sentences = {remedy_sentence(k) for k in key}

    def fit(r):
        return (r not in in_ruling and r not in OUTCOMES and r not in NONE_REMEDIES and r in registry.remedies()
                and remedy_sentence(r) not in sentences)
    near = [r for r in _near_remedies(code, cited) if fit(r)]
    rest = [r for r in _code_remedies(code) if fit(r) and r not in near]
    rng.shuffle(near)
    rng.shuffle(rest)
    want = 3 if len(key) == 1 else 2
    wrong: list[str] = []
    if "no-penalty" not in key and rng.random() < 0.5:
        wrong.append("no-penalty")
    for r in near + rest:
        if len(wrong) >= want:
            break
        if remedy_sentence(r) not in {remedy_sentence(w) for w in wrong}:
            wrong.append(r)
    if len(wrong) < 2:       # (German Whist's rules give no remedy at all: "no penalty" alone is no question)
        return []
    return [(remedy_sentence(r), r) for r in key + wrong]


def _law_choices(code: str, key: list[str], rel: str, cited: set[str]) -> list[tuple[str, str]] | None:
    """The laws the ruling rests on and three wrong ones: laws of the same topics, then the laws next
    to them in the code; never a law the ruling cites anywhere (a finding's, a reason's)."""
    from adjudicator.lookup import laws
    try:
        ids = laws.law_ids(code)
    except Exception:  # noqa: BLE001
        return None
    if not all(law_gist(code, k) for k in key):
        return None
    own = _ids(code)

    def head(l: str) -> str:          # the law a clause is part of ("17.IV" -> "17"; "say.accept" is a law)
        return l if l.lower() in own else l.split(".")[0]
    heads = {head(k) for k in key} | {head(c) for c in cited}
    rng = _rng(rel, "law:" + ",".join(key))
    topical: list[str] = []
    for t in sorted({t for k in key for t in _topics(code, k)}):
        topical += [l for l in laws.topic_laws(t, code) if head(l) not in heads]
    near: list[str] = []
    for k in key:
        if head(k) in ids:
            pos = ids.index(head(k))
            near += [ids[j] for j in range(max(0, pos - 3), min(len(ids), pos + 4)) if ids[j] not in heads]
    # the other clauses of a clause cited ("17.II" beside "17.IV"): the nearest wrong answers of all
    siblings: list[str] = []
    whole = {c for c in cited if "." not in c}
    for k in key:
        found = _found(code, k)
        if found and found[1] and head(k) not in whole:      # a clause, of a law not cited whole
            siblings += [f"{head(k)}.{c['id']}" for c in found[0].get("clauses") or []
                         if f"{head(k)}.{c['id']}" not in key and f"{head(k)}.{c['id']}" not in cited]
    topical = list(dict.fromkeys(topical))
    near = [n for n in dict.fromkeys(near) if n not in topical]
    rng.shuffle(siblings)
    rng.shuffle(topical)
    rng.shuffle(near)
    wrong: list[str] = []
    for l in siblings[:2]:
        wrong.append(l)
    for l in topical + near:
        if len(wrong) >= 3:
            break
        if law_gist(code, l) and head(l) not in {head(w) for w in wrong}:
            wrong.append(l)
    if not wrong:
        return None
    return [(_law_choice(code, l), l) for l in key + wrong]


def _law_matches(given: str, cited: str, ids=None) -> bool:
    """'24' matches 24, 24.II and 24.boston; '17.II' matches 17.II, and 17 when 17 is cited whole.
    `ids` (the code's law ids, lower case): a law whose id has a dot ("draw.stakes-equal", a law of
    its own beside "draw") is no part of the law its id begins with."""
    g = given.strip().lower()
    c = cited.lower()
    if g == c:
        return True
    if ids is not None and g in ids and c in ids:       # two laws of the code
        return False
    return ("." not in g and c.split(".")[0] == g and (ids is None or c not in ids)) or \
        ("." not in c and g.split(".")[0] == c and (ids is None or g not in ids))


_IDS: dict[str, frozenset[str]] = {}


def _ids(code: str) -> frozenset[str]:
    """The code's law ids (and its base code's), lower case."""
    from adjudicator.lookup import laws
    if code not in _IDS:
        found: set[str] = set()
        for c in (code, laws.book(code).get("base_code")):
            if c:
                try:
                    found |= {i.lower() for i in laws.law_ids(c)}
                except Exception:  # noqa: BLE001 - a code with no book
                    pass
        _IDS[code] = frozenset(found)
    return _IDS[code]


# --- grading ------------------------------------------------------------------------------------

class Grade:
    def __init__(self, right: bool, understood: bool = True, said: str = "", chosen: list[str] | None = None):
        self.right, self.understood, self.said = right, understood, said
        self.chosen = list(chosen or [])


_SPLIT = re.compile(r"\s*(?:[,;/&+]|\band\b|\bor\b)\s*|\s+")


def _letters(q: Question, t: str) -> list[str] | None:
    """The choices named by letters ('a', 'a c', 'a, c', 'a and c', 'ac') or by their numbers
    ('1, 3'; not for laws, whose numbers are laws): their keys; None if it is not that."""
    n = len(q.options)
    toks = [x for x in _SPLIT.split(t) if x]
    if not toks:
        return None
    if len(toks) == 1 and 1 < len(toks[0]) <= n and set(toks[0]) <= set(LETTERS[:n]) and \
            len(set(toks[0])) == len(toks[0]):
        toks = list(toks[0])
    picked: list[int] = []
    for tok in toks:
        if len(tok) == 1 and tok in LETTERS[:n]:
            picked.append(LETTERS.index(tok))
        elif q.kind != "law" and reading.chosen_number(tok, 1, n) is not None:
            picked.append(int(tok) - 1)
        else:
            return None
    return list(dict.fromkeys(q.keys[i] for i in picked))


def parse_seats(text: str, people: dict[str, str] | None = None, game: str = "whist",
                everyone: list[str] | None = None) -> set[str] | None:
    """'N and S', 'north, south', 'N-S', 'Ames & Clark', 'NS', 'nobody', 'all', 'any player': a set of
    seats (or of candidates' names); None if not understood. `people`: lower-case name -> seat or name.
    The seats and sides are the game's table's; `everyone`: the seats 'all' names (the table's)."""
    from adjudicator.core import registry
    from adjudicator.core.values import seat_words, side_words
    table = registry.table(game)
    seats_by_word = seat_words(table)
    sides_by_word = {w: set(table.sides[s]) for w, s in side_words(table).items()}
    sides_by_word.update({"-".join(table.word(m).lower() for m in members): set(members)
                          for members in table.sides.values()})
    t = " ".join(text.strip().lower().rstrip(".!").split())
    if t in NOBODY:
        return set()
    if t in EVERYONE or (t == "both" and len(everyone or table.seats) == 2):
        return set(everyone or table.seats)
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


def _people_by_name(q: Question) -> dict[str, str]:
    out = {}
    for seat, label in q.extra.get("people") or []:
        name = label.split(" (")[0].lower()
        out[name] = seat
    return out


def chosen(q: Question, text: str) -> list[str] | None:
    """What an answer chooses, as the choices' keys (for a law, the laws named); None if it cannot be read."""
    t = " ".join(text.strip().lower().split())
    if not t:
        return None
    by_letter = _letters(q, t)
    if by_letter is not None:
        return by_letter
    if q.kind == "remedy":
        got = parse_remedies(t)
        return sorted(got) if got is not None else None
    if q.kind == "who":
        got = parse_seats(t, _people_by_name(q), q.game, [k for k in q.keys])
        return [k for k in q.keys if k in got] + sorted(got - set(q.keys)) if got is not None else None
    if q.kind == "law":
        out = []
        known = {i.lower() for i in laws.law_ids(q.code)} | {i.lower().split(".")[0] for i in laws.law_ids(q.code)}
        words = re.sub(r"(?<![\w.-])(?:laws?|art(?:icle)?s?|rules?)(?![\w-])\.?", " ", t)
        for tok in re.split(r"\s*(?:,|;|\band\b|&|\s)\s*", words):
            tok = tok.strip(" .")
            if not tok:
                continue
            if not re.fullmatch(r"[0-9a-z][0-9a-z-]*(\.[0-9a-z-]+)?", tok):
                return None
            # a word is a law only if the code has a law of that name ("erroneous-scores"); "zzz" is not read
            if not tok[0].isdigit() and tok not in known and tok.split(".")[0] not in known:
                return None
            out.append(tok)
        return out or None
    if q.kind == "status":
        for key, words in STATUS_CHOICES.items():
            w = words.lower()
            if t in (w, key, w.split(":")[0]) or (len(t) >= 3 and w.startswith(t)):
                return [key]
        return None
    if q.kind == "compare":
        t = t.split(",")[0].strip()
        if t in YES:
            return ["yes"]
        if t in NO:
            return ["no"]
    return None


def grade_keys(q: Question, keys: list[str], said: str = "") -> Grade:
    """Grade the choices made (their keys: a page's checkboxes send them) against the engine's key."""
    if q.kind == "law":
        ids = _ids(q.code)
        right = bool(keys) and all(any(_law_matches(k, a, ids) for k in keys) for a in q.answer) and \
            all(any(_law_matches(k, a, ids) for a in q.answer) for k in keys)
    else:
        right = set(keys) == set(q.answer)
    return Grade(right, True, said, keys)


def grade(q: Question, text: str) -> Grade:
    """Grade a person's answer against the engine's key. `understood` is False when the answer
    could not be read (the quiz then asks again), as for one longer than MAX_ANSWER."""
    said = text.strip()
    if _too_long(said):
        return Grade(False, False, said[:MAX_ANSWER])
    keys = chosen(q, said)
    if keys is None:
        return Grade(False, False, said)
    if not q.many and len(keys) != 1:
        return Grade(False, False, said)
    return grade_keys(q, keys, said)


# --- what is said after an answer ---------------------------------------------------------------

def _label(q: Question, key: str) -> str:
    if key in q.keys:
        return q.options[q.keys.index(key)]
    return key


def _name(q: Question, seat: str) -> str:
    """A person as a sentence names him: 'Ames' or 'North'."""
    label = dict((s, l) for s, l in q.extra.get("people") or []).get(seat, seat)
    return label.split(" (")[0] if " (" in label else label


def _people_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def feedback(q: Question, g: Grade) -> dict:
    """What the answer teaches: whether it is right, the key, why each choice made wrongly is wrong
    and what was missed (the ruling's own reasons where it gives them), the ruling asked about (its
    sentence and laws) and the words of its laws. The whole ruling is one step away (`whole_ruling`,
    by the case's token), never printed whole here."""
    result = ruling_of(os.path.join(bank_dir(), q.case)) or {"rulings": [], "findings": []}
    rulings = result["rulings"]
    r = rulings[q.ruling_index] if q.ruling_index is not None and q.ruling_index < len(rulings) else None
    why: list[str] = []
    picked, key = [k for k in g.chosen], list(q.answer)
    about: list[dict] = []
    if q.kind == "who" and r is not None:
        reasons = {m["seat"]: m for m in r["may_not_exact"]}
        grouped: dict[tuple, list[str]] = {}
        for seat in [k for k in picked if k not in key]:
            m = reasons.get(seat)
            said = (f"{m['reason']} ({', '.join(m['laws'])})" if m and m.get("reason") else
                    f"the law gives it to {_people_list([_name(q, s) for s in key])} only")
            grouped.setdefault((said,), []).append(_name(q, seat))
        for (said,), names in grouped.items():
            why.append(f"{_people_list(names)} cannot: {said}.")
        about = [r]
    elif q.kind == "remedy":
        live = {x["remedy"]: x for x in rulings}
        for rid in [k for k in picked if k not in key]:
            x = live.get(rid)
            if x is not None and (x.get("status") == "lost" or rid == "no-remedy"):
                why.append(f"Not {_quoted(remedy_sentence(rid))}: it is lost here (the ruling says why).")
            elif rid == "no-penalty":
                why.append("Not \u201cno penalty\u201d: the law gives what follows.")
            elif rid in (q.extra.get("demanded") or []) and any(x["remedy"] in NONE_REMEDIES for x in rulings):
                why.append(f"Not {_quoted(remedy_sentence(rid))}: it was asked for, but the law does not give "
                           "it here (the ruling says why).")
            else:
                why.append(f"Not {_quoted(remedy_sentence(rid))}: the law gives nothing of the kind on these facts.")
        wrong = set(picked) - set(key)
        explain = {"no-remedy"} if wrong & set(q.extra.get("demanded") or []) else set()
        about = [x for x in rulings if x["remedy"] in key or x["remedy"] in explain
                 or (x["remedy"] in wrong and x.get("status") == "lost")]
    elif q.kind == "law":
        ids = _ids(q.code)
        for l in [k for k in picked if not any(_law_matches(k, a, ids) for a in key)]:
            gist = law_gist(q.code, l, 160)
            name = law_name(l)
            why.append(f"Not {name}: it holds that {gist[:1].lower() + gist[1:]}" if gist else
                       f"Not {name}: the code has no such law." if not _found(q.code, l) else f"Not {name}.")
        for l in [a for a in key if not any(_law_matches(k, a, ids) for k in picked)]:
            name = law_name(l)
            why.append(f"{name[:1].upper() + name[1:]} decides it: {law_gist(q.code, l, 160)}")
        about = [r] if r is not None else []
    elif q.kind == "status" and r is not None:
        if picked and picked[0] != key[0]:
            detail = {"later": f" It may be exacted {r['when']}." if r.get("when") else "",
                      "exacted": (f" It was exacted by {_people_list([_name(q, s) for s in r['exacted_by']])}."
                                  if r.get("exacted_by") else ""),
                      }.get(key[0], "")
            why.append(f"Not {_quoted(STATUS_CHOICES[picked[0]])}: it is {STATUS_CHOICES[key[0]].split(':')[0]}."
                       + detail)
        about = [r]
    elif q.kind == "compare":
        other = ruling_of(os.path.join(bank_dir(), q.case), q.extra["codes"][1])
        if picked and picked != key:
            why.append("They rule alike." if key == ["yes"] else "They differ.")
        about = rulings[:]
        if other:
            about += [{**x, "code_title": other["code_title"]} for x in other["rulings"]]
    ids = list(dict.fromkeys(l for x in about for l in x.get("laws") or [])) or list(q.laws)
    words = [(l, law_text(q.code, l)) for l in ids]
    said = [o.split(": ")[0] if o.startswith(("Law ", "The law")) else o.rstrip(".")
            for o, k in zip(q.options, q.keys) if k in set(q.answer)]
    plain = _people_list([_name(q, k) for k in q.keys if k in set(q.answer)]) if q.kind == "who" else "; ".join(said)
    return {"right": g.right, "answer": q.answer_text, "answer_plain": plain, "why": why,
            "chosen": ([_people_list([_name(q, k) for k in picked])] if q.kind == "who" and picked else
                       [_label(q, k) if q.kind != "law" else law_name(k) for k in picked]),
            "about": [{"text": plainly(x["text"]), "laws": list(x.get("laws") or []), "code_title": x.get("code_title")}
                      for x in about],
            "laws": [(l, w) for l, w in words if w], "token": case_token(q.case)}


def feedback_text(q: Question, g: Grade, fb: dict | None = None) -> str:
    """The feedback as the terminal prints it."""
    from adjudicator.core.render import _wrap
    fb = fb or feedback(q, g)
    lines = ["Right: " + fb["answer"] + "." if g.right else "Wrong. The answer: " + fb["answer"] + "."]
    for w in fb["why"]:
        lines += _wrap(w, "  ", "    ")
    if fb["about"]:
        lines.append("")
        lines.append("The ruling on it:" if len(fb["about"]) == 1 else "The rulings on it:")
        for x in fb["about"]:
            head = f"({x['code_title']}) " if x.get("code_title") else ""
            lines += _wrap(f"{head}{x['text']}. [{_laws_tag(x['laws'])}]" if x["laws"] else f"{head}{x['text']}.",
                           "  ", "    ")
    for ident, words in fb["laws"]:
        lines.append("")
        lines += _wrap(f"Law {ident}: \u201c{' '.join(words.split())}\u201d", "", "  ")
    lines.append("")
    lines.append(f"The whole ruling: adjudicator quiz ruling {fb['token']}")
    return "\n".join(lines)


def law_text(code: str, ident: str) -> str:
    """The law's words (the clause when one is cited), from the code or the code it amends."""
    found = _found(code, ident)
    if not found:
        return ""
    entry, clause, exception = found
    if exception:
        for ex in entry.get("exceptions") or []:
            if ex["id"] == exception:
                return ex["text"]
    if clause:
        for cl in entry.get("clauses") or []:
            if cl["id"] == clause:
                return cl["text"]
    return entry.get("text") or entry.get("summary") or ""


def case_of_token(token: str, root: str | None = None) -> str | None:
    """The bank's case a token names (`case_token`), found among the bank's files by its hash, never
    opened from the token's words; None when the bank has none."""
    root = root or bank_dir()
    token = token.strip().lower().split("#")[0]
    if not re.fullmatch(r"[0-9a-f]{16}", token):
        return None
    return next((_rel(p, root) for p in case_files(root) if case_token(_rel(p, root)) == token), None)


def whole_ruling_data(case: str) -> tuple[dict, str]:
    """The whole ruling on a case of the bank as `adjudicate --json` gives it (with `_players`), and
    the story: what the web page shows one step from an answer."""
    from adjudicator.core import incident, narrator
    path = os.path.join(bank_dir(), case)
    return ruling_of(path), narrator.tell(incident.load(path))


def whole_ruling(case: str) -> str:
    """The story and the whole ruling on a case of the bank, as `adjudicate` prints them."""
    from adjudicator import api
    path = os.path.join(bank_dir(), case)
    return api.adjudicate(api.AsGiven(path)).text()


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
    if law and not any(_law_matches(law, c, _ids(q.code)) or c == law for c in q.laws):
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
         only: set[str] | None = None, root: str | None = None, exclude: set[str] | None = None) -> list[Question]:
    """n questions, at most one per case, reproducible under `seed` (their choices' order too).
    Cases are solved lazily, most likely first, so a quiz of ten does not rule on the whole bank.
    Of a case's questions, a kind is drawn first, then a question of it (a case with five rulings
    gives five `law` questions, and would otherwise give little else). `exclude`: questions not to
    ask (those already answered: the daily new questions are new)."""
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
              and (only is None or q.qid in only) and (not exclude or q.qid not in exclude)]
        if qs:
            kinds = list(dict.fromkeys(q.kind for q in qs))
            k = rng.choice(kinds)
            q = rng.choice([q for q in qs if q.kind == k])
            out.append(present(q, random.Random(f"{seed}|{q.qid}|order")))
    return out


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
    """The question as shown: its code, the story, the question, the choices (no file name: the
    case is named after its ruling)."""
    from adjudicator.core.render import _wrap
    lines = [f"Question {number} of {total}  ({registry.code_info(q.code)['title']})", ""]
    lines += _wrap(q.story, "  ", "  ")
    lines.append("")
    lines += _wrap(q.prompt, "", "")
    for i, o in enumerate(q.options or []):
        lines += _wrap(o, f"  {LETTERS[i]}) ", "     ")
    if q.hint:
        lines.append(f"(Answer with {q.hint}; q to stop.)")
    return "\n".join(lines)


GRADE_WORDS = {"1": 1, "again": 1, "a": 1, "2": 2, "hard": 2, "h": 2, "3": 3, "good": 3, "g": 3,
               "4": 4, "easy": 4, "e": 4}


def _words(q: Question) -> int:
    return len(" ".join([q.story, q.prompt, *q.options]).split())


def infer_grade(q: Question, right: bool, seconds: float | None) -> tuple[int, str]:
    """The FSRS grade an answer earns, and why, as said to the student: a wrong answer is Again; a
    right one Good, or, when the time it took is known, Easy if it came in under half the time the
    question takes to read (at four words a second, plus eight seconds to think), Hard if it took
    more than half as long again."""
    if not right:
        return 1, "wrong"
    if seconds is None:
        return 3, "right"
    budget = 8 + _words(q) / 4
    took = f"{seconds:.0f} s"
    if seconds <= budget / 2:
        return 4, f"right and quick: {took}, where reading it takes about {budget:.0f} s"
    if seconds > budget * 1.5:
        return 2, f"right but slow: {took}, where reading it takes about {budget:.0f} s"
    return 3, f"right, in {took}"


def read_grade(line: str | None, inferred: int) -> int | None:
    """A grade as typed at its prompt (1-4, again/hard/good/easy, their first letters; nothing: the
    inferred one); None if it cannot be read."""
    t = (line or "").strip().lower()
    if not t:
        return inferred
    return GRADE_WORDS.get(t)


def run(questions: list[Question], store, read, echo, ask_grade: bool = False, clock=None) -> dict:
    """Ask each question, read an answer (`read()` returns a line, or None at the end of input, or
    raises LongAnswer), grade it against the engine's ruling, teach (feedback_text), and record it
    with its FSRS grade. `ask_grade` (a person at a terminal): the time each answer took is measured,
    a grade inferred from it, and after a right answer the student may give the grade himself (Again,
    Hard, Good, Easy; Enter keeps the one inferred); otherwise the grade is inferred from the answer
    alone (Good or Again), and said so. 'q' stops; answers so far are kept. MAX_TRIES answers in a
    row that cannot be read, or a line without end, stop the quiz too: `unreadable` then says why
    (the command's exit code 2)."""
    import time
    clock = clock or time.monotonic
    right = asked = 0

    def stop(why: str | None = None) -> dict:
        echo(_summary(right, asked, store, stopped=True))
        return {"right": right, "asked": asked, "stopped": True, "unreadable": why}

    for i, q in enumerate(questions, start=1):
        echo(ask_text(q, i, len(questions)))
        started = clock()
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
        seconds = clock() - started if ask_grade else None
        asked += 1
        right += g.right
        echo("")
        echo(feedback_text(q, g))
        rating, why = infer_grade(q, g.right, seconds)
        quit_after = False
        if ask_grade and g.right:
            echo(f"How well did you know it? 1 Again, 2 Hard, 3 Good, 4 Easy (Enter: {progress_grade(rating)}, "
                 f"{why}).")
            for _ in range(MAX_TRIES):
                try:
                    line = read()
                except LongAnswer:
                    line = "?"
                if line is None or line.strip().lower() in QUIT:
                    quit_after = True
                    break
                chosen_grade = read_grade(line, rating)
                if chosen_grade is not None:
                    if chosen_grade != rating:
                        rating, why = chosen_grade, "your grade"
                    break
                echo("Answer with 1, 2, 3 or 4 (again, hard, good, easy), or Enter.")
        due = store.record(q, g.right, g.said, rating=rating, seconds=seconds) if store is not None else None
        if due is not None:
            echo(f"Graded {progress_grade(rating)} ({why}); next review {due.strftime('%Y-%m-%d %H:%M')} UTC.")
        echo("-" * 78)
        if quit_after:
            return stop()
    echo(_summary(right, asked, store, stopped=False))
    return {"right": right, "asked": asked, "stopped": False, "unreadable": None}


def progress_grade(rating: int) -> str:
    from adjudicator.study.progress import GRADES
    return GRADES[rating]


def _summary(right: int, asked: int, store, stopped: bool) -> str:
    head = "Stopped. " if stopped else ""
    where = f" Progress is kept in {safe(store.path)}." if store is not None else ""
    return f"{head}{right} of {asked} right.{where}"


def review_questions(ids: list[str], n: int, rng: random.Random | None = None) -> list[Question]:
    """The questions with these ids (missed first, then due), as the bank makes them today, their
    choices shuffled afresh (by `rng`; None: in the bank's order); an id whose case is gone or now
    gives other questions is left out."""
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
                out.append(present(q, rng) if rng is not None else q)
    return out


# --- the day's limits and the forecast ----------------------------------------------------------

NEW_PER_DAY = 20          # new questions a day (Anki's default for new cards)
REVIEWS_PER_DAY = 200     # reviews a day (Anki's default)


def allowance(store, n: int, review: bool, new_per_day: int = NEW_PER_DAY,
              reviews_per_day: int = REVIEWS_PER_DAY, page: bool = False) -> tuple[int, str | None]:
    """How many of the n questions asked for today's limits still allow, and, when none, what to say
    (in the command's words, or the web page's: `page`)."""
    new, reviews = store.today()
    if review:
        left = reviews_per_day - reviews
        if left <= 0:
            return 0, (f"That is today's {reviews_per_day} reviews done (the daily limit"
                       + ("" if page else ", --reviews-per-day") + "). The rest keep until tomorrow.")
        return min(n, left), None
    left = new_per_day - new
    if left <= 0:
        due = len(store.review_ids())
        it = "it" if due == 1 else "them"
        then = (f" {due} question{' is' if due == 1 else 's are'} due: "
                + (f"review {it}." if page else f"`adjudicator quiz --review` asks {it}.") if due else "")
        return 0, (f"That is today's {new_per_day} new questions done (the daily limit"
                   + ("" if page else ", --new-per-day") + f").{then} More new ones tomorrow.")
    return min(n, left), None


def forecast_text(stats: dict) -> list[str]:
    """What is due today and on the coming days, as `quiz stats` says it."""
    import datetime as dt
    now_, later = stats.get("due_now", 0), stats.get("due_later_today", 0)
    lines = [f"Due today: {now_} now" + (f", {later} more later today" if later else "") + "."]
    days = [d for d in stats.get("forecast") or []]
    if days:
        parts = []
        for k, d in enumerate(days):
            day = dt.date.fromisoformat(d["day"])
            parts.append(f"{'tomorrow' if k == 0 else day.strftime('%a %d %b')} {d['due']}")
        lines.append("Coming days: " + ", ".join(parts) + ".")
    return lines


def stats_text(st: dict, path: str, new_per_day: int = NEW_PER_DAY, reviews_per_day: int = REVIEWS_PER_DAY) -> str:
    """`adjudicator quiz stats`: answers right, what is due today and on the coming days, today's
    counts against the daily limits, and the answers by code and by topic."""
    seen = st["questions_seen"]
    lines = [f"{st['right']} of {st['answers']} answers right; {seen} question{'' if seen == 1 else 's'} seen, "
             f"{st['to_review']} to review.  ({safe(path)})"]
    lines += forecast_text(st)
    lines.append(f"Today: {st.get('new_today', 0)} new question{'' if st.get('new_today', 0) == 1 else 's'} of "
                 f"{new_per_day}, {st.get('reviews_today', 0)} review{'' if st.get('reviews_today', 0) == 1 else 's'} "
                 f"of {reviews_per_day} (the daily limits).")
    for title, rows in (("By code:", st["by_code"]), ("By topic:", st["by_topic"])):
        if rows:
            lines.append("")
            lines.append(title)
            for k, v in rows.items():
                lines.append(f"  {safe(k, 36):<36} {v['right']:>4} of {v['answered']:<4} right")
    return "\n".join(lines)


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
        lines.append("")
    lines += ["---", "", "## Answer key", ""]
    for i, q in enumerate(questions, start=1):
        lines.append(f"{i}. {q.answer_text} ({_laws_tag(q.laws)}; case {q.case})")
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
        result = ruling_of(os.path.join(bank_dir(), q.case))
        rulings = "".join(f"<li>{e(r['text'])} [{e(_laws_tag(r['laws']))}]</li>" for r in result["rulings"])
        parts.append(f"<li><strong>{e(q.answer_text)}</strong> ({e(_laws_tag(q.laws))}; "
                     f"case {e(q.case)})<ul>{rulings}</ul></li>")
    parts.append("</ol></section></body></html>")
    return "\n".join(parts) + "\n"
