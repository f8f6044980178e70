"""Sending replay tasks for stored games — always after the storing transaction has committed.

Why after: a task sent before the commit could reach a worker before the row is visible (the worker
would find no game), and a task sent for a transaction that then rolls back would name a game that
does not exist. Postgres is the source of truth, so a send that fails (broker down) loses nothing:
the game goes back to ``received`` and the sweeper (sweep_stuck_games) sends it later. Reprocessing
(replaying finished games again) and the sweeper's re-sends go the same way, on the bulk lane.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

from celery import Celery
from psycopg import Connection
from psycopg_pool import ConnectionPool

from services.games.queues import FOLD_TASK, QUEUE_BULK, QUEUE_INTERACTIVE, REPLAY_CHUNK_TASK
from services.games.status import Move, sql_in

log = logging.getLogger(__name__)

# An upload must answer at once even when Redis is down: try the broker once, briefly.
SEND_RETRY_POLICY = {"max_retries": 0, "interval_start": 0, "interval_step": 0, "interval_max": 0}


def mark_unsent(pool: ConnectionPool, game_ids: list[int]) -> None:
    """Games are stored ``queued`` in the transaction that stores them (one write each, not two);
    those whose task could not be sent go back to ``received`` for the sweeper. Only games still
    ``queued`` move: a worker may have taken one meanwhile (a task sent by an earlier attempt)."""
    if not game_ids:
        return
    with pool.connection() as conn:
        conn.execute(
            f"""UPDATE games SET status = %s, status_message = %s, queued_at = NULL, updated_at = now()
                WHERE id = ANY(%s) AND status IN {sql_in(Move.UNSENT.sources)}""",
            (Move.UNSENT.target, Move.UNSENT.message, game_ids))


class ReplaySender:
    """Sends the replay tasks of single uploads from one thread per API process, a few games per
    task: the first game waits up to ``LINGER_S`` for others to join it (up to ``MAX_BATCH``).
    The upload's answer does not wait for the send: the game is already stored ``queued`` and
    committed, and Postgres, not the broker, is the source of truth. If the send fails, the games
    go back to ``received``; if the process dies with games not yet sent, they stay ``queued``;
    either way the sweeper sends them later (sweep_stuck_games).

    Why: a worker replays and counts the games of one task in one transaction. A task per game
    made the worker's statements (and Celery's per-task overhead) cost as much CPU as the whole
    upload request did; a few games per task cost a fraction of that each, and on the 2-core
    machine that CPU is what the API is short of under a stream of uploads (docs/performance.md).
    The price: a game's replay starts up to LINGER_S later."""

    LINGER_S = 0.05
    MAX_BATCH = 50

    def __init__(self, celery: Celery, pool: ConnectionPool) -> None:
        self.celery, self.pool = celery, pool
        self._waiting: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._thread_pid: int | None = None
        self._start_lock = threading.Lock()

    def submit(self, game_id: int) -> None:
        """Hand over a stored, committed, ``queued`` game; returns at once."""
        self._ensure_thread()
        self._waiting.put(game_id)

    def close(self) -> None:
        """Send what is waiting, then stop (the app's shutdown)."""
        if self._thread is not None and self._thread.is_alive() and self._thread_pid == os.getpid():
            self._waiting.put(None)
            self._thread.join(10)

    def _ensure_thread(self) -> None:
        # started on first use, in the process that uses it (gunicorn forks its workers)
        with self._start_lock:
            if self._thread is None or self._thread_pid != os.getpid() or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="replay-sender", daemon=True)
                self._thread_pid = os.getpid()
                self._thread.start()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._waiting.get()
            if first is None:
                return
            batch = [first]
            deadline = time.monotonic() + self.LINGER_S
            while len(batch) < self.MAX_BATCH:
                try:
                    item = self._waiting.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            self._send(batch)

    def _send(self, ids: list[int]) -> None:
        try:
            if send_chunks(self.celery, ids, chunk=len(ids), lane=QUEUE_INTERACTIVE, claim=False):
                return
            mark_unsent(self.pool, ids)
        except Exception:  # the database away as well: the games stay queued, and are still swept
            log.exception("could not send nor mark %d single uploads; the sweeper will send them", len(ids))


# Games per bulk task. A chunk is replayed and written in one transaction (services.games.replay),
# and the per-chunk statements are paid once, so bigger chunks cost less per game
# (tests/bench/bench_chunks.py, docs/performance.md) — a chunk is still far inside the task time
# limit. A bundle is still cut into at least SPREAD chunks (of at least MIN_CHUNK games), so that
# many worker processes, on as many machines, can share it.
MAX_CHUNK = 1000
MIN_CHUNK = 25
SPREAD = 16


