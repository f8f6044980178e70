"""The statistics read API (GET /api/v1/stats/...) against real PostgreSQL.

Known rows go straight into the agg_* tables of a database of this module's own (the replay worker
that fills them in production is tested elsewhere); every count, rate and Wilson bound below is
computed here by hand or with the textbook formula (``wilson`` below), never with the helper under
test.
"""

from __future__ import annotations

import dataclasses
import math
import re
import secrets
from statistics import NormalDist

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from psycopg import sql
from psycopg.conninfo import make_conninfo
from service_helpers import running_app

from services.api import create_app
from services.platform import migrate
from services.stats import intervals, queries
from services.stats.aggregates import AGGREGATES

Z = NormalDist().inv_cdf(0.975)  # 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval, straight from its formula (Wilson 1927)."""
    p = k / n
    denominator = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denominator
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def assert_rate(r: dict, k: int, n: int) -> None:
    assert (r["successes"], r["n"]) == (k, n)
    if n == 0:
        assert r["rate"] is None and r["low"] is None and r["high"] is None
        return
    low, high = wilson(k, n)
    assert r["rate"] == pytest.approx(k / n, abs=1e-12)
    assert r["low"] == pytest.approx(low, abs=1e-12)
    assert r["high"] == pytest.approx(high, abs=1e-12)


# --- the data -----------------------------------------------------------------------------------
# Week 2026-W10 is Mon 2026-03-02 .. Sun 2026-03-08; W11 starts Mon 2026-03-09.

