"""Empyreal: Spells & Steam through the whole service, with real PostgreSQL, Redis and a Celery worker:
an event of game ``steam``, a simulated tournament (``empyrean simulate --game steam``) uploaded into it
as one bundle with flawed matches in it, every game judged as the bundle expects, each company counted
as the logs that count say, and every statistic under /api/v1/stats/steam/ answering with its n; then
tables of 3 to 6 players (a 3v3 team game among them) seated in another event, ranked by place in its
standings and counted at their table size."""

from __future__ import annotations

import re

import pytest
from extra_game import ndjson
from ranked_games import faction_counts, place_points
from service_helpers import as_admin, panel_rows
from test_openapi import response_validator
from tournament import wait_event_done

from dashboards.game_figures import ordinal
from engine.games import rules_for
from services.simulation.simulate import SimConfig, simulate

STEAM = "steam"
NAME, TABLES_NAME = "Steam Pipeline Open", "Steam Tables Night"
STATISTICS = ["companies", "captains", "score-parts", "specialists", "spellcars", "endings", "seats", "awards",
              "teams"]
PLAYERS = ("Ana", "Ben", "Cy", "Di", "Eve", "Fay", "Gus")
# (round, table, seats, seed, its teams): set-ups drawn from the seed (engine.steam.bots.seeded_setup;
# 6 players and a seed of 3 mod 6: 3v3)
TABLES = [(1, "1", PLAYERS[:3], 21, None), (1, "2", PLAYERS[3:7], 23, None), (2, "1", PLAYERS[:5], 25, None),
          (3, "1", PLAYERS[:6], 27, "3v3")]


@pytest.fixture(scope="module")
def bundle():
    """10 players, 3 rounds, a third of the matches flawed (seed 3)."""
    made = simulate(SimConfig(game=STEAM, players=10, rounds=3, bot="random", flawed=0.3, seed=3, name=NAME))
    assert sum(made.flaws.values()) > 0, made.flaws
    return made