def bundle_chunk_size(games: int) -> int:
    return max(MIN_CHUNK, min(MAX_CHUNK, -(-games // SPREAD)))


def send_chunks(celery: Celery, game_ids: list[int], chunk: int | None = None, *, lane: str = QUEUE_BULK,
                claim: bool = True) -> list[int]:
    """Send games in chunked tasks (on the bulk lane unless told otherwise); returns the ids handed
    to the broker. ``claim``: see services.games.replay.replay_stored_games."""
    chunk = chunk or bundle_chunk_size(len(game_ids))
    sent: list[int] = []
    for start in range(0, len(game_ids), chunk):
        ids = game_ids[start:start + chunk]
        try:
            # ignore_result: no result-backend subscription (it retries a dead Redis for 20 s)
            celery.send_task(REPLAY_CHUNK_TASK, args=[ids], kwargs={} if claim else {"claim": False},
                             queue=lane, ignore_result=True, retry=True, retry_policy=SEND_RETRY_POLICY)
        except Exception as exc:  # kombu/redis raise many types; any failure means "not sent"
            log.warning("could not send a chunk of %d games (the sweeper will): %s", len(ids), exc)
            break
        sent.extend(ids)
    return sent


def enqueue_bundle(pool: ConnectionPool, celery: Celery, game_ids: list[int]) -> list[int]:
    """Send a bundle's stored games (``queued``, committed) in chunks on the bulk lane; returns the
    ids handed to the broker (the rest go back to ``received`` for the sweeper)."""
    sent = send_chunks(celery, game_ids)
    mark_unsent(pool, game_ids[len(sent):])
    return sent


def send_fold(celery: Celery, *, countdown: float | None = None, lane: str = QUEUE_BULK) -> None:
    """Send a fold task: a fold ran out of its time budget with games left (at once, on the bulk
    lane), or a worker's fold cadence put the fold of single uploads ``countdown`` seconds off (the
    interactive lane, services.games.fold.FoldCadence). If the send fails, the sweeper folds them."""
    try:
        celery.send_task(FOLD_TASK, queue=lane, countdown=countdown, ignore_result=True, retry=True,
                         retry_policy=SEND_RETRY_POLICY)
    except Exception as exc:  # as in send_chunks: any failure means "not sent"
        log.warning("could not send a fold task (the sweeper will fold): %s", exc)


def reprocess(pool: ConnectionPool, celery: Celery, *, event_id: int | None = None) -> tuple[int, int]:
    """Replay finished games again — after an engine or catalog change, or to settle doubts — on the
    bulk lane, so single uploads keep their priority: mark every finished game (of one event, or all)
    queued and send it in chunks; returns (games marked, games handed to the broker). Games on their
    way already are left alone; games not sent go back to ``received`` for the sweeper. Replaying is
    idempotent (services.games.replay), so a game's verdict, record and statistics are replaced."""
    with pool.connection() as conn:
        ids = mark_reprocess(conn, event_id=event_id)
    return len(ids), len(enqueue_bundle(pool, celery, ids))


def mark_reprocess(conn: Connection, *, event_id: int | None = None, game_ids: list[int] | None = None) -> list[int]:
    """The REPROCESS move: the finished games of one event (or these games, or all) go back to the
    queue, the only way a replay takes a finished game again (Move.CLAIM); returns their ids, sorted."""
    return sorted(r[0] for r in conn.execute(
        f"""UPDATE games SET status = %s, status_message = %s, queued_at = now(), updated_at = now()
            WHERE status IN {sql_in(Move.REPROCESS.sources)} AND (%s::bigint IS NULL OR event_id = %s)
                  AND (%s::bigint[] IS NULL OR id = ANY(%s))
            RETURNING id""",
        (Move.REPROCESS.target, Move.REPROCESS.message, event_id, event_id, game_ids, game_ids)))


SWEEP_BATCH = 1000  # games re-sent per sweep at most; the next sweep takes the rest


def sweep_stuck_games(pool: ConnectionPool, celery: Celery, *, older_than_s: float, limit: int = SWEEP_BATCH) -> int:
    """Re-send games left in received/queued/replaying for longer than ``older_than_s``.

    They are marked ``queued`` (with a fresh updated_at) and committed first, then sent: if the send
    fails they are simply found again by a later sweep. SKIP LOCKED: a game a worker is replaying
    right now is not waited for. Re-sends go to the bulk lane, so a backlog (e.g. after a Redis
    restart during a tournament upload) never gets ahead of new single uploads.
    """
    with pool.connection() as conn:
        ids = [r[0] for r in conn.execute(
            f"""UPDATE games SET status = %(target)s, status_message = %(message)s,
                                queued_at = now(), updated_at = now()
               WHERE id IN (SELECT id FROM games
                            WHERE status IN {sql_in(Move.RESEND.sources)}
                              AND updated_at < now() - make_interval(secs => %(older_than)s::float8)
                              -- replayed, waiting to be counted: the fold's, not a replay's, to finish
                              AND NOT EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = games.id
                                                                           AND r.pending)
                            ORDER BY updated_at LIMIT %(limit)s
                            FOR UPDATE SKIP LOCKED)
               RETURNING id""", {"target": Move.RESEND.target, "message": Move.RESEND.message,
                                 "limit": limit,
                                 "older_than": older_than_s}).fetchall()]
    if ids:
        sent = send_chunks(celery, ids)
        log.info("sweeper: re-sent %d of %d games left behind", len(sent), len(ids))
    return len(ids)