DECK_RESULTS = [  # played_on, event_id, players, deck, games, wins, draws, first_player_games, first_player_wins
    ("2026-03-02", 1, 2, "Vampires", 10, 7, 1, 5, 4),
    ("2026-03-02", 1, 2, "Cavalry", 10, 2, 1, 5, 2),
    ("2026-03-02", 1, 2, "Ghosts", 0, 0, 0, 0, 0),       # a game taken back out: n = 0
    ("2026-03-09", 2, 2, "Vampires", 4, 1, 0, 2, 1),
    ("2026-03-09", 2, 2, "Cavalry", 4, 3, 0, 2, 2),
    ("2026-03-10", None, 2, "Spectres", 6, 5, 0, 3, 3),
    ("2026-03-10", None, 2, "Knights", 1, 1, 0, 1, 1),
    ("2026-03-02", 1, 3, "Vampires", 30, 10, 0, 10, 4),  # 3-player table: never mixed with 2
]
MATCHUPS = [  # played_on, event_id, players, deck, opponent_deck, games, wins, draws
    ("2026-03-02", 1, 2, "Vampires", "Cavalry", 10, 7, 1),
    ("2026-03-02", 1, 2, "Cavalry", "Vampires", 10, 2, 1),
    ("2026-03-09", 2, 2, "Vampires", "Cavalry", 4, 1, 0),
    ("2026-03-09", 2, 2, "Cavalry", "Vampires", 4, 3, 0),
    ("2026-03-10", None, 2, "Spectres", "Spectres", 2, 1, 0),
    ("2026-03-02", 1, 3, "Vampires", "Cavalry", 20, 15, 0),
]
BATTLEFIELD_DECKS = [  # played_on, event_id, players, battlefield, deck, games, wins, draws, bf wins, might_sum
    ("2026-03-02", 1, 2, "Fountain of Janus", "Vampires", 6, 5, 0, 4, 60),
    ("2026-03-02", 1, 2, "Fountain of Janus", "Cavalry", 6, 1, 1, 2, 30),
    ("2026-03-09", 2, 2, "Fountain of Janus", "Vampires", 2, 0, 0, 0, 10),
    ("2026-03-02", 1, 2, "Plains", "Vampires", 4, 2, 1, 3, 20),
    ("2026-03-02", 1, 3, "Plains", "Vampires", 9, 9, 0, 9, 90),
]
BATTLEFIELD_FIRST_PLAYER = [  # played_on, event_id, players, battlefield, games, fp bf wins, fp game wins, draws
    ("2026-03-02", 1, 2, "Fountain of Janus", 6, 4, 3, 1),
    ("2026-03-09", 2, 2, "Fountain of Janus", 2, 1, 2, 0),
    ("2026-03-02", 1, 2, "Plains", 4, 0, 0, 1),
]
FIRST_PLAYER = [  # played_on, event_id, players, games, first_player_wins, draws
    ("2026-03-02", 1, 2, 10, 6, 1),
    ("2026-03-08", None, 2, 4, 1, 0),   # a Sunday: still ISO week 10
    ("2026-03-09", 2, 2, 4, 3, 0),
    ("2026-03-10", None, 3, 9, 3, 0),
]
CARD_METRICS = [  # played_on, event_id, players, deck, card, deployed_games, deployed_wins, deploys,
    #               first_deployed_round_sum, destroyed, might_gained_sum, might_at_end_sum
    ("2026-03-02", 1, 2, "Vampires", "Eater of Souls", 6, 5, 7, 18, 2, 12, 30),
    ("2026-03-09", 2, 2, "Vampires", "Eater of Souls", 2, 0, 2, 10, 1, 0, 4),
    ("2026-03-02", 1, 2, "Cavalry", "Horse Archers", 10, 2, 12, 15, 3, 5, 40),
]
GAME_MARGINS = [  # played_on, event_id, players, battlefield ('*' = every game), margin, games
    ("2026-03-02", 1, 2, "*", 0, 1),
    ("2026-03-02", 1, 2, "*", 3, 4),
    ("2026-03-09", 2, 2, "*", 3, 2),
    ("2026-03-09", 2, 2, "*", 10, 1),
    ("2026-03-02", 1, 2, "Plains", 3, 2),
    ("2026-03-02", 1, 3, "*", 5, 9),
]
DECK_ROUNDS = [  # played_on, event_id, players, deck, round, games, might_sum, won_games, won_might_sum,
    #              essence_spent_sum
    ("2026-03-02", 1, 2, "Vampires", 1, 10, 30, 7, 25, 20),
    ("2026-03-09", 2, 2, "Vampires", 1, 4, 8, 1, 4, 8),
    ("2026-03-02", 1, 2, "Cavalry", 1, 10, 20, 2, 6, 15),
]
BATTLEFIELD_MATCHUPS = [  # played_on, event_id, players, battlefield, deck, opponent_deck, games, wins, draws
    ("2026-03-02", 1, 2, "Plains", "Vampires", "Cavalry", 4, 2, 1),
    ("2026-03-02", 1, 2, "Fountain of Janus", "Vampires", "Cavalry", 6, 5, 0),
]
BATTLEFIELD_CARDS = [  # played_on, event_id, players, battlefield, deck, card, then as CARD_METRICS
    ("2026-03-02", 1, 2, "Plains", "Vampires", "Eater of Souls", 3, 2, 3, 6, 1, 2, 9),
]
COLUMNS = {
    "agg_deck_results": "played_on, event_id, players, deck, games, wins, draws, first_player_games, first_player_wins",
    "agg_matchups": "played_on, event_id, players, deck, opponent_deck, games, wins, draws",
    "agg_battlefield_decks": "played_on, event_id, players, battlefield, deck, games, wins, draws, "
                             "battlefield_wins, might_sum",
    "agg_battlefield_first_player": "played_on, event_id, players, battlefield, games, "
                                    "first_player_battlefield_wins, first_player_game_wins, draws",
    "agg_first_player": "played_on, event_id, players, games, first_player_wins, draws",
    "agg_card_metrics": "played_on, event_id, players, deck, card, deployed_games, deployed_wins, deploys, "
                        "first_deployed_round_sum, destroyed, might_gained_sum, might_at_end_sum",
    "agg_game_margins": "played_on, event_id, players, battlefield, margin, games",
    "agg_deck_rounds": "played_on, event_id, players, deck, round, games, might_sum, won_games, won_might_sum, "
                       "essence_spent_sum",
    "agg_battlefield_matchups": "played_on, event_id, players, battlefield, deck, opponent_deck, games, wins, draws",
    "agg_battlefield_cards": "played_on, event_id, players, battlefield, deck, card, deployed_games, deployed_wins, "
                             "deploys, first_deployed_round_sum, destroyed, might_gained_sum, might_at_end_sum",
}
TABLES = {
    "agg_deck_results": DECK_RESULTS, "agg_matchups": MATCHUPS,
    "agg_battlefield_decks": BATTLEFIELD_DECKS, "agg_battlefield_first_player": BATTLEFIELD_FIRST_PLAYER,
    "agg_first_player": FIRST_PLAYER, "agg_card_metrics": CARD_METRICS,
    "agg_game_margins": GAME_MARGINS, "agg_deck_rounds": DECK_ROUNDS,
    "agg_battlefield_matchups": BATTLEFIELD_MATCHUPS, "agg_battlefield_cards": BATTLEFIELD_CARDS,
}
ENDPOINTS = ["decks", "matchups", "battlefields", "first-player", "cards", "trends", "margins", "rounds"]
TITANS_ENDPOINTS = ["species", "matchups", "titans", "maneuvers", "endings", "initiative", "squads"]


