"""Board-state helpers for the card and battlefield tests (test_cards.py, test_battlefields.py).

Games are real ``engine.bfe.game.Game`` objects in recorded-chance mode (no seed: every draw with more
than one possible card is a chance decision ``C draw P1 <card>``), driven with real decisions.
Direct state changes are used only to reach a position quickly, and each helper says when it does:

* ``new_game`` answers the setup draws (the opening hands can be chosen) and the round-1 draft,
  and stops at the first player's round-1 deploy decision; ``essence`` adds essence to round 1
  (direct: it sets each player's ``next_adjust`` before round 1 begins);
* ``give`` moves named cards from a player's deck straight into the hand (direct);
* ``set_essence`` sets what a player has left to spend this round (direct);
* ``play`` applies decision lines; ``settle`` answers chance draws and draft keeps with the first
  legal answer; ``to_deploy`` also passes command turns until a deploy decision is pending;
* ``finish_round`` passes and answers every remaining decision with a default until the next
  round's first deploy decision (or the end of the game);
* ``at`` / ``side`` / ``might`` read the board.

Only the three deck files the tests are about (and the battlefields) are loaded, so decks being
written in parallel cannot break these tests.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

import engine.bfe.catalog as _catalog_mod
from engine.bfe.catalog import Catalog, compile_battlefield, load_deck_file
from engine.bfe.decisions import CHANCE, Kind, Pos, parse_decision
from engine.bfe.game import Game
from engine.bfe.observe import GameObserver
from engine.bfe.state import UNSEEN, CardInst, Loc, Phase

# EMPYREAN_CARD_TEST_ROOT points the tests at a copy of the catalog (used to check that the tests
# fail when a card's data is broken, without touching the shipped files).
ROOT = Path(os.environ.get("EMPYREAN_CARD_TEST_ROOT")
            or Path(_catalog_mod.__file__).parent / "data" / "catalog" / "2026.1")
DECK_FILES = ("spectres.yaml", "cavalry.yaml", "vampires.yaml")
SPE = "Spectres of the Necropolis"
CAV = "Cavalry of the Parthian Empire"
VAM = "Vampires of the Evernight"
FOUNTAIN, RIVER, THRONE = "The Fountain of Janus", "River of Rebirth", "The Throne"


def raw_deck(file: str) -> dict:
    return yaml.safe_load((ROOT / "decks" / file).read_text(encoding="utf-8"))


def raw_battlefields() -> dict:
    return yaml.safe_load((ROOT / "battlefields.yaml").read_text(encoding="utf-8"))


def _add_decks(paths, cards: dict, decks: dict) -> None:
    """Load deck files into ``cards`` and ``decks`` (a card name may be used once)."""
    for path in paths:
        deck, entries = load_deck_file(path)
        decks[deck] = tuple(c for c, copies in entries for _ in range(copies))
        for c, _ in entries:
            assert c.name not in cards, f"duplicate card name {c.name}"
            cards[c.name] = c


def _load() -> Catalog:
    cards: dict = {}
    decks: dict = {}
    _add_decks([ROOT / "decks" / f for f in DECK_FILES], cards, decks)
    bfs = {}
    for i, raw in enumerate(raw_battlefields()["battlefields"]):
        bf = compile_battlefield(raw, "battlefields.yaml", i)
        bfs[bf.name] = bf
    return Catalog("2026.1", "card tests", "", cards, decks, bfs)


CATALOG = _load()
NEXT_ROOT = Path(_catalog_mod.__file__).parent / "data" / "catalog" / "2026.2"


def catalog_with(*deck_files: str) -> Catalog:
    """The card-test catalog plus the named deck files of catalog 2026.2's ``decks/`` (a test module
    loads only the decks it is about, so a deck being written elsewhere cannot break it)."""
    cards, decks = dict(CATALOG.cards), dict(CATALOG.decks)
    _add_decks([NEXT_ROOT / "decks" / f for f in deck_files], cards, decks)
    return Catalog("2026.2", "card tests", "", cards, decks, dict(CATALOG.battlefields))


# The default trio for card tests: battlefields whose effects stay out of the way (The Closing
# Walls: five zones, acts in rounds 7-8; Oasis of Plenty: only when a side fills up; The Sirens'
# Shore: +1 essence next round per deploy there, -1 might per card there at the end of the game).
QUIET = ("The Closing Walls", "Oasis of Plenty", "The Sirens' Shore")


def new_game(p1: str = CAV, p2: str = SPE, bfs=QUIET, *, first_player: int = 1,
             hands: dict[int, list[str]] | None = None, essence: int = 0,
             catalog: Catalog = CATALOG) -> Game:
    """A recorded-chance game stopped at the first player's round-1 deploy decision.

    ``hands[p]`` names (some of) player p's four opening cards; the rest are the first legal draw.
    ``essence`` is added to both players' round-1 essence (direct set-up). ``catalog`` is the
    card-test catalog unless given (e.g. ``catalog_with("samurai.yaml")``)."""
    g = Game(catalog, [list(catalog.decks[p1]), list(catalog.decks[p2])],
             [catalog.battlefields[b] for b in bfs], first_player=first_player)
    for ps in g.players:
        ps.next_adjust = essence
    hands = {p: list(v) for p, v in (hands or {}).items()}
    while g.pending is not None and g.pending.kind == Kind.CHANCE_DRAW and g.round == 0:
        p = next(g.legal_decisions()).player
        want = hands.get(p) or []
        if want:
            g.apply(parse_decision(f"C draw P{p} {want.pop(0)}"))
        else:
            g.apply(next(g.legal_decisions()))
    to_deploy(g)
    return g


def give(g: Game, p: int, *names: str) -> list[CardInst]:
    """Direct set-up: make sure player p holds the named cards (as many copies as named); the ones
    not already in the hand are taken out of the deck."""
    ps = g.players[p - 1]
    out: list[CardInst] = []
    for nm in names:
        held = next((c for c in ps.hand if c.name == nm and c not in out), None)
        if held is not None:
            out.append(held)
            continue
        card = next((c for c in ps.deck.cards() if c.name == nm), None)
        if card is None:  # recorded chance: the deck's cards are unseen until one shows itself as nm
            known = g.hidden[p - 1]
            card = known.identify([c for c in ps.deck.cards() if c.cdef is UNSEEN], nm) if known else None
        assert card is not None, f"no {nm} left in player {p}'s deck"
        ps.deck.remove(card)
        card.loc = Loc.HAND
        ps.hand.append(card)
        out.append(card)
    return out


def set_hand(g: Game, p: int, *names: str) -> list[CardInst]:
    """Direct set-up: player p's hand becomes exactly ``names`` (the old hand goes back into the
    unknown part of the deck)."""
    ps = g.players[p - 1]
    for c in list(ps.hand):
        ps.hand.remove(c)
        c.loc = Loc.DECK
        ps.deck.unknown.append(c)
    return give(g, p, *names)


def deck_could_hold(g: Game, p: int, name: str) -> bool:
    """Whether player p's deck may still hold a card of that name (recorded chance: its cards are
    unseen, so this asks what the engine knows of them)."""
    known = g.hidden[p - 1]
    cards = g.players[p - 1].deck.cards()
    return known.could_be(cards, name) if known is not None else any(c.name == name for c in cards)


def set_essence(g: Game, p: int, n: int) -> None:
    """Direct set-up: player p has n essence left to spend this round."""
    g.players[p - 1].essence = n


def deploy_round(g: Game, plan: dict[int, list[tuple[str, int]]], essence: dict[int, int] | None = None,
                 *, give_cards: bool = True) -> None:
    """The current deploy phase, in first-player order: each player deploys ``plan[p]`` (card name,
    battlefield number) in that order, then passes. The cards are first put in the hand (direct
    set-up) unless ``give_cards`` is false; ``essence[p]`` (default 30) is set as what player p has
    to spend this round (direct set-up). Stops where the reveals stop for a decision."""
    essence = essence or {}
    for p in (1, 2):
        set_essence(g, p, essence.get(p, 30))
        if give_cards:
            give(g, p, *[name for name, _ in plan.get(p, [])])
    for p in list(g.order):
        cards = plan.get(p, [])
        if g.pending is None or g.pending.kind != Kind.DEPLOY or g.pending.player != p:
            assert not cards, f"player {p} was not asked to deploy: {g.pending}"
            continue
        for name, b in cards:
            play(g, f"P{p} deploy {name} to B{b}")
        if g.pending is not None and g.pending.kind == Kind.DEPLOY and g.pending.player == p:
            play(g, f"P{p} pass")  # (with no essence left the pass is forced and never asked)


def play(g: Game, *lines: str) -> None:
    for line in lines:
        g.apply(parse_decision(line))


def settle(g: Game) -> None:
    """Answer pending chance draws and draft keeps with their first legal answer."""
    while g.pending is not None and (g.pending.player == CHANCE or g.pending.kind == Kind.DRAFT_KEEP):
        g.apply(next(g.legal_decisions()))


def to_deploy(g: Game) -> None:
    """Settle draws and drafts and pass command turns until a deploy decision is pending."""
    while g.pending is not None and g.pending.kind != Kind.DEPLOY:
        if g.pending.player == CHANCE or g.pending.kind == Kind.DRAFT_KEEP:
            g.apply(next(g.legal_decisions()))
        elif g.pending.kind == Kind.COMMAND:
            g.apply(parse_decision(f"P{g.pending.player} pass"))
        else:
            raise AssertionError(f"unexpected decision point on the way to deploy: {g.pending}")


def default_answer(g: Game):
    pend = g.pending
    if pend.kind in (Kind.DEPLOY, Kind.COMMAND):
        return parse_decision(f"P{pend.player} pass")
    if pend.kind == Kind.MAY:
        return parse_decision(f"P{pend.player} no")
    return next(g.legal_decisions())


def finish_round(g: Game) -> None:
    """Play on with defaults (pass, no, first legal answer) to the next deploy phase: this round's
    if its deploy phase has not begun yet (e.g. the reveals ran on into the next round's draft),
    otherwise the next round's. Stops early at the end of the game."""
    target = g.round if g.phase <= Phase.COMMAND else g.round + 1
    while not g.over and not (g.round == target and g.phase == Phase.DEPLOY
                              and g.pending is not None and g.pending.kind == Kind.DEPLOY):
        g.apply(default_answer(g))


class Events(GameObserver):
    """An observer that writes down game events as (event, details) — e.g. every Bite with the
    biter's owner's essence left after it."""

    def __init__(self, g: Game) -> None:
        self.log: list[tuple] = []
        g.observers.append(self)

    def _note(self, event: str, *args) -> None:
        self.log.append((event,) + tuple(getattr(a, "name", a) for a in args))

    def on_bite(self, g: Game, biter: CardInst, victim: CardInst, taken: int) -> None:
        self.log.append(("bite", biter.name, victim.name, taken, g.players[biter.owner - 1].essence))

    def on_move(self, g: Game, card: CardInst, from_bf: int, to_bf: int) -> None:
        self._note("move", card, from_bf, to_bf)

    def on_destroy(self, g: Game, card: CardInst, source: CardInst | None) -> None:
        self._note("destroy", card, source)

    def on_return(self, g: Game, card: CardInst) -> None:
        self._note("return", card)

    def on_banish(self, g: Game, card: CardInst) -> None:
        self._note("banish", card)

    def on_discard(self, g: Game, card: CardInst) -> None:
        self._note("discard", card)

    def on_stopped(self, g: Game, card: CardInst) -> None:
        self._note("stopped", card)

    def on_swap(self, g: Game, old: CardInst, new: CardInst) -> None:
        self._note("swap", old, new)

    def on_stack(self, g: Game, top: CardInst, bottom: CardInst) -> None:
        self._note("stack", top, bottom)

    def of(self, event: str) -> list[tuple]:
        return [e for e in self.log if e[0] == event]


def pos(text: str) -> Pos:
    """'P1:B3Z2' -> Pos(1, 3, 2)."""
    owner, rest = text.split(":")
    b, z = rest[1:].split("Z")
    return Pos(int(owner[1:]), int(b), int(z))


def at(g: Game, where: str) -> CardInst | None:
    return g.at(pos(where))


def side(g: Game, p: int, b: int) -> list[str]:
    """Names on player p's side of battlefield b (1-based), zone order."""
    return [c.name for c in g.board[b - 1][p - 1]]


def might(g: Game, where: str) -> int:
    c = at(g, where)
    assert c is not None, f"nothing at {where}"
    return c.might


def hand(g: Game, p: int) -> list[str]:
    return sorted(c.name for c in g.players[p - 1].hand)


def kind(g: Game) -> Kind | None:
    return g.pending.kind if g.pending else None


def tokens(g: Game, where: str, tok: str) -> int:
    """How many ``tok`` tokens the card at ``where`` holds."""
    c = at(g, where)
    assert c is not None, f"nothing at {where}"
    return c.tokens.get(tok, 0)


def piles(g: Game, p: int) -> dict[str, list[str]]:
    ps = g.players[p - 1]
    return {"discard": sorted(c.name for c in ps.discard), "destroyed": sorted(c.name for c in ps.destroyed),
            "banished": sorted(c.name for c in ps.banished)}


def destroyed(g: Game, p: int) -> list[str]:
    return sorted(c.name for c in g.players[p - 1].destroyed)
