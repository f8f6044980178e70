"""Replaying stored games, and the sweeper that re-sends games the broker lost.

``replay_game(game_id)`` and ``replay_games(game_ids)`` are idempotent: everything they write — the
verdicts, the game_* record rows, the aggregate contribution, the final status — happens in one
transaction that holds the games' row locks, and the old contribution is taken out before the new
one is added (services.games.records). So a redelivered message, a sweeper re-send or a reprocess
replays a game as often as it likes and the statistics count it once.

Errors: a lost or failing database connection is transient and retried by Celery with exponential
backoff (``autoretry_for``); anything else is a bug of ours and leaves the game in ``error`` with a
message, without crashing the worker.
"""

from __future__ import annotations

import logging
import os
import time
from datetime import datetime, timezone

import psycopg
from celery import current_app, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from psycopg import Connection
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from engine.replay import ENGINE_VERSION, ReplayResult, replay
from services.platform.config import Config
from services.games.disputes import check_matches, lock_matches
from services.platform.pool import create_pool
from services.games.records import (FinishedGame, apply_contribution, any_foldable, copy_record_rows, fold_pending,
                                   remove_records)
from services.platform.storable import storable
from services.games.dispatch import send_chunks

from .celery_app import FOLD_TASK, QUEUE_BULK, REPLAY_CHUNK_TASK, REPLAY_TASK, SWEEP_TASK

log = logging.getLogger(__name__)

SWEEP_BATCH = 1000  # games re-sent per sweep at most; the next sweep takes the rest
RECORDED_VERDICTS = ("valid", "mismatch")  # finished games: their record is complete
COUNTED_VERDICT = "valid"  # only these enter the statistics (see services.games.records)
PENDING_MESSAGE = "replayed: valid; being added to the statistics"


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
    """One game by id: what API processes of earlier versions sent per single upload (messages may
    still be queued during an upgrade); today's send a few together (replay_games, claim=False)."""
    return replay_stored_games(worker_pool(), [game_id], claim=False).get(game_id)


@shared_task(name=REPLAY_CHUNK_TASK, autoretry_for=(psycopg.OperationalError,), retry_backoff=2,
             retry_backoff_max=RETRY_BACKOFF_MAX, retry_jitter=True, max_retries=6)
def replay_games(game_ids: list[int], claim: bool = True) -> int:
    """Games by id, in one transaction: a chunk of a tournament bundle (bulk lane), or the single
    uploads an API process sent together (interactive lane, ``claim=False``: a few games take
    milliseconds, so no separate 'replaying' commit first). Neither Celery's overhead nor per-game
    statements dominate.

    The valid games are left pending and the worker then counts every task's pending games together
    (fold_pending_counts): under a stream of uploads one fold counts what several tasks replayed
    meanwhile, paying the per-statement costs (planning, the roll-up triggers) once for all of them
    (single uploads from 4 clients: ~2 ms of PostgreSQL time per upload this way, ~4 ms when each
    task counted its own games; docs/performance.md). A retry after a lost connection replays the
    games again, which replay_stored_games makes harmless."""
    pool = worker_pool()
    replayed = replay_stored_games(pool, game_ids, defer_counts=True, claim=claim)
    fold_pending_counts(pool)
    return len(replayed)


@shared_task(name=FOLD_TASK, autoretry_for=(psycopg.OperationalError,), retry_backoff=2,
             retry_backoff_max=RETRY_BACKOFF_MAX, retry_jitter=True, max_retries=6)
def fold_counts() -> int:
    """Count pending games (sent when a fold ran out of its time budget with games left)."""
    return fold_pending_counts(worker_pool())


# Games added to the aggregates per transaction. Bigger batches cost only a little less per game
# (~1 ms in batches of 500, ~0.6 ms in batches of 2,000: tests/bench/bench_chunks.py; a game's rows
# rarely coincide with another's), so a batch stops at ~1.5-2.5 s, and a single upload waiting on
# the same rows does not wait long.
FOLD_BATCH = 2_000
FOLD_BUDGET_S = 20.0  # then the rest is left to a fold task, well inside any task time limit


