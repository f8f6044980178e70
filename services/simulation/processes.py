"""Games played in worker processes: the balance report's chunks, the demo league's divisions.

``process_map(fn, tasks, jobs)`` yields ``fn(task)`` for each task, in order: in this process when
``jobs`` is 1, else in ``jobs`` spawned processes (spawn, not fork: each starts clean, picks the
compiled engine when it is built, services.platform.native, and registers the games named in
EMPYREAN_EXTRA_GAMES, as every process of ours does: a game registered in this process by other
means is unknown there). ``fn`` must be a module-level function and the tasks picklable. The results
do not depend on ``jobs``: every game is a seeded self-play.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def process_map(fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int) -> Iterator[Any]:
    if jobs <= 1:
        yield from map(fn, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(jobs, initializer=_start_worker) as pool:
        yield from pool.imap(fn, tasks)


def _start_worker() -> None:
    from services.platform.config import Config
    from services.platform.games import register_extra_games
    from services.platform.native import use_native_engine

    use_native_engine()
    register_extra_games(Config.from_env().extra_games)
