"""The seeded chance source: a small, fully specified PRNG so that a seed replays identically on
every platform and every Python version (``random.Random`` makes no such promise for shuffles).

Algorithm ``splitmix64-v1``:
  * state: one unsigned 64-bit integer, initialised to the seed (mod 2**64);
  * next(): state += 0x9E3779B97F4A7C15; z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            return z ^ (z >> 31)            (all arithmetic mod 2**64);
  * below(n): an unbiased integer in [0, n) by rejection: draw x = next(); with
            limit = 2**64 - (2**64 mod n), redraw while x >= limit; return x mod n;
  * shuffle(list): Fisher–Yates from the last index down: for i = len-1 .. 1, j = below(i+1),
            swap items i and j.
Uses of the generator in a game, in order: first player (below(players)), then each player's deck
shuffle in seat order, then every later shuffle (Acquire) when it happens.
"""

from __future__ import annotations

ALGORITHM = "splitmix64-v1"
_MASK = (1 << 64) - 1


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        x = self.next()
        while x >= limit:
            x = self.next()
        return x % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
