"""Titans of Empyrean's statistics pages in headless Chromium, over a simulated Titans event the real
worker judged and counted: from the game's index /titans/ each statistics page is reached by its
link, at 1400 and 390 px, every figure drawn with its n, no console error, nothing scrolling
sideways. Screenshots: test-artifacts/screenshots/titans-stats-<page>-<size>.png."""

from __future__ import annotations

import pytest
from browser_artifacts import SCREENSHOTS
from browser_pages import WIDTHS, from_game_index, new_page, no_sideways_scroll
from extra_game import ndjson
from service_helpers import as_admin, served_at
from tournament import wait_event_done

from services.simulation.simulate import SimConfig, simulate

NAME = "Titans Browser Open"
PAGES = {"Species": ["species-win-rates", "species-matchups"], "Titans": ["titan-win-rates", "titan-survival"],
         "Maneuvers": ["maneuver-win-rates"], "Endings, initiative & squads": ["endings", "lengths", "initiative",
                                                                               "squads"]}


@pytest.fixture(scope="module")
def titans_site(app):
    admin = as_admin(app)
    logs = simulate(SimConfig(game="titans", players=16, rounds=3, seed=21, name=NAME)).uploads
    event = admin.post("/api/v1/events", json={"name": NAME, "game": "titans"}).get_json()["id"]
    answer = admin.post(f"/api/v1/events/{event}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    assert wait_event_done(admin, event, len(logs))["games"] == {"valid": len(logs)}
    with served_at(app) as url:
        yield url


@pytest.mark.parametrize("size", list(WIDTHS))
def test_each_titans_statistics_page_is_reached_from_the_game_s_index(titans_site, browser, size):
    context, page, problems = new_page(browser, size, console_errors=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for label, figures in PAGES.items():
            from_game_index(page, titans_site, "titans", label)
            for figure in figures:
                page.wait_for_selector(f"#fig-{figure}[data-rendered='true']", timeout=15_000)
                texts = page.evaluate(f"""() => document.getElementById('fig-{figure}').data
                    .flatMap(t => [t.text, t.hovertemplate, t.customdata].flat(2)).filter(v => typeof v === 'string')
                    .concat([document.getElementById('fig-{figure}').layout.title.text])""")
                assert any("n=" in t for t in texts), (label, figure)
            assert page.locator("h1").inner_text().startswith("Titans:")
            assert "Titans of Empyrean" in page.locator("#game-switcher > summary").inner_text()
            no_sideways_scroll(page, size)
            slug = page.url.rstrip("/").rsplit("/", 1)[-1]
            page.screenshot(path=str(SCREENSHOTS / f"titans-stats-{slug}-{size}.png"), full_page=True)
    finally:
        context.close()
    assert not problems, problems
