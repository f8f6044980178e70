"""Elysian Battlefields' own statistics (issue 29): its record tables and aggregate tables.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06

- Elysian's record tables (under game_records, replaced with the rest of a game's record when it is
  replayed again; written by services.games.records from engine.elysian.record.Record). A seat's
  hero, rank, conquest points (its score) and won are its game_seats row; these add the rest:
  ``elysian_games`` (rounds played, the seat that took the first turn, attacks made),
  ``elysian_seats`` (per seat: its turn-order position, 1 for the first player, null when the game
  ended before the first turn; its place in the order out, 1 for the first player out, null when
  not out; the faces of the attack dice rolled for it, 1 to 6, its full sets of three, those that
  were all blocks — repelled — and all sixes — ravaged) and ``elysian_cards_played`` (per seat and
  card: how many times it was played).
- Elysian's aggregates (declared once in services.stats.aggregates, ``game = 'elysian'``; no weekly
  roll-ups): ``agg_elysian_heroes`` (hero: seat-games, wins, rank and conquest sums, eliminations),
  ``agg_elysian_endings`` (end × rounds × the winner's hero: games), ``agg_elysian_positions``
  (turn-order position × place in the order out: seat-games, wins, rank sum), ``agg_elysian_cards``
  (card: the seat-games it was played in, their wins, plays) and ``agg_elysian_dice`` (player name:
  seat-games, dice, each face, sets, repelled and ravaged sets — the dice audit). Every row is one
  day × event × table size × its key, as every agg_*.

Elysian games counted before this revision have no rows here: ``empyrean reprocess`` replays them
into these tables. Downgrade drops the tables.
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

from services.platform.migrations.aggregate_tables import aggregate_ddl

revision: str = "0022"
down_revision: Union[str, Sequence[str], None] = "0021"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_FACES = tuple(f"face_{f}" for f in range(1, 7))
_DICE = (*_FACES, "sets", "repelled", "ravaged")

# (table, its key columns after the common key, its value columns): every value an integer sum.
_AGGREGATES = [
    ("agg_elysian_heroes", "hero text NOT NULL", ("games", "wins", "rank_sum", "conquest_sum", "eliminated")),
    ("agg_elysian_endings", "end_reason text NOT NULL, rounds smallint NOT NULL, winner_hero text", ("games",)),
    ("agg_elysian_positions", "position smallint, out_order smallint", ("games", "wins", "rank_sum")),
    ("agg_elysian_cards", "card text NOT NULL", ("played_games", "played_wins", "plays")),
    ("agg_elysian_dice", "player_name text", ("games", "dice", *_DICE)),
]


def upgrade() -> None:
    dice = "".join(f"    {c} integer NOT NULL CHECK ({c} >= 0),\n" for c in _DICE)
    op.execute(f"""
CREATE TABLE elysian_games (
    game_id    bigint PRIMARY KEY REFERENCES game_records (game_id) ON DELETE CASCADE,
    rounds     smallint NOT NULL CHECK (rounds >= 0),
    first_seat smallint CHECK (first_seat BETWEEN 1 AND 5),  -- null: ended before the first turn
    attacks    integer NOT NULL CHECK (attacks >= 0)
);
COMMENT ON TABLE elysian_games IS 'Elysian Battlefields: per game, its length, first player and attacks';
CREATE TABLE elysian_seats (
    game_id   bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat      smallint NOT NULL CHECK (seat BETWEEN 1 AND 5),
    position  smallint CHECK (position BETWEEN 1 AND 5),   -- turn order; null: no turn was taken
    out_order smallint CHECK (out_order BETWEEN 1 AND 5),  -- 1: the first out; null: not out
{dice}    CHECK (sets >= repelled + ravaged),
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE elysian_cards_played (
    game_id bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat    smallint NOT NULL CHECK (seat BETWEEN 1 AND 5),
    card    text NOT NULL,
    plays   integer NOT NULL CHECK (plays >= 1),
    PRIMARY KEY (game_id, seat, card)
);
""" + "".join(aggregate_ddl(*a) for a in _AGGREGATES))


def downgrade() -> None:
    op.execute("DROP TABLE " + ", ".join(a[0] for a in _AGGREGATES) + ";"
               + "\nDROP TABLE elysian_cards_played, elysian_seats, elysian_games;")
