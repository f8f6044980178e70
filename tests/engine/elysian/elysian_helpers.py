"""Elysian Battlefields positions for the rule tests: a recorded game built from lines, a fixed
2-player opening written once, pieces placed by hand on its field, a turn started at a chosen step,
and lines answered or refused through the game's own check (the path a log's lines take).

The opening's field (axial hexes ``q,r``; terrain: p plains, f forest, m mountain, w water)::

    r=-2                        3b:p
    r=-1          4b:w  4c:f  3a:m  3c:m
    r= 0       4a:p  5a:p  5b:p  13b:m
    r= 1          1a:p  5c:m  13a:p 13c:p
    r= 2       1c:f  1b:p  12a:f 12b:p
    r= 3                   12c:p

P1 (Tiberon) holds outposts in 4a (infantry, archer, hero) and 1b (cavalry); P2 (Seren) in 13c
(infantry, hero, walls) and 3b (archer). Each holds three cards drawn unseen.
"""

from __future__ import annotations

from collections import Counter

from line_checks import LineChecks

from engine.elysian.board import Field, read_hex
from engine.elysian.game import State
from engine.elysian.lines import format_line, parse_line
from engine.elysian.parts import Site, Turn, Unit
from engine.elysian.pieces import SETTLEMENT_SUPPLY, STANDARD, TEMPLES_SUPPLY, UNITS_EACH, WALLS_SUPPLY
from engine.elysian.rules import RULES
from engine.log import parse_log

OPENING = (
    "C rolls P1 5", "C rolls P2 3",
    "P2 hero seren", "P1 hero tiberon",
    "C tile P1 5", "C tile P1 4", "C tile P1 1", "C tile P2 3", "C tile P2 13", "C tile P2 12",
    "P1 lays 5 at 0,0 1,0 0,1", "P2 lays 3 at 1,-1 2,-2 2,-1", "P1 lays 4 at -1,0 -1,-1 0,-1",
    "P2 lays 13 at 1,1 2,0 2,1", "P1 lays 1 at -1,1 -1,2 -2,2", "P2 lays 12 at 0,2 1,2 0,3",
    "P1 draws conquest", "P1 draws rule", "P1 draws reign",
    "P2 draws conquest", "P2 draws conquest", "P2 draws reign",
    "P1 outpost 4a", "P2 outpost 13c", "P1 outpost 1b", "P2 outpost 3b",
    "P1 arms 4a infantry", "P1 arms 4a archer", "P1 arms 1b cavalry", "P1 arms 4a hero",
    "P2 arms 13c infantry", "P2 arms 3b archer", "P2 arms 13c walls", "P2 arms 13c hero",
)


HEROES = ("tiberon", "seren", "aldric", "brannoc", "ysolde")  # P1's, P2's …
HOMES = ("4a", "13c", "3b", "12c", "1c")  # where board() puts each player's outpost
FIELD = tuple(f"{w[2]}@{' '.join(w[4:])}" for w in (line.split() for line in OPENING) if w[1] == "lays")


def log(decisions=(), *, players: int = 2, seed: int | None = None, result: dict | None = None) -> dict:
    chance = {"type": "recorded"} if seed is None else {"type": "seeded", "algorithm": "splitmix64-v1", "seed": seed}
    out = {"format": "empyrean-log", "version": 1, "game": "elysian", "catalog": "1", "setup": {"players": players},
           "chance": chance, "decisions": list(decisions)}
    return {**out, "result": result} if result is not None else out


def game(decisions=(), **kw) -> State:
    """A game made from a log (``log(**kw)``), its ``decisions`` each checked and answered."""
    g = RULES.new_game(parse_log(log(**kw)))
    play(g, *decisions)
    return g


play, refused, legal = (lambda c: (c.play, c.refused, c.legal))(LineChecks(parse_line, format_line))


def opening() -> State:
    """The fixed opening played: P1's first turn begins (P1 placing the unit its outpost in 4a makes)."""
    return game(OPENING)


