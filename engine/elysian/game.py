"""A game of Elysian Battlefields: the state machine of its decision points.

The game is a list of steps (``todo``) run in order until one needs a decision (``pending``); a
decision may put more steps in front (a card's effects, an attack's dice). Set-up follows the book's
order (the turn-order roll, heroes, tiles drawn and laid, three cards each, two outposts each, four
objects into them), then the players take turns in order until one wins or one is left. Attacks are
``fight.py``'s, cards' effects ``cards.py``'s, the decks and hands ``hands.py``'s.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ..games import CHANCE
from ..rng import SplitMix64
from ..turn_rules import Answer
from . import cards, fight, hands
from .board import Field, clockwise, is_triangle, neighbours, read_hex
from .catalog import DECKS, Catalog
from .lines import Kind, Line, format_line
from .parts import Player, Point, Site, Turn, Unit
from .pieces import (
    ARMING_OBJECTS,
    CONQUER_POINTS,
    HAND_LIMIT,
    REBEL_SETTLEMENTS,
    REIGN_POINTS,
    RULE_TERRITORIES,
    SET_SIZE,
    SETTLEMENT_SUPPLY,
    SETTLEMENTS,
    STANDARD,
    START_CARDS,
    START_OUTPOSTS,
    TEMPLE_KINGDOM,
    TEMPLES_SUPPLY,
    TILES_EACH,
    UNITS_EACH,
    WALLS_SUPPLY,
)
from .refusals import move_step_problem, refusal

ROUND_LIMIT = 40  # a house limit: a game still going after this many rounds ends as if time were called (C27)


# points that never have a single answer: a tile has three turns on any free triangle; a die six faces
NEVER_ONE = frozenset({Kind.LAY, Kind.DICE, Kind.ROLL})


class End(StrEnum):
    """How a game of Elysian Battlefields ends."""

    CONQUER = "conquer"
    RULE = "rule"
    REIGN = "reign"
    LAST_STANDING = "last standing"  # choice C15
    ROUND_LIMIT = "round limit"  # choice C27
    CONCESSION = "concession"
    TIME = "time"

    @property
    def words(self) -> str:
        return _END_WORDS[self]


_END_WORDS = {End.CONQUER: f"Conquer ({CONQUER_POINTS} conquest points)",
              End.RULE: f"Rule ({RULE_TERRITORIES} territories at the start of a turn)",
              End.REIGN: f"Reign ({REIGN_POINTS} kingdom points at the start of a turn)",
              End.LAST_STANDING: "the last player left", End.CONCESSION: "a concession", End.TIME: "time called",
              End.ROUND_LIMIT: f"the house limit of {ROUND_LIMIT} rounds"}


@dataclass
class State:
    """A game of Elysian Battlefields (the interface of engine.games.GameState)."""

    cat: Catalog
    n: int
    rng: SplitMix64 | None = None
    trace: list | None = None
    observers: list = field(default_factory=list)
    land: Field = field(default_factory=Field)
    players: list[Player] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    sites: dict[str, Site] = field(default_factory=dict)
    walls_left: int = WALLS_SUPPLY
    temples_left: int = TEMPLES_SUPPLY
    decks: dict = field(default_factory=dict)
    shown: Counter = field(default_factory=Counter)
    tiles_left: list = field(default_factory=list)
    order: list[int] = field(default_factory=list)  # seats in turn order, the first player first
    current: int = 0
    turn: Turn = field(default_factory=Turn)
    attack: Any = None  # fight.Attack while one is resolved
    last_attack: Any = None  # how the last attack ended, for refusals
    round: int = 0
    phase: str = "setup"
    pending: Point | None = None
    auto: list[Line] = field(default_factory=list)
    over: bool = False
    end: End | None = None
    winner: int | None = None
    conceded_by: int | None = None
    gone: list[int] = field(default_factory=list)  # seats eliminated or left, in that order
    todo: list[tuple] = field(default_factory=list)
    # each player's numbers with their lasting effects (cards.stat, cards.bonus), worked out once
    # until an upgrade, an item or a hero comes or goes (lasting_changed)
    lasting_cache: dict = field(default_factory=dict)
    _legal: tuple | None = None

    @property
    def catalog(self) -> Catalog:
        return self.cat

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, cat: Catalog, players: int, seed: int | None, *, trace: bool = False, observers: Any = None) -> State:
        rng = SplitMix64(seed) if seed is not None else None
        g = cls(cat, players, rng, [] if trace else None, list(observers or ()))
        for s in range(1, players + 1):
            supply = Counter({u: UNITS_EACH for u in STANDARD}) + Counter(SETTLEMENT_SUPPLY)
            g.players.append(Player(s, supply=supply))
        g.decks = hands.new_decks(cat, rng)
        g.tiles_left = list(cat.tiles)
        g.todo = [("roll", s) for s in range(1, players + 1)] + [("roll off", tuple(range(1, players + 1)))]
        g._run()
        return g

    def setup_steps(self) -> None:
        o = self.order
        self.todo += [("hero", s) for s in reversed(o)]
        self.todo += [("tile", s) for s in o for _ in range(TILES_EACH)]
        self.todo += [("lay", s) for _ in range(TILES_EACH) for s in o]
        self.todo += [("draw", s, "setup") for s in o for _ in range(START_CARDS)]
        self.todo += [("outpost", s) for _ in range(START_OUTPOSTS) for s in o]
        self.todo += [("arm", s, k) for s in o for k in range(ARMING_OBJECTS)]
        self.todo += [("turn", o[0], True)]

    # ------------------------------------------------------------------ the interface
    def legal_decisions(self) -> list[Line]:
        p = self.pending
        if p is None:
            return []
        if self._legal is None or self._legal[0] is not p:
            self._legal = (p, _legal_at(self, p))
        return list(self._legal[1])

    def check(self, d: Line) -> str | None:
        p = self.pending
        if p is None:
            return "the game is over"
        if d.actor != p.player or d.verb not in p.kind.verbs:
            return refusal(self, d, p) or f"it is {p.prompt}, not '{format_line(d)}'"
        if p.kind is Kind.MOVE:  # checked as written: listing every move and attack costs more
            return move_step_problem(self, d)
        if p.kind is Kind.LAY and _lays_well(self, d):
            return None
        if p.kind is Kind.DICE and len(d.args) == min(SET_SIZE, self.attack.dice_left):
            return None  # any faces of the set's size (listing them is 56 lines)
        if d in self.legal_decisions():
            return None
        return refusal(self, d, p) or f"'{format_line(d)}' is not allowed now ({p.prompt})"

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
        self.conceded_by = seat
        left = [s for s in self.active() if s != seat]
        self._finish(End.CONCESSION, left[0] if len(left) == 1 else None)

    def unseen(self) -> list[int]:
        return [0] * self.n  # no line of this game is hidden from a seat: a drawn card is never written

    def clone(self) -> State:
        g = copy.copy(self)
        g.players = [replace(p, tiles=list(p.tiles), hand=list(p.hand), upgrades=list(p.upgrades),
                             items=list(p.items), supply=Counter(p.supply)) for p in self.players]
        g.units = [replace(u) for u in self.units]
        g.sites = {k: replace(v) for k, v in self.sites.items()}
        g.decks = {k: hands.Deck(list(d.pile), list(d.discard)) for k, d in self.decks.items()}
        g.land, g.shown, g.tiles_left = self.land.copy(), Counter(self.shown), list(self.tiles_left)
        g.order, g.turn, g.auto, g.todo, g.gone = list(self.order), replace(self.turn), list(self.auto), \
            list(self.todo), list(self.gone)
        g.attack = self.attack.copy() if self.attack is not None else None
        g.lasting_cache = dict(self.lasting_cache)
        g.rng = self.rng.copy() if self.rng is not None else None
        g.trace = list(self.trace) if self.trace is not None else None
        g.observers = []
        return g

    # ------------------------------------------------------------------ what the field holds
    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    def active(self) -> list[int]:
        return [p.seat for p in self.players if not p.out]

    def units_at(self, where: str, seat: int | None = None) -> list[Unit]:
        return [u for u in self.units if u.where == where and (seat is None or u.player == seat)]

    def holder(self, where: str) -> int | None:
        """Whose forces are in a territory: the player with units there, else the one holding its settlement."""
        for u in self.units:
            if u.where == where:
                return u.player
        site = self.sites.get(where)
        return site.holder if site is not None else None

    def holders(self) -> dict[str, int]:
        """``holder`` of every territory that has one, at once."""
        out = {t: s.holder for t, s in self.sites.items() if s.settlement and s.holder is not None}
        out.update((u.where, u.player) for u in self.units)
        return out

    def site(self, where: str) -> Site:
        return self.sites.setdefault(where, Site())

    def held(self, seat: int) -> list[str]:
        """The territories a player occupies: units there, or a settlement of theirs (sorted by name)."""
        names = {u.where for u in self.units if u.player == seat}
        names |= {t for t, s in self.sites.items() if s.holder == seat and s.settlement}
        return sorted(names, key=_order)

    def settlements(self, seat: int) -> list[str]:
        return sorted((t for t, s in self.sites.items() if s.settlement and s.holder == seat), key=_order)

    def kingdom(self, seat: int) -> int:
        held = set(self.held(seat))
        return (sum(SETTLEMENTS[self.sites[t].settlement].kingdom for t in self.settlements(seat))
                + sum(TEMPLE_KINGDOM for t in held if self.sites.get(t) and self.sites[t].temple))

    def lasting_changed(self) -> None:
        self.lasting_cache.clear()

    def hero_unit(self, seat: int) -> Unit | None:
        return next((u for u in self.units if u.player == seat and u.kind == "hero"), None)

    def hand_limit(self, seat: int) -> int:
        return HAND_LIMIT + cards.bonus(self, seat, "hand")

    # ------------------------------------------------------------------ taking an answer
    def _take(self, d: Line, how: str) -> None:
        p = self.pending
        assert p is not None
        if self.trace is not None:
            self.trace.append(Answer(p.kind, p.seat, d, how, p.prompt, self.round))
        self.pending, self._legal = None, None
        step = self.todo.pop(0)
        _APPLY[p.kind](self, step, d)

    def _ask(self, point: Point) -> bool:
        """Wait at ``point``, unless it has one legal answer: the engine takes it."""
        self.pending = point
        if point.default is not None or point.kind in NEVER_ONE or (point.kind is Kind.MOVE
                                                                     and _more_than_done(self, point.player)):
            return True
        legal = self.legal_decisions()
        if len(legal) == 1:
            self.auto.append(legal[0])
            self._take(legal[0], "forced")
            return False
        return True

    def _chance(self, point: Point, pick) -> bool:
        """A chance point: seeded, the engine draws ``pick(rng)``; recorded, the log says."""
        if self.rng is None:
            return self._ask(point)
        self.pending = point
        self._take(pick(self.rng), "seed")
        return False

    def _run(self) -> None:
        while self.todo and not self.over:
            step = self.todo[0]
            if _STEPS[step[0]](self, step):
                return

    # ------------------------------------------------------------------ forces and the end
    def destroy(self, u: Unit, by: int | None) -> None:
        """Remove unit ``u``; ``by`` (the player destroying it) scores a conquest point, and a hero's
        items pass to ``by``'s hero (choice C13)."""
        self.units.remove(u)
        owner = self.player(u.player)
        if u.kind == "hero":
            self.lasting_changed()
            cards.drop_items(self, owner, by)
        else:
            owner.supply[u.kind] += 1
        for o in self.observers:
            o.on_destroyed(self, u, by)
        if by is not None and by != u.player:
            self.player(by).conquest += 1
            if self.player(by).conquest >= CONQUER_POINTS and not self.over:
                self._finish(End.CONQUER, by)
                return
        self.check_out(u.player)

    def check_out(self, seat: int) -> None:
        """A player with no units and no settlement left on the field is eliminated."""
        p = self.player(seat)
        if p.out or self.held(seat) or self.phase == "setup":
            return
        self.remove_player(seat)

    def remove_player(self, seat: int) -> None:
        p = self.player(seat)
        p.out = True
        self.gone.append(seat)
        hands.throw_away(self.decks, self.shown, p.hand)
        for o in self.observers:
            o.on_out(self, seat)
        left = self.active()
        if len(left) == 1 and not self.over:
            self._finish(End.LAST_STANDING, left[0])

    def leave(self, seat: int) -> None:
        """A player leaves the game: their units, settlements and structures come off the field, and the
        hero's items are discarded (choice C13)."""
        held = self.held(seat)
        self.lasting_changed()
        for u in [u for u in self.units if u.player == seat]:
            self.units.remove(u)
        cards.drop_items(self, self.player(seat), None)
        for t in held:
            site = self.sites.get(t)
            if site is not None:
                self.walls_left += site.walls
                self.temples_left += site.temple
                self.sites[t] = Site()
        for t, site in self.sites.items():
            if site.holder == seat:
                self.sites[t] = Site()
        self.remove_player(seat)

    def _finish(self, how: End, winner: int | None) -> None:
        self.over, self.end, self.winner, self.pending, self.phase = True, how, winner, None, "over"
        self.todo = []
        for o in self.observers:
            o.on_game_end(self)

    def call_time(self) -> None:
        if not self.over:
            self._finish(End.TIME, None)

    def ranks(self) -> list[int]:
        """Each seat's rank: the winner, then those still playing (sharing a place), then those out,
        the last one out first; a player who conceded last of all (choice C16). Time called or the
        round limit: those still playing share the first place."""
        def group(s: int) -> tuple:
            if s == self.winner:
                return (0, 0)
            if s == self.conceded_by:
                return (3, 0)
            if s in self.gone:
                return (2, -self.gone.index(s))
            return (1, 0)
        keys = [group(s) for s in range(1, self.n + 1)]
        return [1 + sum(k < mine for k in keys) for mine in keys]


