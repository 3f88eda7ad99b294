"""Issue 47, items 1-3: the notation (docs/notation.md) for every audience, read and written
in the python-chess manner.

Round trips: a full copy reads back as the same record, and writes back byte for byte.
Hidden twins: two rounds with the same public history give byte-identical spectator copies
at every prefix, and byte-identical seat-K copies when they agree on seat K's hand and
draws (the twin is drawn from seat K's view with ``View.sample_record``). Bad input: every
problem is a ``NotationError`` with line and column, in bounded time and memory, and the
tolerant reader never raises on any byte string.
"""

from __future__ import annotations

import io
import random
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.notation import (
    MAX_DEPTH,
    MAX_LINE,
    Evaluation,
    Game,
    Node,
    NotationError,
    Visitor,
    comment_clock,
    comment_eval,
    game_of,
    iter_games,
    read_game,
    read_headers,
    read_match,
    scan_offsets,
    set_clock,
    set_eval,
    skip_game,
    visit_game,
    write_game,
    write_match,
    write_match_rounds,
)
from chickenfoot.record import Record
from strategies import games, preset_or_tiny_rules, rules

HOUSE = cf.Rules()


def played(seed: int, rules: cf.Rules = HOUSE, *, plies: int | None = None) -> Record:
    """A round of random legal moves (plain ``draw``, as a program plays it)."""
    rng = random.Random(seed)
    rec = Record(cf.deal(rules, seed=seed))
    while not rec.final().is_over() and (plies is None or len(rec.moves) < plies):
        rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
    return rec


def record_of(path: list[cf.State]) -> Record:
    return Record(path[0], [e.move for e in path[-1].history])


def strict(text: str | bytes) -> Game | None:
    handle = io.BytesIO(text) if isinstance(text, bytes) else io.StringIO(text)
    return read_game(handle, strict=True)


def tolerant(text: str | bytes) -> Game | None:
    handle = io.BytesIO(text) if isinstance(text, bytes) else io.StringIO(text)
    return read_game(handle)


# -- round trips -------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(games(preset_or_tiny_rules()), st.sampled_from(["full", "spectator", "seat 0", "seat 1"]))
def test_every_copy_reads_back_without_error_and_a_full_one_as_the_same_record(
    path: list[cf.State], audience: str
) -> None:
    rec = record_of(path)
    text = write_game(rec, audience=audience, headers={"Event": "t", "Round": "2"})
    game = strict(text)
    assert game is not None and game.errors == ()
    assert game.audience == cf.notation.Audience.parse(audience)
    if audience == "full":
        assert game.record == rec and game.view is None
        assert write_game(game) == text
    else:
        assert game.record is None
        seat = game.audience.seat
        assert game.view == (None if seat is None else rec.final().view(seat))
        assert [n.seat for n in game.moves] == [e.seat for e in rec.final().history]


@settings(max_examples=40, deadline=None)
@given(games(rules(max_pip=6)), st.integers(0, 9))
def test_hidden_copies_of_every_variant_read_back_without_error(
    path: list[cf.State], k: int
) -> None:
    rec = record_of(path)
    for audience in ("spectator", f"seat {k % rec.start.players}"):
        game = strict(write_game(rec, audience=audience))
        assert game is not None and game.errors == ()


def test_a_seat_copy_is_checked_against_the_rules() -> None:
    rec = played(3)
    text = write_game(rec, audience="seat 1")
    body = text.split("\n\n")[1]
    first_play = re.search(r"1\. (\d+-\d+@\d+-\d+)", body)
    assert first_play is not None
    passed = text.replace(first_play.group(0), "1. pass", 1)
    with pytest.raises(NotationError, match="cannot be played"):
        strict(passed)
    other = re.search(r"2\. (\d+-\d+)@(\d+-\d+)", body)
    assert other is not None
    nowhere = text.replace(other.group(0), f"2. {other.group(1)}@0-0", 1)
    with pytest.raises(NotationError, match=r"line 16, column \d+: cannot be played: .*0-0"):
        strict(nowhere)
    spectator = write_game(rec, audience="spectator")
    with pytest.raises(NotationError, match="the anchor 0-0 was not played earlier"):
        strict(spectator.replace(other.group(0), f"2. {other.group(1)}@0-0", 1))
    with pytest.raises(NotationError, match="seat 1 moves, but seat 2 is to act"):
        strict(spectator.replace(other.group(0), f"1. {other.group(1)}@{other.group(2)}", 1))


