"""Mutable pieces of a game in progress: card instances, decks, players.

Only engine.bfe.game and engine.bfe.board (and the compiled effects they run) mutate these; everything else
reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Callable

from .decisions import UNSEEN_NAME

# Specialty tokens that sit on cards. Stop tokens sit on a player's side of a battlefield instead.
STUN, SHIELD, ANCHOR, MOVE, CAPTIVE = "stun", "shield", "anchor", "move", "captive"
CARD_TOKENS = (STUN, SHIELD, ANCHOR, MOVE, CAPTIVE)


@dataclass(frozen=True, eq=False)
class CardDef:
    """A card as the catalog defines it (engine.bfe.catalog compiles these from the deck files)."""

    name: str
    deck: str
    type: str
    cost: int
    might: int
    max_might: int | None
    ability: str
    affixed: tuple[str, ...]
    text: str
    effects: dict = field(repr=False)
    listens: tuple[str, ...] = field(repr=False, default=())
    # Its own "when discarded" ability changes what everyone sees (essence, a deploy it cannot
    # decline): a discard nobody saw cannot have been this card (docs/log-format.md, unseen cards).
    shows_when_discarded: bool = False


@dataclass(frozen=True, eq=False)
class BattlefieldDef:
    name: str
    zones: int
    text: tuple[str, ...]
    effects: dict = field(repr=False)
    might_bonus: tuple[Callable, ...] = field(repr=False, default=())
    cost_rules: tuple[Callable, ...] = field(repr=False, default=())
    destroy_to_hand: tuple[Callable, ...] = field(repr=False, default=())


class CardFilter:
    """Which cards a choice accepts, as values: a name among ``names``, a type among ``types``, a
    printed cost of at most ``max_cost``, not named ``exclude`` (None: any). Immutable, so a
    pending choice shares it with the game's clones."""

    __slots__ = ("names", "types", "max_cost", "exclude")

    def __init__(self, names: frozenset[str] | None = None, types: frozenset[str] | None = None,
                 max_cost: int | None = None, exclude: str | None = None) -> None:
        self.names = names
        self.types = types
        self.max_cost = max_cost
        self.exclude = exclude

    def __call__(self, cd: CardDef) -> bool:
        return ((self.names is None or cd.name in self.names) and (self.types is None or cd.type in self.types)
                and (self.max_cost is None or cd.cost <= self.max_cost)
                and (self.exclude is None or cd.name != self.exclude))

    def excluding(self, name: str) -> CardFilter:
        return CardFilter(self.names, self.types, self.max_cost, name)


# What a card nobody at the recording seat saw is, as far as the rules go: a card with no name,
# cost, might or ability. Such cards stay off the board (a card shows itself to get there); what
# they may be is engine.bfe.hidden's business.
UNSEEN = CardDef(UNSEEN_NAME, "", "", 0, 0, None, "none", (), "a card nobody at the recording seat saw", {})


class Phase(IntEnum):
    SETUP = 0
    BEGIN = 1
    DRAFT = 2
    COMMAND = 3
    DEPLOY = 4
    REVEAL = 5
    END = 6
    END_OF_GAME = 7
    OVER = 8

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


class Loc(IntEnum):
    DECK = 0
    HAND = 1
    BOARD = 2
    UNDER = 3  # the bottom card(s) of a stack
    DISCARD = 4
    DESTROY = 5
    BANISH = 6
    DRAWN = 7  # drawn in the draft, not yet kept or put back


# Plain module names for the hot paths: looking up an Enum member through its class costs ~150 ns
# in CPython 3.11, a module global ~20 ns. The values are the same enum members.
(AT_DECK, AT_HAND, AT_BOARD, AT_UNDER, AT_DISCARD, AT_DESTROY, AT_BANISH, AT_DRAWN) = tuple(Loc)
(PH_SETUP, PH_BEGIN, PH_DRAFT, PH_COMMAND, PH_DEPLOY, PH_REVEAL, PH_END, PH_END_OF_GAME,
 PH_OVER) = tuple(Phase)


OFF_BOARD = -1  # CardInst.bf of a card that is not on the board


