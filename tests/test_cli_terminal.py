"""The command at a terminal and in a pipe (issue 46), run as a person and a script meet it: at a
terminal through a pseudo-terminal (pexpect), in a pipe and into a file through subprocess.

Colour on a terminal only, styling the text's form and never its words (the terminal's text, its
escapes taken out, is the pipe's byte for byte); none in a pipe, a file, under NO_COLOR, --color=never
or --json. The pager for output taller than the terminal, on a terminal only ($PAGER, LESS=FRX
when LESS is not set, --no-pager). A reader that stops reading ends the command quietly, as SIGPIPE
ends git; a full disk still says so, exit 1.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys

import click
import pexpect
import pytest

from .conftest import ROOT

CASE = os.path.join(ROOT, "cases", "whist", "american-1893",
                    "24-suit-call-only-by-the-adversary-on-the-right.yaml")
UNKNOWN = os.path.join(ROOT, "cases", "whist", "american-1893",
                       "unknown-35-39-whether-east-or-west-required-the-highest-decides-between-the-penalty-"
                       "and-none.yaml")
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
TALL = 1000             # rows of a terminal no output here fills: no pager


def _exe() -> str:
    exe = shutil.which("adjudicator") or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    if not os.path.exists(exe):
        pytest.skip("the adjudicator command is not installed")
    return exe


def _env(**given) -> dict:
    """The environment of a person at a colour terminal who set nothing: no NO_COLOR, PAGER or LESS
    of the machine's; then `given` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "PAGER", "LESS", "LINES")}
    env.update(TERM="xterm-256color", COLUMNS="80")
    for k, v in given.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def _terminal(args, rows=TALL, cols=80, **env) -> tuple[str, int]:
    """What a terminal shows for the command (standard output and error, as a person sees them;
    its line ends made plain) and its exit status."""
    child = pexpect.spawn(_exe(), list(args), env=_env(**env), dimensions=(rows, cols), encoding="utf-8",
                          timeout=120, cwd=ROOT)
    out = child.read()
    child.close()
    return out.replace("\r\n", "\n"), child.exitstatus


def _pipe(args, **env) -> subprocess.CompletedProcess:
    return subprocess.run([_exe(), *args], capture_output=True, text=True, env=_env(**env), cwd=ROOT,
                          stdin=subprocess.DEVNULL, timeout=120)


def _plain(text: str) -> str:
    return ESCAPE.sub("", text)


# Every command that prints text a person reads, short and long.
PRINTS = [["adjudicate", CASE], ["adjudicate", UNKNOWN], ["law", "whist", "24"], ["law", "whist", "17.II"],
          ["law", "dummy", "38"], ["law", "loo"], ["search", "revoke"], ["topic", "revoke"], ["topic"],
          ["compare", CASE, "--codes", "whist,english-1864"], ["codes"], ["remedies"], ["events"],
          ["events", "lead"], ["check", CASE]]


# --- colour: on a terminal, and only there ------------------------------------------------------------
@pytest.mark.parametrize("args", PRINTS, ids=lambda a: " ".join(os.path.basename(x) for x in a))
def test_at_a_terminal_the_output_is_coloured_and_its_words_are_the_pipes(args):
    shown, status = _terminal(args)
    piped = _pipe(args)
    assert status == piped.returncode == 0, shown[-500:]
    assert ESCAPE.search(shown), shown[:300]
    assert ESCAPE.search(piped.stdout) is None and "\x1b" not in piped.stdout + piped.stderr
    if args[0] == "search":         # (the hits highlighted in place of their stars: see below)
        assert _plain(shown).replace("*", "") == piped.stdout.replace("*", "")
    else:
        assert _plain(shown) == piped.stdout


def test_a_ruling_s_parts_are_styled_so_the_eye_finds_them():
    shown, _ = _terminal(["adjudicate", CASE])
    style = click.style
    assert style("1.", bold=True) + " " + style("If Brown (E) is the first of the side in fault to have the lead, "
                                                 "a suit may", bold=True) in shown         # the remedy
    assert style("[law 24]", fg="cyan") in shown                                            # its law
    assert style("May exact it:", bold=True, fg="green") + " Ames (N)." in shown            # who may
    assert style("May not:", bold=True, fg="red") + " Clark (S) --" in shown                # who may not
    assert "(" + style("39", fg="cyan") + ")." in shown                                     # the law of a reason
    assert style("Ruling under The Laws of Whist, American Whist League (1893):", bold=True) in shown  # the code
    assert style("Dodd (W) led out of turn to trick 3: it was Ames (N)'s lead (law 24). The", bold=True,
                 fg="yellow") in shown                                                      # the verdict, first
    assert style("In detail --", bold=True) in shown
    shown, _ = _terminal(["adjudicate", UNKNOWN])
    assert style("If it was Dodd (W):", bold=True) in shown                                 # a branch
    assert style("", bold=True, fg="yellow").split("\x1b[0m")[0] + "The ruling turns on a fact not known:" \
        in shown                                                                            # its verdict