def _order(name: str) -> tuple[int, str]:
    return int(name[:-1]), name[-1]


# ---------------------------------------------------------------------- the steps of set-up and turns
def _roll(g: State, step: tuple) -> bool:
    seat = step[1]
    point = Point(CHANCE, CHANCE, Kind.ROLL, f"P{seat}'s turn-order roll")
    return g._chance(point, lambda rng: Line(CHANCE, "rolls", (f"P{seat}", str(1 + rng.below(6)))))


def _roll_off(g: State, step: tuple) -> bool:
    g.todo.pop(0)
    group = step[1]
    top = max(g.player(s).roll for s in group)
    tied = tuple(s for s in group if g.player(s).roll == top)
    if len(tied) > 1:  # the highest rolls tie: those players roll again
        g.todo[:0] = [("roll", s) for s in tied] + [("roll off", tied)]
        return False
    first = tied[0]
    g.order = [(first - 1 + i) % g.n + 1 for i in range(g.n)]
    g.setup_steps()
    return False


def _hero(g: State, step: tuple) -> bool:
    return g._ask(Point(step[1], step[1], Kind.HERO, f"P{step[1]} choosing a hero"))


def _tile(g: State, step: tuple) -> bool:
    seat = step[1]
    point = Point(CHANCE, CHANCE, Kind.TILE, f"the land tile P{seat} draws")
    return g._chance(point, lambda rng: Line(CHANCE, "tile", (f"P{seat}", g.tiles_left[rng.below(len(g.tiles_left))])))


