"""Slow clients ("slowloris"), and the probes that measure what everyone else gets meanwhile.

Shared by tests/fault/test_slow_clients.py (a few dozen connections for seconds) and
tests/bench/bench_slow_clients.py (200 connections for a minute). Loopback only: the API under test
is one this process started.

``SlowClients`` holds ``count`` connections that never finish a request: half trickle a request's
headers, half send complete headers of an anonymous upload with a large Content-Length and then
trickle its body, one byte per connection per ``interval``. A connection the server closes is opened
again at once, as an attacker would.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request

HEADERS_START = b"GET /api/v1/health HTTP/1.1\r\nHost: slow\r\nX-Slow: "
BODY_HEADERS = (b"POST /api/v1/games HTTP/1.1\r\nHost: slow\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000000\r\n\r\n")


class SlowClients:
    def __init__(self, host: str, port: int, count: int, interval: float = 1.0) -> None:
        self.address = (host, port)
        self.count = count
        self.interval = interval
        self.reopened = 0  # connections the server closed and this opened again
        self._socks: list[tuple[str, socket.socket | None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, kind: str) -> socket.socket | None:
        try:
            sock = socket.create_connection(self.address, timeout=5)
            sock.sendall(HEADERS_START if kind == "headers" else BODY_HEADERS)
            sock.setblocking(False)
            return sock
        except OSError:
            return None  # tried again on the next round

    def __enter__(self) -> SlowClients:
        self._socks = [(kind, self._open(kind)) for kind in
                       ("headers" if i % 2 == 0 else "body" for i in range(self.count))]
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            for i, (kind, sock) in enumerate(self._socks):
                if self._stop.is_set():
                    return
                if sock is not None:
                    try:
                        try:  # whatever the server answered (a 401, a 408) is read and dropped
                            if sock.recv(65536) == b"":
                                raise ConnectionResetError("closed by the server")
                        except BlockingIOError:
                            pass
                        sock.send(b"a")
                        continue
                    except OSError:
                        sock.close()
                self.reopened += 1
                self._socks[i] = (kind, self._open(kind))

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(10)
        for _, sock in self._socks:
            if sock is not None:
                sock.close()


class Probe:
    """Runs ``call`` (returns an HTTP status) every ``every`` seconds on a thread, timing each."""

    def __init__(self, call, every: float) -> None:
        self.call = call
        self.every = every
        self.samples: list[tuple[float, int | str]] = []  # seconds taken, status (or the error)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            start = time.monotonic()
            try:
                status: int | str = self.call()
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError as exc:  # a timeout, a refused or reset connection
                status = type(exc).__name__
            self.samples.append((time.monotonic() - start, status))
            self._stop.wait(max(0.0, self.every - (time.monotonic() - start)))

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(60)

    def latencies(self) -> list[float]:
        return sorted(s for s, _ in self.samples)

    def statuses(self) -> set:
        return {status for _, status in self.samples}

    def percentile(self, p: float) -> float:
        values = self.latencies()
        if not values:
            return float("nan")
        return values[min(len(values) - 1, max(0, round(p / 100 * len(values) + 0.5) - 1))]


def get_health(base_url: str, timeout: float):
    def call() -> int:
        with urllib.request.urlopen(f"{base_url}/api/v1/health", timeout=timeout) as response:
            response.read()
            return response.status
    return call


def post_game(base_url: str, token: str, logs, timeout: float):
    """An upload of the next log of ``logs`` (an iterator of dicts) with ``token``."""
    def call() -> int:
        body = json.dumps(next(logs)).encode()
        request = urllib.request.Request(f"{base_url}/api/v1/games", data=body, method="POST", headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            return response.status
    return call
