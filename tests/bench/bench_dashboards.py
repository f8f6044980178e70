"""Benchmark: the dashboards at 1,000,000 games — every statistic's query and every page, p50 / p95.

    PYTHONPATH=. .venv/bin/python tests/bench/bench_dashboards.py [--games 1000000] [--keep]
    PYTHONPATH=. .venv/bin/python tests/bench/bench_dashboards.py --games 20000 --check
    PYTHONPATH=. .venv/bin/python tests/bench/bench_dashboards.py --pgdata DIR --reuse DBNAME   # time again

Not part of the default test run (tests/bench holds no test_*.py). What it does:

1. A server: DATABASE_URL's, else an embedded PostgreSQL in ``--pgdata`` (default: a temporary
   folder; ``--keep`` without ``--pgdata`` uses /tmp/empyrean-bench-pg so the data outlives the run).
   A scratch database migrated to head (``--reuse NAME``: that database, migrated to head, not
   refilled).
2. A pool of real games: ``--pool`` seeded self-play games (engine.bfe.selfplay, greedy and random
   bots) of the 2026.1 catalog (3 decks, 11 battlefields) and the 2026.2 catalog (10 decks, 27
   battlefields; a few 3-player tables), each replayed with the engine for its GameRecord. Cached
   in /tmp between runs.
3. A season: 52 weeks from 2026-01-05. Events of 16-512 players (16 · 32^(u^1.5), mostly small), Swiss rounds
   (ceil(log2 players)), one day, or two for events of 7+ rounds, mostly on weekends; about 85 % of
   the games, about 2,000 events at 1,000,000 games. The rest are games without an event, every
   day. 2026.1 is played until the end of March, then 2026.2. Each player's deck is drawn from
   popularities that drift over the year. Each game of the season is a clone of a pool game with
   the players' decks (the pool game's log bytes as raw_log, a content hash from the clone index).
4. COPY of events, games, verdicts, game_records, game_players, game_player_battlefields,
   game_player_cards, game_player_rounds in chunks; then the aggregates with the real statements
   (services.games.records.apply_contribution, ``--batch`` games at a time; the weekly roll-ups
   follow by their triggers). ``--check``: recount_differences and rollup_differences must be 0.
5. Table sizes, then p50 / p95 of every query function of services.stats.queries and of the events
   list, for seven filters, ``--repeat`` times each; then the dashboard pages through the Flask
   test client (skipped, with a message, for a route that answers 404), and in headless Chromium
   (Debian's /usr/bin/chromium through Playwright, when both are there) until every figure is drawn.

Bars (../shared/DESIGN.md): every dashboard query p95 ≤ 150 ms; a page fully drawn in ≤ 1.5 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import hashlib
import json
import math
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "services")]

from service_helpers import create_fresh_database, drop_database  # noqa: E402

from engine.bfe.catalog import load_catalog  # noqa: E402
from engine.bfe.selfplay import self_play  # noqa: E402
from engine.replay import ENGINE_VERSION, replay  # noqa: E402
from services.games.records import RECORD_COLUMNS, apply_contribution, recount_differences, rollup_differences  # noqa: E402
from services.platform import migrate  # noqa: E402
from services.platform.config import Config  # noqa: E402
from services.platform.embedded import EmbeddedPostgres  # noqa: E402
from services.stats import queries  # noqa: E402
from services.stats.filters import Filters  # noqa: E402

SEASON_START = dt.date(2026, 1, 5)  # a Monday
SEASON_DAYS = 364
SECOND_CATALOG_FROM = dt.date(2026, 4, 1)
EVENT_SHARE = 0.85
THREE_PLAYER_SHARE = 0.03  # of the games without an event, once 2026.2 is out
KEEP_PGDATA = Path("/tmp/empyrean-bench-pg")

# ---------------------------------------------------------------------------------------------
# COPY text format


def _text(value) -> str:
    if value is None:
        return r"\N"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _array(values) -> str:
    """A PostgreSQL array literal, escaped for COPY text."""
    items = []
    for v in values:
        if isinstance(v, str):
            items.append('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"')
        else:
            items.append(str(v))
    return _text("{" + ",".join(items) + "}")


def _bool(b: bool) -> str:
    return "t" if b else "f"


@dataclasses.dataclass
class PoolGame:
    catalog: str
    players: int
    decks: tuple[str, ...]
    winner: int | None
    raw_hex: str          # raw_log as COPY text for bytea
    message: str
    record_tail: str      # game_records columns after game_id, before played_on
    player_tails: list[str]  # per seat: game_players columns after (game_id, seat, player_name)
    battlefield_rows: str    # game_player_battlefields rows without game_id, '\n'-joined, each starting with \t
    card_rows: str
    round_rows: str


def pool_game(log_bytes: bytes) -> PoolGame | None:
    result = replay(log_bytes)
    if result.verdict.status != "valid":
        return None
    rec, log = result.record, result.log
    record_tail = "\t".join([str(rec.players), _array(rec.battlefields), str(rec.first_player),
                             _text(rec.winner), str(rec.margin), str(rec.decisions)])
    player_tails = [
        "\t".join([_text(rec.decks[seat - 1]), _bool(rec.first_player == seat), _bool(rec.winner == seat),
                   str(sum(rec.final_might[seat - 1])),
                   str(sum(1 for w in rec.battlefield_winners if w == seat))])
        for seat in range(1, rec.players + 1)]
    bf = [f"\t{seat}\t{pos}\t{_text(name)}\t{rec.final_might[seat - 1][pos - 1]}\t"
          f"{_bool(rec.battlefield_winners[pos - 1] == seat)}\n"
          for seat in range(1, rec.players + 1) for pos, name in enumerate(rec.battlefields, 1)]
    cards = [f"\t{seat}\t{_text(card)}\t{st.deploys}\t{_text(min(st.deploy_rounds) if st.deploy_rounds else None)}\t"
             f"{st.reveals}\t{st.moves}\t{st.destroys}\t{st.returns}\t{st.might_gained}\t{st.final_might}\t"
             f"{st.on_board_at_end}\n"
             for seat, cs in enumerate(rec.cards, 1) for card, st in sorted(cs.items())]
    rounds = [f"\t{seat}\t{rs.round}\t{_bool(rs.first_player == seat)}\t{rs.essence[seat - 1]['available']}\t"
              f"{rs.essence[seat - 1]['spent']}\t{rs.essence[seat - 1]['unspent']}\t{_array(rs.might[seat - 1])}\n"
              for rs in rec.rounds for seat in range(1, rec.players + 1)]
    return PoolGame(log.catalog, rec.players, tuple(rec.decks), rec.winner, "\\\\x" + log_bytes.hex(),
                    _text(result.verdict.message), record_tail, player_tails, "".join(bf), "".join(cards),
                    "".join(rounds))


class _PoolUnpickler(pickle.Unpickler):
    """The cache names PoolGame by the module that wrote it: ``__main__`` when this file ran as a
    script, ``bench_dashboards`` when tests/bench/bench_pipeline.py imported it."""

    def find_class(self, module: str, name: str):
        return PoolGame if name == "PoolGame" else super().find_class(module, name)


def make_pool(size: int, seed: int) -> list[PoolGame]:
    """``size`` distinct valid games: every deck pair of both catalogs, both bots, a few 3-player."""
    cache = Path(tempfile.gettempdir()) / f"empyrean-bench-pool-{size}-{seed}.pickle"
    if cache.exists():
        with cache.open("rb") as f:
            pool = _PoolUnpickler(f).load()
        print(f"pool: {len(pool)} games from {cache}")
        return pool
    rng = random.Random(seed)
    plan: list[tuple[str, list[str], int]] = []
    shares = {"2026.1": 0.12, "2026.2": 0.80}
    for catalog, part in shares.items():
        decks = sorted(load_catalog(catalog).decks)
        pairs = [(a, b) for i, a in enumerate(decks) for b in decks[i:]]
        for i in range(round(size * part)):
            a, b = pairs[i % len(pairs)]
            plan.append((catalog, [a, b] if rng.random() < 0.5 else [b, a], 2))
    decks3 = sorted(load_catalog("2026.2").decks)
    while len(plan) < size:
        plan.append(("2026.2", [rng.choice(decks3) for _ in range(3)], 3))
    pool = []
    for i, (catalog, decks, players) in enumerate(tqdm(plan, desc="pool (self-play + replay)", unit="game")):
        log = self_play(seed * 1_000_003 + i, decks=decks, bot="greedy" if i % 2 else "random",
                        catalog=catalog, players=players)
        game = pool_game(json.dumps(log).encode())
        if game is not None:
            pool.append(game)
    with cache.open("wb") as f:
        pickle.dump(pool, f)
    return pool


# ---------------------------------------------------------------------------------------------
# The season


@dataclasses.dataclass
class Event:
    id: int
    name: str
    starts_on: dt.date
    days: int
    players: int
    rounds: int


class Popularity:
    """Deck popularities that drift: each deck's weight follows its own slow wave over the year."""

    def __init__(self, rng: random.Random, decks: list[str]):
        self.decks = decks
        self.waves = [(rng.uniform(0.3, 1.2), rng.uniform(0, 2 * math.pi), rng.uniform(120, 300),
                       rng.uniform(-0.5, 0.5))
                      for _ in decks]

    def weights(self, day: int) -> list[float]:
        return [math.exp(b + a * math.sin(2 * math.pi * day / period + phase))
                for a, phase, period, b in self.waves]


