"""The web page left running in a club: hostile requests are refused cleanly.

Huge bodies (over the command line's standard-input limit), names that look like paths, HTML and
script in players' names and in the incident, answers and question ids that were never offered,
a slow incident stopped at the engine's time limit: each gets a clear refusal (HTTP 4xx/503, the
command's error), never a traceback, never a file of the server read, never markup injected.
"""
from __future__ import annotations

import html
import os
import re
import warnings

import pytest

from adjudicator.core import engine
from adjudicator.core.incident import MAX_BYTES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from adjudicator.web import create_app, examples
from adjudicator.web.service import quiz_token

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD = examples.get("lead-out-of-turn")
CASE_REL = "whist/american-1893/24-suit-call-only-by-the-adversary-on-the-right.yaml"


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


def form(text: str) -> dict:
    return {"incident": (None, text)}


# --- sizes: the command line's limit, a boundary pair -------------------------------------------

def test_an_api_body_of_exactly_the_limit_is_read(client):
    body = b"# a comment\n" * (MAX_BYTES // 12) + b"#" * (MAX_BYTES % 12)
    assert len(body) == MAX_BYTES
    r = client.post("/api/adjudicate", content=body)
    assert r.status_code == 400                 # read, and refused for what it says (nothing)
    assert "over" not in r.json()["error"]["message"]


def test_an_api_body_one_byte_over_the_limit_is_refused_as_the_command_refuses_it(client):
    r = client.post("/api/adjudicate", content=b"#" * (MAX_BYTES + 1))
    assert r.status_code == 413
    err = r.json()["error"]
    assert err["message"] == f"the input is over {MAX_BYTES:,} bytes; an incident is at most {MAX_BYTES:,}"
    assert err["exit_code"] == 2 and err["file"] == "<stdin>" and err["hint"]


def test_a_huge_body_is_refused_before_it_is_read(client):
    r = client.post("/api/adjudicate", content=b"x" * (8 * MAX_BYTES))
    assert r.status_code == 413
    r = client.post("/api/adjudicate", content=b"x", headers={"content-length": "99999999999"})
    assert r.status_code in (400, 413)      # the client refuses to send a lie, or the server refuses it


def test_a_huge_form_is_refused_with_a_page(client):
    r = client.post("/rule", files=form("#" * (2 * MAX_BYTES)))
    assert r.status_code == 413
    assert "an incident is at most 1,000,000" in r.text
    assert r.headers["content-type"].startswith("text/html")


def test_a_pasted_incident_over_the_limit_is_refused_as_the_command_refuses_it(client):
    # inside the form's envelope, over the incident's own limit: the command's words
    r = client.post("/rule", files=form("#" * (MAX_BYTES + 10)))
    assert r.status_code == 413
    assert f"the input is over {MAX_BYTES:,} bytes" in r.text


# --- paths: no file is ever read from a request's word --------------------------------------------

@pytest.mark.parametrize("url", [
    "/api/law/..%2F..%2F..%2Fetc%2Fpasswd/1", "/api/law/american-1893/..%2F..%2Fcodes.yaml",
    "/api/law/%2Fetc%2Fpasswd/24", "/law/..%2Fcodes/24", "/api/topic/..%2F..%2Fetc%2Fpasswd",
    "/static/..%2F..%2Fcli.py", "/static/../app.py", "/api/search?q=x&code=../../etc/passwd",
])
def test_path_like_names_are_refused(client, url):
    r = client.get(url)
    assert 400 <= r.status_code < 500, (url, r.status_code)
    assert "root:" not in r.text and "def " not in r.text and "import" not in r.text


def test_an_example_is_only_one_of_the_page_s_own(client):
    r = client.get("/", params={"example": "../../../etc/passwd"})
    assert r.status_code == 404 and "root:" not in r.text
    assert "there is no example" in r.text and "lead-out-of-turn" in r.text     # the examples named
    r = client.get("/", params={"example": "lead-out-of-turn"})
    assert "KS" in r.text


@pytest.mark.parametrize("url, status, said", [
    ("/quiz?seed=abc", 400, "is not a question"),
    ("/quiz?seed=-", 400, "is not a question"),
    ("/quiz?seed=--5", 400, "is not a question"),
    ("/download", 405, "GET is not how /download is used"),
])
def test_a_request_the_page_cannot_answer_is_refused_saying_why(client, url, status, said):
    r = client.get(url)
    assert r.status_code == status and said in r.text.replace("&#39;", "'")


def test_a_negative_seed_draws_what_the_command_draws_with_it(client):
    """`/quiz?seed=S` draws what `quiz -n 1 --seed S` draws: a negative S too (it was refused)."""
    from adjudicator.study import quiz
    r = client.get("/quiz", params={"seed": "-5"})
    assert r.status_code == 200
    q = quiz.draw(1, seed=-5)[0]
    assert quiz_token(q.qid) in r.text


def test_an_empty_incident_is_not_downloaded(client):
    r = client.post("/download", data={"incident": ""})
    assert r.status_code == 400 and "there is nothing to download" in r.text


def test_an_uploaded_file_s_name_is_never_used(client):
    r = client.post("/rule", files={"upload": ("../../../etc/passwd", GOOD.encode(), "text/yaml")})
    assert r.status_code == 200
    assert "passwd" not in r.text
    assert "a suit may be called" in r.text


@pytest.mark.parametrize("qid", ["../../../../etc/passwd#remedy", "/etc/passwd#remedy", "nonsense",
                                 quiz_token("whist/american-1893/nonexistent.yaml#remedy"),
                                 quiz_token(CASE_REL + "#../../../etc/passwd"),
                                 "whist/american-1893/../../../pyproject.toml#remedy", ""])
def test_a_quiz_question_id_outside_the_bank_is_refused(client, qid):
    r = client.post("/quiz", data={"qid": qid, "answer": "a"})
    assert r.status_code == 400
    assert "no such question" in r.text
    assert "root:" not in r.text and "[project]" not in r.text


def test_a_long_quiz_answer_is_quoted_short_as_the_terminal_quotes_it(client):
    from adjudicator.study import quiz
    q = quiz.draw(1, seed=2)[0]
    r = client.post("/quiz", data={"qid": quiz_token(q.qid), "answer": "w" * 200_000})
    assert r.status_code == 400
    assert "w" * quiz.QUOTE + "...&#39; as an answer (it is longer than" in r.text
    assert "w" * (quiz.QUOTE + 1) not in r.text


@pytest.mark.parametrize("damage", ["UPDATE answers SET topics='not json'", "UPDATE cards SET card='{bad'"])
@pytest.mark.parametrize("url", ["/quiz/stats", "/quiz?seed=5", "/quiz?review=1"])
def test_a_progress_file_with_a_row_it_cannot_read_is_kept_aside_by_the_web_quiz_as_by_the_command(
        client, tmp_path, monkeypatch, damage, url):
    import sqlite3

    from adjudicator.study import progress, quiz
    from adjudicator.web import service
    monkeypatch.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path))
    client.get("/quiz/stats")           # (the page's progress is this browser's own: its file)
    path = progress.person_path(service._kept_as(client.cookies[service.COOKIE]))
    store = progress.Store(path)
    store.record(quiz.draw(1, seed=5)[0], False, "a")
    store.close()
    db = sqlite3.connect(path)
    db.execute(damage)
    db.commit()
    db.close()
    r = client.get(url)
    assert r.status_code == 200, r.text
    assert "was damaged" in r.text and "kept as" in r.text
    assert len([p for p in os.listdir(os.path.dirname(path)) if ".damaged-" in p]) == 1


