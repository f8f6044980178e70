"""Bulk export of verified game records (``GET /api/v1/export/games.csv|.parquet``, ``empyrean
export``), as 17lands and Lichess publish theirs: one row per game and seat, CSV or Parquet, written
a batch at a time from a server-side cursor so an event of any size costs the same memory.

**Which games**: those the statistics count — valid, and the one game of its match that counts by
the rule of services.games.disputes (``game_records.counted``, or ``pending``: chosen and about to
be folded in, as the games list shows it). Disputed, superseded, illegal, mismatch and malformed
uploads are not records anyone should learn from. Of those, the ones the reader may see
(services.games.listing.visible_sql: public games of public events for anyone). An export is of
one game (``ExportFilter.game``, a key of engine.games): the columns are that game's record's.

**The columns** are declared once, in ``COLUMNS``: their SQL, their type and their meaning. The
CSV and the Parquet writers both follow it, and docs/export.md's table is checked against it
(tests/services/test_export.py).

**Streaming**: rows come from a named (server-side) cursor ``batch`` rows at a time. CSV is text
per batch. Parquet is written straight to the response too, one row group per batch: pyarrow's
writer only appends (row groups, then the footer at ``close``), so a sink that hands on what was
written after each row group needs no temporary file and no seeking.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from typing import Iterator

from psycopg import Connection

from engine.games import DEFAULT_GAME
from services.platform.csv_cells import csv_cell

from .listing import Reader, visible_sql

BATCH_ROWS = 5_000  # rows (game-seats) per fetch, CSV chunk and Parquet row group
FORMATS = ("csv", "parquet")
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "parquet": "application/vnd.apache.parquet"}


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # one of TYPES: how Parquet stores it (CSV: text; a list as a JSON array)
    sql: str  # over the FROM of _EXPORT (r record, g game, p seat, o other seats, b battlefields, c cards)
    meaning: str


TYPES = ("int64", "int16", "string", "date", "bool", "list<string>", "list<int32>")

COLUMNS: tuple[Column, ...] = (
    Column("game_id", "int64", "g.id", "the game's id (GET /api/v1/games/{id}; its log at /api/v1/games/{id}/log)"),
    Column("game", "string", "r.game", "the key of the game it is of (GET /api/v1/games/registry lists them)"),
    Column("event_id", "int64", "g.event_id", "the event's id; empty for a game filed under none"),
    Column("event", "string", "e.name", "the event's name"),
    Column("played_on", "date", "r.played_on", "the day played: the log's meta.date, else the day it was received"),
    Column("round", "int16", "m.round", "the tournament round (meta.round); empty outside a match"),
    Column("table", "string", "m.table_label", "the table (meta.table); empty outside a match"),
    Column("players", "int16", "r.players", "players at the table: 2 or 3"),
    Column("seat", "int16", "p.seat", "this row's seat, 1 to 3 (the order of the log's setup.decks)"),
    Column("player", "string", "p.player_name", "the seat's player (meta.players); empty when the log names none"),
    Column("deck", "string", "p.deck", "the seat's deck (a premade deck's name, or a mash-up deck's own)"),
    Column("opponents", "list<string>", "o.players", "the other seats' players, by seat"),
    Column("opponent_decks", "list<string>", "o.decks", "the other seats' decks, by seat"),
    Column("battlefields", "list<string>", "r.battlefields", "the battlefields in play, B1 first"),
    Column("first_player", "int16", "r.first_player", "the seat that played first in round 1"),
    Column("on_the_play", "bool", "p.is_first_player", "this seat played first"),
    Column("result", "string", "CASE WHEN p.won THEN 'win' WHEN r.winner IS NULL THEN 'draw' ELSE 'loss' END",
           "this seat's result: win, loss or draw"),
    Column("end_reason", "string", "r.end_reason",
           "how the game ended: score (the final tally), concession or time"),
    Column("might", "list<int32>", "b.might", "this seat's might on each battlefield at the end, B1 first"),
    Column("battlefield_margins", "list<int32>", "b.margins",
           "per battlefield, this seat's might minus the most any other seat had there (> 0: won it alone)"),
    Column("battlefields_won", "int16", "p.battlefields_won", "battlefields this seat alone had the most might on"),
    Column("total_might", "int64", "p.final_might", "this seat's might over all battlefields at the end"),
    Column("margin", "int64", "p.final_might - o.best_total",
           "total_might minus the best other seat's total (> 0 for the winner of a tally)"),
    Column("cards_deployed", "list<string>", "coalesce(c.cards, '{}')",
           "the cards this seat deployed, each name once, sorted"),
    Column("deploys", "int64", "coalesce(c.deploys, 0)", "cards deployed in all (every copy, every time)"),
    Column("catalog_version", "string", "r.catalog_version",
           "the catalog (cards, battlefields, errata) it was played with"),
    Column("engine_version", "string", "r.engine_version", "the engine version whose replay verified it"),
)
assert all(c.type in TYPES for c in COLUMNS)
NAMES = tuple(c.name for c in COLUMNS)

# One row per counted game's seat. The laterals read a game's other seats, this seat's battlefields
# and its deployed cards by primary key: each row costs a few index probes, whatever the table size.
_EXPORT = """
    SELECT {columns}
    FROM game_records r
    JOIN games g ON g.id = r.game_id
    JOIN verdicts v ON v.game_id = g.id AND v.status = 'valid'
    LEFT JOIN events e ON e.id = g.event_id
    LEFT JOIN event_matches m ON m.id = g.match_id
    JOIN game_players p ON p.game_id = r.game_id
    CROSS JOIN LATERAL (
        SELECT array_agg(q.player_name ORDER BY q.seat) AS players, array_agg(q.deck ORDER BY q.seat) AS decks,
               max(q.final_might) AS best_total
        FROM game_players q WHERE q.game_id = p.game_id AND q.seat <> p.seat) o
    CROSS JOIN LATERAL (
        SELECT array_agg(x.might ORDER BY x.position) AS might,
               array_agg(x.might - (SELECT max(y.might) FROM game_player_battlefields y
                                    WHERE y.game_id = x.game_id AND y.position = x.position AND y.seat <> x.seat)
                         ORDER BY x.position) AS margins
        FROM game_player_battlefields x WHERE x.game_id = p.game_id AND x.seat = p.seat) b
    LEFT JOIN LATERAL (
        SELECT array_agg(k.card ORDER BY k.card) AS cards, sum(k.deployed) AS deploys
        FROM game_player_cards k WHERE k.game_id = p.game_id AND k.seat = p.seat AND k.deployed > 0) c ON true
    WHERE (r.counted OR r.pending) AND {where}
    ORDER BY r.game_id, p.seat
