"""JSON documents (docs/formats.md): the ``chickenfoot/position`` reader and writer.

Readers check everything and raise :class:`~chickenfoot.FormatError` naming the path of the
bad part (``hands[2][5]``, ``rules.max_pip``, ``board[3]``); never a bare ``KeyError`` or
``TypeError``.

>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(), seed=5)
>>> position_from_json(position_to_json(s)) == s
True
>>> position_from_dict({**s.to_dict(), "turn": 4})
Traceback (most recent call last):
...
chickenfoot.errors.FormatError: turn: 4 is not a seat (0 to 3)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from chickenfoot._checks import indent as check_indent
from chickenfoot._checks import listing
from chickenfoot.errors import FormatError, InvalidMoveError, RulesError, brief
from chickenfoot.moves import Play, play_by_ids
from chickenfoot.rules import Rules
from chickenfoot.state import State, _settle
from chickenfoot.tiles import PIPS, Tile, set_size

__all__ = [
    "MAX_DOCUMENT",
    "POSITION_FORMAT",
    "VERSION",
    "check_header",
    "position_from_dict",
    "position_from_json",
    "position_from_parts",
    "position_to_dict",
    "position_to_json",
    "rules_from_dict",
]

VERSION: Final = 1
MAX_DOCUMENT: Final = 4 * 1024 * 1024
"""The longest JSON text the readers accept (characters, or bytes), checked before parsing."""
POSITION_FORMAT: Final = "chickenfoot/position"
_POSITION_KEYS: Final = (
    "format",
    "version",
    "rules",
    "centre",
    "board",
    "hands",
    "boneyard",
    "turn",
    "drawn",
)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def check_header(
    obj: Any, fmt: str, keys: tuple[str, ...], path: str = "", optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    """Check that ``obj`` is a ``fmt`` document of version 1 with ``keys`` (and ``optional``)."""
    if not isinstance(obj, Mapping):
        raise FormatError(path, f"expected a {fmt} document (a JSON object), got {_kind(obj)}")
    if "format" in obj and obj["format"] != fmt:  # a different document: say so first
        raise FormatError(_join(path, "format"), f"expected {fmt!r}, got {brief(obj['format'])}")
    for key in keys:
        if key not in obj:
            raise FormatError(_join(path, key), "missing")
    for key in obj:
        if key not in keys and key not in optional:
            name = key if isinstance(key, str) and len(key) <= 40 else brief(key, 40)
            known = ", ".join((*keys, *(f"{k} (optional)" for k in optional)))
            raise FormatError(_join(path, name), f"unknown key (a {fmt} has {known})")
    version = obj["version"]
    if type(version) is not int:
        raise FormatError(_join(path, "version"), f"expected the integer 1, got {brief(version)}")
    if version != VERSION:
        what = "newer than this library reads" if version > VERSION else "not a known version"
        raise FormatError(_join(path, "version"), f"version {brief(version)} is {what} (1)")
    return obj


def _kind(value: Any) -> str:
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


def rules_from_dict(obj: Any, path: str = "rules") -> Rules:
    """:meth:`Rules.from_dict`, with errors as :class:`FormatError` at ``path.field``."""
    try:
        return Rules.from_dict(obj)
    except RulesError as err:
        field = err.field if err.field and err.field != "rules" else ""
        if len(field) > 40:  # an unknown field may be any text
            field = brief(field, 40)
        raise FormatError(_join(path, field) if field else path, str(err)) from None


def _tile(value: Any, path: str, max_pip: int) -> Tile:
    if not isinstance(value, str):
        raise FormatError(path, f"expected a tile such as '9-4', got {_kind(value)}")
    try:
        return Tile.parse(value, max_pip=max_pip)
    except InvalidMoveError as err:
        raise FormatError(path, str(err)) from None


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormatError(path, f"expected an array, got {_kind(value)}")
    return value


def position_from_dict(obj: Any, path: str = "") -> State:
    """Read and check a ``chickenfoot/position`` document (``path``: where it sits)."""
    doc = check_header(obj, POSITION_FORMAT, _POSITION_KEYS, path)
    rules = rules_from_dict(doc["rules"], _join(path, "rules"))
    return position_from_parts(
        rules,
        centre=doc["centre"],
        board=doc["board"],
        hands=doc["hands"],
        boneyard=doc["boneyard"],
        turn=doc["turn"],
        drawn=doc["drawn"],
        path=path,
    )


def position_from_parts(
    rules: Rules,
    *,
    centre: Any,
    board: Any,
    hands: Any,
    boneyard: Any,
    turn: Any,
    drawn: Any,
    path: str = "",
) -> State:
    """Check the parts of a position (as a document holds them) and build the state.

    The one validation path of :meth:`State.from_dict` and :meth:`State.setup`: every
    error is a :class:`FormatError` naming the path of the bad part within a position
    document, e.g. ``hands[1][0]``.
    """
    doc = {"centre": centre, "board": board, "hands": hands, "boneyard": boneyard}
    doc.update(turn=turn, drawn=drawn)
    n = rules.max_pip
    centre = _tile(doc["centre"], _join(path, "centre"), n)
    if not centre.is_double:
        raise FormatError(_join(path, "centre"), f"{centre} is not a double")
    seen: dict[int, str] = {}

    def place(tile: Tile, where: str) -> None:
        if tile.id in seen:
            raise FormatError(where, f"{tile} appears twice (also at {seen[tile.id]})")
        seen[tile.id] = where

    board = _read_board(doc["board"], _join(path, "board"), rules, centre, place)
    hands_path = _join(path, "hands")
    raw_hands = _list(doc["hands"], hands_path)
    if len(raw_hands) != rules.players:
        raise FormatError(
            hands_path, f"expected {rules.players} hands (one per player), got {len(raw_hands)}"
        )
    hands = []
    for seat, raw in enumerate(raw_hands):
        hp = _join(hands_path, seat)
        mask = 0
        for i, value in enumerate(_list(raw, hp)):
            tile = _tile(value, _join(hp, i), n)
            place(tile, _join(hp, i))
            mask |= 1 << tile.id
        hands.append(mask)
    bone_path = _join(path, "boneyard")
    bone = []
    for i, value in enumerate(_list(doc["boneyard"], bone_path)):
        tile = _tile(value, _join(bone_path, i), n)
        place(tile, _join(bone_path, i))
        bone.append(tile.id)
    missing = [str(Tile.from_id(t)) for t in range(set_size(n)) if t not in seen]
    if missing:
        raise FormatError(
            path, f"tiles missing from board, hands and boneyard: {listing(missing, 8)}"
        )
    turn = doc["turn"]
    if type(turn) is not int or not 0 <= turn < rules.players:
        raise FormatError(
            _join(path, "turn"), f"{brief(turn)} is not a seat (0 to {rules.players - 1})"
        )
    drawn_value = doc["drawn"]
    drawn = -1
    if drawn_value is not None:
        tile = _tile(drawn_value, _join(path, "drawn"), n)
        if not hands[turn] >> tile.id & 1:
            raise FormatError(_join(path, "drawn"), f"{tile} is not in the hand of seat {turn}")
        drawn = tile.id
    return _settle(rules, centre.id, board, tuple(hands), tuple(bone), turn, drawn)


def _read_board(value: Any, path: str, rules: Rules, centre: Tile, place: Any) -> tuple[Play, ...]:
    """Parse the board and replay it on an empty table, checking every placement."""
    raw = _list(value, path)
    n = rules.max_pip
    if not raw:
        if rules.centre == "set_aside":
            raise FormatError(path, f"the board must start with the centre {centre}")
        return ()
    first = _join(path, 0)
    if raw[0] != str(centre) and _tile(raw[0], first, n) is not centre:
        raise FormatError(
            first, f"the board must start with the centre {centre}, got {brief(raw[0])}"
        )
    place(centre, first)
    board = [play_by_ids(centre.id, -1)]
    ends: dict[int, int] = {}  # anchor id -> open number
    pending, need = centre.id, rules.opening_toes
    for i in range(1, len(raw)):
        where = _join(path, i)
        text = raw[i]
        if not isinstance(text, str) or text.count("@") != 1:
            raise FormatError(where, f"expected a placement TILE@ANCHOR, got {brief(text)}")
        tile_text, anchor_text = text.split("@")
        tile = _tile(tile_text, where, n)
        anchor = _tile(anchor_text, where, n)
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


def position_to_dict(state: State) -> dict[str, Any]:
    """The ``chickenfoot/position`` document of ``state``."""
    drawn = state.drawn
    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "centre": str(state.centre),
        "board": [m.uci() for m in state.board],
        "hands": [[str(t) for t in hand] for hand in state.hands],
        "boneyard": [str(t) for t in state.boneyard],
        "turn": state.turn,
        "drawn": None if drawn is None else str(drawn),
    }


def loads(text: str | bytes) -> Any:
    """``json.loads`` with every failure as a :class:`FormatError` (path ``""``).

    Strict JSON: ``NaN`` and ``Infinity`` are not numbers, a key may appear only once in an
    object, and nesting too deep for the parser is an error, not a ``RecursionError``.

    >>> loads('{"turn": 1}')
    {'turn': 1}
    >>> loads('{"turn": 1, "turn": 2}')
    Traceback (most recent call last):
    ...
    chickenfoot.errors.FormatError: not valid JSON: the key 'turn' appears twice in an object

    A document longer than :data:`MAX_DOCUMENT` (4 MiB of text) is refused before it is
    parsed, so a huge one costs no memory. A position takes about 1 kB; a match, a record
    or a view of the largest table stays far below the limit.

    >>> loads("[" + "0," * 3_000_000 + "0]")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.FormatError: the document is 6,000,003 characters long; at most 4,194,304 are read
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise FormatError("", f"expected JSON text (str or bytes), got {brief(text)}")
    if len(text) > MAX_DOCUMENT:
        unit = "characters" if isinstance(text, str) else "bytes"
        raise FormatError(
            "", f"the document is {len(text):,} {unit} long; at most {MAX_DOCUMENT:,} are read"
        )
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except FormatError:
        raise
    except RecursionError:
        raise FormatError("", "not valid JSON: nested too deeply") from None
    except (ValueError, TypeError) as err:
        raise FormatError("", f"not valid JSON: {err}") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise FormatError(
                    "", f"not valid JSON: the key {brief(key)} appears twice in an object"
                )
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise FormatError("", f"not valid JSON: {name} is not a JSON number")


def position_from_json(text: str | bytes) -> State:
    """Read a position document from JSON text."""
    return position_from_dict(loads(text))


def position_to_json(state: State, *, indent: int | None = None) -> str:
    """The position document of ``state`` as JSON text."""
    return json.dumps(position_to_dict(state), indent=check_indent(indent))
