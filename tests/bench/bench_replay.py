"""Benchmark: replay simulated 2-player games on one core; prints games/s and µs per decision.

    .venv/bin/python tests/bench/bench_replay.py [--games 10000] [--bot random] [--engine native]
        [--titans-games 1000] [--elysian-games 300] [--steam-games 200] [--chess-games 200]

Not part of the default test run (pytest collects only test_*.py). Logs are generated first
(self-play, not timed), parsed once (timed separately), then replayed with and without building
the game record; and the same games written as at a table (recorded chance, every card named)
and from one seat (the opponent's cards unseen), to compare their cost. ``--engine native`` (the
default) measures the mypyc-compiled engine built by infra/build_native.py (built first if it is
missing or stale); ``--engine pure`` the Python sources.

In the same run, each other game beside Battle for Empyrean (DESIGN.md: "every game: report games/s
and µs/decision beside python-chess's µs per ply"): Titans of Empyrean's, Elysian Battlefields' and
Spells & Steam's self-played games (the same ``--bot``; Elysian's at 2 to 5 players in turn, Spells &
Steam's at 2 to 6) replayed the same way,
and python-chess's random games replayed from their SAN moves, each
move parsed, checked legal and played (``Board.push_san``), the nearest thing chess has to reading
and checking a log line. python-chess is a test extra (pyproject.toml).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
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
    ap.add_argument("--titans-games", type=int, default=1000, help="Titans of Empyrean games self-played and "
                    "replayed too (0: none)")
    ap.add_argument("--elysian-games", type=int, default=300, help="Elysian Battlefields games self-played "
                    "(2 to 5 players in turn) and replayed too (0: none)")
    ap.add_argument("--steam-games", type=int, default=200, help="Spells & Steam games self-played "
                    "(2 to 6 players in turn) and replayed too (0: none)")
    ap.add_argument("--chess-games", type=int, default=200, help="python-chess random games replayed too (0: none)")
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

    t = time.perf_counter()
    parsed = [parse_log(x) for x in texts]
    t_parse = time.perf_counter() - t
    from engine.bfe.catalog import load_catalog

    for version in {log.catalog for log in parsed}:  # loaded (once per process) before the clock starts
        load_catalog(version)
    # The benchmark's own 10,000 parsed logs are long-lived: keep the cyclic GC from re-scanning
    # them on every full collection (a worker holds one chunk of logs, not the whole benchmark).
    gc.freeze()

    replays(parsed, args.repeat)
    print(f"{'parse (schema)':16s}: {args.games / t_parse:8.0f} logs/s, {t_parse / args.games * 1e3:.3f} ms/log")
    fixed_cost(min(args.games, 1000))
    if args.seat_games:
        seat_views(logs[: args.seat_games], args.repeat)
    if args.titans_games:
        other_game("titans", args.titans_games, args.bot, args.repeat)
    if args.elysian_games:
        other_game("elysian", args.elysian_games, args.bot, args.repeat, seats=(2, 3, 4, 5))
    if args.steam_games:
        other_game("steam", args.steam_games, args.bot, args.repeat, seats=(2, 3, 4, 5, 6))
    if args.chess_games:
        chess_plies(args.chess_games, args.repeat)


def replays(parsed: list, repeat: int, prefix: str = "") -> None:
    """Replay every parsed log ``repeat`` times, without and with the game record; the best run's
    games/s (the median beside it) and µs per decision."""
    from engine.replay import replay

    games, decisions = len(parsed), sum(len(log.decisions) for log in parsed)
    for label, kwargs in (("verify only", {"record": False}), ("verify + record", {"record": True})):
        runs = []
        for _ in range(repeat):
            t = time.perf_counter()
            for log in parsed:
                res = replay(log, **kwargs)
                assert res.verdict.status == "valid", res.verdict.message
            runs.append(time.perf_counter() - t)
        best, med = min(runs), statistics.median(runs)
        print(f"{prefix + label:{16 + len(prefix)}s}: {games / best:8.0f} games/s (median {games / med:.0f}), "
              f"{best / decisions * 1e6:6.2f} µs/decision, {decisions / games:.1f} decisions/game")


def other_game(key: str, games: int, bot: str, repeat: int, seats: tuple[int, ...] = (2,)) -> None:
    """Another game's self-played games (seeds 0 …, at each of ``seats`` players in turn), replayed as
    Battle for Empyrean's are."""
    import importlib

    from engine.games import rules_for
    from engine.log import parse_log

    rules = rules_for(key)
    logs = [rules.self_play(seed, bot=bot, players=seats[seed % len(seats)])
            for seed in tqdm(range(games), desc=f"simulating {key}", unit="game")]
    module = importlib.import_module(f"engine.{key}.game")
    print(f"{key} ({games} games, {bot} bots, {'/'.join(map(str, seats))} players; {Path(module.__file__).name}):")
    parsed = [parse_log(json.dumps(log)) for log in logs]
    gc.freeze()
    replays(parsed, repeat, prefix="  ")


def chess_plies(games: int, repeat: int) -> None:
    """python-chess: random games (uniform over legal moves, seeded) written as SAN, then replayed
    from the SAN, every move parsed, checked legal and played; µs per ply."""
    import chess

    rng = random.Random(0)  # the benchmark's own chess games; nothing of the engine
    lines = []
    for _ in tqdm(range(games), desc="playing chess", unit="game"):
        board, line = chess.Board(), []
        while not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            line.append(board.san(move))
            board.push(move)
        lines.append(line)
    plies = sum(map(len, lines))
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for line in lines:
            board = chess.Board()
            for san in line:
                board.push_san(san)
            assert board.is_game_over()
        runs.append(time.perf_counter() - t)
    best = min(runs)
    print(f"python-chess {chess.__version__} ({games} random games): {games / best:8.0f} games/s, "
          f"{best / plies * 1e6:6.2f} µs/ply (push_san), {plies / games:.1f} plies/game")


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
