"""The page as a referee on a phone uses it, read hostile: a mistake on the first form, a required
choice left unchosen, a word too long for the screen, an answer sent twice. Each test failed before
its mend (named in its docstring)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PHONE = {"width": 320, "height": 640}


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    p = context.new_page()
    p.set_default_timeout(20_000)
    p.base = server["url"]
    yield p
    context.close()


def test_the_tables_form_refused_keeps_what_was_typed(phone):
    """The table's form refused (names typed in whist's seats, the game left at piquet) came back
    empty: the four names, the dealer and the trumps typed again on a phone. It comes back as it
    was filled, with the refusal; a name is held to the reader's 60 characters as it is typed."""
    p = phone
    p.goto(p.base + "/build")
    p.select_option("select#game", "piquet")
    names = {"N": "Иван Петров", "E": "山田太郎", "S": "Ωμέγα", "W": "محمد علي"}
    for seat, name in names.items():
        p.fill(f"input#player_{seat}", name)
    p.select_option("select#dealer", "S")
    p.select_option("select#trump", "hearts")
    with p.expect_navigation():
        p.click("button:has-text('Next: what happened')")
    assert "piquet has no seat" in p.inner_text(".error")
    assert {s: p.input_value(f"input#player_{s}") for s in names} == names
    assert (p.input_value("select#game"), p.input_value("select#dealer"), p.input_value("select#trump")) == \
        ("piquet", "S", "hearts")
    p.fill("input#player_N", "x" * 300)
    assert len(p.input_value("input#player_N")) == 60


def test_a_required_choice_left_unchosen_adds_no_event(phone):
    """The event's form preselected the first seat of a required choice: "Add it" tapped before
    choosing wrote a lead by North nobody said. The choice now starts empty and must be made."""
    p = phone
    p.goto(p.base + "/build")
    p.select_option("select#game", "whist")
    with p.expect_navigation():
        p.click("button:has-text('Next: what happened')")
    p.select_option("select#event", "lead")
    with p.expect_navigation():
        p.click("button:has-text('Next: its details')")
    assert p.input_value("select#f_by") == ""
    p.click("button:has-text('Add it')")
    assert p.locator("section.story").count() == 0 and p.locator("select#f_by").count() == 1
    p.select_option("select#f_by", "W")
    p.fill("input#f_card", "KS")
    with p.expect_navigation():
        p.click("button:has-text('Add it')")
    assert "West leads the king of spades." in p.inner_text("section.story")


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
