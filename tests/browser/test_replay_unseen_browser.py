"""The replay viewer in headless Chromium on logs written as people see a game at a table: a card
nobody at the recording seat saw is named "?" in the timeline and is drawn as an "unseen" card (in
the hand, the draft and the piles), never as the text "?"; the header says how many of a player's
cards were not seen. Checked at 1400 px and at 390 px, with no console errors."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from service_helpers import as_admin, wait_final

from engine.bfe.selfplay import self_play
from engine.seats import as_recorded, hide, seat_view

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SEAT_VIEW_SEED = 8  # a game whose seat view (P1's) has P2's unseen cards in hand and in the discard
HIDE_SEED = 2  # P2's draws written '?' without a seat view: P2 drafts unseen cards
WIDTHS = {"desktop": {"viewport": {"width": 1400, "height": 900}},
          "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


def upload(app, log: dict) -> int:
    client = as_admin(app)
    response = client.post("/api/v1/games", data=json.dumps(log).encode(), content_type="application/json")
    assert response.status_code == 202, response.get_json()
    gid = response.get_json()["id"]
    assert wait_final(client, gid)["status"] == "valid"
    return gid


@pytest.fixture(scope="module")
def seat_view_game(app):
    """A valid game written from P1's seat: P2's draws and keeps are not in the log."""
    log = seat_view(as_recorded(self_play(SEAT_VIEW_SEED, meta={"players": ["Ann", "Bo"]})), 1)
    assert log["chance"]["view"] == 1
    return upload(app, log)


@pytest.fixture(scope="module")
def hidden_game(app):
    """A valid game with P2's draws and keeps written '?' (no seat view)."""
    return upload(app, hide(as_recorded(self_play(HIDE_SEED)), 2))


@contextmanager
def watched(browser, name: str, **options):
    """A fresh page that fails the test on a console error, a JavaScript error or a dialog, and
    leaves a full-page screenshot named ``name``."""
    context = browser.new_context(**options)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on("dialog", lambda dialog: (problems.append(f"dialog opened: {dialog.message}"), dialog.dismiss()))
    try:
        yield page
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    finally:
        context.close()
    assert not problems, problems


def first_frame(timeline: dict, seat: int, *piles: str) -> int:
    """The first frame where player ``seat`` has an unseen card in each of ``piles``."""
    for frame in timeline["frames"]:
        p = frame["players"][seat - 1]
        if all("?" in p[pile] for pile in piles):
            return frame["index"]
    raise AssertionError(f"no frame where P{seat} has unseen cards in {piles}")


def step_label(page) -> int:
    """The step shown: the stepper says "Setup" or "After decision N of M" (N: the decision just
    applied, as the log's lines are counted; the step in these logs)."""
    label = page.locator("#step-label").text_content()
    found = re.fullmatch(r"After decision (\d+) of \d+", label)
    assert found or label == "Setup", label
    step = int(page.get_attribute("#replay", "data-step"))
    assert step == (int(found[1]) if found else 0)
    return step


