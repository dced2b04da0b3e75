"""The command line: rulings, law texts, and a clear error (exit 2, no traceback) for bad input."""
import json
import os

import pytest
from click.testing import CliRunner

from adjudicator.core import render
from adjudicator.cli import main

from .conftest import ROOT

CASE = os.path.join(ROOT, "cases", "whist", "american-1893",
                    "24-suit-call-only-by-the-adversary-on-the-right.yaml")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_adjudicate_prints_the_ruling_with_its_law():
    r = run("adjudicate", CASE)
    assert r.exit_code == 0, r.output
    assert "[law 24]" in r.stdout and "May not:" in r.stdout


def test_adjudicate_json_carries_the_contract():
    r = run("adjudicate", "--json", CASE)
    data = json.loads(r.stdout)
    assert data["game"] == "whist" and data["code"] == "american-1893"
    first = data["rulings"][0]
    for key in ("remedy", "text", "laws", "against", "in_favour_of", "may_exact", "may_not_exact",
                "choice", "because"):
        assert key in first


def test_show_facts_and_stdin():
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read()
    r = run("adjudicate", "--show-facts", "-", input=text)
    assert r.exit_code == 0, r.output
    assert "ev(1,lead)." in r.stdout


BAD = [
    ("events:\n  - lead: {by: W\n", "not valid YAML"),
    ("game: whist\nevents:\n  - renonce: {by: E}\n", "did you mean 'renounce'"),
    ("game: whist\nevents:\n  - lead: {by: X, card: KS}\n", "is not a seat"),
    ("game: whist\nevents:\n  - lead: {by: W, card: ZZ}\n", "is not a card"),
    ("game: whist\nevents:\n  - lead: {by: W, crad: KS}\n", "did you mean 'card'"),
    ("game: whist\ndeler: S\nevents: []\n", "did you mean 'dealer'"),
    ("game: whisst\nevents: []\n", "did you mean 'whist'"),
    ("game: whist\nevents:\n  - demand: {by: N, remedy: call-suite}\n", "did you mean 'call-suit'"),
    ("game: whist\nevents:\n  - wrong-number: {player: W}\n", "exactly one of"),
    ("a: &x [1]\nb: *x\n", "aliases"),
    ("", "empty"),
]


@pytest.mark.parametrize("text,expect", BAD)
def test_bad_input_exits_2_with_file_line_and_hint(tmp_path, text, expect):
    p = tmp_path / "bad.yaml"
    p.write_text(text, encoding="utf-8")
    r = run("adjudicate", str(p))
    assert r.exit_code == 2, r.output
    assert expect in r.stderr
    assert str(p) in r.stderr
    assert "Traceback" not in r.output