@pytest.fixture(scope="module")
def stats_database(fresh_database) -> str:
    url = fresh_database()
    migrate.upgrade(url)
    with psycopg.connect(url) as conn:
        for table, rows in TABLES.items():
            marks = ", ".join(["%s"] * len(rows[0]))
            with conn.cursor() as cur:
                cur.executemany(f"INSERT INTO {table} ({COLUMNS[table]}) VALUES ({marks})", rows)
    return url


@pytest.fixture(scope="module")
def app(config, stats_database):
    with running_app(dataclasses.replace(config, database_url=stats_database)) as app:
        yield app


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def get(client, endpoint: str, query: str = "") -> dict:
    response = client.get(f"/api/v1/stats/{endpoint}" + (f"?{query}" if query else ""))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def by(rows: list[dict], *keys: str) -> dict:
    return {tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]: r for r in rows}


# --- the Wilson helper --------------------------------------------------------------------------


def test_wilson_helper_7_of_10():
    low, high = intervals.wilson_interval(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    assert (low, high) == pytest.approx(wilson(7, 10), abs=1e-12)


def test_wilson_helper_edges():
    assert intervals.wilson_interval(0, 0) == (None, None)
    assert intervals.rate(0, 0) == {"successes": 0, "n": 0, "rate": None, "low": None, "high": None}
    low, high = intervals.wilson_interval(0, 5)
    assert low == 0.0 and high == pytest.approx(wilson(0, 5)[1])
    low, high = intervals.wilson_interval(5, 5)
    assert high == 1.0 and low == pytest.approx(wilson(5, 5)[0])
    assert intervals.wilson_intervals([], []) == []
    assert intervals.share(3, 0) is None and intervals.mean(3, 0) is None
    assert intervals.difference(None, 0.5) is None
    for bad in [(-1, 5), (6, 5), (1, -1)]:
        with pytest.raises(ValueError):
            intervals.rate(*bad)


@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=30))
def test_wilson_helper_matches_the_formula(pairs):
    pairs = [(min(k, n), n) for k, n in pairs]
    for (k, n), r in zip(pairs, intervals.rates(pairs)):
        assert_rate(r, k, n)
        if n:
            assert 0.0 <= r["low"] <= k / n <= r["high"] <= 1.0


# --- decks ----------------------------------------------------------------------------------------


