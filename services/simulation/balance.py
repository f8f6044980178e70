"""The balance report, for any registered game: every faction's win rate when bots play it against
the game's other factions.

Game ``i`` of a run is fully determined by (seed, i): its different factions (one a seat) and its
game seed come from the engine's SplitMix64; the game's own set-up and chance come from that seed
(the rules object's ``self_play``), and every seat is played by the same kind of bot. Games run in
worker processes (one per core); results are counted in the parent from each game's outcome as the
engine replays it. The win rate follows the statistics API's convention (docs/services.md): wins /
games, where a seat wins only when its outcome says ``won`` — a draw, or a first rank shared with
another seat, is a game not won; the 95% interval is Wilson's (services.stats.intervals, via
statsmodels). The band a faction's rate must be inside is the game's own at that table size
(``BANDS``), else ``DEFAULT_BAND`` taken around an even share at that size (``band_for``).

Games are of the game's fewest players unless ``players`` says otherwise; a report may hold several
table sizes (``render`` of several ``SizeRun``), each with its own band.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.games import DEFAULT_GAME, rules_for
from engine.rng import SplitMix64
from services.simulation.processes import process_map
from services.simulation.simulate import outcome_of

DEFAULT_BAND = (0.40, 0.60)  # the design's target: every faction wins 40-60% of greedy-bot 2-player games
# a game's own band at a table size, where it has one (docs/balance.md, docs/balance-steam.md)
BANDS = {("bfe", 2): (0.35, 0.65), ("steam", 4): (0.15, 0.35)}
CHUNK = 50
# a game played in teams (its seats win together) is no faction's own win: it is counted only as an ending
TEAM_GAME = "team game (not in the win rates)"


def band_for(game: str, players: int = 2) -> tuple[float, float]:
    """The band at a table of ``players``: the game's own, else the design's 40-60% around an even 1 in 2
    taken around an even 1 in ``players`` (20-30% at four)."""
    low, high = DEFAULT_BAND
    return BANDS.get((game, players), (low * 2 / players, high * 2 / players))


@dataclass
class FactionTally:
    faction: str
    games: int = 0
    wins: int = 0
    draws: int = 0  # games not won in which the faction shared the first rank
    against: dict[str, list[int]] = field(default_factory=dict)  # opponent -> [games, wins]

    @property
    def deck(self) -> str:
        """Battle for Empyrean's word for the faction."""
        return self.faction

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def pairing(seed: int, i: int, factions: list[str], seats: int = 2) -> tuple[list[str], int]:
    """Game i's factions (all different: each drawn from those not yet seated, in the pool's order
    from the last one drawn) and its game seed."""
    rng = SplitMix64(seed * 0x9E3779B1 + i)
    a = rng.below(len(factions))
    chosen, rest = [factions[a]], factions[a + 1:] + factions[:a]
    for _ in range(seats - 1):
        k = rng.below(len(rest))
        chosen.append(rest[k])
        rest = rest[k + 1:] + rest[:k]
    return chosen, rng.next() >> 12


Chunk = tuple[int, int, int, str, str, list[str], int, str | None]  # games [start, stop) and how to play them


def _play_chunk(args: Chunk) -> list[tuple[list[str], list[tuple[bool, int]], str]]:
    """Worker: games [start, stop) -> (factions, each seat's (won, rank), how it ended) each; a game
    played in teams ends as ``TEAM_GAME``."""
    start, stop, seed, game, bot, factions, seats, catalog = args
    rules = rules_for(game)
    out = []
    for i in range(start, stop):
        chosen, game_seed = pairing(seed, i, factions, seats)
        outcome = outcome_of(rules.self_play(game_seed, bot=bot, players=seats, factions=chosen, catalog=catalog))
        teams = any(s.team is not None for s in outcome.seats)
        out.append((chosen, [(s.won, s.rank) for s in outcome.seats], TEAM_GAME if teams else str(outcome.how)))
    return out


def run(games: int, *, game: str = DEFAULT_GAME, bot: str = "greedy", seed: int = 1, jobs: int = 1,
        catalog: str | None = None, progress: Callable[[Iterable], Iterable] = lambda it: it,
        endings: Counter | None = None, players: int | None = None) -> dict[str, FactionTally]:
    """Play ``games`` games of ``game`` between different factions, at tables of ``players`` (None: as
    few seats as the game allows); each faction's tally. ``endings``, when given, counts how the games
    ended (the outcome's ``how``)."""
    rules = rules_for(game)
    factions = sorted(rules.faction_choices(catalog))
    seats = players or rules.info.min_players
    if not rules.info.min_players <= seats <= rules.info.max_players:
        raise ValueError(f"{rules.info.name} is for {rules.info.players_words()}; a table of {seats} is not")
    if len(factions) < seats:
        raise ValueError(f"a balance report of {rules.info.name} needs at least {seats} {rules.info.faction} choices")
    if bot not in rules.bots:
        raise ValueError(f"unknown bot {bot!r}; {rules.info.name} has {', '.join(rules.bots)}")
    tallies = {f: FactionTally(f) for f in factions}
    tasks = [(s, min(s + CHUNK, games), seed, game, bot, factions, seats, catalog) for s in range(0, games, CHUNK)]
    bar = iter(progress(range(games)))
    for chunk in process_map(_play_chunk, tasks, jobs):
        for chosen, places, how in chunk:
            if endings is not None:
                endings[how] += 1
            if how == TEAM_GAME:
                next(bar, None)
                continue
            for seat, (faction, (won, rank)) in enumerate(zip(chosen, places)):
                t = tallies[faction]
                t.games += 1
                t.wins += won
                t.draws += not won and rank == 1
                for other, opponent in enumerate(chosen):
                    if other != seat:
                        vs = t.against.setdefault(opponent, [0, 0])
                        vs[0] += 1
                        vs[1] += won
            next(bar, None)
    for _ in bar:  # run the progress iterator out, so a progress bar closes at 100%
        pass
    return tallies


