"""The replay viewer in headless Chromium: it steps through a game with the buttons and the
keyboard, keeps the step in the URL, opens an illegal game at its failing decision — named by the
same number as `empyrean verify`, the API's message and the decision list — and a mismatch game at
its final board; "Show the board at this decision" shows it even when the viewer is already there;
a disputed game links to its dispute, the other upload and the ruling; each card shows its cost,
might and text on hover and on tap; on a phone the stepper stays on screen and the decision list
follows the step. Screenshots at 1400 and 390 px."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest
from browser_artifacts import SCREENSHOTS
from service_helpers import as_admin

DESKTOP = {"viewport": {"width": 1400, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def game_with_status(db, event_id: int, status: str) -> int:
    row = db.execute("SELECT id FROM games WHERE event_id = %s AND status = %s ORDER BY id LIMIT 1",
                     (event_id, status)).fetchone()
    assert row, f"the tournament has no {status} game"
    return row[0]


def step_label(page) -> tuple[int, int]:
    """(the step shown, the number of decisions) from the stepper: "Setup" at step 0, else "After
    decision N of M", N being the step in these logs (written in the order the rules take them)."""
    text = page.locator("#step-label").text_content()
    total = page.locator("#decision-list li[data-number]").count()
    if text == "Setup":
        return 0, total
    found = re.fullmatch(r"After decision (\d+) of (\d+)", text)
    assert found, text
    assert int(found[2]) == total
    assert int(page.get_attribute("#replay", "data-step")) == int(found[1])
    return int(found[1]), total


def board_comes_up(page, timeout_s: float = 5) -> None:
    """Wait for the board to be scrolled up to the stepper (a smooth scroll takes a moment; the
    page's CSP allows no eval, so no wait_for_function)."""
    deadline = time.monotonic() + timeout_s
    while page.evaluate("document.getElementById('board').getBoundingClientRect().top") > 200:
        assert time.monotonic() < deadline, "the board was not brought into view"
        page.wait_for_timeout(50)


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


@pytest.fixture
def wide(browser, request):
    """A 1400 px page that fails the test on a JavaScript error or a dialog."""
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    yield page
    context.close()
    assert not problems, problems


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
    # the decision just applied is the list's current line, with the same number
    current = page.locator("#decision-list li.current")
    assert current.get_attribute("data-number") == "5"
    # and the line under the stepper
    assert page.locator("#step-now .label").inner_text().strip() == "Decision 5:"
    assert page.locator("#step-now .just").inner_text() == current.locator("a").inner_text().split(" ", 1)[1]
    page.keyboard.press("End")
    assert step_label(page) == (total, total)
    page.click("#step-first")
    assert step_label(page)[0] == 0
    # the whole board: three battlefields with both sides, and what the players hold
    text = page.locator("#board").inner_text()
    assert text.count("B1") >= 1 and "B3" in text


def test_the_heading_names_the_game_then_its_decks_and_the_verdict_in_words(site, wide, db):
    base, facts = site
    page = wide
    game = game_with_status(db, facts["event"], "valid")
    body = page.request.get(f"{base}/api/v1/games/{game}").json()
    timeline = page.request.get(f"{base}/games/{game}/timeline.json").json()
    names = [p["name"] for p in timeline["players"]]
    round_, table = db.execute("SELECT m.round, m.table_label FROM games g JOIN event_matches m ON m.id = g.match_id "
                               "WHERE g.id = %s", (game,)).fetchone()
    title = f"R{round_} · T{table} · {names[0]} vs {names[1]}"
    assert timeline["game"]["title"] == title
    page.goto(f"{base}/games/{game}/replay")
    heading = page.locator("h1#game-title").inner_text()
    decks = " vs ".join(p["deck"] for p in timeline["players"])
    assert heading.startswith(title) and decks in heading
    assert page.title().startswith(title)
    # the verdict: the status, then the result in words — the API's message, which says who won
    verdict = page.locator("#verdict").inner_text()
    winner = names[body["record"]["winner"] - 1]
    assert re.match(rf"{winner} wins \d–\d(, total might \d+–\d+)?: B1 ", body["message"])
    assert body["message"] in verdict
    assert "valid:" not in verdict.lower() and "might per battlefield" not in verdict
    assert page.locator("script[src*='plotly']").count() == 0  # no figures, no plotly.js


