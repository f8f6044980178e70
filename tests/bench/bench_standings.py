"""Benchmark: event standings, player pages and the games list over a large database, p50 / p95.

    PYTHONPATH=. .venv/bin/python tests/bench/bench_standings.py [--games 1000000] [--big 100000] [--keep]
    PYTHONPATH=. .venv/bin/python tests/bench/bench_standings.py --pgdata DIR --reuse DBNAME   # time again

Not part of the default test run (tests/bench holds no test_*.py). What it does:

1. A server: DATABASE_URL's, else an embedded PostgreSQL in ``--pgdata`` (default a temporary
   folder; ``--keep`` without it uses /tmp/empyrean-bench-standings-pg). A scratch database migrated
   to head.
2. Events: one of ``--big`` games (a 100,000-game bundle is the largest an organiser sends:
   EMPYREAN_MAX_BUNDLE_GAMES) of 12 Swiss-like rounds, then events of 64 players and 6 rounds until
   ``--games`` games. Each match is one game (its players, decks and winner drawn at random; 3% of
   the matches drawn); 2% of the matches have a second, disagreeing upload (a mismatch) and an open
   dispute, 1% are one illegal game. Rows are written with COPY as the worker writes them for what
   these reads touch (event_matches, games, verdicts, disputes, game_records, game_players, game_seats); the
   aggregates are not filled (nothing here reads them).
3. p50 / p95 over ``--repeat`` runs of: the standings read and computation
   (services.games.views.event_matches + services.games.standings.standings) for the big event and
   a small one; the event pages, the standings JSON and CSV, player pages, through the Flask test
   client; and pages of the games list (unfiltered, deep, by event, status, deck, player).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg.conninfo import make_conninfo
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "services")]

from service_helpers import create_fresh_database, drop_database  # noqa: E402

from engine.bfe.catalog import load_catalog  # noqa: E402
from services.games import standings, views  # noqa: E402
from services.platform import migrate  # noqa: E402
from services.platform.config import Config  # noqa: E402
from services.platform.embedded import EmbeddedPostgres  # noqa: E402

KEEP_PGDATA = Path("/tmp/empyrean-bench-standings-pg")
SMALL_PLAYERS, SMALL_ROUNDS, BIG_ROUNDS = 64, 6, 12
DRAWS, DISPUTED, ILLEGAL = 0.03, 0.02, 0.01
DAY = dt.date(2026, 6, 6)


def _t(value) -> str:
    """A value in COPY's text format."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, (list, tuple)):
        return "{" + ",".join('"' + str(v).replace('"', '\\\\"') + '"' for v in value) + "}"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


class Writer:
    """Rows for COPY, table by table, sent every ``chunk`` games."""

    COLUMNS = {
        "event_matches": "id, event_id, round, table_label, players",
        "games": "id, content_hash, raw_log, event_id, match_id, played_on, status, status_message, engine_version, "
                 "attempts, claimed_winner",
        "verdicts": "game_id, status, message, engine_version, catalog_version",
        "disputes": "id, match_id, reason",
        "game_records": "game_id, players, battlefields, first_player, winner, margin, decisions, played_on, "
                        "event_id, counted, engine_version, catalog_version",
        "game_players": "game_id, seat, player_name, deck, is_first_player, won, final_might, battlefields_won",
        "game_seats": "game_id, seat, player_name, faction, rank, score, won",  # what the standings read
    }

    def __init__(self, conn, chunk: int):
        self.conn, self.chunk = conn, chunk
        self.rows: dict[str, list[str]] = {t: [] for t in self.COLUMNS}
        self.game_id = self.match_id = self.dispute_id = 0
        self.pending_games = 0

    def row(self, table: str, *values) -> None:
        self.rows[table].append("\t".join(_t(v) for v in values) + "\n")

    def game(self, event_id: int, match_id: int, seats: tuple[str, str], decks: tuple[str, str],
             winner: int | None, verdict: str, claimed: str, counted: bool) -> None:
        self.game_id += 1
        gid = self.game_id
        self.row("games", gid, f"{gid:064x}", "\\x7b7d", event_id, match_id, DAY, verdict, "", "bench", 1, claimed)
        self.row("verdicts", gid, verdict, "bench", "bench", "2026.2")
        if verdict in ("valid", "mismatch"):
            self.row("game_records", gid, 2, ["B1", "B2", "B3"], 1, winner, 3, 200, DAY, event_id, counted, "bench",
                     "2026.2")
            for seat in (1, 2):
                self.row("game_players", gid, seat, seats[seat - 1], decks[seat - 1], seat == 1, winner == seat, 30, 2)
                self.row("game_seats", gid, seat, seats[seat - 1], decks[seat - 1],
                         1 if winner in (None, seat) else 2, 2, winner == seat)
        self.pending_games += 1
        if self.pending_games >= self.chunk:
            self.flush()

    def flush(self) -> None:
        with self.conn.cursor() as cur:
            for table, rows in self.rows.items():
                if rows:
                    with cur.copy(f"COPY {table} ({self.COLUMNS[table]}) FROM STDIN") as copy:
                        copy.write("".join(rows).encode())
                    rows.clear()
        self.conn.commit()
        self.pending_games = 0