def _simple(kind: Kind, words: str):
    def step(g: State, s: tuple) -> bool:
        return g._ask(Point(s[1], s[1], kind, f"P{s[1]} {words}"))
    return step


def _draw(g: State, step: tuple) -> bool:
    seat = step[1]
    if not any(d.can_draw() for d in g.decks.values()) or g.player(seat).out:
        g.todo.pop(0)  # every deck and discard pile is empty: no card to draw (choice C11)
        return False
    return g._ask(Point(seat, seat, Kind.DRAW, f"P{seat} drawing a card"))


def _discard(g: State, step: tuple) -> bool:
    seat = step[1]
    if len(g.player(seat).hand) <= g.hand_limit(seat):
        g.todo.pop(0)
        return False
    return g._ask(Point(seat, seat, Kind.DISCARD, f"P{seat} discarding down to {g.hand_limit(seat)} cards"))


def _deploy(g: State, step: tuple) -> bool:
    _, seat, allowed, where, why = step
    if not cards.deploy_options(g, seat, allowed, where):
        g.todo.pop(0)
        return False
    return g._ask(Point(seat, seat, Kind.DEPLOY, f"P{seat} placing a unit ({why})"))


def _start_turn(g: State, step: tuple) -> bool:
    g.todo.pop(0)
    seat = step[1]
    if step[2]:  # the first turn of a round
        if g.round >= ROUND_LIMIT:
            g._finish(End.ROUND_LIMIT, None)
            return False
        g.round += 1
    g.current, g.turn, g.phase = seat, Turn(), "production"
    for u in g.units:
        u.moved = False
    for o in g.observers:
        o.on_turn(g, seat)
    if len(g.held(seat)) >= RULE_TERRITORIES:
        g._finish(End.RULE, seat)
        return False
    if g.kingdom(seat) >= REIGN_POINTS:
        g._finish(End.REIGN, seat)
        return False
    steps: list[tuple] = []
    mine = g.settlements(seat)
    if len(mine) <= REBEL_SETTLEMENTS and g.held(seat):  # the rebel forces bonus
        steps += [("deploy", seat, tuple(STANDARD), "home", "the rebel bonus"), ("draw", seat, "rebel")]
    for t in mine:
        kind = SETTLEMENTS[g.sites[t].settlement]
        steps += [("deploy", seat, tuple(STANDARD), (t,), f"made by the {kind.key} at {t}")] * kind.units
        steps += [("draw", seat, "production")] * kind.cards
    steps += [("deploy", seat, tuple(STANDARD), "settlement", "an upgrade")] * cards.bonus(g, seat, "produce", "units")
    steps += [("draw", seat, "an upgrade")] * cards.bonus(g, seat, "produce", "cards")
    g.todo[:0] = steps + [("play", seat), ("move", seat), ("end turn", seat)]
    return False


