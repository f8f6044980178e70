"""Many counted games at once, for the export's streaming test and benchmark: copies of one real,
replayed and counted game (its games, verdicts and record rows, every game_player_* row), each a new
game with a content hash of its own, in one event. Inserted in SQL (a replay per copy would take
minutes for what is only a read test); the copies are marked counted but are not added to the agg_*
tables, so a recount of a database filled this way reports them (only the export reads it)."""

from __future__ import annotations

from psycopg import Connection

# every table a game's record lives in, parent first, with the column that names the game
RECORD_TABLES = ("verdicts", "game_records", "game_players", "game_player_battlefields", "game_player_cards",
                 "game_player_rounds")


def _columns(conn: Connection, table: str) -> list[str]:
    return [r[0] for r in conn.execute(
        """SELECT column_name FROM information_schema.columns WHERE table_name = %s AND is_generated = 'NEVER'
           AND identity_generation IS NULL ORDER BY ordinal_position""", (table,))]


def clone_counted_game(conn: Connection, source: int, copies: int, event_id: int) -> list[int]:
    """``copies`` new counted games like game ``source``, filed under ``event_id`` outside any match
    (so no dispute rule applies); their ids. In the caller's transaction."""
    game_columns = [c for c in _columns(conn, "games") if c not in ("content_hash", "event_id", "match_id")]
    listed = ", ".join(game_columns)
    ids = [r[0] for r in conn.execute(
        f"""INSERT INTO games (content_hash, event_id, match_id, {listed})
            SELECT encode(sha256(convert_to(g.content_hash || ':copy:' || i || ':' || clock_timestamp(), 'UTF8')),
                          'hex'), %(event)s, NULL, {", ".join("g." + c for c in game_columns)}
            FROM games g CROSS JOIN generate_series(1, %(copies)s) i WHERE g.id = %(source)s
            RETURNING id""", {"event": event_id, "copies": copies, "source": source})]
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS clone_ids (id bigint) ON COMMIT DROP")
    conn.execute("TRUNCATE clone_ids")
    conn.execute("INSERT INTO clone_ids SELECT unnest(%s::bigint[])", (ids,))
    for table in RECORD_TABLES:
        others = [c for c in _columns(conn, table) if c != "game_id"]
        values = ", ".join(("%(event)s" if c == "event_id" and table == "game_records" else f"t.{c}") for c in others)
        conn.execute(f"""INSERT INTO {table} (game_id, {", ".join(others)})
                         SELECT n.id, {values} FROM {table} t CROSS JOIN clone_ids n WHERE t.game_id = %(source)s""",
                     {"source": source, "event": event_id})
    conn.execute("UPDATE game_records SET counted = true, pending = false WHERE game_id = ANY(%s)", (ids,))
    return ids
