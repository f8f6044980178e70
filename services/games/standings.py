"""Swiss standings of an event, and each match's state: pure functions over the rows of its matches
(read by services.games.views.event_matches), no database here.

**A match** is what the service calls one (services.games.disputes): one event, tournament round,
table and set of players; in Battle for Empyrean it is one game. Which upload of a match counts is
the service's rule, ``disputes.counting_game`` — the same function that sets the statistics' flags —
so the standings and the statistics never disagree about a match:

- *counted*: the counting game's record gives each player a win, a draw or a loss (a game decided by
  ranks: a win to the one seat ranked first, a draw to seats sharing first place, a loss below it),
  and its seats' places give each their match points;
- *disputed*: its dispute is open, so no upload counts until the organiser resolves it;
- *pending*: no upload is valid yet and at least one is still waiting for its replay;
- *not valid*: every upload was judged illegal, mismatch, malformed or error;
- *none counts*: the dispute was resolved naming no game (or a game that is no longer valid).

Of a match with a standing upload (an admin's, the organiser's, a token bound to the event), the
rule reads the standing uploads only (``disputes.read_by_rule``): another uploader's log of it is
kept, with its own verdict, but changes neither the match's state nor its result.

Only counted matches are in the standings; the others are listed beside them with their state, and
each player's row says how many of their matches are left out (``left_out``).

**Match points** are the event's (services.games.points: set by its organiser, else its game's
default). A game with one winner (Battle for Empyrean): win 3, draw 1, loss 0 (the usual Swiss
convention: neither rule book has rules for organised play); in a 3-player game the winner takes 3
and the others 0; a game with no winner (a tally tie, time called as a draw) is a draw for every
player at the table. A game decided by ranks: points by place at the table's size (by default one
per player finished ahead of), seats sharing a rank sharing their places' points. Each seat's rank
is the stored one (``game_seats``). Byes are not in the data (a bye is no game, so nothing is
uploaded for it) and are not counted.

**Scores**: of a game decided by ranks (``Match.ranked``), each seat's score in the game's own terms
(``game_seats.score``: Spells & Steam's victory points, Elysian's conquest points) is read with its
rank, and each player's row has their total over their counted games and its mean per game
(``Standings.scored``). They are shown, never compared: the places already rank each table by the
game's own rules (its scores and its tie-breakers made the ranks), and scores summed over tables of
different sizes would count again what the places counted. A game with one winner shows none.

A player's **match-win %** is their match points / the most their counted matches could have given
them (for each match: a win's points, or first place's at its table's size; with equal tables, the
most one match gives × matches), raised to 1/3 when lower (the usual floor of Magic's and other
Swiss tournament rules, so that beating a player who lost every match is not worth nothing). With
win 3 it is match points / (3 × matches), as it has always been.

**Tie-breakers**, in this order (as issue 18 asks: opponents' match-win %, game-win %, opponents'
opponents'), computed exactly (fractions), so two players are tied only when they truly are:

1. ``opponents_match_win`` (OMW%): the mean, over every opponent of every counted match of the
   player (every other player at the table), of that opponent's match-win %.
2. ``game_win`` (GW%): game points / the most the games could give, with the same 1/3 floor. A
   match is one game here, so this is the player's own match-win % (floored): it separates players
   level on points who played a different number of counted matches (one in dispute, one still
   waiting for its replay).
3. ``opponents_opponents_match_win`` (OOMW%): the mean of the player's opponents' OMW%.

Then the player's name, only to give an order; players equal on points and every tie-breaker share
a rank (1, 2, 2, 4). A player whose every match is left out is listed last, with no percentages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, NamedTuple

from .disputes import MatchDispute, Side, counting_game, read_by_rule
from .points import Points, plain

POINTS = Points().to_dict()  # a game with one winner's default: win 3, draw 1, loss 0
FLOOR = Fraction(1, 3)  # the least match-win % (and game-win %) a player counts for in tie-breakers
TIE_BREAKERS = ("opponents_match_win", "game_win", "opponents_opponents_match_win")

COUNTED, DISPUTED, PENDING, NOT_VALID, NONE_COUNTS = "counted", "disputed", "pending", "not valid", "none counts"
STATES = (COUNTED, DISPUTED, PENDING, NOT_VALID, NONE_COUNTS)


def match_points(wins: int, draws: int, losses: int) -> int:
    return POINTS["win"] * wins + POINTS["draw"] * draws + POINTS["loss"] * losses


# The rows are NamedTuples, not dataclasses: an event of 100,000 games reads some 400,000 of them, and
# a tuple is built several times faster (docs/performance.md, "Standings and the games list").
class Seat(NamedTuple):
    """A player of a replayed game, as its record has them (game_seats)."""

    player: str
    deck: str  # the seat's faction (Battle for Empyrean's deck)
    won: bool
    rank: int = 1  # 1 is best; tied seats share one
    score: int | None = None  # in the game's own terms (Spells & Steam: victory points); None: none kept


class MatchGame(NamedTuple):
    """One upload of a match."""

    id: int
    status: str  # the game's pipeline status (GameStatus)
    verdict: str | None  # the verdict's status; None until it is replayed
    claimed_winner: str | None  # who its log says won (games.claimed_winner)
    seats: tuple[Seat, ...] = ()  # from its record (valid and mismatch games have one)
    visible: bool = True  # anyone may see it (the game and its event are public)
    standing: bool = True  # its uploader is standing for the match (games.standing: disputes.read_by_rule)

    def outcome(self, ranked: bool = False) -> dict[str, str]:
        """Each player's result by the rules: win, draw (no seat won) or loss. ``ranked`` (a game
        decided by ranks): win for the one seat ranked first, draw for seats sharing first, else loss."""
        if ranked:
            firsts = sum(s.rank == 1 for s in self.seats)
            return {s.player: "loss" if s.rank != 1 else "win" if firsts == 1 else "draw" for s in self.seats}
        if not any(s.won for s in self.seats):
            return {s.player: "draw" for s in self.seats}
        return {s.player: "win" if s.won else "loss" for s in self.seats}


class Match(NamedTuple):
    id: int
    event_id: int
    event: str
    round: int
    table: str
    players: tuple[str, ...]  # sorted (event_matches.players)
    games: tuple[MatchGame, ...]  # by id
    dispute: MatchDispute | None = None
    played_on: str | None = None  # the day of its first game (ISO), if known
    ranked: bool = False  # its game is decided by ranks (engine.games.OutcomeKind.RANKS)


class Settled(NamedTuple):
    """A match and what the service's rule makes of it."""

    match: Match
    state: str  # one of STATES
    counts: MatchGame | None  # the game that counts (state counted)
    why: str  # the state in words
    outcome: dict[str, str]  # each player's result (the counting game's outcome; empty when none counts)

    def deck_of(self, player: str) -> str | None:
        """The deck the player played: the counting game's, else any replayed upload's."""
        games = ([self.counts] if self.counts is not None else []) + list(self.match.games)
        return next((s.deck for g in games for s in g.seats if s.player == player), None)

    def places(self) -> list[Seat]:
        """The counting game's seats, best rank first (tied seats by name), each with its rank and score
        (none counts: [])."""
        return sorted(self.counts.seats, key=lambda s: (s.rank, s.player)) if self.counts is not None else []

    def as_dict(self) -> dict:
        m = self.match
        return {"match": m.id, "round": m.round, "table": m.table, "players": list(m.players),
                "state": self.state, "why": self.why, "dispute": m.dispute.id if m.dispute else None,
                "counts": self.counts.id if self.counts else None, "result": self.outcome,
                "games": [{"id": g.id, "status": g.status, "verdict": g.verdict, "standing": g.standing}
                          for g in m.games]}