def outside(tallies: dict[str, FactionTally], band: tuple[float, float]) -> list[str]:
    """The factions whose win rate is outside ``band``, best first."""
    return [t.faction for t in _ranked(tallies) if not band[0] <= t.rate <= band[1]]


def _ranked(tallies: dict[str, FactionTally]) -> list[FactionTally]:
    return sorted(tallies.values(), key=lambda t: (-t.rate, t.faction))


@dataclass
class SizeRun:
    """One table size's games of a report: its tallies, the band they are held to, how they ended."""
    players: int
    tallies: dict[str, FactionTally]
    band: tuple[float, float]
    endings: Counter | None = None
    seconds: float = 0.0  # how long its games took


def render(tallies: dict[str, FactionTally], *, games: int, bot: str, seed: int, catalog: str | None,
           command: str, seconds: float, game: str = DEFAULT_GAME, band: tuple[float, float] | None = None,
           endings: Counter | None = None, players: int | None = None,
           more: Iterable[SizeRun] = ()) -> str:
    """The report in Markdown (docs/balance.md for Battle for Empyrean) of ``games`` games at tables of
    ``players`` (None: the game's fewest), and of ``more`` table sizes, each of ``games`` games, under a
    heading of its own; with ``endings``, a table of how the games ended, so that a way of winning no
    game reaches shows."""
    info = rules_for(game).info
    seats = players or info.min_players
    runs = [SizeRun(seats, tallies, band or band_for(game, seats), endings, seconds), *more]
    played = f"catalog {catalog}; " if catalog else ""
    lines = [f"# Balance report: {info.name}", "", "Generated by a command; do not edit by hand:", "",
             f"    {command}", ""]
    for r in runs:
        if len(runs) > 1:
            lines += [f"## {r.players} players", ""]
        lines += _size_section(r, f"{info.name}, {played}{games:,} games", info.faction, bot=bot, seed=seed,
                               level="###" if len(runs) > 1 else "##")
    return "\n".join(lines).rstrip("\n") + "\n"


def _size_section(r: SizeRun, played: str, word: str, *, bot: str, seed: int, level: str) -> list[str]:
    from services.stats.intervals import wilson_interval

    tallies, band, endings = r.tallies, r.band, r.endings
    ranked = _ranked(tallies)
    inside = not outside(tallies, band)
    lines = [
        f"{played}, {bot} bot against {bot} bot in every seat; each game "
        f"{r.players} different {word} choices, and the game's set-up and chance drawn from seed {seed}. "
        f"Win rate = wins / games (a draw, or a first rank shared with another seat, is a game not won), with "
        f"Wilson 95% intervals. Target: every {word} between {band[0]:.0%} and {band[1]:.0%}. "
        f"**{f'Every {word} is inside it.' if inside else f'Not every {word} is inside it.'}**",
        f"Run time {r.seconds / 60:.1f} min on this machine ({dt.date.today().isoformat()}).",
        "",
        f"| {word} | games | wins | draws | losses | win rate | 95% interval | in band |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | :---: |",
    ]
    for t in ranked:
        lo, hi = wilson_interval(t.wins, t.games)
        ok = "yes" if band[0] <= t.rate <= band[1] else "**no**"
        lines.append(f"| {t.faction} | {t.games:,} | {t.wins:,} | {t.draws:,} | {t.losses:,} | {t.rate:.1%} | "
                     f"{lo or 0.0:.1%} – {hi or 0.0:.1%} | {ok} |")
    names = [t.faction for t in ranked]
    lines += ["", f"{level} Matchups", "",
              f"Row {word}'s win rate against the column {word} (games in brackets).", "",
              f"| {word} | " + " | ".join(names) + " |",
              "| --- |" + " ---: |" * len(names)]
    for f in names:
        cells = []
        for o in names:
            g, w = tallies[f].against.get(o, [0, 0])
            cells.append(f"{w / g:.0%} ({g})" if g else "–")
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    if endings:
        total = sum(endings.values())
        lines += ["", f"{level} How the games ended", "", "| ending | games | share |", "| --- | ---: | ---: |"]
        lines += [f"| {how} | {n:,} | {n / total:.1%} |" for how, n in endings.most_common()]
    return lines + [""]