def fold_pending_counts(pool: ConnectionPool, budget_s: float = FOLD_BUDGET_S) -> int:
    """Add every pending game to the aggregates, a batch per transaction, and give those games their
    final status; returns how many this call counted. Every worker calls it after committing a chunk,
    and the sweeper does, so nothing pending is left behind:

    - one transaction folds at a time (an advisory lock). A call that finds the lock taken returns at
      once: the holder looks again after it lets go, and sees what was committed before that;
    - after a batch it tries again, and it stops when a look *after* letting go of the lock finds
      nothing pending that is not held by a replay under way (which folds its own games after).
    Why fold rather than count in each task's transaction: workers no longer wait on each other's
    aggregate rows (games of the same days and weeks share them), replay goes on while the fold
    runs, and small tasks share one fold's statements (migration 0008; docs/performance.md)."""
    folded, started = 0, time.perf_counter()
    while True:
        with pool.connection() as conn, conn.transaction():
            _no_commit_wait(conn)
            t = time.perf_counter()
            ids = fold_pending(conn, FOLD_BATCH)
            if ids:
                conn.execute(
                    """UPDATE games g SET status = v.status, status_message = v.message,
                                          finished_at = now(), updated_at = now()
                       FROM verdicts v WHERE g.id = ANY(%s) AND v.game_id = g.id""", (ids,))
                log.info("counted %d games: aggregates %.3f s", len(ids), time.perf_counter() - t)
        if ids is None:
            return folded
        folded += len(ids)
        if not ids:
            with pool.connection() as conn:
                if not any_foldable(conn):
                    return folded
        if time.perf_counter() - started > budget_s:
            # A long backlog: carry on in a task of its own rather than hold up this one's worker
            # past its time limit. If the send fails, the sweeper folds it.
            try:
                current_app.send_task(FOLD_TASK, queue=QUEUE_BULK, ignore_result=True)
            except Exception as exc:  # as in services.games.dispatch: any failure means "not sent"
                log.warning("could not send a fold task (the sweeper will fold): %s", exc)
            return folded


def replay_stored_game(pool: ConnectionPool, game_id: int) -> str | None:
    """Replay one stored game and write its outcome; returns the final status (None: no such game)."""
    return replay_stored_games(pool, [game_id]).get(game_id)


def replay_stored_games(pool: ConnectionPool, game_ids: list[int], *, defer_counts: bool = False,
                        claim: bool = True) -> dict[int, str]:
    """Replay stored games together and write their outcomes in one transaction; returns each
    game's verdict (games that no longer exist are left out).

    Writing a chunk together is what makes bulk ingest fast: one COPY per record table, one
    statement for the verdicts and one for the statuses, and (counted here) one upsert per aggregate
    for the whole chunk (the roll-up triggers fire once per statement). If the chunk's transaction
    fails for any reason but a lost connection, nothing of it is kept and its games are replayed
    one by one (each counted in its own transaction), so one bad game ends in ``error`` alone.

    ``defer_counts``: the valid games are left ``pending`` (status 'replaying', "being added to the
    statistics") for fold_pending_counts, instead of being counted in this transaction.
    ``claim``: first mark the games 'replaying' (attempts + 1) in a transaction of its own, so a
    long chunk shows as taken; without it, attempts + 1 is written with the verdict."""
    ids = sorted(set(game_ids))
    if not claim:
        return _replay(pool, ids, defer_counts, claimed=False)
    with pool.connection() as conn, conn.transaction():
        # Committed on its own so that GET /games/{id} (and the sweeper) can see the games are
        # taken. Rows locked in id order: chunks that overlap (a redelivery beside a sweeper
        # re-send) wait for each other instead of deadlocking.
        _no_commit_wait(conn)
        taken = sorted(r[0] for r in conn.execute(
            """UPDATE games SET status = 'replaying', status_message = 'being replayed',
                                attempts = attempts + 1, replay_started_at = now(), updated_at = now()
               WHERE id IN (SELECT id FROM games WHERE id = ANY(%s) ORDER BY id FOR UPDATE)
               RETURNING id""", (ids,)))
    if len(taken) < len(ids):
        log.warning("replay: there are no games %s (deleted?); nothing to do for them",
                    sorted(set(ids) - set(taken)))
    if not taken:
        return {}
    return _replay(pool, taken, defer_counts, claimed=True)


