"""CPU-bound work of a request, one at a time per process, so that a gevent worker's event loop
keeps serving everyone else.

The API's gunicorn workers are gevent's (services/platform/gunicorn_conf.py): every connection of a
process is a greenlet on one event loop, which serves the others only while the running greenlet
waits on I/O. A request that computes for tens of milliseconds without waiting (the positions API
replaying a long seat view) holds the loop that long; twenty at once were twenty in a row ahead of
every health check and upload of the process (issue 26). Taken in turns, the computations still
run one after another, but a greenlet waiting for its turn lets the loop go on, so the others wait
at most for the computation under way.

Not threads: the interpreter lock lets one thread compute at a time, and the loop's thread then
competes for it with every computing thread — health answered more slowly than in the loop
(docs/performance.md, "Positions under load"). Outside gevent (the development server, the tests'
werkzeug threads) the lock is a thread lock, and those threads take turns anyway.
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

T = TypeVar("T")

_turn: threading.Lock | None = None
_turn_made = threading.Lock()


def in_turn(fn: Callable[..., T], *args) -> T:
    """``fn(*args)`` once no other request of this process is computing in turn."""
    global _turn
    if _turn is None:
        with _turn_made:
            # made on first use, after gevent's worker patched threading: a gevent lock there
            _turn = _turn or threading.Lock()
    with _turn:
        return fn(*args)
