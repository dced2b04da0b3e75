"""The dispute told as players tell it: one set of questions for the terminal (`adjudicator ask
--game GAME`, opening.py) and the web page (/build).

The story starts with what went wrong, by the names players and the laws give it
(irregularities.py), asks the table once (who plays, trumps, which trick, whose lead, at piquet the
hands when a call is in dispute, at loo who is at the table), then the few facts of each event the
name needs, each question a sentence. Every answer is read as people say it (words.py: "South",
"south", "S" or the player's name; "king of spades", "KS", "K♠"; "I don't know", "not sure"), each
step is checked as it is told (the command's own reader, then the engine: an account that cannot
have happened is said at once, in words, beside what was told), and nothing typed is lost: a
step refused comes back with what was typed and the problem beside the question. Any step told can
be changed or taken out (the review), and the draft is a small mapping that a page carries in its
address and the terminal saves after every step (a reload, a closed terminal: it goes on).

Nothing here knows a law: the events and their fields are the format's (core/schema.py), and an
event no name covers is offered under "something else", asked by its own fields' words.
"""
from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import dataclass, field

from adjudicator.core import registry, schema
from adjudicator.errors import InconsistentIncident, InputError
from adjudicator.interview import builder, irregularities as irr, words

VERSION = 1
MAX_DRAFT = 200_000          # bytes of a draft's JSON (its incident is held to the reader's limits too)
OTHER = "something-else"


# --------------------------------------------------------------------------------------------
# Questions and steps, as both faces show them
# --------------------------------------------------------------------------------------------
@dataclass
class Question:
    id: str                      # the answer's name (a form field; the terminal's key)
    text: str                    # the question, a sentence
    kind: str                    # seat, card, cards, suit, number, choice, yesno, text, names, event
    options: list = field(default_factory=list)     # (value, words) for seat, choice, suit, yesno
    required: bool = False
    dont_know: bool = False      # "I don't know" is an answer
    hint: str = ""
    value: str = ""              # as given so far, or as typed (kept when refused)
    error: str = ""              # the problem, in words
    ranks: tuple = ()            # a card's or a hand's ranks (the game's pack)

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("id", "text", "kind", "options", "required", "dont_know", "hint",
                                              "value", "error", "ranks")}


@dataclass
class Step:
    kind: str                    # game, wrong, other, table, event, held, branch, review
    title: str
    questions: list
    number: int = 1              # the step's number, and about how many there are
    about: int = 1
    problems: list = field(default_factory=list)    # what cannot be, for the whole step (the engine's)
    note: str = ""

    @property
    def progress(self) -> str:
        return f"question {self.number} of about {max(self.about, self.number)}"


# --------------------------------------------------------------------------------------------
# The draft
# --------------------------------------------------------------------------------------------
class Draft:
    """The incident told so far (the format's mapping) and where the telling is: the name of what
    went wrong, how many of its plan's steps are told, an event being added or changed."""

    def __init__(self, data: dict | None = None, wrong: str | None = None, done: int = 0,
                 pending: str | None = None, editing: int | None = None, table_done: bool = False,
                 table_keys: tuple = (), plan_events: list | None = None, retable: bool = False,
                 trick: int | None = None):
        self.data = data if data is not None else {}
        self.wrong = wrong
        self.done = done
        self.pending = pending          # an event chosen under "something else", its fields to ask
        self.editing = editing          # the number (0-based) of an event being changed
        self.table_done = table_done    # the table is told (asked once)
        self.table_keys = tuple(table_keys)   # the table's facts asked (the review changes them)
        self.plan_events = list(plan_events or [])   # the events the plan wrote, by their number (0-based)
        self.retable = retable          # the table asked again (the review's change)
        self.trick = trick              # the trick told, until its lead says who led it (start: trick, leader)

    @property
    def game(self) -> str | None:
        return self.data.get("game")

    @property
    def events(self) -> list:
        return self.data.setdefault("events", [])

    def copy(self) -> Draft:
        import copy
        return Draft.from_json(copy.deepcopy(self.to_json()))

    def to_json(self) -> dict:
        return {"v": VERSION, "incident": self.data, "wrong": self.wrong, "done": self.done, "pending": self.pending,
                "editing": self.editing, "table_done": self.table_done, "table_keys": list(self.table_keys),
                "plan_events": self.plan_events, "retable": self.retable, "trick": self.trick}

    @classmethod
    def from_json(cls, d) -> Draft:
        if not isinstance(d, dict) or d.get("v") != VERSION or not isinstance(d.get("incident"), dict):
            raise InputError("this draft is not one the builder made", "the incident builder", hint="start again")
        wrong = d.get("wrong")
        if wrong is not None and wrong not in irr.BY_KEY and wrong != OTHER:
            raise InputError("this draft names no irregularity the builder knows", "the incident builder",
                             hint="start again")
        pending = d.get("pending")
        if pending is not None and pending not in schema.EVENTS:
            raise InputError("this draft names no event the builder knows", "the incident builder", hint="start again")
        done, editing = d.get("done", 0), d.get("editing")
        if not isinstance(done, int) or isinstance(done, bool) or not 0 <= done <= 50:
            raise InputError("this draft's place is not one the builder wrote", "the incident builder", hint="start again")
        if editing is not None and (not isinstance(editing, int) or isinstance(editing, bool) or editing < 0):
            raise InputError("this draft's place is not one the builder wrote", "the incident builder", hint="start again")
        keys = d.get("table_keys") or []
        if not isinstance(keys, list) or not all(k in TABLE_FACTS for k in keys):
            raise InputError("this draft's table is not one the builder wrote", "the incident builder", hint="start again")
        pe = d.get("plan_events") or []
        if not isinstance(pe, list) or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in pe):
            raise InputError("this draft's place is not one the builder wrote", "the incident builder", hint="start again")
        data = d["incident"]
        if data.get("game") is not None:
            builder.game_named(str(data["game"]), "the incident builder")
            # the incident as the command's reader reads it (its limits, its refusals)
            if data.get("events"):
                builder.values(builder.dump(data))
        trick = d.get("trick")
        if trick is not None and (not isinstance(trick, int) or isinstance(trick, bool) or not 0 < trick < 100):
            raise InputError("this draft's trick is not one the builder wrote", "the incident builder", hint="start again")
        return cls(data, wrong, done, pending, editing, bool(d.get("table_done")), tuple(keys), pe,
                   bool(d.get("retable")), trick)

    # the draft as a page's address carries it, and as the terminal saves it
    def token(self) -> str:
        raw = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")

    @classmethod
    def from_token(cls, token: str) -> Draft:
        try:
            packed = base64.urlsafe_b64decode(token.strip() + "=" * (-len(token.strip()) % 4))
            z = zlib.decompressobj()
            raw = z.decompress(packed, MAX_DRAFT + 1)
            if len(raw) > MAX_DRAFT or z.unconsumed_tail:
                raise ValueError("too large")
            d = json.loads(raw.decode("utf-8"))
        except (ValueError, zlib.error, UnicodeDecodeError, TypeError):
            raise InputError("the draft in this address cannot be read", "the incident builder",
                             hint="start again at /build (an address cut short loses the draft)") from None
        return cls.from_json(d)


