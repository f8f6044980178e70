"""``empyrean simulate`` (Swiss tournaments played by bots, as a bundle of logs) and ``empyrean
balance`` (each deck's win rate, docs/balance.md). Both choose the engine build before they import
the engine (services.platform.native), so this module imports neither at import."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import sys
import time
from pathlib import Path

import click

from services.cli.catalog import ROOT, load_catalog_option
from services.cli.games import game_option, play_only_what_is_written

PLAYED = "The game to play (left out: the game of a log that names none); only Battle for Empyrean for now."

BALANCE_DOC = ROOT / "docs" / "balance.md"


@click.command()
@click.option("--players", type=click.IntRange(min=2), default=64, show_default=True)
@click.option("--rounds", type=click.IntRange(min=1), default=6, show_default=True, help="Swiss rounds per event.")
@click.option("--events", type=click.IntRange(min=1), default=1, show_default=True, help="Events, one a week.")
@click.option("--deck", "decks", multiple=True, help="A deck players may bring (repeat; default: every deck).")
@click.option("--bot", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True)
@click.option("--flawed", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Share of matches uploaded with a flaw (illegal decision, wrong result, duplicate, dispute).")
@click.option("--seed", type=click.IntRange(min=0, max=2**52), default=1, show_default=True)
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), default="2026-09-05", show_default=True,
              help="Date of the first event.")
@click.option("--round-days", type=click.IntRange(min=0), default=0, show_default=True,
              help="Days between an event's rounds (0: one-day events; 7: a weekly league).")
@click.option("--name", default="Simulated Open", show_default=True, help="Event name (numbered when several).")
@click.option("--catalog", "version", help="Catalog version (default: the newest).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The bundle: .ndjson or .json (an array), optionally .gz.")
@click.option("--expected", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the expected verification counts here (JSON).")
@game_option(PLAYED)
def simulate(players: int, rounds: int, events: int, decks: tuple[str, ...], bot: str, flawed: float,
             seed: int, start: dt.datetime, round_days: int, name: str, version: str | None, out: Path,
             expected: Path | None, game: str | None) -> None:
    """Generate Swiss tournaments played by bots, as a bundle of game logs that loads straight into
    `empyrean upload --event` and `empyrean verify`."""
    play_only_what_is_written("simulate", game)
    from services.platform.native import use_native_engine

    use_native_engine()
    from tqdm import tqdm

    from services.simulation.simulate import SimConfig
    from services.simulation.simulate import simulate as run

    cat = load_catalog_option(version)
    config = SimConfig(players=players, rounds=rounds, events=events, decks=list(decks) or None, bot=bot,
                       flawed=flawed, seed=seed, start=start.date(), round_days=round_days, name=name,
                       catalog=cat.version)
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
@click.option("--bot", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True)
@click.option("--seed", type=click.IntRange(min=0, max=2**32), default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True, help="Worker processes.")
@click.option("--catalog", "version", help="Catalog version (default: the newest).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=BALANCE_DOC, show_default=True)
@game_option(PLAYED)
def balance(games: int, bot: str, seed: int, jobs: int, version: str | None, out: Path, game: str | None) -> None:
    """Play GAMES bot-vs-bot games between different decks and write each deck's win rate with
    its 95% interval (docs/balance.md). Exit status 1 when a deck is outside 35-65%."""
    play_only_what_is_written("balance", game)
    from services.platform.native import use_native_engine

    use_native_engine()
    from tqdm import tqdm

    from services.simulation import balance as report

    cat = load_catalog_option(version)
    t = time.perf_counter()
    tallies = report.run(games, bot=bot, seed=seed, catalog=cat.version, jobs=jobs,
                         progress=lambda it: tqdm(it, desc="playing", unit="game"))
    command = f"empyrean balance --games {games} --bot {bot} --seed {seed} --catalog {cat.version}"
    out.write_text(report.render(tallies, games=games, bot=bot, seed=seed, catalog=cat.version,
                                 command=command, seconds=time.perf_counter() - t), encoding="utf-8")
    outside = [t.deck for t in tallies.values() if not report.BAND[0] <= t.wins / max(1, t.games) <= report.BAND[1]]
    click.echo(f"wrote {out}" + (f"; outside the band: {', '.join(outside)}" if outside else "; every deck in band"))
    sys.exit(1 if outside else 0)


COMMANDS = (simulate, balance)
