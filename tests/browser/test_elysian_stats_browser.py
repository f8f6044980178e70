"""Elysian Battlefields' statistics pages in headless Chromium (issue 29), over Elysian events the real
worker judged and counted: self-played games at 2 and 3 players, and an event recorded with a die
loaded towards sixes (tests/services/elysian_dice.py). From the game's index /elysian/ each page is
reached by its link at 1400 and 390 px; every figure is drawn with its n; each table's numbers are the
API's (/api/v1/stats/elysian/…) at 2 players, then again after the form's *Players* is switched to 3
(a plain GET form: Apply); the loaded dice are flagged in words; no console error, nothing scrolling
sideways. Screenshots: test-artifacts/screenshots/elysian-stats-<page>-<players>p-<size>.png."""

from __future__ import annotations

import csv
import io

import pytest
import requests
from browser_artifacts import SCREENSHOTS
from browser_pages import (
    TABLE,
    WIDTHS,
    api_rows,
    check_figures,
    from_game_index,
    new_page,
    no_sideways_scroll,
    shown_rows,
    stats_api,
)
from elysian_dice import SIXES_TWICE, recorded_game
from extra_game import ndjson
from service_helpers import as_admin, documented_csvs, served_at
from tournament import wait_event_done

from dashboards.datasets import DATASETS
from dashboards.elysian import audit_words, end_words, name
from dashboards.elysian_figures import ordinal
from dashboards.panels import number, rate_cell
from engine.elysian.rules import RULES

NAME, LOADED = "Elysian Browser Open", "Loaded Dice Night"
NAMES = ["Ada", "Bo", "Cai"]
LOADED_PLAYERS = ["Lou", "Lex"]
MIN_GAMES = 5  # set with the form at 3 players, so that some bars are in colour


