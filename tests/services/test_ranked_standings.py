"""Standings points per event, and a game decided by ranks through the whole service (issue 27), with
real PostgreSQL, Redis and a Celery worker: Pips by rank (tests/games/pips.py, ``pipsrank``: 2 to 4
players, ranks by the pips played, ties sharing a rank) registered as EMPYREAN_EXTRA_GAMES registers a
game, its games uploaded into an event of their own, replayed, recorded (game_seats), counted, and
ranked in the standings by place; an organiser's own points set when the event is made, or later;
bad points refused naming the field.

The expected points are worked out here from the engine's outcome of each log, pairwise — a point
for each opponent finished ahead of, half for each one tied with — not by the service's code (which
shares out places)."""

from __future__ import annotations

import json
import secrets
from fractions import Fraction

import pytest
from click.testing import CliRunner
from extra_game import ndjson, registered_for_the_module
from service_helpers import make_token, panel_rows, served_at
from test_openapi import response_validator
from tournament import wait_event_done

from engine.replay import replay
from services.cli import main as cli

RANKED = "pipsrank"
EXTRA_GAMES = "tests.games.pips:RANKED_RULES"
PLAYERS = ("Ana", "Ben", "Cy", "Di", "Eve", "Fay", "Gus")
WINNER_TAKES_ALL = {"by_rank": {"2": [1, 0], "3": [1, 0, 0], "4": [1, 0, 0, 0]}}


ingest_config, game_forgotten_afterwards, rules = registered_for_the_module(EXTRA_GAMES, RANKED)


def ranks_of(log: dict) -> list[int]:
    return [s.rank for s in replay(json.dumps(log).encode()).outcome.seats]


def a_game(rules, players: int, want, first_seed: int) -> dict:
    """A self-played game at a table of ``players`` whose ranks (by seat) satisfy ``want``."""
    for seed in range(first_seed, first_seed + 2000):
        log = rules.self_play(seed, players=players)
        if want(ranks_of(log)):
            return log
    raise AssertionError("no such game in 2000 seeds")


def at_table(log: dict, event: str, rnd: int, table: str, names) -> dict:
    return {**log, "meta": {"event": event, "round": rnd, "table": table, "players": list(names),
                            "date": "2026-11-28"}}


def pairwise_points(ranks: list[int]) -> list[Fraction]:
    """A point per opponent ranked below, half a point per opponent ranked the same."""
    return [sum(Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)
                for j, theirs in enumerate(ranks) if j != i) for i, mine in enumerate(ranks)]


def make_event(client, game: str | None = RANKED, **fields) -> dict:
    body = {"name": f"Ranked {secrets.token_hex(3)}", **({"game": game} if game else {}), **fields}
    made = client.post("/api/v1/events", json=body)
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def standings_of(client, event: dict) -> dict:
    body = client.get(event["standings_url"]).get_json()
    response_validator("/events/{event_id}/standings", "get", 200).validate(body)  # as documented
    return body


