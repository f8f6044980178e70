"""``empyrean cards`` (search a game's catalog) and ``empyrean catalog`` (check a game's data files with
its rules' ``check_catalog``, render its reference: docs/catalog.md, docs/catalog-<key>.md); the
reference itself is services.cli.catalog_ref. Neither needs a database or the network."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from services.cli.games import default_game, game_option

OF_GAME = "The game whose catalog it is (left out: the game of a log that names none)."
CHECKS_GAME = "The game whose catalog files are checked or rendered (left out: the game of a log that names none)."

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
@click.pass_context
def catalog(ctx: click.Context, game: str | None) -> None:
    """Check a game's catalog data files and render its catalog reference."""
    ctx.obj = default_game(game)  # the game its commands are about


@catalog.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--catalog", "version", help="Catalog the files are checked against (default: the newest).")
@click.pass_obj
def catalog_check(game: str, paths: tuple[Path, ...], version: str | None) -> None:
    """Validate catalog files: Battle for Empyrean's deck file, battlefields file or catalog version
    folder; another game's as its rules read them (Titans: a folder of its four files, or one of them in
    place of the catalog's own). Each problem names the file, the item and the field. Exit status 0 when
    every path is valid, 1 otherwise."""
    from engine.games import DEFAULT_GAME, rules_for

    rules = rules_for(game)
    against = load_catalog_option(version).version if game == DEFAULT_GAME else catalog_version(game, version)
    ok = True
    for path in paths:
        try:
            click.echo("ok: " + rules.check_catalog(str(path), against))
        except ValueError as exc:  # each game's CatalogError is one
            ok = False
            click.echo(f"error: {exc}")
    sys.exit(0 if ok else 1)


@catalog.command("docs")
@click.option("--out", type=click.Path(path_type=Path),
              help=f"Where it is written (default: {CATALOG_DOC.relative_to(ROOT)} for Battle for Empyrean, "
                   "docs/catalog-KEY.md for another game).")
@click.option("--catalog", "version", help="Catalog version (default: the newest).")
@click.pass_obj
def catalog_docs(game: str, out: Path | None, version: str | None) -> None:
    """Write a game's catalog reference from its data (Battle for Empyrean: docs/catalog.md)."""
    from engine.games import DEFAULT_GAME, info
    from services.cli.catalog_ref import render_data_markdown, render_markdown

    if game == DEFAULT_GAME:
        text, out = render_markdown(load_catalog_option(version)), out or CATALOG_DOC
    else:
        text, out = render_data_markdown(info(game), game_catalog(game, version)), out or catalog_doc(game)
    out.write_text(text, encoding="utf-8")
    click.echo(f"wrote {out}")


def catalog_doc(game: str) -> Path:
    """Where the catalog reference of a game other than Battle for Empyrean is kept."""
    return ROOT / "docs" / f"catalog-{game}.md"


COMMANDS = (cards, catalog)