def play_event(w: Writer, rng: random.Random, event_id: int, players: int, rounds: int, decks: list[str],
               bar) -> None:
    names = [f"E{event_id}-P{i:05d}" for i in range(1, players + 1)]
    deck_of = {n: rng.choice(decks) for n in names}
    score = dict.fromkeys(names, 0)
    for rnd in range(1, rounds + 1):
        order = sorted(names, key=lambda n: (-score[n], rng.random()))
        for table, i in enumerate(range(0, players - 1, 2), 1):
            a, b = order[i], order[i + 1]
            w.match_id += 1
            w.row("event_matches", w.match_id, event_id, rnd, str(table), sorted((a, b)))
            roll = rng.random()
            winner = None if roll < DRAWS else rng.choice((1, 2))
            claim = "a draw" if winner is None else (a, b)[winner - 1]
            if winner:
                score[(a, b)[winner - 1]] += 3
            else:
                score[a] += 1
                score[b] += 1
            seats, match_decks = (a, b), (deck_of[a], deck_of[b])
            flaw = rng.random()
            if flaw < ILLEGAL:
                w.game(event_id, w.match_id, seats, match_decks, winner, "illegal", claim, False)
            elif flaw < ILLEGAL + DISPUTED and winner:
                w.game(event_id, w.match_id, seats, match_decks, winner, "valid", claim, False)
                w.game(event_id, w.match_id, seats, match_decks, winner, "mismatch", (a, b)[2 - winner], False)
                w.dispute_id += 1
                w.row("disputes", w.dispute_id, w.match_id, "2 different logs were uploaded for this match")
            else:
                w.game(event_id, w.match_id, seats, match_decks, winner, "valid", claim, True)
            bar.update(1)


def fill(url: str, args) -> dict:
    rng = random.Random(args.seed)
    decks = sorted(load_catalog().decks)
    t0 = time.perf_counter()
    small = SMALL_PLAYERS // 2 * SMALL_ROUNDS
    events = 1 + max(0, (args.games - args.big) // small)
    with psycopg.connect(url) as conn:
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO events (id, name, starts_on, organiser) OVERRIDING SYSTEM VALUE "
                            "VALUES (%s, %s, %s, 'bench')",
                            [(e, f"Bench Swiss #{e}", DAY) for e in range(1, events + 1)])
        conn.commit()
        w = Writer(conn, args.chunk)
        with tqdm(total=args.games, desc="matches", unit="match", unit_scale=True) as bar:
            big_players = 2 * -(-args.big // BIG_ROUNDS)  # a game per pair per round
            play_event(w, rng, 1, big_players, BIG_ROUNDS, decks, bar)
            for e in range(2, events + 1):
                play_event(w, rng, e, SMALL_PLAYERS, SMALL_ROUNDS, decks, bar)
            w.flush()
        for table, column in (("games", "id"), ("events", "id"), ("event_matches", "id"), ("disputes", "id")):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                         f"(SELECT greatest(max({column}), 1) FROM {table}))")
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    took = time.perf_counter() - t0
    print(f"fill: {games:,} games in {events:,} events ({took:.0f} s)")
    return {"games": games, "events": events, "fill_s": round(took, 1)}


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[max(0, round(0.95 * len(ordered)) - 1)]


def timed(label: str, fn, repeat: int, results: dict) -> None:
    fn()  # warm
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    results[label] = percentiles(times)
    print(f"  {label:70s} {results[label][0]:8.1f} {results[label][1]:8.1f}")


