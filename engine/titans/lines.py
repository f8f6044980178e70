"""Titans' decision lines, one per decision, as a player writes them at a table.

    P1 ashmaw enter G2 NE          P1 ashmaw stay                P1 ashmaw move
    P1 ashmaw turn left            P1 ashmaw attack P2 pyre      P1 ashmaw play stack gout-of-flame
    P1 ashmaw play reserve tailwind                              P1 ashmaw replenish in   (or out)
    P1 ashmaw burn-turn stack wingover   P1 ashmaw burn-turn reserve                   P1 ashmaw done
    P1 ashmaw burn tailwind        P1 ashmaw resolve stack ?     P1 ashmaw resolve active
    P1 ashmaw resolve reserve      P1 ashmaw die                 C hazard D4 foom      P2 concede

A card burned face down from a titan's stack is named by its owner, or written ``?`` (the
opponent's view writes ``?``); cards burned from the reserve are never named (docs/titans-rules.md, C5).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from ..games import CHANCE

UNSEEN = "?"
KEY = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
HEX = re.compile(r"^[A-Z][1-9][0-9]?$")
FACING_WORDS = ("NE", "E", "SE", "SW", "W", "NW")


class Kind(str, Enum):
    ACT = "a titan's action"
    BURN = "a titan burns a maneuver"
    RESOLVE = "a titan resolves its damage"
    HAZARD = "chance: a hazard token flipped"

    @property
    def verbs(self) -> frozenset[str]:
        return _VERBS[self]


ACT_VERBS = frozenset({"enter", "stay", "move", "turn", "attack", "play", "replenish", "burn-turn", "done"})
_VERBS = {Kind.ACT: ACT_VERBS, Kind.BURN: frozenset({"burn"}), Kind.RESOLVE: frozenset({"resolve", "die"}),
          Kind.HAZARD: frozenset({"hazard"})}


class Line(NamedTuple):
    actor: int  # 0: chance
    verb: str
    titan: str | None = None  # the acting titan's key (hazard: the hex's name)
    args: tuple[str, ...] = ()

    @property
    def seat(self) -> int:
        return self.actor

    @property
    def card(self) -> str | None:
        """The card a play or a stack burn names (None: not named, '?')."""
        if self.verb == "play" or (self.verb in ("burn-turn", "resolve") and self.args[:1] == ("stack",)):
            return None if self.args[1] == UNSEEN else self.args[1]
        if self.verb == "burn":
            return None if self.args[0] == UNSEEN else self.args[0]
        return None


SHAPES = {  # verb -> the words after it: a tuple of allowed words, or "key"/"card"/"hex"/"facing"/"seat"
    "enter": ("hex", "facing"), "stay": (), "move": (), "turn": (("left", "right"),), "attack": ("seat", "key"),
    "play": (("stack", "reserve"), "key"), "replenish": (("in", "out"),), "done": (), "die": (),
    "burn": ("card",),
}
_WORD = {"hex": HEX.match, "key": KEY.match, "facing": lambda w: w in FACING_WORDS,
         "seat": lambda w: w in ("P1", "P2"), "card": lambda w: w == UNSEEN or KEY.match(w)}
EXAMPLES = ("'P1 ashmaw move', 'P1 ashmaw enter G2 NE', 'P1 ashmaw attack P2 pyre', "
            "'P1 ashmaw play stack tailwind', 'P1 ashmaw resolve stack ?', 'C hazard D4 foom' or 'P2 concede'")


def parse_line(text: str) -> Line:
    words = text.split(" ") if isinstance(text, str) else []
    if len(words) == 4 and words[:2] == ["C", "hazard"] and HEX.match(words[2]) and KEY.match(words[3]):
        return Line(CHANCE, "hazard", words[2], (words[3],))
    if len(words) == 2 and words[0] in ("P1", "P2") and words[1] == "concede":
        return Line(int(words[0][1]), "concede")
    if len(words) >= 3 and words[0] in ("P1", "P2") and KEY.match(words[1]):
        actor, titan, verb, rest = int(words[0][1]), words[1], words[2], tuple(words[3:])
        if _fits(verb, rest):
            return Line(actor, verb, titan, rest)
        raise ValueError(f"cannot read {text!r}: {verb!r} {_wants(verb)}")
    raise ValueError(f"cannot read {text!r}: a Titans line is, for example, {EXAMPLES}")


def _fits(verb: str, rest: tuple[str, ...]) -> bool:
    if verb in ("burn-turn", "resolve"):
        return (rest in (("reserve",), ("active",)) and not (verb == "burn-turn" and rest == ("active",))) or (
            len(rest) == 2 and rest[0] == "stack" and bool(_WORD["card"](rest[1])))
    shape = SHAPES.get(verb)
    if shape is None or len(shape) != len(rest):
        return False
    return all(w in s if isinstance(s, tuple) else bool(_WORD[s](w)) for s, w in zip(shape, rest))


def _wants(verb: str) -> str:
    if verb not in SHAPES and verb not in ("burn-turn", "resolve"):
        return (f"is not a Titans action; a titan may {', '.join(sorted(ACT_VERBS))}, burn, resolve or die")
    return {"enter": "needs a hex and a facing ('enter G2 NE')", "turn": "needs left or right",
            "attack": "needs the target's player and titan ('attack P2 pyre')",
            "play": "needs stack or reserve and the card ('play stack tailwind')",
            "replenish": "needs in (reserve to stack) or out (stack to reserve)",
            "burn": "needs the card burned, or ? ('burn tailwind')",
            "burn-turn": "needs 'stack' and the card (or ?), or 'reserve'",
            "resolve": "needs 'stack' and the card (or ?), 'active' or 'reserve'"}.get(verb, "takes no more words")


def format_line(d: Line) -> str:
    if d.verb == "hazard":
        return f"C hazard {d.titan} {d.args[0]}"
    if d.verb == "concede":
        return f"P{d.actor} concede"
    return " ".join((f"P{d.actor}", d.titan or "", d.verb, *d.args))


def unseen_form(d: Line) -> Line:
    """The line with its named stack card written '?' (what the opponent's view writes)."""
    if d.verb == "burn":
        return d._replace(args=(UNSEEN,))
    if d.verb in ("burn-turn", "resolve") and d.args[:1] == ("stack",):
        return d._replace(args=("stack", UNSEEN))
    return d


def is_face_down_burn(d: Line) -> bool:
    return d.verb == "burn" or (d.verb in ("burn-turn", "resolve") and d.args[:1] == ("stack",))
