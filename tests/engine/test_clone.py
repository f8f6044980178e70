"""Game.clone copies the state; it does not replay the history.

For many seeded and recorded games played by the random and the greedy bots, at many points: a clone
continued with the same decisions as the original ends in exactly the same state, outcome and trace;
playing on either one never changes the other; and a clone is the same state as the slow reference
(engine.bfe.game.clone_by_replay: the starting position with the history replayed). A state is compared
whole (``fingerprint``): every card, pile, the board, the work stack's frames and the pending decision
point with their arguments (contexts and lists numbered by identity, so what the original shares the
clone must share too), the generator's state, what is known of unseen cards, the history and trace.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.bfe.bots import GreedyBot, RandomBot
from engine.bfe.catalog import load_catalog
from engine.bfe.game import BATTLEFIELDS, DecisionPoint, Game, clone_by_replay
from engine.bfe.hidden import Knowledge
from engine.bfe.state import CardFilter, CardInst, Ctx, PlayerState
from engine.rng import SplitMix64


def new_game(seed: int, *, players: int = 2, catalog: str = "2026.2", seeded: bool = True,
             view: int | None = None, trace: bool = False) -> Game:
    cat = load_catalog(catalog)
    pick = SplitMix64(seed ^ 0xC10E)
    names = sorted(cat.decks)
    decks = [names[pick.below(len(names))] for _ in range(players)]
    pool = sorted(cat.battlefields)
    pick.shuffle(pool)
    return Game(cat, [list(cat.decks[d]) for d in decks],
                [cat.battlefields[b] for b in pool[:BATTLEFIELDS[players]]],
                seed=seed if seeded else None, deck_names=decks, view=view, trace=trace)


class _Print:
    """Numbers every mutable object the first time it is seen, so aliasing shows in the print."""

    def __init__(self) -> None:
        self.ids: dict[int, int] = {}

    def ref(self, x: Any) -> str:
        return f"#{self.ids.setdefault(id(x), len(self.ids))}"

    def value(self, x: Any) -> Any:
        if isinstance(x, CardInst):
            return ("card", x.uid)
        if isinstance(x, Ctx):
            return ("ctx", self.ref(x), x.player, self.value(x.source), x.bf, self.value(x.subject),
                    self.value(x.target), x.count, x.from_bf)
        if isinstance(x, list):
            return ("list", self.ref(x), [self.value(v) for v in x])
        if type(x) is tuple:
            return tuple(self.value(v) for v in x)
        if isinstance(x, dict):
            return ("dict", sorted((repr(k), self.value(v)) for k, v in x.items()))
        if isinstance(x, (set, frozenset)):
            return ("set", sorted(repr(self.value(v)) for v in x))
        if isinstance(x, (PlayerState, Knowledge, Game, DecisionPoint)):
            raise AssertionError(f"a {type(x).__name__} in a frame or a decision point's arguments")
        if isinstance(x, CardFilter):
            return ("filter", sorted(x.names or ()), sorted(x.types or ()), x.max_cost, x.exclude)
        if callable(x):
            return ("fn", getattr(x, "__qualname__", repr(x)))
        return x


def fingerprint(g: Game) -> Any:
    """Everything of the game's state that can change while it is played (observers aside)."""
    pr = _Print()
    cards = []
    for ps in g.players:
        for c in ps.cards:
            cards.append((c.uid, c.owner, c.cdef.name, int(c.loc), c.face_up, c.might, sorted(c.tokens.items()),
                          c.bf, [u.uid for u in c.under], c.gained_round, c.used_round, c.leaving))
    players = [(ps.num, ps.deck_name, pr.value(ps.hand), pr.value(ps.deck.top), pr.value(ps.deck.unknown),
                pr.value(ps.deck.bottom), pr.value(ps.discard), pr.value(ps.destroyed), pr.value(ps.banished),
                ps.essence, ps.spent, ps.next_adjust, pr.value(ps.deploy_order), list(ps.stops),
                sorted(ps.first_deploy_done)) for ps in g.players]
    hidden = [None if k is None else (k.left, [sorted(w.items()) for w in k.worlds],
                                      sorted((uid, t.uid) for uid, t in k.tokens.items()))
              for k in g.hidden]
    pend = g.pending
    pending = None if pend is None else (
        pend.player, pend.kind, pend.prompt, pend.seat, pend.default, pend.rule.take.__qualname__,
        pr.value(pend.args), [str(d) for d in g.legal_decisions()])
    return {
        "cards": cards, "players": players, "hidden": hidden,
        "board": [[pr.value(side) for side in sides] for sides in g.board],
        "stack": [pr.value(f) for f in g.stack], "pending": pending,
        "rng": None if g.rng is None else g.rng.state,
        "round": (g.round, int(g.phase), g.first, list(g.order), g.first_player_at_start),
        "end": (g.over, g.winner, g.final_might, g.end, g.conceded_by),
        "fired": sorted(map(repr, g.fired)),
        "listen": [{k: pr.value(v) for k, v in sorted(reg.items())} for reg in g.listen],
        "movers": [sorted(c.uid for c in m) for m in g.movers],
        "revealed": sorted(g.revealed), "late": pr.value(g.late),
        "history": [str(d) for d in g.history], "auto": list(map(repr, g.auto)),
        "trace": None if g.trace is None else list(map(repr, g.trace)),
        "round_might": g.round_might,
    }


