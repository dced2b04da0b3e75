"""The law quiz (adjudicator/study/quiz.py, progress.py, `adjudicator quiz`): questions an examiner
would set, keyed by the engine's ruling and graded against it; feedback that teaches; spaced
repetition with FSRS's four grades, daily limits and a forecast; progress kept per person on the web
page and never silently lost (issue 44)."""
from __future__ import annotations

import datetime as dt
import glob
import html
import json
import os
import random
import re
import sqlite3
import sys

import pytest
from click.testing import CliRunner

from adjudicator.core import compare, engine, incident, registry, ruling
from adjudicator.study import progress, quiz
from adjudicator.cli import main
from adjudicator.errors import AdjudicatorError
from adjudicator.lookup import laws

from .conftest import bank_case, solved

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the bank: every case whose facts are all known (one with `unknown:` facts has a conditional ruling)
CASES = [p for p in sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True))
         if bank_case(p)]         # (quiz._all_known, its answer kept for the process: tests/conftest.py)
STATUS = {"available": "open", "later": "later", "exacted": "exacted", "lost": "lost"}
CALL_SUIT = os.path.join(ROOT, "cases/whist/american-1893/24-adversary-was-to-lead-call-from-offender-who-next-leads.yaml")
# a remedy's id in prose ("jack-pot" is also the game's word for a game, and said so in a story)
REMEDY_ID = re.compile(r"\b(?:" + "|".join(re.escape(r) for r in sorted(registry.remedies(), key=len, reverse=True)
                                        if "-" in r and r != "jack-pot") + r")\b")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _letters(q, keys) -> str:
    return " ".join(q.letters_of(keys))


def _right(q) -> str:
    return _letters(q, q.answer)


def _wrong(q) -> str:
    """A wrong answer by letters: a wrong choice alone (for a choice of one), else a wrong choice added
    (or, when every choice is right, one left out: "who may exact it" when any player may)."""
    wrong = next((k for k in q.keys if k not in q.answer), None)
    if wrong is None:
        return _letters(q, q.answer[1:])
    return _letters(q, [wrong] if not q.many else q.answer + [wrong])


def _in_words(q) -> str:
    """The right answer in words, whatever order the choices are shown in (a review shuffles them)."""
    if q.kind == "who":
        return " and ".join(q.answer)
    if q.kind == "law":
        return ", ".join(q.answer)
    if q.kind == "remedy":
        return "no penalty" if q.answer == ["no-penalty"] else ", ".join(q.answer)
    return q.answer[0]


# --- every question of the bank: asked as an examiner asks, keyed as the engine rules --------------

COMPARED = [p for p in CASES if "/whist/" in p][::12]


def _shared_ruling(path: str) -> None:
    """The quiz's key for a case is adjudicate's ruling (quiz.ruling_of): taken from the run's shared
    solve of the case (tests/conftest.solved, the same dict: checked below on a sample) rather than
    ruled again for each question test."""
    inc = incident.load(path)
    key = (os.path.abspath(path), inc.code)
    if key not in quiz._RULINGS:
        res = solved(path).result
        quiz._RULINGS[key] = None if res is None else {**json.loads(json.dumps(res)), "_players": inc.players}


def test_the_shared_ruling_is_the_one_the_quiz_makes():
    for path in CASES[::40]:
        quiz._RULINGS.pop((os.path.abspath(path), incident.load(path).code), None)
        made = quiz.ruling_of(path)
        res = solved(path).result
        assert made == (None if res is None else {**res, "_players": incident.load(path).players}), path


def _cited(result) -> set[str]:
    return ({l for r in result["rulings"] for l in r["laws"]} | {l for f in result["findings"] for l in f["laws"]}
            | {l for r in result["rulings"] for m in r["may_not_exact"] for l in m["laws"]})


