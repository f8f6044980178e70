"""Replaying stored games, and the sweeper that re-sends games the broker lost.

``replay_game(game_id)`` is idempotent: everything it writes — the verdict, the game_* record rows,
the aggregate contribution, the final status — happens in one transaction that holds the game's row
lock, and the old contribution is taken out before the new one is added (services.db.records). So a
redelivered message, a sweeper re-send or a reprocess replays a game as often as it likes and the
statistics count it once.

Errors: a lost or failing database connection is transient and retried by Celery with exponential
backoff (``autoretry_for``); anything else is a bug of ours and leaves the game in ``error`` with a
message, without crashing the worker.
"""

from __future__ import annotations

import logging
import os

import psycopg
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from psycopg import Connection
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from engine.replay import ENGINE_VERSION, ReplayResult, replay
from services.config import Config
from services.db.disputes import check_match
from services.db.pool import create_pool
from services.db.records import remove_record, write_record
from services.db.storable import storable
from services.dispatch import send_replay

from .celery_app import QUEUE_BULK, REPLAY_CHUNK_TASK, REPLAY_TASK, SWEEP_TASK

log = logging.getLogger(__name__)

SWEEP_BATCH = 1000  # games re-sent per sweep at most; the next sweep takes the rest
RECORDED_VERDICTS = ("valid", "mismatch")  # finished games: their record is complete
COUNTED_VERDICT = "valid"  # only these enter the statistics (see services.db.records)


def _retry_backoff_max() -> int:
    """The longest wait between retries: 60 s, and at most half the broker's visibility timeout. A
    retry waits as an unacknowledged message held by the worker; held longer than the timeout, Redis
    would hand it out a second time (harmless, replays are idempotent, but wasteful)."""
    try:
        return max(1, min(60, Config.from_env().broker_visibility_timeout // 2))
    except ValueError:  # a bad setting is reported where the worker reads it for real
        return 60


RETRY_BACKOFF_MAX = _retry_backoff_max()

_pool: ConnectionPool | None = None
_pool_pid: int | None = None


def worker_pool() -> ConnectionPool:
    """This process's pool, made on first use *after* the prefork fork (a connection must never be
    shared between processes)."""
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        config = Config.from_env()
        _pool = create_pool(config.require_database_url(), max_size=2, name=f"worker-{os.getpid()}")
        _pool_pid = os.getpid()
    return _pool


@shared_task(name=REPLAY_TASK, autoretry_for=(psycopg.OperationalError,), retry_backoff=2,
             retry_backoff_max=RETRY_BACKOFF_MAX, retry_jitter=True, max_retries=6)
def replay_game(game_id: int) -> str | None:
    return replay_stored_game(worker_pool(), game_id)


@shared_task(name=REPLAY_CHUNK_TASK, autoretry_for=(psycopg.OperationalError,), retry_backoff=2,
             retry_backoff_max=RETRY_BACKOFF_MAX, retry_jitter=True, max_retries=6)
def replay_games(game_ids: list[int]) -> int:
    """A chunk of a tournament bundle: one task per chunk, not per game, so Celery's own overhead
    does not dominate a bulk upload. Each game is still its own transaction; a retry after a lost
    connection replays the chunk again, which replay_stored_game makes harmless."""
    pool = worker_pool()
    for game_id in game_ids:
        replay_stored_game(pool, game_id)
    return len(game_ids)


def replay_stored_game(pool: ConnectionPool, game_id: int) -> str | None:
    """Replay one stored game and write its outcome; returns the final status (None: no such game)."""
    with pool.connection() as conn, conn.transaction():
        # Committed on its own so that GET /games/{id} (and the sweeper) can see the game is taken.
        _no_commit_wait(conn)
        row = conn.execute(
            """UPDATE games SET status = 'replaying', status_message = 'being replayed',
                                attempts = attempts + 1, replay_started_at = now(), updated_at = now()
               WHERE id = %s RETURNING attempts""", (game_id,)).fetchone()
    if row is None:
        log.warning("replay_game: there is no game %s (deleted?); nothing to do", game_id)
        return None
    try:
        with pool.connection() as conn, conn.transaction():
            _no_commit_wait(conn)
            return _replay_locked(conn, game_id)
    except psycopg.OperationalError:
        raise  # transient: Celery retries the task
    except SoftTimeLimitExceeded:
        # Out of time, not a bug of the log or the engine: the transaction is rolled back and the
        # game stays 'replaying' for the sweeper, rather than being marked 'error'.
        raise
    except Exception as exc:
        log.exception("replay_game %s failed", game_id)
        _mark_error(pool, game_id, f"the replay pipeline failed ({type(exc).__name__}: {exc}); "
                    "this is a bug in the service, not in the log")
        return "error"


def _no_commit_wait(conn: Connection) -> None:
    """A replay's writes need not wait for the disk flush at commit (synchronous_commit off, this
    transaction only): if PostgreSQL crashed in the next few milliseconds the verdict would be lost
    but never half-written, the game would still be stored (its upload committed synchronously) and
    left in a pre-verdict state, and the sweeper would replay it again. Waiting for the flush twice per
    game was most of a replay task's time on the embedded stack."""
    conn.execute("SET LOCAL synchronous_commit = off")


def _replay_locked(conn: Connection, game_id: int) -> str | None:
    row = conn.execute(
        """SELECT raw_log, event_id, match_id, coalesce(played_on, received_at::date)
           FROM games WHERE id = %s FOR UPDATE""", (game_id,)).fetchone()
    if row is None:
        return None
    raw, event_id, match_id, played_on = row
    result = replay(bytes(raw), record=True)
    verdict = result.verdict
    remove_record(conn, game_id)
    _upsert_verdict(conn, game_id, result)
    if verdict.status in RECORDED_VERDICTS and result.record is not None and result.log is not None:
        write_record(conn, game_id, result.record, result.log, played_on=played_on, event_id=event_id,
                     counted=verdict.status == COUNTED_VERDICT, engine_version=ENGINE_VERSION)
    conn.execute(
        """UPDATE games SET status = %s, status_message = %s, engine_version = %s,
                            catalog_version = coalesce(%s, catalog_version),
                            finished_at = now(), updated_at = now()
           WHERE id = %s""",
        (verdict.status, storable(verdict.message), ENGINE_VERSION, result.log.catalog if result.log else None,
         game_id))
    if match_id is not None:
        check_match(conn, match_id)
    return verdict.status


def _upsert_verdict(conn: Connection, game_id: int, result: ReplayResult) -> None:
    v = result.verdict
    conn.execute(
        """INSERT INTO verdicts (game_id, status, message, decision_index, round, phase, player, decision,
                                 rule, legal, errors, board, engine_version, catalog_version, replayed_at)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, now())
           ON CONFLICT (game_id) DO UPDATE SET
               status = EXCLUDED.status, message = EXCLUDED.message,
               decision_index = EXCLUDED.decision_index, round = EXCLUDED.round, phase = EXCLUDED.phase,
               player = EXCLUDED.player, decision = EXCLUDED.decision, rule = EXCLUDED.rule,
               legal = EXCLUDED.legal, errors = EXCLUDED.errors, board = EXCLUDED.board,
               engine_version = EXCLUDED.engine_version, catalog_version = EXCLUDED.catalog_version,
               replayed_at = now()""",
        (game_id, v.status, storable(v.message), v.index, v.round, v.phase, v.player, storable(v.decision),
         storable(v.rule), Jsonb(storable(v.legal)), Jsonb(storable(v.errors)), storable(v.board), ENGINE_VERSION,
         result.log.catalog if result.log else None))


def _mark_error(pool: ConnectionPool, game_id: int, message: str) -> None:
    """The game leaves the pipeline as ``error``, counted nowhere, with the reason."""
    try:
        with pool.connection() as conn, conn.transaction():
            conn.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game_id,))
            remove_record(conn, game_id)
            conn.execute(
                """INSERT INTO verdicts (game_id, status, message, engine_version) VALUES (%s, 'error', %s, %s)
                   ON CONFLICT (game_id) DO UPDATE SET status = 'error', message = EXCLUDED.message,
                       decision_index = NULL, round = NULL, phase = NULL, player = NULL, decision = NULL,
                       rule = NULL, legal = '[]', errors = '[]', board = NULL,
                       engine_version = EXCLUDED.engine_version, replayed_at = now()""",
                (game_id, storable(message), ENGINE_VERSION))
            conn.execute(
                """UPDATE games SET status = 'error', status_message = %s, finished_at = now(), updated_at = now()
                   WHERE id = %s""", (storable(message), game_id))
    except Exception:  # the game stays 'replaying'; the sweeper sends it again later
        log.exception("could not even mark game %s as failed", game_id)