def pack_incident(text: str) -> str:
    """An incident's YAML as an address carries it (a ruling's share link)."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def unpack_incident(token: str) -> bytes:
    """The incident's bytes a share link carries (at most the reader's limit)."""
    from adjudicator.core.limits import MAX_BYTES
    try:
        packed = base64.urlsafe_b64decode(token.strip() + "=" * (-len(token.strip()) % 4))
        z = zlib.decompressobj()
        raw = z.decompress(packed, MAX_BYTES + 1)
        if len(raw) > MAX_BYTES or z.unconsumed_tail or not raw:
            raise ValueError("too large or empty")
    except (ValueError, zlib.error, TypeError):
        raise InputError("this link does not carry an incident that can be read", "the ruling's link",
                         hint="ask for the link again from the ruling's page (a link cut short cannot be read)") from None
    return raw


def start(game: str | None = None) -> Draft:
    d = Draft()
    if game:
        d.data = {"game": builder.game_named(game, "the incident builder"), "events": []}
    return d


# --------------------------------------------------------------------------------------------
# Words for the questions
# --------------------------------------------------------------------------------------------
def _players(d: Draft) -> dict:
    p = d.data.get("players")
    return {str(k): str(v) for k, v in p.items()} if isinstance(p, dict) else {}


def _seats(d: Draft) -> list[str]:
    """The seats of the game, or at a round table the places taken."""
    t = registry.table(d.game)
    if t.places_from_players and _players(d):
        return [s for s in t.seats if s in _players(d)]
    return list(t.seats)


def who(d: Draft, seat) -> str:
    return words.seat_name(str(seat), d.game, _players(d)) if seat else "the player"


def _seat_options(d: Draft) -> list:
    return [(s, words.seat_label(s, d.game, _players(d))) for s in _seats(d)]


def _choice_words(event: str, value: str) -> str:
    from adjudicator.core import narrator
    if event in ("declare", "look-at") and value in narrator.LOO_WORDS:
        return narrator.LOO_WORDS[value]
    return str(value).replace("-", " ")


def _doc_words(doc: str) -> str:
    """A field's or an event's words from the format, without its markup and its references."""
    doc = re.sub(r"`([^`]*)`", lambda m: m.group(1).replace("-", " "), doc)
    return doc.strip()


def event_words(name: str) -> str:
    """What an event records, in the format's own words, its first sentence."""
    doc = _doc_words(schema.EVENTS[name].doc)
    first = re.split(r"(?<=[a-z)])\. |; ", doc, maxsplit=1)[0].rstrip(".")
    return first


_WHO = re.compile(r"^(?:A player|The player|The dealer|The elder hand|The younger hand|A bystander)\b,?\s*(.*)$")


def _who_question(event: str) -> str:
    """"Who leads a card?" from "A player leads a card (the first card of a trick).""" 
    first = event_words(event)
    m = _WHO.match(first)
    if not m:
        return "Who did it?"
    rest = re.split(r"[(:;,]", m.group(1), maxsplit=1)[0].strip().rstrip(".")
    return f"Who {rest}?" if rest else "Who did it?"


_CARD_QUESTION = {"lead": "Which card did {by} lead?", "play": "Which card did {by} play?",
                  "renounce": "Which card did {by} play instead?", "expose": "Which card was exposed?",
                  "name-card": "Which card did {by} name?", "drop-card": "Which card did {by} drop?"}
_WH = ("who", "what", "which", "how", "whose", "where", "when", "why", "to whom")


def field_question(event: str, f: schema.Field) -> str:
    """A field's question, in a sentence, from its words in the format (an event no name covers)."""
    if f.name == "by" and f.type in ("seat", "person"):
        q = _who_question(event)
        return q + (" (the dealer, if you leave it)" if not f.required and "dealer" in f.doc else "")
    if f.type == "card" and f.name == "card":
        return _CARD_QUESTION.get(event, "Which card was it?")
    doc = _doc_words(f.doc)
    doc = re.sub(r"\s*\((?:[^()]*)\)", "", doc).strip() or _doc_words(f.doc)
    doc = doc.split(": ")[0] if f.choices else doc
    if f.type == "bool":
        return f"Was it so that {doc}?"
    if doc.lower().startswith(_WH):
        return doc[:1].upper() + doc[1:].rstrip(".") + "?"
    if f.type in ("seat", "person"):
        return f"Who: {doc}?"
    return doc[:1].upper() + doc[1:].rstrip(".") + "?"


def fill(text: str, d: Draft, ev_fields: dict | None = None, plan_events: list | None = None) -> str:
    """A question's `{x}` filled from the story: {by} (who did the event in hand), {leader},
    {dealer}, {evN.by}, {evN.card}."""
    def one(m):
        key = m.group(1)
        if key == "by":
            by = (ev_fields or {}).get("by")
            return who(d, by) if by else "he"
        if key == "leader":
            return who(d, (d.data.get("start") or {}).get("leader"))
        if key == "dealer":
            return who(d, d.data.get("dealer"))
        mm = re.fullmatch(r"ev(\d+)\.(by|card)", key)
        if mm and plan_events is not None and int(mm.group(1)) < len(plan_events):
            fields = plan_events[int(mm.group(1))]
            v = fields.get(mm.group(2))
            if mm.group(2) == "card":
                return words.card_words(v).removeprefix("the ") if v else "card"
            return who(d, v)
        return m.group(0)
    return re.sub(r"\{([a-z0-9.]+)\}", one, text)


