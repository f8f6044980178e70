"""Reading bundles as streams: arrays, NDJSON, single logs, gzip; and every way they go wrong."""

from __future__ import annotations

import gzip
import io
import json

import pytest

from services.games.bundles import BundleError, BundleLimits, read_bundle

LOGS = [{"format": "empyrean-log", "n": i, "decisions": ["P1 pass"] * i} for i in range(5)]


def entries(body: bytes, ctype="application/json", encoding=None, **limits):
    return list(read_bundle(io.BytesIO(body), content_type=ctype, content_encoding=encoding,
                            limits=BundleLimits(**limits)))


def test_a_json_array_yields_each_log_in_order():
    got = entries(b"  \n" + json.dumps(LOGS, indent=2).encode())
    assert [json.loads(e.raw) for e in got] == LOGS and [e.index for e in got] == list(range(5))


def test_ndjson_keeps_each_line_exactly_and_rejects_only_the_bad_line():
    lines = [json.dumps(x, indent=None) for x in LOGS[:2]] + ["", "not json {"] + [json.dumps(LOGS[2])]
    got = entries(("\n".join(lines) + "\n").encode(), ctype="application/x-ndjson")
    assert [e.raw for e in got] == [lines[0].encode(), lines[1].encode(), b"not json {", lines[4].encode()]
    # a line that is not JSON is read here and rejected where it is parsed; an over-long one here
    got = entries(b'{"a":1}\n' + b'{"b":"' + b"x" * 100 + b'"}\n{"c":3}\n', ctype="application/x-ndjson",
                  max_game_bytes=50)
    assert got[0].raw == b'{"a":1}' and got[1].raw is None and "longer than 50 bytes" in got[1].error
    assert got[2].raw == b'{"c":3}' and got[2].index == 2


def test_a_single_log_is_a_bundle_of_one():
    body = json.dumps(LOGS[3], indent=1).encode()
    assert entries(body) == [entries(body)[0]] and entries(body)[0].raw == body


def test_gzip_by_header_or_by_magic_bytes():
    body = gzip.compress(json.dumps(LOGS).encode())
    assert len(entries(body, encoding="gzip")) == 5
    assert len(entries(body)) == 5
    nd = gzip.compress("\n".join(json.dumps(x) for x in LOGS).encode())
    assert len(entries(nd, ctype="application/x-ndjson")) == 5


def test_a_truncated_gzip_reports_what_was_read_then_fails():
    body = gzip.compress("\n".join(json.dumps(x) for x in LOGS * 400).encode())
    it = read_bundle(io.BytesIO(body[: len(body) // 2]), content_type="application/x-ndjson")
    read = []
    with pytest.raises(BundleError, match="gzip stream ends before it is complete"):
        for e in it:
            read.append(e)
    assert read and all(e.raw for e in read)


def test_a_zip_bomb_is_refused_by_ratio_and_by_size():
    bomb = gzip.compress(b" " * 50_000_000 + b"[]")
    with pytest.raises(BundleError) as exc:
        entries(bomb)
    assert exc.value.status == 413 and "zip bomb" in exc.value.message
    # inside an array, the megabytes of spaces are the first entry's: refused as too large sooner
    with pytest.raises(BundleError) as exc:
        entries(gzip.compress(b"[" + b" " * 50_000_000 + b"]"))
    assert exc.value.status == 413 and "entry 0 of the array is larger than" in exc.value.message
    with pytest.raises(BundleError) as exc:
        entries(gzip.compress(json.dumps(LOGS * 50).encode()), max_body_bytes=2000)
    assert exc.value.status == 413


def test_a_body_over_the_cap_is_refused_without_content_length():
    with pytest.raises(BundleError) as exc:
        entries(json.dumps(LOGS * 100).encode(), max_body_bytes=1000)
    assert exc.value.status == 413


def test_broken_json_mid_array_keeps_the_entries_before_it():
    body = b'[{"a":1},{"b":2},{"c":]'
    read = []
    with pytest.raises(BundleError, match="entries from 2 on were not read"):
        for e in read_bundle(io.BytesIO(body), content_type="application/json"):
            read.append(e)
    assert [json.loads(e.raw) for e in read] == [{"a": 1}, {"b": 2}]


@pytest.mark.parametrize("body, ctype, status, words", [
    (b"[]", "text/plain", 415, "application/json"),
    (b"", "application/json", 400, "empty"),
    (b"42", "application/json", 400, "must start with"),
    (b'{"a": "' + b"x" * 200 + b'"}', "application/json", 413, "single log larger"),
])
def test_whole_bundle_problems(body, ctype, status, words):
    with pytest.raises(BundleError) as exc:
        entries(body, ctype=ctype, max_game_bytes=100)
    assert exc.value.status == status and words in exc.value.message


def test_deeply_nested_entries_are_rejected_one_by_one():
    deep = b"[" * 5000 + b"]" * 5000
    got = entries(b"[" + deep + b',{"ok":1}]')
    assert got[0].raw is None and "RecursionError" in got[0].error
    assert json.loads(got[1].raw) == {"ok": 1}


def test_more_entries_than_the_limit_is_a_413():
    body = b"\n".join(b'{"n":%d}' % i for i in range(11))
    assert len(entries(body, ctype="application/x-ndjson", max_games=11)) == 11
    with pytest.raises(BundleError) as exc:
        entries(body, ctype="application/x-ndjson", max_games=10)
    assert exc.value.status == 413 and "more than 10 games" in exc.value.message


def test_an_array_entry_far_over_the_limit_is_refused_before_it_is_built():
    """ijson builds an array element whole before it is seen: the reader stops reading once one
    element has taken more bytes than a game may have (plus its buffers), so memory stays flat."""
    import tracemalloc

    body = b'[{"ok":1},{"huge":"' + b"x" * 20_000_000 + b'"}]'
    tracemalloc.start()
    read = []
    try:
        with pytest.raises(BundleError) as exc:
            for e in read_bundle(io.BytesIO(body), content_type="application/json",
                                 limits=BundleLimits(max_game_bytes=100_000)):
                read.append(e)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert exc.value.status == 413 and "entry 1" in exc.value.message and "100,000 bytes" in exc.value.message
    assert [json.loads(e.raw) for e in read] == [{"ok": 1}]
    assert peak < 2_000_000, peak
