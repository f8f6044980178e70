"""GET /metrics: Prometheus text that a scraper can parse, with the service's real numbers —
games by status equal a count of the games table, queue depths read from Redis, upload-to-verdict
latency over recent games."""

from __future__ import annotations

import json

import psycopg
from prometheus_client.parser import text_string_to_metric_families
from service_helpers import anonymous_client, wait_final

from engine.bfe.selfplay import self_play
from engine.rng import SplitMix64
from services.simulation.simulate import make_illegal


def scrape(client) -> dict[str, dict]:
    response = anonymous_client(client.application).get("/metrics")  # public, no token
    assert response.status_code == 200 and response.mimetype == "text/plain"
    families = text_string_to_metric_families(response.get_data(as_text=True))
    return {f.name: {tuple(sorted(s.labels.items())): s.value for s in f.samples} for f in families}


def test_metrics_report_games_queues_and_latency(admin_client, db, ingest_config):
    ids = []
    for seed in range(3):
        body = admin_client.post("/api/v1/games", data=json.dumps(self_play(6100 + seed)),
                                 content_type="application/json")
        ids.append(body.get_json()["id"])
    illegal = make_illegal(self_play(6200), SplitMix64(1))
    body = admin_client.post("/api/v1/games", data=json.dumps(illegal), content_type="application/json")
    ids.append(body.get_json()["id"])
    for game_id in ids:
        wait_final(admin_client, game_id)

    metrics = scrape(admin_client)
    counted = dict(db.execute("SELECT status, count(*) FROM games GROUP BY status").fetchall())
    games = {dict(labels)["status"]: value for labels, value in metrics["empyrean_games"].items() if value}
    assert games == counted and games.get("illegal", 0) >= 1 and games.get("valid", 0) >= 3
    assert metrics["empyrean_games_stored"][()] == sum(counted.values())
    queues = {dict(labels)["queue"]: value for labels, value in metrics["empyrean_queue_messages"].items()}
    assert set(queues) == {"interactive", "bulk"} and all(v >= 0 for v in queues.values())
    assert metrics["empyrean_queue_unacked"][()] >= 0
    assert metrics["empyrean_replays_recent"][()] >= 4
    latency = {dict(labels)["quantile"]: value for labels, value in metrics["empyrean_replay_seconds"].items()}
    assert set(latency) == {"0.5", "0.95", "0.99"} and 0 < latency["0.5"] <= latency["0.99"] < 120
    assert metrics["empyrean_metrics_errors"] == {(("source", "postgres"),): 0, (("source", "redis"),): 0}
    # all final: nothing waits for the fold. Then one game is made to look replayed and not yet
    # counted; its games row is held meanwhile, so the worker's fold (the sweeper runs every
    # second here) skips it rather than count it a second time.
    assert metrics["empyrean_games_uncounted"][()] == 0
    with psycopg.connect(ingest_config.database_url) as holder:
        holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (ids[0],))
        db.execute("UPDATE game_records SET pending = true, counted = false WHERE game_id = %s", (ids[0],))
        assert scrape(admin_client)["empyrean_games_uncounted"][()] == 1
        db.execute("UPDATE game_records SET pending = false, counted = true WHERE game_id = %s", (ids[0],))
