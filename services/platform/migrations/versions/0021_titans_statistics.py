"""Titans of Empyrean's own statistics (issue 28): its record tables and aggregate tables, and a
game's own ways of ending in game_records.end_reason.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29

- ``game_records.end_reason``: Battle for Empyrean's games keep 'score', 'concession' or 'time'; a
  game of another kind stores its own end (engine.games.Outcome.how: Titans' 'eliminated', 'fled',
  'last titan', 'round limit', 'concession', 'time'), which the old check refused.
- Titans' record tables (under game_records, replaced with the rest of a game's record when it is
  replayed again; written by services.games.records from engine.titans.record.Record):
  ``titans_games`` (rounds played, the seat whose titan acted first in round 1, the seat that alone
  held the game's highest initiative), ``titans_seats`` (per seat: the ally species of a mixed
  squad, null for a squad of one species; species and result are game_seats'),
  ``titans_squad_titans`` (per titan: its species, survived, damage dealt and taken, whether its
  initiative was the game's highest) and ``titans_maneuvers_played`` (per seat and maneuver: how
  many times it was played).
- Titans' aggregates (declared once in services.stats.aggregates, ``game = 'titans'``; no weekly
  roll-ups: the reads sum the daily rows, as agg_faction_results'): ``agg_titans_matchups`` (species
  × opponent species), ``agg_titans_titans`` (species × titan: picks, wins, survivals, damage),
  ``agg_titans_maneuvers`` (species × maneuver: the seat-games it was played in, their wins, plays),
  ``agg_titans_endings`` (end × rounds), ``agg_titans_initiative`` (games, those one side alone
  held the highest initiative and its wins, wins of the side that acted first) and
  ``agg_titans_squads`` (species × ally: mixed squads and pure ones). Every row is one day × event ×
  table size × its key, as every agg_*.

Titans games counted before this revision have no rows here (their records were not kept):
``empyrean reprocess`` replays them into these tables. Downgrade drops the tables; it needs every
record's end_reason to be one of the three again.
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

from services.platform.migrations.aggregate_tables import aggregate_ddl

revision: str = "0021"
down_revision: Union[str, Sequence[str], None] = "0020"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# (table, its key columns after the common key, its value columns): every value an integer sum.
_AGGREGATES = [
    ("agg_titans_matchups", "species text NOT NULL, opponent_species text NOT NULL", ("games", "wins", "draws")),
    ("agg_titans_titans", "species text NOT NULL, titan text NOT NULL",
     ("picks", "wins", "survived", "damage_dealt_sum", "damage_taken_sum")),
    ("agg_titans_maneuvers", "species text NOT NULL, maneuver text NOT NULL",
     ("played_games", "played_wins", "plays")),
    ("agg_titans_endings", "end_reason text NOT NULL, rounds smallint NOT NULL", ("games", "draws")),
    ("agg_titans_initiative", "", ("games", "top_alone_games", "top_alone_wins", "first_to_act_wins", "draws")),
    ("agg_titans_squads", "species text NOT NULL, ally text", ("games", "wins", "draws")),
]


def upgrade() -> None:
    # imported here, not when Alembic loads this file: see revision 0010
    from engine.bfe.rules import GAME_INFO

    op.execute(f"""
ALTER TABLE game_records
    DROP CONSTRAINT game_records_end_reason_check,
    ADD CONSTRAINT game_records_end_reason_check
        CHECK (end_reason <> '' AND (game <> '{GAME_INFO.key}' OR end_reason IN ('score', 'concession', 'time')));

CREATE TABLE titans_games (
    game_id             bigint PRIMARY KEY REFERENCES game_records (game_id) ON DELETE CASCADE,
    rounds              smallint NOT NULL CHECK (rounds >= 0),
    first_to_act        smallint CHECK (first_to_act IN (1, 2)),         -- null: ended before round 1
    top_initiative_seat smallint CHECK (top_initiative_seat IN (1, 2))   -- null: both sides held it
);
COMMENT ON TABLE titans_games IS 'Titans of Empyrean: per game, its length and who led the initiative';
CREATE TABLE titans_seats (
    game_id bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat    smallint NOT NULL CHECK (seat IN (1, 2)),
    ally    text,  -- the ally species of a mixed squad; null: one species
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE titans_squad_titans (
    game_id        bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat           smallint NOT NULL CHECK (seat IN (1, 2)),
    titan          text NOT NULL,
    species        text NOT NULL,
    survived       boolean NOT NULL,
    damage_dealt   integer NOT NULL CHECK (damage_dealt >= 0),
    damage_taken   integer NOT NULL CHECK (damage_taken >= 0),
    top_initiative boolean NOT NULL,
    PRIMARY KEY (game_id, seat, titan)
);
CREATE TABLE titans_maneuvers_played (
    game_id  bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat     smallint NOT NULL CHECK (seat IN (1, 2)),
    maneuver text NOT NULL,
    plays    integer NOT NULL CHECK (plays >= 1),
    PRIMARY KEY (game_id, seat, maneuver)
);
""" + "".join(aggregate_ddl(*a) for a in _AGGREGATES))


def downgrade() -> None:
    op.execute("DROP TABLE " + ", ".join(a[0] for a in _AGGREGATES) + ";" + """
DROP TABLE titans_maneuvers_played, titans_squad_titans, titans_seats, titans_games;
ALTER TABLE game_records
    DROP CONSTRAINT game_records_end_reason_check,
    ADD CONSTRAINT game_records_end_reason_check CHECK (end_reason IN ('score', 'concession', 'time'));
""")
