"""Which game a row is of: events.game, games.game, game_records.game; each seat's place: game_seats
(issue 27).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-20

Why: the service stores more than one game of the Empyrean family (engine.games: each game's
description, its key and its rules). Every stored thing says which game it is of, and the outcome of
a finished game is kept in terms every game has — a rank, a score, won, a team — beside what a seat
played as (its faction: BfE's deck, a species, a hero, a company).

- ``events.game``, ``games.game``, ``game_records.game`` (text, NOT NULL, default the default game,
  checked against ``engine.games.KEY_PATTERN``): an event is of one game, and an upload of another
  game is refused (services.games.store); a game's is its log's ``game`` (a log without it is Battle
  for Empyrean, ``engine.games.DEFAULT_GAME``: every row stored before this revision is one, so the
  default is right for all of them and ADD COLUMN with a constant default rewrites no table).
  Written once, when the row is made (services.games.store, services.games.events,
  services.games.records); an event's game never changes (its games were checked against it).
- ``game_seats`` (per game and seat, beside game_players, under game_records: replaced with the rest
  of a game's record when it is replayed again): player name, faction, rank (1 is best; tied seats
  share one), score (the game's own: BfE's battlefields held at the end), won, team (null: no
  teams). Written by services.games.records from ``ReplayResult.outcome`` and the game's rules'
  ``factions``. Filled in here for the records already stored, from what they hold: Battle for
  Empyrean's rules (engine.bfe.rules) rank the winner 1 and every other seat 2 (a draw: every seat
  1), and score a seat by the battlefields it held at the end (``game_players.battlefields_won``);
  the faction is the deck.
- Indexes: ``games_game_idx (game, id)`` (``GET /api/v1/games?game=``: a game's games newest first, a
  page at a time, as games_event_idx does for an event), ``events_game_idx (game, id)`` (``GET
  /api/v1/events?game=``), and the export's index by day (revision 0016) becomes ``(game, played_on)``
  (an export is of one game: its columns are that game's).

No content hash changes: a Battle for Empyrean log is written without ``game`` (engine.log), so its
canonical form is what it was. Downgrade drops the columns, the table and the indexes, and restores
revision 0016's index.
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = "0018"
down_revision: Union[str, Sequence[str], None] = "0017"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TABLES_WITH_A_GAME = ("events", "games", "game_records")

# What Battle for Empyrean's rules (engine.bfe.rules.BfeRules.outcome and factions) make of a stored
# record, from its game_players and game_records rows.
_FILL_SEATS = """
INSERT INTO game_seats (game_id, seat, player_name, faction, rank, score, won, team)
SELECT p.game_id, p.seat, p.player_name, p.deck,
       CASE WHEN r.winner IS NULL OR r.winner = p.seat THEN 1 ELSE 2 END, p.battlefields_won, p.won, NULL
FROM game_players p JOIN game_records r ON r.game_id = p.game_id
ORDER BY p.game_id, p.seat
"""


def upgrade() -> None:
    # imported here, not when Alembic loads this file: see revision 0010. The key's pattern and the
    # default game are the engine's (engine.games), declared once there.
    from engine.games import DEFAULT_GAME, KEY_PATTERN

    for table in TABLES_WITH_A_GAME:
        op.execute(f"""
ALTER TABLE {table} ADD COLUMN game text NOT NULL DEFAULT '{DEFAULT_GAME}'
    CONSTRAINT {table}_game_check CHECK (game ~ '{KEY_PATTERN}');
COMMENT ON COLUMN {table}.game IS 'the key of the game (engine.games) it is of';
""")
    op.execute("""
CREATE TABLE game_seats (
    game_id      bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat         smallint NOT NULL CHECK (seat >= 1),
    player_name  text,               -- meta.players, when given
    faction      text NOT NULL,      -- what the seat played as (BfE: its deck)
    rank         smallint NOT NULL CHECK (rank >= 1),   -- 1 is best; tied seats share one
    score        integer,            -- in the game's own terms (BfE: battlefields held); null: none
    won          boolean NOT NULL,
    team         smallint,           -- null: the game has no teams
    PRIMARY KEY (game_id, seat)
);
COMMENT ON TABLE game_seats IS 'Per game and seat: how each seat finished, in terms every game has';
CREATE INDEX games_game_idx ON games (game, id);
CREATE INDEX events_game_idx ON events (game, id);
DROP INDEX game_records_counted_played_on_idx;
CREATE INDEX game_records_counted_game_played_on_idx ON game_records (game, played_on) WHERE counted OR pending;
""")
    op.execute(_FILL_SEATS)


def downgrade() -> None:
    op.execute("""
DROP INDEX game_records_counted_game_played_on_idx;
CREATE INDEX game_records_counted_played_on_idx ON game_records (played_on) WHERE counted OR pending;
DROP INDEX events_game_idx;
DROP INDEX games_game_idx;
DROP TABLE game_seats;
""")
    for table in TABLES_WITH_A_GAME:
        op.execute(f"ALTER TABLE {table} DROP COLUMN game")
