"""The narrator (adjudicator/core/narrator.py): every incident told in words, with no holes."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from adjudicator.core import cases, incident, narrator, schema
from adjudicator.cli import main
from adjudicator.core.incident import Event

CASES = cases.find(["cases"])


def _defects(text: str) -> list[str]:
    out = []
    for bad in ("{", "}", "[", "]", "None", "  ", " ,", "..", "(s)", " 1 pence", " 0 card"):
        if bad in text:
            out.append(f"contains {bad!r}")
    m = re.search(r"\b(\w+) \1\b", text, re.IGNORECASE)
    if m:
        out.append(f"doubled word {m.group(0)!r}")
    return out


def test_every_case_file_is_told_without_a_hole():
    bad = {}
    for path in CASES:
        text = narrator.tell(incident.load(path))
        assert text, path
        if _defects(text):
            bad[path] = (_defects(text), text)
    assert not bad, json.dumps(bad, indent=1)[:3000]


def test_a_hand_is_told_as_a_player_would_tell_it():
    inc = incident.parse(
        "game: whist\ntrump: hearts\nstart: {trick: 4, leader: N}\n"
        "events:\n  - lead: {by: E, card: 5S}\n  - play: {by: S, card: 2S}\n", "t.yaml")
    assert narrator.tell(inc) == ("Hearts are trumps. North has the lead for the fourth trick. "
                                  "East leads the five of spades. South plays the two of spades.")


def test_players_names_are_used_when_given():
    inc = incident.parse(
        "game: whist\nplayers: {N: Ames, E: Brown, S: Clark, W: Dodd}\n"
        "events:\n  - lead: {by: Brown, card: KH}\n  - consult: {by: N-S}\n", "t.yaml")
    text = narrator.tell(inc)
    assert "Brown leads the king of hearts." in text
    assert "Ames and Clark consult." in text
    assert "North" not in text.split("Dodd.", 1)[1]


def test_a_deal_finished_without_its_dealer_named_is_finished_by_whoever_dealt_it():
    # (at poker the next game is dealt by the player on the last dealer's left, not by `dealer`)
    inc = incident.parse(
        "game: poker\nplayers: {p1: Ames, p2: Brown, p3: Clark}\ndealer: p1\n"
        "events:\n  - deal: {}\n  - finish-deal: {}\n  - deal: {by: p2}\n  - finish-deal: {}\n", "t.yaml")
    text = narrator.tell(inc)
    assert "Ames deals. Ames finishes the deal" in text and "Brown deals. Brown finishes the deal" in text


def test_every_event_of_the_format_has_a_phrase():
    """A phrase per event kind of the schema: a new event without one is told generically (below),
    but the bundled games' events are all phrased."""
    assert set(schema.EVENTS) - set(narrator.PHRASES) == set()


def test_an_event_with_no_phrase_falls_back_to_a_plain_sentence(monkeypatch):
    """A game's new event (e.g. piquet's) told before anyone writes its phrase: no crash, no hole."""
    inc = incident.parse("game: whist\nevents:\n  - look: {by: W}\n", "t.yaml")
    inc.events.append(Event(2, "declare-point", {"by": "elder", "count": 5, "suit": "hearts"}, 4))
    inc.events.append(Event(3, "sink-carte-blanche", {}, 5))
    text = narrator.tell(inc)
    assert "The elder hand: declare point (count: 5; suit: hearts)." in text
    assert "Event: sink carte blanche." in text
    assert not _defects(text)


def test_a_phrase_naming_a_missing_field_falls_back_rather_than_leave_a_hole():
    inc = incident.parse("game: whist\nevents:\n  - turn-trump: {}\n", "t.yaml")
    assert narrator.tell(inc) == "The last card is turned up for trump."
    inc = incident.parse("game: whist\nevents:\n  - deal: {}\n", "t.yaml")
    assert narrator.tell(inc) == "The cards are dealt."
    inc = incident.parse("game: whist\ndealer: W\nevents:\n  - deal: {}\n", "t.yaml")
    assert narrator.tell(inc) == "West is the dealer. West deals."


@pytest.mark.parametrize("flag", [[], ["--no-story"]])
def test_adjudicate_shows_the_story_above_the_ruling_unless_told_not_to(flag):
    path = "cases/whist/american-1893/23-playing-another-card-after-adversaries-stated.yaml"
    out = CliRunner().invoke(main, ["adjudicate", *flag, path])
    assert out.exit_code == 0, out.output
    told = "East exposes the queen of hearts." in out.stdout.replace("\n  ", " ")
    assert told == (not flag)
    if not flag:
        assert out.stdout.index("What happened:") < out.stdout.index("1. ")
    js = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", *flag, path]).stdout)
    assert ("story" in js) == (not flag)
    if not flag:
        assert js["story"].startswith("South is the dealer.")


