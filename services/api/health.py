"""Liveness and readiness.

- ``GET /api/v1/health``: the process is up and serving (no dependency is touched), for a process
  supervisor's liveness probe.
- ``GET /api/v1/ready``: the service can do its work — PostgreSQL answers a query and its schema is
  at this code's migration head, and Redis answers PING. 200 when all are, else 503 with a body
  naming what is down and why. For load balancers, ``empyrean up`` and the tests.
"""

from __future__ import annotations

import psycopg
import redis
from flask import Blueprint, current_app, jsonify
from psycopg_pool import PoolTimeout

from services.platform.migrate import current_revision

READY_TIMEOUT_S = 2.0

blueprint = Blueprint("health", __name__)


@blueprint.get("/health")
def health():
    return jsonify({"status": "ok"})


@blueprint.get("/ready")
def ready():
    resources = current_app.extensions["empyrean"]
    checks = {"postgres": check_postgres(resources, resources.db_pool), "redis": check_redis(resources)}
    if resources.read_pool is not resources.db_pool:
        checks["postgres_read"] = check_postgres(resources, resources.read_pool)
    down = [name for name, result in checks.items() if not result["ok"]]
    body = {"status": "unavailable" if down else "ready", "down": down, "checks": checks}
    return jsonify(body), 503 if down else 200


def check_postgres(resources, pool) -> dict:
    try:
        with pool.connection(timeout=READY_TIMEOUT_S) as conn:
            revision = current_revision(conn)
    except PoolTimeout:
        return {"ok": False, "error": f"no PostgreSQL connection within {READY_TIMEOUT_S:g} s "
                "(the server is down or unreachable)"}
    except psycopg.Error as exc:
        return {"ok": False, "error": f"PostgreSQL query failed: {_first_line(exc)}"}
    if revision != resources.schema_head:
        return {"ok": False, "error": f"the database schema is at revision {revision or '(none)'} but this "
                f"code needs {resources.schema_head}: run `empyrean db upgrade`"}
    return {"ok": True, "schema_revision": revision}


def check_redis(resources) -> dict:
    try:
        resources.redis.ping()
    except (redis.RedisError, OSError) as exc:
        return {"ok": False, "error": f"Redis did not answer PING: {_first_line(exc)}"}
    return {"ok": True}


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
