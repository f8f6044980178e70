"""Replaying stored games again — after an engine or catalog change, or to settle doubts — on the
bulk lane, so single uploads keep their priority. Replaying is idempotent (workers.replay), so a
game's verdict, record and statistics are simply replaced."""

from __future__ import annotations

from celery import Celery
from psycopg_pool import ConnectionPool

from services.games.dispatch import enqueue_bundle

UNFINISHED = ("received", "queued", "replaying")  # already on their way: left alone


def reprocess(pool: ConnectionPool, celery: Celery, *, event_id: int | None = None) -> tuple[int, int]:
    """Mark every finished game (of one event, or all) for replay and send it in chunks; returns
    (games marked, games handed to the broker). Games not sent go back to ``received`` for the sweeper."""
    with pool.connection() as conn:
        ids = [r[0] for r in conn.execute(
            """UPDATE games SET status = 'queued', status_message = 'waiting to be replayed again (reprocess)',
                                queued_at = now(), updated_at = now()
               WHERE status <> ALL(%s) AND (%s::bigint IS NULL OR event_id = %s)
               RETURNING id""", (list(UNFINISHED), event_id, event_id)).fetchall()]
    ids.sort()
    return len(ids), len(enqueue_bundle(pool, celery, ids))
