"""The contract between the code that sends tasks (services.games.dispatch) and the workers that
run them (workers/): the task names and the lanes they travel. Both sides import this module, so
neither imports the other.

Two lanes. A worker consumes both and always empties ``interactive`` first ("priority" queue order:
kombu's Redis transport polls the queues in the listed order rather than round-robin).
"""

from __future__ import annotations

QUEUE_INTERACTIVE = "interactive"  # single uploads, dispute checks, health pings
QUEUE_BULK = "bulk"  # tournament bundles, reprocessing, the sweeper's re-sends
QUEUES = (QUEUE_INTERACTIVE, QUEUE_BULK)

PING_TASK = "empyrean.ping"  # the round trip producer → Redis → worker → result backend
REPLAY_CHUNK_TASK = "empyrean.replay_games"  # games by id, replayed in one transaction
SWEEP_TASK = "empyrean.sweep"  # periodic: re-send games left behind, fold what is pending
FOLD_TASK = "empyrean.fold_counts"  # count replayed games waiting for it

# Where each task goes unless its sender names a lane (single uploads send replay chunks on the
# interactive lane).
ROUTES = {PING_TASK: QUEUE_INTERACTIVE, SWEEP_TASK: QUEUE_INTERACTIVE,
          REPLAY_CHUNK_TASK: QUEUE_BULK, FOLD_TASK: QUEUE_BULK}
