"""The incident format: the single definition of every top-level key, event and field.

Validation (incident.py), the facts handed to clingo (facts.py) and the reference part of
docs/incident-format.md are all made from the tables below; tests/test_docs.py fails when the
document and this module drift apart.

An incident states *what happened*, in order, in the words of the laws. It never states what
it means (that a lead was out of turn, that a revoke is established, that a right is lost):
the rules derive that.
"""
from __future__ import annotations


# --------------------------------------------------------------------------------------------
# Field types. Each names how a YAML value is read; facts.py turns the value into a symbol.
# --------------------------------------------------------------------------------------------
TYPES = {
    "seat": "a seat, N, E, S or W, or the name of the player in that seat (see `players`)",
    "seats": "a list of seats, or a side written N-S or E-W",
    "person": "a player's name (a candidate for the table) or a seat",
    "names": "a list of players' names",
    "card": "a card: rank then suit, e.g. KS, 10H, TD, 2C, AS (ranks A K Q J 10/T 9-2; suits S H D C)",
    "cards": "a card, or a list of cards",
    "holding": "a card, a suit, or a list of them: what the player is known to have held at that moment",
    "suit": "a suit: spades, hearts, diamonds or clubs (or S, H, D, C)",
    "suits": "a suit, or a list of suits",
    "trump": "the trump suit, or the trump card turned up (e.g. 7H)",
    "int": "a whole number",
    "trick": "the number of a trick, 1 to the game's last (whist 13, piquet 12, loo 5, German Whist 26)",
    "bool": "true or false",
    "text": "free text, kept for the reader; the rules never read it",
    "events": "a list of events, each a one-key mapping `- name: {field: value, ...}` (the Events below)",
    "unknowns": "a list of facts not known, each a mapping `{event: N, field: F}` or `{order: [N, M]}` "
                "(docs/unknowns.md)",
    "side-scores": "a mapping of side to number, e.g. {N-S: 3, E-W: 5}",
    "side-games": "a mapping of side to the list of the games it has won, each by its value in points, "
                  "e.g. {N-S: [2], E-W: []}",
    "players": "a mapping of seat to name, e.g. {N: Ames, E: Brown, S: Clark, W: Dodd}",
    "hands": "a mapping of seat to the list of cards dealt to that seat",
    "name-counts": "a mapping of player's name to number, e.g. {Ames: 3, Brown: 1}",
    "partie": "piquet: a mapping with `deals`, the list of the deals already played in this partie, each "
              "a mapping of player (seat or name) to his score in it, e.g. {elder: 42, younger: 17}; and "
              "`four-deals: true` for the partie of four deals by agreement (law 71, note)",
    "start": "a mapping: trick (the first trick the events describe) and leader (who is to lead it)",
    "remedy": "the stable id of a remedy, as the rulings print it (e.g. call-suit, new-deal)",
    "stakes": "loo and poker: a mapping of the stakes agreed, each a whole number of one unit: `ante`, `limit` "
              "(poker); `single` (the stake for a deal), `loo` (a full loo), `limit` (mixed loo), `pool` (what is "
              "in the pool now) (loo); and `unit`, the unit's name for the rulings (e.g. pence, counters). The "
              "Boston family, in the counters its laws name (white counters; French Boston's counters), no `unit`: "
              "`red-counter` (what a red counter is worth: Boston, Boston de Fontainebleau), `bid-value` (what the "
              "bid played is worth from each adversary, as the table of payments gives it), `over-trick` (Boston), "
              "`pool` (what the pool holds now)",
    "variations": "loo: a list of the variations of the plain game agreed before play: club-law, unlimited-loo, "
                  "mixed-loo, five-card-loo, irish-loo",
    "bid": "a mapping: by (the bidder's seat), bid (what he undertook), partner (Solo Whist: the "
           "player who accepted a proposal), and result (won or lost: how the hand ended for the bidder, "
           "when it is known)",
}
# The bids of each game that has them (top-level `bid`), as the exceptions of the American code and
# Foster's descriptions name them. Misères and spreads undertake to lose every trick (a little misère
# or spread after discarding a card); the others, to win the number named.
BIDS: dict[str, tuple[str, ...]] = {
    "boston": ("five-tricks", "six-tricks", "seven-tricks", "eight-tricks", "nine-tricks", "ten-tricks",
               "eleven-tricks", "twelve-tricks", "thirteen-tricks", "little-misere", "grand-misere",
               "little-spread", "grand-spread", "misere-partout"),
    "solo-whist": ("proposal", "solo", "misere", "abundance", "spread", "abundance-declared"),
    "cayenne": ("suit", "grand", "nullo"),
    "boston-de-fontainebleau": ("five-tricks", "six-tricks", "little-misere", "seven-tricks", "piccolissimo",
                                "eight-tricks", "grand-misere", "nine-tricks", "little-spread", "ten-tricks",
                                "grand-spread", "eleven-tricks", "twelve-tricks", "thirteen-tricks", "spread-slam",
                                "misere-partout"),
    "french-boston": ("simple-in-petite", "simple-in-belle", "petite-independence", "petite-misere",
                      "grand-independence", "grand-misere", "misere-des-quatre-as", "neuf", "neuf-en-petite",
                      "neuf-en-belle", "petite-misere-sur-table", "grand-misere-sur-table"),
}
# The bids a partner may join, by game: in Solo Whist a proposal is played with its acceptor (and
# must be); in Boston de Fontainebleau the successful bidder of tricks may call for a partner.
PARTNER_BIDS: dict[str, frozenset] = {
    "solo-whist": frozenset({"proposal"}),
    "boston-de-fontainebleau": frozenset(b for b in BIDS["boston-de-fontainebleau"] if b.endswith("-tricks")),
    "french-boston": frozenset({"simple-in-petite", "simple-in-belle"}),
}
MISERES = frozenset({"little-misere", "grand-misere", "little-spread", "grand-spread", "misere", "spread"})


class Field:
    """One key of the format: its name, value type, meaning, and whether it is required."""

    __slots__ = ("name", "type", "doc", "required", "choices", "span")

    def __init__(self, name: str, type: str, doc: str, required: bool = False, choices: tuple = (),
                 span: tuple[int, int] | None = None):
        self.name, self.type, self.doc, self.required, self.choices = name, type, doc, required, choices
        self.span = span            # an int's least and greatest value, where the cards bound it


class Event:
    """One event of the format, with its fields and an example. (The laws that read it are worked
    out from the rules, for every code: laws.event_laws.)"""

    __slots__ = ("name", "doc", "fields", "example", "group")

    def __init__(self, name, doc, fields, example, group):
        self.name, self.doc, self.fields, self.example = name, doc, fields, example
        self.group = group

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


