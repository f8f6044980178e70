"""Empyreal: Spells & Steam's statistics end to end (issue 30), with real PostgreSQL, Redis and a Celery
worker: self-played games at 2, 3 and 4 players — their set-ups drawn from the seed
(engine.steam.bots.seeded_setup): some with the awards variant, some 4-player ones 2v2 team games —
uploaded into a Spells & Steam event, every game judged, and each statistic under /api/v1/stats/steam/
answering, table size by table size, with n and intervals and the counts this test makes itself from
the replayed games' records (engine.replay.replay: engine.steam.record.Record, the outcome); the
recount gives the same aggregates; filters are taken, and the filters the game does not take refused
with a 400 naming them."""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict

import pytest
from extra_game import ndjson
from service_helpers import as_admin
from test_openapi import response_validator
from tournament import wait_event_done

from engine.replay import replay
from engine.steam.rules import RULES
from services.games.records import recount_differences

NAME = "Steam Statistics Open"
STATISTICS = ["companies", "captains", "score-parts", "specialists", "spellcars", "endings", "seats", "awards",
              "teams"]
NAMES = ["Ada", "Bo", "Cai", "Dee", "Eli", "Fox"]
SIZES = (2, 3, 4)
GAMES = 8  # at each size: seeds 100·players onwards (the odd ones with awards; at 4, 402 and 405 in teams)


def meta(players) -> dict:
    return {"event": NAME, "players": list(players), "date": "2026-12-01"}


def played() -> list[dict]:
    games = [RULES.self_play(seed, bot="random", players=p, meta=meta(NAMES[:p]))
             for p in SIZES for seed in range(100 * p, 100 * p + GAMES)]
    assert any("awards" in g["setup"].get("variants", ()) for g in games if g["setup"]["players"] == 2)
    assert sum(bool(g["setup"].get("teams")) for g in games) == 2
    return games


def replayed(logs: list[dict], players: int) -> list:
    out = []
    for log in logs:
        if log["setup"]["players"] != players:
            continue
        result = replay(json.dumps(log).encode())
        assert result.verdict.status.value == "valid", result.verdict
        out.append((result.record, result.outcome))
    return out


def expected(logs: list[dict], players: int) -> dict:
    """What each statistic should say at one table size, counted from the replayed games' records."""
    want: dict = {"games": 0, "companies": defaultdict(lambda: [0, 0, Counter(), []]),
                  "captains": defaultdict(lambda: [0, 0]), "parts": defaultdict(list),
                  "hired": defaultdict(lambda: [0, 0, 0]), "cars": defaultdict(lambda: [0, 0, 0, 0]),
                  "ends": Counter(), "lengths": Counter(), "seats": defaultdict(lambda: [0, 0]),
                  "positions": defaultdict(lambda: [0, 0]), "awards": defaultdict(lambda: [0, 0, 0]),
                  "firsts": Counter(), "teams": defaultdict(lambda: [0, 0, 0]), "started": defaultdict(lambda: [0, 0])}
    for rec, outcome in replayed(logs, players):
        won = {s.seat: s.won for s in outcome.seats}
        want["games"] += 1
        want["ends"][rec.end] += 1
        want["lengths"][(rec.end, rec.rounds)] += 1
        for seat in range(1, players + 1):
            i, w = seat - 1, won[seat]
            company = want["companies"][rec.companies[i]]
            company[0] += 1
            company[1] += w
            company[2][rec.ranks[i]] += 1
            company[3].append(rec.scores[i])
            want["captains"][rec.captains[i]][0] += 1
            want["captains"][rec.captains[i]][1] += w
            want["parts"]["goods"].append(rec.goods[i])
            want["parts"]["demand"].append(rec.demand[i])
            want["parts"]["awards"].append(rec.awards[i])
            for specialist, hires in Counter(rec.hired[i]).items():
                for j, v in enumerate((1, w, hires)):
                    want["hired"][specialist][j] += v
            for car in set(rec.taken[i]) | set(rec.activated[i]):
                taken, activations = rec.taken[i][car], rec.activated[i][car]
                for j, v in enumerate((taken > 0, taken > 0 and w, taken, activations)):
                    want["cars"][car][j] += v
            want["seats"][seat][0] += 1
            want["seats"][seat][1] += w
            position = (seat - rec.start) % players + 1
            want["positions"][position][0] += 1
            want["positions"][position][1] += w
        for award in rec.awards_in_play:
            points = [rec.award_points[i].get(award, 0) for i in range(players)]
            acc = want["awards"][award]
            acc[0] += 1
            acc[1] += sum(p > 0 for p in points)
            acc[2] += sum(points)
            for i, p in enumerate(points):
                if p > 0 and p == max(points):
                    want["firsts"][(award, rec.companies[i])] += 1
        teams = sorted({t for t in rec.teams if t is not None})
        for team in teams:
            members = [s for s in range(1, players + 1) if rec.teams[s - 1] == team]
            bonus = rec.team_scores[team - 1] - sum(rec.scores[s - 1] for s in members)
            shape = "v".join(str(sum(t == u for t in rec.teams)) for u in teams)
            acc = want["teams"][shape]
            acc[0] += 1
            acc[1] += any(won[s] for s in members)
            acc[2] += bonus
            start = want["started"][(shape, rec.start in members)]
            start[0] += 1
            start[1] += any(won[s] for s in members)
    return want