# --- markup: every value escaped -----------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"


def test_html_in_a_player_s_name_is_shown_as_text(client):
    text = GOOD.replace("N: Ames", 'N: "<b>Ames</b><img src=x onerror=alert(1)>"')
    r = client.post("/rule", files=form(text))
    assert r.status_code == 200, r.text
    assert "<img src=x" not in r.text and "<b>Ames</b>" not in r.text
    assert "&lt;b&gt;Ames&lt;/b&gt;&lt;img src=x onerror=alert(1)&gt; (N)" in r.text


def test_html_in_an_incident_refused_is_shown_as_text(client):
    r = client.post("/rule", files=form(f"game: {SCRIPT}\n"))
    assert r.status_code == 400
    assert SCRIPT not in r.text
    assert "&lt;script&gt;" in r.text
    assert "Line 1" in r.text and "Fix:" in r.text


def test_html_in_a_search_and_a_law_number_is_shown_as_text(client):
    r = client.get("/search", params={"q": SCRIPT})
    assert SCRIPT not in r.text
    r = client.get("/law", params={"code": "whist", "number": SCRIPT}, follow_redirects=True)
    assert r.status_code == 400 and SCRIPT not in r.text


def test_every_page_forbids_scripts_and_framing(client):
    r = client.get("/")
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert "script-src" not in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"
    assert "<script" not in r.text


