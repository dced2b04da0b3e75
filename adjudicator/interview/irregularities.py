"""What went wrong, by the names players and the laws give it, game by game: the first question of
the builder (story.py), for the terminal and the web page alike.

Each name is a short plan: the facts of the table it needs (who plays, trumps, which trick, whose
lead, the hands ...), then the events that tell it, each with the few fields asked and the words of
each question. The events and their fields are the format's (core/schema.py): a name only chooses
among them. Every event of the game stays reachable under "something else", told by what the
format says it records, so an event added to the schema is offered without a change here (its
questions then come from its fields' own words: story.field_question).

Values a plan writes itself are written `=` and a reference (story.resolve): `=leader` (whose
lead the trick was), `=ev0.by` (who did the plan's first event), `=other:ev0.by` (his adversary,
at a table of two), `=led:ev0` (the suit of the card led at the plan's first event).
"""
from __future__ import annotations

from dataclasses import dataclass, field

WHIST_FAMILY = frozenset({"whist", "dummy", "double-dummy", "boston", "cayenne", "solo-whist",
                          "boston-de-fontainebleau", "french-boston", "german-whist", "chinese-whist"})
TRICKS = WHIST_FAMILY | {"piquet", "loo"}


@dataclass(frozen=True)
class Ask:
    """One field of an event asked, with its question (`{x}` filled from the story so far:
    story.fill): `required` None is the schema's own."""
    field: str
    text: str = ""
    required: bool | None = None
    when: tuple = ()            # (field, values): asked only when that field of the event is one of them


@dataclass(frozen=True)
class EventStep:
    """An event of the plan: the fields asked, the fields the plan writes itself, the form's title."""
    event: str
    asks: tuple = ()
    fixed: tuple = ()           # ((field, value or =reference), ...)
    title: str = ""
    fill_plays: bool = False    # the players between the trick's leader and this one played (cards not said)
    not_same: tuple = ()        # (field, reference, words): refused when the field is that reference


@dataclass(frozen=True)
class Held:
    """Whether the player of the plan's event `of` held the suit led: the `holding` (yes), `void`
    (no) or the fact left unknown (I don't know) of that event."""
    of: int
    text: str = "Did {who} hold a {suit} when he played the {card}?"


@dataclass(frozen=True)
class Branch:
    """A question whose answers are the ways the story went on: each answer (its words, and the
    events it adds, each a (name, ((field, value or =reference), ...)))."""
    key: str
    text: str
    answers: tuple


@dataclass(frozen=True)
class Wrong:
    key: str
    name: str                   # as the players say it
    games: frozenset
    table: tuple = ()           # players, places, dealer, trump, trick, leader, hands
    steps: tuple = ()
    also: str = ""              # other words a person may use for it (the terminal's search)
    after: tuple = field(default=())    # what commonly follows: other Wrong keys offered next


A = Ask
WHO_LED = A("by", "Who led the trick?")
CARD_LED = A("card", "Which card did {by} lead?", required=False)

_REVOKE_AFTER = Branch(
    "revoke-after", "What happened after {ev1.by} played the {ev1.card}?",
    (("He saw it and put it right before the trick was turned",
      (("correct-renounce", (("by", "=ev1.by"),)),)),
     ("The trick was turned and quitted; then an adversary claimed a revoke",
      (("play", (("by", "=rest"),)), ("turn-and-quit", ()),
       ("claim-revoke", (("by", "=next:ev1.by"), ("against", "=ev1.by"))))),
     ("Nothing more yet: it was seen at once, before anyone played again", ())))