def F(name, type_, doc, required=False, choices=(), span=None):
    return Field(name, type_, doc, required, tuple(choices), span)


BY = F("by", "seat", "who did it", required=True)
BY_OPT_DEALER = F("by", "seat", "who did it (the dealer if omitted)")
CARD_OPT = F("card", "card", "the card, when it is known or matters")
HOLDING = F(
    "holding",
    "holding",
    "cards or suits the player is known to have held at that moment (evidence for a "
    "renounce in error or a failure to follow a call)",
)
VOID = F("void", "suits", "suits of which the player held no card at that moment")

# The games, in the order rules/codes.yaml gives them (tests/test_docs.py checks they are its
# games: the schema is read at every start, and codes.yaml is parsed only when a command needs it).
GAMES = ("whist", "dummy", "double-dummy", "boston", "cayenne", "solo-whist", "piquet", "loo", "poker",
         "boston-de-fontainebleau", "french-boston", "german-whist", "chinese-whist")

# --------------------------------------------------------------------------------------------
# Top-level keys of an incident (and of a case file, which adds `name` and `expected`).
# --------------------------------------------------------------------------------------------
TOP = (
    F("game", "text", "the game: one of those rules/codes.yaml defines (`adjudicator codes` lists them)",
      required=True, choices=GAMES),
    F("code", "text", "the code of laws; the game's default when omitted (`adjudicator codes` lists them)"),
    F("name", "text", "case files only: a sentence stating the ruling the case proves"),
    F("expected", "text", "case files only: the rulings expected (see the section on case files)"),
    F("note", "text", "anything the reader should know; the rules never read it"),
    F("players", "players", "names of the players in each seat; events may then use names for seats"),
    F("candidates", "names", "forming a table: everyone who belongs to it or wants to (laws 2-7)"),
    F("games-played", "name-counts", "forming a table: consecutive games each candidate has played (law 5; "
      "under the English code, consecutive rubbers: law 20)"),
    F("dummy", "seat", "game dummy only, and required there: the seat of Dummy's hand, which lies exposed "
      "and is played by his partner; a card from it is written `by:` that seat"),
    F("dummies", "seats", "game double-dummy only, and required there: the two seats of the Dummy hands, "
      "one on each side, e.g. [N, E]; each is played by its partner"),
    F("bid", "bid", "games boston, solo-whist, cayenne, boston-de-fontainebleau and french-boston: the bid that won (or the declaration) and who made "
      "it, e.g. {by: N, bid: seven-tricks} or, in Solo Whist, {by: N, bid: proposal, partner: S}. In "
      "Boston and Solo Whist the bidder plays alone against the other three (with the acceptor of a "
      "proposal as his partner): the sides of the hand come from the bid. Boston: five-tricks ... "
      "thirteen-tricks, little-misere, grand-misere, little-spread, grand-spread, or misere-partout "
      "(every player passed; no `by`: each plays for himself). Solo Whist: proposal (with `partner`, the "
      "acceptor), solo, misere, abundance, spread, abundance-declared. Cayenne (the dealer or his "
      "partner declares): suit, grand, nullo. Boston de Fontainebleau: Boston's, with piccolissimo and "
      "spread-slam, and `partner` for a bid of tricks when the bidder calls for a partner. French Boston: "
      "simple-in-petite, simple-in-belle (with `partner` when the demand is accepted), petite-independence, "
      "petite-misere, grand-independence, grand-misere, misere-des-quatre-as, neuf, neuf-en-petite, "
      "neuf-en-belle, petite-misere-sur-table, grand-misere-sur-table."),
    F("dealer", "seat", "the player whose turn it is to deal this hand (who actually deals is a `deal` event); at "
      "poker, an account running into a later game: the first game's (each later game's is the player on the "
      "left of the last dealer, rule 18)"),
    F("first-deal-of-rubber", "bool", "this deal is the first of a rubber (Dummy, law I: Dummy deals at the "
      "commencement of each rubber, so `dealer` must then be Dummy's seat)"),
    F("trump", "trump", "the trump suit, or the trump card turned up"),
    F("score", "side-scores", "the score of each side before this hand"),
    F("rubber", "side-games", "the games each side has won in this rubber before this hand, each by its value: "
      "e.g. {N-S: [2], E-W: []} (N-S have won a double)"),
    F("start", "start", "where the events begin, when not at the deal: e.g. {trick: 5, leader: W}"),
    F("partie", "partie", "game piquet only: the scores of the deals already played in this partie; the "
      "ruling then reckons the partie (laws 71-73), this deal included when it is scored"),
    F("hands", "hands", "the cards each player was dealt, when known (lets the rules see who held what); at loo, "
      "a player who took the miss holds the miss; at piquet, the hand held in play, after taking in from the "
      "stock (the declarations are scored from it)"),
    F("stakes", "stakes", "games loo, poker, boston, boston-de-fontainebleau and french-boston: the stakes agreed "
      "(and, at loo and in the Boston family, what is in the pool); the rulings then say who pays how much, in the "
      "unit named, e.g. {ante: 1, limit: 24, unit: pence}, or in the Boston family's counters, e.g. {red-counter: 10, "
      "bid-value: 100, pool: 40}; without them, in the laws' own units (a single, the full loo, double the ante, "
      "a red counter, the value of the bid)"),
    F("jack-pot", "int", "game poker only: this game is a jack-pot, the N-th in a row since a game was last opened "
      "(1: it may be opened with a pair of knaves or better, 2: queens, 3: kings, 4: knaves again ...)"),
    F("game-points", "int", "where the code lets the players choose it (chinese-whist): the points that make the game, as the players agreed (5, 7 "
      "or 10, the Objects of the game: 'Five, seven, or ten points may be made the game, at the option of the "
      "players, but ten is the usual number'); without it, ten"),
    F("variations", "variations", "game loo only: the variations of the plain game the company agreed before play "
      "(club-law, unlimited-loo, mixed-loo, five-card-loo, irish-loo); without it, the plain game's rules"),
    F("events", "events", "what happened, in order: a list of events (below)", required=True),
    F("unknown", "unknowns", "facts nobody can now establish, each a mapping: `{event: N, field: F}` (optionally "
      "`one-of: [...]`, `~` for 'not so') or `{order: [N, M]}`, events numbered from 1; "
      "the ruling then says what holds whatever they were and what turns on each (docs/unknowns.md)"),
)

