"""The DDL of an agg_* table as the statistics migrations of each game make it (0021 onwards): one day ×
event × table size × the table's own keys, every value an integer sum, keyed ``UNIQUE NULLS NOT
DISTINCT``, half-filled pages for the fold's updates, an index on the day. Written once here, so each
game's migration lists only its tables' keys and values."""

from __future__ import annotations


def aggregate_ddl(table: str, keys: str, values: tuple[str, ...], wide: tuple[str, ...] = ()) -> str:
    """``keys``: its key columns after the common key, as SQL column definitions joined by ", " ("" for
    none); ``values``: its value columns' names; ``wide``: those of them that are bigint (sums of
    squares, which an integer would not hold for a big event's day)."""
    key_names = [k.split()[0] for k in keys.split(", ")] if keys else []
    columns = "".join(f"    {k},\n" for k in keys.split(", ") if k)
    sums = "".join(f"    {v} {'bigint' if v in wide else 'integer'} NOT NULL DEFAULT 0,\n" for v in values)
    unique = ", ".join(["played_on", "event_id", "players", *key_names])
    return f"""
CREATE TABLE {table} (
    played_on date NOT NULL,
    event_id  bigint,
    players   smallint NOT NULL,
{columns}{sums}    CONSTRAINT {table}_key UNIQUE NULLS NOT DISTINCT ({unique})
) WITH (fillfactor = 50);
CREATE INDEX {table}_played_on_idx ON {table} (played_on);"""
