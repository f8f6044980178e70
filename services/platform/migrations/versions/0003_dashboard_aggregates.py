"""Dashboard aggregates: might margins, might per round, battlefield-filtered matchups and cards,
and game counts per event and status.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

Conventions as in 0001 (docs/services.md, "Schema"): plain counts and sums keyed by (day, event,
table size, ...) with UNIQUE NULLS NOT DISTINCT, added per game by the replay worker with a sign
(services.games.records.AGGREGATE_SQL) and recountable from the game_* rows.

Why these tables (the dashboards read only aggregates):
- agg_game_margins: the distribution of final might margins. It carries a ``battlefield`` key
  where '*' means every game and a battlefield's name means the games with it in play, so the
  dashboards' battlefield filter applies to it with one equality.
- agg_deck_rounds: each deck's might (summed over the battlefields) at the end of each round.
- agg_battlefield_matchups and agg_battlefield_cards: agg_matchups and agg_card_metrics again, per
  battlefield in play, for the battlefield filter (the deck, trend and first-player statistics
  already have agg_battlefield_decks and agg_battlefield_first_player).
- agg_event_games: games per event and pipeline status, kept by statement-level triggers on games
  (transition tables: one upsert per statement, so a bulk insert of 10,000 games costs one row
  update per event and status, not 10,000). The events page and GET /api/v1/events read it instead
  of counting games rows.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0003"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TABLES = """
CREATE TABLE agg_game_margins (
    played_on    date NOT NULL,
    event_id     bigint,
    players      smallint NOT NULL,
    battlefield  text NOT NULL,              -- '*': every game; else games with it in play
    margin       integer NOT NULL,           -- winner's total might minus the best other; 0 = draw
    games        integer NOT NULL DEFAULT 0,
    CONSTRAINT agg_game_margins_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, battlefield, margin)
);
COMMENT ON TABLE agg_game_margins IS 'How close games are: final might margins';

CREATE TABLE agg_deck_rounds (
    played_on        date NOT NULL,
    event_id         bigint,
    players          smallint NOT NULL,
    deck             text NOT NULL,
    round            smallint NOT NULL,
    games            integer NOT NULL DEFAULT 0,  -- seat-games that reached the end of this round
    might_sum        bigint NOT NULL DEFAULT 0,   -- the deck's might over all battlefields, summed
    won_games        integer NOT NULL DEFAULT 0,  -- ... of which the deck won the game
    won_might_sum    bigint NOT NULL DEFAULT 0,
    essence_spent_sum bigint NOT NULL DEFAULT 0,
    CONSTRAINT agg_deck_rounds_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, deck, round)
);
COMMENT ON TABLE agg_deck_rounds IS 'Might per round by deck (the game''s shape)';

CREATE TABLE agg_battlefield_matchups (
    played_on      date NOT NULL,
    event_id       bigint,
    players        smallint NOT NULL,
    battlefield    text NOT NULL,
    deck           text NOT NULL,
    opponent_deck  text NOT NULL,
    games          integer NOT NULL DEFAULT 0,
    wins           integer NOT NULL DEFAULT 0,
    draws          integer NOT NULL DEFAULT 0,
    CONSTRAINT agg_battlefield_matchups_key
        UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, battlefield, deck, opponent_deck)
);
COMMENT ON TABLE agg_battlefield_matchups IS 'agg_matchups per battlefield in play';

