"""Sending replay tasks for stored games — always after the storing transaction has committed.

Why after: a task sent before the commit could reach a worker before the row is visible (the worker
would find no game), and a task sent for a transaction that then rolls back would name a game that
does not exist. Postgres is the source of truth, so a send that fails (broker down) loses nothing:
the game goes back to ``received`` and the sweeper (workers.replay.sweep) sends it later.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

from celery import Celery
from psycopg_pool import ConnectionPool

from workers.celery_app import QUEUE_BULK, QUEUE_INTERACTIVE, REPLAY_CHUNK_TASK

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
            """UPDATE games SET status = 'received', status_message = 'stored; the sweeper will send it to a worker',
                                queued_at = NULL, updated_at = now()
               WHERE id = ANY(%s) AND status = 'queued'""", (game_ids,))


class ReplaySender:
    """Sends the replay tasks of single uploads from one thread per API process, a few games per
    task: the first game waits up to ``LINGER_S`` for others to join it (up to ``MAX_BATCH``).
    The upload's answer does not wait for the send: the game is already stored ``queued`` and
    committed, and Postgres, not the broker, is the source of truth. If the send fails, the games
    go back to ``received``; if the process dies with games not yet sent, they stay ``queued``;
    either way the sweeper sends them later (workers.replay.sweep_stuck_games).

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


# Games per bulk task. A chunk is replayed and written in one transaction (workers.replay), and
# the per-chunk statements are paid once, so bigger chunks cost less per game (1,000 games: ~1.9 ms
# of database time each, 100 games: ~2.7 ms; tests/bench/bench_chunks.py) — up to ~2 s of
# work, far inside the task time limit. A bundle is still cut into at least SPREAD chunks (of at
# least MIN_CHUNK games), so that many worker processes, on as many machines, can share it.
MAX_CHUNK = 1000
MIN_CHUNK = 25
SPREAD = 16


def bundle_chunk_size(games: int) -> int:
    return max(MIN_CHUNK, min(MAX_CHUNK, -(-games // SPREAD)))


def send_chunks(celery: Celery, game_ids: list[int], chunk: int | None = None, *, lane: str = QUEUE_BULK,
                claim: bool = True) -> list[int]:
    """Send games in chunked tasks (on the bulk lane unless told otherwise); returns the ids handed
    to the broker. ``claim``: see workers.replay.replay_games."""
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


def enqueue_bundle(pool: ConnectionPool, celery: Celery, game_ids: list[int], chunk: int | None = None) -> list[int]:
    """Send a bundle's stored games (``queued``, committed) in chunks on the bulk lane; returns the
    ids handed to the broker (the rest go back to ``received`` for the sweeper)."""
    sent = send_chunks(celery, game_ids, chunk)
    mark_unsent(pool, game_ids[len(sent):])
    return sent
