"""Titans of Empyrean's statistics end to end (issue 28), with real PostgreSQL, Redis and a Celery
worker: a simulated Titans event (catalog 2, some of its squads mixed) and two mixed-squad games of
catalog 1 uploaded into a Titans event, every game judged, and each statistic under
/api/v1/stats/titans/ answering with the counts this test makes itself from the logs (replayed with
engine.replay.replay); the recount gives the same aggregates; the pages under /titans/ show them."""

from __future__ import annotations

import csv as csv_module
import io
import json
from collections import Counter, defaultdict

import pytest
from extra_game import ndjson
from service_helpers import as_admin, documented_csvs, panel_rows
from tournament import wait_event_done

from dashboards.datasets import DATASETS
from engine.log import parse_log
from engine.replay import replay
from engine.rng import SplitMix64
from engine.titans.bots import choose_random
from engine.titans.catalog import load
from engine.titans.lines import format_line
from engine.titans.rules import RULES
from services.games.records import recount_differences
from services.simulation.simulate import SimConfig, simulate

NAME = "Titans Statistics Open"
STATISTICS = ["species", "matchups", "titans", "maneuvers", "endings", "initiative", "squads"]
MIXED = [{"species": "dragon", "ally": "harpy", "titans": ["ashmaw", "cinderwing", "old-vermax", "shrill"]},
         {"species": "phoenix"}]


def mixed_squad_game(seed: int) -> dict:
    """A seeded catalog-1 game of a mixed squad (three dragons and a harpy, maneuvers dealt) against
    phoenixes, played by the random bot: beside the simulator's games, of the default catalog."""
    setup = {"squads": MIXED}
    log = {"format": "empyrean-log", "version": 1, "game": "titans", "catalog": "1", "setup": setup,
           "chance": {"type": "seeded", "algorithm": "splitmix64-v1", "seed": seed}, "decisions": [],
           "meta": {"event": NAME, "players": ["Mia", "Ned"], "date": "2026-09-05"}}
    g = RULES.new_game(parse_log(log))
    rng = SplitMix64(seed)
    while not g.over:
        d = choose_random(g, rng)
        log["decisions"].append(format_line(d))
        g.answer(d)
    log["result"] = {"winner": g.winner, "reason": str(g.end)}
    return log


def expected_counts(logs: list[dict]) -> dict:
    """What each statistic should say, counted from the logs: species and titans from the setup and
    the catalog, results and ends from the replay's outcome, plays from the lines, survival from the
    game at its end; damage is the record's (nothing but the rules can say who dealt it)."""
    out: dict = {k: defaultdict(lambda: [0, 0, 0]) for k in ("species", "matchups", "squads")}
    out |= {"titans": defaultdict(lambda: [0, 0, 0, 0, 0]), "maneuvers": defaultdict(lambda: [0, 0, 0]),
            "endings": Counter(), "lengths": Counter(), "initiative": [0, 0, 0, 0], "seat_games": 0}
    for log in logs:
        cat = load(log["catalog"])
        result = replay(json.dumps(log).encode(), keep_game=True)
        assert result.verdict.status.value == "valid"
        g, outcome, rec = result.game, result.outcome, result.record
        squads = log["setup"]["squads"]
        species = [q["species"] for q in squads]
        won = [s.won for s in outcome.seats]
        draw = outcome.winner is None
        out["endings"][outcome.how] += 1
        out["lengths"][(outcome.how, g.round)] += 1
        for seat in (0, 1):
            out["seat_games"] += 1
            for key, table in ((species[seat], "species"), ((species[seat], species[1 - seat]), "matchups"),
                               ((species[seat], squads[seat].get("ally")), "squads")):
                row = out[table][key]
                row[0] += 1
                row[1] += won[seat]
                row[2] += draw
            keys = squads[seat].get("titans") or sorted(k for k, t in cat.titans.items() if t.species == species[seat])
            for key in keys:
                alive = next(t.alive for t in g.titans if t.player == seat + 1 and t.key == key)
                mine = next(t for t in rec.titans if t.seat == seat + 1 and t.titan == key)
                row = out["titans"][key]
                for i, v in enumerate((1, won[seat], alive, mine.damage_dealt, mine.damage_taken)):
                    row[i] += v
            plays = Counter(line.split()[4] for line in log["decisions"]
                            if line.split()[:3:2] == [f"P{seat + 1}", "play"])
            for maneuver, n in plays.items():
                row = out["maneuvers"][maneuver]
                for i, v in enumerate((1, won[seat], n)):
                    row[i] += v
        initiatives = [max(cat.titans[t.key].initiative for t in g.titans if t.player == p) for p in (1, 2)]
        top_alone = None if initiatives[0] == initiatives[1] else (1 if initiatives[0] > initiatives[1] else 2)
        first = int(log["decisions"][0].split()[0][1])  # round 1's first line is its first titan's
        acc = out["initiative"]
        acc[0] += 1
        acc[1] += top_alone is not None
        acc[2] += top_alone is not None and outcome.winner == top_alone
        acc[3] += outcome.winner == first
    return out


