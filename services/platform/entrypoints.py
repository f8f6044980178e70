"""The service's processes start here, and here each chooses its engine build before anything
imports the engine (services.platform.native): the compiled build when a current one exists,
unless ``EMPYREAN_ENGINE=python``.

- the API:  ``gunicorn 'services.platform.entrypoints:api_app()'``
- a worker: ``celery -A services.platform.entrypoints:worker worker …`` (and ``… beat``)

``empyrean up`` (services.platform.launcher) and the container image (infra/container-entrypoint.sh)
run exactly these. Importing this module imports neither the engine nor the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.platform.native import use_native_engine

if TYPE_CHECKING:
    from celery import Celery
    from flask import Flask

API_APP = "services.platform.entrypoints:api_app()"  # gunicorn's APP_MODULE: a factory, called
WORKER_APP = "services.platform.entrypoints:worker"  # Celery's --app: an attribute, never called


def api_app() -> Flask:
    """The API's WSGI app, configured from the environment."""
    use_native_engine()  # before services.api imports the engine: every upload is parsed there
    from services.api import create_app

    return create_app()


def worker_app() -> Celery:
    """The Celery app a worker (or beat) runs, configured from the environment."""
    use_native_engine()  # before the task modules import the engine: replay is a chunk's CPU time
    from workers.celery_app import app

    return app


def __getattr__(name: str):
    # Celery's --app names an attribute and does not call it: ``worker`` is worker_app(), looked up
    # on first use (PEP 562), so that importing this module chooses nothing.
    if name == "worker":
        return worker_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
