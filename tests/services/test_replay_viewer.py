"""The replay viewer (dashboards/replay.py): games uploaded through the API, replayed by a real worker,
then shown at /games/<id>/replay and /games/<id>/timeline.json from the stored raw log."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from markupsafe import escape
from service_helpers import as_admin, wait_final

from engine.bfe.catalog import load_catalog
from engine.bfe.selfplay import self_play
from engine.rng import SplitMix64
from services.games.store import claim_of
from services.simulation.simulate import make_illegal


def esc(text: str) -> str:
    """As Jinja's autoescape writes the text into the page."""
    return str(escape(text))


def upload(client, log) -> int:
    """Upload as ``client`` (one that may: an admin's); the new game's id."""
    data = log if isinstance(log, bytes) else json.dumps(log).encode()
    response = client.post("/api/v1/games", data=data, content_type="application/json")
    assert response.status_code == 202, response.get_json()
    return response.get_json()["id"]


def step_label(page: str) -> str:
    m = re.search(r'<span id="step-label" aria-live="polite">(.*?)</span>', page)
    assert m, "the page has a stepper"
    return m.group(1)


def embedded_timeline(page: str) -> dict:
    m = re.search(r'<script id="timeline-data" type="application/json">(.*?)</script>', page, re.S)
    assert m, "the page embeds its timeline"
    return json.loads(m.group(1))


@pytest.fixture(scope="module")
def valid_game(app):
    client = as_admin(app)
    log = self_play(501, catalog="2026.1", meta={"event": "Viewer Open", "date": "2026-04-02",
                                                 "players": ["Ann", "Bo"]})
    gid = upload(client, log)
    assert wait_final(client, gid)["status"] == "valid"
    return gid, log


@pytest.fixture(scope="module")
def illegal_game(app):
    client = as_admin(app)
    log = make_illegal(self_play(502, catalog="2026.1"), SplitMix64(7))
    gid = upload(client, log)
    game = wait_final(client, gid)
    assert game["status"] == "illegal"
    return gid, log, game["verdict"]


def test_a_valid_game_page_shows_its_decks_players_event_and_steps(client, valid_game):
    gid, log = valid_game
    response = client.get(f"/games/{gid}/replay")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    for deck in log["setup"]["decks"]:
        assert esc(deck) in page
    for text in ("Ann", "Bo", "Viewer Open", "2026-04-02", "valid"):
        assert text in page
    for element in ("step-forward", "step-back", "step-first", "step-last", "step-label", "board",
                    "decision-list"):
        assert f'id="{element}"' in page
    assert 'id="illegal-reason"' not in page
    n = len(log["decisions"])
    assert step_label(page) == "Setup"  # a valid game opens at the start
    assert page.count('<li data-step="') == n + 1  # setup + every decision, each a link
    # numbered as people count the log's lines, from 1 (engine.words.decision_number)
    assert re.findall(r'<span class="dn">(\d+)</span>', page) == [str(k) for k in range(1, n + 1)]
    assert "replay.js" in page and "replay.css" in page
    assert len(embedded_timeline(page)["frames"]) == n + 1


def test_step_in_the_url_opens_at_that_step_and_is_clamped(client, valid_game):
    gid, log = valid_game
    page = client.get(f"/games/{gid}/replay?step=12").get_data(as_text=True)
    assert 'data-step="12"' in page and step_label(page) == f"After decision 12 of {len(log['decisions'])}"
    page = client.get(f"/games/{gid}/replay?step=99999").get_data(as_text=True)
    n = len(log["decisions"])
    assert step_label(page) == f"After decision {n} of {n}"
    assert client.get(f"/games/{gid}/replay?step=abc").status_code == 200


