"""The public API (adjudicator/api.py, docs/api.md): the functions the command and the web page call.

The command's `--json` and text are the API's `as_dict()` and `text()`; these tests hold the API to
that from the outside (the command run as a program), and run docs/api.md's examples as written.
"""
from __future__ import annotations

import doctest
import json
import os
import pickle
import subprocess
import sys

import pytest

import adjudicator
from adjudicator.lookup import laws

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = laws.cases_dir() or os.path.join(ROOT, "cases")
LEAD = os.path.join(CASES, "whist", "american-1893", "24-suit-call-only-by-the-adversary-on-the-right.yaml")


def _all_cases() -> list[str]:
    return adjudicator.find_cases([CASES])


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    exe = os.path.join(os.path.dirname(sys.executable), "adjudicator")
    return subprocess.run([exe, *args], input=stdin, capture_output=True, timeout=600)


def test_the_api_page_runs_as_written():
    """docs/api.md's examples, run as a doctest: the page a newcomer copies from is the truth."""
    failed, tried = doctest.testfile(os.path.join(ROOT, "docs", "api.md"), module_relative=False,
                                     globs={"CASES": CASES}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 20 and failed == 0


def test_adjudicate_is_the_commands_json_and_text_on_bundled_cases():
    """adjudicate() on each of a twelfth of the bundled cases (each ruled alone; every game and
    code among them) equals the command's --json and text for it (the command rules them together,
    in batches; tests/test_batch.py holds every case's batched ruling to its lone one)."""
    files = _all_cases()[::12]
    got = _cli("adjudicate", "--json", *files)
    lines = got.stdout.decode().splitlines()
    assert len(lines) == len(files)
    for path, line in zip(files, lines):
        try:
            mine = adjudicator.adjudicate(adjudicator.AsGiven(path)).as_dict()
        except adjudicator.AdjudicatorError as e:
            mine = adjudicator.errors.error_json(e)
        assert json.loads(line) == mine, path
    for path in files[::8]:
        text = _cli("adjudicate", path).stdout.decode()
        try:
            assert adjudicator.adjudicate(adjudicator.AsGiven(path)).text() == text, path
        except adjudicator.AdjudicatorError:
            assert text == ""


def test_text_bytes_a_path_and_a_mapping_are_one_incident():
    import yaml
    text = open(LEAD, encoding="utf-8").read()
    by_path = adjudicator.adjudicate(LEAD).as_dict()
    for source in (text, text.encode(), yaml.safe_load(text)):
        other = adjudicator.adjudicate(source).as_dict()
        assert other.pop("file") == "<incident>"
        assert other == {k: v for k, v in by_path.items() if k != "file"}
    assert adjudicator.adjudicate(text, name="table 4").file == "table 4"


def test_a_code_given_rules_as_the_account_naming_it_does():
    text = open(LEAD, encoding="utf-8").read()
    named = adjudicator.adjudicate(text.replace("game: whist", "game: whist\ncode: english-1864"))
    given = adjudicator.adjudicate(text, code="english-1864")
    assert given.code == "english-1864"
    assert given.as_dict()["rulings"] == named.as_dict()["rulings"]


def test_bad_input_raises_the_commands_error_with_its_place():
    text = open(LEAD, encoding="utf-8").read().replace("card: KS", "card: KX")
    with pytest.raises(adjudicator.InputError) as e:
        adjudicator.adjudicate(text)
    said = _cli("adjudicate", "-", stdin=text.encode()).stderr.decode()
    assert (e.value.line, e.value.column) == (said.split(":")[1:3] and tuple(int(x) for x in said.split(":")[1:3]))
    assert e.value.message in said
    with pytest.raises(adjudicator.InputError, match="no such file"):
        adjudicator.adjudicate("no/such/incident.yaml")
    with pytest.raises(TypeError):
        adjudicator.adjudicate(42)


def test_a_ruling_and_an_error_travel_between_processes_whole():
    """What a worker process gives back (`--jobs`, the server's workers): pickled, the same."""
    ruling = adjudicator.adjudicate(LEAD)
    again = pickle.loads(pickle.dumps(ruling))
    assert again.as_dict() == ruling.as_dict() and again.text() == ruling.text()
    try:
        adjudicator.adjudicate(open(LEAD).read().replace("card: KS", "card: KX"))
    except adjudicator.InputError as err:
        back = pickle.loads(pickle.dumps(err))
        assert (str(back), back.line, back.column, back.hint) == (str(err), err.line, err.column, err.hint)


def test_many_files_in_order_each_as_ruled_alone_and_errors_in_their_place(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: whist\nevents: [1]\n")
    files = [LEAD, str(bad), LEAD]
    got = list(adjudicator.adjudicate_files(files))
    assert [type(g).__name__ for g in got] == ["Ruling", "InputError", "Ruling"]
    assert got[0].as_dict() == adjudicator.adjudicate(LEAD).as_dict()
    assert [g.as_dict() for g in adjudicator.adjudicate_files(files, jobs=2) if not isinstance(g, Exception)] \
        == [got[0].as_dict(), got[2].as_dict()]


def test_importing_the_package_loads_no_engine():
    """`import adjudicator` (and the command's --help and TAB completion) stays cheap: clingo and
    PyYAML load when a function first needs them."""
    out = subprocess.run([sys.executable, "-c", "import sys, adjudicator, adjudicator.cli; "
                          "print(sorted(m for m in ('clingo', 'yaml') if m in sys.modules))"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
