"""The recorder (/record) in headless Chromium, over the real service (API, PostgreSQL, Redis, the
Celery worker): self-played games are recorded by clicking only — the setup through the form, then
for each decision the button that carries the next line of the game (data-line) — and the log the
page hands over is compared with the game's own (canonical form) and verified. Also: one seat's
view with the opponent's draws not seen, undo and redo, a reload in the middle, a concession, time
called, a mash-up deck, the upload into an event with a token, the phone layout and screenshots; and
that no work is lost: going back asks before an answer replaces later decisions (and they can be
restored), the log so far can be downloaded at any moment, a browser that refuses storage says so
where the person looks, and both early endings count the same unseen cards.

Every test fails on any browser console error, JavaScript error, dialog or CSP violation."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_artifacts import SCREENSHOTS
from service_helpers import as_admin, make_token, token_client

from engine.bfe.catalog import load_catalog
from engine.bfe.selfplay import self_play
from engine.log import parse_log, to_json
from engine.position import position
from engine.replay import replay
from engine.seats import as_recorded, seat_view
from engine.timeline import timeline

DESKTOP = {"viewport": {"width": 1400, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = ["Ada", "Bo", "Cy"]
EVENT = "Recorder Cup"


@pytest.fixture(scope="module")
def event(app) -> dict:
    """An event owned by an organiser, and an uploader token bound to it."""
    organiser = make_token(app, "organiser", name="recorder tests", owner="Recorder TO")
    body = token_client(app, organiser).post("/api/v1/events", json={"name": EVENT}).get_json()
    return {"id": body["id"], "name": EVENT, "organiser_token": organiser}


@contextmanager
def watched(browser, name: str, **options):
    """A fresh page that fails the test on any console error, JavaScript error, dialog or CSP
    violation, and leaves a full-page screenshot named ``name`` in test-artifacts/screenshots."""
    context = browser.new_context(accept_downloads=True, **options)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" or "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on("dialog", lambda dialog: (problems.append(f"dialog opened: {dialog.message}"), dialog.dismiss()))
    try:
        yield page
        shoot(page, name)
    finally:
        context.close()
    assert not problems, problems


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------------------------- the setup form
def fill_setup(page, log: dict, *, view: int | None = None, event: dict | None = None, token: str | None = None,
               table: str = "", round_: str = "", names: list[str] = NAMES) -> None:
    """Set a game up through the form as a person would: mode, names, decks (searched, then chosen),
    battlefields, first player, who records, event."""
    setup = log["setup"]
    page.wait_for_selector("#catalog option", state="attached")
    page.check(f"input[name=mode][value='{setup['mode']}']")
    for seat, deck in enumerate(setup["decks"], 1):
        page.fill(f"#player-{seat}", names[seat - 1])
        page.fill(f"#deck-search-{seat}", deck.split()[0])
        page.select_option(f"#deck-{seat}", deck)
    for b, name in enumerate(setup["battlefields"], 1):
        page.select_option(f"#battlefield-{b}", name)
    page.check(f"input[name=first-player][value='{setup['first_player']}']")
    page.check(f"input[name=recording][value='{view or ''}']")
    if event is not None:
        page.fill("#token", token)
        page.click("#find-events")
        page.wait_for_selector(f"#event option[value='{event['id']}']", state="attached")
        if not page.locator("#event").is_disabled():  # a token bound to the event has chosen it already
            page.select_option("#event", str(event["id"]))
    if table:
        page.fill("#event-table", table)
    if round_:
        page.fill("#event-round", round_)


def start(page) -> None:
    page.click("#start")
    page.wait_for_selector("#record[data-screen=game][data-busy=false]")


# ---------------------------------------------------------------------------------- playing by clicks
def group_of(line: str) -> str | None:
    """The first of two taps a line takes: a deploy's card, or the card a move or command is about."""
    m = re.match(r"^P\d deploy (.+) to B\d$", line)
    if m:
        return f"deploy {m[1]}"
    m = re.match(r"^P\d (?:move|command) (P\d:B\dZ\d)", line)
    return f"card {m[1]}" if m else None


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wait_ready(page, count: int) -> None:
    page.wait_for_selector(f"#record[data-busy=false][data-count='{count}']", state="attached")


def click_line(page, line: str, board: bool = False) -> None:
    """Take one decision by clicking its button(s); never by writing the line. ``board``: tap the
    board where a line is about a place on it (a target, a battlefield, the card to move)."""
    group = group_of(line)
    answer = page.locator(f"#answers button[data-line={quoted(line)}]")
    if board:
        on_board = page.locator(f"#board button[data-board-line={quoted(line)}]")
        if on_board.count() == 0 and group is not None and group.startswith("card "):
            page.click(f"#board button[data-board-group={quoted(group)}]")
        elif on_board.count() == 0 and group is not None:
            page.click(f"#answers button[data-group={quoted(group)}]")
        if on_board.count():
            on_board.click()
            return
    elif group is not None and answer.count() == 0:
        page.click(f"#answers button[data-group={quoted(group)}]")
    if answer.count() == 1 and not answer.is_visible():  # an answer folded away: a left-out point
        page.click("#answers details.left-out > summary")
    answer.click()


def play(page, lines: list[str], done: int = 0, board: bool = False) -> None:
    """Click ``lines`` in order; ``done``: how many decisions the page has already."""
    for i, line in enumerate(lines):
        wait_ready(page, done + i)
        click_line(page, line, board)
    wait_ready(page, done + len(lines))


def stored_log(page) -> dict:
    """The log the page keeps in the browser's storage for the game it shows."""
    return page.evaluate("""() => {
        const id = decodeURIComponent(location.hash.slice('#game='.length));
        return JSON.parse(localStorage.getItem('empyrean.record.game.' + id));
    }""")


def downloaded(page) -> dict:
    with page.expect_download() as info:
        page.click("#download")
    return json.loads(Path(info.value.path()).read_text(encoding="utf-8"))


def canonical(log: dict) -> str:
    """The canonical JSON of a log (engine.log), its claimed result aside, after writing it again the
    way engine.seats writes a table's log: a forced answer written or left out does not matter (the
    canonical form alone keeps them: docs/log-format.md, "Canonical form")."""
    view = log["chance"].get("view")
    normal = seat_view(log, view) if view else as_recorded(log)
    return to_json(parse_log({k: v for k, v in normal.items() if k != "result"}))


def expected_log(log: dict, page_log: dict) -> dict:
    """The self-played game with the meta the page wrote (names, date, event): the page adds no line."""
    return {**log, "meta": page_log["meta"]}


def game(seed: int, players: int = 2) -> dict:
    return as_recorded(self_play(seed, players=players))




