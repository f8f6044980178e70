"""Spells & Steam's content as values: what ``catalog.py`` loads from a catalog version's YAML files
and the engine plays. Every card-like thing (spellcar, captain, specialist) does what its
``effects`` say, in the effect vocabulary whose ops the engine implements (``effects.py``, listed in
``OPS``); awards are scored by their ``metric`` (``scoring.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The effect vocabulary: op -> what it does, in words (the catalog schema repeats these descriptions)
OPS = {
    "build": "build track on one of `terrains` (a hex chosen by the player), `where` the build may go, "
             "`free` transfers free for it, then `good` placed from the supply on that hex; `n` times, each optional",
    "build-each": "build track once on each of `terrains`, in the order the player chooses (`different`: "
                  "the hexes' terrains must differ)",
    "build-same": "choose a terrain (not wasteland) and build track on up to `n` hexes of it",
    "build-around": "choose a hex in the network; build track on every adjacent hex that can take a car",
    "wasteland": "place a wasteland tile in or next to the network (`build`: then build track on it; `keep`: "
                 "the goods it destroys go to the folio; `free_through`: transfers over it are free this turn)",
    "gain-mana": "gain `n` mana (new crystals, up to the limit of ten)",
    "reclaim": "move `n` spent mana back to the folio (`n` 0: all of it)",
    "spellcar": "gain a spellcar from the market, `n` times (`activate`: then activate them, free but for "
                "their inherent costs)",
    "specialist": "gain a specialist of a kind the company lacks",
    "refresh": "refresh `what`: captain, engineer or both",
    "choose": "do one of `options` (each a list of effects)",
    "return-goods": "return `n` goods in the network to the supply, then do `then` (both parts or neither)",
    "pull-good": "move a good into a hex of the network: from an adjacent hex (`what` adjacent) or from any "
                 "hex without a competitor's car (`what` unclaimed)",
    "mirror-good": "add a good of the same colour as one on a hex of the network to that hex",
    "seed-good": "put the good of its terrain on a hex of the network that has none, `n` times",
    "transmute": "replace a good in the network with a good of any colour from the supply",
    "sweep-goods": "move every good on the hexes adjacent to a hex of the network into it",
    "remove-good": "return a good adjacent to the hex just built on to the supply",
    "deliver": "deliver goods of one colour from the network to a network-adjacent city: `n` at most "
               "(`demand`: the delivery may take a demand tile)",
    "move-car": "move one of the company's cars to an adjacent hex, `n` times",
    "switch-cars": "swap one of the company's cars with a competitor's car on an adjacent hex",
    "clear-cars": "remove every car on a hex of the network and the hexes around it",
    "car-bomb": "each competitor discards a spellcar of their choice",
    "copy-neighbour": "do what the spellcar to the left or right (same row) does, paying its costs",
    "copy-market": "do what a spellcar in the market does, paying its inherent cost",
    "rearrange": "swap two spellcars of the railyard, or move one to an empty slot",
    "copy-specialist": "do what another company's specialist of kind `what` does",
    "trade-specialist": "swap the captain, engineer or station master with another company's for good",
    "draw-station": "draw `n` station masters from the box, put one in play over this surveyor",
    "swap-demand": "swap two demand tiles between cities' stands, `n` times",
    "extra-turn": "take another turn after this one",
    "move-ladder": "this turn (or always, for a station master), moving the conductor 1-4 spaces costs `costs`",
    "free-activations": "this turn, activations beyond the first cost nothing (`inherent`: nor inherent "
                        "costs), then reclaim `n`",
    "no-inherent": "this turn, spellcars' inherent costs are not paid",
    "free-transfer": "this turn, one transfer of a kind in `terrains` is free",
    "refresh-free": "refresh captain and engineer; this turn, using them does not exhaust them",
    "transfer-cost": "(station master) transfers over `what` cost `n`",
    "demand-bonus": "(station master) at the End of the Line, a demand tile worth one more than the delivery "
                    "qualifies for may be taken",
    "activation-ladder": "(station master) activating 1-3 spellcars costs `costs`",
    "deliver-mana": "(station master) delivering at the End of the Line gains a mana",
    "on-administrate": "(station master) when administrating, may also do `then`",
    "activate-then-move": "(station master) the spellcars where the conductor stands may be activated "
                          "before it moves",
    "double-activation": "(station master) pay `n` to activate one spellcar twice; no other that turn",
    "no-demand-goods": "(station master) a delivery at the End of the Line that takes no demand tile adds "
                       "`n` goods of a connected city's colour to the folio",
}


@dataclass(frozen=True)
class Effect:
    op: str  # one of OPS
    n: int = 1
    terrains: tuple[str, ...] = ()  # desert … mountain, wasteland, any, home, competitor
    where: str = "adjacent"  # adjacent, global, edge, city, city-or-wasteland, beside-last
    free: tuple[str, ...] = ()  # transfer kinds free once for this build: city, competitor, wasteland
    good: str | None = None  # a colour, or "any"
    what: str | None = None
    costs: tuple[int, ...] = ()
    options: tuple[tuple[Effect, ...], ...] = ()
    then: tuple[Effect, ...] = ()
    different: bool = False
    build: bool = False
    keep: bool = False
    free_through: bool = False
    activate: bool = False
    inherent: bool = False
    demand: bool = False  # deliver: the delivery may take a demand tile


@dataclass(frozen=True)
class Spellcar:
    key: str
    name: str
    kind: str  # common, unique or company (printed on a folio, or a captain's)
    copies: int
    cost: int  # the inherent cost in mana
    text: str
    effects: tuple[Effect, ...]
    friendly: bool = True  # False: left out of a Friendly(ish) game


@dataclass(frozen=True)
class Specialist:
    key: str
    name: str
    kind: str  # captain, engineer, surveyor or station
    cost: int  # mana paid to use it
    text: str
    effects: tuple[Effect, ...]
    trigger: str = "use"  # use (flipped or once a turn), passive (a station master's standing rule)
    company: str | None = None  # a captain's company; None: a wild captain (or any other specialist)
    spellcar: str | None = None  # a captain's company spellcar
    friendly: bool = True


@dataclass(frozen=True)
class Company:
    key: str
    name: str
    colour: str  # the colour its train cars are drawn in
    home: str  # its home terrain
    captain: str  # the captain of the company
    columns: int  # spaces of the conductor path between Start and the End of the Line
    printed: tuple[tuple[int, int, str], ...]  # (column, row, spellcar key) printed on the folio (row 1 …)
    text: str = ""


@dataclass(frozen=True)
class Board:
    key: str  # A1 … C6
    side: str  # A, B or C
    rows: tuple[str, ...]  # terrain letters row by row (d f g l v m w, C a city)
    cities: dict[tuple[int, int], str] = field(default_factory=dict, hash=False)  # (col, row) -> colour


@dataclass(frozen=True)
class Award:
    key: str
    name: str
    text: str
    metric: str  # what scoring.py counts
    most: bool = True  # False: the fewest wins
    two_players: bool = True  # False: left out of a 2-player game


@dataclass(frozen=True)
class Catalog:
    version: str
    notice: str
    boards: dict[str, Board]
    layouts: dict[int, dict[str, tuple[tuple[str, int, int], ...]]]  # players -> map name -> placed boards
    companies: dict[str, Company]
    spellcars: dict[str, Spellcar]
    specialists: dict[str, Specialist]  # captains too
    awards: dict[str, Award]
    raw: Any = field(default=None, compare=False, hash=False)  # the files as read, for catalog_data

    def of_kind(self, kind: str) -> list[Specialist]:
        return [s for s in self.specialists.values() if s.kind == kind]
