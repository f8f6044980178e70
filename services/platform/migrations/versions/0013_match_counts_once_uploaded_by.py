"""One match counts once; who uploaded a game, as the service knows it.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26

Why (issue 16): a match (event_matches) whose games were all valid was counted once per upload;
resolving its dispute changed nothing; and the only record of who uploaded a game was the free-text
``X-Uploader`` header, which anyone may fill in with anyone's name.

- ``disputes.counts_game_id``: the game of the match that the organiser's resolution says counts
  (NULL: none of them, or not resolved). The statistics count one game of a match at most
  (services.games.disputes): with no dispute the first valid upload (uploads that agree are one
  game), with an open dispute none, with a resolved one this game.
- ``games.uploaded_by_owner`` (the token's owner), ``uploaded_by_name`` (the token's name) and
  ``uploaded_by_role``: beside ``games.uploaded_by``, the token's id (revision 0012), all written
  from the one API token of the upload (services.games.store) and shown together as
  ``uploaded_by`` (owner, name, role). ``games.uploader`` stays: it is the ``X-Uploader`` label,
  the uploader's own words. Games stored before this revision have NULL: the service did not
  record it. (A game stored under 0012 has its token's id only; its owner, name and role are filled
  in from api_tokens here: tokens are revoked, never deleted.)

The counted flags of the games of every match with more than one game, or with a dispute, are
settled by the rule (their contributions taken out of or added to the aggregates by the very
statements the service uses), so the statistics equal a recount under it — by revision 0017
(services.games.disputes.settle_shared_matches), no longer here: the service's rule now reads
``games.standing``, which that revision adds, so it cannot run on this revision's schema. (This
revision settled them itself until revision 0017 was written; a database already past it was
settled then, and is settled again by 0017.) A dispute resolved before this revision named no game:
its match counts nothing until the organiser resolves it again (docs/operations.md). Downgrade
drops the columns (the flags stay as settled: a later replay under the old code counts every valid
game again, as it did).
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = "0013"
down_revision: Union[str, Sequence[str], None] = "0012"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
ALTER TABLE disputes ADD COLUMN counts_game_id bigint REFERENCES games (id) ON DELETE SET NULL;
COMMENT ON COLUMN disputes.counts_game_id IS 'the game of the match the resolution counts (NULL: none)';
ALTER TABLE games ADD COLUMN uploaded_by_owner text, ADD COLUMN uploaded_by_name text,
    ADD COLUMN uploaded_by_role text;
COMMENT ON COLUMN games.uploaded_by_owner IS
    'owner of the API token that uploaded it (games.uploaded_by: its id; NULL: before revision 0012)';
UPDATE games g SET uploaded_by_owner = t.owner, uploaded_by_name = t.name, uploaded_by_role = t.role
FROM api_tokens t WHERE t.id = g.uploaded_by;
COMMENT ON COLUMN games.uploader IS 'the X-Uploader header: a label in the uploader''s own words, not checked';
""")


def downgrade() -> None:
    op.execute("""
ALTER TABLE games DROP COLUMN uploaded_by_owner, DROP COLUMN uploaded_by_name, DROP COLUMN uploaded_by_role;
ALTER TABLE disputes DROP COLUMN counts_game_id;
""")