def test_a_verdict_the_ruling_names_is_styled_wherever_its_words_stand():
    """The ruling's verdict (`summary`, written by the rules' side) is found in the text by its words,
    whatever line or label it stands under, and styled as the verdict."""
    from adjudicator import cli_style
    text = "Verdict: Dodd (W) led out of turn; a suit may be\n  called from Brown (E) or Dodd (W).\n\n1. A remedy. [law 24]\n"
    painted = cli_style.paint_ruling(text, {"summary": "Dodd (W) led out of turn; a suit may be called from "
                                                       "Brown (E) or Dodd (W)."})
    assert click.style("Verdict: Dodd (W) led out of turn; a suit may be", bold=True, fg="yellow") in painted
    assert click.style("called from Brown (E) or Dodd (W).", bold=True, fg="yellow") in painted
    assert _plain(painted) == text


def test_search_hits_are_highlighted_not_starred_at_a_terminal():
    shown, _ = _terminal(["search", "revoke", "--limit", "3"])
    assert click.style("revoke", bold=True, fg="red") in shown
    assert "*revoke*" not in shown and "*" not in _plain(shown).split("(")[0]
    piped = _pipe(["search", "revoke", "--limit", "3"]).stdout
    assert "*revoke*" in piped and "\x1b" not in piped        # plain text marks them as it always did


@pytest.mark.parametrize("how", [{"NO_COLOR": "1"}, {"TERM": "dumb"}, {"color": "never"}])
def test_no_color_dumb_terminal_and_color_never_give_plain_text_at_a_terminal(how):
    how = dict(how)
    flag = ["--color", how.pop("color")] if "color" in how else []
    for args in (["adjudicate", CASE], ["law", "whist", "24"], ["law", "whist", "99"]):
        shown, _ = _terminal([*flag, *args], **how)
        assert "\x1b[" not in shown.replace("\x1b[?1034h", ""), (args, shown[:200])
        assert _plain(shown).strip()


def test_color_on_the_command_as_well_as_before_it_and_always_in_a_pipe():
    always = _pipe(["adjudicate", CASE, "--color=always"])
    assert always.returncode == 0 and click.style("[law 24]", fg="cyan") in always.stdout
    assert _pipe(["--color", "always", "law", "whist", "24"]).stdout.count("\x1b[") > 5
    shown, _ = _terminal(["law", "whist", "24", "--color", "never"])
    assert "\x1b[" not in shown
    # NO_COLOR is the default's to follow: a --color given decides over it
    assert ESCAPE.search(_pipe(["--color=always", "codes"], NO_COLOR="1").stdout)


@pytest.mark.parametrize("args", [["adjudicate", "--json", CASE], ["law", "whist", "24", "--json"], ["law", "loo", "--json"],
                                  ["search", "revoke", "--json"], ["topic", "revoke", "--json"], ["codes", "--json"],
                                  ["compare", CASE, "--json"], ["check", "--json", CASE], ["events", "lead", "--json"],
                                  ["law", "nope", "3", "--json"]])
def test_json_never_holds_an_escape_even_at_a_terminal_with_color_always(args):
    for shown in (_terminal(["--color=always", *args])[0], _pipe(["--color=always", *args]).stdout):
        body = shown[re.search(r"^[{\[]", shown, re.M).start():]           # (after an error's message)
        json.loads(body)
        assert "\x1b" not in body, body[:300]


def test_output_into_a_file_holds_no_escape(tmp_path):
    for i, args in enumerate(PRINTS):
        target = tmp_path / f"out{i}.txt"
        with open(target, "w") as fh:
            r = subprocess.run([_exe(), *args], stdout=fh, stderr=subprocess.PIPE, env=_env(), cwd=ROOT,
                               stdin=subprocess.DEVNULL, timeout=120)
        assert r.returncode == 0 and target.stat().st_size and b"\x1b" not in target.read_bytes(), args


def test_an_error_at_a_terminal_is_styled_on_standard_error_and_plain_in_a_pipe():
    shown, status = _terminal(["law", "whist", "99"])
    assert status == 2 and click.style("hint:", bold=True, fg="cyan") in shown
    assert click.style("adjudicator law", bold=True) + ": american-1893 has no law '99'" in shown
    piped = _pipe(["law", "whist", "99"])
    assert piped.returncode == 2 and piped.stderr.startswith("adjudicator law: american-1893 has no law '99'\n  hint: ")
    shown, status = _terminal(["law"])
    assert status == 2 and click.style("Error:", bold=True, fg="red") + " Missing argument 'CODE'." in shown
    assert "\x1b" not in _pipe(["law"]).stderr