def _play(g: State, step: tuple) -> bool:
    seat = step[1]
    g.phase = "play"
    return g._ask(Point(seat, seat, Kind.PLAY, f"P{seat} playing a card"))


def _move(g: State, step: tuple) -> bool:
    seat = step[1]
    if g.player(seat).out:  # out in their own turn (a trap took their last unit): the turn ends (choice C30)
        g.todo.pop(0)
        return False
    g.phase = "attack" if g.turn.attacked else "move"
    return g._ask(Point(seat, seat, Kind.MOVE, f"P{seat} moving and attacking"))


def _end_turn(g: State, step: tuple) -> bool:
    g.todo.pop(0)
    seat = step[1]
    i = g.order.index(seat)
    following = [g.order[(i + k) % g.n] for k in range(1, g.n + 1)]
    nxt = next(s for s in following if not g.player(s).out)
    g.todo.append(("turn", nxt, g.order.index(nxt) <= i))
    return False


_STEPS = {
    "roll": _roll, "roll off": _roll_off, "hero": _hero, "tile": _tile,
    "lay": _simple(Kind.LAY, "laying a land tile"), "draw": _draw, "discard": _discard,
    "outpost": _simple(Kind.OUTPOST, "placing an outpost"), "arm": _simple(Kind.ARM, "arming an outpost"),
    "turn": _start_turn, "deploy": _deploy, "play": _play, "move": _move, "end turn": _end_turn,
    **cards.STEPS, **fight.STEPS,
}


