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
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from fault_rig import ROOT
from service_helpers import child_env, free_port, stop_process
from slow_clients import Probe, SlowClients, get_health, post_game
from test_faults import make_logs

from services.platform.launcher import api_command
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
