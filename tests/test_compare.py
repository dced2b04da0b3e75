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
    assert "call-suit: DIFFERS (may exact" in result.stdout
    assert "call-card: DIFFERS (remedy)" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


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
