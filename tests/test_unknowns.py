"""Conditional rulings over unknown facts, checked against brute force.

Brave and cautious consequences over one grounding must agree with ruling on every completed
incident one by one (the slow, obvious way, used here only as the check): each branch of the
conditional ruling is the ruling `adjudicate` gives on the incident completed with that branch's
facts, whatever the facts it does not turn on; and an unknown marked as not relevant changes
no completed ruling.
"""
import glob
import itertools
import json
import os
import re

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.core import engine, incident, ruling, unknowns
from adjudicator.cli import main
from adjudicator.errors import InconsistentIncident

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "cases", "**", "unknown-*.yaml"), recursive=True)) + \
    sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "unknowns", "*.yaml")))
FILES = [f for f in FILES if "\nunknown:" in open(f, encoding="utf-8").read()]


def _concrete(path, data, space, combo):
    """The ruling adjudicate gives on the incident completed with one alternative per unknown."""
    done = unknowns.complete(data, space.unknowns, dict(enumerate(combo)))
    inc = incident.parse(yaml.safe_dump(done, sort_keys=False), path)
    assert not unknowns.has_unknowns(inc)
    try:
        return ruling.build(inc, engine.solve(inc))["rulings"]
    except InconsistentIncident:
        return "inconsistent"


def _strip(rulings):
    # positions in the text ("line 14") may differ between the file as written and completed; the
    # texts are compared too (a branch once said "No penalty: none(revoke(2,E,12))" where the
    # completed incident said "Brown (E) revoked in trick 12")
    return rulings if isinstance(rulings, str) else sorted(
        re.sub(r"line \d+", "line ?", json.dumps(r, sort_keys=True)) for r in rulings)


def _load(path):
    inc = incident.load(path)
    assert unknowns.has_unknowns(inc)
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.pop("name", None), data.pop("expected", None)
    return inc, data


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_each_branch_is_the_ruling_on_the_completed_incident(path):
    inc, data = _load(path)
    space = unknowns.Space(inc)
    tree = unknowns.decide(space)
    leaves = list(unknowns._leaves(tree))
    sizes = [range(len(u.alternatives)) for u in space.unknowns]
    for combo in itertools.product(*sizes):
        want = _strip(_concrete(path, data, space, combo))
        mine = [n for p, n in leaves if all(combo[ui] == ai for ui, ai in p)]
        assert len(mine) == 1, f"{combo}: {len(mine)} branches"
        node = mine[0]
        got = "inconsistent" if node.result is None else _strip(node.result["rulings"])
        assert got == want, f"facts {combo}"


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_an_unknown_not_relevant_changes_no_ruling_and_a_relevant_one_does(path):
    inc, data = _load(path)
    space = unknowns.Space(inc)
    result = unknowns.conditional(inc, space)
    sizes = [range(len(u.alternatives)) for u in space.unknowns]
    rulings = {c: json.dumps(_strip(_concrete(path, data, space, c)), sort_keys=True)
               for c in itertools.product(*sizes)}
    for ui, u in enumerate(result["unknowns"]):
        changes = any(rulings[c] != rulings[c[:ui] + (a,) + c[ui + 1:]]
                      for c in rulings for a in sizes[ui])
        assert changes == u["relevant"], u["question"]


def test_conditional_ruling_text_and_json_name_the_fact_and_the_laws():
    path = glob.glob(os.path.join(ROOT, "cases", "whist", "american-1893", "unknown-28-whether-*.yaml"))[0]
    r = CliRunner().invoke(main, ["adjudicate", path])
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "Did Brown (E) hold a spade at the renounce" in out
    assert "If Brown (E) held a spade:" in out and "If Brown (E) did not hold a spade:" in out
    assert "Laws 28, 30, 31 turn on it." in out
    assert "{1}" not in out and "{2}" not in out
    j = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", path]).output)
    assert [u["relevant"] for u in j["unknowns"]] == [True]
    branches = {tuple(c["fact"] for c in e["if"]): [x["remedy"] for x in e["rulings"]] for e in j["conditional"]}
    assert branches[("Brown (E) held a spade",)] == ["transfer-two-tricks", "cannot-win-game", "play-out"] or \
        sorted(branches[("Brown (E) held a spade",)]) == ["cannot-win-game", "play-out", "transfer-two-tricks"]
    assert branches[("Brown (E) did not hold a spade",)] == ["no-penalty"]
    assert j["depends_on"]["laws"] == ["28", "30", "31"]


