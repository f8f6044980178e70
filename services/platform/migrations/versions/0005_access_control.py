"""Access control: API tokens, event ownership, public/unlisted visibility.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25

- ``api_tokens``: one row per token (docs/security.md, "Access: tokens and roles"). A token reads
  ``emp_<prefix>_<secret>``; the row keeps the prefix (unique, shown to people and used to find the
  row) and the sha256 of the whole token, never the secret. ``owner`` is the organiser identity an
  organiser token acts for: events it creates carry it in ``events.organiser``, and every token of
  that owner may manage them (so a rotated token keeps its events). ``event_id``: an uploader token
  may be bound to one event.
- ``events.visibility`` and ``games.visibility``: 'public' (default) or 'unlisted' — left out of
  lists, reachable by id (docs/security.md, "Visibility").
- ``events.organiser`` (from 0001) now means the owning organiser; an index serves ownership checks.
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

UPGRADE = """
CREATE TABLE api_tokens (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    prefix        text NOT NULL CHECK (prefix ~ '^[A-Za-z0-9]{8}$'),
    -- sha256 (hex) of the whole token text; the secret itself is never stored
    secret_hash   text NOT NULL CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
    role          text NOT NULL CHECK (role IN ('uploader', 'organiser', 'admin')),
    name          text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    owner         text NOT NULL CHECK (length(owner) BETWEEN 1 AND 200),
    event_id      bigint REFERENCES events (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz,
    revoked_at    timestamptz,
    CONSTRAINT api_tokens_prefix_key UNIQUE (prefix),
    CONSTRAINT api_tokens_event_check CHECK (event_id IS NULL OR role = 'uploader')
);
COMMENT ON TABLE api_tokens IS 'API tokens: prefix and sha256 of the token only (docs/security.md)';

ALTER TABLE events ADD COLUMN visibility text NOT NULL DEFAULT 'public'
    CONSTRAINT events_visibility_check CHECK (visibility IN ('public', 'unlisted'));
ALTER TABLE games ADD COLUMN visibility text NOT NULL DEFAULT 'public'
    CONSTRAINT games_visibility_check CHECK (visibility IN ('public', 'unlisted'));
CREATE INDEX events_organiser_idx ON events (organiser) WHERE organiser IS NOT NULL;
"""

DOWNGRADE = """
DROP INDEX events_organiser_idx;
ALTER TABLE games DROP COLUMN visibility;
ALTER TABLE events DROP COLUMN visibility;
DROP TABLE api_tokens;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