def test_a_ranked_event_ranks_players_by_place_with_shared_ranks_sharing_points(admin_client, client, db, rules):
    event = make_event(admin_client)
    assert event["points"] == {"by_rank": {"2": [1, 0], "3": [2, 1, 0], "4": [3, 2, 1, 0]}}  # the game's default
    tied = a_game(rules, 4, lambda r: any(r.count(x) == 2 for x in r), 1)  # two seats share a rank
    tables = [(1, "1", tied, PLAYERS[:4]),
              (1, "2", a_game(rules, 3, lambda r: len(set(r)) == 3, 50), PLAYERS[4:]),
              (2, "1", a_game(rules, 3, lambda r: len(set(r)) < 3, 100), (PLAYERS[0], PLAYERS[4], PLAYERS[6])),
              (2, "2", a_game(rules, 4, lambda r: True, 150), (PLAYERS[1], PLAYERS[2], PLAYERS[3], PLAYERS[5]))]
    logs = [at_table(log, event["name"], rnd, table, names) for rnd, table, log, names in tables]
    sent = admin_client.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs),
                             content_type="application/x-ndjson")
    assert sent.status_code in (200, 202), sent.get_json()
    assert wait_event_done(admin_client, event["id"], len(logs))["games"] == {"valid": len(logs)}

    # each seat's rank is stored (game_seats) as the engine ranked it
    stored = db.execute("SELECT s.player_name, s.rank FROM game_seats s JOIN games g ON g.id = s.game_id "
                        "WHERE g.event_id = %s", (event["id"],)).fetchall()
    assert len(stored) == sum(len(names) for *_, names in tables)

    points: dict[str, Fraction] = {}
    most: dict[str, int] = {}
    results: dict[str, list[str]] = {}
    for log in logs:
        ranks, names = ranks_of(log), log["meta"]["players"]
        for name, rank, earned in zip(names, ranks, pairwise_points(ranks)):
            assert (name, rank) in stored
            points[name] = points.get(name, Fraction(0)) + earned
            most[name] = most.get(name, 0) + len(names) - 1
            alone = ranks.count(1) == 1
            results.setdefault(name, []).append("loss" if rank != 1 else "win" if alone else "draw")
    assert any(p.denominator == 2 for p in pairwise_points(ranks_of(tied)))  # half a point for the tie

    body = standings_of(client, event)
    assert body["rules"]["points"] == event["points"] and body["counted_matches"] == len(logs)
    got = {r["player"]: r for r in body["standings"]}
    assert set(got) == set(PLAYERS)
    for name, row in got.items():
        assert row["points"] == pytest.approx(float(points[name])), name
        assert (row["wins"], row["draws"], row["losses"]) == tuple(results[name].count(k) for k in
                                                                 ("win", "draw", "loss")), name
        assert row["match_win"] == pytest.approx(float(max(points[name] / most[name], Fraction(1, 3)))), name
    in_order = [r["points"] for r in body["standings"]]
    assert in_order == sorted(in_order, reverse=True) and body["standings"][0]["rank"] == 1

    # the event's page shows them, with its points in words
    page = client.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "Points: by place — 2 players: 1, 0; 3 players: 2, 1, 0; 4 players: 3, 2, 1, 0" in page

    # and each player's page counts the event's points as its standings do
    for name in (PLAYERS[0], PLAYERS[4]):
        player_page = client.get(f"/players/{name}?game={RANKED}").get_data(as_text=True)
        row = next(r for r in panel_rows(player_page, "player-events") if r.startswith(event["name"]))
        counted, wins, draws, losses, shown, left_out = row.split()[-6:]
        assert float(shown) == pytest.approx(got[name]["points"]) and int(counted) == got[name]["matches"], row

    # and the game's statistics count every seat by its colour, at each table size it seats
    factions = f"/api/v1/stats/{RANKED}/factions?event={event['id']}&min_games=0"
    seats = [sum(row["games"] for row in client.get(f"{factions}&players={n}").get_json()["rows"]) for n in (3, 4)]
    assert seats == [6, 8]
    too_many = client.get(f"{factions}&players=5")
    assert too_many.status_code == 400 and too_many.get_json()["error"]["parameter"] == "players"


def test_an_organisers_points_change_the_order_set_when_made_or_later(admin_client, client, rules):
    """Ana, second twice, leads by place; Ben and Di, each first once and last once, lead when only a
    win counts: set when the event is made, and by PATCH on an event with the default."""
    distinct = [a_game(rules, 4, lambda r: sorted(r) == [1, 2, 3, 4], seed) for seed in (200, 400)]

    def seated(log: dict, event: dict, rnd: int, by_place: tuple[str, ...]) -> dict:
        """The log with the players seated so that they finish in ``by_place`` order."""
        ranks = ranks_of(log)
        return at_table(log, event["name"], rnd, "1", [by_place[rank - 1] for rank in ranks])

    def play(event: dict) -> None:
        logs = [seated(distinct[0], event, 1, ("Ben", "Ana", "Cy", "Di")),
                seated(distinct[1], event, 2, ("Di", "Ana", "Cy", "Ben"))]
        sent = admin_client.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs),
                                 content_type="application/x-ndjson")
        assert sent.status_code in (200, 202), sent.get_json()
        wait_event_done(admin_client, event["id"], len(logs))

    def order(event: dict) -> list[tuple[int, str, float]]:
        return [(r["rank"], r["player"], r["points"]) for r in standings_of(client, event)["standings"]]

    by_place = make_event(admin_client)
    play(by_place)
    # by place: Ana 2 + 2; Ben 3 + 0, Di 0 + 3 (equal on every tie-breaker); Cy 1 + 1
    assert order(by_place) == [(1, "Ana", 4), (2, "Ben", 3), (2, "Di", 3), (4, "Cy", 2)]

    only_wins = make_event(admin_client, points=WINNER_TAKES_ALL)
    assert only_wins["points"] == WINNER_TAKES_ALL
    assert client.get(only_wins["url"]).get_json()["points"] == WINNER_TAKES_ALL
    play(only_wins)
    assert order(only_wins) == [(1, "Ben", 1), (1, "Di", 1), (3, "Ana", 0), (3, "Cy", 0)]
    assert standings_of(client, only_wins)["rules"]["points"] == WINNER_TAKES_ALL

    # set later on the first event, then back to the game's default with null
    changed = admin_client.patch(by_place["url"], json={"points": WINNER_TAKES_ALL})
    assert changed.status_code == 200 and changed.get_json()["points"] == WINNER_TAKES_ALL, changed.get_json()
    assert order(by_place) == order(only_wins)
    reset = admin_client.patch(by_place["url"], json={"points": None})
    assert reset.status_code == 200 and reset.get_json()["points"] == by_place["points"]
    assert order(by_place)[0] == (1, "Ana", 4)

    # the same name again with other points is a conflict at /points; with the same, the event
    again = admin_client.post("/api/v1/events", json={"name": only_wins["name"], "points": by_place["points"]})
    assert again.status_code == 409 and again.get_json()["error"]["pointer"] == "/points", again.get_json()
    same = admin_client.post("/api/v1/events", json={"name": only_wins["name"], "points": WINNER_TAKES_ALL})
    assert same.status_code == 200 and same.get_json()["id"] == only_wins["id"]


