"""A game's table is data (rules/codes.yaml `tables:`): its seats, their order and its sides reach
the rules as facts and the incident's reader as words; no game's seats are written into the rules
(rules/common/seats.lp) or into Python."""
from __future__ import annotations

import os

import clingo
import pytest

from adjudicator.core import facts, incident, registry
from adjudicator.errors import InputError

SEATS_LP = os.path.join(registry.rules_dir(), "common", "seats.lp")


def _model(game: str) -> set[str]:
    ctl = clingo.Control(["--warn=none"])
    with open(SEATS_LP, encoding="utf-8") as fh:
        ctl.add("base", [], fh.read())
    with ctl.backend() as b:
        for sym in facts.table_facts(game):
            b.add_rule([b.add_atom(sym)])
    ctl.ground([("base", [])])
    out: set[str] = set()
    ctl.solve(on_model=lambda m: out.update(str(s) for s in m.symbols(atoms=True)))
    return out


def test_whist_is_four_players_in_two_sides_passing_to_the_left():
    m = _model("whist")
    assert {"partner(n,s)", "partner(e,w)", "adversary(n,e)", "adversary(n,w)", "left_of(e,n)",
            "order(n,w,4)"} <= m
    assert "partner(n,e)" not in m and "adversary(n,s)" not in m and "order(n,n,5)" not in m


def test_piquet_is_two_players_each_for_himself():
    m = _model("piquet")
    assert {"seat(elder)", "seat(younger)", "adversary(elder,younger)", "adversary(younger,elder)",
            "next(elder,younger)", "next(younger,elder)", "order(elder,younger,2)"} <= m
    assert not any(a.startswith(("partner(", "side_of(")) for a in m)
    assert "order(elder,elder,3)" not in m


def test_the_incident_reads_the_seats_of_its_game():
    ck = incident.Checker("x.yaml", table=registry.table("piquet"))
    y = incident.Y("the elder hand", 3, 5)
    assert ck.seat(y, "dealer") == "elder"
    assert ck.seat(incident.Y("Younger", 3, 5), "dealer") == "younger"
    with pytest.raises(InputError) as e:
        ck.seat(incident.Y("N", 3, 5), "dealer")
    assert e.value.hint.startswith("a seat is elder or younger")
    with pytest.raises(InputError) as e:
        ck.side(incident.Y("N-S", 3, 5), "score")
    assert "each plays for himself" in e.value.hint
    whist = incident.Checker("x.yaml")
    assert whist.seat(incident.Y("north", 1, 1), "dealer") == "N"
    assert whist.seats(incident.Y("E-W", 1, 1), "by") == ["E", "W"]


def test_every_game_names_a_table_with_seats():
    for game in registry.games():
        t = registry.table(game)
        assert t.seats and len(set(t.seats)) == len(t.seats), game
        assert all(m in t.seats for members in t.sides.values() for m in members), game


def test_a_hand_has_the_tricks_its_game_states():
    """How many tricks a hand has (and, in the whist family, how many cards each is dealt) is the
    game's `tricks` in rules/codes.yaml, given to the rules as tricks_in_hand/1: no shared rule
    file writes the number, and every game whose rules read it states it."""
    import re

    from adjudicator.core import rulefiles
    written = re.compile(r"\b(cards|tricks)_in_hand\(\s*\d")
    for name in sorted(os.listdir(os.path.join(registry.rules_dir(), "common"))):
        path = os.path.join(registry.rules_dir(), "common", name)
        assert not any(written.search(line) for line in rulefiles.code_lines(path)), name
    # (cards_in_hand/1, a hand's size, is each game's own: whist's from tricks_in_hand, loo's from its
    # hand_size; poker states none, its hands checked show by show around the draw)
    read = re.compile(r"\btricks_in_hand\(")
    for info in registry.all_codes():
        if not info.get("rules"):
            continue
        entry = os.path.join(registry.rules_dir(), info["rules"])
        if any(read.search(line) for p in rulefiles.files(entry) for line in rulefiles.code_lines(p)):
            assert registry.tricks(info["game"]), info["code"]
    assert facts.hand_facts("piquet") == [clingo.Function("tricks_in_hand", [clingo.Number(12)])]
    assert facts.hand_facts("poker") == []          # no tricks: no number, and no bound of a trick's
    assert incident.last_trick("poker") == incident.last_trick(None) == 10_000
    assert incident.last_trick("whist") == 13 and incident.last_trick("german-whist") == 26
