"""Elysian Battlefields' bots and self-play: a random bot and a greedy one (one decision ahead,
scored by the board), both drawing from ``engine.rng.SplitMix64``; ``self_play`` writes a finished
seeded game (a game of bots that never win ends at the house round limit, ``game.ROUND_LIMIT``)."""

from __future__ import annotations

from typing import Any, Callable

from ..rng import ALGORITHM, SplitMix64
from .catalog import DEFAULT_VERSION, load
from .game import State
from .lines import Kind, format_line
from .logformat import Setup, dump_setup
from .pieces import CONQUER_POINTS, REIGN_POINTS, RULE_TERRITORIES

KEY = "elysian"
BOT_STREAM = 0xB07  # the bots' generator is seeded apart from the game's chance
SAMPLE = 24  # the greedy bot looks at this many of a point's answers at most


def score(g: State, seat: int) -> float:
    """How good the board is for ``seat``: its progress on the three victories against the best rival's."""
    if g.over:
        return 0.0 if g.winner is None else (1000.0 if g.winner == seat else -1000.0)

    def progress(s: int) -> float:
        p = g.player(s)
        if p.out:
            return -50.0
        units = sum(1 for u in g.units if u.player == s)
        return (8.0 * p.conquest / CONQUER_POINTS * 3 + 6.0 * len(g.held(s)) / RULE_TERRITORIES * 3
                + 6.0 * g.kingdom(s) / REIGN_POINTS * 3 + 0.8 * units + 0.3 * len(p.hand))

    rivals = [progress(s) for s in g.active() if s != seat]
    return progress(seat) - (max(rivals) if rivals else 0.0)


def choose_random(g: State, rng: SplitMix64) -> Any:
    legal = g.legal_decisions()
    return legal[rng.below(len(legal))]


def choose_greedy(g: State, rng: SplitMix64) -> Any:
    legal = g.legal_decisions()
    if len(legal) > SAMPLE:
        picked: set[int] = set()
        while len(picked) < SAMPLE:
            picked.add(rng.below(len(legal)))
        legal = [legal[i] for i in sorted(picked)]
    me = g.pending.player  # type: ignore[union-attr]
    best, best_score = legal[0], None
    for d in legal:
        trial = g.clone()
        trial.answer(d)
        s = score(trial, me) + 0.01 * rng.below(10) + (0.5 if d.verb == "attacks" else 0.0)
        if best_score is None or s > best_score:
            best, best_score = d, s
    return best


BOTS: dict[str, Callable[[State, SplitMix64], Any]] = {"random": choose_random, "greedy": choose_greedy}


def self_play(seed: int, *, bot: str = "random", players: int = 2, factions: list[str] | None = None,
              meta: dict | None = None, catalog: str = DEFAULT_VERSION) -> dict:
    cat = load(catalog)
    g = State.new(cat, players, seed)
    rng = SplitMix64(seed ^ BOT_STREAM)
    choose = BOTS[bot]
    lines = []
    while not g.over:
        p = g.pending
        wanted = factions[p.player - 1] if factions is not None and p is not None and p.kind is Kind.HERO else None
        # heroes are one to a table: a seat whose hero another took first has its bot choose another
        d = next((x for x in g.legal_decisions() if x.args == (wanted,)), None) or choose(g, rng)
        lines.append(format_line(d))
        g.answer(d)
    return {"format": "empyrean-log", "version": 1, "game": KEY, "catalog": cat.version,
            "setup": dump_setup(Setup(players)), "chance": {"type": "seeded", "algorithm": ALGORITHM, "seed": seed},
            "decisions": lines, "result": {"ranks": g.ranks(), "reason": str(g.end)},
            **({"meta": meta} if meta else {})}
