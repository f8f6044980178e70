"""The ``empyrean`` command line: this group, and each family of commands in a module of its own —
verify.py (verify, merge), service.py (up, reprocess, token, db), upload.py (upload), events.py
(event create), export.py (export), simulate.py (simulate, balance), catalog.py (cards, catalog),
record.py (record), games.py (games, and the ``--game`` option every command that takes one shares).

Every command imports what it needs when it runs, so ``empyrean verify`` works on a laptop with no
database, broker or web stack installed, and no module here imports the engine at import:
``simulate`` and ``balance`` choose the engine build first (services.platform.native)."""

from __future__ import annotations

import click

from services.cli import catalog, events, export, games, record, service, simulate, upload, verify


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Empyrean Replay: verify, store and analyse game logs of the Empyrean family (`empyrean games`)."""
    from services.platform.config import Config, ConfigError

    try:
        spec = Config.from_env().extra_games
        if spec:  # (only then is the engine imported here: its build is chosen first, as simulate does)
            from services.platform.games import register_extra_games
            from services.platform.native import use_native_engine

            use_native_engine()
            register_extra_games(spec)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


for family in (verify, service, upload, events, export, simulate, catalog, record, games):
    for command in family.COMMANDS:
        main.add_command(command)
