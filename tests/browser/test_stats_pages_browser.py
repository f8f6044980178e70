"""The statistics pages read as a person reads them (issue 18, part 5), in headless Chromium over the
simulated tournament: faded heatmap cells with n, a deck order that filters do not shuffle, trend
bands with a deck picker, the card table first, every table sortable by its headers, the deck
filter as chips applied with the other filters, and /meta on a 390 px phone with nothing cut.
Screenshots at 1400 and 390 px: test-artifacts/screenshots/stats-*.png."""

from __future__ import annotations

import html
import re
from contextlib import contextmanager
from urllib.parse import parse_qs, urlparse

import pytest
from browser_artifacts import SCREENSHOTS

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


@contextmanager
def watched(browser, viewport: dict, shot: str, **options):
    """A page of ``viewport`` size that fails the test on a JavaScript error, a dialog or a CSP
    refusal, and leaves a full-page screenshot ``stats-<shot>.png``."""
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        yield page
    finally:
        try:  # a failing test leaves its screenshot too
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"stats-{shot}.png"), full_page=True)
        finally:
            context.close()
    assert not problems, problems


def drawn(page, figure_id: str) -> None:
    page.wait_for_selector(f"#fig-{figure_id}[data-rendered='true']", timeout=15_000)


def column(page, table: str, index: int) -> list[str]:
    return page.locator(f"{table} tbody tr td:nth-child({index})").all_text_contents()


def first_number(text: str) -> float:
    return float(re.match(r"[+-]?\d+(\.\d+)?", text.strip()).group(0))


# --- heatmaps ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path,figure_id", [("/matchups", "matchups"), ("/battlefields", "battlefield-impact")])
def test_heatmaps_fade_cells_show_n_and_keep_the_deck_order_under_a_filter(site, browser, path, figure_id):
    base, _ = site
    with watched(browser, WIDE, f"heatmap-{figure_id}-1400") as page:
        page.goto(f"{base}{path}?min_games=5")
        drawn(page, figure_id)
        traces = page.evaluate(f"""() => document.getElementById('fig-{figure_id}').data.map(t => ({{
            name: t.name, opacity: t.opacity, x: t.x, y: t.y,
            cells: t.z.flat().filter(v => v !== null).length,
            text: t.text.flat().filter(v => v), hover: t.customdata.flat().filter(v => v)}}))""")
        clear, faded = traces
        assert (clear["opacity"], faded["opacity"]) == (1, 0.3)
        # a tournament of ~50 games: most cells are thin or could be luck, and they are faded, not crossed
        assert faded["cells"] > 0 and faded["cells"] + clear["cells"] == len(faded["text"]) + len(clear["text"])
        assert all(re.search(r"n=\d+", t) for t in clear["text"] + faded["text"])
        assert all("n=" in h and ("faded" in h or "different from" in h) for h in clear["hover"] + faded["hover"])
        assert not [t for t in faded["text"] + clear["text"] if re.match(r"[+-]0(<|$)", t)]  # no "+0" / "-0"
        assert page.locator(f"#fig-{figure_id} .scatterlayer .trace").count() == 0  # no ✕ markers
        # the faded cells are drawn faded: the second heatmap image at 0.3 opacity
        opacities = page.locator(f"#fig-{figure_id} .heatmaplayer image").evaluate_all(
            "els => els.map(e => getComputedStyle(e).opacity)")
        assert "0.3" in opacities, opacities
        page.hover(f"#fig-{figure_id} .nsewdrag", position={"x": 5, "y": 5})  # hover works over the cells
        decks = clear["x"] if figure_id == "battlefield-impact" else clear["y"]
        # two decks left out by a filter: the others keep their places
        keep = [d for d in decks if "&" not in d and "<" not in d][1:-1]
        query = "&".join(f"deck={d}" for d in keep)
        page.goto(f"{base}{path}?min_games=5&{query}")
        drawn(page, figure_id)
        axis = "x" if figure_id == "battlefield-impact" else "y"
        filtered = page.evaluate(f"document.getElementById('fig-{figure_id}').data[0].{axis}")
        assert filtered == [d for d in decks if d in filtered] and set(filtered) <= set(keep)


# --- trends ------------------------------------------------------------------------------------


