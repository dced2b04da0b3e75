"""`adjudicator compare`: one incident under the American (1893) and English (1864) codes.

The expectations are the differences the codes make on purpose:
- a lead out of turn: American 24 gives a suit call, only to the adversary on the right of the
  player called on; English 62 gives either adversary the choice of the card led or a suit;
- a revoke: American 30 transfers two tricks; English 72 gives three tricks, or three points off,
  or three added, at the adversaries' option at the end of the hand;
- consulting: American 39 lets partners consult; English 84 makes consulting on a choice of
  penalties lose it.
"""
import json

from click.testing import CliRunner

from adjudicator.core import render
from adjudicator.cli import main

CODES = "american-1893,english-1864"


def run(tmp_path, text):
    path = tmp_path / "incident.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "--codes", CODES, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def row(out, remedy):
    return next(r for r in out["comparison"] if r["remedy"] == remedy)


LEAD = """
game: whist
dealer: S
trump: hearts
start: {trick: 3, leader: N}
events:
  - lead: {by: W, card: KS}
"""

REVOKE = """
game: whist
dealer: S
trump: hearts
start: {trick: 13, leader: N}
events:
  - lead: {by: N, card: AS}
  - renounce: {by: E, card: 3C, holding: spades}
  - play: {by: S, card: 2S}
  - play: {by: W, card: 4S}
  - turn-and-quit: {}
  - end-of-hand: {tricks: {N-S: 7, E-W: 6}}
"""


def test_lead_out_of_turn_suit_call_and_card_call(tmp_path):
    out = run(tmp_path, LEAD)
    call_suit = row(out, "call-suit")
    assert "may_exact" in call_suit["differs"]
    am = call_suit["codes"]["american-1893"]
    en = call_suit["codes"]["english-1864"]
    # American: from West, only South (on his right); from East, only North
    assert sorted(tuple(i["may_exact"]) for i in am) == [("N",), ("S",)]
    assert all(i["may_exact"] == ["N", "S"] and i["choice"] for i in en)
    assert call_suit["laws"] == {"american-1893": ["24"], "english-1864": ["62"]}
    card = row(out, "call-card")
    assert card["differs"] == ["remedy"]
    assert card["codes"]["american-1893"] == []
    assert card["codes"]["english-1864"][0]["may_exact"] == ["N", "S"]


def test_revoke_two_tricks_against_three_alternatives(tmp_path):
    out = run(tmp_path, REVOKE)
    two = row(out, "transfer-two-tricks")
    assert two["differs"] == ["remedy"] and two["codes"]["english-1864"] == []
    for remedy in ("take-three-tricks", "deduct-three-points", "add-three-points"):
        r = row(out, remedy)
        assert r["differs"] == ["remedy"] and r["codes"]["american-1893"] == []
        (en,) = r["codes"]["english-1864"]
        assert en["may_exact"] == ["N", "S"] and en["choice"] and en["status"] == "available"
    no_game = row(out, "cannot-win-game")
    assert no_game["laws"] == {"american-1893": ["30"], "english-1864": ["82"]}
    assert out["differences"] >= 4


def test_consulting_loses_the_choice_only_under_the_english_code(tmp_path):
    out = run(tmp_path, LEAD + "  - consult: {by: N-S}\n")
    # American: the suit call stands; English: 84, the option is lost
    assert row(out, "call-suit")["codes"]["american-1893"]
    assert row(out, "call-suit")["differs"] == ["remedy"]
    none = row(out, "no-penalty")
    assert none["codes"]["american-1893"] == [] and none["laws"]["english-1864"] == ["84"]


def test_text_output_marks_differences(tmp_path):
    path = tmp_path / "incident.yaml"
    path.write_text(LEAD, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "--codes", CODES])
    assert result.exit_code == 0
    assert "A suit called: DIFFERS (may exact" in result.stdout
    assert "The card called: DIFFERS (remedy)" in result.stdout
    # 80 columns, but for a line holding one unbreakable word longer than that (a path, an id),
    # which is never broken inside: render.too_wide allows that line alone
    assert not render.too_wide(result.stdout, 80)


def test_a_code_of_another_game_is_refused(tmp_path):
    path = tmp_path / "incident.yaml"
    path.write_text(LEAD, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "--codes", "american-1893,portland-club"])
    assert result.exit_code == 2
    assert "not of whist" in result.stderr


# Whist and Boston on a lead out of turn (issue 12): the same account under the American code and
# under Boston, which is the American code with Foster's exceptions; the bid is Boston's alone.
BOSTON_LEAD = """
game: boston
dealer: S
bid: {by: N, bid: seven-tricks}
events:
  - lead: {by: E, card: 4C}
"""


def run_codes(tmp_path, text, codes):
    path = tmp_path / "incident.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(path), "--codes", codes, "--json"])
    return result


def test_lead_out_of_turn_under_whist_and_boston(tmp_path):
    result = run_codes(tmp_path, BOSTON_LEAD, "american-1893,boston-1893")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["left_out"] == {"american-1893": ["bid"]}
    call_suit = row(out, "call-suit")
    # whist 24: South, on the right of West (the partner of the offender, whose lead it was);
    # 24.boston: the bidder alone, North, who may instead claim the card led as exposed
    assert call_suit["codes"]["american-1893"][0]["may_exact"] == ["S"]
    assert call_suit["codes"]["american-1893"][0]["laws"] == ["24"]
    assert call_suit["codes"]["boston-1893"][0]["may_exact"] == ["N"]
    assert call_suit["codes"]["boston-1893"][0]["laws"] == ["24.boston"]
    assert "may_exact" in call_suit["differs"]
    assert row(out, "call-card")["differs"] == ["remedy"]
    assert row(out, "take-back-cards")["differs"] == []