def test_a_simulated_steam_event_is_judged_and_counted_as_the_simulator_expects(admin_client, client, db, bundle):
    want = bundle.expected()["service"]
    created = admin_client.post("/api/v1/events", json={"name": NAME, "game": STEAM})
    assert created.status_code == 201 and created.get_json()["game"] == STEAM, created.get_json()
    event = created.get_json()["id"]
    answer = admin_client.post(f"/api/v1/events/{event}/games", data=ndjson(*bundle.uploads),
                               content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    report = answer.get_json()
    assert (report["accepted"], report["duplicates"], report["rejected"]) == (want["accepted"], want["duplicate"], 0)

    summary = wait_event_done(admin_client, event, want["accepted"], timeout=600)
    assert summary["games"] == {k: want[k] for k in ("valid", "illegal", "mismatch") if want[k]}, summary
    judged = db.execute("SELECT g.game, count(v.game_id) FROM games g LEFT JOIN verdicts v ON v.game_id = g.id "
                        "WHERE g.event_id = %s GROUP BY g.game", (event,)).fetchall()
    assert judged == [(STEAM, want["accepted"])]

    counted = faction_counts(STEAM, bundle.counted)
    companies = client.get(f"/api/v1/stats/steam/companies?event={event}&players=2&min_games=0").get_json()
    assert {r["company"]: [r["games"], r["wins"]] for r in companies["rows"]} == {c: n[:2] for c, n in counted.items()}
    assert companies["summary"]["games"] == len(bundle.counted)
    for name in STATISTICS:
        answer = client.get(f"/api/v1/stats/steam/{name}?event={event}&players=2&min_games=0")
        assert answer.status_code == 200, (name, answer.get_json())
        body = answer.get_json()
        assert body["filters"]["event"] == [event]
        rates = [v for r in body.get("rows", []) for v in r.values() if isinstance(v, dict) and "n" in v]
        assert name == "teams" or rates, name  # every statistic with rows gives each number's n
        assert all(v["n"] >= 0 and "low" in v and "high" in v for v in rates), name


@pytest.fixture(scope="module")
def tables(app):
    """The event of TABLES, every game judged valid: (the event, its logs)."""
    admin = as_admin(app)
    event = admin.post("/api/v1/events", json={"name": TABLES_NAME, "game": STEAM}).get_json()
    logs = [rules_for(STEAM).self_play(seed, bot="random", players=len(seats),
                                       meta={"event": TABLES_NAME, "round": rnd, "table": table,
                                             "players": list(seats), "date": "2026-12-02"})
            for rnd, table, seats, seed, _ in TABLES]
    answer = admin.post(f"/api/v1/events/{event['id']}/games", data=ndjson(*logs),
                        content_type="application/x-ndjson")
    assert answer.status_code == 202 and answer.get_json()["accepted"] == len(logs), answer.get_json()
    assert wait_event_done(admin, event["id"], len(logs), timeout=600)["games"] == {"valid": len(logs)}
    return event, logs


def test_steam_tables_of_three_to_six_are_ranked_by_place_and_counted_at_their_size(client, tables):
    event, logs = tables
    standings = client.get(event["standings_url"]).get_json()
    assert {r["player"]: r["points"] for r in standings["standings"]} == place_points(logs)

    for _, _, seats, _, shape in TABLES:
        query = f"event={event['id']}&players={len(seats)}&min_games=0"
        companies = client.get(f"/api/v1/stats/steam/companies?{query}").get_json()
        assert companies["summary"]["games"] == 1 and sum(r["games"] for r in companies["rows"]) == len(seats)
        teams = client.get(f"/api/v1/stats/steam/teams?{query}").get_json()
        assert [r["team_shape"] for r in teams["rows"]] == ([shape] if shape else [])


def test_steam_standings_show_each_players_total_and_mean_score_over_the_counting_games(client, db, tables):
    """Victory points (game_seats.score) summed per player over the games the standings count, in the API,
    the page (after the points and the W–D–L) and the CSV; each match on a player's page names every
    seat's place and score."""
    event, _ = tables
    counted = db.execute("""SELECT s.game_id, s.player_name, s.rank, s.score FROM game_seats s
                            JOIN game_records r ON r.game_id = s.game_id
                            WHERE r.event_id = %s AND r.counted ORDER BY s.game_id, s.rank, s.player_name""",
                         (event["id"],)).fetchall()
    assert len({game for game, *_ in counted}) == len(TABLES)
    scores: dict[str, list[int]] = {}
    for _, player, _, score in counted:
        scores.setdefault(player, []).append(score)

    body = client.get(event["standings_url"]).get_json()
    response_validator("/events/{event_id}/standings", "get", 200).validate(body)  # as documented
    got = {r["player"]: r for r in body["standings"]}
    assert {p: r["total_score"] for p, r in got.items()} == {p: sum(s) for p, s in scores.items()}
    for player, row in got.items():
        assert row["mean_score"] == pytest.approx(sum(scores[player]) / len(scores[player])), player

    page = client.get(f"/events/{event['id']}").get_data(as_text=True)
    head = page[page.index('id="panel-standings"'):]
    assert re.findall(r"<th[^>]*>([^<]*)</th>", head[:head.index("</thead>")])[:6] == [
        "#", "player", "points", "W–D–L", "total score", "mean score"]
    for row in panel_rows(page, "standings"):
        _, player, _, _, total, mean = row.split()[:6]
        assert (int(total), float(mean)) == (got[player]["total_score"], round(got[player]["mean_score"], 1)), row
    header = client.get(f"/events/{event['id']}/standings.csv").get_data(as_text=True).splitlines()[0]
    assert header.split(",")[7:10] == ["points", "total_score", "mean_score"]

    mine = client.get(f"/players/{PLAYERS[0]}?game={STEAM}").get_data(as_text=True)
    shown = panel_rows(mine, "player-matches")
    assert len(shown) == sum(PLAYERS[0] in seats for _, _, seats, _, _ in TABLES)
    for game in {game for game, player, *_ in counted if player == PLAYERS[0]}:
        places = ", ".join(f"{ordinal(rank)} {player} ({score})" for g, player, rank, score in counted if g == game)
        assert sum(places in row for row in shown) == 1, (places, shown)