# ---------------------------------------------------------------------- legal answers
def _legal_at(g: State, p: Point) -> list[Line]:
    step = g.todo[0]
    seat = p.player
    k = p.kind
    if k is Kind.ROLL:
        return [Line(CHANCE, "rolls", (f"P{step[1]}", str(f))) for f in range(1, 7)]
    if k is Kind.TILE:
        return [Line(CHANCE, "tile", (f"P{step[1]}", t)) for t in g.tiles_left]
    if k is Kind.HERO:
        taken = {q.hero for q in g.players}
        return [Line(seat, "hero", (h,)) for h in g.cat.heroes if h not in taken]
    if k is Kind.LAY:
        return _lays(g, seat)
    if k is Kind.DRAW:
        return [Line(seat, "draws", (d,)) for d in DECKS if g.decks[d].can_draw()]
    if k is Kind.DISCARD:
        return [Line(seat, "discards", (c,)) for c in hands.possible(g.cat, g.shown, g.player(seat).hand, None)]
    if k is Kind.OUTPOST:
        return [Line(seat, "outpost", (t,)) for t in sorted(g.land.territories, key=_order)
                if g.land.territories[t].terrain != "water" and g.holder(t) is None
                and not g.site(t).settlement]
    if k is Kind.ARM:
        return _arms(g, seat, step[2])
    if k is Kind.DEPLOY:
        return [Line(seat, "deploys", (u, t)) for u, t in cards.deploy_options(g, seat, step[2], step[3])]
    if k is Kind.PLAY:
        return cards.plays(g, seat)
    if k is Kind.MOVE:
        return _moves(g, seat) + fight.attacks(g, seat) + [Line(seat, "done")] + (
            [Line(seat, "leaves")] if len(g.active()) > 2 else [])
    return cards.LEGAL.get(k, fight.LEGAL.get(k))(g, seat, step)  # type: ignore[misc]


