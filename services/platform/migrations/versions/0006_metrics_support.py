"""An index for the metrics' replay latency: games finished in the last few minutes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23

GET /metrics (services/platform/metrics.py) reports upload-to-verdict quantiles over the games finished in
the last 5 minutes; without an index on finished_at that is a scan of every game on each scrape.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("CREATE INDEX games_finished_idx ON games (finished_at) WHERE finished_at IS NOT NULL")


def downgrade() -> None:
    op.execute("DROP INDEX games_finished_idx")