# --------------------------------------------------------------------------------------------
# Events. Each is a one-key mapping: `- lead: {by: W, card: KS}`.
# --------------------------------------------------------------------------------------------
_E: list[Event] = []


def event(name, group, doc, fields, example):
    _E.append(Event(name, doc, tuple(fields), example.strip(), group))


# Forming the table -------------------------------------------------------------------------
G = "Forming the table"
event("arrive", G, "These players came into the room together; `arrive` events are in order of arrival.",
      [F("players", "names", "who arrived together", required=True),
       F("other-table", "bool", "they have belonged to, or played at, another table"),
       F("still-belong", "bool", "they belong now to another table")],
      "- arrive: {players: [Ames, Brown]}")
event("break-up-table", G, "A player breaks up the table he was playing at; the others who sat at it are left.",
      [F("by", "person", "who broke it up", required=True),
       F("players", "names", "the remaining players of that table", required=True)],
      "- break-up-table: {by: Ellis, players: [Ames, Brown, Clark]}")
event("appoint-substitute", G, "A player quitting the table before the end of the rubber appoints a substitute.",
      [BY, F("substitute", "text", "the substitute's name")],
      "- appoint-substitute: {by: S, substitute: Ellis}")
event("declare-intention", G, "A player declares his intention to enter the table.",
      [F("by", "person", "who declares", required=True)],
      "- declare-intention: {by: Ellis}")
event("cut-for-table", G,
      "A player cuts (or draws from the outspread pack) to decide who plays, who are partners, "
      "or who cuts out. A second cut by the same player for the same purpose is a cut again.",
      [F("by", "person", "who cut", required=True),
       F("card", "card", "the card cut", required=True),
       F("purpose", "text", "what the cut decides; when omitted, who plays and partners",
         choices=("preference", "partners", "cutting-out")),
       F("exposed", "cards", "every card he exposed in cutting, when more than one")],
      "- cut-for-table: {by: Ames, card: 3H}")

# Shuffling, cutting and dealing ------------------------------------------------------------
G = "Shuffling, cutting and dealing"
event("shuffle", G, "A player shuffles the pack.",
      [BY, F("exposes", "card", "a card whose face was seen in the shuffle"),
       F("below-table", "bool", "he shuffled below the table"),
       F("manner", "text", "how he shuffled, when by dealing the cards into packets or across the table",
         choices=("into-packets", "across-the-table"))],
      "- shuffle: {by: S}")
event("cut", G, "The pack is cut for this deal.",
      [BY,
       F("exposes", "card", "a card exposed in cutting or in reuniting the packets"),
       F("smaller-packet", "int", "how many cards were left in the smaller packet", span=(0, 52)),
       F("confusion", "bool", "the cards were confused, or it is doubtful where the pack was separated")],
      "- cut: {by: E}")
event("permit", G, "Players give a player leave to do what needs their consent: to shuffle, cut or deal in his "
      "partner's place, or to appoint a substitute.",
      [F("by", "seats", "who gave leave: others than `player` (his own leave is none)", required=True),
       F("player", "seat", "to whom", required=True)],
      "- permit: {by: N-S, player: W}")
event("deal", G, "The deal begins.",
      [BY_OPT_DEALER,
       F("pack", "text", "whose pack he dealt with; at piquet, `wrong`: not the pack for this deal (law 15)",
         choices=("own", "adversaries", "wrong")),
       F("uncut", "bool", "he dealt without having the pack cut"),
       F("out-of-turn", "bool", "piquet (law 16): the dealer dealt out of his turn (the players deal alternately)")],
      "- deal: {by: W}")
event("deal-incorrectly", G, "The dealer deals a card incorrectly.",
      [BY_OPT_DEALER,
       F("cards", "int", "piquet (laws 10, 12): how many cards were dealt wrongly, if more than one", span=(0, 52)),
       F("how", "text", "what the error was: two cards at once, two cards to the same hand, or any other "
         "break in dealing one at a time in rotation from the dealer's left",
         choices=("two-at-once", "same-hand", "out-of-rotation"))],
      "- deal-incorrectly: {}")
event("deal-another-card", G, "The dealer deals another card (after an error not yet corrected).",
      [BY_OPT_DEALER], "- deal-another-card: {}")
event("correct-deal", G, "The dealer corrects an error in dealing.",
      [BY_OPT_DEALER, F("cards-moved", "int", "how many cards he moved to put it right", span=(0, 52))],
      "- correct-deal: {}")
event("count-cards", G, "The dealer counts the cards.",
      [BY_OPT_DEALER, F("where", "text", "which cards", required=True, choices=("table", "remainder"))],
      "- count-cards: {where: remainder}")
event("look-at-trump", G, "The dealer looks at the trump card.", [BY_OPT_DEALER],
      "- look-at-trump: {}")
event("turn-trump", G, "The last card is turned up for trump: the deal is complete.",
      [BY_OPT_DEALER, CARD_OPT,
       F("face-down", "bool", "he placed the trump card face downward on his own or another's cards"),
       F("came-to", "seat", "the player to whom the last card came, when it did not come to the dealer")],
      "- turn-trump: {card: 7H}")
event("faced-in-pack", G, "A card is found faced in the pack.",
      [CARD_OPT, F("last", "bool", "it was the last card (the trump card)")],
      "- faced-in-pack: {card: 9C}")
event("pack-imperfect", G, "The pack is proved incorrect or imperfect.",
      [F("detail", "text", "what was wrong with it")],
      "- pack-imperfect: {detail: two queens of spades}")
event("touch", G, "A player touches a card (during the deal: his own or any).", [BY],
      "- touch: {by: N}")
event("interrupt", G, "A player interrupts the dealer.",
      [BY, F("about", "text", "what he said: he questioned the score, said it was not the dealer's deal, or other",
             choices=("score", "turn-to-deal", "other")),
       F("upheld", "bool", "the claim he made in interrupting was established")],
      "- interrupt: {by: E}")
event("look", G, "A player looks at his cards.", [BY],
      "- look: {by: W}")
event("stop-deal", G, "A player stops the deal.", [BY],
      "- stop-deal: {by: N}")
event("take-up-trump", G, "The dealer takes the trump card into his hand.", [BY_OPT_DEALER],
      "- take-up-trump: {}")
event("trump-on-table", G, "The trump card is seen still lying face up on the table.", [],
      "- trump-on-table: {}")
event("show-trump-card", G, "The dealer lays a card on the table as the trump card, having been asked for it.",
      [BY_OPT_DEALER, F("card", "card", "the card he shows", required=True)],
      "- show-trump-card: {card: 7H}")
event("forget-trump", G, "The dealer declares that he cannot recollect the trump card.", [BY_OPT_DEALER],
      "- forget-trump: {}")
