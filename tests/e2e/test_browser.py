"""A referee's main paths through the page, in a real browser (Chromium, headless).

Each page's answers are checked against the command line's for the same input: the ruling's
remedies against `adjudicate --json`, the quiz's grade against the key `quiz --json` gives.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from adjudicator.study import quiz
from tests.e2e.conftest import WIDTHS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASE = os.path.join(ROOT, "cases", "whist", "american-1893", "24-suit-call-only-by-the-adversary-on-the-right.yaml")


def cli_json(*args: str, stdin: bytes | None = None):
    exe = os.path.join(os.path.dirname(sys.executable), "adjudicator")
    out = subprocess.run([exe, *args, "--json"], input=stdin, capture_output=True, check=False)
    return json.loads(out.stdout)


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.set_default_timeout(20_000)
    p.base = server["url"]
    yield p
    context.close()


def screenshots(page, shots: str, name: str) -> None:
    """The page as it is now, at a phone's width and a desktop's, whole length."""
    for label, (w, h) in WIDTHS.items():
        page.set_viewport_size({"width": w, "height": h})
        path = os.path.join(shots, f"{name}-{label}-{w}px.png")
        page.screenshot(path=path, full_page=True)
        assert os.path.getsize(path) > 5_000
        if label == "phone":    # nothing wider than the phone's screen: no sideways scrolling
            assert page.evaluate("document.documentElement.scrollWidth") <= w + 1, f"{name} scrolls sideways on a phone"
    page.set_viewport_size({"width": 1280, "height": 900})


def test_serve_says_its_address(server):
    assert server["said"].startswith(f"Serving the referee's page at {server['url']}/")


def test_a_ruling_from_a_pasted_incident(page, shots):
    text = open(CASE, encoding="utf-8").read()
    expected = cli_json("adjudicate", "-", stdin=text.encode())
    page.goto(page.base + "/")
    screenshots(page, shots, "1-home")
    page.fill("textarea#incident", text)
    page.click("button:has-text('Rule')")
    page.wait_for_selector("ol.rulings")
    # the remedies, in order, are the command line's; so are their sentences
    shown = page.eval_on_selector_all("section.ruling-all > ol.rulings > li.ruling", "els => els.map(e => e.dataset.remedy)")
    assert shown == [r["remedy"] for r in expected["rulings"]]
    body = page.inner_text("main")
    for r in expected["rulings"]:
        assert r["text"] in body
    assert expected["story"] in body
    assert "May exact it" in body and "Ames (N)" in body
    # the law's words a click away
    page.click("li.ruling >> nth=0 >> summary")
    assert "A suit may be called" in page.inner_text("li.ruling >> nth=0 >> details") or \
        "suit" in page.inner_text("li.ruling >> nth=0 >> details")
    screenshots(page, shots, "2-ruling")
    # on paper: the ruling without the menus and the forms
    page.emulate_media(media="print")
    assert page.is_hidden("header.top") and page.is_hidden("form.again")
    assert page.is_visible("ol.rulings")
    page.screenshot(path=os.path.join(shots, "2-ruling-print.png"), full_page=True)
    page.emulate_media(media="screen")
    page.click("li.ruling >> nth=0 >> p.ruling-text a:has-text('24')")
    page.wait_for_selector("article.law")
    assert re.search(r"/law/american-1893/24$", page.url)
    assert "lead out of turn" in page.inner_text("main").lower()
    screenshots(page, shots, "3-law")


def test_a_mistake_is_shown_with_its_line_and_fix(page):
    page.goto(page.base + "/")
    page.fill("textarea#incident", "game: whist\ndealer: S\ntrump: hearts\nevents:\n  - lead: {by: X, card: KS}\n")
    page.click("button:has-text('Rule')")
    page.wait_for_selector(".error")
    err = page.inner_text(".error")
    assert err.startswith("Line 5"), err
    assert "Fix:" in err
    assert page.inner_text("li.bad") == "  - lead: {by: X, card: KS}"


def test_an_interview_answered_i_dont_know(page, shots):
    page.goto(page.base + "/ask?example=renounce-unsaid")
    page.click("button:has-text('Start the interview')")
    page.wait_for_selector("form.question legend")
    question = page.inner_text("form.question legend")
    assert "hold a spade" in question
    # the event as the story above tells it, never a line of the YAML (the page may not show it)
    assert re.search(r"\(the \d+(st|nd|rd|th) event: ", question) and not re.search(r"\bline \d", question), question
    assert "laws 28, 30, 31" in page.inner_text("p.why")
    screenshots(page, shots, "4-interview")
    page.check("label.choice:has-text(\"I don't know\") input")
    page.click("button:has-text('Answer')")
    page.wait_for_selector("section.conditional")
    body = page.inner_text("main")
    assert "I don't know" in page.inner_text("section.asked")
    assert "The ruling depends on facts not known" in body
    assert "If Brown (E) held a spade" in body
    # the ruling is the command line's on the incident the interview built
    built = page.text_content("details.built pre")
    # its lines numbered, as the ruling cites them; the numbers are no part of its text
    assert page.locator("details.built pre span.line").count() == len(built.splitlines())
    assert page.evaluate("getComputedStyle(document.querySelector('details.built pre span.line'), '::before')"
                         ".content") == "counter(line)"
    expected = cli_json("adjudicate", "-", stdin=built.encode())
    assert [u["question"] for u in expected["unknowns"] if u["relevant"]][0] in body
    screenshots(page, shots, "5-interview-ruling")


def test_a_law_search(page, shots):
    page.goto(page.base + "/search")
    page.fill("input#q", "card dropped on the floor")
    page.click("button:has-text('Search')")
    page.wait_for_selector("ol.results")
    expected = cli_json("search", "card", "dropped", "on", "the", "floor")
    links = page.eval_on_selector_all("ol.results > li > a:first-child", "els => els.map(e => e.textContent)")
    assert links == [f"{r['code']} {r['id']}" for r in expected["results"]]
    assert page.locator("ol.results mark").count() > 0
    screenshots(page, shots, "6-search")
    page.click(f"ol.results > li >> nth=0 >> a:first-child")
    page.wait_for_selector("article.law")


def test_a_quiz_question(page, shots, server):
    """A question as `quiz -n 1 --seed S` draws it, answered right, then another answered wrong: the
    verdict is the terminal's grader's, the feedback says why, the whole ruling is a link, and the
    progress is this browser's own (a person's file, not the club's)."""
    seed = 3
    key = cli_json("quiz", "-n", "1", "--seed", str(seed))["questions"][0]
    q = quiz.Question(**key)
    page.goto(page.base + f"/quiz?seed={seed}")
    assert page.inner_text("form.question legend") == key["prompt"]
    assert page.inner_text("section.story p") == key["story"]
    screenshots(page, shots, "7-quiz")
    for k in q.answer:
        page.check(f"input[name=answer][value='{k}']")
    with page.expect_navigation():          # the verdict read is the answer page's, once it is there
        page.click("button:has-text('Answer')")
    assert page.inner_text("p.verdict").startswith("Right: ")
    assert "1 of 1 answers right" in page.inner_text("p.progress")
    assert page.locator("a:has-text('The whole ruling')").count() == 1
    screenshots(page, shots, "8-quiz-answer")
    page.click("a:has-text('Next question')")
    legend = page.inner_text("form.question legend")
    values = page.eval_on_selector_all("input[name=answer]", "els => els.map(e => e.value)")
    token = page.get_attribute("input[name=qid]", "value")
    drawn = quiz.review_questions([f"{c}#{token.split('#')[1]}" for c in [_case_of(token)]], 1)[0]
    assert drawn.prompt == legend
    wrong = next((v for v in values if v not in drawn.answer), None) or drawn.answer[0]
    picks = [wrong] if not drawn.many or wrong in drawn.answer else drawn.answer + [wrong]
    for v in picks:
        page.check(f"input[name=answer][value='{v}']")
    with page.expect_navigation():
        page.click("button:has-text('Answer')")
    assert page.inner_text("p.verdict").startswith("Wrong. The answer: ")
    assert "1 of 2 answers right" in page.inner_text("p.progress")
    page.click("a:has-text('The whole ruling')")
    page.wait_for_selector("ol.rulings")
    # the progress is this browser's own, not the file the terminal's quiz keeps
    env = {**os.environ, "ADJUDICATOR_DATA_DIR": server["data"]}
    exe = os.path.join(os.path.dirname(sys.executable), "adjudicator")
    stats = json.loads(subprocess.run([exe, "quiz", "stats", "--json"], env=env, capture_output=True).stdout)
    assert stats["answers"] == 0
    assert os.listdir(os.path.join(server["data"], "people"))