def test_a_misere_lead_out_of_turn_under_whist_and_boston(tmp_path):
    text = BOSTON_LEAD.replace("seven-tricks", "grand-misere")
    out = json.loads(run_codes(tmp_path, text, "american-1893,boston-1893").stdout)
    stakes = row(out, "claim-stakes")
    assert stakes["differs"] == ["remedy"]
    assert stakes["codes"]["boston-1893"][0]["laws"] == ["24.misere", "26.boston-solo-whist"]
    assert not stakes["codes"]["american-1893"]


def test_a_code_of_another_book_is_refused(tmp_path):
    result = run_codes(tmp_path, BOSTON_LEAD, "english-1864,boston-1893")
    assert result.exit_code == 2
    assert "is a code of whist, not of boston" in result.output


# --- accounts a code cannot rule on ---------------------------------------------------------------

def invoke(tmp_path, text, *extra):
    path = tmp_path / "incident.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["compare", str(path), "--codes", CODES, *extra])


def adjudicated(tmp_path, text):
    path = tmp_path / "incident.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["adjudicate", str(path)])


TWO_HANDS = """
game: whist
dealer: S
trump: hearts
hands:
  N: [10S, 2H]
  S: [ts]
events:
  - lead: {by: E, card: 3S}
"""


def test_an_account_no_code_can_rule_on_is_refused_as_adjudicate_refuses_it(tmp_path):
    # (the 10 of spades dealt to North and to South, spelled two ways: a contradiction under both)
    result = invoke(tmp_path, TWO_HANDS)
    assert result.exit_code == 2
    assert "same remedies" not in result.output
    assert result.stderr == adjudicated(tmp_path, TWO_HANDS).stderr
    assert "line 6" in result.stderr and "line 7" in result.stderr     # (the text begins with a blank line)


def test_an_account_with_facts_unknown_is_refused_at_its_unknown_line(tmp_path):
    text = LEAD + "unknown:\n  - {event: 1, field: card}\n"
    result = invoke(tmp_path, text, "--json")
    assert result.exit_code == 2
    err = json.loads(result.stdout)["error"]
    assert err["line"] == text.splitlines().index("unknown:") + 2     # (its value: the first entry)
    assert "adjudicate" in err["hint"] and "ask" in err["hint"]


SCORE = """
game: whist
dealer: S
trump: hearts
score: {{N-S: {score}, E-W: 0}}
start: {{trick: 3, leader: N}}
events:
  - lead: {{by: W, card: KS}}
"""


def test_a_score_is_checked_against_each_codes_game_and_a_code_that_refuses_is_said(tmp_path):
    # A side at 6 has won the English game of five points (English law 2), not the American game
    # of seven (American law 1): the English code gives no ruling, and the comparison says so and
    # compares nothing; exit 2, as for any account a code refuses.
    result = invoke(tmp_path, SCORE.format(score=6))
    assert result.exit_code == 2
    assert "english-1864: no ruling" in result.stdout and "a game is 5 points" in result.stdout
    assert "same remedies" not in result.stdout and "remedies differ" not in result.stdout
    assert "english-1864 gave no ruling" in result.stdout
    out = json.loads(invoke(tmp_path, SCORE.format(score=6), "--json").stdout)
    assert list(out["errors"]) == ["english-1864"] and list(out["rulings"]) == ["american-1893"]


def test_a_score_under_both_games_is_compared(tmp_path):
    # the boundary: at 4 neither side has won either game
    out = run(tmp_path, SCORE.format(score=4))
    assert out["errors"] == {} and set(out["rulings"]) == {"american-1893", "english-1864"}


def test_codes_that_name_no_code_are_a_usage_error(tmp_path):
    result = invoke(tmp_path, LEAD, "--json")        # (a good account)
    assert result.exit_code == 0
    path = tmp_path / "incident.yaml"
    for given in (",", " , ,"):
        bad = CliRunner().invoke(main, ["compare", str(path), "--codes", given, "--json"])
        assert bad.exit_code == 2, bad.output
        err = json.loads(bad.stdout)["error"]
        assert "names no code" in err["message"] and "--codes" in err["hint"]


def test_one_code_given_is_refused_with_a_second_code_that_can_rule_beside_it(tmp_path):
    """The hint for a single code said `--codes CODE,english-1864` whatever the code: for
    english-1864 itself the same code twice, and for piquet a whist code that cannot rule a piquet
    account. It names another code of its game, or of its book of laws, or says there is none."""
    invoke(tmp_path, LEAD, "--json")
    path = tmp_path / "incident.yaml"
    for given, hint in (("english-1864", "e.g. --codes english-1864,american-1893"),
                        ("american-1893,american-1893", "e.g. --codes american-1893,english-1864"),
                        ("boston", "e.g. --codes boston-1893,american-1893"),
                        ("piquet", "no other code rules piquet: there is nothing to compare it with")):
        bad = CliRunner().invoke(main, ["compare", str(path), "--codes", given, "--json"])
        assert bad.exit_code == 2, bad.output
        err = json.loads(bad.stdout)["error"]
        assert "names one code" in err["message"] and hint in err["hint"], err
        assert "english-1864,english-1864" not in err["hint"]