def test_plain_draws_stay_plain_in_the_full_copy() -> None:
    rec = played(3)
    assert any(str(m) == "draw" for m in rec.moves)
    game = strict(write_game(rec))
    assert game is not None and game.record == rec
    assert game.header("Result") == " ".join(map(str, rec.final().penalties()))


def test_annotations_round_trip_and_variations_are_replayed() -> None:
    rec = played(5, plies=6)
    base = game_of(rec, headers={"Event": "club"})
    first = rec.states()[0]
    other = next(m for m in first.legal_moves if m is not rec.moves[0])
    ev = set_clock(
        set_eval("the 3 is safer", Evaluation((10.0, 20.5, 3, 4), (0.5, 0.1, 0.2, 0.2), ms=50)), 61
    )
    side = (Node(0, str(other), comments=("also fine",)),)
    nodes = (
        Node(0, base.moves[0].move, glyphs=("!?",), comments=(ev,), variations=(side,)),
        *base.moves[1:],
    )
    annotated = Game(base.headers, nodes, comment=("a quiet round",), record=rec)
    text = write_game(annotated)
    back = strict(text)
    assert back is not None and back.errors == () and back.record == rec
    assert back.moves == nodes and back.comment == ("a quiet round",)
    assert comment_eval(back.moves[0].comments[0]) == Evaluation(
        (10.0, 20.5, 3.0, 4.0), (0.5, 0.1, 0.2, 0.2), ms=50
    )
    assert comment_clock(back.moves[0].comments[0]) == 61
    wrong = (Node(0, base.moves[0].move, variations=((Node(0, "pass"),),)), *base.moves[1:])
    game = tolerant(write_game(Game(base.headers, wrong, record=rec)))
    assert game is not None and game.record == rec
    assert [e.line for e in game.errors] and "in a variation" in str(game.errors[0])


def test_hidden_copies_drop_annotations() -> None:
    rec = played(5, plies=3)
    base = game_of(rec)
    annotated = Game(
        base.headers,
        (Node(0, base.moves[0].move, comments=("9-9 is hers",)), *base.moves[1:]),
        record=rec,
    )
    assert "{" not in write_game(annotated, audience="spectator")