# --------------------------------------------------------------------------------------------
# One field asked: its question, and its answer read
# --------------------------------------------------------------------------------------------
def _field_question(d: Draft, event: str, f: schema.Field, text: str, required: bool, value) -> Question:
    qid = f"f_{f.name}"
    shown = "" if value is None else value
    if f.choices:
        return Question(qid, text, "choice", [(c, _choice_words(event, c)) for c in f.choices], required,
                        not required, value=str(shown))
    if f.type in ("seat", "person"):
        return Question(qid, text, "seat", _seat_options(d), required, not required,
                        hint="a seat or a player's name", value=str(shown))
    if f.type == "seats":
        return Question(qid, text, "text", [], required, False, hint="seats or names, e.g. North and South",
                        value=" ".join(shown) if isinstance(shown, list) else str(shown))
    if f.type == "card" or (f.type == "cards" and f.name == "card"):     # (one card, as a card is mostly told)
        if isinstance(shown, list):
            shown = shown[0] if len(shown) == 1 else " ".join(shown)
        return Question(qid, text, "card", [], required, not required, hint="e.g. king of spades, KS or K\u2660",
                        value=str(shown), ranks=words.ranks_of(d.game))
    if f.type in ("cards", "holding"):
        return Question(qid, text, "cards", [], required, False, hint="e.g. KS, QH, 10D",
                        value=" ".join(shown) if isinstance(shown, list) else str(shown), ranks=words.ranks_of(d.game))
    if f.type in ("suit", "suits"):
        return Question(qid, text, "suit", [(s, s) for s in words.SUITS], required, not required, value=str(shown))
    if f.type == "bool":
        v = "" if value is None else ("yes" if value else "no")
        return Question(qid, text, "yesno", [("yes", "yes"), ("no", "no")], required, True, value=v)
    if f.type in ("int", "trick"):
        return Question(qid, text, "number", [], required, False, value=str(shown))
    if f.type == "remedy":
        rem = registry.remedies()
        return Question(qid, text, "choice", [(r, rem.get(r, r)) for r in registry.remedy_ids()], required, False,
                        value=str(shown))
    return Question(qid, text, "text", [], required, False, value=str(shown))


class Refused(Exception):
    """A step's answers refused: the questions again, with what was typed and the problems."""

    def __init__(self, step: Step):
        self.step = step
        super().__init__("; ".join([q.error for q in step.questions if q.error] + step.problems))


def _read(q: Question, raw: str, d: Draft):
    """The value an answer gives (as the format writes it), `DK` for "I don't know", None for no
    answer; a ValueError with the problem in words when it cannot be read."""
    s = (raw or "").strip()
    if not s:
        return None
    if words.is_dont_know(s):
        if not q.dont_know:
            raise ValueError("this one must be answered: the account needs it" if q.required else
                             "if it is not known, leave it empty")
        return DK
    if q.kind == "seat":
        if re.fullmatch(r"[0-9]", s) and 1 <= int(s) <= len(q.options):      # its number in the list
            return q.options[int(s) - 1][0]
        seat = words.read_seat(s, d.game, _players(d), [v for v, _w in q.options])
        if seat is None:
            choices = [f"{w}" for _v, w in q.options]
            raise ValueError(f"\u201c{s[:40]}\u201d is not one of the players here: answer {words.and_list(choices, 'or')}")
        return seat
    if q.kind == "card":
        card = words.read_card(s, d.game)
        if card is None:
            extra = " (a piquet pack runs from the seven to the ace)" if d.game == "piquet" else ""
            raise ValueError(f"\u201c{s[:40]}\u201d is not a card I can read{extra}: say it as "
                             "\u201cking of spades\u201d, \u201cKS\u201d or \u201cK\u2660\u201d")
        return card
    if q.kind == "cards":
        out = []
        for part in [p for p in re.split(r"\s*(?:,|;|\band\b|\s)\s*", s) if p]:
            card = words.read_card(part, d.game)
            if card is None:
                raise ValueError(f"\u201c{part[:20]}\u201d is not a card I can read: write the cards as KS, QH, 10D")
            if card in out:
                raise ValueError(f"{words.card_words(card)} is written twice")
            out.append(card)
        return out
    if q.kind == "suit":
        if re.fullmatch(r"[0-9]", s) and 1 <= int(s) <= len(q.options):      # its number in the list
            return q.options[int(s) - 1][0]
        suit = words.read_suit(s)
        if suit is None:
            raise ValueError(f"\u201c{s[:40]}\u201d is not a suit: spades, hearts, diamonds or clubs")
        return suit
    if q.kind == "yesno":
        yn = words.yes_no(s)
        if yn is None:
            raise ValueError("answer yes or no (or \u201cI don't know\u201d)")
        return yn
    if q.kind == "number":
        if re.fullmatch(r"-?[0-9]{1,6}", s):
            return int(s)           # (its range is the reader's to check, in its words)
        n = words.ordinal_number(s)
        return n if n is not None else s       # (the reader says what it is not: "expected a whole number")
    if q.kind in ("choice", "event", "wrong"):
        p = words.plain(s)
        for i, (v, w) in enumerate(q.options, start=1):
            if p in (str(v).lower(), words.plain(w)) or p == str(i):
                return v
        hits = [v for v, w in q.options if words.plain(w).startswith(p) or str(v).lower().startswith(p)]
        if len(hits) == 1:
            return hits[0]
        raise ValueError(f"\u201c{s[:40]}\u201d is none of the answers: choose one of those listed")
    if q.kind == "names":
        return [n.strip() for n in re.split(r"\s*[,;]\s*|\s+and\s+", s) if n.strip()]
    return s


class _DK:
    def __repr__(self):
        return "DK"


DK = _DK()


def answers_of(form: dict) -> dict:
    """A page's answers as the questions read them: a card picked as its suit and its rank
    (`f_card_suit`, `f_card_rank`) is one card; a hand picked card by card (`hand_elder` given
    several times) is the list; "I don't know" ticked (`dk_x`) is the answer."""
    out = {}
    for k, v in form.items():
        if isinstance(v, list):
            out[k] = " ".join(str(x) for x in v)
        else:
            out[k] = v
    for k in list(out):
        if k.endswith("_suit") and k[:-5] + "_rank" in out:
            base = k[:-5]
            if not out.get(base):
                r, s = str(out[base + "_rank"]).strip(), str(out[k]).strip()
                if r and s:
                    out[base] = r + words.SUIT_LETTER.get(s, s[:1].upper())
                elif r or s:
                    out[base] = f"{r} {s}".strip() + " (the card half picked)"
        if k.startswith("dk_") and out[k]:
            out[k[3:]] = "?"
            if not k[3:].startswith("f_") and k[3:] not in TABLE_FACTS:      # (dk_holding: the field's "?")
                out["f_" + k[3:]] = "?"
    return out


# --------------------------------------------------------------------------------------------
# The table, asked once
# --------------------------------------------------------------------------------------------
TABLE_FACTS = ("players", "places", "dealer", "trump", "trick", "leader", "hands")