def test_an_illegal_decision_has_one_number_in_the_cli_the_api_the_red_box_the_stepper_and_the_list(
        site, wide, db):
    base, facts = site
    page = wide
    game = game_with_status(db, facts["event"], "illegal")
    body = page.request.get(f"{base}/api/v1/games/{game}").json()
    verdict = body["verdict"]
    index = verdict["decision_index"]  # the machine's field: 0-based
    number = index + 1  # what people read: the log's decision lines counted from 1
    raw = page.request.get(f"{base}/api/v1/games/{game}/log").text()
    cli = subprocess.run([sys.executable, "-m", "services.cli", "verify", "-"], input=raw, capture_output=True,
                         text=True, timeout=120)
    assert f": ILLEGAL at decision {number} (round " in cli.stdout, cli.stdout + cli.stderr
    assert body["message"].startswith(f"decision {number} (")  # the API's message
    page.goto(f"{base}/games/{game}/replay")
    reason = page.locator("#illegal-reason")
    reason.wait_for()
    total = page.locator("#decision-list li[data-number]").count()
    assert reason.locator("h2").inner_text() == f"Decision {number} of {total} breaks the rules"
    assert verdict["rule"] in reason.inner_text() and verdict["decision"] in reason.inner_text()
    assert step_label(page) == (number - 1, total)  # the board after decision N - 1: just before it
    illegal = page.locator("#decision-list li.illegal-decision")
    assert illegal.get_attribute("data-number") == str(number)
    assert illegal.locator(".dn").inner_text() == str(number)
    assert verdict["decision"] in illegal.inner_text()
    assert f"Decision {number}, next in the log, breaks the rules" in page.locator("#step-now").inner_text()
    assert page.locator("#decision-list li.current").get_attribute("data-number") == str(number - 1)
    # the illegal decision cannot be applied: there is no step past it
    assert page.locator("#step-forward").is_disabled()
    page.keyboard.press("ArrowRight")
    assert step_label(page)[0] == index
    page.click("#step-back")
    assert step_label(page)[0] == index - 1
    shot(page, "replay_illegal-1400")


def test_show_the_board_works_when_the_viewer_is_already_at_that_decision(site, wide, db):
    base, facts = site
    page = wide
    game = game_with_status(db, facts["event"], "illegal")
    page.goto(f"{base}/games/{game}/replay")
    link = page.locator("#illegal-reason a.goto-failure")
    step = int(link.get_attribute("data-step"))
    assert step_label(page)[0] == step  # already there
    url = page.url
    page.evaluate("window.scrollTo(0, 0)")
    board = page.locator("#board")
    board_top_before = board.bounding_box()["y"]
    link.click()
    # the board is brought up under the sticky stepper, flashed and focused; the step is unchanged
    board_comes_up(page)
    assert board.bounding_box()["y"] < board_top_before
    assert "flash" in board.get_attribute("class")
    assert page.evaluate("document.activeElement.id") == "board"
    assert step_label(page)[0] == step and page.url.split("#")[0] == url.split("#")[0]
    stepper = page.locator("#stepper").bounding_box()
    assert stepper["y"] >= 0 and stepper["y"] + stepper["height"] <= board.bounding_box()["y"] + 1
    # from another step, the link goes back to the failing decision and shows it too
    page.click("#step-first")
    page.evaluate("window.scrollTo(0, 0)")
    link.click()
    assert step_label(page)[0] == step
    board_comes_up(page)
    shot(page, "replay_show_board_already_there-1400")


def test_a_mismatch_game_opens_at_its_final_board_with_the_claims_explained(site, wide, db):
    base, facts = site
    page = wide
    game = game_with_status(db, facts["event"], "mismatch")
    timeline = page.request.get(f"{base}/games/{game}/timeline.json").json()
    page.goto(f"{base}/games/{game}/replay")
    box = page.locator("#mismatch-reason")
    box.wait_for()
    last = len(timeline["frames"]) - 1
    assert step_label(page)[0] == last and page.locator("#step-forward").is_disabled()
    for error in timeline["verdict"]["errors"]:
        assert error["message"] in box.inner_text()
    assert "Game over" in page.locator("#step-now").inner_text()
    # its link shows the final board from anywhere
    page.click("#step-first")
    box.locator("a.goto-final").click()
    assert step_label(page)[0] == last
    assert "?step=" not in page.url or re.search(rf"[?&]step={last}\b", page.url)
    shot(page, "replay_mismatch-1400")