def test_decks_counts_rates_intervals_and_meta_share(client):
    body = get(client, "decks", "min_games=5")
    rows = by(body["rows"], "deck")
    assert set(rows) == {"Vampires", "Cavalry", "Spectres", "Knights", "Ghosts"}
    total = 14 + 14 + 6 + 1 + 0
    for deck, games, wins, draws in [("Vampires", 14, 8, 1), ("Cavalry", 14, 5, 1), ("Spectres", 6, 5, 0),
                                     ("Knights", 1, 1, 0), ("Ghosts", 0, 0, 0)]:
        row = rows[deck]
        assert (row["games"], row["wins"], row["draws"]) == (games, wins, draws)
        assert_rate(row["win_rate"], wins, games)
        assert row["meta_share"] == pytest.approx(games / total)
        assert row["thin"] == (games < 5)
    assert body["filters"] == {"from": None, "to": None, "event": None, "players": 2, "deck": None,
                               "battlefield": None, "min_games": 5}
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", body["generated_at"])


def test_decks_are_sorted_by_the_intervals_lower_bound(client):
    rows = get(client, "decks")["rows"]
    # Knights won its one game (rate 1.0) but its lower bound is 0.21: it ranks below
    # Spectres (5 of 6, 0.44) and Vampires (8 of 14, 0.33); n = 0 comes last
    assert [r["deck"] for r in rows] == ["Spectres", "Vampires", "Knights", "Cavalry", "Ghosts"]
    assert wilson(5, 6)[0] > wilson(8, 14)[0] > wilson(1, 1)[0] > wilson(5, 14)[0]


def test_date_range_is_inclusive(client):
    rows = by(get(client, "decks", "to=2026-03-02")["rows"], "deck")
    assert set(rows) == {"Vampires", "Cavalry", "Ghosts"}
    assert_rate(rows["Vampires"]["win_rate"], 7, 10)
    assert rows["Vampires"]["win_rate"]["low"] == pytest.approx(0.3968, abs=5e-5)
    assert rows["Vampires"]["win_rate"]["high"] == pytest.approx(0.8922, abs=5e-5)
    rows = by(get(client, "decks", "from=2026-03-09&to=2026-03-10")["rows"], "deck")
    assert {d: r["games"] for d, r in rows.items()} == {"Vampires": 4, "Cavalry": 4, "Spectres": 6, "Knights": 1}
    assert rows["Spectres"]["meta_share"] == pytest.approx(6 / 15)
    assert get(client, "decks", "from=2026-03-03&to=2026-03-08")["rows"] == []


def test_event_filter_repeatable_comma_and_none(client):
    one = by(get(client, "decks", "event=1")["rows"], "deck")
    assert {d: r["games"] for d, r in one.items()} == {"Vampires": 10, "Cavalry": 10, "Ghosts": 0}
    body = get(client, "decks", "event=2,none")
    assert body["filters"]["event"] == [2, "none"]
    assert {r["deck"]: r["games"] for r in body["rows"]} == {"Vampires": 4, "Cavalry": 4, "Spectres": 6, "Knights": 1}
    both = get(client, "decks", "event=2&event=1")
    assert both["filters"]["event"] == [1, 2]
    assert {r["deck"]: r["games"] for r in both["rows"]} == {"Vampires": 14, "Cavalry": 14, "Ghosts": 0}
    assert get(client, "decks", "event=99")["rows"] == []


def test_players_filter_never_mixes_table_sizes(client):
    rows = get(client, "decks", "players=3")["rows"]
    assert [(r["deck"], r["games"], r["wins"]) for r in rows] == [("Vampires", 30, 10)]
    assert rows[0]["meta_share"] == 1.0
    assert_rate(rows[0]["win_rate"], 10, 30)


def test_min_games_flags_thin_rows_without_dropping_them(client):
    for min_games, thin in [(0, set()), (6, {"Knights", "Ghosts"}), (7, {"Spectres", "Knights", "Ghosts"}),
                            (30, {"Vampires", "Cavalry", "Spectres", "Knights", "Ghosts"})]:
        rows = get(client, "decks", f"min_games={min_games}")["rows"]
        assert len(rows) == 5
        assert {r["deck"] for r in rows if r["thin"]} == thin
    assert get(client, "decks")["filters"]["min_games"] == 30  # the default