@pytest.fixture(scope="module")
def titans_event(app):
    admin_client = as_admin(app)
    bundle = simulate(SimConfig(game="titans", players=16, rounds=3, seed=11, name=NAME))
    logs = [*bundle.uploads, mixed_squad_game(5), mixed_squad_game(6)]
    event = admin_client.post("/api/v1/events", json={"name": NAME, "game": "titans"}).get_json()["id"]
    answer = admin_client.post(f"/api/v1/events/{event}/games", data=ndjson(*logs),
                               content_type="application/x-ndjson")
    assert answer.status_code == 202, answer.get_json()
    done = wait_event_done(admin_client, event, len(logs))
    assert done["games"] == {"valid": len(logs)}, done
    return event, logs


def stat(client, name: str, event: int) -> dict:
    answer = client.get(f"/api/v1/stats/titans/{name}?event={event}&min_games=0")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_every_titans_statistic_answers_with_the_counts_of_the_logs(client, titans_event):
    event, logs = titans_event
    want = expected_counts(logs)

    species = stat(client, "species", event)["rows"]
    assert {r["species"]: [r["games"], r["wins"], r["draws"]] for r in species} == want["species"]
    assert all(r["win_rate"]["n"] == r["games"] and r["win_rate"]["low"] is not None for r in species)

    matchups = stat(client, "matchups", event)["rows"]
    assert {(r["species"], r["opponent_species"]): [r["games"], r["wins"], r["draws"]] for r in matchups} \
        == want["matchups"]

    titans = stat(client, "titans", event)["rows"]
    got = {r["titan"]: [r["picks"], r["wins"], r["survived"], round(r["damage_dealt_mean"] * r["picks"]),
                        round(r["damage_taken_mean"] * r["picks"])] for r in titans}
    assert got == want["titans"]
    assert all(r["win_rate"]["n"] == r["survival"]["n"] == r["picks"] for r in titans)
    assert "shrill" in got  # the harpy of the mixed squad

    maneuvers = stat(client, "maneuvers", event)
    assert maneuvers["seat_games"] == want["seat_games"] == 2 * len(logs)
    assert {r["maneuver"]: [r["played_games"], r["played_wins"], r["plays"]] for r in maneuvers["rows"]} \
        == want["maneuvers"]
    assert all(r["played_in"]["n"] == want["seat_games"] and r["win_rate"]["n"] == r["played_games"]
               for r in maneuvers["rows"])

    endings = stat(client, "endings", event)
    assert {r["end_reason"]: r["games"] for r in endings["rows"]} == want["endings"]
    assert all(r["share"]["n"] == len(logs) for r in endings["rows"]) and endings["summary"]["games"] == len(logs)
    assert {(r["end_reason"], r["rounds"]): r["games"] for r in endings["lengths"]} == want["lengths"]

    overall = stat(client, "initiative", event)["overall"]
    games, top_games, top_wins, first_wins = want["initiative"]
    assert overall["games"] == games == len(logs)
    assert (overall["top_alone"]["n"], overall["top_alone"]["successes"]) == (top_games, top_wins)
    assert (overall["first_to_act"]["n"], overall["first_to_act"]["successes"]) == (games, first_wins)

    squads = stat(client, "squads", event)
    assert {(r["species"], r["ally"]): [r["games"], r["wins"], r["draws"]] for r in squads["rows"]} == want["squads"]
    kinds = {r["squad"]: r["win_rate"]["n"] for r in squads["summary"]}
    mixed = sum("ally" in q for log in logs for q in log["setup"]["squads"])
    assert kinds == {"mixed": mixed, "pure": 2 * len(logs) - mixed}


def test_the_simulated_games_fill_the_mixed_squads_and_the_top_initiative_statistics(client, titans_event):
    """Self-play seats mixed squads, and in catalog 2 a game between squads of two different species
    has one side alone at the top of the initiative: both statistics count simulated games (in
    catalog 1 every species' best titan had 8, so top_alone counted none of those games)."""
    event, logs = titans_event
    simulated = logs[:-2]  # the fixture's two catalog-1 games come last; neither has a side alone at the top
    assert {log["catalog"] for log in simulated} == {"2"}
    unlike = sum(len({q["species"] for q in log["setup"]["squads"]}) == 2
                 and not any("ally" in q for q in log["setup"]["squads"]) for log in simulated)
    simulated_mixed = sum("ally" in q for log in simulated for q in log["setup"]["squads"])
    top_alone = stat(client, "initiative", event)["overall"]["top_alone"]
    assert top_alone["n"] >= unlike > 0 and top_alone["low"] is not None
    kinds = {r["squad"]: r["win_rate"] for r in stat(client, "squads", event)["summary"]}
    assert kinds["mixed"]["n"] == simulated_mixed + 2 and simulated_mixed > 0