event("other-pack-card", G, "A card belonging to the other pack is found in the hand dealt to a player.",
      [F("player", "seat", "whose hand (at piquet, whose hand, discard or taking in from the stock: `where`)",
         required=True), CARD_OPT,
       F("where", "text", "piquet: where it is found: in his hand (when omitted), in his discard, or in the "
         "stock as he takes in (laws 58, 75)", choices=("hand", "discard", "stock"))],
      "- other-pack-card: {player: W}")

# The play ---------------------------------------------------------------------------------
G = "The play"
event("lead", G, "A player leads a card (the first card of a trick).",
      [BY, CARD_OPT, HOLDING, VOID,
       F("winning", "bool", "the card was better than any the adversaries held of the suit"),
       F("again", "bool", "he leads again to the trick in progress, to which he has already played without "
         "leading it (English 57: \"play to an imperfect trick the best card on the table ... and then "
         "lead again\"); without it, a lead by another than the trick's leader begins the trick again")],
      "- lead: {by: W, card: KS}")
event("play", G, "A player plays a card to the trick in progress.",
      [BY, CARD_OPT, HOLDING, VOID],
      "- play: {by: N, card: 2S}")
event("renounce", G,
      "A player plays a card of a different suit from the suit led. Whether he held the suit led "
      "is for `holding` (or `hands`, or his later play) to show.",
      [BY, CARD_OPT, HOLDING, VOID],
      "- renounce: {by: E, card: 3C, holding: spades}")
event("correct-renounce", G, "The player who renounced takes his card back and plays one of the suit led.",
      [BY, CARD_OPT, F("trick", "trick", "the trick of the renounce (his last renounce when omitted)")],
      "- correct-renounce: {by: E, card: 5S}")
event("take-back", G, "A player takes back a card he played (and may play another).",
      [BY, CARD_OPT],
      "- take-back: {by: S}")
event("turn-and-quit", G, "The trick is turned face down and quitted.",
      [F("trick", "trick", "which trick (the one in progress when omitted)"),
       F("won-by", "seat", "who won it, when the cards do not show it")],
      "- turn-and-quit: {won-by: N}")
event("trick-left-open", G,
      "The trick is still lying on the table, not turned and quitted, when the next card is led (it is "
      "turned and quitted only at a later `turn-and-quit`, if the account gives one; without this event "
      "a trick is taken to be turned and quitted when the next trick is led).",
      [F("trick", "trick", "which trick (the one before the trick in progress when omitted)")],
      "- trick-left-open: {trick: 3}")
event("name-card", G, "A player names a card.", [BY, F("card", "card", "the card named", required=True)],
      "- name-card: {by: E, card: QH}")
event("expose", G, "A card is exposed: dropped or faced, played with another, or seen by the holder's partner; "
      "or it fell below the table, or was detached from the rest of the hand so that it could be named.",
      [BY,
       F("card", "cards", "the card or cards exposed"),
       F("how", "text", "how (faced when omitted); below-table: it fell on the floor or elsewhere below "
         "the table; detached: drawn from the rest of the hand so that it could be named",
         choices=("faced", "played-with", "seen-by-partner", "shown-to-partner", "below-table", "detached")),
       F("among-last", "bool", "in dealing: it was one of the last cards dealt")],
      "- expose: {by: E, card: QH}")
event("ask-trump-suit", G, "A player asks what the trump suit is.", [BY],
      "- ask-trump-suit: {by: N}")
event("ask-partner", G, "A player asks his partner whether he has none of the suit he renounced.",
      [BY, F("asked", "seat", "the player asked, when not the asker's partner (an adversary asking the "
             "renouncer: English 74 gives the question's effect to the partner's only; never the asker)"),
       F("answer", "text", "the renouncer's answer: `none` (he says he has none of the suit) or `has`",
             choices=("none", "has"))],
      "- ask-partner: {by: S, answer: none}")
event("call-attention", G, "Before his partner has played, a player calls attention to the trick or the score.",
      [BY, F("to", "text", "to what", choices=("trick", "score")),
       F("how", "text", "how: saying the trick is his, naming his card, or drawing his card toward him",
         choices=("says-it-is-his", "names-his-card", "draws-his-card"))],
      "- call-attention: {by: N, to: trick}")
event("claim-rest", G, "A player says \"I can win the rest\", \"The rest are ours\", \"We have the game\" or the like.",
      [BY, F("words", "text", "what he said")],
      "- claim-rest: {by: S, words: The rest are ours}")
event("admit-claim", G,
      "A player admits the claim an adversary has just made (`claim-rest`): that his side can win the rest "
      "of the tricks, or has the game.",
      [BY],
      "- admit-claim: {by: E}")
event("look-at-trick", G, "A player looks at a trick already turned and quitted.",
      [BY, F("trick", "trick", "which trick (the last quitted when omitted)")],
      "- look-at-trick: {by: E, trick: 4}")
event("throw-down", G, "A player throws his cards on the table face upwards.", [BY],
      "- throw-down: {by: N}")
event("gather", G, "The cards of a trick are touched to gather them together.",
      [F("by", "seat", "who touched them")],
      "- gather: {by: S}")
event("omit-play", G, "A player omitted to play to a trick.",
      [BY, F("trick", "trick", "the trick he did not play to")],
      "- omit-play: {by: W, trick: 6}")
event("wrong-number", G, "A player is found to have more or fewer cards than he should.",
      [F("player", "seat", "whose hand", required=True),
       F("surplus", "int", "how many cards too many"),
       F("missing", "int", "how many cards too few"),
       F("cards", "cards", "the missing cards, when known (found in the other pack, or by the "
         "cards played): English 46 holds him answerable for a revoke as if he had held them")],
      "- wrong-number: {player: W, missing: 1}")
event("mix-into-trick", G,
      "A card of the player's went, unnoticed, into a trick to which it does not belong: played with "
      "another card to it, or mixed with it (his trump card, or any other) when it was gathered.",
      [BY, F("card", "card", "the card, when it is known or matters"),
       F("trick", "trick", "the trick it went into (the one in progress, or the last quitted, when omitted)")],
      "- mix-into-trick: {by: E, card: 7H, trick: 3}")
event("damaged-card", G, "A card is found torn or marked.",
      [F("card", "cards", "the card or cards"),
       F("how", "text", "torn or marked", choices=("torn", "marked"))],
      "- damaged-card: {card: QS, how: torn}")
