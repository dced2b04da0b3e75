"""The web page's JSON API answers exactly as the command line does with --json.

The same bytes go to `adjudicator adjudicate - --json` (click's runner, in this process) and to
POST /api/adjudicate (Starlette's test client): the JSON must be equal, refusals included, and a
refusal (exit 2) must be an HTTP 4xx carrying the command's error. Likewise compare, law, search.
"""
from __future__ import annotations

import glob
import json
import os
import warnings

import pytest
from click.testing import CliRunner

from adjudicator.cli import main

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from adjudicator.web import create_app

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True))
# every eighth case, the first case of each code's folder (so that every game and code appears,
# whatever the count of cases), every case with facts not known, every bad input
_FIRST_OF_EACH_CODE = [next(c for c in CASES if os.path.dirname(c) == d)
                       for d in sorted({os.path.dirname(c) for c in CASES})]
SAMPLE = sorted(set(CASES[::8]) | set(_FIRST_OF_EACH_CODE)
                | {c for c in CASES if os.path.basename(c).startswith("unknown-")})
BAD = sorted(glob.glob(os.path.join(ROOT, "tests", "bad_input", "*.yaml")))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The app in this process; the quiz's progress in a folder of the module's own."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path_factory.mktemp("web-data")))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            test_client = TestClient(create_app(), raise_server_exceptions=False)
        with test_client:       # (one event loop for the module's requests, not one started for each)
            yield test_client


LAST: dict = {}


def cli(*args, stdin: bytes | None = None):
    """The command's exit code and its --json parsed; its standard output byte for byte is kept
    for `printed()`."""
    r = CliRunner().invoke(main, [*args, "--json"], input=stdin)
    LAST["stdout"] = r.stdout_bytes
    return r.exit_code, json.loads(r.stdout)


def printed() -> bytes:
    """What the last command run printed on standard output, byte for byte."""
    return LAST["stdout"]


def rel(path: str) -> str:
    return os.path.relpath(path, ROOT)


def test_the_sample_covers_every_kind_of_case():
    assert len(SAMPLE) >= 60
    assert {rel(c).split(os.sep)[1] for c in SAMPLE} == {rel(c).split(os.sep)[1] for c in CASES} >= {
        "whist", "dummy", "double-dummy", "piquet", "loo", "poker", "boston", "german-whist"}
    assert any("unknown-" in c for c in SAMPLE)
    assert len(BAD) >= 50


@pytest.mark.parametrize("path", SAMPLE, ids=rel)
def test_adjudicate_is_the_commands_json(client, path):
    data = open(path, "rb").read()
    code, expected = cli("adjudicate", "-", stdin=data)
    r = client.post("/api/adjudicate", content=data, headers={"content-type": "application/yaml"})
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == expected
    assert r.content == printed()        # the very bytes: one JSON line
    assert (r.status_code == 200) == (code == 0)
    if code == 2:
        assert r.status_code == 400


@pytest.mark.parametrize("path", BAD, ids=rel)
def test_a_bad_incident_is_refused_as_the_command_refuses_it(client, path):
    data = open(path, "rb").read()
    code, expected = cli("adjudicate", "-", stdin=data)
    r = client.post("/api/adjudicate", content=data)
    assert code == 2
    assert r.status_code in (400, 413), r.text
    assert r.json() == expected
    assert r.content == printed()
    assert r.json()["error"]["exit_code"] == 2


@pytest.mark.parametrize("path", SAMPLE[:: 4], ids=rel)
def test_compare_is_the_commands_json(client, path):
    data = open(path, "rb").read()
    code, expected = cli("compare", "-", stdin=data)
    r = client.post("/api/compare", content=data)
    assert r.json() == expected
    assert r.content == printed()
    assert (r.status_code == 200) == (code == 0)


