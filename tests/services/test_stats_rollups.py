"""The weekly roll-ups (migration 0004) give exactly the answers of the daily rows, on real PostgreSQL.

Every statistic is computed twice over the same database: as served (full ISO weeks from the
agg_*_weekly tables, partial weeks from the daily rows) and from the daily rows alone
(``weekly_split`` forced to None), for many filters, after inserts, upserts and deletes of daily
rows (each fires the triggers that keep the roll-ups) and after real games' records are written
and taken out again. ``rollup_differences`` compares each roll-up with its daily table summed.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import random
import secrets

import psycopg
import pytest

from engine.bfe.selfplay import self_play
from engine.replay import ENGINE_VERSION, replay
from services.games.records import (
    AGGREGATE_TABLES,
    FinishedGame,
    apply_contribution,
    remove_records,
    rollup_differences,
    write_records,
)
from services.platform import migrate
from services.stats import queries
from services.stats.aggregates import AGGREGATES, COMMON_KEY, WEEKLY_COMMON_KEY
from services.stats.filters import Filters

STATISTICS = [queries.deck_stats, queries.matchup_stats, queries.battlefield_stats, queries.first_player_stats,
              queries.card_stats, queries.trend_stats, queries.margin_stats, queries.round_stats]
VAMPIRES = "Vampires of the Evernight"
FOUNTAIN = "The Fountain of Janus"
START = dt.date(2025, 12, 22)  # a Monday; the data runs over the new year (ISO week 2026-W01)
DAYS = 45


@functools.lru_cache(maxsize=1)
def pool() -> list:
    """Real games (self-play, replayed for their records): 2- and 3-player, 2026.2 catalog."""
    out = []
    for i in range(24):
        raw = json.dumps(self_play(100 + i, bot="random", catalog="2026.2", players=3 if i % 6 == 5 else 2)).encode()
        result = replay(raw)
        assert result.verdict.status == "valid"
        out.append((raw, result))
    return out


def write_games(conn, rng: random.Random, n: int) -> list[int]:
    """``n`` games cloned from the pool onto random days (over the new year) and events (or none),
    each written as the worker writes it (write_records: record rows, then their contribution)."""
    ids = []
    for _ in range(n):
        raw, result = rng.choice(pool())
        game_id = conn.execute("INSERT INTO games (content_hash, raw_log, status) VALUES (%s, %s, 'valid') "
                               "RETURNING id", (secrets.token_hex(32), raw)).fetchone()[0]
        write_records(conn, [FinishedGame(game_id, result.record, result.log,
                                          played_on=START + dt.timedelta(rng.randrange(DAYS)),
                                          event_id=rng.choice([None, 1, 2, 3]), counted=True)],
                      engine_version=ENGINE_VERSION)
        ids.append(game_id)
    return ids


def filters_to_try() -> list[Filters]:
    d = dt.date.fromisoformat
    out = [Filters(), Filters(players=3), Filters(decks=(VAMPIRES,)),
           Filters(decks=("Cavalry of the Parthian Empire", "Knights of the Round Table")),
           Filters(battlefield=FOUNTAIN), Filters(battlefield="The Crossroads", decks=("Spectres of the Necropolis",)),
           Filters(events=(1,)), Filters(events=(2,), no_event=True, date_from=d("2026-01-01")),
           Filters(date_from=d("2026-01-05"), date_to=d("2026-01-18")),  # exactly two ISO weeks
           Filters(date_from=d("2026-01-06"), date_to=d("2026-01-10")),  # inside one week: daily only
           Filters(date_to=d("2026-01-01")), Filters(date_from=d("2025-12-31")),
           Filters(date_from=d("2026-01-01"), date_to=d("2026-01-01"))]
    rng = random.Random(5)
    for _ in range(40):  # ranges starting and ending on every day of the week
        a = START - dt.timedelta(days=3) + dt.timedelta(days=rng.randrange(DAYS + 6))
        b = a + dt.timedelta(days=rng.randrange(0, 30))
        out.append(Filters(date_from=a, date_to=b, decks=rng.choice([None, (VAMPIRES,)]),
                           battlefield=rng.choice([None, FOUNTAIN]), players=rng.choice([2, 3])))
    return out


def answers(url: str, monkeypatch, *, daily_only: bool) -> list:
    with monkeypatch.context() as m:
        if daily_only:
            m.setattr(queries, "weekly_split", lambda filters: None)
        out = []
        with psycopg.connect(url) as conn:
            for f in filters_to_try():
                for statistic in STATISTICS:
                    queries.read_snapshot(conn)
                    out.append((f, statistic.__name__, json.dumps(statistic(conn, f), default=str)))
                    conn.rollback()
    return out


def assert_same_answers(url: str, monkeypatch) -> None:
    served = answers(url, monkeypatch, daily_only=False)
    daily = answers(url, monkeypatch, daily_only=True)
    assert len(served) == len(daily)
    for (f, name, a), (_, _, b) in zip(served, daily):
        assert a == b, (name, f)
    assert any(len(a) > 200 for _, _, a in served)  # the answers are not all empty


@pytest.fixture
def database(fresh_database) -> str:
    url = fresh_database()
    migrate.upgrade(url)
    return url


KEY_COLUMNS_SQL = """
SELECT a.attname FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
WHERE c.conrelid = %(table)s::regclass AND c.contype = 'u' AND c.conname = %(table)s || '_key'
ORDER BY array_position(c.conkey, a.attnum)"""
OTHER_COLUMNS_SQL = """
SELECT a.attname FROM pg_attribute a
WHERE a.attrelid = %(table)s::regclass AND a.attnum > 0 AND NOT a.attisdropped
  AND a.attnum <> ALL (SELECT unnest(conkey) FROM pg_constraint WHERE conrelid = %(table)s::regclass AND contype = 'u')
