"""Why a line is not allowed where it is written, in the words of the game (docs/elysian-rules.md
names each rule). ``refusal`` gives the specific reason it knows, or None for the caller's general one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cards, fight, hands
from .board import clockwise, hex_name, is_triangle, read_hex
from .lines import Kind, Line, format_line
from .pieces import ARMING_OBJECTS, SET_SIZE, SETTLEMENT_SUPPLY, STANDARD, TILES_EACH, UNITS_EACH, WALLS_SUPPLY

if TYPE_CHECKING:
    from .game import State
    from .parts import Point


def refusal(g: State, d: Line, p: Point) -> str | None:
    verb = d.verb
    if verb == "dice" and p.kind is not Kind.DICE:
        last = g.last_attack
        if last is not None and last.ended == "repelled":
            return (f"the attack on {last.target} was repelled: a set of {SET_SIZE} blocks (1s and 2s) ends an "
                    f"attack at once (rule 9.3), so no more dice are rolled")
        if last is not None and last.ended in ("defeated", "ravaged"):
            return f"the attack on {last.target} is over: every defender there was defeated (rule 9.4)"
        if last is not None and last.ended == "spent":
            return f"the attack on {last.target} is over: it rolled as many dice as its attack power (rule 9.2)"
        return f"no attack is being rolled now: it is {p.prompt}"
    if verb == "dice" and g.attack is not None and g.attack.dice_left is not None:
        size = min(SET_SIZE, g.attack.dice_left)
        if len(d.args) != size:
            return (f"this set has {size} dice: the attack has {g.attack.dice_left} dice left to roll, in sets "
                    f"of {SET_SIZE} (rule 9.2)")
    if d.actor != p.player:
        why = _IN_TURN_ORDER.get(p.kind) if verb in p.kind.verbs else None
        return f"it is {p.prompt}, not P{d.actor}'s decision ('{format_line(d)}')" + (f": {why}" if why else "")
    if verb == "builds" and p.kind is not Kind.BUILD:
        return "walls, temples and outposts are built only when a card played says so (C7)"
    if verb in p.kind.verbs and verb in _SETUP_AND_TURN:
        return _SETUP_AND_TURN[verb](g, d, g.todo[0])
    if verb == "attacks":
        return fight.attack_problem(g, d)
    if verb in ("plays", "trades", "discards", "reacts"):
        return _card_problem(g, d)
    if verb == "moves":
        return _move_problem(g, d)
    return None


def _card_problem(g: State, d: Line) -> str | None:
    key = d.args[0]
    card = g.cat.cards.get(key)
    if card is None:
        return f"there is no card {key!r} in the catalog"
    if d.verb == "plays" and card.kind == "effect":
        return (f"{card.name} is an Effect card: it is played only when its event happens, never as the turn's card "
                "(rule 7.3)")
    if d.verb == "reacts" and card.kind != "effect":
        return f"{card.name} is not an Effect card: only those answer an attack (rule 7.3)"
    if d.verb == "plays" and card.kind == "item" and g.hero_unit(d.actor) is None:
        return f"{card.name} is a heroic item: P{d.actor}'s hero is not on the field to carry it (rule 15)"
    hand = g.player(d.actor).hand
    if key not in hands.possible(g.cat, g.shown, hand, None):
        if not any(dk == card.deck for dk, _ in hand):
            return f"P{d.actor} holds no card from the {card.deck} deck"
        return (f"P{d.actor} cannot hold {card.name}: all {g.cat.decks[card.deck][key]} of its copies are "
                f"already seen elsewhere (C12)")
    if d.verb in ("plays", "trades") and g.turn.plays <= 0:
        return "one card a turn is played or traded, unless a card played gives more (rule 7.1)"
    return None


def move_step_problem(g: State, d: Line) -> str | None:
    """Why a line of the move step (a move, an attack, done, leaving) is not allowed (None: it is)."""
    if d.verb == "moves":
        return _move_problem(g, d)
    if d.verb == "attacks":
        return fight.attack_problem(g, d)
    if d.verb == "leaves":
        return _leave_problem(g, d, ())
    return None


def _move_problem(g: State, d: Line) -> str | None:
    kind, src, dest = d.args
    if g.turn.attacked:
        return "units move before the attack, not after it (C20)"
    mine = [u for u in g.units_at(src, d.actor) if u.kind == kind]
    if not mine:
        return f"P{d.actor} has no {kind} in {src}"
    if kind != "hero" and g.turn.moves <= 0:
        return "two standard units move each turn (and the hero), unless a card played says more (rule 8.2)"
    if kind == "hero" and g.turn.hero_moved:
        return "the hero moves once a turn (rule 8.1)"
    if all(u.moved for u in mine):
        return f"every {kind} of P{d.actor}'s in {src} has moved this turn: a unit moves once a turn (rule 8.3)"
    if dest not in g.land.territories:
        return f"there is no territory {dest} on the field"
    if dest not in cards.reach(g, mine[0]):
        return (f"the {kind} cannot reach {dest}: a unit moves at most its Move in territories, never into or "
                f"through water or a territory held by another player (rules 8.3, 8.4)")
    return None


# ---------------------------------------------------------------------- set-up and the turn's other points
_IN_TURN_ORDER = {
    Kind.HERO: "heroes are chosen in reverse turn order, the last player first (rule 2.2)",
    Kind.LAY: "land tiles are laid one at a time, in turn order (rule 2.4)",
    Kind.OUTPOST: "outposts are placed one at a time, in turn order (rule 2.6)",
    Kind.ARM: "the outposts are armed in turn order, each player placing all four objects (rule 2.7)",
}


def _roll_problem(g: State, d: Line, step: tuple) -> str | None:
    if d.args[0] != f"P{step[1]}":
        return (f"it is P{step[1]}'s turn-order roll: each player rolls one die, and when the highest rolls tie "
                "only those players roll again (rule 2.1, C4)")
    return None


def _tile_problem(g: State, d: Line, step: tuple) -> str | None:
    tile = d.args[1]
    if d.args[0] != f"P{step[1]}":
        return f"it is the land tile P{step[1]} draws: each player draws {TILES_EACH} tiles, in turn order (rule 2.3)"
    if tile not in g.cat.tiles:
        return f"there is no land tile {tile}; the tiles are 1 to {len(g.cat.tiles)}"
    if tile not in g.tiles_left:
        return f"tile {tile} was drawn already: each tile is drawn once (rule 2.3)"
    return None


def _hero_problem(g: State, d: Line, step: tuple) -> str | None:
    key = d.args[0]
    if key not in g.cat.heroes:
        return f"there is no hero {key!r}; the heroes are {', '.join(g.cat.heroes)}"
    taken = next((q.seat for q in g.players if q.hero == key), None)
    if taken is not None:
        return f"{g.cat.heroes[key].name} is P{taken}'s hero already: each player has a hero of their own (rule 2.2)"
    return None


def _lay_problem(g: State, d: Line, step: tuple) -> str | None:
    seat, tile, land = d.actor, d.args[0], g.land
    hexes = tuple(read_hex(w) for w in d.args[2:])
    held = g.player(seat).tiles
    if tile not in held:
        return f"P{seat} holds {_tiles(held)}, not tile {tile}"
    if not is_triangle(*hexes):  # type: ignore[arg-type]
        return "a tile's three hexes touch one another in a triangle (C1)"
    covered = [h for h in hexes if h in land.at]
    if covered:
        return f"hex {hex_name(covered[0])} is covered already, by territory {land.at[covered[0]]}"  # type: ignore[arg-type]
    if not clockwise(*hexes):  # type: ignore[arg-type]
        return ("a tile's hexes are written clockwise, for its territories a, b and c in that order: a tile is never "
                "turned over (C1)")
    laid, touched = len(land.tiles), len(land.tiles_touched(hexes))  # type: ignore[arg-type]
    if laid == 0 and (0, 0) not in hexes:
        return "the first tile covers hex 0,0 (C1)"
    if 0 < laid and touched < min(laid, 2):
        return (f"{'the second tile touches the first' if laid == 1 else 'each tile after the second touches two laid'}"
                f" before it; this one touches {touched} (rule 2.4, C2)")
    return None


def _tiles(held: list[str]) -> str:
    if not held:
        return "no tile"
    return "tile " + held[0] if len(held) == 1 else "tiles " + ", ".join(held[:-1]) + " and " + held[-1]


def _site_problem(g: State, seat: int, t: str, what: str) -> str | None:
    """Why ``what`` (outpost, walls, temple or a unit) cannot be put in ``t``: the territory, the one of
    each a territory holds, and the supply."""
    if t not in g.land.territories:
        return f"there is no territory {t} on the field"
    site = g.sites.get(t)
    if what in ("outpost", "walls", "temple") and g.land.territories[t].terrain == "water":
        return f"{t} is water: nothing is built in water (rule 3.4)"
    if what == "outpost" and site is not None and site.settlement:
        return f"{t} holds a {site.settlement} already: one settlement a territory (rule 4.4)"
    if what == "walls" and site is not None and site.walls:
        return f"{t} has walls already: one wall a territory (rule 4.4)"
    if what == "temple" and site is not None and site.temple:
        return f"{t} has a temple already: one temple a territory (C7)"
    if what == "walls" and g.walls_left <= 0:
        return f"all {WALLS_SUPPLY} walls are on the field (C6)"
    if what == "temple" and g.temples_left <= 0:
        return "both temples are on the field (C6)"
    supply = g.player(seat).supply
    if what in SETTLEMENT_SUPPLY and supply[what] <= 0:
        return f"P{seat} has no {what} left: a player has {SETTLEMENT_SUPPLY[what]} (C6)"
    if what in STANDARD and supply[what] <= 0:
        return f"P{seat}'s {UNITS_EACH} {what} units are all on the field (C6)"
    return None


def _outpost_problem(g: State, d: Line, step: tuple) -> str | None:
    t = d.args[0]
    if why := _site_problem(g, d.actor, t, "outpost"):
        return why
    if g.holder(t) is not None:
        return f"{t} is occupied: outposts go into unoccupied territories (rule 2.6)"
    return None


def _arm_problem(g: State, d: Line, step: tuple) -> str | None:
    t, what, seat = d.args[0], d.args[1], d.actor
    if t not in g.settlements(seat):
        return f"{t} is not one of P{seat}'s outposts: the four objects go into one's own outposts (rule 2.7)"
    hero_placed = g.hero_unit(seat) is not None
    if what == "hero" and hero_placed:
        return f"P{seat}'s hero is on the field already"
    if what != "hero" and not hero_placed and step[2] == ARMING_OBJECTS - 1:
        return f"the hero is one of the four objects, and this is P{seat}'s last (C8)"
    return _site_problem(g, seat, t, what)


def _build_problem(g: State, d: Line, step: tuple) -> str | None:
    what, t, seat = d.args[0], d.args[1], d.actor
    if what != step[2]:
        return f"the card builds {step[2]}, not {what}"
    if why := _site_problem(g, seat, t, what):
        return why
    if t not in g.held(seat):
        return f"{t} is not a territory P{seat}'s forces occupy: a card builds only there (C7)"
    return None


def _upgrade_problem(g: State, d: Line, step: tuple) -> str | None:
    t, seat = d.args[0], d.actor
    site = g.sites.get(t)
    if site is None or not site.settlement or site.holder != seat:
        return f"{t} holds no settlement of P{seat}'s"
    if site.settlement != "outpost":
        return f"{t} holds a {site.settlement}: the card turns an outpost into a {step[2]} (C24)"
    return _site_problem(g, seat, t, step[2])


def _deploy_problem(g: State, d: Line, step: tuple) -> str | None:
    _, seat, allowed, where, why = step
    kind, t = d.args
    if kind not in allowed:
        return f"this unit ({why}) is {' or '.join(allowed)}, not {kind}"
    if why := _site_problem(g, seat, t, kind):
        return why
    if (kind, t) in cards.deploy_options(g, seat, allowed, where):
        return None
    if isinstance(where, tuple):
        return f"a unit a settlement makes goes into its territory, {' or '.join(where)} (rule 6.2)"
    return f"this unit ({why}) goes into {_WHERE_WORDS[where]}, not {t}"


_WHERE_WORDS = {"settlement": "a territory holding one of your settlements",
                "forces": "a territory your forces occupy",
                "home": "a territory holding one of your settlements, or with none, any territory your forces occupy "
                        "(rules 6.1, 7.2)"}


def _strike_problem(g: State, d: Line, step: tuple) -> str | None:
    kind, t = d.args
    if not any(u.kind == kind and u.player != d.actor for u in g.units_at(t)):
        return f"there is no enemy {kind} in {t}"
    return f"{t} is not next to a territory P{d.actor}'s forces occupy: a strike reaches only there (C28)"


def _leave_problem(g: State, d: Line, step: tuple) -> str | None:
    if len(g.active()) <= 2:
        return f"with two players left a player concedes ('P{d.actor} concede') rather than leaves (C17)"
    return None


def _draw_problem(g: State, d: Line, step: tuple) -> str | None:
    deck = d.args[0]
    if not g.decks[deck].can_draw():
        return f"the {deck} deck and its discard pile are empty: a card is drawn from another deck (C11)"
    return None


def _invade_problem(g: State, d: Line, step: tuple) -> str | None:
    came = fight.invaders(g)
    wrong = [t for t in d.args[1:] if t not in came]
    if wrong:
        return (f"no attacker of {g.attack.target}'s stands in {wrong[0]}: the invaders are attacking units, from "
                f"{', '.join(came)} (rule 9.5)")
    return None


_SETUP_AND_TURN = {"rolls": _roll_problem, "tile": _tile_problem, "hero": _hero_problem, "lays": _lay_problem,
                   "outpost": _outpost_problem, "arms": _arm_problem, "builds": _build_problem,
                   "upgrades": _upgrade_problem, "deploys": _deploy_problem, "strikes": _strike_problem,
                   "leaves": _leave_problem, "draws": _draw_problem, "invades": _invade_problem}
