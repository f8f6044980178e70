"""Records of every game: game_records holds what every game has, Battle for Empyrean's columns only
for its games; agg_faction_results, every game's results by faction (issue 27).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-21

Why: a game of another kind (the test game today, Titans and the others later) is replayed, recorded
and counted like a Battle for Empyrean game, but it has no battlefields, no first player token and
no margin of might, and may seat more than three players.

- ``game_records.battlefields``, ``first_player`` and ``margin`` are Battle for Empyrean's: null for
  another game's record, and set (with 2 or 3 players) for every Battle for Empyrean record, as
  before (``game_records_bfe_columns``). ``players``, ``winner`` and ``conceded_by`` take any seat
  from 1 (a game's own rules bound its player count; the log format checks it).
- ``agg_faction_results``: per day × event × table size (the common key of every aggregate,
  services.stats.aggregates) × game × faction (what a seat played as: BfE's deck), the games, wins
  and games without one winner, from ``game_seats``; every game's first statistic
  (``GET /api/v1/stats/<game>/factions``). Filled here from the counted games' seats, as the fold
  would have counted them. No weekly roll-up: its reads sum the daily rows.

Downgrade needs every record to be Battle for Empyrean's again (it drops nothing else).
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = "0019"
down_revision: Union[str, Sequence[str], None] = "0018"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # imported here, not when Alembic loads this file: see revision 0010. The key of the game whose
    # columns these are is its description's (engine.bfe.rules), declared once there.
    from engine.bfe.rules import GAME_INFO

    op.execute(f"""
ALTER TABLE game_records
    ALTER COLUMN battlefields DROP NOT NULL,
    ALTER COLUMN first_player DROP NOT NULL,
    ALTER COLUMN margin DROP NOT NULL,
    DROP CONSTRAINT game_records_players_check,
    ADD CONSTRAINT game_records_players_check CHECK (players >= 1),
    DROP CONSTRAINT game_records_first_player_check,
    ADD CONSTRAINT game_records_first_player_check CHECK (first_player BETWEEN 1 AND players),
    DROP CONSTRAINT game_records_winner_check,
    ADD CONSTRAINT game_records_winner_check CHECK (winner BETWEEN 1 AND players),
    ADD CONSTRAINT game_records_bfe_columns CHECK (game <> '{GAME_INFO.key}' OR (
        players IN (2, 3) AND battlefields IS NOT NULL AND first_player IS NOT NULL AND margin IS NOT NULL));
COMMENT ON COLUMN game_records.battlefields IS 'Battle for Empyrean: the battlefields, B1 first (null: another game)';

CREATE TABLE agg_faction_results (
    played_on  date NOT NULL,
    event_id   bigint,
    players    smallint NOT NULL,
    game       text NOT NULL,
    faction    text NOT NULL,
    games      integer NOT NULL DEFAULT 0,
    wins       integer NOT NULL DEFAULT 0,
    draws      integer NOT NULL DEFAULT 0,   -- games without one winner
    CONSTRAINT agg_faction_results_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, game, faction)
) WITH (fillfactor = 50);  -- room for the fold's upserts to update rows in place, as every agg_* (revision 0007)
COMMENT ON TABLE agg_faction_results IS 'Every game''s results by faction, by day and event';
CREATE INDEX agg_faction_results_game_idx ON agg_faction_results (game, played_on);

INSERT INTO agg_faction_results (played_on, event_id, players, game, faction, games, wins, draws)
SELECT r.played_on, r.event_id, r.players, r.game, s.faction, count(*), count(*) FILTER (WHERE s.won),
       count(*) FILTER (WHERE r.winner IS NULL)
FROM game_records r JOIN game_seats s ON s.game_id = r.game_id
WHERE r.counted
GROUP BY r.played_on, r.event_id, r.players, r.game, s.faction;
""")


def downgrade() -> None:
    op.execute("""
DROP TABLE agg_faction_results;
ALTER TABLE game_records
    DROP CONSTRAINT game_records_bfe_columns,
    DROP CONSTRAINT game_records_winner_check,
    ADD CONSTRAINT game_records_winner_check CHECK (winner BETWEEN 1 AND 3),
    DROP CONSTRAINT game_records_first_player_check,
    ADD CONSTRAINT game_records_first_player_check CHECK (first_player BETWEEN 1 AND 3),
    DROP CONSTRAINT game_records_players_check,
    ADD CONSTRAINT game_records_players_check CHECK (players IN (2, 3)),
    ALTER COLUMN margin SET NOT NULL,
    ALTER COLUMN first_player SET NOT NULL,
    ALTER COLUMN battlefields SET NOT NULL;
COMMENT ON COLUMN game_records.battlefields IS NULL;
""")