def test_compare_with_codes_named(client):
    data = open(SAMPLE[0], "rb").read()
    for codes in ("american-1893,english-1864", "whist,english-1864", "piquet", "nonsense",
                  "", ","):       # (`?codes=` is `--codes ''`: the API gave every code's comparison)
        code, expected = cli("compare", "-", "--codes", codes, stdin=data)
        r = client.post("/api/compare", params={"codes": codes}, content=data)
        assert r.json() == expected, codes
        assert (r.status_code == 200) == (code == 0), codes
        if code == 2:
            assert r.status_code == 400


LAWS = [("american-1893", "24"), ("whist", "24"), ("american-1893", "17.ii"), ("english-1864", "56"),
        ("dummy", "I"), ("piquet", "54"), ("poker", "8"), ("american-1893", "24.boston"),
        ("american-1893", "999"), ("nonsense", "1"), ("english-1864", "17.XX")]


@pytest.mark.parametrize("code,number", LAWS)
def test_law_is_the_commands_json(client, code, number):
    rc, expected = cli("law", code, number)
    r = client.get(f"/api/law/{code}/{number}")
    assert r.json() == expected
    assert r.content == printed()
    assert (r.status_code == 200) == (rc == 0)
    if rc == 2:
        assert r.status_code == 400


def test_a_code_without_a_law_number_is_answered_in_json_as_the_command_answers_it(client):
    """GET /api/law/CODE (no number) was redirected (307, an empty body) to /api/law/CODE/; it is
    answered as `law CODE ''` is, saying how the code's laws are numbered; the page likewise."""
    rc, expected = cli("law", "whist", "")
    assert rc == 2 and "no law of american-1893 is named" in expected["error"]["message"]
    r = client.get("/api/law/whist", follow_redirects=False)
    assert r.status_code == 400 and r.json() == expected
    page = client.get("/law/whist", follow_redirects=False)
    assert page.status_code == 400 and "no law of american-1893 is named" in page.text


SEARCHES = [("card dropped on the floor", None), ("lead out of turn", "english-1864"),
            ("revoking", "whist"), ("honours", None), ("the of and", None), ("revoke", "nonsense"),
            ("revoke", ""), ("revoke", " "),        # (`--code ''` and `&code=` searched every code)
            ("revoke", "boston"), ("revoke", "solo-whist")]     # (games reading the American book: the
# command found their laws, the page said "code 'boston-1893' has no law texts")


@pytest.mark.parametrize("words,code", SEARCHES)
def test_search_is_the_commands_json(client, words, code):
    args = ["search", *words.split()] + (["--code", code] if code is not None else [])
    cli(*args)                  # the index is built by then, so neither says it built it
    rc, expected = cli(*args)
    r = client.get("/api/search", params={"q": words, **({"code": code} if code is not None else {})})
    if code is not None and not code.strip():
        assert rc == 2 and r.status_code == 400
    assert r.json() == expected
    assert r.content == printed()
    assert (r.status_code == 200) == (rc == 0)


def test_topic_and_codes_are_the_commands_json(client):
    for args, url in ((["topic", "revoke"], "/api/topic/revoke"), (["topic"], "/api/topic"),
                      (["codes"], "/api/codes")):
        rc, expected = cli(*args)
        assert client.get(url).json() == expected, url


@pytest.mark.parametrize("limit", ["abc", "-3", "1e3", "\u0661", "0", "501"])
def test_a_search_limit_that_is_not_a_number_is_refused_with_what_was_given(client, limit):
    r = client.get("/api/search", params={"q": "revoke", "limit": limit})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["message"].startswith(f"limit is '{limit}'") and "from 1 to 500" in err["hint"]
    assert "--limit" not in r.text and err["file"] == "/api/search"     # the API's words, not the command's


@pytest.mark.parametrize("limit", ["1", "500"])
def test_a_search_limit_at_either_end_is_taken(client, limit):
    r = client.get("/api/search", params={"q": "revoke", "limit": limit})
    assert r.status_code == 200


def test_a_long_search_limit_is_quoted_short_and_escaped(client):
    r = client.get("/api/search", params={"q": "revoke", "limit": "\x1b[2J" + "9" * 300})
    assert r.status_code == 400
    message = r.json()["error"]["message"]
    assert "\x1b" not in message and "\\x1b[2J" in message and len(message) < 120
