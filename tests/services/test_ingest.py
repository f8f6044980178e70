"""The single-game ingest path end to end: the API (in-process Flask app) against real PostgreSQL and
Redis, replayed by a real Celery worker process (with its beat scheduler running the sweeper)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter, defaultdict

import pytest
from service_helpers import as_admin, wait_final

from engine.bfe.selfplay import self_play
from services.api import create_app
from services.games.dispatch import mark_reprocess
from services.games.replay import replay_stored_games
from services.platform.pool import create_pool

AGG_TABLES = ["agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player", "agg_card_metrics",
              "agg_battlefield_first_player", "agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups",
              "agg_battlefield_cards"]


def upload(client, log, **headers):
    data = log if isinstance(log, bytes) else json.dumps(log).encode()
    return client.post("/api/v1/games", data=data, content_type="application/json", headers=headers)


def aggregates(db) -> dict[str, Counter]:
    """Every aggregate table as {key: counts}, rows that sum to nothing left out."""
    out = {}
    for table in AGG_TABLES:
        cur = db.execute(f"SELECT * FROM {table}")
        names = [c.name for c in cur.description]
        key_len = names.index("games") if "games" in names else names.index("deployed_games")
        out[table] = Counter({tuple(r[:key_len]): tuple(r[key_len:]) for r in cur if any(r[key_len:])})
    return out


def test_a_valid_game_is_replayed_recorded_and_counted(admin_client, db):
    log = self_play(101, meta={"event": "Ingest Open", "date": "2026-03-14", "players": ["Ann", "Bo"]})
    # the event exists (an organiser made it): the game is filed under the event its log names
    assert admin_client.post("/api/v1/events", json={"name": "Ingest Open"}).status_code in (200, 201)
    response = upload(admin_client, log, **{"X-Uploader": "ann@example.org"})
    assert response.status_code == 202, response.get_json()
    body = response.get_json()
    assert body["status"] in ("queued", "replaying", "valid") and body["duplicate"] is False
    assert response.headers["Location"] == body["status_url"] == f"/api/v1/games/{body['id']}"

    game = wait_final(admin_client, body["id"])
    assert game["status"] == "valid", game
    assert game["verdict"]["status"] == "valid" and game["uploader_label"] == "ann@example.org"
    # who uploaded it is the token's owner; the X-Uploader text is a label only
    assert game["uploader"] == game["uploaded_by"]["owner"] and game["uploader"] != "ann@example.org"
    assert game["event"] == "Ingest Open" and game["played_on"] == "2026-03-14"
    record = game["record"]
    assert record["counted"] and record["winner"] == log["result"]["winner"]
    assert [s["deck"] for s in record["seats"]] == log["setup"]["decks"]
    assert [s["player_name"] for s in record["seats"]] == ["Ann", "Bo"]
    assert [[b["might"] for b in s["battlefields"]] for s in record["seats"]] == log["result"]["might"]
    assert [r["round"] for r in record["rounds"]] == list(range(1, 11))

    gid = body["id"]
    for table, expected in [("game_players", 2), ("game_player_battlefields", 6), ("game_player_rounds", 20)]:
        assert db.execute(f"SELECT count(*) FROM {table} WHERE game_id = %s", (gid,)).fetchone()[0] == expected
    assert db.execute("SELECT count(*) FROM game_player_cards WHERE game_id = %s", (gid,)).fetchone()[0] > 0
    event_id = game["event_id"]
    for table in AGG_TABLES:
        assert db.execute(f"SELECT count(*) FROM {table} WHERE event_id = %s AND played_on = '2026-03-14'",
                          (event_id,)).fetchone()[0] > 0, table

    raw = admin_client.get(f"/api/v1/games/{gid}/log")
    assert raw.status_code == 200 and raw.mimetype == "application/json"
    assert raw.data == json.dumps(log).encode()


def test_reupload_gives_the_same_game_and_no_second_row(admin_client, db):
    log = self_play(102)
    first = upload(admin_client, log)
    assert first.status_code == 202
    again = upload(admin_client, log)
    # written differently (indentation, key order): the canonical hash is the same game
    rewritten = upload(admin_client, json.dumps(dict(reversed(list(log.items()))), indent=2).encode())
    for response in (again, rewritten):
        assert response.status_code == 200
        assert response.get_json()["id"] == first.get_json()["id"] and response.get_json()["duplicate"] is True
    content_hash = first.get_json()["content_hash"]
    assert db.execute("SELECT count(*) FROM games WHERE content_hash = %s", (content_hash,)).fetchone()[0] == 1
    wait_final(admin_client, first.get_json()["id"])


def test_an_illegal_game_says_where_and_why(admin_client):
    log = self_play(103)
    index = next(i for i, d in enumerate(log["decisions"]) if d.startswith("P2 deploy"))
    log["decisions"][index] = "P1 yes"  # it is player 2's turn there
    response = upload(admin_client, log)
    assert response.status_code == 202
    game = wait_final(admin_client, response.get_json()["id"])
    assert game["status"] == "illegal" and game["record"] is None
    verdict = game["verdict"]
    assert verdict["decision_index"] == index and verdict["decision"] == "P1 yes"
    assert "player 2's turn" in verdict["rule"] and verdict["legal"] and verdict["board"]
    assert verdict["round"] >= 1 and verdict["phase"] and game["message"] == verdict["message"]


def test_a_malformed_log_is_stored_with_the_engines_pointers(admin_client, db):
    response = upload(admin_client, {"format": "empyrean-log", "version": 1, "catalog": "2026.1",
                                     "setup": {"mode": "5p"}})
    assert response.status_code == 202
    body = response.get_json()
    assert body["status"] == "malformed" and any(e["path"] == "/setup/mode" for e in body["errors"])
    game = admin_client.get(body["status_url"]).get_json()
    assert game["status"] == "malformed" and "the log is malformed at /chance" in game["message"]
    assert any(e["path"] == "/setup/mode" for e in game["verdict"]["errors"])
    assert db.execute("SELECT count(*) FROM games WHERE id = %s", (body["id"],)).fetchone()[0] == 1


@pytest.mark.parametrize("data, content_type, status, words", [
    (b'{"format": "empyrean-log"}', "text/plain", 415, "Content-Type: application/json"),
    (b'{"format": ', "application/json", 400, "not valid JSON"),
    (b'[{"format": "empyrean-log"}]', "application/json", 400, "not an array"),
    (b"   ", "application/json", 400, "empty"),
    (b"[" * 100_000, "application/json", 400, "nested too deeply"),
])
def test_bad_requests_are_named_and_store_nothing(admin_client, db, data, content_type, status, words):
    before = db.execute("SELECT count(*) FROM games").fetchone()[0]
    response = admin_client.post("/api/v1/games", data=data, content_type=content_type)
    assert response.status_code == status and response.is_json
    error = response.get_json()["error"]
    assert words in error["message"] and error["pointer"] == ""
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == before


def test_too_large_is_413(ingest_config, db):
    app = create_app(dataclasses.replace(ingest_config, max_upload_bytes=2048))
    try:
        response = upload(as_admin(app), b'{"x": "' + b"a" * 4096 + b'"}')
        assert response.status_code == 413 and "2048 bytes" in response.get_json()["error"]["message"]
    finally:
        app.extensions["empyrean"].close()


@pytest.mark.parametrize("path", ["/api/v1/games/999999999", "/api/v1/games/abc", "/api/v1/games/-1",
                                  "/api/v1/games/99999999999999999999999", "/api/v1/games/999999999/log"])
def test_unknown_games_are_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.is_json


def test_replaying_a_game_twice_never_counts_it_twice(admin_client, db, ingest_config):
    response = upload(admin_client, self_play(104, players=3, meta={"event": "Twice Cup"}))
    game_id = response.get_json()["id"]
    assert wait_final(admin_client, game_id)["status"] == "valid"
    before = aggregates(db)
    pool = create_pool(ingest_config.database_url, max_size=1, name="test-replay")
    try:
        # a stale message (a re-send of a game that was only waiting its turn) finds it finished
        assert replay_stored_games(pool, [game_id]) == {}
        assert db.execute("SELECT status, attempts FROM games WHERE id = %s", (game_id,)).fetchone() == ("valid", 1)
        assert aggregates(db) == before
        # asked again (a reprocess), it is replayed, twice over, and still counted once
        for _ in range(2):
            assert mark_reprocess(db, game_ids=[game_id]) == [game_id]
            assert replay_stored_games(pool, [game_id]).get(game_id) == "valid"
    finally:
        pool.close()
    after = aggregates(db)
    assert after == before
    assert db.execute("SELECT count(*) FROM game_players WHERE game_id = %s", (game_id,)).fetchone()[0] == 3
    # and the aggregates equal a recount from the game records of every counted game
    recount: defaultdict = defaultdict(Counter)
    first: defaultdict = defaultdict(Counter)
    for played_on, event, players, deck, won, draw, is_first in db.execute(
            """SELECT r.played_on, r.event_id, r.players, p.deck, p.won, r.winner IS NULL, p.is_first_player
               FROM game_records r JOIN game_players p USING (game_id) WHERE r.counted"""):
        recount[(played_on, event, players, deck)].update(games=1, wins=won, draws=draw, fp_games=is_first,
                                                          fp_wins=is_first and won)
    for played_on, event, players, fp_won, draw in db.execute(
            """SELECT played_on, event_id, players, winner IS NOT DISTINCT FROM first_player, winner IS NULL
               FROM game_records WHERE counted"""):
        first[(played_on, event, players)].update(games=1, fp_wins=fp_won, draws=draw)
    assert {k: tuple(c[f] for f in ("games", "wins", "draws", "fp_games", "fp_wins"))
            for k, c in recount.items()} == dict(after["agg_deck_results"])
    assert {k: tuple(c[f] for f in ("games", "fp_wins", "draws")) for k, c in first.items()} == \
        dict(after["agg_first_player"])
    per_bf: defaultdict = defaultdict(Counter)
    for played_on, event, players, bf, bf_won, fp_won, draw in db.execute(
            """SELECT r.played_on, r.event_id, r.players, b.battlefield, b.won,
                      r.winner IS NOT DISTINCT FROM r.first_player, r.winner IS NULL
               FROM game_records r JOIN game_player_battlefields b
                 ON b.game_id = r.game_id AND b.seat = r.first_player WHERE r.counted"""):
        per_bf[(played_on, event, players, bf)].update(games=1, bf_wins=bf_won, fp_wins=fp_won, draws=draw)
    assert {k: tuple(c[f] for f in ("games", "bf_wins", "fp_wins", "draws")) for k, c in per_bf.items()} == \
        dict(after["agg_battlefield_first_player"])


def test_an_exception_in_the_pipeline_leaves_the_game_in_error(admin_client, db, ingest_config, monkeypatch):
    import services.games.replay

    game_id = upload(admin_client, self_play(105)).get_json()["id"]
    assert wait_final(admin_client, game_id)["status"] == "valid"

    def broken(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(services.games.replay, "copy_record_rows", broken)
    pool = create_pool(ingest_config.database_url, max_size=1, name="test-error")
    try:
        mark_reprocess(db, game_ids=[game_id])
        assert replay_stored_games(pool, [game_id]).get(game_id) == "error"
    finally:
        pool.close()
    game = admin_client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["status"] == "error" and "simulated bug" in game["message"]
    assert game["record"] is None  # taken out of the statistics, not left half-counted


def test_two_disagreeing_uploads_of_one_match_open_one_dispute(admin_client, db):
    meta = {"event": "Dispute Open", "round": 3, "table": 7, "players": ["Cy", "Di"]}
    assert admin_client.post("/api/v1/events", json={"name": "Dispute Open"}).status_code in (200, 201)
    honest = self_play(106, meta=meta)
    claim = json.loads(json.dumps(honest))
    claim["result"] = {"winner": 3 - honest["result"]["winner"]}  # the loser says they won
    claim["meta"]["players"] = ["Cy", "Di"]
    ids = [upload(admin_client, log).get_json()["id"] for log in (honest, claim)]
    games = [wait_final(admin_client, gid) for gid in ids]
    assert [g["status"] for g in games] == ["valid", "mismatch"]
    assert games[0]["match_id"] == games[1]["match_id"] is not None
    disputes = db.execute("SELECT id, status, reason FROM disputes WHERE match_id = %s",
                          (games[0]["match_id"],)).fetchall()
    assert len(disputes) == 1
    dispute_id, status, reason = disputes[0]
    assert status == "open" and "claim different results" in reason and "verdicts differ" in reason
    assert admin_client.get(f"/api/v1/games/{ids[0]}").get_json()["dispute_id"] == dispute_id


def test_a_game_whose_message_was_never_sent_is_swept_up(ingest_config, client):
    # The broker is unreachable for this API: the game is stored and answered 202 'queued' (the
    # send happens after the answer); the send fails, the game goes back to 'received', and the
    # worker's sweeper (through the real Redis) sends it later.
    cut_off = create_app(dataclasses.replace(ingest_config, redis_url="redis://127.0.0.1:1/0"))
    try:
        started = time.monotonic()
        response = upload(as_admin(cut_off), self_play(107))
        assert time.monotonic() - started < 10
        assert response.status_code == 202 and response.get_json()["status"] == "queued"
        game_id = response.get_json()["id"]
        while client.get(f"/api/v1/games/{game_id}").get_json()["status"] == "queued":
            assert time.monotonic() - started < 10, "the failed send did not set the game back"
            time.sleep(0.05)
        assert client.get(f"/api/v1/games/{game_id}").get_json()["status"] in ("received", "queued", "replaying",
                                                                              "valid")
    finally:
        cut_off.extensions["empyrean"].close()
    game = wait_final(client, response.get_json()["id"], timeout=60)
    assert game["status"] == "valid" and game["attempts"] >= 1
