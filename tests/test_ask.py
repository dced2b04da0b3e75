"""`adjudicator ask`: the interview asks only what the ruling turns on, and ends with the ruling
`adjudicate` gives on the incident it saves. Driven from a file of answers and, as a person
would, through a pseudo-terminal."""
import itertools
import json
import os
import re
import sys

import pexpect
import pytest
import yaml
from click.testing import CliRunner

from adjudicator.interview import ask
from adjudicator.core import engine, incident, reading, ruling, unknowns
from adjudicator.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELD = os.path.join(ROOT, "cases", "whist", "american-1893",
                    "unknown-28-whether-the-renouncer-held-the-suit-led-decides-between-a-revoke-and-no-penalty.yaml")
CLAIM = os.path.join(ROOT, "cases", "whist", "american-1893",
                     "unknown-33-whether-the-claim-came-before-the-cut-decides-and-a-holding-his-later-play-shows-does-not.yaml")
BARE = os.path.join(ROOT, "tests", "fixtures", "unknowns", "no-unknown-key.yaml")


def _adjudicate_json(path):
    r = CliRunner().invoke(main, ["adjudicate", "--json", path])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _interview(tmp_path, path, answers):
    af = tmp_path / "answers.txt"
    af.write_text("".join(a + "\n" for a in answers), encoding="utf-8")
    out = tmp_path / "built.yaml"
    r = CliRunner().invoke(main, ["ask", path, "--answers", str(af), "--save", str(out)])
    assert r.exit_code == 0, r.output
    return r.stdout, str(out)


def test_answering_yes_saves_the_completed_incident_and_rules_as_adjudicate_does(tmp_path):
    text, saved = _interview(tmp_path, HELD, ["1"])
    assert "Did Brown (E) hold a spade" in text and "I ask because laws 28, 30, 31 turn on it" in text
    inc = incident.load(saved)
    assert not unknowns.has_unknowns(inc)
    assert inc.events[1].fields["holding"] == [("suit", "spades")]
    result = _adjudicate_json(saved)
    assert sorted(r["remedy"] for r in result["rulings"]) == ["cannot-win-game", "play-out", "transfer-two-tricks"]
    # the ruling printed is adjudicate's on the account with the answer written in (its events named
    # by what happened, never by a line of either file)
    assert " ".join(render_text(saved).split()) in " ".join(text.split())


def render_text(path):
    r = CliRunner().invoke(main, ["adjudicate", "--no-story", path])
    return r.stdout.split("\n\n", 1)[0]        # the verdict (the details' heading names the file)


def test_i_dont_know_ends_with_the_conditional_ruling_and_keeps_the_unknown(tmp_path):
    text, saved = _interview(tmp_path, HELD, ["?"])
    inc = incident.load(saved)
    assert unknowns.has_unknowns(inc)
    assert "If Brown (E) held a spade:" in " ".join(text.split())
    result = _adjudicate_json(saved)
    assert [u["relevant"] for u in result["unknowns"]] == [True]


def test_a_fact_that_cannot_change_the_ruling_is_never_asked(tmp_path):
    text, saved = _interview(tmp_path, CLAIM, ["2"])
    asked = [line for line in text.splitlines() if line.endswith("?") and not line.startswith(" ")]
    assert not any(q.startswith("Did Brown (E) hold a spade") for q in asked)   # his later play shows it
    assert [q.split(":")[0] for q in asked] == ["Which came first"]
    assert text.count("> ") == 1 and "Which came first" in text
    result = _adjudicate_json(saved)     # the cut came first: the claim is too late (33)
    assert [(r["remedy"], r["laws"]) for r in result["rulings"]] == [("no-penalty", ["33"])]
    assert unknowns.has_unknowns(incident.load(saved))   # the holding stays unknown: not asked


def test_unparseable_answers_are_asked_again(tmp_path):
    text, saved = _interview(tmp_path, HELD, ["maybe", "7", "2"])
    assert text.count("Please answer 1-2") == 2
    assert [r["remedy"] for r in _adjudicate_json(saved)["rulings"]] == ["no-penalty"]


def test_an_answer_read_from_a_file_is_shown_escaped(tmp_path):
    text, _ = _interview(tmp_path, HELD, ["zzz\x1b[2J\u202e", "2"])
    assert "> zzz\\x1b[2J\\u202e\n" in text and "\x1b" not in text and "\u202e" not in text


@pytest.mark.parametrize("path", [HELD, CLAIM, BARE], ids=os.path.basename)
def test_every_question_asked_can_change_the_ruling(tmp_path, path):
    """Whatever the answers (each possibility, or "I don't know"), a question is asked only when
    two of its answers, the other facts held the same, give different rulings on the completed
    incident (brute force over the completions, the check only)."""
    iv0 = ask.Interview(path)
    space = iv0.space
    sizes = [range(len(u.alternatives)) for u in space.unknowns]

    def ruled(combo):
        done = unknowns.complete(iv0.data, space.unknowns, dict(enumerate(combo)))
        inc = incident.parse(yaml.safe_dump(done, sort_keys=False), "x.yaml")
        try:
            res = ruling.build(inc, engine.solve(inc))["rulings"]
        except Exception as e:  # an impossible completion counts as a ruling of its own
            return type(e).__name__
        return re.sub(r"line \d+", "line ?", json.dumps(sorted(json.dumps(
            {k: v for k, v in r.items() if k not in ("text", "when")}, sort_keys=True) for r in res)))
    table = {c: ruled(c) for c in itertools.product(*sizes)}
    for script in itertools.product(*[list(range(len(u.alternatives))) + [None] for u in space.unknowns]):
        iv = ask.Interview.__new__(ask.Interview)
        iv.__dict__.update(iv0.__dict__)
        iv.answers, iv.unknown, iv.asked = {}, set(), []
        while (q := iv.next_question()) is not None:
            ui, laws = q
            assert laws, "a question is asked with no law to cite"
            fixed = iv.answers
            assert any(table[c] != table[c[:ui] + (a,) + c[ui + 1:]]
                       for c in table if all(c[k] == v for k, v in fixed.items())
                       for a in sizes[ui]), f"{space.unknowns[ui].question} cannot change the ruling"
            iv.answer(ui, script[ui])


