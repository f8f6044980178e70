"""Pips: a small test game, registered only by the tests, so that the conformance suite and the
service's paths for many games are proved on something other than Battle for Empyrean.

Two players each have a deck of four cards, valued 1 to 4, shuffled. Each draws one card, then
three rounds are played: both players draw a card (in any order: the draw is simultaneous), a die
is rolled, then the round's first player (P1 in rounds 1 and 3, P2 in round 2) plays a card from
hand and the other player plays one. A card whose value has the die's parity scores 2 more; the
higher score takes the round (equal scores: nobody). Whoever took more rounds wins; else a draw.
A player's draws are seen only by that player until the card is played. Each seat plays a colour
(its faction, for the statistics).

**Pips by rank** (``pipsrank``, ``RANKED_RULES``): the same game for 2 to 4 players, decided by ranks,
as Elysian Battlefields and Spells & Steam are. Each round every player draws, the die is rolled, and
the players play in turn from the round's first player (P1, P2, … in rotation); the one highest
score takes the round (a tie at the top: nobody). A seat's score is the pips it played (the values of
its cards played); seats are ranked by score, ties sharing a rank (1, 2, 2, 4), a seat that conceded
last. Its result is ``{"ranks": [1, 2, 2, 4]}``. Both are one set of rules parametrised by a
``Variant``: Pips itself plays exactly as before.

The lines (both variants): ``C draw P1 3`` (``C draw P2 ?`` for a card the writer did not see), ``C roll 5``,
``P1 play 3``, ``P2 concede``. Seeded chance writes no chance line. A draw that can be only one
card (the last card of a deck whose other cards were all named) is taken by the engine itself and
may be written or left out; in one seat's view the other player's draws may be left out.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from engine.games import CHANCE, GameInfo, Outcome, OutcomeKind, SeatOutcome, another_winner
from engine.log import GameLog, LogFormatError, field_at
from engine.rng import ALGORITHM, SplitMix64

KEY = "pips"
RANKED_KEY = "pipsrank"
VALUES = (1, 2, 3, 4)  # one deck: a card of each value
ROUNDS = 3
OPENING = 1  # cards drawn before round 1
PARITY_BONUS = 2
COLOURS = ("red", "blue", "green")
RANKED_COLOURS = (*COLOURS, "yellow")  # four seats may each play another colour
UNSEEN = "?"
CATALOG = "1"  # the only catalog version

GAME_INFO = GameInfo(key=KEY, name="Pips (test game)", min_players=2, max_players=2,
                     chance_kinds=frozenset({"draw", "roll"}), any_order=frozenset({"draw"}),
                     owner_only=frozenset({"draw"}), outcome=OutcomeKind.WINNER, faction="colour")
RANKED_GAME_INFO = GameInfo(key=RANKED_KEY, name="Pips by rank (test game)", min_players=2, max_players=4,
                            chance_kinds=GAME_INFO.chance_kinds, any_order=GAME_INFO.any_order,
                            owner_only=GAME_INFO.owner_only, outcome=OutcomeKind.RANKS, faction="colour")


@dataclass(frozen=True)
class Variant:
    """What sets the two variants apart: their facts and the colours a seat may play."""

    info: GameInfo
    colours: tuple[str, ...]

    @property
    def ranked(self) -> bool:
        return self.info.outcome is OutcomeKind.RANKS

    @property
    def seat_words(self) -> tuple[str, ...]:
        """How the lines name the seats: P1, P2, …"""
        return tuple(f"P{s}" for s in range(1, self.info.max_players + 1))


PIPS = Variant(GAME_INFO, COLOURS)
PIPS_BY_RANK = Variant(RANKED_GAME_INFO, RANKED_COLOURS)


class Kind(str, Enum):
    DRAW = "chance: card drawn"
    ROLL = "chance: die rolled"
    PLAY = "play a card"

    @property
    def verbs(self) -> frozenset[str]:
        return _VERBS[self]


_VERBS = {Kind.DRAW: frozenset({"draw"}), Kind.ROLL: frozenset({"roll"}), Kind.PLAY: frozenset({"play"})}


class Line(NamedTuple):
    actor: int  # 0: chance
    verb: str  # draw, roll, play, concede
    value: int | None = None  # the card or the die; None: a card not seen
    player: int | None = None  # draw: whose

    @property
    def seat(self) -> int:
        return self.player if self.actor == CHANCE and self.player is not None else self.actor


def parse_line(text: str, seats: tuple[str, ...] = PIPS.seat_words) -> Line:
    """One line; ``seats``: how the variant's lines name its seats."""
    words = text.split(" ") if isinstance(text, str) else []
    if len(words) == 4 and words[:2] == ["C", "draw"] and words[2] in seats:
        return Line(CHANCE, "draw", None if words[3] == UNSEEN else _number(words[3], VALUES, text),
                    int(words[2][1]))
    if len(words) == 3 and words[:2] == ["C", "roll"]:
        return Line(CHANCE, "roll", _number(words[2], range(1, 7), text))
    if len(words) == 3 and words[0] in seats and words[1] == "play":
        return Line(int(words[0][1]), "play", _number(words[2], VALUES, text))
    if len(words) == 2 and words[0] in seats and words[1] == "concede":
        return Line(int(words[0][1]), "concede")
    raise ValueError(f"cannot read {text!r}: a Pips line is 'C draw P1 3', 'C draw P2 ?', 'C roll 5', "
                     "'P1 play 3' or 'P2 concede'")