def test_timeline_json_has_a_frame_per_decision_and_the_final_might(client, valid_game):
    gid, log = valid_game
    response = client.get(f"/games/{gid}/timeline.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = response.get_json()
    assert len(body["frames"]) == len(log["decisions"]) + 1
    assert body["frames"][-1]["might"] == log["result"]["might"]
    assert body["verdict"]["status"] == "valid" and body["failing_frame"] is None
    assert body["game"]["id"] == gid and body["game"]["status"] == "valid"
    assert body["game"]["event"] == "Viewer Open"
    assert [p["name"] for p in body["players"]] == ["Ann", "Bo"]


def test_an_illegal_game_opens_at_the_failing_decision_with_reason_and_alternatives(client, illegal_game):
    gid, log, verdict = illegal_game
    i = verdict["decision_index"] if "decision_index" in verdict else verdict["index"]
    body = client.get(f"/games/{gid}/timeline.json").get_json()
    assert body["failing_frame"] == i and len(body["frames"]) == i + 1
    assert body["frames"][i]["index"] == i
    assert body["failure"]["decision"] == log["decisions"][i] == verdict["decision"]
    assert body["failure"]["reason"] == verdict["rule"] and body["failure"]["legal"] == verdict["legal"]

    page = client.get(f"/games/{gid}/replay").get_data(as_text=True)
    assert 'id="illegal-reason"' in page
    assert esc(verdict["rule"]) in page
    assert esc(log["decisions"][i]) in page
    for alternative in verdict["legal"][:3]:
        assert esc(alternative) in page
    n = len(log["decisions"])
    # one numbering: the stepper shows the board after decision i; decision i + 1 breaks the rules,
    # as the red box, the list and the stored verdict's message (the API's) all say
    assert f'data-step="{i}"' in page and step_label(page) == f"After decision {i} of {n}"
    assert f"Decision {i + 1} of {n} breaks the rules" in page
    assert f'data-number="{i + 1}" class="illegal-decision"' in page
    assert verdict["message"].startswith(f"decision {i + 1} (")
    assert "index" not in page.split('id="illegal-reason"')[1].split("</section>")[0]


def test_an_unknown_game_is_a_404_page_not_a_500(client):
    response = client.get("/games/987654321/replay")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "There is no game 987654321" in response.get_data(as_text=True)
    response = client.get("/games/987654321/timeline.json")
    assert response.status_code == 404 and response.get_json()["error"]["status"] == 404
    assert client.get(f"/games/{2**70}/replay").status_code == 404  # beyond bigint: still not found


def test_player_supplied_text_is_escaped_in_the_page(client, admin_client):
    evil = "<script>alert(1)</script>"
    log = self_play(503, catalog="2026.1", meta={"event": f"Evil {evil} Cup", "players": [evil, "Bo</script>"]})
    gid = upload(admin_client, log)
    wait_final(client, gid)
    page = client.get(f"/games/{gid}/replay").get_data(as_text=True)
    assert evil not in page and "Bo</script>" not in page
    assert esc(evil) in page  # shown, as text
    data = embedded_timeline(page)  # the embedded JSON neither breaks out of its script element
    assert data["players"][0]["name"] == evil


def test_a_mash_up_deck_name_is_escaped_too(client, admin_client):
    log = self_play(504, catalog="2026.1")
    deck = load_catalog("2026.1").decks[log["setup"]["decks"][0]]
    log["setup"]["decks"][0] = {"name": "<img src=x onerror=alert(2)>", "cards": [c.name for c in deck]}
    gid = upload(admin_client, log)
    wait_final(client, gid)
    page = client.get(f"/games/{gid}/replay").get_data(as_text=True)
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page


def test_a_pending_game_says_so_and_still_shows_the_timeline(client, db):
    log = self_play(505, catalog="2026.1")
    # stored as the API stores it, but no task sent: the game stays 'received' for this test
    raw = json.dumps(log).encode()
    gid = db.execute("INSERT INTO games (content_hash, raw_log, status, claimed_result, claimed_winner) "
                     "VALUES (%s, %s, 'received', %s, %s) RETURNING id",
                     (uuid.uuid4().hex * 2, raw, *claim_of(raw))).fetchone()[0]
    page = client.get(f"/games/{gid}/replay").get_data(as_text=True)
    assert 'id="pending-note"' in page and "still being verified" in page
    assert len(embedded_timeline(page)["frames"]) == len(log["decisions"]) + 1


def test_a_malformed_game_shows_what_is_wrong_and_no_board_to_step(client, admin_client):
    gid = upload(admin_client, b'{"format": "empyrean-log", "version": 1}')
    assert wait_final(client, gid)["status"] == "malformed"
    response = client.get(f"/games/{gid}/replay")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Nothing to replay" in page and "/catalog" in page
    assert client.get(f"/games/{gid}/timeline.json").get_json()["frames"] == []


def test_the_game_json_links_to_the_replay(client, valid_game):
    gid, _ = valid_game
    body = client.get(f"/api/v1/games/{gid}").get_json()
    assert body["replay_url"] == f"/games/{gid}/replay"
    assert client.get(body["replay_url"]).status_code == 200


def test_each_side_of_a_dispute_links_to_its_replay(client, db, valid_game, illegal_game):
    event = db.execute("INSERT INTO events (name) VALUES (%s) RETURNING id",
                       (f"Replay Disputes {uuid.uuid4().hex[:6]}",)).fetchone()[0]
    match = db.execute("INSERT INTO event_matches (event_id, round, table_label, players) "
                       "VALUES (%s, 1, '1', %s) RETURNING id", (event, ["Ann", "Bo"])).fetchone()[0]
    ids = [valid_game[0], illegal_game[0]]
    db.execute("UPDATE games SET match_id = %s WHERE id = ANY(%s)", (match, ids))
    did = db.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, 'test') RETURNING id",
                     (match,)).fetchone()[0]
    body = client.get(f"/api/v1/disputes/{did}").get_json()
    assert {s["game"]: s["replay_url"] for s in body["sides"]} == {g: f"/games/{g}/replay" for g in ids}
    assert f"Dispute {did}: both uploads side by side" in client.get(f"/games/{ids[0]}/replay").get_data(as_text=True)
    # a third upload of the match (a three-player table's third seat): not "both"
    third = upload(as_admin(client.application), self_play(503, catalog="2026.1"))
    db.execute("UPDATE games SET match_id = %s WHERE id = %s", (match, third))
    assert f"Dispute {did}: its 3 uploads side by side" in client.get(f"/games/{ids[0]}/replay").get_data(
        as_text=True)