def test_one_grounding_serves_every_question():
    # (an order's two alternatives are grounded apart, once each: two Controls, never reground)
    path = os.path.join(ROOT, "tests", "fixtures", "unknowns", "quitted-maybe.yaml")
    inc = incident.load(path)
    space = unknowns.Space(inc)
    ctls = [c for _, c in space.grounded]
    assert [f for f, _ in space.grounded] == [{0: 0}, {0: 1}]
    unknowns.conditional(inc, space)
    assert [c for _, c in space.grounded] == ctls and space.ctl is ctls[0] and space.solves > 2


def test_an_order_unknown_is_grounded_apart_and_only_so_many_orders():
    def order(n):
        return unknowns.Unknown(f"u{n}", "order", "", "", (n, n + 1), None,
                                [unknowns.Alternative("", [n, n + 1], []), unknowns.Alternative("", [n + 1, n], [])])
    field = unknowns.Unknown("u0", "field", "", "", (1,), "by", [unknowns.Alternative("", None, [])] * 3)
    assert unknowns._apart([field]) == [{}]
    assert unknowns._apart([field, order(2)]) == [{1: 0}, {1: 1}]
    # at most MAX_APART groundings: the fourth order stays a choice in each
    apart = unknowns._apart([order(2), order(4), order(6), order(8)])
    assert len(apart) == unknowns.MAX_APART == 8 and all(set(f) == {0, 1, 2} for f in apart)


@pytest.mark.parametrize("entry, message", [
    ("{event: 9, field: holding}", "is not the number of an event"),
    ("{event: 2, field: colour}", "is not a field of the event 'renounce'"),
    ("{event: 2, field: card}", "has too many possibilities to guess"),
    ("{event: 2}", "needs `field`"),
    ("{order: [2]}", "expected two event numbers"),
    ("{happened: 2}", "`happened` is not supported"),
    ("{order: [1, 2], field: holding}", "does not go with `order`"),
    ("{event: 2, field: card, one-of: [3C, XX]}", "is not a card"),
])
def test_bad_unknown_entries_are_refused_with_the_line_and_a_hint(tmp_path, entry, message):
    f = tmp_path / "bad.yaml"
    f.write_text("game: whist\nevents:\n  - lead: {by: N, card: AS}\n  - renounce: {by: E, card: 3C}\n"
                 f"unknown:\n  - {entry}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["adjudicate", str(f)])
    assert r.exit_code == 2, r.output
    assert message in r.stderr and "bad.yaml:" in r.stderr and "Traceback" not in r.stderr


def _unknown_entry(tmp_path, entry):
    f = tmp_path / "bad.yaml"
    f.write_text("game: whist\nevents:\n  - lead: {by: W, card: AS}\n  - renounce: {by: N, card: 3C}\n"
                 f"unknown:\n  - {entry}\n", encoding="utf-8")
    return CliRunner().invoke(main, ["adjudicate", str(f)])


@pytest.mark.parametrize("entry, quoted", [
    ("{event: 1, field: ~}", "unknown.field: '~' is not a field of the event 'lead'"),
    ("{event: 1, field: null}", "unknown.field: 'null' is not a field of the event 'lead'"),
    ("{event: 1, field: yes}", "unknown.field: 'yes' is not a field of the event 'lead'"),
    ("{event: ~, field: by}", "unknown.event: '~' is not the number of an event"),
    ("{event: yes, field: by}", "unknown.event: 'yes' is not the number of an event"),
])
def test_a_field_or_event_written_as_a_null_or_a_boolean_is_quoted_as_written(tmp_path, entry, quoted):
    r = _unknown_entry(tmp_path, entry)
    assert r.exit_code == 2, r.output
    assert f"bad.yaml:6:" in r.stderr and quoted in r.stderr
    assert "None" not in r.stderr and "True" not in r.stderr


@pytest.mark.parametrize("one_of, message", [
    ("[W, w, West]", "unknown.one-of: 'w' is the possibility written 'W' at line 6: one possibility cannot be listed twice"),
    ("[West, N, W]", "unknown.one-of: 'W' is the possibility written 'West' at line 6"),
    ("[true, ~, null]", "unknown.one-of: 'null' is the possibility written '~' at line 6"),
])
def test_a_one_of_naming_one_possibility_twice_in_any_spelling_is_refused_at_its_line(tmp_path, one_of, message):
    r = _unknown_entry(tmp_path, f"{{event: 1, field: winning, one-of: {one_of}}}" if "~" in one_of
                       else f"{{event: 1, field: by, one-of: {one_of}}}")
    assert r.exit_code == 2, r.output
    assert message in r.stderr and "hint: list each possibility once" in r.stderr


@pytest.mark.parametrize("one_of", ["[W, N]", "[W, North, E]", "[true, ~]"])
def test_a_one_of_naming_each_possibility_once_is_taken(tmp_path, one_of):
    r = _unknown_entry(tmp_path, f"{{event: 1, field: winning, one-of: {one_of}}}" if "~" in one_of
                       else f"{{event: 1, field: by, one-of: {one_of}}}")
    assert r.exit_code == 0, r.output


def test_too_many_relevant_unknowns_together_are_refused_with_a_hint():
    path = os.path.join(ROOT, "tests", "fixtures", "unknowns-too-many.yaml")
    r = CliRunner().invoke(main, ["adjudicate", path])
    assert r.exit_code == 2, r.output
    assert "too many unknown facts together" in r.stderr and "adjudicator ask" in r.stderr
    # said at the incident's `unknown`, as every other refusal of a key is (it named the file alone)
    with open(path, encoding="utf-8") as fh:
        line = next(i for i, t in enumerate(fh, 1) if t.startswith("unknown:"))
    assert r.stderr.startswith(f"{path}:{line}:") or r.stderr.startswith(f"{path}:{line + 1}:"), r.stderr


def _bundled_with_unknowns(seed: int, count: int):
    """Bundled cases (fixed seed) made incomplete: two neighbouring events' order, and a fact
    the account leaves unsaid (ask.candidates), both unknown."""
    import random
    from adjudicator.interview import ask
    rng = random.Random(seed)
    paths = sorted(p for p in glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True)
                   if "unknown-" not in os.path.basename(p))
    out = []
    for path in rng.sample(paths, count):
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        data.pop("name", None), data.pop("expected", None)
        n = len(data["events"])
        if n < 2:
            continue
        k = rng.randrange(1, n)
        entries = [{"order": [k, k + 1]}]
        inc = incident.parse(yaml.safe_dump(data, sort_keys=False), path)
        more = [c for c in ask.candidates(inc) if c["event"] not in (k, k + 1)]
        if more:
            entries.append(rng.choice(more))
        out.append((path, {**data, "unknown": entries}))
    return out


