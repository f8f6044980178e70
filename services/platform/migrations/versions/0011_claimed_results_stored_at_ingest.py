"""The result each log claims is stored with the game when it is uploaded.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25

Why: a dispute compares what the uploads of one match claim (the winner, in words) and the API shows
each side's claimed result; both re-read every stored log of the match to find it. The upload
already parsed the log once: what it claims is kept from that parse, in two columns:

- ``games.claimed_result`` (jsonb): the ``result`` object as the log wrote it; NULL when it has none
  or cannot be read as JSON;
- ``games.claimed_winner`` (text): who the log says won, in the words a dispute's reason uses (the
  player's name, ``player N``, ``a draw``, ``no result claimed``, ``unreadable (malformed log)``).

Existing games are filled in here, in batches by id (the engine parses each stored log; about the
cost of revision 0010). ``--sql`` (offline) mode adds the columns and prints a comment that the
backfill needs an online run. Downgrade drops the columns. Every game the service stores has both
(services.games.store writes them); the columns stay nullable for rows written by other means.
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import context, op

revision: str = "0011"
down_revision: Union[str, Sequence[str], None] = "0010"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

BATCH = 1000


def upgrade() -> None:
    op.execute("ALTER TABLE games ADD COLUMN claimed_result jsonb, ADD COLUMN claimed_winner text")
    if context.is_offline_mode():
        op.execute(f"-- revision {revision} fills games.claimed_result and claimed_winner in Python: "
                   "apply it online (empyrean db upgrade)")
        return
    # imported when a log is read, not when Alembic loads this file: see revision 0010
    from services.games.store import claim_of

    conn = op.get_bind().connection.driver_connection
    last = 0
    while True:
        rows = conn.execute("SELECT id, raw_log FROM games WHERE id > %s ORDER BY id LIMIT %s",
                            (last, BATCH)).fetchall()
        if not rows:
            break
        last = rows[-1][0]
        with conn.cursor() as cur:
            cur.executemany("UPDATE games SET claimed_result = %s, claimed_winner = %s WHERE id = %s",
                            [(*claim_of(bytes(raw)), game_id) for game_id, raw in rows])


def downgrade() -> None:
    op.execute("ALTER TABLE games DROP COLUMN claimed_result, DROP COLUMN claimed_winner")
