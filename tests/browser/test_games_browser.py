"""The games of the site in headless Chromium, over the real service with the test game Pips
registered (tests/games/pips.py, as EMPYREAN_EXTRA_GAMES registers a game): the game switcher in the
navigation and each game's index, clicked through at 1400 and 390 px; and a whole game of Pips
recorded in the recorder's lines mode as a person records one — the setup from the form the page
draws from the game's schema, each decision by clicking its line, the search box, undo and redo, a
reload in the middle — whose downloaded log verifies valid and is the game played.

Every test fails on a JavaScript error, a dialog or a Content-Security-Policy refusal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_artifacts import SCREENSHOTS
from browser_games import ingest_config  # noqa: F401  (this module's service knows Pips)
from browser_pages import WIDTHS, new_page, no_sideways_scroll
from service_helpers import make_token, token_client

from engine import games
from engine.replay import replay
from engine.seats import as_recorded

NAMES = ["Ada", "Bo"]


@pytest.fixture
def pips():
    """The test game's module (importable once the module's service has registered it)."""
    import pips as module

    return module


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------------- the switcher
def open_switcher(page) -> None:
    page.click("#game-switcher > summary")
    page.locator("#game-switcher nav").wait_for()


@pytest.mark.parametrize("size", list(WIDTHS))
def test_the_switcher_and_each_game_s_index(bare_site, browser, size):
    """From Battle for Empyrean's meta page to Pips's index by the switcher, and back by the index's
    list of the other games; each page says which game it is of, the index says what Pips is, links
    its recorder and says its statistics come later; nothing scrolls sideways at either width."""
    base = bare_site
    context, page, problems = new_page(browser, size)
    width = WIDTHS[size]["width"]
    try:
        page.goto(f"{base}/meta")
        assert page.inner_text("#game-switcher > summary").strip().endswith("Battle for Empyrean")
        open_switcher(page)
        links = page.locator("#game-switcher nav a")
        assert links.all_inner_texts()[:1] == ["Battle for Empyrean"] and "Pips (test game)" in links.all_inner_texts()
        assert page.get_attribute("#game-switcher a[data-game=bfe]", "aria-current") == "true"
        assert page.get_attribute("#game-switcher a[data-game=pips]", "aria-current") is None
        no_sideways_scroll(page, size)
        shoot(page, f"games-switcher-open-{width}")
        with page.expect_navigation():
            page.click("#game-switcher a[data-game=pips]")

        assert page.url == f"{base}/pips/"
        assert page.inner_text("h1") == "Pips (test game)"
        assert page.inner_text("#game-switcher > summary").strip().endswith("Pips (test game)")
        facts = page.inner_text("dl.facts")
        assert "2 players" in facts and "a colour" in facts and "one winner, or a draw" in facts, facts
        assert "no statistics pages yet; they come later" in page.inner_text("#stats-later")
        assert page.get_attribute("#stats-later a", "href") == "/api/v1/stats/pips/factions"
        # its navigation is its own: no Battle for Empyrean page offered as Pips's
        nav = page.locator("#game-nav a").all_inner_texts()
        assert nav == ["About the game", "Record a game", "Events & disputes"], nav
        assert page.get_attribute("#game-nav a:has-text('About the game')", "aria-current") == "page"
        assert page.get_attribute("#record-link", "href") == "/pips/record"
        open_switcher(page)
        assert page.get_attribute("#game-switcher a[data-game=pips]", "aria-current") == "true"
        page.click("#stats-title")  # a tap elsewhere closes it
        assert page.locator("#game-switcher nav").is_hidden()
        open_switcher(page)
        page.keyboard.press("Escape")  # so does Escape, back on its button
        assert page.locator("#game-switcher nav").is_hidden()
        assert page.evaluate("document.activeElement.closest('#game-switcher') !== null")
        no_sideways_scroll(page, size)
        shoot(page, f"games-pips-index-{width}")

        with page.expect_navigation():
            page.click("#other-games a:has-text('Battle for Empyrean')")
        assert page.url == f"{base}/meta"
        assert page.inner_text("h1") == "Meta overview"

        # each game's pages under its key: /bfe/ is the meta page, /bfe/matchups the matchups
        page.goto(f"{base}/bfe/?min_games=5")
        assert page.url == f"{base}/meta?min_games=5"
        page.goto(f"{base}/bfe/matchups")
        assert page.url == f"{base}/matchups" and page.inner_text("h1") == "Matchups"
        # Pips's recorder from its navigation
        page.goto(f"{base}/pips/")
        with page.expect_navigation():
            page.click("#game-nav a:has-text('Record a game')")
        assert page.url == f"{base}/pips/record"
        assert page.inner_text("#setup-title") == "Record a game of Pips (test game)"
        assert page.get_attribute("#game-nav a:has-text('Record a game')", "aria-current") == "page"
        page.goto(f"{base}/bfe/record")
        assert page.url == f"{base}/record"  # Battle for Empyrean's recorder is its board mode
    finally:
        context.close()
    assert not problems, problems


@pytest.mark.parametrize("size", list(WIDTHS))
def test_an_unknown_game_is_a_404_naming_the_games(bare_site, browser, size):
    base = bare_site
    context, page, problems = new_page(browser, size)
    try:
        response = page.goto(f"{base}/nosuch/")
        assert response.status == 404
        assert page.inner_text("[role=alert]") == "There is no game “nosuch” here."
        listed = page.locator("ul.game-list a")
        shipped = [k for k in games.keys() if k != "pips"]  # the site also runs the test game Pips
        assert listed.all_inner_texts() == [games.info(k).name for k in shipped] + ["Pips (test game)"]
        assert [a.get_attribute("href") for a in listed.all()] == \
            ["/meta" if k == "bfe" else f"/{k}/" for k in shipped] + ["/pips/"]
        assert page.goto(f"{base}/nosuch/record").status == 404
        no_sideways_scroll(page, size)
        shoot(page, f"games-unknown-{WIDTHS[size]['width']}")
        # the API's own paths are never taken for a game's
        assert page.goto(f"{base}/api/").status == 404 and "application/json" in page.evaluate(
            "document.contentType")
    finally:
        context.close()
    assert not problems, problems


# ---------------------------------------------------------------------------------- the lines mode
def wait_ready(page, count: int) -> None:
    page.wait_for_selector(f"#record[data-busy=false][data-count='{count}']", state="attached")


def line_button(page, line: str):
    return page.locator(f"#answers button[data-line={quoted(line)}]")


def stored(page) -> dict:
    return page.evaluate("""() => {
        const id = decodeURIComponent(location.hash.slice('#game='.length));
        return JSON.parse(localStorage.getItem('empyrean.record.game.' + id));
    }""")


def take(page, lines: list[str], done: int) -> int:
    """Click each of ``lines`` in turn (``done``: the decisions the page has). A line the engine takes
    by itself (a player's last card, the last card of a deck) is not offered: it must be said as
    applied by itself, or the game is over with it. Returns the decisions the page has after them."""
    for line in lines:
        wait_ready(page, done)
        if page.get_attribute("#record", "data-screen") == "end":
            break
        if line_button(page, line).count() == 0:
            assert line in page.inner_text("#forced"), (line, page.inner_text("#forced"))
            continue
        line_button(page, line).click()
        done += 1
    wait_ready(page, done)
    return done


def canonical(log: dict) -> str:
    """A log in canonical form (engine.log) as a table writes it (engine.seats.as_recorded: an answer
    the engine takes by itself written or not does not matter), its claimed result aside."""
    from engine.log import parse_log, to_json

    return to_json(parse_log({k: v for k, v in as_recorded(log).items() if k != "result"}))


def test_the_setup_form_is_the_game_s_own(bare_site, browser):
    """The form is drawn from Pips's log schema: one colour per seat (a select of red, blue, green,
    the seats starting on different ones); a setup the engine refuses is said next to the form, by
    the field's label, and nothing is recorded."""
    base = bare_site
    context, page, problems = new_page(browser, "desktop")
    try:
        page.goto(f"{base}/pips/record")
        assert page.locator("#setup-colours-0 option").all_inner_texts() == ["red", "blue", "green"]
        assert page.input_value("#setup-colours-0") == '"red"' and page.input_value("#setup-colours-1") == '"blue"'
        assert page.inner_text("label:has(#setup-colours-1)").startswith("P2's colour")
        assert page.input_value("#catalog") == "1"
        page.click("#start")
        errors = page.inner_text("#setup-errors")
        assert "P1 needs a name." in errors and "P2 needs a name." in errors
        page.fill("#player-1", "Ada")
        page.fill("#player-2", "Bo")
        page.fill("#catalog", "7")  # a catalog Pips does not have: the engine says so
        page.click("#start")
        page.wait_for_selector("#record[data-screen=setup] #setup-errors li")
        assert "Catalog version: unknown catalog version '7'" in page.inner_text("#setup-errors")
        assert page.get_attribute("#catalog", "aria-invalid") == "true"
        assert page.input_value("#player-1") == "Ada" and page.input_value("#catalog") == "7"  # nothing lost
        assert page.is_hidden("#saved")  # and no kept game that cannot go on
        shoot(page, "lines-setup-refused-1400")
    finally:
        context.close()
    assert not problems, problems


