"""Sending replay tasks for stored games — always after the storing transaction has committed.

Why after: a task sent before the commit could reach a worker before the row is visible (the worker
would find no game), and a task sent for a transaction that then rolls back would name a game that
does not exist. Postgres is the source of truth, so a send that fails (broker down) loses nothing:
the game stays ``received`` and the sweeper (workers.replay.sweep) sends it later.
"""

from __future__ import annotations

import logging

from celery import Celery
from psycopg_pool import ConnectionPool

from workers.celery_app import QUEUE_BULK, QUEUE_INTERACTIVE, REPLAY_CHUNK_TASK, REPLAY_TASK

log = logging.getLogger(__name__)

# An upload must answer at once even when Redis is down: try the broker once, briefly.
SEND_RETRY_POLICY = {"max_retries": 0, "interval_start": 0, "interval_step": 0, "interval_max": 0}


def send_replay(celery: Celery, game_ids: list[int], *, queue: str = QUEUE_INTERACTIVE) -> list[int]:
    """Send one replay task per game; returns the ids actually handed to the broker."""
    sent = []
    for game_id in game_ids:
        try:
            # ignore_result: no result-backend subscription (it retries a dead Redis for 20 s)
            celery.send_task(REPLAY_TASK, args=[game_id], queue=queue, ignore_result=True,
                             retry=True, retry_policy=SEND_RETRY_POLICY)
        except Exception as exc:  # kombu/redis raise many types; any failure means "not sent"
            log.warning("could not send the replay of game %s (the sweeper will): %s", game_id, exc)
            break  # the broker is down: do not wait on it once per game
        sent.append(game_id)
    return sent


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


def enqueue_stored(pool: ConnectionPool, celery: Celery, game_ids: list[int]) -> list[int]:
    """Send one task per game (stored ``queued``, committed); returns the ids handed to the broker."""
    sent = send_replay(celery, game_ids)
    mark_unsent(pool, game_ids[len(sent):])
    return sent


# Games per bulk task. A chunk is replayed and written in one transaction (workers.replay), and
# the aggregate upserts cost per distinct key touched, so bigger chunks cost less per game (1,000
# games: ~1.8 ms of database time each, 100 games: ~3 ms; docs/performance.md) — up to ~2 s of
# work, far inside the task time limit. A bundle is still cut into at least SPREAD chunks (of at
# least MIN_CHUNK games), so that many worker processes, on as many machines, can share it.
MAX_CHUNK = 1000
MIN_CHUNK = 25
SPREAD = 16


def bundle_chunk_size(games: int) -> int:
    return max(MIN_CHUNK, min(MAX_CHUNK, -(-games // SPREAD)))


def send_chunks(celery: Celery, game_ids: list[int], chunk: int | None = None) -> list[int]:
    """Send games in chunked tasks on the bulk lane; returns the ids handed to the broker."""
    chunk = chunk or bundle_chunk_size(len(game_ids))
    sent: list[int] = []
    for start in range(0, len(game_ids), chunk):
        ids = game_ids[start:start + chunk]
        try:
            celery.send_task(REPLAY_CHUNK_TASK, args=[ids], queue=QUEUE_BULK, ignore_result=True,
                             retry=True, retry_policy=SEND_RETRY_POLICY)
        except Exception as exc:  # as in send_replay: any failure means "not sent"
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
