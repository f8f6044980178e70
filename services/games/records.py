"""A game's record rows (game_records, game_players, game_player_*, game_seats) and its aggregate
contribution.

``game_seats`` (migration 0018) says how each seat finished in terms every game has — its faction
(what it played as: BfE's deck), rank, score, won, team — from the replay's ``outcome`` and the
game's rules' ``factions`` (engine.games); ``game_records.game`` is the log's game.

The contribution to every agg_* table is computed *in SQL from the game_* rows* and applied with a
sign: +1 after the rows are written, -1 before they are replaced, so what is taken out on a replay
is exactly what was put in and a recount from the game_* tables uses the same definitions. The
tables, their keys and values, and the statements (grouped and locked in key order; which games
each counts, by how they ended) are declared once in services.stats.aggregates.

Only ``valid`` games are counted (game_records.counted), and of a match's games one at most
(services.games.disputes: agreeing uploads count once, a match in open dispute not at all, a
resolved one the game its resolution names); a ``mismatch`` game keeps its record (the API shows it)
but the statistics do not trust a log whose own claims are wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from psycopg import Connection

from engine.bfe.record import GameRecord
from engine.bfe.rules import GAME_INFO as BATTLE_FOR_EMPYREAN
from engine.elysian.record import Record as ElysianRecord
from engine.elysian.rules import GAME_INFO as ELYSIAN
from engine.games import Outcome, rules_for
from engine.log import GameLog
from engine.steam.record import Record as SteamRecord
from engine.steam.rules import GAME_INFO as STEAM
from engine.titans.record import Record as TitansRecord
from engine.titans.rules import GAME_INFO as TITANS
from services.stats.aggregates import AGGREGATES, FACES

BFE_KEY = BATTLE_FOR_EMPYREAN.key
TITANS_KEY = TITANS.key
ELYSIAN_KEY = ELYSIAN.key
STEAM_KEY = STEAM.key

# The contribution upserts, in the order they are applied: one per aggregate table, made from its
# declaration (services.stats.aggregates). Each takes %(games)s (a list of game ids: one game from
# the worker, many from a batch or a recount) and %(sign)s (+1 or -1).
AGGREGATE_SQL = [aggregate.contribution_sql for aggregate in AGGREGATES]
AGGREGATE_TABLES = [aggregate.table for aggregate in AGGREGATES]


# The revision of the schema a migration that counts games runs at (``counting_at``); None: the head.
_REVISION: ContextVar[str | None] = ContextVar("counting_revision", default=None)


@contextmanager
def counting_at(revision: str) -> Iterator[None]:
    """Count games as a database at ``revision`` can (a migration calling the code that settles and
    counts games, revision 0017): only the aggregates it has, each as it ran then."""
    token = _REVISION.set(revision)
    try:
        yield
    finally:
        _REVISION.reset(token)


def _contribution_statements() -> list[str]:
    revision = _REVISION.get()
    if revision is None:
        return AGGREGATE_SQL
    return [a.contribution_sql_at(revision) for a in AGGREGATES if a.since <= revision]


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
    for statement in _contribution_statements():
        conn.execute(statement, {"games": games, "sign": sign}, prepare=prepare)


# Games taken back out by one statement of the recount (a batch bounds the statement's size).
RECOUNT_BATCH = 50_000

# The key of recount_differences' answer that counts the games whose flags break that rule.
COUNTING_RULE = "game_records.counted"


def recount_differences(conn: Connection) -> dict[str, int]:
    """Check the agg_* tables against a recount from the game_* rows: per table, how many of its
    rows do not equal the sum of the counted games' contributions (all zeros: they agree); and
    (``COUNTING_RULE``) how many games are counted (or pending) and should not be, or the reverse,
    by the rule that one match counts once (services.games.disputes.COUNTING_GAMES).

    It takes every counted game's contribution back out inside a savepoint, counts the rows left
    non-zero, and rolls back, so the check uses the very statements that wrote the aggregates and
    changes nothing. It holds the fold's lock meanwhile, so no fold adds games between the reading of
    the counted games and the check, nor waits on the rows it touches in another order (a deadlock);
    a replay writing counts directly (not through the fold) meanwhile still shows up as differences."""
    # imported here: services.games.disputes imports this module (apply_contribution)
    from services.games.disputes import COUNTING_GAMES

    differences = {}
    with conn.transaction(force_rollback=True):
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (FOLD_LOCK,))
        ids = [r[0] for r in conn.execute("SELECT game_id FROM game_records WHERE counted ORDER BY game_id")]
        # games whose flags break the rule of which game of a match counts (services.games.disputes)
        differences[COUNTING_RULE] = conn.execute(
            f"""SELECT count(*) FROM game_records r FULL JOIN ({COUNTING_GAMES}) c ON c.id = r.game_id
                WHERE coalesce(r.counted OR r.pending, false) <> (c.id IS NOT NULL)""").fetchone()[0]
        for start in range(0, len(ids), RECOUNT_BATCH):
            apply_contribution(conn, ids[start:start + RECOUNT_BATCH], -1)
        for aggregate in AGGREGATES:
            differences[aggregate.table] = conn.execute(aggregate.nonzero_rows_sql).fetchone()[0]
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
    record: Any  # the game's own record (engine.bfe.record.GameRecord …)
    log: GameLog
    played_on: Any  # a date: meta.date, else the day the log was received
    event_id: int | None
    counted: bool  # a valid game: its contribution belongs in the aggregates
    # how it ended, seat by seat (ReplayResult.outcome): its game_seats rows; None writes none
    outcome: Outcome | None = None


# Columns written by COPY, per table, in the order _record_rows yields their values (the one list of
# them: tests/bench/bench_dashboards.py copies its rows by it too). game_records and game_seats are
# every game's; game_players and game_player_* are Battle for Empyrean's, titans_* Titans of Empyrean's
# (``GAME_ROWS``).
RECORD_COLUMNS = {
    "game_records": "game_id, players, battlefields, first_player, winner, margin, decisions, played_on, event_id, "
                    "counted, pending, engine_version, catalog_version, end_reason, conceded_by, game",
    "game_players": "game_id, seat, player_name, deck, is_first_player, won, final_might, battlefields_won, "
                    "unseen",
    "game_player_battlefields": "game_id, seat, position, battlefield, might, won",
    "game_player_cards": "game_id, seat, card, deployed, first_deployed_round, revealed, moved, destroyed, returned, "
                         "might_gained, might_at_end, on_board_at_end",
    "game_player_rounds": "game_id, seat, round, is_first_player, essence_available, essence_spent, "
                          "essence_unspent, might",
    # every game's: how each seat finished (migration 0018)
    "game_seats": "game_id, seat, player_name, faction, rank, score, won, team",
    # Titans of Empyrean's (migration 0021)
    "titans_games": "game_id, rounds, first_to_act, top_initiative_seat",
    "titans_seats": "game_id, seat, ally",
    "titans_squad_titans": "game_id, seat, titan, species, survived, damage_dealt, damage_taken, top_initiative",
    "titans_maneuvers_played": "game_id, seat, maneuver, plays",
    # Elysian Battlefields' (migration 0022)
    "elysian_games": "game_id, rounds, first_seat, attacks",
    "elysian_seats": "game_id, seat, position, out_order, " + ", ".join(FACES) + ", sets, repelled, ravaged",
    "elysian_cards_played": "game_id, seat, card, plays",
    # Empyreal: Spells & Steam's (migration 0023)
    "steam_games": "game_id, rounds, start_seat, end_trigger, variants, team_shape",
    "steam_seats": "game_id, seat, captain, position, goods, demand, awards",
    "steam_teams": "game_id, team, size, score, rank, won, started, colour_bonus",
    "steam_specialists": "game_id, seat, specialist, hires",
    "steam_spellcars": "game_id, seat, spellcar, taken, activations",
    "steam_awards": "game_id, seat, award, points, place",
}


def _record_rows(game: FinishedGame, engine_version: str, pending: bool) -> dict[str, list[tuple]]:
    """The record rows of one finished game: what every game has (game_records, game_seats), then the
    game's own tables (``GAME_ROWS``; a game without tables of its own writes none)."""
    log, outcome = game.log, game.outcome
    names = list(log.meta.get("players", ()))
    seats = outcome.seats if outcome is not None else ()
    factions = rules_for(log.game).factions(log) if seats else []
    own = GAME_ROWS.get(log.game)
    rows = own(game) if own is not None else {}
    record = {"battlefields": None, "first_player": None, "margin": None, "decisions": len(log.decisions),
              "winner": outcome.winner if outcome is not None else None,
              "end_reason": outcome.how if outcome is not None else "score",
              "conceded_by": outcome.conceded_by if outcome is not None else None, **rows.pop("game_records", {})}
    return {
        "game_records": [(game.game_id, log.setup.players, record["battlefields"], record["first_player"],
                          record["winner"], record["margin"], record["decisions"], game.played_on, game.event_id,
                          game.counted and not pending, game.counted and pending, engine_version, log.catalog,
                          record["end_reason"], record["conceded_by"], log.game)],
        "game_seats": [(game.game_id, s.seat, _name(names, s.seat), factions[s.seat - 1], s.rank, s.score, s.won,
                        s.team) for s in seats],
        **rows,
    }


