"""Pages everyone can read (issue 26): axe-core run on every HTML page of ours, at 1400 and 390 px,
with the page's own Content-Security-Policy in force, reports no violation of impact "serious" or
"critical". The pages are the dashboards' GET routes of the Flask URL map (a test fails when a page
is added there and not here), each in the state a person reads it in: figures drawn, the replay
viewer at a step with cards on the board, the recorder's setup, a game with decisions (one undone, a
card picked to deploy) and its end screen, every folded table unfolded. Swagger UI (/api/docs) is a
third party's page: the rules it breaks that we cannot fix by configuring it are allowed there only,
and docs/dashboards.md lists each. At 390 px the event page's and the disputes list's tables squeeze
no column to a word per line.

A failure prints each violation's rule, impact, help text and its first targets."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from accessibility import blocking, describe, run_axe
from browser_games import ingest_config  # noqa: F401  (the service knows Pips: a game's pages of its own)
from browser_pages import WIDTHS, new_page, no_sideways_scroll
from test_record import fill_setup, game, group_of, play, quoted, start, wait_ready

ROOT = Path(__file__).resolve().parents[2]
# the recorder's game (test_record.game(5)): 24 decisions taken, the last undone; the next is P2's
# deploy, whose card, once picked, puts "Deploy here" on the board's battlefields
DEPLOYING = 24

# name: (the URL map's rule it is a page of, the URL with {event}, {dispute}, {player}, {game}, {illegal})
PAGES = {
    "meta": ("/meta", "/meta"),
    "matchups": ("/matchups", "/matchups"),
    "trends": ("/trends", "/trends"),
    "battlefields": ("/battlefields", "/battlefields"),
    "game-shape": ("/game-shape", "/game-shape"),
    "cards": ("/cards", "/cards"),
    "filter-error": ("/trends", "/trends?from=last-week"),  # a bad filter: the page again, with a 400
    "events": ("/events", "/events"),
    "event": ("/events/<int:event_id>", "/events/{event}"),
    "event-disputes": ("/events/<int:event_id>/disputes", "/events/{event}/disputes"),
    "dispute": ("/disputes/<int:dispute_id>", "/disputes/{dispute}"),
    "player": ("/players/<path:name>", "/players/{player}"),
    "no-such-player": ("/players/<path:name>", "/players/Nobody%20At%20All"),  # not_found.html, a 404
    "replay": ("/games/<int:game_id>/replay", "/games/{game}/replay?step=30"),
    "replay-illegal": ("/games/<int:game_id>/replay", "/games/{illegal}/replay"),
    "replay-missing": ("/games/<int:game_id>/replay", "/games/987654321/replay"),  # replay_missing.html
    "record": ("/record", "/record"),
    "record-game": ("/record", "/record"),  # then a game: decisions, one undone, a card picked to deploy
    "record-end": ("/record", "/record"),  # then a concession: the end screen
    "api-docs": ("/api/docs", "/api/docs"),
    "game-index": ("/<game>/", "/pips/"),  # a game with no pages of its own yet
    "no-such-game": ("/<game>/", "/nosuch/"),  # not_found.html naming the games, a 404
    "lines-setup": ("/<game>/record", "/pips/record"),  # the recorder's lines mode
    "lines-game": ("/<game>/record", "/pips/record"),  # then a game: decisions, one undone, the frame unfolded
    "lines-end": ("/<game>/record", "/pips/record"),  # then a concession: the end screen
    "events-of-a-game": ("/events", "/events?game=bfe"),  # the shared list narrowed to one game
    "game-events": ("/<game>/events", "/pips/events"),  # a game's own events (none yet)
    "game-player": ("/<game>/players/<path:name>", "/pips/players/{player}"),  # no Pips match: the 404 page
    "no-such-game-filter": ("/events", "/events?game=nosuch"),  # not_found.html naming the games, a 400
    "titans-species": ("/titans/species", "/titans/species"),  # Titans of Empyrean's statistics pages
    "titans-titans": ("/titans/titans", "/titans/titans"),
    "titans-maneuvers": ("/titans/maneuvers", "/titans/maneuvers"),
    "titans-games": ("/titans/games", "/titans/games"),
    "elysian-heroes": ("/elysian/heroes", "/elysian/heroes"),  # Elysian Battlefields' statistics pages
    "elysian-victories": ("/elysian/victories", "/elysian/victories"),
    "elysian-seats": ("/elysian/seats", "/elysian/seats"),
    "elysian-cards": ("/elysian/cards", "/elysian/cards"),
    "elysian-dice": ("/elysian/dice", "/elysian/dice?players=3"),  # another table size than the default
    "steam-companies": ("/steam/companies", "/steam/companies"),  # Spells & Steam's statistics pages
    "steam-captains": ("/steam/captains", "/steam/captains"),
    "steam-scores": ("/steam/scores", "/steam/scores"),
    "steam-specialists": ("/steam/specialists", "/steam/specialists"),
    "steam-spellcars": ("/steam/spellcars", "/steam/spellcars"),
    "steam-awards": ("/steam/awards", "/steam/awards"),
    "steam-endings": ("/steam/endings", "/steam/endings?players=4"),  # another table size than the default
    "steam-teams": ("/steam/teams", "/steam/teams?players=4"),
}
# Routes of dashboards/ that are no page: "/" redirects to /meta, "/bfe/<page>" to Battle for Empyrean's
# page; the rest are files (CSV, JSON), and dashboards.assets serves static files.
NOT_PAGES = re.compile(r"^/$|^/bfe/<page>$|\.(csv|json)$")

# Swagger UI's own markup breaks these rules, and no option or stylesheet of ours changes that:
# rule -> the elements (by their HTML) where it may; allowed on /api/docs only, each listed in
# docs/dashboards.md ("Accessibility"). Any other violation there fails like on our pages.
SWAGGER_OWN = {
    # its server and examples drop-downs: a <select> with no name (an empty <label> around one)
    "select-name": re.compile(r'^<select (id="servers"|class="examples-select-element")'),
    # its example bodies: a <pre> that scrolls sideways and cannot be reached with the keyboard
    "scrollable-region-focusable": re.compile(r'^<pre class="(body-param__example |example )?microlight"'),
    # its responses table: role="region" on the <table> hides the column headers from its cells
    "td-has-header": re.compile(r'^<table [^>]*class="responses-table"'),
}


def test_every_page_of_the_url_map_is_checked(app):
    """Every GET route that a view of dashboards/ serves as HTML has its place in PAGES."""
    def ours(rule) -> bool:
        module = app.view_functions[rule.endpoint].__module__
        return module.startswith("dashboards.") and module != "dashboards.assets"

    pages = {rule.rule for rule in app.url_map.iter_rules()
             if ours(rule) and "GET" in rule.methods and not NOT_PAGES.search(rule.rule)}
    assert "/record" in pages and "/api/docs" in pages, pages
    assert pages == {rule for rule, _ in PAGES.values()}


@pytest.fixture(scope="module")
def places(site, ingest_config):  # noqa: F811  (the fixture, overridden for Pips above)
    """The ids the page URLs need, from the tournament the site serves."""
    import psycopg

    base, facts = site
    event = facts["event"]
    with psycopg.connect(ingest_config.database_url, autocommit=True) as db:
        dispute, game_ = db.execute(
            "SELECT d.id, min(g.id) FROM disputes d JOIN games g ON g.match_id = d.match_id"
            " WHERE g.event_id = %s GROUP BY d.id ORDER BY d.id LIMIT 1", (event,)).fetchone()
        illegal = db.execute("SELECT min(id) FROM games WHERE event_id = %s AND status = 'illegal'",
                             (event,)).fetchone()[0]
    standings = requests_json(f"{base}/api/v1/events/{event}/standings")["standings"]
    player = next(r["player"] for r in standings if r["matches"] and r["left_out"])
    assert dispute and game_ and illegal
    return {"event": event, "dispute": dispute, "game": game_, "illegal": illegal, "player": quote(player)}


def requests_json(url: str) -> dict:
    import requests

    response = requests.get(url, timeout=30)
    response.raise_for_status()
    return response.json()


def reach(page, base: str, name: str, url: str) -> None:
    """Open the page and bring it to the state a person reads: figures drawn, the board up, a game."""
    page.goto(f"{base}{url}")
    if name.startswith("record-"):
        log = game(5)
        fill_setup(page, log)
        start(page)
        if name == "record-game":  # one undone (Redo offered), then a card picked to deploy ("Deploy here")
            play(page, log["decisions"][:DEPLOYING])
            page.click("#undo")
            wait_ready(page, DEPLOYING - 1)
            page.click(f"#answers button[data-group={quoted(group_of(log['decisions'][DEPLOYING - 1]))}]")
            page.locator("#board button.board-pick").first.wait_for()
        else:  # a concession, with nothing undone (an answer after an undo may first ask to replace)
            play(page, log["decisions"][:DEPLOYING - 1])
            page.click("#end-early > summary")
            page.click("button[data-concede='2']")
            page.click("button[data-concede='2']")
            page.wait_for_selector("#verdict[data-status]")
    elif name.startswith("lines-") and name != "lines-setup":
        page.fill("#player-1", "Ada")
        page.fill("#player-2", "Bo")
        page.click("#start")
        for count in range(4):  # four lines: the first of each kind offered
            page.wait_for_selector(f"#record[data-busy=false][data-count='{count}']", state="attached")
            page.locator("#answers button.answer").first.click()
        page.wait_for_selector("#record[data-busy=false][data-count='4']", state="attached")
        if name == "lines-game":
            page.click("#undo")
            page.wait_for_selector("#record[data-busy=false][data-count='3']", state="attached")
            page.click("#frame-box > summary")
        else:
            page.click("#end-early > summary")
            page.click("button[data-concede='2']")
            page.click("button[data-concede='2']")
            page.wait_for_selector("#verdict[data-status]")
    elif name == "record":
        page.wait_for_selector("#catalog option", state="attached")
        page.wait_for_selector("#deck-1 option[value='Vikings of Valhalla']", state="attached")
    elif name.startswith("replay") and name != "replay-missing":
        page.wait_for_selector("#board")
    elif name == "api-docs":  # an operation unfolded: its parameters, request body and responses
        operation = page.locator(".opblock", has=page.locator("[data-path='/positions']")).first
        operation.locator(".opblock-summary-control").click()
        page.get_by_text("Request body").first.wait_for()
    for figure in page.locator("[data-figure]").evaluate_all("els => els.map(e => e.id)"):
        page.wait_for_selector(f"#{figure}[data-rendered='true']", timeout=15_000)


@pytest.mark.parametrize("size", list(WIDTHS))
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_or_critical_violation(site, places, browser, screenshots, name, size):
    base, _ = site
    url = PAGES[name][1].format(**places)
    context, page, problems = new_page(browser, size)
    try:
        reach(page, base, name, url)
        violations = run_axe(page)
        page.screenshot(path=str(screenshots / f"axe-{name}-{WIDTHS[size]['width']}.png"), full_page=True)
        # every impact, for a person to read: test-artifacts/axe/
        (screenshots.parent / "axe").mkdir(exist_ok=True)
        (screenshots.parent / "axe" / f"{name}-{WIDTHS[size]['width']}.json").write_text(
            json.dumps(violations, indent=1), encoding="utf-8")
    finally:
        context.close()
    found = blocking(swagger_own_left_out(violations) if name == "api-docs" else violations)
    assert not found, f"{url} at {WIDTHS[size]['width']} px, axe-core:\n{describe(found)}"
    assert not problems, problems


def swagger_own_left_out(violations: list[dict]) -> list[dict]:
    """``violations`` less the nodes that SWAGGER_OWN allows (a rule left with no node goes)."""
    kept = []
    for v in violations:
        allowed = SWAGGER_OWN.get(v["id"])
        nodes = [n for n in v["nodes"] if allowed is None or not allowed.search(n["html"])]
        if nodes:
            kept.append({**v, "nodes": nodes})
    return kept


def test_swagger_ui_s_own_violations_are_listed_in_the_docs():
    text = (ROOT / "docs" / "dashboards.md").read_text(encoding="utf-8")
    for rule in SWAGGER_OWN:
        assert f"`{rule}`" in text, f"docs/dashboards.md does not list Swagger UI's {rule}"


# A cell squeezed to one word per line: a cell of three words or more drawn on as many lines as it
# has words. Lines are told apart by the tops of the cell's text boxes (Range.getClientRects).
SQUEEZED_CELLS = """table => [...table.querySelectorAll('tbody td')].filter(td => td.offsetParent !== null).map(td => {
    const words = td.textContent.trim().split(/\\s+/).filter(Boolean).length;
    const range = document.createRange();
    range.selectNodeContents(td);
    const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => r.top).sort((a, b) => a - b);
    const half = parseFloat(getComputedStyle(td).lineHeight) / 2 || 8;
    const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > half).length;
    const column = table.querySelectorAll('thead th')[td.cellIndex].textContent.trim();
    return {column, words, lines, text: td.textContent.trim().slice(0, 60)};
}).filter(c => c.words >= 3 && c.lines >= c.words)"""


@pytest.mark.parametrize("name", ["event", "event-disputes"])
def test_wide_tables_stay_readable_on_a_phone(site, places, browser, screenshots, name):
    """At 390 px the event page's and the disputes list's tables keep their text columns wide enough
    to read (no column squeezed to a word per line): a table wider than the screen scrolls sideways
    inside its panel, the page itself does not."""
    base, _ = site
    context, page, problems = new_page(browser, "phone")
    try:
        page.goto(base + PAGES[name][1].format(**places))
        page.evaluate("document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; })")
        squeezed = {}
        for panel in page.locator("section.panel:has(table)").all():
            panel_id = panel.get_attribute("id")
            cells = panel.locator("table").evaluate(SQUEEZED_CELLS)
            if cells:
                squeezed[panel_id] = cells[:3]
            panel.screenshot(path=str(screenshots / f"phone-table-{name}-{panel_id}.png"))
        no_sideways_scroll(page, "phone")
    finally:
        context.close()
    assert not squeezed, squeezed
    assert not problems, problems