def test_deck_filter_keeps_shares_of_all_decks(client):
    rows = get(client, "decks", "deck=Spectres")["rows"]
    assert [r["deck"] for r in rows] == ["Spectres"]
    assert rows[0]["meta_share"] == pytest.approx(6 / 35)


def test_no_games_in_the_filter_gives_empty_rows_not_errors(client):
    for endpoint in ENDPOINTS:
        body = get(client, endpoint, "from=2030-01-01")
        assert body["rows"] == []
    overall = get(client, "first-player", "from=2030-01-01")["overall"]
    assert overall["games"] == 0 and overall["thin"]
    assert overall["win_rate"] == {"successes": 0, "n": 0, "rate": None, "low": None, "high": None}


# --- matchups, battlefields, first player, cards, trends -----------------------------------------


def test_matchups(client):
    rows = by(get(client, "matchups", "min_games=10")["rows"], "deck", "opponent_deck")
    assert set(rows) == {("Vampires", "Cavalry"), ("Cavalry", "Vampires"), ("Spectres", "Spectres")}
    vc, cv, mirror = rows["Vampires", "Cavalry"], rows["Cavalry", "Vampires"], rows["Spectres", "Spectres"]
    assert (vc["games"], vc["wins"], vc["draws"], vc["thin"], vc["mirror"]) == (14, 8, 1, False, False)
    assert_rate(vc["win_rate"], 8, 14)
    assert_rate(cv["win_rate"], 5, 14)
    assert mirror["mirror"] and mirror["thin"]
    assert_rate(mirror["win_rate"], 1, 2)
    only = get(client, "matchups", "event=2&deck=Cavalry")["rows"]
    assert [(r["deck"], r["opponent_deck"], r["games"], r["wins"]) for r in only] == [("Cavalry", "Vampires", 4, 3)]


def test_battlefields_by_deck_with_difference_from_the_decks_rate(client):
    body = get(client, "battlefields", "min_games=5")
    rows = by(body["rows"], "battlefield", "deck")
    assert set(rows) == {("Fountain of Janus", "Vampires"), ("Fountain of Janus", "Cavalry"), ("Plains", "Vampires")}
    fv = rows["Fountain of Janus", "Vampires"]
    assert (fv["games"], fv["wins"], fv["draws"], fv["thin"]) == (8, 5, 0, False)
    assert_rate(fv["win_rate"], 5, 8)
    assert_rate(fv["deck_win_rate"], 8, 14)
    assert fv["difference"] == pytest.approx(5 / 8 - 8 / 14)
    assert_rate(fv["battlefield_win_rate"], 4, 8)
    assert fv["average_might"] == pytest.approx(70 / 8)
    fc = rows["Fountain of Janus", "Cavalry"]
    assert fc["difference"] == pytest.approx(1 / 6 - 5 / 14)
    assert rows["Plains", "Vampires"]["thin"]
    # the deck's overall rate is taken in the same filter
    fv1 = by(get(client, "battlefields", "event=1")["rows"], "battlefield", "deck")["Fountain of Janus", "Vampires"]
    assert_rate(fv1["deck_win_rate"], 7, 10)
    assert fv1["difference"] == pytest.approx(5 / 6 - 7 / 10)

    first = by(body["battlefields"], "battlefield")
    fountain = first["Fountain of Janus"]
    assert (fountain["games"], fountain["draws"], fountain["thin"]) == (8, 1, False)
    assert_rate(fountain["first_player_battlefield_win_rate"], 5, 8)
    assert_rate(fountain["first_player_game_win_rate"], 5, 8)
    assert_rate(first["Plains"]["first_player_battlefield_win_rate"], 0, 4)
    assert first["Plains"]["first_player_battlefield_win_rate"]["low"] == 0.0