@shared_task(name=SWEEP_TASK, bind=True, autoretry_for=(psycopg.OperationalError,), retry_backoff=2,
             retry_backoff_max=RETRY_BACKOFF_MAX, max_retries=3)
def sweep(self) -> int:
    config = Config.from_env()
    return sweep_stuck_games(worker_pool(), self.app, older_than_s=config.sweep_after_s)


def sweep_stuck_games(pool: ConnectionPool, celery, *, older_than_s: float, limit: int = SWEEP_BATCH) -> int:
    """Re-send games left in received/queued/replaying for longer than ``older_than_s``.

    They are marked ``queued`` (with a fresh updated_at) and committed first, then sent: if the send
    fails they are simply found again by a later sweep. SKIP LOCKED: a game a worker is replaying
    right now is not waited for. Re-sends go to the bulk lane, so a backlog (e.g. after a Redis
    restart during a tournament upload) never gets ahead of new single uploads.
    """
    with pool.connection() as conn:
        ids = [r[0] for r in conn.execute(
            """UPDATE games SET status = 'queued', status_message = 'waiting for a worker (re-sent)',
                                queued_at = now(), updated_at = now()
               WHERE id IN (SELECT id FROM games
                            WHERE status IN ('received', 'queued', 'replaying')
                              AND updated_at < now() - make_interval(secs => %s::float8)
                            ORDER BY updated_at LIMIT %s
                            FOR UPDATE SKIP LOCKED)
               RETURNING id""", (older_than_s, limit)).fetchall()]
    if ids:
        sent = send_replay(celery, ids, queue=QUEUE_BULK)
        log.info("sweeper: re-sent %d of %d games left behind", len(sent), len(ids))
    return len(ids)