"""


@dataclass(frozen=True)
class ExportFilter:
    """Which counted games: of ``game``, one event's, and/or those played from ``start`` to ``end``
    (inclusive)."""

    event: int | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    game: str = DEFAULT_GAME


def export_sql(selection: ExportFilter, reader: Reader) -> tuple[str, dict]:
    where = visible_sql(reader)
    where.add("r.game = %(game)s", game=selection.game)  # by day: game_records_counted_game_played_on_idx
    where.when_set("g.event_id = %(event)s", event=selection.event)
    where.when_set("r.played_on >= %(start)s", start=selection.start)
    where.when_set("r.played_on <= %(end)s", end=selection.end)
    columns = ", ".join(f"{c.sql} AS {c.name}" for c in COLUMNS)
    return _EXPORT.format(columns=columns, where=where.sql()), where.params


def row_batches(conn: Connection, selection: ExportFilter, reader: Reader,
                batch: int = BATCH_ROWS) -> Iterator[list[tuple]]:
    """The export's rows (tuples in ``COLUMNS`` order), ``batch`` at a time, from a server-side cursor
    (so PostgreSQL sends them as they are asked for). Runs in a transaction of its own on ``conn``."""
    sql, params = export_sql(selection, reader)
    with conn.transaction(), conn.cursor(name="game_export") as cursor:
        cursor.itersize = batch
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(batch):
            yield rows


# --- CSV -----------------------------------------------------------------------------------------

def csv_chunks(batches: Iterator[list[tuple]]) -> Iterator[bytes]:
    """The CSV: the header line, then one chunk of text per batch."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(NAMES)
    yield buffer.getvalue().encode()
    for rows in batches:
        buffer.seek(0)
        buffer.truncate()
        writer.writerows([csv_cell(v) for v in row] for row in rows)
        yield buffer.getvalue().encode()


# --- Parquet -------------------------------------------------------------------------------------

def arrow_schema():
    import pyarrow as pa

    types = {"int64": pa.int64(), "int16": pa.int16(), "string": pa.string(), "date": pa.date32(),
             "bool": pa.bool_(), "list<string>": pa.list_(pa.string()), "list<int32>": pa.list_(pa.int32())}
    fields = [pa.field(c.name, types[c.type], metadata={"meaning": c.meaning}) for c in COLUMNS]
    return pa.schema(fields, metadata={"source": "Empyrean Replay game export", "docs": "docs/export.md"})


class _HandOn:
    """A write-only file for pyarrow whose bytes are taken out after each row group (``take``)."""

    def __init__(self) -> None:
        self.pending = bytearray()
        self.position = 0
        self.closed = False

    def write(self, data) -> int:
        self.pending += data
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def take(self) -> bytes:
        out = bytes(self.pending)
        self.pending.clear()
        return out


def parquet_chunks(batches: Iterator[list[tuple]]) -> Iterator[bytes]:
    """The Parquet file: one row group per batch (zstd-compressed), handed on as it is written, then
    the footer. A selection with no rows is a valid file with the schema and no row group."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema()
    sink = _HandOn()
    writer = pq.ParquetWriter(pa.PythonFile(sink, mode="w"), schema, compression="zstd")
    try:
        for rows in batches:
            columns = zip(*rows)  # the batch by column: Arrow's layout
            writer.write_table(pa.Table.from_arrays([pa.array(values, type=field.type)
                                                     for values, field in zip(columns, schema)], schema=schema))
            yield sink.take()
    finally:
        writer.close()
    yield sink.take()


def chunks(fmt: str, batches: Iterator[list[tuple]]) -> Iterator[bytes]:
    return csv_chunks(batches) if fmt == "csv" else parquet_chunks(batches)
