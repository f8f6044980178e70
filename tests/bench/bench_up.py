"""Benchmark: `empyrean up` on a fresh data folder, with the demo data, as the README's first command runs it.

    .venv/bin/python tests/bench/bench_up.py [--runs 1] [--keep]

Not part of the default test run. Starts ``python -m services.cli up`` in a new temporary folder (its
own embedded PostgreSQL and Redis, a free port, the default worker concurrency), and prints the time
from the command's start to each line it prints (``-v``), to the banner's last line ("Press Ctrl-C to
stop.": the service is up and the demo league is uploaded) and to the moment every demo game is
counted (the statistics' seat-games, ``GET /api/v1/stats/decks``, reach twice the games that count:
the simulated games but the disputed match's). Then the share of decks the /meta page draws in colour
at its default minimum sample (the same statistics: a deck's ``thin`` flag); the same for the Titans
demo event (``GET /api/v1/stats/titans/factions``: every counted game's two species, and how many
species are drawn in colour), and Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 600


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def run_once(verbose: bool, keep: bool) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-up-"))
    port = _free_port()
    env = dict(os.environ, EMPYREAN_DATA_DIR=str(folder / "var"), EMPYREAN_API_PORT=str(port))
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    start = time.monotonic()
    up = subprocess.Popen([sys.executable, "-m", "services.cli", "up"], cwd=folder, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[tuple[float, str]] = []

    def read() -> None:
        assert up.stdout is not None
        for line in up.stdout:
            lines.append((time.monotonic() - start, line.rstrip("\n")))
            if verbose:
                print(f"  {lines[-1][0]:6.1f} s  {lines[-1][1]}", flush=True)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    out: dict = {}
    try:
        while not any("Press Ctrl-C to stop." in text for _, text in lines):
            if up.poll() is not None or time.monotonic() - start > TIMEOUT_S:
                raise SystemExit("empyrean up did not come up:\n" + "\n".join(t for _, t in lines))
            time.sleep(0.05)
        out["ready_s"] = next(t for t, text in lines if "Press Ctrl-C to stop." in text)
        uploaded = [text for _, text in lines if text.startswith("demo data:")]
        simulated = re.search(r"\((\d+) simulated", uploaded[0]) if uploaded else None
        if simulated is None:
            raise SystemExit(f"no demo upload in the output: {uploaded}")
        counting = int(simulated.group(1)) - 1  # the disputed match counts no game while its dispute is open
        out["demo_games"] = counting
        api = f"http://127.0.0.1:{port}/api/v1"
        rows = _all_counted(f"{api}/stats/decks", counting, start)
        out["counted_s"] = time.monotonic() - start
        out["counted"] = counting
        out["decks"] = len(rows)
        out["coloured"] = sum(not r["thin"] for r in rows)
        titans = re.search(r"(\d+) of them counted", "\n".join(uploaded))
        if titans is None:
            raise SystemExit(f"no Titans demo upload in the output: {uploaded}")
        out["titans"] = int(titans.group(1))
        rows = _all_counted(f"{api}/stats/titans/factions", out["titans"], start)
        out["titans_s"] = time.monotonic() - start
        out["species"] = len(rows)
        out["species_coloured"] = sum(not r["thin"] for r in rows)
    finally:
        up.send_signal(signal.SIGINT)
        try:
            up.wait(120)
        except subprocess.TimeoutExpired:
            up.kill()
        reader.join(10)
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    return out


def _all_counted(url: str, games: int, start: float) -> list[dict]:
    """The statistics' rows at ``url`` once their seat-games reach two for each of ``games`` games."""
    while True:
        try:
            rows = _get(url)["rows"]
        except (TimeoutError, urllib.error.URLError):  # the API busy (a shared machine): ask again
            continue
        seat_games = sum(r["games"] for r in rows)
        if seat_games >= 2 * games:
            return rows
        if time.monotonic() - start > TIMEOUT_S:
            raise SystemExit(f"only {seat_games // 2} of {games} demo games counted at {url} after {TIMEOUT_S} s")
        time.sleep(0.25)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every line of `up` with its time")
    ap.add_argument("--keep", action="store_true", help="keep the temporary data folder")
    args = ap.parse_args()
    for i in range(args.runs):
        r = run_once(args.verbose, args.keep)
        print(f"run {i + 1}: ready (banner printed) {r['ready_s']:.1f} s; all {r['counted']} counted demo games "
              f"in the statistics {r['counted_s']:.1f} s; decks coloured at the default minimum "
              f"{r['coloured']}/{r['decks']} ({100 * r['coloured'] / r['decks']:.0f}%); all {r['titans']} counted "
              f"Titans games {r['titans_s']:.1f} s, species coloured {r['species_coloured']}/{r['species']}",
              flush=True)


if __name__ == "__main__":
    main()