class CardInst:
    """One physical card. ``bf`` is the 0-based battlefield while on the board, else OFF_BOARD."""

    __slots__ = (
        "uid", "owner", "cdef", "loc", "face_up", "might", "tokens", "bf", "under",
        "gained_round", "used_round", "leaving",
    )

    def __init__(self, uid: int, owner: int, cdef: CardDef) -> None:
        self.uid = uid
        self.owner = owner  # 1-based player number
        self.cdef = cdef
        self.loc = AT_DECK
        self.face_up = False
        self.might = 0
        self.tokens: dict[str, int] = {}
        self.bf = OFF_BOARD
        self.under: list[CardInst] = []
        self.gained_round = 0  # last round it gained might from an ability
        self.used_round = 0  # last round its command ability or affixed move token was used
        self.leaving = False  # being destroyed: no longer a legal target

    @property
    def name(self) -> str:
        return self.cdef.name

    def copy(self) -> CardInst:
        """This card as it is now, for a copy of its game (``Game.clone``), which rebinds ``under``."""
        c = CardInst(self.uid, self.owner, self.cdef)
        c.loc = self.loc
        c.face_up = self.face_up
        c.might = self.might
        if self.tokens:
            c.tokens = dict(self.tokens)
        c.bf = self.bf
        c.gained_round = self.gained_round
        c.used_round = self.used_round
        c.leaving = self.leaving
        return c

    def has(self, token: str) -> bool:
        return self.tokens.get(token, 0) > 0

    def __repr__(self) -> str:
        return f"<{self.cdef.name} P{self.owner}#{self.uid}>"


class Deck:
    """What the engine knows of a face-down game deck.

    ``top`` is a known order drawn from first (a seeded shuffle fills it); ``unknown`` is a set of
    cards in an order nobody knows (a recorded shuffle); ``bottom`` is the known order of cards put
    on the bottom since the last shuffle. Drawing takes top, then unknown (a chance decision), then
    bottom — which is how "cards put on the bottom come back last, in order" is enforced.
    """

    __slots__ = ("top", "unknown", "bottom")

    def __init__(self) -> None:
        self.top: list[CardInst] = []
        self.unknown: list[CardInst] = []
        self.bottom: list[CardInst] = []

    def __len__(self) -> int:
        return len(self.top) + len(self.unknown) + len(self.bottom)

    def cards(self) -> list[CardInst]:
        return self.top + self.unknown + self.bottom

    def remove(self, card: CardInst) -> None:
        for part in (self.top, self.unknown, self.bottom):
            if card in part:
                part.remove(card)
                return

    def gather(self) -> list[CardInst]:
        """Every card, emptied out (for a shuffle)."""
        allc = self.top + self.unknown + self.bottom
        self.top, self.unknown, self.bottom = [], [], []
        return allc


class PlayerState:
    __slots__ = (
        "num", "deck_name", "hand", "deck", "discard", "destroyed", "banished", "essence",
        "spent", "next_adjust", "deploy_order", "stops", "first_deploy_done", "cards",
    )

    def __init__(self, num: int, deck_name: str, n_bf: int) -> None:
        self.num = num
        self.deck_name = deck_name
        self.hand: list[CardInst] = []
        self.deck = Deck()
        self.discard: list[CardInst] = []
        self.destroyed: list[CardInst] = []
        self.banished: list[CardInst] = []
        self.essence = 0  # available this round (what is left to spend)
        self.spent = 0
        self.next_adjust = 0  # essence added/subtracted next round
        self.deploy_order: list[CardInst] = []  # this round, in deploy order
        self.stops = [0] * n_bf  # stop tokens lying on this player's side of each battlefield
        self.first_deploy_done: set[int] = set()  # battlefields this player has deployed to
        self.cards: list[CardInst] = []  # every card this player owns, in deck-list order

    def in_hand(self, name: str) -> CardInst | None:
        for c in self.hand:
            if c.cdef.name == name:
                return c
        return None


class Ctx:
    """What one resolving effect knows: whose it is, its source card and battlefield, and the
    values it has bound while resolving (the chosen target, the card that triggered it, a count)."""

    __slots__ = ("player", "source", "bf", "subject", "target", "count", "from_bf")

    def __init__(self, player: int, source: CardInst | None, bf: int | None,
                 subject: CardInst | None = None, from_bf: bool = False) -> None:
        self.player = player
        self.source = source
        self.bf = bf
        self.subject = subject
        self.target: CardInst | None = None
        self.count = 0
        self.from_bf = from_bf  # a battlefield effect: may exceed maximum might
