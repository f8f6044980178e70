"""Reading a request body that should be one game log: the checks every endpoint that takes one
log applies (``POST /api/v1/games``, ``POST /api/v1/positions``), so both refuse the same bodies
with the same answers: 415 for another content type or a Content-Encoding, 413 over
EMPYREAN_MAX_UPLOAD_BYTES, 400 for an empty body. What is inside is read by
services.games.store.read_log (400 for a body that is not a JSON object)."""

from __future__ import annotations

from flask import request

from .errors import error_response


def read_log_body(limit: int):
    """The raw body of a one-log request, at most ``limit`` bytes: (bytes, None), or (None, the 4xx
    answer)."""
    if request.mimetype != "application/json":
        return None, error_response(415, "Unsupported Media Type", "send the game log as JSON with "
                                    f"Content-Type: application/json (got {request.mimetype or 'none'!r})",
                                    pointer="")
    encoding = (request.headers.get("Content-Encoding") or "identity").strip().lower()
    if encoding != "identity":
        return None, error_response(415, "Unsupported Media Type", f"Content-Encoding {encoding!r} is not taken "
                                    "here: send one log uncompressed, or many (gzip allowed) to "
                                    "POST /api/v1/events/{id}/games", header="Content-Encoding")
    if request.content_length is not None and request.content_length > limit:
        return None, _too_large(limit)
    raw = request.stream.read(limit + 1)  # also bounds bodies sent without a Content-Length
    if len(raw) > limit:
        return None, _too_large(limit)
    if not raw.strip():
        return None, error_response(400, "Bad Request", "the body is empty: send one game log (a JSON object)",
                                    pointer="")
    return raw, None


def _too_large(limit: int):
    return error_response(413, "Content Too Large", f"the body is larger than {limit} bytes, the most one "
                          "game log may be (EMPYREAN_MAX_UPLOAD_BYTES)", pointer="")