def _with_unknowns(name: str, entries: list):
    """A bundled case made incomplete by these `unknown` entries (its name and expectation left out)."""
    [path] = glob.glob(os.path.join(ROOT, "cases", "**", name), recursive=True)
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.pop("name", None), data.pop("expected", None)
    return path, {**data, "unknown": entries}


# Found by the sample below when new cases shifted it: a piquet hand scored as the partie's sixth
# deal, two of its plays in an unknown order and who won a trick unknown. The partie's totals
# summed this deal's score among the given deals', and with a score for each possibility the sum
# was grounded for every total they could make together: no ruling in 10 s (rules/piquet/partie.lp).
# Found by a longer exploration (other seeds): two poker hands shown in an unknown order, each
# show's cards possible at either moment, and a flush or no hand valued by a join of five ranks
# that grounded every mix of the two hands' cards: no ruling in 10 s (rules/poker/show.lp).
KEPT = [_with_unknowns("71-72-this-deal-scored-as-the-sixth-decides-the-partie.yaml",
                       [{"order": [21, 22]}, {"event": 19, "field": "winning"}]),
        _with_unknowns("show-ace-king-queen-knave-ten-is-no-sequence-and-loses-to-a-pair.yaml",
                       [{"order": [16, 17]}, {"event": 9, "field": "pack-out"}]),
        _with_unknowns("foul-hand-the-four-cards-of-a-foul-hand-laid-on-the-table-are-no-hand-in-the-show.yaml",
                       [{"order": [11, 12]}, {"event": 8, "field": "pack-out"}]),
        # (the exploration's seed 14 of 400) Two hands of no value shown in an unknown order, after
        # two equal pairs: with both orders in one grounding each moment held both hands' ten
        # cards, and the sum over their ranks and the hands beaten by better ones grounded every
        # mix: 11 s, refused as too many unknown facts. Each order is now grounded apart (0.03 s).
        _with_unknowns("show-two-equal-best-hands-the-book-does-not-divide-the-pool.yaml",
                       [{"order": [18, 19]}, {"event": 10, "field": "pack-out"}])]


