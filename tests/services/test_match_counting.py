"""One match counts once, and who uploaded a game is the token that did (issue 16), end to end: real
PostgreSQL, Redis, Celery worker and the API.

A match is one event, tournament round, table and set of players (event_matches). Its uploads that
agree count as one game; a match in open dispute counts for nothing; the resolution names the game
that counts; a new log of a resolved match is refused (409); the statistics equal a recount under
that rule (services.games.records.recount_differences)."""

from __future__ import annotations

import json
import secrets
import time
from collections import Counter

from service_helpers import make_token, token_client

from engine.bfe.selfplay import self_play
from services.games.records import COUNTING_RULE, recount_differences
from services.games.status import PENDING

PLAYERS = ["Ana", "Bo"]


def new_event(admin_client, prefix: str) -> str:
    """A new event's name (only POST /events makes events: an upload naming none files nothing)."""
    name = f"{prefix} {secrets.token_hex(3)}"
    assert admin_client.post("/api/v1/events", json={"name": name}).status_code == 201
    return name


def match_meta(event: str) -> dict:
    return {"event": event, "round": 2, "table": "5", "players": PLAYERS, "date": "2026-10-03"}


def logs_won_by(meta: dict, count: int, first_seed: int) -> dict[str, list[dict]]:
    """Self-played logs of this match, by winner (``count`` with each player winning), no draws."""
    by_winner: dict[str, list[dict]] = {name: [] for name in PLAYERS}
    seed = first_seed
    while any(len(found) < count for found in by_winner.values()):
        log = self_play(seed, meta=meta)
        seed += 1
        winner = log["result"]["winner"]
        if winner in (1, 2) and len(by_winner[PLAYERS[winner - 1]]) < count:
            by_winner[PLAYERS[winner - 1]].append(log)
    return by_winner


def upload(client, log: dict, **headers):
    return client.post("/api/v1/games", data=json.dumps(log), content_type="application/json", headers=headers)


def finished(client, game_id: int, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/v1/games/{game_id}").get_json()
        if body["status"] not in PENDING:
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.3)


def event_games_counted(db, event_id: int) -> int:
    """Games of the event in the statistics (agg_first_player counts each counted game once)."""
    return db.execute("SELECT coalesce(sum(games), 0) FROM agg_first_player WHERE event_id = %s",
                      (event_id,)).fetchone()[0]


def deck_games(db, event_id: int) -> Counter:
    return Counter({deck: n for deck, n in db.execute(
        "SELECT deck, sum(games) FROM agg_deck_results WHERE event_id = %s GROUP BY deck HAVING sum(games) <> 0",
        (event_id,))})


def quiet_recount(db) -> dict[str, int]:
    """recount_differences once nothing is pending (a fold may still be finishing)."""
    deadline = time.monotonic() + 60
    while db.execute("SELECT count(*) FROM game_records WHERE pending").fetchone()[0]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    with db.transaction():
        return recount_differences(db)


def test_a_disputed_match_counts_once_only_the_game_its_resolution_names(admin_client, db):
    event = new_event(admin_client, "Count Once Open")
    meta = match_meta(event)
    logs = logs_won_by(meta, 2, 16_000)
    first, second, third = logs["Ana"][0], logs["Bo"][0], logs["Ana"][1]

    a = upload(admin_client, first).get_json()["id"]
    game = finished(admin_client, a)
    assert game["status"] == "valid"
    event_id = game["event_id"]
    assert event_games_counted(db, event_id) == 1

    # a second log that disagrees opens the dispute and takes the counted game out
    b = upload(admin_client, second).get_json()["id"]
    assert finished(admin_client, b)["status"] == "valid"
    assert event_games_counted(db, event_id) == 0
    [dispute] = admin_client.get(f"/api/v1/disputes?event={event_id}").get_json()["disputes"]
    why = admin_client.get(f"/api/v1/games/{a}").get_json()["statistics"]
    assert why["counted"] is False and f"in dispute (dispute {dispute['id']})" in why["why"]
    # a third valid log: still nothing counts while the dispute is open
    c = upload(admin_client, third).get_json()["id"]
    assert finished(admin_client, c)["status"] == "valid"
    assert event_games_counted(db, event_id) == 0
    assert set(quiet_recount(db).values()) == {0}

    # the resolution names the game that counts (and must name one of the match's valid games, or none)
    url = f"/api/v1/disputes/{dispute['id']}/resolve"
    missing = admin_client.post(url, json={"resolution": "Bo won"})
    assert missing.status_code == 400 and missing.get_json()["error"]["pointer"] == "/counts"
    stranger = admin_client.post(url, json={"resolution": "Bo won", "counts": 987654})
    assert stranger.status_code == 400 and "not an upload of this match" in stranger.get_json()["error"]["message"]
    resolved = admin_client.post(url, json={"resolution": "Bo won: game B stands", "counts": b})
    assert resolved.status_code == 200, resolved.get_json()
    body = resolved.get_json()
    assert body["status"] == "resolved" and body["counts"] == b
    assert {s["game"]: s["counted"] for s in body["sides"]} == {a: False, b: True, c: False}
    assert event_games_counted(db, event_id) == 1
    assert deck_games(db, event_id) == Counter(second["setup"]["decks"])  # B's decks, one game each seat
    assert set(quiet_recount(db).values()) == {0}

    # a new log of the settled match is refused, not joined silently; the same bytes again are a duplicate
    later = self_play(16_500, meta=meta)
    refused = upload(admin_client, later)
    assert refused.status_code == 409, refused.get_json()
    error = refused.get_json()["error"]
    assert error["dispute"] == dispute["id"] and "settled by its organiser" in error["message"]
    bundle = admin_client.post(f"/api/v1/events/{event_id}/games", data=json.dumps([self_play(16_501, meta=meta)]),
                               content_type="application/json").get_json()
    assert (bundle["accepted"], bundle["rejected"]) == (0, 1)
    assert bundle["games"][0]["status"] == "rejected" and bundle["games"][0]["dispute"] == dispute["id"]
    assert upload(admin_client, first).status_code == 200  # a duplicate: nothing new
    assert db.execute("SELECT count(*) FROM games WHERE event_id = %s", (event_id,)).fetchone()[0] == 3
    after = admin_client.get(f"/api/v1/disputes/{dispute['id']}").get_json()
    assert (after["status"], after["counts"], after["games"]) == ("resolved", b, 3)
    assert event_games_counted(db, event_id) == 1
    assert set(quiet_recount(db).values()) == {0}