# page label -> its panels: panel id -> (the API statistic, the answer's list, the table's columns, their cells)
PAGES = {
    "Heroes": {
        "hero-win-rates": ("heroes", "rows", ["hero", "picked", "wins", "win rate (95% CI)", "pick rate (95% CI)"],
                           lambda r: [name(r["hero"]), r["games"], r["wins"], rate_cell(r["win_rate"]),
                                      rate_cell(r["pick_rate"])]),
        "hero-picks": None,
    },
    "Victories & length": {
        "victory-types": ("victories", "rows", ["won by", "games", "share (95% CI)"],
                          lambda r: [end_words(r["end_reason"]), r["games"], rate_cell(r["share"])]),
        "hero-victories": ("victories", "heroes", ["hero", "won by", "wins", "share of its wins (95% CI)"],
                           lambda r: [name(r["hero"]), end_words(r["end_reason"]), r["wins"],
                                      rate_cell(r["share_of_wins"])]),
        "lengths": ("length", "rows", ["ended by", "games", "mean rounds"],
                    lambda r: [end_words(r["end_reason"]), r["games"], number(r["rounds_mean"])]),
    },
    "Turn order & eliminations": {
        "turn-order": ("seats", "rows", ["position", "seat-games", "wins", "win rate (95% CI)"],
                       lambda r: [ordinal(r["position"]), r["games"], r["wins"], rate_cell(r["win_rate"])]),
        "first-out": ("eliminations", "rows", ["position", "first out (95% CI)", "eliminated (95% CI)"],
                      lambda r: [ordinal(r["position"]), rate_cell(r["out_first"]), rate_cell(r["eliminated"])]),
        "order-out": None,
    },
    "Cards": {
        "card-win-rates": ("cards", "rows", ["card", "games played in", "win rate when played (95% CI)"],
                           lambda r: [name(r["card"]), r["played_games"], rate_cell(r["win_rate"])]),
    },
    "Dice audit": {
        "dice-players": ("dice", "rows", ["player", "audit", "games", "dice"],
                         lambda r: [r["player"], audit_words(r), r["games"], r["dice"]]),
        "dice-events": ("dice", "events", ["event", "audit", "games", "dice"],
                        lambda r: [r["event"], audit_words(r), r["games"], r["dice"]]),
    },
}
def upload(admin, event_name: str, logs: list[dict]) -> None:
    event = admin.post("/api/v1/events", json={"name": event_name, "game": "elysian"}).get_json()["id"]
    answer = admin.post(f"/api/v1/events/{event}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    assert wait_event_done(admin, event, len(logs))["games"] == {"valid": len(logs)}


@pytest.fixture(scope="module")
def elysian_site(app):
    admin = as_admin(app)
    played = [RULES.self_play(seed, bot="random", players=players,
                              meta={"event": NAME, "players": NAMES[:players], "date": "2026-11-02"})
              for players, seeds in ((2, range(16)), (3, range(100, 112))) for seed in seeds]
    upload(admin, NAME, played)
    loaded = [recorded_game(seed, 2, SIXES_TWICE, {"event": LOADED, "players": LOADED_PLAYERS, "date": "2026-11-03"})
              for seed in range(3000, 3024)]
    upload(admin, LOADED, loaded)
    with served_at(app) as url:
        yield url


def check_tables(page, base: str, panels, query: str) -> None:
    """Each panel's table holds the API's rows, in its order, at the page's filters."""
    for panel, spec in panels.items():
        if spec is None:
            continue
        statistic, key, columns, cells = spec
        shown, flagged = shown_rows(page, panel, columns)
        body = stats_api(base, "elysian", statistic, query)
        assert shown == api_rows(body, key, cells), (panel, query)
        if statistic == "dice":
            assert flagged == [r["flagged"] for r in body[key]], panel


@pytest.mark.parametrize("size", list(WIDTHS))
def test_each_elysian_statistics_page_shows_the_api_s_numbers_at_each_table_size(elysian_site, browser, size):
    context, page, problems = new_page(browser, size, console_errors=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for label, panels in PAGES.items():
            from_game_index(page, elysian_site, "elysian", label)
            assert page.locator("h1").inner_text().startswith("Elysian:")
            assert "Elysian Battlefields" in page.locator("#game-switcher > summary").inner_text()
            slug = page.url.rstrip("/").rsplit("/", 1)[-1]
            for players, query in ((2, "players=2"), (3, f"players=3&min_games={MIN_GAMES}")):
                if players == 3:  # the form, as a person uses it: choose, then Apply
                    page.select_option("#filters select[name=players]", "3")
                    page.fill("#filters input[name=min_games]", str(MIN_GAMES))
                    page.click("#filters button[type=submit]")
                    page.wait_for_url("**players=3**")
                    assert page.locator("#filters select[name=players]").input_value() == "3"
                check_figures(page, panels)
                check_tables(page, elysian_site, panels, query)
                no_sideways_scroll(page, size)
                page.screenshot(path=str(SCREENSHOTS / f"elysian-stats-{slug}-{players}p-{size}.png"),
                                full_page=True)
    finally:
        context.close()
    assert not problems, problems


def test_the_dice_audit_says_in_words_which_player_and_event_the_loaded_die_flags(elysian_site, browser):
    context, page, problems = new_page(browser, "desktop")
    try:
        page.goto(f"{elysian_site}/elysian/dice?players=2")
        players = page.evaluate(TABLE, "dice-players")
        flagged = {row[0] for row, mark in zip(players["rows"], players["flagged"]) if mark}
        assert flagged == set(LOADED_PLAYERS)
        assert all(row[1].startswith("FLAGGED: faces") for row in players["rows"] if row[0] in flagged)
        events = page.evaluate(TABLE, "dice-events")
        assert [row[0] for row, mark in zip(events["rows"], events["flagged"]) if mark] == [LOADED]
        assert "FLAGGED" in page.locator("#panel-dice-players .note").inner_text()
        for name_ in LOADED_PLAYERS:
            assert page.locator("#panel-dice-players tr.flagged", has_text=name_).count() == 1
    finally:
        context.close()
    assert not problems, problems


def test_each_elysian_csv_download_is_at_the_page_s_table_size(elysian_site):
    """The CSV of a page at 3 players is of 3-player games (Elysian's table sizes, not Battle for
    Empyrean's: players=5 is taken, 6 is a 400 naming it)."""
    rows = requests.get(f"{elysian_site}/download/elysian-seats.csv?players=3&min_games=0", timeout=30).text
    assert [line.split(",")[0] for line in rows.splitlines()[1:]] == ["1", "2", "3"]
    assert requests.get(f"{elysian_site}/download/elysian-heroes.csv?players=5", timeout=30).status_code == 200
    bad = requests.get(f"{elysian_site}/download/elysian-heroes.csv?players=6", timeout=30)
    assert bad.status_code == 400 and "players" in bad.text


def test_every_elysian_csv_download_has_the_columns_the_docs_list(elysian_site):
    """docs/dashboards.md, "CSV downloads", lists each Elysian dataset's columns (as Titans')."""
    documented = {url: columns for url, columns in documented_csvs().items() if "/elysian-" in url}
    assert {url.split("/")[-1] for url in documented} == {f"{n}.csv" for n in DATASETS if n.startswith("elysian-")}
    wrong = {}
    for url, columns in documented.items():
        answer = requests.get(f"{elysian_site}{url}?players=3&min_games=0", timeout=30)
        assert answer.status_code == 200, url
        header = next(csv.reader(io.StringIO(answer.text)), [])
        if header != columns:
            wrong[url] = header
    assert not wrong, f"the docs list other columns than the files have: {wrong}"
