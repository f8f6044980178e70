"""Stored content hashes follow the new canonical form of a log (draws and keeps in a row by player).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25

Why: games are unique by ``games.content_hash``, the canonical hash of the parsed log
(engine.log.canonical_hash), so that a game uploaded again — in other whitespace or key order — is
recognised as the same game (docs/services.md, "Ingest"). The canonical form changed with the engine
that reads logs as people write them at a table: each run of consecutive draws and keeps is now
listed player by player (engine.log.canonical_decisions), because a simultaneous draft may be written
in any player order. Most stored logs hash differently under the new form, so a re-upload of a game
stored before would no longer be found. This revision recomputes every stored hash.

This one revision is Python, not SQL: the hash is the engine's (engine.log.parse_log, then
canonical_hash). What it does:

- Games in batches of ``BATCH`` by id (keyset: ``id > last``, so each batch is an index range scan
  and memory stays flat at any size); each raw_log that parses gets the new hash; rows whose hash does
  not change are left alone, and changed ones are written with one executemany per batch.
- A log that does not parse (stored ``malformed``) keeps the sha256 of its bytes: that is still what
  an upload of those bytes computes. A log stored malformed that the new engine reads gets the
  canonical hash like any other (``empyrean reprocess`` gives it a new verdict).
- When the new hash is already another row's (two writings of one game, both stored before: their
  drafts in different player orders), the row keeps its old hash — both stay, as before — and the
  pair is printed on stderr (``migration 0010: ...``), for an organiser to look at.
- The games table is locked against writes (SHARE ROW EXCLUSIVE; reads go on) for the revision's
  transaction, so no upload can take a hash between the check and the update. Every stored log is
  parsed and hashed, so a large database holds writes for minutes (docs/performance.md, "Log
  parsing", has the rate): apply it with the API stopped or expecting that (``empyrean up`` migrates
  before it starts anything).

Downgrade writes the hashes of the form before this revision (decisions in the order written),
with the same rules, so the code of revision 0009 finds its re-uploads again.

``--sql`` (offline) mode cannot compute hashes: it prints a comment saying so.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from typing import Sequence, Union

from alembic import context, op

revision: str = "0010"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

BATCH = 1000


# The engine is imported when a hash is computed, not when Alembic loads this file: every process
# that asks for the head revision loads every revision (the API, `empyrean db current`), and none of
# them should import the engine for that (a process chooses the compiled engine before its first
# import of it: services.platform.native).


def canonical_hash(raw: bytes) -> str | None:
    """The hash an upload of ``raw`` gets today; None when it does not parse (it keeps its sha256)."""
    import engine.log

    try:
        return engine.log.canonical_hash(engine.log.parse_log(raw))
    except engine.log.LogFormatError:
        return None


def written_order_hash(raw: bytes) -> str | None:
    """The hash before this revision: the canonical JSON with the decisions in the order written."""
    import engine.log

    try:
        log = engine.log.parse_log(raw)
    except engine.log.LogFormatError:
        return None
    text = json.dumps(engine.log.dump_log(log), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rehash(conn, hash_of: Callable[[bytes], str | None], batch: int = BATCH) -> tuple[int, list[tuple[int, int]]]:
    """Give every game whose log parses the hash ``hash_of`` computes, ``batch`` games at a time, in
    the caller's transaction (a psycopg connection). Returns how many rows changed, and (game, other
    game) for each row that kept its hash because the other one already had the new hash."""
    conn.execute("LOCK TABLE games IN SHARE ROW EXCLUSIVE MODE")
    changed, kept, last = 0, [], 0
    while True:
        rows = conn.execute("SELECT id, content_hash, raw_log FROM games WHERE id > %s ORDER BY id LIMIT %s",
                            (last, batch)).fetchall()
        if not rows:
            return changed, kept
        last = rows[-1][0]
        wanted = {}
        for game_id, old, raw in rows:
            new = hash_of(bytes(raw))
            if new is not None and new != old:
                wanted[game_id] = (old, new)
        holders = dict(conn.execute("SELECT content_hash, id FROM games WHERE content_hash = ANY(%s)",
                                    ([new for _, new in wanted.values()],)).fetchall())
        updates = []
        for game_id, (old, new) in wanted.items():
            if new in holders:
                kept.append((game_id, holders[new]))
                continue
            if holders.get(old) == game_id:  # moving away: its old hash is free for a later row
                del holders[old]
            holders[new] = game_id
            updates.append((new, game_id))
        if updates:
            with conn.cursor() as cur:
                cur.executemany("UPDATE games SET content_hash = %s WHERE id = %s", updates)
            changed += len(updates)


def _run(hash_of: Callable[[bytes], str | None], form: str) -> None:
    if context.is_offline_mode():
        op.execute(f"-- revision {revision} recomputes games.content_hash ({form}) in Python: "
                   "apply it online (empyrean db upgrade)")
        return
    changed, kept = rehash(op.get_bind().connection.driver_connection, hash_of)
    print(f"migration {revision}: {changed} games' content hashes recomputed ({form})", file=sys.stderr)
    for game_id, other in kept:
        print(f"migration {revision}: game {game_id} kept its old content hash: game {other} already has the "
              "new one (the same game written another way)", file=sys.stderr)


def upgrade() -> None:
    _run(canonical_hash, "draws and keeps in a row listed by player")


def downgrade() -> None:
    _run(written_order_hash, "decisions in the order written, as before revision 0010")
