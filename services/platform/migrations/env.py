"""Alembic's environment for Empyrean Replay: migrations run on a psycopg 3 connection.

Run through ``empyrean db upgrade`` (or services.platform.migrate.upgrade), which passes the database URL
in ``config.attributes["database_url"]``; without it DATABASE_URL is used. SQLAlchemy is only the
shell Alembic needs: the connection is made by psycopg from the same URL the rest of the service
uses, and the revisions themselves are plain SQL.
"""

from __future__ import annotations

import psycopg
from alembic import context
from sqlalchemy import create_engine, pool, text

from services.platform.config import Config

# Any constant will do: every process that migrates this database takes the same advisory lock, so
# two `empyrean up`s (or a test run and an `up`) starting together migrate one after the other.
MIGRATION_LOCK_KEY = 0x656D7079  # "empy"

config = context.config


def database_url() -> str:
    return config.attributes.get("database_url") or Config.from_env().require_database_url()


def run_migrations_offline() -> None:
    """``--sql`` mode: print the SQL instead of running it (for a DBA to review or apply)."""
    context.configure(dialect_name="postgresql", literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = database_url()
    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(url),
                           poolclass=pool.NullPool)
    with engine.connect() as connection:
        # One transaction for the whole upgrade: PostgreSQL DDL is transactional, so a failed
        # revision leaves the schema exactly as it was.
        context.configure(connection=connection, transaction_per_migration=False)
        with context.begin_transaction():
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
