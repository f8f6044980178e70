"""Every dashboard page in headless Chromium: the figures are drawn with data (asserted on the SVG
plotly.js renders and on its traces, not on an HTTP 200), a filter change redraws them, CSV
downloads, phone width fits, player text stays text, and the replay viewer steps through a game and
opens an illegal one at its failing decision."""

from __future__ import annotations

import csv
import io
import re

import pytest
import requests
from service_helpers import documented_csvs

from dashboards.datasets import DATASETS

META_PAGES = {  # page: the figures it must draw
    "/meta": ["win-rates", "meta-share"],
    "/matchups": ["matchups"],
    "/trends": ["trend-share", "trend-win-rates"],
    "/battlefields": ["battlefield-impact", "battlefield-first-player"],
    "/game-shape": ["first-player", "margins", "rounds"],
    "/cards": ["card-impact"],
}
# what plotly draws for each kind of trace: one element per bar, a heatmap image, scatter paths
DRAWN = {"bar": ".barlayer .point path", "heatmap": ".heatmaplayer image", "scatter": ".scatterlayer .trace path"}


def drawn_traces(page, figure_id: str) -> dict:
    """Wait until the figure is drawn; then its trace types with their point counts, and how many
    SVG elements plotly drew for them."""
    page.wait_for_selector(f"#fig-{figure_id}[data-rendered='true']", timeout=15_000)
    info = page.evaluate("""id => {
        const el = document.getElementById('fig-' + id);
        return el.data.map(t => ({type: t.type || 'scatter',
                                  points: (t.type === 'heatmap' ? (t.z || []).flat() : (t.x || t.y || []))
                                          .filter(v => v !== null).length}));
    }""", figure_id)
    counts = {kind: page.locator(f"#fig-{figure_id} {selector}").count() for kind, selector in DRAWN.items()}
    return {"traces": info, "svg": counts}


@pytest.mark.parametrize("path", list(META_PAGES))
def test_each_meta_page_draws_its_figures_with_data(site, page, path):
    base, _ = site
    page.goto(f"{base}{path}?min_games=5")
    for figure_id in META_PAGES[path]:
        drawn = drawn_traces(page, figure_id)
        assert drawn["traces"] and any(t["points"] for t in drawn["traces"]), (path, figure_id, drawn)
        kinds = {t["type"] for t in drawn["traces"]}
        for kind in kinds & set(DRAWN):
            assert drawn["svg"][kind] > 0, (path, figure_id, drawn)
    assert page.title().endswith("· Empyrean Replay")


def test_win_rate_bars_match_the_api_and_a_deck_filter_redraws_them(site, page):
    base, _ = site
    api = page.request.get(f"{base}/api/v1/stats/decks").json()["rows"]
    played = [r for r in api if r["games"]]
    page.goto(f"{base}/meta")
    drawn = drawn_traces(page, "win-rates")
    assert drawn["svg"]["bar"] == len(played)  # one bar per deck with games (errors bars are not .point)
    deck = next(r["deck"] for r in played if "<" not in r["deck"])
    page.check(f"#filters input[name=deck][value='{deck}']")
    page.click("#filters button[type=submit]")
    page.wait_for_url(re.compile(r"[?&]deck="))
    assert "from=" not in page.url  # empty fields are left out of the shared URL
    drawn = drawn_traces(page, "win-rates")
    assert drawn["svg"]["bar"] == 1
    assert page.evaluate("document.getElementById('fig-win-rates').data[0].y") == [deck]


def test_choosing_a_battlefield_applies_with_the_other_filters_and_stays_in_the_url_across_pages(site, page):
    base, _ = site
    page.goto(f"{base}/meta")
    before = page.evaluate("document.getElementById('fig-win-rates').data[0].text")
    battlefield = page.locator("select[name=battlefield] option").nth(1).text_content()
    page.select_option("select[name=battlefield]", battlefield)
    assert "battlefield=" not in page.url  # every filter waits for Apply, the same way
    assert page.locator("#filters .pending").is_visible()
    with page.expect_navigation():
        page.click("#filters button[type=submit]")
    assert "battlefield=" in page.url
    drawn_traces(page, "win-rates")
    after = page.evaluate("document.getElementById('fig-win-rates').data[0].text || []")

    def games(labels):
        return sum(int(t[2:]) for t in labels)  # "n=12"

    assert games(after) < games(before)
    page.click("nav a:has-text('Matchups')")
    assert "battlefield=" in page.url
    drawn_traces(page, "matchups")


def test_a_bad_filter_in_a_shared_url_is_explained_on_the_page(site, page):
    base, _ = site
    response = page.goto(f"{base}/trends?from=last-week")
    assert response.status == 400
    assert "The filter 'from' cannot be used" in page.locator("#filter-error").text_content()


