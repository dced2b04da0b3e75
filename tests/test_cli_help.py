"""Help that teaches, completion as bash drives it, and the small slips (issue 46).

Help: each command's summary whole, the top-level help's three examples (a ruling, a law, a quiz),
every example in any help a command line the command takes, and a command missing its argument
answering with what it could be (`law loo` lists loo's laws). Completion: run as bash runs it, the
program started again with _ADJUDICATOR_COMPLETE=bash_complete, COMP_WORDS and COMP_CWORD; law
numbers of the code given, topics, the quiz's filters; each candidate once.
"""
from __future__ import annotations

import inspect
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from adjudicator import api
from adjudicator.cli import main

from .conftest import ROOT

CASE = os.path.join(ROOT, "cases", "whist", "american-1893",
                    "24-suit-call-only-by-the-adversary-on-the-right.yaml")


def run(*args, **env):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "80", **env})


def _commands(group=main, path=()):
    for name, command in group.commands.items():
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


COMMANDS = list(_commands())


def _summary(command) -> str:
    return " ".join(inspect.cleandoc(command.help).split("\n\n")[0].split())


def _listed(help_text: str) -> dict[str, str]:
    """The commands a group's help lists, each with its summary (its wrapped lines joined)."""
    part = help_text.split("Commands:\n", 1)[1].split("\n\n")[0]
    out: dict[str, str] = {}
    name = None
    for line in part.splitlines():
        m = re.match(r"  (\S+)\s+(.*)$", line)
        if m and not line.startswith("   "):
            name = m.group(1)
            out[name] = m.group(2)
        else:
            out[name] += " " + line.strip()
    return out


# --- help -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("group, path", [(main, ()), (main.commands["quiz"], ("quiz",))], ids=["top", "quiz"])
def test_every_command_s_summary_is_whole(group, path):
    """`adjudicator --help` cut summaries mid-sentence ("Print law NUMBER of CODE (e.g.", "Interview
    about the incident in FILE, or about what..."): each is now its help's first paragraph, whole,
    one sentence ending with its full stop."""
    listed = _listed(run(*path, "--help").stdout)
    assert set(listed) == set(group.commands)
    for name, command in group.commands.items():
        assert listed[name] == _summary(command), name
        assert listed[name].endswith(".") and "..." not in listed[name] and listed[name].count(". ") == 0, name
        assert len(listed[name]) <= 64, f"{name}: a summary longer than the line it has"


def test_the_top_level_help_has_three_examples_a_ruling_a_law_a_quiz():
    out = run("--help").stdout
    examples = out.split("Examples:\n", 1)[1].split("\n\n")[0].splitlines()
    commands = [re.split(r"\s{2,}", line.strip())[0] for line in examples]
    assert [shlex.split(c)[1] for c in commands] == ["adjudicate", "law", "quiz"]
    assert all(len(line) <= 80 for line in out.splitlines())


def _examples(help_text: str) -> list[str]:
    """Every example of a help: the lines under "Examples:" (or "Example:"), each command line
    without what is said beside it (two spaces or more apart) or piped into it."""
    out = []
    for block in re.findall(r"Examples?:\n((?:    ?\S.*\n?)+)", help_text):
        for line in block.splitlines():
            command = re.split(r"\s{2,}", line.strip())[0]
            command = next(part.strip() for part in command.split("|") if part.strip().startswith("adjudicator"))
            out.append(command)
    return out


def _rest(ctx) -> list[str]:
    import warnings
    with warnings.catch_warnings():         # (click 8.2 to 9 moves a group's words from protected_args to args)
        warnings.simplefilter("ignore", DeprecationWarning)
        return [*ctx.protected_args, *ctx.args]


def _parses(words: list[str]) -> None:
    """The command line parsed as the command parses it (a UsageError if it is not one), not run."""
    ctx = main.make_context("adjudicator", words[1:])
    command, rest = main, _rest(ctx)
    while isinstance(command, click.Group) and rest and rest[0] in command.commands:
        name, command, rest = command.resolve_command(ctx, rest)
        ctx = command.make_context(name, rest, parent=ctx)
        rest = _rest(ctx) if isinstance(command, click.Group) else []


def test_an_example_that_is_no_command_line_is_found():
    for words in (["adjudicator", "law", "--bogus", "whist"], ["adjudicator", "law"], ["adjudicator", "quiz", "-n", "x"]):
        with pytest.raises(click.UsageError):
            _parses(words)


@pytest.mark.parametrize("path", [(), *(p for p, _ in COMMANDS)], ids=lambda p: " ".join(p) or "top")
def test_every_example_in_a_help_is_a_command_line_it_takes(path):
    examples = _examples(run(*path, "--help").stdout)
    if path in ((), ("adjudicate",), ("law",), ("search",), ("topic",), ("quiz",), ("ask",), ("compare",)):
        assert examples, path
    for example in examples:
        _parses(shlex.split(example))