def first_line_of_round(log: dict, rnd: int) -> int:
    """The index of the first line written while round ``rnd`` is played."""
    return next(f["line"] for f in timeline(log).frames[1:] if f["round"] == rnd)


def no_sideways_scroll(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


def check_the_end(page, log: dict) -> dict:
    """The end screen of a whole game: the tally's result claimed, verdict valid; the downloaded
    log is the game's own (canonical form) and verifies valid. Returns it."""
    page.wait_for_selector("#record[data-screen=end]")
    page.wait_for_selector("#verdict[data-status]")
    assert page.get_attribute("#verdict", "data-status") == "valid", page.inner_text("#verdict")
    winner = log["result"]["winner"]
    assert page.is_checked(f"input[name=winner][value='{winner if winner else 'draw'}']")
    got = downloaded(page)
    assert got["decisions"] == log["decisions"]  # exactly the lines clicked, in their order
    assert canonical(got) == canonical(expected_log(log, got))
    assert got["result"] == {**log["result"], "reason": "score"}
    assert replay(got).verdict.status == "valid"
    assert got == stored_log_as_log(page, got)
    return got


def stored_log_as_log(page, got: dict) -> dict:
    """The decisions and result the page keeps in the browser's storage, in the downloaded log."""
    kept = stored_log(page)
    return {**got, "decisions": kept["decisions"], "result": kept["result"]}


# ---------------------------------------------------------------------------------- tests
def test_the_setup_form(bare_site, browser, app, event):
    """The navigation link, the mode changing the form, battlefields drawn at random and
    confirmed, a mash-up checked against the template, the events a token finds (an unlisted one by
    its number), and what stops a game from starting."""
    organiser = token_client(app, event["organiser_token"])
    closed = organiser.post("/api/v1/events", json={"name": "Recorder Closed", "visibility": "unlisted"}).get_json()
    with watched(browser, "record-setup-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/meta")
        page.click("nav a:has-text('Record a game')")
        page.wait_for_url(re.compile(r"/record$"))
        page.wait_for_selector("#deck-1 option[value='Vikings of Valhalla']", state="attached")
        assert page.locator("#seats .seat-box").count() == 2
        assert page.locator("#battlefield-picks select").count() == 3
        assert page.locator("script[src*=plotly]").count() == 0  # no figure here: no plotly.js to load
        page.check("input[name=mode][value='3p']")
        assert page.locator("#seats .seat-box").count() == 3
        assert page.locator("#battlefield-picks select").count() == 4
        assert page.locator("input[name=first-player]").count() == 3
        assert page.locator("input[name=recording]").count() == 4  # everyone, or one of three seats
        # nothing chosen yet: the form says what is missing, and no game starts
        page.click("#start")
        errors = page.inner_text("#setup-errors")
        assert "P1 needs a name" in errors and "P1 needs a deck" in errors and "battlefield B4" in errors
        assert page.get_attribute("#record", "data-screen") == "setup"
        # a deck found by searching: one match is chosen
        page.fill("#deck-search-2", "vik")
        assert page.input_value("#deck-2") == "Vikings of Valhalla"
        # battlefields at random: shown, then used only when confirmed
        page.click("#draw-battlefields")
        drawn = page.inner_text("#drawn-list")
        assert [page.input_value(f"#battlefield-{b}") for b in range(1, 5)] == ["", "", "", ""]
        page.click("#use-drawn")
        chosen = [page.input_value(f"#battlefield-{b}") for b in range(1, 5)]
        assert len(set(chosen)) == 4 and all(f"B{b} {name}" in drawn for b, name in enumerate(chosen, 1))
        # a mash-up: picked card by card and pasted, checked against the deck template
        page.select_option("#deck-1", "(mash-up)")
        mashup = page.locator('.seat-box[data-seat="1"] .mashup')
        mashup.locator(".mashup-search").fill("horse arch")
        mashup.locator("button[data-card='Horse Archers']").click()
        mashup.locator("button[data-card='Horse Archers']").click()
        assert mashup.locator(".mashup-paste").input_value() == "2 Horse Archers"
        assert "a deck has 24 cards; this one has 2" in mashup.locator(".mashup-check").inner_text()
        cavalry = page.evaluate("fetch('/api/v1/catalog/2026.2').then(r => r.json())")["decks"]
        cards = next(d["cards"] for d in cavalry if d["name"] == "Cavalry of the Parthian Empire")
        mashup.locator(".mashup-paste").fill("\n".join(cards))
        assert "Keeps the deck template." in mashup.locator(".mashup-check").inner_text()
        mashup.locator(".mashup-paste").fill("\n".join(cards[:-1] + ["Soul of the Living", "Nobody"]))
        check = mashup.locator(".mashup-check").inner_text()
        assert "no card called “Nobody”" in check and "this one has 25" in check
        page.click("#start")
        assert "P1's mash-up" in page.inner_text("#setup-errors")
        # the events the token may upload into: the public ones and its organiser's unlisted one
        page.fill("#token", event["organiser_token"])
        page.click("#find-events")
        page.wait_for_selector(f"#event option[value='{event['id']}']", state="attached")
        assert page.locator(f"#event option[value='{closed['id']}']").count() == 1
        assert "may upload into" in page.inner_text("#events-note")
        # an event by its number (one past the list's thousand, say) is found too
        page.click("details.unlisted > summary")
        page.fill("#event-id", str(closed["id"]))
        page.click("#find-event")
        page.wait_for_function("id => document.querySelector('#event').value === id", arg=str(closed["id"]))
        assert "Event " + str(closed["id"]) in page.inner_text("#events-note")
    with watched(browser, "record-setup-phone", **PHONE) as phone:
        phone.goto(f"{bare_site}/record")
        phone.wait_for_selector("#deck-1 option[value='Vikings of Valhalla']", state="attached")
        no_sideways_scroll(phone)
        for box in phone.locator("#setup-form button, #setup-form select, .toggle").all():
            if box.is_visible():
                assert box.bounding_box()["height"] >= 44, box.inner_text()


def test_a_2_player_game_recorded_and_uploaded_into_an_event(bare_site, browser, app, event):
    """A whole game by clicking only; at the end the upload into the event chosen with the token,
    through the service's normal path (the real worker judges it), and the replay link."""
    log = game(1)
    token = make_token(app, "uploader", name="table 7", owner="Recorder TO", event_id=event["id"])
    with watched(browser, "record-end-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, event=event, token=token, table="7", round_="2")
        shoot(page, "record-setup-filled-desktop")
        start(page)
        play(page, log["decisions"])
        got = check_the_end(page, log)
        assert got["meta"] == {"players": NAMES[:2], "date": got["meta"]["date"], "event": EVENT, "round": 2,
                               "table": 7}
        assert page.input_value("#upload-token") == token  # kept for this tab
        page.click("#upload")
        page.wait_for_selector("#upload-status[data-status=valid]", timeout=60_000)
        gid = stored_log(page)["uploaded"]["id"]
        body = as_admin(app).get(f"/api/v1/games/{gid}").get_json()
        assert body["status"] == "valid" and body["event"] == EVENT and body["event_id"] == event["id"]
        assert body["uploaded_by"]["name"] == "table 7"
        assert page.input_value("#replay-link") == f"{bare_site}/games/{gid}/replay"
        with page.expect_navigation():
            page.click("#open-replay")
        page.wait_for_selector("#board .battlefield")
        assert page.inner_text("#game-status") == "valid"
        page.go_back()
        page.wait_for_selector("#record[data-screen=end]")


def test_a_2_player_game_with_a_mash_up_deck_recorded_on_a_phone(bare_site, browser):
    """The same on a 390 px phone, with P2's deck a mash-up pasted into the form (the cards of the
    premade deck P2 played, so the self-played game is still legal with it)."""
    played = game(4)
    premade = played["setup"]["decks"][1]
    cards = [c.name for c in load_catalog(played["catalog"]).decks[premade]]
    mashup_deck = {"name": "Bo's horses", "cards": cards}
    log = {**played, "setup": {**played["setup"], "decks": [played["setup"]["decks"][0], mashup_deck]}}
    assert replay(log).verdict.status == "valid"
    with watched(browser, "record-end-phone", **PHONE) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, played)
        page.select_option("#deck-2", "(mash-up)")
        mashup = page.locator('.seat-box[data-seat="2"] .mashup')
        mashup.locator(".mashup-name").fill(mashup_deck["name"])
        mashup.locator(".mashup-paste").fill("\n".join(cards))
        assert "Keeps the deck template." in mashup.locator(".mashup-check").inner_text()
        no_sideways_scroll(page)
        shoot(page, "record-setup-mashup-phone")
        start(page)
        no_sideways_scroll(page)
        play(page, log["decisions"])
        got = check_the_end(page, log)
        assert got["setup"]["decks"][1] == mashup_deck
        no_sideways_scroll(page)


def test_a_3_player_game_recorded_by_tapping_the_board(bare_site, browser):
    """A 3-player game where targets, battlefields and the cards to move are tapped on the board."""
    log = game(3, players=3)
    with watched(browser, "record-3p-end-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, log["decisions"], board=True)
        check_the_end(page, log)


def test_a_game_recorded_from_one_seat_with_the_opponents_draws_not_seen(bare_site, browser):
    """P1's view: P2's draws and keeps are never asked; what P2 showed (a card chosen from the hand
    that showed itself) is written from the folded-away answers of a left-out point. Entered in the
    log's order, as from notes after the game: where P2 deploys first, "Enter their cards first"."""
    log = seat_view(game(2), 1)
    with watched(browser, "record-seat-view-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, view=1)
        start(page)
        firsts = 0
        for i, line in enumerate(log["decisions"]):
            wait_ready(page, i)
            if page.get_attribute("#held", "data-stage") == "hold":
                page.click("#held-done")
                wait_held(page, i, 0)
                firsts += 1
            click_line(page, line)
        assert firsts == len(face_down_rounds(log)) > 0
        page.wait_for_selector("#verdict[data-status]")
        assert page.get_attribute("#verdict", "data-status") == "valid"
        assert "of P2's cards were not seen" in page.inner_text("#verdict")
        got = downloaded(page)
        assert got["chance"] == {"type": "recorded", "view": 1}
        assert canonical(got) == canonical(expected_log(log, got))
        assert replay(got).verdict.status == "valid"


# ---------------------------------------------------------------------------------- one seat: own deploys first
def wait_held(page, count: int, held: int) -> None:
    page.wait_for_selector(f"#record[data-busy=false][data-count='{count}'][data-held='{held}']", state="attached")


def face_down_rounds(log: dict) -> list[dict]:
    """Where another player deploys face down before the seat (the position's deploys_before_seat),
    how the table plays it: ``at``, the first such line; ``theirs``, the lines up to the seat's own
    deploy turn (their deploys and passes, entered at the reveal); ``held``, the seat's own deploys
    (and its pass) up to what one of them makes happen, entered first, which the page writes itself."""
    seat, lines = log["chance"]["view"], log["decisions"]
    at = [position({**log, "decisions": lines[:k]}) for k in range(len(lines))]
    out, k = [], 0
    while k < len(lines):
        if not at[k].deploys_before_seat:
            k += 1
            continue
        j = k
        while j < len(lines) and not (at[j].phase == "deploy" and at[j].pending.to_decide == seat):
            j += 1
        m = j
        while m < len(lines) and at[m].phase == "deploy" and at[m].pending.kind == "deploy or pass" \
                and at[m].pending.to_decide == seat:
            m += 1
        out.append({"at": k, "theirs": lines[k:j], "held": lines[j:m], "round": at[k].round})
        k = m
    return out


def play_from_the_seat(page, log: dict, done: int = 0, upto: int | None = None) -> None:
    """Click a seat view's lines from ``done`` (up to ``upto``) in the order the table plays them: at
    another player's face-down deploy before the seat, the seat's own deploys first (held: nothing is
    written), then the other player's cards as they are revealed; the page then writes the held
    deploys itself, after them."""
    lines = log["decisions"]
    rounds = {r["at"]: r for r in face_down_rounds(log)}
    k = done
    while k < (len(lines) if upto is None else upto):
        wait_ready(page, k)
        if k not in rounds:
            click_line(page, lines[k])
            k += 1
            continue
        r = rounds[k]
        for i, line in enumerate(r["held"]):
            wait_held(page, k, i)
            click_line(page, line)
        wait_held(page, k, len(r["held"]))
        if not r["held"] or not r["held"][-1].endswith(" pass"):
            page.click("#held-done")  # their cards next: the seat deploys nothing more (or what it made happen waits)
        assert stored_log(page)["decisions"] == lines[:k]  # nothing written yet
        assert stored_log(page)["held"]["lines"] == r["held"]
        for i, line in enumerate(r["theirs"]):
            wait_ready(page, k + i)
            click_line(page, line)
        k += len(r["theirs"]) + len(r["held"])  # the page writes the held lines by itself
        wait_ready(page, k)
        assert stored_log(page)["decisions"] == lines[:k] and stored_log(page)["held"] is None
    wait_ready(page, k)


def test_a_seat_enters_its_own_deploys_before_the_opponents_face_down_ones(bare_site, browser):
    """From P1's seat, a game where P2 holds the first player token every other round: P2 deploys
    first, face down, so the log's next lines are P2's deploys, which P1 learns only at the reveal.
    The page says so and takes P1's own deploys (and pass) first, into a held list on screen, checked
    by the engine as they are entered; then P2's cards as they are revealed ("No more cards" is P2's
    pass, even when P2 deploys nothing); then it writes P1's held deploys after them, in the rules'
    order, asking what they make happen (The Prison's discard) once they are written. The log is
    exactly the seat view of the whole game and verifies valid."""
    full = game(25)
    log = seat_view(full, 1)
    assert log["setup"]["first_player"] == 2
    rounds = face_down_rounds(log)
    assert any(r["theirs"] == ["P2 pass"] for r in rounds)  # P2 deploys nothing
    assert any(r["held"] and r["held"][-1] == "P1 pass" for r in rounds)  # P1's pass held too
    first = rounds[0]
    with watched(browser, "record-seat-own-deploys-first-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, view=1)
        start(page)
        play_from_the_seat(page, log, upto=first["at"])
        wait_ready(page, first["at"])
        assert page.inner_text("#prompt") == ("P2 Bo deploys first, face down: enter your own deploys now; "
                                              "P2 Bo's cards are entered as they are revealed.")
        assert " ".join(page.inner_text("#decide-title").split()) == "P1 Ada: your own deploys first"
        # only P1's own cards are offered, never P2's
        shown = [b.get_attribute("data-line") or b.get_attribute("data-group")
                 for b in page.locator("#answers button.answer").all()]
        assert shown and all(x.startswith(("P1 ", "deploy ")) for x in shown), shown
        click_line(page, first["held"][0])
        wait_held(page, first["at"], 1)
        held = page.locator("#held [data-held-line]")
        assert [held.get_attribute("data-held-line")] == first["held"][:1] and held.count() == 1
        assert held.inner_text().startswith("P1 Ada deploys Fortress Walls to B2")
        note = page.inner_text("#held .held-note")
        assert note.startswith("Deploying Fortress Walls to B2 asks for more (discard 1 card from your hand): "
                               "that is asked when your deploys are written, after their cards"), note
        viewport_shot(page, "record-seat-own-deploys-held-desktop")
        page.click("#held-done")
        wait_held(page, first["at"], 1)
        assert page.get_attribute("#held", "data-stage") == "reveal"
        no_more = page.inner_text("#answers button[data-line='P2 pass'] .answer-text")
        assert no_more == "No more cards: P2 Bo deploys nothing more"
        assert stored_log(page)["decisions"] == log["decisions"][:first["at"]]
        click_line(page, "P2 pass")
        # P1's deploy written by the page, then what it makes happen is asked
        wait_ready(page, first["at"] + 2)
        assert stored_log(page)["decisions"][first["at"]:] == ["P2 pass", first["held"][0]]
        assert stored_log(page)["held"] is None and page.locator("#held").is_hidden()
        assert "discard" in page.inner_text("#prompt")
        play_from_the_seat(page, log, done=first["at"] + 2)
        page.wait_for_selector("#verdict[data-status]")
        assert page.get_attribute("#verdict", "data-status") == "valid"
        got = downloaded(page)
        assert got["chance"] == {"type": "recorded", "view": 1}
        assert got["decisions"] == log["decisions"] == seat_view(full, 1)["decisions"]
        assert canonical(got) == canonical(expected_log(log, got))
        assert replay(got).verdict.status == "valid"


def test_held_deploys_survive_a_reload_undo_and_going_back_on_a_phone(bare_site, browser):
    """On a 390 px phone, at P2's face-down deploy: the line saying what to enter fits the screen;
    a held deploy survives a reload; Undo takes back the held deploy first, then the end of the
    seat's deploys ("Change my deploys"), before any decision; going back before the point keeps
    the held list on screen, and an answer there says it would replace it too (Keep them brings all
    back); P2's pass then writes the held deploy after it."""
    log = seat_view(game(25), 1)
    lines = log["decisions"]
    first = face_down_rounds(log)[0]
    at, mine = first["at"], first["held"][0]
    with watched(browser, "record-seat-held-phone", **PHONE) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, view=1)
        start(page)
        play_from_the_seat(page, log, upto=at)
        assert page.locator("#prompt").is_visible() and "P2 Bo deploys first, face down" in page.inner_text("#prompt")
        no_sideways_scroll(page)
        click_line(page, mine)
        wait_held(page, at, 1)
        page.locator("#held").scroll_into_view_if_needed()
        viewport_shot(page, "record-seat-held-screen-phone")
        no_sideways_scroll(page)
        page.reload()
        wait_held(page, at, 1)
        assert page.get_attribute("[data-held-line]", "data-held-line") == mine
        page.click("#undo")  # the held deploy is taken back, no decision
        wait_held(page, at, 0)
        click_line(page, mine)
        wait_held(page, at, 1)
        page.click("#held-done")
        wait_held(page, at, 1)
        assert page.get_attribute("#held", "data-stage") == "reveal"
        page.click("#undo")  # back to the seat's own deploys
        wait_held(page, at, 1)
        assert page.get_attribute("#held", "data-stage") == "hold"
        page.click("#held-done")
        wait_held(page, at, 1)
        # back before the point: the held deploy waits on screen; an answer there would replace it too
        page.click(f"#history-list button[data-index='{at - 1}']")
        wait_held(page, at - 1, 1)
        assert page.get_attribute("#held", "data-stage") == "later"
        assert "Held for round 1" in page.inner_text("#held")
        click_line(page, another_answer(page, lines[at - 1]))
        assert page.inner_text("#replace-text") == "This replaces the decision after it, and your 1 held deploy."
        page.click("#keep-later")
        wait_held(page, at, 1)
        assert page.get_attribute("#held", "data-stage") == "reveal"
        click_line(page, "P2 pass")
        wait_ready(page, at + 2)
        kept = stored_log(page)
        assert kept["decisions"] == lines[:at + 2] and kept["held"] is None
        no_sideways_scroll(page)


def test_undo_redo_a_reload_and_a_link_lose_nothing(bare_site, browser):
    """Undo three decisions (the u key, the button, the list) and redo them: the same log. A reload
    in the middle, and the game's link opened in a new tab: nothing lost. Digits pick answers."""
    log = game(6)
    lines = log["decisions"]
    with watched(browser, "record-undo-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, lines[:30])
        page.keyboard.press("u")
        wait_ready(page, 29)
        page.click("#undo")
        wait_ready(page, 28)
        page.click("#history-list button[data-index='27']")  # back to just before decision 28
        wait_ready(page, 27)
        assert stored_log(page)["decisions"] == lines[:27]
        assert stored_log(page)["redo"] == lines[29:26:-1]
        for n in (28, 29, 30):
            page.click("#redo")
            wait_ready(page, n)
        assert page.locator("#redo").is_disabled()
        assert stored_log(page)["decisions"] == lines[:30]
        # a different decision after an undo replaces what could be redone, once the page has asked
        page.keyboard.press("u")
        wait_ready(page, 29)
        other = [b for b in page.locator("#answers button[data-line]").all()
                 if b.get_attribute("data-line") != lines[29] and b.is_visible()]
        if other:
            other[0].click()
            page.click("#replace-later")
            wait_ready(page, 30)
            assert stored_log(page)["redo"] == []
            page.keyboard.press("u")
            wait_ready(page, 29)
        click_line(page, lines[29])
        if other:  # the undone other answer is replaced in turn: asked again
            assert page.inner_text("#replace-text") == "This replaces the decision after it."
            page.click("#replace-later")
        wait_ready(page, 30)
        # the keyboard: digit k takes the k-th answer shown (a deploy: its card, then its battlefield)
        keyed = 0
        for i in range(30, 40):
            for want in ([group_of(lines[i])] if group_of(lines[i]) else []) + [lines[i]]:
                shown = [b.get_attribute("data-line") or b.get_attribute("data-group")
                         for b in page.locator("#answers button.answer").all()]
                if shown.index(want) < 9:
                    page.keyboard.press(str(shown.index(want) + 1))
                    keyed += 1
                else:
                    page.click(f"#answers button.answer >> nth={shown.index(want)}")
            wait_ready(page, i + 1)
        assert keyed >= 5
        game_id = stored_log(page)["id"]
        page.reload()
        wait_ready(page, 40)
        assert page.get_attribute("#record", "data-screen") == "game"
        assert stored_log(page)["decisions"] == lines[:40]
        play(page, lines[40:42], done=40)
        other_tab = page.context.new_page()
        other_tab.goto(f"{bare_site}/record#game={game_id}")
        wait_ready(other_tab, 42)
        assert other_tab.locator("#history-list button[data-index]").count() == 42
        other_tab.goto(f"{bare_site}/record")  # the games on this device, each a link
        other_tab.click(f"#saved-list a[href='#game={game_id}']")
        wait_ready(other_tab, 42)
        other_tab.close()


def test_a_concession_ends_the_game(bare_site, browser):
    log = game(5)
    upto = first_line_of_round(log, 2) + 1  # a line into round 2
    with watched(browser, "record-concession-phone", **PHONE) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, log["decisions"][:upto])
        page.click("#end-early > summary")
        page.click("button[data-concede='2']")
        assert page.get_attribute("#record", "data-screen") == "game"  # a second tap concedes
        page.click("button[data-concede='2']")
        page.wait_for_selector("#verdict[data-status]")
        assert page.inner_text("#end-how") == "P2 Bo conceded in round 2."
        assert page.get_attribute("#verdict", "data-status") == "valid"
        assert page.is_checked("input[name=winner][value='1']")
        got = downloaded(page)
        assert got["decisions"] == log["decisions"][:upto] + ["P2 concede"]
        assert got["result"]["reason"] == "concession" and got["result"]["winner"] == 1
        assert replay(got).verdict.status == "valid"
        no_sideways_scroll(page)


def test_time_called_and_a_claim_the_rules_disagree_with(bare_site, browser):
    """Time called: the board tallied as it stands; a claimed winner the tally disagrees with is a
    mismatch (how a dispute starts); back to the game undoes the end."""
    log = game(7)
    upto = first_line_of_round(log, 4) + 1  # a line into round 4
    nasty = '<script>alert("x")</script>&"'  # a player's name is text, never markup (the page fails on a dialog)
    with watched(browser, "record-time-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, names=["Ada", nasty])
        start(page)
        play(page, log["decisions"][:upto])
        page.click("#end-early > summary")
        page.check("input[name=time-rule][value='tally']")
        page.click("#time-called")
        page.click("#time-called")  # a second tap calls time
        page.wait_for_selector("#verdict[data-status=valid]")
        assert page.inner_text("#end-how").startswith("Time was called in round 4")
        assert page.get_by_text(f"P2 {nasty} wins").count() == 1
        result = stored_log(page)["result"]
        assert result["reason"] == "time" and result["time_rule"] == "tally"
        other = next(v for v in ("1", "2", "draw") if v != str(result["winner"] or "draw"))
        page.check(f"input[name=winner][value='{other}']")
        page.click("#check-result")
        page.wait_for_selector("#verdict[data-status=mismatch]")
        got = downloaded(page)
        verdict = replay(got).verdict
        assert verdict.status == "mismatch" and verdict.errors[0]["path"] == "/result/winner"
        page.click("#back-to-game")
        wait_ready(page, upto)
        assert page.get_attribute("#record", "data-screen") == "game"
        assert stored_log(page)["end"] is None and stored_log(page)["result"] is None


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_mid_game_the_board_the_tally_and_a_card_s_text(bare_site, browser, width):
    """A 3-player game in round 5, a card on the board to choose: the tally always in view, the
    target marked on the board, a card's cost, might and text on tap. Screenshots of the screen."""
    log = game(3, players=3)
    upto = 87  # "P3 choose P2:B2Z1": a target on the board
    options = DESKTOP if width == "desktop" else PHONE
    with watched(browser, f"record-mid-game-{width}", **options) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, log["decisions"][:upto])
        target = log["decisions"][upto]
        assert page.locator(f"#board button[data-board-line={quoted(target)}]").count() == 1
        assert page.locator(f"#answers button[data-line={quoted(target)}]").count() == 1
        assert page.locator("#tally-table tbody tr").count() == 3
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert page.locator("#tally-table").is_visible()  # the tally stays in view
        if width == "phone":
            answer = page.locator("#answers button.answer").first.bounding_box()
            assert answer["y"] + answer["height"] <= 844 and answer["height"] >= 44  # in reach, at the bottom
        card = page.locator("#board .hand .card-btn").first
        name = card.inner_text()
        card.click()
        assert page.locator("#card-info").is_visible()
        stats = page.inner_text("#card-info-stats")
        assert page.inner_text("#card-info-name") == name and stats.startswith("Cost ") and "might" in stats
        page.click("#card-info button")
        assert not page.locator("#card-info").is_visible()
        no_sideways_scroll(page)
        page.evaluate("window.scrollTo(0, 0)")
        if width == "phone":  # what a phone shows: the tally on top, the decisions at the bottom
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "record-mid-game-phone-screen.png"))


def test_a_saved_log_opened_from_a_file_goes_on_from_its_last_decision(bare_site, browser, tmp_path):
    """Open a saved log: a file whose last line breaks the rules shows why and goes back to just
    before it; the game then goes on."""
    log = game(9)
    lines = log["decisions"]
    broken = {k: v for k, v in log.items() if k != "result"}
    broken.update(meta={"players": NAMES[:2], "date": "2026-03-14"},
                  decisions=lines[:20] + ["P1 deploy Nonsense to B1"])
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with watched(browser, "record-open-file-desktop", **DESKTOP) as page:
        page.goto(f"{bare_site}/record")
        page.set_input_files("#open-log", str(path))
        wait_ready(page, 21)
        problem = page.locator("#problem")
        assert problem.is_visible() and "Nonsense" in problem.inner_text()
        assert page.locator("#answers button").count() == 0
        problem.locator("button").click()
        wait_ready(page, 20)
        assert not problem.is_visible()
        click_line(page, lines[20])  # in place of the line that broke the rules: asked, then replaced
        assert page.inner_text("#replace-text") == "This replaces the decision after it."
        page.click("#replace-later")
        play(page, lines[21:25], done=21)
        kept = stored_log(page)
        assert kept["decisions"] == lines[:25] and kept["redo"] == []
        assert kept["replaced"]["decisions"] == broken["decisions"]  # the file's own log, restorable
        assert [p["name"] for p in kept["setup"]["players"]] == NAMES[:2] and kept["setup"]["date"] == "2026-03-14"


# ---------------------------------------------------------------------------------- no work is lost
def viewport_shot(page, name: str) -> None:
    """What the person sees (not the whole page): test-artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def on_screen(page, selector: str) -> bool:
    """Whether ``selector`` is shown and wholly inside the screen as it is scrolled now, below the
    tally that stays on top of the game."""
    box = page.locator(selector).bounding_box()
    tally = page.locator("#tally").bounding_box() if page.locator("#tally").is_visible() else None
    top = tally["y"] + tally["height"] if tally else 0
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= top - 1 and box["y"] + box["height"] <= height


def another_answer(page, line: str) -> str:
    """An answer shown other than ``line`` that takes one tap (not a deploy's card, not a card to move)."""
    for b in page.locator("#answers button[data-line]").all():
        other = b.get_attribute("data-line")
        if other != line and group_of(other) is None and b.is_visible():
            return other
    raise AssertionError(f"no other answer than {line!r} is shown")


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_going_back_asks_before_an_answer_replaces_the_later_decisions(bare_site, browser, width):
    """Tap a decision in the list, then another answer than the one written there: the page asks in
    place of the answers, "This replaces the 12 decisions after it" with Keep them / Replace. Keep
    them goes back to the end with nothing changed. Replace goes on, and "Restore the 12 replaced
    decisions" (after a reload too) brings back exactly the old log. One decision: "the decision
    after it", "Keep it"."""
    log = game(6)
    lines = log["decisions"]
    with watched(browser, f"record-replace-{width}", **(DESKTOP if width == "desktop" else PHONE)) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, lines[:30])
        panel = page.locator("#replace-panel")
        # back to just before decision 19 ("P2 keep Squire"), and another card kept: asked, nothing written
        page.click("#history-list button[data-index='18']")
        wait_ready(page, 18)
        other = another_answer(page, lines[18])
        click_line(page, other)
        panel.wait_for(state="visible")
        assert panel.locator("#replace-text").inner_text() == "This replaces the 12 decisions after it."
        assert page.inner_text("#keep-later") == "Keep them" and page.inner_text("#replace-later") == "Replace"
        assert not page.locator("#answers").is_visible()
        assert on_screen(page, "#replace-panel")
        kept = stored_log(page)
        assert kept["decisions"] == lines[:18] and len(kept["redo"]) == 12
        viewport_shot(page, f"record-replace-asked-{width}")
        no_sideways_scroll(page)
        page.keyboard.press("1")  # the digits do not answer past the question
        assert stored_log(page)["decisions"] == lines[:18]
        # Keep them: back at the end, nothing changed
        page.click("#keep-later")
        wait_ready(page, 30)
        assert not panel.is_visible() and not page.locator("#replaced-row").is_visible()
        kept = stored_log(page)
        assert kept["decisions"] == lines[:30] and kept["redo"] == [] and kept["replaced"] is None
        # one decision: back to just before the last, another card drawn, Replace
        page.click("#history-list button[data-index='29']")
        wait_ready(page, 29)
        other = another_answer(page, lines[29])
        click_line(page, other)
        panel.wait_for(state="visible")
        assert panel.locator("#replace-text").inner_text() == "This replaces the decision after it."
        assert page.inner_text("#keep-later") == "Keep it"
        page.click("#replace-later")
        wait_ready(page, 30)
        assert stored_log(page)["decisions"] == lines[:29] + [other]
        assert page.inner_text("#restore-replaced") == "Restore the replaced decision"
        page.click("#restore-replaced")
        wait_ready(page, 30)
        assert stored_log(page)["decisions"] == lines[:30]
        # twelve decisions replaced, one more taken, a reload: still restorable, exactly the old log
        page.click("#history-list button[data-index='18']")
        wait_ready(page, 18)
        other = another_answer(page, lines[18])
        click_line(page, other)
        page.click("#replace-later")
        wait_ready(page, 19)
        click_line(page, another_answer(page, ""))
        wait_ready(page, 20)
        assert stored_log(page)["decisions"][:19] == lines[:18] + [other]
        page.reload()
        wait_ready(page, 20)
        assert page.inner_text("#restore-replaced") == "Restore the 12 replaced decisions"
        shoot(page, f"record-replace-restorable-{width}")
        page.click("#restore-replaced")
        wait_ready(page, 30)
        kept = stored_log(page)
        assert kept["decisions"] == lines[:30] and kept["redo"] == []
        # what the restore took away can be restored in turn
        assert page.inner_text("#restore-replaced") == "Restore the 2 replaced decisions"
        no_sideways_scroll(page)


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_the_log_so_far_can_be_downloaded_at_any_moment(bare_site, browser, width):
    """In the middle of a game, "Download the log so far" gives the file the end screen gives: the
    log with every decision taken so far (and no result yet)."""
    log = game(8)
    lines = log["decisions"]
    with watched(browser, f"record-download-so-far-{width}", **(DESKTOP if width == "desktop" else PHONE)) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, lines[:25])
        button = page.locator("#download-so-far")
        button.scroll_into_view_if_needed()
        assert button.is_visible() and button.bounding_box()["height"] >= 44
        with page.expect_download() as info:
            button.click()
        got = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
        assert re.fullmatch(r"empyrean-\d{4}-\d\d-\d\d-Ada-Bo\.json", info.value.suggested_filename)
        assert got["decisions"] == lines[:25] and "result" not in got
        assert got["meta"]["players"] == NAMES[:2] and got["setup"] == log["setup"]
        assert position(got).status == "in progress"
        viewport_shot(page, f"record-download-so-far-screen-{width}")
        no_sideways_scroll(page)


