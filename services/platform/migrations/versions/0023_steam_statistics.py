"""Empyreal: Spells & Steam's own statistics (issue 30): its record tables and aggregate tables.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-08

- Spells & Steam's record tables (under game_records, replaced with the rest of a game's record when it
  is replayed again; written by services.games.records from engine.steam.record.Record). A seat's
  company, rank (in a team game its team's), victory points (its own: goods, demand tiles and awards),
  won and team are its game_seats row; these add the rest:
  ``steam_games`` (rounds played, the start player's seat, what ended the game, the variants played,
  the teams' shape: "2v2", "2v2v2", "3v3", null without teams),
  ``steam_seats`` (per seat: its captain, its turn-order position counted from the start player, 1 for
  the start player; its victory points from goods, from demand tiles and from awards),
  ``steam_teams`` (per team of a team game: its size, score with the colour bonus, rank, won, whether
  the start player was on it, its colour-bonus points),
  ``steam_specialists`` (per seat and specialist: how many times it was hired),
  ``steam_spellcars`` (per seat and spellcar: how many times it was taken and activated) and
  ``steam_awards`` (per seat and award in play: the points the seat took from it, and its place on
  that award, 1 for the most, null when it took none).
- Spells & Steam's aggregates (declared once in services.stats.aggregates, ``game = 'steam'``; no weekly
  roll-ups): ``agg_steam_results`` (company × captain × rank: seat-games, wins, and the sums and sums of
  squares of the score and of each of its parts, for their means' intervals), ``agg_steam_positions``
  (seat × turn-order position: seat-games, wins, rank sum), ``agg_steam_endings`` (end trigger ×
  rounds: games), ``agg_steam_specialists`` (specialist: the seat-games it was hired in, their wins,
  hires), ``agg_steam_spellcars`` (spellcar: the seat-games it was taken in and their wins, taken;
  the seat-games it was activated in and their wins, activations), ``agg_steam_awards`` (award ×
  company: the seat-games it was in play in, their wins, those that took points from it, those first
  on it, points) and ``agg_steam_teams`` (team shape × team size × started × rank: team-games, wins,
  score, colour bonus). Every row is one day × event × table size × its key, as every agg_*.

Steam games counted before this revision have no rows here: ``empyrean reprocess`` replays them into
these tables. Downgrade drops the tables.
"""

from __future__ import annotations

from typing import Sequence, Union

from alembic import op

from services.platform.migrations.aggregate_tables import aggregate_ddl

revision: str = "0023"
down_revision: Union[str, Sequence[str], None] = "0022"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

PARTS = ("score", "goods", "demand", "awards")  # a seat's victory points and their three parts
_SQUARES = tuple(f"{p}_squares" for p in PARTS)

# (table, its key columns after the common key, its value columns, those that are bigint)
_AGGREGATES = [
    ("agg_steam_results", "company text NOT NULL, captain text NOT NULL, rank smallint NOT NULL",
     ("games", "wins", *(f"{p}_sum" for p in PARTS), *_SQUARES), _SQUARES),
    ("agg_steam_positions", "seat smallint NOT NULL, position smallint", ("games", "wins", "rank_sum"), ()),
    ("agg_steam_endings", "end_trigger text NOT NULL, rounds smallint NOT NULL", ("games",), ()),
    ("agg_steam_specialists", "specialist text NOT NULL", ("hired_games", "hired_wins", "hires"), ()),
    ("agg_steam_spellcars", "spellcar text NOT NULL",
     ("taken_games", "taken_wins", "taken", "activated_games", "activated_wins", "activations"), ()),
    ("agg_steam_awards", "award text NOT NULL, company text NOT NULL",
     ("games", "wins", "scored", "firsts", "points"), ()),
    ("agg_steam_teams", "team_shape text NOT NULL, size smallint NOT NULL, started boolean NOT NULL, "
                        "rank smallint NOT NULL", ("teams", "wins", "score_sum", "bonus_sum"), ()),
]
_SEAT = "seat smallint NOT NULL CHECK (seat BETWEEN 1 AND 6)"


def upgrade() -> None:
    op.execute(f"""
CREATE TABLE steam_games (
    game_id     bigint PRIMARY KEY REFERENCES game_records (game_id) ON DELETE CASCADE,
    rounds      smallint NOT NULL CHECK (rounds >= 0),
    start_seat  smallint CHECK (start_seat BETWEEN 1 AND 6),  -- null: ended before a start player
    end_trigger text NOT NULL CHECK (end_trigger <> ''),      -- demand, trains, concession, time …
    variants    text[] NOT NULL,
    team_shape  text                                          -- "2v2", "2v2v2", "3v3"; null: no teams
);
COMMENT ON TABLE steam_games IS 'Spells & Steam: per game, its length, start player, end, variants and teams';
CREATE TABLE steam_seats (
    game_id  bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    {_SEAT},
    captain  text NOT NULL,
    position smallint CHECK (position BETWEEN 1 AND 6),  -- turn order, 1 the start player; null: none
    goods    integer NOT NULL CHECK (goods >= 0),
    demand   integer NOT NULL CHECK (demand >= 0),
    awards   integer NOT NULL CHECK (awards >= 0),
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE steam_teams (
    game_id      bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    team         smallint NOT NULL CHECK (team BETWEEN 1 AND 6),
    size         smallint NOT NULL CHECK (size >= 1),
    score        integer NOT NULL,
    rank         smallint NOT NULL CHECK (rank >= 1),
    won          boolean NOT NULL,
    started      boolean NOT NULL,  -- the start player was on it
    colour_bonus integer NOT NULL CHECK (colour_bonus >= 0),
    PRIMARY KEY (game_id, team)
);
CREATE TABLE steam_specialists (
    game_id    bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    {_SEAT},
    specialist text NOT NULL,
    hires      integer NOT NULL CHECK (hires >= 1),
    PRIMARY KEY (game_id, seat, specialist)
);
CREATE TABLE steam_spellcars (
    game_id     bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    {_SEAT},
    spellcar    text NOT NULL,
    taken       integer NOT NULL CHECK (taken >= 0),
    activations integer NOT NULL CHECK (activations >= 0),
    CHECK (taken + activations > 0),
    PRIMARY KEY (game_id, seat, spellcar)
);
CREATE TABLE steam_awards (
    game_id bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    {_SEAT},
    award   text NOT NULL,
    points  integer NOT NULL CHECK (points >= 0),
    place   smallint CHECK (place >= 1),  -- on this award, 1 the most points; null: took none
    CHECK ((points = 0) = (place IS NULL)),
    PRIMARY KEY (game_id, seat, award)
);
""" + "".join(aggregate_ddl(*a) for a in _AGGREGATES))


def downgrade() -> None:
    op.execute("DROP TABLE " + ", ".join(a[0] for a in _AGGREGATES) + ";"
               + "\nDROP TABLE steam_awards, steam_spellcars, steam_specialists, steam_teams, steam_seats, "
                 "steam_games;")
