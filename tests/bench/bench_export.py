"""Benchmark: the bulk export (GET /api/v1/export/games.csv|.parquet) of a large event — rows/s,
time to the first byte, bytes, and the API process's peak memory while it streams.

    PYTHONPATH=. .venv/bin/python tests/bench/bench_export.py [--games 100000]

Not part of the default test run (tests/bench holds no test_*.py). What it does:

1. An embedded PostgreSQL and Redis (services.platform.embedded) in a temporary folder, a scratch
   database migrated to head.
2. One event: 20 self-played games stored and replayed by the service's own code
   (services.games.store, services.games.replay: real record rows), then copied in SQL
   (tests/services/export_fill.py) up to ``--games`` counted games (a 100,000-game bundle is the
   largest an organiser sends: EMPYREAN_MAX_BUNDLE_GAMES).
3. Each format downloaded through the real app (services.platform.entrypoints.api_app) with Flask's
   test client, the body read chunk by chunk as a client would, while a thread samples the
   process's resident memory every 5 ms: the peak above the level before the request is what the
   export cost in memory, to compare with the size of the whole body. Each format is downloaded
   twice; the second is the export's own cost (the first also loads code pages for the first time).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "services")]

from export_fill import clone_counted_game  # noqa: E402
from service_fixtures import HIGH_LIMITS  # noqa: E402
from service_helpers import create_fresh_database, drop_database  # noqa: E402

SOURCES = 20


class PeakMemory:
    """The highest resident set size of this process while in the ``with``, sampled every 5 ms."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.peak = self.start = 0
        self._stop = threading.Event()

    def __enter__(self) -> "PeakMemory":
        self.start = self.peak = self.process.memory_info().rss
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.process.memory_info().rss)


def fill(database_url: str, games: int) -> int:
    """The event's id, with ``games`` counted games."""
    import psycopg

    from engine.bfe.selfplay import self_play
    from services.games.replay import replay_stored_games
    from services.games.store import parse_upload, store_batch
    from services.platform.pool import create_pool

    with psycopg.connect(database_url, autocommit=True) as conn:
        event = conn.execute("INSERT INTO events (name) VALUES ('Bench Export Open') RETURNING id").fetchone()[0]
        batch = [parse_upload(json.dumps(self_play(seed, meta={"event": "Bench Export Open", "date": "2026-06-06",
                                                                  "round": 1, "table": str(seed),
                                                                  "players": [f"P{seed}a", f"P{seed}b"]})).encode())
                 for seed in range(SOURCES)]
        with conn.transaction():
            stored = store_batch(conn, batch, "bench", event_id=event)
    pool = create_pool(database_url, max_size=2, name="bench-fill")
    verdicts = replay_stored_games(pool, [s.id for s in stored])
    pool.close()
    sources = [g for g, status in verdicts.items() if status == "valid"]
    assert sources, verdicts
    per_source = -(-(games - len(sources)) // len(sources))
    with psycopg.connect(database_url) as conn:
        made = len(sources)
        for source in sources:
            copies = min(per_source, games - made)
            if copies <= 0:
                break
            with conn.transaction():
                clone_counted_game(conn, source, copies, event)
            made += copies
        conn.execute("ANALYZE")
        conn.commit()
    return event


def download(client, url: str) -> dict:
    with PeakMemory() as memory:
        started = time.perf_counter()
        response = client.get(url)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        first = None
        size = chunks = 0
        for chunk in response.response:
            if first is None:
                first = time.perf_counter() - started
            size += len(chunk)
            chunks += 1
        response.close()
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "first_byte_s": first, "bytes": size, "chunks": chunks,
            "peak_mib": (memory.peak - memory.start) / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()

    from services.platform import migrate
    from services.platform.config import Config
    from services.platform.embedded import EmbeddedStack
    from services.platform.entrypoints import api_app

    with tempfile.TemporaryDirectory(prefix="empyrean-bench-export-") as folder:
        stack = EmbeddedStack(Path(folder)).start()
        url = create_fresh_database(stack.database_url)
        try:
            migrate.upgrade(url)
            started = time.perf_counter()
            event = fill(url, args.games)
            print(f"filled {args.games:,} counted games in {time.perf_counter() - started:.1f} s")
            config = Config(data_dir=Path(folder) / "data", **HIGH_LIMITS).with_servers(url, stack.redis_url)
            app = api_app(config)
            client = app.test_client()
            rows = 2 * args.games
            import pyarrow.parquet  # noqa: F401  (its libraries load once per process: not the export's cost)

            # Each format twice: the first request of a process also pays for pages of code and of the
            # allocators touched for the first time (pyarrow's libraries above all), the second is the
            # export's own cost.
            for fmt, run in (("csv", "first"), ("csv", "again"), ("parquet", "first"), ("parquet", "again")):
                result = download(client, f"/api/v1/export/games.{fmt}?event={event}")
                print(f"{fmt:8} {run:5} {rows:,} rows in {result['seconds']:.1f} s = "
                      f"{rows / result['seconds']:,.0f} rows/s; "
                      f"first byte after {result['first_byte_s'] * 1000:.0f} ms; {result['bytes'] / 2**20:.2f} MiB "
                      f"in {result['chunks']} chunks; peak memory +{result['peak_mib']:.1f} MiB")
            app.extensions["empyrean"].close()
        finally:
            drop_database(url)
            stack.stop()


if __name__ == "__main__":
    main()
