"""Elysian Battlefields through the whole service, with real PostgreSQL, Redis and a Celery worker: an
event of game ``elysian``, a bundle of self-played games at 2 to 5 players seated as a small event's
tables (round and table in meta) uploaded into it, every game judged valid, the standings ranked by
place (services.games.points: a point per player finished ahead of), and the statistics answering
at every table size. (``empyrean simulate --game elysian`` seats two players drawn from one pool of
heroes and can ask a hero taken already; this bundle is made with the game's own self-play.)"""

from __future__ import annotations

from extra_game import ndjson
from ranked_games import place_points
from tournament import wait_event_done

from engine.elysian.rules import RULES

NAME = "Elysian Pipeline Open"
PLAYERS = ("Ana", "Ben", "Cy", "Di", "Eve", "Fay", "Gus")
# (round, table, seats, seed): every table size the game seats
TABLES = [(1, "1", PLAYERS[:2], 11), (1, "2", PLAYERS[2:5], 12), (2, "1", PLAYERS[:4], 13),
          (2, "2", PLAYERS[2:7], 14)]


def test_an_elysian_event_is_judged_ranked_by_place_and_counted(admin_client, client, db):
    created = admin_client.post("/api/v1/events", json={"name": NAME, "game": "elysian"})
    assert created.status_code == 201 and created.get_json()["game"] == "elysian", created.get_json()
    event = created.get_json()
    logs = [RULES.self_play(seed, bot="random", players=len(seats),
                            meta={"event": NAME, "round": rnd, "table": table, "players": list(seats),
                                  "date": "2026-12-02"})
            for rnd, table, seats, seed in TABLES]
    answer = admin_client.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs),
                               content_type="application/x-ndjson")
    assert answer.status_code == 202 and answer.get_json()["accepted"] == len(logs), answer.get_json()
    assert wait_event_done(admin_client, event["id"], len(logs))["games"] == {"valid": len(logs)}
    judged = db.execute("SELECT count(*) FROM verdicts v JOIN games g ON g.id = v.game_id WHERE g.event_id = %s",
                        (event["id"],)).fetchone()[0]
    assert judged == len(logs)

    standings = client.get(event["standings_url"]).get_json()
    assert standings["counted_matches"] == len(logs)
    assert {r["player"]: r["points"] for r in standings["standings"]} == place_points(logs)

    for _, _, seats, _ in TABLES:
        heroes = client.get(f"/api/v1/stats/elysian/heroes?event={event['id']}&players={len(seats)}&min_games=0")
        assert heroes.status_code == 200 and heroes.get_json()["summary"]["games"] == 1, heroes.get_json()
        assert sum(r["games"] for r in heroes.get_json()["rows"]) == len(seats)
        dice = client.get(f"/api/v1/stats/elysian/dice?event={event['id']}&players={len(seats)}&min_games=0")
        assert dice.status_code == 200
        assert {r["player"] for r in dice.get_json()["rows"]} == set(seats)
        assert [r["event"] for r in dice.get_json()["events"]] == [NAME]
