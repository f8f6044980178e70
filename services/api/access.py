"""Who may do what (docs/security.md): bearer tokens, roles, object-level checks, rate limits.

- A request proves who it is with ``Authorization: Bearer emp_<prefix>_<secret>`` (services.platform.tokens).
  Reads are public and need no token; every mutating route says which roles it accepts with
  ``@require(...)``, or that it needs none because it stores nothing with ``@public(reason)`` (the
  positions API). No token, or one that is unknown, malformed or revoked: 401 with
  ``WWW-Authenticate: Bearer``. A valid token whose role or event does not allow the request: 403.
  A token sent with a read is checked too (a bad one is a 401), so a client learns at once that
  its token is wrong.
- Object-level checks (``may_manage_event``): an organiser manages the events whose ``organiser``
  is its owner; an admin manages every event; an uploader token bound to an event may upload into
  that event only.
- Unlisted things by id (``may_read_event``, ``may_read_game``): public ones are read by anyone;
  an unlisted event (and its games, disputes and pages) only with a token of its organiser, an
  admin, or an uploader bound to it; an unlisted game also by the token that uploaded it. Anyone
  else is answered 404, as if there were none (sequential ids cannot be walked to find them).
  Lists filter by the same rule in SQL: ``reader_of`` gives what it needs of a token
  (services.games.listing.visible_sql).
- Rate limits (Flask-Limiter, counted in Redis so every API process shares them): per token and
  kind of request (reads, single uploads, bundles, other writes) when a valid token is sent, else
  per client IP. Over the limit: 429 with ``Retry-After`` (seconds) and the JSON error body.
- Failed authentication (a token that is not valid) is counted per client IP on every /api/v1
  route, the probes included (``EMPYREAN_RATE_LIMIT_AUTH_FAILURES``, in Flask-Limiter's storage):
  over it, any request from that address that sends a token is a 429 before the token is looked
  up, so a guesser learns nothing more until the window has passed (docs/security.md).
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time

import psycopg
from cachetools import TTLCache
from flask import Flask, current_app, g, request
from flask_limiter import HEADERS, Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many

from engine.grammar import with_article
from services.platform.config import Config, redis_url_for_limits
from services.platform.tokens import Reader, Token, authenticate, hash_token

from .errors import error_response

log = logging.getLogger(__name__)

API_PATH = "/api/v1/"
# Probes and the API description are never limited (a load balancer polls them).
UNLIMITED_ENDPOINTS = {"api_v1.health.health", "api_v1.health.ready", "api_v1.openapi.openapi_json"}
_INVALID = object()  # g.token when the request's Authorization header did not hold a live token


def _bearer() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return ""  # some other scheme: not a token of ours
    return value.strip()


# Tokens this process checked in the last few seconds, by the SHA-256 of the whole token (never the
# token itself): an upload stream costs one database round trip per token every TOKEN_MEMORY_S, not
# one per request. The price: a revoked token keeps working for up to that long in a process that
# has just checked it (docs/security.md). Only valid tokens are kept; a bad one is checked each time.
TOKEN_MEMORY_S = 5.0
_checked: TTLCache = TTLCache(maxsize=10_000, ttl=TOKEN_MEMORY_S)
_checked_lock = threading.Lock()  # several requests at once per process (gevent greenlets; werkzeug threads in tests)


def _recently_checked(text: str) -> Token | None:
    with _checked_lock:
        return _checked.get(hash_token(text))


def _remember(text: str, token: Token) -> None:
    with _checked_lock:
        _checked[hash_token(text)] = token


def forget_checked_tokens() -> None:
    """Forget every token checked so far (tests that revoke a token and expect it gone at once)."""
    with _checked_lock:
        _checked.clear()


def current_token() -> Token | None:
    """The request's live token, or None (none sent, or not valid); looked up once per request."""
    if "token_lookup_error" in g:  # the database was away a moment ago in this very request
        raise g.token_lookup_error
    if "token" not in g:
        text = _bearer()
        if text is None:
            g.token = None
        else:
            token = None
            if text:
                token = _recently_checked(text)
                if token is None:
                    try:
                        with current_app.extensions["empyrean"].db_pool.connection(timeout=5.0) as conn:
                            token = authenticate(conn, text)
                    except psycopg.OperationalError as exc:  # PoolTimeout too: the caller answers 503
                        g.token_lookup_error = exc
                        raise
                    if token is not None:
                        _remember(text, token)
            g.token = token if token is not None else _INVALID
    return None if g.token is _INVALID else g.token


def _sent_a_bad_token() -> bool:
    current_token()
    return g.token is _INVALID