def _right_and_wrong(q) -> tuple[str, str]:
    from adjudicator.core import registry
    from adjudicator.study import quiz
    if q.options:           # (one letter, or several where the question asks for every law: "bdf")
        import itertools
        letters = [quiz.LETTERS[i] for i in range(len(q.options))]
        answers = ("".join(c) for n in range(1, len(letters) + 1) for c in itertools.combinations(letters, n))
        return (next(x for x in answers if quiz.grade(q, x).right), next(x for x in letters if not quiz.grade(q, x).right))
    seats = list(registry.table(q.game).seats)
    right = next(a for a in (", ".join(q.answer) or "nobody", " and ".join(q.answer)) if quiz.grade(q, a).right)
    return right, ", ".join(seats) if sorted(q.answer) != sorted(seats) else "nobody"


def test_the_quiz_at_a_terminal_marks_a_right_and_a_wrong_answer(tmp_path):
    from adjudicator.study import quiz
    qs = quiz.draw(2, seed=5)
    child = pexpect.spawn(_exe(), ["quiz", "-n", "2", "--seed", "5"], env=_env(ADJUDICATOR_DATA_DIR=str(tmp_path)),
                          dimensions=(TALL, 100), encoding="utf-8", timeout=120, cwd=ROOT)
    child.expect_exact(click.style("Question 1 of 2", bold=True))
    child.expect_exact("> ")
    child.sendline(_right_and_wrong(qs[0])[0])
    child.expect_exact(click.style(f"Right: {qs[0].answer_text}.", fg="green"))
    child.expect_exact("How well did you know it?")         # (at a terminal a right answer is graded)
    child.expect_exact("> ")
    child.sendline("")
    child.expect_exact(click.style("Question 2 of 2", bold=True))
    child.expect_exact("> ")
    child.sendline(_right_and_wrong(qs[1])[1])
    child.expect_exact(click.style(f"Wrong. The answer: {qs[1].answer_text}.", bold=True, fg="red"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# --- the pager -------------------------------------------------------------------------------------------
def _fake_pager(folder, name="less") -> tuple[str, str]:
    """A pager that keeps what it was given, and LESS as it saw it, in a file, and shows nothing."""
    kept = os.path.join(folder, "paged.txt")
    path = os.path.join(folder, name)
    with open(path, "w") as fh:
        fh.write(f'#!/bin/sh\n{{ printf "LESS=%s\\n" "$LESS"; cat; }} > "{kept}"\n')
    os.chmod(path, 0o755)
    return path, kept


def test_long_output_at_a_terminal_goes_through_the_pager_with_less_s_settings(tmp_path):
    pager, kept = _fake_pager(str(tmp_path))
    shown, status = _terminal(["law", "whist", "24"], rows=10, PAGER=pager)
    assert status == 0 and "If any player leads out of turn" not in shown      # the pager showed it, not we
    paged = open(kept, encoding="utf-8").read()
    assert paged.startswith("LESS=FRX\n")        # as git: quit if it fits, colours shown, left on the screen
    assert click.style("In short:", bold=True) in paged                       # in colour: less -R shows it
    assert _plain(paged[len("LESS=FRX\n"):]) == _pipe(["law", "whist", "24"]).stdout


def test_the_pager_follows_the_user_s_less_and_pager(tmp_path):
    pager, kept = _fake_pager(str(tmp_path))
    _terminal(["law", "whist", "24"], rows=10, PAGER=pager, LESS="-S")     # no -R: colours would show as codes
    paged = open(kept, encoding="utf-8").read()
    assert paged.startswith("LESS=-S\n") and "\x1b" not in paged and "In short:" in paged
    _terminal(["law", "whist", "24"], rows=10, PAGER=pager, LESS="-SR")
    assert "\x1b[" in open(kept, encoding="utf-8").read()
    other, kept_other = _fake_pager(str(tmp_path / ".."), name="mypager")
    _terminal(["adjudicate", CASE], rows=10, PAGER=f"{other} --some-flag")  # any pager: its own settings
    paged = open(kept_other, encoding="utf-8").read()
    assert paged.startswith("LESS=\n") and "\x1b[" in paged and "May exact it:" in _plain(paged)


@pytest.mark.parametrize("how", ["--no-pager", "PAGER=", "short", "pipe", "stdin"])
def test_no_pager_when_asked_not_when_it_fits_and_never_in_a_pipe(tmp_path, how):
    pager, kept = _fake_pager(str(tmp_path))
    if how == "pipe":
        r = _pipe(["law", "whist", "24"], PAGER=pager, LINES="10")
        assert r.returncode == 0 and "If any player leads out of turn" in r.stdout
    elif how == "stdin":        # standard input not a terminal: no pager (it reads its keys there)
        child = pexpect.spawn("sh", ["-c", f'exec "{_exe()}" law whist 24 </dev/null'], env=_env(PAGER=pager),
                              dimensions=(10, 80), encoding="utf-8", timeout=120, cwd=ROOT)
        shown = child.read()
        child.close()
        assert "If any player leads out of turn" in shown
    else:
        args = {"--no-pager": ["law", "whist", "24", "--no-pager"], "PAGER=": ["law", "whist", "24"],
                "short": ["law", "whist", "1"]}[how]
        shown, status = _terminal(args, rows=10 if how != "short" else 60,
                                  PAGER="" if how == "PAGER=" else pager)
        assert status == 0 and _plain(shown) == _pipe(args).stdout
    assert not os.path.exists(kept)


def test_no_pager_before_the_command_too(tmp_path):
    pager, kept = _fake_pager(str(tmp_path))
    shown, status = _terminal(["--no-pager", "topic", "revoke"], rows=10, PAGER=pager)
    assert status == 0 and not os.path.exists(kept) and "american-1893" in shown


@pytest.mark.skipif(shutil.which("less") is None, reason="no less on this machine")
def test_less_itself_pages_a_long_ruling_and_q_leaves_it():
    child = pexpect.spawn(_exe(), ["adjudicate", UNKNOWN], env=_env(), dimensions=(12, 80), encoding="utf-8",
                          timeout=120, cwd=ROOT)
    child.expect_exact("What happened:")
    child.expect(r"\n:")                 # less's prompt at the foot of a full screen: it waits for a key
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# --- pipes -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["law", "whist", "24"], ["law", "english-1864"], ["adjudicate", CASE],
                                  ["remedies"], ["--help"]])
