"""``empyrean games`` (the games this engine knows), and what every command taking ``--game`` shares:
the option (a registered game's key, engine.games), the game it means when left out, and a game named
in a line of output.

Nothing here imports the engine until a command runs (services.cli: ``--game``'s values are checked
against the registry when the command line is read, not when this module is imported)."""

from __future__ import annotations

from collections.abc import Callable

import click


class GameKey(click.ParamType):
    """A registered game's key (engine.games.keys()): what a log's "game" and the API's ``game`` say."""

    name = "game"

    def convert(self, value, param, ctx):
        from engine import games

        if not games.is_known(value):
            self.fail(games.unknown_game_words(value), param, ctx)
        return value

    def get_metavar(self, param, ctx=None) -> str:  # help: the choices, as click.Choice shows them
        from engine import games

        return "[" + "|".join(games.keys()) + "]"


def game_option(help: str) -> Callable:
    """``--game KEY``: a registered game; left out, None (each command says what that means)."""
    return click.option("--game", type=GameKey(), default=None, help=help)


def default_game(game: str | None) -> str:
    """The game of ``--game``, or when left out the game of a log that names none."""
    from engine.games import DEFAULT_GAME

    return game or DEFAULT_GAME


def game_tag(key: str | None) -> str:
    """" [Battle for Empyrean]": which game a line of output is about (nothing when not known)."""
    from engine import games

    return f" [{games.info(key).name}]" if key is not None and games.is_known(key) else ""


@click.command("games")
def list_games() -> None:
    """List the games this engine knows: key, name, players, and what a seat plays as."""
    from engine import games
    from services.games.game_names import game_words

    known = games.known()
    rows = [("key", "game", "players", "a seat plays a")] + [
        (info.key, info.name, info.players_words(), info.faction) for info in known]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    click.echo(f"{len(known)} game(s); a log without \"game\" is {game_words(games.DEFAULT_GAME)}", err=True)


COMMANDS = (list_games,)
