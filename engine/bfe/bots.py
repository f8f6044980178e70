"""Bots that play only through the public decision interface (legal_decisions / apply).

Both are deterministic given a seed; they use their own SplitMix64, never global random state.
"""

from __future__ import annotations

from typing import Callable, Protocol

from ..rng import SplitMix64
from .decisions import Decision, Kind
from .game import Game


class Bot(Protocol):
    def choose(self, g: Game) -> Decision: ...


class RandomBot:
    """Uniform over the legal decisions."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, g: Game) -> Decision:
        options = list(g.legal_decisions())
        return options[self.rng.below(len(options))]


_DEPLOY_TRIGGERS = frozenset({"deploy", "first_deploy", "fill"})  # battlefield triggers a deploy fires


class GreedyBot:
    """Looks one decision ahead: foresees the position after every legal answer and keeps the one
    after which its own position scores best — battlefields it would control, then its might
    margin — ties broken by its seeded generator.

    Might is *projected*: a face-down card counts with its reveal might, since that is what it
    will bring when revealed. Without this, every deploy (face down) would look like a pass and the
    bot could not tell a strong deploy from a weak one. Answers whose outcome is plain (see
    ``_quick_score``) are scored directly; every other answer is tried on a clone of the game."""

    def __init__(self, seed: int, clone: Callable[[Game], Game] = Game.clone) -> None:
        self.rng = SplitMix64(seed)
        # how a position is copied to try an answer on (engine.bfe.game.clone_by_replay: the slow reference)
        self.clone = clone

    @staticmethod
    def projected_might(g: Game) -> list[list[int]]:
        """might[p-1][b] with face-down cards at their reveal might."""
        return [[sum(c.might if c.face_up else c.cdef.might for c in g.board[b][p]) for b in range(g.nbf)]
                for p in range(g.n)]

    @staticmethod
    def _control(might: list[list[int]], me: int) -> tuple[int, int]:
        """(battlefields led minus battlefields trailed, might margin summed over battlefields)."""
        led = margin = 0
        for b in range(len(might[0])):
            mine = might[me - 1][b]
            best_other = max(might[q][b] for q in range(len(might)) if q != me - 1)
            led += (mine > best_other) - (mine < best_other)
            margin += mine - best_other
        return led, margin

    @classmethod
    def score(cls, g: Game, me: int) -> tuple[int, int]:
        led, margin = cls._control(cls.projected_might(g), me)
        if g.over:  # a finished game is scored by its result, which is what counts
            led += 100 if g.winner == me else -100 if g.winner is not None else 0
        return led, margin

    def _quick_score(self, g: Game, me: int, d: Decision, base: list[list[int]]) -> tuple[int, int] | None:
        """The score of an answer whose outcome needs no clone to foresee, else None. A deploy
        puts a card face down, so its projected effect is exactly its reveal might on that
        battlefield (unless the battlefield reacts to deploys); a pass in the deploy phase changes
        nothing yet; a draft keep changes no board, so the card with more reveal might is kept."""
        if d.verb == "keep" and d.card is not None:
            return g.catalog.cards[d.card].might, 0
        if d.verb == "pass" and g.pending is not None and g.pending.kind == Kind.DEPLOY:
            return self._control(base, me)
        if d.verb == "deploy" and d.card is not None and d.bf is not None:
            if g.bfs[d.bf - 1].effects.keys() & _DEPLOY_TRIGGERS:
                return None
            might = [row[:] for row in base]
            might[me - 1][d.bf - 1] += g.catalog.cards[d.card].might
            return self._control(might, me)
        return None

    def choose(self, g: Game) -> Decision:
        options = list(g.legal_decisions())
        if len(options) == 1:
            return options[0]
        assert g.pending is not None  # options came from a pending decision point
        me = g.pending.player
        base = self.projected_might(g)
        best: list[Decision] = []
        best_score: tuple[int, int] | None = None
        for d in options:
            s = self._quick_score(g, me, d, base)
            if s is None:
                h = self.clone(g)
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
