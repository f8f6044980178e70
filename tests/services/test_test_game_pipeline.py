"""The test game (Pips, tests/games/pips.py) through the whole service, with real PostgreSQL, Redis
and a Celery worker: a game other than Battle for Empyrean is uploaded into an event of its own,
replayed by the worker to its verdict, recorded and counted, and its statistics answer.

Both the worker and the API here register Pips as a deployment would register a game of its own:
``EMPYREAN_EXTRA_GAMES`` (services.platform.games). The API is in this process, so Pips is taken out
of the registry again when the module ends: no other test sees it."""

from __future__ import annotations

import json
import time

import pytest
from extra_game import ndjson, registered_for_the_module
from markupsafe import escape
from tournament import wait_event_done

from engine.replay import replay
from engine.seats import as_recorded, seat_view

PIPS = "pips"
EXTRA_GAMES = "tests.games.pips:RULES"

ingest_config, game_forgotten_afterwards, rules = registered_for_the_module(EXTRA_GAMES, PIPS)


def test_a_test_games_catalog_is_served_under_its_key(client, rules):
    """GET /api/v1/catalog?game=pips lists Pips' own versions; each version is its rules' data."""
    listing = client.get(f"/api/v1/catalog?game={PIPS}").get_json()
    assert listing["game"] == PIPS and listing["versions"] == rules.catalog_versions()
    data = client.get(listing["urls"][listing["default"]]).get_json()
    assert data == rules.catalog_data(listing["default"]) and data["notice"]
    missing = client.get(f"/api/v1/catalog/2026.1?game={PIPS}")
    assert missing.status_code == 404 and "Pips" in missing.get_json()["error"]["message"]


def test_a_test_game_goes_from_upload_to_its_statistics(admin_client, client, db, rules):
    created = admin_client.post("/api/v1/events", json={"name": "Pips Night", "game": PIPS})
    assert created.status_code == 201 and created.get_json()["game"] == PIPS, created.get_json()
    event = created.get_json()["id"]
    seeded = [dict(rules.self_play(seed), meta={"date": "2026-11-02", "players": ["Ana", "Ben"]})
              for seed in range(20)]
    # as written at a table: recorded chance, and one seat's view
    table = [as_recorded(rules.self_play(100)), seat_view(as_recorded(rules.self_play(101)), 2)]
    illegal = dict(rules.self_play(200))
    illegal["decisions"] = [illegal["decisions"][1], *illegal["decisions"][1:]]  # P2's card played by P1 first
    logs = [*seeded, *table, illegal]
    answer = admin_client.post(f"/api/v1/events/{event}/games", data=ndjson(*logs),
                               content_type="application/x-ndjson")
    assert answer.status_code in (200, 202), answer.get_json()
    done = wait_event_done(admin_client, event, len(logs))
    assert done["games"] == {"valid": len(logs) - 1, "illegal": 1}, done

    # each verdict is the engine's, said in Pips's words
    rows = db.execute("SELECT g.raw_log, v.status, v.message, g.game FROM games g JOIN verdicts v ON v.game_id = g.id "
                      "WHERE g.event_id = %s", (event,)).fetchall()
    assert {row[3] for row in rows} == {PIPS}
    for raw, status, message, _ in rows:
        verdict = replay(bytes(raw)).verdict
        assert (status, message) == (verdict.status.value, verdict.message)
    bad = next(message for _, status, message, _ in rows if status == "illegal")
    assert bad.startswith("decision 1 ('P2 play") and "it is P1 plays a card" in bad, bad

    # counted: every seat's faction (its colour), and the statistics of the game answer with them
    expected: dict[str, list[int]] = {}
    for log in [*seeded, *table]:
        result = replay(json.dumps(log).encode())
        for seat, colour in zip(result.outcome.seats, log["setup"]["colours"]):
            counts = expected.setdefault(colour, [0, 0, 0])
            counts[0] += 1
            counts[1] += seat.won
            counts[2] += result.outcome.winner is None
    stats = client.get(f"/api/v1/stats/{PIPS}/factions?event={event}&min_games=0")
    assert stats.status_code == 200, stats.get_json()
    body = stats.get_json()
    got = {row["faction"]: [row["games"], row["wins"], row["draws"]] for row in body["rows"]}
    assert got == expected
    assert all(row["win_rate"]["n"] == row["games"] for row in body["rows"])
    assert sum(row["share"] for row in body["rows"]) == pytest.approx(1)
    listed = client.get(f"/api/v1/stats/{PIPS}").get_json()
    assert listed["game"]["name"] == "Pips (test game)" and [s["name"] for s in listed["statistics"]] == ["factions"]
    # and the game's list, filtered by it
    page = client.get(f"/api/v1/games?game={PIPS}&event={event}&limit=100").get_json()
    assert {item["game"] for item in page["games"]} == {PIPS} and len(page["games"]) == len(logs)


