"""A plain-text picture of a round: the table, whose turn it is, the hands and the boneyard.

The table is drawn hub by hub, in the order the hubs were laid (the centre first, then each
double laid on a line). Under each hub come its toes in the order they were laid, each with
its line from the toe to its open end. Tiles on a line are shown turned the way they lie,
inner number first (``9|6 6|1 1|4``), so the matching numbers touch; the open end names
the anchor tile in notation (``open 4 on 4-1`` means ``X-4@4-1`` plays there). A line that
ends in a double is closed by it, and that double appears further down as a hub. The output
is ASCII only.

>>> from chickenfoot import State
>>> s = State.from_dict({"format": "chickenfoot/position", "version": 1,
...   "rules": {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2,
...             "foot_toes": 1},
...   "centre": "3-3", "board": ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
...   "hands": [["2-0"], ["2-2"]], "boneyard": ["1-1", "3-0", "0-0"],
...   "turn": 0, "drawn": None})
>>> print(render(s))
Table: centre 3-3
  hub 3-3 (centre): toes 2/2
    toe 3-2: 3|2 2|1 -> open 1 on 2-1
    toe 3-1: 3|1 1|0 -> open 0 on 1-0
Turn: seat 0
Hands:
  seat 0: 2-0 (1 tile, 2 points)
  seat 1: 2-2 (1 tile, 4 points)
Boneyard: 3 tiles
"""

from __future__ import annotations

import attrs

from chickenfoot.outcome import Termination
from chickenfoot.state import State
from chickenfoot.tiles import Tile

__all__ = ["Hub", "Line", "render", "render_table", "table"]


@attrs.frozen
class Line:
    """One line of the table: the toe it grows from, its tiles turned as they lie, its end.

    ``tiles`` holds ``(inner, outer)`` number pairs from the toe outwards. ``closed_by`` is the
    double that closed the line (``None`` while it is open); ``open_end`` is the number the
    next tile must match and ``anchor`` the tile it is laid against (both ``None`` when
    closed).
    """

    toe: Tile
    tiles: tuple[tuple[int, int], ...]
    closed_by: Tile | None
    open_end: int | None
    anchor: Tile | None


@attrs.frozen
class Hub:
    """A hub (the centre, or a double laid on a line) with its lines and toe count.

    ``on_line`` is the toe of the line the double closed (``None`` for the centre);
    ``toes_needed`` is how many toes the hub takes in all (``opening_toes`` or
    ``foot_toes``).
    """

    tile: Tile
    on_line: Tile | None
    toes_needed: int
    lines: tuple[Line, ...]


def table(state: State) -> tuple[Hub, ...]:
    """The hubs of the table, in the order they were laid, each with its lines.

    Empty in ``holder`` mode before the centre is laid.

    >>> from chickenfoot import Rules, apply, deal
    >>> s = apply(deal(Rules(), seed=1), "9-3@9-9")
    >>> hub, = table(s)
    >>> hub.tile, hub.toes_needed, hub.lines[0].open_end, hub.lines[0].anchor
    (Tile(9, 9), 6, 3, Tile(9, 3))
    """
    board = state.board
    if not board:
        return ()
    children: dict[Tile, list[Tile]] = {}
    for move in board[1:]:
        assert move.anchor is not None
        children.setdefault(move.anchor, []).append(move.tile)
    rules = state.rules
    hubs: list[Hub] = []
    # Hubs in the order they were laid: walk the board, collecting each hub's lines.
    line_of: dict[Tile, Tile] = {}  # a double laid on a line -> the toe of that line
    for i, move in enumerate(board):
        hub = move.tile
        if i == 0:
            needed = rules.opening_toes
        elif hub.is_double and hub in line_of:
            needed = rules.foot_toes
        else:
            continue
        lines = []
        for toe in children.get(hub, ()):
            line = _walk(hub.high, toe, children)
            if line.closed_by is not None:
                line_of[line.closed_by] = toe
            lines.append(line)
        hubs.append(Hub(hub, line_of.get(hub), needed, tuple(lines)))
    return tuple(hubs)


