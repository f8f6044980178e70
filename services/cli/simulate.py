"""``empyrean simulate`` (Swiss tournaments played by bots, as a bundle of logs) and ``empyrean
balance`` (each faction's win rate, docs/balance.md), for any registered game (``--game``). Both
choose the engine build before they import the engine (services.platform.native), so this module
imports neither at import."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path

import click

from services.cli.catalog import ROOT
from services.cli.games import default_game, game_option

PLAYED = "The game to play (left out: Battle for Empyrean, the game of a log that names none)."

BALANCE_DOC = ROOT / "docs" / "balance.md"


def _played_catalog(game: str, version: str | None) -> str:
    """The catalog version of ``game`` the games are played under: ``--catalog``, else the game's
    default (its newest); a usage error naming the versions there are for one it does not have."""
    from engine import games

    versions = games.rules_for(game).catalog_versions()
    if version is not None and version not in versions:
        raise click.BadParameter(f"unknown catalog version {version!r} of {games.info(game).name}; there are "
                                 f"{', '.join(versions)}", param_hint="--catalog")
    return version or versions[-1]


@click.command()
@click.option("--players", type=click.IntRange(min=2), default=64, show_default=True)
@click.option("--rounds", type=click.IntRange(min=1), default=6, show_default=True, help="Swiss rounds per event.")
@click.option("--seats", type=click.IntRange(min=2), multiple=True,
              help="Players at a table (default 2); repeat it to vary the tables round by round, cycled "
                   "(--seats 2 --seats 4: rounds of pairs and rounds of four).")
@click.option("--events", type=click.IntRange(min=1), default=1, show_default=True, help="Events, one a week.")
@click.option("--faction", "--deck", "factions", multiple=True,
              help="A faction (Battle for Empyrean: a deck) players may bring (repeat; default: every one).")
@click.option("--bot", default="greedy", show_default=True, help="One of the game's bots (greedy, random …).")
@click.option("--flawed", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Share of matches uploaded with a flaw (illegal decision, wrong result, duplicate, dispute).")
@click.option("--seed", type=click.IntRange(min=0, max=2**52), default=1, show_default=True)
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), default="2026-09-05", show_default=True,
              help="Date of the first event.")
@click.option("--round-days", type=click.IntRange(min=0), default=0, show_default=True,
              help="Days between an event's rounds (0: one-day events; 7: a weekly league).")
@click.option("--name", default="Simulated Open", show_default=True, help="Event name (numbered when several).")
@click.option("--catalog", "version", help="The game's catalog version played (default: its newest).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The bundle: .ndjson or .json (an array), optionally .gz.")
@click.option("--expected", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the expected verification counts here (JSON).")
@game_option(PLAYED)
def simulate(players: int, rounds: int, seats: tuple[int, ...], events: int, factions: tuple[str, ...], bot: str,
             flawed: float, seed: int, start: dt.datetime, round_days: int, name: str, version: str | None, out: Path,
             expected: Path | None, game: str | None) -> None:
    """Generate Swiss tournaments played by bots, as a bundle of game logs that loads straight into
    `empyrean upload --event` and `empyrean verify`."""
    from services.platform.native import use_native_engine

    use_native_engine()
    from tqdm import tqdm

    from services.simulation.simulate import SEATS, SimConfig
    from services.simulation.simulate import simulate as run

    game = default_game(game)
    catalog = _played_catalog(game, version)
    config = SimConfig(players=players, rounds=rounds, events=events, factions=list(factions) or None, bot=bot,
                       flawed=flawed, seed=seed, start=start.date(), round_days=round_days, name=name, game=game,
                       catalog=catalog, seats=seats or (SEATS,))
    try:
        bundle = run(config, progress=lambda it: tqdm(it, desc="simulating", unit="game"))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if out.suffix == ".gz":
        opener, kind = gzip.open, Path(out.stem).suffix
    else:
        opener, kind = open, out.suffix
    with opener(out, "wt", encoding="utf-8") as f:
        if kind == ".json":
            json.dump(bundle.uploads, f)
        else:
            for log in bundle.uploads:
                f.write(json.dumps(log) + "\n")
    counts = bundle.expected()
    if expected:
        expected.write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    v = counts["verify"]
    click.echo(f"wrote {counts['uploads']} uploads ({counts['matches']} matches) to {out}; "
               f"verify should find {v['valid']} valid, {v['illegal']} illegal, {v['mismatch']} mismatch")


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=20_000, show_default=True)
@click.option("--bot", default="greedy", show_default=True, help="One of the game's bots (greedy, random …).")
@click.option("--seed", type=click.IntRange(min=0, max=2**32), default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True, help="Worker processes.")
@click.option("--catalog", "version", help="The game's catalog version played (default: its newest).")
@click.option("--players", type=click.IntRange(min=2), multiple=True,
              help="Players at each game's table (default: the game's fewest); repeat it for a report of each "
                   "table size, GAMES games each.")
@click.option("--band", type=click.FloatRange(0, 1), nargs=2, default=None, metavar="LO HI",
              help="The win rates every faction must be between (default: the game's band at the table size, "
                   "docs/balance.md).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="The report (default: docs/balance.md for Battle for Empyrean, docs/balance-KEY.md for another).")
@game_option(PLAYED)
def balance(games: int, bot: str, seed: int, jobs: int, version: str | None, players: tuple[int, ...],
            band: tuple[float, float] | None, out: Path | None, game: str | None) -> None:
    """Play GAMES bot-vs-bot games between different factions and write each faction's win rate with
    its 95% interval (docs/balance.md). Exit status 1 when a faction is outside the band (the
    game's own, 35-65% for Battle for Empyrean, else 40-60% at two players; or --band)."""
    from services.platform.native import use_native_engine

    use_native_engine()
    from tqdm import tqdm

    from engine.games import DEFAULT_GAME, info
    from services.simulation import balance as report

    game = default_game(game)
    catalog = _played_catalog(game, version)
    if band is not None and band[0] > band[1]:
        raise click.BadParameter(f"the band's low end {band[0]} is above its high end {band[1]}", param_hint="--band")
    out = out or (BALANCE_DOC if game == DEFAULT_GAME else ROOT / "docs" / f"balance-{game}.md")
    runs = []
    for seats in players or (info(game).min_players,):
        t = time.perf_counter()
        endings: Counter = Counter()
        try:
            tallies = report.run(games, game=game, bot=bot, seed=seed, jobs=jobs, catalog=catalog, players=seats,
                                 progress=lambda it: tqdm(it, desc=f"playing ({seats} players)", unit="game"),
                                 endings=endings)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        runs.append(report.SizeRun(seats, tallies, band or report.band_for(game, seats), endings,
                                   time.perf_counter() - t))
    command = ("empyrean balance" + (f" --game {game}" if game != DEFAULT_GAME else "") +
               f" --games {games} --bot {bot} --seed {seed}" + (f" --catalog {catalog}" if catalog else "") +
               "".join(f" --players {n}" for n in players) + (f" --band {band[0]} {band[1]}" if band else ""))
    first, *more = runs
    out.write_text(report.render(first.tallies, games=games, bot=bot, seed=seed, catalog=catalog, command=command,
                                 seconds=first.seconds, game=game, band=first.band, endings=first.endings,
                                 players=first.players, more=more), encoding="utf-8")
    outside = [(r.players, report.outside(r.tallies, r.band)) for r in runs]
    outside = [(f"{n} players: " if len(runs) > 1 else "") + ", ".join(names) for n, names in outside if names]
    click.echo(f"wrote {out}" + (f"; outside the band: {'; '.join(outside)}" if outside
                                 else f"; every {info(game).faction} in band"))
    sys.exit(1 if outside else 0)


COMMANDS = (simulate, balance)
