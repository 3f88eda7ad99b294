"""The reader of ``chickenfoot/view`` documents, up to the parts a :class:`~chickenfoot.View`
is built from (:func:`chickenfoot.view.view_from_dict` builds it, and checks the history).

Errors are :class:`~chickenfoot.FormatError` naming the path inside the document.
"""

from __future__ import annotations

from typing import Any, Final

from chickenfoot._reading import kind, read_board, read_list, read_tile
from chickenfoot.errors import FormatError, InvalidMoveError, brief
from chickenfoot.formats import check_header, rules_from_dict
from chickenfoot.moves import Event, Play, parse_move
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.rules import Rules
from chickenfoot.tiles import Tile

__all__ = ["VIEW_FORMAT", "ViewParts", "read_view"]

VIEW_FORMAT: Final = "chickenfoot/view"

ViewParts = tuple[
    Rules,  # rules
    int,  # seat
    Tile,  # centre
    tuple[Play, ...],  # board
    int,  # the seat's hand, a bitmask of tile ids
    tuple[int, ...],  # hand sizes
    int,  # boneyard size
    int,  # turn
    int,  # the drawn tile's id, or -1
    tuple[Event, ...],  # history
    Outcome | None,  # outcome
]
"""What :func:`read_view` returns, in this order."""

_VIEW_KEYS: Final = (
    "format",
    "version",
    "rules",
    "seat",
    "centre",
    "board",
    "hand",
    "hand_sizes",
    "boneyard_size",
    "turn",
    "drawn",
    "history",
    "outcome",
)


def read_view(obj: Any) -> ViewParts:
    """The parts of a ``chickenfoot/view`` document, each checked, and checked together
    (every tile once, the counts adding up to the set, the outcome agreeing with them)."""

    doc = check_header(obj, VIEW_FORMAT, _VIEW_KEYS)
    rules = rules_from_dict(doc["rules"])
    n, players = rules.max_pip, rules.players

    def seat_of(value: Any, path: str) -> int:
        if type(value) is not int or not 0 <= value < players:
            raise FormatError(path, f"{brief(value)} is not a seat (0 to {players - 1})")
        return value

    def count(value: Any, path: str) -> int:
        if type(value) is not int or not 0 <= value <= rules.set_size:
            raise FormatError(
                path, f"expected a count from 0 to {rules.set_size}, got {brief(value)}"
            )
        return value

    seat = seat_of(doc["seat"], "seat")
    centre = read_tile(doc["centre"], "centre", n)
    if not centre.is_double:
        raise FormatError("centre", f"{centre} is not a double")
    seen: dict[int, str] = {}

    def place(tile: Tile, where: str) -> None:
        if tile.id in seen:
            raise FormatError(where, f"{tile} appears twice (also at {seen[tile.id]})")
        seen[tile.id] = where

    board = read_board(doc["board"], "board", rules, centre, place)
    hand = 0
    for i, value in enumerate(read_list(doc["hand"], "hand")):
        tile = read_tile(value, f"hand[{i}]", n)
        place(tile, f"hand[{i}]")
        hand |= 1 << tile.id
    raw_sizes = read_list(doc["hand_sizes"], "hand_sizes")
    if len(raw_sizes) != players:
        raise FormatError(
            "hand_sizes", f"expected {players} sizes (one per player), got {len(raw_sizes)}"
        )
    sizes = tuple(count(v, f"hand_sizes[{i}]") for i, v in enumerate(raw_sizes))
    if sizes[seat] != hand.bit_count():
        raise FormatError(
            f"hand_sizes[{seat}]",
            f"seat {seat} holds {hand.bit_count()} tiles in 'hand', not {sizes[seat]}",
        )
    bone = count(doc["boneyard_size"], "boneyard_size")
    total = len(board) + sum(sizes) + bone
    if total != rules.set_size:
        raise FormatError(
            "",
            f"the board ({len(board)}), the hands ({sum(sizes)}) and the boneyard ({bone}) "
            f"hold {total} tiles, but the set has {rules.set_size}",
        )
    turn = seat_of(doc["turn"], "turn")
    drawn = -1
    if doc["drawn"] is not None:
        tile = read_tile(doc["drawn"], "drawn", n)
        if turn != seat:
            raise FormatError("drawn", f"only the seat to act ({turn}) has a drawn tile")
        if not hand >> tile.id & 1:
            raise FormatError("drawn", f"{tile} is not in 'hand'")
        drawn = tile.id
    outcome = _read_outcome(doc["outcome"], sizes, bone)
    events = []
    for i, raw in enumerate(read_list(doc["history"], "history")):
        where = f"history[{i}]"
        if not isinstance(raw, list) or len(raw) != 2:
            raise FormatError(where, f"expected [seat, move], got {kind(raw)}")
        who = seat_of(raw[0], f"{where}[0]")
        try:
            move = parse_move(raw[1], max_pip=n) if isinstance(raw[1], str) else None
        except InvalidMoveError as err:
            raise FormatError(f"{where}[1]", str(err)) from None
        if move is None:
            raise FormatError(
                f"{where}[1]", f"expected a move such as '9-4@9-9', got {kind(raw[1])}"
            )
        events.append(Event(who, move))
    return rules, seat, centre, board, hand, sizes, bone, turn, drawn, tuple(events), outcome


def _read_outcome(value: Any, sizes: tuple[int, ...], bone: int) -> Outcome | None:
    """The ``outcome`` entry, checked against the hand sizes and the boneyard."""

    empty = [seat for seat, size in enumerate(sizes) if size == 0]
    if value is None:
        if empty:
            raise FormatError("outcome", f"seat {empty[0]} has no tiles, so the round is over")
        return None
    if not isinstance(value, dict) or set(value) != {"kind", "seat"}:
        raise FormatError(
            "outcome", f"expected null or {{'kind': ..., 'seat': ...}}, got {kind(value)}"
        )
    name, seat = value["kind"], value["seat"]
    if name == "out":
        if not empty or type(seat) is not int or seat != empty[0]:
            want = f"seat {empty[0]} went out" if empty else "no hand is empty"
            raise FormatError(
                "outcome.seat", f"{brief(seat)} does not agree with the hand sizes ({want})"
            )
        return Outcome(Termination.OUT, seat)
    if name == "blocked":
        if seat is not None:
            raise FormatError("outcome.seat", "a blocked round has no seat (null)")
        if empty:
            raise FormatError("outcome", f"seat {empty[0]} has no tiles, so it went out")
        if bone:
            raise FormatError("outcome", f"a round with {bone} tiles left to draw is not blocked")
        return Outcome(Termination.BLOCKED)
    raise FormatError("outcome.kind", f"expected 'out' or 'blocked', got {brief(name)}")