@pytest.mark.parametrize("path", CASES, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_question_of_the_bank_is_an_examiners_and_is_graded_as_the_engine_rules(path):
    """Every question of the bank. The situation in words (no file name, no remedy id), one question,
    choices of one kind (remedies as sentences, laws with their gist, the people at the table); the
    key is the engine's ruling: the remedies it gives (the course of the game aside), who may exact
    a right someone exacts, the laws the ruling rests on, where a right stands. The `compare`
    questions need a second ruling: made and checked here for one whist case in twelve."""
    kinds = quiz.KINDS if path in COMPARED else tuple(k for k in quiz.KINDS if k != "compare")
    _shared_ruling(path)
    qs = quiz.questions_for(path, kinds=kinds)
    result = quiz.ruling_of(path)
    if result is None:      # the engine refuses the incident: no question may be made of it
        assert qs == []
        return
    rulings = result["rulings"]
    name = os.path.basename(path)[:-5]
    inc = incident.load(path)
    table_seats = [s for s, _ in quiz._people(inc, inc.players or {})]
    for q in qs:
        assert q.story and name not in q.story and name not in q.prompt
        words = re.sub(r"The law \u201c[\w.-]+\u201d", "", q.story + " " + q.prompt + " " + " ".join(q.options))
        assert not REMEDY_ID.search(words), q.qid        # (a law may be named "bidding.must-play")
        assert "{" not in q.prompt and "None" not in q.prompt
        assert len(set(q.options)) == len(q.options) == len(q.keys) >= 2, (q.qid, q.options)
        assert set(q.answer) <= set(q.keys) and q.answer
        assert quiz.grade(q, _right(q)).right, q.qid
        assert not quiz.grade(q, _wrong(q)).right, q.qid
        assert q.many == (q.kind in quiz.MANY)
        if q.many and "choose every" not in q.prompt.lower():
            pytest.fail(f"{q.qid}: a question with several answers says so: {q.prompt}")
        if q.kind == "remedy":
            key = list(dict.fromkeys(r["remedy"] for r in rulings if r["remedy"] not in quiz.OUTCOMES
                                     and r["remedy"] != "no-remedy" and r["status"] != "lost"))
            assert q.answer == key
            assert not set(q.keys) & quiz.OUTCOMES
            assert not (set(q.keys) - set(q.answer)) & {r["remedy"] for r in rulings}     # no wrong choice the ruling gives
            assert quiz.grade(q, "no penalty").right == (key == ["no-penalty"])
            if len(key) > 1:
                assert not quiz.grade(q, _letters(q, key[1:])).right       # every one that applies, not some
            assert all(o.endswith(".") and o[0].isupper() for o in q.options)
            assert not re.search(r"\blaws? \d|\(piquet|\(poker|\(loo", " ".join(q.options))
        elif q.kind == "who":
            r = rulings[q.ruling_index]
            assert r["remedy"] not in quiz.OUTCOMES and r["status"] in ("available", "later", "exacted")
            assert sorted(q.answer) == sorted(r["may_exact"])
            assert q.keys == table_seats                    # the people at the table, no one else
            assert quiz.grade(q, " and ".join(r["may_exact"])).right
            for everyone in ("all", "everyone", "any player", "Every player"):
                assert quiz.grade(q, everyone).right == (sorted(r["may_exact"]) == sorted(table_seats))
            assert quiz.grade(q, "nobody").understood and not quiz.grade(q, "nobody").right
        elif q.kind == "law":
            r = rulings[q.ruling_index]
            assert q.answer == quiz.turning_laws(r) and set(q.answer) <= set(r["laws"])
            assert r["because"] != ["nothing-incurred"]      # "nothing here is an irregularity": no law to ask
            for k in q.answer:      # the question does not name the law that answers it
                assert not re.search(rf"(?i)\b(?:laws?|rules?|paragraphs?) (?:[\w.]+(?:, | and ))*{re.escape(k)}\b"
                                     rf"|\({re.escape(k)}\)", q.prompt), (q.qid, q.prompt)
            cited = _cited(result)
            ids = quiz._ids(q.code)
            for k in q.keys:        # a wrong law: cited nowhere, nor part of a law cited (another clause of it may be)
                if k not in q.answer:
                    part_of = k.lower() not in ids and k.split(".")[0] in cited
                    assert k not in cited and not part_of, (q.qid, k)
                    assert not any(quiz._law_matches(k, a, ids) for a in q.answer), (q.qid, k)
            assert quiz.grade(q, ", ".join(q.answer)).right
            assert all(o.startswith(("Law ", "The law ")) and ": " in o for o in q.options)
        elif q.kind == "status":
            r = rulings[q.ruling_index]
            key = "lost" if r["remedy"] == "no-remedy" else STATUS[r["status"]]
            assert q.answer == [key] and r["remedy"] not in quiz.OUTCOMES
            assert quiz.grade(q, key).right
            assert not quiz.grade(q, next(k for k in quiz.STATUS_CHOICES if k != key)).right
        elif q.kind == "compare":
            other = quiz.ruling_of(path, q.extra["codes"][1])
            if {x["remedy"] for x in rulings} != {x["remedy"] for x in other["rulings"]}:
                assert q.answer == ["no"]
            assert quiz.grade(q, q.answer[0]).right and not quiz.grade(q, "no" if q.answer == ["yes"] else "yes").right
        else:  # pragma: no cover
            pytest.fail(f"unknown kind {q.kind}")
    # never a question on a consequence nobody exacts
    asked_who = {q.ruling_index for q in qs if q.kind in ("who", "status") and rulings[q.ruling_index]["remedy"]
                 != "no-remedy"}
    for i in asked_who:
        assert rulings[i]["status"] not in ("applies", "done", "none")


def test_the_quiz_rules_exactly_as_adjudicate_does():
    """The bank's cached ruling is `adjudicate --json` on the same incident (a sample, every folder)."""
    runner = CliRunner()
    for path in CASES[::40]:
        out = runner.invoke(main, ["adjudicate", "--json", "--no-story", path])
        if out.exit_code != 0:
            assert quiz.ruling_of(path) is None
            continue
        cached = {k: v for k, v in quiz.ruling_of(path).items() if not k.startswith("_")}
        assert json.loads(out.stdout)["rulings"] == cached["rulings"], path


def test_whether_two_codes_rule_alike_is_decided_as_adjudicator_compare_decides_it():
    assert len(COMPARED) > 20
    for path in COMPARED:
        q = next((q for q in quiz.questions_for(path) if q.kind == "compare"), None)
        try:
            full = compare.compare(path, [incident.load(path).code, *(["english-1864"] if "american" in path
                                                                      else ["american-1893"])])
        except AdjudicatorError:        # (no code rules on it: compare refuses it as adjudicate does)
            full = {"errors": True}
        if full["errors"]:
            assert q is None
            continue
        assert q.answer == (["yes"] if full["differences"] == 0 else ["no"]), path


def test_the_key_comes_from_the_engine_not_from_the_case_files_expectation(tmp_path):
    """A case whose `expected` block is wrong still gets the engine's key."""
    src = os.path.join(ROOT, "cases/whist/american-1893/23-playing-another-card-after-adversaries-stated.yaml")
    text = open(src, encoding="utf-8").read().replace("remedy: call-card", "remedy: take-first-trick")
    bank = tmp_path / "cases" / "whist" / "american-1893"
    bank.mkdir(parents=True)
    (bank / "x.yaml").write_text(text, encoding="utf-8")
    qs = quiz.questions_for(str(bank / "x.yaml"), str(tmp_path / "cases"))
    assert [q.answer for q in qs if q.kind == "remedy"] == [["call-card"]]


def test_the_course_of_the_game_is_never_asked_as_a_remedy_or_exacted():
    """Issue 44: "Who may exact 'score' [law 2]?", "'partners' [law 16]?", and who may exact a loo
    the looed player pays. Those cases give a question on the law that decides them, no other."""
    score = os.path.join(ROOT, "cases/whist/american-1893/01-a-side-short-of-seven-scores-its-points-without-the-game.yaml")
    qs = quiz.questions_for(score)
    assert qs and {q.kind for q in qs} <= {"law", "compare"}
    loo = os.path.join(ROOT, "cases/loo/loo/declaring.1-looking-at-a-hand-before-its-holder-throws-it-up-is-the-full-loo.yaml")
    qs = quiz.questions_for(loo)
    assert not [q for q in qs if q.kind in ("who", "status")]
    remedy = next(q for q in qs if q.kind == "remedy")       # the loo is what the law gives: asked so
    assert "looed-full" in remedy.answer and "The player is looed the full loo" in " ".join(remedy.options)


def test_the_law_question_says_what_it_decides_and_lists_laws_with_their_gist():
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "law")
    assert q.prompt.startswith("Which law decides this: \u201cA suit may be called from West")
    assert q.answer == ["24"] and "Choose every law it rests on" in q.prompt
    right = q.options[q.keys.index("24")]
    assert right.startswith("Law 24: After a lead out of turn, a suit may be called")
    # the ruling's sentence quoted without the numbers of laws in it
    assert quiz.unnumbered("if he leads without giving the adversaries reasonable time to decide (87), before") == \
        "if he leads without giving the adversaries reasonable time to decide, before"
    assert quiz.unnumbered("rule 18 gives the deal; law 35's penalty (rules 12, 13)") == \
        "the rule gives the deal; the law's penalty"


def test_the_story_tells_the_situation_in_words():
    one = os.path.join(ROOT, "cases/whist/american-1893/02-a-seventh-comer-has-no-place-at-a-complete-table.yaml")
    story = quiz.questions_for(one)[0].story
    assert "Gray comes into the room." in story and "Gray come " not in story
    twice = os.path.join(ROOT, "cases/piquet/portland-club/8-having-once-separated-the-pack-the-player-must-abide-by-his-cut.yaml")
    assert "Ames cuts the pack. Ames cuts the pack again." in quiz.questions_for(twice)[0].story
    demand = os.path.join(ROOT, "cases/piquet/portland-club/59-3-a-lead-out-of-turn-taken-up-at-the-twelfth-trick-and-"
                                "the-right-lead-are-one-trick.yaml")
    assert "Brown demands the card led out of turn taken up." in quiz.questions_for(demand)[0].story


def test_answers_are_read_forgivingly():
    assert quiz.parse_seats("N and S") == {"N", "S"}
    assert quiz.parse_seats("north, south") == {"N", "S"}
    assert quiz.parse_seats("N-S") == {"N", "S"}
    assert quiz.parse_seats("Ames & Clark", {"ames": "N", "clark": "S"}) == {"N", "S"}
    assert quiz.parse_seats("nobody") == set() == quiz.parse_seats("No one")
    for everyone in ("all", "everyone", "Everybody", "any player", "anyone", "all four", "every player"):
        assert quiz.parse_seats(everyone) == {"N", "E", "S", "W"}, everyone
    assert quiz.parse_seats("both", game="piquet") == {"elder", "younger"}
    assert quiz.parse_seats("the moon") is None
    assert quiz.parse_remedies("Call-Card and take first trick") == {"call-card", "take-first-trick"}
    assert quiz.parse_remedies("no penalty") == {"no-penalty"}
    q = next(q for q in quiz.questions_for(
        os.path.join(ROOT, "cases/whist/american-1893/23-playing-another-card-after-adversaries-stated.yaml"))
        if q.kind == "law")
    assert q.answer == ["20.I", "21"]
    for said in ("20.I, 21", "law 20 and law 21", "Laws 20.i & 21", "21 20"):
        assert quiz.grade(q, said).right, said
    assert not quiz.grade(q, "20").right and quiz.grade(q, "20").understood     # 21 is cited too
    assert not quiz.grade(q, "20, 21, 22").right
    assert not quiz.grade(q, "what?").understood
    # letters: 'a c', 'a, c', 'a and c', 'ac'; a question of one choice takes one letter
    r = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "remedy")
    both = q.letters_of(q.answer)
    for said in (" ".join(both), ", ".join(both), " and ".join(both), "".join(both), "".join(both).upper()):
        assert quiz.grade(q, said).right, said
    status = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "status")
    assert not quiz.grade(status, "a b").understood
    assert quiz.grade(r, "zz").understood is False


