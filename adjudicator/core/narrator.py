"""An incident told in words: the plain account a player would give of what happened.

    Hearts are trumps. West has the lead for the third trick. West leads the ace of spades ...

One narrator for every game. It reads the incident's checked form (incident.Incident: values
already normalised by schema type) and a phrase per event kind. A phrase is a template over the
event's fields, `{by}`, `{card}`..., each field rendered in words by its schema type; a part in
square brackets is said only when every field it names was given (`[ with {card}]`). An event
with no phrase, or a phrase naming a field the event lacks, falls back to a plain sentence built
from its fields, so a game's new events are told before anyone writes their phrases: adding a
game's events is adding entries to PHRASES.
"""
from __future__ import annotations

import re

from adjudicator.core import registry, schema
from adjudicator.core.incident import Incident
from adjudicator.core.incident.games import COUNTERS

RANK_WORD = {14: "ace", 13: "king", 12: "queen", 11: "knave", 10: "ten", 9: "nine", 8: "eight",
             7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two", 1: "ace"}
ORDINAL = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
           "ninth", "tenth", "eleventh", "twelfth", "thirteenth"]

# One phrase per event kind. Fields are rendered by their schema type; `[...]` is said only when
# every field it names is present. Booleans are named by the phrase itself (`[{winning?}, a winning card]`).
ONE_ARRIVES = "{players} comes into the room[{other-table?}, having played at another table]" \
              "[{still-belong?}, and still belonging to it]"
