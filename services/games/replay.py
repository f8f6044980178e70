"""Replaying stored games and writing what the engine says of them: verdicts, record rows, statuses,
and (unless the fold does it) the aggregate contribution.

``replay_stored_games`` replays only games that wait for a replay (``Move.CLAIM``): a message for a
game that is finished already (a sweeper re-send of a game that was only waiting its turn, a
redelivery) is stale and changes nothing, so a finished game's counts stay put until someone asks
for it again (``services.games.dispatch.mark_reprocess``). And it is idempotent: everything it
writes happens in one transaction that holds the games' row locks, and the old contribution is taken
out before the new one is added (services.games.records), so a game replayed again, by a reprocess
or by two messages at once, is counted once. A lost or failing database connection
(psycopg.OperationalError) is left to the caller to retry; anything else is a bug of ours and
leaves the game in ``error`` with a message.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timezone

import psycopg
from psycopg import Connection
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from engine.replay import ENGINE_VERSION, ReplayResult, replay
from services.games.disputes import check_matches, lock_matches
from services.games.records import FinishedGame, apply_contribution, copy_record_rows, remove_records
from services.games.status import GameStatus, Move, sql_in
from services.platform.storable import storable

log = logging.getLogger(__name__)

# finished games whose record is complete; only valid ones enter the statistics (services.games.records)
RECORDED_VERDICTS = (GameStatus.VALID, GameStatus.MISMATCH)


def replay_stored_games(pool: ConnectionPool, game_ids: list[int], *, defer_counts: bool = False,
                        claim: bool = True, interruptions: tuple[type[BaseException], ...] = ()) -> dict[int, str]:
    """Replay stored games together and write their outcomes in one transaction; returns each
    game's verdict (games that no longer exist, or that no longer wait for a replay, are left out).

    Writing a chunk together is what makes bulk ingest fast: one COPY per record table, one
    statement for the verdicts and one for the statuses, and (counted here) one upsert per aggregate
    for the whole chunk (the roll-up triggers fire once per statement). If the chunk's transaction
    fails for any reason but a lost connection, nothing of it is kept and its games are replayed
    one by one (each counted in its own transaction), so one bad game ends in ``error`` alone.

    ``defer_counts``: the valid games are left ``pending`` (status 'replaying', "being added to the
    statistics") for fold_pending_counts, instead of being counted in this transaction.
    ``claim``: first mark the games 'replaying' (attempts + 1) in a transaction of its own, so a
    long chunk shows as taken; without it, attempts + 1 is written with the verdict.
    ``interruptions``: exceptions that stop the replay without judging the games (a task's time
    limit): the transaction is rolled back, the games stay 'replaying' and the exception goes on."""
    ids = sorted(set(game_ids))
    if not claim:
        return _replay(pool, ids, defer_counts, False, interruptions)
    with pool.connection() as conn, conn.transaction():
        # Committed on its own so that GET /games/{id} (and the sweeper) can see the games are
        # taken. Rows locked in id order: chunks that overlap (a redelivery beside a sweeper
        # re-send) wait for each other instead of deadlocking.
        no_commit_wait(conn)
        taken = sorted(r[0] for r in conn.execute(
            f"""UPDATE games SET status = %s, status_message = %s,
                                attempts = attempts + 1, replay_started_at = now(), updated_at = now()
               WHERE id IN (SELECT id FROM games WHERE id = ANY(%s) AND status IN {sql_in(Move.CLAIM.sources)}
                            ORDER BY id FOR UPDATE)
               RETURNING id""", (Move.CLAIM.target, Move.CLAIM.message, ids)))
    if len(taken) < len(ids):
        log.info("replay: games %s are finished already or gone (a stale message); nothing to do for them",
                 sorted(set(ids) - set(taken)))
    if not taken:
        return {}
    return _replay(pool, taken, defer_counts, True, interruptions)


def _replay(pool: ConnectionPool, taken: list[int], defer_counts: bool, claimed: bool,
            interruptions: tuple[type[BaseException], ...]) -> dict[int, str]:
    try:
        with pool.connection() as conn, conn.transaction():
            no_commit_wait(conn)
            return _replay_locked(conn, taken, defer_counts, claimed)
    except psycopg.OperationalError:
        raise  # transient (a lost connection, a deadlock): the caller retries
    except interruptions:
        # Out of time, not a bug of the log or the engine: the transaction is rolled back and the
        # games stay 'replaying' for the sweeper, rather than being marked 'error'.
        raise
    except Exception as exc:
        if len(taken) > 1:
            log.exception("replaying a chunk of %d games failed; replaying them one by one", len(taken))
            return {game_id: status for one in taken
                    for game_id, status in replay_stored_games(pool, [one], interruptions=interruptions).items()}
        log.exception("replay of game %s failed", taken[0])
        _mark_error(pool, taken[0], f"the replay pipeline failed ({type(exc).__name__}: {exc}); "
                    "this is a bug in the service, not in the log")
        return {taken[0]: "error"}


def no_commit_wait(conn: Connection) -> None:
    """A replay's writes need not wait for the disk flush at commit (synchronous_commit off, this
    transaction only): if PostgreSQL crashed in the next few milliseconds the verdicts would be lost
    but never half-written, the games would still be stored (their upload committed synchronously)
    and left in a pre-verdict state, and the sweeper would replay them again. Waiting for the flush
    twice per game was most of a replay task's time on the embedded stack."""
    conn.execute("SET LOCAL synchronous_commit = off")