def _number(word: str, allowed: Any, text: str) -> int:
    if word.isascii() and word.isdigit() and int(word) in allowed and str(int(word)) == word:
        return int(word)
    raise ValueError(f"cannot read {text!r}: {word!r} is no {'card' if allowed == VALUES else 'die'} value "
                     f"({min(allowed)} to {max(allowed)})")


def format_line(d: Line) -> str:
    if d.verb == "draw":
        return f"C draw P{d.player} {UNSEEN if d.value is None else d.value}"
    if d.verb == "roll":
        return f"C roll {d.value}"
    if d.verb == "play":
        return f"P{d.actor} play {d.value}"
    return f"P{d.actor} concede"


@dataclass
class Point:
    """A decision point: who decides, what kind, in words, and the answer a log may leave out."""

    player: int
    seat: int
    kind: Kind
    prompt: str
    default: Line | None = None


class Answer(NamedTuple):
    kind: Kind
    seat: int
    decision: Line
    how: str  # "line", "forced", "default"
    prompt: str
    round: int


@dataclass
class Record:
    """What the statistics need of one game: the dice rolled, the rounds each seat took, the winner
    (``decisions`` and ``unseen`` are filled in by the replay)."""

    rolls: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    winner: int | None = None
    end: str = "score"
    decisions: int = 0
    unseen: list[int] = field(default_factory=list)


class RecordBuilder:
    """Watches a game (``State.observers``) and keeps its record."""

    def __init__(self) -> None:
        self.record = Record()

    def on_roll(self, g: State, value: int) -> None:
        self.record.rolls.append(value)

    def on_game_end(self, g: State) -> None:
        self.record.taken, self.record.winner, self.record.end = list(g.taken), g.winner, g.end or "score"


