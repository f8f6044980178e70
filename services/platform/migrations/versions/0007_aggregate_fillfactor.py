"""Room on every aggregate page for the next version of its rows (fillfactor 50).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23

Why (docs/performance.md "Ingest", with the measurements): the worker adds a chunk of games to
the aggregates with upserts that update tens of thousands of existing rows per chunk, the same
rows again and again. On full pages (PostgreSQL's default fillfactor 100) each update puts the new
row version on another page and adds an entry to the key index, so the index fills with dead
entries that every later upsert walks past. With half of each page free the update stays on its
page (a HOT update: no index entry) and the page is pruned as it goes, so folds of games over rows
earlier ones wrote cost less per game (tests/bench/bench_chunks.py). The tables take up to twice
the disk, which the dashboards' reads (weekly roll-ups, a few thousand rows) do not notice.

Existing pages keep their fill until they are rewritten (VACUUM FULL, which cannot run inside a
migration's transaction); new pages get the room at once.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0007"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

DAILY = ["agg_deck_results", "agg_matchups", "agg_battlefield_decks", "agg_first_player", "agg_card_metrics",
         "agg_battlefield_first_player", "agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups",
         "agg_battlefield_cards"]
TABLES = DAILY + [f"{table}_weekly" for table in DAILY] + ["agg_event_games"]
FILLFACTOR = 50


def upgrade() -> None:
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} SET (fillfactor = {FILLFACTOR})")


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} RESET (fillfactor)")