class Season:
    def __init__(self, pool: list[PoolGame], games: int, seed: int):
        self.rng = random.Random(seed + 17)
        self.pool = pool
        self.by_pair: dict[tuple[str, str, str], list[int]] = {}
        self.three: dict[str, list[int]] = {}
        for i, g in enumerate(pool):
            if g.players == 2:
                a, b = sorted(g.decks)
                self.by_pair.setdefault((g.catalog, a, b), []).append(i)
            else:
                self.three.setdefault(g.catalog, []).append(i)
        catalogs = sorted({g.catalog for g in pool})
        self.popularity = {c: Popularity(self.rng, sorted({d for g in pool if g.catalog == c for d in g.decks}))
                           for c in catalogs}
        self.target = games

    def catalog_on(self, day: dt.date) -> str:
        return "2026.1" if day < SECOND_CATALOG_FROM else "2026.2"

    def deck(self, catalog: str, day: int) -> str:
        pop = self.popularity[catalog]
        return self.rng.choices(pop.decks, weights=pop.weights(day))[0]

    def match(self, catalog: str, deck_a: str, deck_b: str) -> tuple[int, bool]:
        """A pool game of these decks, and whether deck_a sits in seat 1."""
        a, b = sorted((deck_a, deck_b))
        index = self.rng.choice(self.by_pair[(catalog, a, b)])
        return index, self.pool[index].decks[0] == deck_a

    def plan(self) -> tuple[list[Event], list[tuple]]:
        """(events, games): each game (day number, event id or None, pool index, player names)."""
        rng = self.rng
        events: list[Event] = []
        games: list[tuple] = []
        event_budget = round(self.target * EVENT_SHARE)
        while len(games) < event_budget:
            # 16-512, skewed small: ~2,000 events per 1M games
            players = 2 * round(16 * 32 ** (rng.random() ** 1.5) / 2)
            rounds = math.ceil(math.log2(players))
            days = 2 if rounds >= 7 else 1
            week = rng.randrange(52)
            weekday = 5 if rng.random() < 0.7 else rng.randrange(7 - days + 1)
            start = min(week * 7 + weekday, SEASON_DAYS - days)
            event = Event(len(events) + 1, f"Bench Open #{len(events) + 1}", SEASON_START + dt.timedelta(start),
                          days, players, rounds)
            events.append(event)
            catalog = self.catalog_on(event.starts_on)
            decks = [self.deck(catalog, start) for _ in range(players)]
            score = [0.0] * players
            for r in range(rounds):
                day = start + (1 if days == 2 and r >= rounds // 2 else 0)
                order = sorted(range(players), key=lambda p: (-score[p], rng.random()))
                for t in range(0, players, 2):
                    if len(games) >= event_budget:
                        break
                    p, q = order[t], order[t + 1]
                    index, p_first = self.match(catalog, decks[p], decks[q])
                    seats = (p, q) if p_first else (q, p)
                    winner = self.pool[index].winner
                    if winner is None:
                        score[p] += 0.5
                        score[q] += 0.5
                    else:
                        score[seats[winner - 1]] += 1
                    names = tuple(f"E{event.id}-P{s + 1:03d}" for s in seats)
                    games.append((day, event.id, index, names))
        casual = self.target - len(games)
        for k in range(casual):
            day = k * SEASON_DAYS // max(casual, 1)
            catalog = self.catalog_on(SEASON_START + dt.timedelta(day))
            if catalog in self.three and rng.random() < THREE_PLAYER_SHARE:
                games.append((day, None, rng.choice(self.three[catalog]), (None, None, None)))
                continue
            index, _ = self.match(catalog, self.deck(catalog, day), self.deck(catalog, day))
            games.append((day, None, index, (None, None)))
        games.sort(key=lambda g: (g[0], g[1] or 0))
        return events, games


# ---------------------------------------------------------------------------------------------
# The fill

COPY_COLUMNS = {
    "games": "id, content_hash, raw_log, uploader, event_id, catalog_version, played_on, status, status_message, "
             "engine_version, attempts, finished_at",
    "verdicts": "game_id, status, message, engine_version, catalog_version",
    # the record tables as the worker writes them, but game_records without its pending column nor its
    # game (the default: Battle for Empyrean), and no game_seats (no statistic reads them yet)
    **{table: columns for table, columns in RECORD_COLUMNS.items() if table != "game_seats"},
    "game_records": RECORD_COLUMNS["game_records"].replace(" pending,", "").removesuffix(", game"),
}


def _prefixed(gid: int, rows: str) -> str:
    """Rows that each start with '\\t' (game_id left out), with the game id put in front of each."""
    if not rows:
        return ""
    head = str(gid)
    return head + rows[:-1].replace("\n", "\n" + head) + "\n"


def copy_chunk(conn, pool: list[PoolGame], games: list[tuple], first_id: int, event_offset: int = 0) -> None:
    out: dict[str, list[str]] = {t: [] for t in COPY_COLUMNS}
    for offset, (day, event_id, index, names) in enumerate(games):
        gid = first_id + offset
        g = pool[index]
        played = (SEASON_START + dt.timedelta(day)).isoformat()
        event = _text(None if event_id is None else event_id + event_offset)
        digest = hashlib.sha256(f"bench-dashboards-clone-{gid}".encode()).hexdigest()
        out["games"].append(f"{gid}\t{digest}\t{g.raw_hex}\tbench\t{event}\t{g.catalog}\t{played}\tvalid\t"
                            f"\t{ENGINE_VERSION}\t1\t{played} 12:00:00+00\n")
        out["verdicts"].append(f"{gid}\tvalid\t{g.message}\t{ENGINE_VERSION}\t{g.catalog}\n")
        # self-played games: played to the tally (end_reason 'score', conceded_by null), every card seen
        out["game_records"].append(
            f"{gid}\t{g.record_tail}\t{played}\t{event}\tt\t{ENGINE_VERSION}\t{g.catalog}\tscore\t\\N\n")
        out["game_players"].extend(f"{gid}\t{seat}\t{_text(names[seat - 1])}\t{tail}\t0\n"
                                   for seat, tail in enumerate(g.player_tails, 1))
        out["game_player_battlefields"].append(_prefixed(gid, g.battlefield_rows))
        out["game_player_cards"].append(_prefixed(gid, g.card_rows))
        out["game_player_rounds"].append(_prefixed(gid, g.round_rows))
    with conn.cursor() as cur:
        for table, rows in out.items():
            with cur.copy(f"COPY {table} ({COPY_COLUMNS[table]}) FROM STDIN") as copy:
                copy.write("".join(rows).encode())


def fill(url: str, args) -> dict:
    """Fill ``args.games`` games; into a database that already holds games (the pipeline benchmark's)
    their ids and their events' ids follow the ones there."""
    timings: dict = {}
    t0 = time.perf_counter()
    pool = make_pool(args.pool, args.seed)
    timings["pool_s"] = time.perf_counter() - t0
    print(f"pool: {len(pool)} valid games "
          f"({sum(g.catalog == '2026.1' for g in pool)} of 2026.1, {sum(g.players == 3 for g in pool)} three-player)")
    season = Season(pool, args.games, args.seed)
    events, games = season.plan()
    print(f"season: {len(games):,} games, {len(events):,} events "
          f"({sum(1 for g in games if g[1] is not None):,} games in events)")
    t_fill = time.perf_counter()
    with psycopg.connect(url) as conn:
        game_offset, event_offset = conn.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM games), (SELECT coalesce(max(id), 0) FROM events)").fetchone()
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO events (id, name, starts_on, ends_on, organiser) OVERRIDING SYSTEM VALUE "
                "VALUES (%s, %s, %s, %s, 'bench')",
                [(e.id + event_offset, e.name, e.starts_on, e.starts_on + dt.timedelta(e.days - 1)) for e in events])
        conn.commit()
        with tqdm(total=len(games), desc="COPY game rows", unit="game", unit_scale=True) as bar:
            for start in range(0, len(games), args.chunk):
                chunk = games[start:start + args.chunk]
                copy_chunk(conn, pool, chunk, game_offset + start + 1, event_offset)
                conn.commit()
                bar.update(len(chunk))
        conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), %s)", (game_offset + len(games),))
        conn.execute("SELECT setval(pg_get_serial_sequence('events', 'id'), %s)",
                     (max(event_offset + len(events), 1),))
        conn.commit()
        timings["copy_s"] = time.perf_counter() - t_fill
        conn.autocommit = True
        t = time.perf_counter()
        conn.execute("VACUUM ANALYZE game_records, game_players, game_player_battlefields, game_player_cards, "
                     "game_player_rounds")
        timings["vacuum_raw_s"] = time.perf_counter() - t
        conn.autocommit = False
        t = time.perf_counter()
        marks = []
        with tqdm(total=len(games), desc="aggregates (apply_contribution)", unit="game", unit_scale=True) as bar:
            for start in range(game_offset + 1, game_offset + len(games) + 1, args.batch):
                ids = list(range(start, min(start + args.batch, game_offset + len(games) + 1)))
                apply_contribution(conn, ids, 1)
                conn.commit()
                bar.update(len(ids))
                marks.append((start - game_offset + len(ids) - 1, time.perf_counter() - t))
        timings["aggregates_s"] = time.perf_counter() - t
        timings["aggregates_per_100k_s"] = timings["aggregates_s"] / len(games) * 100_000
        # per 100k: the time of the batches ending in each successive 100k (does it grow?)
        per_100k, last_n, last_t = [], 0, 0.0
        for n, elapsed in marks:
            if n - last_n >= 100_000 or n == len(games):
                per_100k.append(round((elapsed - last_t) / (n - last_n) * 100_000, 1))
                last_n, last_t = n, elapsed
        timings["aggregates_per_100k_by_segment_s"] = per_100k
        conn.autocommit = True
        t = time.perf_counter()
        conn.execute("VACUUM ANALYZE")
        timings["vacuum_s"] = time.perf_counter() - t
    timings["fill_total_s"] = time.perf_counter() - t_fill
    print(f"fill: COPY {timings['copy_s']:.0f} s, aggregates {timings['aggregates_s']:.0f} s "
          f"({timings['aggregates_per_100k_s']:.1f} s per 100k games; by 100k segment: {per_100k}), "
          f"VACUUM ANALYZE {timings['vacuum_s']:.0f} s; total {timings['fill_total_s']:.0f} s")
    return timings


