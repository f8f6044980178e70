"""Who resolved a dispute, as the service knows it (issue 18, the dispute desk).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25

- ``disputes.resolved_by_owner``, ``resolved_by_name`` and ``resolved_by_role``: the API token that
  resolved the dispute (its owner, name and role), written with the resolution
  (services.games.disputes.resolve) and shown with the ruling (GET /api/v1/disputes/{id}, the
  dispute desk /disputes/<id>), as ``games.uploaded_by_*`` (revision 0013) show who uploaded a game.
  Disputes resolved before this revision have NULL: the service did not record it.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0015"
down_revision: Union[str, Sequence[str], None] = "0014"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
ALTER TABLE disputes ADD COLUMN resolved_by_owner text, ADD COLUMN resolved_by_name text,
    ADD COLUMN resolved_by_role text;
COMMENT ON COLUMN disputes.resolved_by_owner IS
    'owner of the API token that resolved it (NULL: open, or resolved before revision 0015)';
""")


def downgrade() -> None:
    op.execute("ALTER TABLE disputes DROP COLUMN resolved_by_owner, DROP COLUMN resolved_by_name, "
               "DROP COLUMN resolved_by_role;")
