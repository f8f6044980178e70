"""Tournament simulator: Swiss events played by bots, written as a bundle of game logs.

``simulate(config)`` plays ``events`` Swiss tournaments, one a week, with the same ``players``
players (each with a deck: chosen from a pool or at random). Between events some players switch
to decks that did well, so the meta share moves over time the way a real one does. Each match is
a seeded self-play game (engine.bfe.selfplay); its true result feeds the Swiss standings.

A chosen share of matches is uploaded with a deliberate flaw, for demonstrating verification:

- ``illegal``: one player decision is replaced by one the rules forbid at that point (checked with
  the engine, so the verdict is certain: ``illegal`` at that decision);
- ``wrong_result``: the log claims the other player won (``mismatch``);
- ``duplicate``: the same log is uploaded twice (the service keeps one game; verify sees two);
- ``dispute``: the loser uploads the match a second time claiming the win (``mismatch``, and the
  service opens a dispute for the match).

The bundle's ``expected`` counts say what verification and the upload API must report for it.
Everything is deterministic given the seed: the engine's SplitMix64, never global random state.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import networkx as nx

from engine.bfe.catalog import DEFAULT_VERSION, load_catalog
from engine.bfe.decisions import Decision, Kind, format_decision, parse_decision
from engine.bfe.game import Game
from engine.bfe.selfplay import self_play
from engine.bfe.verdicts import build_game
from engine.log import parse_log
from engine.replay import replay
from engine.rng import SplitMix64

FLAWS = ("illegal", "wrong_result", "duplicate", "dispute")
SWITCH_CHANCE = 3  # in 10: a player with a losing record tries a deck from the top half next event


@dataclass
class SimConfig:
    players: int = 64
    rounds: int = 6
    events: int = 1
    decks: list[str] | None = None  # the pool players' decks come from (None: every deck)
    bot: str = "greedy"
    flawed: float = 0.0  # share of matches uploaded with a flaw
    seed: int = 1
    start: dt.date = dt.date(2026, 9, 5)
    round_days: int = 0  # days between rounds of one event (0: a one-day event; 7: a weekly league)
    name: str = "Simulated Open"
    catalog: str = DEFAULT_VERSION


@dataclass
class Bundle:
    uploads: list[dict] = field(default_factory=list)  # in upload order
    flaws: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FLAWS})
    matches: int = 0
    byes: int = 0

    def expected(self) -> dict:
        """What ``empyrean verify`` and the upload API must report for this bundle."""
        fl = self.flaws
        clean = self.matches - fl["illegal"] - fl["wrong_result"]
        return {
            "uploads": len(self.uploads),
            "matches": self.matches,
            "flaws": dict(fl),
            # verify judges every upload, duplicates included
            "verify": {"valid": clean + fl["duplicate"], "illegal": fl["illegal"],
                       "mismatch": fl["wrong_result"] + fl["dispute"]},
            # the service stores a duplicate once; each disputed match is two stored games
            "service": {"accepted": len(self.uploads) - fl["duplicate"], "duplicate": fl["duplicate"],
                        "valid": clean, "illegal": fl["illegal"],
                        "mismatch": fl["wrong_result"] + fl["dispute"], "disputes": fl["dispute"]},
        }


# ---------------------------------------------------------------------------- Swiss pairing
def swiss_pairs(standings: dict[str, float], played: set[frozenset[str]], rng: SplitMix64
                ) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs for the next round: players of equal or near score meet, nobody meets twice (when
    that can be avoided). A maximum-weight matching over all allowed pairs does the choosing; the
    weight prefers small score gaps. With an odd count the lowest-placed player gets the bye."""
    names = sorted(standings, key=lambda p: (-standings[p], p))
    bye = None
    if len(names) % 2:
        bye = names.pop()
    order = list(names)
    rng.shuffle(order)  # ties between equal pairings are broken by the seed, not by name
    g = nx.Graph()
    g.add_nodes_from(order)
    top = max(standings.values(), default=0) + 1
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            rematch = frozenset((a, b)) in played
            gap = abs(standings[a] - standings[b])
            g.add_edge(a, b, weight=(top * 4) ** 2 - (gap * 4) ** 2 - (10 ** 6 if rematch else 0))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    pairs = sorted((tuple(sorted(m)) for m in matching),
                   key=lambda ab: (-max(standings[ab[0]], standings[ab[1]]), ab))
    return [(a, b) for a, b in pairs], bye


# ---------------------------------------------------------------------------- flaws
def make_illegal(log: dict, rng: SplitMix64) -> dict:
    """The log with one player decision replaced by one the rules forbid at that point: the whole
    log replayed says illegal at exactly that decision.

    A decision the game refuses at that point is not always enough: a forced answer (the only legal
    one) may be written or left out, so a replacement such as 'P1 pass' just after P1's forced pass
    reads as that pass written out, and the log fails later or not at all. So each candidate is
    replayed, and the next one is tried until one fails where it was put."""
    parsed = parse_log(log)
    choices = [i for i, text in enumerate(log["decisions"]) if text.startswith("P")]
    start = rng.below(len(choices))
    for k in range(len(choices)):  # the first index (from a random start) with a forbidden twin
        i = choices[(start + k) % len(choices)]
        g = build_game(parsed)
        for text in log["decisions"][:i]:
            g.apply(parse_decision(text))
        for bad in _forbidden_at(g, rng):
            out = copy.deepcopy(log)
            out["decisions"][i] = format_decision(bad)
            verdict = replay(out, record=False).verdict
            if verdict.status == "illegal" and verdict.index == i:
                return out
    raise ValueError("no decision of this game can be made illegal")  # pragma: no cover