def test_error_names_the_line(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("game: whist\ndealer: S\nevents:\n  - lead: {by: W, card: KS}\n  - renonce: {by: E}\n")
    r = run("adjudicate", str(p))
    assert f"{p}:5:5: unknown event 'renonce'" in r.stderr


def test_missing_and_binary_files(tmp_path):
    r = run("adjudicate", str(tmp_path / "nope.yaml"))
    assert r.exit_code == 2 and "no such file" in r.stderr
    b = tmp_path / "b.yaml"
    b.write_bytes(b"\x00\x01\x02")
    r = run("adjudicate", str(b))
    assert r.exit_code == 2 and "binary" in r.stderr


def test_law_lookup():
    r = run("law", "american-1893", "24")
    assert r.exit_code == 0 and "adversary on the right" in r.stdout
    r = run("law", "american-1893", "17.II")
    assert r.exit_code == 0 and "> II." in r.stdout
    r = run("law", "american-1893", "99")
    assert r.exit_code == 2 and "no law" in r.stderr
    r = run("law", "american-1893", "24", "--json")
    assert json.loads(r.stdout)["id"] == "24"


def test_codes_and_remedies():
    r = run("codes")
    assert "american-1893" in r.stdout and "(default)" in r.stdout
    r = run("remedies", "--json")
    assert "call-suit" in json.loads(r.stdout)


def test_check_reports_a_failing_case(tmp_path):
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read().replace("may_exact: [S]", "may_exact: [N]", 1)
    p = tmp_path / "wrong.yaml"
    p.write_text(text)
    r = run("check", str(p))
    assert r.exit_code == 1
    assert "FAIL" in r.stdout and "expected, not given" in r.stdout and "given, not expected" in r.stdout


def test_check_prints_back_nothing_of_a_case_raw_or_whole(tmp_path):
    # a case's name, or a word it expects, is printed when the case fails: an escape or a newline in
    # it must not reach the terminal (a forged line, a cleared screen), nor a long value whole
    case = ("name: \"x\\nFAIL forged\"\ngame: whist\ndealer: S\nevents:\n  - lead: {by: W, card: KS}\n"
            "expected:\n  rulings: []\n")
    p = tmp_path / "named.yaml"
    p.write_text(case)
    r = run("check", str(p))
    assert r.exit_code == 1 and "x\\nFAIL forged" in r.stdout and "\nFAIL forged" not in r.stdout
    for remedy, said in (("\\e[31mhang", "\\x1b[31mhang"), ("fake\\nFAIL forged" + "z" * 5000, "fake\\nFAIL forged")):
        p = tmp_path / "remedy.yaml"
        p.write_text(case.replace("rulings: []", f'rulings:\n    - {{remedy: "{remedy}", laws: ["39"], may_exact: []}}'))
        r = run("check", str(p))
        assert r.exit_code == 1 and "is not a remedy the engine names" in r.stdout, r.stdout
        assert said in r.stdout and "\x1b" not in r.stdout and "\nFAIL forged" not in r.stdout
        assert len(r.stdout) < 1000


def test_check_passes_on_the_bundled_case():
    r = run("check", CASE)
    assert r.exit_code == 0 and "1 passed" in r.stdout


# An `expected` that is not of the documented shape (adjudicator/core/cases.py) is that case's failure,
# said at its line and key; the run goes on to the next file.
@pytest.mark.parametrize("old, new, said", [
    ('laws: ["24"]', "laws: 24", "ruling 1: laws: '24' is not a list"),
    ("    - remedy: call-suit\n      laws", "    - 7\n    - remedy: call-suit\n      laws", "ruling 1: '7' is not a mapping"),
    ("may_not_exact: [N, E, W]", 'may_not_exact: [{laws: ["24"]}]', "a may_not_exact entry needs `seat`"),
    ("may_not_exact: [N, E, W]", 'may_not_exact: [{seat: N, laws: ["24"]}, E, W]',
     "may_not_exact mixes seats and {seat, laws} entries"),      # (was an internal error, TypeError)
    ("findings: [lead-out-of-turn]", "findings: {a: 1}", "expected.findings: '{a: 1}' is not a list"),
    ("status: applies", "status: aplies", "status: 'aplies' is not one of"),
    ("  findings: [lead-out-of-turn]", "  findngs: [lead-out-of-turn]", "expected key: 'findngs' is not one of"),
    # (a refusal the engine never gives was said only when the incident was ruled: "expected the
    # incident to be refused (explode)", a failure of the engine's, not of the case)
    ("  findings: [lead-out-of-turn]", "  error: explode", "expected.error: 'explode' is not a refusal the engine gives"),
])
def test_a_malformed_expectation_fails_its_case_at_its_line_and_the_run_goes_on(tmp_path, old, new, said):
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    r = run("check", str(bad), CASE)
    assert r.exit_code == 1 and "internal error" not in r.output, r.output
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if new.split("\n")[-1].strip() in t
                or new.split("\n")[0].strip() in t)
    assert f"bad.yaml:{line}:" in r.stdout and said in r.stdout, r.stdout
    assert "1 passed, 1 failed, 2 cases" in r.stdout


UNKNOWN_CASE = os.path.join(ROOT, "cases", "whist", "american-1893",
                            "unknown-35-39-whether-east-or-west-required-the-highest-decides-between-the-penalty-"
                            "and-none.yaml")