def _table_keys(d: Draft) -> tuple:
    w = irr.BY_KEY.get(d.wrong or "")
    keys = list(w.table) if w else ["players"]
    t = registry.table(d.game)
    if t.places_from_players and "players" in keys:
        keys[keys.index("players")] = "places"
    if t.places_from_players and "places" not in keys:
        keys.insert(0, "places")
    if "trump" in keys and not registry.trumps(d.game):
        keys.remove("trump")
    if "dealer" in keys and t.places_from_players:
        keys.remove("dealer")       # the first named is the dealer
    return tuple(keys)


def table_questions(d: Draft, keys: tuple) -> list[Question]:
    t = registry.table(d.game)
    players = _players(d)
    start = d.data.get("start") or {}
    qs = []
    for k in keys:
        if k == "players":
            seats = ", ".join(t.word(s) for s in t.seats)
            qs.append(Question("players", f"Who played? Their names, in this order: {seats}.", "names",
                               [(s, t.word(s)[:1].upper() + t.word(s)[1:]) for s in t.seats], False,
                               False, hint="names are optional: leave it empty to say the seats",
                               value=", ".join(players.get(s, "") for s in t.seats) if players else ""))
        elif k == "places":
            qs.append(Question("places", "Who sat at the table? Their names in order round the table to the left, "
                               "the dealer first (or how many played).", "names", [], True, False,
                               hint="e.g. Ames, Brown, Clark, Dodd, Ellis; or 5",
                               value=", ".join(players[s] for s in t.seats if s in players)))
        elif k == "dealer":
            qs.append(Question("dealer", "Who dealt?", "seat", _seat_options(d), False, True,
                               value=str(d.data.get("dealer") or "")))
        elif k == "trump":
            tr = d.data.get("trump")
            qs.append(Question("trump", "Which suit was trumps?", "suit", [(s, s) for s in words.SUITS], False, True,
                               value=str(words.read_suit(str(tr)) or tr or "") if tr else ""))
        elif k == "trick":
            n = registry.tricks(d.game) or 13
            qs.append(Question("trick", f"Which trick was it (1 to {n})?", "number", [], False, False,
                               hint="leave it empty for the first", value=str(start.get("trick") or "")))
        elif k == "leader":
            qs.append(Question("leader", "Whose lead was it?", "seat", _seat_options(d), True, False,
                               value=str(start.get("leader") or "")))
        elif k == "hands":
            hands = d.data.get("hands") or {}
            for s in t.seats:
                qs.append(Question(f"hand_{s}", f"Which cards did {words.seat_name(s, d.game, players)} hold "
                                   "(his hand in play, after taking in)?", "cards", [], False, False,
                                   hint="as many as known; e.g. AH KH QH ...", value=" ".join(hands.get(s) or []),
                                   ranks=words.ranks_of(d.game)))
    return qs


def _per_seat(d: Draft, form: dict) -> None:
    """Names typed seat by seat (the page: `player_N`, `player_elder`; at a round table `place_1` ...)
    as the one answer the question reads: the names, in the seats' order."""
    t = registry.table(d.game)
    by_seat = {k[7:]: str(v).strip() for k, v in form.items() if k.startswith("player_") and isinstance(v, str)}
    if by_seat:
        strays = [s for s in by_seat if s not in t.seats and by_seat[s]]
        if strays:
            raise InputError(f"{d.game} has no seat {strays[0][:20]}", "the incident builder",
                             hint=f"the seats of {d.game}: {', '.join(t.seats)}")
        form["players"] = {s: by_seat.get(s, "") for s in t.seats}
    places = [(int(k[6:]), str(v).strip()) for k, v in form.items() if re.fullmatch(r"place_[1-8]", k)]
    if places:
        form["places"] = ", ".join(v for _n, v in sorted(places) if v)


def whole_table(form: dict) -> Draft:
    """The game and its table told in one form (the game, the code, the names seat by seat, the dealer,
    trumps, the trick and its leader); then what happened is chosen among the game's events."""
    game = builder.game_named(str(form.get("game") or ""), "the incident builder")
    d = start(game)
    code = str(form.get("code") or "").strip()
    if code:
        codes = dict(builder.games())[game]
        if code not in codes:
            raise InputError(f"'{code[:40]}' is not a code of {game}", "the incident builder",
                             hint="codes of " + game + ": " + ", ".join(codes))
        d.data["code"] = code
    d.wrong = OTHER
    t = registry.table(game)
    keys = ["places" if t.places_from_players else "players"]
    keys += [k for k in ("dealer", "trump", "trick", "leader")
             if (k != "trump" or registry.trumps(game)) and not (k == "dealer" and t.places_from_players)]
    return _answer_table(d, tuple(keys), dict(form))


def from_incident(data: dict) -> Draft:
    """A draft of an account already told (the incident's YAML a page carried): its table as written,
    what happened chosen among the game's events."""
    if not isinstance(data.get("events"), list):
        data = {**data, "events": []}
    d = Draft(dict(data), OTHER, table_done=True)
    d.table_keys = _table_keys(d)
    return d


