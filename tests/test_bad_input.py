"""Every incident in tests/bad_input/ gives exactly the message and exit code beside it.

NAME.yaml is the incident; NAME.expected holds `exit N` and then the exact standard error. Each is
run as a file, with --json, and on standard input; none may print a traceback.
"""
import glob
import json
import os
import re

import pytest
from click.testing import CliRunner

from adjudicator.cli import main

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad_input")
NAMES = sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".yaml"))


def expected(name):
    with open(os.path.join(HERE, name + ".expected"), encoding="utf-8") as fh:
        first, _, rest = fh.read().partition("\n")
    m = re.fullmatch(r"exit (\d)", first)
    assert m, f"{name}.expected: the first line must be `exit N`, not {first!r}"
    return int(m.group(1)), rest


def run(args, monkeypatch, input=None):
    monkeypatch.chdir(HERE)
    return CliRunner().invoke(main, args, input=input)


def test_every_case_has_its_expectation_and_no_expectation_is_orphaned():
    exp = sorted(f[:-9] for f in os.listdir(HERE) if f.endswith(".expected"))
    assert exp == NAMES
    assert len(NAMES) >= 40


@pytest.mark.parametrize("name", NAMES)
def test_the_exact_message_and_exit_code(name, monkeypatch):
    code, err = expected(name)
    r = run(["adjudicate", name + ".yaml"], monkeypatch)
    assert (r.exit_code, r.stderr) == (code, err)
    assert r.stdout == ""
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("name", NAMES)
def test_json_gives_the_same_error_as_data(name, monkeypatch):
    code, err = expected(name)
    r = run(["adjudicate", "--json", name + ".yaml"], monkeypatch)
    assert r.exit_code == code and r.stderr == err
    data = json.loads(r.stdout)["error"]
    assert data["exit_code"] == code and data["file"] == name + ".yaml"
    head = err.splitlines()[0]
    if "problems" in data:  # a contradiction: each problem as a line of the message
        assert [f"  - {p}" for p in data["problems"]] == err.splitlines()[1:-1]
    else:
        where = f"{name}.yaml" + "".join(f":{data[k]}" for k in ("line", "column") if k in data)
        assert head == f"{where}: {data['message']}"
        assert ("hint" in data) == ("  hint: " in err)


@pytest.mark.parametrize("name", NAMES)
def test_standard_input_gives_the_same_message(name, monkeypatch):
    code, err = expected(name)
    with open(os.path.join(HERE, name + ".yaml"), "rb") as fh:
        data = fh.read()
    r = run(["adjudicate", "-"], monkeypatch, input=data)
    assert (r.exit_code, r.stderr) == (code, err.replace(name + ".yaml", "<stdin>"))


def test_every_refusal_of_bad_input_says_what_to_do():
    """A refusal of a malformed file (`FILE:LINE:COLUMN: problem`) carries a `hint:` line with the
    fix; a contradiction says instead to correct the account."""
    for expected in sorted(glob.glob(os.path.join(HERE, "*.expected"))):
        with open(expected, encoding="utf-8") as fh:
            text = fh.read()
        if "cannot have happened as described" in text:
            continue
        assert "\n  hint: " in text, f"{os.path.basename(expected)} gives no hint"
