"""Who may open a dispute (issue 26, "a match paused by anyone"), end to end: real PostgreSQL, Redis,
Celery worker and the API.

An upload is standing for its match when its token is an admin's, the event organiser's or bound to
the event, or when it came with none (services.games.disputes, "Standing uploads"). When a match has
a standing upload the rule reads those only: another uploader's log of the match is stored, replayed
and verified, and shown with its own verdict, but it neither counts nor opens a dispute, and the
standings do not move. A match with no standing upload is read whole, as before."""

from __future__ import annotations

import json
import secrets

import pytest
from service_helpers import make_token, token_client
from test_match_counting import event_games_counted, finished, logs_won_by, quiet_recount, upload

from engine.bfe.selfplay import self_play
from services.games.store import parse_upload, store_upload
from services.platform.tokens import create_token

PLAYERS = ["Ana", "Bo"]


@pytest.fixture
def event(app):
    """A new event of a new organiser: its id and name, the organiser's client, a client of a token
    bound to it, and two players' clients (unbound uploader tokens of other owners)."""
    owner = f"Org {secrets.token_hex(3)}"
    org = token_client(app, make_token(app, "organiser", owner=owner, name="scorer"))
    name = f"Standing Open {secrets.token_hex(3)}"
    created = org.post("/api/v1/events", json={"name": name})
    assert created.status_code == 201, created.get_json()
    event_id = created.get_json()["id"]
    return {"id": event_id, "name": name, "owner": owner, "org": org,
            "bound": token_client(app, make_token(app, "uploader", name="table 5", event_id=event_id)),
            "ana": token_client(app, make_token(app, "uploader", name="Ana's phone")),
            "bo": token_client(app, make_token(app, "uploader", name="Bo's phone"))}


def meta(event: dict, table: str) -> dict:
    return {"event": event["name"], "round": 1, "table": table, "players": PLAYERS, "date": "2026-11-20"}


def uploaded(client, log: dict) -> dict:
    """The upload's answer (202), once its game is replayed: {"answer", "game"}."""
    sent = upload(client, log)
    assert sent.status_code == 202, sent.get_json()
    answer = sent.get_json()
    return {"answer": answer, "game": finished(client, answer["id"])}


def disputes(client, event_id: int) -> list[dict]:
    return client.get(f"/api/v1/disputes?event={event_id}&status=all").get_json()["disputes"]


def standings(client, event_id: int) -> tuple[int, list[tuple]]:
    body = client.get(f"/api/v1/events/{event_id}/standings").get_json()
    return body["counted_matches"], [(r["rank"], r["player"], r["points"], r["left_out"]) for r in body["standings"]]


def test_another_uploaders_disagreeing_log_neither_pauses_the_match_nor_moves_the_standings(client, event, db):
    logs = logs_won_by(meta(event, "5"), 2, 40_000)
    official = uploaded(event["org"], logs["Ana"][0])
    assert official["answer"]["standing"] is True and "standing_note" not in official["answer"]
    assert official["game"]["status"] == "valid" and official["game"]["statistics"]["counted"] is True
    before = standings(client, event["id"])
    assert before == (1, [(1, "Ana", 3, 0), (2, "Bo", 0, 0)])

    # Bo, with a token of his own, uploads a log of the match that says he won
    claim = uploaded(event["bo"], logs["Bo"][0])
    answer, game = claim["answer"], claim["game"]
    assert answer["standing"] is False
    assert "not standing for this match" in answer["standing_note"]
    assert "neither counts nor opens a dispute" in answer["standing_note"]
    assert game["status"] == "valid" and game["verdict"]["status"] == "valid"  # verified: its own verdict
    assert game["match_id"] == official["game"]["match_id"] and game["dispute_id"] is None
    stats = game["statistics"]
    assert stats["counted"] is False and stats["standing"] is False
    assert "not standing for this match" in stats["why"] and "opens no dispute" in stats["why"]
    assert f"game {official['answer']['id']} counts for the match" in stats["why"]
    assert disputes(client, event["id"]) == []
    assert event_games_counted(db, event["id"]) == 1
    assert client.get(f"/api/v1/games/{official['answer']['id']}").get_json()["statistics"]["counted"] is True
    assert standings(client, event["id"]) == before
    assert set(quiet_recount(db).values()) == {0}

    # the event's bound token disagreeing with the organiser: a dispute, as before issue 26
    bound = uploaded(event["bound"], logs["Bo"][1])
    assert bound["answer"]["standing"] is True
    [dispute] = disputes(client, event["id"])
    assert dispute["status"] == "open"
    assert "by tokens standing for it (and 1 by tokens that are not" in dispute["reason"]
    sides = {s["game"]: s["standing"] for s in client.get(dispute["url"]).get_json()["sides"]}
    assert sides == {official["answer"]["id"]: True, claim["answer"]["id"]: False, bound["answer"]["id"]: True}
    assert event_games_counted(db, event["id"]) == 0
    assert standings(client, event["id"]) == (0, [(1, "Ana", 0, 1), (1, "Bo", 0, 1)])
    assert set(quiet_recount(db).values()) == {0}