def test_the_top_level_examples_run():
    assert run("law", "whist", "24").exit_code == 0
    r = run("quiz", "--code", "piquet", "-n", "5", "--seed", "1", "--json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)["questions"]) == 5
    assert {q["code"] for q in json.loads(r.stdout)["questions"]} == {"portland-club"}
    assert run("adjudicate", CASE).exit_code == 0


def test_law_with_a_code_and_no_number_lists_the_code_s_laws():
    """`law loo` said click's bare "Missing argument 'NUMBER'": it lists loo's laws now, section by
    section, each id beside its summary, as `law whist etiquette` lists a section's."""
    listed = api.laws("loo")
    r = run("law", "loo")
    assert r.exit_code == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert lines[0] == "loo -- Loo (Baxter-Wray, Round Games with Cards): 12 laws"
    ids = [m.group(1) for m in (re.match(r"  (\S+)", ln) for ln in lines) if m]
    assert ids == [x["id"] for x in listed["laws"]]
    for section in {x["section"] for x in listed["laws"]}:
        assert section in lines
    assert "`adjudicator law loo NUMBER` prints one in full." in lines
    assert json.loads(run("law", "loo", "--json").stdout) == listed
    piquet = run("law", "piquet").stdout
    assert piquet.startswith("portland-club -- ") and re.search(r"^  54 ", piquet, re.M)


def test_law_of_a_code_that_reads_another_book_or_cites_another_code_says_so():
    boston = run("law", "boston").stdout
    assert boston.startswith("american-1893 -- ") and "boston-1893 reads this book" in boston
    dummy = run("law", "dummy").stdout
    assert "its rulings cite the laws of english-1864 (`adjudicator law english-1864`)" in " ".join(dummy.split())
    assert [x["id"] for x in api.laws("dummy")["laws"]] == ["I", "II", "III"]


@pytest.mark.parametrize("args, said", [
    (["law"], "Missing argument 'CODE'. A code, or a game's name for its default code:"),
    (["adjudicate"], "Missing argument 'FILES...'. Give an incident: a YAML file saying what happened"),
    (["compare"], "Missing argument 'FILE'. Give an incident: a YAML file saying what happened"),
    (["search"], "Missing argument 'WORDS...'. Give a few plain words, e.g. `adjudicator search card dropped "
                 "on the floor`."),
])
def test_a_command_missing_its_argument_answers_with_what_it_could_be(args, said):
    r = run(*args)
    assert r.exit_code == 2 and said in r.stderr, r.stderr
    if args == ["law"]:
        from adjudicator.core import registry
        listed = " ".join(r.stderr.split("for its default code:", 1)[1].split())
        assert listed.startswith(", ".join(registry.games()) + ".")
    # under --json, one line of JSON too (the installed command: its console script prints it)
    r = subprocess.run([_exe(), *args, "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    data = json.loads(r.stdout)["error"]
    assert r.returncode == 2 and data["command"] == f"adjudicator {args[0]}" and "file" not in data
    assert " ".join(said.split()) in " ".join(data["message"].split())


# --- completion, as bash drives it --------------------------------------------------------------------
def _exe() -> str:
    exe = shutil.which("adjudicator") or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    if not os.path.exists(exe):
        pytest.skip("the adjudicator command is not installed")
    return exe


def complete(line: str) -> list[tuple[str, str]]:
    """What bash is given for TAB at the end of `line` (a trailing space: a new word): the program
    run again with the completion's variables, as the script `_ADJUDICATOR_COMPLETE=bash_source`
    prints runs it; each (type, value)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    r = subprocess.run([_exe()], capture_output=True, text=True, timeout=60, cwd=ROOT,
                       env={**os.environ, "_ADJUDICATOR_COMPLETE": "bash_complete",
                            "COMP_WORDS": line, "COMP_CWORD": str(cword)})
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return [tuple(x.split(",", 1)) for x in r.stdout.splitlines() if x]


def values(line: str) -> list[str]:
    return [v for t, v in complete(line) if t == "plain"]


def test_the_bash_script_drives_the_program_as_these_tests_do():
    r = subprocess.run([_exe()], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "_ADJUDICATOR_COMPLETE": "bash_source"})
    assert "_ADJUDICATOR_COMPLETE=bash_complete" in r.stdout and "COMP_CWORD" in r.stdout


def test_completion_offers_the_law_numbers_of_the_code_given():
    assert values("adjudicator law loo ") == [x["id"] for x in api.laws("loo")["laws"]]
    assert values("adjudicator law loo pla") == ["playing.1", "playing.2", "playing.3"]
    whist = values("adjudicator law whist 2")
    assert whist == ["2", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29"]
    assert values("adjudicator law american-1893 17.") == ["17.I", "17.II", "17.III", "17.IV", "17.V", "17.VI",
                                                           "17.boston-cayenne-solo-whist"]     # (an exception)
    assert "24.boston" in values("adjudicator law whist 24.b")
    assert values("adjudicator law piquet 5") == ["5"] + [str(n) for n in range(50, 60)]
    assert values("adjudicator law nosuchcode ") == []


def test_the_law_ids_completion_reads_are_the_laws_of_every_code(tmp_path, monkeypatch):
    """api.law_ids (kept in the cache folder, so that a TAB press reads no YAML) gives what
    api.laws gives, the ids alone, for every code and game; read back from the folder the same."""
    from adjudicator.core import registry
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path))
    for code in [c["code"] for c in registry.all_codes()] + registry.games():
        want = {x["id"]: x["clauses"] + x["exceptions"] for x in api.laws(code)["laws"]}
        assert api.law_ids(code) == want and list(api.law_ids(code)) == list(want), code
    assert any(name.startswith("law-ids-") for name in os.listdir(tmp_path))


def test_completion_offers_topics_and_the_quiz_s_filters():
    assert "revoke" in values("adjudicator topic rev")
    assert values("adjudicator topic revoke ") == []            # (a topic's name is complete in one word)
    assert set(values("adjudicator quiz --topic lead")) == {t for t in api.topic_names() if t.startswith("lead")}
    assert values("adjudicator quiz --code pi") == ["piquet"]
    assert values("adjudicator quiz --code port") == ["portland-club"]
    assert values("adjudicator quiz --code loo --law pla") == ["playing.1", "playing.2", "playing.3"]
    assert values("adjudicator quiz --kind w") == ["who"]


@pytest.mark.parametrize("line", ["adjudicator law ", "adjudicator law lo", "adjudicator law fr",
                                  "adjudicator search --code ", "adjudicator topic revoke --code ",
                                  "adjudicator compare x.yaml --codes american-1893,", "adjudicator quiz --code ",
                                  "adjudicator topic ", "adjudicator events ", "adjudicator law english-1864 ",
                                  "adjudicator "])
def test_each_candidate_is_offered_once(line):
    got = values(line)
    assert got and len(got) == len(set(got)), [v for v in got if got.count(v) > 1]


def test_the_quiz_s_code_completes_only_codes_with_questions(monkeypatch):
    """A code carried as texts only has no cases, so no questions (`quiz --code` refuses it)."""
    from adjudicator.core import registry
    encoded = registry.encoded
    monkeypatch.setattr(registry, "encoded", lambda code: code != "german-whist" and encoded(code))
    r = CliRunner().invoke(main, [], prog_name="adjudicator", env={
        "_ADJUDICATOR_COMPLETE": "bash_complete", "COMP_WORDS": "adjudicator quiz --code ger", "COMP_CWORD": "3"})
    assert r.output.strip() == ""
    r = CliRunner().invoke(main, [], prog_name="adjudicator", env={
        "_ADJUDICATOR_COMPLETE": "bash_complete", "COMP_WORDS": "adjudicator law ger", "COMP_CWORD": "2"})
    assert r.output.split() == ["plain,german-whist"]


def test_loo_and_french_boston_once_each():
    assert values("adjudicator law amer") == ["american-1893"]        # (codes and games both)
    assert values("adjudicator law lo") == ["loo"]
    assert values("adjudicator law french") == ["french-boston"]


def test_an_incident_file_completes_as_a_file():
    assert ("file", "cases/wh") in complete("adjudicator adjudicate cases/wh")
    assert ("file", "") in complete("adjudicator compare ")


# --- the small slips ------------------------------------------------------------------------------------
def test_one_case_is_one_case():
    assert run("check", CASE).stdout.endswith("1 passed, 0 failed, 1 case\n")
    two = run("check", CASE, CASE).stdout
    assert two.endswith("2 passed, 0 failed, 2 cases\n")


@pytest.mark.parametrize("args", [["law", "nope", "3"], ["law", "whist", "99"], ["search", "--code", "nope", "x"],
                                  ["topic", "nosuchtopic"], ["events", "nosuch"]])
def test_an_error_of_the_command_line_names_the_command_not_a_file(args):
    """`law nope 3 --json` gave "file": "adjudicator law": no file was named. The command is named
    under `command`; an incident's error still names its file."""
    r = run(*args, "--json")
    error = json.loads(r.stdout)["error"]
    assert r.exit_code == 2 and error["command"].startswith(f"adjudicator {args[0]}") and "file" not in error, error
    assert r.stderr.startswith(error["command"] + ": ")


def test_an_incident_s_error_still_names_its_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: whist\ndealer: Q\nevents: []\n")
    error = json.loads(run("adjudicate", "--json", str(bad)).stdout)["error"]
    assert error["file"] == str(bad) and error["line"] == 2 and "command" not in error


def test_an_incident_file_named_like_the_command_is_still_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adjudicator").write_text("game: whist\ndealer: Q\nevents: []\n")
    error = json.loads(run("adjudicate", "--json", "adjudicator").stdout)["error"]
    assert error["file"] == "adjudicator" and error["line"] == 2 and "command" not in error


def test_color_takes_three_values_and_refuses_others():
    r = run("--color", "sometimes", "codes")
    assert r.exit_code == 2 and "'sometimes' is not one of 'auto', 'always', 'never'" in r.stderr
    for value in ("auto", "always", "never"):
        assert run("--color", value, "codes").exit_code == 0
        assert run("codes", "--color", value).exit_code == 0
