"""Dummy and Double Dummy: the key naming the Dummy hands is required for those games, refused for
any other, and becomes dummy/1 facts (the rules derive who plays each hand)."""
import pytest

from adjudicator import facts, incident
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
