"""Bots that play only through the public decision interface (legal_decisions / apply).

Both are deterministic given a seed; they use their own SplitMix64, never global random state.
"""

from __future__ import annotations

from typing import Protocol

from .decisions import Decision
from .game import Game
from .rng import SplitMix64


class Bot(Protocol):
    def choose(self, g: Game) -> Decision: ...


class RandomBot:
    """Uniform over the legal decisions."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, g: Game) -> Decision:
        options = list(g.legal_decisions())
        return options[self.rng.below(len(options))]


class GreedyBot:
    """Looks one decision ahead: tries every legal answer on a clone of the game and keeps the one
    after which its own position scores best — battlefields it would control, then its might margin
    — ties broken by its seeded generator.

    Might is *projected*: a face-down card counts with its reveal might, since that is what it
    will bring when revealed. Without this, every deploy (face down) would look like a pass and the
    bot could not tell a strong deploy from a weak one."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    @staticmethod
    def projected_might(g: Game) -> list[list[int]]:
        """might[p-1][b] with face-down cards at their reveal might."""
        return [[sum(c.might if c.face_up else c.cdef.might for c in g.board[b][p]) for b in range(g.nbf)]
                for p in range(g.n)]

    @classmethod
    def score(cls, g: Game, me: int) -> tuple[int, int]:
        might = cls.projected_might(g)
        led = margin = 0
        for b in range(g.nbf):
            mine = might[me - 1][b]
            best_other = max(might[q][b] for q in range(g.n) if q != me - 1)
            led += (mine > best_other) - (mine < best_other)
            margin += mine - best_other
        if g.over:  # a finished game is scored by its result, which is what counts
            led += 100 if g.winner == me else -100 if g.winner is not None else 0
        return led, margin

    def choose(self, g: Game) -> Decision:
        options = list(g.legal_decisions())
        if len(options) == 1:
            return options[0]
        assert g.pending is not None  # options came from a pending decision point
        me = g.pending.player
        best: list[Decision] = []
        best_score: tuple[int, int] | None = None
        for d in options:
            h = g.clone()
            h.apply(d)
            s = self.score(h, me)
            if best_score is None or s > best_score:
                best, best_score = [d], s
            elif s == best_score:
                best.append(d)
        return best[self.rng.below(len(best))]


def play(g: Game, bots: dict[int, Bot]) -> Game:
    """Play a seeded game to the end: ``bots`` maps player number to a bot."""
    while g.pending is not None:
        g.apply(bots[g.pending.player].choose(g))
    return g