def test_who_may_exact_it_everyone_is_read_and_is_the_answer_when_any_player_may():
    path = os.path.join(ROOT, "cases/whist/american-1893/16-a-deal-with-the-adversaries-pack-may-be-stopped-before-"
                              "the-trump-card-is-turned.yaml")
    q = next(q for q in quiz.questions_for(path) if q.kind == "who")
    assert sorted(q.answer) == ["E", "N", "S", "W"]
    for said in ("any player", "all", "everyone", "a b c d", "N, E, S and W"):
        assert quiz.grade(q, said).right, said
    assert not quiz.grade(q, "N and S").right


# --- feedback that teaches --------------------------------------------------------------------------

def test_a_wrong_person_is_told_why_he_cannot_with_the_law_then_its_words_and_the_ruling_one_step_away():
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "who")
    assert q.answer == ["S"]
    g = quiz.grade(q, "North")
    assert g.understood and not g.right
    text = quiz.feedback_text(q, g)
    assert text.startswith("Wrong. The answer: c) South.")
    flat = " ".join(text.split())
    assert "North cannot: only the adversary on the right of West, South, may call a suit from West (24)." in flat
    assert "The ruling on it: A suit may be called from West the first time it is his turn to lead" in flat
    assert flat.index("(24).") < flat.index("Law 24: \u201cIf any player leads out of turn")
    token = quiz.case_token(q.case)
    assert f"The whole ruling: adjudicator quiz ruling {token}" in text
    # the one remedy asked about, not the whole ruling (its other remedy, its findings)
    assert "are not liable to be called and must be taken back; trick 3" not in text and "Findings" not in text
    g = quiz.grade(q, "East and West")
    flat = " ".join(quiz.feedback_text(q, g).split())
    assert "East and West cannot: on the side in fault: the offender must await the decision of the adversaries (39)." in flat


def test_a_wrong_law_is_told_by_its_gist_and_a_wrong_remedy_as_not_given():
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "law")
    wrong = next(k for k in q.keys if k not in q.answer)
    fb = quiz.feedback(q, quiz.grade_keys(q, [wrong]))
    assert fb["why"][0].startswith(f"Not law {wrong}: it holds that ") and fb["why"][1].startswith("Law 24 decides it: ")
    r = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "remedy")
    wrong = next(k for k in r.keys if k not in r.answer and k != "no-penalty")
    fb = quiz.feedback(r, quiz.grade_keys(r, [wrong]))
    assert fb["why"] == [f"Not \u201c{quiz.remedy_sentence(wrong)[:-1]}\u201d: the law gives nothing of the kind on "
                         "these facts."]
    assert [x["text"] for x in fb["about"]] == [x["text"] for x in quiz.ruling_of(CALL_SUIT)["rulings"]]


def test_the_whole_ruling_is_one_command_away():
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "who")
    r = CliRunner().invoke(main, ["quiz", "ruling", quiz.case_token(q.case)])
    assert r.exit_code == 0, r.output
    assert "What happened: South is the dealer." in r.stdout and "May not: North" in r.stdout
    r = CliRunner().invoke(main, ["quiz", "ruling", "../../etc/passwd"])
    assert r.exit_code == 2 and "no question of the bank has the token" in r.stderr


# --- drawing: reproducible, new questions only, choices shuffled on review -------------------------

def test_a_seed_reproduces_a_quiz_with_its_choices_order_and_another_seed_varies_it():
    a = quiz.draw(5, seed=11)
    again = quiz.draw(5, seed=11)
    assert [q.qid for q in a] == [q.qid for q in again] and [q.options for q in a] == [q.options for q in again]
    assert len(a) == 5 and [q.qid for q in a] != [q.qid for q in quiz.draw(5, seed=12)]


def test_choices_are_shuffled_afresh_on_each_review_and_graded_in_the_order_shown():
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "law")
    orders = {tuple(quiz.review_questions([q.qid], 1, random.Random(k))[0].keys) for k in range(12)}
    assert len(orders) > 3
    for k in range(6):
        shown = quiz.review_questions([q.qid], 1, random.Random(k))[0]
        assert quiz.grade(shown, _right(shown)).right and set(shown.answer) == set(q.answer)


def test_filters_narrow_the_questions():
    for q in quiz.draw(4, seed=3, code="dummy-1864"):
        assert q.code == "dummy-1864"
    qs = quiz.draw(3, seed=3, topic="revoke", kind="who")
    assert qs and all("revoke" in q.topics and q.kind == "who" for q in qs)
    qs = quiz.draw(3, seed=3, code="american-1893", law="24")
    assert qs and all(any(l.split(".")[0] == "24" for l in q.laws) for q in qs)


def test_questions_answered_are_not_drawn_as_new_ones():
    first = quiz.draw(3, seed=5)
    again = quiz.draw(3, seed=5, exclude={q.qid for q in first})
    assert not {q.qid for q in first} & {q.qid for q in again} and len(again) == 3


@pytest.mark.parametrize("args,words", [
    (["--code", "nonsense"], "nonsense"),
    (["--topic", "xyzzy-plugh"], "xyzzy-plugh"),
    (["--law", "24"], "--law 24"),
    (["--code", "american-1893", "--law", "999"], "--law 999"),
    (["--kind", "riddle"], "--kind riddle"),
    (["--kind", "who-not"], "--kind who-not"),         # (merged into `who`: the reasons follow its answer)
    # a filter given empty drew questions as if it had been left out (every kind, every code)
    (["--kind", ""], "--kind is empty: it names nothing"),
    (["--code", ""], "--code is empty: it names nothing"),
    (["--topic", " "], "--topic is ' ', which names nothing"),
    (["--code", "american-1893", "--law", ""], "--law is empty: it names nothing"),
])
def test_a_bad_filter_is_exit_2_with_a_clear_message(args, words):
    out = CliRunner().invoke(main, ["quiz", "--seed", "1", *args], input="")
    assert out.exit_code == 2, out.output
    assert words in out.stderr and "Traceback" not in out.output
    assert "<input>" not in out.stderr        # a filter is no file: the message names the option


def test_a_games_name_stands_for_its_default_code(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path))
    out = CliRunner().invoke(main, ["quiz", "--seed", "1", "-n", "1", "--code", "dummy"], input="q\n")
    assert out.exit_code == 0, out.output
    assert "Dummy, English club code (1864)" in out.stdout


# --- the drill through standard input ------------------------------------------------------------

def _first(seed=5, **kw):
    return quiz.draw(1, seed=seed, **kw)[0]