_MISCALL_AFTER = Branch(
    "miscall-after", "Did {ev0.by} put his call right, and when?",
    (("No: the play began and he never put it right",
      (("lead", (("by", "elder"),)), ("play", (("by", "younger"),)))),
     ("Yes, before the first card was led",
      (("correct-call", (("by", "=ev0.by"),)), ("lead", (("by", "elder"),)), ("play", (("by", "younger"),)))),
     ("Yes, after the elder hand led, before the younger hand played to the first trick",
      (("lead", (("by", "elder"),)), ("correct-call", (("by", "=ev0.by"),)), ("play", (("by", "younger"),)))),
     ("Yes, but only after the younger hand had played to the first trick",
      (("lead", (("by", "elder"),)), ("play", (("by", "younger"),)), ("correct-call", (("by", "=ev0.by"),)))),
     ("Nothing more yet: the call is in dispute before any card is led", ())))

WRONGS: tuple[Wrong, ...] = (
    # --- the play: whist and the games of its family, loo ----------------------------------------
    Wrong("lead-out-of-turn", "led out of turn", WHIST_FAMILY | {"piquet", "loo"},
          table=("players", "trump", "trick", "leader"),
          steps=(EventStep("lead", (A("by", "Who led instead of {leader}?"), CARD_LED),
                           title="The lead out of turn",
                           not_same=(("by", "=leader", "{by} was to lead: his lead is in turn. Who led out of turn?"),)),),
          also="lead led leading wrong turn before his turn out of turn"),
    Wrong("play-out-of-turn", "played out of turn (before his turn)", WHIST_FAMILY | {"loo"},
          table=("players", "trump", "trick"),
          steps=(EventStep("lead", (WHO_LED, CARD_LED), title="The trick's lead"),
                 EventStep("play", (A("by", "Who played out of turn?"), A("card", "Which card did {by} play?", required=False)),
                           title="The card played out of turn")),
          also="played play before his turn out of turn fourth hand second hand"),
    Wrong("revoke", "revoked (did not follow suit)", WHIST_FAMILY - {"german-whist"},
          table=("players", "trump", "trick"),
          steps=(EventStep("lead", (WHO_LED, A("card", "Which card did {by} lead?")), title="The trick's lead"),
                 EventStep("renounce", (A("by", "Who did not follow suit?"), A("card", "Which card did {by} play instead?")),
                           title="The renounce", fill_plays=True,
                           not_same=(("by", "=ev0.by", "{by} led the trick: he cannot renounce to his own lead. Who did not follow suit?"),)),
                 Held(1), _REVOKE_AFTER),
          also="revoke revoked renounce renounced renege reneged follow suit did not follow failed to follow"),
    Wrong("loo-revoke", "revoked (did not follow suit)", frozenset({"loo", "german-whist"}),
          table=("places", "trump", "trick"),
          steps=(EventStep("lead", (WHO_LED, A("card", "Which card did {by} lead?")), title="The trick's lead"),
                 EventStep("play", (A("by", "Who did not follow suit?"), A("card", "Which card did {by} play instead?")),
                           title="The card played", fill_plays=True,
                           not_same=(("by", "=ev0.by", "{by} led the trick: he cannot renounce to his own lead. Who did not follow suit?"),)),
                 Held(1)),
          also="revoke revoked renounce renounced renege follow suit did not follow failed to follow"),
    Wrong("expose", "exposed a card", WHIST_FAMILY | {"loo"},
          table=("players", "trump"),
          steps=(EventStep("expose", (A("by", "Whose card was exposed?"), A("card", "Which card was it?", required=False),
                                      A("how", "How was it exposed?", required=False)), title="The card exposed"),),
          also="exposed expose showed shown faced face up seen card on the table"),
    Wrong("drop", "dropped a card", WHIST_FAMILY,
          table=("players", "trump"),
          steps=(EventStep("expose", (A("by", "Who dropped a card?"), A("card", "Which card was it?", required=False)),
                           fixed=(("how", "faced"),), title="The card dropped"),),
          also="dropped drop fell floor"),
    Wrong("misdeal", "misdealt", WHIST_FAMILY,
          table=("players", "dealer"),
          steps=(EventStep("deal-incorrectly", (A("how", "What went wrong in the deal?", required=False),),
                           title="The misdeal"),),
          also="misdeal misdealt deal wrongly two cards at once wrong deal"),
    Wrong("deal-out-of-turn", "dealt out of turn", WHIST_FAMILY,
          table=("players", "dealer"),
          steps=(EventStep("deal", (A("by", "Who dealt instead of {dealer}?"),), title="The deal out of turn",
                           not_same=(("by", "=dealer", "it was {by}'s deal: his deal is in turn. Who dealt instead?"),)),),
          also="dealt deal out of turn wrong dealer"),
    Wrong("claim-revoke", "claimed a revoke", WHIST_FAMILY,
          table=("players", "trump"),
          steps=(EventStep("claim-revoke", (A("by", "Who claimed the revoke?"), A("against", "Who is said to have revoked?"),
                                            A("trick", "In which trick was the revoke?", required=False)),
                           title="The claim"),),
          also="claim claimed revoke claims accused"),
    Wrong("look-at-trick", "looked at a trick already turned", WHIST_FAMILY,
          table=("players", "trump"),
          steps=(EventStep("look-at-trick", (A("by", "Who looked at it?"), A("trick", "Which trick did he look at?", required=False)),
                           title="The look at a quitted trick"),),
          also="looked look at the cards trick turned quitted seen"),
    Wrong("claim-rest", "claimed the rest of the tricks", WHIST_FAMILY,
          table=("players", "trump"),
          steps=(EventStep("claim-rest", (A("by", "Who said he would win the rest?"),), title="The claim"),),
          also="claimed rest the rest are ours I can win the rest"),
    Wrong("throw-down", "threw his cards on the table", WHIST_FAMILY,
          table=("players", "trump"),
          steps=(EventStep("throw-down", (A("by", "Who threw his cards down face up?"),), title="The cards thrown down"),),
          also="threw thrown down cards on the table face up showed his hand"),
    Wrong("wrong-number", "had the wrong number of cards", WHIST_FAMILY | {"piquet", "poker"},
          table=("players",),
          steps=(EventStep("wrong-number", (A("player", "Whose hand had the wrong number of cards?"),
                                            A("surplus", "How many cards too many? (leave it if too few)", required=False),
                                            A("missing", "How many cards too few? (leave it if too many)", required=False)),
                           title="The wrong number of cards"),),
          also="too many cards too few cards wrong number missing card extra card short"),
    Wrong("call-attention", "called attention to the trick", WHIST_FAMILY,
          table=("players", "trump"),
          steps=(EventStep("call-attention", (A("by", "Who called attention to it?"), A("to", "To what?", required=False)),
                           title="The remark"),),
          also="said the trick is mine called attention spoke remark"),
    # --- piquet -----------------------------------------------------------------------------------
    Wrong("miscall", "miscalled (called more than he held)", frozenset({"piquet"}),
          table=("players", "hands"),
          steps=(EventStep("call", (A("by", "Who made the call in dispute?"), A("what", "What did {by} call?"),
                                    A("count", "How many cards did he call?", when=("what", ("point", "sequence"))),
                                    A("value", "What did he count the point to (its pips, e.g. 41)?", required=False,
                                      when=("what", ("point",))),
                                    A("to", "To which card was the sequence (its highest)?", required=False,
                                      when=("what", ("sequence",))),
                                    A("of", "Of which rank?", required=False, when=("what", ("quatorze", "trio")))),
                           title="The call"),
                 EventStep("reply", (A("answer", "What did {by} reply?"),), fixed=(("by", "=other:ev0.by"),),
                           title="The reply"),
                 _MISCALL_AFTER),
          also="miscall miscalled called call point sequence quatorze trio quint quart tierce declared wrongly"),
    Wrong("piquet-see-left", "looked at the cards he left", frozenset({"piquet"}),
          table=("players",),
          steps=(EventStep("leave-cards", (A("by", "Who left cards in the stock?"), A("count", "How many did he leave?")),
                           title="The cards left"),
                 EventStep("see-left-cards", (A("by", "Who looked at the cards left?"),), title="The look")),
          also="looked at the cards he left stock left cards"),
    Wrong("piquet-expose-deal", "exposed a card in dealing", frozenset({"piquet"}),
          table=("players",),
          steps=(EventStep("expose-in-dealing", (A("whose", "Whose card was it?"), A("card", "Which card?", required=False)),
                           fixed=(("by", "younger"),), title="The card exposed in dealing"),),
          also="exposed a card in dealing dealer showed"),
    Wrong("piquet-drop", "dropped a card", frozenset({"piquet"}),
          table=("players",),
          steps=(EventStep("drop-card", (A("by", "Who dropped a card?"), A("card", "Which card?", required=False)),
                           title="The card dropped"),),
          also="dropped drop fell"),
    Wrong("piquet-stock", "took up a card of the stock wrongly", frozenset({"piquet"}),
          table=("players",),
          steps=(EventStep("take-up-stock", (A("by", "Who took it up?"),
                                             A("position", "Which card of the stock was it, counted from the top (1 to 8)?"),
                                             A("how", "Did he take it up, only expose it, or mix it with his hand?",
                                               required=False)),
                           title="The card of the stock"),),
          also="stock took up too many cards talon"),
    Wrong("piquet-deal-out-of-turn", "dealt out of turn", frozenset({"piquet"}),
          table=("players",),
          steps=(EventStep("deal", (A("by", "Who dealt?"),), fixed=(("out-of-turn", True),), title="The deal"),),
          also="dealt out of turn twice in a row"),
    # --- loo --------------------------------------------------------------------------------------
    Wrong("loo-look", "looked at cards he should not", frozenset({"loo"}),
          table=("places", "trump"),
          steps=(EventStep("look-at", (A("by", "Who looked?"), A("what", "What did {by} look at?"),
                                       A("whose", "Whose cards were they?", required=False,
                                         when=("what", ("thrown-up-cards", "another-hand")))),
                           title="The look"),),
          also="looked look at the miss cards another hand pack"),
    Wrong("loo-declare", "declared out of turn", frozenset({"loo"}),
          table=("places", "trump"),
          steps=(EventStep("declare", (A("by", "Who declared?"), A("what", "What did {by} declare?")),
                           title="The declaration"),),
          also="declared declare stand throw up miss out of turn"),
    Wrong("loo-name-card", "named a card", frozenset({"loo"}),
          table=("places", "trump"),
          steps=(EventStep("name-card", (A("by", "Who named it?"), A("card", "Which card did he name?")),
                           title="The card named"),),
          also="named said mentioned value of a card"),
    # --- poker ------------------------------------------------------------------------------------
    Wrong("poker-exposed", "exposed a card in dealing", frozenset({"poker"}),
          table=("places",),
          steps=(EventStep("dealer-exposes", (A("to", "To whom was the card being dealt?"), A("card", "Which card?", required=False)),
                           title="The card exposed"),),
          also="exposed a card in dealing dealer showed faced"),
    Wrong("poker-speak", "spoke to the dealer while he dealt", frozenset({"poker"}),
          table=("places",),
          steps=(EventStep("speak-to-dealer", (A("by", "Who spoke to the dealer, or distracted him?"),
                                               A("how", "How?", required=False)), title="The distraction"),),
          also="spoke talked distracted noise gesture dealer"),
    Wrong("poker-no-cut", "the pack was not cut", frozenset({"poker"}),
          table=("places",),
          steps=(EventStep("point-out-no-cut", (A("by", "Who pointed it out?"),), title="The pack not cut"),),
          also="not cut uncut pack cut"),
)
BY_KEY = {w.key: w for w in WRONGS}


def of_game(game: str) -> list[Wrong]:
    """The names offered for a game, in the table's order."""
    from adjudicator.interview import builder
    out = []
    for w in WRONGS:
        if game in w.games and all(builder._allowed(game, s.event) for s in w.steps if isinstance(s, EventStep)):
            out.append(w)
    return out
