"""Benchmark: the whole service on its embedded stack — a tournament bundle end to end, and single
uploads one by one and under concurrent load. Prints numbers; not part of the default test run.

    .venv/bin/python tests/bench/bench_pipeline.py [--games 10000] [--singles 500] [--threads 8]

It starts the service the way `empyrean up` does (embedded PostgreSQL and Redis in a temporary
folder, a Celery worker with EMPYREAN_WORKER_CONCURRENCY processes, the API under gunicorn), without
demo data, then:
1. generates --games seeded self-play logs (not timed), posts them as one gzip NDJSON bundle and
   times storing (the POST) and replaying (until every game has its verdict and is counted);
2. uploads --singles new games one at a time over HTTP: p50/p95 latency of POST /api/v1/games;
3. uploads --singles more from --threads threads at once: uploads/s sustained.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests
from tqdm import tqdm

from engine.selfplay import self_play
from services.config import Config
from services.launcher import ServiceLauncher

PENDING = ("received", "queued", "replaying")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--singles", type=int, default=500)
    ap.add_argument("--threads", type=int, default=8)
    args = ap.parse_args()

    logs = [json.dumps(self_play(seed, meta={"date": f"2026-06-{1 + seed % 30:02d}"}))
            for seed in tqdm(range(args.games + 2 * args.singles), desc="simulating", unit="game")]
    bundle, singles = logs[:args.games], logs[args.games:]

    with tempfile.TemporaryDirectory() as folder:
        # embedded servers, whatever the environment says; the upload rate limit is raised so the
        # bar (>= 300 uploads/s from one token) is what is measured (docs/security.md)
        config = Config(data_dir=Path(folder), rate_limit_uploads="1000000/minute",
                        rate_limit_reads="1000000/minute")
        launcher = ServiceLauncher(config, echo=lambda line: None)
        running = launcher.start()
        try:
            run(running.api_url, bundle, singles, args, running.token)
        finally:
            launcher.stop()


def run(api: str, bundle: list[str], singles: list[str], args, token: str) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    http = requests.Session()
    http.headers.update(auth)
    event = http.post(f"{api}/events", json={"name": "Benchmark Open"}).json()
    body = gzip.compress(("\n".join(bundle) + "\n").encode())
    t0 = time.perf_counter()
    report = http.post(f"{api}/events/{event['id']}/games", data=body, timeout=3600,
                       headers={"Content-Type": "application/x-ndjson", "Content-Encoding": "gzip"}).json()
    t_store = time.perf_counter() - t0
    assert report["accepted"] == len(bundle), {k: v for k, v in report.items() if k != "games"}
    while True:
        counts = http.get(f"{api}/events/{event['id']}").json()["games"]
        if not any(counts.get(s) for s in PENDING):
            break
        time.sleep(0.25)
    t_all = time.perf_counter() - t0
    print(f"bundle          : {len(bundle)} games ({len(body) / 1e6:.1f} MB gzip) verified and counted in "
          f"{t_all:.1f} s = {len(bundle) / t_all:.0f} games/s end to end")
    print(f"  storing       : {t_store:.1f} s ({len(bundle) / t_store:.0f} games/s: the POST, stream to rows)")
    print(f"  replay+counts : {t_all - t_store:.1f} s after the POST answered (workers overlap with storing)")
    print(f"  verdicts      : {counts}")

    half = len(singles) // 2
    latencies = []
    for raw in singles[:half]:
        t = time.perf_counter()
        r = http.post(f"{api}/games", data=raw, headers={"Content-Type": "application/json"})
        latencies.append((time.perf_counter() - t) * 1e3)
        assert r.status_code == 202, r.text
    q = statistics.quantiles(latencies, n=20)
    print(f"single upload   : p50 {statistics.median(latencies):.1f} ms, p95 {q[18]:.1f} ms "
          f"({half} sequential uploads)")

    rest = singles[half:]
    per_thread = [rest[i::args.threads] for i in range(args.threads)]

    def worker(items: list[str]) -> None:
        session = requests.Session()
        session.headers.update(auth)
        for raw in items:
            assert session.post(f"{api}/games", data=raw, headers={"Content-Type": "application/json"}).status_code == 202

    threads = [threading.Thread(target=worker, args=(items,)) for items in per_thread]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - t
    print(f"concurrent      : {len(rest) / elapsed:.0f} uploads/s ({len(rest)} uploads from {args.threads} threads)")


if __name__ == "__main__":
    main()