TALON_WORDS = {"turned": "the card turned up", "hidden": "the card under the one turned up"}
PHRASES: dict[str, str | tuple[str, ...]] = {
    "arrive": "{players} come into the room together[{other-table?}, having played at another table]"
              "[{still-belong?}, and still belonging to it]",
    "break-up-table": "{by} breaks up the table; {players} are left",
    "appoint-substitute": "{by} leaves the table and appoints[ {substitute}] as substitute",
    "declare-intention": "{by} declares an intention to enter the table",
    "cut-for-table": "{by} cuts the {card}[ for {purpose}][, exposing {exposed}]",
    "shuffle": "{by} shuffles[ below the table{below-table?}][, exposing the {exposes}][ ({manner})]",
    "cut": "{by} cuts the pack[, exposing the {exposes}][, leaving {smaller-packet} cards in the smaller packet]"
           "[{confusion?}; the cards are confused]",
    "permit": "leave is given to {player} by {by}",
    "deal": ("{by} deals[ with the {pack} pack][{uncut?}, without having the pack cut]"
             "[{out-of-turn?}, out of his turn]",
             "the cards are dealt[ with the {pack} pack][{uncut?}, without the pack having been cut]"
             "[{out-of-turn?}, out of turn]"),
    "deal-incorrectly": "{by} deals a card incorrectly[ ({how})]",
    "deal-another-card": "{by} deals another card",
    "correct-deal": "{by} corrects the deal[, moving {cards-moved} cards]",
    "count-cards": "{by} counts the cards[ on the {where}]",
    "look-at-trump": "{by} looks at the trump card",
    "turn-trump": ("{by} turns up the {card} for trump[{face-down?}, placing it face downward]"
                   "[; the last card came to {came-to}]",
                   "{by} turns up the last card for trump[{face-down?}, placing it face downward]"
                   "[; it came to {came-to}]",
                   "the last card is turned up for trump[{face-down?}, face downward]"),
    "faced-in-pack": "a card[, the {card},] is found faced in the pack[{last?}: the last card]",
    "pack-imperfect": "the pack is found imperfect[: {detail}]",
    "touch": "{by} touches a card",
    "interrupt": "{by} interrupts the dealer[ (about {about})][{upheld?}, and is proved right]",
    "look": "{by} looks at the cards",
    "stop-deal": "{by} stops the deal",
    "take-up-trump": "{by} takes the trump card into the hand",
    "trump-on-table": "the trump card is still lying face up on the table",
    "show-trump-card": "asked for the trump card, {by} shows the {card}",
    "forget-trump": "{by} cannot recollect the trump card",
    "other-pack-card": ("a card of the other pack[, the {card},] is found {where}",
                        "a card of the other pack[, the {card},] is found in the hand of {player}"),
    "lead": ("{by} leads the {card}[{winning?}, a winning card][, holding {holding}][, void in {void}]",
             "{by} leads a card[{winning?}, a winning card][, holding {holding}][, void in {void}]"),   # (which, not known)
    "play": ("{by} plays the {card}[, holding {holding}][, void in {void}]",
             "{by} plays a card[, holding {holding}][, void in {void}]"),
    "renounce": ("{by} renounces with the {card}[, holding {holding}]", "{by} renounces[, holding {holding}]"),
    "correct-renounce": "{by} takes back the renounce[ and plays the {card}]",
    "take-back": ("{by} takes back the {card}", "{by} takes back his card"),
    "turn-and-quit": "the[ {trick}] trick is turned and quitted[, won by {won-by}]",
    "trick-left-open": ("the {trick} trick is still on the table, not turned and quitted, as the next card is led",
                        "the last trick is still on the table, not turned and quitted, as the next card is led"),
    "name-card": "{by} names the {card}",
    "expose": ("{by} exposes {card}[ ({how})]", "{by} exposes a card[ ({how})]"),
    "ask-trump-suit": "{by} asks what the trump suit is",
    "ask-partner": "{by} asks the partner whether he has none of the suit[; the answer: {answer}]",
    "call-attention": "{by} calls attention to the {to}[ ({how})]",
    "claim-rest": "{by} says[ \u201c{words}\u201d]",
    "admit-claim": "{by} admits the claim",
    "look-at-trick": "{by} looks at the[ {trick}] trick, already turned and quitted",
    "throw-down": "{by} throws the cards on the table face upwards",
    "gather": "the cards of the trick are gathered[ by {by}]",
    "omit-play": "{by} omits to play[ to the {trick} trick]",
    "wrong-number": ("{player} is found with {surplus} too many[ and {missing} too few]",
                     "{player} is found with {missing} too few",
                     "{player} is found with the wrong number of cards"),
    "mix-into-trick": "{by} mixes a card[, the {card},] into the[ {trick}] trick",
    "damaged-card": "a card[ ({card})] is found[ {how}]",
    "bystander-remark": "a bystander[, {bystander},] remarks on the {about}",
    "end-of-hand": "the hand is played out[; tricks taken: {tricks}]",
    "demand": "{by} demands {remedy}[, {suit}][, the {card}][, {call}][, from {from}]",
    "decline": "{by} declines {remedy}[, the {card}]",
    "consult": "{by} consult",
    # Boston, Solo Whist: the bidding
    "make-bid": "{by} bids {bid}",
    "correct-bid": "{by} corrects his bid[ to {bid}]",
    "pass": "{by} passes",
    # piquet
    "discard": ("{by} discards {cards}", "{by} discards {count}", "{by} discards"),
    "ask-to-show": ("{by} asks his adversary {question}",
                    "{by} asks his adversary to show the cards of his call"),
    "ask-point": "{by} asks what the point makes",
    "count-stock": "the stock is counted[ by {by}]: it holds {count}",
    "expose-in-dealing": "{by} exposes[ the {card}] in dealing (whose card: {whose})",
    "take-up-hand": "{by} takes up his cards",
    "cut-for-deal": "{by} cuts[ the {card}] for the deal[, exposing {exposed}]",
    "mix-with-discard": "{by} mixes[ the {card}][{left-cards?} the cards he left] with his discard",
    "see-left-cards": "{by} looks at the cards the younger hand left",
    "correct-reply": "{by} corrects his reply",
    "drop-card": "{by} drops[ the {card}] by accident",
    "accept": "{by} accepts the proposal",
    "take-from-talon": "{by} takes from the talon {which}[, the {card}][{shown?}, showing or naming it]",
    "misinform": "{by}, asked what he holds of a call allowed good or equal, misinforms his adversary",
    "answer": ("{by} answers: the {card}", "{by} answers: {count}", "{by} answers: {suit}", "{by} answers"),
    "show-carte-blanche": "{by} shows his carte blanche, counting the cards face upward on the table",
    "put-back-stock": "{by} puts back on the stock the card at place {position}",
    "alter-discard": "{by} claims to alter his discard",
    "retract-lead": ("{by} claims to take back the {card} he led", "{by} claims to take back the card he led"),
    "offer-fresh-deal": "{by} offers a fresh deal",
    "answer-offer": "{by} answers the offer of a fresh deal: he {answer}s it",
    "wish": ("{by} says he wished {what}[: the {card}][ (\u201c{words}\u201d)]",),
    "name-suit": "{by} names[ {suit} as] the suit he will first lead",
    "correct-count": "{by} proves an error in the count of {player}'s hand and asks that it be rectified",
    "see-next-hand": "{by} sees his hand of the next deal",
    "scores-differ": "the written scores differ on {player}'s score for his hand",
    "leave-cards": "{by} declares that he leaves {count} of his cards in the stock",
    "take-up-stock": "{by} handles the card at place {position} of the stock[, the {card}][ ({how})]",
    "announce-carte-blanche": "{by} tells his adversary that he has carte blanche",
    "call": "{by} calls a {what}[ of {count}][, {value}][ in {suit}][ to the {to}][ of {of}][, {cards}]"
            "[, not the {without}]",
    # a call that completes the one before (a phrase of its own: FLAGGED below)
    "call:completes": "{by} completes his call[: {value}][ in {suit}][ to the {to}][ of {of}][, {cards}]"
                      "[, not the {without}]",
    "reply": "{by} replies: {answer}",
    "correct-call": "{by} corrects his call",
    "retake-discard": "{by} takes back into his hand[ the {card},] a card of his discard",
    "show-call": ("{by} shows {cards}", "{by} shows the cards of his call"),
    "claim-revoke": "{by} claims a revoke[ against {against}][ in the {trick} trick]",
    "mix-cards": "{by} mixes the cards",
    "examine": "the tricks are examined[ by {by}][{proves?}, and the revoke is proved]",
    "correct-score": "{by} asks that the {score} score be corrected",
    "call-honours": "{by} calls honours[: {honours}]",
    "agree-score": "the players agree the score",
    "cut-for-next-deal": "the cards are cut for the next deal[ by {by}]",
    # loo
    "declare": "{by} declares {what}",
    "look-at": "{by} looks at {what}[ ({whose}'s)]",
    "exchange": ("{by} puts out {cards} and is given as many", "{by} keeps the cards he holds, putting out none"),
    "take-back-exchanged": "{by} takes back a card he put out in the exchange",
    "declare-flush": "{by} declares a flush: {cards}",
    # Draw Poker
    "draw-for-deal": "{by} draws the {card} for the deal",
    "straddle": "{by} straddles",
    "point-out-no-cut": "{by} points out to the dealer that the pack was not cut",
    "finish-deal": ("{by} finishes the deal: every player has all his cards",     # (five at poker,
                    "the deal is finished: every player has all his cards"),   # thirteen at Boston)
    "dealer-exposes": ("{by} exposes[ the {card},] a card dealt to {to}, while dealing",
                       "the dealer exposes[ the {card},] a card dealt to {to}, while dealing"),
    "exchange-exposed": "{by} exchanges the exposed card for another",
    "speak-to-dealer": "{by} speaks to the dealer[ ({how})]",
    "open": "{by} opens the game[, staking {amount}]",
    "bet": "{by} adds {amount} to his stake",
    "stand": "{by} stands: he declines to bet until the next round",
    "draw": ("{by} discards {cards} and draws as many[ (the dealer gives him {received})][{pack-out?}, the pack "
             "running out]",
             "{by} keeps the cards he holds, discarding none"),
    "take-back-discard": "{by} takes back a card he discarded",
    "show-hand": "{by} lays his cards face upwards on the table: {cards}",
}

