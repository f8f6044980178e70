"""A game's record rows (game_records, game_players, game_player_*) and its aggregate contribution.

The contribution to every agg_* table is computed *in SQL from the game_* rows* and applied with a
sign: +1 after the rows are written, -1 before they are replaced. So what is taken out on a replay
is exactly what was put in (same keys, same numbers: the keys come from game_records, not from the
games row, which may have changed since), and a recount from the game_* tables uses the same
definitions. Each statement groups by the aggregate's key, because one game can hit a key twice
(two seats with the same deck) and ON CONFLICT may touch a row only once per statement.

Only ``valid`` games are counted (game_records.counted); a ``mismatch`` game keeps its record (the
API shows it) but the statistics do not trust a log whose own claims are wrong.
"""

from __future__ import annotations

from typing import Any

from psycopg import Connection

from engine.log import GameLog
from engine.record import GameRecord

# Every statement takes %(game)s and %(sign)s (+1 or -1). "w" is a seat's win as 0/1, "d" a draw.
_SEAT = """
    FROM game_records r JOIN game_players p ON p.game_id = r.game_id
    WHERE r.game_id = %(game)s"""

AGGREGATE_SQL = [
    f"""INSERT INTO agg_deck_results AS a (played_on, event_id, players, deck, games, wins, draws,
                                           first_player_games, first_player_wins)
        SELECT r.played_on, r.event_id, r.players, p.deck, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE p.won), %(sign)s * count(*) FILTER (WHERE r.winner IS NULL),
               %(sign)s * count(*) FILTER (WHERE p.is_first_player),
               %(sign)s * count(*) FILTER (WHERE p.is_first_player AND p.won)
        {_SEAT}
        GROUP BY r.played_on, r.event_id, r.players, p.deck
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
        WHERE r.game_id = %(game)s
        GROUP BY r.played_on, r.event_id, r.players, p.deck, o.deck
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
        WHERE r.game_id = %(game)s
        GROUP BY r.played_on, r.event_id, r.players, b.battlefield, p.deck
        ON CONFLICT ON CONSTRAINT agg_battlefield_decks_key DO UPDATE SET
            games = a.games + EXCLUDED.games, wins = a.wins + EXCLUDED.wins, draws = a.draws + EXCLUDED.draws,
            battlefield_wins = a.battlefield_wins + EXCLUDED.battlefield_wins,
            might_sum = a.might_sum + EXCLUDED.might_sum""",
    """INSERT INTO agg_first_player AS a (played_on, event_id, players, games, first_player_wins, draws)
        SELECT r.played_on, r.event_id, r.players, %(sign)s,
               %(sign)s * (r.winner IS NOT DISTINCT FROM r.first_player)::int, %(sign)s * (r.winner IS NULL)::int
        FROM game_records r WHERE r.game_id = %(game)s
        ON CONFLICT ON CONSTRAINT agg_first_player_key DO UPDATE SET
            games = a.games + EXCLUDED.games, first_player_wins = a.first_player_wins + EXCLUDED.first_player_wins,
            draws = a.draws + EXCLUDED.draws""",
    """INSERT INTO agg_card_metrics AS a (played_on, event_id, players, deck, card, deployed_games,
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
        WHERE r.game_id = %(game)s
        GROUP BY r.played_on, r.event_id, r.players, p.deck, c.card
        ON CONFLICT ON CONSTRAINT agg_card_metrics_key DO UPDATE SET
            deployed_games = a.deployed_games + EXCLUDED.deployed_games,
            deployed_wins = a.deployed_wins + EXCLUDED.deployed_wins,
            deploys = a.deploys + EXCLUDED.deploys,
            first_deployed_round_sum = a.first_deployed_round_sum + EXCLUDED.first_deployed_round_sum,
            destroyed = a.destroyed + EXCLUDED.destroyed,
            might_gained_sum = a.might_gained_sum + EXCLUDED.might_gained_sum,
            might_at_end_sum = a.might_at_end_sum + EXCLUDED.might_at_end_sum""",
    # Per battlefield in play: did the first player (alone) have the most might there, and the game?
    """INSERT INTO agg_battlefield_first_player AS a (played_on, event_id, players, battlefield, games,
                                                     first_player_battlefield_wins, first_player_game_wins, draws)
        SELECT r.played_on, r.event_id, r.players, b.battlefield, %(sign)s * count(*),
               %(sign)s * count(*) FILTER (WHERE b.won),
               %(sign)s * count(*) FILTER (WHERE r.winner IS NOT DISTINCT FROM r.first_player),
               %(sign)s * count(*) FILTER (WHERE r.winner IS NULL)
        FROM game_records r
        JOIN game_player_battlefields b ON b.game_id = r.game_id AND b.seat = r.first_player
        WHERE r.game_id = %(game)s
        GROUP BY r.played_on, r.event_id, r.players, b.battlefield
        ON CONFLICT ON CONSTRAINT agg_battlefield_first_player_key DO UPDATE SET
            games = a.games + EXCLUDED.games,
            first_player_battlefield_wins = a.first_player_battlefield_wins + EXCLUDED.first_player_battlefield_wins,
            first_player_game_wins = a.first_player_game_wins + EXCLUDED.first_player_game_wins,
            draws = a.draws + EXCLUDED.draws""",
]


