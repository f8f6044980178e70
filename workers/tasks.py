"""The worker's Celery tasks: thin calls into services.games, on one base class that owns the retry
policy and the failure logging. Tasks take ids, never payloads (docs/services.md).

Defined with ``shared_task`` so they belong to whichever app loads this module (the worker's,
workers.celery_app).
"""

from __future__ import annotations

import os
import time

import psycopg
from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from psycopg_pool import ConnectionPool

from services.games.dispatch import send_fold, sweep_stuck_games
from services.games.fold import FoldCadence, fold_pending_counts
from services.games.queues import FOLD_TASK, PING_TASK, QUEUE_INTERACTIVE, REPLAY_CHUNK_TASK, SWEEP_TASK
from services.games.replay import replay_stored_games
from services.platform.config import Config
from services.platform.pool import create_pool


def retry_backoff_max(config: Config) -> int:
    """The longest wait between retries: 60 s, and at most half the broker's visibility timeout. A
    retry waits as an unacknowledged message held by the worker; held longer than the timeout, Redis
    would hand it out a second time (harmless, replays are idempotent, but wasteful)."""
    return max(1, min(60, config.broker_visibility_timeout // 2))


def _configured_backoff_max() -> int:
    try:
        return retry_backoff_max(Config.from_env())
    except ValueError:  # a bad setting is reported where the worker reads it for real
        return 60


class GameTask(Task):
    """Every task that touches the database. A lost or failing connection (psycopg.OperationalError:
    PostgreSQL restarting, a deadlock) is transient: retried with exponential backoff and jitter. The
    replays are idempotent, so a retry after a half-done attempt is harmless. Anything else is a bug
    of ours, which Celery logs with the task's name and arguments."""

    autoretry_for = (psycopg.OperationalError,)
    retry_backoff = 2
    retry_backoff_max = _configured_backoff_max()
    retry_jitter = True
    max_retries = 6


def share_priority_with_session(conn: psycopg.Connection) -> None:
    """Give the database session serving this worker the worker's own CPU priority, when the worker
    runs below the default (`empyrean up` lowers it: launcher.WORKER_NICE) and PostgreSQL runs on this
    machine. Half of what replaying and counting a game costs is spent by its session; left at the
    default priority, the session kept taking the CPU from the API the worker yields it to
    (docs/performance.md, "Single uploads with the worker beside the API"). Elsewhere (a worker of
    its own, a database on another machine, a session we may not renice) nothing changes."""
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    if nice <= 0 or not _local_postgres(conn.info.host, conn.info.backend_pid):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, conn.info.backend_pid, nice)
    except OSError:  # not ours to renice
        pass


def _local_postgres(host: str, pid: int) -> bool:
    """Is the session's process ``pid`` a PostgreSQL process of this machine (a Unix socket or
    loopback connection, and the process of that number is postgres)."""
    if not (host.startswith("/") or host in ("localhost", "127.0.0.1", "::1")):
        return False
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip() == "postgres"
    except OSError:
        return False


_pool: ConnectionPool | None = None
_pool_pid: int | None = None


def worker_pool() -> ConnectionPool:
    """This process's pool, made on first use *after* the prefork fork (a connection must never be
    shared between processes)."""
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        config = Config.from_env()
        _pool = create_pool(config.require_database_url(), max_size=2, name=f"worker-{os.getpid()}",
                            configure=share_priority_with_session)
        _pool_pid = os.getpid()
    return _pool


@shared_task(name=PING_TASK, bind=True, ignore_result=False)
def ping(self) -> dict:
    """Proves the round trip producer → Redis → worker → result backend."""
    return {"pong": True, "worker": self.request.hostname}


@shared_task(name=REPLAY_CHUNK_TASK, base=GameTask, bind=True)
def replay_games(self, game_ids: list[int], claim: bool = True) -> int:
    """Games by id, in one transaction: a chunk of a tournament bundle (bulk lane), or the single
    uploads an API process sent together (interactive lane, ``claim=False``: a few games take
    milliseconds, so no separate 'replaying' commit first). The valid games are left pending and
    then counted together with every other task's pending games (services.games.fold)."""
    pool = worker_pool()
    replayed = replay_stored_games(pool, game_ids, defer_counts=True, claim=claim,
                                   interruptions=(SoftTimeLimitExceeded,))
    wait = _cadence.after_replay(time.monotonic())
    if wait == 0.0:
        _fold(self.app, pool)
    else:
        _fold_later(self.app, wait)
    return len(replayed)


@shared_task(name=FOLD_TASK, base=GameTask, bind=True)
def fold_counts(self) -> int:
    """Count pending games: sent when a fold ran out of its time budget with games left, or by the
    fold cadence of a process whose replay tasks came faster than it folds."""
    return _fold(self.app, worker_pool())


_cadence = FoldCadence()  # per worker process: prefork's children each get their own copy


def _fold(app, pool: ConnectionPool) -> int:
    try:
        return fold_pending_counts(pool, on_budget_spent=lambda: send_fold(app),
                                   left_over=lambda: _fold_later(app, _cadence.fold_again(time.monotonic())))
    finally:
        _cadence.folded(time.monotonic())


def _fold_later(app, wait: float | None) -> None:
    if wait is not None:
        send_fold(app, countdown=wait, lane=QUEUE_INTERACTIVE)


@shared_task(name=SWEEP_TASK, base=GameTask, bind=True)
def sweep(self) -> int:
    """Periodic (beat): count games a worker replayed but died before counting, and re-send games
    left behind."""
    config = Config.from_env()
    fold_pending_counts(worker_pool())
    return sweep_stuck_games(worker_pool(), self.app, older_than_s=config.sweep_after_s)
