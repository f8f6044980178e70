"""Events and tournament bundles end to end (real PostgreSQL, Redis and Celery worker), and the
`empyrean upload` client against a real HTTP server."""

from __future__ import annotations

import gzip
import json
import os
import re
import threading
from collections import Counter, defaultdict

import pytest
import requests
from click.testing import CliRunner
from tournament import wait_event_done
from werkzeug.serving import make_server

from engine.bfe.selfplay import self_play
from services.cli import main as cli
from services.games.dispatch import reprocess
from services.games.records import FOLD_LOCK, recount_differences
from services.platform.broker import make_celery
from services.platform.pool import create_pool

BUNDLE_GAMES = 500


def event_game_counts(db) -> dict:
    return dict(((e, s), n) for e, s, n in db.execute(
        "SELECT event_id, status, games FROM agg_event_games WHERE games <> 0"))


def make_event(client, name: str) -> int:
    response = client.post("/api/v1/events", json={"name": name})
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()["id"]


def test_creating_an_event_twice_answers_the_same_event(admin_client):
    first = admin_client.post("/api/v1/events", json={"name": "Spring Open", "starts_on": "2026-04-01"})
    again = admin_client.post("/api/v1/events", json={"name": "Spring Open"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.get_json()["id"] == again.get_json()["id"] and again.get_json()["created"] is False
    assert first.get_json()["starts_on"] == "2026-04-01"
    for body, pointer in (({"name": ""}, "/name"), ({"name": "x", "starts_on": "April"}, "/starts_on"),
                          ({"name": "x", "colour": 1}, "/colour"), ([1], "")):
        response = admin_client.post("/api/v1/events", json=body)
        assert response.status_code == 400 and response.get_json()["error"]["pointer"] == pointer
    assert admin_client.get("/api/v1/events/987654321").status_code == 404


def test_a_bundle_of_500_games_is_stored_replayed_and_counted_once(admin_client, db):
    event_id = make_event(admin_client, "Bundle Cup")
    logs = [self_play(seed, meta={"date": f"2026-05-{1 + seed % 28:02d}"}) for seed in range(BUNDLE_GAMES)]
    lines = [json.dumps(log) for log in logs]
    lines[10] = lines[3]  # the same game twice in one bundle: a duplicate
    lines += ['{"format": "empyrean-log"}', "[1, 2]", "not json at all"]
    body = gzip.compress(("\n".join(lines) + "\n").encode())
    response = admin_client.post(f"/api/v1/events/{event_id}/games", data=body, content_type="application/x-ndjson",
                                 headers={"Content-Encoding": "gzip"})
    assert response.status_code == 202, response.get_json()
    report = response.get_json()
    assert (report["accepted"], report["duplicates"], report["malformed"], report["rejected"]) == (
        BUNDLE_GAMES - 1, 1, 1, 2)
    games = report["games"]
    assert [g["index"] for g in games] == list(range(len(lines)))
    assert games[10]["duplicate"] and games[10]["id"] == games[3]["id"]
    assert games[BUNDLE_GAMES]["status"] == "malformed" and games[BUNDLE_GAMES]["errors"]
    assert games[-2]["status"] == "rejected" and "must be a JSON object, not an array" in games[-2]["error"]
    assert "not valid JSON" in games[-1]["error"]

    summary = wait_event_done(admin_client, event_id, BUNDLE_GAMES)
    assert summary["games"] == {"malformed": 1, "valid": BUNDLE_GAMES - 1}

    # the aggregates equal a recount from the game records of this event
    recount: defaultdict = defaultdict(Counter)
    for deck, won in db.execute(
            """SELECT p.deck, p.won FROM game_records r JOIN game_players p USING (game_id)
               WHERE r.counted AND r.event_id = %s""", (event_id,)):
        recount[deck].update(games=1, wins=won)
    agg = {deck: (games, wins) for deck, games, wins in db.execute(
        """SELECT deck, sum(games), sum(wins) FROM agg_deck_results WHERE event_id = %s
           GROUP BY deck HAVING sum(games) <> 0""", (event_id,))}
    assert agg == {deck: (c["games"], c["wins"]) for deck, c in recount.items()}
    assert sum(g for g, _ in agg.values()) == 2 * (BUNDLE_GAMES - 1)
    # ... and so does every aggregate, and the per-event status counts the triggers keep
    assert set(recount_differences(db).values()) == {0}
    with db.transaction(force_rollback=True):  # the check sees one wrong count
        # the fold's lock before the aggregate row, in the order every writer of counts takes them
        db.execute("SELECT pg_advisory_xact_lock(%s)", (FOLD_LOCK,))
        db.execute("UPDATE agg_deck_rounds SET might_sum = might_sum + 1 WHERE ctid = "
                   "(SELECT ctid FROM agg_deck_rounds WHERE games > 0 LIMIT 1)")
        assert recount_differences(db)["agg_deck_rounds"] == 1
    assert event_game_counts(db) == dict(((e, s), n) for e, s, n in db.execute(
        "SELECT event_id, status, count(*) FROM games GROUP BY event_id, status"))

    # the same bundle again: nothing new
    again = admin_client.post(f"/api/v1/events/{event_id}/games", data=body, content_type="application/x-ndjson",
                              headers={"Content-Encoding": "gzip"}).get_json()
    assert (again["accepted"], again["duplicates"]) == (0, BUNDLE_GAMES + 1)  # + the repeat inside it
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (event_id,)).fetchone()[0] == BUNDLE_GAMES


def test_a_simulated_event_loads_straight_into_the_bundle_endpoint_with_the_expected_counts(admin_client):
    """`empyrean simulate` output (flawed on purpose) through the real pipeline: the acceptance report,
    the verdicts and the disputes are exactly what the simulator says they must be."""
    from services.simulation.simulate import SimConfig, simulate

    bundle = simulate(SimConfig(players=16, rounds=3, bot="random", flawed=0.5, seed=3))
    want = bundle.expected()["service"]
    assert all(bundle.flaws.values()), bundle.flaws  # every kind of flaw is in this bundle
    event_id = make_event(admin_client, "Simulated Open")
    body = gzip.compress("".join(json.dumps(log) + "\n" for log in bundle.uploads).encode())
    response = admin_client.post(f"/api/v1/events/{event_id}/games", data=body, content_type="application/x-ndjson",
                                 headers={"Content-Encoding": "gzip"})
    assert response.status_code == 202, response.get_json()
    report = response.get_json()
    assert (report["accepted"], report["duplicates"]) == (want["accepted"], want["duplicate"])
    summary = wait_event_done(admin_client, event_id, want["accepted"])
    assert summary["games"] == {k: want[k] for k in ("valid", "illegal", "mismatch") if want[k]}
    assert summary["open_disputes"] == want["disputes"]


def test_bundles_refused_as_a_whole_store_nothing(admin_client, db):
    event_id = make_event(admin_client, "Refusals")
    for data, ctype, status in ((b"[]", "text/csv", 415), (b"", "application/json", 400),
                                (gzip.compress(b"[" + b" " * 30_000_000 + b"]"), "application/json", 413)):
        response = admin_client.post(f"/api/v1/events/{event_id}/games", data=data, content_type=ctype)
        assert response.status_code == status and response.get_json()["error"]["message"]
    response = admin_client.post("/api/v1/events/424242424/games", data=b"[]", content_type="application/json")
    assert response.status_code == 404
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (event_id,)).fetchone()[0] == 0


