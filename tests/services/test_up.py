"""`empyrean up`, the README's first command, run as a user would: in an empty folder, with no
DATABASE_URL / REDIS_URL, so it starts its own PostgreSQL and Redis. Ctrl-C must stop everything."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import psutil
import psycopg
from service_helpers import child_env, free_port, get_json, processes_mentioning

from engine.bfe.selfplay import self_play
from services.cli.demo import DEMO_EVENT, ELYSIAN_EVENT, LEAGUE, STEAM_EVENT, TITANS_EVENT
from services.platform.embedded import wait_until_gone
from services.platform.launcher import WORKER_NICE

START_TIMEOUT_S = 120


class Output:
    """Collects a process's output lines on a thread, so the test can wait for one."""

    def __init__(self, stream) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, process: subprocess.Popen, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            assert process.poll() is None, "empyrean up exited early:\n" + self.text
            assert time.monotonic() < deadline, f"no {text!r} within {timeout} s:\n" + self.text
            time.sleep(0.1)

    def join(self, timeout: float) -> None:
        """Wait until the process's output is read to its end."""
        self._thread.join(timeout)

    def value(self, label: str) -> str:
        for line in self.lines:
            match = re.match(rf"\s+{label}\s+(\S+)", line)
            if match:
                return match.group(1)
        raise AssertionError(f"no {label} line in:\n{self.text}")

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def test_up_serves_then_stops_cleanly_on_ctrl_c(tmp_path):
    port = free_port()
    data_dir = tmp_path / "var"
    env = child_env(EMPYREAN_DATA_DIR=str(data_dir), EMPYREAN_API_PORT=str(port),
                    EMPYREAN_WORKER_CONCURRENCY="1")
    up = subprocess.Popen([sys.executable, "-m", "services.cli", "up"], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    output = Output(up.stdout)
    try:
        output.wait_for("Press Ctrl-C to stop.", up, START_TIMEOUT_S)
        api = output.value("API")
        assert api == f"http://127.0.0.1:{port}/api/v1"
        assert get_json(output.value("health")) == (200, {"status": "ok"})
        status, body = get_json(output.value("ready"))
        assert status == 200 and body["status"] == "ready", body

        # the banner's admin token is also in the data folder, readable by this user only
        token = output.value("token")
        assert token.startswith("emp_")
        assert (data_dir / "api-token").read_text().strip() == token
        assert (data_dir / "api-token").stat().st_mode & 0o777 == 0o600
        # a user uploads a game with it and sees its verdict
        request = urllib.request.Request(f"{api}/games", data=json.dumps(self_play(4242)).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {token}"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 202
            game_url = json.load(response)["status_url"]
        assert _poll(lambda: get_json(f"http://127.0.0.1:{port}{game_url}")[1]["status"] == "valid")
        # the demo league went through the same pipeline: verdicts, including the flawed games
        assert "demo data:" in output.text and LEAGUE in output.text
        events = get_json(f"{api}/events")[1]["events"]
        [demo] = [e for e in events if e["name"] == DEMO_EVENT]
        assert _poll(lambda: {"illegal", "mismatch", "valid"} <= set(get_json(demo["url"].replace(
            "/api/v1", api, 1))[1]["games"]))
        # the Titans demo event too: an event of Titans, at least 200 games valid, some flawed, and its
        # statistics count every game that counts (the number `up` printed)
        [titans] = [e for e in events if e["name"] == TITANS_EVENT]
        assert titans["game"] == "titans"
        counted = int(re.search(r"(\d+) of them counted", output.text).group(1))  # Titans' line is first
        assert counted >= 200

        def titans_judged() -> bool:
            games = get_json(f"{api}/events/{titans['id']}")[1]["games"]
            return games.keys() == {"valid", "illegal", "mismatch"} and games["valid"] >= 200

        assert _poll(titans_judged)
        species = f"{api}/stats/titans/factions?event={titans['id']}"
        assert _poll(lambda: sum(row["games"] for row in get_json(species)[1]["rows"]) == 2 * counted)
        # and the Elysian one: an event of that game whose heroes' statistics count its counted games
        [elysian] = [e for e in events if e["name"] == ELYSIAN_EVENT]
        assert elysian["game"] == "elysian"
        elysian_counted = int(re.findall(r"(\d+) of them counted", output.text)[1])
        assert elysian_counted >= 200
        heroes = f"{api}/stats/elysian/factions?event={elysian['id']}"
        assert _poll(lambda: sum(row["games"] for row in get_json(heroes)[1]["rows"]) == 2 * elysian_counted)
        # and the Spells & Steam one, of pairs and fours: its companies counted at both table sizes
        [steam] = [e for e in events if e["name"] == STEAM_EVENT]
        assert steam["game"] == "steam"
        steam_counted = int(re.findall(r"(\d+) of them counted", output.text)[2])
        assert steam_counted >= 200

        def steam_seat_games() -> list[int]:
            return [sum(row["games"] for row in get_json(f"{api}/stats/steam/companies?event={steam['id']}"
                                                         f"&players={n}")[1]["rows"]) for n in (2, 4)]

        assert _poll(lambda: steam_seat_games()[0] // 2 + steam_seat_games()[1] // 4 == steam_counted)
        assert all(steam_seat_games())
        # ... and the printed dashboards address shows it
        dashboards = output.value("dashboards")
        assert dashboards == f"http://127.0.0.1:{port}/meta"
        with urllib.request.urlopen(dashboards, timeout=10) as response:
            page = response.read().decode()
        assert response.status == 200 and 'id="fig-data-win-rates"' in page and "Vampires" in page

        postgres_pid = int((data_dir / "postgres" / "postmaster.pid").read_text().split()[0])
        redis_socket = output.value("redis").removeprefix("unix://").split("?")[0]
        [redis_server] = processes_mentioning(redis_socket)
        children = psutil.Process(up.pid).children(recursive=True)
        names = " ".join(" ".join(c.cmdline()) for c in children)
        assert "gunicorn" in names and "celery" in names
        # the worker yields the CPU to the API on the cores they share (launcher.WORKER_NICE)
        base_nice = psutil.Process(up.pid).nice()
        nices = {role: {c.nice() for c in children if role in " ".join(c.cmdline())} for role in ("gunicorn", "celery")}
        assert nices == {"gunicorn": {base_nice}, "celery": {min(19, base_nice + WORKER_NICE)}}, nices
        # ... and so do its database sessions (workers.tasks.share_priority_with_session)
        sessions = {p.nice() for p in psutil.Process(postgres_pid).children() if "empyrean" in " ".join(p.cmdline())}
        assert sessions == {base_nice, min(19, base_nice + WORKER_NICE)}, sessions
        if Path("/proc/self/autogroup").exists():  # where the kernel schedules sessions as groups
            groups = {" ".join(c.cmdline()).split()[2]: Path(f"/proc/{c.pid}/autogroup").read_text().split()[-1]
                      for c in children if "gunicorn" in c.cmdline() or "celery" in c.cmdline()}
            assert groups == {"gunicorn": "0", "celery": str(WORKER_NICE)}, groups
        everything = [postgres_pid, redis_server.pid, *(c.pid for c in children)]

        # A second `up` on the same data folder must refuse, and leave the first one alone.
        second = subprocess.run([sys.executable, "-m", "services.cli", "up"], cwd=tmp_path, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"already running with the data folder {data_dir}" in second.stdout
        assert get_json(output.value("ready"))[0] == 200

        up.send_signal(signal.SIGINT)
        assert up.wait(60) == 0, output.text
    finally:
        if up.poll() is None:
            up.kill()
    output.join(10)
    assert output.lines[-1] == "stopped", output.text
    assert wait_until_gone(everything, 10) == [], output.text
    assert not (data_dir / "postgres" / "postmaster.pid").exists()
    assert processes_mentioning(str(tmp_path)) == []
    assert processes_mentioning(redis_socket) == []


def _poll(ok, timeout: float = 90) -> bool:
    deadline = time.monotonic() + timeout
    while not ok():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True



def test_up_keeps_its_admin_token_across_restarts_of_a_data_folder(fresh_database, tmp_path):
    """A restart of `up` with the same data folder keeps the token in var/api-token (scripts and
    `empyrean upload` go on working); a token revoked, or a file that holds no live token of `up`'s,
    gets a fresh one, and the old ones of `up` are revoked."""
    from services.platform import migrate
    from services.platform.config import Config
    from services.platform.launcher import TOKEN_FILE, ServiceLauncher
    from services.platform.tokens import authenticate, create_token, revoke_token

    url = fresh_database()
    migrate.upgrade(url)
    config = Config(data_dir=tmp_path).with_servers(url, "redis://127.0.0.1:9/0")
    launcher = ServiceLauncher(config, echo=lambda line: None)
    path = tmp_path / TOKEN_FILE
    first = launcher._admin_token(config)
    assert launcher._admin_token(config) == first and path.read_text().strip() == first
    assert path.stat().st_mode & 0o777 == 0o600
    with psycopg.connect(url, autocommit=True) as conn:
        assert revoke_token(conn, first.split("_")[1])
        other_admin, _ = create_token(conn, "admin", name="someone else")
    second = launcher._admin_token(config)
    assert second != first and path.read_text().strip() == second
    path.write_text(other_admin + "\n")  # an admin token, but not `up`'s own: not taken over
    third = launcher._admin_token(config)
    assert third not in (second, other_admin)
    with psycopg.connect(url, autocommit=True) as conn:
        assert authenticate(conn, second) is None  # the replaced one of `up` is revoked
        assert authenticate(conn, other_admin) is not None and authenticate(conn, third) is not None
