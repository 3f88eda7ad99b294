"""The fast reader of plain full copies (``chickenfoot.notation._fast``) reads exactly what
the general parser reads.

``read_game`` tries the fast reader first; the general parser is ``visit_game`` with a
``GameBuilder``. On files of real rounds of every preset and of tiny rules, for every
audience, and on those files mutated (bytes flipped, cut, inserted: moves that cannot be
played, tiles outside the set or twice, headers unknown or repeated, results that are not
the round's, seats out of turn), both give equal games (headers, moves, records, views)
with the same errors at the same lines and columns, in the tolerant and the strict mode;
and the fast reader does read the plain games (it is not always handing them back).
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.notation import (
    Game,
    GameBuilder,
    HeadersBuilder,
    NotationError,
    iter_games,
    read_game,
    read_headers,
    visit_game,
    write_game,
)
from chickenfoot.notation import _compiled as compiled
from chickenfoot.notation._fast import read_plain
from chickenfoot.notation._lines import lines_of
from chickenfoot.notation._writer import _wrap, _wrap_spaced
from chickenfoot.record import Record
from strategies import examples, preset_or_tiny_rules

_EDITS = [
    b"(",
    b"{",
    b"*",
    b"[",
    b'"',
    b"\\",
    b"\n",
    b"\xff",
    b"0. ",
    b"1. ",
    b"draw ",
    b"pass ",
    b"9-9@0-0 ",
    b"9-0@9-9 ",
    b"5-3",
    b"9",
    b"!",
    b"00",
    b'[Event "x"]\n',
    b'[Hand0 "9-9"]\n',
    b'[Result "1 2 3 4"]\n',
    b'[Audience "full"]\n',
    b'[Drawn "9-9"]\n',
]


def _round(rules: cf.Rules, seed: int) -> Record:
    rng = random.Random(seed)
    rec = Record(cf.deal(rules, seed))
    while not rec.final().is_over() and len(rec.moves) < 80:
        rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
    return rec


def _summary(game: Any) -> Any:
    if game is None:
        return None
    return (
        game,
        game.record,
        game.view,
        [(e.line, e.column, str(e)) for e in game.errors],
    )


def _both(data: bytes, strict: bool) -> tuple[list[Any], list[Any]]:
    out: list[list[Any]] = []
    for reader in (
        lambda h: read_game(h, strict=strict),
        lambda h: visit_game(h, GameBuilder(strict=strict)),
    ):
        handle = io.BytesIO(data)
        games: list[Any] = []
        try:
            for _ in range(50):
                game = reader(handle)
                games.append(_summary(game))
                if game is None:
                    break
        except NotationError as err:
            games.append(("raised", err.line, err.column, str(err)))
        out.append(games)
    return out[0], out[1]


@st.composite
def _files(draw: st.DrawFn) -> bytes:
    rules = draw(preset_or_tiny_rules())
    seeds = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=3))
    parts = []
    for seed in seeds:
        rec = _round(rules, seed)
        rec = Record(rec.start, rec.moves[: draw(st.integers(0, len(rec.moves)))])
        audience = draw(st.sampled_from(["full", "full", "spectator", "seat 0"]))
        parts.append(write_game(rec, audience=audience, headers={"Round": str(seed)}))
    data = bytearray("".join(parts).encode())
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.integers(0, 3))
        if kind == 0:
            del data[at : at + draw(st.integers(1, 12))]
        elif kind == 1:
            data[at:at] = draw(st.sampled_from(_EDITS))
        elif kind == 2 and at < len(data):
            data[at] = draw(st.integers(0, 255))
        else:
            data[at:at] = draw(st.binary(max_size=8))
    return bytes(data)


@settings(max_examples=examples(300), deadline=None)
@given(_files(), st.booleans())
def test_the_fast_reader_reads_what_the_general_parser_reads(data: bytes, strict: bool) -> None:
    fast, general = _both(data, strict)
    assert fast == general


@settings(max_examples=examples(200), deadline=None)
@given(_files(), st.lists(st.booleans(), min_size=1, max_size=6))
def test_skimming_and_reading_in_turn_give_what_the_general_parser_gives(
    data: bytes, skims: list[bool]
) -> None:
    out: list[list[Any]] = []
    for fast in (True, False):
        handle = io.BytesIO(data)
        got: list[Any] = []
        for skim in skims:
            if skim:
                got.append(read_headers(handle) if fast else visit_game(handle, HeadersBuilder()))
            else:
                game = read_game(handle) if fast else visit_game(handle, GameBuilder())
                got.append(_summary(game))
        out.append(got)
    assert out[0] == out[1]


def test_plain_full_copies_take_the_fast_reader() -> None:
    for rules in (cf.Rules(), cf.Rules.preset("classic", players=3)):
        recs = [_round(rules, seed) for seed in range(5)]
        data = "".join(write_game(r, headers={"Event": "e", "Name1": "Ann"}) for r in recs)
        handle = io.StringIO(data)
        lines = lines_of(handle)
        for rec in recs:
            done, game = read_plain(lines, handle)
            assert done and game is not None and game.record == rec and not game.errors
        assert read_plain(lines, handle) == (True, None)


def test_a_game_handed_back_is_read_again_from_its_first_line() -> None:
    rec = _round(cf.Rules(), 3)
    text = write_game(rec).replace("[Turn", '[Colour "red"]\n[Turn')
    handle = io.StringIO("\n\n" + text + write_game(rec))
    lines = lines_of(handle)
    assert read_plain(lines, handle) == (False, None)
    game = read_game(handle)
    assert game is not None and [(e.line, e.column) for e in game.errors] == [(13, 2)]
    second = read_game(handle)
    assert second is not None and second.record == rec and not second.errors


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(alphabet="0123456789.-@:?drawps\0", min_size=1, max_size=90), max_size=40))
def test_the_plain_writers_wrap_is_the_general_writers(tokens: list[str]) -> None:
    tokens = [*tokens, "*"]
    assert _wrap_spaced(" ".join(tokens)) == _wrap(tokens)


@settings(max_examples=examples(40), deadline=None)
@given(preset_or_tiny_rules(), st.integers(0, 10_000), st.sampled_from(["full", "spectator"]))
def test_the_plain_writer_writes_what_the_general_writer_writes(
    rules: cf.Rules, seed: int, audience: str
) -> None:
    rec = _round(rules, seed)
    game = read_game(io.StringIO(write_game(rec)))
    assert game is not None and game.record == rec
    for cut in (len(rec.moves), len(rec.moves) // 2):
        part = Record(rec.start, rec.moves[:cut])
        whole = Game(game.headers, game.moves[:cut], record=part)
        assert write_game(part, audience=audience) == write_game(whole, audience=audience)


def test_a_process_reads_its_first_plain_games_without_loading_numba(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(compiled, "_SEEN", [0])
    monkeypatch.setattr(compiled, "_FOUND", [True])
    asked = [compiled.ready() for _ in range(compiled.COMPILED_FROM + 2)]
    assert asked == [False] * compiled.COMPILED_FROM + [True, True]


def test_without_numba_every_game_is_replayed_in_pure_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(compiled, "_SEEN", [compiled.COMPILED_FROM])
    monkeypatch.setattr(compiled, "_FOUND", [False])  # as find_spec("numba") says without it
    called: list[object] = []
    monkeypatch.setattr(compiled, "replayed", lambda *args: called.append(args))
    recs = [_round(cf.Rules.preset("classic", players=3), seed) for seed in range(4)]
    data = "".join(write_game(r) for r in recs).encode()
    games = list(iter_games(io.BytesIO(data)))
    assert [g.record for g in games] == recs and not any(g.errors for g in games)
    assert not called
