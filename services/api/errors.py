"""Every error the API returns is JSON: ``{"error": {"status", "title", "message"}}``.

Client mistakes (unknown URL, wrong method, a body that is not JSON …) keep their 4xx status and
say what was wrong in words; anything unexpected is logged with its traceback and answered 500
without internals.
"""

from __future__ import annotations

import logging

import psycopg
from flask import Flask, jsonify, render_template, request
from psycopg_pool import PoolTimeout
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    NotFound,
)

log = logging.getLogger(__name__)


def error_response(status: int, title: str, message: str, headers=(), **extra):
    """``extra`` adds fields to the error object, e.g. ``pointer`` (the JSON pointer at fault)."""
    response = jsonify({"error": {"status": status, "title": title, "message": message, **extra}})
    response.status_code = status
    for name, value in headers:
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def _message(exc: HTTPException) -> str:
    if isinstance(exc, NotFound):
        return f"there is no {request.path} in this API (see /api/v1/health for a start)"
    if isinstance(exc, MethodNotAllowed):
        allowed = ", ".join(sorted(exc.valid_methods or []))
        return f"{request.path} does not accept {request.method}; it accepts {allowed}"
    return exc.description or exc.name


def _wants_a_page() -> bool:
    """A browser asking for a dashboard URL that does not exist gets a page, not JSON; anything
    under /api/ and any client that does not prefer HTML gets the JSON error."""
    if request.path.startswith("/api/"):
        return False
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


def database_unavailable(exc: Exception):
    """PostgreSQL unreachable (pool timeout, lost connection): 503 with Retry-After, never a 500."""
    log.warning("database unavailable on %s %s: %s", request.method, request.path, exc)
    return error_response(503, "Service Unavailable", "the database is not reachable right now; nothing "
                          "was stored — please try again shortly", headers=[("Retry-After", "5")])


# What each unique constraint a request can meet guards, in the words of the request's fields.
# Every write that can race on one answers it itself (ON CONFLICT, or a savepoint and a 409); this
# is the net under them: a violation that still reaches the top is a 409 naming the field, never a 500.
UNIQUE_FIELDS = {
    "events_name_key": ("/name", "another event is already called that; choose another name"),
    "games_content_hash_key": ("", "this game (the same content) was stored by another request a moment ago; "
                                   "send it again to be told its id"),
    "event_matches_key": ("", "this match was recorded by another request a moment ago; send it again"),
    "disputes_match_key": ("", "this match's dispute was changed by another request a moment ago; send it again"),
    "api_tokens_prefix_key": ("", "a token with this prefix was made a moment ago; try again"),
}


def unique_violation(exc: psycopg.errors.UniqueViolation):
    """A unique constraint met by a race the code did not answer itself: 409 naming the field."""
    constraint = getattr(exc.diag, "constraint_name", None) or ""
    log.warning("unique violation %s on %s %s", constraint, request.method, request.path)
    pointer, message = UNIQUE_FIELDS.get(constraint, ("", "another request changed the same thing a moment "
                                                          "ago; send it again"))
    return error_response(409, "Conflict", message, pointer=pointer)


# The longest URL (path and query) the app serves; longer: 414 and the JSON error. gunicorn is
# started with --limit-request-line 8190 (its largest bounded value; services/platform/launcher.py,
# infra/container-entrypoint.sh) so that these reach the app; a request line over 8190 bytes is
# still refused by gunicorn itself, with its own HTML page (docs/security.md, "Input limits").
MAX_URL_BYTES = 4096


def _url_bytes() -> int:
    raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI")
    if raw is not None:
        return len(raw.encode("latin-1", "replace"))
    return len(request.environ.get("PATH_INFO", "").encode("latin-1", "replace")) + len(
        request.environ.get("QUERY_STRING", "")) + 1


def url_too_long():
    """Before anything else (rate limits, tokens): a URL over MAX_URL_BYTES is a 414 in JSON."""
    size = _url_bytes()
    if size > MAX_URL_BYTES:
        return error_response(414, "URI Too Long", f"the URL is {size:,} bytes long; at most {MAX_URL_BYTES:,} "
                              "are taken (filters: fewer values, or several requests)")
    return None


def register_error_handlers(app: Flask) -> None:
    app.before_request_funcs.setdefault(None, []).insert(0, url_too_long)
    app.register_error_handler(PoolTimeout, database_unavailable)
    app.register_error_handler(psycopg.OperationalError, database_unavailable)
    app.register_error_handler(psycopg.errors.UniqueViolation, unique_violation)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if isinstance(exc, NotFound) and _wants_a_page():
            return render_template("not_found.html", page_title="Page not found",
                                   message=f"There is no page {request.path}."), 404
        # keeps the exception's headers, e.g. Allow on a 405
        return error_response(exc.code or 500, exc.name, _message(exc), exc.get_headers())

    @app.errorhandler(Exception)
    def unexpected_error(exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        err = InternalServerError()
        return error_response(500, err.name, "the server failed on this request; it has been logged")
