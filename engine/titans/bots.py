"""Titans' bots and self-play: a random bot and a greedy one (one decision ahead, scored by the
board), both drawing from ``engine.rng.SplitMix64``; ``self_play`` writes a finished seeded game.

Self-play seats the book's mixed squad (rule 10) in one game in ``MIXED_ONE_IN``: one seat, drawn
from the seed, keeps 3 of its species' titans and takes 1 of an ally species', so that simulated
data has mixed squads for their statistic (docs/titans.md, "Simulated games")."""

from __future__ import annotations

from typing import Any, Callable

from ..rng import ALGORITHM, SplitMix64
from .catalog import DEFAULT_VERSION, Catalog, load
from .game import State
from .lines import format_line, is_face_down_burn
from .logformat import Setup, Squad, dump_setup, hazard_hexes, squad_of

KEY = "titans"
BOT_STREAM = 0xB07  # the bots' generator is seeded apart from the game's chance
SETUP_STREAM = 0x5E7  # so is self-play's choice of species, hazards and a mixed squad
MIXED_ONE_IN = 4  # one self-played game in 4 seats a mixed squad (one seat of it)


def score(g: State, player: int) -> float:
    """How good the board is for ``player``: the opponent's losses less its own, and where it points."""
    if g.over:
        return 0.0 if g.winner is None else (1000.0 if g.winner == player else -1000.0)
    total = 0.0
    for t in g.titans:
        sign = -1.0 if t.player == player else 1.0
        worth = 30.0 if not t.alive else 2.0 * t.damage - 0.7 * len(t.stack) - (3.0 if t.active else 0.0)
        if t.alive and t.hex is None and g.round >= 1:
            worth += 6.0
        total += sign * worth
        if t.on_field and t.player == player:
            total += 1.5 * sum(1 for o in g._targets(t) if o.player != player)
    total += 0.3 * (g.unturned(player) - g.unturned(3 - player))
    return total


def choose_random(g: State, rng: SplitMix64) -> Any:
    legal = [d for d in g.legal_decisions() if not (is_face_down_burn(d) and d.card is None)]
    return legal[rng.below(len(legal))]


def choose_greedy(g: State, rng: SplitMix64) -> Any:
    legal = [d for d in g.legal_decisions() if not (is_face_down_burn(d) and d.card is None)]
    if len(legal) > 40:  # entries: a sample keeps it quick
        picked = set()
        while len(picked) < 40:
            picked.add(rng.below(len(legal)))
        legal = [legal[i] for i in sorted(picked)]
    me = g.pending.player  # type: ignore[union-attr]
    best, best_score = legal[0], None
    for d in legal:
        trial = g.clone()
        trial.answer(d)
        s = score(trial, me) + (0.01 * rng.below(10))
        if best_score is None or s > best_score:
            best, best_score = d, s
    return best


BOTS: dict[str, Callable[[State, SplitMix64], Any]] = {"random": choose_random, "greedy": choose_greedy}


def self_play_setup(cat: Catalog, seed: int, players: int = 2, factions: list[str] | None = None) -> Setup:
    """Self-play's setup, drawn from the seed: each seat's species (``factions`` when given), the
    hazard layout (or none), and in one game in ``MIXED_ONE_IN`` a mixed squad for one seat (its
    species stays the one given; the ally is drawn)."""
    pick = SplitMix64(seed ^ SETUP_STREAM)
    species = sorted(cat.species)
    chosen = list(factions) if factions is not None else [species[pick.below(len(species))] for _ in range(players)]
    layouts = [None, *sorted(cat.layouts)]
    hz = layouts[pick.below(len(layouts))]
    squads = [Squad(s) for s in chosen]
    if pick.below(MIXED_ONE_IN) == 0:
        seat = pick.below(len(squads))
        squads[seat] = mixed_squad(cat, chosen[seat], pick)
    return Setup(tuple(squads), hz)


def mixed_squad(cat: Catalog, species: str, pick: SplitMix64) -> Squad:
    """A mixed squad drawn from ``pick``: 3 of ``species``' titans (one left out, the rest in their
    catalog order) and 1 titan of another species, the ally; the species maneuvers left to the deal."""
    own = list(cat.species[species].titans)
    del own[pick.below(len(own))]
    allies = sorted(k for k in cat.species if k != species)
    ally = allies[pick.below(len(allies))]
    theirs = cat.species[ally].titans
    return Squad(species, ally, (*own, theirs[pick.below(len(theirs))]))


def self_play(seed: int, *, bot: str = "random", players: int = 2, factions: list[str] | None = None,
              meta: dict | None = None, catalog: str = DEFAULT_VERSION) -> dict:
    cat = load(catalog)
    setup = self_play_setup(cat, seed, players, factions)
    g = State.new(cat, [squad_of(cat, q, i) for i, q in enumerate(setup.squads)],
                  hazard_hexes(cat, setup.hazards), seed)
    rng = SplitMix64(seed ^ BOT_STREAM)
    choose = BOTS[bot]
    lines = []
    while not g.over:
        d = choose(g, rng)
        lines.append(format_line(d))
        g.answer(d)
    return {"format": "empyrean-log", "version": 1, "game": KEY, "catalog": cat.version,
            "setup": dump_setup(setup), "chance": {"type": "seeded", "algorithm": ALGORITHM, "seed": seed},
            "decisions": lines, "result": {"winner": g.winner, "reason": str(g.end)},
            **({"meta": meta} if meta else {})}