@pytest.fixture(scope="module")
def steam_event(app):
    admin = as_admin(app)
    logs = played()
    event = admin.post("/api/v1/events", json={"name": NAME, "game": "steam"}).get_json()["id"]
    answer = admin.post(f"/api/v1/events/{event}/games", data=ndjson(*logs), content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    done = wait_event_done(admin, event, len(logs), timeout=600)
    assert done["games"] == {"valid": len(logs)}, done
    return event, logs


def stat(client, name: str, query: str) -> dict:
    answer = client.get(f"/api/v1/stats/steam/{name}?{query}&min_games=0")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    response_validator(f"/stats/steam/{name}", "get", 200).validate(body)  # as documented
    return body


def check_rate(rate: dict, successes: int, n: int) -> None:
    assert (rate["successes"], rate["n"]) == (successes, n)
    assert rate["low"] <= rate["rate"] <= rate["high"]


def check_mean(m: dict, values: list[int]) -> None:
    assert m["n"] == len(values) and m["mean"] == pytest.approx(statistics.fmean(values))
    assert m["sd"] == pytest.approx(statistics.stdev(values))
    assert m["low"] <= m["mean"] <= m["high"]


@pytest.mark.parametrize("players", SIZES)
def test_every_steam_statistic_answers_with_n_intervals_and_the_counts_of_the_replays(client, steam_event, players):
    event, logs = steam_event
    want = expected(logs, players)
    games = want["games"]
    seat_games = games * players
    query = f"event={event}&players={players}"

    companies = stat(client, "companies", query)
    assert companies["filters"]["players"] == players and companies["summary"]["games"] == games
    assert companies["summary"]["even"] == pytest.approx(1 / players)
    assert {r["company"] for r in companies["rows"]} == set(want["companies"])
    for r in companies["rows"]:
        g, w, ranks, scores = want["companies"][r["company"]]
        check_rate(r["win_rate"], w, g)
        check_rate(r["pick_rate"], g, games)
        check_mean(r["score"], scores)
        assert [(p["rank"], p["successes"], p["n"]) for p in r["ranks"]] \
            == [(p, ranks[p], g) for p in range(1, players + 1)]

    captains = stat(client, "captains", query)
    assert {r["captain"]: [r["games"], r["wins"]] for r in captains["rows"]} == want["captains"]
    assert all(sum(c["games"] for c in r["companies"]) == r["games"] for r in captains["rows"])

    parts = stat(client, "score-parts", query)
    for part, values in want["parts"].items():
        check_mean(parts["overall"][part], values)
    assert parts["overall"]["games"] == seat_games
    assert sum(r["games"] for r in parts["rows"]) == seat_games

    specialists = stat(client, "specialists", query)
    assert specialists["seat_games"] == seat_games
    assert {r["specialist"]: [r["hired_games"], r["hired_wins"], r["hires"]] for r in specialists["rows"]} \
        == want["hired"]
    assert all(r["hired_in"]["n"] == seat_games and r["win_rate"]["n"] == r["hired_games"]
               for r in specialists["rows"])

    spellcars = stat(client, "spellcars", query)
    assert {r["spellcar"]: [r["taken_games"], r["win_rate_taken"]["successes"], r["taken"], r["activations"]]
            for r in spellcars["rows"]} == want["cars"]
    assert all(r["taken_in"]["n"] == seat_games for r in spellcars["rows"])

    endings = stat(client, "endings", query)
    assert {r["end_trigger"]: r["games"] for r in endings["rows"]} == want["ends"]
    assert {(r["end_trigger"], r["rounds"]): r["games"] for r in endings["lengths"]} == want["lengths"]
    assert all(r["share"]["n"] == games for r in endings["rows"])

    seats = stat(client, "seats", query)
    assert {r["seat"]: [r["games"], r["wins"]] for r in seats["rows"]} == want["seats"]
    assert {r["position"]: [r["games"], r["wins"]] for r in seats["positions"]} == want["positions"]
    check_rate(seats["summary"]["start_player"], *reversed(want["positions"][1]))

    awards = stat(client, "awards", query)
    assert want["awards"], "the awards variant's games deal awards"
    assert all(r["scored"]["n"] == r["first"]["n"] == r["in_play_games"] * players for r in awards["rows"])
    assert {r["award"]: [r["in_play_games"], r["scored"]["successes"], round(r["points_mean"] * r["scored"]["n"])]
            for r in awards["rows"]} == want["awards"]
    assert all(r["in_play"]["n"] == games for r in awards["rows"])
    assert {(r["award"], r["company"]): r["firsts"] for r in awards["companies"] if r["firsts"]} == want["firsts"]

    teams = stat(client, "teams", query)
    assert {r["team_shape"]: [r["teams"], r["wins"], round(r["bonus_mean"] * r["teams"])] for r in teams["rows"]} \
        == want["teams"]
    assert {(r["team_shape"], r["started"]): [r["teams"], r["wins"]] for r in teams["started"]} == want["started"]
    assert teams["summary"]["team_games"] == (2 if players == 4 else 0) and teams["summary"]["games"] == games


def test_steam_statistics_are_listed_filtered_and_refuse_what_they_do_not_take(client, steam_event):
    event, _ = steam_event
    listed = client.get("/api/v1/stats/steam").get_json()
    assert [s["name"] for s in listed["statistics"]] == [*STATISTICS, "factions"]
    for name in STATISTICS:
        body = stat(client, name, "event=none&players=3")
        assert body["filters"]["event"] == ["none"] and not body.get("rows")
        dated = stat(client, name, f"event={event}&players=2&from=2026-12-02")  # the games are of 2026-12-01
        assert dated["filters"]["from"] == "2026-12-02" and not dated.get("rows")
        for parameter, value in (("deck", "Zulus"), ("battlefield", "Ruins"), ("players", "7"), ("event", "x"),
                                 ("from", "yesterday"), ("min_games", "-1"), ("colour", "red")):
            refused = client.get(f"/api/v1/stats/steam/{name}?{parameter}={value}")
            assert refused.status_code == 400, (name, parameter)
            assert refused.get_json()["error"]["parameter"] == parameter
            assert parameter in refused.get_json()["error"]["message"]
    thin = client.get(f"/api/v1/stats/steam/companies?event={event}&players=2&min_games=1000").get_json()
    assert thin["rows"] and all(r["thin"] for r in thin["rows"]) and thin["summary"]["thin"]
    six = stat(client, "companies", f"event={event}&players=6")  # the game seats six; none played here
    assert six["summary"]["games"] == 0 and six["summary"]["even"] == pytest.approx(1 / 6)


def test_the_recount_gives_the_same_steam_aggregates(db, steam_event):
    differences = recount_differences(db)
    assert all(n == 0 for n in differences.values()), differences
    for table in ("agg_steam_results", "agg_steam_positions", "agg_steam_endings", "agg_steam_specialists",
                  "agg_steam_spellcars", "agg_steam_awards", "agg_steam_teams"):
        assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0, table
