"""The HTTP API: a Flask app factory; every endpoint lives in a blueprint under ``/api/v1``.

HTTP only: validation, access, serialisation; the data comes from services.games and
services.stats. Served with the dashboards mounted on it by the entry point
(services.platform.entrypoints.api_app, what gunicorn runs); configuration comes from the
environment (services.platform.config) unless a Config is passed in.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass

import redis
from celery import Celery
from flask import Blueprint, Flask
from psycopg_pool import ConnectionPool

from services.games.dispatch import ReplaySender
from services.platform import metrics
from services.platform.broker import make_celery
from services.platform.config import Config
from services.platform.games import register_extra_games
from services.platform.migrate import head_revision
from services.platform.pool import create_pool

from . import catalog, disputes, events, export, games, health, openapi, positions, registry, stats
from .access import init_access
from .errors import register_error_handlers
from .headers import init_headers

API_PREFIX = "/api/v1"


@dataclass
class Resources:
    """What the app's requests share, at ``app.extensions["empyrean"]``."""

    config: Config
    db_pool: ConnectionPool
    # the statistics' reads: a pool on EMPYREAN_READ_DATABASE_URL (a read replica), else db_pool itself
    read_pool: ConnectionPool
    # the exports' own few connections, on the same server as read_pool (services.api.export)
    export_pool: ConnectionPool
    redis: redis.Redis
    schema_head: str  # the migration revision this code expects the database to be at
    celery: Celery  # a producer only: sends replay tasks after the storing transaction commits
    sender: ReplaySender  # single uploads' replay tasks, a few games each (services.games.dispatch)

    def close(self) -> None:
        self.sender.close()  # first: it may still mark unsent games in the database
        self.export_pool.close()
        if self.read_pool is not self.db_pool:
            self.read_pool.close()
        self.db_pool.close()
        self.redis.close()
        self.celery.close()


def create_app(config: Config | None = None) -> Flask:
    config = config or Config.from_env()
    register_extra_games(config.extra_games)
    app = Flask(__name__)
    app.json.sort_keys = False  # keep bodies in the order they are written (status first)

    db_pool = create_pool(config.require_database_url(), max_size=config.db_pool_max_size, name="api")
    read_pool = (create_pool(config.read_database_url, max_size=config.db_pool_max_size, name="api-read")
                 if config.read_database_url else db_pool)
    export_pool = create_pool(config.read_database_url or config.require_database_url(),
                              max_size=config.export_connections, name="api-export")
    celery = make_celery(config)
    resources = Resources(
        config=config,
        db_pool=db_pool,
        read_pool=read_pool,
        export_pool=export_pool,
        redis=redis.Redis.from_url(config.require_redis_url(), socket_connect_timeout=2, socket_timeout=2),
        schema_head=head_revision(),
        celery=celery,
        sender=ReplaySender(celery, db_pool),
    )
    app.extensions["empyrean"] = resources
    atexit.register(resources.close)
    init_access(app, config)  # tokens, roles and rate limits (services/api/access.py)

    api = Blueprint("api_v1", __name__, url_prefix=API_PREFIX)
    api.register_blueprint(health.blueprint)
    api.register_blueprint(games.blueprint)
    api.register_blueprint(registry.blueprint)
    api.register_blueprint(events.blueprint)
    api.register_blueprint(disputes.blueprint)
    api.register_blueprint(stats.blueprint)
    api.register_blueprint(positions.blueprint)
    api.register_blueprint(catalog.blueprint)
    api.register_blueprint(export.blueprint)
    api.register_blueprint(openapi.blueprint)
    app.register_blueprint(api)
    app.register_blueprint(metrics.blueprint)  # GET /metrics (Prometheus)
    register_error_handlers(app)
    init_headers(app)  # CSP, nosniff, no framing, referrer policy on every answer (services/api/headers.py)
    return app
