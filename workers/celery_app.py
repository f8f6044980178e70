"""The worker's Celery app: the one every worker process (and beat) runs, with the task modules.

A worker starts here: ``celery -A workers.celery_app:app`` (services.platform.broker.worker_command).
The app is built on first access (PEP 562), and building it first chooses the engine build
(services.platform.native), before the task modules import the engine: importing this module
chooses nothing and never needs REDIS_URL — only using the app does, and then a missing setting is
named in the error. Producers do not import this module:
they build their own app (services.platform.broker.make_celery) and send tasks by name
(services.games.queues).
"""

from __future__ import annotations

from celery import Celery

from services.platform.broker import make_celery
from services.platform.config import Config
from services.platform.games import register_extra_games
from services.platform.native import use_native_engine

TASK_MODULES = ("workers.tasks",)

_app: Celery | None = None


def __getattr__(name: str):
    global _app
    if name in ("app", "celery"):
        if _app is None:
            use_native_engine()  # replay is most of a chunk's CPU time
            config = Config.from_env()
            register_extra_games(config.extra_games)
            _app = make_celery(config, include=TASK_MODULES)
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