def test_a_disputed_game_links_to_its_dispute_the_other_upload_and_then_the_ruling(site, app, wide, db):
    base, facts = site
    page = wide
    row = db.execute("""SELECT d.id, g.id FROM disputes d JOIN games g ON g.match_id = d.match_id
                        JOIN event_matches m ON m.id = d.match_id
                        WHERE m.event_id = %s AND d.status = 'open' AND g.status = 'valid'
                        ORDER BY d.id, g.id LIMIT 1""",
                     (facts["event"],)).fetchone()
    assert row, "the tournament has no open dispute"
    dispute, game = row
    others = [r[0] for r in db.execute("SELECT o.id FROM games o JOIN disputes d ON d.match_id = o.match_id "
                                       "WHERE d.id = %s AND o.id <> %s ORDER BY o.id", (dispute, game))]
    assert others
    page.goto(f"{base}/games/{game}/replay")
    note = page.locator("#dispute-note")
    assert "in dispute" in note.inner_text()
    assert page.get_attribute("#dispute-link", "href") == f"/disputes/{dispute}"
    links = note.locator("a.other-upload")
    assert [links.nth(k).get_attribute("href") for k in range(links.count())] == [f"/games/{o}/replay" for o in others]
    links.first.click()  # the other upload's replay, which links back
    # the viewer writes its step into the URL (?step=N) once drawn: match the page with or without it
    page.wait_for_url(re.compile(rf"/games/{others[0]}/replay(\?|$)"))
    assert page.get_attribute("#dispute-link", "href") == f"/disputes/{dispute}"
    assert f"/games/{game}/replay" in [a.get_attribute("href") for a in page.locator("a.other-upload").all()]
    # the organiser rules: the page says which game counts and the ruling
    ruling = "Game stands: the other upload claims a result its own decisions do not give."
    answer = as_admin(app).post(f"/api/v1/disputes/{dispute}/resolve", json={"resolution": ruling, "counts": game})
    assert answer.status_code == 200, answer.get_json()
    page.goto(f"{base}/games/{game}/replay")
    assert "This game counts for the match." in page.locator("#dispute-ruling").inner_text()
    assert ruling in page.locator("#dispute-ruling").inner_text()
    shot(page, "replay_dispute_resolved-1400")
    page.goto(f"{base}/games/{others[0]}/replay")
    assert f"Game {game} counts for the match, not this one." in page.locator("#dispute-ruling").inner_text()


def catalog_card(page, base: str, catalog: str, name: str) -> dict:
    cards = page.request.get(f"{base}/api/v1/catalog/{catalog}").json()["cards"]
    return next(c for c in cards if c["name"] == name)


def test_a_card_shows_its_cost_might_and_text_on_hover_and_on_tap(site, wide, db):
    base, facts = site
    page = wide
    game = game_with_status(db, facts["event"], "valid")
    page.goto(f"{base}/games/{game}/replay?step=30")
    catalog = page.request.get(f"{base}/games/{game}/timeline.json").json()["catalog"]
    card = page.locator("#board .battlefields .zone .card-btn").first
    name = card.inner_text()
    facts_ = catalog_card(page, base, catalog, name)
    title = card.get_attribute("title")  # the hover
    assert title.startswith(f"{name} — Cost {facts_['cost']} · might {facts_['might']}")
    assert (facts_["text"] or "No ability.") in title
    card.hover()
    card.click()  # a click or a tap: the dialog
    dialog = page.locator("#card-info")
    assert dialog.is_visible()
    assert page.locator("#card-info-name").inner_text() == name
    assert f"Cost {facts_['cost']} · might {facts_['might']}" in page.locator("#card-info-stats").inner_text()
    assert page.locator("#card-info-text").inner_text() == (facts_["text"] or "No ability.")
    shot(page, "replay_card_info-1400")
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    before = step_label(page)[0]
    page.keyboard.press("ArrowRight")  # the keys step again once the dialog is closed
    assert step_label(page)[0] == before + 1
    # cards in hand too
    hand = page.locator("#board .hand .card-btn").first
    assert "Cost " in hand.get_attribute("title")


def test_on_a_phone_a_tapped_card_shows_its_facts_the_stepper_stays_and_the_list_follows(site, phone, db):
    base, facts = site
    page = phone
    game = game_with_status(db, facts["event"], "valid")
    page.goto(f"{base}/games/{game}/replay?step=40")
    catalog = page.request.get(f"{base}/games/{game}/timeline.json").json()["catalog"]
    card = page.locator("#board .battlefields .zone .card-btn").first
    name = card.inner_text()
    card.tap()
    assert page.locator("#card-info").is_visible()
    facts_ = catalog_card(page, base, catalog, name)
    assert f"Cost {facts_['cost']} · might {facts_['might']}" in page.locator("#card-info-stats").inner_text()
    box = page.locator("#card-info").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(page, "replay_card_info-390")
    page.locator("#card-info button").tap()
    assert not page.locator("#card-info").is_visible()
    # scrolled down to the decision list, the stepper is still on screen
    page.locator("#decision-list").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    stepper = page.locator("#stepper").bounding_box()
    assert 0 <= stepper["y"] and stepper["y"] + stepper["height"] <= 844
    for _ in range(3):
        page.locator("#step-forward").tap()
    assert step_label(page)[0] == 43
    # the list is scrolled to the current step: its line is inside the list's visible box
    current = page.locator("#decision-list li.current").bounding_box()
    listbox = page.locator("#decision-list").bounding_box()
    assert listbox["y"] - 1 <= current["y"] and current["y"] + current["height"] <= listbox["y"] + listbox["height"] + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "replay_stepper_sticky-390")


@pytest.mark.parametrize("status", ["valid", "illegal", "mismatch"])
def test_the_replay_viewer_fits_a_phone(site, phone, db, status):
    base, facts = site
    game = game_with_status(db, facts["event"], status)
    phone.goto(f"{base}/games/{game}/replay")
    phone.wait_for_selector("#board")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, f"replay_{status}-390")