def _replay(pool: ConnectionPool, taken: list[int], defer_counts: bool, claimed: bool) -> dict[int, str]:
    try:
        with pool.connection() as conn, conn.transaction():
            _no_commit_wait(conn)
            return _replay_locked(conn, taken, defer_counts, claimed)
    except psycopg.OperationalError:
        raise  # transient (a lost connection, a deadlock): Celery retries the task
    except SoftTimeLimitExceeded:
        # Out of time, not a bug of the log or the engine: the transaction is rolled back and the
        # games stay 'replaying' for the sweeper, rather than being marked 'error'.
        raise
    except Exception as exc:
        if len(taken) > 1:
            log.exception("replaying a chunk of %d games failed; replaying them one by one", len(taken))
            return {game_id: status for one in taken for game_id, status in replay_stored_games(pool, [one]).items()}
        log.exception("replay of game %s failed", taken[0])
        _mark_error(pool, taken[0], f"the replay pipeline failed ({type(exc).__name__}: {exc}); "
                    "this is a bug in the service, not in the log")
        return {taken[0]: "error"}


def _no_commit_wait(conn: Connection) -> None:
    """A replay's writes need not wait for the disk flush at commit (synchronous_commit off, this
    transaction only): if PostgreSQL crashed in the next few milliseconds the verdicts would be lost
    but never half-written, the games would still be stored (their upload committed synchronously)
    and left in a pre-verdict state, and the sweeper would replay them again. Waiting for the flush
    twice per game was most of a replay task's time on the embedded stack."""
    conn.execute("SET LOCAL synchronous_commit = off")


def _replay_locked(conn: Connection, game_ids: list[int], defer_counts: bool, claimed: bool) -> dict[int, str]:
    started, started_at = time.perf_counter(), datetime.now(timezone.utc)
    # A game's record rows are written only by a holder of its games row lock (the fold only
    # updates them), so whether it has any is settled once the lock is held.
    rows = conn.execute(
        """SELECT id, raw_log, event_id, match_id, coalesce(played_on, received_at::date),
                  EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = g.id)
           FROM games g WHERE id = ANY(%s) ORDER BY id FOR UPDATE OF g""", (game_ids,)).fetchall()
    if not rows:
        return {}
    match_ids = sorted({r[3] for r in rows if r[3] is not None})
    lock_matches(conn, match_ids)  # before anything is written: see lock_matches
    loaded = time.perf_counter()
    replayed = [(game_id, event_id, match_id, played_on, replay(bytes(raw), record=True))
                for game_id, raw, event_id, match_id, played_on, _ in rows]
    replayed_at = time.perf_counter()
    recorded = [r[0] for r in rows if r[5]]
    if recorded:  # replayed before: its old record (and counts) go first
        remove_records(conn, recorded)
    _upsert_verdicts(conn, [(game_id, result) for game_id, _, _, _, result in replayed])
    finished = [FinishedGame(game_id, result.record, result.log, played_on, event_id,
                             counted=result.verdict.status == COUNTED_VERDICT)
                for game_id, event_id, _, played_on, result in replayed
                if result.verdict.status in RECORDED_VERDICTS and result.record is not None and result.log is not None]
    copy_record_rows(conn, finished, engine_version=ENGINE_VERSION, pending=defer_counts)
    deferred = {game.game_id for game in finished if game.counted} if defer_counts else set()
    conn.execute(
        """UPDATE games g SET status = u.status, status_message = u.message, engine_version = %s,
                              catalog_version = coalesce(u.catalog, g.catalog_version),
                              attempts = g.attempts + %s, replay_started_at = coalesce(%s, g.replay_started_at),
                              finished_at = now(), updated_at = now()
           FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[]) AS u(id, status, message, catalog)
           WHERE g.id = u.id""",
        (ENGINE_VERSION, 0 if claimed else 1, None if claimed else started_at,
         [game_id for game_id, *_ in replayed],
         ["replaying" if game_id in deferred else result.verdict.status for game_id, *_, result in replayed],
         [PENDING_MESSAGE if game_id in deferred else storable(result.verdict.message)
          for game_id, *_, result in replayed],
         [result.log.catalog if result.log else None for *_, result in replayed]))
    check_matches(conn, match_ids)
    written = time.perf_counter()
    # Last, so the aggregate rows (shared with every worker writing games of the same days and
    # weeks) stay locked for as short a time as possible before the commit.
    counted = [game.game_id for game in finished if game.counted and not defer_counts]
    if counted:
        apply_contribution(conn, counted, 1)
    # One line per chunk: what a chunk's time went on (tests/bench/bench_pipeline.py adds them up).
    log.info("replayed %d games: load %.3f s, replay %.3f s, records %.3f s, aggregates %.3f s",
             len(replayed), loaded - started, replayed_at - loaded, written - replayed_at,
             time.perf_counter() - written)
    return {game_id: result.verdict.status for game_id, *_, result in replayed}


