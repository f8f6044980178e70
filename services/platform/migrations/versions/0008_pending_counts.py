"""Games replayed in bulk wait to be counted: game_records.pending.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23

Why (docs/performance.md "Ingest"): adding a chunk's games to the aggregates costs per
distinct aggregate key it touches, and every worker writing games of the same days and weeks
waits for the others' commits on the same aggregate rows. So a bulk chunk's transaction writes its
verdicts and record rows and marks its valid games ``pending``; one worker at a time (an advisory
lock) then adds every pending game to the aggregates in batches of up to 2,000 and marks them
``counted`` (workers.replay.fold_pending_counts). A game is ``counted`` (its contribution is in the
agg_* tables) or ``pending`` (it will be), never both; a replay takes a counted game's contribution
out and simply drops a pending one.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
ALTER TABLE game_records ADD COLUMN pending boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT game_records_counted_or_pending CHECK (NOT (counted AND pending));
COMMENT ON COLUMN game_records.pending IS 'valid, to be added to the agg_* tables (then counted)';
CREATE INDEX game_records_pending_idx ON game_records (game_id) WHERE pending;
""")


def downgrade() -> None:
    # pending games are left 'replaying' without a count: the old code's sweeper replays them again
    op.execute("""
DROP INDEX game_records_pending_idx;
ALTER TABLE game_records DROP CONSTRAINT game_records_counted_or_pending, DROP COLUMN pending;
""")
