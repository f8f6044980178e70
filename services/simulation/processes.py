"""Games played in worker processes: the balance report's chunks, the demo league's divisions.

``process_map(fn, tasks, jobs)`` yields ``fn(task)`` for each task, in order: in this process when
``jobs`` is 1, else in ``jobs`` spawned processes (spawn, not fork: each starts clean and picks the
compiled engine when it is built, services.platform.native). ``fn`` must be a module-level function
and the tasks picklable. The results do not depend on ``jobs``: every game is a seeded self-play.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def process_map(fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int) -> Iterator[Any]:
    if jobs <= 1:
        yield from map(fn, tasks)
        return
    from services.platform.native import use_native_engine

    with multiprocessing.get_context("spawn").Pool(jobs, initializer=use_native_engine) as pool:
        yield from pool.imap(fn, tasks)
