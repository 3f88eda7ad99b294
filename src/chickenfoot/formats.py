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
from typing import TYPE_CHECKING, Any, Final

from chickenfoot._checks import indent as check_indent
from chickenfoot._checks import listing
from chickenfoot._kernel import settle
from chickenfoot._reading import join, kind, read_board, read_list, read_tile
from chickenfoot.errors import FormatError, RulesError, brief
from chickenfoot.rules import Rules
from chickenfoot.tiles import Tile, set_size

if TYPE_CHECKING:
    from chickenfoot.state import State

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


def check_header(
    obj: Any,
    fmt: str,
    keys: tuple[str, ...],
    path: str = "",
    optional: tuple[str, ...] = (),
    *,
    versions: tuple[int, ...] = (VERSION,),
) -> Mapping[str, Any]:
    """Check that ``obj`` is a ``fmt`` document of one of ``versions`` (default: 1) with
    ``keys`` (and ``optional``)."""
    if not isinstance(obj, Mapping):
        raise FormatError(path, f"expected a {fmt} document (a JSON object), got {kind(obj)}")
    if "format" in obj and obj["format"] != fmt:  # a different document: say so first
        raise FormatError(join(path, "format"), f"expected {fmt!r}, got {brief(obj['format'])}")
    for key in keys:
        if key not in obj:
            raise FormatError(join(path, key), "missing")
    for key in obj:
        if key not in keys and key not in optional:
            name = key if isinstance(key, str) and len(key) <= 40 else brief(key, 40)
            known = ", ".join((*keys, *(f"{k} (optional)" for k in optional)))
            raise FormatError(join(path, name), f"unknown key (a {fmt} has {known})")
    version = obj["version"]
    known_versions = " or ".join(str(v) for v in versions)
    if type(version) is not int:
        raise FormatError(
            join(path, "version"), f"expected the integer {known_versions}, got {brief(version)}"
        )
    if version not in versions:
        newer = version > max(versions)
        what = "newer than this library reads" if newer else "not a known version"
        raise FormatError(
            join(path, "version"), f"version {brief(version)} is {what} ({known_versions})"
        )
    return obj


def rules_from_dict(obj: Any, path: str = "rules") -> Rules:
    """:meth:`Rules.from_dict`, with errors as :class:`FormatError` at ``path.field``."""
    try:
        return Rules.from_dict(obj)
    except RulesError as err:
        field = err.field if err.field and err.field != "rules" else ""
        if len(field) > 40:  # an unknown field may be any text
            field = brief(field, 40)
        raise FormatError(join(path, field) if field else path, str(err)) from None


def position_from_dict(obj: Any, path: str = "") -> State:
    """Read and check a ``chickenfoot/position`` document (``path``: where it sits)."""
    doc = check_header(obj, POSITION_FORMAT, _POSITION_KEYS, path)
    rules = rules_from_dict(doc["rules"], join(path, "rules"))
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
    centre = read_tile(doc["centre"], join(path, "centre"), n)
    if not centre.is_double:
        raise FormatError(join(path, "centre"), f"{centre} is not a double")
    seen: dict[int, str] = {}

    def place(tile: Tile, where: str) -> None:
        if tile.id in seen:
            raise FormatError(where, f"{tile} appears twice (also at {seen[tile.id]})")
        seen[tile.id] = where

    board = read_board(doc["board"], join(path, "board"), rules, centre, place)
    hands_path = join(path, "hands")
    raw_hands = read_list(doc["hands"], hands_path)
    if len(raw_hands) != rules.players:
        raise FormatError(
            hands_path, f"expected {rules.players} hands (one per player), got {len(raw_hands)}"
        )
    hands = []
    for seat, raw in enumerate(raw_hands):
        hp = join(hands_path, seat)
        mask = 0
        for i, value in enumerate(read_list(raw, hp)):
            tile = read_tile(value, join(hp, i), n)
            place(tile, join(hp, i))
            mask |= 1 << tile.id
        hands.append(mask)
    bone_path = join(path, "boneyard")
    bone = []
    for i, value in enumerate(read_list(doc["boneyard"], bone_path)):
        tile = read_tile(value, join(bone_path, i), n)
        place(tile, join(bone_path, i))
        bone.append(tile.id)
    missing = [str(Tile.from_id(t)) for t in range(set_size(n)) if t not in seen]
    if missing:
        raise FormatError(
            path, f"tiles missing from board, hands and boneyard: {listing(missing, 8)}"
        )
    turn = doc["turn"]
    if type(turn) is not int or not 0 <= turn < rules.players:
        raise FormatError(
            join(path, "turn"), f"{brief(turn)} is not a seat (0 to {rules.players - 1})"
        )
    drawn_value = doc["drawn"]
    drawn = -1
    if drawn_value is not None:
        tile = read_tile(drawn_value, join(path, "drawn"), n)
        if not hands[turn] >> tile.id & 1:
            raise FormatError(join(path, "drawn"), f"{tile} is not in the hand of seat {turn}")
        drawn = tile.id
    return settle(rules, centre.id, board, tuple(hands), tuple(bone), turn, drawn)


def position_to_dict(state: State) -> dict[str, Any]:
    """The ``chickenfoot/position`` document of ``state``."""
    drawn = state.drawn
    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "centre": str(state.centre),
        "board": [m.notation() for m in state.board],
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