def touches_enough(g: State, tri: tuple) -> bool:
    """The contact rule (C2): the first tile anywhere (on 0,0), the second touching the first, each
    later one touching two tiles laid."""
    laid = len(g.land.tiles)
    return laid == 0 or len(g.land.tiles_touched(tri)) >= min(laid, 2)


def _lays_well(g: State, d: Line) -> bool:
    """Whether a written tile lay is legal (checked as written: listing every lay costs more)."""
    hexes = tuple(read_hex(w) for w in d.args[2:])
    if d.args[0] not in g.player(d.actor).tiles or len(set(hexes)) != 3 or any(h in g.land.at for h in hexes):
        return False
    a, b, c = hexes  # type: ignore[misc]
    if not is_triangle(a, b, c) or not clockwise(a, b, c):  # type: ignore[arg-type]
        return False
    first = not g.land.tiles
    near = first or any(n in g.land.at for h in hexes for n in neighbours(h))  # type: ignore[arg-type]
    return near and (not first or (0, 0) in hexes) and touches_enough(g, hexes)


def _lays(g: State, seat: int) -> list[Line]:
    out = []
    spots = [tri for tri in g.land.placements() if touches_enough(g, tri)]
    for tile in g.player(seat).tiles:
        out += [Line(seat, "lays", (tile, "at", *(f"{h[0]},{h[1]}" for h in tri))) for tri in spots]
    return out


def _arms(g: State, seat: int, k: int) -> list[Line]:
    p = g.player(seat)
    hero_placed = g.hero_unit(seat) is not None
    out = []
    for t in g.settlements(seat):
        if not hero_placed and k == ARMING_OBJECTS - 1:
            out.append(Line(seat, "arms", (t, "hero")))  # the hero must be among the four (choice C8)
            continue
        out += [Line(seat, "arms", (t, u)) for u in STANDARD if p.supply[u] > 0]
        out += [Line(seat, "arms", (t, "hero"))] if not hero_placed else []
        out += [Line(seat, "arms", (t, "walls"))] if not g.site(t).walls and g.walls_left > 0 else []
    return out


def _moves(g: State, seat: int) -> list[Line]:
    t = g.turn
    if t.attacked:
        return []
    out = []
    seen = set()
    for u in g.units:
        if u.player != seat or u.moved or (u.kind, u.where) in seen:
            continue
        if u.kind == "hero" and t.hero_moved or u.kind != "hero" and t.moves <= 0:
            continue
        seen.add((u.kind, u.where))
        for dest in sorted(cards.reach(g, u), key=_order):
            out.append(Line(seat, "moves", (u.kind, u.where, dest)))
    return out