@dataclass
class State:
    """A game of Pips: the state machine of its decision points (the interface engine.reader and
    engine.replay use: pending, legal_decisions, check, answer, take_default, auto, concede)."""

    seed: int | None
    view: int | None
    trace: list | None = None
    observers: list = field(default_factory=list)
    catalog: None = None
    n: int = 2
    ranked: bool = False  # Pips by rank: seats ranked by the pips they played
    round: int = 0
    phase: str = "draw"
    # per seat (set up for n seats): hand, values known to have left each deck, cards drawn,
    # the card played this round, rounds taken, pips played
    hands: list[list[int | None]] = field(default_factory=list)
    named: list[set[int]] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    decks: list[list[int]] | None = None  # seeded: each deck's order
    die: int | None = None
    played: list[int | None] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    pips: list[int] = field(default_factory=list)
    pending: Point | None = None
    auto: list[Line] = field(default_factory=list)
    over: bool = False
    end: str | None = None
    winner: int | None = None
    conceded_by: int | None = None
    _todo: list[tuple[str, int]] = field(default_factory=list)
    rng: SplitMix64 | None = None

    def __post_init__(self) -> None:
        seats = range(1, self.n + 1)
        self.hands, self.named = [[] for _ in seats], [set() for _ in seats]
        self.drawn, self.played, self.taken, self.pips = [0] * self.n, [None] * self.n, [0] * self.n, [0] * self.n
        if self.seed is not None:
            self.rng = SplitMix64(self.seed)
            self.decks = []
            for _ in seats:
                deck = list(VALUES)
                self.rng.shuffle(deck)
                self.decks.append(deck)
        draws = [("draw", s) for s in seats]
        self._todo = list(draws)
        for rnd in range(1, ROUNDS + 1):
            first = (rnd - 1) % self.n  # P1, P2, … in rotation (Pips: P1, P2, P1)
            order = [1 + (first + k) % self.n for k in range(self.n)]
            self._todo += [("round", rnd), *draws, ("roll", 0), *(("play", s) for s in order), ("score", rnd)]
        self._run()

    # -- the interface
    def legal_decisions(self) -> list[Line]:
        p = self.pending
        if p is None:
            return []
        if p.kind is Kind.DRAW:
            return [Line(CHANCE, "draw", v, p.seat) for v in self._pool(p.seat)] + [Line(CHANCE, "draw", None, p.seat)]
        if p.kind is Kind.ROLL:
            return [Line(CHANCE, "roll", v) for v in range(1, 7)]
        return [Line(p.player, "play", v) for v in sorted(self._playable(p.player))]

    def check(self, d: Line) -> str | None:
        p = self.pending
        if p is None:
            return "the game is over"
        if d.verb not in p.kind.verbs or d.seat != p.seat or d.actor != p.player:
            return f"it is {p.prompt}, not '{format_line(d)}'"
        if d.verb == "draw" and d.value is not None and d.value not in self._pool(p.seat):
            return f"P{p.seat}'s deck cannot give a {d.value}: that card has left it already"
        if d.verb == "play" and d.value not in self._playable(p.player):
            return f"P{p.player} has no {d.value} in hand that could be played"
        return None

    def answer(self, d: Line) -> None:
        self._take(d, "line")
        self._run()

    def take_default(self) -> Line:
        p = self.pending
        assert p is not None and p.default is not None
        d = p.default
        self._take(d, "default")
        self._run()
        return d

    def concede(self, seat: int) -> None:
        self.over, self.end, self.conceded_by, self.pending = True, "concession", seat, None
        self.winner = self._top() if self.ranked else 3 - seat
        self.phase = "over"
        self._ended()

    def ranks(self) -> list[int]:
        """Pips by rank: each seat's rank by the pips it played (ties share one), a seat that conceded last."""
        key = [(s != self.conceded_by, self.pips[s - 1]) for s in range(1, self.n + 1)]
        return [1 + sum(other > mine for other in key) for mine in key]

    def _top(self) -> int | None:
        """The one seat ranked first; None when several share the first rank."""
        firsts = [s for s, r in enumerate(self.ranks(), 1) if r == 1]
        return firsts[0] if len(firsts) == 1 else None

    def _ended(self) -> None:
        for o in self.observers:
            o.on_game_end(self)

    def unseen(self) -> list[int]:
        return [sum(1 for c in hand if c is None) for hand in self.hands]

    def clone(self) -> State:
        return copy.deepcopy(self)

    # -- the rules
    def _pool(self, seat: int) -> list[int]:
        return [v for v in VALUES if v not in self.named[seat - 1]]

    def _playable(self, seat: int) -> set[int]:
        hand = self.hands[seat - 1]
        known = {c for c in hand if c is not None}
        return known | (set(self._pool(seat)) if None in hand else set())

    def _take(self, d: Line, how: str) -> None:
        p = self.pending
        assert p is not None
        if self.trace is not None:
            self.trace.append(Answer(p.kind, p.seat, d, how, p.prompt, self.round))
        self.pending = None
        if d.verb == "draw":
            self.hands[d.seat - 1].append(d.value)
            self.drawn[d.seat - 1] += 1
            if d.value is not None:
                self.named[d.seat - 1].add(d.value)
        elif d.verb == "roll":
            self.die = d.value
            for o in self.observers:
                o.on_roll(self, d.value)
        else:
            hand = self.hands[d.actor - 1]
            hand.remove(d.value if d.value in hand else None)
            self.named[d.actor - 1].add(d.value)  # type: ignore[arg-type]
            self.played[d.actor - 1] = d.value
            self.pips[d.actor - 1] += d.value  # type: ignore[operator]
        self._todo.pop(0)

    def _seeded(self, point: Point, d: Line) -> None:
        """Chance decided by the seed: no decision point, but the trace is told (as_recorded writes it)."""
        self.pending = point
        self._take(d, "seed")

    def _ask(self, point: Point) -> bool:
        """Wait at ``point``, unless it has one legal answer: the engine takes that itself."""
        self.pending = point
        legal = self.legal_decisions()
        named = [d for d in legal if not (d.verb == "draw" and d.value is None)]
        if len(named) == 1:  # a draw: the last card of a deck whose others were all named
            self.auto.append(named[0])
            self._take(named[0], "forced")
            return False
        return True

    def _run(self) -> None:
        while self._todo and not self.over:
            step, who = self._todo[0]
            if step == "round":
                self.round, self.phase, self.played = who, "draw", [None] * self.n
                self._todo.pop(0)
            elif step == "draw":
                if self.decks is not None:
                    self._seeded(Point(CHANCE, who, Kind.DRAW, f"the card P{who} draws"),
                                 Line(CHANCE, "draw", self.decks[who - 1][self.drawn[who - 1]], who))
                    continue
                unseen = self.view is not None and self.view != who
                if self._ask(Point(CHANCE, who, Kind.DRAW, f"the card P{who} draws",
                                   Line(CHANCE, "draw", None, who) if unseen else None)):
                    return
            elif step == "roll":
                self.phase = "roll"
                if self.rng is not None:
                    roll = Line(CHANCE, "roll", 1 + self.rng.below(6))
                    self._seeded(Point(CHANCE, 0, Kind.ROLL, "the die roll"), roll)
                    continue
                if self._ask(Point(CHANCE, 0, Kind.ROLL, "the die roll")):
                    return
            elif step == "play":
                self.phase = "play"
                if self._ask(Point(who, who, Kind.PLAY, f"P{who} plays a card")):
                    return
            else:
                scores = [v + (PARITY_BONUS if v % 2 == (self.die or 0) % 2 else 0)
                          for v in self.played]  # type: ignore[operator]
                if scores.count(max(scores)) == 1:  # the one highest score takes the round
                    self.taken[scores.index(max(scores))] += 1
                self._todo.pop(0)
        if not self._todo and not self.over:
            self.over, self.end, self.phase = True, "score", "over"
            if self.ranked:
                self.winner = self._top()
            else:
                self.winner = None if self.taken[0] == self.taken[1] else 1 + self.taken.index(max(self.taken))
            self._ended()


