"""Empyreal: Spells & Steam's statistics pages in headless Chromium (issue 30), over a Spells & Steam
event the real worker judged and counted: self-played games at 2 and 4 players, their set-ups drawn
from the seed (awards in some, 2v2 teams in some 4-player ones). From the game's index /steam/ each
page is reached by its link at 1400 and 390 px; every figure is drawn with its n; each table's numbers
are the API's (/api/v1/stats/steam/…) at 2 players, then again after the form's *Players* is switched to
4 (a plain GET form: Apply); no console error, nothing scrolling sideways. Screenshots:
test-artifacts/screenshots/steam-stats-<page>-<players>p-<size>.png. The CSV downloads have the columns
docs/dashboards.md lists."""

from __future__ import annotations

import csv
import io

import pytest
import requests
from browser_artifacts import SCREENSHOTS
from browser_pages import (
    WIDTHS,
    api_rows,
    check_figures,
    from_game_index,
    new_page,
    no_sideways_scroll,
    shown_rows,
    stats_api,
)
from extra_game import ndjson
from service_helpers import as_admin, documented_csvs, served_at
from tournament import wait_event_done

from dashboards.datasets import DATASETS
from dashboards.game_figures import mean_text, ordinal
from dashboards.panels import rate_cell
from dashboards.steam import end_words, name
from engine.steam.rules import RULES

NAME = "Steam Browser Open"
NAMES = ["Ada", "Bo", "Cai", "Dee"]
MIN_GAMES = 3  # set with the form at 4 players, so that some bars are in colour


