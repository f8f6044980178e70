"""Each event's match points (issue 27): ``events.points``.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29

- ``events.points`` (jsonb, null): the match points the organiser set for the event's standings —
  ``{"win", "draw", "loss"}`` for a game with one winner, ``{"by_rank": {"<table size>": [first
  place's points, …]}}`` for a game decided by ranks (services.games.points, which checks them when
  they are set: ``POST``/``PATCH /api/v1/events``). Null, as every event made before has it: the
  game's default (win 3, draw 1, loss 0 for Battle for Empyrean, as its standings always counted).
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0020"
down_revision: Union[str, Sequence[str], None] = "0019"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
ALTER TABLE events ADD COLUMN points jsonb CONSTRAINT events_points_check CHECK (jsonb_typeof(points) = 'object');
COMMENT ON COLUMN events.points IS
    'the match points of its standings (services.games.points); null: its game''s default';
""")


def downgrade() -> None:
    op.execute("ALTER TABLE events DROP COLUMN points;")
