"""A game's record rows (game_records, game_players, game_player_*) and its aggregate contribution.

The contribution to every agg_* table is computed *in SQL from the game_* rows* and applied with a
sign: +1 after the rows are written, -1 before they are replaced. So what is taken out on a replay
is exactly what was put in (same keys, same numbers: the keys come from game_records, not from the
games row, which may have changed since), and a recount from the game_* tables uses the same
definitions. Each statement groups by the aggregate's key, because one game can hit a key twice
(two seats with the same deck) and ON CONFLICT may touch a row only once per statement, and upserts
in key order (ORDER BY), so two transactions that share rows lock them in the same order (no
deadlock between workers; the weekly roll-up triggers of migration 0004 do the same).

Only ``valid`` games are counted (game_records.counted); a ``mismatch`` game keeps its record (the
API shows it) but the statistics do not trust a log whose own claims are wrong.

How a game ended (game_records.end_reason, migration 0009): a game conceded or stopped by time counts
in results and win rates like any other (decks, matchups, first player, battlefields, cards), but not
in the figures about the shape of a played-out game: agg_game_margins and agg_deck_rounds take only
``end_reason = 'score'``. Sums of might at the end (agg_battlefield_decks.might_sum and battlefield
wins, agg_card_metrics.might_at_end_sum) count the board as it stood when the game ended, however it
ended: they share their rows' denominators (games, deployed games) with the results, and leaving a
game out of the sum but not of its denominator would bias the average (docs/services.md, "Games that
end early"). The condition reads the stored record, so +1 and -1 of one game cancel exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from psycopg import Connection

from engine.log import GameLog
from engine.record import GameRecord

# Every statement takes %(games)s (a list of game ids: one game from the worker, many from a batch or
# a recount) and %(sign)s (+1 or -1); the games' rows are grouped by the aggregate's key.
_SEAT = """
    FROM game_records r JOIN game_players p ON p.game_id = r.game_id
    WHERE r.game_id = ANY(%(games)s)"""

# agg_card_metrics and its per-battlefield twin add the same sums
_CARD_SUMS = """deployed_games = a.deployed_games + EXCLUDED.deployed_games,
            deployed_wins = a.deployed_wins + EXCLUDED.deployed_wins,
            deploys = a.deploys + EXCLUDED.deploys,
            first_deployed_round_sum = a.first_deployed_round_sum + EXCLUDED.first_deployed_round_sum,
            destroyed = a.destroyed + EXCLUDED.destroyed,
            might_gained_sum = a.might_gained_sum + EXCLUDED.might_gained_sum,
            might_at_end_sum = a.might_at_end_sum + EXCLUDED.might_at_end_sum"""

AGGREGATE_SQL = [
    f"""INSERT INTO agg_deck_results AS a (played_on, event_id, players, deck, games, wins, draws,
                                           first_player_games, first_player_wins)
        SELECT r.played_on, r.event_id, r.players, p.deck, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE p.won), %(sign)s * count(*) FILTER (WHERE r.winner IS NULL),
               %(sign)s * count(*) FILTER (WHERE p.is_first_player),
               %(sign)s * count(*) FILTER (WHERE p.is_first_player AND p.won)
        {_SEAT}
        GROUP BY r.played_on, r.event_id, r.players, p.deck
        ORDER BY r.played_on, r.event_id, r.players, p.deck
        ON CONFLICT ON CONSTRAINT agg_deck_results_key DO UPDATE SET
            games = a.games + EXCLUDED.games, wins = a.wins + EXCLUDED.wins, draws = a.draws + EXCLUDED.draws,
            first_player_games = a.first_player_games + EXCLUDED.first_player_games,
            first_player_wins = a.first_player_wins + EXCLUDED.first_player_wins""",
    # every ordered pair of different seats at the table
    """INSERT INTO agg_matchups AS a (played_on, event_id, players, deck, opponent_deck, games, wins, draws)
        SELECT r.played_on, r.event_id, r.players, p.deck, o.deck, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE p.won), %(sign)s * count(*) FILTER (WHERE r.winner IS NULL)
        FROM game_records r
        JOIN game_players p ON p.game_id = r.game_id
        JOIN game_players o ON o.game_id = r.game_id AND o.seat <> p.seat
        WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players, p.deck, o.deck
        ORDER BY r.played_on, r.event_id, r.players, p.deck, o.deck
        ON CONFLICT ON CONSTRAINT agg_matchups_key DO UPDATE SET
            games = a.games + EXCLUDED.games, wins = a.wins + EXCLUDED.wins, draws = a.draws + EXCLUDED.draws""",
    """INSERT INTO agg_battlefield_decks AS a (played_on, event_id, players, battlefield, deck, games, wins,
                                              draws, battlefield_wins, might_sum)
        SELECT r.played_on, r.event_id, r.players, b.battlefield, p.deck, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE p.won), %(sign)s * count(*) FILTER (WHERE r.winner IS NULL),
               %(sign)s * count(*) FILTER (WHERE b.won), %(sign)s * sum(b.might)
        FROM game_records r
        JOIN game_players p ON p.game_id = r.game_id
        JOIN game_player_battlefields b ON b.game_id = p.game_id AND b.seat = p.seat
        WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players, b.battlefield, p.deck
        ORDER BY r.played_on, r.event_id, r.players, b.battlefield, p.deck
        ON CONFLICT ON CONSTRAINT agg_battlefield_decks_key DO UPDATE SET
            games = a.games + EXCLUDED.games, wins = a.wins + EXCLUDED.wins, draws = a.draws + EXCLUDED.draws,
            battlefield_wins = a.battlefield_wins + EXCLUDED.battlefield_wins,
            might_sum = a.might_sum + EXCLUDED.might_sum""",
    """INSERT INTO agg_first_player AS a (played_on, event_id, players, games, first_player_wins, draws)
        SELECT r.played_on, r.event_id, r.players, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE r.winner IS NOT DISTINCT FROM r.first_player),
               %(sign)s * count(*) FILTER (WHERE r.winner IS NULL)
        FROM game_records r WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players
        ORDER BY r.played_on, r.event_id, r.players
        ON CONFLICT ON CONSTRAINT agg_first_player_key DO UPDATE SET
            games = a.games + EXCLUDED.games, first_player_wins = a.first_player_wins + EXCLUDED.first_player_wins,
            draws = a.draws + EXCLUDED.draws""",
    f"""INSERT INTO agg_card_metrics AS a (played_on, event_id, players, deck, card, deployed_games,
                                         deployed_wins, deploys, first_deployed_round_sum, destroyed,
                                         might_gained_sum, might_at_end_sum)
        SELECT r.played_on, r.event_id, r.players, p.deck, c.card,
               %(sign)s * count(*) FILTER (WHERE c.deployed > 0),
               %(sign)s * count(*) FILTER (WHERE c.deployed > 0 AND p.won),
               %(sign)s * sum(c.deployed), %(sign)s * coalesce(sum(c.first_deployed_round), 0),
               %(sign)s * sum(c.destroyed), %(sign)s * sum(c.might_gained), %(sign)s * sum(c.might_at_end)
        FROM game_records r
        JOIN game_players p ON p.game_id = r.game_id
        JOIN game_player_cards c ON c.game_id = p.game_id AND c.seat = p.seat
        WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players, p.deck, c.card
        ORDER BY r.played_on, r.event_id, r.players, p.deck, c.card
        ON CONFLICT ON CONSTRAINT agg_card_metrics_key DO UPDATE SET
            {_CARD_SUMS}""",
    # Per battlefield in play: did the first player (alone) have the most might there, and the game?
    """INSERT INTO agg_battlefield_first_player AS a (played_on, event_id, players, battlefield, games,
                                                     first_player_battlefield_wins, first_player_game_wins, draws)
        SELECT r.played_on, r.event_id, r.players, b.battlefield, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE b.won),
               %(sign)s * count(*) FILTER (WHERE r.winner IS NOT DISTINCT FROM r.first_player),
               %(sign)s * count(*) FILTER (WHERE r.winner IS NULL)
        FROM game_records r
        JOIN game_player_battlefields b ON b.game_id = r.game_id AND b.seat = r.first_player
        WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players, b.battlefield
        ORDER BY r.played_on, r.event_id, r.players, b.battlefield
        ON CONFLICT ON CONSTRAINT agg_battlefield_first_player_key DO UPDATE SET
            games = a.games + EXCLUDED.games,
            first_player_battlefield_wins = a.first_player_battlefield_wins + EXCLUDED.first_player_battlefield_wins,
            first_player_game_wins = a.first_player_game_wins + EXCLUDED.first_player_game_wins,
            draws = a.draws + EXCLUDED.draws""",
    # Final might margins: once for every game ('*') and once per battlefield in play. Only games
    # played to the tally (see the module's docstring).
    """INSERT INTO agg_game_margins AS a (played_on, event_id, players, battlefield, margin, games)
        SELECT r.played_on, r.event_id, r.players, bf, r.margin, %(sign)s * count(*)
        FROM game_records r, unnest(ARRAY['*'] || r.battlefields) AS bf
        WHERE r.game_id = ANY(%(games)s) AND r.end_reason = 'score'
        GROUP BY r.played_on, r.event_id, r.players, bf, r.margin
        ORDER BY r.played_on, r.event_id, r.players, bf, r.margin
        ON CONFLICT ON CONSTRAINT agg_game_margins_key DO UPDATE SET games = a.games + EXCLUDED.games""",
    # Might by round: only games played to the tally (a game that ended early stops in mid-course).
    """INSERT INTO agg_deck_rounds AS a (played_on, event_id, players, deck, round, games, might_sum,
                                        won_games, won_might_sum, essence_spent_sum)
        SELECT r.played_on, r.event_id, r.players, p.deck, g.round, %(sign)s * count(*),
               %(sign)s * sum(g.total), %(sign)s * count(*) FILTER (WHERE p.won),
               %(sign)s * coalesce(sum(g.total) FILTER (WHERE p.won), 0), %(sign)s * sum(g.essence_spent)
        FROM game_records r
        JOIN game_players p ON p.game_id = r.game_id
        JOIN (SELECT game_id, seat, round, essence_spent, (SELECT sum(m) FROM unnest(might) AS m) AS total
              FROM game_player_rounds WHERE game_id = ANY(%(games)s)) g ON g.game_id = p.game_id AND g.seat = p.seat
        WHERE r.game_id = ANY(%(games)s) AND r.end_reason = 'score'
        GROUP BY r.played_on, r.event_id, r.players, p.deck, g.round
        ORDER BY r.played_on, r.event_id, r.players, p.deck, g.round
        ON CONFLICT ON CONSTRAINT agg_deck_rounds_key DO UPDATE SET
            games = a.games + EXCLUDED.games, might_sum = a.might_sum + EXCLUDED.might_sum,
            won_games = a.won_games + EXCLUDED.won_games, won_might_sum = a.won_might_sum + EXCLUDED.won_might_sum,
            essence_spent_sum = a.essence_spent_sum + EXCLUDED.essence_spent_sum""",
    """INSERT INTO agg_battlefield_matchups AS a (played_on, event_id, players, battlefield, deck, opponent_deck,
                                                 games, wins, draws)
        SELECT r.played_on, r.event_id, r.players, bf, p.deck, o.deck, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE p.won), %(sign)s * count(*) FILTER (WHERE r.winner IS NULL)
        FROM game_records r
        CROSS JOIN unnest(r.battlefields) AS bf
        JOIN game_players p ON p.game_id = r.game_id
        JOIN game_players o ON o.game_id = r.game_id AND o.seat <> p.seat
        WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players, bf, p.deck, o.deck
        ORDER BY r.played_on, r.event_id, r.players, bf, p.deck, o.deck
        ON CONFLICT ON CONSTRAINT agg_battlefield_matchups_key DO UPDATE SET
            games = a.games + EXCLUDED.games, wins = a.wins + EXCLUDED.wins, draws = a.draws + EXCLUDED.draws""",
    f"""INSERT INTO agg_battlefield_cards AS a (played_on, event_id, players, battlefield, deck, card, deployed_games,
                                              deployed_wins, deploys, first_deployed_round_sum, destroyed,
                                              might_gained_sum, might_at_end_sum)
        SELECT r.played_on, r.event_id, r.players, bf, p.deck, c.card,
               %(sign)s * count(*) FILTER (WHERE c.deployed > 0),
               %(sign)s * count(*) FILTER (WHERE c.deployed > 0 AND p.won),
               %(sign)s * sum(c.deployed), %(sign)s * coalesce(sum(c.first_deployed_round), 0),
               %(sign)s * sum(c.destroyed), %(sign)s * sum(c.might_gained), %(sign)s * sum(c.might_at_end)
        FROM game_records r
        CROSS JOIN unnest(r.battlefields) AS bf
        JOIN game_players p ON p.game_id = r.game_id
        JOIN game_player_cards c ON c.game_id = p.game_id AND c.seat = p.seat
        WHERE r.game_id = ANY(%(games)s)
        GROUP BY r.played_on, r.event_id, r.players, bf, p.deck, c.card
        ORDER BY r.played_on, r.event_id, r.players, bf, p.deck, c.card
        ON CONFLICT ON CONSTRAINT agg_battlefield_cards_key DO UPDATE SET
            {_CARD_SUMS}""",
]


def apply_contribution(conn: Connection, game_ids: int | list[int], sign: int) -> None:
    """Add (sign +1) or take out (-1) the contribution of one game or of a list of games.

    A list of games is never run as a prepared statement: psycopg prepares a statement after a few
    executions, and PostgreSQL may then switch to a generic plan that does not know how long the
    list is (filling 1,000,000 games in batches of 25,000, tests/bench/bench_dashboards.py, went from
    ~2,500 to ~330 games/s after the tenth batch: agg_deck_rounds' statement alone took ~60 s a
    batch). One game (the worker's case) keeps the prepared plan."""
    assert sign in (1, -1)
    games = [game_ids] if isinstance(game_ids, int) else list(game_ids)
    prepare = None if len(games) == 1 else False
    for statement in AGGREGATE_SQL:
        conn.execute(statement, {"games": games, "sign": sign}, prepare=prepare)


AGGREGATE_TABLES = [statement.split()[2] for statement in AGGREGATE_SQL]  # "INSERT INTO agg_x AS a ..."

_VALUE_COLUMNS_SQL = """
SELECT a.attname FROM pg_attribute a
WHERE a.attrelid = %(table)s::regclass AND a.attnum > 0 AND NOT a.attisdropped
  AND a.attnum <> ALL (SELECT unnest(conkey) FROM pg_constraint WHERE conrelid = %(table)s::regclass AND contype = 'u')
ORDER BY a.attnum"""


def recount_differences(conn: Connection, batch: int = 50_000) -> dict[str, int]:
    """Check the agg_* tables against a recount from the game_* rows: per table, how many of its
    rows do not equal the sum of the counted games' contributions (all zeros: they agree).

    It takes every counted game's contribution back out inside a savepoint, counts the rows left
    non-zero, and rolls back, so the check uses the very statements that wrote the aggregates and
    changes nothing. Run it in a transaction that sees a quiet database (or accept that games being
    replayed meanwhile show up as differences)."""
    ids = [r[0] for r in conn.execute("SELECT game_id FROM game_records WHERE counted ORDER BY game_id")]
    differences = {}
    with conn.transaction(force_rollback=True):
        for start in range(0, len(ids), batch):
            apply_contribution(conn, ids[start:start + batch], -1)
        for table in AGGREGATE_TABLES:
            values = [r[0] for r in conn.execute(_VALUE_COLUMNS_SQL, {"table": table})]
            nonzero = " OR ".join(f"{column} <> 0" for column in values)
            differences[table] = conn.execute(f"SELECT count(*) FROM {table} WHERE {nonzero}").fetchone()[0]
    return differences


def remove_records(conn: Connection, game_ids: list[int]) -> None:
    """Take the counted contribution of these games out of the aggregates, then delete their record
    rows (game_players and below go with game_records: ON DELETE CASCADE). A pending game (not yet
    counted, see fold_pending) is simply deleted; games without a record are skipped. The rows are
    locked first, so a fold counting them now is waited for and its count taken back out."""
    counted = [game_id for game_id, is_counted in conn.execute(
        "SELECT game_id, counted FROM game_records WHERE game_id = ANY(%s) ORDER BY game_id FOR UPDATE",
        (game_ids,)) if is_counted]
    if counted:
        apply_contribution(conn, counted, -1)
    conn.execute("DELETE FROM game_records WHERE game_id = ANY(%s)", (game_ids,))


# The advisory lock of the fold: one transaction at a time adds pending games to the aggregates.
FOLD_LOCK = 0x656D7079  # 'empy'
# Pending games no other transaction holds (their record row nor their games row), locked.
_FOLDABLE = """SELECT r.game_id FROM game_records r JOIN games g ON g.id = r.game_id
               WHERE r.pending ORDER BY r.game_id LIMIT %s FOR UPDATE OF r, g SKIP LOCKED"""


def any_foldable(conn: Connection) -> bool:
    """Is there a pending game that fold_pending would take now (locks it until the caller's commit)."""
    return conn.execute(_FOLDABLE, (1,)).fetchone() is not None


def fold_pending(conn: Connection, limit: int) -> list[int] | None:
    """Add up to ``limit`` pending games to the aggregates and mark them counted, in the caller's
    transaction; returns their ids, or None when another transaction is folding (it holds the lock
    until its commit). Games whose rows another transaction holds (a replay under way) are skipped:
    that transaction folds them after its commit. Why pending games exist: migration 0008."""
    if not conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (FOLD_LOCK,)).fetchone()[0]:
        return None
    ids = [r[0] for r in conn.execute(_FOLDABLE, (limit,))]
    if ids:
        apply_contribution(conn, ids, 1)
        conn.execute("UPDATE game_records SET pending = false, counted = true WHERE game_id = ANY(%s)", (ids,))
    return ids


