"""Dummy and Double Dummy: the key naming the Dummy hands is required for those games, refused for
any other, and becomes dummy/1 facts (the rules derive who plays each hand)."""
import pytest

from adjudicator.core import facts, incident
from adjudicator.errors import InputError

EVENTS = "events:\n  - lead: {by: N, card: KD}\n"


def parse(head: str):
    return incident.parse(head + EVENTS, "t.yaml")


@pytest.mark.parametrize("head, line, words", [
    ("game: dummy\n", 1, "needs `dummy`"),
    ("game: double-dummy\n", 1, "needs `dummies`"),
    ("game: whist\ndummy: N\n", 2, "not a key of the game whist"),
    ("game: whist\ndummies: [N, E]\n", 2, "not a key of the game whist"),
    ("game: dummy\ndummies: [N, E]\n", 2, "not a key of the game dummy"),
    ("game: double-dummy\ndummy: N\n", 2, "not a key of the game double-dummy"),
    ("game: double-dummy\ndummies: [N, S]\n", 2, "one Dummy on each side"),
    ("game: double-dummy\ndummies: [N]\n", 2, "one Dummy on each side"),
    ("game: dummy\ndummy: [N, S]\n", 2, "one seat"),
    ("game: dummy\ndummy: X\n", 2, "not a seat"),
])
def test_the_dummy_key_is_checked(head, line, words):
    with pytest.raises(InputError) as e:
        parse(head)
    assert e.value.exit_code == 2 and e.value.line == line and words in e.value.message
    assert e.value.hint


def test_dummy_facts_and_default_codes():
    inc = parse("game: dummy\nplayers: {N: Ames, S: Clark}\ndummy: Ames\n")
    assert inc.code == "dummy-1864"
    assert [str(s) for s in facts.build(inc) if s.name == "dummy"] == ["dummy(n)"]
    inc = parse("game: double-dummy\ndummies: [N, E]\n")
    assert inc.code == "double-dummy-1864"
    assert sorted(str(s) for s in facts.build(inc) if s.name == "dummy") == ["dummy(e)", "dummy(n)"]


# A Dummy ruling done by an act of Dummy's hand said "Done: by North" (exacted_by [N]) for the
# take-back of a lead from the wrong hand: Dummy, "blind and deaf" (Dummy III), takes no part; his
# partner, who plays his cards, did it. Now it names the partner, in the text and in --json.
TAKE_BACK = """game: {game}
{dummy}
dealer: S
trump: spades
start: {{trick: 3, leader: {leader}}}
events:
  - lead: {{by: {hand}, card: KD}}
  - take-back: {{by: {hand}, card: KD}}
  - lead: {{by: {leader}, card: 2C}}
"""


@pytest.mark.parametrize("game, dummy, hand, leader, partner", [
    ("dummy", "dummy: N", "N", "S", "S"),            # Dummy's card led when his partner should lead
    ("double-dummy", "dummies: [N, E]", "E", "S", "W"),   # East's Dummy hand led out of turn: West took it back
    ("dummy", "dummy: N", "S", "N", "S"),            # the partner's own card: his own act
])
def test_a_take_back_from_dummys_hand_is_done_by_his_partner(game, dummy, hand, leader, partner):
    from adjudicator.core import engine, render, ruling
    inc = incident.parse(TAKE_BACK.format(game=game, dummy=dummy, hand=hand, leader=leader), "t.yaml")
    result = ruling.build(inc, engine.solve(inc))
    done = [r for r in result["rulings"] if r["status"] == "done"]
    assert [r["remedy"] for r in done] == ["take-back-cards"] and done[0]["exacted_by"] == [partner]
    words = {"N": "North", "E": "East", "S": "South", "W": "West"}
    text = render.ruling_text(result, inc.players)
    assert f"Done: by {words[partner]}." in text
    if hand != partner:
        assert f"Done: by {words[hand]}." not in text
