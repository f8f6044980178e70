"""How a game ended, and the cards nobody saw: game_records.end_reason/conceded_by, game_players.unseen,
verdicts.unseen.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25

Why (logs as people write them at a table): the engine now reads games that end early — a
concession (``P2 concede``) or time being called — and logs written from one seat, where some cards
are never seen ('?'). engine.bfe.record.GameRecord says how the game ended (``end``, ``conceded_by``)
and how many of each player's cards left the deck unseen and stayed so (``unseen``); the verdict
carries the same per-player counts.

- ``game_records.end_reason`` ('score' | 'concession' | 'time') decides what a game may count in:
  results and win rates count every valid game however it ended, but the figures about the shape of
  a played-out game — the final margin (agg_game_margins) and might by round (agg_deck_rounds) — only
  games that reached the rule-book tally ('score'; services.games.records.AGGREGATE_SQL). The key is
  read from game_records, so a game's contribution is taken out exactly as it was put in.
  ``conceded_by`` is the seat that conceded, and set exactly when the game ended by concession.
- The unseen counts go on ``game_players.unseen`` (one per seat) rather than an array on
  game_records: the count belongs to a seat like its deck and final might, game_players already has
  one row per seat, and a per-seat column cannot disagree with the number of players (an array could
  have the wrong length) and can be read by deck without unnesting.
- ``verdicts.unseen`` (per player, P1 first) keeps the verdict's counts for every replayed game, also
  illegal ones that have no record; empty when there is nothing to count (a malformed log, an engine
  error, a verdict written before this revision).

The defaults are right for every row already stored: the engine before this change read no
concessions, no time and no '?' cards, and every record written before this revision was counted in
the margins and might by round, which is what 'score' means to the aggregates (so taking one out
later cancels what was put in). With a constant default, ADD COLUMN changes only the catalog (no
table rewrite). A game replayed after the upgrade gets its real ending.

Downgrade: the code before this revision counts every game in the margins and might by round, and
takes a replayed game out of them too; so the counted games that ended early are first added there
(as that code would have counted them), then the columns go. Upgrading again reads those records as
'score', which is how they are then counted: the aggregates stay exact either way.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("""
ALTER TABLE game_records
    ADD COLUMN end_reason text NOT NULL DEFAULT 'score'
        CONSTRAINT game_records_end_reason_check CHECK (end_reason IN ('score', 'concession', 'time')),
    ADD COLUMN conceded_by smallint,
    ADD CONSTRAINT game_records_conceded_by_check
        CHECK ((end_reason = 'concession') = (conceded_by IS NOT NULL) AND conceded_by BETWEEN 1 AND players);
COMMENT ON COLUMN game_records.end_reason IS
    'how the game ended: score (the tally), concession or time; margins and might by round count only score';
COMMENT ON COLUMN game_records.conceded_by IS 'the seat that conceded (end_reason concession), else null';

ALTER TABLE game_players
    ADD COLUMN unseen smallint NOT NULL DEFAULT 0 CONSTRAINT game_players_unseen_check CHECK (unseen >= 0);
COMMENT ON COLUMN game_players.unseen IS 'cards of this seat that left its deck unseen and were never seen again';

ALTER TABLE verdicts ADD COLUMN unseen integer[] NOT NULL DEFAULT '{}';
COMMENT ON COLUMN verdicts.unseen IS
    'per player (P1 first): cards that left the deck unseen and stayed so; empty: nothing counted';
""")


# What the code before this revision counts for a game that agg_game_margins and agg_deck_rounds now
# leave out (the statements of services.games.records as they were at revision 0008).
_EARLY = "r.counted AND r.end_reason <> 'score'"
_COUNT_EARLY_GAMES = f"""
INSERT INTO agg_game_margins AS a (played_on, event_id, players, battlefield, margin, games)
    SELECT r.played_on, r.event_id, r.players, bf, r.margin, count(*)
    FROM game_records r, unnest(ARRAY['*'] || r.battlefields) AS bf
    WHERE {_EARLY}
    GROUP BY r.played_on, r.event_id, r.players, bf, r.margin
    ORDER BY r.played_on, r.event_id, r.players, bf, r.margin
    ON CONFLICT ON CONSTRAINT agg_game_margins_key DO UPDATE SET games = a.games + EXCLUDED.games;
INSERT INTO agg_deck_rounds AS a (played_on, event_id, players, deck, round, games, might_sum,
                                  won_games, won_might_sum, essence_spent_sum)
    SELECT r.played_on, r.event_id, r.players, p.deck, g.round, count(*), sum(g.total),
           count(*) FILTER (WHERE p.won), coalesce(sum(g.total) FILTER (WHERE p.won), 0), sum(g.essence_spent)
    FROM game_records r
    JOIN game_players p ON p.game_id = r.game_id
    JOIN (SELECT game_id, seat, round, essence_spent, (SELECT sum(m) FROM unnest(might) AS m) AS total
          FROM game_player_rounds) g ON g.game_id = p.game_id AND g.seat = p.seat
    WHERE {_EARLY}
    GROUP BY r.played_on, r.event_id, r.players, p.deck, g.round
    ORDER BY r.played_on, r.event_id, r.players, p.deck, g.round
    ON CONFLICT ON CONSTRAINT agg_deck_rounds_key DO UPDATE SET
        games = a.games + EXCLUDED.games, might_sum = a.might_sum + EXCLUDED.might_sum,
        won_games = a.won_games + EXCLUDED.won_games, won_might_sum = a.won_might_sum + EXCLUDED.won_might_sum,
        essence_spent_sum = a.essence_spent_sum + EXCLUDED.essence_spent_sum;
"""


def downgrade() -> None:
    # The code before this revision takes a replayed game's contribution out of every aggregate,
    # margins and might by round included. So counted games that ended early get those two
    # contributions added first: the aggregates become what that code would have written, and its
    # -1 cancels them exactly (docs/services.md: a replay never counts a game twice or too little).
    op.execute(_COUNT_EARLY_GAMES)
    op.execute("""
ALTER TABLE verdicts DROP COLUMN unseen;
ALTER TABLE game_players DROP COLUMN unseen;
ALTER TABLE game_records DROP CONSTRAINT game_records_conceded_by_check, DROP COLUMN conceded_by,
    DROP COLUMN end_reason;
""")