@dataclass(frozen=True)
class FinishedGame:
    """A replayed game's record, with the aggregate keys it is counted under."""
    game_id: int
    record: GameRecord
    log: GameLog
    played_on: Any  # a date: meta.date, else the day the log was received
    event_id: int | None
    counted: bool  # a valid game: its contribution belongs in the aggregates


# Columns written by COPY, per table, in the order _record_rows yields their values (the one list of
# them: tests/bench/bench_dashboards.py copies its rows by it too).
RECORD_COLUMNS = {
    "game_records": "game_id, players, battlefields, first_player, winner, margin, decisions, played_on, event_id, "
                    "counted, pending, engine_version, catalog_version, end_reason, conceded_by",
    "game_players": "game_id, seat, player_name, deck, is_first_player, won, final_might, battlefields_won, "
                    "unseen",
    "game_player_battlefields": "game_id, seat, position, battlefield, might, won",
    "game_player_cards": "game_id, seat, card, deployed, first_deployed_round, revealed, moved, destroyed, returned, "
                         "might_gained, might_at_end, on_board_at_end",
    "game_player_rounds": "game_id, seat, round, is_first_player, essence_available, essence_spent, "
                          "essence_unspent, might",
}


def _record_rows(game: FinishedGame, engine_version: str, pending: bool) -> dict[str, list[tuple]]:
    rec, game_id = game.record, game.game_id
    seats = range(1, rec.players + 1)
    names = list(game.log.meta.get("players", ()))
    return {
        "game_records": [(game_id, rec.players, rec.battlefields, rec.first_player, rec.winner, rec.margin,
                          rec.decisions, game.played_on, game.event_id, game.counted and not pending,
                          game.counted and pending, engine_version, game.log.catalog, rec.end, rec.conceded_by)],
        "game_players": [(game_id, seat, names[seat - 1] if seat <= len(names) else None, rec.decks[seat - 1],
                          rec.first_player == seat, rec.winner == seat, sum(rec.final_might[seat - 1]),
                          sum(1 for w in rec.battlefield_winners if w == seat),
                          rec.unseen[seat - 1]) for seat in seats],
        "game_player_battlefields": [(game_id, seat, pos, name, rec.final_might[seat - 1][pos - 1],
                                      rec.battlefield_winners[pos - 1] == seat)
                                     for seat in seats for pos, name in enumerate(rec.battlefields, 1)],
        "game_player_cards": [(game_id, seat, card, st.deploys, min(st.deploy_rounds) if st.deploy_rounds else None,
                               st.reveals, st.moves, st.destroys, st.returns, st.might_gained, st.final_might,
                               st.on_board_at_end)
                              for seat, cards in enumerate(rec.cards, 1) for card, st in sorted(cards.items())],
        "game_player_rounds": [(game_id, seat, rs.round, rs.first_player == seat, rs.essence[seat - 1]["available"],
                                rs.essence[seat - 1]["spent"], rs.essence[seat - 1]["unspent"], rs.might[seat - 1])
                               for rs in rec.rounds for seat in seats],
    }