def test_a_test_game_log_is_refused_by_an_event_of_another_game(admin_client, db, rules):
    bfe_event = admin_client.post("/api/v1/events", json={"name": "Not Pips"}).get_json()
    log = rules.self_play(300)
    answer = admin_client.post("/api/v1/games", json={**log, "meta": {"event": bfe_event["name"]}})
    assert answer.status_code == 409, answer.get_json()
    message = answer.get_json()["error"]["message"]
    assert "Pips (test game) (pips)" in message and "Battle for Empyrean (bfe)" in message
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (bfe_event["id"],)).fetchone()[0] == 0


def test_the_replay_page_of_a_game_whose_board_is_not_drawn_lists_its_lines(admin_client, client, db, rules):
    """The viewer draws Battle for Empyrean's board only; another game's replay page answers with the
    verdict and every decision as written, the one at fault marked (never a 500)."""
    log = rules.self_play(400)
    bad = {**log, "decisions": [log["decisions"][1], *log["decisions"][1:]]}
    ids = [admin_client.post("/api/v1/games", json=body).get_json()["id"] for body in (log, bad)]
    for game_id in ids:
        for _ in range(240):
            status = client.get(f"/api/v1/games/{game_id}").get_json()["status"]
            if status not in ("received", "queued", "replaying"):
                break
            time.sleep(0.25)
    good_page, bad_page = (client.get(f"/games/{game_id}/replay") for game_id in ids)
    assert good_page.status_code == bad_page.status_code == 200
    good, wrong = good_page.get_data(as_text=True), bad_page.get_data(as_text=True)
    assert "Pips (test game)" in good and "does not draw" in good and log["decisions"][-1] in good
    assert "not allowed" not in good
    verdict = replay(json.dumps(bad).encode()).verdict
    assert "not allowed" in wrong and str(escape(verdict.rule)) in wrong


def test_a_simulated_pips_event_gives_the_service_counts_the_simulator_expects(admin_client, rules):
    """`empyrean simulate --game pips` output, every kind of flaw in it, through the real pipeline: the
    acceptance report, the verdicts and the disputes are what the bundle's ``expected()`` says."""
    from services.simulation.simulate import SimConfig, simulate

    bundle = simulate(SimConfig(game=PIPS, players=12, rounds=3, bot="random", flawed=0.6, seed=6, name="Pips Open"))
    want = bundle.expected()["service"]
    assert all(bundle.flaws.values()), bundle.flaws
    event = admin_client.post("/api/v1/events", json={"name": "Pips Open", "game": PIPS}).get_json()["id"]
    answer = admin_client.post(f"/api/v1/events/{event}/games", data=ndjson(*bundle.uploads),
                               content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    report = answer.get_json()
    assert (report["accepted"], report["duplicates"]) == (want["accepted"], want["duplicate"])
    summary = wait_event_done(admin_client, event, want["accepted"])
    assert summary["games"] == {k: want[k] for k in ("valid", "illegal", "mismatch") if want[k]}
    assert summary["open_disputes"] == want["disputes"]
