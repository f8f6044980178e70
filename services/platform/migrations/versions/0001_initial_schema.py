"""Initial schema: games as uploaded, verdicts, game records, events, disputes, aggregates.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Conventions (docs/services.md, "Schema"):
- States are text with CHECK constraints rather than enum types: adding a state later is one
  ALTER of a constraint, inside a transaction, with no enum-value restrictions.
- Game records are written per game in the worker's transaction. Each agg_* table holds
  plain counts and sums keyed by (day, event, table size, ...): the worker adds one game's
  contribution with INSERT ... ON CONFLICT DO UPDATE (x = x + EXCLUDED.x), and, when a game is
  replayed again, first subtracts the contribution recorded in the old game_* rows (game_records.counted
  says whether there is one). Rates and intervals are computed when read, never stored.
- Aggregate keys use UNIQUE NULLS NOT DISTINCT so "no event" is one key: PostgreSQL 15 or later.
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

REQUIRE_POSTGRES_15 = """
DO $$
BEGIN
    IF current_setting('server_version_num')::int < 150000 THEN
        RAISE EXCEPTION 'Empyrean Replay needs PostgreSQL 15 or later (this server is %)',
            current_setting('server_version');
    END IF;
END
$$;
"""

EVENTS = """
CREATE TABLE events (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    starts_on   date,
    ends_on     date,
    organiser   text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_name_key UNIQUE (name),
    CONSTRAINT events_dates_check CHECK (starts_on IS NULL OR ends_on IS NULL OR ends_on >= starts_on)
);
COMMENT ON TABLE events IS 'Tournaments and other events that games are uploaded under (log meta.event)';

CREATE TABLE event_matches (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id     bigint NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round        integer NOT NULL CHECK (round >= 1),
    table_label  text NOT NULL CHECK (length(table_label) BETWEEN 1 AND 50),
    -- sorted by name, so uploads listing the players in different seat orders are one match
    players      text[] NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT event_matches_key UNIQUE (event_id, round, table_label, players)
);
COMMENT ON TABLE event_matches
    IS 'One match of an event (tournament round, table, players): the unit disputes are about';
"""

GAMES = """
CREATE TABLE games (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- sha256 (hex) of the log's canonical JSON (engine.log.canonical_hash); for a log that cannot be
    -- parsed, of the bytes as received. Unique: the same game uploaded twice is one row.
    content_hash       text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
    -- exactly the bytes received (bytea, not text or jsonb: a malformed upload may not even be
    -- UTF-8, and jsonb would reorder keys and drop the duplicates the engine must report)
    raw_log            bytea NOT NULL,
    uploader           text,
    event_id           bigint REFERENCES events (id) ON DELETE SET NULL,
    match_id           bigint REFERENCES event_matches (id) ON DELETE SET NULL,
    catalog_version    text,            -- as the log pins it; null when the log is malformed
    played_on          date,            -- the log's meta.date, when given
    status             text NOT NULL DEFAULT 'received',
    status_message     text NOT NULL DEFAULT '',
    engine_version     text,            -- the engine that produced the current verdict
    attempts           integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    received_at        timestamptz NOT NULL DEFAULT now(),
    queued_at          timestamptz,
    replay_started_at  timestamptz,
    finished_at        timestamptz,
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT games_content_hash_key UNIQUE (content_hash),
    CONSTRAINT games_status_check CHECK (status IN (
        'received',   -- stored, no task sent yet
        'queued',     -- a replay task was sent
        'replaying',  -- a worker is replaying it
        'valid', 'illegal', 'mismatch', 'malformed',  -- the engine's verdict
        'error'       -- the engine or the pipeline failed on it (a bug of ours; see status_message)
    ))
);
COMMENT ON TABLE games IS 'Each distinct game log received, as received, and where it is in the pipeline';
-- the sweeper's scan: games left behind in a pre-verdict state
CREATE INDEX games_unfinished_idx ON games (updated_at) WHERE status IN ('received', 'queued', 'replaying');
CREATE INDEX games_event_idx ON games (event_id) WHERE event_id IS NOT NULL;
CREATE INDEX games_match_idx ON games (match_id) WHERE match_id IS NOT NULL;