def test_a_reader_that_stops_reading_ends_the_command_quietly_as_sigpipe_ends_git(args):
    """`adjudicator ... | head -c0` in bash with pipefail: the status is 141 (128 + SIGPIPE), as
    `git log | head -c0` gives, and nothing is said on standard error."""
    exe = " ".join(f"'{a}'" for a in [_exe(), *args])
    r = subprocess.run(["bash", "-c", f"set -o pipefail; {exe} | head -c0"], capture_output=True, text=True,
                       env=_env(), timeout=120, cwd=ROOT)
    assert r.returncode == 128 + signal.SIGPIPE and r.stderr == "", (r.returncode, r.stderr)


def test_a_reader_that_reads_a_few_lines_of_a_long_output_and_stops():
    files = sorted(os.path.join(os.path.dirname(CASE), f) for f in os.listdir(os.path.dirname(CASE)))[:80]
    r = subprocess.run(["bash", "-c", 'set -o pipefail; "$0" adjudicate "$@" | head -n 3', _exe(), *files],
                       capture_output=True, text=True, env=_env(), timeout=300, cwd=ROOT)
    assert r.returncode == 128 + signal.SIGPIPE, (r.returncode, r.stderr[-500:])
    assert len(r.stdout.splitlines()) == 3 and "could not be written" not in r.stderr and "Traceback" not in r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["law", "loo"], ["search", "revoke"], ["adjudicate", CASE]])
def test_a_full_disk_still_says_the_output_could_not_be_written_exit_1(args):
    with open("/dev/full", "w") as full:
        r = subprocess.run([_exe(), *args], stdout=full, stderr=subprocess.PIPE, text=True, env=_env(),
                           timeout=120, cwd=ROOT)
    assert r.returncode == 1
    assert r.stderr.endswith("adjudicator: the output could not be written (no space left on device); "
                             "nothing is complete\n"), r.stderr


def test_many_rulings_stream_into_the_pager_and_an_error_among_them_is_said_after_it(tmp_path):
    """`adjudicate` on many files at a terminal: the rulings are held until they fill the screen,
    then the pager starts and the rest streams into it as each is ruled; a file refused meanwhile is
    said on standard error once the pager has left the terminal, not across its screen."""
    pager, kept = _fake_pager(str(tmp_path))
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: whist\ndealer: Q\nevents: []\n")
    shown, status = _terminal(["adjudicate", CASE, CASE, str(bad), UNKNOWN], rows=10, PAGER=pager)
    assert status == 2
    paged = _plain(open(kept, encoding="utf-8").read())
    piped = _pipe(["adjudicate", CASE, CASE, str(bad), UNKNOWN])
    assert paged == "LESS=FRX\n" + piped.stdout                 # every ruling, in order, through the pager
    assert _plain(shown).strip() == piped.stderr.strip()          # and the refusal, after it
    assert f"{bad}:2:9: dealer: 'Q' is not a seat" in _plain(shown)