def write_records(conn: Connection, games: Sequence[FinishedGame], *, engine_version: str) -> None:
    """Insert the record rows of finished games, then add the contribution of the counted ones in
    one pass per aggregate: a chunk of games costs a handful of statements, not a handful per game."""
    copy_record_rows(conn, games, engine_version=engine_version, pending=False)
    counted = sorted(game.game_id for game in games if game.counted)
    if counted:
        apply_contribution(conn, counted, 1)


def copy_record_rows(conn: Connection, games: Sequence[FinishedGame], *, engine_version: str, pending: bool) -> None:
    """The record rows alone (COPY, table by table, parents first). The valid games are marked
    counted (the caller adds their contribution in this transaction, as write_records does) or,
    with ``pending``, pending (fold_pending will)."""
    rows: dict[str, list[tuple]] = {table: [] for table in RECORD_COLUMNS}
    for game in games:
        for table, table_rows in _record_rows(game, engine_version, pending).items():
            rows[table].extend(table_rows)
    with conn.cursor() as cur:
        for table, columns in RECORD_COLUMNS.items():
            if rows[table]:
                with cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in rows[table]:
                        copy.write_row(row)


_KEY_COLUMNS_SQL = """
SELECT a.attname FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
WHERE c.conrelid = %(table)s::regclass AND c.contype = 'u'
ORDER BY array_position(c.conkey, a.attnum)"""