def _answer_table(d: Draft, keys: tuple, form: dict) -> Draft:
    new = d.copy()
    form = dict(form)
    _per_seat(d, form)
    qs = table_questions(d, keys)
    t = registry.table(d.game)
    values = {}
    errors = {}
    for q in qs:
        raw = form.get(q.id, "")
        if isinstance(raw, dict):
            q.value = ", ".join(raw.get(s, "") for s in t.seats)
            values[q.id] = None
            continue
        q.value = str(raw or "")
        try:
            v = _read(q, q.value, new if q.kind != "seat" else _with_players(new, form, keys))
        except ValueError as e:
            errors[q.id] = str(e)
            continue
        if v is None and q.required and not (q.id == "leader" and d.wrong == OTHER):
            errors[q.id] = "this one must be answered"
        values[q.id] = v
    data = new.data
    if "players" in keys and isinstance(form.get("players"), dict):
        typed = {s: n for s, n in form["players"].items() if n}
        if typed:
            data["players"] = typed
        else:
            data.pop("players", None)
    elif "players" in keys and "players" not in errors:
        names = values.get("players") or []
        if len(names) > len(t.seats):
            errors["players"] = f"{len(names)} names for {len(t.seats)} seats"
        elif names:
            data["players"] = {s: n for s, n in zip(t.seats, names) if n}
        else:
            data.pop("players", None)
    if "places" in keys and "places" not in errors:
        names = values.get("places") or []
        if len(names) == 1 and re.fullmatch(r"[0-9]", names[0]):
            names = [f"Player {i}" for i in range(1, int(names[0]) + 1)]
        if not 2 <= len(names) <= len(t.seats):
            errors["places"] = f"a table of {len(names)}: between 2 and {len(t.seats)} play"
        else:
            data["players"] = {s: n for s, n in zip(t.seats, names)}
            data["dealer"] = t.seats[0]
    if "dealer" in keys and "dealer" not in errors:
        v = values.get("dealer")
        if v in (None, DK):
            data.pop("dealer", None)
        else:
            data["dealer"] = v
    if "trump" in keys and "trump" not in errors:
        v = values.get("trump")
        if v in (None, DK):
            data.pop("trump", None)
        else:
            data["trump"] = v
    start = dict(data.get("start") or {})
    if "trick" in keys and "trick" not in errors:
        v = values.get("trick")
        if v is None or v is DK:
            start.pop("trick", None)
        else:
            start["trick"] = v
    if "leader" in keys and "leader" not in errors and values.get("leader") not in (None, DK):
        start["leader"] = values["leader"]
        start.setdefault("trick", 1)
    if "leader" not in start and "trick" in start:      # the trick's lead, told next, says who led it
        new.trick = start.pop("trick") if isinstance(start.get("trick"), int) else None
        if new.trick is None:
            errors["trick"] = f"\u201c{str(values.get('trick'))[:20]}\u201d is not a number: write it in figures, e.g. 5"
        elif not 1 <= new.trick <= (registry.tricks(d.game) or 13):
            errors["trick"] = f"{new.trick} is out of range (1 to {registry.tricks(d.game) or 13})"
    if start:
        data["start"] = start
    else:
        data.pop("start", None)
    if "hands" in keys:
        hands = {}
        for s in t.seats:
            if f"hand_{s}" in errors:
                continue
            cards = values.get(f"hand_{s}")
            if cards:
                hands[s] = cards
        if hands:
            data["hands"] = hands
        else:
            data.pop("hands", None)
    if errors:
        raise Refused(_refused(Step("table", "The table", qs), errors))
    new.table_done, new.retable = True, False
    new.table_keys = tuple(dict.fromkeys(new.table_keys + tuple(keys)))
    _check(new, "table", Step("table", "The table", qs))
    return new


def _with_players(d: Draft, form: dict, keys) -> Draft:
    """The draft with the names just typed, so that a dealer or a leader can be given by them."""
    if not ({"players", "places"} & set(keys)):
        return d
    x = d.copy()
    t = registry.table(d.game)
    if isinstance(form.get("players"), dict):
        typed = {s: n for s, n in form["players"].items() if n}
        if typed:
            x.data["players"] = typed
        return x
    raw = str(form.get("players") or form.get("places") or "")
    names = [n.strip() for n in re.split(r"\s*[,;]\s*|\s+and\s+", raw) if n.strip()]
    if names and not (len(names) == 1 and names[0].isdigit()):
        x.data["players"] = {s: n for s, n in zip(t.seats, names)}
    return x


def _refused(step: Step, errors: dict, problems: list | None = None) -> Step:
    for q in step.questions:
        if q.id in errors:
            q.error = errors[q.id]
    step.problems = list(problems or [])
    return step


# --------------------------------------------------------------------------------------------
# The plan: what went wrong, its events
# --------------------------------------------------------------------------------------------
def _plan(d: Draft) -> tuple:
    w = irr.BY_KEY.get(d.wrong or "")
    return w.steps if w else ()


def _plan_events(d: Draft) -> list[dict]:
    """The fields of the events the plan has written so far, in its order (for `{ev0.by}`)."""
    out = []
    for ev in d.plan_events:
        if isinstance(ev, int) and 0 <= ev < len(d.events):
            out.append(next(iter(d.events[ev].values())) or {})
    return out


def resolve(d: Draft, ref, plan_events: list):
    """A value a plan writes itself (irregularities.py: `=leader`, `=ev0.by`, `=other:ev0.by`,
    `=next:ev1.by`, `=led:ev0`)."""
    if not isinstance(ref, str) or not ref.startswith("="):
        return ref
    r = ref[1:]
    if r == "leader":
        return (d.data.get("start") or {}).get("leader")
    if r == "dealer":
        return d.data.get("dealer")
    how, _, rest = r.rpartition(":")
    m = re.fullmatch(r"ev(\d+)\.(\w+)", rest)
    if not m or int(m.group(1)) >= len(plan_events):
        return None
    v = plan_events[int(m.group(1))].get(m.group(2))
    if how == "other":
        seats = _seats(d)
        return next((s for s in seats if s != v), None) if len(seats) == 2 else None
    if how == "next":
        return _next_seat(d, v)
    return v


def _next_seat(d: Draft, seat):
    seats = _seats(d)
    if seat not in seats:
        return None
    return seats[(seats.index(seat) + 1) % len(seats)]


def _trick_size(d: Draft) -> int:
    return len(_seats(d))


def next_step(d: Draft) -> Step:
    """The questions to put next."""
    if not d.game:
        opts = [(g, g.replace("-", " ")) for g, _codes in builder.games()]
        return Step("game", "Which game were you playing?",
                    [Question("game", "Which game were you playing?", "choice", opts, True)], 1, 4)
    if d.retable:
        return table_again(d)
    if d.editing is not None and 0 <= d.editing < len(d.events):
        name = next(iter(d.events[d.editing]))
        return _event_form(d, name, _generic_asks(d, name, d.events[d.editing][name]), d.events[d.editing][name],
                           f"Change: {_told_event(d, d.editing)}")
    if d.wrong is None:
        return _wrong_step(d)
    keys = _table_keys(d)
    missing = tuple(k for k in keys if k not in d.table_keys)
    if missing:
        return Step("table", "First, the table", table_questions(d, missing), 2, _about(d))
    if d.pending:
        return _event_form(d, d.pending, _generic_asks(d, d.pending), {}, event_words(d.pending))
    if d.wrong == OTHER and not d.events:
        return _other_step(d)
    plan = _plan(d)
    if d.done < len(plan):
        s = plan[d.done]
        number = 3 + d.done
        if isinstance(s, irr.EventStep):
            fixed = {k: resolve(d, ref, _plan_events(d)) for k, ref in s.fixed}
            step = _event_form(d, s.event, s.asks, {k: v for k, v in fixed.items() if v is not None},
                               s.title or event_words(s.event), plan_step=s)
            for q in step.questions:          # (a field the plan writes is not a value typed)
                if q.id[2:] in fixed and q.id[2:] not in {a.field for a in s.asks if not isinstance(a, str)}:
                    q.value = ""
        elif isinstance(s, irr.Held):
            step = _held_step(d, s)
        else:
            step = _branch_step(d, s)
        step.number, step.about = number, _about(d)
        return step
    return review(d)


def _about(d: Draft) -> int:
    return 3 + len(_plan(d))


