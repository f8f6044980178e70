"""Tournament simulator: Swiss events played by bots, written as a bundle of game logs, for any
registered game (engine.games): matches of two seats, or tables of more where the game seats them.

``simulate(config)`` plays ``events`` Swiss tournaments, one a week, with the same ``players``
players (each with a faction — a deck, a colour … — chosen from a pool or at random). Between events
some players switch to factions that did well, so the meta share moves over time the way a real one
does. Each match is a seeded self-play game of the game's rules object (``self_play``); its outcome
as the engine replays it (``engine.replay.replay(log).outcome``: each seat's rank and whether it
won) feeds the Swiss standings, so no game's own result format is read here.

A round seats two players a match by default; ``seats`` gives each round's table size, cycled over the
rounds (``(2, 4)``: rounds of pairs and rounds of four), for a game whose statistics are by table size.
A round of larger tables seats players in order of their standing (ties in a seeded order), as many
tables as fill; the lowest-placed players left over get a bye.

A chosen share of matches is uploaded with a deliberate flaw, for demonstrating verification:

- ``illegal``: one player decision is replaced by another line of the same log that the rules refuse
  at that point (checked by replaying, so the verdict is certain: ``illegal`` at that decision); a
  game with no such line anywhere gets a ``wrong_result`` instead, so the counts stay exact;
- ``wrong_result``: the log claims another seat won (the game's ``misclaimed_result``: ``mismatch``);
- ``duplicate``: the same log is uploaded twice (the service keeps one game; verify sees two);
- ``dispute``: the loser uploads the match a second time claiming the win (``mismatch``, and the
  service opens a dispute for the match).

The bundle's ``expected`` counts say what verification and the upload API must report for it.
Everything is deterministic given the seed: the engine's SplitMix64, never global random state.
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
from collections.abc import Callable, Iterable
from dataclasses import InitVar, dataclass, field
from typing import Any

import networkx as nx

from engine.games import CHANCE, DEFAULT_GAME, Outcome, rules_for
from engine.replay import replay
from engine.rng import SplitMix64

FLAWS = ("illegal", "wrong_result", "duplicate", "dispute")
SWITCH_CHANCE = 3  # in 10: a player with a losing record tries a faction from the top half next event
SEATS = 2  # a Swiss match is two players, unless the config seats more (SimConfig.seats)


@dataclass
class SimConfig:
    players: int = 64
    rounds: int = 6
    events: int = 1
    factions: list[str] | None = None  # the pool players' factions come from (None: the game's every choice)
    bot: str = "greedy"
    flawed: float = 0.0  # share of matches uploaded with a flaw
    seed: int = 1
    start: dt.date = dt.date(2026, 9, 5)
    round_days: int = 0  # days between rounds of one event (0: a one-day event; 7: a weekly league)
    name: str = "Simulated Open"
    game: str = DEFAULT_GAME
    catalog: str | None = None  # the game's catalog version played (None: its default)
    seats: tuple[int, ...] = (SEATS,)  # players at a table, round by round (cycled over the rounds)
    decks: InitVar[list[str] | None] = None  # Battle for Empyrean's word for the pool: ``factions``

    def __post_init__(self, decks: list[str] | None) -> None:
        if decks is not None:
            if self.factions is not None:
                raise ValueError("give the pool as factions or as decks, not both")
            self.factions = list(decks)


@dataclass
class Bundle:
    uploads: list[dict] = field(default_factory=list)  # in upload order
    flaws: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FLAWS})
    matches: int = 0
    byes: int = 0
    # the uploads the statistics count: every match uploaded without a flaw and a duplicated one once,
    # not a disputed match (an open dispute counts neither upload) nor a flawed log
    counted: list[dict] = field(default_factory=list)

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


def swiss_tables(standings: dict[str, float], played: set[frozenset[str]], rng: SplitMix64, size: int
                 ) -> tuple[list[tuple[str, ...]], list[str]]:
    """Tables of ``size`` for the next round, and the players with a bye. Pairs are Swiss pairs
    (``swiss_pairs``); larger tables seat players in order of their standing, ties in a seeded order,
    and the players left over when the tables are full, the lowest placed, get the byes."""
    if size == SEATS:
        pairs, bye = swiss_pairs(standings, played, rng)
        return list(pairs), [] if bye is None else [bye]
    order = sorted(standings)
    rng.shuffle(order)
    order.sort(key=lambda p: -standings[p])  # stable: equal standings keep the seeded order
    full = len(order) - len(order) % size
    return [tuple(order[i:i + size]) for i in range(0, full, size)], order[full:]


def _seated(table: tuple[str, ...], rng: SplitMix64) -> list[str]:
    """The table's players in seat order (player 1 first), drawn from ``rng``."""
    seated = list(table)
    if len(seated) == SEATS:
        if rng.below(2):
            seated.reverse()
    else:
        rng.shuffle(seated)
    return seated