def _more_than_done(g: State, seat: int) -> bool:
    """Whether the move step offers more than ending it (worked out without listing every answer):
    leaving, a move (a unit that may still move has a territory next to it it may enter), an attack."""
    if len(g.active()) > 2:
        return True
    t = g.turn
    if not t.attacked:
        holders = g.holders()
        terr = g.land.territories
        for u in g.units:
            if u.player != seat or u.moved or (t.hero_moved if u.kind == "hero" else t.moves <= 0):
                continue
            if cards.stat(g, seat, u.kind, "move") + t.speed > 0 and any(
                    terr[n].terrain != "water" and holders.get(n, seat) == seat for n in g.land.adjacent(u.where)):
                return True
    return fight.can_attack(g, seat)


# ---------------------------------------------------------------------- applying answers
def _apply_roll(g: State, step: tuple, d: Line) -> None:
    g.player(int(d.args[0][1])).roll = int(d.args[1])


def _apply_tile(g: State, step: tuple, d: Line) -> None:
    g.tiles_left.remove(d.args[1])
    g.player(int(d.args[0][1])).tiles.append(d.args[1])


def _apply_hero(g: State, step: tuple, d: Line) -> None:
    g.player(d.actor).hero = d.args[0]


def _apply_lay(g: State, step: tuple, d: Line) -> None:
    tile = d.args[0]
    g.player(d.actor).tiles.remove(tile)
    g.land.lay(tile, g.cat.tiles[tile].terrains, tuple(read_hex(w) for w in d.args[2:]))  # type: ignore[arg-type]


def _apply_draw(g: State, step: tuple, d: Line) -> None:
    card = hands.draw(g.decks, g.shown, d.args[0], g.rng)
    g.player(d.actor).hand.append(card)
    if step[2] != "setup":
        g.todo.insert(0, ("discard", d.actor))


def _apply_discard(g: State, step: tuple, d: Line) -> None:
    cards.discard(g, d.actor, d.args[0])
    g.todo.insert(0, ("discard", d.actor))


def _apply_outpost(g: State, step: tuple, d: Line) -> None:
    site = g.site(d.args[0])
    site.settlement, site.holder = "outpost", d.actor
    g.player(d.actor).supply["outpost"] -= 1


def _apply_arm(g: State, step: tuple, d: Line) -> None:
    t, what = d.args
    if what == "walls":
        g.site(t).walls = True
        g.walls_left -= 1
    else:
        cards.place(g, d.actor, what, t)


def _apply_deploy(g: State, step: tuple, d: Line) -> None:
    cards.place(g, d.actor, d.args[0], d.args[1])


def _apply_move(g: State, step: tuple, d: Line) -> None:
    seat = d.actor
    if d.verb == "done":
        return
    if d.verb == "leaves":
        g.leave(seat)  # the turn's "end turn" step follows
        return
    g.todo.insert(0, ("move", seat))
    if d.verb == "moves":
        kind, src, dest = d.args
        u = next(u for u in g.units_at(src, seat) if u.kind == kind and not u.moved)
        u.where, u.moved = dest, True
        if kind == "hero":
            g.turn.hero_moved = True
        else:
            g.turn.moves -= 1
        site = g.sites.get(dest)
        if site is not None and site.settlement and site.holder is None:
            site.holder = seat  # a vacant settlement is taken by moving in
        return
    fight.declare(g, d)


_APPLY = {
    Kind.ROLL: _apply_roll, Kind.TILE: _apply_tile, Kind.HERO: _apply_hero, Kind.LAY: _apply_lay,
    Kind.DRAW: _apply_draw, Kind.DISCARD: _apply_discard, Kind.OUTPOST: _apply_outpost, Kind.ARM: _apply_arm,
    Kind.DEPLOY: _apply_deploy, Kind.MOVE: _apply_move, **cards.APPLY, **fight.APPLY,
}