def test_trends_draw_bands_for_a_few_decks_and_the_picker_changes_them(site, browser):
    base, _ = site
    with watched(browser, WIDE, "trends-1400") as page:
        page.goto(f"{base}/trends?min_games=5")
        drawn(page, "trend-win-rates")

        def visible_decks() -> list[str]:
            return page.evaluate("""() => [...new Set(document.getElementById('fig-trend-win-rates').data
                .filter(t => t.visible === true && t.legendgroup).map(t => t.legendgroup))]""")

        chips = page.locator("#fig-trend-win-rates-picker input[type=checkbox]")
        assert chips.count() >= 8
        shown = visible_decks()
        assert len(shown) == 4
        checked = page.locator("#fig-trend-win-rates-picker input:checked").evaluate_all("els => els.map(e => e.value)")
        assert sorted(checked) == sorted(shown)
        bands = page.evaluate("""() => document.getElementById('fig-trend-win-rates').data
            .filter(t => t.fill === 'toself' && t.visible === true).length""")
        assert bands == 4  # each drawn deck has its interval band
        assert page.locator("#fig-trend-win-rates .scatterlayer .trace path.js-fill").count() >= 4
        # tick a fifth deck, untick the first
        off = page.locator("#fig-trend-win-rates-picker input:not(:checked)").first
        added = off.get_attribute("value")
        off.check()
        page.locator(f"#fig-trend-win-rates-picker input[value='{shown[0]}']").uncheck()
        assert sorted(visible_decks()) == sorted([*shown[1:], added])
        assert page.locator("#fig-trend-win-rates .legend").count() == 0  # the chips are the legend
        # thin weeks are hollow markers, with n in the hover
        data = page.evaluate("""() => document.getElementById('fig-trend-win-rates').data
            .filter(t => t.mode === 'lines+markers').map(t => ({symbols: t.marker.symbol, hover: t.customdata}))""")
        assert any("circle-open" in d["symbols"] for d in data)
        assert all("n=" in c[1] for d in data for c in d["hover"])
        # the x axis's title and the meta-share legend do not overlap
        drawn(page, "trend-share")
        title = page.locator("#fig-trend-share .xtitle").bounding_box()
        legend = page.locator("#fig-trend-share .legend").bounding_box()
        assert title["y"] + title["height"] <= legend["y"], (title, legend)


# --- cards -------------------------------------------------------------------------------------


def test_cards_open_on_a_sortable_table_with_nothing_clipped_and_the_scatter_below(site, browser):
    base, _ = site
    with watched(browser, WIDE, "cards-1400") as page:
        page.goto(f"{base}/cards?min_games=5")
        table = page.locator("#panel-cards table")
        assert table.is_visible()  # unfolded: the table is the page
        headers = page.locator("#panel-cards th").all_text_contents()
        for wanted in ("cost", "might", "deploy rate", "win rate deployed (95% CI)", "average might contributed"):
            assert wanted in headers
        scroll = page.locator("#panel-cards .scroll")
        assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth"), "the card table is clipped at 1400 px"
        costs = column(page, "#panel-cards", headers.index("cost") + 1)
        assert all(c.strip().isdigit() for c in costs)
        page.click("#panel-cards th:has-text('cost') button")
        after = [int(c) for c in column(page, "#panel-cards", headers.index("cost") + 1)]
        assert after == sorted(after, reverse=True)  # numbers: highest first
        # the scatter is there, below the table
        drawn(page, "card-impact")
        assert page.locator("#panel-card-impact").bounding_box()["y"] > table.bounding_box()["y"]


# --- sortable tables ---------------------------------------------------------------------------


def test_every_table_sorts_by_a_header_click_and_back(site, browser):
    base, facts = site
    with watched(browser, WIDE, "sorted-meta-1400") as page:
        page.goto(f"{base}/meta?min_games=5")
        games = page.locator("#panel-win-rates th:has-text('games') ")
        assert games.get_attribute("aria-sort") is None
        games.locator("button").click()
        assert games.get_attribute("aria-sort") == "descending"
        values = [int(v) for v in column(page, "#panel-win-rates", 2)]
        assert values == sorted(values, reverse=True) and len(set(values)) > 1
        games.locator("button").press("Enter")  # a button: the keyboard sorts too
        assert games.get_attribute("aria-sort") == "ascending"
        assert [int(v) for v in column(page, "#panel-win-rates", 2)] == sorted(values)
        # a rate column sorts by the rate, not as text
        rate = page.locator("#panel-win-rates th:has-text('win rate')")
        rate.locator("button").click()
        rates = [first_number(v) for v in column(page, "#panel-win-rates", 5)]
        assert rates == sorted(rates, reverse=True) and games.get_attribute("aria-sort") is None
        # text: A to Z first
        page.click("#panel-win-rates th:has-text('deck') button")
        decks = column(page, "#panel-win-rates", 1)
        assert [d.casefold() for d in decks] == sorted(d.casefold() for d in decks)
        # the events and standings tables use the same table template and script
        page.goto(f"{base}/events/{facts['event']}")
        standings = page.locator("#panel-standings table")
        points_header = standings.locator("th:has-text('points')").first
        points_header.locator("button").click()
        points_header.locator("button").click()
        assert points_header.get_attribute("aria-sort") == "ascending"
        index = standings.locator("th").all_text_contents().index(points_header.text_content()) + 1
        points = [first_number(v) for v in column(page, "#panel-standings", index)]
        assert points == sorted(points) and len(set(points)) > 1


