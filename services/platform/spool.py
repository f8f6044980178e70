"""A whole body held aside — in memory up to ``SPOOL_IN_MEMORY`` bytes, in a temporary file past
that — so that no database connection waits on a client: a bundle's body is read whole before its
transaction begins, and an export is written whole before its first byte is sent. A client that
trickles its upload or stops reading its download then holds a temporary file and a greenlet, never
one of the pool's connections (docs/security.md, "Slow clients"). Memory stays flat whatever the
body's size."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from typing import IO

SPOOL_IN_MEMORY = 1_048_576
SEND_CHUNK = 256 * 1024


def spool(chunks: Iterable[bytes]) -> IO[bytes]:
    """Every chunk, held aside and rewound for reading; the caller closes it (``sent`` does)."""
    held = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)
    try:
        for chunk in chunks:
            held.write(chunk)
    except BaseException:
        held.close()
        raise
    held.seek(0)
    return held


def sent(held: IO[bytes]) -> Iterator[bytes]:
    """A held body as the chunks of a streamed answer; the file is closed at the end, or when the
    client goes away (the server closes the generator)."""
    with held:
        while chunk := held.read(SEND_CHUNK):
            yield chunk
