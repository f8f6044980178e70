"""Disputes of a match (one event, tournament round, table and set of players), and which of its
games the statistics count.

**One match counts once** (docs/services.md, "Disputes"). Games are unique by content hash, so two
games of one match are always two different logs. Of a match's games, the statistics count (the
match's *counting game*, ``counting_game``):

- no dispute: the valid game with the lowest id. Uploads that *agree* — every replayed one valid,
  all claiming the same winner (two seats' recordings of one game, a re-export by another tool) —
  are duplicates of one game: the first counts, the others are kept and shown, but not counted, and
  no dispute is opened;
- an open dispute: none. A second upload that disagrees (another claimed winner, a verdict other
  than valid) opens the match's dispute, and the game counted until then is taken out of the
  statistics in the same transaction;
- a resolved dispute: the game its resolution names (``disputes.counts_game_id``), if it is valid;
  none when the organiser named none.

**Standing uploads** (issue 26: who may pause a match). An upload is *standing* for its match when
its API token is an admin's, the event organiser's (an organiser token of the event's owner), or an
uploader token bound to the event — or when it came with no token (a tool of ours, or a game stored
before the service recorded tokens: every upload through the API has one). Any other token (an
unbound uploader token, an organiser of other events) is not standing: its owner has no say in the
event's results. ``STANDING_SQL`` is the one definition; the upload writes it to
``games.standing`` (services.games.store; migration 0017 filled it in for the games before). When a
match has a standing upload, the rule reads its standing uploads only (``read_by_rule``; as SQL:
``read_by_rule_sql``): the others are stored, replayed and verified (their verdict is theirs, on their
own game page) but neither count, nor open or change a dispute, nor take the match out of the
statistics. A match with no standing upload is read whole, as before. A resolution may name any
valid game of the match (the organiser's ruling reads every upload). A dispute opened before a
standing upload arrived stays open until the organiser resolves it, as every open dispute does.

``settle`` applies the rule under the match's row lock, in the transaction that changed the match:
the replay of one of its games (``check_matches``) or the resolution (``resolve``). It takes a
counted game that no longer counts out of the aggregates (-1), adds the one that now does (+1),
and drops a pending one that may not count (the fold adds only pending games, so a game folded
later obeys the rule too). ``services.games.records.recount_differences`` checks the rule against
the stored flags.

A resolved dispute stays resolved: an upload of a new log into its match is refused
(``resolved_dispute_of``; the API answers 409), so an organiser's ruling is never undone by an
upload nor joined silently by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from psycopg import Connection

from engine.log import GameLog
from services.games.records import apply_contribution
from services.games.status import GameStatus, Move, sql_in


def lock_matches(conn: Connection, match_ids: list[int]) -> None:
    """Lock these matches' rows, in id order, until the transaction ends, and then the record rows
    of their games (in game id order). Every match, not only those with two games now: an upload of
    a second game waits for this commit (it locks the match too), so its replay will see this
    transaction's verdicts.

    A replay takes them right after its games rows, before it writes anything else: an upload locks
    its match first and then, inserting its game, the per-event status counts (agg_event_games, by
    trigger), and a replay that touched those counts before waiting for the match would deadlock
    with it. The record rows are taken before any aggregate row for the same reason: the fold holds
    a pending game's record row while it waits for aggregate rows, and ``settle`` may change a
    sibling game's record."""
    if match_ids:
        conn.execute("SELECT id FROM event_matches WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (match_ids,))
        conn.execute("""SELECT r.game_id FROM game_records r JOIN games g ON g.id = r.game_id
                        WHERE g.match_id = ANY(%s) ORDER BY r.game_id FOR UPDATE OF r""", (match_ids,))


# Is an upload standing for its match (the module's docstring): the one definition, as a SQL
# expression over its API token ``t`` (api_tokens, LEFT JOINed: NULL columns when it came with none)
# and its event ``e`` (events, LEFT JOINed: NULL without one). Written to games.standing by the
# upload (services.games.store) and by migration 0017 for the games stored before.
STANDING_SQL = """coalesce(t.id IS NULL OR t.role = 'admin' OR t.event_id = e.id
                          OR (t.role = 'organiser' AND t.owner = e.organiser), false)"""

# Why an upload not standing for its match may not be read by the rule, in a player's words (the
# upload's answer, the game's statistics).
NOT_STANDING = ("its uploader is not standing for this match: only an admin, the event's organiser or a token "
                "bound to the event is")
UPLOAD_NOT_STANDING = (f"stored, and it will be replayed and verified like every upload, but {NOT_STANDING}; "
                       "while the match has an upload by one of them, this log neither counts nor opens a dispute")


def read_by_rule_sql(game: str = "g") -> str:
    """A condition on the games row ``game`` (an alias): the rule reads it (``read_by_rule``): it is
    standing, or its match (if any) has no standing upload. Uses the index games_match_idx."""
    return (f"({game}.standing OR NOT EXISTS (SELECT 1 FROM games standing_upload "
            f"WHERE standing_upload.match_id = {game}.match_id AND standing_upload.standing))")


@dataclass(frozen=True)
class Side:
    """One game of a match as the rule reads it."""

    id: int
    claimed_winner: str | None
    verdict: str | None  # None while not yet replayed
    standing: bool = True  # games.standing: its uploader is standing for the match


def read_by_rule(sides: list[Side]) -> list[Side]:
    """The uploads of a match the rule reads: its standing ones, or all when none is standing."""
    return [s for s in sides if s.standing] or sides


@dataclass(frozen=True)
class MatchDispute:
    id: int
    status: str  # open | resolved
    counts_game_id: int | None


def agree(sides: list[Side]) -> bool:
    """Uploads of one match agree: every replayed one is valid and they all claim the same winner."""
    return (len({s.claimed_winner for s in sides}) == 1
            and all(s.verdict in (None, GameStatus.VALID) for s in sides))


def counting_game(sides: list[Side], dispute: MatchDispute | None) -> int | None:
    """The game of the match the statistics count, by the rule of this module's docstring; ``sides``:
    every upload of the match (the rule reads the standing ones when there are any)."""
    valid = [s.id for s in sides if s.verdict == GameStatus.VALID]
    if dispute is None:
        return min((s.id for s in read_by_rule(sides) if s.verdict == GameStatus.VALID), default=None)
    if dispute.status == "open":
        return None
    return dispute.counts_game_id if dispute.counts_game_id in valid else None


# The games that count by the rule, as SQL (``counting_game``'s; services.games.records.recount_differences
# checks the stored flags against it): every valid game without a match; of a match without a dispute,
# its valid game with the lowest id of those the rule reads (``read_by_rule_sql``); of a match whose
# dispute is resolved, the game its resolution names, if valid; of an open one, none.
COUNTING_GAMES = f"""
    WITH valid AS (SELECT g.id, g.match_id, {read_by_rule_sql("g")} AS read FROM games g
                   JOIN verdicts v ON v.game_id = g.id WHERE v.status = 'valid')
    SELECT id FROM valid WHERE match_id IS NULL
    UNION ALL
    SELECT min(v.id) FROM valid v
    WHERE v.match_id IS NOT NULL AND v.read AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.match_id = v.match_id)
    GROUP BY v.match_id
    UNION ALL
    SELECT v.id FROM valid v JOIN disputes d ON d.match_id = v.match_id
    WHERE d.status = 'resolved' AND d.counts_game_id = v.id"""


def _sides(conn: Connection, match_ids: list[int]) -> tuple[dict[int, list[Side]], dict[int, MatchDispute]]:
    sides: dict[int, list[Side]] = {m: [] for m in match_ids}
    for match_id, game_id, claim, verdict, standing in conn.execute(
            """SELECT g.match_id, g.id, g.claimed_winner, v.status, g.standing FROM games g
               LEFT JOIN verdicts v ON v.game_id = g.id
               WHERE g.match_id = ANY(%s) ORDER BY g.match_id, g.id""", (match_ids,)):
        sides[match_id].append(Side(game_id, claim, verdict, standing))
    disputes = {m: MatchDispute(d, status, counts) for d, m, status, counts in conn.execute(
        "SELECT id, match_id, status, counts_game_id FROM disputes WHERE match_id = ANY(%s)", (match_ids,))}
    return sides, disputes


def check_matches(conn: Connection, match_ids: list[int], fresh: Iterable[int] = (), *,
                  locked: bool = False) -> set[int]:
    """Open or update the disputes of these matches and settle which of their games count; returns
    the games of ``fresh`` that count. ``fresh``: games being replayed in this transaction whose
    verdicts are written but whose record rows are not yet (the caller writes them, counted or not
    as this says); every other game of the matches is settled here.

    The matches are locked in id order first (``lock_matches``; ``locked``: the caller has done it
    in this transaction). A chunk whose matches have one game each and no dispute (most bundles)
    costs two statements more."""
    fresh = set(fresh)
    if not match_ids:
        return set()
    if not locked:
        lock_matches(conn, match_ids)
    sides, disputes = _sides(conn, match_ids)
    counting: set[int] = set()
    for match_id in sorted(match_ids):
        match_sides, dispute = sides[match_id], disputes.get(match_id)
        # a dispute is opened, and its reason written, by the uploads the rule reads only
        read = read_by_rule(match_sides)
        if len(read) > 1 and (dispute is not None or not agree(read)):
            dispute = _open_or_update(conn, match_id, match_sides)
        chosen = counting_game(match_sides, dispute)
        if len(match_sides) > 1 or dispute is not None:
            settle(conn, [s.id for s in match_sides if s.id not in fresh], chosen)
        if chosen in fresh:
            counting.add(chosen)
    return counting


SETTLE_BATCH = 500  # matches settled per check_matches by settle_shared_matches


def settle_shared_matches(conn: Connection) -> None:
    """Settle every match with more than one game, or with a dispute, by the rule (check_matches, a
    batch at a time): a migration that changes the rule or what it reads (revision 0017) calls it
    so that the counted flags, and the aggregates, equal a recount under it."""
    matches = [r[0] for r in conn.execute(
        """SELECT match_id FROM games WHERE match_id IS NOT NULL GROUP BY match_id HAVING count(*) > 1
           UNION SELECT match_id FROM disputes ORDER BY 1""")]
    for start in range(0, len(matches), SETTLE_BATCH):
        check_matches(conn, matches[start:start + SETTLE_BATCH])


def settle(conn: Connection, game_ids: list[int], chosen: int | None) -> None:
    """Make the record flags of these games (of one match, their record rows already written) obey
    the rule: ``chosen`` counts (or is pending, for the fold to add), none of the others does. A
    counted game that no longer counts is taken out of the aggregates; a pending one is no longer
    pending (and shows its verdict as its status: it is finished, not waiting to be counted)."""
    if not game_ids:
        return
    rows = conn.execute("""SELECT game_id, counted, pending FROM game_records WHERE game_id = ANY(%s)
                           ORDER BY game_id FOR UPDATE""", (game_ids,)).fetchall()
    taken_out = [g for g, counted, _ in rows if counted and g != chosen]
    held_out = [g for g, _, pending in rows if pending and g != chosen]
    added = [g for g, counted, pending in rows if g == chosen and not counted and not pending]
    if taken_out:
        apply_contribution(conn, taken_out, -1)
        conn.execute("UPDATE game_records SET counted = false WHERE game_id = ANY(%s)", (taken_out,))
    if held_out:
        conn.execute("UPDATE game_records SET pending = false WHERE game_id = ANY(%s)", (held_out,))
        # Its verdict becomes its status as when the fold counts a game (Move.COUNTED's move).
        # SKIP LOCKED: a games row another transaction holds is being replayed (or claimed for it),
        # which writes its status; one left 'replaying' without a pending record is re-sent by the
        # sweeper (services.games.dispatch), whose replay settles it.
        conn.execute(
            f"""UPDATE games g SET status = v.status, status_message = v.message, updated_at = now()
               FROM verdicts v
               WHERE v.game_id = g.id AND g.status IN {sql_in(Move.COUNTED.sources)}
                 AND g.id IN (SELECT id FROM games WHERE id = ANY(%s) ORDER BY id FOR UPDATE SKIP LOCKED)""",
            (held_out,))
    if added:
        apply_contribution(conn, added, 1)
        conn.execute("UPDATE game_records SET counted = true WHERE game_id = ANY(%s)", (added,))


def _open_or_update(conn: Connection, match_id: int, sides: list[Side]) -> MatchDispute:
    """Open the match's dispute, or rewrite an open one's reason from the uploads the rule reads
    (``sides``: every upload of the match); a resolved one is left as the organiser decided."""
    read = read_by_rule(sides)
    row = conn.execute(
        """INSERT INTO disputes (match_id, reason) VALUES (%s, %s)
           ON CONFLICT ON CONSTRAINT disputes_match_key DO UPDATE
               SET reason = EXCLUDED.reason, updated_at = now()
               WHERE disputes.status = 'open'
           RETURNING id, status, counts_game_id""",
        (match_id, describe([(s.id, s.claimed_winner, s.verdict) for s in read],
                            not_read=len(sides) - len(read)))).fetchone()
    if row is None:  # resolved already: left as the organiser decided
        row = conn.execute("SELECT id, status, counts_game_id FROM disputes WHERE match_id = %s",
                           (match_id,)).fetchone()
    return MatchDispute(*row)


def resolved_disputes(conn: Connection, match_ids: list[int]) -> dict[int, int]:
    """{match id: dispute id} of these matches whose dispute is resolved. An upload calls it holding
    the match rows (store_batch upserts them), so a resolution committing meanwhile is seen: resolve
    takes the match row first too."""
    if not match_ids:
        return {}
    return dict(conn.execute("SELECT match_id, id FROM disputes WHERE match_id = ANY(%s) AND status = 'resolved'",
                             (match_ids,)).fetchall())


def claimed_winner(log: GameLog | None) -> str:
    """Who the log says won, in the words a dispute shows (stored with the game at ingest, from the
    upload's one parse: games.claimed_winner); a game decided by ranks, every seat's rank ("ranks Ana
    1, Cy 2, Ben 3"), so that uploads agree only on one order. By player name when the log names the players: seat
    numbers differ between uploads that list the seats in another order."""
    if log is None:
        return "unreadable (malformed log)"
    if log.result is None:
        return "no result claimed"
    names = log.meta.get("players", ())

    def named(seat: int) -> str:
        return names[seat - 1] if seat <= len(names) else f"player {seat}"

    ranks = getattr(log.result, "ranks", None)  # a game decided by ranks claims every seat's (adding-a-game.md)
    if ranks is not None:
        places = sorted((rank, named(seat)) for seat, rank in enumerate(ranks, 1))
        return "ranks " + ", ".join(f"{name} {rank}" for rank, name in places)
    if log.result.winner is None:
        return "a draw"
    return named(log.result.winner)


def describe(sides: list[tuple[int, str, str | None]], not_read: int = 0) -> str:
    """sides: (game id, claimed winner, verdict status or None while not yet replayed) of the uploads
    the rule reads; ``not_read``: how many more it does not (their uploaders are not standing)."""
    parts = [f"{len(sides)} different logs were uploaded for this match"
             + (f" by tokens standing for it (and {not_read} by tokens that are not, which the rule does not "
                "read)" if not_read else "")]
    claims = {claim for _, claim, _ in sides}
    if len(claims) > 1:
        parts.append("they claim different results (" +
                     ", ".join(f"game {gid}: {claim}" for gid, claim, _ in sides) + ")")
    verdicts = {verdict for _, _, verdict in sides if verdict is not None}
    if len(verdicts) > 1:
        parts.append("the engine's verdicts differ (" +
                     ", ".join(f"game {gid}: {verdict or 'not replayed yet'}" for gid, _, verdict in sides) + ")")
    elif verdicts and verdicts != {GameStatus.VALID}:
        parts.append(f"none of them is valid (every one is {verdicts.pop()})")
    if len(parts) == 1:
        parts.append("they agree on the result and the verdict but not on the decisions or details")
    return "; ".join(parts)


@dataclass(frozen=True)
class Locked:
    """A dispute about to be resolved, its match, and whose event it belongs to."""

    id: int
    status: str  # open | resolved
    match_id: int
    event_id: int
    organiser: str | None  # the event's owner (services.games.events)
    event_visibility: str  # public | unlisted


def lock_dispute(conn: Connection, dispute_id: int) -> Locked | None:
    """The dispute, its match's row (and its games' record rows: lock_matches) and its own row locked
    until the caller's transaction ends, in the order a replay takes them; None when there is none."""
    found = conn.execute("SELECT match_id FROM disputes WHERE id = %s", (dispute_id,)).fetchone()
    if found is None:
        return None
    lock_matches(conn, [found[0]])
    row = conn.execute("""SELECT d.status, d.match_id, m.event_id, e.organiser, e.visibility FROM disputes d
                          JOIN event_matches m ON m.id = d.match_id JOIN events e ON e.id = m.event_id
                          WHERE d.id = %s FOR UPDATE OF d""", (dispute_id,)).fetchone()
    return None if row is None else Locked(dispute_id, *row)


class NotASide(ValueError):
    """The game a resolution names is not one of the match's games."""


class CannotCount(ValueError):
    """The game a resolution names may not count (its verdict is not valid, or it has none yet)."""


def resolve(conn: Connection, dispute: Locked, resolution: str, counts: int | None,
            resolved_by: tuple[str, str, str]) -> None:
    """Close the dispute (locked by lock_dispute, open) with the organiser's ruling, in words, and the
    game of its match that the statistics count (``counts``; None: none of them), which is added to
    them in this transaction; ``resolved_by``: the owner, name and role of the API token that
    resolves it (disputes.resolved_by_*, migration 0015). Raises NotASide or CannotCount (nothing
    written) for a game that is not the match's or is not valid."""
    sides = _sides(conn, [dispute.match_id])[0][dispute.match_id]
    if counts is not None:
        named = next((s for s in sides if s.id == counts), None)
        if named is None:
            raise NotASide(f"game {counts} is not an upload of this match; its games are "
                           + ", ".join(str(s.id) for s in sides))
        if named.verdict != GameStatus.VALID:
            raise CannotCount(f"game {counts} cannot count: " + (
                "it has not been replayed yet; resolve again once it has a verdict" if named.verdict is None
                else f"its verdict is {named.verdict}, and only a valid game enters the statistics"))
    conn.execute("""UPDATE disputes SET status = 'resolved', resolution = %s, counts_game_id = %s,
                                        resolved_by_owner = %s, resolved_by_name = %s, resolved_by_role = %s,
                                        resolved_at = now(), updated_at = now() WHERE id = %s""",
                 (resolution, counts, *resolved_by, dispute.id))
    settle(conn, [s.id for s in sides], counts)
