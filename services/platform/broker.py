"""Celery as every process of the service configures it, from services.platform.config (so from
the environment): the broker, the lanes, delivery guarantees and time limits, and the command line
of a worker.

Delivery guarantees (docs/services.md, "Queues"): tasks are acknowledged after they finish
(``task_acks_late``) and given back to the queue if the worker process dies
(``task_reject_on_worker_lost``); each worker process reserves one message at a time
(``worker_prefetch_multiplier=1``) so a long bulk chunk never holds interactive work behind it.
Postgres stays the source of truth: tasks carry ids, and a sweeper re-sends anything the broker
lost.
"""

from __future__ import annotations

import sys

from celery import Celery
from kombu import Exchange, Queue

from services.games.queues import QUEUE_INTERACTIVE, QUEUES, ROUTES, SWEEP_TASK
from services.platform.config import Config


def broker_transport_options(visibility: int) -> dict:
    """kombu's Redis transport options: how soon a message whose worker died comes back.

    A message a worker took sits in Redis's ``unacked`` hash until the task acks it (late). If the
    whole worker dies (kill -9 of the main process, the machine lost), nobody acks or rejects it:
    once it is ``visibility`` seconds old, any live worker's periodic restore sweep puts it back on
    its queue. kombu's defaults make that an hour plus up to 100 s (a sweep every
    ``unacked_restore_interval`` = 10 s, scanning on every 10th call only); here the sweep scans on
    every call (throttle 1), at most every 10 s and every tenth of the timeout, and a restore mutex
    left by a dead worker expires after one timeout instead of 5 minutes. (A pool child killed
    alone is faster still: the main process sees it die and requeues its message at once —
    ``task_reject_on_worker_lost``.) docs/operations.md has the numbers.
    """
    return {
        "visibility_timeout": visibility,
        "unacked_restore_interval": max(1, min(10, visibility // 10)),
        "unacked_restore_throttle": 1,
        "unacked_mutex_expire": visibility,
        "queue_order_strategy": "priority",
    }


def task_time_limits(visibility: int) -> tuple[int, int]:
    """(soft, hard) task time limits, both below the visibility timeout: a task still running when
    its message becomes visible again would be handed to a second worker. Margins of 10 s (a
    quarter of the timeout when it is shorter than 40 s)."""
    margin = min(10, visibility // 4)
    return visibility - 2 * margin, visibility - margin


def celery_settings(config: Config) -> dict:
    broker_url = config.celery_broker_url
    # A task still running when its message's visibility timeout expires is handed to another
    # worker as well, so every task is stopped before that: soft limit (exception inside the task)
    # and hard limit (process killed, message redelivered), see task_time_limits.
    visibility = config.broker_visibility_timeout
    soft_limit, hard_limit = task_time_limits(visibility)
    return {
        "broker_url": broker_url,
        "broker_connection_retry_on_startup": True,
        # After start-up, a lost broker connection (Redis restarted) is retried for ever rather
        # than the default 100 times: a worker outlives any Redis outage and carries on after it.
        "broker_connection_retry": True,
        "broker_connection_max_retries": None,
        "broker_transport_options": broker_transport_options(visibility),
        # Results are kept only for tasks that ask for them (ping); game tasks write to Postgres.
        "result_backend": broker_url,
        "task_ignore_result": True,
        "result_expires": 3600,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        # With late acks, a task cut off by a lost broker connection is redelivered anyway, so
        # cancel it rather than let it finish and ack on a connection that no longer exists.
        "worker_cancel_long_running_tasks_on_connection_loss": True,
        "task_time_limit": hard_limit,
        "task_soft_time_limit": soft_limit,
        # Each lane its own exchange and routing key: a message sent to one lane lands in that
        # lane's list only (Queue(name) alone would bind every queue to the default key).
        "task_queues": [Queue(name, Exchange(name, type="direct"), routing_key=name) for name in QUEUES],
        "task_default_queue": QUEUE_INTERACTIVE,
        "task_routes": {name: {"queue": lane} for name, lane in ROUTES.items()},
        # The sweeper, run by the beat scheduler embedded in `empyrean up`'s worker (worker -B).
        "beat_schedule": {"sweep": {"task": SWEEP_TASK, "schedule": float(config.sweep_interval_s)}},
    }


def make_celery(config: Config | None = None, *, include: tuple[str, ...] = ()) -> Celery:
    """A Celery app configured from ``config`` (default: the environment). Producers (the API, the
    CLI) need no task modules: they send tasks by name (services.games.queues); the worker's app
    ``include``s its own (workers.celery_app)."""
    config = config or Config.from_env()
    app = Celery("empyrean", include=list(include), set_as_current=False)
    app.conf.update(celery_settings(config))
    return app


# Celery's --app: an attribute, never called; the worker's app chooses the engine build when it is
# first built (workers.celery_app). Where the processes start: services.platform.entrypoints.
WORKER_APP = "workers.celery_app:app"


def worker_command(config: Config, *, hostname: str = "empyrean@%h", beat: bool = False) -> list[str]:
    """The command line of a worker serving both lanes (its environment must carry ``config``).

    ``beat``: also run the periodic scheduler (the sweeper) inside this worker. Exactly one process
    of a deployment should do so — `empyrean up` runs one worker, so it is that one.
    """
    extra = ["--beat", "--schedule", str(config.data_dir / "celerybeat-schedule")] if beat else []
    return [
        sys.executable, "-m", "celery", "-A", WORKER_APP, "worker",
        "--queues", ",".join(QUEUES),
        "--concurrency", str(config.worker_concurrency),
        "--hostname", hostname,
        "--loglevel", "INFO",
        # no cluster chatter to wait for at start-up: workers share nothing but the queues
        "--without-mingle", "--without-gossip",
        *extra,
    ]
