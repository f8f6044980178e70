"""Titans of Empyrean's board in the replay viewer and the recorder (dashboards/replay.py, BOARDS;
static/titans_board.js): the viewer page of a Titans game answers 200 with its board's renderer and
data (a frame per decision, the field's layout, the stack and reserve cards the log's seat knows and
what each maneuver shown says); the recorder's Titans page loads the renderer, and the positions API
gives the layout it draws on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from service_helpers import as_admin, wait_final
from test_replay_viewer import embedded_timeline, step_label, upload

from engine.seats import seat_view
from engine.timeline import timeline
from engine.titans.catalog import load
from engine.titans.rules import RULES

TABLE_GAME = Path(__file__).resolve().parents[2] / "docs" / "examples" / "titans-table-game.json"


@pytest.fixture(scope="module")
def titans_game(app):
    client = as_admin(app)
    log = json.loads(TABLE_GAME.read_text())
    gid = upload(client, log)
    wait_final(client, gid)  # the page rebuilds the timeline from the stored log, whatever the pipeline said
    return gid, log


def test_the_viewer_draws_a_titans_game_s_board(client, titans_game):
    gid, log = titans_game
    response = client.get(f"/games/{gid}/replay?step=5")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert 'data-game="titans"' in page and 'id="no-board"' not in page
    assert "titans_board.js" in page and "titans_board.css" in page and "board.js" in page
    assert "Ada" in page and "Bram" in page and "dragon" in page and "harpy" in page
    assert step_label(page) == f"After decision 5 of {len(log['decisions'])}"
    tl = embedded_timeline(page)
    assert tl["verdict"]["status"] == "valid"
    assert len(tl["frames"]) == len(log["decisions"]) + 1
    board = load(log["catalog"]).board
    assert len(tl["battlefields"]) == len(board.hexes)  # the field's layout: every hex, named, with q and r
    assert {(h["hex"], h["q"], h["r"]) for h in tl["battlefields"]} == {(board.name(h), *h) for h in board.hexes}
    before, after = (next(t for t in tl["frames"][k]["titans"] if t["titan"] == "ashmaw") for k in (4, 5))
    assert tl["frames"][5]["decision"] == "P2 shrill attack P1 ashmaw"  # Ashmaw on D7 is hit
    assert (after["hex"], after["facing"]) == ("D7", "NW") and after["damage"] > before["damage"] == 0


def test_the_titans_recorder_loads_the_board(client):
    page = client.get("/titans/record").get_data(as_text=True)
    assert 'id="board-view"' in page and "titans_board.js" in page and "titans_board.css" in page
    page = client.get("/record").get_data(as_text=True)  # Battle for Empyrean's board mode: its own board
    assert "titans_board" not in page


def test_a_position_gives_the_layout_its_board_is_drawn_on(client):
    log = json.loads(TABLE_GAME.read_text())
    log = {**log, "decisions": log["decisions"][:4]}
    del log["result"]
    body = client.post("/api/v1/positions", json=log).get_json()
    assert body["status"] == "in progress"
    assert len(body["layout"]) == 37 and {"hex", "q", "r"} <= set(body["layout"][0])
    assert {t["titan"]: t["hex"] for t in body["board"]["titans"]}["shrill"] == "C6"
    assert "P2 shrill attack P1 ashmaw" in body["legal"]
    body = client.post("/api/v1/positions", json={"format": "empyrean-log", "version": 1}).get_json()
    assert body["layout"] is None  # no game could be set up


def embedded_cards(page: str) -> dict:
    m = re.search(r'<script id="card-data" type="application/json">(.*?)</script>', page, re.S)
    assert m, "the page embeds what its cards say"
    return json.loads(m.group(1))


def named(frame: dict) -> set[str]:
    """The maneuvers a frame names: active ones, and the stack and reserve cards its seat knows."""
    keys = {k for t in frame["titans"] for k in [t["active"], *t["known"]]}
    return {k for k in keys | {k for r in frame["reserve_known"] for k in r} if k}


@pytest.fixture(scope="module")
def seeded_game(app):
    """A seeded game (digital play: the whole table's log, every card known from the seed) and one
    seat's view of it, uploaded."""
    client = as_admin(app)
    log = RULES.self_play(7, bot="greedy", meta={"players": ["Ada", "Bram"]})
    view = seat_view(log, 1)
    ids = [upload(client, log), upload(client, view)]
    for gid in ids:
        wait_final(client, gid)
    return ids, log, view


def test_the_viewer_draws_a_seeded_game_s_cards_face_up_with_what_they_say(client, seeded_game):
    (gid, _), log, _ = seeded_game
    page = client.get(f"/games/{gid}/replay?step=9").get_data(as_text=True)
    tl, cards = embedded_timeline(page), embedded_cards(page)
    engine = timeline(log).frames
    for frame, own in zip(tl["frames"], engine, strict=True):
        assert frame["view"] is None  # the whole table
        assert [t["known"] for t in frame["titans"]] == [t["known"] for t in own["titans"]]
        assert frame["reserve_known"] == own["reserve_known"]
        assert all(None not in t["known"] and len(t["known"]) == t["stack"] for t in frame["titans"])
        assert [len(r) for r in frame["reserve_known"]] == frame["reserve"]
        assert all(None not in r for r in frame["reserve_known"])
    catalog = load(log["catalog"]).maneuvers
    shown = set().union(*(named(f) for f in tl["frames"]))
    assert set(cards) == shown  # what each card named on the board says, and no more
    for key, facts in cards.items():
        m = catalog[key]
        assert facts == {"name": m.name, "kind": "active" if m.active else "burn immediately", "text": m.text}


def test_a_seat_s_view_names_none_of_the_other_seat_s_hidden_cards(client, seeded_game):
    (_, gid), _, view = seeded_game
    tl = client.get(f"/games/{gid}/timeline.json").get_json()
    assert tl["verdict"]["status"] == "valid" and len(tl["frames"]) > 1
    for frame in tl["frames"]:
        assert frame["view"] == 1
        assert all(set(t["known"]) <= {None} for t in frame["titans"] if t["player"] == 2)
        assert set(frame["reserve_known"][1]) <= {None}


def test_the_table_game_names_only_its_active_maneuvers(client, titans_game):
    gid, log = titans_game
    page = client.get(f"/games/{gid}/replay").get_data(as_text=True)
    tl, cards = embedded_timeline(page), embedded_cards(page)
    assert all(set(t["known"]) <= {None} for f in tl["frames"] for t in f["titans"])  # nobody named a stack card
    actives = {t["active"] for f in tl["frames"] for t in f["titans"] if t["active"]}
    assert actives and set(cards) == actives
    assert cards["braced-wings"]["name"] == "Braced Wings" and cards["braced-wings"]["kind"] == "active"