def test_a_quiz_answered_from_standard_input_right_then_wrong_is_recorded_and_graded(data_dir):
    qs = quiz.draw(2, seed=5)
    out = CliRunner().invoke(main, ["quiz", "-n", "2", "--seed", "5"], input=f"{_right(qs[0])}\n{_wrong(qs[1])}\n")
    assert out.exit_code == 0, out.output
    assert out.stdout.count("Question ") == 2 and qs[0].case not in out.stdout     # no file named
    assert "Right: " in out.stdout and "Wrong. The answer: " + qs[1].answer_text in out.stdout
    # not at a terminal: the grade from the answer alone, and said so
    assert "Graded Good (right); next review " in out.stdout and "Graded Again (wrong); next review" in out.stdout
    assert "The whole ruling: adjudicator quiz ruling " in out.stdout and "1 of 2 right." in out.stdout
    stats = json.loads(CliRunner().invoke(main, ["quiz", "stats", "--json"]).stdout)
    assert stats["answers"] == 2 and stats["right"] == 1 and stats["to_review"] >= 1
    assert stats["new_today"] == 2 and stats["reviews_today"] == 0
    assert qs[0].code in stats["by_code"]
    # the one missed comes back in review (its choices shuffled afresh)
    out = CliRunner().invoke(main, ["quiz", "--review", "--json"])
    ids = [q["qid"] for q in json.loads(out.stdout)["questions"]]
    assert ids[0] == qs[1].qid
    out = CliRunner().invoke(main, ["quiz", "--reset"])
    assert out.exit_code == 0 and "cleared" in out.stdout
    out = CliRunner().invoke(main, ["quiz", "--review"])
    assert "Nothing to review" in out.stdout


def test_an_unreadable_answer_is_asked_again_and_q_stops(data_dir):
    q = _first()
    out = CliRunner().invoke(main, ["quiz", "-n", "3", "--seed", "5"], input=f"the moon\n{_right(q)}\nq\n")
    assert out.exit_code == 0
    assert "I could not read 'the moon'" in out.stdout
    assert "Stopped. 1 of 1 right." in out.stdout


def test_the_day_s_new_questions_are_limited_and_reviews_too(data_dir):
    qs = quiz.draw(3, seed=5)
    out = CliRunner().invoke(main, ["quiz", "-n", "5", "--seed", "5", "--new-per-day", "2"],
                             input=f"{_wrong(qs[0])}\n{_right(qs[1])}\n")
    assert out.exit_code == 0, out.output
    assert "Law quiz: 2 questions" in out.stdout
    out = CliRunner().invoke(main, ["quiz", "-n", "5", "--seed", "6", "--new-per-day", "2"], input="")
    assert out.exit_code == 0 and "That is today's 2 new questions done (the daily limit, --new-per-day)." in out.stdout
    assert "1 question is due: `adjudicator quiz --review` asks it." in out.stdout
    assert "Question 1" not in out.stdout
    out = CliRunner().invoke(main, ["quiz", "--review", "--reviews-per-day", "1"], input=_in_words(qs[0]) + "\n")
    assert out.exit_code == 0 and "Question 1 of 1" in out.stdout and "Right" in out.stdout, out.output
    out = CliRunner().invoke(main, ["quiz", "--review", "--reviews-per-day", "1"], input="")
    assert "That is today's 1 reviews done" in out.stdout
    # a sheet or the JSON records nothing, and is not limited
    out = CliRunner().invoke(main, ["quiz", "--json", "-n", "3", "--seed", "7", "--new-per-day", "2"])
    assert len(json.loads(out.stdout)["questions"]) == 3


# --- FSRS: four grades, inferred and asked; what is due today and after ------------------------------

def test_a_grade_is_inferred_from_the_answer_and_the_time_it_took_and_said_so():
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "who")
    budget = 8 + quiz._words(q) / 4
    assert quiz.infer_grade(q, False, 3) == (1, "wrong")
    assert quiz.infer_grade(q, True, None) == (3, "right")
    assert quiz.infer_grade(q, True, budget / 3)[0] == 4 and "quick" in quiz.infer_grade(q, True, budget / 3)[1]
    assert quiz.infer_grade(q, True, budget)[0] == 3
    assert quiz.infer_grade(q, True, budget * 2)[0] == 2 and "slow" in quiz.infer_grade(q, True, budget * 2)[1]
    assert [quiz.read_grade(x, 3) for x in ("", "1", "hard", "G", "easy", "zz")] == [3, 1, 2, 3, 4, None]


def test_the_four_grades_schedule_as_fsrs_does_and_a_grade_can_be_changed(data_dir):
    q = _first()
    when = dt.datetime(2026, 12, 7, 12, 0, tzinfo=dt.timezone.utc)
    dues = {}
    for rating in (1, 2, 3, 4):
        store = progress.Store(str(data_dir / f"g{rating}.sqlite3"))
        dues[rating] = store.record(q, rating != 1, "a", when=when, rating=rating, seconds=10.0)
        store.close()
    assert dues[1] < dues[2] <= dues[3] < dues[4]
    store = progress.Store(str(data_dir / "g3.sqlite3"))
    due, given = store.regrade(store.db.execute("SELECT max(id) FROM answers").fetchone()[0], 4)
    assert given == 4 and due == dues[4]
    assert store.db.execute("SELECT rating FROM answers").fetchone()[0] == 4
    store.record(q, True, "a", when=when + dt.timedelta(days=3))
    assert store.regrade(1, 2) is None               # only the question's last answer
    store.close()
    store = progress.Store(str(data_dir / "g1.sqlite3"))
    assert store.regrade(1, 4) == (dues[1], 1)        # a wrong answer stays Again
    store.close()


