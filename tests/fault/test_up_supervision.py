"""`empyrean up` survives a dead child (issue 16, part 8): kill -9 of the worker's main process, then
of the API's gunicorn master, under a running `up`. Each time the other keeps serving, the dead one's
process group (the worker's pool processes and its embedded beat) is gone, the dead one is started
again (said on the terminal), and later uploads get their verdicts. Ctrl-C then leaves nothing behind.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request

import psutil
import pytest
from service_helpers import child_env, free_port, get_json, processes_mentioning
from test_up import Output

from engine.bfe.selfplay import self_play
from services.platform.embedded import wait_until_gone

pytestmark = pytest.mark.slow


def _child(up: subprocess.Popen, text: str) -> psutil.Process:
    [child] = [c for c in psutil.Process(up.pid).children() if text in " ".join(c.cmdline())]
    return child


def _group(pgid: int) -> list[int]:
    found = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if proc.status() != psutil.STATUS_ZOMBIE and psutil.os.getpgid(proc.pid) == pgid:
                found.append(proc.pid)
        except (psutil.NoSuchProcess, ProcessLookupError):
            pass
    return found


def _wait(ok, timeout: float, what: str, output: Output) -> None:
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, f"{what} within {timeout} s:\n{output.text}"
        time.sleep(0.2)


def _upload_and_get_verdict(api: str, token: str, seed: int, output: Output) -> None:
    request = urllib.request.Request(f"{api}/games", data=json.dumps(self_play(seed)).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 202
        game_url = api.rsplit("/api/", 1)[0] + json.load(response)["status_url"]
    _wait(lambda: get_json(game_url)[1]["status"] == "valid", 90, f"no verdict for game {seed}", output)


def test_up_restarts_a_killed_worker_and_api_and_leaves_nothing_behind(tmp_path):
    port = free_port()
    env = child_env(EMPYREAN_DATA_DIR=str(tmp_path / "var"), EMPYREAN_API_PORT=str(port),
                    EMPYREAN_WORKER_CONCURRENCY="1")
    up = subprocess.Popen([sys.executable, "-m", "services.cli", "up", "--no-demo"], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = Output(up.stdout)
    try:
        output.wait_for("Press Ctrl-C to stop.", up, 120)
        api, token, health = output.value("API"), output.value("token"), output.value("health")
        _upload_and_get_verdict(api, token, 1, output)

        # 1. kill -9 of the worker's main process: its group (pool process, embedded beat) goes too
        worker = _child(up, "celery")
        group = _group(worker.pid)
        assert len(group) >= 3, group  # main process, a pool process, beat
        worker.send_signal(signal.SIGKILL)
        assert get_json(health) == (200, {"status": "ok"})  # the API serves on
        assert wait_until_gone(group, 15) == [], (group, output.text)
        output.wait_for("the worker started again", up, 30)
        assert up.poll() is None and get_json(health)[0] == 200
        new_worker = _child(up, "celery")
        assert new_worker.pid != worker.pid
        _upload_and_get_verdict(api, token, 2, output)

        # 2. kill -9 of the API's gunicorn master: the worker carries on, the API comes back
        gunicorn = _child(up, "gunicorn")
        gunicorn_group = _group(gunicorn.pid)
        gunicorn.send_signal(signal.SIGKILL)
        assert wait_until_gone(gunicorn_group, 15) == [], (gunicorn_group, output.text)
        output.wait_for("the api started again", up, 30)
        _wait(lambda: _health_ok(health), 60, "the API did not answer again", output)
        assert _child(up, "celery").pid == new_worker.pid
        _upload_and_get_verdict(api, token, 3, output)
        assert "exited with status -9" in output.text

        everything = [c.pid for c in psutil.Process(up.pid).children(recursive=True)]
        up.send_signal(signal.SIGINT)
        assert up.wait(60) == 0, output.text
    finally:
        if up.poll() is None:
            up.kill()
    output.join(10)
    assert output.lines[-1] == "stopped", output.text
    assert wait_until_gone(everything, 10) == [], output.text
    assert processes_mentioning(str(tmp_path)) == []


def _health_ok(url: str) -> bool:
    try:
        return get_json(url, timeout=2)[0] == 200
    except OSError:
        return False