# ---------------------------------------------------------------------------- flaws
def _rules_of(log: dict) -> Any:
    return rules_for(log.get("game", DEFAULT_GAME))


def make_illegal(log: dict, rng: SplitMix64) -> dict | None:
    """The log with one player decision replaced by a line the rules refuse at that point, so that
    the whole log replayed says illegal at exactly that decision; None when no decision of the game
    can be made so.

    From a random player decision on, each is tried in turn with the player lines written elsewhere
    in the same log (they read well, and are often refused: a card already played, a turn not
    yours), in a seeded order. A line the game refuses at that point is not always enough: a forced
    answer (the only legal one) may be written or left out, so a replacement such as 'P1 pass' just
    after P1's forced pass reads as that pass written out, and the log fails later or not at all.
    So each candidate is replayed, and kept only when the log fails where it was put."""
    rules = _rules_of(log)
    lines = log["decisions"]
    chosen = [i for i, text in enumerate(lines) if rules.parse_line(text).actor != CHANCE]
    written = sorted({lines[i] for i in chosen})
    start = rng.below(len(chosen)) if chosen else 0
    for k in range(len(chosen)):  # the first decision (from a random start) with a refused twin
        i = chosen[(start + k) % len(chosen)]
        candidates = [text for text in written if text != lines[i]]
        rng.shuffle(candidates)
        for text in candidates:
            out = {**log, "decisions": [*lines[:i], text, *lines[i + 1:]]}
            verdict = replay(out, record=False).verdict
            if verdict.status == "illegal" and verdict.index == i:
                return copy.deepcopy(out)
    return None


def wrong_result(log: dict) -> dict:
    """The log claiming another seat won (the game's ``misclaimed_result``)."""
    out = copy.deepcopy(log)
    out["result"] = _rules_of(log).misclaimed_result(log["result"])
    return out


def outcome_of(log: dict) -> Outcome:
    """How a finished self-played game ended, seat by seat, as the engine replays it."""
    result = replay(log, record=False)
    if result.outcome is None:  # pragma: no cover - self-play writes finished, legal games
        raise RuntimeError(f"a self-played game did not replay to its end: {result.verdict.message}")
    return result.outcome


def points(outcome: Outcome, seat: int) -> float:
    """A seat's Swiss points: 1 for a win, 1/2 for a draw (a rank shared at the top), else 0."""
    place = outcome.seats[seat - 1]
    return 1.0 if place.won else 0.5 if place.rank == 1 else 0.0


# ---------------------------------------------------------------------------- the simulation
def check_pool(rules: Any, factions: list[str] | None, bot: str, catalog: str | None = None) -> list[str]:
    """The pool of factions to draw from (the game's every choice in ``catalog`` when ``factions`` is
    None); ValueError naming what is wrong for an unknown faction or bot."""
    info = rules.info
    choices = rules.faction_choices(catalog)
    pool = sorted(factions or choices)
    unknown = [f for f in pool if f not in choices]
    if unknown:
        raise ValueError(f"unknown {info.faction}(s) {', '.join(unknown)}; "
                         f"{info.name} has {', '.join(sorted(choices))}")
    if bot not in rules.bots:
        raise ValueError(f"unknown bot {bot!r}; {info.name} has {', '.join(rules.bots)}")
    return pool