def test_agreeing_uploads_of_a_match_by_two_uploaders_count_as_one_game(app, admin_client, db):
    event = new_event(admin_client, "Two Seats Cup")
    meta = match_meta(event)
    log = logs_won_by(meta, 1, 17_000)["Ana"][0]
    # the same game recorded at the other seat: same result and verdict, other bytes
    other_seat = json.loads(json.dumps(log))
    other_seat["meta"]["x-recorded-at"] = "seat 2"
    ana = token_client(app, make_token(app, "uploader", name="Ana's phone"))
    bo = token_client(app, make_token(app, "uploader", name="Bo's phone"))
    first = upload(ana, log).get_json()["id"]
    finished(ana, first)
    second = upload(bo, other_seat).get_json()["id"]
    assert second != first and finished(bo, second)["status"] == "valid"

    event_id = admin_client.get(f"/api/v1/games/{first}").get_json()["event_id"]
    assert admin_client.get(f"/api/v1/disputes?event={event_id}&status=all").get_json()["disputes"] == []
    assert event_games_counted(db, event_id) == 1
    assert admin_client.get(f"/api/v1/games/{first}").get_json()["statistics"]["counted"] is True
    duplicate = admin_client.get(f"/api/v1/games/{second}").get_json()["statistics"]
    assert duplicate["counted"] is False and f"game {first}, an earlier upload of the same match" in duplicate["why"]
    differences = quiet_recount(db)
    assert differences[COUNTING_RULE] == 0 and set(differences.values()) == {0}


def test_the_uploader_is_the_token_not_the_header_it_sends(app, admin_client, db):
    event = new_event(admin_client, "Forgery Open")
    meta = match_meta(event)
    logs = logs_won_by(meta, 1, 18_000)
    player = token_client(app, make_token(app, "uploader", name="a player"))
    forged = upload(player, logs["Bo"][0], **{"X-Uploader": "orgA (official scorer)"})
    assert forged.status_code == 202
    game_id = forged.get_json()["id"]
    game = finished(player, game_id)
    assert game["uploaded_by"] == {"owner": "a player", "name": "a player", "role": "uploader"}
    assert game["uploader_label"] == "orgA (official scorer)"  # a label, shown as one
    assert game["uploader"] == "a player"  # who uploaded it: the token's owner, whatever the label says
    # another player's token, not an admin's: an admin's upload is standing for the match and the
    # player's would then open no dispute (issue 26: tests/services/test_standing_uploads.py)
    judge = token_client(app, make_token(app, "uploader", name="table judge's phone", owner="table judge"))
    honest = upload(judge, logs["Ana"][0], **{"X-Uploader": "table judge"}).get_json()["id"]
    finished(admin_client, honest)
    [dispute] = admin_client.get(f"/api/v1/disputes?event={game['event_id']}").get_json()["disputes"]
    sides = {s["game"]: s for s in admin_client.get(f"/api/v1/disputes/{dispute['id']}").get_json()["sides"]}
    assert sides[game_id]["uploaded_by"]["role"] == "uploader"
    assert sides[game_id]["uploader_label"] == "orgA (official scorer)" and sides[game_id]["uploader"] == "a player"
    assert sides[honest]["uploaded_by"] == {"owner": "table judge", "name": "table judge's phone", "role": "uploader"}
    stored = db.execute("SELECT t.owner, uploaded_by_owner, uploaded_by_role, uploader FROM games g "
                        "JOIN api_tokens t ON t.id = g.uploaded_by WHERE g.id = %s", (game_id,)).fetchone()
    assert stored == ("a player", "a player", "uploader", "orgA (official scorer)")  # the token's id, and its words
    # the event page shows the token apart from the label
    page = admin_client.get(f"/events/{game['event_id']}/disputes.csv").get_data(as_text=True)
    assert "counts" in page.splitlines()[0]