CREATE TABLE verdicts (
    game_id          bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status           text NOT NULL CONSTRAINT verdicts_status_check
                         CHECK (status IN ('valid', 'illegal', 'mismatch', 'malformed', 'error')),
    message          text NOT NULL,
    -- where an illegal game went wrong (engine.replay.Verdict)
    decision_index   integer,
    round            integer,
    phase            text,
    player           smallint,          -- 0 = chance
    decision         text,
    rule             text,
    legal            jsonb NOT NULL DEFAULT '[]',   -- legal alternatives at that point
    errors           jsonb NOT NULL DEFAULT '[]',   -- malformed: [{path, message}]; mismatch: checks
    board            text,
    engine_version   text NOT NULL,
    catalog_version  text,
    replayed_at      timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE verdicts IS 'The engine''s current verdict on each replayed game (replaced on reprocessing)';
"""

RECORDS = """
CREATE TABLE game_records (
    game_id          bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    players          smallint NOT NULL CHECK (players IN (2, 3)),
    battlefields     text[] NOT NULL,   -- B1 first
    first_player     smallint NOT NULL CHECK (first_player BETWEEN 1 AND 3),
    winner           smallint CHECK (winner BETWEEN 1 AND 3),   -- null: a draw
    margin           integer NOT NULL,  -- winner's total might minus the best other total
    decisions        integer NOT NULL,
    -- The aggregate keys this game was counted under, kept here (not read from games) so that
    -- taking the contribution back out uses exactly the keys it was put in with.
    played_on        date NOT NULL,     -- meta.date, else the day the log was received
    event_id         bigint,
    counted          boolean NOT NULL DEFAULT false,  -- its contribution is in the agg_* tables
    engine_version   text NOT NULL,
    catalog_version  text NOT NULL
);
COMMENT ON TABLE game_records IS 'Per game: what statistics need (engine.bfe.record.GameRecord)';

CREATE TABLE game_players (
    game_id           bigint NOT NULL REFERENCES game_records (game_id) ON DELETE CASCADE,
    seat              smallint NOT NULL CHECK (seat BETWEEN 1 AND 3),
    player_name       text,             -- meta.players, when given
    deck              text NOT NULL,
    is_first_player   boolean NOT NULL,
    won               boolean NOT NULL, -- false for every seat on a draw
    final_might       integer NOT NULL, -- total over the battlefields at the end
    battlefields_won  smallint NOT NULL,
    PRIMARY KEY (game_id, seat)
);
COMMENT ON TABLE game_players IS 'Per game and seat';
CREATE INDEX game_players_deck_idx ON game_players (deck);

CREATE TABLE game_player_battlefields (
    game_id          bigint NOT NULL,
    seat             smallint NOT NULL,
    position         smallint NOT NULL CHECK (position BETWEEN 1 AND 4),   -- 1 = B1
    battlefield      text NOT NULL,
    might            integer NOT NULL,  -- at the end of the game
    won              boolean NOT NULL,  -- this seat alone had the most might there
    PRIMARY KEY (game_id, seat, position),
    FOREIGN KEY (game_id, seat) REFERENCES game_players (game_id, seat) ON DELETE CASCADE
);
COMMENT ON TABLE game_player_battlefields IS 'Per game, seat and battlefield';

CREATE TABLE game_player_cards (
    game_id               bigint NOT NULL,
    seat                  smallint NOT NULL,
    card                  text NOT NULL,
    deployed              integer NOT NULL,   -- times deployed (any copy)
    first_deployed_round  smallint,           -- null: never deployed
    revealed              integer NOT NULL,
    moved                 integer NOT NULL,
    destroyed             integer NOT NULL,
    returned              integer NOT NULL,
    might_gained          integer NOT NULL,   -- from abilities and battlefield effects
    might_at_end          integer NOT NULL,   -- its might on the board at the end: what it contributed
    on_board_at_end       smallint NOT NULL,
    PRIMARY KEY (game_id, seat, card),
    FOREIGN KEY (game_id, seat) REFERENCES game_players (game_id, seat) ON DELETE CASCADE
);
COMMENT ON TABLE game_player_cards IS 'Per game, seat and card name (copies of a card are summed)';

CREATE TABLE game_player_rounds (
    game_id            bigint NOT NULL,
    seat               smallint NOT NULL,
    round              smallint NOT NULL CHECK (round BETWEEN 1 AND 10),
    is_first_player    boolean NOT NULL,
    essence_available  integer NOT NULL,
    essence_spent      integer NOT NULL,
    essence_unspent    integer NOT NULL,
    might              integer[] NOT NULL,    -- per battlefield, B1 first, at the end of the round
    PRIMARY KEY (game_id, seat, round),
    FOREIGN KEY (game_id, seat) REFERENCES game_players (game_id, seat) ON DELETE CASCADE
);
COMMENT ON TABLE game_player_rounds IS 'Per game, seat and game round';
"""

DISPUTES = """
CREATE TABLE disputes (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- one dispute per match; its sides are the match's games (games.match_id)
    match_id     bigint NOT NULL REFERENCES event_matches (id) ON DELETE CASCADE,
    status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
    reason       text NOT NULL,     -- what the uploads disagree on, in words
    resolution   text,
    opened_at    timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    resolved_at  timestamptz,
    CONSTRAINT disputes_match_key UNIQUE (match_id),
    CONSTRAINT disputes_resolved_check CHECK ((status = 'resolved') = (resolved_at IS NOT NULL))
);
COMMENT ON TABLE disputes IS 'Uploads of one match that disagree (log, result or verdict)';
CREATE INDEX disputes_open_idx ON disputes (opened_at) WHERE status = 'open';
"""

# Every aggregate is keyed by day, event (null: none) and table size (2 or 3 players), so a
# dashboard filters by date range and event by summing rows.
AGGREGATES = """
CREATE TABLE agg_deck_results (
    played_on           date NOT NULL,
    event_id            bigint,
    players             smallint NOT NULL,
    deck                text NOT NULL,
    games               integer NOT NULL DEFAULT 0,
    wins                integer NOT NULL DEFAULT 0,
    draws               integer NOT NULL DEFAULT 0,
    first_player_games  integer NOT NULL DEFAULT 0,
    first_player_wins   integer NOT NULL DEFAULT 0,
    CONSTRAINT agg_deck_results_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, deck)
);
COMMENT ON TABLE agg_deck_results IS 'Deck results by day and event (win rates, meta share)';