def test_a_progress_file_of_the_first_layout_is_brought_up_to_date_not_lost(data_dir):
    data_dir.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(data_dir / progress.FILE)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE answers (id INTEGER PRIMARY KEY, qid TEXT NOT NULL, at TEXT NOT NULL, right INTEGER NOT NULL,
            said TEXT NOT NULL, code TEXT NOT NULL, kind TEXT NOT NULL, topics TEXT NOT NULL);
        CREATE TABLE cards (qid TEXT PRIMARY KEY, card TEXT NOT NULL, due TEXT NOT NULL, missed INTEGER NOT NULL,
            code TEXT NOT NULL, kind TEXT NOT NULL, topics TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        INSERT INTO answers VALUES (1, 'x#law', '2026-12-01T10:00:00+00:00', 1, 'a', 'american-1893', 'law', '[]');
        INSERT INTO answers VALUES (2, 'y#law', '2026-12-01T10:01:00+00:00', 0, 'b', 'american-1893', 'law', '[]');
    """)
    db.commit()
    db.close()
    store = progress.Store()
    assert not store.notices and store.stats()["answers"] == 2
    assert [r for (r,) in store.db.execute("SELECT rating FROM answers ORDER BY id")] == [3, 1]
    assert store.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == str(progress.SCHEMA_VERSION)
    assert not [p for p in os.listdir(data_dir) if ".damaged-" in p]


def test_the_forecast_counts_what_is_due_now_later_today_and_on_each_coming_day(data_dir):
    store = progress.Store()
    now = dt.datetime.now(dt.timezone.utc)
    start = progress.day_start(now)
    tomorrow = progress.day_start(start + dt.timedelta(hours=36))
    qs = quiz.draw(4, seed=9)
    for q, due in zip(qs, [now - dt.timedelta(minutes=5), now + dt.timedelta(seconds=30),
                           tomorrow + dt.timedelta(hours=1), tomorrow + dt.timedelta(days=2, hours=1)]):
        store.record(q, True, "a", when=now)
        store.db.execute("UPDATE cards SET due=?, missed=0 WHERE qid=?", (due.isoformat(), q.qid))
    store.db.commit()
    later_today = 1 if now + dt.timedelta(seconds=30) < tomorrow else 0
    f = store.forecast(now)
    assert f["due_now"] == 1 and f["due_later_today"] == later_today
    assert [d["due"] for d in f["days"]][:3] == [1 + (1 - later_today), 0, 1]
    assert len(f["days"]) == progress.FORECAST_DAYS
    st = store.stats()
    store.close()
    text = quiz.stats_text(st, "p")
    assert "Due today: 1 now" in text and "Coming days: tomorrow " in text
    assert "Today: 4 new questions of 20, 0 reviews of 200 (the daily limits)." in text
    out = CliRunner().invoke(main, ["quiz", "stats"])
    assert "Due today: 1 now" in out.stdout and "Coming days:" in out.stdout


# --- the progress file: damaged, held, of another shape -------------------------------------------

def test_a_damaged_progress_file_is_kept_aside_and_the_user_told(data_dir):
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / progress.FILE).write_bytes(b"this is not a database" * 50)
    out = CliRunner().invoke(main, ["quiz", "stats"])
    assert out.exit_code == 0
    assert "damaged" in out.stderr and "kept as" in out.stderr
    kept = [p for p in os.listdir(data_dir) if ".damaged-" in p]
    assert len(kept) == 1 and (data_dir / kept[0]).read_bytes().startswith(b"this is not a database")
    assert "0 of 0 answers right" in out.stdout


def test_a_database_of_another_shape_is_refused_and_left_as_it_is(data_dir):
    """A sound SQLite file with a table the quiz did not make (another program's database, which a
    link may name) is not the quiz's: refused, exit 2, never moved aside nor written (issue 45)."""
    from adjudicator.errors import UsageError
    data_dir.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(data_dir / progress.FILE)
    db.execute("CREATE TABLE cards (x)")
    db.commit()
    db.close()
    before = (data_dir / progress.FILE).read_bytes()
    with pytest.raises(UsageError, match="is not the quiz's progress database"):
        progress.Store()
    assert (data_dir / progress.FILE).read_bytes() == before and len(list(data_dir.iterdir())) == 1


# A progress file another process holds (another quiz writing, the web page's quiz, a backup) was
# taken for a damaged one: "damaged (database is locked)", moved aside and a fresh one started, while
# the other process went on writing to the file moved aside; and an answer recorded while it held the
# file was an internal error (OperationalError, exit 1). Now: said as the file's, exit 2, the file left.
@pytest.fixture
def held_progress(data_dir, monkeypatch):
    monkeypatch.setattr(progress, "BUSY_SECONDS", 0.1)
    progress.Store().close()
    other = sqlite3.connect(data_dir / progress.FILE, timeout=0)
    other.execute("BEGIN EXCLUSIVE")
    yield data_dir
    other.rollback()
    other.close()


@pytest.mark.parametrize("args", [["quiz", "stats"], ["quiz", "--reset"], ["quiz", "-n", "1", "--seed", "5"],
                                  ["quiz", "stats", "--json"]])
def test_a_progress_file_held_by_another_process_is_said_so_and_left_as_it_is(held_progress, args):
    out = CliRunner().invoke(main, args, input="q\n")
    assert out.exit_code == 2, out.output
    said = out.stdout if "--json" in args else out.stderr
    assert "is in use by another program" in said and progress.FILE in said and "damaged" not in said
    assert "Traceback" not in out.output and "internal error" not in out.output
    assert os.listdir(held_progress) == [progress.FILE]


def test_an_answer_given_while_another_process_holds_the_file_is_said_so_not_an_internal_error(
        data_dir, monkeypatch):
    q = _first()
    monkeypatch.setattr(progress, "BUSY_SECONDS", 0.1)
    store = progress.Store()
    other = sqlite3.connect(data_dir / progress.FILE, timeout=0)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(AdjudicatorError) as e:
            store.record(q, True, "a")
        assert e.value.exit_code == 2 and "is in use by another program" in str(e.value)
    finally:
        other.rollback()
        other.close()
        store.close()
    assert os.listdir(data_dir) == [progress.FILE]


# ADJUDICATOR_CASES naming a folder with no case file in it (an empty one; `/nonexistent`, which
# exists on Debian) was "no question fits these filters ... widen them", with no filter given.
def test_a_question_bank_folder_with_no_case_file_is_said_so_not_blamed_on_filters(tmp_path, monkeypatch, data_dir):
    empty = tmp_path / "bank"
    empty.mkdir()
    (empty / "notes.txt").write_text("no case here\n")
    monkeypatch.setenv("ADJUDICATOR_CASES", str(empty))
    out = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "1"], input="q\n")
    assert out.exit_code == 2, out.output
    assert "no case files found to draw questions from in '" in out.stderr and "filters" not in out.stderr
    assert "ADJUDICATOR_CASES" in out.stderr


# --- hostile input on the drill: bounded, quoted short, ended ------------------------------------

def test_an_answer_of_exactly_the_bound_is_read_and_one_byte_over_is_refused(data_dir):
    q = _first(seed=2)
    letter = _right(q)
    exact = " " * (quiz.MAX_ANSWER - len(letter)) + letter          # MAX_ANSWER bytes, then the end of line
    out = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "2"], input=exact + "\n")
    assert out.exit_code == 0 and "Right: " in out.stdout, out.output
    over = " " + exact                                               # one byte over
    CliRunner().invoke(main, ["quiz", "--reset"])                    # (the question is new again)
    out = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "2"], input=over + "\n" + letter + "\n")
    assert out.exit_code == 0, out.output
    assert f"(it is longer than {quiz.MAX_ANSWER} bytes)" in out.stdout and "Right: " in out.stdout


def test_a_line_read_is_bounded_with_its_end_of_line_aside():
    import io
    for end, rest in ((b"\n", b"b\n"), (b"\r\n", b"b\n"), (b"", b"")):      # b"": the input ends there
        stream = io.BytesIO(b"x" * quiz.MAX_ANSWER + end + rest)
        assert quiz.read_answer(stream) == "x" * quiz.MAX_ANSWER and stream.read() == rest
        stream = io.BytesIO(b"x" * (quiz.MAX_ANSWER + 1) + end + rest)
        with pytest.raises(quiz.LongAnswer) as e:
            quiz.read_answer(stream)
        assert not e.value.endless
        assert stream.read() == rest                 # the long line dropped, the next one kept
    stream = io.BytesIO(b"x" * 100_000 + b"\nb\n")
    with pytest.raises(quiz.LongAnswer):
        quiz.read_answer(stream)
    assert quiz.read_answer(stream) == "b"


class _Endless:
    """Standard input as `cat /dev/zero` gives it: a line that never ends; counts what was read."""

    def __init__(self):
        self.read = 0

    def readline(self, n):
        self.read += n
        return b"\0" * n


def test_a_line_without_end_is_not_read_past_a_bound():
    stream = _Endless()
    with pytest.raises(quiz.LongAnswer) as e:
        quiz.read_answer(stream)
    assert e.value.endless and stream.read <= quiz.MAX_LINE + (1 << 16) + quiz.MAX_ANSWER + 2