def test_first_player_overall_and_per_iso_week(client):
    body = get(client, "first-player", "min_games=10")
    overall = body["overall"]
    assert (overall["games"], overall["first_player_wins"], overall["draws"]) == (18, 10, 1)
    assert_rate(overall["win_rate"], 10, 18)
    assert overall["baseline"] == 0.5 and not overall["thin"]
    assert [(w["week"], w["week_start"], w["games"], w["first_player_wins"], w["thin"]) for w in body["rows"]] == [
        ("2026-W10", "2026-03-02", 14, 7, False), ("2026-W11", "2026-03-09", 4, 3, True)]
    assert_rate(body["rows"][0]["win_rate"], 7, 14)
    assert_rate(body["rows"][1]["win_rate"], 3, 4)
    three = get(client, "first-player", "players=3")
    assert three["overall"]["baseline"] == pytest.approx(1 / 3)
    assert_rate(three["overall"]["win_rate"], 3, 9)


def test_cards_deployed_versus_not_deployed(client):
    rows = by(get(client, "cards", "min_games=8")["rows"], "deck", "card")
    eater = rows["Vampires", "Eater of Souls"]
    assert (eater["deck_games"], eater["games_deployed"], eater["deploys"], eater["destroyed"]) == (14, 8, 9, 3)
    assert_rate(eater["win_rate_deployed"], 5, 8)
    assert_rate(eater["win_rate_not_deployed"], 8 - 5, 14 - 8)
    assert eater["difference"] == pytest.approx(5 / 8 - 3 / 6)
    assert eater["deploy_rate"] == pytest.approx(8 / 14)
    assert eater["average_might_contributed"] == pytest.approx(34 / 8)
    assert eater["average_might_gained"] == pytest.approx(12 / 8)
    assert eater["average_first_deploy_round"] == pytest.approx(28 / 8)
    assert not eater["thin"]
    archers = rows["Cavalry", "Horse Archers"]
    assert_rate(archers["win_rate_deployed"], 2, 10)
    assert_rate(archers["win_rate_not_deployed"], 3, 4)
    # in event 1 the Horse Archers were deployed in every Cavalry game: "not deployed" has n = 0
    archers1 = by(get(client, "cards", "event=1")["rows"], "deck", "card")["Cavalry", "Horse Archers"]
    assert_rate(archers1["win_rate_not_deployed"], 0, 0)
    assert archers1["difference"] is None


def test_trends_per_deck_per_iso_week(client):
    rows = by(get(client, "trends", "min_games=4")["rows"], "week", "deck")
    assert set(rows) == {("2026-W10", d) for d in ("Vampires", "Cavalry", "Ghosts")} | {
        ("2026-W11", d) for d in ("Vampires", "Cavalry", "Spectres", "Knights")}
    v10 = rows["2026-W10", "Vampires"]
    assert (v10["week_start"], v10["games"], v10["wins"], v10["meta_share"]) == ("2026-03-02", 10, 7, 0.5)
    assert_rate(v10["win_rate"], 7, 10)
    assert rows["2026-W11", "Spectres"]["meta_share"] == pytest.approx(6 / 15)
    assert_rate(rows["2026-W11", "Knights"]["win_rate"], 1, 1)
    assert rows["2026-W11", "Knights"]["thin"] and not rows["2026-W11", "Vampires"]["thin"]
    only = get(client, "trends", "deck=Vampires")["rows"]
    assert [(r["week"], r["meta_share"]) for r in only] == [("2026-W10", 0.5), ("2026-W11", pytest.approx(4 / 15))]


# --- bad parameters -------------------------------------------------------------------------------


def test_margins_distribution_mean_and_median(client):
    body = get(client, "margins")
    assert [(r["margin"], r["games"]) for r in body["rows"]] == [(0, 1), (3, 6), (10, 1)]
    assert body["rows"][1]["share"] == pytest.approx(6 / 8)
    # values 0, 3, 3, 3, 3, 3, 3, 10: mean 28 / 8, median 3
    assert body["summary"] == {"games": 8, "draws": 1, "mean_margin": 3.5, "median_margin": 3.0, "thin": True}
    plains = get(client, "margins", "battlefield=Plains&deck=Cavalry")  # the deck filter does not apply
    assert [(r["margin"], r["games"]) for r in plains["rows"]] == [(3, 2)]
    assert get(client, "margins", "players=3")["summary"]["median_margin"] == 5.0