def _play_out(g: Game, bots: dict[int, Any]) -> list:
    """Play ``g`` to the end with ``bots``; the decisions made."""
    made = []
    while g.pending is not None:
        d = bots[g.pending.player].choose(g) if g.pending.player in bots else bots[0].choose(g)
        made.append(d)
        g.apply(d)
    return made


def _check_game(g: Game, bots: dict[int, Any], every: int, reference: bool) -> int:
    """Play ``g`` with ``bots``; every ``every`` decisions, clone and check the clone. Returns how many
    clones were checked."""
    checked = 0
    step = 0
    while g.pending is not None:
        if step % every == every // 2:
            before = fingerprint(g)
            h = g.clone()
            assert fingerprint(h) == before
            if reference:
                assert fingerprint(clone_by_replay(g)) == {**before, "trace": None}
            # play the clone to its end with its own bots: the original does not move
            _play_out(h, {p: RandomBot(step * 31 + p) for p in (0, 1, 2, 3)})
            assert fingerprint(g) == before
            # the clone and a second clone continued with the same decisions as the original, which
            # moves on while the clone stands still: they end the same
            h2 = g.clone()
            kept = fingerprint(h2)
            rest = _play_out(g.clone(), {p: RandomBot(step * 17 + p) for p in (0, 1, 2, 3)})
            assert fingerprint(h2) == kept
            fork = g.clone()
            for d in rest:
                h2.apply(d)
                fork.apply(d)
            assert fingerprint(h2) == fingerprint(fork)
            checked += 1
        d = bots[g.pending.player].choose(g) if g.pending.player in bots else bots[0].choose(g)
        h = g.clone()
        g.apply(d)
        h.apply(d)
        assert fingerprint(h) == fingerprint(g)
        step += 1
    return checked


@pytest.mark.parametrize("seed", range(12))
def test_clone_of_a_random_game_plays_on_alike(seed):
    g = new_game(seed, trace=seed % 2 == 0, catalog="2026.1" if seed % 3 == 0 else "2026.2")
    assert _check_game(g, {1: RandomBot(seed), 2: RandomBot(seed + 100)}, 9, reference=seed % 2 == 1) >= 5


@pytest.mark.parametrize("seed", range(4))
def test_clone_of_a_greedy_game_plays_on_alike(seed):
    g = new_game(seed, players=3 if seed % 2 else 2)
    bots = {p: GreedyBot(seed * 7 + p) for p in (1, 2, 3)}
    assert _check_game(g, bots, 11, reference=True) >= 4


@pytest.mark.parametrize("seed", range(6))
def test_clone_of_a_recorded_game_plays_on_alike(seed):
    """Recorded chance: chance draws and first player as decision points, unseen cards, what is known
    of them (engine.bfe.hidden), defaults in a seat view."""
    g = new_game(seed, seeded=False, view=1 if seed % 2 else None, trace=True, players=3 if seed == 5 else 2)
    bots = {p: RandomBot(seed * 11 + p) for p in (0, 1, 2, 3)}
    assert _check_game(g, bots, 13, reference=False) >= 4


def test_a_clone_draws_the_same_numbers():
    g = new_game(3)
    h = g.clone()
    assert h.rng is not g.rng
    assert [h.rng.next() for _ in range(5)] == [g.rng.next() for _ in range(5)]


def test_a_clone_of_a_finished_game():
    g = new_game(8)
    _play_out(g, {1: RandomBot(1), 2: RandomBot(2)})
    h = g.clone()
    assert fingerprint(h) == fingerprint(g) and h.over and h.winner == g.winner


def test_decision_points_and_frames_hold_no_closure_over_the_game():
    """What a clone copies is data: every function in a frame or a decision point is a plain
    function, or one compiled from the catalog that captures nothing of a game."""
    game_types = (Game, CardInst, Ctx, PlayerState, Knowledge, list, dict, set)
    seen = 0

    def walk(x: Any) -> None:
        nonlocal seen
        if isinstance(x, (tuple, list)):
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif callable(x) and not isinstance(x, type):
            seen += 1
            for cell in getattr(x, "__closure__", None) or ():
                assert not isinstance(cell.cell_contents, game_types), (x, cell.cell_contents)

    for seed in range(6):
        g = new_game(seed, seeded=seed % 2 == 0)
        bots = {p: RandomBot(seed + p) for p in (0, 1, 2)}
        while g.pending is not None:
            for f in g.stack:
                walk(f)
            walk(g.pending.args)
            walk(g.pending.rule)
            g.apply(bots[g.pending.player].choose(g))
    assert seen > 100