def settle(match: Match) -> Settled:
    """The match's state by the service's rule (disputes.counting_game, which reads the match's
    standing uploads when it has any: disputes.read_by_rule)."""
    sides = [Side(g.id, g.claimed_winner, g.verdict, g.standing) for g in match.games]
    chosen = counting_game(sides, match.dispute)
    if chosen is not None:
        game = next(g for g in match.games if g.id == chosen)
        if game.seats:
            return Settled(match, COUNTED, game, f"game {chosen} counts", game.outcome(match.ranked))
        # valid but its record rows are not there (the replay writes both in one transaction, so
        # only a record removed by hand): nothing to score with
        return Settled(match, PENDING, None, f"game {chosen} is valid but has no record yet", {})
    dispute = match.dispute
    if dispute is not None and dispute.status == "open":
        return Settled(match, DISPUTED, None, f"in dispute (dispute {dispute.id}): no upload counts until the "
                       "organiser resolves it", {})
    if dispute is not None:
        return Settled(match, NONE_COUNTS, None, f"dispute {dispute.id} was resolved: no game of it counts", {})
    read = {s.id for s in read_by_rule(sides)}
    games = [g for g in match.games if g.id in read]
    not_read = "" if len(games) == len(match.games) else (
        "; not read: game " + ", ".join(str(g.id) for g in match.games if g.id not in read)
        + " (uploaders not standing for the match)")
    waiting = [g.id for g in games if g.verdict is None]
    if waiting:
        return Settled(match, PENDING, None, "waiting for the replay of game " + ", ".join(map(str, waiting))
                       + not_read, {})
    verdicts = ", ".join(f"game {g.id} {g.verdict}" for g in games)
    return Settled(match, NOT_VALID, None, f"no valid upload ({verdicts}{not_read})", {})


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
    awarded: int | Fraction | None = None  # match points by the event's points (None: win 3, draw 1, loss 0)
    most: int | None = None  # the most its counted matches could have given (None: 3 a match)
    total_score: int | None = None  # the scores of its counted games (None: none kept one)
    scored_games: int = 0  # its counted games that kept a score
    match_win: Fraction | None = None  # floored
    game_win: Fraction | None = None  # floored
    opponents_match_win: Fraction | None = None
    opponents_opponents_match_win: Fraction | None = None

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> int | Fraction:
        return match_points(self.wins, self.draws, self.losses) if self.awarded is None else self.awarded

    @property
    def most_points(self) -> int:
        return POINTS["win"] * self.matches if self.most is None else self.most

    @property
    def mean_score(self) -> Fraction | None:
        """The mean score of its counted games that kept one (None: none did)."""
        return None if self.total_score is None else Fraction(self.total_score, self.scored_games)

    def as_dict(self, scored: bool = False) -> dict:
        """The row as JSON; ``scored`` (the standings of a game decided by ranks: Standings.scored) with
        its total and mean score after the points and the W–D–L."""
        def pct(x: Fraction | None) -> float | None:
            return None if x is None else float(x)

        scores = {"total_score": self.total_score, "mean_score": pct(self.mean_score)} if scored else {}
        return {"rank": self.rank, "player": self.player, "decks": self.decks, "matches": self.matches,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "points": plain(self.points), **scores,
                "match_win": pct(self.match_win), "opponents_match_win": pct(self.opponents_match_win),
                "game_win": pct(self.game_win),
                "opponents_opponents_match_win": pct(self.opponents_opponents_match_win),
                "left_out": self.left_out}


