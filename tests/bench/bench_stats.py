"""Benchmark: the statistics endpoints over aggregate tables the size a million games make.

    .venv/bin/python tests/bench/bench_stats.py [--events 1000] [--decks 12] [--repeat 20]

Not part of the default test run. Starts an embedded PostgreSQL in a temporary folder (or uses
DATABASE_URL's server), makes a scratch database, migrates it and fills the agg_* tables with
synthetic rows shaped like 1,000,000 two-player games: ``--events`` events of 1,000 games over two
days each, spread over a year, ``--decks`` decks of 24 cards, 15 battlefields. Then times every
endpoint through the Flask app (test client: no HTTP server, the whole request otherwise) for
three filters — none, one event, one month — and prints p50 / p95 in ms (bar: p95 ≤ 150 ms).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "services")]

from service_helpers import create_fresh_database, drop_database  # noqa: E402

from services.api import create_app  # noqa: E402
from services.platform import migrate  # noqa: E402
from services.platform.config import Config  # noqa: E402
from services.platform.embedded import EmbeddedPostgres  # noqa: E402

FILL = """
WITH day_event AS (
    SELECT e AS event_id, DATE '2026-01-01' + ((e * 7) %% 363 + d) AS played_on
    FROM generate_series(1, %(events)s) e, generate_series(0, 1) d
), decks AS (SELECT 'Deck ' || i AS deck FROM generate_series(1, %(decks)s) i),
   cards AS (SELECT 'Card ' || i AS card FROM generate_series(1, 24) i),
   bfs AS (SELECT 'Battlefield ' || i AS battlefield FROM generate_series(1, 15) i)
{body}
"""
BODIES = {
    "agg_deck_results": """INSERT INTO agg_deck_results
        SELECT played_on, event_id, 2, deck, 80 + (random() * 10)::int, 40, 2, 40, 22
        FROM day_event, decks""",
    "agg_matchups": """INSERT INTO agg_matchups
        SELECT played_on, event_id, 2, a.deck, b.deck, 8, 4, 0
        FROM day_event, decks a, decks b""",
    "agg_battlefield_decks": """INSERT INTO agg_battlefield_decks
        SELECT played_on, event_id, 2, battlefield, deck, 16, 8, 0, 7, 400
        FROM day_event, bfs, decks""",
    "agg_battlefield_first_player": """INSERT INTO agg_battlefield_first_player
        SELECT played_on, event_id, 2, battlefield, 100, 55, 52, 2
        FROM day_event, bfs""",
    "agg_first_player": """INSERT INTO agg_first_player
        SELECT played_on, event_id, 2, 500, 270, 10 FROM day_event""",
    "agg_card_metrics": """INSERT INTO agg_card_metrics
        SELECT played_on, event_id, 2, deck, card, 50, 27, 60, 200, 10, 100, 300
        FROM day_event, decks, cards""",
}
ENDPOINTS = ["decks", "matchups", "battlefields", "first-player", "cards", "trends"]
FILTERS = {"all": "min_games=30", "one event": "event=500", "one month": "from=2026-06-01&to=2026-06-30"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--decks", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()

    env = Config.from_env()
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        server_url = env.database_url
        if not server_url:
            server = EmbeddedPostgres(Path(tmp) / "postgres")
            server_url = server.start()
        url = create_fresh_database(server_url)
        try:
            migrate.upgrade(url)
            with psycopg.connect(url) as conn:
                for table, body in BODIES.items():
                    t = time.perf_counter()
                    conn.execute(FILL.format(body=body), {"events": args.events, "decks": args.decks})
                    n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                    print(f"{table:30s} {n:>9,} rows  ({time.perf_counter() - t:.1f} s)")
                conn.commit()
                conn.autocommit = True
                conn.execute("VACUUM ANALYZE")
            app = create_app(dataclasses.replace(env, database_url=url, redis_url="redis://127.0.0.1:1/0"))
            client = app.test_client()
            print(f"\n{'endpoint':14s} {'filter':10s} {'p50 ms':>8s} {'p95 ms':>8s}")
            for endpoint in ENDPOINTS:
                for label, query in FILTERS.items():
                    times = []
                    for _ in range(args.repeat + 2):
                        t = time.perf_counter()
                        response = client.get(f"/api/v1/stats/{endpoint}?{query}")
                        times.append((time.perf_counter() - t) * 1000)
                        assert response.status_code == 200, response.get_json()
                    times = sorted(times[2:])  # the first two warm the pool and the imports
                    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
                    print(f"{endpoint:14s} {label:10s} {statistics.median(times):8.1f} {p95:8.1f}")
            app.extensions["empyrean"].close()
        finally:
            drop_database(url)
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
