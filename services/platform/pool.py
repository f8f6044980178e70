"""Connection pools (psycopg_pool): one per process, created by the API's app factory (and, later,
by the worker), after any fork, so no connection is ever shared between processes."""

from __future__ import annotations

from typing import Callable

import psycopg
from psycopg_pool import ConnectionPool

# How long a caller waits for a connection before PoolTimeout (a psycopg.OperationalError): the API
# answers 503 with Retry-After then, a worker task retries with backoff. psycopg_pool's default, 30 s,
# would hold an upload that long while PostgreSQL is down.
POOL_TIMEOUT_S = 5.0


def create_pool(database_url: str, *, max_size: int, name: str,
                configure: Callable[[psycopg.Connection], None] | None = None) -> ConnectionPool:
    pool = ConnectionPool(
        database_url,
        min_size=1,
        max_size=max_size,
        name=name,
        timeout=POOL_TIMEOUT_S,
        # Check each connection as it is handed out, so a PostgreSQL restart costs one reconnect
        # instead of an error on the first request to use a dead connection.
        check=ConnectionPool.check_connection,
        configure=configure,
        open=False,
    )
    # Open without waiting: the pool connects in the background, and an API whose database is down
    # still starts and says so on /api/v1/ready rather than failing to boot.
    pool.open(wait=False)
    return pool