# page label -> its panels: panel id -> (the API statistic, the answer's list, the table's columns, their cells)
PAGES = {
    "Companies": {
        "company-win-rates": ("companies", "rows", ["company", "seat-games", "win rate (95% CI)",
                                                    "mean victory points (95% CI)"],
                              lambda r: [name(r["company"]), r["games"], rate_cell(r["win_rate"]),
                                         mean_text(r["score"])]),
        "company-places": None,
        "company-scores": None,
    },
    "Captains": {
        "captain-win-rates": ("captains", "rows", ["captain", "seat-games", "win rate (95% CI)"],
                              lambda r: [name(r["captain"]), r["games"], rate_cell(r["win_rate"])]),
        "captain-places": None,
        "captain-scores": None,
    },
    "Scores": {
        # every company, then every seat's
        "score-parts": ("score-parts", lambda body: [*body["rows"], {**body["overall"], "company": None}],
                        ["company", "victory points (95% CI)"],
                        lambda r: ["every seat" if r["company"] is None else name(r["company"]),
                                   mean_text(r["score"])]),
    },
    "Specialists": {
        "specialist-win-rates": ("specialists", "rows", ["specialist", "seat-games hired in",
                                                         "win rate when hired (95% CI)"],
                                 lambda r: [name(r["specialist"]), r["hired_games"], rate_cell(r["win_rate"])]),
    },
    "Spellcars": {
        "spellcar-win-rates": ("spellcars", "rows", ["spellcar", "seat-games taken in",
                                                     "win rate when taken (95% CI)"],
                               lambda r: [name(r["spellcar"]), r["taken_games"], rate_cell(r["win_rate_taken"])]),
        "spellcar-activations": None,
    },
    "Awards": {
        "awards-in-play": ("awards", "rows", ["award", "games in play", "in play (95% CI)", "seats first (95% CI)"],
                           lambda r: [name(r["award"]), r["in_play_games"], rate_cell(r["in_play"]),
                                      rate_cell(r["first"])]),
        "award-winners": ("awards", "companies", ["award", "company", "first (95% CI)"],
                          lambda r: [name(r["award"]), name(r["company"]), rate_cell(r["first"])]),
    },
    "Endings & seats": {
        "end-triggers": ("endings", "rows", ["ended by", "games", "share (95% CI)"],
                         lambda r: [end_words(r["end_trigger"]), r["games"], rate_cell(r["share"])]),
        "lengths": None,
        "positions": ("seats", "positions", ["position", "seat-games", "win rate (95% CI)"],
                      lambda r: [f"{ordinal(r['position'])}{' (start player)' if r['position'] == 1 else ''}",
                                 r["games"], rate_cell(r["win_rate"])]),
        "seats": ("seats", "rows", ["seat", "seat-games", "win rate (95% CI)"],
                  lambda r: [f"seat {r['seat']}", r["games"], rate_cell(r["win_rate"])]),
    },
    "Teams": {
        "team-start": ("teams", "started", ["teams", "the start player's team?", "team-games", "win rate (95% CI)"],
                       lambda r: [r["team_shape"], "yes" if r["started"] else "no", r["teams"],
                                  rate_cell(r["win_rate"])]),
    },
}
@pytest.fixture(scope="module")
def steam_site(app):
    admin = as_admin(app)
    logs = [RULES.self_play(seed, bot="random", players=players,
                            meta={"event": NAME, "players": NAMES[:players], "date": "2026-11-02"})
            for players, seeds in ((2, range(200, 216)), (4, range(400, 409))) for seed in seeds]
    assert any(log["setup"].get("teams") for log in logs) and any("awards" in log["setup"].get("variants", ())
                                                                  for log in logs)
    event = admin.post("/api/v1/events", json={"name": NAME, "game": "steam"}).get_json()["id"]
    answer = admin.post(f"/api/v1/events/{event}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    assert wait_event_done(admin, event, len(logs), timeout=600)["games"] == {"valid": len(logs)}
    with served_at(app) as url:
        yield url


def check_tables(page, base: str, panels, query: str) -> None:
    """Each panel's table holds the API's rows, in its order, at the page's filters."""
    for panel, spec in panels.items():
        if spec is None:
            continue
        statistic, key, columns, cells = spec
        shown, _ = shown_rows(page, panel, columns)
        assert shown == api_rows(stats_api(base, "steam", statistic, query), key, cells), (panel, query)


@pytest.mark.parametrize("size", list(WIDTHS))
def test_each_steam_statistics_page_shows_the_api_s_numbers_at_each_table_size(steam_site, browser, size):
    context, page, problems = new_page(browser, size, console_errors=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for label, panels in PAGES.items():
            from_game_index(page, steam_site, "steam", label)
            assert page.locator("h1").inner_text().startswith("Spells & Steam:")
            assert "Spells & Steam" in page.locator("#game-switcher > summary").inner_text()
            slug = page.url.rstrip("/").rsplit("/", 1)[-1]
            for players, query in ((2, "players=2"), (4, f"players=4&min_games={MIN_GAMES}")):
                if players == 4:  # the form, as a person uses it: choose, then Apply
                    page.select_option("#filters select[name=players]", "4")
                    page.fill("#filters input[name=min_games]", str(MIN_GAMES))
                    page.click("#filters button[type=submit]")
                    page.wait_for_url("**players=4**")
                    assert page.locator("#filters select[name=players]").input_value() == "4"
                figures = [p for p in panels if page.locator(f"#fig-{p}").count()]
                check_figures(page, figures)
                check_tables(page, steam_site, panels, query)
                no_sideways_scroll(page, size)
                page.screenshot(path=str(SCREENSHOTS / f"steam-stats-{slug}-{players}p-{size}.png"), full_page=True)
    finally:
        context.close()
    assert not problems, problems


def test_each_steam_csv_download_is_at_the_page_s_table_size(steam_site):
    """The CSV of a page at 4 players is of 4-player games (the game's table sizes: players=6 is taken,
    7 is a 400 naming it)."""
    rows = requests.get(f"{steam_site}/download/steam-positions.csv?players=4&min_games=0", timeout=30).text
    assert [line.split(",")[0] for line in rows.splitlines()[1:]] == ["1", "2", "3", "4"]
    assert requests.get(f"{steam_site}/download/steam-companies.csv?players=6", timeout=30).status_code == 200
    bad = requests.get(f"{steam_site}/download/steam-companies.csv?players=7", timeout=30)
    assert bad.status_code == 400 and "players" in bad.text


def test_every_steam_csv_download_has_the_columns_the_docs_list(steam_site):
    """docs/dashboards.md, "CSV downloads", lists each Spells & Steam dataset's columns (at 4 players:
    a place's columns for each of the four)."""
    documented = {url: columns for url, columns in documented_csvs().items() if "/steam-" in url}
    assert {url.split("/")[-1] for url in documented} == {f"{n}.csv" for n in DATASETS if n.startswith("steam-")}
    wrong = {}
    for url, columns in documented.items():
        answer = requests.get(f"{steam_site}{url}?players=4&min_games=0", timeout=30)
        assert answer.status_code == 200, url
        header = next(csv.reader(io.StringIO(answer.text)), [])
        if header != columns:
            wrong[url] = header
    assert not wrong, f"the docs list other columns than the files have: {wrong}"
