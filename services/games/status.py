"""A stored game's status: the values, which of them are still on their way, and the moves between them.

Stored in ``games.status`` (text; a CHECK constraint of migration 0001 holds the same values). Only
the modules of this package write it, and every write names its move (``Move``), so the allowed
transitions are read here rather than pieced together from the SQL that performs them.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class GameStatus(StrEnum):
    RECEIVED = "received"  # stored; its replay task is not sent (the sweeper sends it)
    QUEUED = "queued"  # stored and sent to a worker (or about to be, right after the commit)
    REPLAYING = "replaying"  # a worker has it; or replayed valid, waiting to be counted
    VALID = "valid"
    ILLEGAL = "illegal"
    MISMATCH = "mismatch"
    MALFORMED = "malformed"
    ERROR = "error"  # the service failed on it (a bug of ours, not of the log)


PENDING = frozenset({GameStatus.RECEIVED, GameStatus.QUEUED, GameStatus.REPLAYING})
FINISHED = frozenset(GameStatus) - PENDING


def sql_in(statuses: frozenset[GameStatus]) -> str:
    """A status set as SQL text, ``('queued', 'received')``: a literal, not a parameter, so that the
    planner matches it with the partial index on unfinished games (migration 0001) in every plan."""
    return "(" + ", ".join(f"'{s}'" for s in sorted(statuses)) + ")"


class Move(Enum):
    """Every way a game's status changes, with the statuses it may come from and the message shown
    beside the new status. ``None`` as a target: the engine's verdict decides."""

    STORE = (frozenset(), GameStatus.QUEUED, "waiting for a worker")
    STORE_MALFORMED = (frozenset(), GameStatus.MALFORMED, None)
    UNSENT = (frozenset({GameStatus.QUEUED}), GameStatus.RECEIVED, "stored; the sweeper will send it to a worker")
    # A replay takes only a game that waits for one. A finished game is replayed again only after
    # REPROCESS has put it back in the queue: a message that arrives for a finished game (a sweeper
    # re-send of a game that was only waiting its turn, a redelivery) is stale, and replaying it would
    # take the game's counts out of the statistics and put them back while everyone reads them.
    CLAIM = (PENDING, GameStatus.REPLAYING, "being replayed")
    REPLAYED = (PENDING, None, None)
    REPLAYED_TO_COUNT = (PENDING, GameStatus.REPLAYING, "replayed: valid; being added to the statistics")
    COUNTED = (frozenset({GameStatus.REPLAYING}), None, None)
    FAILED = (frozenset(GameStatus), GameStatus.ERROR, None)
    RESEND = (PENDING, GameStatus.QUEUED, "waiting for a worker (re-sent)")
    REPROCESS = (FINISHED, GameStatus.QUEUED, "waiting to be replayed again (reprocess)")

    def __init__(self, sources: frozenset[GameStatus], target: GameStatus | None, message: str | None) -> None:
        self.sources, self.target, self.message = sources, target, message
