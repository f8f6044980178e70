"""An event's standings and a player's page in headless Chromium, as an organiser and a player use
them: the event page shows the standings table, its CSV downloads, a player's name leads to their
page (matches, decks, win rate with its interval, replay links), at 1400 px and at 390 px without
sideways scrolling; a Spells & Steam event's standings show each player's total and mean victory
points after the points and the W–D–L. Screenshots of both widths are kept in
test-artifacts/screenshots/."""

from __future__ import annotations

import csv
import io
import re
from contextlib import contextmanager

import pytest
from browser_pages import WIDTHS, new_page, no_sideways_scroll
from extra_game import ndjson
from service_helpers import as_admin
from tournament import wait_event_done

from dashboards.panels import number
from engine.steam.rules import RULES as STEAM

STEAM_EVENT = "Steam Standings Night"
# (round, table, players, seed): Spells & Steam tables of 2 to 4, every player at two of them
STEAM_TABLES = [(1, "1", ("Ada", "Bo"), 61), (1, "2", ("Cai", "Dee", "Eli"), 62),
                (2, "1", ("Ada", "Cai", "Dee", "Eli"), 63), (2, "2", ("Bo", "Fen"), 64), (3, "1", ("Fen", "Ada"), 65)]


@pytest.fixture(scope="module")
def steam_event(app, site):
    """A Spells & Steam event of STEAM_TABLES on the site, every game judged valid: its id."""
    admin = as_admin(app)
    event = admin.post("/api/v1/events", json={"name": STEAM_EVENT, "game": "steam"}).get_json()["id"]
    logs = [STEAM.self_play(seed, bot="random", players=len(seats),
                            meta={"event": STEAM_EVENT, "round": rnd, "table": table, "players": list(seats),
                                  "date": "2026-12-05"}) for rnd, table, seats, seed in STEAM_TABLES]
    answer = admin.post(f"/api/v1/events/{event}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    assert wait_event_done(admin, event, len(logs), timeout=600)["games"] == {"valid": len(logs)}
    return event


@contextmanager
def standings_page(browser, base: str, event: int, size: str, headers: list[str]):
    """The event's page at ``size``, its standings table drawn with ``headers`` and a row per player of
    the API's answer: yields (the API's standings, the page, the table's rows, the problems seen); the
    caller asserts there were none once the page is closed."""
    api = browser.new_context().request.get(f"{base}/api/v1/events/{event}/standings").json()
    context, page, problems = new_page(browser, size)
    try:
        page.goto(f"{base}/events/{event}")
        table = page.locator("#panel-standings table")
        table.wait_for()
        assert table.locator("thead th").all_text_contents() == headers
        rows = table.locator("tbody tr")
        assert rows.count() == len(api["standings"])
        yield api, page, rows, problems
    finally:
        context.close()


@pytest.mark.parametrize("size", list(WIDTHS))
def test_standings_csv_and_a_player_page(site, browser, screenshots, size):
    base, facts = site
    with standings_page(browser, base, facts["event"], size,
                        ["#", "player", "points", "W–D–L", "OMW", "GW", "OOMW", "left out", "deck"]
                        ) as (api, page, rows, problems):
        first = api["standings"][0]
        cells = rows.first.locator("td").all_text_contents()
        assert cells[:3] == [str(first["rank"]), first["player"], str(first["points"])]
        assert page.locator("#panel-left-out tbody tr").count() == len(api["left_out"]) > 0
        no_sideways_scroll(page, size)
        page.screenshot(path=str(screenshots / f"standings-event-{WIDTHS[size]['width']}.png"), full_page=True)
        page.locator("#panel-standings").screenshot(
            path=str(screenshots / f"standings-table-{WIDTHS[size]['width']}.png"))

        with page.expect_download() as info:
            page.click("#panel-standings a.csv")
        download = info.value
        assert download.suggested_filename == f"empyrean-event-{facts['event']}-standings.csv"
        text = open(download.path(), encoding="utf-8").read()
        assert [r["player"] for r in csv.DictReader(io.StringIO(text))] == [r["player"] for r in api["standings"]]

        # a player who has matches left out too: their page says so
        player = next(r for r in api["standings"] if r["matches"] and r["left_out"])
        page.click(f"#panel-standings a:text-is('{player['player']}')")
        page.wait_for_url(re.compile(r"/players/"))
        summary = page.locator("#player-summary").text_content()
        assert f"{player['matches']} counted matches" in " ".join(summary.split())
        assert re.search(r"win rate \d+\.\d% \(\d+\.\d%–\d+\.\d%\)", " ".join(summary.split())), summary
        matches = page.locator("#panel-player-matches tbody tr")
        assert matches.count() == player["matches"] + player["left_out"]
        assert page.locator("#panel-player-decks tbody tr").count() == len(player["decks"])
        no_sideways_scroll(page, size)
        page.screenshot(path=str(screenshots / f"standings-player-{WIDTHS[size]['width']}.png"), full_page=True)
        page.locator("#panel-player-matches").screenshot(
            path=str(screenshots / f"standings-player-matches-{WIDTHS[size]['width']}.png"))

        page.locator("#panel-player-matches a[href$='/replay']").first.click()
        page.wait_for_url(re.compile(r"/games/\d+/replay"))
        page.wait_for_selector("#board")
    assert not problems, problems


@pytest.mark.parametrize("size", list(WIDTHS))
def test_steam_standings_show_total_and_mean_scores(site, steam_event, browser, screenshots, size):
    base, _ = site
    with standings_page(browser, base, steam_event, size,
                        ["#", "player", "points", "W–D–L", "total score", "mean score", "OMW", "GW", "OOMW",
                         "left out", "deck"]) as (api, page, rows, problems):
        for i, want in enumerate(api["standings"]):
            cells = rows.nth(i).locator("td").all_text_contents()
            assert [c.strip() for c in cells[:6]] == [str(want["rank"]), want["player"], str(want["points"]),
                                                      f"{want['wins']}–{want['draws']}–{want['losses']}",
                                                      str(want["total_score"]), number(want["mean_score"])]
        no_sideways_scroll(page, size)
        page.locator("#panel-standings").screenshot(
            path=str(screenshots / f"standings-steam-table-{WIDTHS[size]['width']}.png"))
    assert not problems, problems