CREATE TABLE agg_matchups (
    played_on      date NOT NULL,
    event_id       bigint,
    players        smallint NOT NULL,
    deck           text NOT NULL,
    opponent_deck  text NOT NULL,
    games          integer NOT NULL DEFAULT 0,   -- games with deck and opponent_deck at one table
    wins           integer NOT NULL DEFAULT 0,   -- ... that deck won
    draws          integer NOT NULL DEFAULT 0,
    CONSTRAINT agg_matchups_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, deck, opponent_deck)
);
COMMENT ON TABLE agg_matchups IS 'Deck against deck (each ordered pair of seats in a game counts once)';

CREATE TABLE agg_battlefield_decks (
    played_on          date NOT NULL,
    event_id           bigint,
    players            smallint NOT NULL,
    battlefield        text NOT NULL,
    deck               text NOT NULL,
    games              integer NOT NULL DEFAULT 0,   -- games of the deck with this battlefield in play
    wins               integer NOT NULL DEFAULT 0,   -- ... won
    draws              integer NOT NULL DEFAULT 0,
    battlefield_wins   integer NOT NULL DEFAULT 0,   -- ... in which the deck won this battlefield
    might_sum          bigint NOT NULL DEFAULT 0,    -- the deck's might on it at the end, summed
    CONSTRAINT agg_battlefield_decks_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, battlefield, deck)
);
COMMENT ON TABLE agg_battlefield_decks IS 'How each battlefield shifts each deck''s results';

CREATE TABLE agg_first_player (
    played_on          date NOT NULL,
    event_id           bigint,
    players            smallint NOT NULL,
    games              integer NOT NULL DEFAULT 0,
    first_player_wins  integer NOT NULL DEFAULT 0,
    draws              integer NOT NULL DEFAULT 0,
    CONSTRAINT agg_first_player_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players)
);
COMMENT ON TABLE agg_first_player IS 'First-player advantage';

CREATE TABLE agg_card_metrics (
    played_on                  date NOT NULL,
    event_id                   bigint,
    players                    smallint NOT NULL,
    deck                       text NOT NULL,
    card                       text NOT NULL,
    deployed_games             integer NOT NULL DEFAULT 0,  -- games in which the card was deployed
    deployed_wins              integer NOT NULL DEFAULT 0,  -- ... and its player won
    deploys                    integer NOT NULL DEFAULT 0,
    first_deployed_round_sum   integer NOT NULL DEFAULT 0,  -- / deployed_games = mean round
    destroyed                  integer NOT NULL DEFAULT 0,
    might_gained_sum           bigint NOT NULL DEFAULT 0,
    might_at_end_sum           bigint NOT NULL DEFAULT 0,
    CONSTRAINT agg_card_metrics_key UNIQUE NULLS NOT DISTINCT (played_on, event_id, players, deck, card)
);
COMMENT ON TABLE agg_card_metrics IS 'Card performance per deck (deploy rate = deployed_games / deck games)';
"""

TABLES_IN_DROP_ORDER = [
    "agg_card_metrics", "agg_first_player", "agg_battlefield_decks", "agg_matchups", "agg_deck_results",
    "disputes", "game_player_rounds", "game_player_cards", "game_player_battlefields", "game_players",
    "game_records", "verdicts", "games", "event_matches", "events",
]


def upgrade() -> None:
    op.execute(REQUIRE_POSTGRES_15)
    for ddl in (EVENTS, GAMES, RECORDS, DISPUTES, AGGREGATES):
        op.execute(ddl)


def downgrade() -> None:
    for table in TABLES_IN_DROP_ORDER:
        op.execute(f"DROP TABLE {table}")