# --- the interview: only the answers offered ------------------------------------------------------

@pytest.mark.parametrize("answers", ["7:0", "0:9", "0:x", "0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0",
                                     "../etc:0", "\u00b2:0", "0:\u00b2", "\u0660:0", "0:\u0660"])
def test_an_interview_answer_never_offered_is_refused(client, answers):
    r = client.post("/ask", files={**form(examples.get("renounce-unsaid")), "answers": (None, answers)})
    assert r.status_code == 400, r.text
    assert "Fix:" in r.text


def test_an_interview_on_a_bad_incident_shows_the_line(client):
    r = client.post("/ask", files=form("game: whist\nevents:\n  - lead: {by: Q, card: KS}\n"))
    assert r.status_code == 400
    assert "Line 3" in r.text


# --- the engine's time limit ------------------------------------------------------------------------

def test_a_slow_incident_is_stopped_at_the_engine_s_time_limit(client, monkeypatch):
    monkeypatch.setattr(engine.solve, "__defaults__", (0.000001, False))
    r = client.post("/api/adjudicate", content=GOOD.encode())
    assert r.status_code == 503
    assert r.json()["error"]["message"].startswith("no ruling within the time limit of 1e-06 s")
    page = client.post("/rule", files=form(GOOD))
    assert page.status_code == 503 and "no ruling within the time limit" in page.text
    monkeypatch.undo()
    assert client.post("/api/adjudicate", content=GOOD.encode()).status_code == 200


def test_an_empty_form_asks_for_the_incident(client):
    r = client.post("/rule", files=form(""))
    assert r.status_code == 400 and "Paste the incident" in r.text


def test_a_wrong_method_or_address_is_a_clear_4xx(client):
    r = client.get("/api/adjudicate")
    assert r.status_code == 405 and r.json()["error"]["message"] == "GET is not how /api/adjudicate is used"
    assert "POST /api/adjudicate" in r.json()["error"]["hint"]
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["hint"]
    assert client.get("/nothing-here").status_code == 404


# Starlette ends each route's pattern in `$`, which matches before a final newline too: `/api/codes%0A`
# was answered as /api/codes (200), `/law/whist/24%0A` as law 24. An address with a newline after it is
# now no route's: the API's JSON 404, as every other unknown API address, and a page's 404.
@pytest.mark.parametrize("address", ["/api/codes%0A", "/api/search%0A?q=revoke", "/api/topic%0A",
                                     "/api/law/whist/24%0A", "/api/adjudicate%0A", "/api/compare%0A"])
def test_an_api_address_with_a_newline_after_it_is_no_such_address(client, address):
    for method in ("GET", "POST"):
        r = client.request(method, address, content=GOOD.encode())
        assert r.status_code == 404, (method, r.status_code)
        assert r.json()["error"]["message"] == "no such API address"


@pytest.mark.parametrize("address", ["/%0A", "/law/whist/24%0A", "/quiz%0A", "/build%0A", "/search%0A?q=revoke",
                                     "/static/style.css%0A"])
