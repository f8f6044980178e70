"""``empyrean up``: the whole service in one process tree, on embedded defaults.

Order of start: PostgreSQL and Redis (embedded unless DATABASE_URL / REDIS_URL are set), schema
migrations, a Celery worker, the API (gunicorn), then it waits until /api/v1/ready answers 200 and a
ping task comes back from the worker, and prints the URLs. Stop is the reverse: the API (no new
work), the worker (warm shutdown: running tasks finish; tasks ack late, so one cut short is
redelivered), then Redis, then PostgreSQL.

While it runs, ``up`` supervises its two children: a worker or API that dies (a crash, an OOM
kill, ``kill -9``) has whatever it left in its process group killed (the worker's pool processes and
its embedded beat), and is started again after a backoff (1, 2, 4 … at most 30 s; back to 1 s once
it has stayed up a minute), each step said on the terminal, while the other keeps serving. Only at
start-up is a child that dies an error (the service never came up).

The worker and the API run in their own sessions (so their own process groups), so a Ctrl-C in the
terminal reaches only this process, which then stops everything in that order, and ends with a
SIGKILL of each child's whole group: nothing of theirs outlives ``up``. They are also asked to die
with this process (Linux PR_SET_PDEATHSIG), so even ``kill -9`` of ``empyrean up`` leaves no worker or
API behind. The database servers are daemons: after a ``kill -9`` they stay up and the next ``up``
reuses them.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import psycopg

from services.platform import migrate
from services.platform.config import Config
from services.platform.embedded import EmbeddedStack
from services.platform.entrypoints import API_APP, GUNICORN_CONFIG

READY_TIMEOUT_S = 90
CHILD_STOP_TIMEOUT_S = 30
# Supervision: seconds before the n-th restart in a row of a child that died; a child that has stayed
# up STABLE_AFTER_S is back at the first step.
RESTART_BACKOFF_S = (1, 2, 4, 8, 16, 30)
STABLE_AFTER_S = 60
API_PREFIX = "/api/v1"

try:  # resolved before any fork: a preexec_fn should only call, not load
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None
PR_SET_PDEATHSIG = 1


class Shutdown(Exception):
    """SIGINT or SIGTERM arrived: stop everything and exit 0."""


class StartupError(RuntimeError):
    """Something did not come up; the message says what and where its log is."""


@dataclass
class Child:
    name: str
    process: subprocess.Popen
    log_path: Path
    command: list[str] = field(default_factory=list)
    started: float = 0.0  # time.monotonic() of the latest start
    failures: int = 0  # deaths in a row, each less than STABLE_AFTER_S after its start
    restart_at: float | None = None  # dead, to be started again at this time.monotonic()
    restarts: int = 0
    nice: int = 0  # added to its scheduling niceness (os.nice)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


@dataclass
class RunningService:
    """What an ``on_ready`` hook gets: the resolved configuration and the API's base URL."""

    config: Config
    api_url: str  # e.g. http://127.0.0.1:8000/api/v1
    children: list[Child] = field(default_factory=list)
    token: str | None = None  # the admin token this `up` made for its demo upload and its user


def api_command(config: Config) -> list[str]:
    return [
        sys.executable, "-m", "gunicorn",
        # gevent workers, header-read bound, keep-alive, access log: services/platform/gunicorn_conf.py
        "--config", GUNICORN_CONFIG,
        "--bind", f"{config.api_host}:{config.api_port}",
        "--workers", "2",
        API_APP,  # the API's entry point: it chooses the engine build, then builds the app
    ]


# `up` runs the worker and the API on the same cores. The API is what people wait on (an upload, a
# recorder's tap); the worker's replays can lag a burst of uploads by seconds and catch up after it.
# So the worker yields the CPU to the API: without it, a stream of uploads ran at about half the
# rate the API manages alone (docs/performance.md, "Single uploads with the worker beside the API").
WORKER_NICE = 10


def _start_child(nice: int) -> None:
    """In the child, before it runs its command: die with `up`, and lower its CPU priority."""
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if nice:
        os.nice(nice)
        # The child leads a session of its own (start_new_session), and where the kernel groups the
        # processes of a session for scheduling (autogroup), a process's niceness weighs only against
        # its own group's: the group's niceness is what yields to the API's.
        try:
            with open("/proc/self/autogroup", "w") as group:
                group.write(str(nice))
        except OSError:  # no autogroup here (or a kernel without it): the niceness alone applies
            pass