def _upsert_verdicts(conn: Connection, results: list[tuple[int, ReplayResult]]) -> None:
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO verdicts (game_id, status, message, decision_index, round, phase, player, decision,
                                     rule, legal, errors, board, unseen, engine_version, catalog_version,
                                     replayed_at)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::integer[], %s, %s, now())
               ON CONFLICT (game_id) DO UPDATE SET
                   status = EXCLUDED.status, message = EXCLUDED.message,
                   decision_index = EXCLUDED.decision_index, round = EXCLUDED.round, phase = EXCLUDED.phase,
                   player = EXCLUDED.player, decision = EXCLUDED.decision, rule = EXCLUDED.rule,
                   legal = EXCLUDED.legal, errors = EXCLUDED.errors, board = EXCLUDED.board,
                   unseen = EXCLUDED.unseen,
                   engine_version = EXCLUDED.engine_version, catalog_version = EXCLUDED.catalog_version,
                   replayed_at = now()""",
            [(game_id, v.status, storable(v.message), v.index, v.round, v.phase, v.player, storable(v.decision),
              storable(v.rule), Jsonb(storable(v.legal)), Jsonb(storable(v.errors)), storable(v.board),
              list(v.unseen), ENGINE_VERSION, result.log.catalog if result.log else None)
             for game_id, result in results for v in (result.verdict,)])


def _mark_error(pool: ConnectionPool, game_id: int, message: str) -> None:
    """The game leaves the pipeline as ``error``, counted nowhere, with the reason."""
    try:
        with pool.connection() as conn, conn.transaction():
            conn.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game_id,))
            remove_records(conn, [game_id])
            conn.execute(
                """INSERT INTO verdicts (game_id, status, message, engine_version) VALUES (%s, 'error', %s, %s)
                   ON CONFLICT (game_id) DO UPDATE SET status = 'error', message = EXCLUDED.message,
                       decision_index = NULL, round = NULL, phase = NULL, player = NULL, decision = NULL,
                       rule = NULL, legal = '[]', errors = '[]', board = NULL, unseen = '{}',
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
    fold_pending_counts(worker_pool())  # games a worker replayed but died before counting
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
                              -- replayed, waiting to be counted: the fold's, not a replay's, to finish
                              AND NOT EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = games.id
                                                                           AND r.pending)
                            ORDER BY updated_at LIMIT %s
                            FOR UPDATE SKIP LOCKED)
               RETURNING id""", (older_than_s, limit)).fetchall()]
    if ids:
        sent = send_chunks(celery, ids)
        log.info("sweeper: re-sent %d of %d games left behind", len(sent), len(ids))
    return len(ids)