def test_rounds_average_might_won_and_lost(client):
    body = get(client, "rounds", "battlefield=Plains")
    assert body["battlefield_applied"] is False
    rows = by(body["rows"], "deck", "round")
    vampires = rows[("Vampires", 1)]
    assert (vampires["games"], vampires["won_games"]) == (14, 8)
    assert vampires["average_might"] == pytest.approx(38 / 14)
    assert vampires["average_might_won"] == pytest.approx(29 / 8)
    assert vampires["average_might_lost"] == pytest.approx(9 / 6)
    assert vampires["average_essence_spent"] == pytest.approx(2.0)
    assert set(by(get(client, "rounds", "deck=Cavalry")["rows"], "deck")) == {"Cavalry"}


def test_battlefield_filter_selects_games_with_that_battlefield_in_play(client):
    decks = by(get(client, "decks", "battlefield=Plains")["rows"], "deck")
    assert set(decks) == {"Vampires"}
    assert_rate(decks["Vampires"]["win_rate"], 2, 4)
    assert decks["Vampires"]["meta_share"] == 1.0
    matchups = get(client, "matchups", "battlefield=Plains")["rows"]
    assert [(r["deck"], r["opponent_deck"], r["games"], r["wins"]) for r in matchups] == [("Vampires", "Cavalry", 4, 2)]
    card = by(get(client, "cards", "battlefield=Plains")["rows"], "card")["Eater of Souls"]
    assert_rate(card["win_rate_deployed"], 2, 3)
    assert_rate(card["win_rate_not_deployed"], 0, 1)
    overall, weeks = (lambda b: (b["overall"], b["rows"]))(get(client, "first-player", "battlefield=Plains"))
    assert (overall["games"], overall["first_player_wins"], overall["draws"]) == (4, 0, 1)
    trends = get(client, "trends", "battlefield=Fountain of Janus")["rows"]
    assert [(r["week"], r["deck"], r["games"]) for r in trends] == [
        ("2026-W10", "Cavalry", 6), ("2026-W10", "Vampires", 6), ("2026-W11", "Vampires", 2)]
    bf_rows, first = (lambda b: (b["rows"], b["battlefields"]))(get(client, "battlefields", "battlefield=Plains"))
    assert {r["battlefield"] for r in bf_rows} == {"Plains"} and [f["battlefield"] for f in first] == ["Plains"]


def test_an_unknown_deck_or_battlefield_is_a_400_that_lists_the_names(client):
    """?deck=Nope used to answer 200 with no rows, which reads as "no games"."""
    for query, parameter, named in [("deck=Nope", "deck", "Vikings of Valhalla"),
                                    ("deck=Vampires&deck=Nope", "deck", "Zulus of the Mfecane"),
                                    ("battlefield=Nowhere", "battlefield", "The Throne")]:
        for endpoint in ENDPOINTS:
            response = client.get(f"/api/v1/stats/{endpoint}?{query}")
            error = response.get_json()["error"]
            assert response.status_code == 400 and error["parameter"] == parameter, (endpoint, query)
            assert "'Nope'" in error["message"] or "'Nowhere'" in error["message"]
            assert named in error["message"]  # the names there are
    # a deck the statistics counted (a mash-up's name is the players' own) and a premade deck with
    # no games yet are names the service knows: rows, or none
    assert [r["deck"] for r in get(client, "decks", "deck=Vampires")["rows"]] == ["Vampires"]
    assert get(client, "decks", "deck=Vikings of Valhalla")["rows"] == []
    assert get(client, "decks", "battlefield=The Throne")["rows"] == []


