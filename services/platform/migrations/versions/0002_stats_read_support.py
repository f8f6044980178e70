"""Statistics read support: first-player results per battlefield, and indexes for the stats filters.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Conventions as in 0001 (docs/services.md, "Schema"):
- agg_battlefield_first_player is one more aggregate of plain counts keyed by (day, event, table
  size, battlefield) with UNIQUE NULLS NOT DISTINCT; the replay worker adds a game's contribution
  with INSERT ... ON CONFLICT DO UPDATE (x = x + EXCLUDED.x) in the transaction that writes its
  record, and subtracts it again before a re-replay, exactly like the 0001 aggregates. 0001 had no
  way to answer "how often does the first player win battlefield X": agg_battlefield_decks is keyed
  by deck, not by seat order.
- The stats API (services/stats) always filters by table size and optionally by a date range and
  by events. The 0001 keys lead with played_on, which serves a date range; an event filter without
  a date range needs an index led by event_id: one per aggregate table.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

# revision identifiers, used by Alembic.
revision: str = "0002"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

BATTLEFIELD_FIRST_PLAYER = """
CREATE TABLE agg_battlefield_first_player (
    played_on                      date NOT NULL,
    event_id                       bigint,
    players                        smallint NOT NULL,
    battlefield                    text NOT NULL,
    games                          integer NOT NULL DEFAULT 0,  -- games with this battlefield in play
    first_player_battlefield_wins  integer NOT NULL DEFAULT 0,  -- ... where the first player alone had the most
                                                                --     might on it
    first_player_game_wins         integer NOT NULL DEFAULT 0,  -- ... that the first player won
    draws                          integer NOT NULL DEFAULT 0,  -- ... that were drawn
    CONSTRAINT agg_battlefield_first_player_key
        UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, battlefield)
);
COMMENT ON TABLE agg_battlefield_first_player IS 'First-player results per battlefield in play';
"""

AGG_TABLES = [
    "agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player",
    "agg_card_metrics", "agg_battlefield_first_player",
]

EVENT_INDEXES = "\n".join(
    f"CREATE INDEX {table}_event_idx ON {table} (event_id, players, played_on);" for table in AGG_TABLES)


def upgrade() -> None:
    op.execute(BATTLEFIELD_FIRST_PLAYER)
    op.execute(EVENT_INDEXES)


def downgrade() -> None:
    for table in AGG_TABLES[:-1]:
        op.execute(f"DROP INDEX {table}_event_idx")
    op.execute("DROP TABLE agg_battlefield_first_player")