def clear(g: State) -> State:
    """The opening's field with nothing on it: no units, settlements or structures, empty hands,
    full supplies, nothing pending."""
    g.units, g.sites = [], {}
    g.walls_left, g.temples_left = WALLS_SUPPLY, TEMPLES_SUPPLY
    for p in g.players:
        p.hand, p.items, p.upgrades, p.conquest = [], [], [], 0
        p.supply = Counter({u: UNITS_EACH for u in STANDARD}) + Counter(SETTLEMENT_SUPPLY)
    g.todo, g.pending, g._legal = [], None, None
    return g


def seated(players: int) -> list[str]:
    """The set-up's first lines for ``players``: P1 rolls highest (turns go P1, P2 …), heroes from HEROES
    (the last hero left is the engine's to take, so with five players P1's is not written)."""
    heroes = [f"P{s} hero {HEROES[s - 1]}" for s in range(players, 0, -1)]
    return ([f"C rolls P{s} {6 if s == 1 else 1}" for s in range(1, players + 1)]
            + heroes[:len(HEROES) - 1])


def board(players: int = 2) -> State:
    """The opening's field with nothing on it but an outpost each, in HOMES (P1's in 4a, P2's in 13c,
    P3's in 3b …); two players: the opening's game, more: ``seated(players)`` on the opening's field."""
    g = clear(opening() if players == 2 else field(game(seated(players), players=players), *FIELD))
    for seat, where in zip(range(1, players + 1), HOMES):
        site(g, where, "outpost", seat)
    return g


def field(g: State, *tiles: str) -> State:
    """A field of its own instead of the opening's: ``"5@0,0 1,0 0,1"`` lays tile 5 on those hexes."""
    g.land = Field()
    for spec in tiles:
        tile, hexes = spec.split("@")
        g.land.lay(tile, g.cat.tiles[tile].terrains, tuple(read_hex(h) for h in hexes.split()))
    return g


def put(g: State, seat: int, kind: str, where: str, n: int = 1) -> None:
    """``n`` units of ``kind`` (infantry, archer, cavalry or hero) of ``seat`` placed in ``where``."""
    for _ in range(n):
        if kind != "hero":
            g.player(seat).supply[kind] -= 1
        g.units.append(Unit(kind, seat, where))
    g.lasting_changed()  # a hero come to the field brings its ability (the game's own placing says so itself)


def site(g: State, where: str, settlement: str | None = None, holder: int | None = None, *,
         walls: bool = False, temple: bool = False) -> Site:
    """Put in ``where`` by hand: a settlement held by ``holder`` (None: vacant), walls, a temple (beside
    what stands there)."""
    s = g.sites.setdefault(where, Site())
    if settlement is not None:
        s.settlement, s.holder = settlement, holder
        if holder is not None:
            g.player(holder).supply[settlement] -= 1
    g.walls_left -= walls and not s.walls
    g.temples_left -= temple and not s.temple
    s.walls, s.temple = s.walls or walls, s.temple or temple
    return s


def hand(g: State, seat: int, *cards: str) -> None:
    """``seat``'s hand set by hand: each card named (``"war-drums"``) or unseen (``"?conquest"``)."""
    g.player(seat).hand = [(c[1:], None) if c.startswith("?") else (g.cat.cards[c].deck, c) for c in cards]


def start(g: State, seat: int, at: str = "turn") -> State:
    """``seat``'s turn from its beginning (``"turn"``: the victory checks and production), or from its
    play or move step (``"play"``, ``"move"``), the rest of the turn queued."""
    g.current, g.pending, g._legal, g.over = seat, None, None, False
    g.round = max(g.round, 1)
    if at == "turn":
        g.todo = [("turn", seat, False)]
    else:
        g.turn, g.phase = Turn(), at
        g.todo = ([("play", seat)] if at == "play" else []) + [("move", seat), ("end turn", seat)]
    g._run()
    return g
