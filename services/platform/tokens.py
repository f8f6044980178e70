"""API tokens (docs/security.md, "Access: tokens and roles").

A token is ``emp_<prefix>_<secret>``: ``prefix`` is 8 random letters and digits, shown to people
(``empyrean token list``) and used to find the row; ``secret`` is ``secrets.token_urlsafe(32)``
(32 random bytes). The database keeps only the sha256 of the whole token. A fast hash rather than
bcrypt/argon2 on purpose: those exist to slow down guessing of low-entropy passwords, while a
token holds 256 random bits that nobody can guess however fast the hash is, and every API request
checks one, so the check must cost microseconds. The stored and computed hashes are compared with
``hmac.compare_digest``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
from dataclasses import dataclass

from psycopg import Connection
from psycopg.rows import dict_row

from services.platform.sql import Where

ROLES = ("uploader", "organiser", "admin")
PREFIX_CHARS = string.ascii_letters + string.digits
PREFIX_LEN = 8
TOKEN_RE = re.compile(r"^emp_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{20,100})$")


class TokenError(ValueError):
    """A token request that cannot be honoured (unknown role, event or prefix); says why."""


MAX_TOKEN_TEXT_CHARS = 200  # a token's name, and its owner's (who an organiser is, and who owns an event)


@dataclass(frozen=True)
class Token:
    """A token as the API knows it once checked (never its secret)."""

    id: int
    prefix: str
    role: str
    name: str
    owner: str
    event_id: int | None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


@dataclass(frozen=True)
class Reader:
    """Who is reading, as far as unlisted events and games go (``Reader.of`` a token; ``Reader()`` is
    anyone without one): the fields of a token that services.api.access's rules look at, so the same
    rules can be written as SQL (``events_sql`` here, services.games.listing.visible_sql)."""

    token_id: int | None = None
    admin: bool = False
    organiser: str | None = None  # an organiser token's owner: their events
    event_id: int | None = None  # a token bound to an event: that event

    @classmethod
    def of(cls, token: Token | None) -> Reader:
        if token is None:
            return cls()
        return cls(token_id=token.id, admin=token.is_admin,
                   organiser=token.owner if token.role == "organiser" else None, event_id=token.event_id)

    def events_sql(self, events: str = "events") -> Where:
        """A condition on the table ``events`` (a name or an alias): this reader may read the event
        (services.api.access.may_read_event's rule): a public one, or an unlisted one it manages or is
        bound to; an admin, any."""
        if self.admin:
            return Where()
        either = Where(f"{events}.visibility <> 'unlisted'")
        either.when_set(f"{events}.id = %(reader_event)s", reader_event=self.event_id)
        either.when_set(f"{events}.organiser = %(reader_owner)s", reader_owner=self.organiser)
        return Where(either.any_sql(), params=either.params)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token_text() -> tuple[str, str]:
    """(prefix, whole token)."""
    prefix = "".join(secrets.choice(PREFIX_CHARS) for _ in range(PREFIX_LEN))
    return prefix, f"emp_{prefix}_{secrets.token_urlsafe(32)}"


def create_token(conn: Connection, role: str, *, name: str = "", owner: str | None = None,
                 event_id: int | None = None) -> tuple[str, Token]:
    """Store a new token; returns (the token text — shown once, never stored — and its row)."""
    if role not in ROLES:
        raise TokenError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    if event_id is not None and role != "uploader":
        raise TokenError("only an uploader token can be bound to an event (--event)")
    if len(name) > MAX_TOKEN_TEXT_CHARS:
        raise TokenError(f"the name is longer than {MAX_TOKEN_TEXT_CHARS} characters")
    owner = (owner or name or "").strip()
    if role == "organiser" and not owner:
        raise TokenError("an organiser token needs --owner (or --name): the organiser its events belong to")
    owner = owner or role
    if len(owner) > MAX_TOKEN_TEXT_CHARS:
        raise TokenError(f"the owner is longer than {MAX_TOKEN_TEXT_CHARS} characters")
    if event_id is not None and conn.execute("SELECT 1 FROM events WHERE id = %s", (event_id,)).fetchone() is None:
        raise TokenError(f"there is no event {event_id}")
    for _ in range(5):  # a prefix collision is one in 62**8 per pair; retry rather than fail
        prefix, text = new_token_text()
        row = conn.execute(
            """INSERT INTO api_tokens (prefix, secret_hash, role, name, owner, event_id)
               VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (prefix) DO NOTHING RETURNING id""",
            (prefix, hash_token(text), role, name, owner, event_id)).fetchone()
        if row is not None:
            return text, Token(row[0], prefix, role, name, owner, event_id)
    raise TokenError("could not find a free token prefix")  # pragma: no cover


def authenticate(conn: Connection, text: str) -> Token | None:
    """The live (not revoked) token ``text`` is, or None. Marks it used (at most once a minute)."""
    match = TOKEN_RE.match(text)
    if match is None:
        return None
    row = conn.cursor(row_factory=dict_row).execute(
        """SELECT id, prefix, secret_hash, role, name, owner, event_id, revoked_at
           FROM api_tokens WHERE prefix = %s""", (match.group(1),)).fetchone()
    if row is None or not hmac.compare_digest(row["secret_hash"], hash_token(text)) or row["revoked_at"]:
        return None
    conn.execute("""UPDATE api_tokens SET last_used_at = now()
                    WHERE id = %s AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')""",
                 (row["id"],))
    return Token(row["id"], row["prefix"], row["role"], row["name"], row["owner"], row["event_id"])


def list_tokens(conn: Connection) -> list[dict]:
    return conn.cursor(row_factory=dict_row).execute(
        """SELECT prefix, role, name, owner, event_id, created_at, last_used_at, revoked_at
           FROM api_tokens ORDER BY id""").fetchall()


def revoke_token(conn: Connection, prefix: str) -> bool:
    """Revoke the token with this prefix (also accepts the whole token); False if none is live."""
    match = TOKEN_RE.match(prefix)
    if match:
        prefix = match.group(1)
    return conn.execute("UPDATE api_tokens SET revoked_at = now() WHERE prefix = %s AND revoked_at IS NULL",
                        (prefix,)).rowcount == 1
