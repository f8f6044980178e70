"""Swiss standings of an event, and each match's state: pure functions over the rows of its matches
(read by services.games.views.event_matches), no database here.

**A match** is what the service calls one (services.games.disputes): one event, tournament round,
table and set of players; in Battle for Empyrean it is one game. Which upload of a match counts is
the service's rule, ``disputes.counting_game`` — the same function that sets the statistics' flags —
so the standings and the statistics never disagree about a match:

- *counted*: the counting game's record gives each player a win, a draw or a loss;
- *disputed*: its dispute is open, so no upload counts until the organiser resolves it;
- *pending*: no upload is valid yet and at least one is still waiting for its replay;
- *not valid*: every upload was judged illegal, mismatch, malformed or error;
- *none counts*: the dispute was resolved naming no game (or a game that is no longer valid).

Only counted matches are in the standings; the others are listed beside them with their state, and
each player's row says how many of their matches are left out (``left_out``).

**Match points**: win 3, draw 1, loss 0 (the usual Swiss convention: neither rule book has rules for
organised play). In a 3-player game the winner takes 3 and the others 0; a game with no winner (a
tally tie, time called as a draw) is a draw for every player at the table. Byes are not in the data
(a bye is no game, so nothing is uploaded for it) and are not counted.

**Tie-breakers**, in this order (as issue 18 asks: opponents' match-win %, game-win %, opponents'
opponents'), computed exactly (fractions), so two players are tied only when they truly are:

1. ``opponents_match_win`` (OMW%): the mean, over every opponent of every counted match of the
   player, of that opponent's match-win % — match points / (3 × counted matches), raised to 1/3
   when lower (the usual floor of Magic's and other Swiss tournament rules, so that beating a
   player who lost every match is not worth nothing).
2. ``game_win`` (GW%): game points / (3 × games), with the same 1/3 floor. A match is one game here,
   so this is the player's own match-win % (floored): it separates players level on points who
   played a different number of counted matches (one in dispute, one still waiting for its replay).
3. ``opponents_opponents_match_win`` (OOMW%): the mean of the player's opponents' OMW%.

Then the player's name, only to give an order; players equal on points and every tie-breaker share
a rank (1, 2, 2, 4). A player whose every match is left out is listed last, with no percentages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

from .disputes import MatchDispute, Side, counting_game

POINTS = {"win": 3, "draw": 1, "loss": 0}
FLOOR = Fraction(1, 3)  # the least match-win % (and game-win %) a player counts for in tie-breakers
TIE_BREAKERS = ("opponents_match_win", "game_win", "opponents_opponents_match_win")

COUNTED, DISPUTED, PENDING, NOT_VALID, NONE_COUNTS = "counted", "disputed", "pending", "not valid", "none counts"
STATES = (COUNTED, DISPUTED, PENDING, NOT_VALID, NONE_COUNTS)


@dataclass(frozen=True)
class Seat:
    """A player of a replayed game, as its record has them."""

    player: str
    deck: str
    won: bool


@dataclass(frozen=True)
class MatchGame:
    """One upload of a match."""

    id: int
    status: str  # the game's pipeline status (GameStatus)
    verdict: str | None  # the verdict's status; None until it is replayed
    claimed_winner: str | None  # who its log says won (games.claimed_winner)
    seats: tuple[Seat, ...] = ()  # from its record (valid and mismatch games have one)
    visible: bool = True  # anyone may see it (the game and its event are public)

    def outcome(self) -> dict[str, str]:
        """Each player's result by the rules: win, draw (no seat won) or loss."""
        if not any(s.won for s in self.seats):
            return {s.player: "draw" for s in self.seats}
        return {s.player: "win" if s.won else "loss" for s in self.seats}


@dataclass(frozen=True)
class Match:
    id: int
    event_id: int
    event: str
    round: int
    table: str
    players: tuple[str, ...]  # sorted (event_matches.players)
    games: tuple[MatchGame, ...]  # by id
    dispute: MatchDispute | None = None
    played_on: str | None = None  # the day of its first game (ISO), if known


@dataclass(frozen=True)
class Settled:
    """A match and what the service's rule makes of it."""

    match: Match
    state: str  # one of STATES
    counts: MatchGame | None  # the game that counts (state counted)
    why: str  # the state in words

    @property
    def outcome(self) -> dict[str, str]:
        return self.counts.outcome() if self.counts is not None else {}

    def deck_of(self, player: str) -> str | None:
        """The deck the player played: the counting game's, else any replayed upload's."""
        games = ([self.counts] if self.counts is not None else []) + list(self.match.games)
        return next((s.deck for g in games for s in g.seats if s.player == player), None)

    def as_dict(self) -> dict:
        m = self.match
        return {"match": m.id, "round": m.round, "table": m.table, "players": list(m.players),
                "state": self.state, "why": self.why, "dispute": m.dispute.id if m.dispute else None,
                "counts": self.counts.id if self.counts else None, "result": self.outcome,
                "games": [{"id": g.id, "status": g.status, "verdict": g.verdict} for g in m.games]}


