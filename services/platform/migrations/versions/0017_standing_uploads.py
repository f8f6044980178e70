"""Who may open a dispute: uploads standing for their match (issue 26).

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28

Why (issue 26, found by a security review): any uploader could pause a match's statistics — open its
dispute, take it out of the counts and the standings — by uploading a log of that match that
disagrees with it. Now an upload is *standing* for its match when its API token is an admin's, the
event organiser's or bound to the event, or when it came with no token (services.games.disputes,
"Standing uploads"); when a match has a standing upload, the rule reads only those.

- ``games.standing`` (boolean, NOT NULL, default true): written by every upload from its token and
  its event by the one definition, ``services.games.disputes.STANDING_SQL`` (services.games.store).
  Filled in here by the same expression for the games stored before, from the token that uploaded
  them (``games.uploaded_by``, revision 0012) and their event as it is now. A game stored before
  revision 0012 (no token recorded) or by a tool of ours (none sent) is standing: nothing says
  otherwise, and it keeps the part it had.

Then every match with more than one game, or with a dispute, is settled by the rule (as revision
0013 did, which now leaves it here: the service's rule reads this column, which does not exist at
0013): a match whose counting game was another uploader's log and that has a standing valid upload
now counts the standing one. An open dispute stays open (an organiser resolves it), its reason
rewritten from the uploads the rule reads when they are more than one. ``--sql`` (offline) mode adds
and fills in the column and prints a comment that the settling needs an online run. Downgrade drops
the column (the counted flags stay as settled).
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import context, op

revision: str = "0017"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # imported here, not when Alembic loads this file: see revision 0010
    from services.games.disputes import STANDING_SQL, settle_shared_matches
    from services.games.records import counting_at

    op.execute(f"""
ALTER TABLE games ADD COLUMN standing boolean NOT NULL DEFAULT true;
COMMENT ON COLUMN games.standing IS 'its uploader is standing for its match: an admin, the event''s organiser,
    a token bound to the event, or no token (services.games.disputes)';
UPDATE games g SET standing = {STANDING_SQL}
FROM games u LEFT JOIN api_tokens t ON t.id = u.uploaded_by LEFT JOIN events e ON e.id = u.event_id
WHERE u.id = g.id AND u.uploaded_by IS NOT NULL;
""")
    if context.is_offline_mode():
        op.execute(f"-- revision {revision} settles the counted games of shared matches in Python: "
                   "apply it online (empyrean db upgrade)")
        return
    with counting_at(revision):  # the aggregates as this revision has them (revisions 0018, 0019 came later)
        settle_shared_matches(op.get_bind().connection.driver_connection)


def downgrade() -> None:
    op.execute("ALTER TABLE games DROP COLUMN standing")