def run(url: str, repeat: int) -> dict:
    from services.platform.entrypoints import api_app

    results: dict = {}
    with psycopg.connect(url) as conn:
        big_matches = conn.execute("SELECT count(*) FROM event_matches WHERE event_id = 1").fetchone()[0]
        mid_big = conn.execute("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY id) FROM games "
                               "WHERE event_id = 1").fetchone()[0]
        mid_all = conn.execute("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY id) FROM games").fetchone()[0]
        small_event = conn.execute("SELECT max(event_id) FROM games").fetchone()[0]
        small_player = conn.execute("SELECT players[1] FROM event_matches WHERE event_id = %s LIMIT 1",
                                    (small_event,)).fetchone()[0]
        big_player = conn.execute("SELECT players[1] FROM event_matches WHERE event_id = 1 LIMIT 1").fetchone()[0]
        deck = conn.execute("SELECT deck FROM game_players LIMIT 1").fetchone()[0]
        print(f"\nbig event: {big_matches:,} matches; p50 / p95 in ms, {repeat} runs each")
        for label, event in ((f"standings of the big event ({big_matches:,} matches): read + compute", 1),
                             (f"standings of a {SMALL_PLAYERS}-player event: read + compute", small_event)):
            timed(label, lambda e=event: standings.standings(views.event_matches(conn, e)), repeat, results)
        timed("  of which the read (views.event_matches), big event", lambda: views.event_matches(conn, 1),
              repeat, results)

    env = Config.from_env()
    app = api_app(dataclasses.replace(env, database_url=url, redis_url="redis://127.0.0.1:1/0"))
    client = app.test_client()
    paths = {
        "GET /events/{big}": "/events/1",
        "GET /events/{small}": f"/events/{small_event}",
        "GET /api/v1/events/{big}/standings": "/api/v1/events/1/standings",
        "GET /events/{small}/standings.csv": f"/events/{small_event}/standings.csv",
        "GET /players/{a player of a small event}": f"/players/{quote(small_player)}",
        "GET /players/{a player of the big event}": f"/players/{quote(big_player)}",
        "GET /api/v1/games (first page, 100)": "/api/v1/games",
        "GET /api/v1/games?before={median id}": f"/api/v1/games?before={mid_all}",
        "GET /api/v1/games?limit=500": "/api/v1/games?limit=500",
        "GET /api/v1/events/{big}/games": "/api/v1/events/1/games",
        "GET /api/v1/events/{big}/games?before={its median id}": f"/api/v1/events/1/games?before={mid_big}",
        "GET /api/v1/events/{small}/games": f"/api/v1/events/{small_event}/games",
        "GET /api/v1/games?status=illegal": "/api/v1/games?status=illegal",
        "GET /api/v1/games?status=mismatch&event={big}": "/api/v1/games?status=mismatch&event=1",
        "GET /api/v1/games?deck={a deck}": f"/api/v1/games?deck={quote(deck)}",
        "GET /api/v1/games?deck={a deck}&event={small}": f"/api/v1/games?deck={quote(deck)}&event={small_event}",
        "GET /api/v1/games?player={a player}": f"/api/v1/games?player={quote(small_player)}",
        "GET /api/v1/games?deck=Nope (400, the decks listed)": "/api/v1/games?deck=Nope",
    }
    print("\npages and API answers (Flask test client): p50 / p95 in ms")
    try:
        for label, path in paths.items():
            status = client.get(path).status_code
            assert status == (400 if "Nope" in path else 200), (path, status)
            timed(label, lambda p=path: client.get(p).get_data(), repeat, results)
    finally:
        app.extensions["empyrean"].close()
    return {k: {"p50_ms": round(v[0], 1), "p95_ms": round(v[1], 1)} for k, v in results.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="matches in all (about as many games)")
    ap.add_argument("--big", type=int, default=100_000, help="matches of the big event")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=50_000, help="games per COPY transaction")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--reuse", metavar="DBNAME")
    ap.add_argument("--pgdata", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    env = Config.from_env()
    with tempfile.TemporaryDirectory() as tmp:
        server, server_url = None, env.database_url
        if not server_url:
            server = EmbeddedPostgres(args.pgdata or (KEEP_PGDATA if (args.keep or args.reuse) else Path(tmp) / "pg"))
            server_url = server.start()
        url = (make_conninfo(server_url, dbname=args.reuse) if args.reuse else create_fresh_database(server_url))
        report: dict = {"machine": {"cpus": os.cpu_count(), "load": os.getloadavg()}}
        try:
            migrate.upgrade(url)
            if not args.reuse:
                report["fill"] = fill(url, args)
            report["timings"] = run(url, args.repeat)
            if args.json:
                args.json.write_text(json.dumps(report, indent=1))
        finally:
            if args.keep or args.reuse:
                print(f"database kept: --reuse {psycopg.conninfo.conninfo_to_dict(url)['dbname']}"
                      + (f" --pgdata {server.pgdata}" if server else ""))
            else:
                drop_database(url)
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
