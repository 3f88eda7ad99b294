"""The checked readers of the parts every document shares: tiles, arrays, the board.

Shared by the document readers (:mod:`chickenfoot.formats` for positions,
:mod:`chickenfoot._view_reader` for views). Each raises :class:`~chickenfoot.FormatError`
naming the path of the bad part inside its document (built with :func:`join`); none
changes its input.
"""

from __future__ import annotations

from typing import Any

from chickenfoot.errors import FormatError, InvalidMoveError, brief
from chickenfoot.moves import Play, play_by_ids
from chickenfoot.rules import Rules
from chickenfoot.tiles import PIPS, Tile

__all__ = ["join", "kind", "read_board", "read_list", "read_tile"]


def join(path: str, key: str | int) -> str:
    """The path of ``key`` inside ``path``: ``hands[1]``, ``rules.players``, ``turn``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def kind(value: Any) -> str:
    """What a JSON value is, for messages: ``null``, ``a number``, ``an array``..."""
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def read_tile(value: Any, path: str, max_pip: int) -> Tile:
    """A tile of the double-``max_pip`` set written as ``"X-Y"``."""
    if not isinstance(value, str):
        raise FormatError(path, f"expected a tile such as '9-4', got {kind(value)}")
    try:
        return Tile.parse(value, max_pip=max_pip)
    except InvalidMoveError as err:
        raise FormatError(path, str(err)) from None


def read_list(value: Any, path: str) -> list[Any]:
    """``value`` if it is a JSON array."""
    if not isinstance(value, list):
        raise FormatError(path, f"expected an array, got {kind(value)}")
    return value


def read_board(value: Any, path: str, rules: Rules, centre: Tile, place: Any) -> tuple[Play, ...]:
    """Parse the board and replay it on an empty table, checking every placement."""
    raw = read_list(value, path)
    n = rules.max_pip
    if not raw:
        if rules.centre == "set_aside":
            raise FormatError(path, f"the board must start with the centre {centre}")
        return ()
    first = join(path, 0)
    if raw[0] != str(centre) and read_tile(raw[0], first, n) is not centre:
        raise FormatError(
            first, f"the board must start with the centre {centre}, got {brief(raw[0])}"
        )
    place(centre, first)
    board = [play_by_ids(centre.id, -1)]
    ends: dict[int, int] = {}  # anchor id -> open number
    pending, need = centre.id, rules.opening_toes
    for i in range(1, len(raw)):
        where = join(path, i)
        text = raw[i]
        if not isinstance(text, str) or text.count("@") != 1:
            raise FormatError(where, f"expected a placement TILE@ANCHOR, got {brief(text)}")
        tile_text, anchor_text = text.split("@")
        tile = read_tile(tile_text, where, n)
        anchor = read_tile(anchor_text, where, n)
        if anchor.id not in {m.tile.id for m in board}:
            raise FormatError(where, f"{text}: the anchor {anchor} was not played earlier")
        place(tile, where)
        if pending >= 0:
            hub = PIPS[pending][0]
            if anchor.id != pending:
                raise FormatError(
                    where, f"{text}: the hub {Tile.from_id(pending)} still needs {need} toe(s)"
                )
            if not tile.has(hub):
                raise FormatError(where, f"{text}: {tile} does not carry {hub}")
            ends[tile.id] = tile.other(hub)
            need -= 1
            if not need:
                pending = -1
        else:
            if anchor.id not in ends:
                raise FormatError(
                    where, f"{text}: {anchor} is not an open end (a closed line or a full hub)"
                )
            v = ends.pop(anchor.id)
            if not tile.has(v):
                ends[anchor.id] = v
                raise FormatError(
                    where, f"{text}: {tile} does not match the open end {v} of {anchor}"
                )
            if tile.is_double:
                pending, need = tile.id, rules.foot_toes
            else:
                ends[tile.id] = tile.other(v)
        board.append(play_by_ids(tile.id, anchor.id))
    return tuple(board)