def test_a_page_address_with_a_newline_after_it_is_not_found(client, address):
    r = client.get(address)
    assert r.status_code == 404 and "There is no such page here." in r.text, r.status_code
    assert client.get(address.replace("%0A", "")).status_code == 200

# A topic name of spaces or a newline (`/topic/%20`) was read as no name: the page then took the list
# of topics for one topic and failed (500), and the API gave the list (200) where the command refuses
# the name. Both now refuse it as `adjudicator topic ' ' --json` does.
@pytest.mark.parametrize("name", ["%20", "%0A", "%09%20"])
def test_a_topic_named_by_spaces_alone_is_refused_as_the_command_refuses_it(client, name):
    import json

    from click.testing import CliRunner

    from adjudicator.cli import main
    page = client.get(f"/topic/{name}")
    assert page.status_code == 400, page.status_code
    api = client.get(f"/api/topic/{name}")
    said = CliRunner().invoke(main, ["topic", {"%20": " ", "%0A": "\n", "%09%20": "\t "}[name], "--json"])
    assert api.status_code == 400 and said.exit_code == 2
    assert json.loads(api.text) == json.loads(said.stdout)


# --- the builder: a number field as written -------------------------------------------------------

@pytest.mark.parametrize("written, said", [
    ("\u00b2", "expected a whole number, not '\u00b2'"),      # '²': str.isdigit passed it, int() failed (500)
    ("--3", "expected a whole number, not '--3'"),             # (likewise)
    ("\u0663", "expected a whole number, not '\u0663'"),      # '٣': int() made it 3; `cut: {smaller-packet: ٣}` is refused
    ("-3", "-3 is out of range"),                               # a number, checked by the reader
])
def test_a_number_in_the_builder_is_read_as_the_command_reads_it(client, written, said):
    incident = "game: whist\ndealer: S\nevents: []\n"
    r = client.post("/build", data={"step": "add", "event": "cut", "incident": incident, "f_by": "E",
                                    "f_smaller-packet": written})
    assert r.status_code == 400, (r.status_code, r.text[-500:])
    assert said in html.unescape(r.text), r.text[-3000:]
    assert "internal error" not in r.text


def _yaml_of(page: str) -> str:
    """The incident the builder's page carries (its hidden field)."""
    return html.unescape(re.search(r'name="incident" value="([^"]*)"', page).group(1))


@pytest.mark.parametrize("written, said", [
    ("\u00b2", "expected a whole number, not '\u00b2'"),
    ("\U0001d7d1", "expected a whole number, not '\U0001d7d1'"),       # a mathematical bold 3: int() made it 3
    ("-1", "-1 is out of range (1 to 13)"),                             # was written as the text '-1': "in quotes"
])
def test_the_first_trick_in_the_builder_is_read_as_the_command_reads_it(client, written, said):
    r = client.post("/build", data={"step": "table", "game": "whist", "dealer": "S", "trick": written,
                                    "leader": "N"})
    text = html.unescape(r.text)        # (refused at the table's own step, which is read now)
    assert r.status_code == 400, text[-3000:]
    assert "internal error" not in text and "in quotes" not in text
    assert said in text, text[-3000:]


def test_the_builder_reads_the_game_in_any_case_as_the_command_does(client):
    """(`game=Whist` was "no game 'Whist' to rule on", though an incident's `game: Whist` is whist)"""
    r = client.post("/build", data={"step": "table", "game": "Whist", "dealer": "S"})
    assert r.status_code == 200 and "no game" not in html.unescape(r.text)
    assert "game: whist" in _yaml_of(r.text)


# HEAD on a page that is also a form's target (/build, /compare) was read as the form sent empty and
# answered 400 where GET answers 200. HEAD now answers as GET does, every page, without a body.
def test_head_answers_as_get_does_on_every_page(client):
    for url in ["/", "/build", "/compare", "/ask", "/events", "/events/lead", "/law", "/law/whist/24",
                "/search?q=revoke", "/topic", "/topic/revoke", "/quiz?seed=5", "/quiz/stats",
                "/compare?example=no-such", "/api/codes", "/api/law/whist/24", "/static/style.css"]:
        got, head = client.get(url), client.head(url)
        assert head.status_code == got.status_code, url
        assert head.content == b"", url