event("bystander-remark", G,
      "A bystander (one not playing) makes a remark that draws a player's attention to something.",
      [F("bystander", "text", "the bystander's name, for the reader"),
       F("about", "text", "what it drew attention to: an oversight affecting the score, or anything else",
         required=True, choices=("score", "other")),
       F("prejudiced", "seat", "piquet (law 78): the player whose interest the remark prejudicially affected")],
      "- bystander-remark: {bystander: Ellis, about: score}")
event("end-of-hand", G, "The hand has been played out.",
      [F("tricks", "side-scores", "tricks taken by each side, e.g. {N-S: 8, E-W: 5}; at a table with no fixed "
         "sides (Boston, Solo Whist, Boston de Fontainebleau) by each seat, e.g. {N: 5, E: 3, S: 3, W: 2}")],
      "- end-of-hand: {tricks: {N-S: 8, E-W: 5}}")

# Claims and penalties ---------------------------------------------------------------------
G = "Claims and penalties"
event("demand", G, "A player demands a penalty or exercises a right the laws give.",
      [BY,
       F("remedy", "remedy", "what he demands, by the remedy's id", required=True),
       F("suit", "suit", "the suit called"),
       F("card", "card", "the card called"),
       F("call", "text", "what the player is called upon to do",
         choices=("highest", "lowest", "trump", "not-trump", "win", "not-win", "lose")),
       F("from", "seat", "the player the penalty is exacted from")],
      "- demand: {by: S, remedy: call-suit, suit: hearts}")
event("decline", G, "A player states that he does not exact a penalty (or exercise a right) open to him.",
      [BY, F("remedy", "remedy", "what he declines, by the remedy's id", required=True),
       F("card", "card", "the card he declines to call")],
      "- decline: {by: N, remedy: call-card}")
event("wish", G, "A player says what he wished or meant to do, where that is all that can be said (\"I intended to "
      "play the seven of clubs\", \"I no longer wish for a fresh deal\"): the laws may act on it, or not.",
      [BY, F("what", "text", "what he wished: to have played another card than the one he played, to alter "
             "his discard, to have a fresh deal, not to have one, not to declare something he holds (to sink "
             "it), or something else", required=True,
             choices=("play-another-card", "alter-discard", "fresh-deal", "no-fresh-deal", "not-declare", "other")),
       F("card", "card", "the card he meant, when he names one"),
       F("words", "text", "what he said")],
      "- wish: {by: W, what: play-another-card, card: 7C}")
event("consult", G, "Partners consult about a penalty or a right.",
      [F("by", "seats", "who consulted: both partners, as N-S (one alone consults no one)", required=True),
       F("about", "text", "what they consulted about: which penalty to exact (when omitted), or only "
         "who of them is to make the election (English 84: they should agree on it)",
         choices=("which-penalty", "who-elects"))],
      "- consult: {by: N-S}")
event("claim-revoke", G, "A player claims that an adversary revoked.",
      [BY, F("against", "seat", "the player said to have revoked"),
       F("trick", "trick", "the trick in which he is said to have revoked")],
      "- claim-revoke: {by: N, against: E}")
event("mix-cards", G, "A player mixes the cards (of the tricks).", [BY],
      "- mix-cards: {by: W}")
event("examine", G, "The tricks are examined to the satisfaction of the claimants.",
      [F("by", "seat", "who examined them"),
       F("proves", "bool", "the examination proved the revoke claimed (false: it did not)")],
      "- examine: {by: N}")
event("correct-score", G, "A player asks that an error in the score be corrected.",
      [BY, F("score", "text", "which score is wrong", required=True, choices=("trick", "other")),
       F("last-hand", "bool", "the error occurred in the last hand of a game or rubber"),
       F("previous-hand", "bool", "the error is in the score of the hand before the deal these events describe"),
       F("earlier-game", "bool", "the error is in a game of this rubber won before the deal these events describe"),
       F("affects-rubber", "bool", "correcting it changes the amount of the rubber (who won a game, or what it was worth)")],
      "- correct-score: {by: E, score: trick}")
event("call-honours", G,
      "A player calls honours for his side at the end of the hand (\"two by honours\", \"four by honours\"). "
      "Which honours his side held is for `honours`, or `hands` (with `trump`), to show.",
      [BY, F("honours", "cards", "the honours (ace, king, queen, knave of trumps) he calls, e.g. [AH, KH, JH]")],
      "- call-honours: {by: S, honours: [AH, KH, JH]}")
event("agree-score", G, "The players agree to the final score of the game or rubber.", [],
      "- agree-score: {}")
event("cut-for-next-deal", G, "The cards are presented and cut for the following deal.",
      [F("by", "seat", "who cut")],
      "- cut-for-next-deal: {by: S}")

# Piquet (the Portland Club's laws) -----------------------------------------------------------
# The seats are the elder hand and the younger hand (the dealer): `elder`, `younger`.
G = "Piquet: the stock, the declarations"
event("discard", G, "A player discards: the cards he lays out before taking in from the stock.",
      [BY, F("cards", "cards", "the cards discarded, when known (law 54 looks at hand and discard together)"),
       F("count", "int", "how many he discarded, when the cards are not named (0: none; laws 40-43)", span=(0, 13))],
      "- discard: {by: elder, cards: [7C, 8C, 9D, 7H, 8S]}")
event("count-stock", G, "The stock is counted (law 38), or the elder hand finds in drawing it toward him how "
      "many cards it holds (law 11): eight, or seven when a hand was dealt a card too many (laws 39-43).",
      [F("by", "seat", "who counted it, or found it short"),
       F("count", "int", "how many cards the stock holds", required=True, span=(0, 32))],
      "- count-stock: {by: elder, count: 7}")
event("leave-cards", G, "A player leaves cards in the stock: the elder hand declares that he leaves cards of "
      "his five (law 32); the younger hand leaves some of his three (laws 36, 37).",
      [BY, F("count", "int", "how many cards he leaves (the elder hand of his five, the younger of his three)", required=True,
         span=(0, 8))],
      "- leave-cards: {by: elder, count: 1}")
event("take-up-stock", G,
      "A player exposes or takes up a card of the stock, counted from the top (1) to the bottom (8): the "
      "elder hand's five are the top five, the younger hand's three the bottom three (law 27).",
      [BY, F("position", "int", "the card's place in the stock, 1 (top) to 8 (bottom)", required=True, span=(1, 8)),
       F("how", "text", "took it up (when omitted), only exposed it, or took it up and mixed it with his hand "
         "(laws 28, 29)", choices=("take-up", "expose", "mix")),
       F("card", "card", "the card, when it is known or matters (a card taken in after the play has begun, "
         "of a suit he has renounced: law 59.IV)")],
      "- take-up-stock: {by: younger, position: 1}")
