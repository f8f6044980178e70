"""Reading a tournament bundle as a stream: thousands of game logs in one request body, never
held whole in memory (nor twice).

Formats: a JSON array of logs (``application/json`` whose first character is ``[``), NDJSON (one log
per line: ``application/x-ndjson``, ``application/jsonl``), or a single log object; any of them
gzip-compressed (``Content-Encoding: gzip``, or the gzip magic bytes). ``read_bundle`` yields one
``BundleEntry`` per game in order: its JSON bytes, or why that entry could not be read. A problem
with the bundle as a whole (unsupported type, too large, a gzip stream cut short, JSON that stops
parsing part-way through an array) raises ``BundleError`` after the entries read before it, so
the caller can still report on those.

What is stored "as received" per game: an NDJSON line's exact bytes; for an array element, its
compact re-serialisation (the array is parsed incrementally by ijson, which does not expose each
element's original bytes); a single object body, its exact bytes.
"""

from __future__ import annotations

import functools
import io
import json
import zlib
from dataclasses import dataclass
from typing import IO, BinaryIO, Iterator

import ijson

from services.platform.spool import spool

GZIP_MAGIC = b"\x1f\x8b"
NDJSON_TYPES = ("application/x-ndjson", "application/jsonl", "application/json-lines", "application/ndjson")
JSON_TYPES = ("application/json",)
CHUNK = 64 * 1024


@dataclass(frozen=True)
class BundleLimits:
    max_body_bytes: int = 512 * 1024 * 1024  # decompressed, the whole bundle
    max_game_bytes: int = 2 * 1024 * 1024  # one game log
    max_gzip_ratio: int = 200  # decompressed / compressed: beyond it, a zip bomb
    max_games: int = 100_000  # entries (games, and lines that are not) in one bundle


@dataclass(frozen=True)
class BundleEntry:
    index: int  # 0-based position in the bundle
    raw: bytes | None  # the game's JSON, when it could be read
    error: str | None = None  # why it could not, in words

    @property
    def pointer(self) -> str:
        return f"/{self.index}"


