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
_M32 = 0xFFFFFFFF


class SplitMix64:
    """splitmix64-v1, computed on two 32-bit halves of the 64-bit state (and 16-bit pieces for the
    products), so that every intermediate value is a machine-sized int: compiled by mypyc this is
    several times cheaper than 64-bit Python ints, which are boxed. The numbers are exactly those
    of the definition above (tests/engine/test_rng.py checks them against a direct transcription)."""

    __slots__ = ("hi", "lo")

    def __init__(self, seed: int) -> None:
        self.state = seed

    @property
    def state(self) -> int:
        return (self.hi << 32) | self.lo

    @state.setter
    def state(self, value: int) -> None:
        value &= _MASK
        self.hi = value >> 32
        self.lo = value & _M32

    def copy(self) -> SplitMix64:
        """A generator in the same state: it draws the same numbers from here on."""
        g = SplitMix64(0)
        g.hi, g.lo = self.hi, self.lo
        return g

    def _mix(self) -> tuple[int, int]:
        """Advance the state and return the next output as (high 32 bits, low 32 bits)."""
        lo = self.lo + 0x7F4A7C15
        hi = (self.hi + 0x9E3779B9 + (lo >> 32)) & _M32
        lo &= _M32
        self.hi, self.lo = hi, lo
        lo = (lo ^ (((lo >> 30) | (hi << 2)) & _M32))
        hi = hi ^ (hi >> 30)
        hi, lo = _mul(hi, lo, 0xBF58476D, 0x1CE4E5B9)
        lo = (lo ^ (((lo >> 27) | (hi << 5)) & _M32))
        hi = hi ^ (hi >> 27)
        hi, lo = _mul(hi, lo, 0x94D049BB, 0x133111EB)
        lo = (lo ^ (((lo >> 31) | (hi << 1)) & _M32))
        hi = hi ^ (hi >> 31)
        return hi, lo

    def next(self) -> int:
        hi, lo = self._mix()
        return (hi << 32) | lo

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        if n >= 1 << 31:  # a bound this large never comes up in a game; the plain definition
            limit = (1 << 64) - ((1 << 64) % n)
            x = self.next()
            while x >= limit:
                x = self.next()
            return x % n
        t = (1 << 32) % n
        r = (t * t) % n  # 2**64 mod n: draws in the top r values of 2**64 are redrawn
        hi, lo = self._mix()
        while r and hi == _M32 and lo >= (1 << 32) - r:
            hi, lo = self._mix()
        return ((hi % n) * t + lo) % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _mul(hi: int, lo: int, mh: int, ml: int) -> tuple[int, int]:
    """(hi, lo) * (mh, ml) mod 2**64, on 32-bit halves and 16-bit pieces."""
    a0, a1 = lo & 0xFFFF, lo >> 16
    b0, b1 = ml & 0xFFFF, ml >> 16
    t0 = a0 * b0
    t1 = a0 * b1 + a1 * b0 + (t0 >> 16)
    new_lo = ((t1 & 0xFFFF) << 16) | (t0 & 0xFFFF)
    carry = a1 * b1 + (t1 >> 16)  # the high half of lo * ml
    h0, h1 = hi & 0xFFFF, hi >> 16
    c0, c1 = mh & 0xFFFF, mh >> 16
    cross = (h0 * b0 + ((h0 * b1 + h1 * b0) << 16)) + (a0 * c0 + ((a0 * c1 + a1 * c0) << 16))
    return (carry + cross) & _M32, new_lo
