"""Where the service's processes start, and where each chooses its engine build before anything
imports the engine (services.platform.native): the compiled build when a current one exists,
unless ``EMPYREAN_ENGINE=python``.

- the API:  ``gunicorn --config python:services.platform.gunicorn_conf 'services.platform.entrypoints:api_app()'``
- a worker: ``celery -A workers.celery_app:app worker …`` (and ``… beat``;
  services.platform.broker.WORKER_APP, worker_command): the worker's app makes the same choice when
  it is built (workers.celery_app)

``empyrean up`` (services.platform.launcher) and the container image (infra/container-entrypoint.sh)
run exactly these. Importing this module imports neither the engine nor the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.platform.native import use_native_engine

if TYPE_CHECKING:
    from flask import Flask

    from services.platform.config import Config

API_APP = "services.platform.entrypoints:api_app()"  # gunicorn's APP_MODULE: a factory, called
# gunicorn's settings (gevent workers and their bounds), the same wherever the API runs
GUNICORN_CONFIG = "python:services.platform.gunicorn_conf"


def api_app(config: Config | None = None) -> Flask:
    """The web app: the API with the dashboards mounted on it, configured from ``config`` (default:
    the environment). Composed here, so that neither services.api nor dashboards imports the other's
    side of the site."""
    use_native_engine()  # before services.api imports the engine: every upload is parsed there
    import dashboards
    from services.api import create_app

    app = create_app(config)
    dashboards.init_app(app)  # the HTML pages (meta dashboards, events, the replay viewer)
    return app