def test_a_match_document_converts_both_ways() -> None:
    m = cf.Match.start(cf.Rules(players=3, match=cf.Rounds(3)), seed=11)
    seen = [m]
    while not m.is_over():
        m = m.apply(m.legal_moves[0])
        seen.append(m)
    for doc in (seen[0], seen[len(seen) // 2], m):
        got = read_match(io.StringIO(write_match(doc)), strict=True)
        assert got is not None and got.to_match() == doc
        assert got.to_match().last_round == doc.last_round


def test_a_whole_match_is_begin_rounds_end() -> None:
    rules = cf.Rules(players=2, match=cf.Rounds(2))
    records = []
    for k in range(2):
        rng = random.Random(k)
        rec = Record(cf.deal(rules, 9, k))
        while not rec.final().is_over():
            rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
        records.append(rec)
    text = write_match_rounds(
        rules, seed=9, rounds=records, headers={"Event": "final", "Name0": "Ada"}
    )
    got = read_match(io.StringIO(text), strict=True)
    assert got is not None and [g.record for g in got.rounds] == records
    assert got.end is not None and got.end.header("Winners") != "*"
    assert [g.header("Round") for g in got.rounds] == ["0", "1"]
    spectator = write_match_rounds(rules, seed=9, rounds=records[:1], audience="spectator")
    assert "[Seed" not in spectator  # the seed deals every round: secret while the match goes on


# -- hidden twins ------------------------------------------------------------------------------


def _visible_tiles(text: str) -> set[str]:
    return set(re.findall(r"\b\d+-\d+\b", text))


@settings(max_examples=30, deadline=None)
@given(games(preset_or_tiny_rules()), st.integers(0, 7), st.randoms(use_true_random=False))
def test_hidden_twins_give_identical_copies_at_every_prefix(
    path: list[cf.State], k: int, rng: random.Random
) -> None:
    rec = record_of(path)
    seat = k % rec.start.players
    compared = 0
    for i in range(len(rec.moves) + 1):
        prefix = Record(rec.start, rec.moves[:i])
        if prefix.final().is_over():
            continue  # the end reveals the penalties, which a twin need not share
        twin = prefix.final().view(seat).sample_record(rng)
        assert twin.final().view(seat) == prefix.final().view(seat)
        for audience in (f"seat {seat}", "spectator"):
            assert write_game(twin, audience=audience) == write_game(prefix, audience=audience)
            compared += 1
        spectator = write_game(prefix, audience="spectator")
        board = {str(m.tile) for m in prefix.final().board} | {str(prefix.start.centre)}
        assert _visible_tiles(spectator.split("[Rules")[1]) <= board
    assert compared >= 2 or rec.final().is_over()


def test_a_seat_copy_names_only_what_the_seat_saw() -> None:
    rec = played(3)
    for seat in range(4):
        text = write_game(rec, audience=f"seat {seat}")
        final = rec.final()
        mine = {str(t) for t in rec.start.hand(seat)}
        mine |= {
            str(e.move.tile)
            for e in final.view(seat).history
            if isinstance(e.move, cf.Draw) and e.move.tile
        }
        board = {str(m.tile) for m in final.board} | {"9-9"}
        assert _visible_tiles(text.split("[Rules")[1]) <= mine | board
        assert "draw " not in text and "draw\n" not in text


# -- reading ------------------------------------------------------------------------------------


def test_files_of_many_games_stream_skim_and_seek() -> None:
    records = [played(s, plies=12 + s) for s in range(6)]
    data = "".join(write_game(r, headers={"Round": str(i)}) for i, r in enumerate(records))
    assert [g.record for g in iter_games(io.StringIO(data), strict=True)] == records
    handle = io.StringIO(data)
    heads = []
    while (h := read_headers(handle)) is not None:
        heads.append(dict(h)["Round"])
    assert heads == [str(i) for i in range(6)]
    raw = data.encode()
    offsets = list(scan_offsets(io.BytesIO(raw)))
    assert len(offsets) == 6
    handle_b = io.BytesIO(raw)
    handle_b.seek(offsets[4])
    game = read_game(handle_b)
    assert game is not None and game.record == records[4]
    handle_s = io.StringIO(data)
    assert skip_game(handle_s) and skip_game(handle_s)
    nxt = read_game(handle_s)
    assert nxt is not None and nxt.record == records[2]


def test_a_visitor_builds_something_else() -> None:
    class Plays(Visitor[int]):
        def begin_game(self) -> None:
            self.n = 0

        def visit_move(self, text: str, line: int, column: int) -> None:
            self.n += "@" in text

        def result(self) -> int:
            return self.n

    rec = played(1, plies=9)
    assert visit_game(io.StringIO(write_game(rec)), Plays()) == sum(
        isinstance(m, cf.Play) for m in rec.moves
    )


GOOD = write_game(played(2, plies=5))


def _bad(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (_bad('[Rules "house"]', '[Rules "house"]\n[Colour "red"]'), 3, "unknown header 'Colour'"),
        (_bad('[Rules "house"]', '[Rules "house"]\n[Rules "house"]'), 3, "appears twice"),
        (_bad("[Turn", '[Turn "1"]\n[Turn'), 12, "appears twice"),
        (GOOD.replace(" *", ""), 18, "without its terminator"),
        (GOOD[: len(GOOD) // 2], None, ""),
        (_bad('[Notation "1"]', "Notation 1"), 1, "a game starts with its headers"),
    ],
    ids=["unknown", "repeated", "repeated later", "unterminated", "truncated", "no header"],
)
def test_strict_reading_raises_the_first_problem_with_line_and_column(
    text: str, line: int | None, message: str
) -> None:
    with pytest.raises(NotationError) as caught:
        strict(text)
    err = caught.value
    assert isinstance(err, cf.FormatError) and err.column >= 1
    if line is not None:
        assert err.line == line and message in str(err)


def test_a_move_that_cannot_be_played_is_found_where_it_is() -> None:
    rec = played(2, plies=5)
    body = GOOD.split("\n\n")[1]
    third = str(rec.moves[2])
    text = GOOD.replace(body, body.replace(f" {third}", " 0-0@9-9", 1))
    with pytest.raises(NotationError, match=r"line 16, column 26: 0-0@9-9 cannot be played"):
        strict(text)
    game = tolerant(text)
    assert game is not None and game.record == Record(rec.start, rec.moves[:2])
    outside = GOOD.replace(body, body.replace(f" {third}", " 12-0@9-9", 1))
    with pytest.raises(NotationError, match="outside the double-9 set"):
        strict(outside)


def test_a_seat_copy_may_not_name_what_the_seat_could_not_see() -> None:
    rec = played(3)
    text = write_game(rec, audience="seat 0")
    other_draw = re.search(r"([123])\. draw:\?\?", text)
    assert other_draw is not None
    leaked = text.replace(other_draw.group(0), f"{other_draw.group(1)}. draw:0-0", 1)
    with pytest.raises(NotationError, match="could not have seen"):
        strict(leaked)
    named = text.replace('[Hand1 "??', '[Hand1 "1-1', 1)
    with pytest.raises(NotationError, match="names tiles, but this is a copy for seat 0"):
        strict(named)
    bone = write_game(rec, audience="spectator").replace('[Boneyard "??', '[Boneyard "3-0', 1)
    with pytest.raises(NotationError, match="may not name the boneyard"):
        strict(bone)


@pytest.mark.parametrize(
    "junk",
    [
        b"(" * 1_000_000,
        b"{" + b"x" * 3_000_000,
        b'[Notation "1"]\n\n' + b"9" * 50_000_000 + b"\n*\n",
        bytes(range(256)) * 4000,
        GOOD.encode("utf-16"),
        GOOD.encode()[:-40] + b"\xff\xfe(" * 100_000,
    ],
    ids=["deep", "endless comment", "long line", "binary", "utf-16", "truncated junk"],
)
def test_hostile_input_is_an_error_in_bounded_time(junk: bytes) -> None:
    began = time.perf_counter()
    game = tolerant(junk)
    assert game is not None and game.errors
    assert all(isinstance(e, NotationError) and e.line >= 1 and e.column >= 1 for e in game.errors)
    assert len(game.errors) <= 101
    with pytest.raises(NotationError):
        strict(junk)
    assert time.perf_counter() - began < 20  # generous: a shared machine; the bound is linear


def test_variations_nest_only_so_deep() -> None:
    body = GOOD.split("\n\n")[1]
    first = body.split(" ")[1]
    nested = "".join(f"({i % 4}. {first} " for i in range(MAX_DEPTH + 5)) + ")" * (MAX_DEPTH + 5)
    text = GOOD.replace(body, body.replace(first, f"{first} {nested}", 1))
    with pytest.raises(NotationError, match=f"nested deeper than {MAX_DEPTH}"):
        strict(text)
    assert MAX_LINE >= 100_000


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=400).map(str.encode))
def test_the_tolerant_reader_never_raises(data: bytes) -> None:
    handle = io.BytesIO(GOOD.encode()[: len(data) % 400] + data)
    for _ in range(50):
        game = read_game(handle)
        if game is None:
            break
        assert all(isinstance(e, NotationError) for e in game.errors)


def test_commands_in_comments() -> None:
    assert comment_eval("no command") is None and comment_clock("{}") is None
    assert comment_eval("[%eval 1:2]") is None  # a win share above 1 is no evaluation
    assert set_eval("", Evaluation((1.5,), (1.0,), iterations=3)) == "[%eval 1.5:1 it=3]"
    assert set_clock("x", 3725.3) == "x [%clk 1:02:05.3]"
    with pytest.raises(cf.FormatError):
        Evaluation((1.0,), (0.5,), iterations=1, ms=1)


class _Recorder(Visitor[list[tuple[str, str, int, int]]]):
    def begin_game(self) -> None:
        self.seen: list[tuple[str, str, int, int]] = []

    def visit_seat(self, seat: int, line: int, column: int) -> None:
        self.seen.append(("seat", str(seat), line, column))

    def visit_move(self, text: str, line: int, column: int) -> None:
        self.seen.append(("move", text, line, column))

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        self.seen.append(("glyph", glyph, line, column))

    def handle_error(self, error: NotationError) -> None:
        self.seen.append(("error", error.reason, error.line, error.column))

    def result(self) -> list[tuple[str, str, int, int]]:
        return self.seen


_WORDS = st.sampled_from(
    [
        "0.",
        "12.",
        "9-4@9-9",
        "draw:??",
        "pass",
        "!?",
        "??",
        "*",
        "3-0*",
        "1.2-1",
        "x.y",
        "٣.",
        "\t",
        " ",
        "draw",
        "0.draw",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORDS, max_size=12).map("".join), st.lists(_WORDS, max_size=12).map(" ".join))
def test_a_line_of_words_reads_the_same_on_the_fast_path(glued: str, spaced: str) -> None:
    for body in (glued, spaced):
        head = '[Notation "1"]\n\n'
        fast = visit_game(io.StringIO(f"{head}{body}\n*\n"), _Recorder())
        general = visit_game(io.StringIO(f"{head}{{}} {body}\n*\n"), _Recorder())
        assert fast is not None and general is not None
        assert fast == [(k, t, line, col - 3 if line == 3 else col) for k, t, line, col in general]


def test_seeking_after_a_game_cut_short_reads_the_game_sought() -> None:
    one, two = write_game(played(1, plies=4)), write_game(played(2, plies=4), audience="spectator")
    data = (one.replace(" *", "") + two).encode()  # the first game has no terminator
    handle = io.BytesIO(data)
    first = read_game(handle)
    assert first is not None and "without its terminator" in str(first.errors[-1])
    handle.seek(0)
    again = read_game(handle)
    assert again is not None and again.headers == first.headers
    assert [e.line for e in again.errors] == [e.line for e in first.errors]
    second = read_game(handle)
    assert second is not None and second.header("Audience") == "spectator" and not second.errors


def test_a_comment_too_long_is_skipped_to_its_end() -> None:
    body = GOOD.split("\n\n")[1]
    long = "{" + "9-4@9-9 " * (MAX_LINE // 16) + "\n" + "pass " * (MAX_LINE // 10) + "}"
    game = tolerant(GOOD.replace(body, body.replace(" *", f" {long} *")))
    assert game is not None
    assert [e.reason for e in game.errors] == ["a comment longer than 100,000 characters"]


def test_moves_without_seat_numbers_read_with_the_seat_to_act() -> None:
    rec = played(6, plies=8)
    text = write_game(rec)
    bare = re.sub(r"(?m)(^| )\d+\. ", r"\1", text.split("\n\n")[1])
    game = strict(text.replace(text.split("\n\n")[1], bare))
    assert game is not None and game.record == rec
    assert [n.seat for n in game.moves] == [s.turn for s in rec.states()[:-1]]
    assert write_game(game) == text


def test_the_writer_refuses_what_would_not_read_back() -> None:
    rec = played(6, plies=3)
    base = game_of(rec)
    with pytest.raises(cf.FormatError, match="glyph"):
        write_game(
            Game(
                base.headers,
                (Node(0, base.moves[0].move, glyphs=("wow",)), *base.moves[1:]),
                record=rec,
            )
        )
    with pytest.raises(cf.FormatError, match="do not match the record"):
        write_game(Game(base.headers, base.moves[:-1], record=rec))