def test_titans_statistics_are_listed_filtered_by_event_and_refuse_filters_they_do_not_take(client, titans_event):
    event, _ = titans_event
    listed = client.get("/api/v1/stats/titans").get_json()
    assert [s["name"] for s in listed["statistics"]] == [*STATISTICS, "factions"]
    for name in STATISTICS:
        elsewhere = client.get(f"/api/v1/stats/titans/{name}?event=none")
        assert elsewhere.status_code == 200
        body = elsewhere.get_json()
        assert body["filters"]["event"] == ["none"]
        assert not body.get("rows") and body.get("overall", {"games": 0})["games"] == 0
        for parameter, value in (("deck", "Zulus"), ("battlefield", "Ruins"), ("event", "x")):
            refused = client.get(f"/api/v1/stats/titans/{name}?{parameter}={value}")
            assert refused.status_code == 400 and refused.get_json()["error"]["parameter"] == parameter
    thin = client.get(f"/api/v1/stats/titans/species?event={event}&min_games=1000").get_json()["rows"]
    assert thin and all(r["thin"] for r in thin)


def test_the_recount_gives_the_same_titans_aggregates(db, titans_event):
    differences = recount_differences(db)
    assert all(n == 0 for n in differences.values()), differences
    for table in ("agg_titans_matchups", "agg_titans_titans", "agg_titans_maneuvers", "agg_titans_endings",
                  "agg_titans_initiative", "agg_titans_squads"):
        assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0, table


PAGES = {"/titans/species": ["species-win-rates", "species-matchups"],
         "/titans/titans": ["titan-win-rates", "titan-survival"],
         "/titans/maneuvers": ["maneuver-win-rates"],
         "/titans/games": ["endings", "lengths", "initiative", "squads"]}


def figure_json(page: str, figure: str) -> dict:
    start = page.index(f'id="fig-data-{figure}">') + len(f'id="fig-data-{figure}">')
    return json.loads(page[start:page.index("</script>", start)])


def test_the_titans_pages_show_each_statistic_with_its_n_and_grey_thin_rows(client, titans_event):
    event, logs = titans_event
    index = client.get("/titans/").get_data(as_text=True)
    assert all(f'href="{url}"' in index for url in PAGES) and "stats-later" not in index
    for url, panels in PAGES.items():
        page = client.get(f"{url}?event={event}&min_games=0")
        assert page.status_code == 200, url
        html = page.get_data(as_text=True)
        assert all(f'id="panel-{p}"' in html for p in panels), url
        assert "n=" in html and "No games match" not in html, url
        assert 'name="deck"' not in html and 'name="battlefield"' not in html  # no decks nor battlefields
        assert f'<option value="{event}" selected>' in html  # the game's own events in the form
    titans_page = client.get(f"/titans/titans?event={event}&min_games=0").get_data(as_text=True)
    shapes = {fig: figure_json(titans_page, fig)["layout"].get("shapes", []) for fig in PAGES["/titans/titans"]}
    assert [s["x0"] for s in shapes["titan-win-rates"]] == [0.5] and shapes["titan-survival"] == []  # no "even"
    species = panel_rows(client.get(f"/titans/species?event={event}&min_games=0").get_data(as_text=True),
                         "species-win-rates")
    want = expected_counts(logs)["species"]
    assert sorted(int(row.split()[1]) for row in species) == sorted(g for g, _, _ in want.values())
    thin = client.get(f"/titans/species?event={event}&min_games=1000").get_data(as_text=True)
    assert "grey italic rows" in thin and "grey: fewer than 1000 games" in thin
    refused = client.get("/titans/titans?deck=Zulus")
    assert refused.status_code == 400 and "'deck'" in refused.get_data(as_text=True)
    csv = client.get(f"/download/titans-endings.csv?event={event}&min_games=0")
    assert csv.status_code == 200 and csv.get_data(as_text=True).startswith("end_reason,games")


def test_every_titans_csv_download_has_the_columns_the_docs_list(client, titans_event):
    """docs/dashboards.md, "CSV downloads", lists each Titans dataset's columns, as the browser test
    does Battle for Empyrean's (whose site has no Titans games to fill them)."""
    event, _ = titans_event
    documented = {url: columns for url, columns in documented_csvs().items() if "/titans-" in url}
    titans_datasets = {f"{name}.csv" for name in DATASETS if name.startswith("titans-")}
    assert {url.split("/")[-1] for url in documented} == titans_datasets
    for url, columns in documented.items():
        answer = client.get(f"{url}?event={event}&min_games=0")
        assert answer.status_code == 200, url
        header = next(csv_module.reader(io.StringIO(answer.get_data(as_text=True))), [])
        assert header == columns, f"{url}: the docs list {columns}, the file has {header}"