def settle(match: Match) -> Settled:
    """The match's state by the service's rule (disputes.counting_game)."""
    sides = [Side(g.id, g.claimed_winner, g.verdict) for g in match.games]
    chosen = counting_game(sides, match.dispute)
    if chosen is not None:
        game = next(g for g in match.games if g.id == chosen)
        if game.seats:
            return Settled(match, COUNTED, game, f"game {chosen} counts")
        # valid but its record rows are not there (the replay writes both in one transaction, so
        # only a record removed by hand): nothing to score with
        return Settled(match, PENDING, None, f"game {chosen} is valid but has no record yet")
    dispute = match.dispute
    if dispute is not None and dispute.status == "open":
        return Settled(match, DISPUTED, None, f"in dispute (dispute {dispute.id}): no upload counts until the "
                       "organiser resolves it")
    if dispute is not None:
        return Settled(match, NONE_COUNTS, None, f"dispute {dispute.id} was resolved: no game of it counts")
    waiting = [g.id for g in match.games if g.verdict is None]
    if waiting:
        return Settled(match, PENDING, None, "waiting for the replay of game " + ", ".join(map(str, waiting)))
    verdicts = ", ".join(f"game {g.id} {g.verdict}" for g in match.games)
    return Settled(match, NOT_VALID, None, f"no valid upload ({verdicts})")


@dataclass
class Row:
    """One player's line of the standings. Percentages are Fractions here (None: no counted match);
    ``as_dict`` gives floats."""

    player: str
    rank: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    decks: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)  # one entry per opponent per counted match
    left_out: int = 0  # matches of theirs not in the standings (disputed, pending, not valid, none counts)
    match_win: Fraction | None = None  # floored
    game_win: Fraction | None = None  # floored
    opponents_match_win: Fraction | None = None
    opponents_opponents_match_win: Fraction | None = None

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> int:
        return POINTS["win"] * self.wins + POINTS["draw"] * self.draws

    def sort_key(self) -> tuple:
        if not self.matches:
            return (1, 0, 0, 0, 0, self.player)
        return (0, -self.points, -self.opponents_match_win, -self.game_win, -self.opponents_opponents_match_win,
                self.player)

    def tie_key(self) -> tuple:
        return self.sort_key()[:-1]

    def as_dict(self) -> dict:
        def pct(x: Fraction | None) -> float | None:
            return None if x is None else float(x)

        return {"rank": self.rank, "player": self.player, "decks": self.decks, "matches": self.matches,
                "wins": self.wins, "draws": self.draws, "losses": self.losses, "points": self.points,
                "match_win": pct(self.match_win), "opponents_match_win": pct(self.opponents_match_win),
                "game_win": pct(self.game_win),
                "opponents_opponents_match_win": pct(self.opponents_opponents_match_win),
                "left_out": self.left_out}


@dataclass(frozen=True)
class Standings:
    rows: list[Row]  # in standing order
    settled: list[Settled]  # every match, by round, table

    @property
    def left_out(self) -> list[Settled]:
        return [s for s in self.settled if s.state != COUNTED]

    @property
    def counted(self) -> int:
        return sum(s.state == COUNTED for s in self.settled)


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def standings(matches: Iterable[Match]) -> Standings:
    """The standings of these matches (one event's): every player of every match has a row."""
    settled = sorted((settle(m) for m in matches), key=lambda s: (s.match.round, s.match.table, s.match.id))
    rows: dict[str, Row] = {}
    for s in settled:
        for player in s.match.players:
            row = rows.setdefault(player, Row(player))
            if s.state != COUNTED:
                row.left_out += 1
                continue
            result = s.outcome.get(player)
            if result is None:  # a name of the match that no seat of its record has (cannot be: same meta)
                row.left_out += 1
                continue
            row.wins += result == "win"
            row.draws += result == "draw"
            row.losses += result == "loss"
            row.opponents += [p for p in s.outcome if p != player]
            deck = s.deck_of(player)
            if deck is not None and deck not in row.decks:
                row.decks.append(deck)
    played = [r for r in rows.values() if r.matches]
    for r in played:
        # one game per match: game points and match points are the same numbers
        r.match_win = r.game_win = max(FLOOR, Fraction(r.points, 3 * r.matches))
    for r in played:
        r.opponents_match_win = _mean([rows[o].match_win for o in r.opponents])
    for r in played:
        r.opponents_opponents_match_win = _mean([rows[o].opponents_match_win for o in r.opponents])
    return Standings(rank(rows.values()), settled)


def rank(rows: Iterable[Row]) -> list[Row]:
    """The rows in standing order, each given its rank: points, then the tie-breakers in order, then
    the name; rows equal on points and every tie-breaker share a rank (1, 2, 2, 4)."""
    ordered = sorted(rows, key=Row.sort_key)
    for i, r in enumerate(ordered):
        r.rank = ordered[i - 1].rank if i and ordered[i - 1].tie_key() == r.tie_key() else i + 1
    return ordered


__all__ = ["POINTS", "FLOOR", "TIE_BREAKERS", "STATES", "COUNTED", "DISPUTED", "PENDING", "NOT_VALID",
           "NONE_COUNTS", "Seat", "MatchGame", "Match", "Settled", "settle", "Row", "Standings", "standings", "rank"]
