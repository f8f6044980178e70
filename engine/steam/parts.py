"""The plain data a game of Spells & Steam is made of: the decision point waiting for an answer, a
company (one seat's folio), and what the company whose turn it is has done this turn. The state
machine that changes them is ``game.py``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .lines import Kind, Line
from .pieces import START_MANA, TRAINS_EACH


class Bag(dict):
    """What lies on one hex: goods by colour, a missing colour counted 0 (a plain dict underneath, so
    that copying a map's worth of them for a bot's trial is cheap)."""

    __slots__ = ()

    def __missing__(self, key: str) -> int:
        return 0

    def take(self, colour: str, k: int = 1) -> None:
        """Take ``k`` goods of ``colour`` off (a colour gone to none leaves the bag)."""
        left = self[colour] - k
        if left > 0:
            self[colour] = left
        else:
            self.pop(colour, None)

    def any(self) -> bool:
        return bool(self)  # a colour taken to none leaves (take)

    def live(self) -> dict[str, int]:
        return dict(self)


@dataclass
class Point:
    player: int
    seat: int
    kind: Kind
    prompt: str
    default: Line | None = None


@dataclass
class Folio:
    """One company: its folio, supply and what it has collected."""

    seat: int
    company: str | None = None
    captain: str | None = None
    home: str | None = None
    columns: int = 0
    mana: int = START_MANA  # available on the folio
    spent: int = 0  # spent, reclaimable; mana + spent never exceeds the limit
    conductor: int = 0  # 0: Start; 1 … columns: a column of the railyard; columns + 1: the End of the Line
    printed: dict = field(default_factory=dict)  # (column, row) -> spellcar printed on the folio
    yard: dict = field(default_factory=dict)  # (column, row) -> spellcar placed there
    specialists: dict = field(default_factory=dict)  # captain, engineer, surveyor, station -> key
    extra: list = field(default_factory=list)  # station masters beside the slot (Aella's draw)
    exhausted: set = field(default_factory=set)  # specialist keys flipped face down
    trains: int = TRAINS_EACH  # cars in the supply
    placed: int = 0  # cars placed on the map over the game (the second tie-breaker)
    network: set = field(default_factory=set)  # the hexes holding one of its cars (State's car moves keep it)
    demand: list = field(default_factory=list)  # demand tiles taken: (colour, size)
    goods: Counter = field(default_factory=Counter)  # goods on the folio (delivered or added), by colour
    open_hire: str | None = None  # a specialist kind whose stack this company holds, its pick not yet made
    out: bool = False  # left the game (conceded with others still playing)
    turns: int = 0

    def slot(self, col: int, row: int) -> str | None:
        return self.yard.get((col, row)) or self.printed.get((col, row))

    def column(self, col: int) -> list[tuple[tuple[int, int], str]]:
        return [((col, r), k) for r in (1, 2, 3) if (k := self.slot(col, r)) is not None]

    def owns(self, key: str) -> bool:
        return key in self.specialists.values() or key in self.extra

    def stations(self) -> list[str]:
        return ([self.specialists["station"]] if "station" in self.specialists else []) + list(self.extra)

    def copy(self) -> Folio:
        f = Folio(**{k: v for k, v in vars(self).items()})
        f.printed, f.yard, f.specialists = dict(self.printed), dict(self.yard), dict(self.specialists)
        f.extra, f.exhausted, f.demand, f.goods = list(self.extra), set(self.exhausted), list(self.demand), \
            Counter(self.goods)
        f.network = set(self.network)
        return f


@dataclass
class Turn:
    """What the company whose turn it is has done and been given this turn."""

    seat: int = 0
    main: str | None = None  # administrate or move, once taken
    activations: int = 0  # spellcars activated so far
    activated: set = field(default_factory=set)  # slots activated
    locked: int = 0  # mana gained by activations: it may not pay for more activations this turn
    move_ladders: list = field(default_factory=list)  # cheaper move ladders this turn (Rayleigh)
    free_activations: bool = False  # activations beyond the first cost nothing (Seth, Eloi)
    no_inherent: bool = False  # inherent costs not paid (Seth, Sarafina)
    free_transfers: list = field(default_factory=list)  # one-use free transfers this turn: kinds (Wendy)
    free_through: set = field(default_factory=set)  # hexes transferred over for free this turn (Aerlion)
    unexhausted: set = field(default_factory=set)  # specialists whose next use this turn leaves them face up (Ran)
    used_stations: set = field(default_factory=set)  # station masters used this turn
    twice: tuple | None = None  # Viona: the slot activated twice
    extra_turn: bool = False
    last_built: int | None = None  # the hex built on last (effects that follow a build)
    in_activation: bool = False  # effects running come from a spellcar's activation
    after: bool = False  # Peril: the move comes after the activations
    moved: int = 0

    def copy(self) -> Turn:
        t = Turn(**{k: v for k, v in vars(self).items()})
        t.activated, t.move_ladders, t.free_transfers = set(self.activated), list(self.move_ladders), \
            list(self.free_transfers)
        t.free_through, t.used_stations = set(self.free_through), set(self.used_stations)
        t.unexhausted = set(self.unexhausted)
        return t


def first_effect_name(options: Any) -> list[str]:
    """The names an "or" of a card's options is chosen by: each option's first op."""
    return [opt[0].op for opt in options]
