"""Set-up helpers for the rule tests (tests/engine/test_rules.py).

Games are built through the public Game constructor and driven with real decisions; the helpers
only save typing:

* ``card`` / ``battlefield`` / ``plain`` make tiny test-only CardDefs and BattlefieldDefs from
  inline data through the real compilers (so they exercise the effect language too);
* ``hands_game`` starts a recorded-chance game whose decks are exactly the opening hands, so
  the setup draws are answered here and no draft ever happens (the decks are empty);
* ``game`` starts a game with any decks; ``deal`` answers pending chance draws from a script;
* ``play`` applies decision lines; ``advance`` answers with defaults (scripted draws, otherwise
  ``pass`` / ``no`` / the first legal answer) until a condition holds;
* ``place_revealed`` puts one of a player's cards face up on the board, as if it had been
  deployed and revealed earlier, for board positions a rule test needs as its starting point;
* ``Recorder`` is an observer that writes down events with a snapshot of what the test asks for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import yaml

import engine.bfe.catalog as _catalog_mod
from engine.bfe import board
from engine.bfe.catalog import BattlefieldDef, CardDef, Catalog, compile_battlefield, compile_card, load_deck_file
from engine.bfe.decisions import CHANCE, Decision, Kind, Pos, parse_decision
from engine.bfe.game import Game
from engine.bfe.observe import GameObserver
from engine.bfe.state import UNSEEN, CardInst, Loc, Phase

# Only the files the rule tests use are loaded (the Spectres deck, and battlefields on demand), so
# that other decks being written in parallel cannot break these tests.
_ROOT = Path(_catalog_mod.__file__).parent / "data" / "catalog" / "2026.1"
_deck, _entries = load_deck_file(_ROOT / "decks" / "spectres.yaml")
SPECTRES = tuple(c for c, copies in _entries for _ in range(copies))
CATALOG = Catalog("2026.1", "rule tests", "", {c.name: c for c, _ in _entries}, {_deck: SPECTRES}, {})


def catalog_battlefield(name: str) -> BattlefieldDef:
    """A battlefield of the shipped catalog, by name."""
    raw = yaml.safe_load((_ROOT / "battlefields.yaml").read_text(encoding="utf-8"))
    for i, bf in enumerate(raw["battlefields"]):
        if bf.get("name") == name:
            return compile_battlefield(bf, "battlefields.yaml", i)
    raise LookupError(name)


def spectre(name: str) -> CardDef:
    """A card of the shipped catalog, by name."""
    return CATALOG.cards[name]


def card(name: str, *, cost: int = 1, might: int = 1, ability: str | None = None,
         effects: list | None = None, type: str = "Test", max_might: int | None = None,
         tokens: list | None = None, text: str | None = None) -> CardDef:
    """A test-only card compiled from inline data (ability defaults to conditional when it has
    effects, none otherwise)."""
    raw = {"name": name, "type": type, "cost": cost, "might": might,
           "ability": ability or ("conditional" if effects else "none"),
           "text": text or f"test card {name}"}
    if effects:
        raw["effects"] = effects
    if max_might is not None:
        raw["max_might"] = max_might
    if tokens:
        raw["tokens"] = tokens
    cdef, _ = compile_card(raw, "Test deck", "test_rules", 0)
    return cdef


def battlefield(name: str, *, zones: int = 6, effects: list | None = None, rules: dict | None = None,
                text: Iterable[str] = ("first effect", "second effect")) -> BattlefieldDef:
    raw = {"name": name, "zones": zones, "text": list(text)}
    if effects:
        raw["effects"] = effects
    if rules:
        raw["rules"] = rules
    return compile_battlefield(raw, "test_rules", 0)


def plain(n: int, zones: int = 6) -> BattlefieldDef:
    """A battlefield with no effects at all (the catalog compiler insists on effects, so this one
    is built directly)."""
    return BattlefieldDef(f"Plain {n}", zones, ("no effect", "no effect"), {})


def filler(name: str = "Filler", cost: int = 1, might: int = 1) -> CardDef:
    return card(name, cost=cost, might=might)


def game(decks: list[list[CardDef]], bfs: list[BattlefieldDef] | None = None, *, first_player: int = 1,
         seed: int | None = None, observers: list | None = None) -> Game:
    """A game in recorded chance (or seeded, with ``seed``); default battlefields are plain."""
    n = len(decks)
    if bfs is None:
        bfs = [plain(i + 1) for i in range(3 if n == 2 else 4)]
    return Game(CATALOG, [list(d) for d in decks], bfs, seed=seed,
                first_player=None if seed is not None else first_player, observers=observers)


def deal(g: Game, draws: dict[int, list[str]]) -> None:
    """Answer pending chance draws from ``draws`` (player -> card names, consumed in order) until
    the pending decision is no longer a draw the script covers."""
    while g.pending is not None and g.pending.player == CHANCE and g.pending.kind == Kind.CHANCE_DRAW:
        d = next(iter(g.legal_decisions()))
        script = draws.get(d.player)
        if not script:
            return
        g.apply(Decision(CHANCE, "draw", card=script.pop(0), player=d.player))


def hands_game(hands: list[list[CardDef]], bfs: list[BattlefieldDef] | None = None, *,
               first_player: int = 1, observers: list | None = None) -> Game:
    """Each player's deck is exactly the given cards, all drawn into the opening hand in the given
    order (so no draft ever happens: the decks are empty)."""
    g = game(hands, bfs, first_player=first_player, observers=observers)
    deal(g, {i + 1: [c.name for c in h] for i, h in enumerate(hands)})
    assert not (g.pending and g.pending.player == CHANCE), "opening hands were not all dealt"
    return g


def play(g: Game, *lines: str) -> None:
    for line in lines:
        g.apply(parse_decision(line))


def default_answer(g: Game, draws: dict[int, list[str]] | None = None) -> Decision:
    opts = list(g.legal_decisions())
    if g.pending.player == CHANCE and draws and g.pending.kind == Kind.CHANCE_DRAW:
        script = draws.get(opts[0].player)
        if script:
            return Decision(CHANCE, "draw", card=script.pop(0), player=opts[0].player)
    for verb in ("pass", "no"):
        for d in opts:
            if d.verb == verb:
                return d
    return opts[0]


def advance(g: Game, until: Callable[[Game], bool] | None = None, *,
            draws: dict[int, list[str]] | None = None, limit: int = 5000) -> None:
    """Answer with defaults until ``until(g)`` holds (checked before each answer) or the game ends."""
    for _ in range(limit):
        if g.over or (until is not None and until(g)):
            return
        g.apply(default_answer(g, draws))
    raise AssertionError("advance() did not reach its condition")


def at_phase(rnd: int, phase: Phase, player: int | None = None) -> Callable[[Game], bool]:
    """A condition for ``advance``: a decision point of that round and phase (and player)."""
    def cond(g: Game) -> bool:
        return (g.round == rnd and g.phase == phase and g.pending is not None
                and (player is None or g.pending.player == player))
    return cond


def to_deploy(g: Game, rnd: int, player: int | None = None) -> None:
    advance(g, at_phase(rnd, Phase.DEPLOY, player))


def finish(g: Game) -> None:
    advance(g)
    assert g.over


def find(g: Game, player: int, name: str, loc: Loc | None = None) -> CardInst:
    """The first card of that name the player owns (optionally only in that location)."""
    for c in g.players[player - 1].cards:
        if c.name == name and (loc is None or c.loc == loc):
            return c
    raise LookupError(f"P{player} has no {name}" + (f" in {loc.name}" if loc else ""))


def place_revealed(g: Game, player: int, what: str | CardDef, bf: int, *, might: int | None = None,
                   tokens: dict | None = None) -> CardInst:
    """Put a card of the player face up in the lowest open zone of battlefield ``bf`` (1-based)
    with its reveal might (or ``might``) and ``tokens``, as if deployed and revealed in an earlier
    round; no ability resolves. ``what`` is a name (the card is taken from the hand, then the deck)
    or a CardDef (a new card of that player is made when none is in hand or deck)."""
    ps = g.players[player - 1]
    name = what if isinstance(what, str) else what.name
    c = next((c for c in ps.hand if c.name == name), None)
    if c is not None:
        ps.hand.remove(c)
    else:
        c = next((c for c in ps.deck.cards() if c.name == name), None)
        known = g.hidden[player - 1]
        if c is None and known is not None and name in known.counts:  # an unseen card shows itself
            c = known.identify([c for c in ps.deck.cards() if c.cdef is UNSEEN], name)
        if c is not None:
            ps.deck.remove(c)
        elif isinstance(what, str):
            raise LookupError(f"P{player} has no {name} in hand or deck")
        else:
            c = CardInst(player * 100 + len(ps.cards), player, what)
            ps.cards.append(c)
    assert board._place(g, c, bf - 1), f"battlefield {bf} is full"
    c.face_up = True
    c.might = c.cdef.might if might is None else might
    c.tokens = dict(tokens or {})
    board.activate(g, c)
    return c


def side(g: Game, player: int, bf: int) -> list[str]:
    """Names on a player's side of battlefield ``bf`` (1-based), zone 1 first."""
    return [c.name for c in g.board[bf - 1][player - 1]]