def _wrong_step(d: Draft) -> Step:
    opts = [(w.key, w.name) for w in irr.of_game(d.game)] + [(OTHER, "something else\u2026")]
    return Step("wrong", "What went wrong?",
                [Question("wrong", f"What went wrong at {d.game.replace('-', ' ')}?", "wrong", opts, True)], 1,
                _about(d))


def _other_step(d: Draft) -> Step:
    opts = [(name, event_words(name)) for _g, evs in builder.event_groups(d.game) for name, _doc in evs]
    return Step("other", "What happened?", [Question("event", "What happened? Choose what comes closest.", "event",
                                                     opts, True)], 2, 4)


def _generic_asks(d: Draft, name: str, given: dict | None = None) -> tuple:
    """The fields asked of an event no name covers (or one being changed): the required ones, those
    given, and the event's others that are not yes-or-no (the interview asks those when the ruling
    turns on them)."""
    from adjudicator.core.incident.games import field_of_game
    out = []
    for f in schema.EVENTS[name].fields:
        if f.type in builder.SKIPPED or not field_of_game(name, f.name, d.game):
            continue
        if f.required or (given and f.name in given) or (f.type not in ("bool", "holding", "suits") and f.name != "again"):
            out.append(irr.Ask(f.name))
    return tuple(out)


def _event_form(d: Draft, name: str, asks: tuple, given: dict, title: str, plan_step=None) -> Step:
    ev = schema.EVENTS[name]
    qs = []
    for a in asks:
        a = irr.Ask(a) if isinstance(a, str) else a
        f = ev.field(a.field)
        if f is None:
            continue
        required = f.required if a.required is None else a.required
        text = fill(a.text, d, given, _plan_events(d)) if a.text else field_question(name, f)
        q = _field_question(d, name, f, text, required, given.get(a.field))
        q.when, q.template = a.when, a.text
        qs.append(q)
    return Step("event", title[:1].upper() + title[1:], qs, 3, _about(d))


def refill(d: Draft, q: Question, form: dict) -> str:
    """A question of an event asked after its `by` was answered (the terminal): "Which card did East
    lead?" where the page, asking all at once, says "Which card did he lead?"."""
    if q.id.startswith("hand_") and form.get("players"):       # the names typed just before, in this step
        t = registry.table(d.game)
        names = [n.strip() for n in re.split(r"\s*[,;]\s*|\s+and\s+", str(form["players"]))]
        seat = q.id[5:]
        if seat in t.seats and t.seats.index(seat) < len(names) and names[t.seats.index(seat)]:
            return q.text.replace(f"did {t.word(seat)} hold", f"did {names[t.seats.index(seat)]} hold", 1)
        return q.text
    template = getattr(q, "template", "")
    if not template or "{by}" not in template or not form.get("f_by"):
        return q.text
    try:
        by = words.read_seat(str(form["f_by"]), d.game, _players(d), _seats(d))
    except Exception:      # noqa: BLE001 - the question as it was
        by = None
    return fill(template, d, {"by": by}, _plan_events(d)) if by else q.text


def _held_step(d: Draft, s: irr.Held) -> Step:
    pe = _plan_events(d)
    ev = pe[s.of] if s.of < len(pe) else {}
    led = pe[0].get("card") if pe else None
    suit = words.suit_of(led) if led else None
    card = ev.get("card")
    text = s.text.format(who=who(d, ev.get("by")), suit=words.SINGULAR.get(suit, "card of the suit led"),
                         card=words.card_words(card).removeprefix("the ") if card else "card")
    return Step("held", "The suit led", [Question("held", text, "yesno", [("yes", "yes"), ("no", "no")], True, True)],
                3, _about(d))


def _branch_step(d: Draft, s: irr.Branch) -> Step:
    pe = _plan_events(d)
    text = fill(s.text, d, None, pe)
    opts = [(f"b{i + 1}", ans[0]) for i, ans in enumerate(s.answers)]
    return Step("branch", "What happened then", [Question("branch", text, "choice", opts, True)], 3, _about(d))


# --------------------------------------------------------------------------------------------
# Answers
# --------------------------------------------------------------------------------------------
def _one_choice(step: Step, d: Draft, form: dict, field: str, missing: str):
    """The answer to a step of one question (the game, what went wrong, what happened), what was
    typed kept on it; Refused with the problem, or `missing` when nothing was chosen."""
    q = step.questions[0]
    q.value = str(form.get(field, ""))
    try:
        v = _read(q, q.value, d)
    except ValueError as e:
        raise Refused(_refused(step, {field: str(e)})) from None
    if v is None:
        raise Refused(_refused(step, {field: missing}))
    return v


def answer(d: Draft, form: dict) -> Draft:
    """The draft after the answers to the step `next_step(d)` asks; Refused (the step again, with
    what was typed and the problems in words) when they cannot be taken."""
    form = answers_of(form)
    step = next_step(d)
    if step.kind == "game":
        return start(_one_choice(step, d, form, "game", "choose the game"))
    if step.kind == "wrong":
        new = d.copy()
        new.wrong, new.done = _one_choice(step, d, form, "wrong",
                                          "choose what went wrong, or \u201csomething else\u201d"), 0
        return new
    if step.kind == "other":
        new = d.copy()
        new.pending = _one_choice(step, d, form, "event", "choose what happened")
        return new
    if step.kind == "table":
        return _answer_table(d, tuple(q.id if not q.id.startswith("hand_") else "hands" for q in step.questions), form)
    if step.kind == "event":
        return _answer_event(d, step, form)
    if step.kind == "held":
        return _answer_held(d, step, form)
    if step.kind == "branch":
        return _answer_branch(d, step, form)
    raise Refused(_refused(step, {}, ["nothing is asked here: rule on it, or change what was told"]))