def trigger_overhead(url: str, games: int = 300) -> dict:
    """Per-game cost of apply_contribution (+1 then -1, one game per call, as the worker does)
    with the weekly roll-up triggers and without them, inside a transaction that is rolled back."""
    out = {}
    with psycopg.connect(url) as conn:
        ids = [r[0] for r in conn.execute("SELECT game_id FROM game_records ORDER BY game_id DESC LIMIT %s",
                                          (games,))]
        weekly = [r[0] for r in conn.execute(
            "SELECT DISTINCT event_object_table FROM information_schema.triggers "
            "WHERE trigger_name LIKE '%%_weekly_%%'")]
        for label in ("with roll-up triggers", "without"):
            if label == "without":
                for table in weekly:
                    conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            t = time.perf_counter()
            for gid in ids:
                apply_contribution(conn, gid, 1)
                apply_contribution(conn, gid, -1)
            out[label] = (time.perf_counter() - t) / len(ids) / 2 * 1000
        conn.rollback()
    print("apply_contribution per game (ms): " + ", ".join(f"{k} {v:.2f}" for k, v in out.items()))
    return out


# ---------------------------------------------------------------------------------------------
# Sizes and timings


def sizes(url: str) -> dict:
    with psycopg.connect(url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version' "
            "ORDER BY tablename")]
        out = {"tables": {}}
        for table in tables:
            n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            size = conn.execute("SELECT pg_total_relation_size(%s)", (table,)).fetchone()[0]
            out["tables"][table] = {"rows": n, "mb": round(size / 2**20, 1)}
        out["database_mb"] = round(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 2**20)
    print(f"\n{'table':36s} {'rows':>12s} {'MB':>9s}")
    for table, s in out["tables"].items():
        print(f"{table:36s} {s['rows']:>12,} {s['mb']:>9,.1f}")
    print(f"database: {out['database_mb']:,} MB")
    return out


