"""Nothing parses a log twice on its way through: the API parses each upload once (to hash it,
read its meta and keep what it claims), a worker parses it once to replay it, and neither a
dispute check nor a view reads the stored log again. Counted at the engine's one reader of logs
(engine.log._parse, behind every parse_log), in this process: the uploads go through the API's
test client; the replay is the worker's own function, called here (after a reprocess, as the
worker has replayed the games already)."""

from __future__ import annotations

import gzip
import json

import pytest
from service_helpers import wait_final
from test_chunk_replay import pool  # noqa: F401  (a fixture)

import engine.log
from engine.bfe.selfplay import self_play
from services.games.dispatch import mark_reprocess
from services.games.replay import replay_stored_games


@pytest.fixture
def parses(monkeypatch) -> list[int]:
    """One entry per log parsed from now on."""
    counted: list[int] = []
    real = engine.log._parse

    def counting(source):
        counted.append(1)
        return real(source)

    monkeypatch.setattr(engine.log, "_parse", counting)
    return counted


def test_a_single_upload_is_parsed_once_by_the_api(admin_client, parses):
    response = admin_client.post("/api/v1/games", data=json.dumps(self_play(8100)),
                                 content_type="application/json")
    assert response.status_code == 202, response.get_json()
    assert len(parses) == 1
    malformed = admin_client.post("/api/v1/games", data=b'{"format": "empyrean-log", "version": 1}',
                                  content_type="application/json")
    assert malformed.status_code == 202 and malformed.get_json()["status"] == "malformed"
    assert len(parses) == 2  # its verdict comes from that one parse's errors


def test_a_bundle_is_parsed_once_per_game_by_the_api(admin_client, parses):
    event_id = admin_client.post("/api/v1/events", json={"name": "One Parse Open"}).get_json()["id"]
    logs = [self_play(8110 + i, meta={"round": 1, "table": i + 1, "players": [f"A{i}", f"B{i}"]}) for i in range(6)]
    body = gzip.compress(json.dumps(logs).encode())
    response = admin_client.post(f"/api/v1/events/{event_id}/games", data=body, content_type="application/json",
                                 headers={"Content-Encoding": "gzip"})
    assert response.status_code == 202, response.get_json()
    assert response.get_json()["accepted"] == 6, response.get_json()["games"]
    assert len(parses) == 6


def test_a_worker_parses_each_game_once_and_a_dispute_reads_no_log(admin_client, db, pool, parses):  # noqa: F811
    meta = {"event": "One Parse Cup", "round": 2, "table": 1, "players": ["Cy", "Di"]}
    assert admin_client.post("/api/v1/events", json={"name": "One Parse Cup"}).status_code in (200, 201)
    honest = self_play(8120, meta=meta)
    claimed_otherwise = dict(honest, result={"winner": 3 - honest["result"]["winner"]})
    ids = [admin_client.post("/api/v1/games", data=json.dumps(log), content_type="application/json").get_json()["id"]
           for log in (honest, claimed_otherwise)]
    assert len(parses) == 2
    for game_id in ids:  # the worker's replays, in another process; then the same here, counted
        wait_final(admin_client, game_id)
    mark_reprocess(db, game_ids=ids)
    replay_stored_games(pool, ids)
    assert len(parses) == 4  # one each; the dispute check between them read what the uploads stored
    dispute_id = db.execute("SELECT d.id FROM disputes d JOIN games g ON g.match_id = d.match_id WHERE g.id = %s",
                            (ids[0],)).fetchone()[0]
    sides = admin_client.get(f"/api/v1/disputes/{dispute_id}").get_json()["sides"]
    assert {s["game"]: s["claimed_result"] for s in sides} == {
        ids[0]: honest["result"], ids[1]: claimed_otherwise["result"]}
    assert len(parses) == 4