def _sample():
    """The fixed sample (seed 2026, 16 cases) and the incidents kept above; or, for the long
    exploration (README), ADJUDICATOR_EXPLORE_UNKNOWNS cases drawn with a new seed each run (in
    the tests' names; ADJUDICATOR_EXPLORE_SEED replays one)."""
    many = os.environ.get("ADJUDICATOR_EXPLORE_UNKNOWNS")
    if not many:
        return [(p, d, "") for p, d in _bundled_with_unknowns(2026, 16) + KEPT]
    import random
    seed = int(os.environ.get("ADJUDICATOR_EXPLORE_SEED") or random.SystemRandom().randrange(1 << 30))
    return [(p, d, f"seed{seed}") for p, d in _bundled_with_unknowns(seed, int(many))]


@pytest.mark.parametrize("path, data", [pytest.param(p, d, id=f"{tag}-{os.path.basename(p)}" if tag else
                                                     os.path.basename(p)) for p, d, tag in _sample()])
def test_incidents_not_written_for_this_are_ruled_as_brute_force_rules_them(path, data):
    """Other incidents with facts left out (bundled cases made incomplete at random, fixed seed):
    each branch of the conditional ruling equals adjudicate on the completion it stands for."""
    inc = incident.parse(yaml.safe_dump(data, sort_keys=False), path)
    space = unknowns.Space(inc)
    leaves = list(unknowns._leaves(unknowns.decide(space)))
    for combo in itertools.product(*[range(len(u.alternatives)) for u in space.unknowns]):
        want = _strip(_concrete(path, data, space, combo))
        node = [n for p, n in leaves if all(combo[ui] == ai for ui, ai in p)][0]
        got = "inconsistent" if node.result is None else _strip(node.result["rulings"])
        assert got == want, f"facts {combo} of {data['unknown']}"


def test_a_conditional_ruling_past_its_time_budget_is_refused_as_too_many_unknowns(tmp_path):
    """Twelve exposed cards each one of thirteen: refused (exit 2 in the CLI) once the budget is
    spent, never left running."""
    from adjudicator.errors import InputError
    events = "".join("  - expose: {by: E, card: 2S}\n" for _ in range(12))
    cards = "[2S, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AS]"
    entries = "".join(f"  - {{event: {i}, field: card, one-of: {cards}}}\n" for i in range(1, 13))
    f = tmp_path / "many.yaml"
    f.write_text(f"game: whist\ndealer: S\ntrump: hearts\nevents:\n{events}unknown:\n{entries}", encoding="utf-8")
    inc = incident.load(str(f))
    space = unknowns.Space(inc)            # grounding within the engine's own limit
    space.timeout = 0.3                    # the budget of the reasoning after it, made small
    space.renew()
    with pytest.raises(InputError, match="too many unknown facts together"):
        unknowns.conditional(inc, space)


def test_an_account_impossible_whatever_the_facts_is_refused_as_adjudicate_refuses_it(tmp_path):
    f = tmp_path / "impossible.yaml"
    f.write_text("game: whist\ndealer: S\ntrump: hearts\nstart: {trick: 3, leader: N}\nevents:\n"
                 "  - renounce: {by: E, card: 3C}\n  - play: {by: S, card: 2S}\n"
                 "unknown:\n  - {event: 2, field: holding}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["adjudicate", str(f)])
    assert r.exit_code == 2 and "cannot have happened" in r.stderr, r.output


def test_a_conditional_ruling_has_every_key_of_a_plain_one():
    # one --json shape: the conditional ruling adds its keys to a plain ruling's (docs/unknowns.md)
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases", "whist",
                          "american-1893")
    known = os.path.join(folder, "24-suit-call-only-by-the-adversary-on-the-right.yaml")
    unknown = os.path.join(folder, "unknown-28-whether-the-renouncer-held-the-suit-led-decides-between-a-"
                                   "revoke-and-no-penalty.yaml")
    plain = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", known]).stdout)
    cond = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", unknown]).stdout)
    assert "conditional" in cond and set(plain) <= set(cond), set(plain) - set(cond)
    assert cond["story"].startswith("North is Ames") and cond["code_given"] is False
    assert "story" not in json.loads(CliRunner().invoke(main, ["adjudicate", "--json", "--no-story", unknown]).stdout)


