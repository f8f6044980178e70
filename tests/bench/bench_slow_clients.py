"""Benchmark: what other clients get while slow clients hold connections to the API (issue 16).

    .venv/bin/python tests/bench/bench_slow_clients.py [--connections 200] [--seconds 60]

Starts the service as `empyrean up` does (services.platform.launcher.ServiceLauncher: embedded
PostgreSQL and Redis in a temporary folder, a Celery worker, the API under gunicorn with the
project's settings), without demo data. Then --connections anonymous connections to the API trickle a
request, one byte per connection per second (half their headers, half the body of an upload with a
large Content-Length; a connection the server closes is opened again at once; tests/fault/slow_clients.py),
for --seconds, while another client probes GET /api/v1/health every 0.1 s and uploads a game with
the admin token every 0.5 s. Prints p50/p99/max of both, and how many probes failed or timed out
(timeout: --probe-timeout s, counted as that long). Loopback only; stops by itself.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fault")]

from slow_clients import Probe, SlowClients, get_health, post_game  # noqa: E402

from engine.bfe.selfplay import self_play  # noqa: E402
from services.platform.config import Config  # noqa: E402
from services.platform.launcher import ServiceLauncher, api_command  # noqa: E402


def summary(name: str, probe: Probe, ok: int) -> str:
    failed = [status for _, status in probe.samples if status != ok]
    return (f"{name:7}: p50 {probe.percentile(50) * 1000:8.1f} ms  p99 {probe.percentile(99) * 1000:8.1f} ms  "
            f"max {max(probe.latencies(), default=float('nan')) * 1000:8.1f} ms  "
            f"({len(probe.samples)} requests, {len(failed)} not {ok}: {sorted(set(map(str, failed)))})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--probe-timeout", type=float, default=30)
    args = parser.parse_args()

    logs = iter([self_play(seed) for seed in range(100_000, 100_000 + int(args.seconds * 2) + 20)])
    with tempfile.TemporaryDirectory() as folder:
        with socket.socket() as s:  # a free port, not 8000: this machine may serve something there
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        config = Config(data_dir=Path(folder), worker_concurrency=1, api_port=port)
        launcher = ServiceLauncher(config, echo=lambda line: None)
        running = launcher.start()
        try:
            config = running.config
            base = running.api_url.rsplit("/api/", 1)[0]
            print(f"API: {' '.join(api_command(config)[2:])}")
            with SlowClients(config.api_host, config.api_port, args.connections) as slow:
                time.sleep(2)
                with Probe(get_health(base, args.probe_timeout), every=0.1) as health, \
                        Probe(post_game(base, running.token, logs, args.probe_timeout), every=0.5) as uploads:
                    time.sleep(args.seconds)
            print(f"{args.connections} slow connections for {args.seconds:g} s "
                  f"(closed by the server and opened again: {slow.reopened})")
            print(summary("health", health, 200))
            print(summary("uploads", uploads, 202))
        finally:
            launcher.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