@pytest.mark.parametrize("given, status, size", [
    ("bytes=abc", 200, None), ("bytes=5-2", 200, None), ("items=0-5", 200, None), ("bytes", 200, None),
    ("bytes=0-9", 206, 10), ("bytes=99999999-", 416, 0)])
def test_a_range_on_the_style_sheet_that_cannot_be_read_is_ignored_not_a_plain_text_400(client, given, status, size):
    """Starlette answered `Range: bytes=abc` with a plain-text 400 ("Range header: range must be
    requested"); a server may ignore a Range it cannot read (RFC 9110, 14.2), as nginx does."""
    whole = client.get("/static/style.css")
    r = client.get("/static/style.css", headers={"Range": given})
    assert r.status_code == status, r.text
    assert len(r.content) == (len(whole.content) if size is None else size)
    assert r.headers["content-security-policy"] == whole.headers["content-security-policy"]


# --- a form sent in Latin-1, and the API's addresses with a slash at the end ---------------------

LATIN1 = "game: whist\nplayers: {N: Jos\xe9, E: Brown, S: Clark, W: Dodd}\ndealer: S\ntrump: hearts\n" \
         "events:\n  - lead: {by: E, card: KS}\n"


def _multipart(name: bytes, value: bytes) -> tuple[bytes, dict]:
    body = b'--XX\r\nContent-Disposition: form-data; name="' + name + b'"\r\n\r\n' + value + b"\r\n--XX--\r\n"
    return body, {"content-type": "multipart/form-data; boundary=XX"}


def _urlencoded(name: bytes, value: bytes, raw: bool = False) -> tuple[bytes, dict]:
    from urllib.parse import quote_plus
    sent = value.replace(b"\n", b"%0A").replace(b" ", b"+") if raw else quote_plus(value).encode()
    return name + b"=" + sent, {"content-type": "application/x-www-form-urlencoded"}


@pytest.mark.parametrize("path", ["/rule", "/compare", "/ask"])
@pytest.mark.parametrize("send", [_multipart, _urlencoded])
def test_an_incident_pasted_in_latin1_is_refused_at_its_line_as_its_file_would_be(client, path, send):
    """Starlette read a multipart field that is not UTF-8 as Latin-1 and a percent-encoded one with
    U+FFFD: the incident was ruled on with a player `Jos\ufffd` (or `José` by a guess). Refused at the
    byte's line and column, as the same bytes uploaded as a file are."""
    body, headers = send(b"incident", LATIN1.encode("latin-1"))
    r = client.post(path, content=body, headers=headers)
    assert r.status_code == 400, r.text[:300]
    assert "Line 2, column 17: this is not UTF-8 text (byte 0xe9)" in html.unescape(r.text)
    assert "\ufffd," not in r.text.split("The incident")[0]


@pytest.mark.parametrize("path,said", [("/rule", "Not read"), ("/compare", "Not read"), ("/ask", "Not read"),
                                       ("/quiz", "Quiz"), ("/build", "Describe it")])
@pytest.mark.parametrize("sent", [_multipart(b"answer", "caf\xe9".encode("latin-1")),
                                  _multipart("r\xe9ponse".encode("latin-1"), b"a"),
                                  _urlencoded(b"answer", "caf\xe9".encode("latin-1")),
                                  _urlencoded(b"incident", "caf\xe9".encode("latin-1"), raw=True)])
def test_any_other_field_not_in_utf8_is_a_clear_400_never_garbage(client, path, said, sent):
    body, headers = sent
    r = client.post(path, content=body, headers=headers)
    text = html.unescape(r.text)
    assert r.status_code == 400 and said in text and "the form could not be read" in text, text[:400]
    assert re.search(r"not UTF-8 text \(byte 0xe9\)|the byte 0xe9", text), text[:600]


