"""Self-play: a whole game played by bots, written out as a version-1 log.

Used by the random-play tests, the benchmark and (later) the tournament simulator.
"""

from __future__ import annotations

from typing import Callable

from ..rng import ALGORITHM, SplitMix64
from .bots import Bot, GreedyBot, RandomBot, play
from .catalog import DEFAULT_VERSION, load_catalog
from .decisions import format_decision
from .game import BATTLEFIELDS, Game

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def game_log(g: Game, *, catalog: str, decks: list[str], battlefields: list[str], seed: int | None,
             meta: dict | None = None, checkpoints: bool = False) -> dict:
    """The log (as a JSON-ready dict) of a game played so far."""
    log = {
        "format": "empyrean-log",
        "version": 1,
        "catalog": catalog,
        "setup": {"mode": f"{g.n}p", "decks": list(decks), "battlefields": list(battlefields),
                  "first_player": g.first_player_at_start},
        "chance": ({"type": "seeded", "algorithm": ALGORITHM, "seed": seed} if seed is not None
                   else {"type": "recorded"}),
        # The first player is stated in the setup, so a chance 'first' decision is not repeated.
        "decisions": [format_decision(d) for d in g.history if d.verb != "first"],
    }
    if meta:
        log["meta"] = dict(meta)
    if g.over:
        log["result"] = {"winner": g.winner, "might": g.final_might}
    if checkpoints and g.round_might:
        log["checkpoints"] = [{"round": r, "might": m} for r, m in sorted(g.round_might.items())]
    return log


def self_play(seed: int, *, decks: list[str] | None = None, battlefields: list[str] | None = None,
              bot: str | Callable[[int], Bot] = "random", catalog: str = DEFAULT_VERSION, players: int = 2,
              checkpoints: bool = False, meta: dict | None = None) -> dict:
    """Play one seeded game with bots; decks and battlefields are drawn from the seed if not given.
    ``bot``: a name in BOTS, or a function of a seed that makes a bot (each player's own)."""
    cat = load_catalog(catalog)
    pick = SplitMix64(seed ^ 0x5EED5EED)
    deck_names = sorted(cat.decks)
    if decks is None:
        decks = [deck_names[pick.below(len(deck_names))] for _ in range(players)]
    if battlefields is None:
        pool = sorted(cat.battlefields)
        pick.shuffle(pool)
        battlefields = pool[: BATTLEFIELDS[players]]
    g = Game(cat, [list(cat.decks[d]) for d in decks], [cat.battlefields[b] for b in battlefields],
             seed=seed, deck_names=decks, track_rounds=checkpoints)
    make = BOTS[bot] if isinstance(bot, str) else bot
    bots = {p: make(seed * 7 + p) for p in range(1, players + 1)}
    play(g, bots)
    return game_log(g, catalog=cat.version, decks=decks, battlefields=battlefields, seed=seed,
                    meta=meta, checkpoints=checkpoints)