ONLY_ONE_CAN_BE = os.path.join(ROOT, "cases", "whist", "american-1893",
                               "unknown-who-played-second-where-one-of-the-two-had-played-already-only-one-can-have-and-no-penalty.yaml")


def test_facts_that_decide_only_whether_the_account_can_be_are_said_so_not_that_the_ruling_depends_on_them():
    """One branch refused, the other ruled: the referee has one ruling to give. It is given as the
    ruling, the branch that cannot be is said to be so, and the headline does not say that the
    ruling depends on the facts (it said so before, over a ruling headed "Whatever the facts were")."""
    r = CliRunner().invoke(main, ["adjudicate", ONLY_ONE_CAN_BE])
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "The facts not known decide only whether the account can have happened, and wherever it can, " \
           "the ruling is the same: Who did the play at the 3rd event?" in out
    assert "depends on facts not known" not in out and "Whatever the facts were" not in out
    assert "The ruling: 1. No penalty" in out
    assert "If it was Brown (E): that cannot have been so (Brown (E) plays a second card to trick 4)." in out
    assert "If it was Clark (S)" not in out            # (nothing to add to the ruling above)
    j = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", ONLY_ONE_CAN_BE]).output)
    assert (j["settled"], j["only_whether_possible"]) == (False, True)
    assert [x["remedy"] for x in j["rulings"]] == ["no-penalty"]
    # a ruling that does turn on its facts is not said to turn only on whether it can be
    other = glob.glob(os.path.join(ROOT, "cases", "whist", "american-1893", "unknown-28-whether-*.yaml"))[0]
    j = json.loads(CliRunner().invoke(main, ["adjudicate", "--json", other]).output)
    assert (j["settled"], j["only_whether_possible"]) == (False, False)


def test_the_search_stops_weighing_at_max_weighed_facts_and_the_ruling_says_so(monkeypatch, tmp_path):
    """More facts not known than the search weighs (unknowns.MAX_WEIGHED, made 1 here for a
    three-fact account): the others are taken as written, unweighed, so the ruling is the same
    whole ruling, and says so: `not_weighed` in --json and a last sentence a player reads."""
    f = tmp_path / "three.yaml"
    with open(os.path.join(ROOT, "tests", "fixtures", "unknowns-too-many.yaml"), encoding="utf-8") as fh:
        head = "".join(fh.readlines()[:20])           # (its hand, up to `unknown:`)
    assert head.rstrip().endswith("turn-and-quit: {}")
    f.write_text(head + "unknown:\n  - {event: 2, field: holding}\n  - {event: 7, field: holding}\n"
                 "  - {event: 8, field: holding}\n", encoding="utf-8")
    whole = json.loads(CliRunner().invoke(main, ["adjudicate", str(f), "--json"]).stdout)
    assert "not_weighed" not in whole and not any("not_weighed" in u for u in whole["unknowns"])
    assert not any(s.startswith("The search weighed") for s in whole["summary"])
    monkeypatch.setattr(unknowns, "MAX_WEIGHED", 1)
    bounded = json.loads(CliRunner().invoke(main, ["adjudicate", str(f), "--json"]).stdout)
    assert bounded["not_weighed"] == ["u2", "u3"]
    assert [u.get("not_weighed", False) for u in bounded["unknowns"]] == [False, True, True]
    said = bounded["summary"].pop()
    assert said.startswith("The search weighed 1 of the 3 facts not known (those that decide most) and "
                           "stopped there: the other 2 were taken as written")
    assert all(u["question"] in said for u in bounded["unknowns"][1:])
    for key in ("rulings", "findings", "conditional", "summary", "settled"):    # the same whole ruling
        assert bounded[key] == whole[key], key
    text = " ".join(CliRunner().invoke(main, ["adjudicate", str(f)]).stdout.split())
    assert "The search weighed 1 of the 3 facts not known" in text
