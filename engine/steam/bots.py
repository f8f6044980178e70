"""Spells & Steam's bots and self-play: a random bot and a greedy one (one decision ahead, scored by the
board; two for a specialist whose worth shows only in the move after its use), both drawing from
``engine.rng.SplitMix64``; ``self_play`` writes a finished seeded game. The set-up a self-played game uses
(the map, the variants, teams) is drawn from its seed unless given."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..rng import ALGORITHM, SplitMix64
from . import track
from .catalog import DEFAULT_VERSION, load
from .game import State
from .lines import Kind, Line, format_line
from .logformat import Setup, dump_setup, team_shapes
from .pieces import DEMAND_POINTS
from .scoring import score_sheet

KEY = "steam"
BOT_STREAM = 0x57EA  # the bots' generator is seeded apart from the game's chance
SAMPLE = 16  # the greedy bot looks at this many of a point's answers at most
QUIET = frozenset({"stops", "skips", "passes"})  # answers that do nothing: the random bot takes them less
# what the greedy bot leans to beyond its one step ahead: a spellcar activated is worth its effects, which
# that step does not see yet
LEAN = {"activates": 2.5, "uses": 1.0}
# the ops of a specialist whose ability only makes the turn's move cheaper (Rayleigh Kerigan): the step
# after its use, the move, shows what it is worth, so the greedy bot looks that one step further
SEEN_IN_THE_MOVE = frozenset({"move-ladder"})
FLIPPED = 0.5  # what a specialist flipped for such a use costs the greedy bot: it is not there for a later turn


def score(g: State, seat: int) -> float:
    """How good the board is for ``seat``: its score and what it is building towards (goods it could
    deliver at a city next to its network, the demand tile that would take, its conductor's way to the
    End of the Line, its engine of spellcars and specialists, mana), against the best rival's."""
    def worth(s: int) -> float:
        f = g.folio(s)
        if f.out:
            return -50.0
        points = sum(f.goods.values()) + sum(DEMAND_POINTS[size] for _c, size in f.demand)  # awards come at the end
        net = track.network(g, s)
        colours = Counter(c for h in net for c, k in g.goods[h].items() for _ in range(k))
        best = 0.0
        for h in track.network_adjacent(g, s, net):
            if g.terrain[h] == "city":
                have = colours[g.map.cities[h]]
                tile = max((DEMAND_POINTS[size] for _c, size in g.stands[h] if size <= have), default=0)
                best = max(best, min(have, 6) + 2.0 * tile + 0.5)
        engine = len(f.yard) * 1.0 + len(f.specialists) * 1.5 + len(f.extra)
        return (points * 3.0 + best * 1.4 + sum(colours.values()) * 0.3 + len(net) * 0.35
                + (f.mana + f.spent) * 0.3 + f.mana * 0.2 + engine + 0.6 * f.conductor)

    rivals = [worth(s) for s in g.active() if s != seat and not g.teammates(seat, s)]
    return worth(seat) - (max(rivals) if rivals else 0.0)


def choose_random(g: State, rng: SplitMix64) -> Line:
    legal = g.legal_decisions()
    claims = [d for d in legal if "takes" in d.args]  # a delivery that takes a demand tile
    if claims and rng.below(4) > 0:
        return claims[rng.below(len(claims))]
    busy = [d for d in legal if d.verb not in QUIET and d.args != ("later",)]
    if busy and rng.below(4) > 0:
        return busy[rng.below(len(busy))]
    return legal[rng.below(len(legal))]


def choose_greedy(g: State, rng: SplitMix64) -> Line:
    legal = g.legal_decisions()
    p = g.pending
    if p is not None and p.player == 0:
        return legal[rng.below(len(legal))]
    legal = [d for d in legal if d.args != ("later",)] or legal
    if len(legal) > SAMPLE:
        picked: set[int] = set()
        while len(picked) < SAMPLE:
            picked.add(rng.below(len(legal)))
        legal = [legal[i] for i in sorted(picked)]
    me = p.player if p is not None else 1
    best, best_score = legal[0], None
    for d in legal:
        trial = g.clone()
        trial.answer(d)
        s = worth(trial, me, d) + 0.01 * rng.below(10)
        if best_score is None or s > best_score:
            best, best_score = d, s
    return best


def worth(trial: State, me: int, d: Line) -> float:
    """What answer ``d`` is worth to ``me`` in the greedy bot's eyes, ``trial`` the board it leaves: the board's
    score and the lean of ``d``'s verb; a use whose worth shows only in the move after it is worth the best
    main action it leaves (less a specialist flipped: ``FLIPPED``), so that a free move ladder is not spent on
    a move that was free anyway."""
    p = trial.pending
    if not (d.verb == "uses" and p is not None and p.kind is Kind.TURN and p.player == me
            and any(e.op in SEEN_IN_THE_MOVE for e in trial.specialist(d.args[0]).effects)):
        return score(trial, me) + LEAN.get(d.verb, 0.0)
    then = []
    for x in trial.legal_decisions():
        if x.verb != "uses":
            after = trial.clone()
            after.answer(x)
            then.append(score(after, me) + LEAN.get(x.verb, 0.0))
    return max(then) - FLIPPED


BOTS: dict[str, Callable[[State, SplitMix64], Any]] = {"random": choose_random, "greedy": choose_greedy}


def seeded_setup(seed: int, players: int) -> Setup:
    """The set-up a self-played game of ``seed`` uses: the map, some variants and (1 game in 3 where the
    manual has team games) teams, drawn from the seed so the conformance seeds cover them."""
    teams = team_shapes(players)[seed % len(team_shapes(players))] if team_shapes(players) and seed % 3 == 0 else ()
    variants = set()
    if not teams and seed % 2 == 1:
        variants.add("awards")
        if seed % 4 == 3:
            variants.add("expert")
    if seed % 3 == 2:
        variants.add("open")
    if seed % 5 == 4:
        variants.add("friendly")
    if seed % 7 == 6:
        variants.add("epic")
    return Setup(players, "C" if players == 6 else "AB"[seed // 2 % 2], tuple(sorted(variants)), teams)


def new_state(cat: Any, setup: Setup, seed: int | None, **kw: Any) -> State:
    return State.new(cat, setup.players, setup.map, seed, variants=frozenset(setup.variants), teams=setup.teams,
                     **kw)


def self_play(seed: int, *, bot: str = "random", players: int = 2, factions: list[str] | None = None,
              meta: dict | None = None, catalog: str = DEFAULT_VERSION, setup: Setup | None = None) -> dict:
    cat = load(catalog)
    setup = setup or seeded_setup(seed, players)
    g = new_state(cat, setup, seed)
    rng = SplitMix64(seed ^ BOT_STREAM)
    choose = BOTS[bot]
    lines = []
    while not g.over:
        p = g.pending
        d = None
        if factions is not None and p is not None and p.kind is Kind.COMPANY:
            # companies are one to a table: a seat whose company another took first has its bot choose another
            d = next((x for x in g.legal_decisions() if x.args[0] == factions[p.player - 1]), None)
        d = d or choose(g, rng)
        lines.append(format_line(d))
        g.answer(d)
    sheet = score_sheet(g)
    return {"format": "empyrean-log", "version": 1, "game": KEY, "catalog": cat.version,
            "setup": dump_setup(setup), "chance": {"type": "seeded", "algorithm": ALGORITHM, "seed": seed},
            "decisions": lines,
            "result": {"ranks": g.ranks(), "scores": [s.total for s in sheet.seats], "reason": str(g.end)},
            **({"meta": meta} if meta else {})}
