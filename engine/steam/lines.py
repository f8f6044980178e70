"""Spells & Steam's decision lines, one per decision, as a player writes them at a table.

    C first P2                    the start player (chosen at the table, or at random)
    C awards cache focus          awards dealt face up (the Expert variant deals players + 2)
    P1 strikes cache              Expert: an award struck out, in turn order, until two are left
    C market metro icecar …       the spellcar market dealt (six; dealt again when two are left)
    C stack engineer orman-kaspar …   Open information: a specialist stack dealt face up
    P3 company kerigan rayleigh-kerigan   a company and its captain, last player first
    P1 hq c3 d3                   headquarters: a car on the home terrain, one next to it
    P1 uses orman-kaspar          a specialist used before the main action
    P1 administrates              P1 moves 2      P1 moves 2 after   (Peril: activate, then move)
    P1 activates metro            P1 stops
    P1 builds f4                  P1 builds f4 via e4 e5   (transfers over those hexes, in order)
    P1 builds around d4           (Mindra Dirac: every hex around d4)
    P1 takes metro 3:2            a spellcar from the market into column 3, row 2 of the railyard
    P1 delivers crizma to j5 from c3 d4 d4 takes 3     P1 passes
    P1 upgrades mana              (or specialist, spellcars)
    P1 gains engineer             P1 hires orman-kaspar   (or 'P1 hires later': the pick written late)
    P1 chooses specialist         an "or" of a card: the option named by its first effect
    P1 wastes d5                  P1 returns crizma@d4 silver@e5   P1 pulls crizma@e5 to d4
    P1 mirrors crizma@d4          P1 seeds d4      P1 transmutes crizma@d4 silver   P1 sweeps d4
    P1 removes crizma@e6          P1 places crizma    P1 shifts d4 e4    P1 switches d4 e4 P2
    P1 clears d4                  P2 scraps 3:2    P1 copies left (right, a market spellcar, P2)
    P1 rearranges 3:2 4:3         P1 trades engineer P2    P1 picks clive-melmont
    P1 swaps crizma-3@j5 silver-2@k7    P1 skips   P2 concede

A good is written ``colour@hex``; a demand tile ``colour-size@city``; a railyard slot ``column:row``.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from ..games import CHANCE
from .pieces import COLOURS, SPECIALIST_KINDS, UPGRADES

KEY = re.compile(r"^[a-z][a-z0-9'-]{0,40}$")
HEX = re.compile(r"^[a-z][1-9][0-9]?$")
SLOT = re.compile(r"^[1-9]:[1-3]$")
SEAT = re.compile(r"^P[1-6]$")
GOOD = re.compile(r"^([a-z]+)@([a-z][1-9][0-9]?)$")
DEMAND = re.compile(r"^([a-z]+)-([234])@([a-z][1-9][0-9]?)$")
SLOT_KINDS = ("captain", "engineer", "station")  # what Telemyr may trade


class Kind(str, Enum):
    FIRST = "chance: the start player"
    AWARDS = "chance: awards dealt"
    MARKET = "chance: the spellcar market dealt"
    STACK = "chance: a specialist stack dealt face up"
    STRIKE = "striking out an award"
    COMPANY = "choosing a company and captain"
    HQ = "placing headquarters"
    TURN = "using specialists or taking the main action"
    ACTIVATE = "activating spellcars"
    BUILD = "building track"
    TAKE = "gaining a spellcar"
    DELIVER = "delivering goods"
    UPGRADE = "choosing an upgrade"
    GAIN = "gaining a specialist"
    HIRE = "choosing a specialist from the stack"
    CHOOSE = "choosing one effect of a card"
    WASTE = "placing a wasteland"
    GOODS = "moving goods"
    CARS = "moving cars"
    SCRAP = "discarding a spellcar"
    COPY = "choosing what to copy"
    REARRANGE = "rearranging the railyard"
    TRADE = "swapping a specialist"
    PICK = "choosing a station master"
    SWAP = "swapping demand tiles"

    @property
    def verbs(self) -> frozenset[str]:
        return _VERBS[self]


_VERBS = {Kind.FIRST: frozenset({"first"}), Kind.AWARDS: frozenset({"awards"}), Kind.MARKET: frozenset({"market"}),
          Kind.STACK: frozenset({"stack"}), Kind.STRIKE: frozenset({"strikes"}), Kind.COMPANY: frozenset({"company"}),
          Kind.HQ: frozenset({"hq"}), Kind.TURN: frozenset({"uses", "administrates", "moves"}),
          Kind.ACTIVATE: frozenset({"activates", "stops"}), Kind.BUILD: frozenset({"builds", "skips"}),
          Kind.TAKE: frozenset({"takes"}), Kind.DELIVER: frozenset({"delivers", "passes"}),
          Kind.UPGRADE: frozenset({"upgrades"}), Kind.GAIN: frozenset({"gains"}), Kind.HIRE: frozenset({"hires"}),
          Kind.CHOOSE: frozenset({"chooses"}), Kind.WASTE: frozenset({"wastes"}),
          Kind.GOODS: frozenset({"returns", "pulls", "mirrors", "seeds", "transmutes", "sweeps", "removes", "places",
                                 "skips"}),
          Kind.CARS: frozenset({"shifts", "switches", "clears", "skips"}), Kind.SCRAP: frozenset({"scraps"}),
          Kind.COPY: frozenset({"copies"}), Kind.REARRANGE: frozenset({"rearranges", "skips"}),
          Kind.TRADE: frozenset({"trades", "skips"}), Kind.PICK: frozenset({"picks"}),
          Kind.SWAP: frozenset({"swaps", "skips"})}
CHANCE_VERBS = frozenset({"first", "awards", "market", "stack"})


class Line(NamedTuple):
    actor: int  # 0: chance
    verb: str
    args: tuple[str, ...] = ()

    @property
    def seat(self) -> int:
        return self.actor


def _keys(w: list[str], lo: int, hi: int) -> bool:
    return lo <= len(w) <= hi and all(KEY.match(x) for x in w)


def _goods(w: list[str]) -> bool:
    return all(GOOD.match(x) and GOOD.match(x).group(1) in COLOURS for x in w)  # type: ignore[union-attr]


def _delivery(w: list[str]) -> bool:
    """``crizma to j5 from c3 d4 [takes 3]``"""
    if len(w) < 5 or w[0] not in COLOURS or w[1] != "to" or not HEX.match(w[2]) or w[3] != "from":
        return False
    rest = w[4:]
    if len(rest) >= 2 and rest[-2] == "takes":
        if rest[-1] not in ("2", "3", "4"):
            return False
        rest = rest[:-2]
    return bool(rest) and all(HEX.match(x) for x in rest)


def _build(w: list[str]) -> bool:
    if len(w) == 2 and w[0] == "around":
        return HEX.match(w[1]) is not None
    return bool(w) and HEX.match(w[0]) is not None and (len(w) == 1 or (
        len(w) >= 3 and w[1] == "via" and all(HEX.match(x) for x in w[2:])))


_SHAPES = {  # verb -> a test of the words after it, and what it wants in words
    "strikes": (lambda w: _keys(w, 1, 1), "needs the award struck out ('strikes cache')"),
    "company": (lambda w: _keys(w, 2, 2), "needs the company and its captain ('company kerigan rayleigh-kerigan')"),
    "hq": (lambda w: len(w) == 2 and all(HEX.match(x) for x in w), "needs two hexes ('hq c3 d3')"),
    "uses": (lambda w: _keys(w, 1, 1), "needs the specialist ('uses orman-kaspar')"),
    "moves": (lambda w: len(w) in (1, 2) and w[0] in ("1", "2", "3", "4") and (len(w) == 1 or w[1] == "after"),
              "needs the spaces, 1 to 4 ('moves 2', or 'moves 2 after' with Peril)"),
    "activates": (lambda w: _keys(w, 1, 1), "needs the spellcar ('activates metro')"),
    "builds": (_build, "needs the hex, and any hexes transferred over ('builds f4' or 'builds f4 via e4 e5')"),
    "takes": (lambda w: len(w) == 2 and KEY.match(w[0]) and SLOT.match(w[1]),
              "needs the spellcar and the railyard slot, column:row ('takes metro 3:2')"),
    "delivers": (_delivery, "needs the colour, the city and a hex per good "
                            "('delivers crizma to j5 from c3 d4 takes 3')"),
    "upgrades": (lambda w: len(w) == 1 and w[0] in UPGRADES, "needs mana, specialist or spellcars"),
    "gains": (lambda w: len(w) == 1 and w[0] in SPECIALIST_KINDS, "needs engineer, surveyor or station"),
    "hires": (lambda w: _keys(w, 1, 1), "needs the specialist, or later ('hires orman-kaspar', 'hires later')"),
    "picks": (lambda w: _keys(w, 1, 1), "needs the station master ('picks clive-melmont')"),
    "chooses": (lambda w: _keys(w, 1, 1), "needs the option ('chooses specialist')"),
    "wastes": (lambda w: len(w) == 1 and HEX.match(w[0]), "needs the hex ('wastes d5')"),
    "returns": (lambda w: 1 <= len(w) <= 2 and _goods(w), "needs the goods ('returns crizma@d4')"),
    "pulls": (lambda w: len(w) == 3 and _goods(w[:1]) and w[1] == "to" and HEX.match(w[2]),
              "needs the good and the hex it goes to ('pulls crizma@e5 to d4')"),
    "mirrors": (lambda w: len(w) == 1 and _goods(w), "needs the good copied ('mirrors crizma@d4')"),
    "seeds": (lambda w: len(w) == 1 and HEX.match(w[0]), "needs the hex ('seeds d4')"),
    "transmutes": (lambda w: len(w) == 2 and _goods(w[:1]) and w[1] in COLOURS,
                   "needs the good and the colour it becomes ('transmutes crizma@d4 silver')"),
    "sweeps": (lambda w: len(w) == 1 and HEX.match(w[0]), "needs the hex ('sweeps d4')"),
    "removes": (lambda w: len(w) == 1 and _goods(w), "needs the good ('removes crizma@e6')"),
    "places": (lambda w: len(w) == 1 and w[0] in COLOURS, "needs the colour ('places crizma')"),
    "shifts": (lambda w: len(w) == 2 and all(HEX.match(x) for x in w), "needs the car's hex and where it goes"),
    "switches": (lambda w: len(w) == 3 and HEX.match(w[0]) and HEX.match(w[1]) and SEAT.match(w[2]),
                 "needs your car's hex, the other car's hex and its company ('switches d4 e4 P2')"),
    "clears": (lambda w: len(w) == 1 and HEX.match(w[0]), "needs the hex ('clears d4')"),
    "scraps": (lambda w: len(w) == 1 and SLOT.match(w[0]), "needs the railyard slot ('scraps 3:2')"),
    "copies": (lambda w: len(w) == 1 and (KEY.match(w[0]) or SEAT.match(w[0])),
               "needs left, right, a market spellcar or a company ('copies left')"),
    "rearranges": (lambda w: len(w) == 2 and all(SLOT.match(x) for x in w), "needs two slots ('rearranges 3:2 4:3')"),
    "trades": (lambda w: len(w) == 2 and w[0] in SLOT_KINDS and SEAT.match(w[1]),
               "needs captain, engineer or station and the company ('trades engineer P2')"),
    "swaps": (lambda w: len(w) == 2 and all(DEMAND.match(x) for x in w),
              "needs two demand tiles ('swaps crizma-3@j5 silver-2@k7')"),
    **{v: (lambda w: not w, "takes no more words") for v in ("administrates", "stops", "skips", "passes", "concede")},
}
EXAMPLES = "'P1 moves 2', 'P1 activates metro', 'P1 builds f4 via e4', 'C market metro icecar …' or 'P2 concede'"


def parse_line(text: str) -> Line:
    words = text.split(" ") if isinstance(text, str) else []
    if len(words) >= 2 and words[0] == "C":
        verb, rest = words[1], words[2:]
        if verb == "first" and len(rest) == 1 and SEAT.match(rest[0]):
            return Line(CHANCE, verb, tuple(rest))
        if verb in ("awards", "market") and _keys(rest, 1, 12):
            return Line(CHANCE, verb, tuple(rest))
        if verb == "stack" and len(rest) >= 2 and rest[0] in SPECIALIST_KINDS and _keys(rest[1:], 1, 7):
            return Line(CHANCE, verb, tuple(rest))
        raise ValueError(f"cannot read {text!r}: a chance line is 'C first P2', 'C awards cache focus', "
                         "'C market metro icecar …' or 'C stack engineer orman-kaspar …'")
    if len(words) >= 2 and SEAT.match(words[0]):
        verb, rest = words[1], words[2:]
        shape = _SHAPES.get(verb)
        if shape is not None and shape[0](rest):
            return Line(int(words[0][1]), verb, tuple(rest))
        if shape is None:
            raise ValueError(f"cannot read {text!r}: {verb!r} is not a Spells & Steam decision; a player may "
                             f"{', '.join(sorted(_SHAPES))}")
        raise ValueError(f"cannot read {text!r}: {verb!r} {shape[1]}")
    raise ValueError(f"cannot read {text!r}: a Spells & Steam line is, for example, {EXAMPLES}")


def format_line(d: Line) -> str:
    return " ".join(("C" if d.actor == CHANCE else f"P{d.actor}", d.verb, *d.args))


def good_token(colour: str, hex_name: str) -> str:
    return f"{colour}@{hex_name}"


def read_good(token: str) -> tuple[str, str]:
    colour, where = token.split("@")
    return colour, where
