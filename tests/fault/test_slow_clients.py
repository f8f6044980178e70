"""Slow clients must not stop the API answering everyone else (issue 16, part 4).

The API is started exactly as the project ships it — the command line of `empyrean up`
(launcher.api_command) and the container image's entrypoint (infra/container-entrypoint.sh api,
which compose and the Kubernetes manifests run) — against a rig's own PostgreSQL and Redis. Then
50 anonymous connections trickle headers or a body for 10 s (tests/fault/slow_clients.py) while
another client probes /api/v1/health and uploads games with a token: every probe and upload must be
answered, quickly. (gunicorn's gthread workers, 2 x 4 threads, stopped answering at 8.)
tests/bench/bench_slow_clients.py does the same with 200 connections for 60 s and prints the figures.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from export_fill import clone_counted_game
from fault_rig import ROOT
from service_helpers import child_env, free_port, stop_process
from slow_clients import Probe, SlowClients, get_health, post_game
from test_faults import make_logs

from engine.bfe.selfplay import self_play
from services.games.events import create_event
from services.games.replay import replay_stored_games
from services.games.store import parse_upload, store_upload
from services.platform.launcher import api_command
from services.platform.pool import create_pool
from services.platform.tokens import create_token

pytestmark = pytest.mark.slow

SLOW = 50
HOLD_S = 10


def start_api(rig, how: str, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    config = dataclasses.replace(rig.config, api_host="127.0.0.1", api_port=port)
    env = child_env(config)
    if how == "up":
        command = api_command(config)
    else:  # the container image's entrypoint, with this interpreter as its `python`
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
        command = ["sh", str(ROOT / "infra" / "container-entrypoint.sh"), "api"]
    with open(log, "wb") as out:
        api = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert api.poll() is None, log.read_text(errors="replace")[-3000:]
        try:
            with urllib.request.urlopen(f"{base}/api/v1/ready", timeout=5) as response:
                if response.status == 200:
                    return api, base
        except OSError:
            pass
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.2)


@pytest.mark.parametrize("how", ["up", "container"])
def test_slow_clients_do_not_stop_the_api_answering_others(make_rig, tmp_path, how):
    rig = make_rig()
    with rig.db() as conn:
        token, _ = create_token(conn, "admin", name="slow clients test")
    api, base = start_api(rig, how, tmp_path / "api.log")
    try:
        logs = iter(make_logs(200, first_seed=7000))
        with SlowClients("127.0.0.1", int(base.rsplit(":", 1)[1]), SLOW) as slow:
            time.sleep(2)  # every slow connection is in, and has held its place for a while
            with Probe(get_health(base, timeout=10), every=0.1) as health, \
                    Probe(post_game(base, token, logs, timeout=10), every=0.5) as uploads:
                time.sleep(HOLD_S)
        assert api.poll() is None
    finally:
        stop_process(api)
    report = (f"{how}: health p50 {health.percentile(50):.3f} s p99 {health.percentile(99):.3f} s "
              f"({len(health.samples)} probes, {health.statuses()}); uploads p50 {uploads.percentile(50):.3f} s "
              f"p99 {uploads.percentile(99):.3f} s ({len(uploads.samples)}, {uploads.statuses()}); "
              f"slow connections reopened {slow.reopened} times")
    print(report)
    assert health.statuses() == {200}, report
    assert uploads.statuses() == {202}, report
    assert len(health.samples) >= HOLD_S * 2 and len(uploads.samples) >= HOLD_S // 2, report
    assert health.percentile(99) < 2.0 and uploads.percentile(99) < 4.0, report


EXPORTS = 20  # downloads that stop reading (the export's rate limit lets an address have 30 an hour)
BUNDLES = 18  # bundle bodies trickled by a token bound to the event, as handed to tables
EXPORT_GAMES = 8_000  # an export of several MB: more than the sockets' buffers take


def stalled_export(port: int, event_id: int) -> socket.socket:
    """A download asked for, then never read past what fits in a tiny receive buffer."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /api/v1/export/games.csv?event={event_id} HTTP/1.1\r\nHost: slow\r\n\r\n".encode())
    return sock


def trickled_bundle(port: int, event_id: int, token: str) -> socket.socket:
    """A bundle's headers, then its body a byte now and then (the caller sends them)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(f"POST /api/v1/events/{event_id}/games HTTP/1.1\r\nHost: slow\r\nAuthorization: Bearer {token}\r\n"
                 "Content-Type: application/x-ndjson\r\nContent-Length: 1000000\r\n\r\n{".encode())
    return sock


def test_downloads_that_stop_reading_and_trickled_bundles_hold_no_database_connection(make_rig, tmp_path):
    """The attack of issue 26: exports that stop reading after the headers, and bundle bodies
    trickled by an uploader token, each held a pooled connection (idle in transaction) until every
    read that needs the database answered 503. Now an export is written aside before it is sent and a
    bundle's body is read whole before its transaction (services.platform.spool): a games read by
    anyone still answers 200 within a second while all of them are held."""
    rig = make_rig(rate_limit_bundles="100/minute")
    with rig.db() as conn:
        with conn.transaction():
            event_id = create_event(conn, "Slow Readers Open", None, None, "public", "slow tests")[0]
            source = store_upload(conn, parse_upload(json.dumps(self_play(7100, meta={"date": "2026-10-01"})).encode()),
                                  "slow tests", event_id=event_id).id
        pool = create_pool(rig.config.database_url, max_size=1, name="slow-replay")
        assert replay_stored_games(pool, [source]) == {source: "valid"}
        pool.close()
        with conn.transaction():
            clone_counted_game(conn, source, EXPORT_GAMES, event_id)
        uploader, _ = create_token(conn, "uploader", name="table 1", event_id=event_id)
    api, base = start_api(rig, "up", tmp_path / "api.log")
    port = int(base.rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        held += [stalled_export(port, event_id) for _ in range(EXPORTS)]
        held += [trickled_bundle(port, event_id, uploader) for _ in range(BUNDLES)]
        time.sleep(3)  # every download has been answered as far as its reader lets it
        games_read = f"{base}/api/v1/games/{source}"

        def read() -> int:
            with urllib.request.urlopen(games_read, timeout=10) as response:
                response.read()
                return response.status

        with Probe(read, every=0.2) as reads, Probe(get_health(base, timeout=10), every=0.2) as health:
            for _ in range(6):
                time.sleep(1)
                for sock in held[EXPORTS:]:
                    sock.send(b" ")
        assert api.poll() is None
    finally:
        for sock in held:
            sock.close()
        stop_process(api)
    report = (f"games read p50 {reads.percentile(50):.3f} s max {reads.latencies()[-1]:.3f} s {reads.statuses()}; "
              f"health max {health.latencies()[-1]:.3f} s {health.statuses()}")
    print(report)
    assert reads.statuses() == {200} and health.statuses() == {200}, report
    assert reads.latencies()[-1] < 1.0 and health.latencies()[-1] < 1.0, report
