"""The client side of uploads, for ``empyrean upload``: one HTTP session with retries (urllib3's
Retry, with backoff and Retry-After honoured), single-game posts, and tournament bundles streamed
as NDJSON so a season of logs is never held in memory at once."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from services.games.status import FINISHED

# `upload --wait`: how long one game's verdict is waited for before its pending status is printed
VERDICT_WAIT_S = 60.0


class UploadError(RuntimeError):
    """The API refused the request as a whole (or could not be reached); the message says why, and
    ``status`` is the HTTP status of a refusal (None when the API could not be reached)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def as_bytes(raw: object) -> bytes:
    """A game as read from a file: a decoded JSON value is sent as JSON; undecodable text or bytes
    go as they are, so the service stores and judges exactly what the file held."""
    if isinstance(raw, bytes):
        return raw
    if isinstance(raw, str):
        return raw.encode()
    return json.dumps(raw, ensure_ascii=False).encode()


@dataclass
class ApiClient:
    base_url: str
    uploader: str | None = None
    timeout: float = 30.0
    token: str | None = None  # an API token (docs/security.md), sent as Authorization: Bearer

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        retry = Retry(total=5, backoff_factor=0.5, status_forcelist=(429, 502, 503, 504),
                      allowed_methods=None,  # POST too: a repeated upload is deduplicated by content
                      respect_retry_after_header=True, raise_on_status=False)
        self.session = requests.Session()
        self.session.mount("http://", HTTPAdapter(max_retries=retry))
        self.session.mount("https://", HTTPAdapter(max_retries=retry))
        # A streamed bundle cannot be sent twice (its generator is spent), so it gets no retries.
        self.bundle_session = requests.Session()
        for session in (self.session, self.bundle_session):
            if self.uploader:
                session.headers["X-Uploader"] = self.uploader
            if self.token:
                session.headers["Authorization"] = f"Bearer {self.token}"

    def _request(self, method: str, path: str, *, session: requests.Session | None = None,
                 **kwargs: Any) -> requests.Response:
        try:
            return (session or self.session).request(method, f"{self.base_url}/api/v1{path}",
                                                     timeout=self.timeout, **kwargs)
        except requests.RequestException as exc:
            raise UploadError(f"could not reach the API at {self.base_url}: {exc}") from None

    @staticmethod
    def _json(response: requests.Response) -> dict:
        try:
            body = response.json()
        except ValueError:
            raise UploadError(f"the API answered {response.status_code} without JSON") from None
        if response.status_code >= 400 and not (isinstance(body, dict) and "id" in body):
            err = body.get("error", {}) if isinstance(body, dict) else {}
            raise UploadError(f"{response.status_code} {err.get('title', '')}: {err.get('message', body)}",
                              status=response.status_code)
        return body

    def post_game(self, raw: bytes) -> dict:
        """One game; the API's answer (id, status, duplicate …) or, for a refused body, its error."""
        response = self._request("POST", "/games", data=raw, headers={"Content-Type": "application/json"})
        if 400 <= response.status_code < 500:
            try:
                return {"rejected": True, "status_code": response.status_code, **response.json()}
            except ValueError:
                return {"rejected": True, "status_code": response.status_code}
        return self._json(response)

    def game(self, game_id: int) -> dict:
        return self._json(self._request("GET", f"/games/{game_id}"))

    def wait(self, game_id: int) -> dict:
        """The game once it has a verdict, or as it is after VERDICT_WAIT_S (still pending)."""
        deadline = time.monotonic() + VERDICT_WAIT_S
        while True:
            body = self.game(game_id)
            if body.get("status") in FINISHED or time.monotonic() > deadline:
                return body
            time.sleep(0.2)

    def event(self, name: str, *, game: str | None = None, starts_on: str | None = None,
              points: object = None) -> dict:
        """Create the event (of ``game``; left out, the service's default; with ``points``, its match
        points), or find the one of that name (whatever its game, unless ``game`` is given: another
        game is then a 409; other points too)."""
        body = {"name": name, "game": game, "starts_on": starts_on, "points": points}
        return self._json(self._request("POST", "/events", json={k: v for k, v in body.items() if v is not None}))

    def post_bundle(self, event_id: int, games: Iterable[bytes]) -> dict:
        """Stream every game as one NDJSON line (chunked transfer: no Content-Length needed)."""
        def lines() -> Iterator[bytes]:
            for raw in games:
                yield raw.replace(b"\n", b" ") + b"\n"  # a JSON text's newlines are only whitespace
        response = self._request("POST", f"/events/{event_id}/games", data=lines(), session=self.bundle_session,
                                 headers={"Content-Type": "application/x-ndjson"})
        return self._json(response)
