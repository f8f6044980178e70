"""Dispute detection for a match (one event, tournament round, table and set of players).

Games are unique by content hash, so two games of one match are always two different logs: any
second upload of a match opens a dispute. The reason says, in words, what the uploads disagree on
— the log alone, the claimed winner, the engine's verdict — and is rewritten each time a game of
the match gets a verdict. A resolved dispute stays resolved (an organiser decided it):
``lock_dispute`` and ``resolve`` close it with the organiser's ruling.
"""

from __future__ import annotations

from dataclasses import dataclass

from psycopg import Connection

from engine.log import GameLog


def lock_matches(conn: Connection, match_ids: list[int]) -> None:
    """Lock these matches' rows, in id order, until the transaction ends. Every match, not only
    those with two games now: an upload of a second game waits for this commit (it locks the match
    too), so its replay will see this transaction's verdicts.

    A replay takes them right after its games rows, before it writes anything else: an upload locks
    its match first and then, inserting its game, the per-event status counts (agg_event_games, by
    trigger), and a replay that touched those counts before waiting for the match would deadlock
    with it."""
    if match_ids:
        conn.execute("SELECT id FROM event_matches WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (match_ids,))


def check_matches(conn: Connection, match_ids: list[int]) -> None:
    """check_match for each of these matches that has more than one game, after locking them all in
    id order (as check_match would one by one; a chunk of games costs two statements, not one per
    match, when its matches have one game each, as in most bundles)."""
    if not match_ids:
        return
    lock_matches(conn, match_ids)
    shared = [r[0] for r in conn.execute(
        "SELECT match_id FROM games WHERE match_id = ANY(%s) GROUP BY match_id HAVING count(*) > 1 ORDER BY 1",
        (match_ids,))]
    for match_id in shared:
        check_match(conn, match_id)


def check_match(conn: Connection, match_id: int) -> int | None:
    """Open or update the match's dispute if it has more than one game; returns its id or None."""
    # Serialise the checks of one match: two workers finishing its two games at once must not
    # each miss the other's verdict.
    conn.execute("SELECT id FROM event_matches WHERE id = %s FOR UPDATE", (match_id,))
    games = conn.execute(
        """SELECT g.id, g.claimed_winner, v.status FROM games g LEFT JOIN verdicts v ON v.game_id = g.id
           WHERE g.match_id = %s ORDER BY g.id""", (match_id,)).fetchall()
    if len(games) < 2:
        return None
    reason = describe(games)
    row = conn.execute(
        """INSERT INTO disputes (match_id, reason) VALUES (%s, %s)
           ON CONFLICT ON CONSTRAINT disputes_match_key DO UPDATE
               SET reason = EXCLUDED.reason, updated_at = now()
               WHERE disputes.status = 'open'
           RETURNING id""", (match_id, reason)).fetchone()
    if row is None:  # resolved already: left as the organiser decided
        row = conn.execute("SELECT id FROM disputes WHERE match_id = %s", (match_id,)).fetchone()
    return row[0]


def claimed_winner(log: GameLog | None) -> str:
    """Who the log says won, in the words a dispute shows (stored with the game at ingest, from the
    upload's one parse: games.claimed_winner). By player name when the log names the players: seat
    numbers differ between uploads that list the seats in another order."""
    if log is None:
        return "unreadable (malformed log)"
    if log.result is None:
        return "no result claimed"
    if log.result.winner is None:
        return "a draw"
    names = log.meta.get("players", ())
    seat = log.result.winner
    return names[seat - 1] if seat <= len(names) else f"player {seat}"


def describe(sides: list[tuple[int, str, str | None]]) -> str:
    """sides: (game id, claimed winner, verdict status or None while not yet replayed)."""
    parts = [f"{len(sides)} different logs were uploaded for this match"]
    claims = {claim for _, claim, _ in sides}
    if len(claims) > 1:
        parts.append("they claim different results (" +
                     ", ".join(f"game {gid}: {claim}" for gid, claim, _ in sides) + ")")
    verdicts = {verdict for _, _, verdict in sides if verdict is not None}
    if len(verdicts) > 1:
        parts.append("the engine's verdicts differ (" +
                     ", ".join(f"game {gid}: {verdict or 'not replayed yet'}" for gid, _, verdict in sides) + ")")
    if len(parts) == 1:
        parts.append("they agree on the result and the verdict but not on the decisions or details")
    return "; ".join(parts)


@dataclass(frozen=True)
class Locked:
    """A dispute about to be resolved, and whose event it belongs to."""

    id: int
    status: str  # open | resolved
    event_id: int
    organiser: str | None  # the event's owner (services.games.events)


def lock_dispute(conn: Connection, dispute_id: int) -> Locked | None:
    """The dispute, its row locked until the caller's transaction ends; None when there is none."""
    row = conn.execute("""SELECT d.status, m.event_id, e.organiser FROM disputes d
                          JOIN event_matches m ON m.id = d.match_id JOIN events e ON e.id = m.event_id
                          WHERE d.id = %s FOR UPDATE OF d""", (dispute_id,)).fetchone()
    return None if row is None else Locked(dispute_id, *row)


def resolve(conn: Connection, dispute_id: int, resolution: str) -> None:
    """Close the dispute (locked by lock_dispute, open) with the organiser's ruling, in words."""
    conn.execute("""UPDATE disputes SET status = 'resolved', resolution = %s, resolved_at = now(),
                                        updated_at = now() WHERE id = %s""", (resolution, dispute_id))
