"""Spells & Steam positions for the rule tests: a recorded game (no seed) built from lines, a fixed
2-player opening written once, pieces put on its map by hand, a turn started at a chosen step, and
lines answered or refused through the game's own check (the path a log's lines take).

Map A of two players (odd-r offset hexes: odd rows, counted from 1 as ``row 2, 4 …``, sit half a hex
to the right; a hex is named by its column letter and row, ``c4``; d desert, f forest, g glacier,
l lake, v lava, m mountain, w wasteland, C a city)::

         a b c d e f g h i j k l
     1   g g w v l l w d l v g m
     2    d C g f C m f l l g C v     cities: b2 silver, e2 crizma, k2 ehrlite,
     3   m f l m l f v C v g f d             h3 ritherwhyte, e8 heartwood, h8 hylatine
     4    d g d d m v d g f m d l
     5   g d f f v v f m m f g l
     6          d d v d g g
     7         l l f f v f
     8          m C d g C l
     9         g l v v f m
    10          v m m g w l

The opening (``OPENING``): P1 starts; the market holds the six ``MARKET`` spellcars; P2 takes Kerigan
Transcontinental (Rayleigh Kerigan), P1 Kings' Line (Runika Zenanen); P1's headquarters on e3 (lake,
next to the crizma city e2) and e4, P2's on j3 (glacier) and k3 (next to the ehrlite city k2).
"""

from __future__ import annotations

from line_checks import LineChecks

from engine.steam.bots import new_state
from engine.steam.catalog import load
from engine.steam.game import State
from engine.steam.lines import format_line, parse_line
from engine.steam.logformat import Setup
from engine.steam.parts import Bag, Turn

CAT = load()
MARKET = ("metro", "icecar", "mana-surger", "flow-controller", "meditation-mecha", "transformer")
DEAL = tuple(f"C market {k}" for k in MARKET)  # the market dealt, a line a spellcar
OPENING = ("C start P1", *DEAL, "P2 company kerigan rayleigh-kerigan",
           "P1 company kings-line runika-zenanen", "P1 hq e3 e4", "P2 hq j3 k3")


def new(players: int = 2, *, map_name: str = "A", variants: tuple = (), teams: tuple = (),
        seed: int | None = None) -> State:
    """A game set up as a log would say, nothing answered yet (``seed`` None: a recorded game)."""
    return new_state(CAT, Setup(players, map_name, tuple(variants), tuple(teams)), seed)


play, refused, legal = (lambda c: (c.play, c.refused, c.legal))(LineChecks(parse_line, format_line))


def opening(**kw) -> State:
    """The fixed 2-player opening played: P1's first turn waits for its main action."""
    return play(new(**kw), *OPENING)


def around(g: State, name: str) -> list[str]:
    return sorted(g.map.names[n] for n in g.map.around[h(g, name)])


def h(g: State, name: str) -> int:
    i = g.map.index(name)
    assert i is not None, name
    return i


def clear(g: State) -> State:
    """Nothing of the companies' on the map (their cars back in their supply); the goods stay."""
    for i, cars in enumerate(g.cars):
        for seat in list(cars):
            g.remove_car(seat, i)
    return g


def cars(g: State, seat: int, *names: str) -> None:
    """One car of ``seat`` put on each hex named (from its supply, counted as placed)."""
    for name in names:
        g.place_car(seat, h(g, name))


def goods(g: State, name: str, **colours: int) -> None:
    """The goods on a hex set by hand (``goods(g, "d4", crizma=2)``), the supply making up the difference."""
    i = h(g, name)
    for c, k in g.goods[i].items():
        g.supply[c] += k
    g.goods[i] = Bag({c: k for c, k in colours.items() if k})
    for c, k in colours.items():
        g.supply[c] -= k


def mana(g: State, seat: int, available: int, spent: int = 0) -> None:
    f = g.folio(seat)
    f.mana, f.spent = available, spent


def yard(g: State, seat: int, **slots: str) -> None:
    """Spellcars put in the railyard: ``yard(g, 1, s3_2="metro")`` puts Metro in column 3, row 2."""
    f = g.folio(seat)
    for slot, key in slots.items():
        col, row = (int(x) for x in slot[1:].split("_"))
        f.yard[(col, row)] = key


def hire(g: State, seat: int, key: str) -> None:
    """A specialist put on the folio by hand (a station master beyond the slot goes beside it)."""
    f = g.folio(seat)
    kind = g.cat.specialists[key].kind
    f.specialists[kind] = key
    g.taken.add(key)


def start(g: State, seat: int, *, conductor: int | None = None) -> State:
    """``seat``'s turn from its main action (specialists first), the rest of the game queued after it."""
    f = g.folio(seat)
    if conductor is not None:
        f.conductor = conductor
    g.current, g.turn, g.phase, g.pending, g._legal = seat, Turn(seat), "turns", None, None
    g.round = max(g.round, 1)
    g.todo = [("main", seat), ("end turn", seat)]
    g._run()
    return g


def do(g: State, seat: int, *texts: str, conductor: int | None = None) -> State:
    """``seat``'s turn started (``start``) and ``texts`` played in it."""
    return play(start(g, seat, conductor=conductor), *texts)


def effect(g: State, seat: int, key: str) -> State:
    """What the card ``key`` (a spellcar or specialist) does, run for ``seat`` outside any activation, in a
    turn of ``seat``'s (its main action still to come): the one begun, or a new one."""
    from engine.steam import effects
    card = g.cat.spellcars.get(key) or g.cat.specialists[key]
    if not (g.turn.seat == seat and g.todo and g.todo[0] == ("main", seat)):
        start(g, seat)  # else: in the turn already begun, keeping what it has been given (Wendy's free transfer …)
    g.pending, g._legal = None, None
    g.todo[:0] = effects.steps(g, seat, card.effects, {"source": key})
    g._run()
    return g