# A number of cards an event's field gives, told with its noun ("1 card", "3 cards", "no cards"); a
# count of none for a draw or an exchange is told by the event's second phrase (he keeps his cards).
# An event told by a phrase of its own when a flag of it is true ("call:completes").
FLAGGED = {"call": "completes"}
# Piquet: what a question about a call asks, what a wish was, where a card of the other pack is found.
QUESTION_WORDS = {"card-out": "which card of the rank his call does not reckon", "how-many": "how many cards he holds",
                  "to-what-card": "to what card his sequence is", "what-suit": "in what suit his call is"}
WISH_WORDS = {"play-another-card": "to have played another card", "alter-discard": "to alter his discard",
              "fresh-deal": "for a fresh deal", "no-fresh-deal": "not to have a fresh deal",
              "not-declare": "not to declare what he holds", "other": "something else"}
COUNTED = {"wrong-number": ("surplus", "missing"), "discard": ("count",), "count-stock": ("count",),
           "answer": ("count",),
           "exchange": ("cards",), "draw": ("cards", "received")}
KEPT = {"exchange": "cards", "draw": "cards"}


# The Boston family's stakes, each in the counters its laws name (core/incident/games.py's COUNTERS).
COUNTER_STAKES = {"red-counter": "a red counter is worth {n}", "bid-value": "the bid played is worth {n} from each "
                  "adversary", "over-trick": "an over-trick {n}", "pool": "the pool holds {n}"}


