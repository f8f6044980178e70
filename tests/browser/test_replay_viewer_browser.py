"""The replay viewer in headless Chromium: it steps through a game with the buttons and the
keyboard, keeps the step in the URL, and opens an illegal game at its failing decision."""

from __future__ import annotations

import re

import pytest


def game_with_status(db, event_id: int, status: str) -> int:
    row = db.execute("SELECT id FROM games WHERE event_id = %s AND status = %s ORDER BY id LIMIT 1",
                     (event_id, status)).fetchone()
    assert row, f"the tournament has no {status} game"
    return row[0]


def step_label(page) -> tuple[int, int]:
    text = page.locator("#step-label").text_content()
    found = re.search(r"Decision (\d+) of (\d+)", text)
    assert found, text
    return int(found[1]), int(found[2])


def test_stepping_forward_and_back_with_buttons_and_keys(site, page, db):
    base, facts = site
    game = game_with_status(db, facts["event"], "valid")
    page.goto(f"{base}/games/{game}/replay?step=0")
    page.wait_for_selector("#board")
    assert step_label(page)[0] == 0
    total = step_label(page)[1]
    assert total > 20
    board_before = page.locator("#board").inner_text()
    for _ in range(5):
        page.click("#step-forward")
    assert step_label(page) == (5, total)
    assert page.locator("#board").inner_text() != board_before  # the board follows the decisions
    page.click("#step-back")
    assert step_label(page)[0] == 4
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_label(page)[0] == 6
    page.keyboard.press("ArrowLeft")
    assert step_label(page)[0] == 5
    assert re.search(r"[?&]step=5\b", page.url)  # a link to this step can be shared
    page.keyboard.press("End")
    assert step_label(page) == (total, total)
    page.click("#step-first")
    assert step_label(page)[0] == 0
    # the whole board: three battlefields with both sides, and what the players hold
    text = page.locator("#board").inner_text()
    assert text.count("B1") >= 1 and "B3" in text


def test_an_illegal_game_opens_at_its_failing_decision_with_the_reason(site, page, db):
    base, facts = site
    game = game_with_status(db, facts["event"], "illegal")
    verdict = page.request.get(f"{base}/api/v1/games/{game}").json()["verdict"]
    page.goto(f"{base}/games/{game}/replay")
    reason = page.locator("#illegal-reason")
    reason.wait_for()
    assert verdict["rule"] in reason.inner_text()
    assert verdict["decision"] in reason.inner_text()
    assert step_label(page)[0] == verdict["decision_index"]  # the board before the offending decision
    # the illegal decision cannot be applied: there is no step past it
    assert page.locator("#step-forward").is_disabled()
    page.keyboard.press("ArrowRight")
    assert step_label(page)[0] == verdict["decision_index"]
    page.click("#step-back")
    assert step_label(page)[0] == verdict["decision_index"] - 1


@pytest.mark.parametrize("status", ["valid", "illegal"])
def test_the_replay_viewer_fits_a_phone(site, phone, db, status):
    base, facts = site
    game = game_with_status(db, facts["event"], status)
    phone.goto(f"{base}/games/{game}/replay")
    phone.wait_for_selector("#board")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
