"""Indexes for the player pages and the games list (issue 18).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-14

- ``event_matches_players_idx`` (GIN on ``event_matches.players``): a player's matches
  (``players @> ARRAY[name]``) for ``/players/<name>`` and ``GET /api/v1/games?player=``, without
  reading every match of every event.
- ``games_event_idx`` becomes ``(event_id, id)`` (was ``(event_id)``, same predicate): an event's games
  newest first a page at a time (``GET /api/v1/events/{id}/games``, keyset paging by id) is a range
  scan of the index, whatever the size of the event, instead of reading all its games to sort them.
  Replaced, not added beside: every read by event alone uses the wider index as well, and a game
  insert still maintains one index for it.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0014"
down_revision: Union[str, Sequence[str], None] = "0013"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
CREATE INDEX event_matches_players_idx ON event_matches USING gin (players);
DROP INDEX games_event_idx;
CREATE INDEX games_event_idx ON games (event_id, id) WHERE event_id IS NOT NULL;
""")


def downgrade() -> None:
    op.execute("""
DROP INDEX event_matches_players_idx;
DROP INDEX games_event_idx;
CREATE INDEX games_event_idx ON games (event_id) WHERE event_id IS NOT NULL;
""")