def unauthorized(message: str | None = None):
    if _sent_a_bad_token():
        message = message or ("the token in the Authorization header is not valid (unknown, mistyped or "
                              "revoked); send Authorization: Bearer emp_<prefix>_<secret>")
        challenge = 'Bearer realm="empyrean", error="invalid_token"'
    else:
        message = message or ("this request needs an API token: send Authorization: Bearer <token> "
                              "(create one with `empyrean token create`)")
        challenge = 'Bearer realm="empyrean"'
    return error_response(401, "Unauthorized", message, headers=[("WWW-Authenticate", challenge)])


def forbidden(message: str):
    return error_response(403, "Forbidden", message)


def require(*roles: str):
    """The view needs a live token of one of ``roles`` (an admin token always qualifies)."""
    def decorate(view):
        @functools.wraps(view)
        def checked(*args, **kwargs):
            token = current_token()
            if token is None:
                return unauthorized()
            if not token.is_admin and token.role not in roles:
                return forbidden(f"{with_article(token.role)} token may not do this; it needs the role "
                                 f"{' or '.join(roles + ('admin',))}")
            return view(*args, **kwargs)
        checked.required_roles = roles + ("admin",)
        return checked
    return decorate


def public(reason: str):
    """A mutating route anyone may call without a token; ``reason`` says why that is safe (it
    stores nothing). Such routes are listed, and tested, by their mark (``public_because``)."""
    def decorate(view):
        view.public_because = reason
        return view
    return decorate


def may_manage_event(token: Token, organiser: str | None) -> bool:
    """Edit, reprocess, upload bundles into and resolve disputes of an event owned by ``organiser``."""
    return token.is_admin or (token.role == "organiser" and organiser is not None and organiser == token.owner)


def may_read_event(token: Token | None, event_id: int, visibility: str, organiser: str | None) -> bool:
    """Read event ``event_id`` (its page, summary, disputes) by id: anyone when it is public; when it
    is unlisted, a token that manages it or an uploader token bound to it."""
    if visibility != "unlisted":
        return True
    return token is not None and (may_manage_event(token, organiser) or token.event_id == event_id)


def may_read_game(token: Token | None, game) -> bool:
    """Read a game (services.games.views.GameView) by id: its status, log and replay. Anyone when
    the game and its event are public; else what may read its event, and the token that uploaded it."""
    if game.visibility != "unlisted" and game.event_visibility != "unlisted":
        return True
    if token is None:
        return False
    if token.is_admin or (game.uploaded_by_token is not None and token.id == game.uploaded_by_token):
        return True
    return game.event_id is not None and (may_manage_event(token, game.event_organiser)
                                          or token.event_id == game.event_id)


def reader_of(token: Token | None) -> Reader:
    """What ``may_read_game`` and ``may_read_event`` look at in a token, for their rules written as
    SQL (services.games.listing.visible_sql, Reader.events_sql)."""
    return Reader.of(token)


def not_your_event(event_id: int):
    return forbidden(f"event {event_id} belongs to another organiser; this token may only manage its own events")


# --- rate limits -----------------------------------------------------------------------------------

def _kind() -> str:
    if request.endpoint == EXPORT_ENDPOINT:
        return "exports"
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return "reads"
    return {"api_v1.games.upload_game": "uploads",
            "api_v1.events.upload_bundle": "bundles"}.get(request.endpoint or "", "writes")


def _token_for_limits() -> Token | None:
    """current_token(), or None while the database is away: Flask-Limiter swallows errors raised in
    its key function (and would look the token up again); the request's own token check then
    answers 503 at once from the error kept in ``g``."""
    try:
        return current_token()
    except psycopg.OperationalError:
        return None


# Public and stateless, asked once per decision by recorders: counted per client address under a
# limit of its own (EMPYREAN_RATE_LIMIT_POSITIONS), token or not.
POSITIONS_ENDPOINT = "api_v1.positions.post_position"
# Bulk exports (a year of games streamed while holding a database connection): a count of their own
# (EMPYREAN_RATE_LIMIT_EXPORTS), per token, else per client address.
EXPORT_ENDPOINT = "api_v1.export.export_games"


def _rate_key() -> str:
    if request.endpoint == POSITIONS_ENDPOINT:
        return f"positions:ip:{get_remote_address()}"
    token = _token_for_limits()
    if token is None:
        return f"{'exports:' if request.endpoint == EXPORT_ENDPOINT else ''}ip:{get_remote_address()}"
    # the prefix, not the row id: unique across databases that share one Redis
    return f"token:{token.prefix}:{_kind()}"


def _rate_limit() -> str:
    config: Config = current_app.extensions["empyrean"].config
    if request.endpoint == POSITIONS_ENDPOINT:
        return config.rate_limit_positions
    if request.endpoint == EXPORT_ENDPOINT:
        return config.rate_limit_exports
    if _token_for_limits() is None:
        return config.rate_limit_anonymous
    return getattr(config, f"rate_limit_{_kind()}")


