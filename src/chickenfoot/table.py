"""The table as a structure: hubs, toes, lines, which way each tile lies, and the open ends.

A position stores its table as ``board``, the placements in the order they were made, each
naming the tile it was laid against. A game UI or a renderer wants the shape instead: the
centre, every hub (the centre and each double laid later) with its toes, each line as its
tiles from the hub outwards turned the way they lie, where each line ends and what may be
laid there. :attr:`State.table <chickenfoot.State.table>` (and :attr:`View.table
<chickenfoot.View.table>`) give that shape as a :class:`Table`, built from ``board`` in one
pass. See the rules page (docs/rules.md) for hubs, toes, lines and anchors.

>>> from chickenfoot import Rules, State
>>> rules = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
>>> s = State.setup(rules, board=["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
...                 hands=[["2-0"], ["2-2"]], boneyard=["1-1", "3-0", "0-0"])
>>> t = s.table
>>> hub, = t.hubs
>>> [str(line) for line in hub.lines]
['3|2 2|1 -> 1 on 2-1', '3|1 1|0 -> 0 on 1-0']
>>> t.open_ends
((Tile(2, 1), 1), (Tile(1, 0), 0))
>>> line = t.line_of("1-0")
>>> [(str(p.tile), p.inner, p.outer) for p in line.tiles]
[('3-1', 3, 1), ('1-0', 1, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from chickenfoot.deprecation import deprecated
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.tiles import Tile

if TYPE_CHECKING:
    from chickenfoot.moves import Play
    from chickenfoot.rules import Rules

__all__ = ["Hub", "Line", "Placed", "Table", "table_of"]


@attrs.frozen
class Placed:
    """A tile on the table, turned the way it lies.

    ``inner`` is the number that faces the hub: for a toe, the hub's number; further out,
    the number that matches the tile before it. ``outer`` faces away (for the centre and a
    double both are the same number). ``anchor`` is the tile it was laid against (``None``
    for the centre) and ``index`` its place in ``board``, the order of play (the centre is 0).
    """

    tile: Tile
    inner: int
    outer: int
    anchor: Tile | None
    index: int

    def __str__(self) -> str:
        return f"{self.inner}|{self.outer}"


@attrs.frozen
class Line:
    """One line: the tiles laid on one toe of a hub, from the toe outwards.

    ``tiles[0]`` is the toe. A line ends either open, where ``open_end`` is the number the
    next tile must carry and ``anchor`` the tile to lay it against (``X-open_end@anchor``),
    or closed by a double (``closed_by``, the line's last tile, which is a hub in turn), when
    ``open_end`` and ``anchor`` are ``None``.
    """

    hub: Tile
    tiles: tuple[Placed, ...]
    open_end: int | None
    anchor: Tile | None
    closed_by: Tile | None

    @property
    def toe(self) -> Tile:
        """The first tile of the line, laid on the hub."""
        return self.tiles[0].tile

    @property
    def is_closed(self) -> bool:
        """Whether a double closed the line (nothing more can be laid on it)."""
        return self.closed_by is not None

    def __str__(self) -> str:
        tiles = " ".join(map(str, self.tiles))
        if self.closed_by is not None:
            return f"{tiles} -> closed by {self.closed_by}"
        return f"{tiles} -> {self.open_end} on {self.anchor}"


@attrs.frozen
class Hub:
    """A hub: the centre, or a double laid on a line, with the lines on its toes.

    ``lines`` are in the order their toes were laid. ``toes_required`` is how many toes the
    hub takes in all (``opening_toes`` for the centre, ``foot_toes`` for a later double) and
    :attr:`toes_needed` how many it still needs, as everywhere in the library; ``on_line``
    is the line the double closed (``None`` for the centre), named by its toe.

    >>> from chickenfoot import Rules, deal
    >>> hub = deal(Rules(), seed=1).apply("9-3@9-9").table.pending_hub
    >>> hub.tile, hub.toes_required, hub.toes_needed, hub.toes
    (Tile(9, 9), 6, 5, (Tile(9, 3),))
    """

    tile: Tile
    toes_required: int
    lines: tuple[Line, ...]
    on_line: Tile | None

    @property
    def is_centre(self) -> bool:
        """Whether this hub is the round's centre."""
        return self.on_line is None

    @property
    def toes(self) -> tuple[Tile, ...]:
        """The toes laid on this hub, in the order they were laid."""
        return tuple(line.toe for line in self.lines)

    @property
    def toes_needed(self) -> int:
        """How many toes this hub still needs (0 once it has them all)."""
        return max(0, self.toes_required - len(self.lines))

    @property
    def is_complete(self) -> bool:
        """Whether the hub has all the toes it takes."""
        return len(self.lines) >= self.toes_required


@attrs.frozen
class Table:
    """The table of a position: its hubs with their lines, the pending hub and the last tile.

    ``hubs`` come in the order they were laid, the centre first; ``centre`` is ``None`` (and
    ``hubs`` empty) in ``holder`` mode before the centre is laid. ``pending_hub`` is
    the :class:`Hub` that still needs toes (at most one; ``None`` when there is none; the
    same hub :attr:`State.pending_hub <chickenfoot.State.pending_hub>` names by its tile)
    and ``toes_needed`` how many more it needs (``pending_hub.toes_needed``; 0 when none is
    pending). ``last`` is the tile placed last, ``None`` when no player has placed one (only
    the set-aside centre is on the table).

    Parts of the table point at each other by their tiles (``Line.hub``, ``Hub.on_line``,
    ``Placed.anchor``, as :attr:`State.pending_hub <chickenfoot.State.pending_hub>` names
    the pending hub by its tile); :meth:`hub`, :meth:`line_of` and :meth:`find` look a tile
    up.
    """

    centre: Tile | None
    hubs: tuple[Hub, ...]
    pending_hub: Hub | None
    toes_needed: int
    last: Placed | None
    _where: dict[Tile, tuple[Placed, Line | None]] = attrs.field(eq=False, repr=False)

    @property
    @deprecated(since="0.1", removed_in="1.0", instead="Table.pending_hub")
    def pending(self) -> Hub | None:
        """The pending hub: the old name of ``pending_hub``."""
        return self.pending_hub

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every line, hub by hub in the order the hubs were laid."""
        return tuple(line for hub in self.hubs for line in hub.lines)

    @property
    def open_ends(self) -> tuple[tuple[Tile, int], ...]:
        """Every open line end as ``(anchor tile, number)``, hub by hub, toe by toe.

        The same places as :attr:`State.open_ends <chickenfoot.State.open_ends>`, which lists
        them by anchor id. While a hub is pending nothing may be laid on them (only toes).
        """
        return tuple(
            (line.anchor, line.open_end)
            for line in self.lines
            if line.anchor is not None and line.open_end is not None
        )

    @property
    def placed(self) -> tuple[Placed, ...]:
        """Every tile on the table, in the order of play (the centre first)."""
        return tuple(sorted((p for p, _ in self._where.values()), key=lambda p: p.index))

    def __len__(self) -> int:
        """How many tiles are on the table."""
        return len(self._where)

    def __contains__(self, tile: object) -> bool:
        """Whether ``tile`` (a :class:`~chickenfoot.Tile` or ``"a-b"``) is on the table."""
        if isinstance(tile, str):
            try:
                tile = Tile.parse(tile)
            except ValueError:
                return False
        return tile in self._where

    def find(self, tile: Tile | str) -> Placed | None:
        """How ``tile`` lies on the table, or ``None`` when it is not there.

        >>> from chickenfoot import Rules, deal
        >>> t = deal(Rules(), seed=1).apply("9-3@9-9").table
        >>> t.find("3-9"), t.find("5-5")
        (Placed(tile=Tile(9, 3), inner=9, outer=3, anchor=Tile(9, 9), index=1), None)
        """
        found = self._where.get(_tile(tile))
        return None if found is None else found[0]

    def line_of(self, tile: Tile | str) -> Line | None:
        """The line ``tile`` lies on (a double closing a line lies on that line).

        ``None`` for the centre and for a tile that is not on the table.
        """
        found = self._where.get(_tile(tile))
        return None if found is None else found[1]

    def hub(self, tile: Tile | str) -> Hub | None:
        """The hub ``tile`` is, or ``None`` when it is not a hub on the table."""
        t = _tile(tile)
        return next((h for h in self.hubs if h.tile == t), None)


def _tile(tile: Tile | str) -> Tile:
    if isinstance(tile, Tile):
        return tile
    if isinstance(tile, str):
        return Tile.parse(tile)
    raise ArgumentError(f"expected a Tile or tile notation such as '9-3', got {brief(tile)}")


def table_of(
    rules: Rules,
    board: Sequence[Play],
    pending: Tile | None,
    toes_needed: int,
) -> Table:
    """The :class:`Table` of ``board`` (placements in the order played) under ``rules``.

    ``pending`` and ``toes_needed`` are the position's pending hub (its tile) and how many
    toes it still needs; :attr:`State.table <chickenfoot.State.table>` passes its own.
    """
    if not board:
        return Table(None, (), None, 0, None, {})
    centre = board[0].tile
    children: dict[Tile, list[Play]] = {}
    index: dict[Tile, int] = {}
    for i, move in enumerate(board):
        index[move.tile] = i
        if move.anchor is not None:
            children.setdefault(move.anchor, []).append(move)
    where: dict[Tile, tuple[Placed, Line | None]] = {
        centre: (Placed(centre, centre.high, centre.high, None, 0), None)
    }
    hubs: list[Hub] = []
    closed_line: dict[Tile, Tile] = {}  # a double that closed a line -> that line's toe
    for move in board:
        hub = move.tile
        if not hub.is_double:
            continue
        is_centre = hub == centre
        lines = []
        for toe in children.get(hub, ()):
            line = _walk(hub, toe, children, index)
            lines.append(line)
            for p in line.tiles:
                where[p.tile] = (p, line)
            if line.closed_by is not None:
                closed_line[line.closed_by] = toe.tile
        needed = rules.opening_toes if is_centre else rules.foot_toes
        hubs.append(Hub(hub, needed, tuple(lines), None if is_centre else closed_line[hub]))
    only_set_aside = len(board) == 1 and rules.centre == "set_aside"
    last = None if only_set_aside else where[board[-1].tile][0]
    needs = 0 if pending is None else toes_needed
    pending_hub = None if pending is None else next(h for h in hubs if h.tile == pending)
    return Table(centre, tuple(hubs), pending_hub, needs, last, where)


def _walk(hub: Tile, toe: Play, children: dict[Tile, list[Play]], index: dict[Tile, int]) -> Line:
    """Follow the line that grows from ``toe`` (laid on ``hub``) to its end."""
    tiles = []
    end = hub.high
    move = toe
    while True:
        tile = move.tile
        outer = tile.other(end)
        tiles.append(Placed(tile, end, outer, move.anchor, index[tile]))
        end = outer
        if tile.is_double:  # a double on a line closes it (a toe is never a double)
            return Line(hub, tuple(tiles), None, None, tile)
        nxt = children.get(tile)
        if not nxt:
            return Line(hub, tuple(tiles), end, tile, None)
        move = nxt[0]
