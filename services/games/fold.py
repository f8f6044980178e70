"""Counting replayed games into the statistics: the fold of pending games (migration 0008).

A replay task leaves its valid games pending (their record rows written, their contribution not yet
added); the fold adds the contribution of every pending game, a batch per transaction, and gives
those games their final status. Why fold rather than count in each task's transaction: workers no
longer wait on each other's aggregate rows (games of the same days and weeks share them), replay
goes on while the fold runs, and small tasks share one fold's statements (docs/performance.md).
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from psycopg_pool import ConnectionPool

from services.games.records import any_foldable, fold_pending
from services.games.replay import no_commit_wait

log = logging.getLogger(__name__)

# Games added to the aggregates per transaction. Bigger batches cost only a little less per game
# (tests/bench/bench_chunks.py; a game's rows rarely coincide with another's), and a single upload
# waiting on the same rows should not wait long.
FOLD_BATCH = 2_000
FOLD_BUDGET_S = 20.0  # then the rest is left to a fold task, well inside any task time limit
# A worker process folds at most this often after its replay tasks. A fold's statements touch the
# aggregate rows of the games' days, weeks, decks and event, which a stream of uploads shares, so a
# fold costs nearly as much for a few games as for hundreds: folding after every small task of a
# stream cost more CPU than the uploads themselves (docs/performance.md, "Single uploads with the
# worker beside the API"). The price: a game of a busy stream is counted up to this much later.
FOLD_INTERVAL_S = 0.5


class FoldCadence:
    """When one worker process folds after a replay task: at once, unless it folded less than
    ``interval_s`` ago; then it sends one fold task to run when the interval is up, and the tasks
    finishing before then leave their games to that fold. Times are ``time.monotonic()`` seconds,
    passed in. A fold task that is lost (the broker away) leaves its games to the sweeper's fold."""

    def __init__(self, interval_s: float = FOLD_INTERVAL_S) -> None:
        self.interval_s = interval_s
        self._last_fold = float("-inf")
        self._fold_due = float("-inf")  # when the fold task this process sent runs

    def after_replay(self, now: float) -> float | None:
        """0.0: fold now; a positive number: send a fold task to run in that many seconds; None: a
        fold task this process sent is still to come and will count these games too."""
        if now >= self._last_fold + self.interval_s:
            return 0.0
        if self._fold_due > now:
            return None
        self._fold_due = self._last_fold + self.interval_s
        return self._fold_due - now

    def fold_again(self, now: float) -> float | None:
        """A fold of this process left games (committed while it folded): in how many seconds a fold
        task should count them, or None when one this process sent is still to come."""
        if self._fold_due > now:
            return None
        self._fold_due = now + self.interval_s
        return self.interval_s

    def folded(self, now: float) -> None:
        """A fold of this process ended at ``now``."""
        self._last_fold = now


def fold_pending_counts(pool: ConnectionPool, budget_s: float = FOLD_BUDGET_S,
                        on_budget_spent: Callable[[], None] | None = None,
                        left_over: Callable[[], None] | None = None) -> int:
    """Add every pending game to the aggregates, a batch per transaction, and give those games their
    final status; returns how many this call counted. Every worker calls it after committing a chunk
    (at its fold cadence), and the sweeper does, so nothing pending is left behind:

    - one transaction folds at a time (an advisory lock). A call that finds the lock taken returns at
      once: the holder looks again after it lets go, and sees what was committed before that;
    - after a batch it tries again, and it stops when a look *after* letting go of the lock finds
      nothing pending that is not held by a replay under way (which folds its own games after);
    - with ``left_over`` (a worker's cadence), it goes on only while the batches are full: games
      committed meanwhile are handed to ``left_over`` (which sends a fold task for later) rather than
      chased a few at a time, each few costing a fold's statements;
    - after ``budget_s`` seconds it stops after the batch under way and calls ``on_budget_spent``
      (a worker sends a fold task there, so a long backlog does not hold up one task past its
      time limit; without it, the sweeper's fold carries on)."""
    folded, started = 0, time.perf_counter()
    while True:
        with pool.connection() as conn, conn.transaction():
            no_commit_wait(conn)
            t = time.perf_counter()
            ids = fold_pending(conn, FOLD_BATCH)
            if ids:
                # the verdict written by the replay becomes the status (Move.COUNTED)
                conn.execute(
                    """UPDATE games g SET status = v.status, status_message = v.message,
                                          finished_at = now(), updated_at = now()
                       FROM verdicts v WHERE g.id = ANY(%s) AND v.game_id = g.id""", (ids,))
                log.info("counted %d games: aggregates %.3f s", len(ids), time.perf_counter() - t)
        if ids is None:
            return folded
        folded += len(ids)
        if not ids or (left_over is not None and len(ids) < FOLD_BATCH):
            with pool.connection() as conn:
                if not any_foldable(conn):
                    return folded
            if left_over is not None:
                left_over()
                return folded
        if time.perf_counter() - started > budget_s:
            if on_budget_spent is not None:
                on_budget_spent()
            return folded