NAMED = """
game: whist
players: {N: Off, E: No, S: yes, W: "null"}
dealer: S
trump: hearts
start: {trick: 3, leader: N}
events:
  - lead: {by: W, card: KS}
"""


def test_a_players_name_opening_a_sentence_stays_as_written(tmp_path):
    # `yes` deals and `null` leads out of turn: the sentences that begin with them keep their case
    p = tmp_path / "named.yaml"
    p.write_text(NAMED)
    story = narrator.tell(incident.load(str(p)))
    assert "yes is the dealer." in story and "Yes is the dealer" not in story
    assert "null leads the king of spades" in story and "Null" not in story
    r = CliRunner().invoke(main, ["adjudicate", "--json", str(p)])
    texts = [f["text"] for f in json.loads(r.stdout)["findings"]]
    assert any(t.startswith("null (W) led out of turn") for t in texts), texts


def test_a_sentence_that_begins_with_a_word_like_a_name_is_still_capitalised():
    # the boundary: a name is kept only where it is the whole first word
    assert narrator.capital("offers made", ("Off",)) == "Offers made"
    assert narrator.capital("off leads", ("off",)) == "off leads"
    assert narrator.capital("yesterday", ("yes",)) == "Yesterday"


def test_speaking_to_the_dealer_is_told_without_saying_when():
    # rule 15 forbids speaking "while the cards are being dealt"; whether he did is the ruling's to say
    # (the account's order tells it), not the story's: after the deal was finished, he did not
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases", "poker",
                        "draw-poker", "15-speaking-to-the-dealer-after-the-deal-is-finished-is-not-forbidden-by-rule-15.yaml")
    story = narrator.tell(incident.load(path))
    assert "speaks to the dealer" in story and "while he deals" not in story


def test_a_number_of_cards_and_a_sum_staked_are_told_with_their_nouns(tmp_path):
    """"discards 0 card(s) and draws as many", "1 card(s) too many", "staking 2." (no unit): a count
    of cards is told with its noun, none as keeping the cards, and a sum in the stakes' unit."""
    p = tmp_path / "p.yaml"
    p.write_text("game: poker\nplayers: {p1: Ames, p2: Brown, p3: Clark}\ndealer: p1\n"
                 "stakes: {ante: 1, limit: 12, unit: pence}\nevents:\n  - deal: {}\n  - finish-deal: {}\n"
                 "  - open: {by: p3, amount: 1}\n  - bet: {by: p1, amount: 2}\n  - pass: {by: p2}\n"
                 "  - draw: {by: p3, cards: 0}\n  - draw: {by: p1, cards: 1, received: 1}\n")
    told = " ".join(narrator.tell(incident.load(str(p))).split())
    assert "The stakes: ante 1 penny and limit 12 pence." in told
    assert "Clark opens the game, staking 1 penny. Ames adds 2 pence to his stake." in told
    assert "Clark keeps the cards he holds, discarding none." in told
    assert "Ames discards 1 card and draws as many (the dealer gives him 1 card)." in told
    q = tmp_path / "q.yaml"
    q.write_text("game: piquet\nplayers: {elder: Ames, younger: Brown}\ndealer: younger\nevents:\n"
                 "  - wrong-number: {player: elder, missing: 2}\n")
    assert "Ames is found with 2 cards too few." in " ".join(
        narrator.tell(incident.load(str(q))).split())


def test_a_bid_in_the_auction_is_told_in_the_books_words():
    """A bid made or corrected is told as the bid the hand is played for is: "little misère", "six
    tricks", "misère des quatre as" (not the key written, `little-misere`)."""
    inc = incident.parse("game: boston-de-fontainebleau\ndealer: W\nevents:\n"
                         "  - make-bid: {by: N, bid: little-misere}\n"
                         "  - make-bid: {by: E, bid: six-tricks}\n", "bids.yaml")
    text = narrator.tell(inc)
    assert "North bids little misère. East bids six tricks." in text, text
    inc = incident.parse("game: french-boston\ndealer: W\nevents:\n"
                         "  - make-bid: {by: N, bid: misere-des-quatre-as}\n", "bids.yaml")
    assert "North bids misère des quatre as." in narrator.tell(inc)