# -- the log's parts
def schema_part(variant: Variant) -> dict:
    info = variant.info
    ranks = {"title": "ranks", "description": "Each seat's rank, in seat order (ties share one).", "type": "array",
             "minItems": info.min_players, "maxItems": info.max_players,
             "items": {"title": "rank", "type": "integer", "minimum": 1, "maximum": info.max_players}}
    result = ({"required": ["ranks"], "properties": {"ranks": ranks}} if variant.ranked else
              {"required": ["winner"], "properties": {"winner": {"title": "winner", "enum": [None, 1, 2]}}})
    return {"properties": {
        "setup": {"title": "setup", "description": "Each seat's colour, in seat order.", "type": "object",
                  "required": ["colours"], "additionalProperties": False,
                  "properties": {"colours": {"title": "colours", "type": "array", "minItems": info.min_players,
                                             "maxItems": info.max_players,
                                             "items": {"title": "colour", "enum": list(variant.colours)}}}},
        "checkpoints": {"title": "checkpoints", "type": "array", "maxItems": 0},
        "result": {"title": "result", "type": "object", "additionalProperties": False, **result},
    }}


@dataclass(frozen=True)
class Setup:
    colours: tuple[str, ...]
    players: int = 2


@dataclass(frozen=True)
class Result:
    """A log's claimed result: Pips's winner, or (Pips by rank) each seat's rank and the one seat
    ranked first as the winner."""

    winner: int | None
    ranks: tuple[int, ...] | None = None


