"""Decisions: the small immutable value type every game step is made of, and its text form.

A decision is written in a log as one short line, in the spirit of chess SAN:

    P1 keep Horse Archers            draft: keep this card (the other goes to the bottom)
    P1 pass                          end the command or deploy phase turn / decline
    P1 deploy Flank Attack to B3     deploy phase: pay the cost, face down, lowest open zone
    P1 move P1:B3Z2 to B1            command phase: move a card using one of its move tokens
    P1 command P1:B2Z1               command phase: activate that card's command ability
    P1 choose P2:B1Z4                an ability asks for a card on the board
    P1 choose B2                     an ability asks for a battlefield
    P1 choose Soul of the Living     an ability asks for a card by name (hand, pile or deck)
    P1 yes / P1 no                   an optional ("may") effect: take it or not
    C draw P1 Horse Archers          recorded chance: which card came off the top of the deck
    C draw P2 ?                      recorded chance: a card was drawn that the writer did not see
    P2 keep ?  /  P2 choose ?        a card kept, discarded or taken that the writer did not see
    P2 choose nothing                a choice among cards nobody saw found no card that fits
    P2 concede                       the player concedes: the game ends here
    C first P2                       recorded chance: who got the first player token (only for a
                                     game started without one; logs state it in their setup)

``?`` stands for a card nobody at the recording seat saw (``UNSEEN_NAME``); it may stand wherever a
card leaves sight (a draw, a keep, a discard or a card taken from a hidden place), never where a card
shows itself (a deploy names the card as it was revealed).

Board positions read "owner : battlefield and zone": ``P2:B1Z4`` is the card in zone 4 of
player 2's side of battlefield 1. Battlefields and zones are numbered from 1.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from ..games import CHANCE  # noqa: F401  (the chance player's number, as every game has it)


class Kind(str, Enum):
    """What kind of decision a decision point asks for."""

    DRAFT_KEEP = "draft keep"
    COMMAND = "command action or pass"
    DEPLOY = "deploy or pass"
    TARGET_CARD = "choose a card on the board"
    TARGET_BATTLEFIELD = "choose a battlefield"
    STACK_TOP = "choose the top card of a stack"
    DISCARD = "choose a card to discard"
    ACQUIRE = "choose a card to acquire"
    CHOOSE_CARD = "choose a card"
    MAY = "take an optional effect or not"
    CHANCE_DRAW = "chance: card drawn"
    CHANCE_FIRST_PLAYER = "chance: first player"
    CONCEDE = "concede the game"  # never asked: a player may concede at any point (Game.trace notes it)

    @property
    def verbs(self) -> frozenset[str]:
        """The verbs that answer a decision point of this kind."""
        return _KIND_VERBS.get(self, _CHOOSE)
    # Shuffles are not decision points: seeded chance orders the deck from the PRNG at once, and
    # recorded chance leaves the order unknown, so each later draw is a CHANCE_DRAW.


_CHOOSE = frozenset({"choose", "nothing"})
_KIND_VERBS = {
    Kind.DRAFT_KEEP: frozenset({"keep"}), Kind.COMMAND: frozenset({"pass", "command", "move"}),
    Kind.DEPLOY: frozenset({"pass", "deploy"}), Kind.MAY: frozenset({"yes", "no"}),
    Kind.CHANCE_DRAW: frozenset({"draw"}), Kind.CHANCE_FIRST_PLAYER: frozenset({"first"}),
    Kind.CONCEDE: frozenset({"concede"}),
}
# A card the writer did not see; and the answer of a choice among cards nobody saw that found no
# card to choose ("P2 choose nothing"). Neither can be a card's name.
UNSEEN_NAME = "?"
NOTHING = "nothing"


class Pos(NamedTuple):
    """A place on the board: whose side, which battlefield, which zone (all 1-based)."""

    owner: int
    bf: int
    zone: int

    def __str__(self) -> str:
        return f"P{self.owner}:B{self.bf}Z{self.zone}"


class Decision(NamedTuple):
    """One answer to one decision point.

    ``verb`` is one of keep, pass, deploy, move, command, choose, yes, no, draw, first, concede
    (written ``choose nothing``: see NOTHING). ``card`` is a card name (``?``: unseen),
    ``pos`` a board position, ``bf`` a battlefield number (1-based), ``player`` the player a chance
    draw is for.
    """

    actor: int
    verb: str
    card: str | None = None
    pos: Pos | None = None
    bf: int | None = None
    player: int | None = None

    def __str__(self) -> str:
        return format_decision(self)

    @property
    def seat(self) -> int:
        """The player whose line this is: the actor, or for a chance draw the player who drew."""
        return self.player if self.actor == CHANCE and self.player is not None else self.actor

    @property
    def unseen(self) -> bool:
        return self.card == UNSEEN_NAME


class DecisionSyntaxError(ValueError):
    """The text of a decision cannot be read at all."""


_POS = r"P(?P<owner>[1-3]):B(?P<b>[1-9])Z(?P<z>[1-9])"
_BF = r"B(?P<tb>[1-9])"
_PATTERNS = [
    ("keep", re.compile(r"^P(?P<p>[1-3]) keep (?P<card>\S.*)$")),
    ("pass", re.compile(r"^P(?P<p>[1-3]) pass$")),
    ("yes", re.compile(r"^P(?P<p>[1-3]) yes$")),
    ("no", re.compile(r"^P(?P<p>[1-3]) no$")),
    ("deploy", re.compile(rf"^P(?P<p>[1-3]) deploy (?P<card>\S.*?) to {_BF}$")),
    ("move", re.compile(rf"^P(?P<p>[1-3]) move {_POS} to {_BF}$")),
    ("command", re.compile(rf"^P(?P<p>[1-3]) command {_POS}$")),
    ("nothing", re.compile(r"^P(?P<p>[1-3]) choose nothing$")),
    ("choose_pos", re.compile(rf"^P(?P<p>[1-3]) choose {_POS}$")),
    ("choose_bf", re.compile(rf"^P(?P<p>[1-3]) choose {_BF}$")),
    ("choose", re.compile(r"^P(?P<p>[1-3]) choose (?P<card>\S.*)$")),
    ("concede", re.compile(r"^P(?P<p>[1-3]) concede$")),
    ("draw", re.compile(r"^C draw P(?P<dp>[1-3]) (?P<card>\S.*)$")),
    ("first", re.compile(r"^C first P(?P<dp>[1-3])$")),
]

_USAGE = (
    "expected e.g. 'P1 keep <card>', 'P1 deploy <card> to B2', 'P1 pass', 'P1 move P1:B1Z2 to B3', "
    "'P1 command P1:B1Z2', 'P1 choose P2:B1Z3', 'P1 choose B2', 'P1 choose <card>', 'P1 yes', "
    "'P1 no', 'P1 concede', 'C draw P1 <card>' or 'C first P2'; '?' for a card you did not see, "
    "'P1 choose nothing' when no card fitted"
)


@lru_cache(maxsize=65536)
def parse_decision(text: str) -> Decision:
    """Read one decision line. Raises DecisionSyntaxError naming what is wrong."""
    if not isinstance(text, str):
        raise DecisionSyntaxError(f"a decision must be a text line, not {type(text).__name__}")
    line = " ".join(text.split())
    if not line:
        raise DecisionSyntaxError("the decision is empty; " + _USAGE)
    for verb, pattern in _PATTERNS:
        m = pattern.match(line)
        if not m:
            continue
        g = m.groupdict()
        actor = CHANCE if verb in ("draw", "first") else int(g["p"])
        if verb in ("move", "command", "choose_pos"):
            pos = Pos(int(g["owner"]), int(g["b"]), int(g["z"]))
            to = int(g["tb"]) if verb == "move" else None
            return Decision(actor, "choose" if verb == "choose_pos" else verb, pos=pos, bf=to)
        if verb == "choose_bf":
            return Decision(actor, "choose", bf=int(g["tb"]))
        if verb == "deploy":
            if g["card"] == UNSEEN_NAME:
                raise DecisionSyntaxError(f"{text!r}: a deploy names the card deployed (as it was seen when "
                                          "revealed); '?' cannot stand for it")
            return Decision(actor, "deploy", card=g["card"], bf=int(g["tb"]))
        if verb == "draw":
            return Decision(CHANCE, "draw", card=g["card"], player=int(g["dp"]))
        if verb == "first":
            return Decision(CHANCE, "first", player=int(g["dp"]))
        return Decision(actor, verb, card=g.get("card"))
    raise DecisionSyntaxError(f"cannot read the decision {text!r}; " + _USAGE)


def format_decision(d: Decision) -> str:
    """The canonical text of a decision; parse_decision(format_decision(d)) == d."""
    who = "C" if d.actor == CHANCE else f"P{d.actor}"
    v = d.verb
    if v in ("pass", "yes", "no", "concede"):
        return f"{who} {v}"
    if v == "nothing":
        return f"{who} choose nothing"
    if v == "keep":
        return f"{who} keep {d.card}"
    if v == "deploy":
        return f"{who} deploy {d.card} to B{d.bf}"
    if v == "move":
        return f"{who} move {d.pos} to B{d.bf}"
    if v == "command":
        return f"{who} command {d.pos}"
    if v == "draw":
        return f"C draw P{d.player} {d.card}"
    if v == "first":
        return f"C first P{d.player}"
    if v == "choose":
        if d.pos is not None:
            return f"{who} choose {d.pos}"
        if d.bf is not None:
            return f"{who} choose B{d.bf}"
        return f"{who} choose {d.card}"
    raise ValueError(f"unknown decision verb {v!r}")