WEEK_START = "(played_on - (extract(isodow FROM played_on)::int - 1))"


def rollup_differences(conn: Connection) -> dict[str, int]:
    """Check each weekly roll-up (agg_X_weekly, migration 0004) against its daily table: per roll-up,
    how many of its rows differ from (or are missing beside) the daily rows summed per ISO week over
    events (all zeros: they agree)."""
    differences = {}
    for table in AGGREGATE_TABLES:
        weekly = f"{table}_weekly"
        keys = [r[0] for r in conn.execute(_KEY_COLUMNS_SQL, {"table": weekly})]
        values = [r[0] for r in conn.execute(_VALUE_COLUMNS_SQL, {"table": weekly}) if r[0] != "daily_rows"]
        daily_keys = [WEEK_START if k == "week_start" else k for k in keys]
        sums = ", ".join(f"sum({v}) AS {v}" for v in values)
        differences[weekly] = conn.execute(f"""
            SELECT count(*) FROM (
                SELECT {", ".join(f"{k} AS {n}" for k, n in zip(daily_keys, keys))}, {sums}, count(*) AS daily_rows
                FROM {table} GROUP BY {", ".join(daily_keys)}) d
            FULL JOIN {weekly} w USING ({", ".join(keys)})
            WHERE ({", ".join(f"d.{c}" for c in [*values, "daily_rows"])})
                  IS DISTINCT FROM ({", ".join(f"w.{c}" for c in [*values, "daily_rows"])})""").fetchone()[0]
    return differences