def _forbidden_at(g: Game, rng: SplitMix64) -> Iterator[Decision]:
    """Decisions that read well but that the rules forbid here, of kinds a player might write, in a
    random order."""
    pend = g.pending
    assert pend is not None
    p = pend.player
    ps = g.players[p - 1]
    hand = {c.name for c in ps.hand}
    elsewhere = sorted({c.name for c in ps.cards} - hand)
    candidates: list[Decision] = []
    if pend.kind == Kind.DEPLOY:
        for c in sorted(ps.hand, key=lambda c: c.name):
            candidates.append(Decision(p, "deploy", card=c.name, bf=g.nbf + 1 + rng.below(9 - g.nbf)))
            for b in range(1, g.nbf + 1):
                candidates.append(Decision(p, "deploy", card=c.name, bf=b))  # too dear, or a full side
        candidates += [Decision(p, "deploy", card=nm, bf=1) for nm in elsewhere]  # not in hand
    elif pend.kind == Kind.DRAFT_KEEP:
        candidates += [Decision(p, "keep", card=nm) for nm in elsewhere]  # not one of the two drawn
    candidates.append(Decision(g.n + 1 - p if g.n == 2 else p % g.n + 1, "pass"))  # out of turn
    rng.shuffle(candidates)
    yield from (d for d in candidates if g.check(d) is not None)


def wrong_result(log: dict) -> dict:
    """The log claiming the other player won (or player 1, after a draw)."""
    out = copy.deepcopy(log)
    winner = out["result"]["winner"]
    out["result"] = {"winner": 3 - winner if winner in (1, 2) else 1}
    return out


# ---------------------------------------------------------------------------- the simulation
def simulate(config: SimConfig, progress: Callable[[Iterable], Iterable] = lambda it: it) -> Bundle:
    """Play the events; ``progress`` wraps the iterator of matches (e.g. a tqdm progress bar)."""
    cat = load_catalog(config.catalog)
    pool = sorted(config.decks or cat.decks)
    unknown = [d for d in pool if d not in cat.decks]
    if unknown:
        raise ValueError(f"unknown deck(s) {', '.join(unknown)}; "
                         f"catalog {cat.version} has {', '.join(sorted(cat.decks))}")
    if config.players < 2 or config.rounds < 1 or config.events < 1 or config.round_days < 0:
        raise ValueError("a tournament needs at least 2 players, 1 round and 1 event")
    if not 0 <= config.flawed <= 1:
        raise ValueError("the flawed share is between 0 and 1")
    rng = SplitMix64(config.seed)
    width = len(str(config.players))
    players = [f"Player {i:0{width}d}" for i in range(1, config.players + 1)]
    deck_of = {p: pool[rng.below(len(pool))] for p in players}
    bundle = Bundle()
    it = iter(progress(range(config.events * config.rounds * (config.players // 2))))
    for e in range(config.events):
        day = config.start + dt.timedelta(weeks=e)
        event = config.name if config.events == 1 else f"{config.name} #{e + 1}"
        standings = {p: 0.0 for p in players}
        played: set[frozenset[str]] = set()
        for rnd in range(1, config.rounds + 1):
            pairs, bye = swiss_pairs(standings, played, rng)
            if bye is not None:
                standings[bye] += 1  # a bye counts as a win and is not a game
                bundle.byes += 1
            round_day = day + dt.timedelta(days=config.round_days * (rnd - 1))
            for table, (a, b) in enumerate(pairs, 1):
                next(it, None)
                if rng.below(2):
                    a, b = b, a  # who sits as player 1
                meta = {"event": event, "round": rnd, "table": str(table), "players": [a, b],
                        "date": round_day.isoformat()}
                seed = rng.next() >> 12  # 52 bits: exact in any JSON reader
                log = self_play(seed, decks=[deck_of[a], deck_of[b]], bot=config.bot, catalog=cat.version,
                                meta=meta)
                bundle.matches += 1
                played.add(frozenset((a, b)))
                winner = log["result"]["winner"]
                for seat, name in ((1, a), (2, b)):
                    standings[name] += 1.0 if winner == seat else 0.5 if winner is None else 0.0
                _add_upload(bundle, log, config.flawed, rng)
        _switch_decks(deck_of, standings, config.rounds, rng)
    for _ in it:  # run the progress iterator out, so a progress bar closes at 100%
        pass
    return bundle


def _add_upload(bundle: Bundle, log: dict, flawed: float, rng: SplitMix64) -> None:
    if flawed <= 0 or rng.below(1_000_000) >= flawed * 1_000_000:
        bundle.uploads.append(log)
        return
    flaw = FLAWS[rng.below(len(FLAWS))]
    if flaw == "dispute" and log["result"]["winner"] is None:
        flaw = "wrong_result"  # a drawn match has no loser to dispute it
    bundle.flaws[flaw] += 1
    if flaw == "illegal":
        bundle.uploads.append(make_illegal(log, rng))
    elif flaw == "wrong_result":
        bundle.uploads.append(wrong_result(log))
    elif flaw == "duplicate":
        bundle.uploads += [log, copy.deepcopy(log)]
    else:  # dispute: the true log, then the loser's version of the same match
        bundle.uploads += [log, wrong_result(log)]


def _switch_decks(deck_of: dict[str, str], standings: dict[str, float], rounds: int, rng: SplitMix64) -> None:
    """After an event, some players with a losing record copy the deck of a top-half player."""
    ranked = sorted(standings, key=lambda p: (-standings[p], p))
    top = ranked[: max(1, len(ranked) // 2)]
    for p in ranked[len(ranked) // 2:]:
        if standings[p] < rounds / 2 and rng.below(10) < SWITCH_CHANCE:
            deck_of[p] = deck_of[top[rng.below(len(top))]]
