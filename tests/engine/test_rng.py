"""engine.rng: splitmix64-v1 as documented (docs/log-format.md), whatever way it is computed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import SplitMix64

_MASK = (1 << 64) - 1


class Reference:
    """The definition, transcribed directly on 64-bit Python ints."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        x = self.next()
        while x >= limit:
            x = self.next()
        return x % n


def test_known_values():
    # the first outputs for seed 0 published with the algorithm (Vigna's splitmix64.c)
    g = SplitMix64(0)
    assert [g.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(st.integers(1, 2**40), min_size=1, max_size=40))
def test_every_draw_is_the_definitions(seed, bounds):
    ours, ref = SplitMix64(seed), Reference(seed)
    for n in bounds:
        assert ours.below(n) == ref.below(n)
        assert ours.next() == ref.next()
    assert ours.state == ref.state


def _state_before(output: int) -> int:
    """The state whose next draw is ``output`` (the mixing steps undone, as splitmix64's are
    invertible)."""
    z = output ^ (output >> 31) ^ (output >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK
    z = z ^ (z >> 30) ^ (z >> 60)
    return (z - 0x9E3779B97F4A7C15) & _MASK


def test_a_draw_in_the_top_values_that_would_bias_the_result_is_drawn_again():
    for n, top in ((3, (1 << 64) - 1), (24, (1 << 64) - 16), (7, (1 << 64) - 2)):
        ref = Reference(0)
        ref.state = _state_before(top)
        assert ref.next() == top and top >= (1 << 64) - ((1 << 64) % n)  # this draw must be redrawn
        ours, ref = SplitMix64(0), Reference(0)
        ours.state = ref.state = _state_before(top)
        assert ours.below(n) == ref.below(n)
        assert ours.state == ref.state  # both drew twice
        assert ours.state != _state_before(top) + 0x9E3779B97F4A7C15 & _MASK