# A demand naming what the player is called upon to do, by the remedy demanded ("Dodd demands the
# lowest card of the suit led"): the story and the ruling's record of the demand (ruling.Namer) say it.
_HL, _WIN, _TRUMP = "call-highest-or-lowest", "call-win-or-not", "call-highest-or-lowest-trump"
CALL_WORDS = {
    "highest": {_HL: "the highest card of the suit led", _TRUMP: "the highest trump"},
    "lowest": {_HL: "the lowest card of the suit led", _TRUMP: "the lowest trump"},
    "trump": {_HL: "that the trick be trumped"},
    "not-trump": {_HL: "that the trick be not trumped"},
    "win": {_HL: "that the trick be won", _WIN: "that the trick be won"},
    "not-win": {_HL: "that the trick be not won", _WIN: "that the trick be not won"},
    "lose": {_HL: "that the trick be lost", _WIN: "that the trick be lost"},
}


def unit_singular(unit: str) -> str:
    """The name of one of the stakes' unit: pence -> penny, shillings -> shilling, counters -> counter;
    a name not in the plural (a unit written as one, 'chip value') is kept."""
    irregular = {"pence": "penny", "halfpence": "halfpenny"}
    low = unit.lower()
    if low in irregular:
        return irregular[low] if unit == low else irregular[low].capitalize()
    if low.endswith("s") and not low.endswith("ss") and len(low) > 2:
        return unit[:-1]
    return unit


def cards_count(n: int) -> str:
    return "no cards" if n == 0 else f"{n} card" if n == 1 else f"{n} cards"


# Loo: a declaration, and what a player looks at, in the words of the laws (declaring.1).
LOO_WORDS = {"stand": "to stand", "throw-up": "to throw up his hand", "take-miss": "to take the miss",
             "his-cards": "his cards", "miss": "the miss", "thrown-up-cards": "thrown-up cards",
             "undealt-pack": "the undealt portion of the pack", "another-hand": "another player's cards"}

_FIELD = re.compile(r"\{([a-z-]+)(\?)?\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")


def card_words(card) -> str:
    rank, suit = card
    return f"{RANK_WORD.get(rank, str(rank))} of {suit}"