event("put-back-stock", G, "A player puts back on the stock a card of it he had taken up (laws 23, 24).",
      [BY, F("position", "int", "the card's place in the stock, 1 (top) to 8 (bottom)", required=True, span=(1, 8))],
      "- put-back-stock: {by: younger, position: 8}")
event("retake-discard", G, "A player takes back into his hand a card of his discard (laws 24, 25).",
      [BY, F("card", "card", "the card, when known")], "- retake-discard: {by: elder}")
event("show-call", G,
      "A player shows, of his own accord, the cards of his last call (law 55: before he plays a card), or "
      "shows cards instead of calling them (`cards`: a declaration by implication).",
      [BY, F("cards", "cards", "the cards he shows, when it matters which (what they make he declares by "
             "implication)")], "- show-call: {by: elder}")
event("announce-carte-blanche", G,
      "A player tells his adversary that he has carte blanche (no king, queen or knave; law 20).",
      [BY], "- announce-carte-blanche: {by: younger}")
event("show-carte-blanche", G,
      "A player shows his carte blanche, counting his cards one by one face upward on the table (law 19); "
      "telling it is `announce-carte-blanche` (law 20: he need not show it until his adversary has discarded).",
      [BY], "- show-carte-blanche: {by: elder}")
event("call", G,
      "A player calls (declares) a point, a sequence, a quatorze or a trio. `count` is the number of cards "
      "(a point of five; a quint is five); `value`, a point's count of pips (ace eleven, court cards ten, "
      "the rest as marked: \"forty-one\"); `to`, a sequence's highest card (a quint to the king of hearts: "
      "KH); `of`, the rank of a quatorze or trio.",
      [BY, F("what", "text", "what he calls", required=True, choices=("point", "sequence", "quatorze", "trio")),
       F("count", "int", "a point's or a sequence's number of cards", span=(1, 8)),
       F("value", "int", "a point's count of pips", span=(7, 75)),
       F("suit", "suit", "the suit he names for a point"),
       F("to", "card", "a sequence's highest card (omitted: called by its number of cards alone, law 48)"),
       F("of", "text", "a quatorze's or trio's rank (omitted: the rank not stated, law 48)", choices=("aces", "kings", "queens", "knaves", "tens",
                                                               "nines", "eights", "sevens")),
       F("cards", "cards", "the cards the call is made of, when he names or shows them (a point headed by the "
         "ace of spades: [AS]; a trio of kings: [KS, KH, KC]): cards named declare what they make, by implication"),
       F("without", "card", "a trio's card of the rank he does not reckon, when he says it (\"three kings, not "
         "the king of diamonds\": KD)"),
       F("completes", "bool", "the call completes his last call, made imperfectly (\"Five\" ... \"Forty-one\": "
         "the point's count of pips, a sequence's card or a set's rank said after): the same call, not another "
         "(law 51: \"before the elder hand has made another call\")")],
      "- call: {by: elder, what: point, count: 5, value: 41}")
event("reply", G, "The adversary replies to the last call: good, not good, or equal.",
      [BY, F("answer", "text", "his reply", required=True, choices=("good", "not-good", "equal"))],
      "- reply: {by: younger, answer: good}")
event("ask-to-show", G, "A player asks his adversary to show the cards of his last call allowed good or equal "
      "(law 55: the younger hand need show them only after the elder hand has led a card), or asks about them: "
      "`question` (\"Which queen do you not reckon?\", \"How many diamonds?\"); the reply is `answer`.",
      [BY, F("question", "text", "what he asks instead of seeing them: which card of the rank the call does not "
             "reckon (card-out), how many cards of a suit he holds (how-many, with `suit`), to what card a "
             "sequence is (to-what-card), in what suit (what-suit)",
             choices=("card-out", "how-many", "to-what-card", "what-suit")),
       F("suit", "suit", "the suit asked about (`how-many`)")],
      "- ask-to-show: {by: younger}")
event("answer", G, "A player answers his adversary's question about his call (`ask-to-show` with a `question`): "
      "the card he names, how many he says he holds, or the suit; the rules judge the answer against the cards "
      "of his calls reckoned good or called equal (law 59.V).",
      [BY, F("card", "card", "the card he names (the card not reckoned; a sequence's card)"),
       F("count", "int", "how many he says he holds (\"Two\"; 0: \"None\")", span=(0, 13)),
       F("suit", "suit", "the suit he names")],
      "- answer: {by: elder, card: QD}")
event("ask-point", G, "The younger hand replies to the elder hand's call of his point by asking what it makes "
      "(law 46: only if he holds at least as many cards; the inquiry bars him from counting a point of more).",
      [BY], "- ask-point: {by: younger}")
event("correct-reply", G, "The younger hand corrects his reply \"good\" or \"equal\" to the elder hand's call, "
      "holding better (law 51).",
      [BY], "- correct-reply: {by: younger}")
event("correct-call", G, "A player corrects his last call (a miscall), naming what he holds.",
      [BY], "- correct-call: {by: elder}")
event("expose-in-dealing", G, "The dealer exposes a card in dealing: one of his adversary's, of the stock, "
      "or of his own (law 13).",
      [BY, CARD_OPT, F("whose", "text", "whose card it was", required=True,
                       choices=("adversary", "stock", "his-own"))],
      "- expose-in-dealing: {by: younger, card: QS, whose: adversary}")
event("correct-count", G, "A player proves an error in counting a hand and asks that it be rectified (law 70).",
      [BY, F("player", "seat", "whose count of his hand was wrong", required=True)],
      "- correct-count: {by: younger, player: elder}")
event("see-next-hand", G, "A player sees his hand of the next deal (law 70's time limit).",
      [BY], "- see-next-hand: {by: elder}")
event("scores-differ", G, "The two written scores differ on what a player scored for his hand (law 74).",
      [F("player", "seat", "whose hand's score the written scores differ on", required=True)],
      "- scores-differ: {player: elder}")
event("mix-with-discard", G, "A player mixes a card of his hand, or one he is entitled to take in, with his "
      "discard (law 26); or the younger hand mixes the cards he left with his discard (law 37).",
      [BY, CARD_OPT, F("left-cards", "bool", "the cards mixed are those the younger hand left in the stock, "
                       "not shown to the elder hand (law 37)")], "- mix-with-discard: {by: younger}")
event("cut-for-deal", G, "A player cuts for the deal at the beginning of the partie, the ace highest (laws 4, 5).",
      [BY, F("card", "card", "the card he cut (the one that counts)"),
       F("exposed", "cards", "every card he exposed in cutting, when more than one (law 5)")],
      "- cut-for-deal: {by: elder, card: KS}")