# --- filters -----------------------------------------------------------------------------------


def test_deck_chips_apply_with_the_other_filters_and_stay_in_the_url(site, browser):
    base, _ = site
    with watched(browser, WIDE, "deck-chips-1400") as page:
        page.goto(f"{base}/meta?min_games=5")
        drawn(page, "win-rates")
        chips = page.locator("#filters input[name=deck]")
        assert chips.count() >= 10 and page.locator("#filters select[multiple]").count() == 0
        chosen = chips.evaluate_all("els => els.map(e => e.value)")[:2]
        for deck in chosen:
            page.locator(f"#filters input[name=deck][value='{deck}']").check()
        page.fill("#filters input[name=min_games]", "3")
        assert page.locator("#filters .pending").is_visible() and "deck=" not in page.url
        with page.expect_navigation():
            page.click("#filters button[type=submit]")
        query = parse_qs(urlparse(page.url).query)
        assert sorted(query["deck"]) == sorted(chosen) and query["min_games"] == ["3"] and "from" not in query
        drawn(page, "win-rates")
        bars = page.evaluate("document.getElementById('fig-win-rates').data[0].y")
        assert sorted(bars) == sorted(html.escape(d, quote=False) for d in chosen)  # plotly's text is HTML
        assert page.locator("#filters input[name=deck]:checked").count() == 2  # the page shows what is applied
        assert not page.locator("#filters .pending").is_visible()
        page.click("#filters [data-clear-decks]")
        with page.expect_navigation():
            page.click("#filters button[type=submit]")
        assert "deck=" not in page.url
        drawn(page, "win-rates")
        assert len(page.evaluate("document.getElementById('fig-win-rates').data[0].y")) > 2


# --- a phone -----------------------------------------------------------------------------------


def outside(page, selector: str, left: float, right: float) -> list[str]:
    """The texts of ``selector`` elements whose box reaches outside [left, right] (px)."""
    return page.locator(selector).evaluate_all(f"""els => els.filter(e => {{
        const b = e.getBoundingClientRect();
        return b.width > 0 && (b.left < {left} - 0.5 || b.right > {right} + 0.5);
    }}).map(e => e.textContent)""")


@pytest.mark.parametrize("path", ["/meta", "/matchups", "/trends", "/battlefields", "/game-shape", "/cards"])
def test_statistics_pages_on_a_phone_cut_no_axis_title_and_keep_the_key_columns(site, browser, path):
    base, _ = site
    shot = path.strip("/") + "-390"
    with watched(browser, PHONE, shot, is_mobile=True, has_touch=True) as page:
        page.goto(f"{base}{path}?min_games=5")
        figures = page.locator("[data-figure]").evaluate_all("els => els.map(e => e.id)")
        for figure_id in figures:
            page.wait_for_selector(f"#{figure_id}[data-rendered='true']", timeout=15_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for figure_id in figures:
            box = page.locator(f"#{figure_id}").bounding_box()
            left, right = max(box["x"], 0), min(box["x"] + box["width"], 390)
            for part in (".xtitle", ".ytitle", ".gtitle", ".g-xtitle text", ".g-ytitle text", ".xtick text",
                         ".ytick text", ".legend text", ".cbtitle text"):
                cut = outside(page, f"#{figure_id} {part}", left, right)
                assert not cut, f"{path} #{figure_id}: {part} cut at 390 px: {cut}"
        if path == "/meta":
            headers = [h for h in page.locator("#panel-win-rates th").all() if h.is_visible()]
            assert [h.text_content().strip() for h in headers] == ["deck", "games", "win rate (95% CI)", "meta share"]
            scroll = page.locator("#panel-win-rates .scroll")
            assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the key columns do not fit 390 px"
            ticks = page.locator("#fig-win-rates .ytick text").all_text_contents()
            assert ticks and max(len(t) for t in ticks) <= 40