# (width, the self-played game, its winner and the verdict's words): two games, so that each upload is new
WHOLE_GAMES = [("desktop", 1, 1, "Ada wins 2–1"), ("phone", 10, 2, "Bo wins 0–3")]


@pytest.fixture(scope="module")
def organiser(app) -> dict:
    """An organiser's token and two events of theirs: one of Pips, one of Battle for Empyrean."""
    token = make_token(app, "organiser", name="games tests", owner="Pips TO")
    client = token_client(app, token)
    pips_event = client.post("/api/v1/events", json={"name": "Pips Open", "game": "pips"}).get_json()
    client.post("/api/v1/events", json={"name": "Empyrean Cup", "game": "bfe"})
    return {"token": token, "event": pips_event["id"]}


@pytest.mark.parametrize("size, seed, winner, words", WHOLE_GAMES)
def test_a_whole_game_of_pips_recorded_by_its_lines(bare_site, app, browser, pips, organiser, size, seed, winner,
                                                     words):
    """Set up through the form, then every decision clicked: one found with the search box, one undone
    and redone, the page reloaded in the middle and the game carried on; the end claims the rules'
    winner, the downloaded log verifies valid and holds the game's own lines, and the upload (with an
    API token; on a laptop into the organiser's Pips event, the only one of theirs offered) is judged
    valid by the service's worker."""
    base = bare_site
    width = WIDTHS[size]["width"]
    played = as_recorded(pips.RULES.self_play(seed))
    lines = played["decisions"]
    context, page, problems = new_page(browser, size)
    try:
        page.goto(f"{base}/pips/")
        with page.expect_navigation():
            page.click("#record-link")
        for seat, name in enumerate(NAMES, 1):
            page.fill(f"#player-{seat}", name)
        for i, colour in enumerate(played["setup"]["colours"]):
            page.select_option(f"#setup-colours-{i}", json.dumps(colour))
        no_sideways_scroll(page, size)
        shoot(page, f"lines-setup-{width}")
        page.click("#start")
        page.wait_for_selector("#record[data-screen=game][data-busy=false]")

        # the first draw: every card of P1's deck, and "?" for one not seen, grouped under "draw"
        assert page.inner_text("#decide-title") == "Chance"
        assert page.inner_text("#prompt").startswith("The card P1 draws")
        assert page.locator(".verb-group h3").all_inner_texts() == ["draw · 5 lines"]
        assert page.locator("#answers button.answer").count() == 5
        # the search box: a word of the line narrows the buttons to those that have it
        page.fill("#line-search", lines[0].split()[-1])
        assert [b.get_attribute("data-line") for b in page.locator("#answers button.answer").all()] == [lines[0]]
        assert "1 of 5 lines match" in page.inner_text("#line-count")
        page.fill("#line-search", "nothing like it")
        assert page.locator("#answers button.answer").count() == 0
        assert "No line matches" in page.inner_text("#line-count")
        page.fill("#line-search", lines[0].split()[-1])
        line_button(page, lines[0]).click()
        done = take(page, lines[1:5], 1)  # the rest of the draws and the first roll
        assert page.input_value("#line-search") == ""  # the search starts afresh at each decision

        # P1 plays: grouped under "play", and the tally shows each seat's rounds taken
        assert page.locator(".verb-group").get_attribute("data-verb") == "play"
        assert page.text_content("#decide-title") == "P1 Ada to decide"
        assert page.locator("#tally-table thead th").all_inner_texts() == ["Player", "taken"]
        no_sideways_scroll(page, size)
        shoot(page, f"lines-game-{width}")

        # undo and redo
        page.click("#undo")
        wait_ready(page, done - 1)
        assert page.inner_text("#redo") == "Redo (1)"
        assert line_button(page, lines[done - 1]).count() == 1
        page.click("#redo")
        wait_ready(page, done)
        assert page.inner_text("#redo") == "Redo"

        done = take(page, lines[5:9], done)  # round 1 played: someone took it
        taken = [int(t) for t in page.locator("#tally-table tbody td").all_inner_texts()]
        assert sum(taken) == 1, taken

        # a reload in the middle: the game is still there, and goes on where it was
        page.reload()
        wait_ready(page, done)
        assert page.locator("#history-list button.history-item").count() == done
        assert stored(page)["decisions"] == lines[:done]
        done = take(page, lines[9:], done)

        # the end: the rules' winner, the claim filled in, the verdict valid
        page.wait_for_selector("#record[data-screen=end]")
        page.wait_for_selector("#verdict[data-status]")
        assert page.get_attribute("#verdict", "data-status") == "valid", page.inner_text("#verdict")
        assert page.inner_text("#verdict").endswith(words)
        who = f"P{winner} {NAMES[winner - 1]}"
        assert page.inner_text("#end-how") == f"The game was played to its end: {who} wins."
        assert page.is_checked(f"input[name=winner][value='{winner}']")
        assert "(by the rules)" in page.inner_text(f"label:has(input[name=winner][value='{winner}'])")
        no_sideways_scroll(page, size)
        shoot(page, f"lines-end-{width}")
        with page.expect_download() as info:
            page.click("#download")
        log = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
        if size == "desktop":  # into an event: only the organiser's event of Pips is offered
            page.fill("#upload-token", organiser["token"])
            page.click("#upload-find-events")
            page.wait_for_selector(f"#upload-event option[value='{organiser['event']}']", state="attached")
            assert page.locator("#upload-event option").all_inner_texts() == ["No event (a friendly game)",
                                                                                "Pips Open"]
            page.select_option("#upload-event", str(organiser["event"]))
            page.fill("#upload-round", "1")
            page.fill("#upload-table", "3")
            assert page.inner_text("#upload-target") == "Uploads into Pips Open, round 1, table 3."
        else:
            page.fill("#upload-token", make_token(app, "uploader", name=f"pips table {width}"))
        page.click("#upload")
        page.wait_for_selector("#upload-status[data-status=valid]", timeout=60_000)
        if size == "desktop":
            assert "event Pips Open" in page.inner_text("#upload-status")
        assert re.match(rf"^Uploaded: game \d+ — valid {words}", page.inner_text("#upload-status"))
        assert page.is_hidden("#replay-row")  # the replay viewer does not draw Pips: no link to it
        shoot(page, f"lines-uploaded-{width}")
    finally:
        context.close()
    assert not problems, problems
    result = replay(log)
    assert result.verdict.status.value == "valid", result.verdict.message
    assert log["game"] == "pips" and log["setup"] == played["setup"] and log["meta"]["players"] == NAMES
    assert canonical(log) == canonical({**played, "meta": log["meta"]}) and log["result"] == {"winner": winner}


