"""The worker's Celery app: the one every worker process (and beat) runs, with the task modules.

A worker starts through its entry point, ``celery -A services.platform.entrypoints:worker``, which
chooses the engine build before this module imports the tasks (and they the engine). The app is
built on first access (PEP 562), so importing this module never needs REDIS_URL — only using the
app does, and then a missing setting is named in the error. Producers do not import this module:
they build their own app (services.platform.broker.make_celery) and send tasks by name
(services.games.queues).
"""

from __future__ import annotations

from celery import Celery

from services.platform.broker import make_celery

TASK_MODULES = ("workers.tasks",)

_app: Celery | None = None


def __getattr__(name: str):
    global _app
    if name in ("app", "celery"):
        if _app is None:
            _app = make_celery(include=TASK_MODULES)
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
