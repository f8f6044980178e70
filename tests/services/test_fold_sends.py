"""services.games.dispatch.send_fold: a fold sent at once goes on the bulk lane; one the worker's fold
cadence puts off waits, with its time, on the lane it is sent to (workers/tasks.py). Real Redis; no
worker runs in this module, so the messages stay where they were put, and are taken out after."""

from __future__ import annotations

import json

import redis

from services.games.dispatch import send_fold
from services.games.queues import FOLD_TASK, QUEUE_BULK, QUEUE_INTERACTIVE
from services.platform.broker import make_celery


def _newest(client: redis.Redis, lane: str) -> tuple[bytes, dict]:
    raw = client.lindex(lane, 0)  # kombu pushes on the left and workers pop on the right
    assert raw is not None, f"nothing on the {lane} lane"
    return raw, json.loads(raw)["headers"]


def test_a_fold_put_off_waits_its_time_on_the_lane_it_is_sent_to(config):
    client, celery = redis.Redis.from_url(config.redis_url), make_celery(config)
    before = {lane: client.llen(lane) for lane in (QUEUE_BULK, QUEUE_INTERACTIVE)}
    try:
        send_fold(celery, countdown=7.5, lane=QUEUE_INTERACTIVE)
        assert {lane: client.llen(lane) for lane in before} == {QUEUE_BULK: before[QUEUE_BULK],
                                                                QUEUE_INTERACTIVE: before[QUEUE_INTERACTIVE] + 1}
        _, later = _newest(client, QUEUE_INTERACTIVE)
        assert later["task"] == FOLD_TASK and later["eta"] is not None

        send_fold(celery)  # a fold out of its time budget: at once, on the bulk lane
        _, now = _newest(client, QUEUE_BULK)
        assert now["task"] == FOLD_TASK and now["eta"] is None
        assert client.llen(QUEUE_BULK) == before[QUEUE_BULK] + 1
    finally:
        for lane in before:
            for raw in client.lrange(lane, 0, -1):
                if json.loads(raw)["headers"]["task"] == FOLD_TASK:
                    client.lrem(lane, 1, raw)