def test_a_concession_and_a_replaced_decision(bare_site, browser, pips):
    """On a phone: going back and choosing another line asks first, and Restore brings the old lines
    back; a concession (two taps) ends the game, and its log verifies with the other player winning."""
    base = bare_site
    lines = as_recorded(pips.RULES.self_play(2))["decisions"]
    context, page, problems = new_page(browser, "phone")
    try:
        page.goto(f"{base}/pips/record")
        page.fill("#player-1", "Ada")
        page.fill("#player-2", "Bo")
        page.click("#start")
        page.wait_for_selector("#record[data-screen=game][data-busy=false]")
        done = take(page, lines[:5], 0)
        page.click("#history-list button[data-index='3']")  # back to just before decision 4
        wait_ready(page, 3)
        other = next(b.get_attribute("data-line") for b in page.locator("#answers button.answer").all()
                     if b.get_attribute("data-line") != lines[3])
        line_button(page, other).click()
        assert page.inner_text("#replace-text") == "This replaces the 2 decisions after it."
        assert page.locator("#lines").is_hidden()
        shoot(page, "lines-replace-390")
        page.click("#replace-later")
        wait_ready(page, 4)
        assert stored(page)["decisions"] == lines[:3] + [other]
        page.click("#restore-replaced")
        wait_ready(page, done)
        assert stored(page)["decisions"] == lines[:done]

        page.click("#end-early > summary")
        page.click("button[data-concede='2']")
        assert page.inner_text("button[data-concede='2']") == "Tap again: P2 Bo concedes the game"
        page.click("button[data-concede='2']")
        page.wait_for_selector("#verdict[data-status]")
        assert page.inner_text("#end-how") == "P2 Bo conceded in round 1."
        assert page.get_attribute("#verdict", "data-status") == "valid"
        no_sideways_scroll(page, "phone")
        shoot(page, "lines-conceded-390")
        with page.expect_download() as info:
            page.click("#download")
        log = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
        page.click("#back-to-game")  # the concession taken back: the game goes on
        wait_ready(page, done)
        assert page.locator("#record[data-screen=game]").count() == 1
    finally:
        context.close()
    assert not problems, problems
    assert log["decisions"] == lines[:done] + ["P2 concede"] and log["result"] == {"winner": 1}
    assert replay(log).verdict.status.value == "valid"
    assert re.match(r"^empyrean-\d{4}-\d\d-\d\d-Ada-Bo\.json$", info.value.suggested_filename)