REFUSE_STORAGE = """Storage.prototype.setItem = function () {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
}"""


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_browser_that_refuses_storage_says_so_where_the_person_looks(bare_site, browser, width):
    """Storage full in the middle of a game, the page scrolled down to the list of decisions: the
    next decision brings the warning onto the screen, with the download of the log so far; storage
    back, the warning goes. A private window that keeps nothing from the start records all the same."""
    log = game(8)
    lines = log["decisions"]
    options = DESKTOP if width == "desktop" else PHONE
    with watched(browser, f"record-storage-refused-{width}", **options) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        play(page, lines[:20])
        page.evaluate("() => { window.keptSetItem = Storage.prototype.setItem; }")
        page.evaluate(f"() => {{ {REFUSE_STORAGE}; }}")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down at the list of decisions
        click_line(page, lines[20])
        wait_ready(page, 21)
        warning = page.locator("#kept-warning")
        assert warning.is_visible() and "will not keep the game" in warning.inner_text()
        assert on_screen(page, "#kept-warning")
        viewport_shot(page, f"record-storage-refused-screen-{width}")
        play(page, lines[21:23], done=21)
        assert on_screen(page, "#kept-warning")
        with page.expect_download() as info:
            page.click("#kept-warning button")
        got = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
        assert got["decisions"] == lines[:23]
        page.evaluate("() => { Storage.prototype.setItem = window.keptSetItem; }")
        play(page, lines[23:24], done=23)
        assert not warning.is_visible()
        assert stored_log(page)["decisions"] == lines[:24]
        no_sideways_scroll(page)
    with watched(browser, f"record-storage-private-{width}", **options) as page:
        page.add_init_script(REFUSE_STORAGE)
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        assert on_screen(page, "#kept-warning")
        viewport_shot(page, f"record-storage-private-screen-{width}")
        play(page, lines[:3])
        assert on_screen(page, "#kept-warning")
        with page.expect_download() as info:
            page.click("#kept-warning button")
        assert json.loads(Path(info.value.path()).read_text(encoding="utf-8"))["decisions"] == lines[:3]


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_time_called_asks_again_and_counts_the_unseen_cards_as_a_concession_does(bare_site, browser, width):
    """From P1's seat, just after P1's draft keep: the engine has taken P2's two draws and keep
    unseen by itself (shown as applied by itself). A concession there writes them out before
    "P2 concede", so it ends the game where time called does, and both verdicts count the same
    unseen cards. Time called, like a concession, takes a second tap."""
    log = seat_view(game(2), 1)
    lines = log["decisions"]
    upto = 9
    left_out = ["C draw P2 ?", "C draw P2 ?", "P2 keep ?"]
    with watched(browser, f"record-time-and-concession-{width}", **(DESKTOP if width == "desktop" else PHONE)) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, view=1)
        start(page)
        play(page, lines[:upto])
        # said in words, not as raw log lines (those stay on the elements, for tools)
        assert page.inner_text("#forced") == ("Applied by itself: P2 Bo draws a card nobody saw, "
                                              "P2 Bo draws a card nobody saw, P2 Bo keeps a card nobody saw")
        assert [e.get_attribute("data-line") for e in page.query_selector_all("#forced [data-line]")] == left_out
        assert "C draw P2 ?" not in page.inner_text("#history-list")
        # a concession
        page.click("#end-early > summary")
        page.click("button[data-concede='2']")
        page.click("button[data-concede='2']")
        page.wait_for_selector("#verdict[data-status=valid]")
        conceded = downloaded(page)
        assert conceded["decisions"] == lines[:upto] + left_out + ["P2 concede"]
        unseen = re.search(r"(\d+) of P2's cards were not seen", page.inner_text("#verdict"))[1]
        # back to the game: the concession and what it wrote are taken back
        page.click("#back-to-game")
        wait_ready(page, upto)
        kept = stored_log(page)
        assert kept["decisions"] == lines[:upto] and kept["redo"] == []
        # time called: the first tap only asks
        page.click("#end-early > summary")
        page.check("input[name=time-rule][value='tally']")
        page.click("#time-called")
        assert page.get_attribute("#record", "data-screen") == "game"
        assert page.inner_text("#time-called") == "Tap again: time is called (tally the board)"
        viewport_shot(page, f"record-time-armed-{width}")
        page.click("#time-called")
        page.wait_for_selector("#verdict[data-status=valid]")
        timed = downloaded(page)
        assert timed["decisions"] == lines[:upto] and timed["result"]["reason"] == "time"
        assert re.search(r"(\d+) of P2's cards were not seen", page.inner_text("#verdict"))[1] == unseen
        assert replay(conceded).verdict.unseen == replay(timed).verdict.unseen == [0, int(unseen)]
        no_sideways_scroll(page)


