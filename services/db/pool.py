"""Connection pools (psycopg_pool): one per process, created by the API's app factory (and, later,
by the worker), after any fork, so no connection is ever shared between processes."""

from __future__ import annotations

from psycopg_pool import ConnectionPool


def create_pool(database_url: str, *, max_size: int, name: str) -> ConnectionPool:
    pool = ConnectionPool(
        database_url,
        min_size=1,
        max_size=max_size,
        name=name,
        # Check each connection as it is handed out, so a PostgreSQL restart costs one reconnect
        # instead of an error on the first request to use a dead connection.
        check=ConnectionPool.check_connection,
        open=False,
    )
    # Open without waiting: the pool connects in the background, and an API whose database is down
    # still starts and says so on /api/v1/ready rather than failing to boot.
    pool.open(wait=False)
    return pool