def _replay_locked(conn: Connection, game_ids: list[int], defer_counts: bool, claimed: bool) -> dict[int, str]:
    started, started_at = time.perf_counter(), datetime.now(timezone.utc)
    # A game's record rows are written only by a holder of its games row lock (the fold only
    # updates them), so whether it has any is settled once the lock is held. A game another message
    # finished while this one waited for the lock is left alone (Move.CLAIM).
    rows = conn.execute(
        f"""SELECT id, raw_log, event_id, match_id, coalesce(played_on, received_at::date),
                   EXISTS (SELECT 1 FROM game_records r WHERE r.game_id = g.id)
            FROM games g WHERE id = ANY(%s) AND status IN {sql_in(Move.REPLAYED.sources)}
            ORDER BY id FOR UPDATE OF g""", (game_ids,)).fetchall()
    if not rows:
        return {}
    match_ids = sorted({r[3] for r in rows if r[3] is not None})
    lock_matches(conn, match_ids)  # before anything is written: see lock_matches
    loaded = time.perf_counter()
    replayed = [(game_id, event_id, match_id, played_on, replay(bytes(raw), record=True))
                for game_id, raw, event_id, match_id, played_on, _ in rows]
    replayed_at = time.perf_counter()
    recorded = [r[0] for r in rows if r[5]]
    if recorded:  # replayed before: its old record (and counts) go first
        remove_records(conn, recorded)
    _upsert_verdicts(conn, [(game_id, result) for game_id, _, _, _, result in replayed])
    # One match counts once (services.games.disputes): its disputes opened or updated, its other
    # games settled, and which of these games count.
    counting = check_matches(conn, match_ids, fresh=[game_id for game_id, *_ in replayed], locked=True)
    finished = [FinishedGame(game_id, result.record, result.log, played_on, event_id,
                             counted=result.verdict.status == GameStatus.VALID
                             and (match_id is None or game_id in counting), outcome=result.outcome)
                for game_id, event_id, match_id, played_on, result in replayed
                if result.verdict.status in RECORDED_VERDICTS and result.record is not None and result.log is not None]
    copy_record_rows(conn, finished, engine_version=ENGINE_VERSION, pending=defer_counts)
    deferred = {game.game_id for game in finished if game.counted} if defer_counts else set()
    conn.execute(
        """UPDATE games g SET status = u.status, status_message = u.message, engine_version = %s,
                              catalog_version = coalesce(u.catalog, g.catalog_version),
                              attempts = g.attempts + %s, replay_started_at = coalesce(%s, g.replay_started_at),
                              finished_at = now(), updated_at = now()
           FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[]) AS u(id, status, message, catalog)
           WHERE g.id = u.id""",
        (ENGINE_VERSION, 0 if claimed else 1, None if claimed else started_at,
         [game_id for game_id, *_ in replayed],
         [Move.REPLAYED_TO_COUNT.target if game_id in deferred else result.verdict.status
          for game_id, *_, result in replayed],
         [Move.REPLAYED_TO_COUNT.message if game_id in deferred else storable(result.verdict.message)
          for game_id, *_, result in replayed],
         [result.log.catalog if result.log else None for *_, result in replayed]))
    written = time.perf_counter()
    # Last, so the aggregate rows (shared with every worker writing games of the same days and
    # weeks) stay locked for as short a time as possible before the commit.
    counted = [game.game_id for game in finished if game.counted and not defer_counts]
    if counted:
        apply_contribution(conn, counted, 1)
    # One line per chunk: what a chunk's time went on (tests/bench/bench_pipeline.py adds them up).
    log.info("replayed %d games: load %.3f s, replay %.3f s, records %.3f s, aggregates %.3f s",
             len(replayed), loaded - started, replayed_at - loaded, written - replayed_at,
             time.perf_counter() - written)
    return {game_id: result.verdict.status for game_id, *_, result in replayed}