def test_the_interview_through_a_terminal(tmp_path):
    """As a person would: questions on the screen, answers typed, "I don't know" among them."""
    out = tmp_path / "built.yaml"
    exe = os.path.join(os.path.dirname(sys.executable), "adjudicator")
    child = pexpect.spawn(exe, ["ask", CLAIM, "--save", str(out)], encoding="utf-8", timeout=30,
                          dimensions=(40, 200))
    child.expect("Which came first")
    child.expect("I ask because laws 30, 33 turn on it")
    child.expect("> ")
    child.sendline("1")
    child.expect("Saved the incident to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    result = _adjudicate_json(str(out))
    assert sorted(r["remedy"] for r in result["rulings"]) == ["cannot-win-game", "transfer-two-tricks"]

    child = pexpect.spawn(exe, ["ask", HELD, "--save", str(out)], encoding="utf-8", timeout=30,
                          dimensions=(40, 200))
    child.expect("Did Brown \\(E\\) hold a spade")
    child.expect("> ")
    child.sendline("I don't know")
    child.expect("If Brown \\(E\\) held a spade:")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert unknowns.has_unknowns(incident.load(str(out)))


def test_ask_refuses_a_bad_file_with_exit_2(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("game: whist\nevents:\n  - lead: {by: N, card: ZZ}\n", encoding="utf-8")
    (tmp_path / "none.txt").write_text("")          # no answers (a device such as /dev/null is refused)
    r = CliRunner().invoke(main, ["ask", str(f), "--answers", str(tmp_path / "none.txt")])
    assert r.exit_code == 2 and "bad.yaml:3" in r.stderr and "Traceback" not in r.stderr


def test_the_incident_cannot_come_from_standard_input_with_the_answers():
    r = CliRunner().invoke(main, ["ask", "-"], input="1\n")
    assert r.exit_code == 2 and "--answers" in r.stderr and "Traceback" not in r.stderr


def _from_game(tmp_path, words, answers):
    af = tmp_path / "answers.txt"
    af.write_text("".join(a + "\n" for a in answers), encoding="utf-8")
    out = tmp_path / "built.yaml"
    r = CliRunner().invoke(main, ["ask", "--game", *words, "--answers", str(af), "--save", str(out)])
    return r, str(out)


# `ask --game Piquet` was "no game 'Piquet' to rule on" (the choices listing piquet), though the
# incident's `game: Piquet`, `law Piquet 54` and `quiz --code Piquet` read it as piquet.
@pytest.mark.parametrize("game", ["Piquet", "PIQUET", " piquet "])
def test_the_game_is_read_in_any_case_as_the_incident_s_game_is(tmp_path, game):
    r, saved = _from_game(tmp_path, [game, "the", "younger", "hand", "looked", "at", "the", "cards", "he", "left"],
                          ["leave-cards", "2", "1", "see-left-cards", "2", "0"])
    assert r.exit_code == 0, r.output
    assert incident.load(saved).game == "piquet"
    r = CliRunner().invoke(main, ["ask", "--game", "Nosuch", "lead"])
    assert r.exit_code == 2 and "no game 'Nosuch' to rule on" in r.stderr


def test_starting_from_the_game_and_a_few_words_builds_the_incident_and_rules_on_it(tmp_path):
    # the younger hand leaves a card and looks at it: two events chosen by name, their fields by number
    r, saved = _from_game(tmp_path, ["piquet", "the", "younger", "hand", "looked", "at", "the", "cards", "he", "left"],
                          ["leave-cards", "2", "1", "see-left-cards", "2", "0"])
    assert r.exit_code == 0, r.output
    offered = r.stdout.split("What happened first?", 1)[1].split("> ", 1)[0]
    assert "see-left-cards" in offered and "leave-cards" in offered      # the words found the events
    assert "cut-for-deal" not in offered and "call:" not in offered
    data = yaml.safe_load(open(saved, encoding="utf-8"))
    assert data["game"] == "piquet"
    assert data["events"] == [{"leave-cards": {"by": "younger", "count": 1}}, {"see-left-cards": {"by": "younger"}}]
    # the ruling printed is the one `adjudicate` gives on the saved incident (law 36: looked too early)
    assert " ".join(render_text(saved).split()) in " ".join(r.stdout.split())
    assert "law 36 forbids it but names no penalty" in " ".join(r.stdout.split())


def test_from_a_game_a_field_given_wrongly_is_asked_again_with_the_reason(tmp_path):
    # whist: the dealer, then a lead with a card that is no card; the reader's message, then the event again
    r, saved = _from_game(tmp_path, ["whist", "lead", "out", "of", "turn"],
                          ["S", "lead", "E", "ZZ", "", "", "", "", "lead", "E", "4C", "", "", "", "", "0"])
    assert r.exit_code == 0, r.output
    assert "That cannot be taken" in r.stdout and "ZZ" in r.stdout
    data = yaml.safe_load(open(saved, encoding="utf-8"))
    assert data["dealer"] == "S" and data["events"][0] == {"lead": {"by": "E", "card": "4C"}}


def test_ask_from_an_unknown_game_or_with_nothing_to_go_on_is_refused_with_exit_2(tmp_path):
    r, _ = _from_game(tmp_path, ["quadrille", "revoke"], [])
    assert r.exit_code == 2 and "no game 'quadrille'" in r.stderr and "whist" in r.stderr
    r = CliRunner().invoke(main, ["ask"])
    assert r.exit_code == 2 and "--game GAME and a few words" in r.stderr
    r, _ = _from_game(tmp_path, ["piquet", "left", "cards"], ["0"])
    assert r.exit_code == 2 and "no event was given" in r.stderr


@pytest.mark.parametrize("game, words, event", [
    ("piquet", "the elder hand led out of turn", "lead"),
    ("whist", "East played a card to the trick", "play"),
    ("whist", "he dropped and exposed two cards", "expose"),
    ("poker", "a player passes", "pass"),
])
def test_the_words_people_use_find_the_event_whatever_the_tense(game, words, event):
    from adjudicator.interview import opening
    assert event in [name for name, _doc in opening.matching_events(game, words)]


def test_a_question_names_the_event_as_the_story_tells_it(tmp_path):
    """The interview adds the facts it can ask about to a copy of the incident: the question names
    the event by what happened (the story's words), never by a line of either file."""
    told = tmp_path / "told.yaml"
    told.write_text("game: whist\nplayers: {N: Ames, E: Brown, S: Clark, W: Dodd}\ndealer: S\nevents:\n"
                    "  - lead: {by: W, card: KS}\n  - play: {by: N, card: 2S}\n  - play: {by: E, card: 3S}\n"
                    "  - renounce: {by: S, card: 2H}\n", encoding="utf-8")
    text, _ = _interview(tmp_path, str(told), ["0"])
    assert "at the renounce (the 4th event: Clark renounces with the two of hearts)?" in " ".join(text.split())
    assert "line 8" not in text and "Law 28 turns on it." in text


# --- the interview reads and writes an account as `adjudicate` reads it -------------------------

def _ask(tmp_path, path, answers=()):
    """`ask PATH` with these answers (none: every question "I don't know"), saved in tmp_path."""
    af = tmp_path / "answers.txt"
    af.write_text("".join(a + "\n" for a in answers), encoding="utf-8")
    out = tmp_path / "built.yaml"
    r = CliRunner().invoke(main, ["ask", str(path), "--answers", str(af), "--save", str(out)])
    return r, out


@pytest.mark.parametrize("written, name", [
    ("Ames", "Ames"),            # the boundary: a name no YAML reads as anything else
    ("Off", "Off"), ("No", "No"), ("yes", "yes"), ("On", "On"),    # booleans to YAML 1.1, not to 1.2
    ("'~'", "~"), ("'null'", "null"),                             # quoted: text, not nothing
    ("007", "007"), ("1:30", "1:30"),                             # an octal-looking and a sexagesimal number to 1.1
])
def test_a_player_s_name_stays_as_written_through_the_interview_and_the_saved_file(tmp_path, written, name):
    told = tmp_path / "told.yaml"
    told.write_text(f"game: whist\nplayers: {{N: {written}, E: Brown, S: Clark, W: Dodd}}\ndealer: S\n"
                    "start: {trick: 3, leader: N}\nevents:\n  - lead: {by: W, card: KS}\n"
                    f"  - play: {{by: {written}, card: 2S}}\n", encoding="utf-8")
    assert incident.load(str(told)).players["N"] == name          # as adjudicate reads it
    r, saved = _ask(tmp_path, told)
    assert r.exit_code == 0, r.output
    assert f"it was {name} (N)'s lead" in " ".join(r.stdout.split())
    inc = incident.load(str(saved))
    assert inc.players["N"] == name and inc.events[1].fields["by"] == "N"
    data = yaml.safe_load(saved.read_text(encoding="utf-8"))     # quoted where any YAML would misread it
    assert data["players"]["N"] == name and data["events"][1]["play"]["by"] == name


def test_players_named_off_and_no_are_two_players_not_two_falses(tmp_path):
    told = tmp_path / "told.yaml"
    told.write_text("game: whist\nplayers: {N: Off, E: No, S: yes, W: On}\ndealer: S\n"
                    "start: {trick: 3, leader: N}\nevents:\n  - lead: {by: On, card: KS}\n"
                    "  - play: {by: Off, card: 2S}\n", encoding="utf-8")
    r, saved = _ask(tmp_path, told)
    assert r.exit_code == 0, r.output
    assert incident.load(str(saved)).players == {"N": "Off", "E": "No", "S": "yes", "W": "On"}


@pytest.mark.parametrize("name", ["control-character", "key-that-is-a-mapping", "alias", "merge-key",
                                  "tab-indent"])
def test_yaml_the_reader_refuses_is_refused_by_ask_with_adjudicate_s_message(tmp_path, name):
    """Not an internal error: the file is read by `adjudicate`'s reader alone (the control
    character in a value and the key that is a list were once read first by another YAML loader)."""
    path = os.path.join(ROOT, "tests", "bad_input", name + ".yaml")
    want = CliRunner().invoke(main, ["adjudicate", path])
    r, saved = _ask(tmp_path, path)
    assert want.exit_code == 2 and (r.exit_code, r.stderr) == (2, want.stderr)
    assert r.stdout == "" and not saved.exists()


@pytest.mark.parametrize("deal, events, asked", [
    ("{by: S}", [1, 2], "uncut"),        # `uncut` unsaid: asked, one entry for the deal
    # `out-of-turn` is piquet's (law 16), refused in a whist incident: never asked at whist (it was
    # once, and the completions it stood for were all refused)
    ("{by: S, uncut: false}", [2], None),
])
def test_the_facts_ask_adds_are_one_for_each_event_as_the_format_allows(tmp_path, deal, events, asked):
    """A deal leaves yes-or-no fields unsaid: the interview once added an entry for each, and then
    refused its own entries ("event 1 is already the subject of unknown entry 1"); and it asks only
    the fields the game gives the event."""
    told = tmp_path / "told.yaml"
    # (the deal, then the first lead: a deal in the play of a hand, with its play going on after it,
    # cannot have happened, whist/deal.lp)
    told.write_text("game: whist\ndealer: S\ntrump: hearts\nevents:\n"
                    f"  - deal: {deal}\n  - lead: {{by: W, card: AS}}\n", encoding="utf-8")
    entries = ask.candidates(incident.load(str(told)))
    assert [e["event"] for e in entries] == events
    assert asked is None or entries[0]["field"] == asked
    r, saved = _ask(tmp_path, told)
    assert r.exit_code == 0, r.output
    assert _adjudicate_json(str(saved))["unknowns"][0]["id"] == "u1"    # the saved file is one adjudicate reads


# --- a contradiction: refused at once when the account holds it, at the user's lines always ------

BAD = os.path.join(ROOT, "tests", "bad_input")


@pytest.mark.parametrize("name", sorted(f[:-5] for f in os.listdir(BAD) if f.endswith(".yaml")))
def test_ask_refuses_every_bad_input_at_once_with_the_message_adjudicate_gives(tmp_path, monkeypatch, name):
    """tests/bad_input/NAME.expected is what `adjudicate` says (tests/test_bad_input.py): `ask` says
    exactly the same, before any question (nothing on standard output, nothing saved). An account
    that contradicts itself was once interviewed on, then refused at the lines of the copy it saved."""
    with open(os.path.join(BAD, name + ".expected"), encoding="utf-8") as fh:
        first, _, err = fh.read().partition("\n")
    af = tmp_path / "answers.txt"
    af.write_text("1\n" * 20, encoding="utf-8")        # whatever would be answered: nothing is asked
    saved = tmp_path / "built.yaml"
    monkeypatch.chdir(BAD)
    r = CliRunner().invoke(main, ["ask", name + ".yaml", "--answers", str(af), "--save", str(saved)])
    assert (f"exit {r.exit_code}", r.stderr) == (first, err)
    assert r.stdout == "" and not saved.exists()


@pytest.mark.parametrize("events, refused", [
    # East's card with no trick led: impossible whatever he held
    ("  - renounce: {by: E, card: 3C}\n  - play: {by: S, card: 2S}\n", True),
    # to North's lead: possible, and whether he held a spade is asked
    ("  - lead: {by: N, card: AS}\n  - renounce: {by: E, card: 3C}\n", False),
])
def test_an_account_impossible_whatever_its_unknown_facts_is_refused_before_any_question(tmp_path, events, refused):
    told = tmp_path / "told.yaml"
    told.write_text("game: whist\ndealer: S\ntrump: hearts\nstart: {trick: 3, leader: N}\nevents:\n"
                    f"{events}unknown:\n  - {{event: 2, field: holding}}\n", encoding="utf-8")
    want = CliRunner().invoke(main, ["adjudicate", str(told)])
    r, saved = _ask(tmp_path, told, ["1"])
    if refused:
        assert want.exit_code == 2 and "cannot have happened" in want.stderr
        assert (r.exit_code, r.stderr, r.stdout) == (2, want.stderr, "") and not saved.exists()
    else:
        assert want.exit_code == 0 and r.exit_code == 0, r.output
        assert "> " in r.stdout and saved.exists()


@pytest.mark.parametrize("answer, refused", [("1", True), ("2", False)])
def test_a_contradiction_an_answer_brings_names_the_user_s_line_and_the_answer(tmp_path, answer, refused):
    """North holds the ace of spades; East led the three: a winning lead cannot be. The account says
    nothing of it (adjudicate rules on it); answering that it was winning is the contradiction."""
    told = tmp_path / "told.yaml"
    told.write_text("game: whist\ndealer: S\ntrump: hearts\nhands:\n  N: [AS, 2H]\nevents:\n"
                    "  - lead: {by: E, card: 3S}\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["adjudicate", str(told)]).exit_code == 0
    r, saved = _ask(tmp_path, told, [answer])
    assert "At the lead by East (the 1st event: East leads the three of spades), winning" in " ".join(r.stdout.split())
    if refused:
        assert r.exit_code == 2, r.output
        head, lead, said, *_ = r.stderr.splitlines()
        assert head == f"{told}: this incident cannot have happened as described:"
        assert lead == "  - East's lead at line 7 is said to be a winning card, but an adversary held a better one of its suit"
        assert said.startswith('  - with the answer "yes" to the question: At the lead by East (the 1st event: ')
        assert str(saved) not in r.stderr
    else:
        assert r.exit_code == 0 and "cannot have happened" not in r.output


@pytest.mark.parametrize("answer, claim_at", [(0, 12), (1, 13)])   # as written; the other way round
def test_the_ruling_cites_each_event_at_the_line_the_user_wrote_it_even_when_an_answer_moves_it(
        tmp_path, answer, claim_at):
    """Which came first, the claim (written at line 26) or the cut (line 27)? Whichever the answer,
    the claim is cited at line 26 and the cut at line 27, never at the saved copy's lines."""
    iv = ask.Interview(CLAIM)
    order = next(i for i, u in enumerate(iv.space.unknowns) if u.kind == "order")
    iv.answer(order, answer)
    saved = tmp_path / "built.yaml"
    saved.write_text(ask.dump(iv.completed()), encoding="utf-8")
    inc = iv.as_told(incident.load(str(saved)))
    claim = inc.events[claim_at - 1]
    cut = inc.events[(25 - claim_at) - 1]
    assert (claim.name, claim.line) == ("claim-revoke", 26) and (cut.name, cut.line) == ("cut-for-next-deal", 27)
    assert inc.file == iv.path and inc.key_lines["events"] == incident.load(CLAIM).key_lines["events"]


@pytest.mark.parametrize("given", ["file", "-"])
def test_the_incident_on_standard_input_is_read_when_the_answers_come_from_a_file(tmp_path, given):
    """`ask - --answers F` read nothing from standard input ("the file is empty")."""
    af = tmp_path / "answers.txt"
    af.write_text("1\n", encoding="utf-8")
    out = tmp_path / "built.yaml"
    with open(HELD, "rb") as fh:
        data = fh.read()
    r = CliRunner().invoke(main, ["ask", HELD if given == "file" else "-", "--answers", str(af), "--save", str(out)],
                           input=data)
    assert r.exit_code == 0, r.output
    assert "Did Brown (E) hold a spade" in r.stdout
    assert incident.load(str(out)).events[1].fields["holding"] == [("suit", "spades")]


# --- answers read with the quiz's bound (reading.py), and what ask prints of a file name -----------
def _ask_with(tmp_path, args, answers: bytes):
    af = tmp_path / "answers.txt"
    af.write_bytes(answers)
    return CliRunner().invoke(main, ["ask", *args, "--answers", str(af), "--save", str(tmp_path / "saved.yaml")])


def test_endless_unreadable_answers_stop_the_interview_after_a_few_tries_with_exit_2(tmp_path):
    # `yes | adjudicator ask --game whist lead out of turn` looped for ever on the dealer's question
    r = CliRunner().invoke(main, ["ask", "--game", "whist", "lead", "out", "of", "turn",
                                  "--save", str(tmp_path / "s.yaml")], input="y\n" * 100_000)
    assert r.exit_code == 2, r.output
    assert r.stdout.count("Please answer 1-4") == reading.MAX_TRIES
    assert (f"adjudicator ask: the interview stops: {reading.MAX_TRIES} answers in a row to one question "
            "could not be read (the last: 'y')") in r.stderr
    assert "Traceback" not in r.output and not (tmp_path / "s.yaml").exists()


def test_one_unreadable_answer_fewer_than_the_limit_still_lets_the_answer_in(tmp_path):
    r = _ask_with(tmp_path, [HELD], b"zz\n" * (reading.MAX_TRIES - 1) + b"1\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("Please answer 1-2") == reading.MAX_TRIES - 1
    assert incident.load(str(tmp_path / "saved.yaml")).events[1].fields["holding"] == [("suit", "spades")]
    r = _ask_with(tmp_path, [HELD], b"zz\n" * reading.MAX_TRIES + b"1\n")
    assert r.exit_code == 2 and "the interview stops" in r.stderr


def test_events_refused_one_after_another_stop_the_opening_with_exit_2(tmp_path):
    # `yes 1`: event 1 chosen and every field answered 1 for ever, each event refused
    r = CliRunner().invoke(main, ["ask", "--game", "whist", "lead", "out", "of", "turn",
                                  "--save", str(tmp_path / "s.yaml")], input="1\n" * 100_000)
    assert r.exit_code == 2, r.output
    assert r.stdout.count("That cannot be taken") == reading.MAX_TRIES
    assert f"the interview stops: {reading.MAX_TRIES} events in a row could not be taken" in r.stderr


def test_an_answer_of_500_bytes_is_read_and_one_of_501_is_not(tmp_path):
    r = _ask_with(tmp_path, [HELD], b" " * (reading.MAX_ANSWER - 1) + b"1\n")
    assert r.exit_code == 0 and "longer than" not in r.stdout, r.output
    assert incident.load(str(tmp_path / "saved.yaml")).events[1].fields["holding"] == [("suit", "spades")]
    r = _ask_with(tmp_path, [HELD], b" " * reading.MAX_ANSWER + b"1\n2\n")
    assert r.exit_code == 0, r.output
    assert f"That answer is longer than {reading.MAX_ANSWER} bytes." in r.stdout     # and asked again: 2
    assert "holding" not in incident.load(str(tmp_path / "saved.yaml")).events[1].fields


def test_answers_typed_that_are_not_utf8_are_asked_again_not_an_internal_error(tmp_path):
    def typed(data: bytes):
        return CliRunner().invoke(main, ["ask", HELD, "--save", str(tmp_path / "saved.yaml")], input=data)
    r = typed(b"\xe9\xe9\n1\n")
    assert r.exit_code == 0, r.output
    assert "Please answer 1-2" in r.stdout and "internal error" not in r.output
    r = typed(b"\xe9\xe9\n" * reading.MAX_TRIES)
    assert r.exit_code == 2 and "(the last: '\\xe9\\xe9')" in r.stderr


@pytest.mark.parametrize("data, line", [
    ("1\n".encode("utf-16"), 1),                # what a Windows editor saves as "Unicode": BOM, NULs
    (b"\xe9\n", 1),                              # Latin-1
    (b"1\x00\n", 1),                             # a NUL byte
])
def test_an_answers_file_that_is_not_utf8_text_is_refused_at_its_line_not_read_as_answers(tmp_path, data, line):
    """A UTF-16 answers file was read as answers nobody gave (`> \\xff\\xfe1\\x00`, then "I don't
    know", exit 0): it is refused as an incident file would be, with the file, the line and the fix."""
    r = _ask_with(tmp_path, [HELD], data)
    assert r.exit_code == 2, r.output
    assert f"answers.txt:{line}: the answers are not UTF-8 text" in r.stderr
    assert "hint: save the file as UTF-8" in r.stderr and not (tmp_path / "saved.yaml").exists()
    assert "Traceback" not in r.output
    r = _ask_with(tmp_path, [HELD], b"\xef\xbb\xbf1\n\xe9\n")   # UTF-8 with a byte order mark: read
    # (the second line is never read: the interview has one question)
    assert r.exit_code == 0, r.output
    assert incident.load(str(tmp_path / "saved.yaml")).events[1].fields["holding"] == [("suit", "spades")]


def test_the_saved_file_name_is_printed_escaped(tmp_path):
    af = tmp_path / "answers.txt"
    af.write_text("1\n")
    name = str(tmp_path / "s\x1b[2J\nX.yaml")
    r = CliRunner().invoke(main, ["ask", HELD, "--answers", str(af), "--save", name])
    assert r.exit_code == 0, r.output
    assert f"Saved the incident to {tmp_path}/s\\x1b[2J\\nX.yaml." in r.stdout
    assert "\x1b" not in r.output and "\nX.yaml" not in r.output
    assert os.path.exists(name)


# --- ask --json ------------------------------------------------------------------------------------
def test_ask_json_gives_the_questions_the_answers_the_file_saved_and_adjudicates_ruling(tmp_path):
    af = tmp_path / "answers.txt"
    af.write_text("1\n")
    saved = str(tmp_path / "saved.yaml")
    r = CliRunner().invoke(main, ["ask", HELD, "--json", "--answers", str(af), "--save", saved])
    assert r.exit_code == 0, r.output
    assert r.stdout.count("\n") == 1                  # one line of JSON, the interview on standard error
    got = json.loads(r.stdout)
    assert list(got) == ["file", "questions", "saved", "ruling"]
    assert got["file"] == HELD and got["saved"] == saved
    assert got["questions"] == [{"id": "u1", "question": got["questions"][0]["question"], "laws": ["28", "30", "31"],
                                 "alternatives": ["Brown (E) held a spade", "Brown (E) did not hold a spade"],
                                 "answer": "Brown (E) held a spade"}]
    assert "Did Brown (E) hold a spade" in r.stderr
    plain = _adjudicate_json(saved)          # the same ruling, citing the lines of the file the user wrote
    assert list(got["ruling"]) == list(plain) and got["ruling"]["file"] == HELD
    assert [x["remedy"] for x in got["ruling"]["rulings"]] == [x["remedy"] for x in plain["rulings"]]
    assert [x["finding"] for x in got["ruling"]["findings"]] == [x["finding"] for x in plain["findings"]]
    # "I don't know" (the end of the answers): the answer null, and the conditional ruling
    af.write_text("")
    got = json.loads(CliRunner().invoke(main, ["ask", HELD, "--json", "--answers", str(af), "--save", saved]).stdout)
    assert got["questions"][0]["answer"] is None and got["ruling"]["depends_on"]["unknown"] == "u1"


def test_ask_json_refusal_is_one_line_of_json(tmp_path):
    r = CliRunner().invoke(main, ["ask", HELD, "--json", "--answers", str(tmp_path / "none.txt")])
    assert r.exit_code == 2
    assert r.stdout.count("\n") == 1
    err = json.loads(r.stdout)["error"]
    assert err["exit_code"] == 2 and err["file"] == "adjudicator ask --answers"
    assert "cannot read the answers" in err["message"] and "no such file" in err["message"]
    r = CliRunner().invoke(main, ["ask", "--json", "--game", "whist", "lead"], input="y\n" * 50)
    assert r.exit_code == 2 and json.loads(r.stdout)["error"]["message"].startswith("the interview stops")


@pytest.mark.parametrize("words, shown", [("zzq\x1b[2J\nqq", 'matches "zzq\\x1b[2J\\nqq"'), ("zzq qq", 'matches "zzq qq"')])
def test_the_words_no_event_matches_are_quoted_escaped(tmp_path, words, shown):
    r = CliRunner().invoke(main, ["ask", "--game", "whist", words, "--save", str(tmp_path / "s.yaml")],
                           input="0\n0\n")
    assert f"No event of whist {shown}; here are all of them." in r.stdout
    assert "\x1b" not in r.output


def test_the_answers_file_is_checked_line_by_line_as_it_is_read(tmp_path):
    """The line a byte that is not UTF-8 is found on is the one named, also when a line is read in
    pieces (read_answer's bound) and a character is cut between two pieces."""
    af = tmp_path / "a.txt"
    af.write_bytes("1\n\u00e9t\u00e9\n".encode() + b"x" * (reading.MAX_ANSWER + 1) + "\u00e9".encode() + b"\n3\n\xe9\n")

    def refuse(what):
        return AssertionError(what)
    fh = reading.open_to_read(str(af), refuse, lambda line: ValueError(line))
    assert reading.read_answer(fh) == "1" and reading.read_answer(fh) == "\u00e9t\u00e9"
    with pytest.raises(reading.LongAnswer):
        reading.read_answer(fh)
    assert reading.read_answer(fh) == "3"
    with pytest.raises(ValueError) as e:
        reading.read_answer(fh)
    assert e.value.args == (5,)
    fh.close()


def test_answers_ending_in_the_middle_of_an_event_are_refused_naming_it_and_its_question(tmp_path):
    """The answers end after a lead's `by` (its card not given): ruling on the events before it
    would rule another account, silently. Refused, exit 2, naming the event and the question; the
    same answers finishing the event and then ending at the menu are ruled (ending there is the
    way to finish)."""
    r, saved = _from_game(tmp_path, ["whist", "lead", "out", "of", "turn"],
                          ["S", "lead", "E", "4C", "", "", "", "", "lead", "S"])
    assert r.exit_code == 2, r.output
    assert "the answers ended in the middle of the `lead` event, at its `card`" in r.stderr
    assert "Traceback" not in r.output and not os.path.exists(saved)
    r, saved = _from_game(tmp_path, ["whist", "lead", "out", "of", "turn"],
                          ["S", "lead", "E", "4C", "", "", "", ""])
    assert r.exit_code == 0, r.output
    assert yaml.safe_load(open(saved, encoding="utf-8"))["events"] == [{"lead": {"by": "E", "card": "4C"}}]


# --- a hostile reading: yes and no, --save - ------------------------------------------------------
ORDER = os.path.join(ROOT, "cases", "whist", "american-1893",
                     "unknown-28-29-whether-the-trick-was-quitted-before-the-correction-decides-revoke-or-liable-card.yaml")
WHO = os.path.join(ROOT, "cases", "whist", "american-1893",
                   "unknown-35-39-whether-east-or-west-required-the-highest-decides-between-the-penalty-and-none.yaml")


@pytest.mark.parametrize("path, said", [(ORDER, "yes"), (ORDER, "n"), (WHO, "no"), (WHO, "Y")],
                         ids=["which-came-first-yes", "which-came-first-n", "who-did-it-no", "who-did-it-Y"])
def test_yes_or_no_to_a_question_they_do_not_answer_is_asked_again(tmp_path, path, said):
    """'Which came first: the turn-and-quit or the correct-renounce?' answered "yes" was taken for
    the turn-and-quit; 'Who did the demand?' answered "no" for Brown, the second named: any question
    of two alternatives took yes for the first and no for the second."""
    text, saved = _interview(tmp_path, path, [said, "0"])
    assert text.count("Please answer 1-2") == 1, text
    with open(saved, encoding="utf-8") as fh:
        assert "unknown:" in fh.read()          # answered "I don't know" after: the fact still unknown


@pytest.mark.parametrize("said, answer", [("yes", "Brown (E) held a spade"), ("n", "Brown (E) did not hold a spade")])
def test_yes_or_no_answers_did_he_hold_the_suit(tmp_path, said, answer):
    af = tmp_path / "answers.txt"
    af.write_text(said + "\n")
    r = CliRunner().invoke(main, ["ask", HELD, "--json", "--answers", str(af), "--save", str(tmp_path / "s.yaml")])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["questions"][0]["answer"] == answer


@pytest.mark.parametrize("args", [[HELD], ["--game", "whist", "lead", "out", "of", "turn"]], ids=["file", "game"])
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_save_to_dash_is_refused_before_any_question_and_writes_no_file(tmp_path, monkeypatch, args, as_json):
    """`--save -` wrote a file named '-', then read the incident back from standard input: the
    interview ended refused "<stdin>:1:1: the file is empty" (from a game, the interview itself
    was on standard input). '-' names standard output, not a file: refused before any question."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["ask", *args, "--save", "-", *(["--json"] if as_json else [])], input="1\n")
    assert r.exit_code == 2, r.output
    message = "cannot save the incident to '-': that names standard output, not a file"
    if as_json:
        err = json.loads(r.stdout)["error"]
        assert err["message"] == message and err["file"] == "adjudicator ask --save" and "./-" in err["hint"]
    else:
        assert r.stderr.startswith(f"adjudicator ask --save: {message}\n"), r.stderr
        assert "Did " not in r.stdout and "> " not in r.stdout        # no question asked
    assert not os.path.exists(tmp_path / "-")
    # a file called '-' is ./-
    r = CliRunner().invoke(main, ["ask", HELD, "--save", "./-"], input="1\n")
    assert r.exit_code == 0 and os.path.isfile(tmp_path / "-") and "Saved the incident to ./-." in r.stdout


@pytest.mark.parametrize("said", ["I don\u2019t know", "i don\u2019t know.", "dont know", "I DON'T KNOW"])
def test_i_don_t_know_typed_with_a_typographic_apostrophe_is_i_don_t_know(tmp_path, said):
    """"I don’t know", as a phone types it, was asked again: only the straight apostrophe was read."""
    text, saved = _interview(tmp_path, HELD, [said])
    assert "Please answer" not in text, text
    with open(saved, encoding="utf-8") as fh:
        assert "unknown:" in fh.read()


@pytest.mark.parametrize("one_of, said, held", [("[~, spades]", "yes", True), ("[~, spades]", "no", False),
                                                ("[spades, ~]", "y", True), ("[spades, hearts]", "yes", None)])
def test_yes_to_did_he_hold_is_that_he_held_whatever_order_the_possibilities_are_written(tmp_path, one_of, said,
                                                                                         held):
    """The possibilities written `one-of: [~, spades]`: "yes" to "Did Brown hold a spade?" is that he
    held it, not the first written; "Did he hold a spade or a heart?" is no yes-or-no question."""
    with open(HELD, encoding="utf-8") as fh:
        text = fh.read().replace("- {event: 2, field: holding}", f"- {{event: 2, field: holding, one-of: {one_of}}}")
    path = tmp_path / "held.yaml"
    path.write_text(text, encoding="utf-8")
    out, saved = _interview(tmp_path, str(path), [said, "0"])
    assert out.count("Please answer") == (1 if held is None else 0), out
    with open(saved, encoding="utf-8") as fh:
        events = yaml.safe_load(fh)["events"]
    if held is not None:
        assert ("holding" in events[1]["renounce"]) is held, events[1]


def test_the_incident_is_never_saved_over_the_answers_being_read(tmp_path, monkeypatch):
    """`--answers a.txt --save a.txt` wrote the incident over the answers and left with 0; the
    default save (FILE-answered.yaml) named as --answers did the same. Refused before any question,
    the answers as they were."""
    import shutil
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases", "whist",
                       "american-1893", "unknown-28-whether-the-renouncer-held-the-suit-led-decides-between-a-"
                       "revoke-and-no-penalty.yaml")
    monkeypatch.chdir(tmp_path)
    shutil.copy(src, "inc.yaml")
    for answers, save in [("a.txt", ["--save", "a.txt"]), ("inc-answered.yaml", [])]:
        (tmp_path / answers).write_text("1\n", encoding="utf-8")
        r = CliRunner().invoke(main, ["ask", "inc.yaml", "--answers", answers, *save])
        assert r.exit_code == 2, r.output
        assert "the incident would be saved over the answers" in r.stderr
        assert (tmp_path / answers).read_text(encoding="utf-8") == "1\n"
    r = CliRunner().invoke(main, ["ask", "inc.yaml", "--answers", "a.txt", "--save", "b.yaml"])
    assert r.exit_code == 0, r.output


def test_a_save_stopped_by_ctrl_c_leaves_the_file_as_it_was_and_nothing_beside_it(tmp_path, monkeypatch):
    """reading.write_replacing writes a new file beside the target and moves it into place; it
    tidied the new file away only when the write failed with an OSError, so a Ctrl-C between the
    two left a `.adjudicator-*.tmp` behind (found by reading the code)."""
    target = tmp_path / "incident-answered.yaml"
    target.write_text("before\n", encoding="utf-8")

    def stopped(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(reading.os, "fsync", stopped)
    with pytest.raises(KeyboardInterrupt):
        reading.write_replacing(str(target), "after\n", ask.save_refusal(str(target)))
    assert target.read_text(encoding="utf-8") == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["incident-answered.yaml"]


@pytest.mark.parametrize("spelt", ["inc.yaml", "./inc.yaml", "absolute", "link.yaml", "default"])
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_the_incident_is_never_saved_over_itself(tmp_path, monkeypatch, spelt, as_json):
    """`ask inc.yaml --save ./inc.yaml` (or the file by its absolute path, or through a link to it)
    put the incident with the answers in place of the account as the user wrote it, and left with
    0. Refused before any question, as --save over --answers is, the file as it was; the default
    save (FILE-answered.yaml) when it is the incident through a link, too."""
    import shutil
    monkeypatch.chdir(tmp_path)
    shutil.copy(HELD, "inc.yaml")
    before = (tmp_path / "inc.yaml").read_bytes()
    (tmp_path / "answers.txt").write_text("1\n", encoding="utf-8")
    given, save = "inc.yaml", spelt
    if spelt == "absolute":
        save = str(tmp_path / "inc.yaml")
    elif spelt == "link.yaml":
        os.symlink("inc.yaml", "link.yaml")
        given, save = "link.yaml", "inc.yaml"
    elif spelt == "default":                 # link-answered.yaml is the incident, through a link
        os.symlink("link-answered.yaml", "link.yaml")
        os.rename("inc.yaml", "link-answered.yaml")
        given, save = "link.yaml", None
    r = CliRunner().invoke(main, ["ask", given, "--answers", "answers.txt", *(["--save", save] if save else []),
                                  *(["--json"] if as_json else [])])
    assert r.exit_code == 2, r.output
    message = f"the incident would be saved over itself: '{given}' is both the incident FILE and where it is saved"
    if as_json:
        err = json.loads(r.stdout)["error"]
        assert err["message"] == message and err["file"] == "adjudicator ask --save" and "--save" in err["hint"]
    else:
        assert r.stderr.startswith(f"adjudicator ask --save: {message}\n  hint: give --save another file"), r.stderr
        assert r.stdout == ""          # no question asked
    kept = "link-answered.yaml" if spelt == "default" else "inc.yaml"
    assert (tmp_path / kept).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.is_symlink()) == sorted(["answers.txt", kept])

    # a folder or a FIFO given as both is refused as what it is, as adjudicate refuses it
    os.mkdir("folder")
    os.mkfifo("fifo")
    for name, said in [("folder", "folder: this is a directory"), ("fifo", "fifo: this is not a regular file")]:
        r = CliRunner().invoke(main, ["ask", name, "--answers", "answers.txt", "--save", name])
        assert r.exit_code == 2 and r.stderr.startswith(said), r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_ask_json_on_a_full_disk_says_the_incident_was_saved(tmp_path):
    """`ask --json > /dev/full` saved the incident and then said "the output could not be written
    (no space left on device); nothing is complete": the JSON line, written last, was lost, but the
    file was saved. Said now with the file saved, exit 1; an output lost before the save (the
    interview said on a full disk) is still "nothing is complete", nothing saved."""
    import shutil
    import subprocess
    exe = shutil.which("adjudicator") or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    if not os.path.exists(exe):
        pytest.skip("the adjudicator command is not installed")
    (tmp_path / "answers.txt").write_text("1\n", encoding="utf-8")
    saved = tmp_path / "saved.yaml"
    with open("/dev/full", "wb") as full:
        r = subprocess.run([exe, "ask", HELD, "--answers", str(tmp_path / "answers.txt"), "--save", str(saved),
                            "--json"], stdout=full, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=60)
    err = r.stderr.decode()
    assert r.returncode == 1 and "Traceback" not in err, err
    assert err.endswith("adjudicator: the output could not be written (no space left on device); the incident was "
                        f"saved to '{reading.path_shown(str(saved))}' (`adjudicator adjudicate` rules on it again), "
                        "nothing else is complete\n"), err
    assert "nothing is complete" not in err and saved.is_file()
    assert not unknowns.has_unknowns(incident.load(str(saved)))
    # the interview itself on a full disk: its first line fails, before anything is saved
    with open("/dev/full", "wb") as full:
        r = subprocess.run([exe, "ask", HELD, "--answers", str(tmp_path / "answers.txt"), "--save",
                            str(tmp_path / "other.yaml")], stdout=full, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=60)
    assert r.returncode == 1 and r.stderr.decode().endswith("; nothing is complete\n"), r.stderr
    assert not (tmp_path / "other.yaml").exists()