class BundleError(ValueError):
    """The bundle as a whole cannot be read (further); ``status`` is the HTTP status it deserves."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.entries_read: int | None = None  # set by the reader's caller: entries read before it


class _Capped(io.RawIOBase):
    """A read-only stream that refuses to deliver more than ``limit`` bytes (with or without a
    Content-Length, a body cannot grow past the cap)."""

    def __init__(self, inner: BinaryIO, limit: int, what: str) -> None:
        self.inner, self.limit, self.what, self.seen = inner, limit, what, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        data = self.inner.read(len(buf))
        if not data:
            return 0
        self.seen += len(data)
        if self.seen > self.limit:
            raise BundleError(f"the {self.what} is larger than the limit of {self.limit:,} bytes", status=413)
        buf[: len(data)] = data
        return len(data)


class _Gunzip(io.RawIOBase):
    """Incremental gzip decompression with a cap on output size and on the compression ratio."""

    def __init__(self, inner: io.RawIOBase, limits: BundleLimits) -> None:
        self.inner = inner
        self.limits = limits
        self.z = zlib.decompressobj(wbits=31)  # gzip container
        self.pending = b""
        self.compressed = 0
        self.out = 0
        self.eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        while not self.pending and not self.eof:
            src = self.z.unconsumed_tail or self.inner.read(CHUNK)
            if not self.z.unconsumed_tail:
                self.compressed += len(src)
            if not src:
                if not self.z.eof:
                    raise BundleError("the gzip stream ends before it is complete (truncated upload?)")
                self.eof = True
                break
            try:
                self.pending = self.z.decompress(src, CHUNK)
            except zlib.error as exc:
                raise BundleError(f"the body is not valid gzip: {exc}") from None
            if self.z.eof:
                self.eof = True  # anything after the gzip member is ignored
            self.out += len(self.pending)
            if self.out > self.limits.max_body_bytes:
                raise BundleError(f"the bundle decompresses to more than {self.limits.max_body_bytes:,} bytes",
                                  status=413)
            if self.out > 1024 * 1024 and self.out > self.limits.max_gzip_ratio * max(self.compressed, 1):
                raise BundleError(f"the gzip body expands more than {self.limits.max_gzip_ratio}x; "
                                  "refused as a likely zip bomb", status=413)
        n = min(len(buf), len(self.pending))
        buf[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n


def bundle_kind(content_type: str | None, content_encoding: str | None) -> tuple[str, str]:
    """The bundle's media type and encoding from its headers, or BundleError 415: checked before a
    byte of the body is read."""
    mime = (content_type or "").split(";")[0].strip().lower()
    if mime not in JSON_TYPES + NDJSON_TYPES:
        raise BundleError(f"a bundle is sent as application/json (an array of logs) or application/x-ndjson "
                          f"(one log per line), optionally gzip-compressed; got {content_type or 'no Content-Type'!r}",
                          status=415)
    encoding = (content_encoding or "").strip().lower()
    if encoding not in ("", "identity", "gzip"):
        raise BundleError(f"Content-Encoding {content_encoding!r} is not supported: send the bundle as it is or "
                          "gzip-compressed (Content-Encoding: gzip)", status=415)
    return mime, encoding


def held_body(body: BinaryIO, limits: BundleLimits) -> IO[bytes]:
    """The whole body as it came (compressed or not), held aside (services.platform.spool) before
    the bundle's transaction takes a connection: however slowly a client sends, it holds none.
    BundleError 413 past ``limits.max_body_bytes``."""
    wire = _Capped(body, limits.max_body_bytes, "request body")
    return spool(iter(functools.partial(wire.read, CHUNK), b""))


def read_bundle(body: BinaryIO, *, content_type: str | None, content_encoding: str | None = None,
                limits: BundleLimits = BundleLimits()) -> Iterator[BundleEntry]:
    mime, encoding = bundle_kind(content_type, content_encoding)
    wire = _Capped(body, limits.max_body_bytes, "request body")
    stream = io.BufferedReader(wire, CHUNK)
    gzipped = encoding == "gzip" or stream.peek(2)[:2] == GZIP_MAGIC
    if gzipped:
        stream = io.BufferedReader(_Gunzip(stream, limits), CHUNK)  # type: ignore[arg-type]
    for entry in _entries(mime, stream, limits):
        if entry.index >= limits.max_games:
            raise BundleError(f"the bundle has more than {limits.max_games:,} games (EMPYREAN_MAX_BUNDLE_GAMES); "
                              f"split it into bundles of at most {limits.max_games:,}", status=413)
        yield entry


def _entries(mime: str, stream: io.BufferedReader, limits: BundleLimits) -> Iterator[BundleEntry]:
    if mime in NDJSON_TYPES:
        yield from _ndjson(stream, limits)
        return
    first = _first_significant(stream)
    if first == b"[":
        yield from _array(stream, limits)
    elif first == b"{":
        yield from _single(stream, limits)
    elif first == b"":
        raise BundleError("the body is empty: send a JSON array of game logs or NDJSON")
    else:
        raise BundleError(f"a bundle must start with '[' (an array of logs) or '{{' (one log), not {first!r}")


def _first_significant(stream: io.BufferedReader) -> bytes:
    """The first byte that is not whitespace (or a byte-order mark), left unread."""
    while True:
        head = stream.peek(1)
        if not head:
            return b""
        stripped = head.lstrip(b" \t\r\n\xef\xbb\xbf")  # whitespace and a UTF-8 byte-order mark
        if stripped:
            stream.read(len(head) - len(stripped))
            return stripped[:1]
        stream.read(len(head))


def _ndjson(stream: io.BufferedReader, limits: BundleLimits) -> Iterator[BundleEntry]:
    index = 0
    while True:
        line = stream.readline(limits.max_game_bytes + 1)
        if not line:
            return
        if len(line) > limits.max_game_bytes and not line.endswith(b"\n"):
            while (rest := stream.readline(CHUNK)) and not rest.endswith(b"\n"):
                pass  # skip the rest of the over-long line
            yield BundleEntry(index, None, f"line {index + 1} is longer than {limits.max_game_bytes:,} bytes")
            index += 1
            continue
        raw = line.strip()
        if not raw:
            continue  # blank lines separate nothing
        yield BundleEntry(index, raw)
        index += 1


class _EntryBytes:
    """What ijson reads the array from: counts the bytes read since the last element was handed
    out, and stops the bundle (413) once one element has taken far more than a game may have.
    ijson builds an element whole before it yields it, so without this one element of 500 MB
    (a single string) would be built in memory before its size could be checked."""

    def __init__(self, inner: io.BufferedReader, limits: BundleLimits) -> None:
        self.inner = inner
        self.max_game_bytes = limits.max_game_bytes
        # ijson reads ahead a buffer at a time: an element may begin in the buffer before
        self.allowed = limits.max_game_bytes + 2 * CHUNK
        self.read_since = 0
        self.index = 0  # the element being read

    def read(self, size: int = -1) -> bytes:
        data = self.inner.read(CHUNK if size is None or size < 0 else size)
        self.read_since += len(data)
        if self.read_since > self.allowed:
            raise BundleError(f"entry {self.index} of the array is larger than {self.max_game_bytes:,} bytes; "
                              "the array could not be read past it", status=413)
        return data

    def handed_out(self) -> None:
        self.read_since = 0
        self.index += 1


def _array(stream: io.BufferedReader, limits: BundleLimits) -> Iterator[BundleEntry]:
    index = 0
    source = _EntryBytes(stream, limits)
    try:
        items = ijson.items(source, "item", use_float=True, buf_size=CHUNK)
        for obj in items:
            source.handed_out()
            try:
                raw = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
            except (RecursionError, ValueError) as exc:
                yield BundleEntry(index, None, f"entry {index} cannot be stored: {type(exc).__name__}")
            else:
                if len(raw) > limits.max_game_bytes:
                    yield BundleEntry(index, None, f"entry {index} is larger than {limits.max_game_bytes:,} bytes")
                else:
                    yield BundleEntry(index, raw)
            index += 1
    except ijson.JSONError as exc:
        raise BundleError(f"the JSON array stops being valid JSON after entry {index - 1} "
                          f"({exc}); entries from {index} on were not read") from None


def _single(stream: io.BufferedReader, limits: BundleLimits) -> Iterator[BundleEntry]:
    raw = stream.read(limits.max_game_bytes)
    if stream.read(1):
        raise BundleError(f"a single log larger than {limits.max_game_bytes:,} bytes", status=413)
    yield BundleEntry(0, raw.rstrip())
