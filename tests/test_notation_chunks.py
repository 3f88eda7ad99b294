"""Reading a binary file in chunks (``chickenfoot.notation._lines``) reads what reading it a
line at a time reads.

``open(path, "rb")`` and ``io.BytesIO`` handles are read in chunks, their lines cut from a
buffer and whole plain games taken from it at once (``_fast._block``); any other handle is
read a line at a time. On files of real rounds, mutated (bytes flipped, cut, inserted, long
lines, bytes that are not UTF-8, carriage returns), with chunks and blocks made small so
that games and lines straddle them, both give the same games, headers and errors (lines and
columns), and leave the handle at the same place after each game (``tell()``), in the
tolerant and the strict mode.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.notation import (
    NotationError,
    _fast,
    _lines,
    iter_games,
    read_game,
    read_headers,
    scan_offsets,
    write_game,
)
from chickenfoot.record import Record
from strategies import examples


class _LineByLine(io.BytesIO):
    """A binary handle the reader reads a line at a time (not one of the chunked types)."""


def _round(rules: cf.Rules, seed: int) -> Record:
    rng = random.Random(seed)
    rec = Record(cf.deal(rules, seed))
    while not rec.final().is_over() and len(rec.moves) < 60:
        rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
    return rec


_RECORDS = [_round(cf.Rules(), seed) for seed in range(3)]
_EDITS = [b"\n", b"\r\n", b"\xff", b"\xc3\xa9", b"*", b"{x}", b"[", b"  ", b"x" * 300]


def _read(handle: io.BytesIO, plan: list[bool], strict: bool) -> list[Any]:
    got: list[Any] = []
    try:
        for skim in plan:
            if skim:
                got.append(read_headers(handle))
            else:
                game = read_game(handle, strict=strict)
                got.append(
                    None
                    if game is None
                    else (game, game.record, [(e.line, e.column, str(e)) for e in game.errors])
                )
            got.append(handle.tell())
    except NotationError as err:
        got.append(("raised", err.line, err.column, str(err)))
    return got


@st.composite
def _files(draw: st.DrawFn) -> bytes:
    parts = [
        write_game(rec, audience=draw(st.sampled_from(["full", "full", "spectator"])))
        for rec in draw(st.lists(st.sampled_from(_RECORDS), min_size=1, max_size=4))
    ]
    data = bytearray("".join(parts).encode())
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            del data[at : at + draw(st.integers(1, 12))]
        else:
            data[at:at] = draw(st.sampled_from(_EDITS))
    return bytes(data)


@settings(max_examples=examples(150), deadline=None)
@given(
    _files(),
    st.lists(st.booleans(), min_size=1, max_size=6),
    st.booleans(),
    st.sampled_from([7, 64, 500, 1 << 16]),
)
def test_chunked_reading_reads_what_line_by_line_reading_reads(
    data: bytes, plan: list[bool], strict: bool, chunk: int
) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_lines, "CHUNK", chunk)
        mp.setattr(_fast, "_BLOCK_BYTES", max(chunk, 200))
        chunked = _read(io.BytesIO(data), plan, strict)
    assert chunked == _read(_LineByLine(data), plan, strict)


def test_a_long_line_is_an_error_at_its_place_in_chunks_as_in_lines() -> None:
    text = write_game(_RECORDS[0]).encode()
    data = text + b"[Event " + b"x" * (_lines.MAX_LINE + 10) + b"]\n\n*\n\n" + text
    got = [
        _read(h, [False, False, False, False], False) for h in (io.BytesIO(data), _LineByLine(data))
    ]
    assert got[0] == got[1]
    errors = got[0][2][2]
    assert errors[0][:2] == (text.count(b"\n") + 1, _lines.MAX_LINE + 1)


def test_a_file_read_in_chunks_leaves_the_handle_where_each_game_ends(tmp_path: Path) -> None:
    path = tmp_path / "rounds.cfn"
    path.write_text(
        "".join(write_game(r, headers={"Round": str(i)}) for i, r in enumerate(_RECORDS))
    )
    with path.open("rb") as handle:
        offsets = list(scan_offsets(handle))
        handle.seek(offsets[1])
        game = read_game(handle)
        assert game is not None and game.record == _RECORDS[1] and not game.errors
        assert handle.readline() == b"\n"  # the blank line after it, for any other reader
        assert handle.tell() == offsets[2]
        headers = read_headers(handle)
        assert headers is not None and ("Round", "2") in headers
        handle.seek(0)
        assert [g.record for g in iter_games(handle)] == _RECORDS
        assert handle.tell() == path.stat().st_size
