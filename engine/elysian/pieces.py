"""The book's facts about Elysian Battlefields' pieces and numbers, declared once.

Units, structures and settlements carry the numbers the rule book prints; the supply counts the book
gives as "around" a number are fixed here (docs/elysian-rules.md, choice C6)."""

from __future__ import annotations

from dataclasses import dataclass

CONQUER_POINTS = 15  # Conquer: conquest points for defeating enemy units
RULE_TERRITORIES = 10  # Rule: territories occupied at the start of one's turn
REIGN_POINTS = 5  # Reign: kingdom points controlled at the start of one's turn
HAND_LIMIT = 5
START_CARDS = 3
START_OUTPOSTS = 2
ARMING_OBJECTS = 4
TILES_EACH = 3
REBEL_SETTLEMENTS = 1  # the rebel bonus at this many settlements or fewer
FOREST_PENALTY = 2  # attack power lost attacking a forest
MOUNTAIN_BONUS = 1  # attack power per mountain territory attacked from
SET_SIZE = 3  # attack dice are rolled in sets of three
BLOCK_FACES = (1, 2)
HEAVY_FACE = 6


@dataclass(frozen=True)
class UnitType:
    key: str
    attack: int
    defense: int
    move: int
    range: int = 1


STANDARD = {
    "infantry": UnitType("infantry", 2, 2, 2),
    "archer": UnitType("archer", 2, 1, 2, 2),
    "cavalry": UnitType("cavalry", 2, 1, 4),
}
UNITS_EACH = 6  # of each standard unit, per player


@dataclass(frozen=True)
class SettlementType:
    key: str
    units: int
    cards: int
    defense: int
    kingdom: int


SETTLEMENTS = {
    "outpost": SettlementType("outpost", 1, 1, 1, 1),
    "fortress": SettlementType("fortress", 2, 1, 2, 2),
    "palace": SettlementType("palace", 1, 2, 2, 2),
}
SETTLEMENT_SUPPLY = {"outpost": 3, "fortress": 2, "palace": 2}  # per player (choice C6)
WALL_DEFENSE = 3
WALLS_SUPPLY = 12  # shared by all players (choice C6)
TEMPLE_KINGDOM = 2
TEMPLES_SUPPLY = 2