class ServiceLauncher:
    def __init__(self, config: Config, *, echo: Callable[[str], None] = print,
                 on_ready: list[Callable[[RunningService], None]] | None = None) -> None:
        self.config = config
        self.echo = echo
        # Steps run once the service is ready, before "press Ctrl-C": `empyrean up` loads the
        # demo data here (a simulated tournament uploaded through the API).
        self.on_ready = list(on_ready or [])
        self.children: list[Child] = []
        self.stack: EmbeddedStack | None = None
        self._lock_file = None

    # -- the whole run ----------------------------------------------------------------------
    def run(self) -> int:
        """Start, wait for a signal, stop. Returns the exit status."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        status = 0
        try:
            running = self.start()
            for hook in self.on_ready:
                hook(running)
            self._announce(running)
            self._watch()
        except Shutdown:
            self.echo("stopping …")
        except StartupError as exc:
            self.echo(f"error: {exc}")
            status = 1
        finally:
            # A second Ctrl-C must not interrupt the orderly stop.
            for sig in previous:
                signal.signal(sig, self._on_signal_while_stopping)
            try:
                self.stop()
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
        if status == 0:
            self.echo("stopped")
        return status

    def _on_signal(self, signum, frame) -> None:
        raise Shutdown()

    def _on_signal_while_stopping(self, signum, frame) -> None:
        self.echo("already stopping; please wait")

    # -- start ------------------------------------------------------------------------------
    def start(self) -> RunningService:
        data_dir = self.config.data_dir.resolve()
        self._lock_data_dir(data_dir)
        config = self.config = replace(self.config, data_dir=data_dir)
        embedded = [name for name, url in (("PostgreSQL", config.database_url), ("Redis", config.redis_url))
                    if not url]
        if embedded:
            self.echo(f"starting embedded {' and '.join(embedded)} in {data_dir} …")
        self.stack = EmbeddedStack(data_dir, config.database_url, config.redis_url)
        self.stack.start()
        config = self.config = config.with_servers(self.stack.database_url, self.stack.redis_url)

        self.echo("applying database migrations …")
        try:
            migrate.upgrade(config.database_url)
        except psycopg.OperationalError as exc:
            raise StartupError(f"cannot use the database {config.database_url}: {exc}") from None

        token = self._admin_token(config)

        logs = data_dir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        from services.platform.broker import worker_command

        self._spawn("worker", worker_command(config, beat=True), logs / "worker.log", nice=WORKER_NICE)
        self._spawn("api", api_command(config), logs / "api.log")

        base = f"http://{config.api_host}:{config.api_port}"
        self._wait_ready(f"{base}{API_PREFIX}/ready")
        self._ping_worker()
        return RunningService(config, f"{base}{API_PREFIX}", list(self.children), token=token)

    def _admin_token(self, config: Config) -> str:
        """The admin token of `up` with this data folder: the one EMPYREAN_DATA_DIR/api-token holds
        while the database still knows it, live, as `up`'s own (so scripts and `empyrean upload`
        keep working across restarts); else a fresh one, the old ones of `up` revoked. Written to
        that file readable by this user only (0600), and shown in the banner."""
        from services.platform.tokens import authenticate, create_token

        path = config.data_dir / TOKEN_FILE
        with psycopg.connect(config.database_url) as conn:
            try:
                kept = path.read_text().strip()
            except OSError:
                kept = ""
            token = authenticate(conn, kept) if kept else None
            if token is not None and token.is_admin and token.name == UP_TOKEN_NAME:
                return kept
            conn.execute("""UPDATE api_tokens SET revoked_at = now()
                            WHERE name = %s AND role = 'admin' AND revoked_at IS NULL""", (UP_TOKEN_NAME,))
            text, _ = create_token(conn, "admin", name=UP_TOKEN_NAME, owner="empyrean up")
        path.unlink(missing_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text + "\n")
        return text

    def _lock_data_dir(self, data_dir: Path) -> None:
        """One `up` per data folder: a second would share (and at its stop, shut down) the first's
        servers. The lock dies with the process, however it ends."""
        data_dir.mkdir(parents=True, exist_ok=True)
        self._lock_file = open(data_dir / "up.lock", "a+")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock_file.seek(0)
            holder = self._lock_file.read().strip() or "another process"
            self._lock_file.close()
            self._lock_file = None
            raise StartupError(f"empyrean up is already running with the data folder {data_dir} "
                               f"(pid {holder}); stop it first or set EMPYREAN_DATA_DIR") from None
        self._lock_file.truncate(0)
        self._lock_file.write(str(os.getpid()))
        self._lock_file.flush()

    def _spawn(self, name: str, command: list[str], log_path: Path, *, nice: int = 0) -> None:
        self.children.append(Child(name, self._popen(command, log_path, nice), log_path, command, time.monotonic(),
                                   nice=nice))

    def _popen(self, command: list[str], log_path: Path, nice: int) -> subprocess.Popen:
        env = {**os.environ, **self.config.environment()}
        with open(log_path, "ab") as log_file:
            log_file.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(command)}\n".encode())
            log_file.flush()
            return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=log_file,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    preexec_fn=functools.partial(_start_child, nice))

    def _check_children(self) -> None:
        for child in self.children:
            code = child.process.poll()
            if code is not None:
                raise StartupError(f"the {child.name} exited with status {code}; the end of its log "
                                   f"({child.log_path}):\n{child.log_tail()}")

    def _wait_ready(self, url: str) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        last = "no answer yet"
        while time.monotonic() < deadline:
            self._check_children()
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    if response.status == 200:
                        return
            except urllib.error.HTTPError as exc:  # 503: up, but something it needs is not
                last = exc.read().decode(errors="replace")
            except (urllib.error.URLError, OSError) as exc:
                last = str(exc)
            time.sleep(0.2)
        raise StartupError(f"{url} was not ready within {READY_TIMEOUT_S} s; last answer: {last}")

    def _ping_worker(self) -> None:
        from celery.exceptions import TimeoutError as CeleryTimeout

        from services.games.queues import PING_TASK
        from services.platform.broker import make_celery

        app = make_celery(self.config)
        try:
            result = app.send_task(PING_TASK)
            deadline = time.monotonic() + READY_TIMEOUT_S
            while True:
                self._check_children()
                try:
                    result.get(timeout=1)
                    return
                except CeleryTimeout:
                    if time.monotonic() > deadline:
                        raise StartupError(f"the worker did not answer a ping within {READY_TIMEOUT_S} s; "
                                           f"see {self.children[0].log_path}") from None
        finally:
            app.close()

    def _announce(self, running: RunningService) -> None:
        config = running.config
        # Where other commands (empyrean reprocess) find this running service's servers.
        (config.data_dir / SERVICE_FILE).write_text(json.dumps(
            {"api_url": running.api_url, "database_url": config.database_url, "redis_url": config.redis_url}))
        pg = "embedded" if self.stack.postgres else "external"
        rd = "embedded" if self.stack.redis else "external"
        site = running.api_url.rsplit("/api/", 1)[0]
        self.echo("Empyrean Replay is running")
        self.echo(f"  dashboards {site}/meta  (events, standings and disputes: {site}/events)")
        self.echo(f"  recorder  {site}/record  (a game at the table, a decision at a time)")
        self.echo(f"  API       {running.api_url}  (reference: {site}/api/docs)")
        self.echo(f"  health    {running.api_url}/health")
        self.echo(f"  ready     {running.api_url}/ready")
        self.echo(f"  postgres  {config.database_url} ({pg})")
        self.echo(f"  redis     {config.redis_url} ({rd})")
        self.echo(f"  logs      {', '.join(str(c.log_path) for c in self.children)}")
        self.echo(f"  token     {running.token}  (admin; kept across restarts with this data folder; "
                  f"also in {config.data_dir / TOKEN_FILE}, mode 0600)")
        self.echo("Press Ctrl-C to stop.")

    def _watch(self) -> None:
        while True:
            self.supervise()
            time.sleep(0.5)

    def supervise(self) -> None:
        """One round of supervision: a child found dead has its process group killed (what it left
        behind: pool processes, the embedded beat) and is started again once its backoff is over."""
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is None:
                code = child.process.poll()
                if code is None:
                    if child.failures and now - child.started >= STABLE_AFTER_S:
                        child.failures = 0
                    continue
                _signal_group(child.process.pid, signal.SIGKILL)
                delay = RESTART_BACKOFF_S[min(child.failures, len(RESTART_BACKOFF_S) - 1)]
                child.failures += 1
                child.restart_at = now + delay
                self.echo(f"the {child.name} (pid {child.process.pid}) exited with status {code}; starting it "
                          f"again in {delay} s; the end of its log ({child.log_path}):\n{child.log_tail(5)}")
            elif now >= child.restart_at:
                child.process = self._popen(child.command, child.log_path, child.nice)
                child.started, child.restart_at = time.monotonic(), None
                child.restarts += 1
                self.echo(f"the {child.name} started again (pid {child.process.pid}, restart {child.restarts})")

    # -- stop -------------------------------------------------------------------------------
    def stop(self) -> None:
        (self.config.data_dir / SERVICE_FILE).unlink(missing_ok=True)
        # API first (no new work), then the worker, then the servers they use.
        for child in sorted(self.children, key=lambda c: c.name != "api"):
            self._stop_child(child)
        self.children.clear()
        if self.stack is not None:
            self.stack.stop()
            self.stack = None
        if self._lock_file is not None:
            self._lock_file.close()  # releases the data folder
            self._lock_file = None

    def _stop_child(self, child: Child) -> None:
        process = child.process
        if process.poll() is not None:
            # Dead already: what it left in its group (a worker's pool processes and embedded beat
            # outlive a kill -9 of its main process) goes now.
            _signal_group(process.pid, signal.SIGKILL)
            return
        # SIGTERM to the main process only: gunicorn's master and Celery's main process each stop
        # their own worker processes gracefully (a pool process killed mid-task would lose it).
        process.terminate()
        try:
            process.wait(CHILD_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.echo(f"the {child.name} did not stop within {CHILD_STOP_TIMEOUT_S} s; killing it")
            _signal_group(process.pid, signal.SIGKILL)
            process.wait()
        # Anything left in its session (a pool process that outlived its parent) goes too.
        _signal_group(process.pid, signal.SIGKILL)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


SERVICE_FILE = "service.json"
TOKEN_FILE = "api-token"  # the admin token of the running `up` (0600)
UP_TOKEN_NAME = "empyrean up"


def running_service_urls(data_dir: Path) -> dict | None:
    """The URLs an `empyrean up` running with this data folder announced, if one is running."""
    try:
        return json.loads((Path(data_dir) / SERVICE_FILE).read_text())
    except (OSError, ValueError):
        return None