@pytest.fixture
def served(app, monkeypatch):
    """The app behind a real HTTP server on a free port, for the command-line client (which sends
    an admin token from EMPYREAN_TOKEN)."""
    from service_helpers import make_token

    monkeypatch.setenv("EMPYREAN_TOKEN", make_token(app, "admin", name="cli test"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_empyrean_upload_single_games_and_a_bundle(served, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for seed in (900, 901):
        (folder / f"game{seed}.json").write_text(json.dumps(self_play(seed)))
    (folder / "broken.json").write_text("[1, 2]")
    runner = CliRunner()
    result = runner.invoke(cli, ["upload", "--api", served, "--wait", str(folder)])
    assert result.exit_code == 1, result.output  # the broken file was refused
    assert result.output.count("VALID") == 2 and "broken.json[0]: REFUSED (400)" in result.output

    bundle = tmp_path / "season.ndjson"
    bundle.write_text("\n".join(json.dumps(self_play(seed)) for seed in range(910, 915)) + "\n")
    result = runner.invoke(cli, ["upload", "--api", served, "--event", "CLI Cup", str(bundle)])
    assert result.exit_code == 0, result.output
    assert "(CLI Cup): accepted 5, duplicates 0, malformed 0, rejected 0" in result.output
    assert "/5 [" in result.stderr  # the progress bar knows its total (0/5 …)

    result = runner.invoke(cli, ["upload", "--api", "http://127.0.0.1:9", str(bundle)])
    assert result.exit_code == 2 and "could not reach the API" in result.output


def test_upload_with_an_event_and_a_bound_uploader_token_says_to_leave_out_the_event(served, app, tmp_path):
    from service_helpers import make_token

    admin = {"Authorization": f"Bearer {os.environ['EMPYREAN_TOKEN']}"}
    event_id = requests.post(f"{served}/api/v1/events", json={"name": "Bound CLI Cup"}, headers=admin,
                             timeout=10).json()["id"]
    bound = make_token(app, "uploader", name="table 3", event_id=event_id)
    log = tmp_path / "game.ndjson"
    log.write_text(json.dumps(self_play(945)) + "\n")
    result = CliRunner().invoke(cli, ["upload", "--api", served, "--token", bound, "--event", "Bound CLI Cup",
                                      str(log)])
    assert result.exit_code == 2 and "leave out --event" in result.output, result.output
    refused = requests.post(f"{served}/api/v1/events", json={"name": "Bound CLI Cup"}, timeout=10,
                            headers={"Authorization": f"Bearer {bound}"})
    assert refused.status_code == 403
    assert refused.json()["error"]["message"].startswith("an uploader token may not do this")
    # without --event, the bound token's games go into its event
    sent = CliRunner().invoke(cli, ["upload", "--api", served, "--token", bound, str(log)])
    assert sent.exit_code == 0, sent.output


def test_upload_wait_names_the_game_as_people_do(served, tmp_path):
    """`upload --wait` and GET /games/{id} name a game of an event's match by its round, table and
    players in seat order (not the match's sorted order)."""
    runner = CliRunner()
    opener = tmp_path / "opener.ndjson"
    opener.write_text(json.dumps(self_play(940)) + "\n")
    assert runner.invoke(cli, ["upload", "--api", served, "--event", "Title Cup", str(opener)]).exit_code == 0
    log = tmp_path / "game.json"
    log.write_text(json.dumps(self_play(941, meta={"event": "Title Cup", "round": 2, "table": 5,
                                                   "players": ["Zed", "Ann"]})))
    result = runner.invoke(cli, ["upload", "--api", served, "--wait", str(log)])
    assert result.exit_code == 0, result.output
    assert "(R2 · T5 · Zed vs Ann) VALID: " in result.output
    game_id = int(result.output.split("game ")[1].split()[0])
    body = requests.get(f"{served}/api/v1/games/{game_id}", timeout=10,
                        headers={"Authorization": f"Bearer {os.environ['EMPYREAN_TOKEN']}"}).json()
    assert body["title"] == "R2 · T5 · Zed vs Ann"
    assert re.match(r"(Zed wins|Ann wins|a draw) \d–\d(, total might \d+–\d+)?( \(\w+–\w+\))?: B1 ", body["message"])


def test_empyrean_upload_finds_the_running_up_and_its_token(served, tmp_path, monkeypatch):
    """No --api: the address and the admin token of the `empyrean up` running with
    EMPYREAN_DATA_DIR (var/service.json, var/api-token), not :8000 with no token."""
    token = os.environ["EMPYREAN_TOKEN"]
    monkeypatch.delenv("EMPYREAN_TOKEN")
    monkeypatch.delenv("EMPYREAN_API_URL", raising=False)
    data = tmp_path / "var"
    data.mkdir()
    monkeypatch.setenv("EMPYREAN_DATA_DIR", str(data))
    log = tmp_path / "game.json"
    log.write_text(json.dumps(self_play(930)))
    runner = CliRunner()
    # no `up` in this data folder and no token: it says how, and sends nothing anywhere
    nobody = runner.invoke(cli, ["upload", str(log)])
    assert nobody.exit_code == 2 and "no `empyrean up` was found running" in nobody.output
    assert str(data.resolve()) in nobody.output and "--token" in nobody.output
    (data / "service.json").write_text(json.dumps({"api_url": f"{served}/api/v1", "database_url": "",
                                                   "redis_url": ""}))
    (data / "api-token").write_text(token + "\n")
    result = runner.invoke(cli, ["upload", "--wait", str(log)])
    assert result.exit_code == 0 and "VALID" in result.output, result.output
    (data / "api-token").write_text("emp_wrong_token\n")
    refused = runner.invoke(cli, ["upload", str(log)])  # the token really is the file's
    assert refused.exit_code == 1 and "REFUSED (401)" in refused.output, refused.output


def test_reprocessing_an_event_replays_its_games_and_counts_them_once(admin_client, db, ingest_config):
    event_id = make_event(admin_client, "Reprocess Cup")
    body = "\n".join(json.dumps(self_play(seed)) for seed in range(700, 706)).encode()
    response = admin_client.post(f"/api/v1/events/{event_id}/games", data=body, content_type="application/x-ndjson")
    assert response.get_json()["accepted"] == 6
    wait_event_done(admin_client, event_id, 6)
    counted = "SELECT deck, sum(games), sum(wins) FROM agg_deck_results WHERE event_id = %s GROUP BY deck ORDER BY deck"
    before = db.execute(counted, (event_id,)).fetchall()
    first_replay = db.execute("SELECT max(replayed_at) FROM verdicts v JOIN games g ON g.id = v.game_id "
                              "WHERE g.event_id = %s", (event_id,)).fetchone()[0]
    pool = create_pool(ingest_config.database_url, max_size=1, name="test-reprocess")
    celery = make_celery(ingest_config)
    try:
        marked, sent = reprocess(pool, celery, event_id=event_id)
        # A game the sweeper happens to be re-sending (this module's sweeper is set to 2 s, and the
        # worker may still be busy with the big bundle) is already on its way and is left alone.
        assert 1 <= marked <= 6 and sent == marked
    finally:
        pool.close()
        celery.close()
    assert wait_event_done(admin_client, event_id, 6)["games"] == {"valid": 6}
    replayed = db.execute("SELECT min(replayed_at) FROM verdicts v JOIN games g ON g.id = v.game_id "
                          "WHERE g.event_id = %s", (event_id,)).fetchone()[0]
    assert replayed > first_replay
    assert db.execute(counted, (event_id,)).fetchall() == before



# --- issue 16: one bundle must not exhaust the API's memory ------------------------------------------


def variants(log: dict, n: int, first: int = 0) -> list[bytes]:
    """``n`` different games (content hashes) from one log: a free meta field numbers them."""
    return [json.dumps({**log, "meta": {**log.get("meta", {}), "x-copy": first + i}}).encode() for i in range(n)]


def post_ndjson(client, event_id: int, lines: list[bytes]):
    return client.post(f"/api/v1/events/{event_id}/games", data=b"\n".join(lines) + b"\n",
                       content_type="application/x-ndjson")


def event_games(db, event_id: int) -> int:
    return db.execute("SELECT count(*) FROM games WHERE event_id = %s", (event_id,)).fetchone()[0]


def test_a_big_bundles_report_lists_at_most_1000_rows_and_every_problem_first(admin_client, db):
    """1,200 new games and then 6 problems: the answer counts every entry, lists 1,000 rows and
    among them the 6 problems at the end of the bundle (what the organiser has to act on)."""
    event_id = make_event(admin_client, "Report Cup")
    good = variants(self_play(4242), 1200)
    bad = [b"not json", b"[1]", b'{"format": "empyrean-log", "x-what": 1}', b"x", b"y", b"z"]
    report = post_ndjson(admin_client, event_id, good + bad).get_json()
    assert (report["received"], report["accepted"], report["malformed"], report["rejected"]) == (1206, 1200, 1, 5)
    rows = report["games"]
    assert len(rows) == 1000 and report["games_omitted"] == 206 and report["problems_omitted"] == 0
    assert [r["index"] for r in rows] == sorted(r["index"] for r in rows)  # bundle order
    assert [r["index"] for r in rows if r["status"] in ("rejected", "malformed")] == list(range(1200, 1206))
    assert report["more"] and f"/api/v1/events/{event_id}" in report["more"]
    assert event_games(db, event_id) == 1201


def test_more_than_1000_problems_are_counted_and_the_rest_said(admin_client, db):
    event_id = make_event(admin_client, "Problem Cup")
    broken = [json.dumps({"format": "empyrean-log", "version": 1, "x-n": i, "decisions": [1] * 300}).encode()
              for i in range(1500)]  # game logs (their format says so) that are malformed: stored
    report = post_ndjson(admin_client, event_id, broken).get_json()
    assert report["malformed"] == 1500 and len(report["games"]) == 1000
    assert report["problems_omitted"] == 500 and report["games_omitted"] == 500
    assert all(len(r["errors"]) <= 11 for r in report["games"])  # 10 and "... more" (all: GET /games/{id})
    assert "more" in report["games"][0]["errors"][-1]["message"]
    assert event_games(db, event_id) == 1500


@pytest.mark.parametrize("lines", [
    [b"x"] * 1_000_000,  # 2 MB of one-letter lines
    [b'{"i":%d}' % i for i in range(100_000)],  # JSON objects, but not game logs
], ids=["1M lines of x", "100k objects without format"])
def test_a_bundle_that_is_not_game_logs_is_refused_and_nothing_stored(admin_client, db, lines):
    event_id = make_event(admin_client, f"Not Logs {len(lines)}")
    response = post_ndjson(admin_client, event_id, lines)
    assert response.status_code == 400, str(response.get_json())[:300]
    message = response.get_json()["error"]["message"]
    assert "not game logs" in message and '"format": "empyrean-log"' in message and "nothing was stored" in message
    assert len(response.get_data()) < 2000
    assert event_games(db, event_id) == 0


def test_a_bundle_over_the_game_limit_is_a_413_that_says_the_limit(ingest_config, db):
    import dataclasses

    from service_helpers import as_admin, running_app

    with running_app(dataclasses.replace(ingest_config, max_bundle_games=50)) as app:
        client = as_admin(app)
        event_id = make_event(client, "Limit Cup")
        logs = [json.dumps({"format": "empyrean-log", "x-n": i}).encode() for i in range(51)]
        response = post_ndjson(client, event_id, logs)
        assert response.status_code == 413
        message = response.get_json()["error"]["message"]
        assert "more than 50 games" in message and "EMPYREAN_MAX_BUNDLE_GAMES" in message, message
        assert event_games(db, event_id) == 0
        assert post_ndjson(client, event_id, logs[:50]).get_json()["malformed"] == 50  # the limit itself is fine


def test_a_bundle_of_1mib_entries_is_stored_a_few_at_a_time(admin_client, db):
    """64 game logs of 1 MiB each (64 MiB): the API holds a few MiB of them at a time, not all 64
    (a batch is 1,000 games or STORE_BATCH_BYTES, whichever comes first)."""
    import tracemalloc

    event_id = make_event(admin_client, "Heavy Cup")
    pad = "p" * (1_048_576 - 100)
    lines = [json.dumps({"format": "empyrean-log", "x-n": i, "x-pad": pad}).encode() for i in range(64)]
    body = b"\n".join(lines)
    tracemalloc.start()
    try:
        response = admin_client.post(f"/api/v1/events/{event_id}/games", data=body,
                                     content_type="application/x-ndjson")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert response.get_json()["malformed"] == 64
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MiB traced while storing"
    assert event_games(db, event_id) == 64