def _walk(number: int, toe: Tile, children: dict[Tile, list[Tile]]) -> Line:
    """Follow the line that grows from ``toe`` (laid on a hub of ``number``) to its end."""
    tiles = []
    end = number
    tile = toe
    while True:
        outer = tile.other(end)
        tiles.append((end, outer))
        end = outer
        if tile is not toe and tile.is_double:
            return Line(toe, tuple(tiles), tile, None, None)
        nxt = children.get(tile)
        if not nxt:
            return Line(toe, tuple(tiles), None, end, tile)
        tile = nxt[0]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def render_table(state: State) -> str:
    """Only the table part of :func:`render`: hubs, toes, lines and the pending hub.

    >>> from chickenfoot import Rules, deal
    >>> print(render_table(deal(Rules(), seed=1)))
    Table: centre 9-9
      hub 9-9 (centre): toes 0/6
    Pending: the centre 9-9 needs 6 more toes
    """
    if not state.board:
        return f"Table: empty (the centre {state.centre} is not laid yet)"
    out = [f"Table: centre {state.centre}"]
    for hub in table(state):
        where = "centre" if hub.on_line is None else f"closes the line of toe {hub.on_line}"
        out.append(f"  hub {hub.tile} ({where}): toes {len(hub.lines)}/{hub.toes_needed}")
        for line in hub.lines:
            tiles = " ".join(f"{a}|{b}" for a, b in line.tiles)
            if line.closed_by is not None:
                end = f"closed by the hub {line.closed_by}"
            else:
                end = f"open {line.open_end} on {line.anchor}"
            out.append(f"    toe {line.toe}: {tiles} -> {end}")
    pending = state.pending_hub
    if pending is not None:
        what = "the centre" if pending is state.centre else "the foot"
        more = _plural(state.toes_needed, "more toe")
        out.append(f"Pending: {what} {pending} needs {more}")
    return "\n".join(out)


def render(state: State) -> str:
    """A plain-text picture of ``state``: table, status, hands (with penalty points), boneyard.

    The status line is ``Turn: seat S`` (with the tile drawn this turn, if any) while the
    round goes on, and ``Over: ...`` once it has ended. Each hand lists its tiles in id order
    with their count and the penalty points they would score now (R11).

    >>> from chickenfoot import Rules, apply, deal
    >>> s = apply(deal(Rules(players=6), seed=1), "9-3@9-9")
    >>> print(render(s))
    Table: centre 9-9
      hub 9-9 (centre): toes 1/6
        toe 9-3: 9|3 -> open 3 on 9-3
    Pending: the centre 9-9 needs 5 more toes
    Turn: seat 1
    Hands:
      seat 0: 2-1 4-2 7-2 7-4 8-7 9-8 (6 tiles, 61 points)
      seat 1: 2-2 4-1 4-4 5-0 6-1 8-0 9-0 (7 tiles, 46 points)
      seat 2: 1-1 3-3 4-3 5-5 6-0 8-2 8-3 (7 tiles, 52 points)
      seat 3: 0-0 1-0 3-1 5-3 5-4 6-4 7-6 (7 tiles, 95 points)
      seat 4: 6-6 7-0 7-1 7-3 8-5 8-6 9-5 (7 tiles, 78 points)
      seat 5: 2-0 4-0 5-1 7-7 8-4 8-8 9-4 (7 tiles, 67 points)
    Boneyard: 12 tiles
    """
    out = [render_table(state)]
    result = state.outcome()
    if result is None:
        drawn = state.drawn
        extra = "" if drawn is None else f" (has drawn {drawn})"
        out.append(f"Turn: seat {state.turn}{extra}")
    elif result.termination is Termination.OUT:
        out.append(f"Over: seat {result.seat} went out")
    else:
        out.append("Over: blocked (the boneyard is empty and nobody can play)")
    out.append("Hands:")
    points = state.penalties()
    for seat, hand in enumerate(state.hands):
        tiles = " ".join(str(t) for t in hand) if hand else "none"
        out.append(f"  seat {seat}: {tiles} ({_plural(len(hand), 'tile')}, {points[seat]} points)")
    out.append(f"Boneyard: {_plural(state.boneyard_size, 'tile')}")
    return "\n".join(out)
