"""Elysian Battlefields' decision lines, one per decision, as a player writes them at a table.

    C rolls P2 5                the turn-order roll, one die a line (ties rolled again)
    P3 hero seren               heroes chosen, last player first
    C tile P1 4                 a land tile drawn at random
    P1 lays 4 at 0,0 1,-1 1,0   a tile laid: its territories 4a, 4b, 4c on those hexes, clockwise
    P1 draws conquest           a card drawn from a deck (its face is seen when it is played)
    P1 outpost 4a               P1 arms 4a infantry  (or archer, cavalry, hero, walls)
    P1 deploys cavalry 4a       P1 discards spike-pit-trap
    P1 plays war-drums          P1 trades spike-pit-trap  (a card for a unit)  P1 skips
    P1 builds walls 4a          P1 upgrades 4a            P1 strikes archer 5b   P1 stops
    P1 moves infantry 4a 7c     P1 attacks 5b from 3c 4a  P1 done                P1 leaves
    P2 reacts spike-pit-trap    P2 holds                  P2 traps infantry 4a
    C dice 2 5 6                P1 targets archer         P1 invades from 3c 4a  P1 stays
    P2 concede

The faces of a set of dice are unordered: they read in any order and are written lowest first.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from ..games import CHANCE
from .board import read_hex

KEY = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
TILE = re.compile(r"^[1-9][0-9]?$")
TERRITORY = re.compile(r"^[1-9][0-9]?[abc]$")
SEAT = re.compile(r"^P[1-5]$")
UNIT_WORDS = ("infantry", "archer", "cavalry")
ARM_WORDS = (*UNIT_WORDS, "hero", "walls")
BUILD_WORDS = ("outpost", "walls", "temple")
DECK_WORDS = ("conquest", "rule", "reign")


class Kind(str, Enum):
    ROLL = "chance: the turn-order roll"
    TILE = "chance: a land tile drawn"
    DICE = "chance: a set of attack dice"
    HERO = "choosing a hero"
    LAY = "laying a land tile"
    DRAW = "drawing a card"
    OUTPOST = "placing an outpost"
    ARM = "arming the outposts"
    DEPLOY = "placing a unit"
    DISCARD = "discarding down to the hand limit"
    PLAY = "playing a card"
    BUILD = "building"
    UPGRADE = "upgrading an outpost"
    STRIKE = "striking an enemy unit"
    MOVE = "moving and attacking"
    REACT = "reacting to an attack"
    TRAP = "springing a trap"
    TARGET = "choosing the next unit hit"
    INVADE = "invading"

    @property
    def verbs(self) -> frozenset[str]:
        return _VERBS[self]


_VERBS = {Kind.ROLL: frozenset({"rolls"}), Kind.TILE: frozenset({"tile"}), Kind.DICE: frozenset({"dice"}),
          Kind.HERO: frozenset({"hero"}), Kind.LAY: frozenset({"lays"}), Kind.DRAW: frozenset({"draws"}),
          Kind.OUTPOST: frozenset({"outpost"}), Kind.ARM: frozenset({"arms"}),
          Kind.DEPLOY: frozenset({"deploys"}), Kind.DISCARD: frozenset({"discards"}),
          Kind.PLAY: frozenset({"plays", "trades", "skips"}), Kind.BUILD: frozenset({"builds"}),
          Kind.UPGRADE: frozenset({"upgrades"}), Kind.STRIKE: frozenset({"strikes", "stops"}),
          Kind.MOVE: frozenset({"moves", "attacks", "done", "leaves"}), Kind.REACT: frozenset({"reacts", "holds"}),
          Kind.TRAP: frozenset({"traps"}), Kind.TARGET: frozenset({"targets"}),
          Kind.INVADE: frozenset({"invades", "stays"})}
CHANCE_VERBS = frozenset({"rolls", "tile", "dice"})


class Line(NamedTuple):
    actor: int  # 0: chance
    verb: str
    args: tuple[str, ...] = ()

    @property
    def seat(self) -> int:
        return self.actor

    @property
    def card(self) -> str | None:
        return self.args[0] if self.verb in ("plays", "trades", "discards", "reacts") else None


def _territories(words: list[str]) -> bool:
    return bool(words) and all(TERRITORY.match(w) for w in words) and len(set(words)) == len(words)


_SHAPES = {  # verb -> a test of the words after it, and what it wants in words
    "hero": (lambda w: len(w) == 1 and KEY.match(w[0]), "needs the hero ('hero valka')"),
    "lays": (lambda w: len(w) == 5 and TILE.match(w[0]) and w[1] == "at" and all(read_hex(x) for x in w[2:]),
             "needs the tile and three hexes, clockwise ('lays 4 at 0,0 1,-1 1,0')"),
    "draws": (lambda w: len(w) == 1 and w[0] in DECK_WORDS, "needs the deck: conquest, rule or reign"),
    "outpost": (lambda w: len(w) == 1 and TERRITORY.match(w[0]), "needs the territory ('outpost 4a')"),
    "arms": (lambda w: len(w) == 2 and TERRITORY.match(w[0]) and w[1] in ARM_WORDS,
             "needs the territory and infantry, archer, cavalry, hero or walls ('arms 4a infantry')"),
    "deploys": (lambda w: len(w) == 2 and w[0] in UNIT_WORDS and TERRITORY.match(w[1]),
                "needs the unit and the territory ('deploys cavalry 4a')"),
    "discards": (lambda w: len(w) == 1 and KEY.match(w[0]), "needs the card ('discards war-drums')"),
    "plays": (lambda w: len(w) == 1 and KEY.match(w[0]), "needs the card ('plays war-drums')"),
    "trades": (lambda w: len(w) == 1 and KEY.match(w[0]), "needs the card given up for a unit"),
    "reacts": (lambda w: len(w) == 1 and KEY.match(w[0]), "needs the effect card ('reacts spike-pit-trap')"),
    "builds": (lambda w: len(w) == 2 and w[0] in BUILD_WORDS and TERRITORY.match(w[1]),
               "needs outpost, walls or temple and the territory ('builds walls 4a')"),
    "upgrades": (lambda w: len(w) == 1 and TERRITORY.match(w[0]), "needs the outpost's territory ('upgrades 4a')"),
    "strikes": (lambda w: len(w) == 2 and w[0] in UNIT_WORDS and TERRITORY.match(w[1]),
                "needs the unit and its territory ('strikes archer 5b')"),
    "traps": (lambda w: len(w) == 2 and w[0] in UNIT_WORDS and TERRITORY.match(w[1]),
              "needs the attacking unit and its territory ('traps infantry 4a')"),
    "moves": (lambda w: len(w) == 3 and w[0] in (*UNIT_WORDS, "hero") and TERRITORY.match(w[1])
              and TERRITORY.match(w[2]), "needs the unit, where it is and where it goes ('moves infantry 4a 7c')"),
    "attacks": (lambda w: len(w) >= 3 and TERRITORY.match(w[0]) and w[1] == "from" and _territories(w[2:]),
                "needs the territory attacked and where the attackers are ('attacks 5b from 3c 4a')"),
    "targets": (lambda w: len(w) == 1 and w[0] in UNIT_WORDS, "needs infantry, archer or cavalry"),
    "invades": (lambda w: len(w) >= 2 and w[0] == "from" and _territories(w[1:]),
                "needs where the invaders come from ('invades from 3c 4a')"),
    **{v: (lambda w: not w, "takes no more words") for v in ("skips", "stops", "done", "leaves", "holds", "stays",
                                                             "concede")},
}
EXAMPLES = "'P1 draws conquest', 'P1 moves infantry 4a 7c', 'P1 attacks 5b from 4a', 'C dice 2 5 6' or 'P2 concede'"


def parse_line(text: str) -> Line:
    words = text.split(" ") if isinstance(text, str) else []
    if len(words) >= 2 and words[0] == "C":
        verb, rest = words[1], words[2:]
        if verb == "rolls" and len(rest) == 2 and SEAT.match(rest[0]) and rest[1] in "123456" and len(rest[1]) == 1:
            return Line(CHANCE, verb, tuple(rest))
        if verb == "tile" and len(rest) == 2 and SEAT.match(rest[0]) and TILE.match(rest[1]):
            return Line(CHANCE, verb, tuple(rest))
        if verb == "dice" and 1 <= len(rest) <= 3 and all(len(w) == 1 and w in "123456" for w in rest):
            return Line(CHANCE, verb, tuple(sorted(rest)))
        raise ValueError(f"cannot read {text!r}: a chance line is 'C rolls P2 5', 'C tile P1 4' or 'C dice 2 5 6' "
                         "(one to three faces, 1-6)")
    if len(words) >= 2 and SEAT.match(words[0]):
        verb, rest = words[1], words[2:]
        shape = _SHAPES.get(verb)
        if shape is not None and shape[0](rest):
            if verb in ("attacks", "invades"):  # the attackers' territories are a set: written in one order
                cut = rest.index("from") + 1
                rest = rest[:cut] + sorted(rest[cut:], key=territory_order)
            return Line(int(words[0][1]), verb, tuple(rest))
        if shape is None:
            raise ValueError(f"cannot read {text!r}: {verb!r} is not an Elysian Battlefields decision; a player "
                             f"may {', '.join(sorted(_SHAPES))}")
        raise ValueError(f"cannot read {text!r}: {verb!r} {shape[1]}")
    raise ValueError(f"cannot read {text!r}: an Elysian Battlefields line is, for example, {EXAMPLES}")


def territory_order(name: str) -> tuple[int, str]:
    return int(name[:-1]), name[-1]


def format_line(d: Line) -> str:
    return " ".join(("C" if d.actor == CHANCE else f"P{d.actor}", d.verb, *d.args))
