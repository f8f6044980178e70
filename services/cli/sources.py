"""Game logs as ``empyrean verify`` and ``empyrean upload`` read them: files, folders (every log file
in them) or '-' for stdin; each file a JSON object, a JSON array of objects or NDJSON, optionally
gzipped."""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path

LOG_SUFFIXES = (".json", ".ndjson", ".jsonl", ".gz")  # .gz: gzip of any of the others
GZIP_MAGIC = b"\x1f\x8b"


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


class Unreadable(str):
    """A source that could not even be read as text (the reason, in words): reported, never sent."""


def iter_sources(paths: tuple[str, ...]) -> Iterator[tuple[str, object]]:
    for p in paths:
        if p == "-":
            yield from iter_games(sys.stdin.read(), "<stdin>")
            continue
        path = Path(p)
        files = sorted(f for f in path.rglob("*") if f.suffix in LOG_SUFFIXES) if path.is_dir() else [path]
        for f in files:
            data = f.read_bytes()
            if data.startswith(GZIP_MAGIC):  # a gzipped bundle, e.g. from `empyrean simulate`
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError) as exc:
                    yield str(f), Unreadable(f"the file looks like gzip but cannot be decompressed ({exc})")
                    continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                yield str(f), data  # the engine reports it as malformed, naming the problem
                continue
            yield from iter_games(text, str(f))
