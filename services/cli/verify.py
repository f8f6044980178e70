"""``empyrean verify`` (replay game logs and say if each was legal) and ``empyrean merge`` (seat
views of one game into one log). Neither needs a database, a broker or the web stack."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from services.cli.sources import Unreadable, iter_sources


def describe_verdict(label: str, v, game: str | None = None) -> str:
    """One line for people: decisions by their number counted from 1 (engine.words.decision_words,
    as the API's message and the replay viewer say them); --json keeps the 0-based ``index``.
    ``game``: the key of the log's game, named at the end of the line (None: a log that does not
    read says nothing of it)."""
    from engine.words import decision_words
    from services.cli.games import game_tag

    if v.status == "illegal":
        who = "chance" if v.player == 0 else f"P{v.player}" if v.player else "setup"
        at = decision_words(v.index, written=v.decision is not None)
        wrote = f" {v.decision!r}" if v.decision else ""
        said = f"ILLEGAL at {at} (round {v.round}, {v.phase} phase, {who}){wrote}: {v.rule}"
    elif v.status == "malformed":
        said = "MALFORMED: " + "; ".join(f"{e['path'] or '/'}: {e['message']}" for e in v.errors)
    elif v.status == "mismatch":
        said = "MISMATCH: " + "; ".join(f"{e['path']}: {e['message']}" for e in v.errors)
    else:
        said = f"{v.status.upper()}: {v.message}"
    return f"{label}: {said}{game_tag(game)}"


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--explain", is_flag=True, help="Print the board and the legal alternatives at a failing decision.")
@click.option("--json", "as_json", is_flag=True, help="One JSON verdict per line instead of text.")
def verify(paths: tuple[str, ...], explain: bool, as_json: bool) -> None:
    """Replay game logs of any known game (files, folders, '-' for stdin; JSON or NDJSON) and say if
    each was legal, and which game it is (--json: ``game_key``; ``game`` is its title).

    Exit status: 0 all valid, 1 some not valid, 2 usage error."""
    from engine.replay import Verdict, replay
    from engine.words import game_title

    for p in paths:
        if p != "-" and not Path(p).exists():
            raise click.UsageError(f"no such file or folder: {p}")
    counts: dict[str, int] = {}
    for label, raw in iter_sources(paths):
        title = None  # the game as people name it: "R3 · T14 · Ada vs Bo"
        game = None  # the key of the game it is of (engine.games), once the log reads
        if isinstance(raw, Unreadable):
            v = Verdict("malformed", raw, errors=[{"path": "", "message": str(raw)}])
        else:
            result = replay(raw, record=False)
            v = result.verdict
            if result.log is not None:
                title = game_title(result.log.meta, result.log.setup.players)
                game = result.log.game
        counts[v.status] = counts.get(v.status, 0) + 1
        if as_json:
            click.echo(json.dumps({"source": label, "game": title, "game_key": game, **v.to_dict()}))
            continue
        click.echo(describe_verdict(f"{label} ({title})" if title else label, v, game))
        if explain and v.status == "illegal":
            if v.board:
                click.echo("  board at that point:")
                click.echo("\n".join("    " + ln for ln in v.board.splitlines()))
            if v.legal:
                click.echo("  legal decisions there: " + "; ".join(v.legal))
    total = sum(counts.values())
    if total == 0:
        raise click.UsageError("no game logs found in the given paths")
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    click.echo(f"{total} game(s): {summary}", err=as_json)
    sys.exit(0 if counts.get("valid", 0) == total else 1)


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
    result = replay(merged, record=False)
    click.echo(describe_verdict(f"merged {len(paths)} logs into {output}", result.verdict,
                                result.log.game if result.log is not None else None))


COMMANDS = (verify, merge)
