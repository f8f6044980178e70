"""Benchmark: replay simulated 2-player games on one core; prints games/s and µs per decision.

    .venv/bin/python tests/bench/bench_replay.py [--games 10000] [--bot random] [--engine native]

Not part of the default test run (pytest collects only test_*.py). Logs are generated first
(self-play, not timed), parsed once (timed separately), then replayed with and without building
the game record; and the same games written as at a table (recorded chance, every card named)
and from one seat (the opponent's cards unseen), to compare their cost. ``--engine native`` (the
default) measures the mypyc-compiled engine built by infra/build_native.py (built first if it is
missing or stale); ``--engine pure`` the Python sources.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--bot", default="random", choices=["random", "greedy"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--engine", default="native", choices=["native", "pure"])
    ap.add_argument("--engine-path", type=Path, help="import the engine from this folder instead (another build, "
                    "e.g. an older commit's build/native, to compare the two on the same --logs)")
    ap.add_argument("--catalog", help="catalog version the games are played under (default: the newest)")
    ap.add_argument("--seat-games", type=int, default=2000, help="games also written as at a table (full and "
                    "one seat's view) and replayed")
    ap.add_argument("--logs", type=Path, help="replay these logs (a JSON array) instead of self-played ones: the "
                    "same games for two builds of the engine")
    ap.add_argument("--save-logs", type=Path, help="write the self-played logs there (a JSON array), for --logs")
    args = ap.parse_args()
    if args.engine_path:
        sys.path.insert(0, str(args.engine_path))
    elif args.engine == "native":
        sys.path.insert(0, str(ROOT / "infra"))
        import build_native

        sys.path.insert(0, str(build_native.build()))
    import engine.bfe.game
    from engine.bfe.selfplay import self_play
    from engine.log import parse_log
    from engine.replay import replay

    print(f"engine: {args.engine} ({Path(engine.bfe.game.__file__).name})")

    from engine.bfe.catalog import DEFAULT_VERSION

    catalog = args.catalog or DEFAULT_VERSION
    print(f"catalog: {catalog}")
    if args.logs:
        logs = json.loads(args.logs.read_text())[: args.games]
    else:
        logs = [self_play(seed, bot=args.bot, catalog=catalog)
                for seed in tqdm(range(args.games), desc="simulating", unit="game")]
    if args.save_logs:
        args.save_logs.write_text(json.dumps(logs))
    texts = [json.dumps(log) for log in logs]
    decisions = sum(len(log["decisions"]) for log in logs)

    t = time.perf_counter()
    parsed = [parse_log(x) for x in texts]
    t_parse = time.perf_counter() - t
    from engine.bfe.catalog import load_catalog

    for version in {log.catalog for log in parsed}:  # loaded (once per process) before the clock starts
        load_catalog(version)
    # The benchmark's own 10,000 parsed logs are long-lived: keep the cyclic GC from re-scanning
    # them on every full collection (a worker holds one chunk of logs, not the whole benchmark).
    gc.freeze()

    for label, kwargs in (("verify only", {"record": False}), ("verify + record", {"record": True})):
        runs = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            for log in parsed:
                res = replay(log, **kwargs)
                assert res.verdict.status == "valid", res.verdict.message
            runs.append(time.perf_counter() - t)
        best, med = min(runs), statistics.median(runs)
        print(f"{label:16s}: {args.games / best:8.0f} games/s (median {args.games / med:.0f}), "
              f"{best / decisions * 1e6:6.2f} µs/decision, {decisions / args.games:.1f} decisions/game")
    print(f"{'parse (schema)':16s}: {args.games / t_parse:8.0f} logs/s, {t_parse / args.games * 1e3:.3f} ms/log")
    fixed_cost(min(args.games, 1000))
    if args.seat_games:
        seat_views(logs[: args.seat_games], args.repeat)


def seat_views(logs: list[dict], repeat: int) -> None:
    """The same games written as at a table: every card named (recorded chance), and from P1's
    seat (P2's cards unseen). A seat view must cost at most twice the full log (DESIGN.md)."""
    from engine.log import parse_log
    from engine.replay import replay
    from engine.seats import as_recorded, seat_view

    full = [parse_log(as_recorded(log)) for log in tqdm(logs, desc="writing at the table", unit="game")]
    views = [parse_log(seat_view(log, 1)) for log in full]
    best = {}
    for label, parsed in (("recorded, full", full), ("recorded, seat 1", views)):
        runs = []
        for _ in range(repeat):
            t = time.perf_counter()
            for log in parsed:
                res = replay(log)
                assert res.verdict.status == "valid", res.verdict.message
            runs.append(time.perf_counter() - t)
        best[label] = min(runs)
        lines = sum(len(log.decisions) for log in parsed)
        print(f"{label:16s}: {len(parsed) / best[label]:8.0f} games/s, {best[label] / lines * 1e6:6.2f} µs/line, "
              f"{lines / len(parsed):.1f} lines/game (verify + record)")
    print(f"{'seat view cost':16s}: {best['recorded, seat 1'] / best['recorded, full']:.2f}x the full log")


def fixed_cost(n: int) -> None:
    """The round structure's own cost: games where both players only keep and pass."""
    from engine.bfe.catalog import load_catalog
    from engine.bfe.decisions import Decision
    from engine.bfe.game import Game

    cat = load_catalog()
    decks = ["Spectres of the Necropolis", "Cavalry of the Parthian Empire"]
    bfs = [cat.battlefields[b] for b in ("The Fountain of Janus", "River of Rebirth", "The Throne")]

    def new(seed: int) -> Game:
        return Game(cat, [list(cat.decks[d]) for d in decks], bfs, seed=seed)

    histories = []
    for seed in range(n):
        g = new(seed)
        while not g.over:
            kind = g.pending.kind.name
            g.apply(Decision(g.pending.player, "pass") if kind in ("DEPLOY", "COMMAND") else next(g.legal_decisions()))
        histories.append(g.history)
    t = time.perf_counter()
    for seed in range(n):
        new(seed)
    t_new = time.perf_counter() - t
    t = time.perf_counter()
    for seed, h in enumerate(histories):
        g = new(seed)
        for d in h:
            g.play(d)
    t_all = time.perf_counter() - t
    print(f"{'keep+pass only':16s}: {t_all / n * 1e3:.3f} ms/game ({len(histories[0])} decisions), "
          f"of which set-up {t_new / n * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