def test_raw_utf8_bytes_in_a_urlencoded_form_are_refused_not_read_as_latin1(client):
    """A browser percent-encodes every byte past ASCII; Starlette read raw ones as Latin-1 (`JosÃ©`)."""
    body, headers = _urlencoded(b"incident", GOOD.replace("Ames", "Jos\xe9").encode("utf-8"), raw=True)
    r = client.post("/rule", content=body, headers=headers)
    assert r.status_code == 400 and "which a form sent URL-encoded never holds" in r.text
    body, headers = _urlencoded(b"incident", GOOD.replace("Ames", "Jos\xe9").encode("utf-8"))
    r = client.post("/rule", content=body, headers=headers)
    assert r.status_code == 200 and "Jos\xe9" in r.text and "Jos\xc3\xa9" not in r.text


@pytest.mark.parametrize("url,status,said", [
    ("/api/topic/", 400, "no topic is named: the argument is empty"),      # `topic ''`, as /api/law/whist/ is `law whist ''`
    ("/api/codes/", 404, "ends in a slash (the API never redirects"),
    ("/api/search/", 404, "ends in a slash"),
    ("/api", 404, "no such API address"),
    ("/api/", 404, "no such API address"),
])
def test_an_api_address_is_answered_as_written_in_json_never_redirected(client, url, status, said):
    """`/api/topic/` and `/api/codes/` were 307 redirects with an empty body: no JSON to read."""
    r = client.get(url, follow_redirects=False)
    assert r.status_code == status and r.headers["content-type"] == "application/json", (r.status_code, r.text)
    assert said in r.json()["error"]["message"]
    r = client.post("/api/adjudicate/", content=GOOD.encode(), follow_redirects=False)
    assert r.status_code == 404 and "ends in a slash" in r.json()["error"]["message"]


# An address whose %XX bytes are not UTF-8 was read with U+FFFD and answered for a topic, a law, a
# search of '\ufffd'; a query's name given twice was read as its last value, the first dropped
# unsaid; a Content-Length of -5 was said to be over the size limit; a gzip body was read as its
# compressed bytes. Each is refused saying what was sent, in JSON under /api, on a page elsewhere.
@pytest.mark.parametrize("method,url,headers,status,said", [
    ("GET", "/api/topic/%E9", {}, 400, "the address is not UTF-8 text (byte 0xe9)"),
    ("GET", "/api/law/whist/%E9", {}, 400, "the address is not UTF-8 text (byte 0xe9)"),
    ("GET", "/api/search?q=%E9", {}, 400, "the address's query is not UTF-8 text (byte 0xe9)"),
    ("GET", "/api/search?q%E9=revoke", {}, 400, "the address's query is not UTF-8 text (byte 0xe9)"),
    ("GET", "/api/search?q=revoke&q=lead", {}, 400, "the address gives 'q' twice"),
    ("GET", "/api/search?q=revoke&limit=1&limit=2", {}, 400, "the address gives 'limit' twice"),
    ("POST", "/api/compare?codes=american-1893&codes=english-1864", {}, 400, "the address gives 'codes' twice"),
    ("POST", "/api/adjudicate", {"content-length": "-5"}, 400, "the request's Content-Length is '-5', not a number"),
    ("POST", "/api/adjudicate", {"content-encoding": "gzip"}, 415, "in the Content-Encoding 'gzip'"),
])
def test_a_request_not_read_as_sent_is_refused_saying_what_was_sent(client, method, url, headers, status, said):
    r = client.request(method, url, content=GOOD.encode(), headers=headers)
    assert r.status_code == status and r.headers["content-type"] == "application/json", (r.status_code, r.text)
    assert said in r.json()["error"]["message"] and r.json()["error"]["exit_code"] == 2
    page = client.request(method, url.replace("/api/", "/").replace("/adjudicate", "/rule"),
                          content=b"incident=x", headers={"content-type": "application/x-www-form-urlencoded", **headers})
    assert page.status_code == status and said in html.unescape(page.text), (page.status_code, page.text[:300])


