"""The service fixtures (real PostgreSQL, Redis, Celery worker, the app) live in service_fixtures.py,
so the browser tests (tests/browser) can use the very same ones."""

from service_fixtures import *  # noqa: F401,F403
