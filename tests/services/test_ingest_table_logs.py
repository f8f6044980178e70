"""Logs as people write them at a table, through the whole pipeline: games that end early (a
concession, time called) and a log written from one seat, uploaded to the API (real PostgreSQL,
Redis and a Celery worker; tests/services/service_fixtures.py).

A game that ended early counts in results and win rates but not in the figures about the shape of
a played-out game (final margins, might by round: services.games.records); a seat's view is valid and
its verdict says how many of the other player's cards were never seen."""

from __future__ import annotations

import json
from collections import Counter

from jsonschema import Draft202012Validator
from service_helpers import ended_early, wait_final

from engine.bfe.selfplay import self_play
from engine.replay import replay
from engine.seats import as_recorded, seat_view
from services.api.openapi import document
from services.games.dispatch import mark_reprocess
from services.games.records import recount_differences
from services.games.replay import replay_stored_games
from services.platform.pool import create_pool


def upload(client, log: dict) -> int:
    response = client.post("/api/v1/games", data=json.dumps(log).encode(), content_type="application/json")
    assert response.status_code == 202, response.get_json()
    return response.get_json()["id"]


def assert_documented(game: dict) -> None:
    """The answer of GET /games/{id} is what services/api/openapi.yaml says (its Game schema)."""
    doc = document()
    validator = Draft202012Validator({"$ref": "#/components/schemas/Game", "components": doc["components"]})
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(game)]
    assert not errors, errors


def stats(client, endpoint: str, event_id: int) -> dict:
    response = client.get(f"/api/v1/stats/{endpoint}?event={event_id}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_games_that_end_early_count_in_results_but_not_in_margins_or_rounds(admin_client, db, ingest_config):
    meta = {"event": "Early Endings Cup", "date": "2026-04-04"}
    played_out = self_play(9101, meta=meta)
    conceded = ended_early(9102, meta, 6, {"winner": 1, "reason": "concession"}, concede="P2 concede")
    timed = ended_early(9103, meta, 7, {"winner": None, "reason": "time", "time_rule": "draw"})
    ids = [upload(admin_client, log) for log in (played_out, conceded, timed)]
    games = [wait_final(admin_client, game_id) for game_id in ids]
    assert [g["status"] for g in games] == ["valid"] * 3, [g["message"] for g in games]

    full, by_concession, by_time = (g["record"] for g in games)
    assert (full["end_reason"], full["conceded_by"]) == ("score", None)
    assert (by_concession["end_reason"], by_concession["conceded_by"], by_concession["winner"]) == (
        "concession", 2, 1)
    assert games[1]["verdict"]["message"].startswith("P2 conceded in round 6; P1 wins")
    assert [r["round"] for r in by_concession["rounds"]] == [1, 2, 3, 4, 5]  # stopped in round 6
    assert (by_time["end_reason"], by_time["conceded_by"], by_time["winner"]) == ("time", None, None)
    assert [r["round"] for r in by_time["rounds"]] == [1, 2, 3, 4, 5, 6]  # stopped in round 7
    assert all(r["counted"] for r in (full, by_concession, by_time))
    for game in games:
        assert_documented(game)

    event_id = games[0]["event_id"]
    seats = [(s["deck"], s["won"], r["winner"] is None) for r in (full, by_concession, by_time) for s in r["seats"]]

    def expected_decks() -> dict:
        out: dict = {}
        for deck, won, draw in seats:
            games_, wins, draws = out.get(deck, (0, 0, 0))
            out[deck] = (games_ + 1, wins + won, draws + draw)
        return out

    def observed() -> dict:
        decks = {r["deck"]: (r["games"], r["wins"], r["draws"]) for r in stats(admin_client, "decks", event_id)["rows"]}
        margins = stats(admin_client, "margins", event_id)
        rounds = Counter()
        for r in stats(admin_client, "rounds", event_id)["rows"]:
            rounds[(r["deck"], r["round"])] += r["games"]
        first = stats(admin_client, "first-player", event_id)["overall"]
        return {"decks": decks, "margins": (margins["summary"]["games"], [(m["margin"], m["games"])
                                                                          for m in margins["rows"]]),
                "rounds": +rounds, "first_player": (first["games"], first["draws"])}

    seen = observed()
    # results and win rates: all three games (the timed one a draw)
    assert seen["decks"] == expected_decks()
    assert seen["first_player"] == (3, 1)
    # the shape of a played-out game: the played-out game alone
    assert seen["margins"] == (1, [(full["margin"], 1)])
    full_decks = Counter(s["deck"] for s in full["seats"])
    assert seen["rounds"] == Counter({(deck, rnd): n for deck, n in full_decks.items() for rnd in range(1, 11)})

    # reprocessed (taken out, put back): nothing moves, and the aggregates equal a recount
    pool = create_pool(ingest_config.database_url, max_size=1, name="test-early-endings")
    try:
        for game_id in ids:
            assert mark_reprocess(db, game_ids=[game_id]) == [game_id]
            assert replay_stored_games(pool, [game_id]).get(game_id) == "valid"
    finally:
        pool.close()
    assert observed() == seen
    assert set(recount_differences(db).values()) == {0}


def test_a_log_written_from_one_seat_is_valid_and_says_how_many_cards_were_not_seen(admin_client, db):
    full = as_recorded(self_play(9201, meta={"event": "Seat View Open", "date": "2026-04-05"}))
    view = seat_view(full, 1)
    assert view["chance"]["view"] == 1  # P2's draws and keeps are not written: P1 did not see them
    assert not any(line.startswith(("C draw P2", "P2 keep")) for line in view["decisions"])
    expected = replay(view).verdict
    assert expected.status == "valid" and expected.unseen[0] == 0 and expected.unseen[1] > 0

    game = wait_final(admin_client, upload(admin_client, view))
    assert game["status"] == "valid", game["message"]
    verdict = game["verdict"]
    assert verdict["unseen"] == expected.unseen
    assert f"{expected.unseen[1]} of P2's cards were not seen" in verdict["message"]
    assert [s["unseen"] for s in game["record"]["seats"]] == expected.unseen
    assert game["record"]["end_reason"] == "score"
    assert_documented(game)
    # the same game written with every card seen: nothing unseen
    whole = wait_final(admin_client, upload(admin_client, full))
    assert whole["status"] == "valid" and whole["verdict"]["unseen"] == [0, 0]
    assert db.execute("SELECT unseen FROM verdicts WHERE game_id = %s", (game["id"],)).fetchone()[0] == expected.unseen