def pick_filters(url: str) -> dict[str, Filters]:
    """The seven filters, chosen from the data: the largest event of the summer, its most played
    deck, the most played deck overall, a 2026.2 battlefield."""
    with psycopg.connect(url) as conn:
        event = conn.execute(
            """SELECT event_id FROM agg_first_player WHERE event_id IS NOT NULL AND players = 2
               AND played_on BETWEEN '2026-06-01' AND '2026-08-31'
               GROUP BY event_id ORDER BY sum(games) DESC LIMIT 1""").fetchone()
        if event is None:
            event = conn.execute("SELECT event_id FROM agg_first_player WHERE event_id IS NOT NULL "
                                 "GROUP BY event_id ORDER BY sum(games) DESC LIMIT 1").fetchone()
        event_id = event[0]
        event_deck = conn.execute("SELECT deck FROM agg_deck_results WHERE event_id = %s AND players = 2 "
                                  "GROUP BY deck ORDER BY sum(games) DESC LIMIT 1", (event_id,)).fetchone()[0]
        deck = conn.execute("SELECT deck FROM agg_deck_results_weekly WHERE players = 2 "
                            "GROUP BY deck ORDER BY sum(games) DESC LIMIT 1").fetchone()[0]
        # a battlefield of the summer's games; a database filled with fewer games (or only the
        # pipeline's, of other days) may have none then: its most played battlefield at any time
        battlefield = conn.execute(
            """SELECT battlefield FROM agg_battlefield_first_player_weekly WHERE players = 2
               AND week_start >= '2026-07-01' GROUP BY battlefield ORDER BY sum(games) DESC LIMIT 1""").fetchone()
        if battlefield is None:
            battlefield = conn.execute(
                """SELECT battlefield FROM agg_battlefield_first_player_weekly WHERE players = 2
                   GROUP BY battlefield ORDER BY sum(games) DESC LIMIT 1""").fetchone()
        battlefield = battlefield[0]
    d = dt.date.fromisoformat
    return {
        "none": Filters(),
        "one event": Filters(events=(event_id,)),
        "one month": Filters(date_from=d("2026-06-01"), date_to=d("2026-06-30")),
        "one deck": Filters(decks=(deck,)),
        "one battlefield": Filters(battlefield=battlefield),
        "event + deck": Filters(events=(event_id,), decks=(event_deck,)),
        "3 months + bf": Filters(date_from=d("2026-07-01"), date_to=d("2026-09-30"), battlefield=battlefield),
    }