def _upsert_verdicts(conn: Connection, results: list[tuple[int, ReplayResult]]) -> None:
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO verdicts (game_id, status, message, decision_index, round, phase, player, decision,
                                     rule, legal, errors, board, unseen, engine_version, catalog_version,
                                     replayed_at)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::integer[], %s, %s, now())
               ON CONFLICT (game_id) DO UPDATE SET
                   status = EXCLUDED.status, message = EXCLUDED.message,
                   decision_index = EXCLUDED.decision_index, round = EXCLUDED.round, phase = EXCLUDED.phase,
                   player = EXCLUDED.player, decision = EXCLUDED.decision, rule = EXCLUDED.rule,
                   legal = EXCLUDED.legal, errors = EXCLUDED.errors, board = EXCLUDED.board,
                   unseen = EXCLUDED.unseen,
                   engine_version = EXCLUDED.engine_version, catalog_version = EXCLUDED.catalog_version,
                   replayed_at = now()""",
            [(game_id, v.status, storable(v.message), v.index, v.round, v.phase, v.player, storable(v.decision),
              storable(v.rule), Jsonb(storable(v.legal)), Jsonb(storable(v.errors)), storable(v.board),
              list(v.unseen), ENGINE_VERSION, result.log.catalog if result.log else None)
             for game_id, result in results for v in (result.verdict,)])


def _mark_error(pool: ConnectionPool, game_id: int, message: str) -> None:
    """The game leaves the pipeline as ``error``, counted nowhere, with the reason."""
    try:
        with pool.connection() as conn, conn.transaction():
            row = conn.execute("SELECT match_id FROM games WHERE id = %s FOR UPDATE", (game_id,)).fetchone()
            matches = [row[0]] if row is not None and row[0] is not None else []
            lock_matches(conn, matches)  # before any aggregate row (lock_matches)
            remove_records(conn, [game_id])
            conn.execute(
                """INSERT INTO verdicts (game_id, status, message, engine_version) VALUES (%s, 'error', %s, %s)
                   ON CONFLICT (game_id) DO UPDATE SET status = 'error', message = EXCLUDED.message,
                       decision_index = NULL, round = NULL, phase = NULL, player = NULL, decision = NULL,
                       rule = NULL, legal = '[]', errors = '[]', board = NULL, unseen = '{}',
                       engine_version = EXCLUDED.engine_version, replayed_at = now()""",
                (game_id, storable(message), ENGINE_VERSION))
            conn.execute(
                """UPDATE games SET status = %s, status_message = %s, finished_at = now(), updated_at = now()
                   WHERE id = %s""", (Move.FAILED.target, storable(message), game_id))
            check_matches(conn, matches, locked=True)  # another upload of its match may count now, or a dispute open
    except Exception:  # the game stays 'replaying'; the sweeper sends it again later
        log.exception("could not even mark game %s as failed", game_id)
