"""Piquet disputes as the players tell them (issue 41): the events added for them are read by the
laws of piquet, told in words, and the generic `wish` is an event of every game."""
import pytest

from adjudicator.core import incident, narrator, registry, schema
from adjudicator.lookup import laws

# Each event added for the disputes the Portland Club decided, as a piquet account tells it.
TOLD = {
    "answer": ("- ask-to-show: {by: younger, question: how-many, suit: diamonds}\n  - answer: {by: elder, count: 2}",
               "Ames answers: 2 cards."),
    "show-carte-blanche": ("- show-carte-blanche: {by: elder}",
                           "Ames shows his carte blanche, counting the cards face upward on the table."),
    "put-back-stock": ("- put-back-stock: {by: younger, position: 8}",
                       "Brown puts back on the stock the card at place 8."),
    "alter-discard": ("- alter-discard: {by: younger}", "Brown claims to alter his discard."),
    "retract-lead": ("- retract-lead: {by: elder, card: 7S}", "Ames claims to take back the seven of spades he led."),
    "offer-fresh-deal": ("- offer-fresh-deal: {by: elder}", "Ames offers a fresh deal."),
    "answer-offer": ("- answer-offer: {by: younger, answer: refuse}",
                     "Brown answers the offer of a fresh deal: he refuses it."),
    "wish": ("- wish: {by: elder, what: play-another-card, card: 7C}",
             "Ames says he wished to have played another card: the seven of clubs."),
}


def _piquet(events: str):
    return incident.parse("game: piquet\nplayers: {elder: Ames, younger: Brown}\nevents:\n  " + events + "\n",
                          "t.yaml")


@pytest.mark.parametrize("name", sorted(TOLD))
def test_each_event_added_for_the_disputes_is_read_by_the_laws_of_piquet(name):
    assert laws.event_laws(name).get("portland-club"), f"{name}: no law of piquet reads it"


@pytest.mark.parametrize("name", sorted(TOLD))
def test_each_event_added_for_the_disputes_is_told_in_words(name):
    events, said = TOLD[name]
    assert said in narrator.tell(_piquet(events))


def test_a_call_that_completes_the_last_is_told_as_its_completion_not_a_new_call():
    text = narrator.tell(_piquet("- call: {by: elder, what: point, count: 4}\n"
                                 "  - call: {by: elder, what: point, value: 41, completes: true}"))
    assert text.endswith("Ames calls a point of 4. Ames completes his call: 41.")


def test_a_card_of_the_other_pack_is_told_where_it_was_found():
    text = narrator.tell(_piquet("- other-pack-card: {player: elder, where: discard, card: 7S}"))
    assert "A card of the other pack, the seven of spades, is found in Ames's discard." in text


def test_the_wish_is_an_event_of_every_game():
    assert "wish" not in schema.ONLY_FOR and "wish" not in schema.EVENT_GAMES
    for game in schema.GAMES:
        own = schema.GAME_EVENTS.get(game)
        assert own is None or "wish" in own, game
    for game in ("whist", "loo", "poker", "german-whist"):
        seat = registry.table(game).seats[0]
        inc = incident.parse(f"game: {game}\nevents:\n  - wish: {{by: {seat}, what: other}}\n", "t.yaml")
        assert inc.events[0].name == "wish"


def test_where_a_card_of_the_other_pack_is_found_is_piquet_s_alone():
    with pytest.raises(Exception) as err:
        incident.parse("game: whist\nevents:\n  - other-pack-card: {player: W, where: discard}\n", "t.yaml")
    assert "piquet" in str(err.value)