CREATE TABLE agg_battlefield_cards (
    played_on                  date NOT NULL,
    event_id                   bigint,
    players                    smallint NOT NULL,
    battlefield                text NOT NULL,
    deck                       text NOT NULL,
    card                       text NOT NULL,
    deployed_games             integer NOT NULL DEFAULT 0,
    deployed_wins              integer NOT NULL DEFAULT 0,
    deploys                    integer NOT NULL DEFAULT 0,
    first_deployed_round_sum   integer NOT NULL DEFAULT 0,
    destroyed                  integer NOT NULL DEFAULT 0,
    might_gained_sum           bigint NOT NULL DEFAULT 0,
    might_at_end_sum           bigint NOT NULL DEFAULT 0,
    CONSTRAINT agg_battlefield_cards_key
        UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, battlefield, deck, card)
);
COMMENT ON TABLE agg_battlefield_cards IS 'agg_card_metrics per battlefield in play';
"""

# Every aggregate the battlefield filter reads: an index led by the battlefield (the key leads with
# the day, the 0002 indexes with the event).
BATTLEFIELD_INDEXES = "\n".join(
    f"CREATE INDEX {table}_battlefield_idx ON {table} (battlefield, players, played_on);"
    for table in ("agg_battlefield_decks", "agg_battlefield_first_player", "agg_game_margins",
                  "agg_battlefield_matchups", "agg_battlefield_cards"))
EVENT_INDEXES = "\n".join(
    f"CREATE INDEX {table}_event_idx ON {table} (event_id, players, played_on);"
    for table in ("agg_game_margins", "agg_deck_rounds", "agg_battlefield_matchups", "agg_battlefield_cards"))

EVENT_GAMES = """
CREATE TABLE agg_event_games (
    event_id  bigint,                       -- null: games uploaded without an event
    status    text NOT NULL,
    games     integer NOT NULL DEFAULT 0,
    CONSTRAINT agg_event_games_key UNIQUE NULLS NOT DISTINCT (event_id, status)
);
COMMENT ON TABLE agg_event_games IS 'Games per event and pipeline status (kept by triggers on games)';

-- One function for the three statements: the change of each (event, status) count is the rows
-- entering it minus the rows leaving it. Rows are summed per key first (ON CONFLICT may touch a
-- row once per statement) and keys with no net change are skipped. Keys are locked in a fixed
-- order so two concurrent statements cannot deadlock on each other's counters.
CREATE FUNCTION agg_event_games_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO agg_event_games AS a (event_id, status, games)
        SELECT event_id, status, count(*) FROM new_rows GROUP BY event_id, status
        ORDER BY event_id NULLS FIRST, status
        ON CONFLICT ON CONSTRAINT agg_event_games_key DO UPDATE SET games = a.games + EXCLUDED.games;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE agg_event_games a SET games = a.games - d.n
        FROM (SELECT event_id, status, count(*) AS n FROM old_rows GROUP BY event_id, status) d
        WHERE a.event_id IS NOT DISTINCT FROM d.event_id AND a.status = d.status;
    ELSE
        INSERT INTO agg_event_games AS a (event_id, status, games)
        SELECT event_id, status, sum(n) FROM (
            SELECT o.event_id, o.status, -1 AS n FROM old_rows o JOIN new_rows n USING (id)
            WHERE o.status <> n.status OR o.event_id IS DISTINCT FROM n.event_id
            UNION ALL
            SELECT n.event_id, n.status, 1 FROM old_rows o JOIN new_rows n USING (id)
            WHERE o.status <> n.status OR o.event_id IS DISTINCT FROM n.event_id
        ) moved
        GROUP BY event_id, status HAVING sum(n) <> 0
        ORDER BY event_id NULLS FIRST, status
        ON CONFLICT ON CONSTRAINT agg_event_games_key DO UPDATE SET games = a.games + EXCLUDED.games;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_count_insert AFTER INSERT ON games
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agg_event_games_count();
CREATE TRIGGER games_count_update AFTER UPDATE ON games
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION agg_event_games_count();
CREATE TRIGGER games_count_delete AFTER DELETE ON games
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agg_event_games_count();

-- the event page lists the games of an event that need a look (not valid) without reading the rest
CREATE INDEX games_event_flagged_idx ON games (event_id, id)
    WHERE status IN ('illegal', 'mismatch', 'malformed', 'error');

-- the games already stored
INSERT INTO agg_event_games (event_id, status, games)
SELECT event_id, status, count(*) FROM games GROUP BY event_id, status;
"""


def upgrade() -> None:
    op.execute(TABLES)
    op.execute(BATTLEFIELD_INDEXES)
    op.execute(EVENT_INDEXES)
    op.execute(EVENT_GAMES)


def downgrade() -> None:
    op.execute("""
        DROP TRIGGER games_count_insert ON games;
        DROP TRIGGER games_count_update ON games;
        DROP TRIGGER games_count_delete ON games;
        DROP FUNCTION agg_event_games_count();
        DROP TABLE agg_event_games;
        DROP INDEX games_event_flagged_idx;
        DROP INDEX agg_battlefield_decks_battlefield_idx;
        DROP INDEX agg_battlefield_first_player_battlefield_idx;
        DROP TABLE agg_battlefield_cards;
        DROP TABLE agg_battlefield_matchups;
        DROP TABLE agg_deck_rounds;
        DROP TABLE agg_game_margins;
    """)
