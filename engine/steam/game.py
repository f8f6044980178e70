"""A game of Spells & Steam: the state machine of its decision points.

The game is a list of steps (``todo``) run in order until one needs a decision (``pending``); an
answer may put more steps in front (a spellcar's effects, the End of the Line). Each kind of step
has a handler — ``setup.py``, ``flow.py`` and ``picks.py`` for set-up and turns; ``effects.py``,
``building.py``, ``goods.py`` and ``moves.py`` for what cards do —: ``enter`` (resolve the step, or
return the point to ask), ``legal`` (the answers), ``apply`` and, where listing every answer costs
too much, ``check`` (a written answer checked as written, with the reason it fails) or ``has``
(whether a written answer is among the answers, found without listing them; ``why`` says why not).
Scoring and ranks are ``scoring.py``'s; the rules in words: docs/steam-rules.md.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..games import CHANCE
from ..rng import SplitMix64
from ..turn_rules import Answer
from . import hexmap
from .content import Catalog, Effect
from .lines import Kind, Line, format_line
from .parts import Bag, Folio, Point, Turn
from .pieces import CITY, DEMAND_TILES, END_DEMAND_TILES, GOODS, GOODS_EACH, MANA_LIMIT, WASTELAND, WASTELANDS

ROUND_LIMIT = 60  # a house limit: a game still going after this many rounds ends as if time were called


class End(StrEnum):
    """How a game of Spells & Steam ends."""

    DEMAND = "demand"  # a company took the demand tiles that end the game
    TRAINS = "trains"  # a company ran out of train cars
    CONCESSION = "concession"
    TIME = "time"
    ROUND_LIMIT = "round limit"

    @property
    def words(self) -> str:
        return _END_WORDS[self]


_END_WORDS = {End.DEMAND: "a company's demand tiles", End.TRAINS: "a company out of train cars",
              End.CONCESSION: "a concession", End.TIME: "time called",
              End.ROUND_LIMIT: f"the house limit of {ROUND_LIMIT} rounds"}


@dataclass
class State:
    """A game of Spells & Steam (the interface of engine.games.GameState)."""

    cat: Catalog
    n: int
    map: hexmap.HexMap
    rng: SplitMix64 | None = None
    trace: list | None = None
    observers: list = field(default_factory=list)
    variants: frozenset = frozenset()
    teams: tuple = ()  # tuples of seats
    terrain: list = field(default_factory=list)  # each hex's terrain now (wastelands placed)
    goods: list = field(default_factory=list)  # each hex's goods: a Bag of colours
    cars: list = field(default_factory=list)  # each hex's cars: seats, in the order they came
    stands: dict = field(default_factory=dict)  # a city's hex -> its demand tiles: (colour, size)
    supply: Counter = field(default_factory=Counter)  # goods in the supply, by colour
    wastelands: int = WASTELANDS
    market: list = field(default_factory=list)
    pool: Any = None  # the spellcars not yet dealt: a list in deal order (seeded), else a Counter
    stacks: dict = field(default_factory=dict)  # specialist kind -> tiles in its stack (None: unknown)
    stack_left: dict = field(default_factory=dict)  # specialist kind -> tiles still in its stack
    box: dict = field(default_factory=dict)  # specialist kind -> tiles left in the box (seeded)
    taken: set = field(default_factory=set)  # specialists in play or seen leaving the stacks
    awards: list = field(default_factory=list)  # in play
    offered: list = field(default_factory=list)  # Expert: awards dealt, not yet struck out
    folios: list = field(default_factory=list)
    order: list = field(default_factory=list)  # seats in turn order, the start player first
    start: int | None = None
    current: int = 0
    turn: Turn = field(default_factory=Turn)
    round: int = 0
    phase: str = "setup"
    ending: End | None = None  # the end is triggered: the round is finished, then final deliveries
    pending: Point | None = None
    auto: list = field(default_factory=list)
    over: bool = False
    end: End | None = None
    winner: int | None = None
    conceded_by: int | None = None
    gone: list = field(default_factory=list)  # seats that left, in order
    todo: list = field(default_factory=list)
    _legal: tuple | None = None
    _team_of: dict = field(default_factory=dict)  # seat -> its team's number, from ``teams``

    def __post_init__(self) -> None:
        self._team_of = {s: i + 1 for i, t in enumerate(self.teams) for s in t}

    @property
    def catalog(self) -> Catalog:
        return self.cat

    @property
    def companies(self) -> list[Folio]:
        return self.folios

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, cat: Catalog, players: int, map_name: str, seed: int | None, *, variants: frozenset = frozenset(),
            teams: tuple = (), trace: bool = False, observers: Any = None) -> State:
        from . import setup  # the handlers import this module's State for their types only

        rng = SplitMix64(seed) if seed is not None else None
        m = hexmap.build(cat, players, map_name)
        g = cls(cat, players, m, rng, [] if trace else None, list(observers or ()), frozenset(variants),
                tuple(tuple(t) for t in teams))
        g.terrain = list(m.terrains)
        g.cars = [[] for _ in range(m.size)]
        g.supply = Counter({c: GOODS_EACH for c in GOODS.values()})
        g.goods = [Bag() for _ in range(m.size)]
        for h, t in enumerate(m.terrains):
            if t in GOODS:
                g.goods[h][GOODS[t]] += 1
                g.supply[GOODS[t]] -= 1
        tiles = DEMAND_TILES[players]
        for h, colour in enumerate(m.cities):
            if colour is not None:
                g.stands[h] = [(colour, size) for size, count in zip((2, 3, 4), tiles) for _ in range(count)]
        g.folios = [Folio(s) for s in range(1, players + 1)]
        setup.deal_pools(g)
        g.todo = setup.setup_steps(g)
        g._run()
        return g

    # ------------------------------------------------------------------ the interface
    def legal_decisions(self) -> list[Line]:
        p = self.pending
        if p is None:
            return []
        if self._legal is None or self._legal[0] is not p:
            self._legal = (p, _handler(self.todo[0])["legal"](self, self.todo[0]))
        return list(self._legal[1])

    def check(self, d: Line) -> str | None:
        p = self.pending
        if p is None:
            return "the game is over"
        if self._late_hire(d):
            from .picks import late_hire_problem
            return late_hire_problem(self, d)
        if d.actor != p.player or d.verb not in p.kind.verbs:
            return f"it is {p.prompt}, not '{format_line(d)}'"
        h = _handler(self.todo[0])
        written = h.get("check")
        if written is not None:
            return written(self, self.todo[0], d)
        has = h.get("has")
        if has(self, self.todo[0], d) if has is not None else d in self.legal_decisions():
            return None
        why = h.get("why")
        return (why(self, self.todo[0], d) if why else None) or f"'{format_line(d)}' is not allowed now ({p.prompt})"

    def answer(self, d: Line) -> None:
        p = self.pending
        if p is not None and self._late_hire(d):
            from .picks import hire
            if self.trace is not None:
                self.trace.append(Answer(Kind.HIRE, d.actor, d, "line", "", self.round))
            if d.args[0] != "later":
                hire(self, d.actor, d.args[0])
            self._legal = None
            return
        self._take(d, "line")
        self._run()

    def _late_hire(self, d: Line) -> bool:
        """``d`` is a pick from a stack held, written away from the point that asks it: in anyone's turn,
        the chooser's own included (choice C3)."""
        p = self.pending
        return (d.verb == "hires" and p is not None and 1 <= d.actor <= self.n
                and not (d.actor == p.player and p.kind is Kind.HIRE))

    def take_default(self) -> Line:
        p = self.pending
        assert p is not None and p.default is not None
        d = p.default
        self._take(d, "default")
        self._run()
        return d

    def concede(self, seat: int) -> None:
        from .flow import leave
        self.conceded_by = seat
        leave(self, seat)
        self._legal = None
        if not self.over:
            self._run()

    def unseen(self) -> list[int]:
        return [0] * self.n  # a pick from a stack is written when made; nothing else is hidden

    def clone(self) -> State:
        g = copy.copy(self)
        g.terrain, g.goods, g.cars = list(self.terrain), [Bag(c) for c in self.goods], \
            [list(c) for c in self.cars]
        g.stands = {h: list(t) for h, t in self.stands.items()}
        g.supply, g.market = Counter(self.supply), list(self.market)
        g.pool = Counter(self.pool) if isinstance(self.pool, Counter) else list(self.pool)
        g.stacks = {k: (list(v) if v is not None else None) for k, v in self.stacks.items()}
        g.stack_left, g.box, g.taken = dict(self.stack_left), {k: list(v) for k, v in self.box.items()}, set(self.taken)
        g.awards, g.offered, g.order, g.gone = list(self.awards), list(self.offered), list(self.order), list(self.gone)
        g.folios = [f.copy() for f in self.folios]
        g.turn = self.turn.copy()
        g.auto, g.todo = list(self.auto), list(self.todo)
        g.rng = self.rng.copy() if self.rng is not None else None
        g.trace = list(self.trace) if self.trace is not None else None
        g.observers = []
        g._legal = None
        return g

    # ------------------------------------------------------------------ what the map and folios hold
    def folio(self, seat: int) -> Folio:
        return self.folios[seat - 1]

    def active(self) -> list[int]:
        return [f.seat for f in self.folios if not f.out]

    def team_of(self, seat: int) -> int | None:
        return self._team_of.get(seat)

    def teammates(self, a: int, b: int) -> bool:
        if not self.teams:
            return False
        team = self._team_of.get(a)
        return a != b and team is not None and team == self._team_of.get(b)

    def competitors(self, seat: int) -> list[int]:
        """The other companies still playing (teammates are not competitors), in turn order after ``seat``."""
        if not self.order:
            return []
        i = self.order.index(seat)
        after = [self.order[(i + k) % self.n] for k in range(1, self.n)]
        return [s for s in after if not self.folio(s).out and not self.teammates(seat, s)]

    def demand_needed(self) -> int:
        return END_DEMAND_TILES[self.n] + ("epic" in self.variants)

    def specialist(self, key: str) -> Any:
        return self.cat.specialists[key]

    def passive(self, seat: int, op: str) -> list[Effect]:
        """The standing rules of ``op`` the company's station masters give it."""
        f = self.folio(seat)
        if not f.extra and "station" not in f.specialists:
            return []
        out = []
        for key in f.stations():
            sp = self.cat.specialists[key]
            if sp.trigger == "passive":
                out += [e for e in sp.effects if e.op == op]
        return out

    # mana -----------------------------------------------------------------------------------
    def unlocked(self, seat: int) -> int:
        f = self.folio(seat)
        return f.mana - (self.turn.locked if self.turn.seat == seat else 0)

    def pay(self, seat: int, amount: int, *, activation: bool = False) -> None:
        """Spend ``amount`` mana (checked before). An activation's cost never comes out of mana that
        activations gained this turn; other costs spend that mana first."""
        if amount <= 0:
            return
        f = self.folio(seat)
        f.mana -= amount
        f.spent += amount
        t = self.turn
        if t.seat == seat:
            t.locked = min(t.locked, f.mana) if activation else max(0, t.locked - amount)

    def gain_mana(self, seat: int, amount: int) -> None:
        f = self.folio(seat)
        room = MANA_LIMIT - f.mana - f.spent
        got = max(0, min(amount, room))
        f.mana += got
        self._lock(seat, got)

    def reclaim(self, seat: int, amount: int | None) -> None:
        f = self.folio(seat)
        got = f.spent if amount is None else min(amount, f.spent)
        f.spent -= got
        f.mana += got
        self._lock(seat, got)

    def _lock(self, seat: int, got: int) -> None:
        t = self.turn
        if t.seat == seat and t.in_activation:
            t.locked += got

    # the map -----------------------------------------------------------------------------------
    def place_car(self, seat: int, h: int) -> None:
        f = self.folio(seat)
        self.cars[h].append(seat)
        f.network.add(h)
        f.trains -= 1
        f.placed += 1
        if f.trains <= 0 and self.ending is None and self.phase != "setup":
            self.ending = End.TRAINS

    def remove_car(self, seat: int, h: int) -> None:
        self.cars[h].remove(seat)
        f = self.folio(seat)
        f.network.discard(h)
        f.trains += 1

    def move_car(self, seat: int, a: int, b: int) -> None:
        """A car of ``seat`` goes from ``a`` to ``b`` (it stays on the map: the supply is not touched)."""
        self.cars[a].remove(seat)
        self.cars[b].append(seat)
        net = self.folio(seat).network
        net.discard(a)
        net.add(b)

    def place_wasteland(self, seat: int, h: int, keep: bool) -> None:
        self.terrain[h] = WASTELAND
        self.wastelands -= 1
        for colour, count in self.goods[h].items():
            if keep:
                self.folio(seat).goods[colour] += count
            else:
                self.supply[colour] += count
        self.goods[h] = Bag()

    def good_here(self, token: str) -> tuple[int, str] | None:
        colour, where = token.split("@")
        h = self.map.index(where)
        if h is None or self.goods[h][colour] <= 0:
            return None
        return h, colour

    def is_city(self, h: int) -> bool:
        return self.terrain[h] == CITY

    def hex_name(self, h: int) -> str:
        return self.map.names[h]

    # ------------------------------------------------------------------ taking an answer
    def _take(self, d: Line, how: str) -> None:
        p = self.pending
        assert p is not None
        if self.trace is not None:
            self.trace.append(Answer(p.kind, p.seat, d, how, p.prompt, self.round))
        self.pending, self._legal = None, None
        step = self.todo.pop(0)
        _handler(step)["apply"](self, step, d)

    def _ask(self, point: Point, h: dict) -> bool:
        """Wait at ``point`` (asked by a step of handler ``h``), unless it has one legal answer: the
        engine takes it."""
        self.pending = point
        if point.default is not None or h.get("many"):
            return True
        more = h.get("more")
        if more is not None and more(self, self.todo[0]):
            return True  # more than one answer, known without listing them all
        legal = self.legal_decisions()
        if len(legal) == 1:
            self.auto.append(legal[0])
            self._take(legal[0], "forced")
            return False
        if not legal:  # nothing can be done: the step passes (every handler offers an answer when it can)
            self.pending, self._legal = None, None
            self.todo.pop(0)
            return False
        return True

    def _run(self) -> None:
        while self.todo and not self.over:
            step = self.todo[0]
            h = _handler(step)
            point = h["enter"](self, step)
            if point is None:
                continue  # the step resolved itself (and left the list)
            if point.player == CHANCE and self.rng is not None:
                self.pending = point
                self._take(h["seed"](self, step), "seed")
                continue
            if self._ask(point, h):
                return

    def finish(self, how: End) -> None:
        from .scoring import ranks
        self.over, self.end, self.pending, self.phase = True, how, None, "over"
        self.todo = []
        r = ranks(self)
        top = [s for s in range(1, self.n + 1) if r[s - 1] == 1]
        self.winner = top[0] if len(top) == 1 else None
        for o in self.observers:
            o.on_game_end(self)

    def call_time(self) -> None:
        if not self.over:
            self.finish(End.TIME)

    def ranks(self) -> list[int]:
        from .scoring import ranks
        return ranks(self)

    def score_sheet(self) -> Any:
        from .scoring import score_sheet
        return score_sheet(self)

    def tell(self, event: str, *args: Any) -> None:
        for o in self.observers:
            fn = getattr(o, event, None)
            if fn is not None:
                fn(self, *args)


_HANDLERS: dict[str, dict] = {}


def handlers(table: dict[str, dict]) -> None:
    """Add step handlers (the modules of set-up, turns and effects register theirs on import)."""
    _HANDLERS.update(table)


def _handler(step: tuple) -> dict:
    found = _HANDLERS.get(step[0])
    if found is None:
        from . import building, effects, flow, goods, moves, picks, setup  # noqa: F401 - they register their handlers
        found = _HANDLERS[step[0]]
    return found


def asker(kind: Kind, words: str):
    """The ``enter`` of a step that asks the company it names (``step[1]``), "P2 <words>"."""
    def enter(g: State, step: tuple) -> Point:
        return Point(step[1], step[1], kind, f"P{step[1]} {words}")
    return enter
