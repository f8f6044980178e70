"""Benchmark: the database time of replaying games in chunks, and of counting them by fold, in one
process against an embedded PostgreSQL (no Celery, no HTTP). Prints numbers; not part of the
default test run. The figures behind workers/replay.py's design (docs/performance.md, "Scale").

    .venv/bin/python tests/bench/bench_chunks.py [--games 2000] [--chunks 1 10 100 1000]
                                                 [--folds 500 1000 2000 4000]

1. Simulates --games seeded self-play logs (cached in /tmp) and times the engine alone on them
   (`replay(raw, record=True)`; the compiled engine when it is built).
2. For each chunk size, in a fresh database: stores the games as a bundle would
   (services.games.store.store_batch), then replays them chunk by chunk, each chunk counted in its own
   transaction (`replay_stored_games(defer_counts=False)`): database time per game = (total − the
   engine's time) / games.
3. Counting by fold: in a fresh database, the games are replayed with their counts deferred, then
   folded (services.games.records.fold_pending) in batches of the --folds sizes in turn, and the time
   per game printed; three rounds, so that from the second on the folds update rows earlier rounds
   wrote; then all again with the aggregate tables at fillfactor 100 (rewritten by VACUUM FULL),
   PostgreSQL's default before migration 0007.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "services")]

from services.platform.native import use_native_engine  # noqa: E402

NATIVE = use_native_engine()

from service_helpers import create_fresh_database  # noqa: E402

from engine.bfe.selfplay import self_play  # noqa: E402
from engine.replay import replay  # noqa: E402
from services.games.dispatch import mark_reprocess  # noqa: E402
from services.games.events import create_event  # noqa: E402
from services.games.records import AGGREGATE_TABLES, fold_pending  # noqa: E402
from services.games.replay import replay_stored_games  # noqa: E402
from services.games.store import parse_upload, store_batch  # noqa: E402
from services.platform import migrate  # noqa: E402
from services.platform.embedded import EmbeddedPostgres  # noqa: E402
from services.platform.pool import create_pool  # noqa: E402

FOLD_CHUNK = 1000  # chunk size of the deferred replay before the folds


def logs(n: int) -> list[bytes]:
    cache = Path(tempfile.gettempdir()) / f"empyrean-bench-chunks-{n}.pkl"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    out = [json.dumps(self_play(seed, meta={"date": f"2026-06-{1 + seed % 30:02d}"})).encode() for seed in range(n)]
    cache.write_bytes(pickle.dumps(out))
    return out


def stored(server_url: str, raws: list[bytes]):
    """A fresh migrated database holding ``raws`` as one event's bundle; (pool, game ids)."""
    url = create_fresh_database(server_url)
    migrate.upgrade(url)
    pool = create_pool(url, max_size=2, name="bench-chunks")
    pool.wait()
    with pool.connection() as conn, conn.transaction():
        event = create_event(conn, "Chunk Bench", None, None, "public", "bench")[0]
        ids = [s.id for s in store_batch(conn, [parse_upload(raw) for raw in raws], None, event_id=event)]
    return pool, ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--chunks", type=int, nargs="+", default=[1, 10, 100, 1000])
    ap.add_argument("--folds", type=int, nargs="+", default=[500, 1000, 2000, 4000])
    args = ap.parse_args()
    raws = logs(args.games)
    t = time.perf_counter()
    for raw in raws:
        replay(raw, record=True)
    engine_s = time.perf_counter() - t
    print(f"engine ({'compiled' if NATIVE else 'Python sources'}): {len(raws) / engine_s:.0f} games/s "
          f"with the record, {engine_s / len(raws) * 1e3:.2f} ms per game")
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedPostgres(Path(folder) / "pg", database="postgres")
        server_url = server.start()
        try:
            for chunk in args.chunks:
                pool, ids = stored(server_url, raws)
                t = time.perf_counter()
                for start in range(0, len(ids), chunk):
                    replay_stored_games(pool, ids[start:start + chunk])
                total = time.perf_counter() - t
                pool.close()
                print(f"chunks of {chunk:5d}: {len(ids) / total:5.0f} games/s in one process; database "
                      f"{(total - engine_s) / len(ids) * 1e3:.2f} ms per game (counted in the chunk)")
            for fillfactor in (50, 100):
                fold_costs(server_url, raws, args.folds, fillfactor)
        finally:
            server.stop()


def fold_costs(server_url: str, raws: list[bytes], sizes: list[int], fillfactor: int, rounds: int = 3) -> None:
    """Replay every game with its count deferred, then fold them in batches of the given sizes, in
    that order; ``rounds`` times, so from the second round on the folds update rows that earlier
    rounds wrote (and the replays took back out) — the steady state of a busy service."""
    pool, ids = stored(server_url, raws)
    if fillfactor != 50:
        with pool.connection() as conn:
            conn.autocommit = True
            for table in AGGREGATE_TABLES + [f"{t}_weekly" for t in AGGREGATE_TABLES]:
                conn.execute(f"ALTER TABLE {table} SET (fillfactor = {fillfactor})")
                conn.execute(f"VACUUM FULL {table}")
    for round_ in range(1, rounds + 1):
        if round_ > 1:  # the counted games go back to the queue, as a reprocess puts them
            with pool.connection() as conn:
                mark_reprocess(conn, game_ids=ids)
        for start in range(0, len(ids), FOLD_CHUNK):
            replay_stored_games(pool, ids[start:start + FOLD_CHUNK], defer_counts=True)
        results, left, turn = [], len(ids), 0
        while left:
            size = sizes[turn % len(sizes)]
            turn += 1
            with pool.connection() as conn, conn.transaction():
                t = time.perf_counter()
                folded = fold_pending(conn, size)
                elapsed = time.perf_counter() - t
            left -= len(folded)
            results.append(f"{len(folded)}: {elapsed / len(folded) * 1e3:.2f}")
        print(f"fillfactor {fillfactor:3d}, round {round_}: fold ms per game by batch size — " + ", ".join(results))
    pool.close()


if __name__ == "__main__":
    os.environ.setdefault("PGAPPNAME", "bench-chunks")
    main()
