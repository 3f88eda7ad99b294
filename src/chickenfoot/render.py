"""Text pictures of a round: the table, whose turn it is, the hands and the boneyard.

Two forms: :func:`render`, an indented tree that names every part (ASCII only), and
:func:`render_compact`, one row per line of the table for play in a terminal (Unicode box
characters and arrows). Both are drawn from :attr:`State.table <chickenfoot.State.table>`.

The table is drawn hub by hub, in the order the hubs were laid (the centre first, then each
double laid on a line). Under each hub come its toes in the order they were laid, each with
its line from the toe to its open end. Tiles on a line are shown turned the way they lie,
inner number first (``9|6 6|1 1|4``), so the matching numbers touch; the open end names
the anchor tile in notation (``open 4 on 4-1`` means ``X-4@4-1`` plays there). A line that
ends in a double is closed by it, and that double appears further down as a hub.

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

from typing import Final

from chickenfoot import _checks as checks
from chickenfoot._compact import draw_state, draw_view, plural
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.outcome import Termination
from chickenfoot.state import State
from chickenfoot.view import View

__all__ = ["render", "render_compact", "render_table"]


MIN_WIDTH: Final = 20
MAX_WIDTH: Final = 10_000


def _position(position: object, who: str) -> State | View:
    if not isinstance(position, (State, View)):
        raise ArgumentError(f"{who} needs a State or a View, got {brief(position)}")
    return position


def render_table(state: State | View) -> str:
    """Only the table part of :func:`render`: hubs, toes, lines and the pending hub.

    >>> from chickenfoot import Rules, deal
    >>> print(render_table(deal(Rules(), seed=1)))
    Table: centre 9-9
      hub 9-9 (centre): toes 0/6
    Pending: the centre 9-9 needs 6 more toes
    """
    state = _position(state, "render_table")
    if not state.board:
        return f"Table: empty (the centre {state.centre} is not laid yet)"
    out = [f"Table: centre {state.centre}"]
    for hub in state.table.hubs:
        where = "centre" if hub.on_line is None else f"closes the line of toe {hub.on_line}"
        out.append(f"  hub {hub.tile} ({where}): toes {len(hub.lines)}/{hub.toes_required}")
        for line in hub.lines:
            tiles = " ".join(map(str, line.tiles))
            if line.closed_by is not None:
                end = f"closed by the hub {line.closed_by}"
            else:
                end = f"open {line.open_end} on {line.anchor}"
            out.append(f"    toe {line.toe}: {tiles} -> {end}")
    pending = state.pending_hub
    if pending is not None:
        what = "the centre" if pending is state.centre else "the foot"
        more = plural(state.toes_needed, "more toe")
        out.append(f"Pending: {what} {pending} needs {more}")
    return "\n".join(out)


def render(state: State | View) -> str:
    """A plain-text picture of ``state``: table, status, hands (with penalty points), boneyard.

    The status line is ``Turn: seat S`` (with the tile drawn this turn, if any) while the
    round goes on, and ``Over: ...`` once it has ended. Each hand lists its tiles in id order
    with their count and the penalty points they would score now (R11). Of a
    :class:`~chickenfoot.View`, only the viewer's hand is listed (marked ``(you)``); the
    others show their counts.

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
    state = _position(state, "render")
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
    if isinstance(state, View):
        for seat, size in enumerate(state.hand_sizes):
            if seat != state.seat:
                out.append(f"  seat {seat}: {plural(size, 'tile')}")
                continue
            tiles = " ".join(str(t) for t in state.hand) if state.hand else "none"
            count = f"{plural(size, 'tile')}, {state.penalty} points"
            out.append(f"  seat {seat} (you): {tiles} ({count})")
    else:
        points = state.penalties()
        for seat, hand in enumerate(state.hands):
            tiles = " ".join(str(t) for t in hand) if hand else "none"
            count = f"{plural(len(hand), 'tile')}, {points[seat]} points"
            out.append(f"  seat {seat}: {tiles} ({count})")
    out.append(f"Boneyard: {plural(state.boneyard_size, 'tile')}")
    return "\n".join(out)


def render_compact(position: State | View, *, seat: int | None = None, width: int = 80) -> str:
    """A one-screen text picture for play: one row per line of the table, then the hands.

    Each hub is a row (``centre 9-9``, or ``foot 8-8`` for a double laid on a line) with
    its toe count, followed by its lines, one per row, from the toe outwards: tiles turned
    as they lie (inner number first) and the open number after ``→``, or ``▪ foot D`` where
    the double ``D`` closed the line. The tile laid last is marked ``*``. Then a status row
    (whose turn, the tile drawn this turn, the boneyard) and one row per seat.

    ``position`` may be a :class:`~chickenfoot.State` (every hand shown) or a
    :class:`~chickenfoot.View` (only the viewer's hand; the others as counts); ``seat``
    draws a state as that seat sees it. The viewer's row is marked ``>``. A hand longer
    than ``width`` characters (20 to 10,000) continues on the next rows, indented under its
    first tile.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(players=3), seed=2).apply("9-1@9-9").apply("9-4@9-9")
    >>> print(render_compact(s, seat=2))
    centre 9-9  (2/6 toes, needs 4 more toes)
      ├ 9|1 → 1
      └ 9|4* → 4
    seat 2 to play · boneyard 12
      seat 0: 13 tiles
      seat 1: 13 tiles
    > seat 2: 1-1 2-2 3-2 3-3 4-2 4-3 4-4 5-0 5-2 5-3 6-1 6-2 7-6 9-6
              (14 tiles, 101 points)
    """
    position = _position(position, "render_compact")
    checks.integer(width, "width", low=MIN_WIDTH, high=MAX_WIDTH)
    if seat is not None:
        if isinstance(position, View):
            raise ArgumentError("seat= is for a State; a View is already one seat's picture")
        position = position.view(seat)
    if isinstance(position, View):
        return draw_view(position, width=width)
    return draw_state(position, width=width)