def _exempt() -> bool:
    return not request.path.startswith(API_PATH) or request.endpoint in UNLIMITED_ENDPOINTS


RATE_RETRY_HEADER = "X-RateLimit-Retry-After"
RATE_KEY_PREFIX = "empyrean-rate"
AUTH_FAILURES = "auth-failures"  # the scope of the failed-authentication counts, per client IP


class AuthFailures:
    """Failed authentications per client IP, counted in the limiter's storage (Redis) with its
    strategy (sliding window counter), so every API process shares the count. Each request that
    sends a token reads it first: one Redis round trip. Redis away: no count and no refusal
    (logged), like the other limits (``swallow_errors``)."""

    def __init__(self, limiter: Limiter, limits: str):
        self.limiter = limiter
        self.limits: list[RateLimitItem] = parse_many(limits)

    def _ids(self) -> tuple[str, str, str]:
        return RATE_KEY_PREFIX, AUTH_FAILURES, get_remote_address()

    def refused_for(self) -> tuple[RateLimitItem, int] | None:
        """(the limit, seconds to wait) while this client is over a limit, else None."""
        try:
            for item in self.limits:
                if not self.limiter.limiter.test(item, *self._ids()):
                    reset = self.limiter.limiter.get_window_stats(item, *self._ids()).reset_time
                    return item, min(item.get_expiry(), max(1, math.ceil(reset - time.time())))
        except Exception as exc:  # the storage is away: serve, as the limiter does
            log.warning("failed-authentication count not read (%s): not limited", exc)
        return None

    def count(self) -> None:
        try:
            for item in self.limits:
                self.limiter.limiter.hit(item, *self._ids())
        except Exception as exc:  # the storage is away: not counted, as the limiter does
            log.warning("failed authentication not counted (%s)", exc)


def too_many_failures(limit: RateLimitItem, seconds: int):
    return error_response(429, "Too Many Requests",
                          f"too many failed authentications from your address (a token that is not valid, "
                          f"more than {limit}); no token from it is checked for {seconds} s — check the "
                          "token you send, or send none to read", headers=[("Retry-After", str(seconds))])


def init_access(app: Flask, config: Config) -> Limiter:
    """Rate limits on every /api/v1 route, the 429 answer, the limit on failed authentications and
    the bad-token check for reads."""
    limiter = Limiter(
        key_func=_rate_key,
        application_limits=[_rate_limit],
        application_limits_exempt_when=_exempt,
        storage_uri=redis_url_for_limits(config.require_redis_url()),
        storage_options={"socket_connect_timeout": 2, "socket_timeout": 2},
        strategy="sliding-window-counter",
        headers_enabled=True,
        retry_after="delta-seconds",
        # Flask-Limiter would put Retry-After (its window) on every answer, also on a 202 and over
        # the 503's own "5": it is renamed, and set as Retry-After on the 429 alone (below).
        header_name_mapping={HEADERS.RETRY_AFTER: RATE_RETRY_HEADER},
        key_prefix=RATE_KEY_PREFIX,
        # Redis away: serve without limits rather than answer 500 (the outage is logged); the
        # uploads still store their games and the sweeper sends them once Redis is back.
        swallow_errors=True,
    )
    failures = AuthFailures(limiter, config.rate_limit_auth_failures)

    # Registered before the limiter's own check, whose key function looks the token up: an address
    # over the failed-authentication limit gets its 429 before any token of it reaches the database.
    @app.before_request
    def check_tokens():
        if not request.path.startswith(API_PATH) or _bearer() is None:
            return None  # no token sent: nothing to guess (the dashboards read no tokens)
        refused = failures.refused_for()
        if refused is not None:
            return too_many_failures(*refused)
        if _sent_a_bad_token():
            failures.count()
            return unauthorized()
        return None

    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def too_many(exc: RateLimitExceeded):
        if request.endpoint == POSITIONS_ENDPOINT:
            who = "your address (positions are counted per address)"
        else:
            who = "this token" if current_token() is not None else "your address (no token)"
        retry = exc.retry_after if hasattr(exc, "retry_after") else None
        current = limiter.current_limit
        window = exc.limit.limit.get_expiry()
        seconds = min(window, max(1, math.ceil(current.reset_at - time.time()))) if current is not None else window
        response = error_response(429, "Too Many Requests",
                                  f"{who} went over the limit of {exc.limit.limit}; try again later"
                                  + (f" (in {retry} s)" if retry else f" (in {seconds} s)"),
                                  headers=[("Retry-After", str(seconds))])
        return response

    return limiter