def line_problems(value: dict, decoded: list, texts: list[str]) -> list[tuple[list, str]]:
    seeded = field_at(value, "chance", "type") == "seeded"
    problems = [(["decisions", i], "in a log with seeded chance the draws and rolls come from the seed and are not "
                 "written") for i, d in decoded if seeded and d.actor == CHANCE]
    ranks, colours = field_at(value, "result", "ranks"), field_at(value, "setup", "colours")
    if isinstance(ranks, list) and isinstance(colours, list) and len(ranks) != len(colours):
        problems.append((["result", "ranks"], f"the result gives {len(ranks)} ranks for {len(colours)} seats: "
                         "one rank per seat, in seat order"))
    return problems


def read_log_parts(value: dict) -> tuple[Setup, tuple, Result | None]:
    r = value.get("result")
    colours = tuple(value["setup"]["colours"])
    if r is None:
        return Setup(colours, len(colours)), (), None
    if "ranks" in r:
        firsts = [s for s, rank in enumerate(r["ranks"], 1) if rank == 1]
        return Setup(colours, len(colours)), (), Result(firsts[0] if len(firsts) == 1 else None, tuple(r["ranks"]))
    return Setup(colours, len(colours)), (), Result(r["winner"])


def canonical_lines(lines: Any) -> list[str]:
    out = list(lines)
    i = 0
    while i < len(out):
        j = i
        while j < len(out) and out[j].startswith("C draw "):
            j += 1
        out[i:j] = sorted(out[i:j], key=lambda t: t[7:9])
        i = max(j, i + 1)
    return out