@pytest.mark.parametrize("query, parameter", [
    ("from=notadate", "from"), ("to=2026-02-30", "to"), ("from=2026-3-1", "from"), ("to=", "to"),
    ("from=2026-03-10&to=2026-03-01", "from"), ("from=2026-03-01&from=2026-03-02", "from"),
    ("players=5", "players"), ("players=two", "players"), ("players=", "players"),
    ("event=abc", "event"), ("event=1,,2", "event"), ("event=0", "event"), ("event=-3", "event"),
    ("event=%C2%B2", "event"), ("event=99999999999999999999", "event"),
    ("min_games=-1", "min_games"), ("min_games=lots", "min_games"),
    ("deck=", "deck"), ("deck=a%00b", "deck"), ("date_from=2026-03-01", "date_from"),
    ("battlefield=*", "battlefield"), ("battlefield=a&battlefield=b", "battlefield"),
])
def test_bad_parameters_are_400_naming_the_parameter(client, query, parameter):
    for endpoint in ENDPOINTS:
        response = client.get(f"/api/v1/stats/{endpoint}?{query}")
        assert response.status_code == 400, (endpoint, query, response.get_json())
        error = response.get_json()["error"]
        assert error["status"] == 400 and error["parameter"] == parameter
        assert f"'{parameter}'" in error["message"]


# --- aggregates only ------------------------------------------------------------------------------


def test_the_queries_name_only_aggregate_tables():
    assert len(queries.ALL_SQL) >= 9
    for name, text in queries.ALL_SQL.items():
        text = re.sub(r"extract\(\w+ FROM \w+\)", "extract()", text, flags=re.I)  # not a table
        ctes = set(re.findall(r"(\w+)\s+AS\s*\(", text, flags=re.I))
        tables = set(re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", text, flags=re.I))
        assert tables, name
        assert {t for t in tables - ctes if not t.startswith("agg_")} == set(), name
    # and the filter fragment names only key columns
    where, _ = dataclasses.replace(queries.Filters(), events=(1,), no_event=True, decks=("x",)).where()
    assert not re.search(r"\b(FROM|JOIN|SELECT)\b", where, flags=re.I)


def test_every_endpoint_works_for_a_role_that_can_read_only_the_aggregates(config, stats_database):
    """The strong form: a database role with SELECT on agg_* alone gets every answer, and on the
    three columns of events that say who may read an event's numbers (an unlisted event's are not
    anyone's: services.stats.names.hide_unreadable)."""
    role = f"stats_reader_{secrets.token_hex(4)}"
    with psycopg.connect(stats_database, autocommit=True) as conn:
        try:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        except psycopg.errors.InsufficientPrivilege:
            pytest.skip("this server's user may not create roles")
        aggregates = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'agg%'")]
        # every table services.stats.aggregates declares (BfE's, agg_faction_results of every game,
        # Titans'), the weekly roll-ups of those that have one (0004), and agg_event_games (the events page's)
        assert set(TABLES) <= set(aggregates) == ({a.table for a in AGGREGATES} | {"agg_event_games"}
                                                  | {a.weekly_table for a in AGGREGATES if a.weekly})
        conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(
            sql.SQL(", ").join(map(sql.Identifier, aggregates)), sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT SELECT (id, visibility, organiser) ON events TO {}").format(sql.Identifier(role)))
    app = create_app(dataclasses.replace(config, database_url=make_conninfo(stats_database, user=role)))
    try:
        client = app.test_client()
        with psycopg.connect(make_conninfo(stats_database, user=role)) as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT count(*) FROM games")
        for endpoint in ENDPOINTS:
            for query in ["", "event=1,none&from=2026-03-01&to=2026-03-31&deck=Vampires&min_games=1"]:
                get(client, endpoint, query)
        for endpoint in TITANS_ENDPOINTS:  # Titans of Empyrean's, over its own aggregates
            for query in ["", "event=1,none&from=2026-03-01&to=2026-03-31&min_games=1"]:
                get(client, f"titans/{endpoint}", query)
    finally:
        app.extensions["empyrean"].close()
        with psycopg.connect(stats_database, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))
