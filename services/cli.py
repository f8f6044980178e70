"""The ``empyrean`` command line. Each command imports what it needs lazily, so ``empyrean verify``
works on a laptop with no database, broker or web stack installed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

import click

LOG_SUFFIXES = (".json", ".ndjson", ".jsonl")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Empyrean Replay: verify, store and analyse Battle for Empyrean game logs."""


def iter_games(text: str, source: str) -> Iterator[tuple[str, object]]:
    """Split one file's text into games: a JSON object, a JSON array of objects, or NDJSON.
    Yields (label, raw) where raw is a decoded value or the undecodable text itself."""
    stripped = text.strip()
    if not stripped:
        yield source, stripped
        return
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        lines = [ln for ln in stripped.splitlines() if ln.strip()]
        if len(lines) > 1:  # NDJSON: one game per line, a bad line is that game's problem only
            for n, line in enumerate(lines, 1):
                yield f"{source}:{n}", line
            return
        yield source, stripped
        return
    if isinstance(value, list):
        for n, item in enumerate(value):
            yield f"{source}[{n}]", item
    else:
        yield source, value


def iter_sources(paths: tuple[str, ...]) -> Iterator[tuple[str, object]]:
    for p in paths:
        if p == "-":
            yield from iter_games(sys.stdin.read(), "<stdin>")
            continue
        path = Path(p)
        files = sorted(f for f in path.rglob("*") if f.suffix in LOG_SUFFIXES) if path.is_dir() else [path]
        for f in files:
            data = f.read_bytes()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                yield str(f), data  # the engine reports it as malformed, naming the problem
                continue
            yield from iter_games(text, str(f))


def describe_verdict(label: str, v) -> str:
    if v.status == "illegal":
        who = "chance" if v.player == 0 else f"P{v.player}" if v.player else "setup"
        at = f"decision {v.index}" if v.index is not None else "setup"
        wrote = f" {v.decision!r}" if v.decision else ""
        return f"{label}: ILLEGAL at {at} (round {v.round}, {v.phase} phase, {who}){wrote}: {v.rule}"
    if v.status == "malformed":
        return f"{label}: MALFORMED: " + "; ".join(f"{e['path'] or '/'}: {e['message']}" for e in v.errors)
    if v.status == "mismatch":
        return f"{label}: MISMATCH: " + "; ".join(f"{e['path']}: {e['message']}" for e in v.errors)
    return f"{label}: {v.status.upper()}: {v.message}"


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--explain", is_flag=True, help="Print the board and the legal alternatives at a failing decision.")
@click.option("--json", "as_json", is_flag=True, help="One JSON verdict per line instead of text.")
def verify(paths: tuple[str, ...], explain: bool, as_json: bool) -> None:
    """Replay game logs (files, folders, '-' for stdin; JSON or NDJSON) and say if each was legal.

    Exit status: 0 all valid, 1 some not valid, 2 usage error."""
    from engine.replay import replay

    for p in paths:
        if p != "-" and not Path(p).exists():
            raise click.UsageError(f"no such file or folder: {p}")
    counts: dict[str, int] = {}
    for label, raw in iter_sources(paths):
        result = replay(raw, record=False)
        v = result.verdict
        counts[v.status] = counts.get(v.status, 0) + 1
        if as_json:
            click.echo(json.dumps({"source": label, **v.to_dict()}))
            continue
        click.echo(describe_verdict(label, v))
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


if __name__ == "__main__":  # pragma: no cover
    main()
