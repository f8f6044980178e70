"""Weekly roll-ups of every day-grain aggregate, kept exact by statement-level triggers.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

Why (docs/services.md "Speed"): a statistic without an event filter summed every day × event row
in its date range; at 1,000,000 games that is up to millions of rows for cards and matchups. Each
agg_X table (migrations 0001-0003) now has a twin agg_X_weekly with the same key minus
``event_id`` and with ``played_on`` replaced by ``week_start`` (the Monday of the ISO week), the
same value columns, and ``daily_rows``: how many agg_X rows it sums.

How it is kept (the decision, with the alternatives weighed in docs/services.md "Speed"):
- Three statement-level AFTER triggers per agg_X (INSERT, UPDATE, DELETE; transition tables) add
  the statement's net change, grouped by the weekly key, to agg_X_weekly in the same transaction.
  So the roll-up is never stale and never recomputed: a worker's per-game upsert, a batch's
  upsert over 50,000 games and a recount all move it by exactly what they moved the daily rows.
  There is no dirty-week bookkeeping and no scheduled job, and a reader's snapshot always sees
  daily and weekly rows that agree.
- Rows are upserted in key order (ORDER BY the weekly key), so two transactions touching the same
  weekly rows lock them in the same order and cannot deadlock on them. The cost: transactions
  writing games of the same ISO week (any event) serialise on that week's rows from their
  aggregate statements to their commit, where before only games of the same day and event did.
- A weekly row whose ``daily_rows`` falls to 0 (its daily rows were deleted) is deleted, so a
  weekly row exists exactly when a daily row of that key exists in that week: the statistics list
  a key with 0 games (a game taken back out) in both paths alike.

How it is read (services.stats.queries): without an event filter, the full ISO weeks inside the
date range come from agg_X_weekly and the days of the partial weeks at either end from agg_X; with
an event filter, agg_X alone (an event's rows are few). The answers are identical either way
(tests/services/test_stats_rollups.py).

The migration fills the weekly tables from the daily rows already there (one pass over each).
"""

from typing import Sequence, Union

from alembic import op

# Revisions are raw SQL through op.execute (see docs/services.md); parameters never come from input.