def _case_of(token: str) -> str:
    from adjudicator.web import service
    return service.quiz_case(token.split("#")[0])


def test_an_incident_described_step_by_step_without_yaml(page, shots):
    """The README's incident, told as players tell it (what went wrong, the table, the lead, then what
    else happened): the ruling is the command's on it."""
    page.goto(page.base + "/")
    page.click("a:has-text('Describe it step by step')")

    def next_():
        with page.expect_navigation():
            page.click("form.build button:has-text('Next')")
    page.check("input[name=game][value=whist]")
    next_()
    page.check("input[name=wrong][value=lead-out-of-turn]")
    next_()
    for seat, name in {"N": "Ames", "E": "Brown", "S": "Clark", "W": "Dodd"}.items():
        page.fill(f"input#player_{seat}", name)
    page.check("input[name=trump][value=hearts]")
    page.fill("input#trick", "3")
    page.check("input[name=leader][value=N]")
    next_()
    page.check("input[name=f_by][value=W]")
    page.check("input[name=f_card_suit][value=spades]")
    page.check("input[name=f_card_rank][value=K]")
    screenshots(page, shots, "9-describe")
    next_()
    with page.expect_navigation():                  # what else happened: North played to the false lead
        page.select_option("select#more", "event:play")
        page.click("form.more button")
    page.check("input[name=f_by][value=N]")
    page.check("input[name=f_card_suit][value=spades]")
    page.check("input[name=f_card_rank][value='2']")
    next_()
    told = page.eval_on_selector_all("ol.told > li > span", "els => els.map(e => e.innerText)")
    assert told[1:] == ["Dodd leads the king of spades.", "Ames plays the two of spades."]
    built = page.text_content("details.yaml pre")
    with page.expect_navigation():
        page.click("button:has-text('Rule on it')")
    page.wait_for_selector("ol.rulings")
    expected = cli_json("adjudicate", "-", stdin=built.encode())
    shown = page.eval_on_selector_all("section.ruling-all > ol.rulings > li.ruling", "els => els.map(e => e.dataset.remedy)")
    assert shown == [r["remedy"] for r in expected["rulings"]] == ["call-suit", "call-suit", "take-back-cards"]


def test_two_codes_side_by_side(page, shots):
    text = open(CASE, encoding="utf-8").read()
    expected = cli_json("compare", "-", "--codes", "american-1893,english-1864", stdin=text.encode())
    page.goto(page.base + "/compare")
    page.fill("textarea#incident", text)
    page.select_option("select#code_a", "american-1893")
    page.select_option("select#code_b", "english-1864")
    page.click("button:has-text('Compare')")
    page.wait_for_selector("table.compare")
    rows = page.eval_on_selector_all("table.compare tbody tr", "els => els.map(e => e.className)")
    assert rows == ["differs" if r["differs"] else "same" for r in expected["comparison"]]
    assert f"{expected['differences']} of {len(expected['comparison'])} remedies differ" in page.inner_text("main")
    screenshots(page, shots, "10-compare")
