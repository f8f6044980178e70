"""Benchmark: games per second the bots play (engine.bfe.selfplay.self_play), in the pure and the compiled engine.

    .venv/bin/python tests/bench/bench_bots.py [--games 100] [--random-games 1000] [--engine both] [--before]

Not part of the default test run. Each engine is measured in its own process (``--engine both``,
the default, runs this script once with ``--engine pure`` and once with ``--engine native``; the
compiled engine is built first if it is missing or stale). Printed per engine: greedy self-play
games/s (seeds 0..games-1, 2 players, the default catalog), random self-play games/s, and what a
greedy game spends on clones (``Game.clone``, per clone and per game). ``--before`` also plays the
same greedy games with the clone of before issue 26 (``engine.bfe.game.clone_by_replay``: the history
replayed), checks that they are the same games, byte for byte, and prints the ratio. Times are
the process's CPU time (``time.process_time``): on a machine shared with other work they move far
less than wall-clock time does; pin the process to a core (``taskset -c 1``) all the same.
``--engine-path`` measures another build (e.g. an older commit's build/native); if that engine has
no ``clone_by_replay``, only its own figures are printed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100, help="greedy games (seeds 0..games-1)")
    ap.add_argument("--random-games", type=int, default=1000, help="random games")
    ap.add_argument("--engine", default="both", choices=["both", "native", "pure"])
    ap.add_argument("--engine-path", type=Path, help="import the engine from this folder instead (another build)")
    ap.add_argument("--before", action="store_true", help="also the greedy games with the replaying clone")
    args = ap.parse_args()
    if args.engine == "both" and not args.engine_path:
        for engine in ("pure", "native"):
            cmd = [sys.executable, __file__, "--engine", engine, "--games", str(args.games),
                   "--random-games", str(args.random_games)] + (["--before"] if args.before else [])
            subprocess.run(cmd, check=True)
        return
    if args.engine_path:
        sys.path.insert(0, str(args.engine_path))
    elif args.engine == "native":
        sys.path.insert(0, str(ROOT / "infra"))
        import build_native

        sys.path.insert(0, str(build_native.build()))
    import engine.bfe.game
    from engine.bfe.bots import GreedyBot
    from engine.bfe.catalog import DEFAULT_VERSION, load_catalog
    from engine.bfe.selfplay import self_play

    label = "native" if engine.bfe.game.__file__.endswith(".so") else "pure"
    print(f"engine: {label} ({engine.bfe.game.__file__})")
    load_catalog(DEFAULT_VERSION)  # once per process, before the clock starts (self_play's call, its cache key)

    def timed(bot, games: int) -> tuple[float, list[dict]]:
        t = time.process_time()
        logs = [self_play(seed, bot=bot) for seed in range(games)]
        return games / (time.process_time() - t), logs

    greedy, logs = timed("greedy", args.games)
    decisions = sum(len(log["decisions"]) for log in logs) / len(logs)
    print(f"{'greedy':22s}: {greedy:8.1f} games/s ({1000 / greedy:6.1f} ms/game, {decisions:.1f} decisions/game)")
    rand, _ = timed("random", args.random_games)
    print(f"{'random':22s}: {rand:8.1f} games/s ({1000 / rand:6.2f} ms/game)")
    clone_by_replay = getattr(engine.bfe.game, "clone_by_replay", None)
    if clone_by_replay is None:
        print("(this engine has no clone_by_replay: no before/after)")
        return
    clones(GreedyBot, engine.bfe.game.Game.clone, clone_by_replay, min(args.games, 20))
    if args.before:
        before, old_logs = timed(lambda seed: GreedyBot(seed, clone_by_replay), args.games)
        same = [json.dumps(a, sort_keys=True) for a in old_logs] == [json.dumps(b, sort_keys=True) for b in logs]
        print(f"{'greedy, replay clone':22s}: {before:8.1f} games/s ({1000 / before:6.1f} ms/game) — "
              f"before; after/before {greedy / before:.1f}x; same games: {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit("the replaying clone and the copying clone played different games")


def clones(bot_class, copy, replay, games: int) -> None:
    """What the greedy bot's clones cost: the positions it clones in ``games`` games, cloned again
    by each clone function."""
    from engine.bfe.selfplay import self_play

    positions = []

    def keep(g):
        positions.append(g)
        return copy(g)

    for seed in range(games):
        self_play(seed, bot=lambda s: bot_class(s, keep))
    per_game = len(positions) / games
    for name, fn, repeat in (("copy", copy, 5), ("replay", replay, 1)):
        t = time.process_time()
        for _ in range(repeat):
            for g in positions:
                fn(g)
        us = (time.process_time() - t) / (repeat * len(positions)) * 1e6
        print(f"{'clone, ' + name:22s}: {us:8.1f} µs/clone, {per_game:.0f} clones/game = "
              f"{us * per_game / 1000:.1f} ms/game")


if __name__ == "__main__":
    main()