ORDER BY a.attnum"""


def test_the_aggregate_declaration_matches_the_migrated_schema(database):
    """services.stats.aggregates is the one list of the aggregates' columns (the fold's upserts, the
    recount and roll-up checks and the roll-up reads are made from it): it names exactly the tables,
    key constraints, keys and values that the migrations made."""
    with psycopg.connect(database) as conn:
        def columns(sql: str, table: str) -> list[str]:
            return [r[0] for r in conn.execute(sql, {"table": table})]

        tables = {r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'agg%'")}
        # agg_event_games counts games by pipeline status (triggers on games), not their contribution
        assert tables - {"agg_event_games"} == {a.table for a in AGGREGATES} | {
            a.weekly_table for a in AGGREGATES if a.weekly}
        for a in AGGREGATES:
            assert columns(KEY_COLUMNS_SQL, a.table) == [*COMMON_KEY, *a.keys], a.table
            assert columns(OTHER_COLUMNS_SQL, a.table) == list(a.values), a.table
            if a.weekly:
                assert columns(KEY_COLUMNS_SQL, a.weekly_table) == [*WEEKLY_COMMON_KEY, *a.keys], a.table
                assert columns(OTHER_COLUMNS_SQL, a.weekly_table) == [*a.values, "daily_rows"], a.table


def test_weekly_split_reads_full_iso_weeks_from_the_rollups():
    d = dt.date.fromisoformat
    assert queries.weekly_split(Filters()) == queries.WeeklySplit(None, None, False, False)
    assert queries.weekly_split(Filters(events=(1,))) is None
    # Wed 2026-01-07 .. Tue 2026-01-27: weeks of Mon 01-12 and Mon 01-19 whole, edges from the days
    assert queries.weekly_split(Filters(date_from=d("2026-01-07"), date_to=d("2026-01-27"))) == \
        queries.WeeklySplit(d("2026-01-12"), d("2026-01-19"), True, True)
    # Mon .. Sun exactly: no edges
    assert queries.weekly_split(Filters(date_from=d("2026-01-05"), date_to=d("2026-01-11"))) == \
        queries.WeeklySplit(d("2026-01-05"), d("2026-01-05"), False, False)
    assert queries.weekly_split(Filters(date_from=d("2026-01-06"), date_to=d("2026-01-11"))) is None


def test_rollup_and_daily_paths_give_identical_answers(database, monkeypatch):
    rng = random.Random(1)
    with psycopg.connect(database) as conn:
        ids = write_games(conn, rng, 250)      # per game: new keys, and upserts of keys already there
        conn.commit()
        apply_contribution(conn, ids[:100], -1)  # a batch out and back in, as a bulk batch or a recount does
        apply_contribution(conn, ids[:100], 1)
        conn.commit()
        assert set(rollup_differences(conn).values()) == {0}
    assert_same_answers(database, monkeypatch)


def test_deleted_and_moved_daily_rows_leave_no_rollup_rows_behind(database, monkeypatch):
    rng = random.Random(2)
    with psycopg.connect(database) as conn:
        write_games(conn, rng, 200)
        for table in AGGREGATE_TABLES:  # the same rows of every table, so the statistics stay proportions
            # a whole week goes (its roll-up rows must go too), a few days, an event; some rows move
            conn.execute(f"DELETE FROM {table} WHERE played_on BETWEEN '2026-01-05' AND '2026-01-11' "
                         "OR played_on IN ('2025-12-24', '2026-01-20') OR event_id = 3")
            conn.execute(f"UPDATE {table} SET played_on = '2026-03-04' WHERE played_on = '2026-01-28'")
        conn.commit()
        assert set(rollup_differences(conn).values()) == {0}
        assert conn.execute("SELECT count(*) FROM agg_deck_results_weekly WHERE week_start = '2026-01-05'"
                            ).fetchone()[0] == 0
    assert_same_answers(database, monkeypatch)


def test_replayed_and_removed_games_keep_the_rollups_exact(database, monkeypatch):
    rng = random.Random(3)
    with psycopg.connect(database) as conn:
        ids = write_games(conn, rng, 60)
        conn.commit()
        # a replay takes the old contribution out and writes it again; a removed game leaves nothing
        _, result = pool()[0]
        remove_records(conn, [ids[0]])
        write_records(conn, [FinishedGame(ids[0], result.record, result.log, played_on=START, event_id=None,
                                          counted=True)], engine_version=ENGINE_VERSION)
        remove_records(conn, ids[1:20])
        conn.commit()
        assert set(rollup_differences(conn).values()) == {0}
    assert_same_answers(database, monkeypatch)
