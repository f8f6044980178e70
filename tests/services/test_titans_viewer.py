"""Titans of Empyrean's board in the replay viewer and the recorder (dashboards/replay.py, BOARDS;
static/titans_board.js): the viewer page of a Titans game answers 200 with its board's renderer and
data (a frame per decision, the field's layout); the recorder's Titans page loads the renderer, and
the positions API gives the layout it draws on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from service_helpers import as_admin, wait_final
from test_replay_viewer import embedded_timeline, step_label, upload

from engine.titans.catalog import load

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