def simulate(config: SimConfig, progress: Callable[[Iterable], Iterable] = lambda it: it) -> Bundle:
    """Play the events; ``progress`` wraps the iterator of matches (e.g. a tqdm progress bar)."""
    rules = rules_for(config.game)
    for size in config.seats:
        if not rules.info.min_players <= size <= rules.info.max_players:
            raise ValueError(f"{rules.info.name} is for {rules.info.players_words()}; a table of {size} is not")
    pool = check_pool(rules, config.factions, config.bot, config.catalog)
    if config.players < 2 or config.rounds < 1 or config.events < 1 or config.round_days < 0:
        raise ValueError("a tournament needs at least 2 players, 1 round and 1 event")
    if not config.seats or max(config.seats) > config.players:
        raise ValueError(f"tables of {', '.join(map(str, config.seats)) or 'no'} players need at least as many "
                         f"players as the largest seats; there are {config.players}")
    if not 0 <= config.flawed <= 1:
        raise ValueError("the flawed share is between 0 and 1")
    rng = SplitMix64(config.seed)
    width = len(str(config.players))
    players = [f"Player {i:0{width}d}" for i in range(1, config.players + 1)]
    faction_of = {p: pool[rng.below(len(pool))] for p in players}
    bundle = Bundle()
    sizes = [config.seats[r % len(config.seats)] for r in range(config.rounds)]  # each round's table size
    it = iter(progress(range(config.events * sum(config.players // size for size in sizes))))
    for e in range(config.events):
        day = config.start + dt.timedelta(weeks=e)
        event = config.name if config.events == 1 else f"{config.name} #{e + 1}"
        standings = {p: 0.0 for p in players}
        played: set[frozenset[str]] = set()
        for rnd, size in enumerate(sizes, 1):
            tables, byes = swiss_tables(standings, played, rng, size)
            for bye in byes:
                standings[bye] += 1  # a bye counts as a win and is not a game
            bundle.byes += len(byes)
            round_day = day + dt.timedelta(days=config.round_days * (rnd - 1))
            for table, players_at in enumerate(tables, 1):
                next(it, None)
                seated = _seated(players_at, rng)  # who sits as player 1, 2 …
                meta = {"event": event, "round": rnd, "table": str(table), "players": seated,
                        "date": round_day.isoformat()}
                seed = rng.next() >> 12  # 52 bits: exact in any JSON reader
                log = rules.self_play(seed, bot=config.bot, players=len(seated),
                                      factions=[faction_of[p] for p in seated], meta=meta, catalog=config.catalog)
                outcome = outcome_of(log)
                bundle.matches += 1
                played.update(frozenset(pair) for pair in itertools.combinations(seated, 2))
                for seat, name in enumerate(seated, 1):
                    standings[name] += points(outcome, seat)
                _add_upload(bundle, log, outcome, config.flawed, rng)
        _switch_factions(faction_of, standings, config.rounds, rng)
    for _ in it:  # run the progress iterator out, so a progress bar closes at 100%
        pass
    return bundle


def _add_upload(bundle: Bundle, log: dict, outcome: Outcome, flawed: float, rng: SplitMix64) -> None:
    if flawed <= 0 or rng.below(1_000_000) >= flawed * 1_000_000:
        bundle.uploads.append(log)
        bundle.counted.append(log)
        return
    flaw = FLAWS[rng.below(len(FLAWS))]
    if flaw == "dispute" and outcome.winner is None:
        flaw = "wrong_result"  # a drawn match has no loser to dispute it
    # the search draws from a stream of its own: how long it took changes none of the later matches
    illegal = make_illegal(log, SplitMix64(rng.next())) if flaw == "illegal" else None
    if flaw == "illegal" and illegal is None:
        flaw = "wrong_result"  # no decision of this game can be made illegal
    bundle.flaws[flaw] += 1
    if illegal is not None:
        bundle.uploads.append(illegal)
    elif flaw == "wrong_result":
        bundle.uploads.append(wrong_result(log))
    elif flaw == "duplicate":
        bundle.uploads += [log, copy.deepcopy(log)]
        bundle.counted.append(log)
    else:  # dispute: the true log, then the loser's version of the same match
        bundle.uploads += [log, wrong_result(log)]


def _switch_factions(faction_of: dict[str, str], standings: dict[str, float], rounds: int, rng: SplitMix64) -> None:
    """After an event, some players with a losing record copy the faction of a top-half player."""
    ranked = sorted(standings, key=lambda p: (-standings[p], p))
    top = ranked[: max(1, len(ranked) // 2)]
    for p in ranked[len(ranked) // 2:]:
        if standings[p] < rounds / 2 and rng.below(10) < SWITCH_CHANCE:
            faction_of[p] = faction_of[top[rng.below(len(top))]]