@dataclass(frozen=True)
class Standings:
    rows: list[Row]  # in standing order
    settled: list[Settled]  # every match, by round, table
    points: Points = Points()  # the match points they were counted with
    scored: bool = False  # its game is decided by ranks: each row shows its total and mean score

    @property
    def left_out(self) -> list[Settled]:
        return [s for s in self.settled if s.state != COUNTED]

    @property
    def counted(self) -> int:
        return sum(s.state == COUNTED for s in self.settled)


def _table_order(s: Settled) -> tuple:
    """Matches by round, then table — numbered tables by number (2 before 10), labels after them."""
    m = s.match
    return (m.round, not m.table.isdigit(), int(m.table) if m.table.isdigit() else 0, m.table, m.id)


def standings(matches: Iterable[Match], points: Points | None = None) -> Standings:
    """The standings of these matches (one event's) by the event's ``points`` (None: win 3, draw 1,
    loss 0): every player of every match has a row."""
    points = points or Points()
    settled = sorted((settle(m) for m in matches), key=_table_order)
    rows: dict[str, Row] = {}
    for s in settled:
        for player in s.match.players:
            if player not in rows:
                rows[player] = Row(player)
        if s.state != COUNTED:
            for player in s.match.players:
                rows[player].left_out += 1
            continue
        seats = s.counts.seats
        names = [seat.player for seat in seats]
        awarded, most = points.of(seats), points.most(len(seats))
        for seat in seats:
            row = rows.get(seat.player) or rows.setdefault(seat.player, Row(seat.player, awarded=0, most=0))
            row.awarded = (row.awarded or 0) + awarded[seat.player]
            row.most = (row.most or 0) + most
            result = s.outcome[seat.player]
            row.wins += result == "win"
            row.draws += result == "draw"
            row.losses += result == "loss"
            row.opponents += [n for n in names if n != seat.player]
            if seat.score is not None:
                row.total_score = (row.total_score or 0) + seat.score
                row.scored_games += 1
            if seat.deck not in row.decks:
                row.decks.append(seat.deck)
    _percentages([r for r in rows.values() if r.matches])
    return Standings(rank(rows.values()), settled, points, any(s.match.ranked for s in settled))


