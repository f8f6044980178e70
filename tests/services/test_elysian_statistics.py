"""Elysian Battlefields' statistics end to end (issue 29), with real PostgreSQL, Redis and a Celery
worker: self-played games at 2, 3 and 4 players uploaded into an Elysian event, every game judged, and
each statistic under /api/v1/stats/elysian/ answering, table size by table size, with the counts this
test makes itself from the replayed games (engine.replay.replay: the game at its end, its outcome);
the recount gives the same aggregates. And the dice audit: an event whose games were recorded with a
die loaded towards sixes is flagged, players and event, and an event of a fair die is not."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest
from elysian_dice import FAIR, SIXES_TWICE, recorded_game
from extra_game import ndjson
from service_helpers import as_admin
from test_openapi import response_validator
from tournament import wait_event_done

from engine.elysian.rules import RULES
from engine.log import parse_log
from engine.replay import replay
from services.games.records import recount_differences

NAME = "Elysian Statistics Open"
STATISTICS = ["heroes", "victories", "seats", "length", "eliminations", "cards", "dice"]
NAMES = ["Ada", "Bo", "Cai", "Dee", "Eli", "Fox"]
SIZES = (2, 3, 4)
# Dice events: 2-player games, 24 each, every die from one die. A game rolls ~60 attack dice, so each
# event has ~1,500 and each of its two players ~750. Against a fair die, a six twice as likely (2/7
# of the faces) gives the chi-square test a noncentrality of ~0.10 a die: ~75 for a player, far above
# the ~25 that five degrees of freedom need at 0.01 after Holm's correction for the ~20 tests of the
# table (a miss has odds below one in a thousand); the seeds are fixed, so the test cannot flicker.
DICE_GAMES = 24
LOADED, FAIR_NAMES = ("Lou", "Lex"), ("Fay", "Fin")


def meta(event: str, players) -> dict:
    return {"event": event, "players": list(players), "date": "2026-12-01"}


def position_of(g, seat: int) -> int:
    return g.order.index(seat) + 1


def expected(logs: list[dict], players: int) -> dict:
    """What each statistic should say at one table size, counted from the replayed games."""
    out: dict = {"heroes": defaultdict(lambda: [0, 0, 0, 0, 0]), "ends": Counter(), "hero_wins": Counter(),
                 "lengths": Counter(), "seats": defaultdict(lambda: [0, 0]), "first_out": Counter(),
                 "out": Counter(), "cards": defaultdict(lambda: [0, 0, 0]), "games": 0, "seat_games": 0,
                 "dice": defaultdict(lambda: [0] * 7)}
    for log in logs:
        if log["setup"]["players"] != players:
            continue
        result = replay(json.dumps(log).encode(), keep_game=True)
        assert result.verdict.status.value == "valid"
        g, outcome, rec = result.game, result.outcome, result.record
        heroes = RULES.factions(parse_log(log))
        out["games"] += 1
        out["ends"][outcome.how] += 1
        out["lengths"][(outcome.how, g.round)] += 1
        if outcome.winner is not None:
            out["hero_wins"][(heroes[outcome.winner - 1], outcome.how)] += 1
        if g.gone:
            out["first_out"][position_of(g, g.gone[0])] += 1
        for s in outcome.seats:
            out["seat_games"] += 1
            hero = out["heroes"][heroes[s.seat - 1]]
            for i, v in enumerate((1, s.won, s.rank, g.player(s.seat).conquest, s.seat in g.gone)):
                hero[i] += v
            seat = out["seats"][position_of(g, s.seat)]
            seat[0] += 1
            seat[1] += s.won
            out["out"][position_of(g, s.seat)] += s.seat in g.gone
            for card, plays in rec.cards[s.seat - 1].items():
                row = out["cards"][card]
                for i, v in enumerate((1, s.won, plays)):
                    row[i] += v
        for name, faces, sets in dice_of(log):
            row = out["dice"][name]
            for i, v in enumerate((*faces, sets)):
                row[i] += v
    return out


def dice_of(log: dict) -> list[tuple[str, list[int], int]]:
    """Each player's attack dice read from a recorded log's own lines: the faces of each 'C dice'
    line belong to the player of the last 'Pn attacks' line; (name, count of each face, full sets)."""
    names = log["meta"]["players"]
    faces = [[0] * 6 for _ in names]
    sets = [0] * len(names)
    attacker = None
    for line in log["decisions"]:
        words = line.split()
        if len(words) > 1 and words[1] == "attacks":
            attacker = int(words[0][1:]) - 1
        elif words[:2] == ["C", "dice"]:
            for f in words[2:]:
                faces[attacker][int(f) - 1] += 1
            sets[attacker] += len(words) == 5
    return [(names[i], faces[i], sets[i]) for i in range(len(names))]


def upload_event(admin_client, name: str, logs: list[dict]) -> int:
    event = admin_client.post("/api/v1/events", json={"name": name, "game": "elysian"}).get_json()["id"]
    answer = admin_client.post(f"/api/v1/events/{event}/games", data=ndjson(*logs),
                               content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    done = wait_event_done(admin_client, event, len(logs))
    assert done["games"] == {"valid": len(logs)}, done
    return event


@pytest.fixture(scope="module")
def elysian_events(app):
    admin_client = as_admin(app)
    played = [RULES.self_play(seed, bot="random", players=p, meta=meta(NAME, NAMES[:p]))
              for p in SIZES for seed in range(100 * p, 100 * p + 6)]
    dice = {}
    for name, weights, players, first in (("Loaded Dice Cup", SIXES_TWICE, LOADED, 1000),
                                          ("Fair Dice Cup", FAIR, FAIR_NAMES, 2000)):
        logs = [recorded_game(seed, 2, weights, meta(name, players)) for seed in range(first, first + DICE_GAMES)]
        dice[name] = (upload_event(admin_client, name, logs), logs)
    return upload_event(admin_client, NAME, played), played, dice


def stat(client, name: str, query: str) -> dict:
    answer = client.get(f"/api/v1/stats/elysian/{name}?{query}&min_games=0")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    response_validator(f"/stats/elysian/{name}", "get", 200).validate(body)  # as documented
    return body


@pytest.mark.parametrize("players", SIZES)
def test_every_elysian_statistic_answers_with_the_counts_of_the_replays(client, elysian_events, players):
    event, logs, _ = elysian_events
    want = expected(logs, players)
    query = f"event={event}&players={players}"

    heroes = stat(client, "heroes", query)
    assert heroes["filters"]["players"] == players and heroes["summary"]["games"] == want["games"] == 6
    assert heroes["summary"]["even"] == pytest.approx(1 / players)
    got = {r["hero"]: [r["games"], r["wins"], round(r["rank_mean"] * r["games"]),
                       round(r["conquest_mean"] * r["games"]), r["eliminated"]["successes"]] for r in heroes["rows"]}
    assert got == want["heroes"]
    assert all(r["win_rate"]["n"] == r["games"] and r["pick_rate"]["n"] == want["games"] for r in heroes["rows"])

    victories = stat(client, "victories", query)
    assert {r["end_reason"]: r["games"] for r in victories["rows"]} == want["ends"]
    assert all(r["share"]["n"] == want["games"] for r in victories["rows"])
    assert {(r["hero"], r["end_reason"]): r["wins"] for r in victories["heroes"]} == want["hero_wins"]

    seats = stat(client, "seats", query)
    assert {r["position"]: [r["games"], r["wins"]] for r in seats["rows"]} == want["seats"]
    assert [r["position"] for r in seats["rows"]] == list(range(1, players + 1))

    length = stat(client, "length", query)
    assert {(r["end_reason"], r["rounds"]): r["games"] for r in length["lengths"]} == want["lengths"]
    won = [(rounds, n) for (end, rounds), n in want["lengths"].items() if end in ("conquer", "rule", "reign",
                                                                                  "last standing")]
    assert length["summary"]["won_games"] == sum(n for _, n in won)

    eliminations = stat(client, "eliminations", query)
    assert eliminations["summary"]["games_with_elimination"] == sum(want["first_out"].values())
    assert {r["position"]: r["out_first"]["successes"] for r in eliminations["rows"] if r["out_first"]["successes"]} \
        == want["first_out"]
    assert {r["position"]: r["eliminated"]["successes"] for r in eliminations["rows"]} \
        == {p: want["out"][p] for p in range(1, players + 1)}

    cards = stat(client, "cards", query)
    assert cards["seat_games"] == want["seat_games"] == 6 * players
    assert {r["card"]: [r["played_games"], r["played_wins"], r["plays"]] for r in cards["rows"]} == want["cards"]


def test_the_dice_audit_flags_the_loaded_event_and_its_players_and_not_the_fair_one(client, elysian_events):
    _, _, dice = elysian_events
    (loaded, loaded_logs), (fair, fair_logs) = dice["Loaded Dice Cup"], dice["Fair Dice Cup"]
    audit = stat(client, "dice", f"event={loaded},{fair}&players=2")
    assert (audit["flag_below"], audit["correction"]) == (0.01, "holm")

    events = {r["event"]: r for r in audit["events"]}
    assert set(events) == {"Loaded Dice Cup", "Fair Dice Cup"}
    assert events["Loaded Dice Cup"]["flagged"] and events["Loaded Dice Cup"]["tests"]["faces"]["flagged"]
    assert not events["Fair Dice Cup"]["flagged"]
    assert events["Fair Dice Cup"]["tests"]["faces"]["p_adjusted"] > 0.01

    want = expected(loaded_logs + fair_logs, 2)["dice"]
    players = {r["player"]: r for r in audit["rows"]}
    assert {name: [*r["faces"], r["sets"]] for name, r in players.items()} == want
    for name, row in players.items():
        assert row["dice"] == sum(row["faces"]) >= 500 and row["tested"], name
        assert row["flagged"] == (name in LOADED), (name, row["tests"])
        assert row["repel_rate"]["n"] == row["sets"] and row["repel_rate"]["expected"] == pytest.approx(1 / 27)
        assert row["ravage_rate"]["expected"] == pytest.approx(1 / 216)
        assert row["face_rates"][5]["n"] == row["dice"]
    # the loaded die rolls sixes at about 2/7, the fair one at about 1/6
    assert all(players[n]["face_rates"][5]["low"] > 1 / 6 for n in LOADED)
    assert all(players[n]["face_rates"][5]["low"] < 1 / 6 < players[n]["face_rates"][5]["high"] for n in FAIR_NAMES)


def test_elysian_statistics_are_listed_filtered_and_refuse_filters_they_do_not_take(client, elysian_events):
    event, _, _ = elysian_events
    listed = client.get("/api/v1/stats/elysian").get_json()
    assert [s["name"] for s in listed["statistics"]] == [*STATISTICS, "factions"]
    for name in STATISTICS:
        body = stat(client, name, "event=none&players=3")
        assert body["filters"]["event"] == ["none"] and not body.get("rows") and not body.get("events")
        for parameter, value in (("deck", "Zulus"), ("battlefield", "Ruins"), ("players", "6"), ("event", "x")):
            refused = client.get(f"/api/v1/stats/elysian/{name}?{parameter}={value}")
            assert refused.status_code == 400 and refused.get_json()["error"]["parameter"] == parameter
    thin = client.get(f"/api/v1/stats/elysian/heroes?event={event}&players=2&min_games=1000").get_json()["rows"]
    assert thin and all(r["thin"] for r in thin)


def test_the_recount_gives_the_same_elysian_aggregates(db, elysian_events):
    differences = recount_differences(db)
    assert all(n == 0 for n in differences.values()), differences
    for table in ("agg_elysian_heroes", "agg_elysian_endings", "agg_elysian_positions", "agg_elysian_cards",
                  "agg_elysian_dice"):
        assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0, table
