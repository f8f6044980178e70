"""``empyrean cards`` (search the catalog) and ``empyrean catalog`` (check data files, render
docs/catalog.md); the reference itself is services.cli.catalog_ref. Neither needs a database or
the network."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from services.cli.games import default_game, game_option, play_only_what_is_written

OF_GAME = "The game whose catalog it is (left out: the game of a log that names none)."
CHECKS_GAME = ("The game whose catalog files are checked (left out: the game of a log that names none); Battle for "
               "Empyrean only for now.")

ROOT = Path(__file__).resolve().parents[2]
CATALOG_DOC = ROOT / "docs" / "catalog.md"


def load_catalog_option(version: str | None):
    from engine.bfe.catalog import available_versions, load_catalog

    try:
        return load_catalog(version) if version else load_catalog()
    except KeyError:
        raise click.BadParameter(f"unknown catalog version {version!r}; there are {', '.join(available_versions())}",
                                 param_hint="--catalog") from None


@click.command()
@click.argument("query", nargs=-1)
@click.option("--catalog", "version", help="Catalog version (default: the newest).")
@game_option(OF_GAME)
def cards(query: tuple[str, ...], version: str | None, game: str | None) -> None:
    """List and search a game's catalog with its text: every word of QUERY must appear in an entry
    (Battle for Empyrean: a card's or battlefield's name, deck, type, ability or text; e.g. `empyrean
    cards stun`, `empyrean cards vikings 8`, `empyrean cards --game titans dragon`)."""
    from engine.games import DEFAULT_GAME

    if default_game(game) == DEFAULT_GAME:
        from services.cli.catalog_ref import search

        cat = load_catalog_option(version)
        found, version = search(cat, " ".join(query)), cat.version
    else:
        from services.cli.catalog_ref import search_data

        data = game_catalog(default_game(game), version)
        found, version = search_data(data, " ".join(query)), data["version"]
    for entry in found:
        click.echo(entry)
    click.echo(f"{len(found)} match(es) in catalog {version}", err=True)
    sys.exit(0 if found else 1)


def game_catalog(game: str, version: str | None) -> dict:
    """One catalog version of a game other than Battle for Empyrean (the newest when not named)."""
    from engine import games

    return games.rules_for(game).catalog_data(catalog_version(game, version))  # type: ignore[no-any-return]


def catalog_version(game: str, version: str | None) -> str:
    """``--catalog`` of a game's rules' catalog versions (left out: the newest); an unknown one is refused
    naming the versions there are."""
    from engine import games

    versions = games.rules_for(game).catalog_versions()
    if version is not None and version not in versions:
        raise click.BadParameter(f"unknown catalog version {version!r} of {games.info(game).name}; there are "
                                 f"{', '.join(versions)}", param_hint="--catalog")
    return version or versions[-1]  # type: ignore[no-any-return]


@click.group()
@game_option(CHECKS_GAME)
def catalog(game: str | None) -> None:
    """Check catalog data files and render the catalog reference."""
    play_only_what_is_written("catalog", game)


@catalog.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--catalog", "version", help="Catalog the files are checked against (default: the newest).")
def catalog_check(paths: tuple[Path, ...], version: str | None) -> None:
    """Validate a deck file, a battlefields file or a whole catalog version folder. Each problem
    names the file, the card and the field. Exit status 0 when every file is valid, 1 otherwise."""
    from engine.bfe.catalog import CatalogError
    from services.cli.catalog_ref import check_file

    base = load_catalog_option(version)
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

    out.write_text(render_markdown(load_catalog_option(version)), encoding="utf-8")
    click.echo(f"wrote {out}")


COMMANDS = (cards, catalog)
