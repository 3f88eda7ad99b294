"""Where the person's moves go, in ``chickenfoot play``: the legal moves grouped by the
place on the table they go, each place written as the table picture draws it.

The picture (:func:`~chickenfoot.render.render_compact`) draws each hub as a row (``centre
9-9``, ``foot 0-0``) and each line as a row of its tiles turned the way they lie, ending in
``→ N``, the open number. A play goes to one place: a toe on the hub that needs toes (the
hub's row: ``centre 9-9 (toe)``), the open end of a line (written as that row ends: the last
tile as it lies and the open number, ``6|7 → 7``), or, in ``holder`` mode, the centre itself
on the empty table. Each play is written as its tile would lie there, the touching number
first (``7|4`` at ``6|7 → 7``), so the number after the bar is the line's new open end.

The places come in the picture's order, top to bottom (hub by hub, each hub before its
lines); a place's plays go by tile; draw and pass come last, on a row of their own. The
numbers typed at the prompt count the moves in this order (:func:`in_order`).

>>> from chickenfoot import Rules, State
>>> rules = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
>>> s = State.setup(rules, board=["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
...                 hands=[["2-0", "1-1"], ["2-2"]], boneyard=["3-0", "0-0"])
>>> for place in places(s.table, s.legal_moves):
...     print(f"{place.label}:", ", ".join(f"{m} as {laid(m, s.table)}" for m in place.moves))
2|1 → 1: 1-1@2-1 as 1|1
1|0 → 0: 2-0@1-0 as 0|2
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from chickenfoot._i18n import gettext as _
from chickenfoot.moves import Draw, Move, Pass, Play
from chickenfoot.table import Table
from chickenfoot.tiles import Tile

__all__ = ["Place", "in_order", "laid", "places"]

OTHERS = "or"
"""The label of the row of draw and pass, which go nowhere on the table."""


@attrs.frozen
class Place:
    """A place on the table and the legal moves that go there (by tile), or the row of
    draw and pass (``label`` :data:`OTHERS`)."""

    label: str
    moves: tuple[Move, ...]


def laid(move: Move, table: Table) -> str:
    """``move`` as the table would draw its tile once laid: the touching number first
    (``2|6`` on an end that shows 2); ``draw`` and ``pass`` as they are.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1)
    >>> [laid(m, s.table) for m in s.legal_moves]
    ['9|0', '9|3', '9|8']
    """
    if not isinstance(move, Play):
        return str(move)
    tile = move.tile
    if move.anchor is None:  # the centre, on the empty table
        return f"{tile.high}|{tile.high}"
    anchor = table.find(move.anchor)
    touching = anchor.outer if anchor is not None else move.joins
    if touching is None or not tile.has(touching):  # pragma: no cover - legal moves touch
        return str(move)
    return f"{touching}|{tile.other(touching)}"


def places(table: Table, legal: Sequence[Move]) -> tuple[Place, ...]:
    """The places of ``legal`` (moves of the position whose table is ``table``), in the
    picture's order, each with its moves by tile; draw and pass last.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1)
    >>> [(p.label, [str(m) for m in p.moves]) for p in places(s.table, s.legal_moves)]
    [('centre 9-9 (toe)', ['9-0@9-9', '9-3@9-9', '9-8@9-9'])]
    """
    at: dict[Tile | None, list[Move]] = {}
    others: list[Move] = []
    for move in legal:
        if isinstance(move, (Draw, Pass)):
            others.append(move)
        elif isinstance(move, Play):
            at.setdefault(move.anchor, []).append(move)
    found: list[Place] = []

    def take(anchor: Tile | None, label: str) -> None:
        moves = at.pop(anchor, None)
        if moves:
            moves.sort(key=lambda m: m.tile.id if isinstance(m, Play) else -1)
            found.append(Place(label, tuple(moves)))

    take(None, _("the centre"))
    for hub in table.hubs:
        if hub.is_centre:
            take(hub.tile, _("centre {hub} (toe)", hub=hub.tile))
        else:
            take(hub.tile, _("foot {hub} (toe)", hub=hub.tile))
        for line in hub.lines:
            if line.anchor is not None:
                take(line.anchor, f"{line.tiles[-1]} → {line.open_end}")
    for anchor in list(at):  # pragma: no cover - every legal anchor is on the table
        take(anchor, _("on {tile}", tile=anchor))
    if others:
        found.append(Place(OTHERS, tuple(others)))
    return tuple(found)


def in_order(table: Table, legal: Sequence[Move]) -> tuple[Move, ...]:
    """The moves of ``legal`` in the order :func:`places` shows them: move ``n`` at the
    prompt is ``in_order(...)[n - 1]``."""
    return tuple(m for place in places(table, legal) for m in place.moves)