def _name(names: list[str], seat: int) -> str | None:
    return names[seat - 1] if seat <= len(names) else None


def _bfe_rows(game: FinishedGame) -> dict[str, Any]:
    """Battle for Empyrean's own record rows (its record: engine.bfe.record.GameRecord), and under
    "game_records" the columns of game_records it gives, by name (its own, and how the game ended
    as its record says)."""
    rec: GameRecord = game.record
    game_id = game.game_id
    seats = range(1, rec.players + 1)
    names = list(game.log.meta.get("players", ()))
    return {
        "game_records": {"battlefields": rec.battlefields, "first_player": rec.first_player, "margin": rec.margin,
                         "winner": rec.winner, "decisions": rec.decisions, "end_reason": rec.end,
                         "conceded_by": rec.conceded_by},
        "game_players": [(game_id, seat, _name(names, seat), rec.decks[seat - 1],
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


def _titans_rows(game: FinishedGame) -> dict[str, Any]:
    """Titans of Empyrean's own record rows (its record: engine.titans.record.Record); its species
    and results are game_seats'."""
    rec: TitansRecord = game.record
    game_id = game.game_id
    return {
        "titans_games": [(game_id, rec.rounds, rec.first_to_act, rec.top_initiative_seat)],
        "titans_seats": [(game_id, seat, ally) for seat, ally in enumerate(rec.allies, 1)],
        "titans_squad_titans": [(game_id, t.seat, t.titan, t.species, t.survived, t.damage_dealt, t.damage_taken,
                                 t.top_initiative) for t in rec.titans],
        "titans_maneuvers_played": [(game_id, seat, maneuver, plays) for seat, played in enumerate(rec.maneuvers, 1)
                                    for maneuver, plays in sorted(played.items())],
    }


def _elysian_rows(game: FinishedGame) -> dict[str, Any]:
    """Elysian Battlefields' own record rows (its record: engine.elysian.record.Record); its heroes,
    ranks, conquest points and results are game_seats'. A seat's turn-order position counts
    clockwise from the first player (the book's turn order: engine.elysian.game, ``order``)."""
    rec: ElysianRecord = game.record
    game_id = game.game_id
    seats = range(1, rec.players + 1)

    def position(seat: int) -> int | None:
        return None if rec.first is None else (seat - rec.first) % rec.players + 1

    def out_order(seat: int) -> int | None:
        return rec.gone.index(seat) + 1 if seat in rec.gone else None

    return {
        "elysian_games": [(game_id, rec.rounds, rec.first, rec.attacks)],
        "elysian_seats": [(game_id, seat, position(seat), out_order(seat),
                           *(rec.faces[seat - 1][face] for face in range(1, 7)),
                           rec.sets[seat - 1], rec.repelled[seat - 1], rec.ravaged[seat - 1]) for seat in seats],
        "elysian_cards_played": [(game_id, seat, card, plays) for seat, played in enumerate(rec.cards, 1)
                                 for card, plays in sorted(played.items())],
    }


def _steam_rows(game: FinishedGame) -> dict[str, Any]:
    """Empyreal: Spells & Steam's own record rows (its record: engine.steam.record.Record); its
    companies, ranks, victory points and results are game_seats'. A seat's turn-order position counts
    from the start player, who is 1; a team's colour bonus is its team score less its players' own
    points (the bonus is the only part of a team score that is no player's); a team won when its
    players did (the outcome's; without one, when it is the one team ranked first)."""
    rec: SteamRecord = game.record
    game_id, n = game.game_id, rec.players
    seats = range(1, n + 1)
    won = {s.seat: s.won for s in game.outcome.seats} if game.outcome is not None else None

    def position(seat: int) -> int | None:
        return None if rec.start is None else (seat - rec.start) % n + 1

    teams = sorted({t for t in rec.teams if t is not None})
    members = {team: [seat for seat in seats if rec.teams[seat - 1] == team] for team in teams}
    ranks = {team: rec.ranks[members[team][0] - 1] for team in teams}

    def team_won(team: int) -> bool:
        if won is not None:
            return any(won[seat] for seat in members[team])
        return ranks[team] == 1 and sum(r == 1 for r in ranks.values()) == 1

    def places(award: str) -> dict[int, int]:
        points = {seat: rec.award_points[seat - 1].get(award, 0) for seat in seats}
        return {seat: 1 + sum(other > p for other in points.values()) for seat, p in points.items() if p > 0}

    placed = {award: places(award) for award in rec.awards_in_play}
    end = rec.end or (game.outcome.how if game.outcome is not None else "score")
    return {
        "steam_games": [(game_id, rec.rounds, rec.start, end, rec.variants,
                         "v".join(str(len(members[t])) for t in teams) or None)],
        "steam_seats": [(game_id, seat, rec.captains[seat - 1], position(seat), rec.goods[seat - 1],
                         rec.demand[seat - 1], rec.awards[seat - 1]) for seat in seats],
        "steam_teams": [(game_id, team, len(members[team]), rec.team_scores[team - 1], ranks[team], team_won(team),
                         rec.start in members[team],
                         rec.team_scores[team - 1] - sum(rec.scores[seat - 1] for seat in members[team]))
                        for team in teams],
        "steam_specialists": [(game_id, seat, specialist, hires) for seat, hired in enumerate(rec.hired, 1)
                              for specialist, hires in sorted(Counter(hired).items())],
        "steam_spellcars": [(game_id, seat, spellcar, rec.taken[seat - 1][spellcar],
                             rec.activated[seat - 1][spellcar]) for seat in seats
                            for spellcar in sorted(set(rec.taken[seat - 1]) | set(rec.activated[seat - 1]))],
        "steam_awards": [(game_id, seat, award, rec.award_points[seat - 1].get(award, 0), placed[award].get(seat))
                         for award in rec.awards_in_play for seat in seats],
    }


# Each game's own record tables, by game key: a finished game's rows of them (and its columns of
# game_records). A game with no tables of its own yet is recorded in game_records and game_seats.
GAME_ROWS: dict[str, Callable[[FinishedGame], dict[str, Any]]] = {BFE_KEY: _bfe_rows, TITANS_KEY: _titans_rows,
                                                                  ELYSIAN_KEY: _elysian_rows, STEAM_KEY: _steam_rows}


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


def rollup_differences(conn: Connection) -> dict[str, int]:
    """Check each weekly roll-up (agg_X_weekly, migration 0004) against its daily table: per roll-up,
    how many of its rows differ from (or are missing beside) the daily rows summed per ISO week over
    events (all zeros: they agree)."""
    return {aggregate.weekly_table: conn.execute(aggregate.weekly_differences_sql).fetchone()[0]
            for aggregate in AGGREGATES if aggregate.weekly}
