"""Tiles and moves: behaviour that mutation testing (``nox -s mutation``) found untested.

Each test names the mutants it kills (see ``bench/mutation.md``): bounds of the ``max_pip``
argument (0 and 18 are valid, 19 is not), strict order between a tile and itself, comparison
with a non-tile, and whole error messages where only a substring was checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from chickenfoot import (
    DRAW,
    ArgumentError,
    InvalidMoveError,
    Play,
    parse_move,
)
from chickenfoot.tiles import Tile

MAX_PIP_MESSAGE = "max_pip={} is invalid: must be an integer 0 to 18"


# -- max_pip: 0 (double-blank set) to 18 --------------------------------------------------------


def test_tile_parse_accepts_max_pip_zero() -> None:
    # The double-0 set has the one tile 0-0 (mutants: ``1 <= max_pip``, ``0 < max_pip``).
    assert Tile.parse("0-0", max_pip=0) is Tile(0, 0)
    with pytest.raises(InvalidMoveError):
        Tile.parse("1-0", max_pip=0)


@pytest.mark.parametrize("max_pip", [19, -1, 10**6])
def test_tile_parse_rejects_an_integer_max_pip_out_of_range(max_pip: int) -> None:
    # An integer out of range is an error, not clamped to 18 (mutant: ``or`` -> ``and``);
    # the message names the value given (mutants: no message, ``brief(None)``).
    with pytest.raises(ArgumentError) as info:
        Tile.parse("1-0", max_pip=max_pip)
    assert str(info.value) == MAX_PIP_MESSAGE.format(max_pip)


def test_parse_move_accepts_max_pip_zero() -> None:
    assert parse_move("0-0", max_pip=0) is Play(Tile(0, 0))
    assert parse_move("draw:0-0", max_pip=0).notation() == "draw:0-0"


@pytest.mark.parametrize("max_pip", [19, -1])
def test_parse_move_rejects_an_integer_max_pip_out_of_range(max_pip: int) -> None:
    with pytest.raises(ArgumentError) as info:
        parse_move("9-9", max_pip=max_pip)
    assert str(info.value) == MAX_PIP_MESSAGE.format(max_pip)


# -- order ------------------------------------------------------------------------------------


def test_a_tile_is_not_strictly_less_or_greater_than_itself() -> None:
    # Mutants: ``<`` -> ``<=`` and ``>`` -> ``>=`` in Tile.__lt__ and Tile.__gt__.
    t = Tile(3, 3)
    assert not t < t
    assert not t > t
    assert t <= t and t >= t


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_a_tile_does_not_order_against_a_non_tile(op: str) -> None:
    # Each comparison returns NotImplemented for a non-tile, so Python raises TypeError
    # (mutants that drop the ``not`` in the isinstance guard raise AttributeError instead).
    compare = {
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
    }[op]
    with pytest.raises(TypeError):
        compare(Tile(1, 0), 3)
    with pytest.raises(TypeError):
        compare(Tile(1, 0), "1-0")


# -- whole messages ---------------------------------------------------------------------------


def test_tile_from_id_message_gives_the_id_range() -> None:
    # 190 tiles in the double-18 set: ids 0 to 189.
    with pytest.raises(InvalidMoveError) as info:
        Tile.from_id(190)
    assert str(info.value) == "190 is not a tile id (0 to 189)"


@pytest.mark.parametrize(
    ("obj", "name", "message"),
    [
        (Tile(4, 0), "high", "Tile is immutable"),
        (parse_move("9-4@9-9"), "tile", "Play is immutable"),
        (DRAW, "tile", "Draw is immutable"),
    ],
)
def test_deleting_an_attribute_says_the_type_is_immutable(
    obj: Any, name: str, message: str
) -> None:
    with pytest.raises(AttributeError) as info:
        delattr(obj, name)
    assert str(info.value) == message


def test_parse_move_messages_quote_the_input() -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_move(5)  # type: ignore[arg-type]
    assert str(info.value) == "5 is not a move: expected a string"
    with pytest.raises(InvalidMoveError) as info:
        parse_move("x")
    assert str(info.value) == (
        "'x' is not a move: expected TILE@ANCHOR (e.g. '9-4@9-9'), TILE, "
        "'draw', 'draw:TILE' or 'pass'"
    )