QUERIES = {
    "decks": queries.deck_stats, "matchups": queries.matchup_stats, "battlefields": queries.battlefield_stats,
    "first-player": queries.first_player_stats, "cards": queries.card_stats, "trends": queries.trend_stats,
    "margins": queries.margin_stats, "rounds": queries.round_stats,
}


def print_table(title: str, what: str, rows: list[str], labels: list[str], results: dict, number: str) -> None:
    """p50 / p95 per row (a query or a page) and filter label; rows without results are left out."""
    print(f"\n{title}")
    print(f"{what:14s} " + " ".join(f"{label:>16s}" for label in labels))
    for row in rows:
        if (row, labels[0]) in results:
            print(f"{row:14s} " + " ".join(f"{results[(row, label)][0]:7{number}} /{results[(row, label)][1]:7{number}}"
                                           for label in labels))


def percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]


def time_queries(url: str, filters: dict[str, Filters], repeat: int) -> dict:
    from services.games.views import event_summaries

    results: dict = {}
    with psycopg.connect(url) as conn:
        for name, function in QUERIES.items():
            for label, f in filters.items():
                times = []
                for i in range(repeat + 2):
                    t = time.perf_counter()
                    queries.read_snapshot(conn)
                    function(conn, f)
                    conn.rollback()
                    if i >= 2:  # the first two warm the caches
                        times.append((time.perf_counter() - t) * 1000)
                results[(name, label)] = percentiles(times)
        times = []
        for i in range(repeat + 2):
            t = time.perf_counter()
            event_summaries(conn)
            conn.rollback()
            if i >= 2:
                times.append((time.perf_counter() - t) * 1000)
        results[("events list", "newest 1,000")] = percentiles(times)
    print_table(f"query p50 / p95 in ms (bar: p95 ≤ 150), {repeat} runs each", "query", list(QUERIES),
                list(filters), results, ".1f")
    p50, p95 = results[("events list", "newest 1,000")]
    print(f"{'events list':14s} {p50:7.1f} /{p95:7.1f}  (newest 1,000 events with counts by status)")
    worst = max(results.items(), key=lambda kv: kv[1][1])
    print(f"slowest p95: {worst[0][0]} / {worst[0][1]}: {worst[1][1]:.1f} ms -> "
          + ("bar met" if worst[1][1] <= 150 else "BAR MISSED"))
    return results