# ---------------------------------------------------------------------------------- event, round, table
def concede_at_once(page) -> None:
    """P2 concedes before anything is played: the shortest way to the end screen."""
    page.click("#end-early > summary")
    page.click("button[data-concede='2']")
    page.click("button[data-concede='2']")
    page.wait_for_selector("#record[data-screen=end]")
    page.wait_for_selector("#verdict[data-status]")


def uploaded_game(page, app) -> dict:
    page.click("#upload")
    page.wait_for_selector("#upload-status[data-status]:not([data-status=queued]):not([data-status=received])"
                           ":not([data-status=replaying])", timeout=60_000)
    gid = stored_log(page)["uploaded"]["id"]
    return as_admin(app).get(f"/api/v1/games/{gid}").get_json()


@pytest.fixture(scope="module")
def other_event(app, event) -> dict:
    """A second public event of the same organiser: one a bound token must not file a game into."""
    body = token_client(app, event["organiser_token"]).post("/api/v1/events", json={"name": "Recorder Open"}).get_json()
    return {"id": body["id"], "name": "Recorder Open"}


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_token_bound_to_an_event_chooses_that_event_and_no_other(bare_site, browser, app, event, other_event,
                                                                    width):
    """A table judge's token, bound to the event: at the setup, Find events chooses that event and
    offers no other (not even "no event"); at the end, a game begun as a friendly one is filed
    there as soon as the token is given, and uploaded into it. Another token unlocks the choice."""
    log = game(11)
    token = make_token(app, "uploader", name=f"table 9 {width}", owner="Recorder TO", event_id=event["id"])
    options = DESKTOP if width == "desktop" else PHONE
    with watched(browser, f"record-bound-token-setup-{width}", **options) as page:
        page.goto(f"{bare_site}/record")
        page.wait_for_selector("#catalog option", state="attached")
        page.fill("#token", token)
        page.click("#find-events")
        page.wait_for_selector(f"#event[data-bound='{event['id']}']")
        assert page.input_value("#event") == str(event["id"])
        assert page.locator("#event").is_disabled()
        assert page.locator("#event option").all_inner_texts() == [EVENT]  # no other event, no "no event"
        assert page.inner_text("#events-note") == f"This token is for {EVENT} only: the game goes into that event."
        page.locator("#event").scroll_into_view_if_needed()
        viewport_shot(page, f"record-bound-token-setup-screen-{width}")
        no_sideways_scroll(page)
        # another token (an organiser's): the choice is free again
        page.fill("#token", event["organiser_token"])
        assert not page.locator("#event").is_disabled()
        page.click("#find-events")
        page.wait_for_selector(f"#event option[value='{other_event['id']}']", state="attached")
        assert page.locator("#event option[value='']").count() == 1
        # a token kept in this tab is asked about again at a reload: the bound event is chosen at once
        page.fill("#token", token)
        page.click("#find-events")
        page.wait_for_selector(f"#event[data-bound='{event['id']}']")
        page.reload()
        page.wait_for_selector(f"#event[data-bound='{event['id']}']")
        assert page.input_value("#event") == str(event["id"])
    with watched(browser, f"record-bound-token-end-{width}", **options) as page:
        # a friendly game (no token at the setup), the token given only at the end
        page.goto(f"{bare_site}/record")
        fill_setup(page, log)
        start(page)
        concede_at_once(page)
        assert page.input_value("#upload-event") == ""
        page.fill("#upload-token", token)
        page.click("#upload-find-events")
        page.wait_for_selector(f"#upload-event[data-bound='{event['id']}']")
        assert page.locator("#upload-event option").all_inner_texts() == [EVENT]
        assert stored_log(page)["setup"]["event"] == {"id": event["id"], "name": EVENT}
        page.fill("#upload-round", "3")
        page.fill("#upload-table", "9")
        assert page.inner_text("#upload-target") == f"Uploads into {EVENT}, round 3, table 9."
        page.locator("#after").scroll_into_view_if_needed()
        viewport_shot(page, f"record-bound-token-end-screen-{width}")
        no_sideways_scroll(page)
        body = uploaded_game(page, app)
        assert body["event_id"] == event["id"] and body["status"] == "valid"
        sent = json.loads(stored_log(page)["uploaded"]["sent"])
        assert sent["meta"]["event"] == EVENT and sent["meta"]["round"] == 3 and sent["meta"]["table"] == 9


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_game_in_an_event_needs_its_round_and_table(bare_site, browser, event, width):
    """A game in an event does not start without its round and table: the form says so, marks the
    two fields, and says next to them why they matter. A friendly game (no event) needs neither."""
    log = game(12)
    options = DESKTOP if width == "desktop" else PHONE
    with watched(browser, f"record-round-and-table-{width}", **options) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, event=event, token=event["organiser_token"])
        why = page.locator("#why-match")
        assert why.is_visible() and "counts once in the standings" in why.inner_text()
        assert page.locator("fieldset:has(#event-round) #why-match").count() == 1  # next to the fields
        page.click("#start")
        errors = page.inner_text("#setup-errors")
        assert "A game in an event needs its round" in errors and "A game in an event needs its table" in errors
        assert page.get_attribute("#record", "data-screen") == "setup"
        assert page.get_attribute("#event-round", "aria-invalid") == "true"
        assert page.get_attribute("#event-table", "aria-invalid") == "true"
        page.locator("#event-round").scroll_into_view_if_needed()
        viewport_shot(page, f"record-round-and-table-screen-{width}")
        no_sideways_scroll(page)
        page.fill("#event-round", "1")
        page.click("#start")
        assert "needs its table" in page.inner_text("#setup-errors")
        assert "needs its round" not in page.inner_text("#setup-errors")
        assert page.get_attribute("#record", "data-screen") == "setup"
        page.fill("#event-table", "4")
        start(page)
        assert stored_log(page)["setup"]["round"] == "1" and stored_log(page)["setup"]["table"] == "4"
        # a friendly game needs neither
        concede_at_once(page)
        page.click("#new-game")
        page.select_option("#event", "")
        page.fill("#event-round", "")
        page.fill("#event-table", "")
        start(page)


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_the_end_screen_chooses_the_event_round_and_table_of_the_upload(bare_site, browser, app, event, other_event,
                                                                        width):
    """Begun in one event at round 1, table 3; at the end the event, round and table are changed:
    the log's meta says what was chosen, and the upload goes into that event. An upload into an
    event without its table is refused on the page, next to the fields."""
    log = game(13)
    options = DESKTOP if width == "desktop" else PHONE
    with watched(browser, f"record-end-event-{width}", **options) as page:
        page.goto(f"{bare_site}/record")
        fill_setup(page, log, event=event, token=event["organiser_token"], round_="1", table="3")
        start(page)
        concede_at_once(page)
        assert page.input_value("#upload-event") == str(event["id"])
        assert page.input_value("#upload-round") == "1" and page.input_value("#upload-table") == "3"
        assert page.inner_text("#upload-target") == f"Uploads into {EVENT}, round 1, table 3."
        page.wait_for_selector(f"#upload-event option[value='{other_event['id']}']", state="attached")
        page.select_option("#upload-event", str(other_event["id"]))
        page.fill("#upload-round", "2")
        page.fill("#upload-table", "")
        page.click("#upload")
        page.wait_for_function("() => document.querySelector('#upload-status').textContent.includes('Not uploaded')")
        assert "A game in an event needs its table" in page.inner_text("#upload-status")
        assert page.get_attribute("#upload-table", "aria-invalid") == "true"
        assert "uploaded" not in stored_log(page) or stored_log(page)["uploaded"] is None
        page.fill("#upload-table", "5")
        assert page.inner_text("#upload-target") == "Uploads into Recorder Open, round 2, table 5."
        page.locator("#after").scroll_into_view_if_needed()
        viewport_shot(page, f"record-end-event-screen-{width}")
        no_sideways_scroll(page)
        got = downloaded(page)
        assert got["meta"]["event"] == "Recorder Open" and got["meta"]["round"] == 2 and got["meta"]["table"] == 5
        body = uploaded_game(page, app)
        assert body["event_id"] == other_event["id"] and body["event"] == "Recorder Open"
        sent = json.loads(stored_log(page)["uploaded"]["sent"])
        assert sent["meta"] == got["meta"]
        # changed after the upload: another log, to upload again
        page.fill("#upload-table", "6")
        assert page.inner_text("#upload") == "Upload the changed log"
