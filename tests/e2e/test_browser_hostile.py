"""The page as a referee on a phone uses it, read hostile: a mistake on the first form, a required
choice left unchosen, a word too long for the screen, an answer sent twice. Each test failed before
its mend (named in its docstring)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import phone_page

PHONE = {"width": 320, "height": 640}


@pytest.fixture
def phone(browser, server):
    yield from phone_page(browser, server, PHONE)


def test_the_tables_form_refused_keeps_what_was_typed(phone):
    """The table's form refused came back empty: the four names and the trumps typed again on a phone.
    It comes back as it was filled, with the refusal beside the question; a name is held to the
    reader's 60 characters as it is typed."""
    p = phone
    p.goto(p.base + "/build?game=whist")
    p.check("input[name=wrong][value=lead-out-of-turn]")
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")
    names = {"N": "Иван Петров", "E": "山田太郎", "S": "Ωμέγα", "W": "محمد علي"}
    for seat, name in names.items():
        p.fill(f"input#player_{seat}", name)
    p.check("input[name=trump][value=hearts]")
    p.fill("input#trick", "99")                       # refused: a hand of whist has 13 tricks
    p.check("input[name=leader][value=S]")
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")
    assert "99 is out of range (1 to 13)" in p.inner_text("#err-trick")
    assert {s: p.input_value(f"input#player_{s}") for s in names} == names
    assert p.is_checked("input[name=trump][value=hearts]") and p.is_checked("input[name=leader][value=S]")
    assert p.input_value("input#trick") == "99"
    p.fill("input#player_N", "x" * 300)
    assert len(p.input_value("input#player_N")) == 60


def test_a_required_choice_left_unchosen_adds_no_event(phone):
    """The event's form preselected the first seat of a required choice: "Add it" tapped before
    choosing wrote a lead by North nobody said. The choice now starts empty and must be made."""
    p = phone
    p.goto(p.base + "/build?game=whist")
    p.check("input[name=wrong][value=lead-out-of-turn]")
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")
    p.check("input[name=leader][value=N]")
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")
    assert not any(p.is_checked(f"input[name=f_by][value={s}]") for s in "NESW")
    p.click("form.build button:has-text('Next')")     # the browser asks for the choice: nothing sent
    assert p.locator("section.review").count() == 0 and p.locator("input[name=f_by]").count() == 4
    p.check("input[name=f_by][value=W]")
    p.check("input[name=f_card_suit][value=spades]")
    p.check("input[name=f_card_rank][value=K]")
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")
    assert "West leads the king of spades." in p.inner_text("section.review")


def test_a_word_too_long_for_the_screen_breaks(phone):
    """A refusal quoting a long word (a search of one word of 1,200 letters) made the phone's page
    scroll sideways; a long word now breaks at the screen's edge."""
    p = phone
    p.goto(p.base + "/search?q=" + "revoke" * 200)
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert "too long (1 word, 1,200 characters" in p.inner_text(".error")


def test_a_quiz_answer_sent_again_is_counted_once(phone, server):
    """The answer page reloaded (the form sent again) recorded the answer a second time: one answer
    counted as two. The question page's form carries a one-time token: sent again, it is graded and
    shown, not counted."""
    p = phone
    p.goto(p.base + "/quiz?seed=3")
    p.locator("input[name=answer]").first.check()       # (a radio or a checkbox: every question has choices)
    with p.expect_navigation():
        p.click("button:has-text('Answer')")
    first = p.inner_text("p.verdict")
    p.reload()
    assert p.inner_text("p.verdict") == first
    assert "not counted twice" in p.inner_text("main")
    p.goto(p.base + "/quiz/stats")
    assert "1 question seen" in p.inner_text("main")         # this phone's progress: one answer


def test_a_quiz_answer_posted_by_another_sites_page_is_refused_and_the_pages_own_is_taken(phone):
    """A form on another site's page that posts to the quiz was recorded as the visitor's answer.
    Chromium says where the request comes from (Sec-Fetch-Site, Origin): from another page it is
    refused 403; the quiz's own form is taken."""
    p = phone
    p.goto(p.base + "/quiz?seed=7")
    qid = p.get_attribute("input[name=qid]", "value")
    from urllib.parse import quote
    p.goto("data:text/html," + quote(f"<form method=post action='{p.base}/quiz'><input name=qid value='{qid}'>"
                                      "<input name=answer value=a><button>Go</button></form>"))
    with p.expect_navigation():
        p.click("button")
    assert "sent from another site" in p.inner_text("main")
    p.goto(p.base + "/quiz?seed=7")
    p.locator("form.question input[name=answer]").first.check()
    with p.expect_navigation():
        p.click("form.question button:has-text('Answer')")
    assert "sent from another site" not in p.inner_text("main") and "Quiz: the answer" in p.title()