def _answer_event(d: Draft, step: Step, form: dict) -> Draft:
    new = d.copy()
    if d.editing is not None:
        name = next(iter(d.events[d.editing]))
        plan_step = None
    elif d.pending:
        name, plan_step = d.pending, None
    else:
        plan_step = _plan(d)[d.done]
        name = plan_step.event
    fields: dict = {}
    if d.editing is not None:        # a change keeps what is not asked (a holding, a yes-or-no)
        asked = {q.id[2:] for q in step.questions}
        fields = {k: v for k, v in d.events[d.editing][name].items() if k not in asked}
    errors: dict = {}
    unknown = []
    pe = _plan_events(d)
    asked_ids = {q.id for q in step.questions}
    for f in schema.EVENTS[name].fields:      # a field sent though not asked here (an earlier page's form)
        if f"f_{f.name}" not in asked_ids and (form.get(f"f_{f.name}") or form.get(f"dk_{f.name}")) \
                and f.type not in builder.SKIPPED:
            step.questions.append(_field_question(d, name, f, field_question(name, f), False, None))
            step.questions[-1].dont_know = f.type in builder.UNKNOWABLE or bool(f.choices)
    for q in step.questions:
        q.value = str(form.get(q.id, "") or "")
        key = q.id[2:]
        cond = getattr(q, "when", ())
        if cond:
            other = fields.get(cond[0])
            if other not in cond[1]:
                if q.value.strip():
                    errors[q.id] = f"leave this empty: it is asked only of a {words.and_list(list(cond[1]), 'or')}"
                continue
        try:
            v = _read(q, q.value, d)
        except ValueError as e:
            errors[q.id] = str(e)
            continue
        if v is None:
            if q.required:
                errors[q.id] = "this one must be answered" + (": if it is not known, say \u201cI don't know\u201d"
                                                             if q.dont_know else "")
            continue
        if v is DK:
            unknown.append(key)
            f = schema.EVENTS[name].field(key)
            if f.required:
                fields[key] = q.options[0][0] if q.options else ""
            continue
        fields[key] = v
    if plan_step is not None:
        for k, ref in plan_step.fixed:
            v = resolve(d, ref, pe)
            if v is not None:
                fields[k] = v
        for k, ref, said in plan_step.not_same:
            if fields.get(k) is not None and fields.get(k) == resolve(d, ref, pe):
                errors[f"f_{k}"] = said.format(by=who(d, fields[k]))
    if len(unknown) > 1:
        for k in unknown:
            errors[f"f_{k}"] = "only one fact of an event can be left unknown: answer all but one"
    if errors:
        raise Refused(_refused(step, errors))
    events = list(new.events)
    data = new.data
    first_index = len(events)
    if d.editing is not None:
        events[d.editing] = {name: fields}
        idx = d.editing
    else:
        if plan_step is not None and plan_step.fill_plays:
            for seat in _between(d, pe, fields.get("by")):
                events.append({"play": {"by": seat}})
        events.append({name: fields})
        idx = len(events) - 1
    data["events"] = events
    if unknown:
        data["unknown"] = [u for u in (data.get("unknown") or []) if not (isinstance(u, dict) and u.get("event") == idx + 1)]
        data["unknown"].append({"event": idx + 1, "field": unknown[0]})
    elif d.editing is not None and data.get("unknown"):
        data["unknown"] = [u for u in data["unknown"] if not (isinstance(u, dict) and u.get("event") == idx + 1
                                                               and u.get("field") in {q.id[2:] for q in step.questions})]
        if not data["unknown"]:
            data.pop("unknown")
    if d.editing is not None:
        new.editing = None
    elif d.pending:
        new.pending = None
    else:
        new.plan_events.append(idx)
        new.done += 1
        _start_from_lead(new, plan_step, fields, first_index)
    _check(new, "event", step)
    return new


def _between(d: Draft, pe: list, seat) -> list:
    """The players who played to the trick between its leader (the plan's first event) and `seat`."""
    if not pe or seat is None:
        return []
    leader = pe[0].get("by")
    seats = _seats(d)
    if leader not in seats or seat not in seats:
        return []
    out, s = [], _next_seat(d, leader)
    while s != seat and s != leader and len(out) < len(seats):
        out.append(s)
        s = _next_seat(d, s)
    return out


def _start_from_lead(d: Draft, plan_step, fields: dict, index: int) -> None:
    """A trick told by its number whose leader nobody was asked: the one who led it had the lead."""
    start = d.data.get("start") or {}
    if plan_step is None or plan_step.event != "lead" or "leader" in start or fields.get("by") is None or index != 0:
        return
    d.data["start"] = {"trick": d.trick or 1, "leader": fields["by"]}


def _answer_held(d: Draft, step: Step, form: dict) -> Draft:
    q = step.questions[0]
    q.value = str(form.get("held", "") or "")
    try:
        v = _read(q, q.value, d)
    except ValueError as e:
        raise Refused(_refused(step, {"held": str(e)})) from None
    if v is None:
        raise Refused(_refused(step, {"held": "answer yes, no, or \u201cI don't know\u201d"}))
    new = d.copy()
    s = _plan(d)[d.done]
    if s.of >= len(new.plan_events):
        raise Refused(_refused(step, {}, ["the event this question is about was taken out: tell it again"]))
    idx = new.plan_events[s.of]
    name = next(iter(new.events[idx]))
    ev = dict(new.events[idx][name])
    led = _plan_events(d)[0].get("card")
    suit = words.suit_of(led) if led else None
    if suit is None:
        raise Refused(_refused(step, {"held": "the card led is not known: the suit led cannot be asked about"}))
    ev.pop("holding", None)
    ev.pop("void", None)
    if v is True:
        ev["holding"] = suit
    elif v is False:
        ev["void"] = suit
    else:
        new.data.setdefault("unknown", []).append({"event": idx + 1, "field": "holding"})
    new.events[idx] = {name: ev}
    new.done += 1
    _check(new, "held", step)
    return new


def _answer_branch(d: Draft, step: Step, form: dict) -> Draft:
    q = step.questions[0]
    q.value = str(form.get("branch", "") or "")
    try:
        v = _read(q, q.value, d)
    except ValueError as e:
        raise Refused(_refused(step, {"branch": str(e)})) from None
    if v is None:
        raise Refused(_refused(step, {"branch": "choose what happened"}))
    s = _plan(d)[d.done]
    new = d.copy()
    pe = _plan_events(d)
    for name, fixed in s.answers[int(str(v)[1:]) - 1][1]:
        values = dict(fixed)
        if values.get("by") == "=rest":
            last = pe[-1].get("by") if pe else None
            played = 1 + len(_between(d, pe, last)) + 1 if pe else 0
            seat = _next_seat(d, last)
            for _i in range(max(0, _trick_size(d) - played)):
                new.events.append({"play": {"by": seat}})
                seat = _next_seat(d, seat)
            continue
        fields = {}
        for k, ref in values.items():
            r = resolve(d, ref, pe)
            if r is not None:
                fields[k] = r
        new.events.append({name: fields})
    new.done += 1
    _check(new, "branch", step)
    return new


# --------------------------------------------------------------------------------------------
# Checked as it is told
# --------------------------------------------------------------------------------------------
def incident_of(d: Draft) -> dict:
    """The incident the draft tells (the format's mapping, without the builder's own notes)."""
    order = list(schema.TOP_KEYS)
    return {k: d.data[k] for k in sorted(d.data, key=lambda k: order.index(k) if k in order else len(order))}


def yaml_of(d: Draft) -> str:
    return builder.dump(incident_of(d))


