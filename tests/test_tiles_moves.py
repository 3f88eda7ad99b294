"""Tiles and moves: ids, order, notation (the terms of docs/rules.md, the notation of docs/formats.md), interning, pickling."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from chickenfoot import (
    DRAW,
    MAX_PIP,
    PASS,
    Draw,
    InvalidMoveError,
    Move,
    Pass,
    Play,
    parse_move,
    set_size,
    tile_id,
    tiles_of_set,
)
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.tiles import Tile  # not in chickenfoot.__all__ yet

ALL = tiles_of_set(MAX_PIP)

# -- tiles -----------------------------------------------------------------------------------


def test_tile_ids_follow_the_spec_formula() -> None:
    assert [tile_id(a, b) for a, b in [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]] == [
        0,
        1,
        2,
        3,
        4,
        5,
    ]
    for a in range(MAX_PIP + 1):
        for b in range(a + 1):
            t = Tile(a, b)
            assert t.id == tile_id(a, b) == tile_id(b, a) == a * (a + 1) // 2 + b
            assert Tile.from_id(t.id) is t
            assert (t.high, t.low, t.pips, t.is_double) == (a, b, a + b, a == b)


@pytest.mark.parametrize(("n", "size"), [(2, 6), (3, 10), (6, 28), (9, 55), (12, 91), (18, 190)])
def test_set_sizes_and_tiles_of_set_in_id_order(n: int, size: int) -> None:
    tiles = tiles_of_set(n)
    assert set_size(n) == len(tiles) == size == (n + 1) * (n + 2) // 2
    assert [t.id for t in tiles] == list(range(size))
    assert list(tiles) == sorted(tiles)
    assert {(t.high, t.low) for t in tiles} == {(a, b) for a in range(n + 1) for b in range(a + 1)}


def test_tiles_of_double_two_by_name() -> None:
    assert [str(t) for t in tiles_of_set(2)] == ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2"]


def test_tile_is_interned_in_either_order() -> None:
    assert Tile(4, 9) is Tile(9, 4)
    assert str(Tile(4, 9)) == "9-4"
    assert repr(Tile(4, 9)) == "Tile(9, 4)"
    assert Tile(9, 4) == Tile(4, 9)
    others: list[object] = ["9-4", 49, (9, 4)]
    assert all(Tile(9, 4) != other for other in others)
    assert hash(Tile(9, 4)) == 49
    assert len({Tile(9, 4), Tile(4, 9), Tile(9, 3)}) == 2


def test_tiles_order_by_id() -> None:
    assert Tile(1, 1) < Tile(2, 0) < Tile(2, 1)  # ids 2, 3, 4
    assert Tile(9, 0) > Tile(8, 8)  # 45 > 44
    assert Tile(3, 3) <= Tile(3, 3) >= Tile(3, 3)
    assert sorted([Tile(3, 0), Tile(0, 0), Tile(2, 2), Tile(1, 0)]) == [
        Tile(0, 0),
        Tile(1, 0),
        Tile(2, 2),
        Tile(3, 0),
    ]
    with pytest.raises(TypeError):
        _ = Tile(1, 0) < 3  # type: ignore[operator]


def test_tile_has_and_other() -> None:
    t = Tile(9, 4)
    assert (t.has(9), t.has(4), t.has(5)) == (True, True, False)
    assert (t.other(9), t.other(4)) == (4, 9)
    assert Tile(6, 6).other(6) == 6
    with pytest.raises(
        ArgumentError, match=r"^number=5 is invalid: must be a number 9-4 shows \(9 or 4\)$"
    ):
        t.other(5)


def test_tile_is_immutable() -> None:
    t = Tile(9, 4)
    with pytest.raises(AttributeError):
        t.high = 3
    with pytest.raises(AttributeError):
        t.colour = "red"
    assert (t.high, t.low, t.id) == (9, 4, 49)


@pytest.mark.parametrize(
    "args", [(19, 0), (0, 19), (-1, 0), (True, 0), (1.0, 0), ("9", "4"), (None, 1)]
)
def test_tile_constructor_rejects_non_tiles(args: tuple[Any, Any]) -> None:
    with pytest.raises(InvalidMoveError, match="is not a tile"):
        Tile(*args)


@pytest.mark.parametrize("tid", [-1, 190, True, 1.0, "3"])
def test_tile_from_id_rejects_non_ids(tid: Any) -> None:
    with pytest.raises(InvalidMoveError, match="is not a tile id"):
        Tile.from_id(tid)


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("9-4", Tile(9, 4)),
        ("4-9", Tile(9, 4)),
        ("12-0", Tile(12, 0)),
        ("0-0", Tile(0, 0)),
        ("18-18", Tile(18, 18)),
    ],
)
def test_tile_parse_accepts_either_order(text: str, tile: Tile) -> None:
    assert Tile.parse(text) is tile


def test_tile_parse_prints_canonical_order_for_every_tile() -> None:
    for t in ALL:
        assert Tile.parse(str(t)) is t
        assert Tile.parse(f"{t.low}-{t.high}") is t
        assert str(t) == f"{t.high}-{t.low}"


@pytest.mark.parametrize(
    ("text", "max_pip"),
    [("10-2", 9), ("2-10", 9), ("9-9", 8), ("13-0", 12), ("19-0", 18), ("3-4", 3)],
)
def test_tile_parse_rejects_numbers_above_max_pip_quoting_the_text(text: str, max_pip: int) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Tile.parse(text, max_pip=max_pip)
    assert str(info.value) == f"{text!r} is not a tile of the double-{max_pip} set"


def test_tile_parse_of_a_huge_number_is_invalid_not_a_bare_value_error() -> None:
    text = "9" * 5000 + "-1"
    with pytest.raises(InvalidMoveError, match="is not a tile of the double-18 set"):
        Tile.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "9",
        "9-",
        "-4",
        "9-4-1",
        "9--4",
        " 9-4",
        "9-4 ",
        "09-4",
        "9-04",
        "+9-4",
        "9 - 4",
        "a-b",
        "9_4",
        "9:4",
        "9-4@9-9",
        "\uff19-\uff14",
        "٩-٤",
    ],
)
def test_tile_parse_rejects_junk_quoting_it(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Tile.parse(text)
    assert str(info.value) == f"{text!r} is not a tile: expected H-L such as '9-4'"


@pytest.mark.parametrize("value", [None, 94, b"9-4", ["9-4"]])
def test_tile_parse_rejects_non_strings(value: Any) -> None:
    with pytest.raises(InvalidMoveError, match="is not a tile"):
        Tile.parse(value)


# -- moves ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9-4@9-9", "9-4@9-9"),
        ("4-9@9-9", "9-4@9-9"),
        ("4-7@9-4", "7-4@9-4"),
        ("7-4@4-9", "7-4@9-4"),
        ("9-9", "9-9"),
        ("12-0@12-12", "12-0@12-12"),
        ("draw", "draw"),
        ("draw:5-3", "draw:5-3"),
        ("draw:3-5", "draw:5-3"),
        ("pass", "pass"),
    ],
)
def test_move_notation_round_trips_in_canonical_form(text: str, canonical: str) -> None:
    move = parse_move(text)
    assert str(move) == move.notation() == canonical
    assert parse_move(canonical) is move
    assert Move.parse(text) is move


def test_every_play_round_trips() -> None:
    for t in tiles_of_set(12):
        assert parse_move(str(t)) is Play(t)
        for a in tiles_of_set(12):
            move = Play(t, a)
            text = str(move)
            assert text == f"{t.high}-{t.low}@{a.high}-{a.low}"
            assert parse_move(text) is move
            assert parse_move(f"{t.low}-{t.high}@{a.low}-{a.high}") is move


def test_parsed_moves_have_their_parts() -> None:
    play = parse_move("4-9@9-9")
    assert isinstance(play, Play)
    assert (play.tile, play.anchor) == (Tile(9, 4), Tile(9, 9))
    lay = parse_move("9-9")
    assert isinstance(lay, Play)
    assert (lay.tile, lay.anchor) == (Tile(9, 9), None)
    named = parse_move("draw:3-5")
    assert isinstance(named, Draw)
    assert named.tile is Tile(5, 3)
    assert DRAW.tile is None
    assert parse_move("draw") is DRAW
    assert parse_move("pass") is PASS


def test_moves_are_interned() -> None:
    assert Play(Tile(4, 7), Tile(9, 4)) is Play(Tile(7, 4), Tile(4, 9))
    assert Play(Tile(9, 9)) is Play(Tile(9, 9), None)
    assert Draw() is DRAW
    assert Draw(None) is DRAW
    assert Draw(Tile(5, 3)) is Draw(Tile(3, 5)) is parse_move("draw:5-3")
    assert Draw(Tile(5, 3)) is not DRAW
    assert Pass() is PASS
    assert parse_move("7-4@9-4") is Play(Tile(7, 4), Tile(9, 4))
    assert len({parse_move("9-4@9-9"), parse_move("4-9@9-9"), Play(Tile(9, 4), Tile(9, 9))}) == 1


def test_moves_repr() -> None:
    assert repr(parse_move("9-4@9-9")) == "Play(Tile(9, 4), Tile(9, 9))"
    assert repr(parse_move("9-9")) == "Play(Tile(9, 9))"
    assert repr(DRAW) == "Draw()"
    assert repr(parse_move("draw:5-3")) == "Draw(Tile(5, 3))"
    assert repr(PASS) == "Pass()"
    namespace = {"Play": Play, "Tile": Tile, "Draw": Draw, "Pass": Pass}
    for text in ("9-4@9-9", "9-9", "draw", "draw:5-3", "pass"):
        move = parse_move(text)
        assert eval(repr(move), namespace) is move


def test_moves_are_immutable() -> None:
    play = parse_move("9-4@9-9")
    with pytest.raises(AttributeError):
        play.tile = Tile(1, 0)
    with pytest.raises(AttributeError):
        DRAW.tile = Tile(1, 0)
    with pytest.raises(AttributeError):
        PASS.x = 1
    assert str(play) == "9-4@9-9"
    assert DRAW.tile is None


@pytest.mark.parametrize("args", [("9-4", None), (Tile(9, 4), "9-9"), (49, None), (None, None)])
def test_play_constructor_rejects_non_tiles(args: tuple[Any, Any]) -> None:
    with pytest.raises(InvalidMoveError, match="expected a Tile and a Tile or None"):
        Play(*args)


def test_draw_constructor_rejects_non_tiles() -> None:
    with pytest.raises(InvalidMoveError, match="expected a Tile or None"):
        Draw("5-3")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "max_pip"),
    [
        ("10-2@9-9", 9),
        ("9-4@10-10", 9),
        ("10-10", 9),
        ("draw:10-0", 9),
        ("13-0@12-12", 12),
        ("19-0@18-18", 18),
        ("4-0@3-3", 3),
        ("draw:" + "9" * 5000 + "-1", 18),
        ("9" * 5000 + "-1@1-1", 18),
    ],
)
def test_move_naming_a_tile_outside_the_set_is_invalid_quoting_the_text(
    text: str, max_pip: int
) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_move(text, max_pip=max_pip)
    quoted = brief(text)  # the text, cut (with its length said) when it is long
    assert str(info.value) == f"{quoted} names a tile outside the double-{max_pip} set"
    assert len(str(info.value)) < 200


def test_default_max_pip_is_the_largest_supported_set() -> None:
    assert parse_move("18-0@18-18") is Play(Tile(18, 0), Tile(18, 18))
    with pytest.raises(InvalidMoveError, match="outside the double-18 set"):
        parse_move("19-0@18-18")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Draw",
        "DRAW",
        "Pass",
        "draw ",
        " pass",
        "draw:",
        "draw:x",
        "draw: 5-3",
        "draw:5-3@9-9",
        "draw5-3",
        "9-4@",
        "@9-9",
        "9-4@9-9@9-9",
        "9-4@@9-9",
        "9-4 @ 9-9",
        "9-4@9",
        "94@99",
        "09-4@9-9",
        "9-4@9-09",
        "pass:5-3",
        "resign",
        "9-4\n",
    ],
)
def test_junk_moves_are_invalid_and_quote_the_text(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_move(text)
    assert str(info.value).startswith(f"{text!r} is not a move: expected TILE@ANCHOR")
    assert "'draw', 'draw:TILE' or 'pass'" in str(info.value)


@pytest.mark.parametrize("value", [None, 5, b"draw", DRAW])
def test_non_string_moves_are_invalid(value: Any) -> None:
    with pytest.raises(InvalidMoveError, match="is not a move: expected a string"):
        parse_move(value)


@pytest.mark.parametrize(
    "obj",
    [
        Tile(9, 4),
        Tile(0, 0),
        Play(Tile(9, 4), Tile(9, 9)),
        Play(Tile(9, 9)),
        DRAW,
        Draw(Tile(5, 3)),
        PASS,
    ],
    ids=str,
)
def test_pickling_and_copying_keep_identity(obj: object) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(obj, protocol)) is obj
    assert copy.copy(obj) is obj
    assert copy.deepcopy(obj) is obj
    assert copy.deepcopy([obj, {obj: obj}])[0] is obj


def test_containers_of_tiles_and_moves_survive_pickling() -> None:
    data = {Tile(9, 4): [parse_move("9-4@9-9"), DRAW, PASS], "set": tiles_of_set(3)}
    back = pickle.loads(pickle.dumps(data))
    assert back == data
    assert back[Tile(9, 4)][0] is parse_move("9-4@9-9")
    assert all(a is b for a, b in zip(back["set"], tiles_of_set(3), strict=True))
