"""Benchmark: the positions API (issue 17) — position() after every line of 10-round logs, in the
engine and over HTTP. Bar (../shared/DESIGN.md): p95 ≤ 20 ms for a long unfinished log of any game.

    .venv/bin/python tests/bench/bench_positions.py [--games 20] [--titans-games 10] [--elysian-games 10]
        [--steam-games 10] [--engine both|native|pure] [--no-http]

Logs: --games self-played 2-player games (10 rounds) written as a table writes them (recorded chance,
every card named: engine.seats.as_recorded), and as many from one seat's view (seat_view, P1);
every prefix of each — the log a recorder sends after each decision — is one request. Titans of
Empyrean, Elysian Battlefields and Spells & Steam: the --titans-games (--elysian-games,
--steam-games) longest of three times as many random-bot games (random bots play longer games than
greedy ones; Elysian's at 3 players, Spells & Steam's at 4), written the same two ways.

1. Engine: position() of every prefix, timed one by one, p50/p95/max per log form; for the
   compiled engine (infra/build_native.py, built first if missing or stale) and the Python
   sources, each in a process of its own (--engine).
2. HTTP: the service started as `empyrean up` starts it (services.platform.launcher.ServiceLauncher:
   embedded PostgreSQL and Redis in a temporary folder, a worker, the API under gunicorn with the
   project's settings; no demo data), then POST /api/v1/positions with every prefix of the full
   logs, one client on one keep-alive connection, then --clients clients at once; then --heavy
   clients asking for the slowest positions (3-player seat views) for 20 s while another client
   probes health and uploads games: what everyone else gets meanwhile. The positions
   rate limit is raised for the run (600/minute per address would refuse a benchmark, not a table).
Not part of the test run (pytest collects only test_*.py). Loopback only; stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def prefixes(log: dict) -> list[dict]:
    """The log as a recorder sends it after each decision: every prefix, no result yet."""
    base = {k: v for k, v in log.items() if k != "result"}
    return [{**base, "decisions": log["decisions"][:k]} for k in range(len(log["decisions"]))]


OTHER_PLAYERS = {"titans": 2, "elysian": 3, "steam": 4}  # the long logs of each other game are of this many players


def make_logs(games: int, others: dict[str, int] | None = None) -> dict[str, list[dict]]:
    from engine.bfe.selfplay import self_play
    from engine.seats import as_recorded, seat_view

    full = [as_recorded(self_play(seed)) for seed in range(170_000, 170_000 + games)]
    forms = {"full": full, "seat view (P1)": [seat_view(log, 1) for log in full]}
    for key, n in (others or {}).items():
        if n:
            logs = long_logs(key, n)
            forms |= {f"{key}, full": logs, f"{key}, seat P1": [seat_view(log, 1) for log in logs]}
    return forms


def long_logs(key: str, games: int) -> list[dict]:
    """The ``games`` longest of 3 × ``games`` games of ``key`` by the random bots, written at a table."""
    from engine.games import rules_for
    from engine.seats import as_recorded

    rules = rules_for(key)
    played = [as_recorded(rules.self_play(seed, bot="random", players=OTHER_PLAYERS[key]))
              for seed in range(174_000, 174_000 + 3 * games)]
    return sorted(played, key=lambda log: -len(log["decisions"]))[:games]


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return (f"p50 {q[49] * 1000:6.2f} ms  p95 {q[94] * 1000:6.2f} ms  max {ordered[-1] * 1000:6.2f} ms  "
            f"({len(ordered)} positions)")


def engine_part(build: str, games: int, others: dict[str, int]) -> None:
    """Runs in a process of its own: the engine build is chosen before the engine is imported."""
    if build == "native":
        sys.path.insert(0, str(ROOT / "infra"))
        import build_native

        sys.path.insert(0, str(build_native.build()))
    import engine.bfe.game
    from engine.log import parse_log
    from engine.position import position

    print(f"engine: {build} ({Path(engine.bfe.game.__file__).name})")
    for form, logs in make_logs(games, others).items():
        times, parse_times = [], []
        lines = [len(log["decisions"]) for log in logs]
        for log in logs:
            for body in prefixes(log):
                text = json.dumps(body).encode()  # as a request body arrives
                t0 = time.perf_counter()
                pos = position(text)
                times.append(time.perf_counter() - t0)
                assert pos.status == "in progress", pos.verdict
                t0 = time.perf_counter()
                parse_log(text)
                parse_times.append(time.perf_counter() - t0)
        print(f"  {form:15} position(): {percentiles(times)}; {min(lines)}-{max(lines)} lines a log")
        print(f"  {'':15} of which parse_log: p50 {statistics.median(parse_times) * 1000:.2f} ms")


class Client:
    """One keep-alive HTTP connection posting positions; latencies of each answer in full."""

    def __init__(self, host: str, port: int) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.latencies: list[float] = []
        self.failures: list[int] = []

    def post(self, body: bytes) -> None:
        t0 = time.perf_counter()
        self.conn.request("POST", "/api/v1/positions", body=body, headers={"Content-Type": "application/json"})
        response = self.conn.getresponse()
        data = response.read()
        self.latencies.append(time.perf_counter() - t0)
        if response.status != 200 or json.loads(data)["status"] != "in progress":
            self.failures.append(response.status)


def slowest_bodies(games: int) -> list[bytes]:
    """Among the slowest positions to work out: 3-player games seen from one seat (every unseen card
    of two opponents tracked), in their last third."""
    from engine.bfe.selfplay import self_play
    from engine.seats import as_recorded, seat_view

    bodies = []
    for seed in range(171_000, 171_000 + games):
        log = seat_view(as_recorded(self_play(seed, players=3, bot="greedy")), 1)
        bodies += [json.dumps(body).encode() for body in prefixes(log)[-len(log["decisions"]) // 3:]]
    return bodies


def others_meanwhile(running, clients: int, seconds: float = 20) -> None:
    """``clients`` recorders ask for the slowest positions for ``seconds`` while another client probes
    health every 0.1 s and uploads a game every 0.5 s: what everyone else gets meanwhile."""
    sys.path.insert(0, str(ROOT / "tests" / "fault"))
    from slow_clients import Probe, get_health, post_game

    from engine.bfe.selfplay import self_play

    bodies, stop = slowest_bodies(6), threading.Event()
    config = running.config
    recorders = [Client(config.api_host, config.api_port) for _ in range(clients)]

    def ask(client: Client, start: int) -> None:
        i = start
        while not stop.is_set():
            client.post(bodies[i % len(bodies)])
            i += 1

    threads = [threading.Thread(target=ask, args=(c, i * 7)) for i, c in enumerate(recorders)]
    logs = (self_play(seed) for seed in range(172_000, 173_000))
    for t in threads:
        t.start()
    time.sleep(1)
    with Probe(get_health(running.api_url.removesuffix("/api/v1"), timeout=10), every=0.1) as health, \
            Probe(post_game(running.api_url.removesuffix("/api/v1"), running.token, logs, timeout=10),
                  every=0.5) as uploads:
        time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    latencies = [x for c in recorders for x in c.latencies]
    print(f"  {clients} clients asking for the slowest positions: {percentiles(latencies)}")
    for name, probe in (("health", health), ("uploads", uploads)):
        p50, p99 = probe.percentile(50) * 1e3, probe.percentile(99) * 1e3
        print(f"    meanwhile {name:8}: p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  ({len(probe.samples)} requests, "
              f"{probe.statuses()})")


def http_part(games: int, others: dict[str, int], clients: int, heavy: int) -> None:
    from services.platform.config import Config
    from services.platform.launcher import ServiceLauncher, api_command

    forms = make_logs(games, others)
    bodies = [json.dumps(body).encode() for log in forms["full"] for body in prefixes(log)]
    other_bodies = {key: [json.dumps(body).encode() for log in forms.get(f"{key}, full", []) for body in prefixes(log)]
                    for key in others}
    with tempfile.TemporaryDirectory() as folder:
        with socket.socket() as s:  # a free port, not 8000: this machine may serve something there
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        config = Config(data_dir=Path(folder), worker_concurrency=1, api_port=port,
                        rate_limit_positions="1000000/minute")
        launcher = ServiceLauncher(config, echo=lambda line: None)
        running = launcher.start()
        try:
            config = running.config
            print(f"API: {' '.join(api_command(config)[2:])}")
            warm = Client(config.api_host, config.api_port)
            for body in bodies[:50]:  # every gunicorn worker's first requests import and warm up
                warm.post(body)
            one = Client(config.api_host, config.api_port)
            for body in bodies:
                one.post(body)
            print(f"  1 client          POST /positions: {percentiles(one.latencies)}; failures {one.failures}")
            for key, key_bodies in other_bodies.items():
                if not key_bodies:
                    continue
                client = Client(config.api_host, config.api_port)
                for body in key_bodies:
                    client.post(body)
                print(f"  1 client, {key:8s} POST /positions: {percentiles(client.latencies)}; "
                      f"failures {client.failures}")
            many = [Client(config.api_host, config.api_port) for _ in range(clients)]
            threads = [threading.Thread(target=lambda c=c, i=i: [c.post(b) for b in bodies[i::clients]])
                       for i, c in enumerate(many)]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
            latencies = [x for c in many for x in c.latencies]
            failures = [x for c in many for x in c.failures]
            print(f"  {clients} clients at once POST /positions: {percentiles(latencies)}; "
                  f"{len(latencies) / wall:.0f} positions/s; failures {failures}")
            others_meanwhile(running, heavy)
        finally:
            launcher.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--titans-games", type=int, default=10, help="long Titans of Empyrean logs (0: none)")
    parser.add_argument("--elysian-games", type=int, default=10, help="long Elysian Battlefields logs (0: none)")
    parser.add_argument("--steam-games", type=int, default=10, help="long Spells & Steam logs (0: none)")
    parser.add_argument("--engine", default="both", choices=["both", "native", "pure"])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--heavy", type=int, default=20,
                        help="clients asking for the slowest positions while health and uploads are timed")
    parser.add_argument("--no-http", action="store_true", help="the engine part only")
    parser.add_argument("--engine-part", choices=["native", "pure"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    others = {"titans": args.titans_games, "elysian": args.elysian_games, "steam": args.steam_games}
    if args.engine_part:
        engine_part(args.engine_part, args.games, others)
        return 0
    for engine in (["native", "pure"] if args.engine == "both" else [args.engine]):
        subprocess.run([sys.executable, __file__, "--engine-part", engine, "--games", str(args.games),
                        *(arg for key, n in others.items() for arg in (f"--{key}-games", str(n)))],
                       check=True, cwd="/")  # not the checkout: its engine/ would shadow the build
    if not args.no_http:
        http_part(args.games, others, args.clients, args.heavy)
    return 0

if __name__ == "__main__":
    sys.exit(main())