def _and(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def side_said(game: str, side: str) -> str:
    """A side in words: its players' seats ("North and South"), in the story and the ruling alike."""
    table = registry.table(game)
    return _and([table.word(s) for s in table.sides.get(side, ())]) or side


def call_said(remedy: str, call) -> str | None:
    """What a demand of `remedy` calls for, as the player made it ("the lowest card of the suit
    led"); None where the call has no words of its own for that remedy."""
    return CALL_WORDS.get(call, {}).get(remedy) if isinstance(call, str) else None


class Narrator:
    """Tells one incident; seats in players' names when given, else in the seat's word."""

    def __init__(self, inc: Incident):
        self.inc = inc
        self.names = names_of(inc)
        self._dealing = None        # who is dealing, once a `deal` names him (event())

    def sentence(self, text: str) -> str:
        return sentence(text, self.names)

    # --- values in words ------------------------------------------------------------------
    def seat(self, seat) -> str:
        if isinstance(seat, tuple) and len(seat) == 2 and seat[0] in ("seat", "name"):
            return self.seat(seat[1]) if seat[0] == "seat" else str(seat[1])
        name = self.inc.players.get(seat)
        if name:
            return name
        table = registry.table(self.inc.game)
        return table.word(seat) if seat in table.seats else f"the {str(seat).replace('-', ' ')} hand"

    def side_word(self, side: str) -> str:
        return side_said(self.inc.game, side)

    def value(self, type_: str, v, key: str = "") -> str:
        if v is None:
            return ""
        if type_ in ("seat", "person"):
            return self.seat(v)
        if type_ == "seats":
            seats = list(v)
            for side, members in registry.table(self.inc.game).sides.items():
                if sorted(seats) == sorted(members) and not any(s in self.inc.players for s in seats):
                    return self.side_word(side)
            return _and([self.seat(s) for s in seats])
        if type_ == "card":
            return card_words(v)
        if type_ == "cards":
            return _and(["the " + card_words(c) for c in v])
        if type_ == "holding":
            return _and(["the " + card_words(x) if k == "card" else x for k, x in v])
        if type_ == "suits":
            return _and(list(v))
        if type_ == "trick":
            n = int(v)
            return ORDINAL[n] if 0 < n < len(ORDINAL) else f"number {n}"
        if type_ == "names":
            return _and([str(x) for x in v])
        if type_ == "remedy":         # in words, never its id ("demands the card called")
            return registry.remedy_words().get(v) or f"\u201c{v}\u201d"
        if type_ == "bool":
            return "yes" if v else "no"
        if type_ == "side-scores":         # (each seat's own, at a table with no fixed sides)
            seats = registry.table(self.inc.game).seats
            return ", ".join(f"{self.seat(k) if k in seats else self.side_word(k)} {n}" for k, n in v.items())
        if isinstance(v, (list, tuple)):
            return _and([str(x) for x in v])
        if isinstance(v, dict):
            return _and([f"{k} {x}" for k, x in v.items()])
        text = " ".join(str(v).split())         # one line of the story, however it was written
        return text.replace("-", " ") if key in ("how", "about", "manner", "purpose", "call", "pack", "answer",
                                                 "where", "to", "score") else text

    @staticmethod
    def _dealer_default(event: str) -> bool:
        """Whether the event's `by`, when omitted, is the dealer (schema: 'the dealer if omitted')."""
        ev = schema.EVENTS.get(event)
        f = ev.field("by") if ev else None
        return f is not None and "dealer if omitted" in f.doc

    @staticmethod
    def _field_type(event: str, key: str, v=None) -> str:
        ev = schema.EVENTS.get(event)
        f = ev.field(key) if ev else None
        if f is None:       # a field the schema does not define: guessed from its name and value
            if key in ("by", "player", "from", "against", "to", "winner"):
                return "seats" if isinstance(v, list) else "seat"
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], int):
                return "card"
            return "bool" if isinstance(v, bool) else "text"
        if f is not None and f.choices:
            return "text"
        return f.type if f is not None else "text"

    # --- sentences -------------------------------------------------------------------------
    def event(self, ev) -> str:
        """One event as a sentence (capitalised, with its full stop)."""
        words = {k: self.value(self._field_type(ev.name, k, v), v, k) for k, v in ev.fields.items()}
        flags = {k for k, v in ev.fields.items() if v is True}
        if ev.name in ("declare", "look-at"):       # loo: what he declares or looks at, in the laws' words
            words["what"] = LOO_WORDS.get(ev.fields["what"], words["what"])
        if ev.name in ("make-bid", "correct-bid") and isinstance(ev.fields.get("bid"), str):    # the bid in words
            words["bid"] = self.bid_words(ev.fields["bid"])
        if ev.name == "ask-to-show" and "question" in ev.fields:      # piquet: a question about a call
            words["question"] = QUESTION_WORDS.get(ev.fields["question"], words["question"])
            if ev.fields["question"] == "how-many" and "suit" in ev.fields:
                words["question"] = f"how many {words['suit']} he holds"
        called = ev.name == "demand" and call_said(ev.fields.get("remedy"), ev.fields.get("call"))
        if called:                  # the call as made, not the law's choice
            words["remedy"] = called
            words.pop("call")
        if ev.name == "wish":
            words["what"] = WISH_WORDS.get(ev.fields["what"], words["what"])
        if ev.name == "other-pack-card" and "where" in ev.fields:       # piquet: hand, discard or stock
            where, who = ev.fields["where"], words.get("player", "")
            words["where"] = (f"in the stock as {who} takes in" if where == "stock" else f"in {who}'s {where}")
        if ev.name == "take-from-talon":            # German Whist: which card of the talon
            words["which"] = TALON_WORDS.get(ev.fields["which"], words["which"])
        for k in COUNTED.get(ev.name, ()):
            v = ev.fields.get(k)
            if isinstance(v, int) and not isinstance(v, bool):
                words[k] = cards_count(v)
        if ev.fields.get(KEPT.get(ev.name, "")) == 0:
            words.pop(KEPT[ev.name])
        unit = (self.inc.top.get("stakes") or {}).get("unit")
        if unit and isinstance(ev.fields.get("amount"), int):    # a sum staked, in the unit of the stakes
            n = ev.fields["amount"]
            words["amount"] = f"{n} {unit_singular(unit) if n == 1 else unit}"
        if ev.name == "deal" and isinstance(ev.fields.get("by"), str):
            self._dealing = ev.fields["by"]       # who deals from here on (a new game's dealer at poker)
        if "by" not in words and self._dealer_default(ev.name):
            dealing = self._dealing or self.inc.top.get("dealer")
            if dealing:
                words["by"] = self.seat(dealing)
        flag = FLAGGED.get(ev.name)
        phrases = (flag and ev.fields.get(flag) is True and PHRASES.get(f"{ev.name}:{flag}")) \
            or PHRASES.get(ev.name) or ()
        if ev.name == "arrive" and len(ev.fields.get("players") or ()) == 1:    # one comer: not "Gray come ... together"
            phrases = ONE_ARRIVES
        text = None
        for phrase in (phrases,) if isinstance(phrases, str) else phrases:
            text = self._fill(phrase, words, flags)
            if text:
                break
        if not text:
            text = self.generic(ev.name, words)
        return self.sentence(text)

    @staticmethod
    def _fill(phrase: str, words: dict, flags: set) -> str | None:
        def optional(m):
            part = m.group(1)
            for name, q in _FIELD.findall(part):
                if (q and name not in flags) or (not q and not words.get(name)):
                    return ""
            return part

        text = _OPTIONAL.sub(optional, phrase)
        missing = [name for name, q in _FIELD.findall(text) if not q and not words.get(name)]
        if missing:
            return None
        text = _FIELD.sub(lambda m: "" if m.group(2) else words[m.group(1)], text)
        return text

    def generic(self, name: str, words: dict) -> str:
        """The plain sentence for an event no phrase tells: who, what (the event's name), and the rest."""
        who = words.get("by") or words.get("player")
        what = name.replace("-", " ")
        rest = [f"{k.replace('-', ' ')}: {v}" for k, v in words.items() if v and k not in ("by",)
                and not (k == "player" and not words.get("by"))]
        head = f"{who}: {what}" if who else f"Event: {what}"
        return head + (f" ({'; '.join(rest)})" if rest else "")

    def setting(self) -> list[str]:
        top, out = self.inc.top, []
        if self.inc.players:
            out.append(self.sentence(_and([f"{registry.table(self.inc.game).word(s)} is {n}"
                                      for s, n in self.inc.players.items()])))
        for key in ("dummy", "dummies"):
            if key in top:
                seats = top[key] if isinstance(top[key], list) else [top[key]]
                out.append(self.sentence(f"{_and([self.seat(s) for s in seats])} "
                                    f"{'is Dummy' if len(seats) == 1 else 'are the Dummies'}"))
        if "dealer" in top:
            out.append(self.sentence(f"{self.seat(top['dealer'])} is the dealer"))
        if "bid" in top:
            out.append(self.sentence(self.bid(top["bid"])))
        if "trump_card" in top:
            out.append(self.sentence(f"The {card_words(top['trump_card'])} is turned up: "
                                f"{top['trump']} are trumps"))
        elif "trump" in top:
            out.append(self.sentence(f"{top['trump']} are trumps"))
        if "score" in top:
            out.append(self.sentence("The score: " + self.value("side-scores", top["score"])))
        if "partie" in top:
            deals = top["partie"]["deals"]
            told = "; ".join(f"deal {k}, " + _and([f"{self.seat(x)} {n}" for x, n in d.items()])
                             for k, d in enumerate(deals, start=1))
            kind = "a partie of four deals" if top["partie"]["four_deals"] else "the partie"
            out.append(self.sentence(f"The scores in {kind} so far: {told}" if deals
                                else f"This is the first deal of {kind}"))
        if "stakes" in top and self.inc.game in COUNTERS:      # the Boston family, in its laws' counters
            out.append(self.sentence("The stakes, in " + COUNTERS[self.inc.game] + ": "
                                     + _and([COUNTER_STAKES[k].format(n=n) for k, n in top["stakes"].items()])))
        elif "stakes" in top:         # loo, poker
            unit = top["stakes"].get("unit")
            told = [f"{k} {n}" + (f" {unit_singular(unit) if n == 1 else unit}" if unit else "")
                    for k, n in top["stakes"].items() if k != "unit"]
            out.append(self.sentence("The stakes: " + _and(told)))
        if "jack_pot" in top:
            n = top["jack_pot"]
            out.append(self.sentence(f"This game is a jack-pot, the {ORDINAL[n] if n < len(ORDINAL) else f'number {n}'} "
                                "in a row"))
        if "game_points" in top:    # Chinese Whist
            out.append(self.sentence(f"The players made the game {top['game_points']} points"))
        if top.get("variations"):
            out.append(self.sentence("The company agreed before play to " + _and([v.replace("-", " ")
                                                                            for v in top["variations"]])))
        if "start" in top:
            trick, leader = top["start"]
            out.append(self.sentence(f"{self.seat(leader)} has the lead for the {self.value('trick', trick)} trick"))
        return out

    BID_WORDS = {"little-misere": "little misère", "grand-misere": "grand misère", "little-spread": "little spread",
                 "grand-spread": "grand spread", "misere": "misère", "abundance-declared": "abundance declared",
                 "suit": "a trump suit", "grand": "grand (no trumps)", "nullo": "nullo"}

    @classmethod
    def bid_words(cls, what: str) -> str:
        """A bid as the books write it ("little misère", "misère des quatre as", "six tricks")."""
        return cls.BID_WORDS.get(what) or what.replace("-", " ").replace("misere", "mis\u00e8re")

    def bid(self, bid: dict) -> str:
        """The bid of a Boston, Solo Whist or Cayenne hand, in words."""
        what = bid["bid"]
        if what == "misere-partout":
            return "No one bid: Misère Partout is played, each for himself"
        words = self.bid_words(what)
        if what == "proposal":
            return f"{self.seat(bid['by'])} proposes and {self.seat(bid['partner'])} accepts: they play together " \
                   "against the other two"
        if "partner" in bid:
            return f"{self.seat(bid['by'])} bids {words} and {self.seat(bid['partner'])} joins him as his partner: " \
                   "they play together against the other two"
        if self.inc.game == "cayenne":
            return f"{self.seat(bid['by'])} declares {words}"
        return f"{self.seat(bid['by'])} bids {words} and plays alone against the other three"

    def tell(self) -> str:
        """The whole account: the setting, then each event in order, as one paragraph. An event told
        in the very words of the one before is told as done again ("Ames cuts the pack. Ames cuts the
        pack again."), not twice over as if the account had been copied twice."""
        told: list[str] = []
        before = None
        for ev in self.inc.events:
            sentence = self.event(ev)
            said = sentence[:-1] + " again." if sentence == before and sentence.endswith(".") else sentence
            before = sentence
            told.append(said)
        return " ".join(self.setting() + told)


def names_of(inc: Incident) -> tuple[str, ...]:
    """The players' names as written (`players`, `candidates`): a sentence may begin with one."""
    return tuple(inc.players.values()) + tuple(getattr(inc, "candidates", None) or ())


def capital(text: str, names: tuple[str, ...] = ()) -> str:
    """The text with a capital first letter, unless it begins with a player's name: a name stays
    as written (a player called `yes` or `null` is not made `Yes` or `Null`)."""
    if not text or any(n and text.startswith(n) and not text[len(n):len(n) + 1].isalnum() for n in names):
        return text
    return text[0].upper() + text[1:]


def sentence(text: str, names: tuple[str, ...] = ()) -> str:
    text = re.sub(r"\s+", " ", text).strip().replace(" ,", ",")
    if not text:
        return text
    text = capital(text, names)
    return text if text.endswith((".", "!", "?", ".\u201d", "!\u201d", "?\u201d")) else text + "."


def tell(inc: Incident) -> str:
    return Narrator(inc).tell()