event("see-left-cards", G, "A player looks at the cards the younger hand left in the stock (law 36); the "
      "younger hand elects not to look with `decline: {by: younger, remedy: see-left-cards}`.",
      [BY], "- see-left-cards: {by: younger}")
event("name-suit", G, "The elder hand names the suit he will first lead (law 36).",
      [BY, F("suit", "suit", "the suit he names")], "- name-suit: {by: elder, suit: spades}")
event("drop-card", G, "A player accidentally drops a card (law 59.I).", [BY, CARD_OPT],
      "- drop-card: {by: younger, card: 9D}")
event("misinform", G, "A player, asked what cards he holds of a call allowed good or equal, misinforms his "
      "adversary (law 59.V).", [BY], "- misinform: {by: elder}")
event("take-up-hand", G, "A player takes up his cards after the deal (laws 10, 15: \"before either player "
      "has taken up his hand\").",
      [BY], "- take-up-hand: {by: elder}")
event("alter-discard", G, "A player claims to alter his discard: to take back cards of it and lay out others "
      "(law 24: not after he has taken up a card of the stock; laws 11, 32, 39). Taking a card of it back into "
      "his hand is `retake-discard`.",
      [BY], "- alter-discard: {by: younger}")
event("retract-lead", G, "A player claims to take back a card he led, to lead another (law 59: \"A card once led "
      "or played cannot be taken up\", except as 52 and 59 provide).",
      [BY, F("card", "card", "the card he would take back (when omitted: his last card led)")],
      "- retract-lead: {by: elder, card: 7S}")
event("offer-fresh-deal", G, "A player proposes a fresh deal by agreement, which the laws do not give him "
      "(his adversary's answer is `answer-offer`).",
      [BY], "- offer-fresh-deal: {by: elder}")
event("answer-offer", G, "A player accepts or refuses his adversary's offer of a fresh deal.",
      [BY, F("answer", "text", "his answer", required=True, choices=("accept", "refuse"))],
      "- answer-offer: {by: younger, answer: refuse}")

# Boston, Solo Whist and the Boston family: the bidding ---------------------------------------
G = "Boston and Solo Whist: the bidding"
_ALL_BIDS = tuple(dict.fromkeys(b for game in ("boston", "solo-whist", "boston-de-fontainebleau", "french-boston")
                                for b in BIDS[game]))
event("make-bid", G, "A player makes a bid in the auction (the bid that won, and who plays it, is the "
      "top-level `bid`). The American code's paragraph on bidding: \"any player making a bid must stand "
      "by it, and either play or pay\".",
      [BY, F("bid", "text", "what he bids, in his game's words (see `bid`)", required=True, choices=_ALL_BIDS)],
      "- make-bid: {by: N, bid: seven-tricks}")
event("correct-bid", G, "A player corrects a bid he made in error, naming the bid he meant.",
      [BY, F("bid", "text", "the bid he meant", choices=_ALL_BIDS)],
      "- correct-bid: {by: N, bid: eight-tricks}")
event("accept", G, "French Boston: a player accepts the proposal (a simple demand) made before him, "
      "to play it as the proposer's partner (bidding.accepting).", [BY], "- accept: {by: W}")
event("pass", G, "A player passes: in the auction (the Boston family), or at poker when it is his turn to open or bet (he declines and, in a jack-pot, retires from it).", [BY], "- pass: {by: E}")

# German Whist (Foster): the talon -----------------------------------------------------------
G = "German Whist: the talon"
event("take-from-talon", G, "After a trick, a player takes a card of the talon: the winner of the trick the "
      "card turned up, the loser the card under it, \"without showing or naming it\" (Foster, playing).",
      [BY, F("which", "text", "which card he took: turned (the card turned up) or hidden (the one under it)",
             required=True, choices=("turned", "hidden")),
       CARD_OPT, F("shown", "bool", "he showed or named the card he took")],
      "- take-from-talon: {by: elder, which: turned, card: QH}")

# Loo (Baxter-Wray): declaring and playing the hands -------------------------------------------
# The seats are the places round the table (p1 ... p8); the places taken are those `players` names.
G = "Loo: declaring"
event("declare", G, "A player declares his intention: to stand (play his own cards), to throw up his hand, "
      "or to take the miss (declaring.1).",
      [BY, F("what", "text", "what he declares", required=True, choices=("stand", "throw-up", "take-miss"))],
      "- declare: {by: p2, what: stand}")
event("look-at", G, "A player looks at cards: his own, the miss, a thrown-up hand, the undealt portion of the "
      "pack, or the cards of another player (declaring.1).",
      [BY, F("what", "text", "what he looks at", required=True,
             choices=("his-cards", "miss", "thrown-up-cards", "undealt-pack", "another-hand")),
       F("whose", "seat", "whose thrown-up cards or hand, when it matters")],
      "- look-at: {by: p3, what: miss}")

G = "Loo: five-card and Irish loo"
event("exchange", G, "At five-card or Irish loo, a player, in his turn to declare, puts out cards face downwards and the "
      "dealer gives him as many from the pack: his declaration to play (`cards: 0`: he stands on the cards dealt him). "
      "A second `exchange` by the same player is a second exchange.",
      [BY, F("cards", "int", "how many cards he puts out", required=True)],
      "- exchange: {by: p2, cards: 2}")
event("take-back-exchanged", G, "At five-card or Irish loo, a player takes back into his hand a card he put out in "
      "the exchange.", [BY], "- take-back-exchanged: {by: p2}")
event("declare-flush", G, "At five-card or Irish loo, a player declares a flush: five cards of one suit, or four with "
      "Pam (the knave of clubs); at Irish loo three cards of one suit.",
      [BY, F("cards", "cards", "the cards of his hand", required=True)],
      "- declare-flush: {by: p3, cards: [2S, 5S, 8S, 10S, KS]}")

# Draw Poker (Baxter-Wray): the deal, the straddle, the jack-pot -----------------------------------
G = "Draw Poker: the deal and the jack-pot"
event("draw-for-deal", G, "A player draws a card from the pack, face downwards, for the first deal (rule 2: the "
      "lowest deals, ace lowest).",
      [BY, F("card", "card", "the card drawn", required=True)],
      "- draw-for-deal: {by: p1, card: 3H}")
event("straddle", G, "A player straddles the ante: No. 1 stakes double the ante, each straddler after him the "
      "straddle and one ante more.",
      [BY], "- straddle: {by: p3}")
