"""A game's events, clicked through as a person does in headless Chromium at 1400 and 390 px, over the
real service with the test game Pips registered (browser_games): from Pips's index to its events,
into an event, to a game's replay, back, and to a player's page — every page saying it is Pips's, the
rows their game; then the shared events list narrowed to one game and back to every game. Screenshots
of each page go to test-artifacts/screenshots/; the test fails on any console error, a JavaScript
error or a Content-Security-Policy refusal, and on a page that scrolls sideways."""

from __future__ import annotations

import re
import secrets

import pytest
from browser_artifacts import SCREENSHOTS
from browser_games import ingest_config  # noqa: F401  (this module's service knows Pips)
from browser_pages import WIDTHS, new_page, no_sideways_scroll
from service_helpers import make_token, token_client
from tournament import wait_event_done

from engine import games

PIPS_NAME = "Pips (test game)"
PLAYER = "Wren Adair"


@pytest.fixture(scope="module")
def pips_event(app) -> dict:
    """An organiser's public event of Pips: three matches of PLAYER's and one illegal game, replayed by
    the worker; and an event of Battle for Empyrean beside it."""
    rules = games.rules_for("pips")  # registered by the module's app (EMPYREAN_EXTRA_GAMES)
    org = token_client(app, make_token(app, "organiser", name="events by game", owner="Pips League"))
    name = f"Pips League {secrets.token_hex(2)}"
    event = org.post("/api/v1/events", json={"name": name, "game": "pips"}).get_json()
    org.post("/api/v1/events", json={"name": f"Empyrean Open {secrets.token_hex(2)}", "game": "bfe"})
    logs = [dict(rules.self_play(seed), meta={"date": "2026-11-05", "round": rnd, "table": "1",
                                               "players": [PLAYER, opponent]})
            for seed, rnd, opponent in ((1, 1, "Ivo"), (2, 2, "Juno"), (3, 3, "Kit"))]
    illegal = dict(rules.self_play(4), meta={"date": "2026-11-05", "round": 1, "table": "2", "players": ["Lev", "Mia"]})
    illegal["decisions"] = [illegal["decisions"][1], *illegal["decisions"][1:]]
    for log in [*logs, illegal]:
        sent = org.post(f"/api/v1/events/{event['id']}/games", json=log)
        assert sent.status_code == 202, sent.get_json()
    wait_event_done(org, event["id"], len(logs) + 1)
    return {"id": event["id"], "name": name}


def shoot(page, name: str, size: str) -> None:
    no_sideways_scroll(page, size)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{WIDTHS[size]['width']}.png"), full_page=True)


def says_pips(page) -> None:
    """The page is Pips's: the switcher names it and its navigation is Pips's own."""
    assert page.inner_text("#game-switcher > summary").strip().endswith(PIPS_NAME)
    assert page.locator("#game-nav a").all_inner_texts() == ["About the game", "Record a game", "Events & disputes"]


@pytest.mark.parametrize("size", list(WIDTHS))
def test_from_a_game_s_index_to_its_events_an_event_a_replay_and_a_player(bare_site, browser, pips_event, size):
    base = bare_site
    context, page, problems = new_page(browser, size)
    console: list[str] = []  # every console error of the pages clicked through
    page.on("console", lambda m: console.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    try:
        page.goto(f"{base}/pips/")
        with page.expect_navigation():
            page.click("#events-link")
        assert page.url == f"{base}/pips/events"
        assert page.inner_text("h1") == f"Events & disputes of {PIPS_NAME}"
        says_pips(page)
        assert page.get_attribute("#game-nav a:has-text('Events & disputes')", "aria-current") == "page"
        assert page.get_attribute("#game-filter a[data-game=pips]", "aria-current") == "page"
        row = page.locator("#panel-events tbody tr", has_text=pips_event["name"])
        assert row.locator("td").nth(1).inner_text() == PIPS_NAME
        assert page.locator("#panel-events tbody tr", has_text="Empyrean Open").count() == 0
        shoot(page, "events-of-pips", size)

        with page.expect_navigation():
            row.locator("a", has_text=pips_event["name"]).click()
        assert page.url == f"{base}/events/{pips_event['id']}"
        assert page.inner_text("#event-game") == PIPS_NAME
        says_pips(page)
        flagged = page.locator("#panel-flagged tbody tr")
        assert flagged.count() == 1 and flagged.locator("td").last.inner_text() == PIPS_NAME
        standings = page.locator("#panel-standings tbody tr")
        # Wren, the three they played, and the two of the illegal game (a match left out)
        assert standings.count() == 6, standings.all_inner_texts()
        shoot(page, "event-of-pips", size)

        # the flagged game's replay: the viewer lists a Pips game's lines, in Pips's navigation
        with page.expect_navigation():
            flagged.locator("a[href$='/replay']").click()
        assert re.search(r"/games/\d+/replay$", page.url)
        says_pips(page)
        assert PIPS_NAME in page.inner_text("main")
        shoot(page, "replay-of-pips", size)

        page.go_back()
        with page.expect_navigation():
            page.locator(f"#panel-standings a:text-is('{PLAYER}')").click()
        assert page.url == f"{base}/pips/players/{PLAYER.replace(' ', '%20')}"
        says_pips(page)
        assert page.inner_text("#player-summary").startswith(f"{PIPS_NAME}:")
        matches = page.locator("#panel-player-matches tbody tr")
        assert matches.count() == 3
        assert {row.locator("td").nth(1).inner_text() for row in matches.all()} == {PIPS_NAME}
        assert page.locator("#panel-player-decks h2").inner_text().startswith("Colours played")
        shoot(page, "player-of-pips", size)

        # the player's games of every game, by the filter; and the shared events list narrowed and widened
        with page.expect_navigation():
            page.click("#game-filter a:text-is('every game')")
        assert page.url == f"{base}/players/{PLAYER.replace(' ', '%20')}"
        assert page.locator("#panel-player-matches tbody tr").count() == 3
        page.goto(f"{base}/events")
        with page.expect_navigation():
            page.click("#game-filter a[data-game=pips]")
        assert page.locator("#panel-events tbody tr", has_text="Empyrean Open").count() == 0
        with page.expect_navigation():
            page.click("#game-filter a:text-is('every game')")
        assert page.locator("#panel-events tbody tr", has_text="Empyrean Open").count() == 1
        shoot(page, "events-every-game", size)
        assert not console, console

        # a game that is not here: a page that says so, never a 500
        assert page.goto(f"{base}/events?game=nosuch").status == 400
        assert "game: there is no game “nosuch” here" in page.inner_text("[role=alert]")
        assert page.goto(f"{base}/nosuch/events").status == 404
        shoot(page, "events-no-such-game", size)
    finally:
        context.close()
    assert not problems, problems
