"""The layout of the table picture (private): every domino and label placed, in units.

:mod:`chickenfoot.picture` draws what :class:`Layout` places: the centre at the origin,
each hub's toes fanned out from it, each line a band of dominoes running right or left,
and the marks (labels, open ends) beside them. Units are a domino's width (a domino is
1 by 2). The palette is here too, since the layout decides what is marked pending or
last; nothing here writes SVG.
"""

from __future__ import annotations

import attrs

from chickenfoot.table import Hub, Line, Table
from chickenfoot.tiles import Tile

__all__ = [
    "BACK",
    "BOARD",
    "FACE",
    "INK",
    "LAST",
    "LAST_TEXT",
    "PENDING",
    "DEFAULT_SCALE",
    "FAN",
    "GAP",
    "HAND_GAP",
    "MARGIN",
    "ROW_GAP",
    "Domino",
    "Layout",
    "Mark",
]

# Colours.
INK = "#2b2b2b"
FACE = "#fffdf5"
BACK = "#35506b"
PENDING = "#e67e22"
LAST = "#1e6fd9"
LAST_TEXT = "#a9d8ff"
BOARD = "#1f6f4a"

# Geometry, in units of a domino's width (a domino is 1 by 2).
GAP = 0.12  # between neighbours on a line
ROW_GAP = 0.45  # between the bands of two lines
FAN = 1.1  # from a hub's edge to the first domino of its toes
MARGIN = 0.8
HAND_GAP = 0.12
DEFAULT_SCALE = 24  # pixels per unit when no size is given


@attrs.frozen
class Domino:
    """A domino placed in the picture: its box and the numbers of its two halves.

    ``first`` is the left half of a lying domino or the top half of a standing one.
    """

    tile: Tile | None  # None: face down
    x0: float
    y0: float
    x1: float
    y1: float
    first: int
    second: int
    role: str  # "centre", "hub", "line", "hand"
    outline: str | None = None

    def mirrored(self) -> Domino:
        # the constructor, not attrs.evolve: a table's left side mirrors every one of its
        # dominoes each time it is drawn, and evolve is several times slower
        return Domino(
            self.tile, -self.x1, self.y0, -self.x0, self.y1, self.second, self.first,
            self.role, self.outline,
        )  # fmt: skip


@attrs.frozen
class Mark:
    """Something drawn that is not a domino: a stroke, a dashed slot, a text."""

    kind: str  # "stroke", "slot", "text"
    x0: float
    y0: float
    x1: float = 0.0
    y1: float = 0.0
    text: str = ""
    size: float = 0.55
    anchor: str = "start"
    colour: str = INK

    def mirrored(self) -> Mark:
        x0, x1 = (-self.x1, -self.x0) if self.kind == "slot" else (-self.x0, -self.x1)
        return Mark(
            self.kind, x0, self.y0, x1, self.y1, self.text, self.size, self.anchor, self.colour
        )