class PipsRules:
    bots = ("random", "greedy")
    any_order_kinds = frozenset({Kind.DRAW})
    format_line = staticmethod(format_line)
    line_problems = staticmethod(line_problems)
    read_log_parts = staticmethod(read_log_parts)
    canonical_lines = staticmethod(canonical_lines)

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.info = variant.info
        self._schema_part = schema_part(variant)

    def log_schema_part(self) -> dict:
        return self._schema_part

    def parse_line(self, text: str) -> Line:
        return parse_line(text, self.variant.seat_words)

    @staticmethod
    def dump_setup(setup: Setup) -> dict:
        return {"colours": list(setup.colours)}

    @staticmethod
    def dump_checkpoint(c: Any) -> dict:  # pragma: no cover - Pips has no checkpoints
        raise TypeError("Pips logs have no checkpoints")

    @staticmethod
    def dump_result(result: Result) -> dict:
        return {"winner": result.winner} if result.ranks is None else {"ranks": list(result.ranks)}

    # -- replay
    def new_game(self, log: GameLog, catalog: Any = None, observers: Any = None, *, trace: bool = False) -> State:
        if log.catalog != CATALOG:
            raise LogFormatError([{"path": "/catalog", "message": f"unknown catalog version {log.catalog!r}; "
                                   "Pips has 1"}])
        return State(log.chance.seed if log.chance.type == "seeded" else None, log.chance.view,
                     trace=[] if trace else None, observers=list(observers or ()), n=log.setup.players,
                     ranked=self.variant.ranked)

    def record_builder(self) -> RecordBuilder:
        return RecordBuilder()

    def checkpoint_check(self, log: GameLog) -> None:
        return None

    def setup_illegality(self, log: GameLog, g: State) -> None:
        return None

    def end_as_claimed(self, log: GameLog, g: State) -> None:
        return None

    def claim_mismatches(self, log: GameLog, g: State, names: list[str], check: None) -> list[dict]:
        if log.result is not None and self.variant.ranked and list(log.result.ranks) != g.ranks():
            return [{"path": "/result/ranks", "message": f"the log claims the ranks {list(log.result.ranks)}, but "
                     f"by the rules they are {g.ranks()} (pips played: {g.pips})"}]
        if log.result is not None and log.result.winner != g.winner:
            return [{"path": "/result/winner", "message": f"the log claims {_said(log.result.winner, names)}, but "
                     f"by the rules {_said(g.winner, names)}"}]
        return []

    def result_words(self, g: State, names: list[str]) -> str:
        how = f"{names[(g.conceded_by or 1) - 1]} conceded in round {g.round}; " if g.end == "concession" else ""
        if self.variant.ranked:
            return how + ", ".join(f"{names[s - 1]} rank {r} ({g.pips[s - 1]} pips)"
                                   for s, r in enumerate(g.ranks(), 1))
        return f"{how}{_said(g.winner, names)} {g.taken[0]}–{g.taken[1]}"

    def describe(self, g: State) -> str:
        hands = "; ".join(f"P{s} hand {[UNSEEN if c is None else c for c in h]}" for s, h in enumerate(g.hands, 1))
        return f"Round {g.round}, {g.phase}; die {g.die}; rounds taken {'–'.join(map(str, g.taken))}; {hands}"

    def where(self, g: State) -> tuple[int, str]:
        return g.round, g.phase

    def where_words(self, g: State) -> str:
        return f"in round {g.round}, {g.phase}"

    def outcome(self, g: State) -> Outcome | None:
        if not g.over or g.end is None:
            return None
        if self.variant.ranked:
            return Outcome(g.end, tuple(SeatOutcome(s, rank, g.pips[s - 1], g.winner == s)
                                        for s, rank in enumerate(g.ranks(), 1)), g.conceded_by)
        return Outcome(g.end, tuple(SeatOutcome(s, 1 if g.winner in (None, s) else 2, g.taken[s - 1], g.winner == s)
                                    for s in (1, 2)), g.conceded_by)

    def factions(self, log: GameLog) -> list[str]:
        return list(log.setup.colours)

    # -- the board and counts
    @staticmethod
    def seats(log: GameLog) -> list[dict]:
        names = log.meta.get("players")
        return [{"seat": s, "colour": c, "name": names[s - 1] if names and s <= len(names) else None}
                for s, c in enumerate(log.setup.colours, 1)]

    @staticmethod
    def layout(g: State) -> list:
        return []

    def frame(self, g: State, index: int, decision: str | None, line: int | None = None) -> dict:
        return {"index": index, "decision": decision, "line": line, "round": g.round, "phase": g.phase,
                "die": g.die, "taken": list(g.taken), "over": g.over,
                "hands": [[UNSEEN if c is None else c for c in h] for h in g.hands], **self._pips(g)}

    def tallies(self, g: State) -> list:
        return [{"seat": s, "taken": g.taken[s - 1], **({"pips": g.pips[s - 1]} if self.variant.ranked else {})}
                for s in range(1, g.n + 1)]

    def tally_columns(self, tallies: list) -> dict:
        return {kind: [t[kind] for t in tallies] for kind in (("taken", "pips") if self.variant.ranked else ("taken",))}

    def game_outcome(self, g: State) -> dict | None:
        if not g.over:
            return None
        return {"end": g.end, "winner": g.winner, "taken": list(g.taken),
                **({"ranks": g.ranks()} if self.variant.ranked else {}), **self._pips(g)}

    def _pips(self, g: State) -> dict:
        """Pips by rank's scores, where it shows them (Pips shows none)."""
        return {"pips": list(g.pips)} if self.variant.ranked else {}

    @staticmethod
    def deploys_before_seat(g: State) -> list:
        return []

    @staticmethod
    def concede_line(seat: int) -> str:
        return f"P{seat} concede"

    # -- seat views
    @staticmethod
    def as_seen(entry: Answer, hidden: bool, omit: bool, catalog: Any) -> Line | None:
        d = entry.decision
        if entry.kind is Kind.DRAW and hidden:
            return None if omit else d._replace(value=None)
        return d

    @staticmethod
    def is_private(entry: Answer) -> bool:
        return entry.kind is Kind.DRAW

    @staticmethod
    def is_unseen(d: Line) -> bool:
        return d.verb == "draw" and d.value is None

    @staticmethod
    def is_drawn(entry: Answer) -> bool:
        return entry.how == "seed"  # chance the seed decided, in the trace for as_recorded

    @staticmethod
    def trace_observer() -> None:
        return None  # the state tells its trace itself

    # -- reading lines
    @staticmethod
    def answer_of(entry: Line) -> Line:
        return entry

    @staticmethod
    def seat_of(d: Line) -> int:
        return d.seat

    @staticmethod
    def writes_down(d: Line, q: Line) -> bool:
        return d == q or (d.verb == "draw" and d.value is None and q.verb == "draw" and q.player == d.player)

    @staticmethod
    def aims(d: Line, pend: Point) -> bool:
        return d.seat == pend.seat and d.verb in pend.kind.verbs

    @staticmethod
    def verbs_like(d: Line) -> frozenset[str]:
        return frozenset({d.verb})

    @staticmethod
    def found_nothing(d: Line) -> bool:
        return False

    # -- self-play
    def self_play(self, seed: int, *, bot: str = "random", players: int = 2, checkpoints: bool = False,
                  factions: list[str] | None = None, meta: dict | None = None, catalog: str | None = None) -> dict:
        if catalog not in (None, CATALOG):
            raise KeyError(catalog)
        pick = random.Random(seed)
        choices = self.variant.colours
        colours = [choices[pick.randrange(len(choices))] for _ in range(players)]
        if factions is not None:
            colours = list(factions)
        g = State(seed, None, n=players if self.variant.ranked else 2, ranked=self.variant.ranked)
        lines = []
        while not g.over:
            legal = g.legal_decisions()
            d = max(legal, key=lambda x: x.value or 0) if bot == "greedy" else legal[pick.randrange(len(legal))]
            lines.append(format_line(d))
            g.answer(d)
        result = {"ranks": g.ranks()} if self.variant.ranked else {"winner": g.winner}
        return {"format": "empyrean-log", "version": 1, "game": self.info.key, "catalog": CATALOG,
                "setup": {"colours": colours}, "chance": {"type": "seeded", "algorithm": ALGORITHM, "seed": seed},
                "decisions": lines, "result": result, **({"meta": meta} if meta else {})}

    def faction_choices(self, catalog: str | None = None) -> list[str]:
        if catalog not in (None, CATALOG):
            raise KeyError(catalog)
        return list(self.variant.colours)

    def catalog_versions(self) -> list[str]:
        return [CATALOG]

    def check_catalog(self, path: str, version: str) -> str:
        raise ValueError(f"{path}: {self.info.name} has no catalog files to check: its one catalog ({CATALOG}) is "
                         "written in tests/games/pips.py")

    def catalog_data(self, version: str) -> dict:
        if version != CATALOG:
            raise KeyError(version)
        return {"version": CATALOG, "notice": "Pips is the test suite's own game, not one of the Empyrean family.",
                "cards": [{"name": str(v), "text": f"worth {v} pip{'s' * (v > 1)} when played"} for v in VALUES],
                "colours": [{"name": c, "text": "a seat's colour; it changes nothing in play"}
                            for c in self.variant.colours]}

    def misclaimed_result(self, result: dict) -> dict:
        if self.variant.ranked:  # the first seat claims first place when it is not first, else second
            ranks = list(result["ranks"])
            ranks[0] = 2 if ranks[0] == 1 else 1
            return {"ranks": ranks}
        return another_winner(result)


def _said(winner: int | None, names: list[str]) -> str:
    return f"{names[winner - 1]} wins" if winner else "a draw"


RULES = PipsRules(PIPS)
RANKED_RULES = PipsRules(PIPS_BY_RANK)