def pos(g: Game, c: CardInst) -> str:
    p = g.position(c)
    return str(p) if p else c.loc.name


def options(g: Game) -> list[str]:
    return [str(d) for d in g.legal_decisions()]


class Recorder(GameObserver):
    """Observer that keeps (event, details...) tuples, an event named as its GameObserver method
    without ``on_``; ``snap`` adds a snapshot per event."""

    def __init__(self, events: Iterable[str] | None = None,
                 snap: Callable[[Game], object] | None = None) -> None:
        self.events = set(events) if events else None
        self.snap = snap
        self.log: list[tuple] = []

    def note(self, event: str, g: Game, *args) -> None:
        if self.events is not None and event not in self.events:
            return
        row = (event,) + tuple(a.name if isinstance(a, CardInst) else a for a in args)
        if self.snap is not None:
            row = row + (self.snap(g),)
        self.log.append(row)

    def of(self, event: str) -> list[tuple]:
        return [r for r in self.log if r[0] == event]


def _noting(event: str) -> Callable[..., None]:
    def on_event(self: Recorder, g: Game, *args) -> None:
        self.note(event, g, *args)
    return on_event


for _method in dir(GameObserver):  # every event, noted under its name
    if _method.startswith("on_"):
        setattr(Recorder, _method, _noting(_method.removeprefix("on_")))


__all__ = [
    "CATALOG", "SPECTRES", "catalog_battlefield", "Pos", "Phase", "Loc", "Kind", "parse_decision",
    "spectre", "card",
    "battlefield", "plain", "filler", "game", "deal", "hands_game", "play", "default_answer",
    "advance", "at_phase", "to_deploy", "finish", "find", "place_revealed", "side", "pos", "options",
    "Recorder",
]