class Layout:
    """The table laid out in units: the centre at the origin, lines to the right and left."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.hub_of = {hub.tile: hub for hub in table.hubs}
        self.dominoes: list[Domino] = []
        self.marks: list[Mark] = []
        self.places: list[tuple[Tile, Mark]] = []
        """Where a tile laid next may go: (the anchor, a ``slot`` box), a box per open
        line end (beyond its last tile) and per missing toe of the pending hub (its dashed
        slot). Not drawn unless asked for (``svg(..., targets=...)``)."""
        self._height: dict[Tile, float] = {}

    # -- sizes ------------------------------------------------------------------------------

    def _missing(self, hub: Hub) -> int:
        return hub.toes_needed if hub is self.table.pending else 0

    def line_height(self, line: Line) -> float:
        """The height of the band a line needs, with everything that grows from it."""
        own = (2.0 if line.closed_by is not None else 1.0) + ROW_GAP
        if line.closed_by is None:
            return own
        hub = self.hub_of[line.closed_by]
        return max(own, self.children_height(hub))

    def children_height(self, hub: Hub) -> float:
        """The height of everything that grows from ``hub`` (worked out once per hub: each
        fan around it asks again)."""
        height = self._height.get(hub.tile)
        if height is None:
            height = sum(self.line_height(line) for line in hub.lines)
            height += self._missing(hub) * (1.0 + ROW_GAP)
            self._height[hub.tile] = height
        return height

    # -- placing ----------------------------------------------------------------------------

    def place(self) -> None:
        table = self.table
        centre = table.hubs[0]
        role_outline = self._outline(centre.tile)
        self.dominoes.append(
            Domino(
                centre.tile,
                -0.5,
                -1.0,
                0.5,
                1.0,
                centre.tile.high,
                centre.tile.high,
                "centre",
                role_outline,
            )
        )
        # Share the centre's lines between the sides, each to the side that is shorter.
        right: list[Line] = []
        left: list[Line] = []
        heights = [0.0, 0.0]
        for line in centre.lines:
            side = 0 if heights[0] <= heights[1] else 1
            (right if side == 0 else left).append(line)
            heights[side] += self.line_height(line)
        missing = self._missing(centre)
        slots_right = (missing + 1) // 2 if heights[0] <= heights[1] else missing // 2
        slots = (slots_right, missing - slots_right)
        for side, lines in enumerate((right, left)):
            mark_start = len(self.marks)
            dom_start = len(self.dominoes)
            place_start = len(self.places)
            self._fan(centre, lines, slots[side], 0.5, 0.0)
            if side == 1:
                self.dominoes[dom_start:] = [d.mirrored() for d in self.dominoes[dom_start:]]
                self.marks[mark_start:] = [m.mirrored() for m in self.marks[mark_start:]]
                self.places[place_start:] = [
                    (t, m.mirrored()) for t, m in self.places[place_start:]
                ]

    def _outline(self, tile: Tile) -> str | None:
        last = self.table.last
        pending = self.table.pending
        if pending is not None and tile == pending.tile:
            return PENDING
        if last is not None and last.tile == tile:
            return LAST
        return None

    def _fan(self, hub: Hub, lines: list[Line], slots: int, edge: float, yc: float) -> None:
        """Lay ``lines`` (and ``slots`` dashed places for missing toes) to the right of a
        hub whose right edge is at ``edge``, in bands centred on ``yc``."""
        heights = [self.line_height(line) for line in lines]
        total = sum(heights) + slots * (1.0 + ROW_GAP)
        y = yc - total / 2
        start = edge + FAN
        for line, h in zip(lines, heights, strict=True):
            middle = y + h / 2
            self.marks.append(Mark("stroke", edge, yc, start, middle))
            self._line(line, start, middle)
            y += h
        for _ in range(slots):
            middle = y + (1.0 + ROW_GAP) / 2
            self.marks.append(Mark("stroke", edge, yc, start, middle, colour=PENDING))
            self.marks.append(Mark("slot", start, middle - 0.5, start + 2.0, middle + 0.5))
            self.places.append((hub.tile, self.marks[-1]))
            y += 1.0 + ROW_GAP

    def _line(self, line: Line, x: float, yc: float) -> None:
        for p in line.tiles:
            outline = self._outline(p.tile)
            if p.tile.is_double:  # closes the line: crosswise, and a hub in turn
                self.dominoes.append(
                    Domino(p.tile, x, yc - 1.0, x + 1.0, yc + 1.0, p.inner, p.outer, "hub", outline)
                )
                hub = self.hub_of[p.tile]
                self._fan(hub, list(hub.lines), self._missing(hub), x + 1.0, yc)
                return
            self.dominoes.append(
                Domino(p.tile, x, yc - 0.5, x + 2.0, yc + 0.5, p.inner, p.outer, "line", outline)
            )
            x += 2.0 + GAP
        if line.anchor is not None:  # open: the next tile goes beyond the last one
            self.places.append((line.anchor, Mark("slot", x, yc - 0.5, x + 2.0, yc + 0.5)))