def assert_shown_as_unseen(page, player: dict, seat: int) -> None:
    """Player ``seat``'s box shows each of their unseen cards as an unseen mark, and no '?' at all."""
    box = page.locator(f"#board .player.seat-{seat}")
    hand = box.locator("ul.hand > li.card")
    marks = box.locator("ul.hand > li.card.unseen")
    assert hand.count() == len(player["hand"])
    assert marks.count() == player["hand"].count("?") > 0
    for k in range(marks.count()):
        mark = marks.nth(k)
        assert mark.text_content() == "unseen"
        assert "nobody at the recording seat saw" in mark.get_attribute("title")
        # drawn distinctly: a dashed border, not the solid one of a named card
        assert mark.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
        assert mark.is_visible()
    named = [hand.nth(k).text_content() for k in range(hand.count())
             if "unseen" not in hand.nth(k).get_attribute("class")]
    assert named == [n for n in player["hand"] if n != "?"]
    assert "?" not in box.inner_text()


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_seat_view_game_shows_the_opponents_cards_as_unseen(site, browser, app, seat_view_game, width):
    base, _ = site
    gid = seat_view_game
    with watched(browser, f"test_replay_unseen_seat_view-{width}", **WIDTHS[width]) as page:
        timeline = page.request.get(f"{base}/games/{gid}/timeline.json").json()
        assert timeline["verdict"]["unseen"][0] == 0 and timeline["verdict"]["unseen"][1] > 0
        step = first_frame(timeline, 2, "hand", "discard")
        page.goto(f"{base}/games/{gid}/replay?step=0")
        page.wait_for_selector("#board .player")
        # a table's log opens on the opening hands: "Before round 1", as the recorder says it
        assert page.locator(".where").first.inner_text().startswith("Before round 1 · setup phase")
        # the header says how many of P2's cards were never seen, and nothing about P1
        note = page.locator("#unseen-note")
        assert note.inner_text().strip() == (f"{timeline['verdict']['unseen'][1]} of P2's cards were not seen "
                                             "at the recording seat")
        assert "P1" not in note.inner_text()
        if width == "desktop":
            page.click(f'#decision-list li[data-step="{step - 1}"] a')  # jump there in the decision list
            page.click("#step-forward")
        else:
            page.goto(f"{base}/games/{gid}/replay?step={step + 1}")
            page.wait_for_selector("#board .player")
            page.click("#step-back")
        assert step_label(page) == step
        frame = timeline["frames"][step]
        p1, p2 = frame["players"]
        assert "?" not in p1["hand"] and "?" not in p1["discard"]  # P1 wrote the log: every card of theirs is known
        assert_shown_as_unseen(page, p2, 2)
        assert page.locator("#board .player.seat-1 .unseen").count() == 0
        # P2's discard: the summary counts the unseen cards, the list shows them as one "N unseen" mark
        pile = page.locator("#board .player.seat-2 details.pile").filter(has_text="Discard")
        n = p2["discard"].count("?")
        assert pile.locator("summary").inner_text() == f"Discard ({len(p2['discard'])}, {n} unseen)"
        pile.locator("summary").click()
        marks = pile.locator(".unseen-cards")
        assert marks.count() >= 1 and marks.first.is_visible()
        assert sum(int(m.split()[0]) if m[0].isdigit() else 1 for m in marks.all_text_contents()) == n
        assert "?" not in pile.inner_text()
        # the board itself never holds an unseen card
        assert "?" not in page.locator("#board .battlefields").inner_text()
        if width == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.evaluate("window.scrollTo(0, 0)")  # the full-page screenshot with the sticky step bar in its place


def test_an_unseen_card_in_the_draft_is_shown_as_unseen(site, browser, app, hidden_game):
    base, _ = site
    gid = hidden_game
    with watched(browser, "test_replay_unseen_draft-desktop", **WIDTHS["desktop"]) as page:
        timeline = page.request.get(f"{base}/games/{gid}/timeline.json").json()
        step = first_frame(timeline, 2, "drafting")
        page.goto(f"{base}/games/{gid}/replay?step={step}")
        page.wait_for_selector("#board .player")
        assert step_label(page) == step
        p2 = timeline["frames"][step]["players"][1]
        assert_shown_as_unseen(page, p2, 2)
        drafting = page.locator("#board .player.seat-2 ul.hand > li.card.drafting.unseen")
        assert drafting.count() == p2["drafting"].count("?") > 0
        assert "drawn in the draft" in drafting.first.get_attribute("title")
        assert page.locator("#unseen-note").count() == 1


def test_a_game_where_every_card_was_seen_shows_nothing_unseen(site, browser, db):
    base, facts = site
    row = db.execute("SELECT id FROM games WHERE event_id = %s AND status = 'valid' ORDER BY id LIMIT 1",
                     (facts["event"],)).fetchone()
    assert row, "the tournament has no valid game"
    with watched(browser, "test_replay_unseen_none-desktop", **WIDTHS["desktop"]) as page:
        page.goto(f"{base}/games/{row[0]}/replay?step=20")
        page.wait_for_selector("#board .player")
        assert page.locator("#unseen-note").count() == 0
        assert page.locator("#board .unseen").count() == 0