@pytest.mark.parametrize("url", ["/search?q=caf%C3%A9", "/api/search?q=caf%C3%A9&code=whist", "/api/topic/%C3%A9"])
def test_an_address_in_utf8_is_still_read(client, url):
    r = client.get(url)
    assert r.status_code in (200, 400) and "not UTF-8" not in r.text and "twice" not in r.text


@pytest.mark.parametrize("fields,said", [
    # (beside the question, in words: no key of the format, no line of a YAML nobody saw)
    ({"dealer": "Q"}, "\u201cQ\u201d is not one of the players here: answer North, East, South or West"),
    ({"player_N": "S"}, "'S' is the name of a seat or a side, not of a player"),
    ({"trick": "99", "leader": "N"}, "99 is out of range (1 to 13)"),
])
def test_the_builder_s_table_is_read_at_its_own_step(client, fields, said):
    """The table's step was taken unread (a dealer 'Q', a player named 'S'), and refused only when
    the first event was added, on the event's form."""
    from urllib.parse import urlencode
    r = client.post("/build", content=urlencode({"step": "table", "game": "whist", **fields}).encode(),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and said in html.unescape(r.text), html.unescape(r.text)[:600]


# --- read as a referee on a phone uses the page --------------------------------------------------

def test_the_law_lookup_sent_with_a_blank_number_says_so(client):
    """The lookup's form sent with the number as spaces came back as it was, saying nothing: it is
    refused as `adjudicator law CODE ''` is, the code kept."""
    r = client.get("/law?code=american-1893&number=++")
    assert r.status_code == 400 and "no law of american-1893 is named: give its number" in r.text
    assert '<option value="american-1893" selected>' in r.text
    assert client.get("/law").status_code == 200          # the page itself, nothing sent


@pytest.mark.parametrize("code_a, code_b", [("american-1893", "american-1893"), ("american-1893", ""),
                                            ("", "english-1864")])
def test_a_comparison_of_one_code_is_refused_in_the_pages_words(client, code_a, code_b):
    """The same code chosen twice (or one left empty) was refused in the command's words, naming a
    `--codes` the page has not ("add another code, e.g. --codes ..."): said in the page's words,
    the incident and the codes chosen kept."""
    text = open(os.path.join(ROOT, "cases", CASE_REL), encoding="utf-8").read()
    r = client.post("/compare", files={"incident": (None, text), "code_a": (None, code_a), "code_b": (None, code_b)})
    assert r.status_code == 400 and "Only one code is chosen" in r.text and "--codes" not in r.text
    assert html.escape(text.splitlines()[0], quote=False) in r.text


# --- cross-site requests (CSRF): a form of another site cannot record an answer ---------------------

CROSS = [{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
         {"Sec-Fetch-Site": "same-site", "Origin": "http://quiz.testserver"},
         {"Origin": "https://evil.example"},           # (a browser without Sec-Fetch-*)
         {"Origin": "null"}]                            # (a sandboxed frame, a data: page)
SAME = [{"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}, {"Origin": "http://testserver"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "null"},      # (Chromium's, under Referrer-Policy no-referrer)
        {"Sec-Fetch-Site": "none"}, {}]                 # (typed in; a program, which says neither)


def _answered(client) -> int:
    from adjudicator.web import service
    return service.quiz_stats(client.cookies.get(service.COOKIE))[0]["answers"]


@pytest.fixture(scope="module")
def visitor(client):
    """A visitor of its own (its cookie given by the page) and a question of the bank."""
    from adjudicator.study import quiz
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        own = TestClient(create_app(), raise_server_exceptions=False)
    assert own.get("/quiz/stats").status_code == 200
    return own, quiz.draw(1, seed=-5)[0]


@pytest.mark.parametrize("headers", CROSS)
def test_an_answer_sent_from_another_site_is_refused_and_not_recorded(visitor, headers):
    """A POST to the quiz from another site was recorded as the visitor's answer (no origin or
    token check). Refused 403, nothing written; the page's own form is taken (below)."""
    client, question = visitor
    before = _answered(client)
    r = client.post("/quiz", data={"qid": quiz_token(question.qid), "answer": "a"}, headers=headers)
    assert r.status_code == 403 and "sent from another site" in r.text, r.text[:300]
    assert _answered(client) == before
    for path in ("/rule", "/ask", "/compare", "/download", "/quiz/person", "/quiz/grade"):
        assert client.post(path, data={"incident": GOOD, "name": "Eve"}, headers=headers).status_code == 403, path
    r = client.post("/build", data={"step": "table", "game": "whist"}, headers=headers, follow_redirects=False)
    assert r.status_code == 403
    r = client.post("/api/adjudicate", content=GOOD.encode(), headers=headers)
    assert r.status_code == 403 and "another site" in r.json()["error"]["message"]


@pytest.mark.parametrize("headers", SAME)
def test_an_answer_from_the_page_itself_is_taken(visitor, headers):
    client, question = visitor
    before = _answered(client)
    r = client.post("/quiz", data={"qid": quiz_token(question.qid), "answer": question.answer[0]}, headers=headers)
    assert r.status_code == 200 and "<title>Quiz: the answer" in r.text, r.text[:300]
    assert _answered(client) == before + 1
    assert client.post("/download", data={"incident": GOOD}, headers=headers).status_code == 200


# --- compression and caching ---------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/law/whist/24", "/api/codes", "/api/law/whist/24", "/"])
def test_answers_are_compressed_for_a_client_that_takes_gzip(client, url):
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip"
    assert int(r.headers["content-length"]) < len(r.content)          # (sent compressed, read whole)
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == r.content
    assert r.headers["content-security-policy"].startswith("default-src 'none'")


def test_the_style_sheet_is_cached_under_its_version():
    """The page links the style sheet by its content's digest; the file is kept a day."""
    import hashlib
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = TestClient(create_app())
    css = open(os.path.join(ROOT, "adjudicator", "web", "static", "style.css"), "rb").read()
    link = f'href="/static/style.css?v={hashlib.sha256(css).hexdigest()[:12]}"'
    assert link in c.get("/").text
    r = c.get(link[6:-1])
    assert r.status_code == 200 and r.content == css
    assert r.headers["cache-control"] == "public, max-age=86400"
    assert c.get("/static/style.css", headers={"Range": "bytes=0-9"}).headers["cache-control"] == "public, max-age=86400"
    assert "cache-control" not in c.get("/api/codes").headers


@pytest.mark.parametrize("send", [_multipart, _urlencoded])
def test_the_incident_shown_again_after_a_latin1_byte_is_not_ruled_with_its_replacement(client, send):
    """A Latin-1 byte refused came back as U+FFFD in the "correct it here" box; sent back as it was,
    it was ruled with a player `Jos\ufffd`. The box marks the place, and U+FFFD sent from a form is
    refused at its line and column until the letter meant is written."""
    body, headers = send(b"incident", LATIN1.encode("latin-1"))
    r = client.post("/rule", content=body, headers=headers)
    box = re.search(r'<textarea[^>]*name="incident"[^>]*>(.*?)</textarea>', r.text, re.S)
    assert r.status_code == 400 and box, r.text[:300]
    again = html.unescape(box.group(1))
    assert "Jos\ufffd" in again
    for path in ("/rule", "/compare", "/ask", "/download"):
        r = client.post(path, files=form(again))
        assert r.status_code == 400, (path, r.text[:300])
        assert ("Line 2, column 17: \ufffd stands here for a byte that was not UTF-8 text" in html.unescape(r.text)), path
        assert "Jos\ufffd (N)" not in r.text
    r = client.post("/rule", files=form(again.replace("Jos\ufffd", "Jos\xe9")))
    assert r.status_code == 200 and "Jos\xe9" in r.text
