"""Celery tasks. Tasks take ids, never payloads (docs/services.md); game tasks arrive with issue 3.

Defined with ``shared_task`` so they belong to whichever app is in use (the worker's, or one a
producer built with ``make_celery``) without importing the app here.
"""

from __future__ import annotations

from celery import shared_task

from .celery_app import PING_TASK


@shared_task(name=PING_TASK, bind=True, ignore_result=False)
def ping(self) -> dict:
    """Proves the round trip producer → Redis → worker → result backend."""
    return {"pong": True, "worker": self.request.hostname}