def test_the_organisers_disagreeing_log_opens_the_dispute_as_before(client, event, db):
    logs = logs_won_by(meta(event, "6"), 1, 41_000)
    first = uploaded(event["bound"], logs["Ana"][0])
    assert event_games_counted(db, event["id"]) == 1
    second = uploaded(event["org"], logs["Bo"][0])
    assert (first["answer"]["standing"], second["answer"]["standing"]) == (True, True)
    [dispute] = disputes(client, event["id"])
    assert dispute["status"] == "open" and "standing" not in dispute["reason"]
    assert event_games_counted(db, event["id"]) == 0
    assert standings(client, event["id"])[0] == 0
    assert set(quiet_recount(db).values()) == {0}


def test_a_standing_upload_outweighs_an_earlier_players_log_of_the_match(client, event, db):
    """Ana's own log counted while it was the match's only upload; the organiser's log of the match,
    which says Bo won, takes its place without a dispute: the rule now reads the organiser's only."""
    logs = logs_won_by(meta(event, "7"), 1, 42_000)
    players = uploaded(event["ana"], logs["Ana"][0])
    assert players["answer"]["standing"] is False and players["game"]["statistics"]["counted"] is True
    assert standings(client, event["id"]) == (1, [(1, "Ana", 3, 0), (2, "Bo", 0, 0)])
    official = uploaded(event["org"], logs["Bo"][0])
    assert disputes(client, event["id"]) == []
    assert client.get(f"/api/v1/games/{official['answer']['id']}").get_json()["statistics"]["counted"] is True
    assert client.get(f"/api/v1/games/{players['answer']['id']}").get_json()["statistics"]["counted"] is False
    assert event_games_counted(db, event["id"]) == 1
    assert standings(client, event["id"]) == (1, [(1, "Bo", 3, 0), (2, "Ana", 0, 0)])
    assert set(quiet_recount(db).values()) == {0}


def test_a_match_with_only_uploads_that_are_not_standing_is_disputed_as_before(app, client, event, db):
    logs = logs_won_by(meta(event, "8"), 1, 43_000)
    ana = uploaded(event["ana"], logs["Ana"][0])
    assert event_games_counted(db, event["id"]) == 1
    # an organiser of other events is not standing for this one either
    stranger = token_client(app, make_token(app, "organiser", owner=f"Other {secrets.token_hex(3)}"))
    other = uploaded(stranger, logs["Bo"][0])
    assert (ana["answer"]["standing"], other["answer"]["standing"]) == (False, False)
    [dispute] = disputes(client, event["id"])
    assert dispute["status"] == "open" and "standing" not in dispute["reason"]
    assert event_games_counted(db, event["id"]) == 0
    assert f"in dispute (dispute {dispute['id']})" in client.get(
        f"/api/v1/games/{ana['answer']['id']}").get_json()["statistics"]["why"]
    assert standings(client, event["id"])[0] == 0
    assert set(quiet_recount(db).values()) == {0}
    # a log of no match (no round, table or players) is no one's to dispute: nothing said of standing
    alone = upload(event["ana"], self_play(43_100, meta={"event": event["name"]}))
    assert alone.status_code == 202 and "standing" not in alone.get_json()
    assert client.get(f"/api/v1/games/{alone.get_json()['id']}").get_json()["statistics"]["standing"] is None


def test_standing_is_decided_at_upload_from_the_token_and_the_event(event, db):
    """The one definition (services.games.disputes.STANDING_SQL), as every upload writes it."""
    other_event = db.execute("INSERT INTO events (name, organiser) VALUES (%s, 'someone') RETURNING id",
                             (f"Elsewhere {secrets.token_hex(3)}",)).fetchone()[0]
    tokens = {
        "admin": (create_token(db, "admin", name="an admin")[1], True),
        "the organiser": (create_token(db, "organiser", owner=event["owner"])[1], True),
        "another organiser": (create_token(db, "organiser", owner="Someone Else")[1], False),
        "bound to the event": (create_token(db, "uploader", event_id=event["id"])[1], True),
        "bound to another event": (create_token(db, "uploader", event_id=other_event)[1], False),
        "an unbound uploader": (create_token(db, "uploader", name="a player")[1], False),
        "no token": (None, True),
    }
    for n, (who, (token, want)) in enumerate(tokens.items()):
        log = self_play(44_000 + n, meta=meta(event, f"s{n}"))
        with db.transaction():
            stored = store_upload(db, parse_upload(json.dumps(log).encode()), None, event_id=event["id"],
                                  uploaded_by=token)
        assert stored.match_id is not None, who
        assert stored.standing is want, who
        assert db.execute("SELECT standing FROM games WHERE id = %s", (stored.id,)).fetchone()[0] is want, who
        again = store_upload(db, parse_upload(json.dumps(log).encode()), None, event_id=event["id"])
        assert again.duplicate and again.standing is want, who  # a duplicate answers the stored row's
