"""The dispute told on a phone-sized page as players tell it (/build, interview/story.py): a whist
lead out of turn at trick 5 with hearts trumps, a piquet miscall with the hands, a loo revoke at a
table of five; each told by tapping (the card by its suit then its rank), each ruled as the command
rules the account built, and that ruling checked against the law it turns on. Reloaded in the middle,
a step refused, the share link: nothing typed is lost, no key or file line is shown.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from .conftest import phone_page

PHONE = {"width": 390, "height": 844}
TIMES: dict[str, float] = {}


@pytest.fixture
def phone(browser, server):
    yield from phone_page(browser, server, PHONE)


def cli_json(*args: str, stdin: bytes | None = None):
    exe = os.path.join(os.path.dirname(sys.executable), "adjudicator")
    out = subprocess.run([exe, *args, "--json"], input=stdin, capture_output=True, check=False)
    return json.loads(out.stdout)


def next_(p):
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")


def no_keys_on(p):
    """What the page shows a player: no format key, no line of a file."""
    body = p.inner_text("main")
    for key in ("lead.by", "lead.card", "f_by", "start.trick", "(required)", "Line "):
        assert key not in body, (key, body[:800])
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1      # no sideways scrolling


def pick_card(p, field: str, rank: str, suit: str):
    p.check(f"input[name={field}_suit][value={suit}]")
    p.check(f"input[name={field}_rank][value='{rank}']")


def rule_it(p):
    """'Rule on it': the interview asks what the ruling still turns on (answered 'I don't know'), then the
    ruling; the incident it ruled on, as the page carries it."""
    with p.expect_navigation():
        p.click("form.rule-it button")
    while p.locator("form.question").count():
        p.check("label.choice:has-text(\"I don't know\") input")
        with p.expect_navigation():
            p.click("button:has-text('Answer')")
    p.wait_for_selector("ol.rulings")
    return p.input_value("form.again textarea#incident")


def test_a_whist_lead_out_of_turn_at_trick_5_with_hearts_trumps_on_a_phone(phone):
    p = phone
    t0 = time.monotonic()
    p.goto(p.base + "/build")
    assert "Question 1 of about" in p.inner_text("p.progress")
    p.check("input[name=game][value=whist]")
    next_(p)
    p.check("input[name=wrong][value=lead-out-of-turn]")
    next_(p)
    for seat, name in (("N", "Ames"), ("E", "Brown"), ("S", "Clark"), ("W", "Dodd")):
        p.fill(f"input#player_{seat}", name)
    p.check("input[name=trump][value=hearts]")
    p.fill("input#trick", "5")
    p.check("input[name=leader][value=N]")
    next_(p)
    assert "/build?d=" in p.url                               # the draft is in the address
    p.reload()                                                # a reload loses nothing
    assert "Who led instead of Ames?" in p.inner_text("form.build")
    assert "Ames has the lead for the fifth trick" in p.inner_text("section.story")
    no_keys_on(p)
    p.check("input[name=f_by][value=N]")                      # a mistake: his own lead
    pick_card(p, "f_card", "K", "spades")
    with p.expect_navigation():
        p.click("form.build button:has-text('Next')")
    assert "Ames was to lead: his lead is in turn" in p.inner_text("#err-f_by")       # beside the question
    assert p.is_checked("input[name=f_card_suit][value=spades]") and p.is_checked("input[name=f_card_rank][value=K]")
    p.check("input[name=f_by][value=E]")
    next_(p)
    assert "Brown leads the king of spades." in p.inner_text("section.review")
    no_keys_on(p)
    built = rule_it(p)
    TIMES["page: whist lead out of turn"] = time.monotonic() - t0
    expected = cli_json("adjudicate", "-", stdin=built.encode())
    shown = p.eval_on_selector_all("section.ruling-all > ol.rulings > li.ruling, section.conditional ol.rulings > li.ruling",
                                   "els => els.map(e => e.dataset.remedy)")
    assert shown == [r["remedy"] for r in expected["rulings"]]
    assert "Brown (E) led out of turn to trick 5: it was Ames (N)'s lead (law 24)" in p.inner_text("main")
    calls = [r for r in expected["rulings"] if r["remedy"] == "call-suit"]
    assert calls and {s for r in calls for s in r["may_exact"]} == {"N", "S"} and all(r["laws"] == ["24"] for r in calls)
    # the share link: the same ruling, from the address alone
    link = p.get_attribute("a.share-link", "href")
    assert link.startswith("/ruling?i=")
    p.goto(p.base + link)
    again = p.eval_on_selector_all("ol.rulings > li.ruling", "els => els.map(e => e.dataset.remedy)")
    assert again == shown


def test_a_piquet_miscall_with_the_hands_on_a_phone(phone):
    """Law 54: four, forty-one, called holding thirty-seven, allowed good, put right only after the
    younger hand played to the first trick: the elder reckons nothing (44, 54), the younger what he
    has good (54, 56)."""
    p = phone
    t0 = time.monotonic()
    p.goto(p.base + "/build?game=piquet")
    p.check("input[name=wrong][value=miscall]")
    next_(p)
    p.fill("input#player_elder", "Ames")
    p.fill("input#player_younger", "Brown")
    for c in "AH KH QH AS KS 9S 7S AD 9D 7C 8C 9C".split():
        p.check(f"input[name=hand_elder][value='{c}']")
    for c in "JH 10H 7H QS JS 10S 8S KD QD JD 10D AC".split():
        p.check(f"input[name=hand_younger][value='{c}']")
    next_(p)
    p.check("input[name=f_by][value=elder]")
    p.check("input[name=f_what][value=point]")
    p.fill("input#f_count", "4")
    p.fill("input#f_value", "41")
    next_(p)
    assert "What did Brown reply?" in p.inner_text("form.build")
    p.check("input[name=f_answer][value=good]")
    next_(p)
    assert "Did Ames put his call right, and when?" in p.inner_text("form.build")
    p.check("label.choice:has-text('only after the younger hand had played') input")
    next_(p)
    assert "Ames corrects his call." in p.inner_text("section.review")
    no_keys_on(p)
    built = rule_it(p)
    TIMES["page: piquet miscall with the hands"] = time.monotonic() - t0
    got = {r["remedy"]: sorted(r["laws"]) for r in cli_json("adjudicate", "-", stdin=built.encode())["rulings"]}
    assert got == {"reckons-nothing": ["44", "54"], "reckon-what-is-good": ["54", "56"]}
    assert "too late (54)" in p.inner_text("main")


def test_a_loo_revoke_at_a_table_of_five_on_a_phone(phone):
    """Loo playing.1: not following suit when able, the full loo; five at the table."""
    p = phone
    t0 = time.monotonic()
    p.goto(p.base + "/build?game=loo")
    p.check("input[name=wrong][value=loo-revoke]")
    next_(p)
    for n, name in enumerate(["Ames", "Brown", "Clark", "Dodd", "Ellis"], start=1):
        p.fill(f"input#place_{n}", name)
    p.check("input[name=trump][value=hearts]")
    next_(p)
    p.check("input[name=f_by][value=p2]")
    pick_card(p, "f_card", "K", "spades")
    next_(p)
    assert p.locator("input[name=f_by][value=p6]").count() == 0          # five places, not eight
    p.check("input[name=f_by][value=p3]")
    pick_card(p, "f_card", "2", "diamonds")
    next_(p)
    assert "Did Clark hold a spade when he played the two of diamonds?" in p.inner_text("form.build")
    p.check("input[name=held][value=yes]")
    next_(p)
    no_keys_on(p)
    built = rule_it(p)
    TIMES["page: loo revoke at five"] = time.monotonic() - t0
    got = {r["remedy"]: r for r in cli_json("adjudicate", "-", stdin=built.encode())["rulings"]}
    assert set(got) == {"looed-full", "replay-cards", "winnings-to-pool"} and got["looed-full"]["against"] == ["p3"]
    assert "the sixth place" not in p.inner_text("main")
    print("\n" + "\n".join(f"{k}: {v:.1f} s" for k, v in TIMES.items()))


def test_any_step_can_be_changed_or_removed_at_the_review(phone):
    p = phone
    p.goto(p.base + "/build?game=whist")
    p.check("input[name=wrong][value=expose]")
    next_(p)
    next_(p)                                                   # the table: nothing said
    p.check("input[name=f_by][value=W]")
    pick_card(p, "f_card", "Q", "hearts")
    next_(p)
    assert "West" in p.inner_text("ol.told") and "queen of hearts" in p.inner_text("ol.told")
    with p.expect_navigation():                                # something more: the trick turned and quitted
        p.select_option("select#more", "event:turn-and-quit")
        p.click("form.more button")
    next_(p)
    assert p.locator("ol.told > li").count() == 3
    with p.expect_navigation():                                # the exposed card changed: the knave, not the queen
        p.click("ol.told > li >> nth=1 >> button:has-text('Change')")
    assert p.is_checked("input[name=f_card_rank][value=Q]")     # as it was told
    p.check("input[name=f_card_rank][value=J]")
    next_(p)
    assert "knave of hearts" in p.inner_text("ol.told")
    with p.expect_navigation():                                # the trick turned: taken out
        p.click("ol.told > li >> nth=2 >> button:has-text('Remove')")
    assert p.locator("ol.told > li").count() == 2
    no_keys_on(p)
