"""An index for the bulk export by date (issue 18).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25

- ``game_records_counted_played_on_idx`` (``game_records (played_on)``, only the rows that count):
  ``GET /api/v1/export/games.csv?from=&to=`` with no event reads the counted games of those days
  instead of every record (services.games.export). An export by event goes through
  ``games_event_idx`` (revision 0014).
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0016"
down_revision: Union[str, Sequence[str], None] = "0015"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("CREATE INDEX game_records_counted_played_on_idx ON game_records (played_on) "
               "WHERE counted OR pending;")


def downgrade() -> None:
    op.execute("DROP INDEX game_records_counted_played_on_idx;")