# The expectation of a case with unknown facts (depends-on, whatever, if: cases.check_conditional) was
# read as plain data: a ruling that was not a mapping, or `depends-on: 5`, was an internal error
# (TypeError, exit 1 with "report it"), and what it printed back was Python's repr (`['u1']`,
# `{'u1': 'W'}`, "possibilities: 'W', 'E'") at the line of `expected` or at none. Each is now that
# case's failure at its own line and key, quoted as written.
@pytest.mark.parametrize("old, new, said", [
    ("  if:\n", "  if:\n    - when: {u1: E}\n      rulings: [5]\n", "expected.rulings, ruling 1: '5' is not a mapping"),
    ("  depends-on: [u1]", "  depends-on: 5", "expected.depends-on: '5' is not a list of unknowns, e.g. [u1]"),
    ("  depends-on: [u1]", "  depends-on: [u1, u7]", "expected.depends-on: 'u7' is not an unknown (they are u1)"),
    ("    - when: {u1: W}", "    - when: {u1: [W, E]}", "expected.if, entry 1: '[W, E]' is not a possibility of u1"),
    ("    - when: {u1: W}", "    - when: {u1: \"\\e[2J\"}", "expected.if, entry 1: '\\x1b[2J' is not a possibility of u1"),
    ("    - when: {u1: W}", "    - when: {u9: W}", "expected.if, entry 1: 'u9' is not an unknown (they are u1)"),
    ("  if:\n", None, "expected.if: '{a: b}' is not a list of branches"),
    ("      findings: [called-attention]\n", "      findings: {a: 1}\n", "expected.findings: '{a: 1}' is not a list"),
])
def test_a_malformed_expectation_of_a_case_with_unknown_facts_fails_it_at_its_line(tmp_path, old, new, said):
    with open(UNKNOWN_CASE, encoding="utf-8") as fh:
        text = fh.read()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1) if new is not None else text[:text.index(old)] + "  if: {a: b}\n")
    r = run("check", str(bad), CASE)
    assert r.exit_code == 1 and "internal error" not in r.output, r.output
    assert said in r.stdout and "bad.yaml:" in r.stdout, r.stdout
    assert "'W', 'E'" not in r.stdout and "\x1b" not in r.stdout
    assert "1 passed, 1 failed, 2 cases" in r.stdout


def test_a_case_with_unknown_facts_failing_says_its_difference_without_python_repr(tmp_path):
    with open(UNKNOWN_CASE, encoding="utf-8") as fh:
        text = fh.read()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("  depends-on: [u1]", "  depends-on: []").replace("status: exacted", "status: available"))
    r = run("check", str(bad))
    assert r.exit_code == 1, r.output
    assert "the ruling turns on u1, expected none" in r.stdout and "when {u1: W}:" in r.stdout, r.stdout
    assert "['u1']" not in r.stdout and "{'u1'" not in r.stdout