PAGES = ["/meta", "/matchups", "/trends", "/battlefields", "/game-shape", "/cards", "/events"]


def _query_string(f: Filters) -> str:
    parts = []
    if f.date_from:
        parts.append(f"from={f.date_from}")
    if f.date_to:
        parts.append(f"to={f.date_to}")
    for e in f.events or ():
        parts.append(f"event={e}")
    for d in f.decks or ():
        parts.append("deck=" + d.replace("&", "%26").replace(" ", "+"))
    if f.battlefield:
        parts.append("battlefield=" + f.battlefield.replace("&", "%26").replace(" ", "+").replace("'", "%27"))
    return "&".join(parts)


def time_pages(url: str, filters: dict[str, Filters], repeat: int) -> dict:
    from services.platform.entrypoints import api_app as create_app

    env = Config.from_env()
    app = create_app(dataclasses.replace(env, database_url=url, redis_url="redis://127.0.0.1:1/0"))
    client = app.test_client()
    results: dict = {}
    try:
        for page in PAGES:
            first = client.get(page)
            if first.status_code == 404:
                print(f"page {page}: 404 (no such route in this checkout): skipped")
                continue
            for label, f in filters.items():
                path = f"{page}?{_query_string(f)}"
                times, status, size = [], None, 0
                for i in range(repeat + 1):
                    t = time.perf_counter()
                    response = client.get(path)
                    body = response.get_data()
                    if i >= 1:
                        times.append((time.perf_counter() - t) * 1000)
                    status, size = response.status_code, len(body)
                if status != 200:
                    print(f"page {path}: status {status}")
                results[(page, label)] = (*percentiles(times), status, size)
    finally:
        app.extensions["empyrean"].close()
    if results:
        print_table(f"page render (server side, Flask test client) p50 / p95 in ms, {repeat} runs each",
                    "page", PAGES, list(filters), results, ".1f")
    return results