def test_csv_download_from_the_page(site, page):
    base, facts = site
    page.goto(f"{base}/cards?event={facts['event']}")
    with page.expect_download() as info:
        page.click("#panel-cards a.csv")
    download = info.value
    assert download.suggested_filename == "empyrean-cards.csv"
    rows = list(csv.DictReader(io.StringIO(open(download.path(), encoding="utf-8").read())))
    assert rows and {"deck", "card", "win_rate_deployed", "win_rate_deployed_n"} <= set(rows[0])


def test_player_text_is_shown_as_text_never_run(site, page):
    base, facts = site
    page.goto(f"{base}/events")  # the page fixture fails the test on any alert dialog
    assert page.get_by_text('<script>alert("x")</script>&"').count() >= 1
    page.goto(f"{base}/meta?min_games=0")
    drawn_traces(page, "win-rates")
    labels = page.locator("#fig-win-rates .yaxislayer-above text").all_text_contents()
    assert '<script>alert("x")</script>&"' in labels, [t for t in labels if "alert" in t]


@pytest.mark.parametrize("path", ["/meta", "/battlefields", "/events"])
def test_pages_fit_a_phone_screen(site, phone, path):
    base, _ = site
    phone.goto(f"{base}{path}")
    for figure_id in phone.locator("[data-figure]").evaluate_all("els => els.map(e => e.id)"):
        phone.wait_for_selector(f"#{figure_id}[data-rendered='true']")  # drawn at their final size
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{path} is {width}px wide on a 390px screen"


def test_events_page_links_a_disputed_match_to_the_replay_of_each_upload(site, page):
    base, facts = site
    page.goto(f"{base}/events")
    page.click(f"a[href='/events/{facts['event']}']")
    drawn_traces(page, "event-verdicts")
    links = page.locator("#panel-disputes a[href$='/replay']")
    assert links.count() >= 2 * facts["expected"]["disputes"] > 0
    links.first.click()
    page.wait_for_url(re.compile(r"/games/\d+/replay"))
    page.wait_for_selector("#board")


def test_the_content_security_policy_refuses_inline_script_and_framing(site, browser):
    """The policy each page is served with, enforced by Chromium: an inline script put into the page
    does not run and another site cannot frame a page; each refusal is reported on the console, which
    is what the page fixture watches in every other test here (so every page works without inline
    script or eval: the policy allows neither, tests/services/test_security_headers.py)."""
    def csp_violations(messages):
        return [m.text for m in messages if "Content Security Policy" in m.text]

    base, _ = site
    context = browser.new_context()
    try:
        page = context.new_page()
        messages = []
        page.on("console", lambda message: messages.append(message))
        page.goto(f"{base}/meta")
        drawn_traces(page, "win-rates")  # plotly.js and app.js, files from this origin, run
        assert csp_violations(messages) == []
        page.evaluate("""() => {
            const s = document.createElement('script');
            s.textContent = 'window.injected = true';
            document.body.appendChild(s);
        }""")
        assert page.evaluate("window.injected === undefined")
        page.wait_for_timeout(200)
        refused = csp_violations(messages)
        assert any("script-src" in text for text in refused), refused
        # framed by a page of another origin (about:blank, which has no policy of its own): refused
        outside = context.new_page()
        messages = []
        outside.on("console", lambda message: messages.append(message))
        outside.set_content(f'<iframe id="framed" src="{base}/meta"></iframe>')
        outside.wait_for_timeout(1000)
        assert outside.frame_locator("#framed").locator("a.brand").count() == 0  # none of the page shows
        assert any("frame-ancestors" in text for text in csp_violations(messages)), [m.text for m in messages]
    finally:
        context.close()


def test_every_csv_download_has_the_columns_the_docs_list(site):
    base, facts = site
    documented = documented_csvs()
    event = requests.get(f"{base}/api/v1/events", timeout=10).json()["events"][0]["id"]
    assert {url.split("/")[-1] for url in documented} >= {f"{name}.csv" for name in DATASETS}
    # Titans', Elysian's and Spells & Steam's files are checked where there are games of theirs (tests/services/
    # test_titans_statistics.py, tests/browser/test_elysian_stats_browser.py, test_steam_stats_browser.py)
    elsewhere = ("/titans-", "/elysian-", "/steam-")
    for url, columns in ((u, c) for u, c in documented.items() if not any(g in u for g in elsewhere)):
        answer = requests.get(base + url.replace("{id}", str(event)), timeout=30)
        assert answer.status_code == 200, url
        header = next(csv.reader(io.StringIO(answer.text)), [])
        assert header == columns, f"{url}: the docs list {columns}, the file has {header}"
