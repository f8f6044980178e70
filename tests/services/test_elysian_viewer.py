"""Elysian Battlefields' board in the replay viewer and the recorder (dashboards/replay.py, BOARDS;
static/elysian_board.js): the viewer page of an Elysian game answers 200 with its board's renderer
and data (a frame per decision on a layout of every territory laid, the attack and the dice, the
names of the tiles, heroes and cards in play); no frame, whole table's or a seat's, names a card in
a hand; the recorder's Elysian page loads the renderer and the dice pad, and a position gives the
layout of the tiles laid so far."""

from __future__ import annotations

import json

import pytest
from service_helpers import as_admin, wait_final
from test_replay_viewer import embedded_timeline, step_label, upload
from test_titans_viewer import embedded_cards

from engine.elysian.rules import RULES
from engine.seats import as_recorded, seat_view

NAMES = ["Ada", "Bram", "Cy"]


@pytest.fixture(scope="module")
def elysian_games(app):
    """A seeded 3-player game of greedy bots and one seat's view of it, uploaded."""
    client = as_admin(app)
    log = RULES.self_play(3, bot="greedy", players=3, meta={"players": NAMES})
    view = seat_view(log, 2)
    ids = [upload(client, log), upload(client, view)]
    for gid in ids:
        assert wait_final(client, gid)["status"] == "valid"
    return ids, log


def test_the_viewer_draws_an_elysian_game_s_board(client, elysian_games):
    (gid, _), log = elysian_games
    attack = next(k for k, d in enumerate(log["decisions"]) if " attacks " in d) + 1
    response = client.get(f"/games/{gid}/replay?step={attack}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert 'data-game="elysian"' in page and "elysian_board.js" in page and "elysian_board.css" in page
    assert 'id="no-board"' not in page and all(name in page for name in NAMES)
    assert step_label(page) == f"After decision {attack} of {len(log['decisions'])}"
    tl = embedded_timeline(page)
    assert len(tl["frames"]) == len(log["decisions"]) + 1
    laid = [d for d in log["decisions"] if " lays " in d]
    assert len(tl["battlefields"]) == 3 * len(laid)  # every territory any frame draws
    assert {"territory", "tile", "terrain", "q", "r"} == set(tl["battlefields"][0])
    frame = tl["frames"][attack]
    assert frame["dice"] and 1 <= len(frame["dice"]["faces"]) <= 3  # the attack's dice, as faces
    assert frame["dice"]["attacker"] == int(frame["decision"][1])
    assert {"territory", "holder", "units", "settlement", "settlement_holder", "walls", "temple"} == \
        set(frame["territories"][0])
    catalog = RULES.catalog_data(log["catalog"])
    facts = embedded_cards(page)
    assert set(facts["tiles"]) == {d.split()[2] for d in laid}
    assert facts["tiles"] == {t["key"]: t["name"] for t in catalog["tiles"] if t["key"] in facts["tiles"]}
    heroes = {h["key"]: h for h in catalog["heroes"]}
    assert {k: v["name"] for k, v in facts["heroes"].items()} == \
        {p["hero"]: heroes[p["hero"]]["name"] for p in tl["players"]}


def hand_names(frame: dict, cards: set[str]) -> set[str]:
    """The card keys a frame names anywhere but its decision line and its cards in play."""
    in_play = {k for p in frame["players"] for k in [*p["upgrades"], *p["items"]]}
    text = json.dumps({k: v for k, v in frame.items() if k != "decision"})
    return {c for c in cards - in_play if f'"{c}"' in text}


@pytest.mark.parametrize("which", ["table", "seat"])
def test_no_frame_names_a_card_in_a_hand(client, elysian_games, which):
    (table, seat), log = elysian_games
    gid = table if which == "table" else seat
    page = client.get(f"/games/{gid}/replay").get_data(as_text=True)
    tl = embedded_timeline(page)
    cards = {c["key"] for c in RULES.catalog_data(log["catalog"])["cards"]}
    held = 0
    for frame in tl["frames"]:
        assert all(isinstance(p["hand"], int) for p in frame["players"])
        held += sum(p["hand"] for p in frame["players"])
        assert not hand_names(frame, cards), frame["index"]
    assert held  # hands there were, counted
    in_play = {k for f in tl["frames"] for p in f["players"] for k in [*p["upgrades"], *p["items"]]}
    assert set(embedded_cards(page)["cards"]) == in_play  # the page says what only cards in play say


def test_the_elysian_recorder_loads_the_board_and_the_dice_pad(client):
    page = client.get("/elysian/record").get_data(as_text=True)
    assert 'id="board-view"' in page and "elysian_board.js" in page and "elysian_board.css" in page
    assert "record_dice.js" in page
    page = client.get("/titans/record").get_data(as_text=True)
    assert "elysian_board" not in page and "record_dice.js" in page  # the pad is any game's


def test_a_position_gives_the_tiles_laid_so_far(client):
    log = as_recorded(RULES.self_play(3, bot="greedy", players=3))
    first, second = [k for k, d in enumerate(log["decisions"]) if " lays " in d][:2]
    del log["result"]
    for cut, territories in ((first, 0), (first + 1, 3), (second + 1, 6)):
        body = client.post("/api/v1/positions", json={**log, "decisions": log["decisions"][:cut]}).get_json()
        assert body["status"] == "in progress"
        assert len(body["layout"]) == territories == len(body["board"]["territories"])