def _percentages(played: list[Row]) -> None:
    """Each player's match-win % (floored), game-win %, OMW and OOMW, exactly. Summed as integers
    over common denominators — every match-win % over d, the least common multiple of theirs (with
    win 3: a divisor of 3·lcm(1..most matches)), every mean over lcm(1..most opponents) more — and
    made Fractions once at the end: summing Fractions costs a gcd per addition, seconds for an event
    of 100,000 matches (docs/performance.md)."""
    if not played:
        return
    # one game per match: game points and match points are the same numbers
    own = {r.player: max(Fraction(r.points) / r.most_points, FLOOR) for r in played}
    d = math.lcm(*{f.denominator for f in own.values()})
    el = math.lcm(*range(1, max(len(r.opponents) for r in played) + 1))
    mw = {p: f.numerator * (d // f.denominator) for p, f in own.items()}  # over d
    omw = {r.player: sum(mw[o] for o in r.opponents) * (el // len(r.opponents)) for r in played}  # over el·d
    for r in played:
        oomw = sum(omw[o] for o in r.opponents) * (el // len(r.opponents))  # over el·el·d
        r.match_win = r.game_win = Fraction(mw[r.player], d)
        r.opponents_match_win = Fraction(omw[r.player], el * d)
        r.opponents_opponents_match_win = Fraction(oomw, el * el * d)


_ORDER = ("points", *TIE_BREAKERS)  # what the ranking compares, in turn


def rank(rows: Iterable[Row]) -> list[Row]:
    """The rows in standing order, each given its rank: points, then the tie-breakers in order, then
    the name; rows equal on points and every tie-breaker share a rank (1, 2, 2, 4). Rows without a
    counted match come last. Each percentage is compared as an integer over its column's common
    denominator (exact, and much faster to sort than Fractions)."""
    rows = list(rows)
    played = [r for r in rows if r.matches]
    scale = {k: math.lcm(*(getattr(r, k).denominator for r in played)) if played else 1 for k in _ORDER}
    keys = {id(r): (bool(r.matches), *(_scaled(getattr(r, k), scale[k]) if r.matches else 0 for k in _ORDER))
            for r in rows}
    # by name, then (a stable sort) by the key, highest first: equal keys stay in name order
    ordered = sorted(sorted(rows, key=lambda r: r.player), key=lambda r: keys[id(r)], reverse=True)
    for i, r in enumerate(ordered):
        r.rank = ordered[i - 1].rank if i and keys[id(ordered[i - 1])] == keys[id(r)] else i + 1
    return ordered


def _scaled(x: int | Fraction, denominator: int) -> int:
    return x.numerator * (denominator // x.denominator)  # an int is its own numerator, over 1


__all__ = ["POINTS", "FLOOR", "TIE_BREAKERS", "STATES", "COUNTED", "DISPUTED", "PENDING", "NOT_VALID",
           "NONE_COUNTS", "match_points", "Seat", "MatchGame", "Match", "Settled", "settle", "Row", "Standings",
           "standings", "rank"]
