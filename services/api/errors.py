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


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(PoolTimeout, database_unavailable)
    app.register_error_handler(psycopg.OperationalError, database_unavailable)

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