def test_endless_zeros_on_standard_input_stop_the_quiz_at_once_with_exit_2(data_dir):
    import subprocess
    env = dict(os.environ, ADJUDICATOR_DATA_DIR=str(data_dir))
    # The quiz's peak memory, read by a parent of its own with no other child: this test process's
    # own RUSAGE_CHILDREN is the largest of every child it has waited for (a browser, a server
    # another test started), and failed the bound now and then for one of those.
    code = ("import resource, subprocess, sys\n"
            "with open('/dev/zero', 'rb') as zero:\n"
            "    r = subprocess.run([sys.executable, '-m', 'adjudicator', 'quiz', '-n', '1', '--seed', '1'],\n"
            "                       stdin=zero, capture_output=True, timeout=120)\n"
            "sys.stderr.write(r.stderr.decode('utf-8', 'replace'))\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=150)
    rc, kb = (int(x) for x in r.stdout.split())
    assert rc == 2
    err = r.stderr
    assert "ran past" in err and "without an end" in err and "Traceback" not in err
    assert len(err.splitlines()[0]) < 400 and "\x00" not in err
    assert kb < 600_000      # KB: not gigabytes


def test_endless_unreadable_answers_stop_the_quiz_after_a_few_tries_with_exit_2(data_dir):
    out = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "2"], input="zz\n" * 10_000)
    assert out.exit_code == 2, out.output
    assert out.stdout.count("I could not read 'zz'") == quiz.MAX_TRIES
    assert f"{quiz.MAX_TRIES} answers in a row to question 1 could not be read" in out.stderr
    assert out.stderr.count("\n") == 2 and "Traceback" not in out.output    # the message and its hint


def test_one_try_fewer_than_the_limit_still_lets_the_answer_in(data_dir):
    q = _first(seed=2)
    out = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "2"],
                             input="zz\n" * (quiz.MAX_TRIES - 1) + _right(q) + "\n")
    assert out.exit_code == 0, out.output
    assert out.stdout.count("I could not read") == quiz.MAX_TRIES - 1 and "Right: " in out.stdout


@pytest.mark.parametrize("answer,quoted", [
    (b"zz\x1b[2J\\\"'", "I could not read 'zz\\x1b[2J\\\"'' as an answer"),
    (b"w" * 200_000, "I could not read '" + "w" * 40 + "...' as an answer"),    # quiz.QUOTE
    (b"\xe9\xe9", "I could not read '\\xe9\\xe9' as an answer"),          # Latin-1, not UTF-8
])
def test_an_unreadable_answer_is_quoted_short_and_escaped(data_dir, answer, quoted):
    out = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "2"], input=answer + b"\nq\n")
    assert out.exit_code == 0, out.output
    said = next(ln for ln in out.stdout.splitlines() if "could not read" in ln)
    assert quoted in said, said
    assert "\x1b" not in out.stdout and "\\udc" not in out.stdout and len(said) < 300


def test_a_filter_given_at_length_or_with_a_newline_is_quoted_short_on_one_line():
    for args in (["--topic", "x" * 100_000], ["--code", "whist", "--law", "999\x1b[2J\nINJECTED"],
                 ["--kind", "k" * 3000], ["--law", "9" * 3000]):
        out = CliRunner().invoke(main, ["quiz", *args])
        assert out.exit_code == 2, args
        lines = out.stderr.splitlines()
        assert len(lines) == 2 and lines[1].startswith("  hint: "), lines
        assert len(lines[0]) < 200 and "\x1b" not in out.stderr and not lines[1].startswith("INJECTED")


# --- a progress file with rows no program of ours wrote ------------------------------------------

def _valid_progress(data_dir):
    """A progress file with one answer recorded, as the quiz records it."""
    store = progress.Store()
    store.record(_first(), True, "a")
    store.close()
    return sqlite3.connect(data_dir / progress.FILE)


