"""Titans of Empyrean through the whole service, with real PostgreSQL, Redis and a Celery worker: an
event of game ``titans``, a simulated Titans tournament uploaded into it as one bundle (every kind of
flaw in it), every game judged as the bundle expects, its species counted by
``/api/v1/stats/titans/factions``; and a Titans log refused by an event of Battle for Empyrean, naming
both games."""

from __future__ import annotations

import pytest
from extra_game import ndjson
from ranked_games import faction_counts
from tournament import wait_event_done

from engine.games import rules_for
from services.simulation.simulate import SimConfig, simulate

TITANS = "titans"
TITANS_WORDS, BFE_WORDS = "Titans of Empyrean (titans)", "Battle for Empyrean (bfe)"


@pytest.fixture(scope="module")
def bundle():
    """12 players, 3 rounds, more than half of the matches flawed: every kind of flaw (seed 1)."""
    made = simulate(SimConfig(game=TITANS, players=12, rounds=3, bot="random", flawed=0.6, seed=1,
                              name="Titans Open"))
    assert all(made.flaws.values()), made.flaws
    return made


def test_a_simulated_titans_event_is_judged_and_counted_as_the_simulator_expects(admin_client, client, db, bundle):
    want = bundle.expected()["service"]
    created = admin_client.post("/api/v1/events", json={"name": "Titans Open", "game": TITANS})
    assert created.status_code == 201 and created.get_json()["game"] == TITANS, created.get_json()
    event = created.get_json()["id"]
    answer = admin_client.post(f"/api/v1/events/{event}/games", data=ndjson(*bundle.uploads),
                               content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    report = answer.get_json()
    assert (report["accepted"], report["duplicates"], report["rejected"]) == (want["accepted"], want["duplicate"], 0)

    # every game judged: the event's games are all valid, illegal or mismatched, as many as expected
    summary = wait_event_done(admin_client, event, want["accepted"])
    assert summary["games"] == {k: want[k] for k in ("valid", "illegal", "mismatch")}, summary
    assert summary["open_disputes"] == want["disputes"]
    judged = db.execute("SELECT g.game, count(v.game_id) FROM games g LEFT JOIN verdicts v ON v.game_id = g.id "
                        "WHERE g.event_id = %s GROUP BY g.game", (event,)).fetchall()
    assert judged == [(TITANS, want["accepted"])]

    # counted: each species as the logs that count say (a disputed match's games and flawed ones not)
    assert len(bundle.counted) == want["valid"] - want["disputes"]
    stats = client.get(f"/api/v1/stats/{TITANS}/factions?event={event}&min_games=0")
    assert stats.status_code == 200, stats.get_json()
    rows = stats.get_json()["rows"]
    assert {row["faction"]: [row["games"], row["wins"], row["draws"]] for row in rows} == \
        faction_counts(TITANS, bundle.counted)
    assert all(row["win_rate"]["n"] == row["games"] for row in rows)


def test_a_titans_upload_into_a_battle_for_empyrean_event_is_refused_naming_both_games(admin_client, db):
    bfe_event = admin_client.post("/api/v1/events", json={"name": "Not Titans"}).get_json()
    # games no other test stored (a log stored already is a duplicate, wherever it is sent)
    logs = [rules_for(TITANS).self_play(seed, meta={"round": 1, "table": str(seed), "players": ["Ode", "Pia"]})
            for seed in range(900, 904)]
    single = admin_client.post("/api/v1/games", json={**logs[0], "meta": {"event": "Not Titans"}})
    assert single.status_code == 409, single.get_json()
    error = single.get_json()["error"]
    assert error["pointer"] == "/game" and (error["game"], error["event_game"]) == (TITANS, "bfe")
    assert f"a game of {TITANS_WORDS} but event 'Not Titans' is for {BFE_WORDS}" in error["message"]
    # as a bundle into that event: each entry rejected with the same words, nothing stored
    answer = admin_client.post(f"/api/v1/events/{bfe_event['id']}/games", data=ndjson(*logs[1:]),
                               content_type="application/x-ndjson").get_json()
    assert (answer["accepted"], answer["rejected"]) == (0, 3), answer
    assert all(TITANS_WORDS in row["error"] and BFE_WORDS in row["error"] for row in answer["games"])
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (bfe_event["id"],)).fetchone()[0] == 0