_KEY = re.compile(r"^([a-z-]+(?:\.[A-Za-z0-9_-]+)*): (.*)$", re.S)
_LINE = re.compile(r"\b(?:at |on )?lines? (\d+)(?:-\d+)?")


def _check(d: Draft, kind: str, step: Step) -> None:
    """The draft as the command's reader reads it, then as the engine rules it: a problem is said
    beside the question it is about (the reader names the key), or for the step (a contradiction
    with what was told before), in words, never a line of a file nobody saw."""
    from adjudicator import api
    from adjudicator.core import incident
    text = yaml_of(d)
    try:
        inc = incident.parse(text, "the account")
    except InputError as e:
        raise Refused(_refused(step, *_placed(e, step))) from None
    if not d.events:
        return
    try:
        api.adjudicate(text.encode("utf-8"), name="the account", story=False)
    except InconsistentIncident as e:
        raise Refused(_refused(step, {}, [_in_words(p, inc) for p in e.problems])) from None
    except InputError as e:
        raise Refused(_refused(step, *_placed(e, step))) from None


def _placed(e: InputError, step: Step) -> tuple[dict, list]:
    """A reader's refusal beside the question it is about: its key (`lead.card`, `start.trick`,
    `dealer`, `players.N`) named without the key, the line left out."""
    m = _KEY.match(e.message)
    said = e.message
    target = None
    if m:
        key, said = m.group(1), m.group(2)
        last = key.split(".")[-1]
        first = key.split(".")[0]
        ids = {q.id for q in step.questions}
        for cand in (f"f_{last}", last, first, "players" if first == "players" else "", "places" if first == "players"
                     else "", "trick" if key == "start.trick" else "", "leader" if key == "start.leader" else "",
                     f"hand_{last}" if first == "hands" else ""):
            if cand and cand in ids:
                target = cand
                break
    said = _LINE.sub("", said).strip()
    if e.hint:
        said += f" ({_LINE.sub('', e.hint).strip()})"
    if target:
        return {target: said}, []
    return {}, [said]


def _in_words(problem: str, inc) -> str:
    """A contradiction as the engine says it, its lines told as the events they are."""
    from adjudicator.core import narrator
    teller = narrator.Narrator(inc)
    teller.setting()
    told = {}
    for ev in inc.events:
        told[ev.line] = teller.event(ev).rstrip(".")

    def one(m):
        line = int(m.group(1))
        t = told.get(line)
        return f"when \u201c{t}\u201d" if t else "in the account"
    return _LINE.sub(one, problem)


# --------------------------------------------------------------------------------------------
# The review: everything told, each to change or take out
# --------------------------------------------------------------------------------------------
def _told_event(d: Draft, i: int) -> str:
    from adjudicator.core import incident, narrator
    inc = incident.parse(yaml_of(d), "the account")
    teller = narrator.Narrator(inc)
    teller.setting()
    out = ""
    for j, ev in enumerate(inc.events):
        said = teller.event(ev)
        if j == i:
            out = said
    return out


def told(d: Draft) -> dict:
    """What was told, in words: the table (its sentences) and each event, numbered."""
    from adjudicator.core import incident, narrator
    if not d.game:
        return {"table": [], "events": []}
    inc = incident.parse(yaml_of(d), "the account")
    teller = narrator.Narrator(inc)
    setting = teller.setting()
    events = [teller.event(ev) for ev in inc.events]
    for u in (d.data.get("unknown") or []):
        if isinstance(u, dict) and isinstance(u.get("event"), int) and 0 < u["event"] <= len(events):
            f = u.get("field")
            spec = schema.EVENTS[next(iter(d.events[u["event"] - 1]))].field(str(f))
            events[u["event"] - 1] += (" (Whether he held the suit led is not known.)" if f == "holding" else
                                       f" (Not known: {_doc_words(spec.doc) if spec else f}.)")
    return {"table": setting, "events": events}


def review(d: Draft) -> Step:
    opts = [(f"event:{name}", event_words(name)) for _g, evs in builder.event_groups(d.game) for name, _doc in evs]
    q = Question("more", "Did anything else happen that the ruling may turn on?", "event", opts, False)
    return Step("review", "Here is what you told me", [q], _about(d), _about(d))


def add_more(d: Draft, choice: str) -> Draft:
    """Something more told after the plan: an event chosen by its words."""
    new = d.copy()
    name = choice.split(":", 1)[1] if choice.startswith("event:") else choice
    if name not in schema.EVENTS or not builder._allowed(d.game, name):
        raise InputError(f"no such event as \u201c{choice[:40]}\u201d here", "the incident builder",
                         hint="choose one of those listed")
    new.pending = name
    return new


def change(d: Draft, what: str) -> Draft:
    """A step told to be told again: `table` (its facts asked again, as they were), or `event:N`."""
    new = d.copy()
    if what == "table":
        new.retable = True
        return new
    n = _event_number(d, what)
    new.editing = n
    return new


def remove(d: Draft, what: str) -> Draft:
    """An event taken out of the account (its unknown fact with it; the others renumbered)."""
    n = _event_number(d, what)
    new = d.copy()
    events = list(new.events)
    events.pop(n)
    new.data["events"] = events
    unknown = []
    for u in new.data.get("unknown") or []:
        if isinstance(u, dict) and isinstance(u.get("event"), int):
            if u["event"] == n + 1:
                continue
            if u["event"] > n + 1:
                u = {**u, "event": u["event"] - 1}
        unknown.append(u)
    if unknown:
        new.data["unknown"] = unknown
    else:
        new.data.pop("unknown", None)
    new.plan_events = [i - (1 if i > n else 0) for i in new.plan_events if i != n]
    new.editing = None
    _check(new, "review", review(new))
    return new


def _event_number(d: Draft, what: str) -> int:
    m = re.fullmatch(r"(?:event:)?(\d+)", str(what).strip())
    if not m or not 1 <= int(m.group(1)) <= len(d.events):
        raise InputError(f"there is no event {str(what)[:20]} in this account", "the incident builder",
                         hint=f"the events are numbered 1 to {len(d.events)}")
    return int(m.group(1)) - 1


def table_again(d: Draft) -> Step:
    """The table's questions, as they were answered (the review's "change")."""
    keys = tuple(dict.fromkeys(_table_keys(d) + d.table_keys)) if d.wrong else d.table_keys or _table_keys(d)
    return Step("table", "The table", table_questions(d, keys), 2, _about(d))


def ready(d: Draft) -> bool:
    """Whether the account can be ruled on: a game, an event, nothing half told."""
    return bool(d.game and d.events and d.editing is None and d.pending is None and next_step(d).kind == "review")
