"""Spells & Steam's board in the replay viewer and the recorder (dashboards/replay.py, BOARDS;
static/steam_board.js): the viewer page of a steam game answers 200 with its board's renderer and
data (a frame per decision on the layout of every hex, the players' companies named), and the names
and texts of exactly the spellcars, specialists and awards its frames show, from the log's catalog;
the recorder's steam page loads the renderer, and a position at a build gives, per hex, the cheapest
transfers and their mana, each matching one of its legal lines."""

from __future__ import annotations

import pytest
from service_helpers import as_admin, wait_final
from test_replay_viewer import embedded_timeline, step_label, upload
from test_titans_viewer import embedded_cards

from engine.seats import as_recorded
from engine.steam.rules import RULES

NAMES = ["Ada", "Bram", "Cy"]


def uploaded_game(app) -> tuple[int, dict]:
    """A seeded 3-player game of greedy bots, uploaded and judged valid: its id and its log (the
    browser tests' game too)."""
    client = as_admin(app)
    log = RULES.self_play(5, bot="greedy", players=3, meta={"players": NAMES})
    gid = upload(client, log)
    assert wait_final(client, gid)["status"] == "valid"
    return gid, log


@pytest.fixture(scope="module")
def steam_game(app):
    return uploaded_game(app)


def test_the_viewer_draws_a_steam_game_s_board(client, steam_game):
    gid, log = steam_game
    response = client.get(f"/games/{gid}/replay?step=20")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert 'data-game="steam"' in page and "steam_board.js" in page and "steam_board.css" in page
    assert all(name in page for name in NAMES)
    assert step_label(page) == f"After decision 20 of {len(log['decisions'])}"
    tl = embedded_timeline(page)
    assert len(tl["frames"]) == len(log["decisions"]) + 1
    assert {p["company"] for p in tl["players"]} <= set(RULES.faction_choices()) and \
        all(f"— {p['company_name']}" in page for p in tl["players"])  # each player's company, by name
    assert {"hex", "col", "row", "terrain", "city", "edge"} == set(tl["battlefields"][0])
    cat = RULES.catalog_data(log["catalog"])
    facts = embedded_cards(page)
    frames = tl["frames"]
    shown_cars = {k for f in frames for k in f["market"]} | \
        {s["spellcar"] for f in frames for c in f["companies"] for s in c["railyard"]}
    shown_people = {s["key"] for f in frames for c in f["companies"] for s in c["specialists"].values()}
    assert set(facts["spellcars"]) == shown_cars
    assert facts["spellcars"] == {c["key"]: {"name": c["name"], "cost": c["cost"], "text": c["text"]}
                                  for c in cat["spellcars"] if c["key"] in shown_cars}
    people = {s["key"]: s for kind in ("captains", "engineers", "surveyors", "station_masters") for s in cat[kind]}
    assert facts["specialists"] == {k: {"name": people[k]["name"], "kind": people[k]["kind"], "text": people[k]["text"]}
                                    for k in shown_people}
    assert set(facts["awards"]) == {a for f in frames for a in f["awards"]}
    assert all(facts["awards"][a["key"]]["text"] == a["text"] for a in cat["awards"] if a["key"] in facts["awards"])


def test_the_steam_recorder_loads_the_board(client):
    page = client.get("/steam/record").get_data(as_text=True)
    assert 'id="board-view"' in page and "steam_board.js" in page and "steam_board.css" in page
    assert "steam_board" not in client.get("/elysian/record").get_data(as_text=True)


def test_a_position_at_a_build_gives_each_hex_s_transfers_and_cost(client):
    log = as_recorded(RULES.self_play(5, bot="greedy", players=3))
    k = next(k for k, d in enumerate(log["decisions"]) if " builds " in d and " via " in d)
    del log["result"]
    body = client.post("/api/v1/positions", json={**log, "decisions": log["decisions"][:k]}).get_json()
    assert body["status"] == "in progress" and body["board"]["builds"]
    seat = body["to_decide"]
    lines = {f"P{seat} builds {h}" + (" via " + " ".join(b["via"]) if b["via"] else "")
             for h, b in body["board"]["builds"].items()}
    assert lines == {line for line in body["legal"] if " builds " in line and " around " not in line}
    assert log["decisions"][k] in lines and all(isinstance(b["cost"], int) for b in body["board"]["builds"].values())
    body = client.post("/api/v1/positions", json={**log, "decisions": log["decisions"][:k + 1]}).get_json()
    assert body["board"]["builds"] is None or log["decisions"][k + 1].split()[1] in ("builds", "skips")
