"""Benchmark: the API's memory (RSS) under the worst tournament bundles (issue 16). Prints numbers;
not part of the default test run.

    .venv/bin/python tests/bench/bench_bundle_memory.py [--games 100000] [--only NAME ...] [--json FILE]

It starts the service the way `empyrean up` does (embedded PostgreSQL and Redis in a temporary
folder, the API under gunicorn: 2 worker processes of 4 threads; the Celery worker is paused with
SIGSTOP for the whole run, so replaying the bundles' games does not compete for the cores), then
posts each bundle once and samples the RSS of every API worker process every 50 ms: its RSS when
idle before the bundle, its peak while the bundle was posted, and its RSS afterwards. The figure
that matters is the peak above idle of the process that served the request (the bar: ≤ 50 MB).

The bundles (each into an event of its own):

- ``x``: 1,000,000 lines of ``x`` (2 MB of NDJSON)
- ``objects``: 100,000 lines of ``{"i":N}`` (JSON objects, not game logs)
- ``heavy``: 400 game logs of 1 MiB each (``"format"`` and a 1 MiB ``x-pad`` field: malformed, stored)
- ``valid``: --games different valid games (self-play variants, numbered in ``meta``), gzip NDJSON;
  the default 100,000 is EMPYREAN_MAX_BUNDLE_GAMES, the most a bundle may hold
- ``huge-entry``: a JSON array whose second element is one 400 MB string

Run it on a build without the issue-16 fixes (``PYTHONPATH=<that checkout>``) for the "before".
"""

from __future__ import annotations

import argparse
import gzip
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT)]

from engine.bfe.selfplay import self_play  # noqa: E402
from services.platform.config import Config  # noqa: E402
from services.platform.launcher import ServiceLauncher  # noqa: E402

MB = 2**20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sampler(threading.Thread):
    """Peak RSS of each pid in ``pids``, every 50 ms, between start() and stop()."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.procs = [psutil.Process(pid) for pid in pids]
        self.peak = {p.pid: p.memory_info().rss for p in self.procs}
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.05):
            for p in self.procs:
                try:
                    self.peak[p.pid] = max(self.peak[p.pid], p.memory_info().rss)
                except psutil.Error:
                    pass

    def stop(self) -> dict[int, int]:
        self.stopped.set()
        self.join()
        return self.peak


def bundles(games: int) -> dict:
    """name → (description, a function making (body, headers))."""
    ndjson = {"Content-Type": "application/x-ndjson"}

    def xs():
        return b"x\n" * 1_000_000, ndjson

    def objects():
        return b"".join(b'{"i":%d}\n' % i for i in range(100_000)), ndjson

    def heavy():
        pad = "p" * (MB - 100)
        return b"".join(json.dumps({"format": "empyrean-log", "x-n": i, "x-pad": pad}).encode() + b"\n"
                        for i in range(400)), ndjson

    def valid():
        seeds = [self_play(seed, meta={"date": "2026-06-01"}) for seed in range(200)]
        raw = gzip.compress(b"".join(
            json.dumps({**log, "meta": {**log["meta"], "x-copy": n}}).encode() + b"\n"
            for n in range(games) for log in [seeds[n % len(seeds)]]), compresslevel=1)
        return raw, {**ndjson, "Content-Encoding": "gzip"}

    def huge_entry():
        return b'[{"format":"empyrean-log"},"' + b"x" * (400 * MB) + b'"]', {"Content-Type": "application/json"}

    return {
        "x": ("1,000,000 lines of x", xs),
        "objects": ("100,000 lines of {\"i\":N}", objects),
        "heavy": ("400 game logs of 1 MiB", heavy),
        "valid": (f"{games:,} valid games, gzip", valid),
        "huge-entry": ("an array entry of 400 MB", huge_entry),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games in the valid bundle")
    ap.add_argument("--only", nargs="+", help="run only these bundles")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    args = ap.parse_args()
    todo = {k: v for k, v in bundles(args.games).items() if not args.only or k in args.only}
    results: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        config = Config(data_dir=Path(folder), api_port=free_port(), rate_limit_bundles="1000/minute")
        launcher = ServiceLauncher(config, echo=lambda line: None)
        running = launcher.start()
        worker = next(c for c in running.children if c.name == "worker").process.pid
        paused = [psutil.Process(worker), *psutil.Process(worker).children(recursive=True)]
        for proc in paused:
            proc.suspend()
        try:
            api = psutil.Process(next(c for c in running.children if c.name == "api").process.pid)
            pids = [p.pid for p in api.children(recursive=True)]
            http = requests.Session()
            http.headers["Authorization"] = f"Bearer {running.token}"
            # warm each API worker up (imports, pools) so "idle" is its steady state
            for _ in range(8):
                http.get(f"{running.api_url}/events")
            print(f"API worker processes {pids}; idle RSS "
                  + ", ".join(f"{psutil.Process(p).memory_info().rss / MB:.0f} MB" for p in pids))
            for i, (name, (what, make)) in enumerate(todo.items()):
                body, headers = make()
                event = http.post(f"{running.api_url}/events", json={"name": f"Memory {i} {name}"}).json()["id"]
                idle = {p: psutil.Process(p).memory_info().rss for p in pids}
                sampler = Sampler(pids)
                sampler.start()
                t = time.perf_counter()
                response = http.post(f"{running.api_url}/events/{event}/games", data=body, headers=headers,
                                     timeout=3600)
                seconds = time.perf_counter() - t
                peak = sampler.stop()
                after = {p: psutil.Process(p).memory_info().rss for p in pids}
                served = max(pids, key=lambda p: peak[p] - idle[p])
                answer = response.json()
                summary = ({k: answer[k] for k in ("received", "accepted", "duplicates", "malformed", "rejected")
                            if k in answer} if "error" not in answer else answer["error"]["message"][:110])
                results[name] = {"bundle": what, "body_mb": round(len(body) / MB, 1), "status": response.status_code,
                                 "seconds": round(seconds, 1), "answer_kb": round(len(response.content) / 1024, 1),
                                 "idle_mb": round(idle[served] / MB), "peak_mb": round(peak[served] / MB),
                                 "after_mb": round(after[served] / MB),
                                 "peak_above_idle_mb": round((peak[served] - idle[served]) / MB), "answer": summary}
                r = results[name]
                print(f"{what:28} body {r['body_mb']:7.1f} MB -> {r['status']} in {r['seconds']:6.1f} s, answer "
                      f"{r['answer_kb']:9.1f} KB; API worker RSS idle {r['idle_mb']} MB, peak {r['peak_mb']} MB "
                      f"(+{r['peak_above_idle_mb']} MB), after {r['after_mb']} MB\n{'':30}{summary}")
                del body, response, answer
        finally:
            for proc in paused:
                proc.resume()
            launcher.stop()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
