"""GET /api/v1/disputes and /disputes/{id} against a real PostgreSQL: the rows are written here the
way the replay worker writes them (a match, its games with verdicts and records, a dispute)."""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
from service_helpers import running_app

from services.games.store import claim_of


@pytest.fixture
def client(config):
    with running_app(config) as app:
        yield app.test_client()


def _game(cur, match_id, raw: bytes, status: str, **verdict) -> int:
    # what an upload of these bytes stores of their claim (services.games.store)
    claim, winner = claim_of(raw)
    gid = cur.execute(
        "INSERT INTO games (content_hash, raw_log, uploader, match_id, status, status_message, claimed_result,"
        " claimed_winner) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (uuid.uuid4().hex * 2, raw, "table judge", match_id, status, verdict.get("message", status), claim, winner),
    ).fetchone()[0]
    cur.execute(
        "INSERT INTO verdicts (game_id, status, message, decision_index, round, phase, player, decision,"
        " rule, legal, engine_version) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'test')",
        (gid, status, verdict.get("message", status), verdict.get("index"), verdict.get("round"),
         verdict.get("phase"), verdict.get("player"), verdict.get("decision"), verdict.get("rule"),
         json.dumps(verdict.get("legal", []))))
    return gid


@pytest.fixture
def dispute(database_url):
    """An event with one disputed match: a valid upload claiming P1 won, an illegal one claiming P2."""
    with psycopg.connect(database_url) as conn:
        cur = conn.cursor()
        event = cur.execute("INSERT INTO events (name) VALUES (%s) RETURNING id",
                            (f"<b>Disputes Open</b> {uuid.uuid4().hex[:6]}",)).fetchone()[0]
        match = cur.execute(
            "INSERT INTO event_matches (event_id, round, table_label, players) VALUES (%s, 3, '7', %s) RETURNING id",
            (event, ["Ana", "Bo"])).fetchone()[0]
        valid = _game(cur, match, json.dumps({"result": {"winner": 1}}).encode(), "valid")
        cur.execute("INSERT INTO game_records (game_id, players, battlefields, first_player, winner, margin,"
                    " decisions, played_on, engine_version, catalog_version) VALUES"
                    " (%s, 2, %s, 1, 1, 4, 60, current_date, 'test', '2026.1')", (valid, ["A", "B", "C"]))
        for seat, might in ((1, 20), (2, 16)):
            cur.execute("INSERT INTO game_players (game_id, seat, deck, is_first_player, won, final_might,"
                        " battlefields_won) VALUES (%s, %s, 'Spectres of the Necropolis', %s, %s, %s, 2)",
                        (valid, seat, seat == 1, seat == 1, might))
        illegal = _game(cur, match, b'{"result": {"winner": 2}, "decisions": [', "illegal",
                        message="decision 12 is not allowed", index=12, round=3, phase="deploy", player=2,
                        decision="P2 deploy Horse Archers to B4", rule="there is no battlefield 4",
                        legal=["P2 pass", "P2 deploy Horse Archers to B1"])
        did = cur.execute("INSERT INTO disputes (match_id, reason) VALUES (%s, %s) RETURNING id",
                          (match, "the uploads claim different winners")).fetchone()[0]
    return {"event": event, "id": did, "valid": valid, "illegal": illegal}


def test_open_disputes_are_listed_with_their_match(client, dispute):
    body = client.get(f"/api/v1/disputes?event={dispute['event']}").get_json()
    assert [d["id"] for d in body["disputes"]] == [dispute["id"]]
    d = body["disputes"][0]
    assert d["status"] == "open" and d["games"] == 2 and d["reason"] == "the uploads claim different winners"
    assert d["match"]["round"] == 3 and d["match"]["table"] == "7" and d["match"]["players"] == ["Ana", "Bo"]
    assert d["match"]["event"]["name"].startswith("<b>Disputes Open</b>")  # JSON: escaping is the page's job
    assert d["url"] == f"/api/v1/disputes/{dispute['id']}"
    assert client.get(f"/api/v1/disputes?event={dispute['event']}&status=resolved").get_json()["disputes"] == []


def test_a_dispute_shows_both_sides_and_the_engine_verdict_on_each(client, dispute):
    body = client.get(f"/api/v1/disputes/{dispute['id']}").get_json()
    sides = {s["game"]: s for s in body["sides"]}
    valid, illegal = sides[dispute["valid"]], sides[dispute["illegal"]]
    assert valid["claimed_result"] == {"winner": 1}
    assert valid["verdict"]["status"] == "valid"
    assert valid["result_by_rules"] == {"winner": 1, "margin": 4, "final_might": [20, 16]}
    assert illegal["claimed_result"] is None  # its log is not even readable JSON
    v = illegal["verdict"]
    assert (v["status"], v["index"], v["decision"], v["rule"]) == (
        "illegal", 12, "P2 deploy Horse Archers to B4", "there is no battlefield 4")
    assert v["legal"] == ["P2 pass", "P2 deploy Horse Archers to B1"]
    assert illegal["result_by_rules"] is None
    assert illegal["links"]["log"] == f"/api/v1/games/{dispute['illegal']}/log"


def test_paging_and_bad_parameters(client, dispute):
    page = client.get("/api/v1/disputes?status=all&limit=1").get_json()
    assert len(page["disputes"]) == 1 and "before=" in page["next"]
    for query, param in (("status=closed", "status"), ("limit=0", "limit"), ("limit=x", "limit"),
                         ("event=-3", "event"), ("before=1e9", "before")):
        response = client.get(f"/api/v1/disputes?{query}")
        assert response.status_code == 400, query
        assert f"'{param}'" in response.get_json()["error"]["message"]
    missing = client.get("/api/v1/disputes/999999999")
    assert missing.status_code == 404 and "no dispute 999999999" in missing.get_json()["error"]["message"]
    assert client.get("/api/v1/disputes/abc").status_code == 404
