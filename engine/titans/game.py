"""A game of Titans of Empyrean: the state machine of its decision points.

The game is a list of steps (``todo``) run in order until one needs a decision (``pending``). A
round is every living titan's action phase, highest initiative first (ties: docs/titans-rules.md,
C1), then every resolution phase in the same order, then the end checks. A titan's action phase is
a run of ``ACT`` points, one line each, until it says ``done`` (after its mandatory move). Forced
burns, damage resolution and flipped hazards are points of their own; effects of cards, abilities
and hazards run as steps, so a hazard met by a card's move is flipped before the card's next effect.

Cards: each place (a titan's stack, top first; the reserve, top first; the burned pile, bottom
first) holds card keys, or None for a face-down card the log has not named. In a seeded game every
card is known from the seed; in a recorded one a card named from a face-down place must still fit
the player's deck (``deck.DeckRule``). Beside each place, who knows each of its cards (``known``),
so that a frame shows a seat only the cards it has seen.
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
from . import abilities, hazards
from .board import FACINGS, Hex, arc, step, turned
from .catalog import DECK_CARDS, Catalog, Titan
from .deck import DeckRule, deck_rule, seeded_deck
from .known import Known, put, take, take_top
from .lines import UNSEEN, Kind, Line, format_line, is_face_down_burn
from .refusals import refusal

ROUND_LIMIT = 30  # house limit (choice C11)
LAST_TITAN_ROUNDS = 6  # rule 9.3


class End(StrEnum):
    """How a game of Titans ends, and what a verdict says of it."""

    ELIMINATED = "eliminated"  # 9.1
    FLED = "fled"  # 9.2
    LAST_TITAN = "last titan"  # 9.3
    ROUND_LIMIT = "round limit"  # C11
    CONCESSION = "concession"  # 9.4
    TIME = "time"  # C17

    @property
    def words(self) -> str:
        return _END_WORDS[self]


_END_WORDS = {End.ELIMINATED: "every opposing titan eliminated", End.FLED: "the other side fled the field",
              End.LAST_TITAN: "six rounds of last titans, decided by unturned maneuvers",
              End.ROUND_LIMIT: "the round limit, decided by unturned maneuvers", End.CONCESSION: "a concession",
              End.TIME: "time called, decided by unturned maneuvers"}


@dataclass
class Point:
    player: int
    seat: int
    kind: Kind
    prompt: str
    titan: int | None = None  # index into State.titans
    default: Line | None = None


@dataclass
class TitanState:
    card: Titan
    player: int
    hex: Hex | None = None
    facing: str | None = None
    damage: int = 0
    stack: list = field(default_factory=list)  # top first
    stack_known: list = field(default_factory=list)  # who knows each card of the stack (known.py)
    active: str | None = None
    alive: bool = True
    must_return: bool = False  # a Portal took it off: it comes back in its next action phase
    done: set = field(default_factory=set)  # the actions taken in this action phase
    last: str | None = None  # the last action of this action phase

    @property
    def key(self) -> str:
        return self.card.key

    @property
    def on_field(self) -> bool:
        return self.alive and self.hex is not None

    def label(self) -> str:
        return f"P{self.player} {self.card.name}"


@dataclass
class Side:
    species: str
    rule: DeckRule
    reserve: list = field(default_factory=list)  # top first
    burned: list = field(default_factory=list)  # bottom (first burned) first
    reserve_known: list = field(default_factory=list)  # who knows each card of the reserve (known.py)
    burned_known: list = field(default_factory=list)  # and of the burned pile
    named: Counter = field(default_factory=Counter)  # cards named from face-down places


@dataclass
class State:
    """A game of Titans (the interface of engine.games.GameState)."""

    cat: Catalog
    sides: list[Side]
    titans: list[TitanState]
    hazards: dict[Hex, str | None]  # face-down tokens by hex (seeded: the token)
    rng: SplitMix64 | None = None
    trace: list | None = None
    observers: list = field(default_factory=list)
    view: int | None = None  # the seat the log is written from (None: the whole table)
    n: int = 2
    round: int = 0
    phase: str = "setup"
    order: list[int] = field(default_factory=list)
    pending: Point | None = None
    auto: list[Line] = field(default_factory=list)
    over: bool = False
    end: End | None = None
    winner: int | None = None
    conceded_by: int | None = None
    last_titan_rounds: int = 0
    flipped: Counter = field(default_factory=Counter)
    unnamed: list[int] = field(default_factory=lambda: [0, 0])  # cards burned unseen, per player
    todo: list[tuple] = field(default_factory=list)
    _legal: tuple | None = None  # (the point, its legal answers)

    @property
    def catalog(self) -> Catalog:
        return self.cat

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, cat: Catalog, squads: list[tuple[str, str | None, tuple[str, ...], tuple[str, ...] | None]],
            hazard_hexes: tuple[Hex, ...], seed: int | None, *, trace: bool = False,
            observers: Any = None, view: int | None = None) -> State:
        rng = SplitMix64(seed) if seed is not None else None
        sides, titans = [], []
        for p, (species, ally, keys, chosen) in enumerate(squads, 1):
            rule = deck_rule(cat, species, ally, chosen)
            side = Side(species, rule)
            cards = seeded_deck(cat, rule, rng) if rng is not None else None
            for key in keys:
                t = TitanState(cat.titans[key], p)
                size = t.card.stack
                t.stack = cards[:size] if cards is not None else [None] * size
                cards = cards[size:] if cards is not None else None
                titans.append(t)
            dealt = sum(cat.titans[k].stack for k in keys)
            side.reserve = list(cards) if cards is not None else [None] * (DECK_CARDS - dealt)
            sides.append(side)
        g = cls(cat, sides, titans, {h: None for h in hazard_hexes}, rng, [] if trace else None, list(observers or ()),
                view)
        g.todo = [("round",)]
        g._run()
        return g

    # ------------------------------------------------------------------ the interface
    def legal_decisions(self) -> list[Line]:
        p = self.pending
        if p is None:
            return []
        if self._legal is None or self._legal[0] is not p:  # worked out once per point
            self._legal = (p, self._legal_at(p))
        return list(self._legal[1])

    def _legal_at(self, p: Point) -> list[Line]:
        if p.kind is Kind.HAZARD:
            return [Line(CHANCE, "hazard", p.prompt.split()[-1], (k,)) for k in self._hazards_left()]
        t = self.titans[p.titan]  # type: ignore[index]
        if p.kind is Kind.BURN:
            return [self._line(t, "burn", c) for c in self._cards_at(t.player, t.stack, unseen=True)]
        if p.kind is Kind.RESOLVE:
            out = [self._line(t, "resolve", "stack", c) for c in self._cards_at(t.player, t.stack, unseen=True)]
            out += [self._line(t, "resolve", "active")] if t.active else []
            out += [self._line(t, "resolve", "reserve")] if len(self.sides[t.player - 1].reserve) >= 2 else []
            return out + ([self._line(t, "die")] if not t.stack and not t.active else [])
        return self._actions(t)

    def check(self, d: Line) -> str | None:
        p = self.pending
        if p is None:
            return "the game is over"
        if d.verb not in p.kind.verbs or d.actor != p.player:
            return f"it is {p.prompt}, not '{format_line(d)}'"
        if p.kind is not Kind.HAZARD:
            t = self.titans[p.titan]  # type: ignore[index]
            if d.titan != t.key:
                return f"it is {p.prompt}: P{t.player} {t.key} decides now, not {d.titan}"
        if d in self.legal_decisions():
            return None
        return refusal(self, d, p)

    def answer(self, d: Line) -> None:
        self._take(d, "line")
        self._run()

    def take_default(self) -> Line:  # no point of Titans has a default
        raise RuntimeError("no decision of Titans may be left out")

    def concede(self, seat: int) -> None:
        self.conceded_by = seat
        self._finish(End.CONCESSION, 3 - seat)

    def unseen(self) -> list[int]:
        return list(self.unnamed)

    def clone(self) -> State:
        """A copy to try answers on (bots): nothing it does reaches this game or its observers."""
        g = copy.copy(self)
        g.titans = [replace(t, stack=list(t.stack), stack_known=list(t.stack_known), done=set(t.done))
                    for t in self.titans]
        g.sides = [replace(s, reserve=list(s.reserve), burned=list(s.burned), reserve_known=list(s.reserve_known),
                           burned_known=list(s.burned_known), named=Counter(s.named)) for s in self.sides]
        g.hazards, g.order, g.auto, g.todo = dict(self.hazards), list(self.order), list(self.auto), list(self.todo)
        g.flipped, g.unnamed, g.observers = Counter(self.flipped), list(self.unnamed), []
        g.rng = self.rng.copy() if self.rng is not None else None
        g.trace = list(self.trace) if self.trace is not None else None
        return g

    # ------------------------------------------------------------------ what a titan may do
    def _line(self, t: TitanState, verb: str, *args: str | None) -> Line:
        return Line(t.player, verb, t.key, tuple(UNSEEN if a is None else a for a in args))

    def _cards_at(self, player: int, place: list, *, unseen: bool) -> list[str | None]:
        """The cards the top of ``place`` may be: the known one, or any card still possible (and None: "?")."""
        if not place:
            return []
        if place[0] is not None:
            return [place[0]] + ([None] if unseen and self.rng is None else [])
        side = self.sides[player - 1]
        out: list[str | None] = list(side.rule.possible(side.named))
        return out + ([None] if unseen else [])

    def _actions(self, t: TitanState) -> list[Line]:
        out: list[Line] = []
        side = self.sides[t.player - 1]
        done = t.done
        if "move" not in done:
            if t.hex is None:
                facings = self.cat.board.entry_facings[t.player - 1] if self.round == 1 else None
                out += [self._line(t, "enter", self.cat.board.name(h), f)
                        for h, f in self.cat.board.entries(facings or FACINGS)]
                if self.round > 1 and not t.must_return:
                    out.append(self._line(t, "stay"))
            else:
                out.append(self._line(t, "move"))
        if t.last in ("move", "enter") and t.on_field and "burn-turn" not in done:
            out += [self._line(t, "burn-turn", "stack", c) for c in self._cards_at(t.player, t.stack, unseen=True)]
            out += [self._line(t, "burn-turn", "reserve")] if side.reserve else []
        if t.on_field and "turn" not in done:
            out += [self._line(t, "turn", "left"), self._line(t, "turn", "right")]
        if t.on_field and "attack" not in done:
            out += [Line(t.player, "attack", t.key, (f"P{o.player}", o.key)) for o in self._targets(t)]
        if "play" not in done:
            out += [self._line(t, "play", "stack", c) for c in self._cards_at(t.player, t.stack, unseen=False)]
            out += [self._line(t, "play", "reserve", c)
                    for c in self._cards_at(t.player, side.reserve, unseen=False)]
        if "replenish" not in done and len(t.stack) < t.card.stack:
            out += [self._line(t, "replenish", "in")] if side.reserve else []
            out += [self._line(t, "replenish", "out")] if t.stack else []
        if "move" in done:
            out.append(self._line(t, "done"))
        return out

    def _targets(self, t: TitanState) -> list[TitanState]:
        hexes = {t.hex} | {step(t.hex, f) for f in arc(t.facing)}  # type: ignore[arg-type]
        return [o for o in self.titans if o is not t and o.on_field and o.hex in hexes]

    # ------------------------------------------------------------------ taking an answer
    def _take(self, d: Line, how: str) -> None:
        p = self.pending
        assert p is not None
        if self.trace is not None:
            self.trace.append(Answer(p.kind, p.seat, d, how, p.prompt, self.round))
        self.pending, self._legal = None, None
        self.todo.pop(0)
        if d.verb == "hazard":
            self._flip(self.cat.board.hex_named(d.titan), d.args[0], p)  # type: ignore[arg-type]
            return
        t = self.titans[p.titan]  # type: ignore[index]
        if p.kind is Kind.ACT:
            self._act(t, d)
        elif p.kind is Kind.BURN:
            self._burn_top(t, d.card)
        else:
            self._resolve(t, d)

    def _reveal(self, player: int, place: list, known: list, card: str | None) -> tuple[str | None, Known]:
        """Take the top card of ``place`` (``known``: who knows its cards); a card named from a
        face-down place is counted."""
        top, who = take_top(place, known)
        if top is None and card is not None:
            self.sides[player - 1].named[card] += 1
            return card, who
        return top, who

    def _to_burned(self, player: int, card: str | None, who: Known = Known.EVERYONE) -> None:
        """``card`` on its player's burned pile: face up (``who``: everyone knows it) or face down."""
        side = self.sides[player - 1]
        put(side.burned, side.burned_known, card, who)
        if card is None:
            self.unnamed[player - 1] += 1

    def _burn_top(self, t: TitanState, card: str | None) -> None:
        self._to_burned(t.player, *self._reveal(t.player, t.stack, t.stack_known, card))

    def _burn_reserve_top(self, player: int) -> None:
        side = self.sides[player - 1]
        self._to_burned(player, *take_top(side.reserve, side.reserve_known))

    def replenish_in(self, t: TitanState) -> None:
        """The reserve's top card under ``t``'s stack."""
        side = self.sides[t.player - 1]
        put(t.stack, t.stack_known, *take_top(side.reserve, side.reserve_known))

    def regenerate(self, t: TitanState) -> None:
        """The bottom card of the burned pile under ``t``'s stack, known as it was (8.2)."""
        side = self.sides[t.player - 1]
        put(t.stack, t.stack_known, *take(side.burned, side.burned_known))

    def _act(self, t: TitanState, d: Line) -> None:
        verb, side = d.verb, self.sides[t.player - 1]
        t.last = verb
        if verb == "done":
            return
        self.todo.insert(0, ("act", self.titans.index(t)))
        t.done.add("move" if verb in ("enter", "stay") else verb)
        if verb == "enter":
            t.must_return = False
            t.facing = d.args[1]
            self._arrive(t, self.cat.board.hex_named(d.args[0]))  # type: ignore[arg-type]
        elif verb == "stay":
            self.todo.insert(0, ("burn", self.titans.index(t), "stays off the field"))
        elif verb == "move":  # "after its move" (the ability's, the active maneuver's) runs after the hex's hazard
            abilities.push(self, t, [e for e in abilities.effects_of(self, t) if e.when == "move"], None)
            self._advance(t)
        elif verb == "turn":
            t.facing = turned(t.facing, d.args[0])  # type: ignore[arg-type]
        elif verb == "burn-turn":
            if d.args[0] == "stack":
                self._burn_top(t, d.card)
            else:
                self._burn_reserve_top(t.player)
            t.facing = turned(t.facing, "around")  # type: ignore[arg-type]
        elif verb == "attack":
            self._attack(t, next(o for o in self.titans if f"P{o.player}" == d.args[0] and o.key == d.args[1]))
        elif verb == "play":
            place = (t.stack, t.stack_known) if d.args[0] == "stack" else (side.reserve, side.reserve_known)
            self._play(t, self._reveal(t.player, *place, d.args[1])[0])
        elif verb == "replenish":
            if d.args[0] == "in":
                self.replenish_in(t)
            else:
                put(side.reserve, side.reserve_known, *take_top(t.stack, t.stack_known))

    def _resolve(self, t: TitanState, d: Line) -> None:
        if d.verb == "die":
            self._kill(t)
            return
        where = d.args[0]
        if where == "stack":
            self._burn_top(t, d.card)
            t.damage -= 1
        elif where == "active":
            self._to_burned(t.player, t.active)
            t.active = None
            t.damage = max(0, t.damage - 2)
        else:
            for _ in range(2):
                self._burn_reserve_top(t.player)
            t.damage -= 1
        self.todo.insert(0, ("resolve", self.titans.index(t)))

    # ------------------------------------------------------------------ movement, attacks, cards
    def _advance(self, t: TitanState) -> None:
        if t.hex is None:
            return
        ahead = step(t.hex, t.facing)  # type: ignore[arg-type]
        if not self.cat.board.on(ahead):
            t.hex = None
            self.todo.insert(0, ("burn", self.titans.index(t), "left the field"))
            return
        self._arrive(t, ahead)

    def _arrive(self, t: TitanState, h: Hex) -> None:
        there = [o for o in self.titans if o.on_field and o.hex == h and o is not t]
        t.hex = h
        if there:
            for o in [t, *there]:
                shielded = abilities.modifier(self, o, "ignore-collisions")  # with its active card in force (C24)
                if o.active is not None:
                    self._to_burned(o.player, o.active)
                    o.active = None
                if not shielded:
                    self.hurt(o, 1, None)
        if h in self.hazards:
            self.todo.insert(0, ("hazard", self.titans.index(t), h))

    def _attack(self, t: TitanState, target: TitanState) -> None:
        same = target.hex == t.hex
        self.hurt(target, self.strength(t) + (1 if same else 0), t)
        ctx = {"target": self.titans.index(target), "same": same,
               "behind": t.hex in {step(target.hex, f) for f in arc(target.facing, front=False)}}  # type: ignore[arg-type]
        abilities.push(self, t, [e for e in abilities.effects_of(self, t) if e.when == "attack"], ctx)
        struck = [e for e in abilities.effects_of(self, target) if e.when == "attacked"]
        abilities.push(self, target, struck, {"attacker": self.titans.index(t)})

    def _play(self, t: TitanState, card: str | None) -> None:
        m = self.cat.maneuvers[card]  # type: ignore[index]
        for o in self.observers:  # played, even when it is burned without effect
            o.on_play(self, t, card)
        if m.species not in (None, t.card.species):
            self._to_burned(t.player, card)  # another species' maneuver: burned without effect (6.4)
            return
        if m.active:
            if t.active is not None:
                self._to_burned(t.player, t.active)
            t.active = card
        else:
            self._to_burned(t.player, card)
        abilities.push(self, t, [e for e in m.effects if e.when == "play"], None)

    def hurt(self, t: TitanState, amount: int, source: TitanState | None) -> None:
        """Put ``amount`` damage on ``t``, dealt by ``source`` (None: a collision or a hazard)."""
        t.damage += amount
        for o in self.observers:
            o.on_damage(self, t, amount, source)

    def strength(self, t: TitanState) -> int:
        return abilities.strength(self, t)

    def endurance(self, t: TitanState) -> int:
        return abilities.endurance(self, t)

    # ------------------------------------------------------------------ hazards
    def _hazards_left(self) -> list[str]:
        return [k for k, n in sorted(self.cat.hazard_pile.items()) if n > self.flipped[k]]

    def _flip(self, h: Hex, kind: str, p: Point) -> None:
        del self.hazards[h]
        self.flipped[kind] += 1
        t = self.titans[p.titan]  # type: ignore[index]
        hazards.resolve(self, t, kind)

    # ------------------------------------------------------------------ deaths and the end
    def _kill(self, t: TitanState) -> None:
        t.alive = False
        t.hex = None
        if t.active is not None:
            self._to_burned(t.player, t.active)
            t.active = None
        for o in self.observers:
            o.on_death(self, t)
        for p in (1, 2):
            if not any(o.alive for o in self.titans if o.player == 3 - p):
                others = any(o.alive for o in self.titans if o.player == p)
                self._finish(End.ELIMINATED, p if others else None)
                return

    def _finish(self, how: End, winner: int | None) -> None:
        self.over, self.end, self.winner, self.pending, self.phase = True, how, winner, None, "over"
        self.todo = []
        for o in self.observers:
            o.on_game_end(self)

    def unturned(self, player: int) -> int:
        return len(self.sides[player - 1].reserve) + sum(len(t.stack) for t in self.titans
                                                        if t.player == player and t.alive)

    def decide_by_cards(self, how: End) -> None:
        """Rule 9.3: more unturned maneuvers, then the higher-initiative titan, then less damage (C12)."""
        def key(p: int) -> tuple:
            best = max((t for t in self.titans if t.player == p and t.alive),
                       key=lambda t: (t.card.initiative, -t.damage), default=None)
            return (self.unturned(p), best.card.initiative if best else -1, -best.damage if best else 0)

        a, b = key(1), key(2)
        self._finish(how, None if a == b else (1 if a > b else 2))

    def _round_end(self) -> None:
        on = [any(t.on_field for t in self.titans if t.player == p) for p in (1, 2)]
        if not all(on):
            self._finish(End.FLED, None if not any(on) else (1 if on[0] else 2))
            return
        alive = [sum(t.alive for t in self.titans if t.player == p) for p in (1, 2)]
        self.last_titan_rounds = self.last_titan_rounds + 1 if alive == [1, 1] else 0
        if self.last_titan_rounds >= LAST_TITAN_ROUNDS:
            self.decide_by_cards(End.LAST_TITAN)
        elif self.round >= ROUND_LIMIT:
            self.decide_by_cards(End.ROUND_LIMIT)
        else:
            self.todo.append(("round",))

    def initiative_order(self) -> list[int]:
        """Highest initiative first; ties: P1 first in odd rounds, P2 in even ones; then setup order (C1)."""
        lead = 1 if self.round % 2 else 2
        return sorted((i for i, t in enumerate(self.titans) if t.alive),
                      key=lambda i: (-self.titans[i].card.initiative, self.titans[i].player != lead, i))

    # ------------------------------------------------------------------ the steps
    def _ask(self, point: Point) -> bool:
        """Wait at ``point``, unless it has one legal answer (a '?' form aside): the engine takes it."""
        self.pending = point
        named = [d for d in self.legal_decisions() if not (is_face_down_burn(d) and d.card is None)]
        if len(named) == 1:
            self.auto.append(named[0])
            self._take(named[0], "forced")
            return False
        return True

    def _run(self) -> None:
        while self.todo and not self.over:
            s = self.todo[0]
            what = s[0]
            if what == "round":
                self.todo.pop(0)
                self.round += 1
                self.phase = "action"
                self.order = self.initiative_order()
                for o in self.observers:
                    o.on_round(self)
                self.todo += [("action", i) for i in self.order] + [("resolution",)]
                self.todo += [("resolve", i) for i in self.order] + [("round end",)]
                continue
            if what == "action":
                self.todo.pop(0)
                t = self.titans[s[1]]
                if t.alive:
                    t.done, t.last = set(), None
                    self.todo.insert(0, ("act", s[1]))
                continue
            if what == "resolution":
                self.todo.pop(0)
                self.phase = "resolution"
                continue
            if what == "round end":
                self.todo.pop(0)
                self._round_end()
                continue
            if what in ("effect", "step"):
                self.todo.pop(0)
                if what == "effect":
                    abilities.run(self, self.titans[s[1]], s[2], s[3])
                elif self.titans[s[1]].alive:
                    self._advance(self.titans[s[1]])
                continue
            t = self.titans[s[1]]
            if not t.alive:
                self.todo.pop(0)
                continue
            if what == "act":
                if self._ask(Point(t.player, t.player, Kind.ACT, f"{t.label()}'s action", s[1])):
                    return
            elif what == "burn":
                if not t.stack:
                    self.todo.pop(0)
                    self._kill(t)  # it must burn and cannot (1.3)
                    continue
                if self._ask(Point(t.player, t.player, Kind.BURN, f"the card {t.label()} burns ({s[2]})", s[1])):
                    return
            elif what == "resolve":
                if t.damage <= self.endurance(t):
                    self.todo.pop(0)
                    continue
                if not t.stack and not t.active and len(self.sides[t.player - 1].reserve) < 2:
                    self.todo.pop(0)
                    self._kill(t)
                    continue
                if self._ask(Point(t.player, t.player, Kind.RESOLVE,
                                   f"{t.label()} resolving {t.damage - self.endurance(t)} excess damage", s[1])):
                    return
            elif what == "hazard":
                h = s[2]
                point = Point(CHANCE, CHANCE, Kind.HAZARD, f"the hazard token flipped at {self.cat.board.name(h)}",
                              s[1])
                if self.rng is not None:
                    self.pending = point
                    left = self._hazards_left()
                    weights = [self.cat.hazard_pile[k] - self.flipped[k] for k in left]
                    pick = self.rng.below(sum(weights))
                    k = next(k for k, w in zip(left, _running(weights)) if pick < w)
                    self._take(Line(CHANCE, "hazard", self.cat.board.name(h), (k,)), "seed")
                    continue
                if self._ask(point):
                    return


def _running(ws: list[int]) -> list[int]:
    out, total = [], 0
    for w in ws:
        total += w
        out.append(total)
    return out