def apply_contribution(conn: Connection, game_id: int, sign: int) -> None:
    assert sign in (1, -1)
    for statement in AGGREGATE_SQL:
        conn.execute(statement, {"game": game_id, "sign": sign})


def remove_record(conn: Connection, game_id: int) -> None:
    """Take the game's counted contribution out of the aggregates, then delete its record rows
    (game_players and below go with game_records: ON DELETE CASCADE)."""
    row = conn.execute("SELECT counted FROM game_records WHERE game_id = %s", (game_id,)).fetchone()
    if row is None:
        return
    if row[0]:
        apply_contribution(conn, game_id, -1)
    conn.execute("DELETE FROM game_records WHERE game_id = %s", (game_id,))


def write_record(conn: Connection, game_id: int, rec: GameRecord, log: GameLog, *, played_on: Any,
                 event_id: int | None, counted: bool, engine_version: str) -> None:
    """Insert the record rows of a finished game; add its contribution when ``counted``."""
    conn.execute(
        """INSERT INTO game_records (game_id, players, battlefields, first_player, winner, margin, decisions,
                                     played_on, event_id, counted, engine_version, catalog_version)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)""",
        (game_id, rec.players, rec.battlefields, rec.first_player, rec.winner, rec.margin, rec.decisions,
         played_on, event_id, counted, engine_version, log.catalog))
    names = list(log.meta.get("players", ()))
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO game_players (game_id, seat, player_name, deck, is_first_player, won,
                                         final_might, battlefields_won)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s)""",
            [(game_id, seat, names[seat - 1] if seat <= len(names) else None, rec.decks[seat - 1],
              rec.first_player == seat, rec.winner == seat, sum(rec.final_might[seat - 1]),
              sum(1 for w in rec.battlefield_winners if w == seat))
             for seat in range(1, rec.players + 1)])
        cur.executemany(
            """INSERT INTO game_player_battlefields (game_id, seat, position, battlefield, might, won)
               VALUES (%s, %s, %s, %s, %s, %s)""",
            [(game_id, seat, pos, name, rec.final_might[seat - 1][pos - 1], rec.battlefield_winners[pos - 1] == seat)
             for seat in range(1, rec.players + 1) for pos, name in enumerate(rec.battlefields, 1)])
        cur.executemany(
            """INSERT INTO game_player_cards (game_id, seat, card, deployed, first_deployed_round, revealed,
                                              moved, destroyed, returned, might_gained, might_at_end,
                                              on_board_at_end)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)""",
            [(game_id, seat, card, st.deploys, min(st.deploy_rounds) if st.deploy_rounds else None, st.reveals,
              st.moves, st.destroys, st.returns, st.might_gained, st.final_might, st.on_board_at_end)
             for seat, cards in enumerate(rec.cards, 1) for card, st in sorted(cards.items())])
        cur.executemany(
            """INSERT INTO game_player_rounds (game_id, seat, round, is_first_player, essence_available,
                                               essence_spent, essence_unspent, might)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s)""",
            [(game_id, seat, rs.round, rs.first_player == seat, rs.essence[seat - 1]["available"],
              rs.essence[seat - 1]["spent"], rs.essence[seat - 1]["unspent"], rs.might[seat - 1])
             for rs in rec.rounds for seat in range(1, rec.players + 1)])
    if counted:
        apply_contribution(conn, game_id, 1)