revision: str = "0004"
down_revision: Union[str, Sequence[str], None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# daily table -> (key columns after played_on, event_id, players; value columns with their types)
ROLLUPS: dict[str, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = {
    "agg_deck_results": ([("deck", "text")], [
        ("games", "integer"), ("wins", "integer"), ("draws", "integer"), ("first_player_games", "integer"),
        ("first_player_wins", "integer")]),
    "agg_matchups": ([("deck", "text"), ("opponent_deck", "text")], [
        ("games", "integer"), ("wins", "integer"), ("draws", "integer")]),
    "agg_battlefield_decks": ([("battlefield", "text"), ("deck", "text")], [
        ("games", "integer"), ("wins", "integer"), ("draws", "integer"), ("battlefield_wins", "integer"),
        ("might_sum", "bigint")]),
    "agg_first_player": ([], [("games", "integer"), ("first_player_wins", "integer"), ("draws", "integer")]),
    "agg_card_metrics": ([("deck", "text"), ("card", "text")], [
        ("deployed_games", "integer"), ("deployed_wins", "integer"), ("deploys", "integer"),
        ("first_deployed_round_sum", "integer"), ("destroyed", "integer"), ("might_gained_sum", "bigint"),
        ("might_at_end_sum", "bigint")]),
    "agg_battlefield_first_player": ([("battlefield", "text")], [
        ("games", "integer"), ("first_player_battlefield_wins", "integer"), ("first_player_game_wins", "integer"),
        ("draws", "integer")]),
    "agg_game_margins": ([("battlefield", "text"), ("margin", "integer")], [("games", "integer")]),
    "agg_deck_rounds": ([("deck", "text"), ("round", "smallint")], [
        ("games", "integer"), ("might_sum", "bigint"), ("won_games", "integer"), ("won_might_sum", "bigint"),
        ("essence_spent_sum", "bigint")]),
    "agg_battlefield_matchups": ([("battlefield", "text"), ("deck", "text"), ("opponent_deck", "text")], [
        ("games", "integer"), ("wins", "integer"), ("draws", "integer")]),
    "agg_battlefield_cards": ([("battlefield", "text"), ("deck", "text"), ("card", "text")], [
        ("deployed_games", "integer"), ("deployed_wins", "integer"), ("deploys", "integer"),
        ("first_deployed_round_sum", "integer"), ("destroyed", "integer"), ("might_gained_sum", "bigint"),
        ("might_at_end_sum", "bigint")]),
}

# Monday of the ISO week, by date arithmetic (as services.stats.queries.WEEK_START)
WEEK = "({0}.played_on - (extract(isodow FROM {0}.played_on)::int - 1))"


def _rollup_sql(table: str) -> str:
    keys, values = ROLLUPS[table]
    weekly = f"{table}_weekly"
    key_names = [k for k, _ in keys]
    value_names = [v for v, _ in values]
    columns = ",\n    ".join(
        ["week_start date NOT NULL", "players smallint NOT NULL"]
        + [f"{k} {t} NOT NULL" for k, t in keys]
        + [f"{v} {t} NOT NULL DEFAULT 0" for v, t in values]
        + ["daily_rows integer NOT NULL DEFAULT 0"])
    key = ["week_start", "players", *key_names]
    key_list = ", ".join(key)
    all_columns = ", ".join([*key, *value_names, "daily_rows"])
    excluded = ", ".join(f"{c} = w.{c} + EXCLUDED.{c}" for c in [*value_names, "daily_rows"])

    def delta(source: str, sign: str) -> str:
        return (f"SELECT {WEEK.format(source)} AS week_start, players"
                + "".join(f", {k}" for k in key_names)
                + "".join(f", {sign}{v} AS {v}" for v in value_names)
                + f", {sign}1 AS daily_rows FROM {source}")

    sums = ", ".join(f"sum({c})::{t}" for c, t in [*values, ("daily_rows", "integer")])
    nonzero = " OR ".join(f"sum({c}) <> 0" for c in [*value_names, "daily_rows"])

    def upsert(source_rows: str) -> str:
        return (f"INSERT INTO {weekly} AS w ({all_columns})\n"
                f"        SELECT {key_list}, {sums}\n"
                f"        FROM ({source_rows}) d\n"
                f"        GROUP BY {key_list} HAVING {nonzero}\n"
                f"        ORDER BY {key_list}\n"
                f"        ON CONFLICT ON CONSTRAINT {weekly}_key DO UPDATE SET {excluded};")

    emptied = (f"DELETE FROM {weekly} w USING (SELECT DISTINCT {WEEK.format('old_rows')} AS week_start, players"
               + "".join(f", {k}" for k in key_names) + " FROM old_rows) d\n"
               "        WHERE w.daily_rows = 0 AND "
               + " AND ".join(f"w.{c} = d.{c}" for c in key) + ";")
    function = f"{weekly}_add"
    return f"""
CREATE TABLE {weekly} (
    {columns},
    CONSTRAINT {weekly}_key UNIQUE ({key_list})
);
COMMENT ON TABLE {weekly} IS '{table} summed per ISO week over events (kept by triggers on {table})';
COMMENT ON COLUMN {weekly}.daily_rows IS 'rows of {table} summed here (the row is deleted at 0)';

CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        {upsert(delta("new_rows", ""))}
    ELSIF TG_OP = 'UPDATE' THEN
        {upsert(delta("new_rows", "") + " UNION ALL " + delta("old_rows", "-"))}
        {emptied}
    ELSE
        {upsert(delta("old_rows", "-"))}
        {emptied}
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER {table}_weekly_insert AFTER INSERT ON {table}
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {function}();
CREATE TRIGGER {table}_weekly_update AFTER UPDATE ON {table}
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {function}();
CREATE TRIGGER {table}_weekly_delete AFTER DELETE ON {table}
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION {function}();

-- the rows already there
INSERT INTO {weekly} ({all_columns})
SELECT {WEEK.format(table)} AS week_start, players{"".join(f", {k}" for k in key_names)},
       {", ".join(f"sum({v})::{t}" for v, t in values)}, count(*)
FROM {table}
GROUP BY 1, players{"".join(f", {k}" for k in key_names)};
"""


# The battlefield filter reads the weekly twins with battlefield = X (the key leads with the week).
BATTLEFIELD_INDEXES = "\n".join(
    f"CREATE INDEX {table}_weekly_battlefield_idx ON {table}_weekly (battlefield, players, week_start);"
    for table in ROLLUPS if any(k == "battlefield" for k, _ in ROLLUPS[table][0]))


def upgrade() -> None:
    for table in ROLLUPS:
        op.execute(_rollup_sql(table))
    op.execute(BATTLEFIELD_INDEXES)


def downgrade() -> None:
    for table in ROLLUPS:
        op.execute(f"""
            DROP TRIGGER {table}_weekly_insert ON {table};
            DROP TRIGGER {table}_weekly_update ON {table};
            DROP TRIGGER {table}_weekly_delete ON {table};
            DROP FUNCTION {table}_weekly_add();
            DROP TABLE {table}_weekly;
        """)