def test_a_battle_for_empyrean_event_takes_its_own_win_draw_and_loss(admin_client, client):
    default = make_event(admin_client, game=None)
    assert default["points"] == {"win": 3, "draw": 1, "loss": 0}
    own = make_event(admin_client, game=None, points={"win": 2, "draw": 1, "loss": 0})
    assert own["points"] == {"win": 2, "draw": 1, "loss": 0}
    assert standings_of(client, own)["rules"]["points"] == own["points"]


@pytest.mark.parametrize(("game", "points", "pointer", "says"), [
    (RANKED, {"by_rank": {"2": [1, 0], "3": [2, 1, 0], "4": [3, 2, 1, "x"]}}, "/points/by_rank/4/3",
     "must be a whole number"),
    (RANKED, {"by_rank": {"2": [1, 0], "4": [3, 2, 1, 0]}}, "/points/by_rank/3", 'the field "3"'),
    (RANKED, {"by_rank": {"2": [1, 0], "3": [2, 1], "4": [3, 2, 1, 0]}}, "/points/by_rank/3",
     "expected exactly 3, found 2"),
    (RANKED, {"by_rank": {"2": [1, 0], "3": [1, 2, 0], "4": [3, 2, 1, 0]}}, "/points/by_rank/3",
     "never be worth fewer points"),
    (RANKED, {"by_rank": {"2": [0, 0], "3": [2, 1, 0], "4": [3, 2, 1, 0]}}, "/points/by_rank/2/0",
     "at least 1 point"),
    (RANKED, {"win": 3, "draw": 1, "loss": 0}, "/points/by_rank", 'the field "by_rank"'),
    (None, {"by_rank": {"2": [1, 0]}}, "/points/by_rank", 'unknown field "by_rank"'),
    (None, {"win": 1, "draw": 2, "loss": 0}, "/points", "a win must be worth at least a draw"),
    (None, {"win": 3, "draw": 1, "loss": -1}, "/points/loss", "at least 0"),
    (None, {"win": 3, "draw": 1}, "/points/loss", 'the field "loss"'),
    (None, "3-1-0", "/points", "must be an object"),
])
def test_bad_points_are_a_400_naming_the_field(admin_client, game, points, pointer, says):
    name = f"Bad points {secrets.token_hex(3)}"
    made = admin_client.post("/api/v1/events", json={"name": name, "points": points} | ({"game": game} if game else {}))
    assert made.status_code == 400, made.get_json()
    error = made.get_json()["error"]
    assert error["pointer"] == pointer and says in error["message"] and pointer[1:] in error["message"], error
    assert name not in [e["name"] for e in admin_client.get("/api/v1/events").get_json()["events"]]
    # and on an existing event, PATCH refuses them alike, changing nothing
    event = make_event(admin_client, game=game)
    edited = admin_client.patch(event["url"], json={"points": points})
    assert edited.status_code == 400 and edited.get_json()["error"]["pointer"] == pointer, edited.get_json()
    assert admin_client.get(event["url"]).get_json()["points"] == event["points"]


def test_the_command_line_makes_an_event_with_its_points(app, admin_client, tmp_path):
    token = make_token(app, "admin", name="cli points")
    runner = CliRunner()
    points_file = tmp_path / "points.json"
    points_file.write_text(json.dumps(WINNER_TAKES_ALL))
    with served_at(app) as url:
        def create(*args: str):
            return runner.invoke(cli, ["event", "create", "--url", url, "--token", token, *args])

        made = create("--game", RANKED, "--name", "CLI Ranked Cup", "--points", f"@{points_file}")
        assert made.exit_code == 0, made.output
        assert admin_client.get(f"/api/v1/events/{int(made.stdout)}").get_json()["points"] == WINNER_TAKES_ALL
        assert f"points {json.dumps(WINNER_TAKES_ALL)}" in made.stderr
        inline = create("--name", "CLI Two-One Cup", "--points", '{"win": 2, "draw": 1, "loss": 0}')
        assert inline.exit_code == 0, inline.output
        assert admin_client.get(f"/api/v1/events/{int(inline.stdout)}").get_json()["points"]["win"] == 2
        refused = create("--game", RANKED, "--name", "CLI Bad Cup", "--points", '{"win": 3, "draw": 1, "loss": 0}')
        assert refused.exit_code == 1 and "points/by_rank" in refused.stderr, refused.output
        not_json = create("--name", "CLI Not JSON Cup", "--points", "win=3")
        assert not_json.exit_code == 2 and "--points is not JSON" in not_json.output
        missing = create("--name", "CLI No File Cup", "--points", f"@{tmp_path / 'none.json'}")
        assert missing.exit_code == 2 and "cannot read" in missing.output