CHROMIUM = "/usr/bin/chromium"  # Debian's; never one Playwright downloads
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update"]
ALL_DRAWN = """() => Array.from(document.querySelectorAll('[data-figure]'))
                      .every(el => el.getAttribute('data-rendered') === 'true')"""


def time_browser(url: str, filters: dict[str, Filters], repeat: int) -> dict:
    """Each page in headless Chromium over real HTTP (loopback): from navigation start until every
    Plotly figure on it has been drawn (app.js marks each data-rendered). plotly.js is cached after
    the first page, as for a visitor moving between pages."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser: playwright is not installed: skipped")
        return {}
    if not Path(CHROMIUM).exists():
        print(f"browser: no {CHROMIUM}: skipped")
        return {}
    import logging
    import threading

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request

    from services.platform.entrypoints import api_app as create_app

    env = Config.from_env()
    app = create_app(dataclasses.replace(env, database_url=url, redis_url="redis://127.0.0.1:1/0"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    results: dict = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for path in PAGES:
                if page.goto(base + path).status == 404:
                    continue
                for label, f in filters.items():
                    times = []
                    for _ in range(repeat):
                        page.goto(f"{base}{path}?{_query_string(f)}", wait_until="load")
                        page.wait_for_function(ALL_DRAWN, timeout=30_000)
                        times.append(page.evaluate("performance.now()"))
                    results[(path, label)] = percentiles(times)
            browser.close()
    finally:
        server.shutdown()
        app.extensions["empyrean"].close()
    if results:
        print_table("page fully drawn in headless Chromium (navigation start to every figure drawn), p50 / p95 "
                    f"in ms (bar: 1,500), {repeat} runs each", "page", PAGES, list(filters), results, ".0f")
    return results


# ---------------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--pool", type=int, default=2000, help="distinct simulated games to clone")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=20_000, help="games per COPY transaction")
    ap.add_argument("--batch", type=int, default=25_000, help="games per apply_contribution call")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--check", action="store_true", help="recount the aggregates and roll-ups (small fills)")
    ap.add_argument("--keep", action="store_true", help="keep the database (and the embedded server's data)")
    ap.add_argument("--reuse", metavar="DBNAME", help="time an already filled database (migrated to head first)")
    ap.add_argument("--pgdata", type=Path, help="the embedded server's data folder")
    ap.add_argument("--no-pages", action="store_true")
    ap.add_argument("--browser-repeat", type=int, default=5, help="page loads per page and filter in Chromium "
                    "(0: no browser timing)")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    ap.add_argument("--daily-only", action="store_true",
                    help="for comparison: read the daily rows only, never the weekly roll-ups")
    args = ap.parse_args()
    if args.daily_only:
        queries.weekly_split = lambda filters: None  # what the statistics did before migration 0004

    env = Config.from_env()
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        server_url = env.database_url
        if not server_url:
            pgdata = args.pgdata or (KEEP_PGDATA if (args.keep or args.reuse) else Path(tmp) / "postgres")
            server = EmbeddedPostgres(pgdata)
            server_url = server.start()
        report: dict = {"games": args.games, "machine": {"cpus": os.cpu_count(), "load": os.getloadavg()}}
        if args.reuse:
            url = (args.reuse if "://" in args.reuse or "=" in args.reuse
                   else make_conninfo(server_url, dbname=args.reuse))
        else:
            url = create_fresh_database(server_url)
        try:
            t = time.perf_counter()
            migrate.upgrade(url)
            report["migrate_s"] = time.perf_counter() - t
            if not args.reuse:
                report["fill"] = fill(url, args)
            with psycopg.connect(url) as conn:
                report["server"] = conn.execute("SHOW server_version").fetchone()[0]
                report["games_counted"] = conn.execute("SELECT count(*) FROM game_records WHERE counted").fetchone()[0]
            if args.check:
                with psycopg.connect(url) as conn:
                    t = time.perf_counter()
                    differences = recount_differences(conn) | rollup_differences(conn)
                    conn.rollback()
                print(f"check ({time.perf_counter() - t:.0f} s): {differences}")
                assert set(differences.values()) == {0}, differences
                report["check"] = differences
            report["sizes"] = sizes(url)
            report["apply_contribution_ms_per_game"] = trigger_overhead(url)
            filters = pick_filters(url)
            report["filters"] = {k: v.as_json() for k, v in filters.items()}
            print("filters: " + "; ".join(f"{k}: {_query_string(v) or '-'}" for k, v in filters.items()))
            report["queries"] = {f"{k[0]} | {k[1]}": v for k, v in time_queries(url, filters, args.repeat).items()}
            if not args.no_pages:
                report["pages"] = {f"{k[0]} | {k[1]}": v for k, v in time_pages(url, filters, args.repeat).items()}
                if args.browser_repeat:
                    report["browser"] = {f"{k[0]} | {k[1]}": v
                                         for k, v in time_browser(url, filters, args.browser_repeat).items()}
            if args.json:
                args.json.write_text(json.dumps(report, indent=1, default=str))
        finally:
            if args.keep or args.reuse:
                print(f"database kept: {url}\n"
                      f"(rerun the timings: --reuse {psycopg.conninfo.conninfo_to_dict(url)['dbname']}"
                      + (f" --pgdata {server.pgdata}" if server else "") + ")")
            else:
                drop_database(url)
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