@pytest.mark.parametrize("damage", [
    "UPDATE answers SET topics='not json'",
    "UPDATE answers SET topics='{\"a\": 1}'",
    "UPDATE answers SET code=x'00ff'",
    "UPDATE answers SET right=7",
    "UPDATE answers SET rating=9",
    "UPDATE answers SET card_before='{bad'",
    "UPDATE cards SET card='{bad'",
    "UPDATE cards SET card='{}'",
    "UPDATE cards SET topics='[1]'",
    "INSERT INTO cards VALUES ('whist/american-1893/x.yaml#law','{bad','not-a-date',1,'c','k','[]')",
])
def test_a_progress_file_with_a_row_it_cannot_read_is_kept_aside_as_a_damaged_one(data_dir, damage):
    db = _valid_progress(data_dir)
    db.execute(damage)
    db.commit()
    db.close()
    for args in (["quiz", "stats"], ["quiz", "--review", "--json"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 0, out.output
        assert "internal error" not in out.output
    kept = [p for p in os.listdir(data_dir) if ".damaged-" in p]
    assert len(kept) == 1, kept                # moved aside once, by the first command; never lost
    damaged = sqlite3.connect(data_dir / kept[0])
    assert damaged.execute("SELECT count(*) FROM answers").fetchone()[0] == 1
    assert progress.Store().stats()["answers"] == 0


def test_a_progress_file_whose_rows_are_all_readable_is_kept_as_it_is(data_dir):
    _valid_progress(data_dir).close()
    out = CliRunner().invoke(main, ["quiz", "stats"])
    assert out.exit_code == 0 and out.stderr == "" and "1 of 1 answers right" in out.stdout
    assert not [p for p in os.listdir(data_dir) if ".damaged-" in p]


def test_the_damaged_rows_notice_says_where_the_file_is_kept(data_dir):
    db = _valid_progress(data_dir)
    db.execute("UPDATE answers SET topics='not json'")
    db.commit()
    db.close()
    out = CliRunner().invoke(main, ["quiz", "stats"])
    assert "was damaged (answers row 1: its topics are not a JSON list of names)" in out.stderr
    assert "kept as" in out.stderr and "0 of 0 answers right" in out.stdout


# --- --json wherever the command takes it, one shape ---------------------------------------------

def test_reset_and_an_empty_review_answer_in_json_of_the_quizs_one_shape(data_dir):
    drawn = json.loads(CliRunner().invoke(main, ["quiz", "--json", "-n", "1", "--seed", "3"]).stdout)
    for args in (["quiz", "--reset", "--json"], ["quiz", "--review", "--json"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 0, out.output
        data = json.loads(out.stdout)
        assert set(data) == set(drawn) and data["questions"] == [] and data["message"], data
    assert drawn["message"] is None
    assert "cleared" in json.loads(CliRunner().invoke(main, ["quiz", "--reset", "--json"]).stdout)["message"]


@pytest.mark.parametrize("words,expect", [("adjudicator quiz --code am", "american-1893"),
                                          ("adjudicator quiz --code ", "piquet"),
                                          ("adjudicator quiz --kind wh", "who")])
def test_shell_completion_completes_the_quizs_codes_and_kinds(words, expect):
    r = CliRunner().invoke(main, [], prog_name="adjudicator",
                           env={"_ADJUDICATOR_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": "3"})
    assert f"plain,{expect}" in r.output.splitlines(), r.output


# --- sheets and export ---------------------------------------------------------------------------

def test_a_sheet_is_written_in_markdown_and_html_with_the_key_at_the_end(tmp_path):
    base = tmp_path / "club"
    out = CliRunner().invoke(main, ["quiz", "--sheet", "6", "--seed", "2", "--out", str(base)])
    assert out.exit_code == 0, out.output
    md = (tmp_path / "club.md").read_text(encoding="utf-8")
    html_ = (tmp_path / "club.html").read_text(encoding="utf-8")
    assert md.count("\n## ") == 7 and md.index("## 6.") < md.index("## Answer key")
    assert "@media print" in html_ and "break-inside: avoid" in html_ and html_.index("Answer key") > html_.index("6. ")
    qs = quiz.draw(6, seed=2)
    questions, key = md.split("## Answer key", 1)
    for q in qs:
        assert q.answer_text in key and q.case not in questions
    assert out.stdout.startswith("Wrote ")


def test_a_sheet_asked_with_json_is_written_and_the_json_says_so(tmp_path):
    """(it printed the questions and wrote no sheet, saying nothing of it)"""
    base = tmp_path / "club"
    out = CliRunner().invoke(main, ["quiz", "--sheet", "3", "--seed", "2", "--out", str(base), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert (tmp_path / "club.md").exists() and (tmp_path / "club.html").exists()
    assert data["seed"] == 2 and len(data["questions"]) == 3
    assert data["message"].startswith("Wrote ") and "club.md" in data["message"] and "3 questions" in data["message"]


def _sheet(out_name, timeout=120):
    """`quiz --sheet 1` in a process of its own: a sheet that waits for ever is ended by the timeout."""
    import subprocess
    return subprocess.run([sys.executable, "-m", "adjudicator", "quiz", "--sheet", "1", "--seed", "1", "--out", out_name],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def test_a_sheet_where_a_fifo_or_a_folder_is_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "fifo.md")
    r = _sheet(str(tmp_path / "fifo"))
    assert r.returncode == 2 and "fifo.md' is not a regular file (a FIFO)" in r.stderr, r.stderr
    os.mkdir(tmp_path / "dir.html")
    r = _sheet(str(tmp_path / "dir"))
    assert r.returncode == 2 and "is not a regular file (a folder)" in r.stderr, r.stderr
    assert not (tmp_path / "dir.md").exists()        # neither file written when one cannot be


def test_a_sheet_replaces_a_regular_file(tmp_path):
    (tmp_path / "club.md").write_text("old " * 10_000)
    out = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", str(tmp_path / "club")])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "club.md").read_text().startswith("# Law quiz") and "old old" not in (tmp_path / "club.md").read_text()


def test_a_sheets_name_is_quoted_short_and_on_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", "nodir/x\x1b[2J\nINJECTED LINE"])
    assert out.exit_code == 2
    lines = out.stderr.splitlines()
    assert len(lines) == 2 and "\\x1b[2J\\nINJECTED LINE" in lines[0] and "its folder does not exist" in lines[0]
    out = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", "nodir/" + "y" * 3000])
    assert out.exit_code == 2 and len(out.stderr.splitlines()[0]) < 200
    out = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", "x\x1b[2J\ny"])
    assert out.exit_code == 0, out.output
    assert out.stdout.count("\n") == 1 and out.stdout.startswith("Wrote x\\x1b[2J\\ny.md and ")
    assert (tmp_path / "x\x1b[2J\ny.md").exists()


def test_json_exports_the_questions_with_their_answers():
    out = CliRunner().invoke(main, ["quiz", "--json", "-n", "3", "--seed", "9"])
    data = json.loads(out.stdout)
    assert data["seed"] == 9 and len(data["questions"]) == 3
    for q in data["questions"]:
        assert q["answer"] and q["answer_text"] and q["story"] and q["laws"] and len(q["keys"]) == len(q["options"])
        assert quiz.grade(quiz.Question(**q), _right(quiz.Question(**q))).right


@pytest.mark.parametrize("out", ["", " ", "club/", ".", "..", "club/."])
def test_a_sheet_named_by_nothing_or_a_folder_is_refused_not_hidden_as_dot_md(tmp_path, monkeypatch, out):
    """`--out ''` (or a folder, `club/`) wrote the sheet as the hidden files .md and .html; `--out .`
    and `--out ..` as '..md' and '...md'."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club").mkdir()
    r = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", out])
    assert r.exit_code == 2, r.output
    said = f"'{out}' names a folder or nothing, not a file" if out else "it is empty: it names no file"
    assert r.stderr.startswith(f"adjudicator quiz --out: {said}\n"), r.stderr
    assert "hint: give the sheet's name without .md and .html" in r.stderr
    assert not list(tmp_path.glob("**/.md")) and not list(tmp_path.glob("**/.html"))
    assert not [p for p in tmp_path.parent.rglob("*.md") if p.name.startswith("..")]


@pytest.mark.parametrize("out", ["club.md", "club.html", "club.MD"])
def test_a_sheet_named_with_its_ending_writes_the_same_two_files(tmp_path, out):
    """`--out club.md` wrote club.md.md and club.md.html."""
    r = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", str(tmp_path / out)])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.html", "club.md"]


def test_a_file_in_the_bank_the_reader_refuses_is_no_question_not_the_end_of_the_quiz(tmp_path):
    """A FIFO or a link to /dev/zero named .yaml in the bank (ADJUDICATOR_CASES) stopped the whole
    quiz with the reader's hint for an incident ("pipe it in and give '-'"): it is no question, as
    an incident the engine refuses gives none."""
    import shutil
    bank = tmp_path / "bank"
    bank.mkdir()
    shutil.copy(CALL_SUIT, bank / "good.yaml")
    os.mkfifo(bank / "fifo.yaml")
    (bank / "zero.yaml").symlink_to("/dev/zero")
    (bank / "broken.yaml").write_text("game: whist\nevents: [\n")
    assert quiz.case_files(str(bank)) == [str(bank / "good.yaml")]
    r = CliRunner().invoke(main, ["quiz", "-n", "1", "--seed", "1", "--json"], env={"ADJUDICATOR_CASES": str(bank)})
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["questions"][0]["case"] == "good.yaml"


def test_the_bounds_docs_quiz_md_states_are_the_quizs():
    with open(os.path.join(ROOT, "docs", "quiz.md"), encoding="utf-8") as fh:
        doc = " ".join(fh.read().split())
    assert f"an answer is at most {quiz.MAX_ANSWER} bytes" in doc
    assert f"past {quiz.MAX_LINE >> 20} MiB without an end" in doc
    assert f"{quiz.MAX_TRIES} answers in a row to one question that cannot be read" in doc
    assert f"cut at {quiz.QUOTE} characters" in doc
    assert f"--new-per-day` (default {quiz.NEW_PER_DAY})" in doc and f"--reviews-per-day` (default {quiz.REVIEWS_PER_DAY})" in doc


# --- the web page's quiz: progress per person ------------------------------------------------------

@pytest.fixture
def web(data_dir):
    import warnings

    from starlette.testclient import TestClient

    from adjudicator.web import create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app()

        def client():
            return TestClient(app, raise_server_exceptions=False)
        yield client


def _page_question(text: str) -> dict:
    """What a question page carries: its token, its one-time token, its choices' values in order."""
    return {"qid": html.unescape(re.search(r'name="qid" value="([^"]+)"', text).group(1)),
            "once": re.search(r'name="once" value="([^"]+)"', text).group(1),
            "values": [html.unescape(v) for v in re.findall(r'name="answer" value="([^"]+)"', text)],
            "many": 'type="checkbox"' in text}


def test_on_the_web_page_each_person_has_his_own_progress(web):
    from adjudicator.web import service
    ann, bob = web(), web()
    page = ann.get("/quiz", params={"seed": "5"})
    assert page.status_code == 200 and service.COOKIE in ann.cookies
    shown = _page_question(page.text)
    q = quiz.draw(1, seed=5)[0]
    assert shown["qid"] == service.quiz_token(q.qid) and q.case not in page.text
    assert shown["many"] == q.many and sorted(shown["values"]) == sorted(q.keys)
    r = ann.post("/quiz", data={"qid": shown["qid"], "once": shown["once"], "answer": q.answer})
    assert r.status_code == 200 and "Right: " in r.text and "Graded " in r.text
    assert "1 of 1 answers right" in ann.get("/quiz/stats").text
    # another device: its own progress, none of Ann's
    assert "0 of 0 answers right" in bob.get("/quiz/stats").text
    assert ann.cookies[service.COOKIE] != bob.cookies[service.COOKIE]
    # a name: the same progress from any device that gives it, and not the device's own
    r = bob.post("/quiz/person", data={"name": "Ann Lee"}, follow_redirects=False)
    assert r.status_code == 303
    other = web()
    other.post("/quiz/person", data={"name": "  ann   LEE "}, follow_redirects=False)
    page = bob.get("/quiz", params={"seed": "6"})
    assert "Studying as \u201cAnn Lee\u201d" in html.unescape(page.text)
    shown = _page_question(page.text)
    bob.post("/quiz", data={"qid": shown["qid"], "once": shown["once"], "answer": shown["values"][:1]})
    assert "1 question seen" in other.get("/quiz/stats").text and "1 question seen" in ann.get("/quiz/stats").text
    assert len(os.listdir(os.path.dirname(progress.person_path("x")))) == 2      # Ann's device, the name
    assert not os.path.exists(os.path.join(progress.data_dir(), progress.FILE))   # no progress for the whole club
    assert web().post("/quiz/person", data={"name": "x" * 41}).status_code == 400


def test_on_the_web_page_an_answer_teaches_its_grade_can_be_changed_and_the_whole_ruling_is_a_link(web):
    c = web()
    q = next(q for q in quiz.questions_for(CALL_SUIT) if q.kind == "who")
    page = c.get("/quiz", params={"seed": "5"})
    once = _page_question(page.text)["once"]
    from adjudicator.web import service
    r = c.post("/quiz", data={"qid": service.quiz_token(q.qid), "once": once, "answer": ["N"]})
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.text)).split())
    assert "Wrong. The answer: South." in text and "You chose: North." in text
    assert "North cannot: only the adversary on the right of West, South, may call a suit from West (24)." in text
    assert "Graded Again (wrong)" in text and "How well did you know it?" not in text
    link = re.search(r'href="(/quiz/ruling/[0-9a-f]{16})"', r.text).group(1)
    whole = c.get(link)
    assert whole.status_code == 200 and "May not" in whole.text and "What happened" in whole.text
    assert c.get("/quiz/ruling/0000000000000000").status_code == 400
    # a right answer: graded from the time it took, and the grade may be changed
    page = c.get("/quiz", params={"seed": "7"})
    shown = _page_question(page.text)
    drawn = quiz.draw(1, seed=7)[0]
    r = c.post("/quiz", data={"qid": shown["qid"], "once": shown["once"], "answer": drawn.answer})
    assert "Right: " in r.text and "How well did you know it?" in r.text
    r = c.post("/quiz/grade", data={"once": shown["once"], "rating": "2"})
    assert r.status_code == 200 and "Graded Hard: next review" in r.text
    assert web().post("/quiz/grade", data={"once": shown["once"], "rating": "4"}).status_code == 400   # not his


def test_on_the_web_page_the_days_new_questions_are_limited_too(web):
    from types import SimpleNamespace

    from adjudicator.web import service
    c = web()
    c.get("/quiz/stats")
    store = progress.Store(progress.person_path(service._kept_as(c.cookies[service.COOKIE])))
    for k in range(quiz.NEW_PER_DAY):
        store.record(SimpleNamespace(qid=f"x{k}#law", topics=[], code="american-1893", kind="law"), k % 2 == 0, "a")
    store.close()
    text = html.unescape(c.get("/quiz").text)
    assert f"That is today's {quiz.NEW_PER_DAY} new questions done (the daily limit). 10 questions are due: " \
           "review them. More new ones tomorrow." in text
    assert 'name="answer"' not in text and "--new-per-day" not in text


def test_on_the_web_page_every_form_that_changes_progress_carries_the_pages_token_field():
    """The pages' forms that record or change progress (an answer, a grade, a name) carry the field
    the base templates provide against cross-site forgery (`form_token()`, when defined)."""
    folder = os.path.join(ROOT, "adjudicator", "web", "templates")
    for name in ("quiz.html", "quiz_answer.html"):
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        for form in re.findall(r'<form[^>]*method="post".*?</form>', text, re.S):
            assert "form_token()" in form, (name, form[:80])


# --- a person at a terminal (pexpect) ------------------------------------------------------------

pexpect = pytest.importorskip("pexpect")


def _spawn(args, data_dir):
    env = dict(os.environ, ADJUDICATOR_DATA_DIR=str(data_dir), COLUMNS="100", PYTHONUNBUFFERED="1")
    return pexpect.spawn(sys.executable, ["-m", "adjudicator", *args], env=env, cwd=ROOT,
                         encoding="utf-8", timeout=60)


def test_a_student_at_a_terminal_answers_grades_quits_and_comes_back_to_review(data_dir):
    qs = quiz.draw(3, seed=21)
    child = _spawn(["quiz", "-n", "3", "--seed", "21"], data_dir)
    child.expect("Question 1 of 3")
    child.expect("> ")
    child.sendline(_right(qs[0]))
    child.expect("Right: ")
    child.expect(r"How well did you know it\? 1 Again, 2 Hard, 3 Good, 4 Easy \(Enter: \w+, right")
    child.expect("> ")
    child.sendline("hard")
    child.expect(r"Graded Hard \(your grade\); next review")
    child.expect("Question 2 of 3")
    child.expect("> ")
    child.sendline(_wrong(qs[1]))
    child.expect("Wrong. The answer:")
    child.expect(r"Graded Again \(wrong\)")
    child.expect("Question 3 of 3")
    child.expect("> ")
    child.sendline("q")
    child.expect("Stopped. 1 of 2 right.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    store = progress.Store()
    assert [r for (r,) in store.db.execute("SELECT rating FROM answers ORDER BY id")] == [2, 1]
    assert all(s is not None for (s,) in store.db.execute("SELECT seconds FROM answers"))
    store.close()

    # a restart: progress survived, the missed question comes back first (answered in words: its
    # choices are shuffled afresh)
    child = _spawn(["quiz", "--review", "-n", "1"], data_dir)
    child.expect("Question 1 of 1")
    child.expect(re.escape(qs[1].prompt[:40]))
    child.expect("> ")
    child.sendline(_in_words(qs[1]))
    child.expect("Right: ")
    child.expect("How well did you know it")
    child.expect("> ")
    child.sendline("")
    child.expect("Graded ")
    child.expect("1 of 1 right.")
    child.expect(pexpect.EOF)

    child = _spawn(["quiz", "stats"], data_dir)
    child.expect("2 of 3 answers right")
    child.expect("Due today: ")
    child.expect("Coming days: tomorrow ")
    child.expect(pexpect.EOF)


def test_at_a_terminal_ctrl_c_stops_the_quiz_and_keeps_the_answers(data_dir):
    q = quiz.draw(1, seed=8)[0]
    child = _spawn(["quiz", "-n", "2", "--seed", "8"], data_dir)
    child.expect("> ")
    child.sendline(_right(q))
    child.expect("How well did you know it")
    child.expect("> ")
    child.sendline("")
    child.expect("Question 2 of 2")
    child.expect("> ")
    child.sendintr()
    child.expect("Stopped. 1 of 1 right.")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    assert progress.Store().stats()["answers"] == 1


def test_at_a_terminal_a_damaged_file_is_reported_and_a_fresh_one_started(data_dir):
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / progress.FILE).write_bytes(b"\x00garbage" * 100)
    q = quiz.draw(1, seed=4)[0]
    child = _spawn(["quiz", "-n", "1", "--seed", "4"], data_dir)
    child.expect("was damaged")
    child.expect("> ")
    child.sendline(_right(q))
    child.expect("Right: ")
    child.expect("> ")
    child.sendline("q")                 # q at the grade: the answer is kept with the grade inferred
    child.expect(pexpect.EOF)
    assert any(".damaged-" in p for p in os.listdir(data_dir))
    assert progress.Store().stats()["answers"] == 1
