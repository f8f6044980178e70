"""Apply the schema's migrations (services/platform/migrations, Alembic) to a database.

Alembic is driven through its Python API with a Config built here, so no alembic.ini is needed and
the migrations ship inside the package. ``empyrean db upgrade`` and ``empyrean up`` call upgrade().
"""

from __future__ import annotations

from pathlib import Path

import psycopg
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def alembic_config(database_url: str | None = None) -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    # Plain revision ids (0001, 0002, …) in file names that sort in order.
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if database_url:
        cfg.attributes["database_url"] = database_url
    return cfg


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database to ``revision``; a database already there is left untouched."""
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)


def head_revision() -> str:
    """The newest revision this code knows."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(conn: psycopg.Connection) -> str | None:
    """The revision a database is at; None if it was never migrated."""
    exists = conn.execute("SELECT to_regclass('alembic_version') IS NOT NULL").fetchone()[0]
    if not exists:
        return None
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return row[0] if row else None
