"""Events with their game counts by pipeline status and open disputes: what the events API and the
events dashboard show. The counts come from agg_event_games (kept by triggers on games, migration
0003), so listing a thousand events reads no games rows."""

from __future__ import annotations


def load_events(cur, event_id: int | None = None, limit: int = 1000) -> list[tuple[dict, dict, int]]:
    """Events (one, or the newest ``limit`` public ones) with their game counts by status and open
    disputes: three set-based queries, whatever the number of events. An unlisted event is left out
    of the list but found by its id (docs/security.md, "Visibility")."""
    rows = cur.execute("""SELECT id, name, starts_on, ends_on, created_at, visibility, organiser FROM events
                          WHERE (%(id)s::bigint IS NULL AND visibility = 'public') OR id = %(id)s
                          ORDER BY id DESC LIMIT %(limit)s""",
                       {"id": event_id, "limit": limit}).fetchall()
    ids = [r["id"] for r in rows]
    counts: dict[int, dict[str, int]] = {i: {} for i in ids}
    # agg_event_games is kept by triggers on games (migration 0003): no scan of the games rows
    for r in cur.execute("""SELECT event_id, status, games AS n FROM agg_event_games
                            WHERE event_id = ANY(%s) AND games <> 0 ORDER BY status""", (ids,)):
        counts[r["event_id"]][r["status"]] = r["n"]
    disputes = {r["event_id"]: r["n"] for r in cur.execute(
        """SELECT m.event_id, count(*) AS n FROM disputes d JOIN event_matches m ON m.id = d.match_id
           WHERE m.event_id = ANY(%s) AND d.status = 'open' GROUP BY m.event_id""", (ids,))}
    return [(r, counts[r["id"]], disputes.get(r["id"], 0)) for r in rows]
