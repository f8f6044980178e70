"""The Postgres layer: psycopg 3 connection pools and the schema's migrations (Alembic, raw SQL)."""
