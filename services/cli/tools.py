"""``empyrean`` commands for the catalog, for generating games and for seat views: ``cards``,
``catalog check``, ``catalog docs``, ``simulate``, ``balance`` and ``merge``. None needs a
database or the network."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import sys
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[2]
CATALOG_DOC = ROOT / "docs" / "catalog.md"
BALANCE_DOC = ROOT / "docs" / "balance.md"


def _catalog(version: str | None):
    from engine.catalog import available_versions, load_catalog

    try:
        return load_catalog(version) if version else load_catalog()
    except KeyError:
        raise click.BadParameter(f"unknown catalog version {version!r}; there are {', '.join(available_versions())}",
                                 param_hint="--catalog") from None


@click.command()
@click.argument("query", nargs=-1)
@click.option("--catalog", "version", help="Catalog version (default: the newest).")
def cards(query: tuple[str, ...], version: str | None) -> None:
    """List and search cards and battlefields with their text: every word of QUERY must appear in
    the name, deck, type, ability or text (e.g. `empyrean cards stun`, `empyrean cards vikings 8`)."""
    from services.cli.catalog_ref import search

    cat = _catalog(version)
    found = search(cat, " ".join(query))
    for entry in found:
        click.echo(entry)
    click.echo(f"{len(found)} match(es) in catalog {cat.version}", err=True)
    sys.exit(0 if found else 1)


@click.group()
def catalog() -> None:
    """Check catalog data files and render the catalog reference."""


@catalog.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--catalog", "version", help="Catalog the files are checked against (default: the newest).")
def catalog_check(paths: tuple[Path, ...], version: str | None) -> None:
    """Validate a deck file, a battlefields file or a whole catalog version folder. Each problem
    names the file, the card and the field. Exit status 0 when every file is valid, 1 otherwise."""
    from engine.catalog import CatalogError
    from services.cli.catalog_ref import check_file

    base = _catalog(version)
    ok = True
    for path in paths:
        try:
            click.echo("ok: " + check_file(path, base))
        except CatalogError as exc:
            ok = False
            click.echo(f"error: {exc}")
    sys.exit(0 if ok else 1)


@catalog.command("docs")
@click.option("--out", type=click.Path(path_type=Path), default=CATALOG_DOC, show_default=True)
@click.option("--catalog", "version", help="Catalog version (default: the newest).")
def catalog_docs(out: Path, version: str | None) -> None:
    """Write the catalog reference (docs/catalog.md) from the data."""
    from services.cli.catalog_ref import render_markdown

    out.write_text(render_markdown(_catalog(version)), encoding="utf-8")
    click.echo(f"wrote {out}")


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
def simulate(players: int, rounds: int, events: int, decks: tuple[str, ...], bot: str, flawed: float,
             seed: int, start: dt.datetime, round_days: int, name: str, version: str | None, out: Path,
             expected: Path | None) -> None:
    """Generate Swiss tournaments played by bots, as a bundle of game logs that loads straight into
    `empyrean upload --event` and `empyrean verify`."""
    from services.platform.native import use_native_engine

    use_native_engine()
    from tqdm import tqdm

    from services.simulation.simulate import SimConfig, simulate as run

    cat = _catalog(version)
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
def balance(games: int, bot: str, seed: int, jobs: int, version: str | None, out: Path) -> None:
    """Play GAMES bot-vs-bot games between different decks and write each deck's win rate with
    its 95% interval (docs/balance.md). Exit status 1 when a deck is outside 35-65%."""
    from services.platform.native import use_native_engine

    use_native_engine()
    from tqdm import tqdm

    from services.simulation import balance as report

    cat = _catalog(version)
    t = time.perf_counter()
    tallies = report.run(games, bot=bot, seed=seed, catalog=cat.version, jobs=jobs,
                         progress=lambda it: tqdm(it, desc="playing", unit="game"))
    command = f"empyrean balance --games {games} --bot {bot} --seed {seed} --catalog {cat.version}"
    out.write_text(report.render(tallies, games=games, bot=bot, seed=seed, catalog=cat.version,
                                 command=command, seconds=time.perf_counter() - t), encoding="utf-8")
    outside = [t.deck for t in tallies.values() if not report.BAND[0] <= t.wins / max(1, t.games) <= report.BAND[1]]
    click.echo(f"wrote {out}" + (f"; outside the band: {', '.join(outside)}" if outside else "; every deck in band"))
    sys.exit(1 if outside else 0)


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the merged log here "
              "(default: standard output).")
def merge(paths: tuple[str, ...], output: str | None) -> None:
    """Merge two or three seat views of one game (logs written from different seats) into one log
    with every card any of them saw. Where they disagree about something both saw, say where and
    write nothing. Exit status: 0 merged, 1 not merged, 2 usage error."""
    from engine.replay import replay
    from engine.seats import MergeConflict, merge_logs

    if not 2 <= len(paths) <= 3:
        raise click.UsageError("merge two or three logs of one game, one per seat")
    sources = []
    for p in paths:
        if not Path(p).is_file():
            raise click.UsageError(f"no such file: {p}")
        sources.append(Path(p).read_bytes())
    try:
        merged = merge_logs(sources, labels=list(paths))
    except MergeConflict as exc:
        click.echo(f"not merged: {exc}", err=True)
        for label, said in exc.versions:
            click.echo(f"  {label}: {said}", err=True)
        click.echo("nothing was written", err=True)
        sys.exit(1)
    text = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    Path(output).write_text(text, encoding="utf-8")
    click.echo(f"merged {len(paths)} logs into {output}: {replay(merged, record=False).verdict.message}")


def register(main: click.Group) -> None:
    for command in (cards, catalog, simulate, balance, merge):
        main.add_command(command)