def test_check_json_gives_a_refused_case_its_error_as_the_object_every_command_gives(tmp_path):
    """`check --json` put a case's input error as its text (newline and hint inside one string);
    it is the error object of every other command's --json: file, line, column, message, hint."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: whist\ndealer: Off\nevents: []\nexpected: {rulings: []}\n")
    r = run("check", "--json", str(bad), CASE)
    assert r.exit_code == 1, r.output
    rows = {os.path.basename(c["file"]): c for c in json.loads(r.stdout)["cases"]}
    err = rows["bad.yaml"]["error"]
    assert rows["bad.yaml"]["ok"] is False and err["exit_code"] == 2
    assert (err["file"], err["line"], err["column"]) == (str(bad), 2, 9)
    assert err["message"] == "dealer: 'Off' is not a seat" and err["hint"].startswith("a seat is N, E, S or W")
    assert rows[os.path.basename(CASE)]["ok"] is True


def test_a_finding_expected_absent_fails_the_case_when_it_is_given(tmp_path):
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read()
    for absent, ok in (("lead-out-of-turn", False), ("revoke", True)):      # given / not given
        p = tmp_path / "case.yaml"
        p.write_text(text + f"  not_findings: [{absent}]\n")
        r = run("check", str(p))
        assert (r.exit_code == 0) == ok, r.output
        assert ok or "finding given, expected absent: lead-out-of-turn(" in r.stdout


@pytest.mark.parametrize("written", ["true", "5", "{a: 1}", "[inconsistent]"])
def test_an_expected_error_that_is_no_refusal_is_quoted_as_written(tmp_path, written):
    """`error: true` was quoted 'True', and a mapping as Python's repr of the reader's values."""
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read().split("expected:")[0]
    p = tmp_path / "case.yaml"
    p.write_text(text + f"expected:\n  error: {written}\n")
    r = run("check", str(p))
    assert r.exit_code == 1 and f"expected.error: '{written}' is not a refusal the engine gives" in r.stdout, r.stdout


def test_check_on_a_path_that_does_not_exist_is_a_usage_error(tmp_path):
    r = run("check", str(tmp_path / "nosuch"), CASE)
    assert r.exit_code == 2 and "no file or folder" in r.output and "nosuch" in r.output


def test_check_does_not_follow_a_link_back_up_the_tree(tmp_path):
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "a.yaml").write_text(open(CASE, encoding="utf-8").read())
    (folder / "up").symlink_to(tmp_path, target_is_directory=True)
    (folder / "self").symlink_to(folder, target_is_directory=True)
    r = run("check", str(folder))
    assert r.exit_code == 0 and "1 passed, 0 failed, 1 cases" in r.stdout, r.stdout


def test_the_installed_command_exits_with_the_right_codes(tmp_path):
    """Through the console script itself (which leaves with os._exit), not click's test runner."""
    import shutil
    import subprocess
    import sys
    exe = shutil.which("adjudicator") or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    if not os.path.exists(exe):
        pytest.skip("the adjudicator command is not installed")
    ok = subprocess.run([exe, "adjudicate", "--json", CASE], capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)["rulings"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: whist\nevents:\n  - renonce: {by: E}\n")
    r = subprocess.run([exe, "adjudicate", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "did you mean 'renounce'" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([exe, "frobnicate"], capture_output=True, text=True)
    assert r.returncode == 2


def test_a_score_of_seven_before_the_hand_is_refused(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text("game: whist\nscore: {N-S: 7, E-W: 2}\nstart: {trick: 13, leader: N}\n"
                 "events:\n  - end-of-hand: {tricks: {N-S: 7, E-W: 6}}\n")
    r = run("adjudicate", str(p))
    assert r.exit_code == 2 and "already won" in r.stderr


def test_json_errors_are_data(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("game: whist\nevents:\n  - renonce: {by: E}\n")
    r = run("adjudicate", "--json", str(p))
    assert r.exit_code == 2
    err = json.loads(r.stdout)["error"]
    assert err["line"] == 3 and "renounce" in err["hint"]


# A game's name stands for its default code wherever a code is taken (issue 10, item 6).
@pytest.mark.parametrize("game,code,number", [("piquet", "portland-club", "54"), ("whist", "american-1893", "24"),
                                              ("Whist", "american-1893", "24")])
def test_a_games_name_stands_for_its_default_code_in_law(game, code, number):
    by_game, by_code = run("law", game, number, "--json"), run("law", code, number, "--json")
    assert by_game.exit_code == 0, by_game.output
    assert json.loads(by_game.stdout)["code"] == code
    assert by_game.stdout == by_code.stdout


def test_poker_by_its_games_name():
    from adjudicator.core import registry
    r = run("law", "poker", "8", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["code"] == registry.default_code("poker")


def test_a_games_name_in_search_topic_and_compare():
    s = run("search", "--code", "piquet", "carte", "blanche", "--json")
    assert s.exit_code == 0, s.output
    assert {g["code"] for g in json.loads(s.stdout)["results"]} == {"portland-club"}
    t = run("topic", "revoke", "--code", "whist", "--json")
    assert t.exit_code == 0, t.output
    assert [c["code"] for c in json.loads(t.stdout)["codes"]] == ["american-1893"]
    c = run("compare", "--codes", "whist,english-1864", "--json", CASE)
    assert c.exit_code == 0, c.output
    assert c.stdout == run("compare", "--codes", "american-1893,english-1864", "--json", CASE).stdout


def test_an_unknown_code_or_game_names_the_command_and_the_closest_name():
    r = run("law", "pikett", "3")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.stderr.startswith("adjudicator law: unknown code or game 'pikett'")
    assert "did you mean 'piquet'?" in r.stderr


# CLI conventions (issue 15, item 5).
def test_version_comes_from_the_package_metadata():
    from importlib.metadata import version
    r = run("--version")
    assert r.exit_code == 0 and r.stdout == f"adjudicator {version('adjudicator')}\n"


def test_law_clauses_and_exceptions_are_case_insensitive():
    assert run("law", "whist", "17.ii", "--json").stdout == run("law", "whist", "17.II", "--json").stdout
    assert json.loads(run("law", "whist", "17.ii", "--json").stdout)["clause"] == "II"


def test_check_outside_a_checkout_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("check")
    assert r.exit_code == 2 and "no cases/ folder here" in r.stderr and "Traceback" not in r.output


def test_events_name_explains_an_event_and_a_key():
    r = run("events", "lead")
    assert r.exit_code == 0 and "by*" in r.stdout and "- lead: {by: W, card: KS}" in r.stdout
    data = json.loads(run("events", "lead", "--json").stdout)
    assert data["event"] == "lead" and {f["name"] for f in data["fields"]} >= {"by", "card"}
    assert "trump card" in run("events", "trump").stdout
    r = run("events", "lede")
    assert r.exit_code == 2 and "did you mean 'lead'?" in r.stderr


def test_every_rule_and_law_file_is_package_data():
    """The recursive patterns of pyproject.toml take every file under rules/ but its README."""
    import fnmatch
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        patterns = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["adjudicator.rules"]
    rules = os.path.join(ROOT, "rules")
    files = [os.path.relpath(os.path.join(d, f), rules).replace(os.sep, "/")
             for d, _, fs in os.walk(rules) for f in fs if f not in ("README.md", "__init__.py") and not f.endswith(".pyc")]
    # setuptools' `**/` also matches no folder at all (a file at the top of rules/)
    left = [f for f in files if not any(fnmatch.fnmatch(f, p) or fnmatch.fnmatch(f, p.replace("**/", "")) for p in patterns)]
    assert files and not left, left
    assert os.path.exists(os.path.join(ROOT, "adjudicator", "py.typed"))


def test_every_python_package_is_listed_for_the_wheel():
    """pyproject.toml lists the packages by name: a folder of the package left out (core/incident,
    when incident.py became a folder) installs without it, and a `pip install .` outside a checkout
    fails at the first import."""
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        listed = set(tomllib.load(fh)["tool"]["setuptools"]["packages"])
    found = {os.path.relpath(d, ROOT).replace(os.sep, ".") for d, _, fs in os.walk(os.path.join(ROOT, "adjudicator"))
             if "__init__.py" in fs}
    assert found and found <= listed, sorted(found - listed)


def test_jobs_give_the_same_bytes_in_input_order():
    """--jobs spreads many files over processes; the output is what one process prints."""
    bad = os.path.join(ROOT, "tests", "bad_input", "card-played-twice.yaml")
    files = [CASE, bad, os.path.join(ROOT, "cases", "whist", "american-1893",
                                     "07-two-players-cutting-the-same-card-cannot-have-happened.yaml"), CASE]
    for extra in ([], ["--json"]):
        one, many = run("adjudicate", *extra, *files), run("adjudicate", *extra, "--jobs", "2", *files)
        assert (one.exit_code, one.stdout, one.stderr) == (many.exit_code, many.stdout, many.stderr)
        assert one.exit_code == 2 and one.stdout
    folder = os.path.dirname(CASE)
    picked = sorted(os.listdir(folder))[:6]
    paths = [os.path.join(folder, f) for f in picked]
    one, many = run("check", *paths), run("check", "-j", "2", *paths)
    assert (one.exit_code, one.stdout) == (many.exit_code, many.stdout) and one.exit_code == 0
    assert [ln.split(":")[0][5:] for ln in one.stdout.splitlines()[:-1]] == paths


def test_many_files_ruled_together_print_what_each_prints_alone():
    """adjudicate and check on many files rule a code's incidents together (adjudicator/core/batch.py):
    the output is each file's own, in order, whatever its neighbours; a refusal stays its file's."""
    from adjudicator.core import batch
    folder = os.path.dirname(CASE)
    paths = [os.path.join(folder, f) for f in sorted(os.listdir(folder))][:batch.FEWEST + 4]
    bad = os.path.join(ROOT, "tests", "bad_input", "card-played-twice.yaml")
    files = paths[:5] + [bad] + paths[5:]
    for extra in ([], ["--json"]):
        alone = [run("adjudicate", *extra, f) for f in files]
        together = run("adjudicate", *extra, *files)
        assert together.stdout == "".join(r.stdout for r in alone)
        assert together.stderr == "".join(r.stderr for r in alone)
        assert together.exit_code == max(r.exit_code for r in alone) == 2
    alone = [run("check", f).stdout.splitlines()[0] for f in paths]
    together = run("check", *paths)
    assert together.stdout.splitlines()[:-1] == alone and together.exit_code == 0


@pytest.mark.parametrize("words,cword,expect", [("adjudicator law pi", "2", "piquet"),
                                                ("adjudicator events lea", "2", "lead"),
                                                ("adjudicator search --code am", "3", "american-1893"),
                                                ("adjudicator topic revoke --code eng", "4", "english-1864")])
def test_shell_completion_completes_codes_and_event_names(words, cword, expect):
    r = CliRunner().invoke(main, [], prog_name="adjudicator",
                           env={"_ADJUDICATOR_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": cword})
    assert f"plain,{expect}" in r.output.splitlines(), r.output


def test_tables_wrap_to_the_terminal_and_every_command_answers_in_json(monkeypatch):
    monkeypatch.setenv("COLUMNS", "72")
    for args in (["codes"], ["remedies"], ["events"]):
        r = run(*args)
        assert r.exit_code == 0 and max(len(ln) for ln in r.stdout.splitlines()) <= 72, args
    for args in (["codes"], ["remedies"], ["events"], ["events", "lead"], ["law", "whist", "24"],
                 ["topic", "revoke"], ["search", "revoke"], ["check", CASE], ["adjudicate", CASE],
                 ["compare", CASE]):
        r = run(*args, "--json")
        assert r.exit_code == 0, (args, r.output)
        json.loads(r.stdout)
    r = run("law", "nope", "3", "--json")
    assert r.exit_code == 2 and json.loads(r.stdout)["error"]["file"] == "adjudicator law"


def test_a_player_named_by_a_number_is_found_by_the_name_as_written(tmp_path):
    """`players: {N: 42}` names North '42': an event `by: 42` (read by YAML as a number) is North,
    as `by: Ames` would be (before, the hint offered the very name it refused)."""
    f = tmp_path / "i.yaml"
    f.write_text("game: whist\nplayers: {N: 42, E: Brown, S: Clark, W: Dodd}\ndealer: S\n"
                 "events:\n  - lead: {by: 42, card: KS}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["adjudicate", "--json", str(f)])
    assert r.exit_code == 0, r.output
    assert "42 leads the king of spades" in json.loads(r.stdout)["story"]


def test_law_points_a_clause_that_is_another_codes_law_to_that_code():
    r = CliRunner().invoke(main, ["law", "english-1864", "24.boston"])
    assert r.exit_code == 2
    assert "`adjudicator law american-1893 24.boston`" in r.stderr


@pytest.mark.parametrize("args, said", [
    (["events", ""], "no event or key is named: the argument is empty"),
    (["compare", "--codes", "american-1893,,american-1893", "cases/whist/american-1893/28-renounce-by-a-player-holding-none-of-the-suit-is-no-revoke.yaml"],
     "names one code (american-1893): a comparison needs two or more"),
])
def test_an_empty_or_single_choice_is_refused_not_read_as_all(args, said):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and said in r.stderr


def test_an_empty_path_is_named_in_its_message():
    """`adjudicator adjudicate ''` said ": no such file", naming no file, then "'': no such file":
    an empty argument is said to be one, with the fix."""
    r = run("adjudicate", "--json", "")
    assert r.exit_code == 2 and r.stderr == ("adjudicator: an empty argument names no incident file\n"
                                             "  hint: give the incident file's path (or '-' to read standard input)\n")
    assert json.loads(r.stdout)["error"]["file"] == "adjudicator"


@pytest.mark.parametrize("args", [["-", "-"], ["--json", "-", CASE, "-"]])
def test_standard_input_named_twice_is_a_usage_error(args):
    """`adjudicate - -` ruled on the same standard input twice (read once, handed to both): standard
    input can be read only once, so a second '-' is refused with the fix. (`compare` takes one FILE.)"""
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read()
    r = run("adjudicate", *args, input=text)
    assert r.exit_code == 2
    assert r.stderr == ("adjudicator: '-' (standard input) is named 2 times: standard input can be read only once\n"
                        "  hint: name '-' once; to rule on one incident twice, save it to a file and name the "
                        "file twice\n")
    if "--json" in args:
        assert json.loads(r.stdout)["error"]["exit_code"] == 2
    else:
        assert r.stdout == ""


def _commands(group, path=()):
    import click
    for name, command in group.commands.items():
        yield (*path, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


@pytest.mark.parametrize("command", list(_commands(main)), ids=" ".join)
def test_every_help_describes_each_option_without_a_python_none(command):
    """`quiz --help` said `--seed INTEGER RANGE ... [x<=None]`: click describes a range with no
    bound at all (cli.Whole() for any whole number) with the Python None of its missing bound."""
    r = CliRunner().invoke(main, [*command, "--help"])
    assert r.exit_code == 0, r.output
    assert "None" not in r.output, r.output


def test_topic_list_with_code_lists_only_that_code_s_topics():
    """`topic --code piquet` (no NAME) listed every topic, each with all its codes: --code was
    passed over. Now only the topics that file piquet's laws, each with that code alone."""
    every = json.loads(CliRunner().invoke(main, ["topic", "--json"]).stdout)
    r = CliRunner().invoke(main, ["topic", "--code", "piquet", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert rows == [{**t, "codes": ["portland-club"]} for t in every if "portland-club" in t["codes"]]
    assert 0 < len(rows) < len(every)
    text = CliRunner().invoke(main, ["topic", "--code", "piquet"]).stdout
    assert "(1 code)" in text and "codes)" not in text


@pytest.mark.parametrize("code", ["boston", "cayenne-1893", "solo-whist"])
def test_a_code_that_reads_the_american_book_finds_its_laws_there(code):
    """Boston, Cayenne and Solo Whist read the American book (their exceptions are in it):
    `law boston 28` prints the law, but `search revoke --code boston` said "code 'boston-1893' has
    no law texts" (exit 2), `topic revoke --code boston` printed the topic's title alone (exit 0),
    and `topic --code boston` (no NAME) every topic. Each now reads the American book."""
    r = CliRunner().invoke(main, ["search", "revoke", "--code", code, "--json"])
    assert r.exit_code == 0, r.output
    assert {x["code"] for x in json.loads(r.stdout)["results"]} == {"american-1893"}
    r = CliRunner().invoke(main, ["topic", "revoke", "--code", code])
    assert r.exit_code == 0 and "american-1893" in r.stdout and "  28  A revoke is" in r.stdout, r.output
    r = CliRunner().invoke(main, ["topic", "--code", code, "--json"])
    assert r.exit_code == 0 and {c for t in json.loads(r.stdout) for c in t["codes"]} == {"american-1893"}, r.output


@pytest.mark.parametrize("args, what", [(["lead", "--markdown"], "one entry ('lead')"),
                                        (["--markdown", "--json"], "JSON (--json)"),
                                        (["a\x1b[2J", "--markdown"], "one entry ('a\\x1b[2J')")])
def test_events_markdown_with_a_name_or_json_is_refused_not_passed_over(args, what):
    """`events lead --markdown` printed lead's entry in plain text, and `events --markdown --json`
    the JSON list: --markdown (the whole reference, as docs/incident-format.md holds it) was passed
    over without a word. Refused now, exit 2, with what was asked instead."""
    r = CliRunner().invoke(main, ["events", *args])
    assert r.exit_code == 2, r.output
    message = f"--markdown prints the whole reference, as docs/incident-format.md holds it, not {what}"
    assert r.stderr.startswith(f"adjudicator events: {message}\n  hint: "), r.stderr
    if "--json" in args:
        assert json.loads(r.stdout)["error"]["message"] == message
    else:
        assert r.stdout == ""
    assert CliRunner().invoke(main, ["events", "--markdown"]).stdout.startswith("<!-- reference:start")


def _laws_read(name):
    """`events NAME`: the codes of its "Laws that read it (CODE): ..." lines, each with its laws."""
    import re
    text = run("events", name).stdout
    joined = re.sub(r"\n  (?=\S)", " ", text)        # a wrapped line's continuation
    return {m.group(1): m.group(2).split(", ") for m in re.finditer(r"^Laws that read it \(([^)]+)\): (.+)$",
                                                                      joined, re.M)}


@pytest.mark.parametrize("name, code, law", [
    ("lead", "american-1893", "24"), ("lead", "english-1864", "57"), ("lead", "dummy-1864", "57"),
    ("lead", "double-dummy-1864", "57"), ("lead", "chinese-whist", "24"),
    ("lead", "boston-1893", "24"), ("lead", "cayenne-1893", "24"), ("lead", "solo-whist-1893", "24"),
    ("make-bid", "boston-1893", "bidding"), ("make-bid", "solo-whist-1893", "bidding"),
    ("make-bid", "boston-de-fontainebleau", "bidding.must-play"),
    ("make-bid", "french-boston", "bidding.over-called"),
    ("call", "portland-club", "46"), ("see-next-hand", "portland-club", "70"),
    ("declare", "loo", "declaring.2"), ("exchange", "loo", "variations.five-card-loo"),
    ("bet", "draw-poker", "betting"), ("straddle", "draw-poker", "straddle"),
    ("take-from-talon", "german-whist", "playing"), ("end-of-hand", "german-whist", "stakes"),
    ("gather", "american-1893", "34"), ("gather", "english-1864", "85"),
])
def test_events_names_the_laws_of_every_code_whose_rules_read_it(name, code, law):
    """`events NAME` listed "Laws that read it" for the American and English whist codes alone, from
    a list kept by hand: piquet, loo, poker, German and Chinese whist and the Boston family got no
    line (`events declare`, `events bet`), and `events gather` none at all, though law 34 closes the
    right to have the cards drawn when they are gathered. The laws are now worked out from the
    rules, for every code (laws.event_laws), and `--json` gives the same."""
    read = _laws_read(name)
    assert law in read.get(code, []), (name, read)
    data = json.loads(run("events", name, "--json").stdout)
    assert data["laws_by_code"] == read


def test_events_lists_each_code_once_its_laws_once_in_book_order():
    from adjudicator.lookup import laws
    from adjudicator.core import registry
    for name in ("lead", "play", "deal", "end-of-hand", "demand", "bet", "declare", "call"):
        got = laws.event_laws(name)
        assert got, name
        codes = [c["code"] for c in registry.all_codes()]
        assert list(got) == [c for c in codes if c in got]              # codes.yaml's order, once each
        for code, ids in got.items():
            books = [code]                  # its book, then those it amends (Double Dummy: Dummy, English)
            while laws.book(books[-1]).get("base_code"):
                books.append(laws.book(books[-1])["base_code"])
            order = [i for b in books for i in laws.law_ids(b)]
            assert set(ids) <= set(order), (name, code)
            assert list(ids) == sorted(set(ids), key=order.index), (name, code)


def test_events_says_plainly_when_no_code_reads_an_event(monkeypatch):
    """An event no code's rules read printed nothing where the laws go: it says so."""
    from adjudicator.lookup import laws
    monkeypatch.setattr(laws, "event_laws", lambda name: {})
    r = run("events", "gather")
    assert r.exit_code == 0 and "No code's rules read this event" in r.stdout
    assert json.loads(run("events", "gather", "--json").stdout)["laws_by_code"] == {}


def test_a_long_path_is_never_broken_but_stands_whole_on_its_own_line():
    """A heading naming a long case file broke its path at 80 columns, mid-word and at its hyphens
    ("...81-both-\\n  sides-revoke..."), so it could not be copied back. It is now never broken: a
    path longer than the line stands on a line of its own, whole, the one line allowed past 80."""
    path = os.path.join(ROOT, "cases", "whist", "english-1864",
                        "81-both-sides-revoke-the-first-revokers-adversary-elects-first-the-same-two-"
                        "elections-stand.yaml")
    out = CliRunner().invoke(main, ["adjudicate", path], env={"COLUMNS": "80"}).stdout
    assert any(line.strip() == path for line in out.splitlines()), out[:600]
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert wide and all(len(line.split()) == 1 for line in wide) and not render.too_wide(out, 80)


@pytest.mark.parametrize("text", [
    "Laws that read it (loo): playing.1, playing.2, playing.3, variations.five-card-loo, variations.irish-loo",
    "The Laws of Whist, English club code (1864) -- cases/whist/english-1864/" + "x-" * 40 + "stand.yaml",
])
def test_wrapping_breaks_only_at_spaces(text):
    for width in (20, 40, 80):
        lines = render.wrap(text, width, "", "  ")
        assert [w for line in lines for w in line.split()] == text.split()
        assert not render.too_wide("\n".join(lines), width)