event("point-out-no-cut", G, "A player points out to the dealer that the pack was not cut for this deal "
      "(rules 8, 9).",
      [BY], "- point-out-no-cut: {by: p4}")
event("finish-deal", G, "The deal is finished: every player has received his cards (poker: five, rule 17; "
      "Boston, Boston de Fontainebleau and Cayenne: the last card is dealt, 16.boston-cayenne).",
      [BY_OPT_DEALER], "- finish-deal: {}")
event("dealer-exposes", G, "The dealer, while dealing, accidentally exposes a card (rule 11).",
      [BY_OPT_DEALER, CARD_OPT, F("to", "seat", "the player to whom it is dealt", required=True)],
      "- dealer-exposes: {to: p3, card: QS}")
event("exchange-exposed", G, "A player (or the dealer) exchanges a card exposed in dealing for another, "
      "otherwise than by discarding in the draw (rule 11).",
      [BY], "- exchange-exposed: {by: p3}")
event("speak-to-dealer", G, "A player speaks to the dealer, or distracts him by noise or gesture, while the "
      "cards are being dealt (rules 15, 16).",
      [BY, F("how", "text", "how (speaking when omitted)", choices=("speaks", "noise", "gesture"))],
      "- speak-to-dealer: {by: p2}")
event("open", G, "A player opens the game: he accepts his cards and stakes, the first to do so in this game.",
      [BY, F("amount", "int", "what he stakes in opening, in the unit of `stakes` (when it is known or matters)")],
      "- open: {by: p4}")
event("show-hand", G, "A player lays his cards face upwards on the table (the opener of a jack-pot whom all "
      "the others pass shows that he holds the minimum).",
      [BY, F("cards", "cards", "the five cards shown", required=True)],
      "- show-hand: {by: p4, cards: [JS, JH, 7C, 4D, 2S]}")

G = "Draw Poker: the betting and the draw"
event("bet", G, "A player adds a sum to his stake: accepting his cards after the game is opened (before the draw), "
      "making his stake good, calling (seeing) or raising, or betting after the draw.",
      [BY, F("amount", "int", "the sum he adds to what he has staked in this game, in the unit of `stakes`",
             required=True)],
      "- bet: {by: p3, amount: 6}")
event("stand", G, "After the draw, a player stands: he declines to bet until the next round (betting).",
      [BY], "- stand: {by: p3}")
event("draw", G, "A player discards cards face downwards and the dealer gives him as many from the top of the pack "
      "(draw); `cards: 0`: he keeps the hand dealt him. A second `draw` by the same player modifies his choice.",
      [BY, F("cards", "int", "how many cards he discards", required=True),
       F("received", "int", "how many the dealer gave him, when not as many as he discarded"),
       F("pack-out", "bool", "the pack ran out: the dealer had only `received` cards left to give him")],
      "- draw: {by: p2, cards: 2}")
event("take-back-discard", G, "A player takes back into his hand a card he discarded in the draw "
      "(draw.once-for-all).",
      [BY], "- take-back-discard: {by: p2}")

EVENTS: dict[str, Event] = {e.name: e for e in _E}
# Which events each game's incidents may hold (a game not named here: every event but those of the
# games named). The rules of a game read only its own.
GAME_EVENTS: dict[str, frozenset] = {
    "piquet": frozenset({"discard", "leave-cards", "take-up-stock", "announce-carte-blanche", "call", "reply",
                         "retake-discard", "show-call",
                         "correct-call", "lead", "play", "demand", "decline", "wrong-number",
                         "expose-in-dealing", "take-up-hand", "deal", "faced-in-pack", "pack-imperfect",
                         "bystander-remark", "deal-incorrectly", "correct-deal", "permit", "correct-count",
                         "see-next-hand", "scores-differ", "mix-with-discard", "shuffle", "cut", "cut-for-deal",
                         "see-left-cards", "name-suit", "correct-reply",
                         "drop-card", "misinform",
                         "count-stock", "ask-point", "ask-to-show",
                         "answer", "show-carte-blanche", "put-back-stock", "other-pack-card", "alter-discard",
                         "retract-lead", "offer-fresh-deal", "answer-offer", "wish", "name-card"}),
}
ONLY_FOR: dict[str, str] = {e: g for g, evs in GAME_EVENTS.items() for e in evs
                            if e in {ev.name for ev in _E if ev.group.startswith("Piquet")}}
# Loo and Draw Poker: their own events, and those of the common vocabulary their laws read.
GAME_EVENTS.update({
    "german-whist": frozenset({"lead", "play", "take-from-talon", "end-of-hand", "wish"}),
    "loo": frozenset({"declare", "look-at", "lead", "play", "expose", "name-card", "exchange", "take-back-exchanged",
                     "declare-flush", "wish"}),
    "poker": frozenset({"draw-for-deal", "shuffle", "cut", "deal", "straddle", "point-out-no-cut", "finish-deal",
                        "faced-in-pack", "dealer-exposes", "exchange-exposed", "wrong-number", "take-up-hand",
                        "speak-to-dealer", "deal-incorrectly", "open", "pass", "show-hand",
                        "bet", "stand", "draw", "take-back-discard", "wish"}),
})
ONLY_FOR.update({ev.name: ("loo" if ev.group.startswith("Loo") else "poker") for ev in _E
                 if ev.group.startswith(("Loo", "Draw Poker"))})
ONLY_FOR["take-from-talon"] = "german-whist"
# Events of several games (the bidding of the Boston family): refused in any other game's incident.
EVENT_GAMES: dict[str, frozenset] = {
    e: frozenset({"boston", "solo-whist", "boston-de-fontainebleau", "french-boston"})
    for e in ("make-bid", "correct-bid", "pass")}
EVENT_GAMES["accept"] = frozenset({"french-boston"})     # Solo Whist's acceptor is the `bid`'s partner
ONLY_FOR.update({e: "boston" for e in EVENT_GAMES})      # (the game its example is written in)
ONLY_FOR["accept"] = "french-boston"
# The end of the deal, marked where a law turns on it: poker's rule 17, and in Boston and Cayenne,
# where no trump card is turned in the deal, 16.boston-cayenne's "before the last card is dealt";
# Boston de Fontainebleau, which turns none either, takes it with Boston's laws.
EVENT_GAMES["finish-deal"] = frozenset({"poker", "boston", "cayenne", "boston-de-fontainebleau"})
TOP_KEYS: dict[str, Field] = {f.name: f for f in TOP}
GROUPS: tuple[str, ...] = tuple(dict.fromkeys(e.group for e in _E))

# A game's seats and sides are its table's, in rules/codes.yaml (`registry.table(game)`), not here.


