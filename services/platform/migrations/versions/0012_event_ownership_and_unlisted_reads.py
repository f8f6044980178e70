"""Events are made by organisers only; unlisted things are read with a token; who uploaded a game.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27

Why (issue 16): an event used to be created by any upload whose ``meta.event`` named a new one
(public, with no owner) and was then claimed by the first organiser to name it in ``POST /events``;
an admin's events had no owner, so any organiser could take them over the same way. Now only
``POST /events`` creates an event, always with an owner, and a name never moves ownership
(services.games.events). An upload naming an event that does not exist is stored without an event;
what its log named is kept beside it:

- ``games.named_event`` (text): the log's ``meta.event`` when the game was stored without an event
  (the event did not exist); shown by ``GET /api/v1/games/{id}`` as ``event_named_in_log``. NULL
  for games filed under an event, and for games stored before this revision (an upload then made
  the event, so they all have theirs).
- ``games.uploaded_by`` (bigint): the id of the API token that uploaded the game (api_tokens.id),
  so that the uploader may read back an unlisted game (reading unlisted things by id needs a token
  now: docs/security.md, "Visibility"). No foreign key: tokens are revoked, never deleted, and the
  check would cost every insert of a bundle a lookup. NULL for games stored before this revision.

Events that already have no owner (made by an upload, or by an admin) keep none: no organiser can
claim them any more, only an admin manages them, and an admin may give one an owner with
``PATCH /api/v1/events/{id} {"organiser": "..."}``. Nothing is guessed from the data (the first
organiser that named such an event is not recorded anywhere).

Downgrade drops the two columns.
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = "0012"
down_revision: Union[str, Sequence[str], None] = "0011"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
ALTER TABLE games ADD COLUMN named_event text, ADD COLUMN uploaded_by bigint;
COMMENT ON COLUMN games.named_event IS
    'meta.event of a game stored without an event (no event of that name existed at its upload)';
COMMENT ON COLUMN games.uploaded_by IS 'api_tokens.id of the token that uploaded the game';
""")


def downgrade() -> None:
    op.execute("ALTER TABLE games DROP COLUMN uploaded_by, DROP COLUMN named_event")
