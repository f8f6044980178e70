"""The plain data a game of Elysian Battlefields is made of: the decision point waiting for an
answer, a unit on the field, what stands in a territory, a player, and what
the player whose turn it is may still do. The state machine that changes them is ``game.py``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .lines import Kind, Line


@dataclass
class Point:
    player: int
    seat: int
    kind: Kind
    prompt: str
    default: Line | None = None


@dataclass
class Unit:
    kind: str  # infantry, archer, cavalry or hero
    player: int
    where: str
    moved: bool = False


@dataclass
class Site:
    """What stands in a territory besides units: a settlement (and who holds it), walls, a temple."""

    settlement: str | None = None
    holder: int | None = None  # None: vacant
    walls: bool = False
    temple: bool = False


@dataclass
class Player:
    seat: int
    hero: str | None = None
    tiles: list = field(default_factory=list)  # drawn, not yet laid
    hand: list = field(default_factory=list)  # (deck, card key or None)
    conquest: int = 0
    upgrades: list = field(default_factory=list)
    items: list = field(default_factory=list)  # carried by the hero
    supply: Counter = field(default_factory=Counter)  # standard units and settlements not on the field
    out: bool = False
    roll: int = 0


@dataclass
class Turn:
    """What the player whose turn it is may still do, and what cards gave for this turn."""

    plays: int = 1
    moves: int = 2
    hero_moved: bool = False
    attacks: int = 1
    attacked: bool = False
    power: int = 0
    speed: int = 0
    reach: int = 0
