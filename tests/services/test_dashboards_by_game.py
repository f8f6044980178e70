"""The dashboards' shared pages by game (issue 27), over the real service with the test game Pips
registered as a deployment registers a game (EMPYREAN_EXTRA_GAMES): the events list, an event's page
and its disputes, the dispute desk and a player's page each say the game of every row by its name,
and are narrowed to one game — ``?game=<key>`` on the shared pages, ``/<key>/events`` and
``/<key>/players/<name>`` in the game's own navigation. Battle for Empyrean's URLs answer as they
always have; an unknown game in a URL is a 404 page, in a filter a 400 page naming the field, never a
500."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import quote

import pytest
from extra_game import registered_for_the_module
from service_helpers import as_admin, panel_rows
from tournament import wait_event_done

from engine import games
from engine.bfe.selfplay import self_play as bfe_self_play

PIPS = "pips"
PLAYER = "Quill Ames"  # plays in both events
PIPS_NAME = "Pips (test game)"
BFE_NAME = "Battle for Empyrean"

ingest_config, game_forgotten_afterwards, rules = registered_for_the_module("tests.games.pips:RULES", PIPS)


def _winner_of(rules, seed: int) -> int | None:
    return rules.self_play(seed)["result"]["winner"]


@pytest.fixture(scope="module")
def two_events(app) -> dict:
    """An event of Pips (two matches of PLAYER's, one disputed: two valid uploads naming other
    winners; one illegal game) and one of Battle for Empyrean (one match of PLAYER's), each replayed."""
    admin_client = as_admin(app)
    rules = games.rules_for(PIPS)
    pips_event = admin_client.post("/api/v1/events", json={"name": "Pips by Game Night", "game": PIPS}).get_json()
    bfe_event = admin_client.post("/api/v1/events", json={"name": "Empyrean by Game Cup"}).get_json()
    wins = {w: next(s for s in range(500) if _winner_of(rules, s) == w) for w in (1, 2)}
    match = {"date": "2026-11-03", "round": 1, "table": "1", "players": [PLAYER, "Rue"]}
    second = {"date": "2026-11-03", "round": 2, "table": "1", "players": [PLAYER, "Sol"]}
    illegal = dict(rules.self_play(7), meta={"date": "2026-11-03", "round": 3, "table": "9", "players": ["Tam", "Uma"]})
    illegal["decisions"] = [illegal["decisions"][1], *illegal["decisions"][1:]]
    pips_logs = [dict(rules.self_play(wins[1]), meta=match), dict(rules.self_play(wins[2]), meta=match),
                 dict(rules.self_play(wins[1]), meta=second), illegal]
    for log in pips_logs:
        sent = admin_client.post(f"/api/v1/events/{pips_event['id']}/games", json=log)
        assert sent.status_code == 202, sent.get_json()
    bfe_log = bfe_self_play(5, meta={"date": "2026-11-04", "round": 1, "table": "2", "players": [PLAYER, "Vic"]})
    sent = admin_client.post(f"/api/v1/events/{bfe_event['id']}/games", json=bfe_log)
    assert sent.status_code == 202, sent.get_json()
    wait_event_done(admin_client, pips_event["id"], len(pips_logs))
    wait_event_done(admin_client, bfe_event["id"], 1)
    [dispute] = admin_client.get(f"/api/v1/disputes?event={pips_event['id']}").get_json()["disputes"]
    return {"pips": pips_event["id"], "bfe": bfe_event["id"], "dispute": dispute["id"]}


def _event_row(page: str, name: str) -> str:
    return next(r for r in panel_rows(page, "events") if r.startswith(name))


def test_the_events_list_says_each_event_s_game_and_narrows_to_one(client, two_events):
    every = client.get("/events").get_data(as_text=True)
    assert BFE_NAME in _event_row(every, "Empyrean by Game Cup")
    assert PIPS_NAME in _event_row(every, "Pips by Game Night")
    # an event with no dates of its own is dated by the days its counted games were played, in every game
    assert "2026-11-03 (games)" in _event_row(every, "Pips by Game Night")
    assert "2026-11-04 (games)" in _event_row(every, "Empyrean by Game Cup")
    # the game of a row links its game's events
    assert f'href="/{PIPS}/events"' in every and 'href="/events?game=bfe"' in every

    for url in (f"/{PIPS}/events", f"/events?game={PIPS}"):
        page = client.get(url)
        assert page.status_code == 200, url
        text = page.get_data(as_text=True)
        assert "Pips by Game Night" in text and "Empyrean by Game Cup" not in text, url
        assert f"Events &amp; disputes of {PIPS_NAME}" in text
        assert all(PIPS_NAME in row for row in panel_rows(text, "events"))
    # Pips's own page is in Pips's navigation, and the switcher leads to each game's events
    own = client.get(f"/{PIPS}/events").get_data(as_text=True)
    nav = own[own.index('id="game-nav"'):own.index("</nav>", own.index('id="game-nav"'))]
    assert f'href="/{PIPS}/events" aria-current="page"' in nav
    assert 'data-game="bfe">' in own and 'href="/events?game=bfe" data-game="bfe"' in own

    bfe = client.get("/events?game=bfe").get_data(as_text=True)
    assert "Empyrean by Game Cup" in bfe and "Pips by Game Night" not in bfe
    # the CSV has each event's game, and takes the same filter
    listed = {r["name"]: r for r in csv.DictReader(io.StringIO(client.get("/events.csv").get_data(as_text=True)))}
    assert listed["Pips by Game Night"]["game"] == PIPS and listed["Empyrean by Game Cup"]["game"] == "bfe"
    only = list(csv.DictReader(io.StringIO(client.get(f"/events.csv?game={PIPS}").get_data(as_text=True))))
    assert {r["game"] for r in only} == {PIPS}


def test_battle_for_empyrean_s_urls_answer_as_they_always_have(client, two_events):
    for url in ("/bfe/events", "/bfe/events?x=1"):
        moved = client.get(url)
        assert moved.status_code in (301, 302, 308) and moved.headers["Location"].split("?")[0] == "/events", url
    assert client.get("/events").status_code == 200
    event = client.get(f"/events/{two_events['bfe']}").get_data(as_text=True)
    assert f'href="/meta?event={two_events["bfe"]}"' in event  # its meta, as before
    assert f'href="/players/{quote(PLAYER)}"' in event  # its players' pages of every game, as before
    moved = client.get(f"/bfe/players/{quote(PLAYER)}")
    assert moved.status_code in (301, 302, 308)
    assert moved.headers["Location"] == f"/players/{quote(PLAYER)}?game=bfe"


def test_an_event_of_a_game_is_that_game_s_page(client, two_events):
    page = client.get(f"/events/{two_events['pips']}").get_data(as_text=True)
    assert re.search(rf'id="event-game">{re.escape(PIPS_NAME)}<', page)
    assert f'href="/{PIPS}/events" id="game-events-link"' in page
    assert f'href="/{PIPS}/"' in page and "meta of this event" not in page  # its statistics are not BfE's
    switcher = page[page.index('id="game-switcher"'):page.index("</details>")]
    assert re.search(rf'data-game="{PIPS}" aria-current="true"', switcher)
    # its flagged game and its dispute say their game; its players link their pages of Pips
    assert all(PIPS_NAME in row for row in panel_rows(page, "flagged")) and panel_rows(page, "flagged")
    assert all(PIPS_NAME in row for row in panel_rows(page, "disputes")) and panel_rows(page, "disputes")
    assert f'href="/{PIPS}/players/{quote(PLAYER)}"' in page

    disputes = client.get(f"/events/{two_events['pips']}/disputes").get_data(as_text=True)
    assert re.search(rf'id="event-game">{re.escape(PIPS_NAME)}<', disputes)
    assert all(PIPS_NAME in row for row in panel_rows(disputes, "event-disputes"))
    desk = client.get(f"/disputes/{two_events['dispute']}")
    assert desk.status_code == 200
    text = desk.get_data(as_text=True)
    assert all(PIPS_NAME in row for row in panel_rows(text, "event-disputes"))
    assert re.search(rf'data-game="{PIPS}" aria-current="true"', text)


def test_a_player_s_page_says_each_match_s_game_and_narrows_to_one(client, two_events):
    every = client.get(f"/players/{quote(PLAYER)}").get_data(as_text=True)
    matches = panel_rows(every, "player-matches")
    assert len(matches) == 3, matches
    assert sum(PIPS_NAME in r for r in matches) == 2 and sum(BFE_NAME in r for r in matches) == 1
    assert {r.split(" ")[0] for r in panel_rows(every, "player-events")} >= {"Pips", "Empyrean"}
    assert "deck or colour" in every or "colour or deck" in every  # what a seat plays as, in both games' words
    assert f'href="/{PIPS}/players/{quote(PLAYER)}"' in every and f'href="/players/{quote(PLAYER)}?game=bfe"' in every

    for url in (f"/{PIPS}/players/{quote(PLAYER)}", f"/players/{quote(PLAYER)}?game={PIPS}"):
        page = client.get(url)
        assert page.status_code == 200, url
        text = page.get_data(as_text=True)
        rows = panel_rows(text, "player-matches")
        assert len(rows) == 2 and all(PIPS_NAME in r for r in rows), (url, rows)
        assert "Colours played" in text and "Decks played" not in text
        assert re.search(rf'data-game="{PIPS}" aria-current="true"', text)  # the switcher: this game's page
    bfe = panel_rows(client.get(f"/players/{quote(PLAYER)}?game=bfe").get_data(as_text=True), "player-matches")
    assert len(bfe) == 1 and BFE_NAME in bfe[0]
    # a player with no match of that game
    assert client.get(f"/{PIPS}/players/Vic").status_code == 404
    assert "of Pips (test game)" in client.get(f"/{PIPS}/players/Vic").get_data(as_text=True)


@pytest.mark.parametrize("url", ["/events?game=nosuch", "/events.csv?game=nosuch",
                                 f"/players/{quote(PLAYER)}?game=nosuch", "/events?game=" + "x" * 300])
def test_an_unknown_game_in_a_filter_is_a_400_naming_the_field(client, two_events, url):
    answer = client.get(url)
    assert answer.status_code == 400, url
    text = answer.get_data(as_text=True)
    assert "game: there is no game" in text and PIPS_NAME in text and BFE_NAME in text


@pytest.mark.parametrize("url", ["/nope/events", f"/nope/players/{quote(PLAYER)}", "/api/events"])
def test_an_unknown_game_in_a_url_is_a_404(client, two_events, url):
    answer = client.get(url, headers={"Accept": "text/html"})
    assert answer.status_code == 404, url


def test_a_game_s_index_links_its_events(client, two_events):
    page = client.get(f"/{PIPS}/").get_data(as_text=True)
    assert f'id="events-link" href="/{PIPS}/events"' in page


def test_battle_for_empyrean_s_event_filter_offers_its_events_only(client, two_events):
    """The meta pages are Battle for Empyrean's statistics: their event filter lists its events, not
    another game's (which would show nothing)."""
    page = client.get("/meta").get_data(as_text=True)
    select = page[page.index('name="event"'):page.index("</select>", page.index('name="event"'))]
    assert f'value="{two_events["bfe"]}"' in select and "Empyrean by Game Cup" in select
    assert f'value="{two_events["pips"]}"' not in select and "Pips by Game Night" not in select
