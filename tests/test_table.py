"""The table as a structure (``state.table``, :mod:`chickenfoot.table`).

Expected structures are worked out by hand from the board order: a hub is the centre or a
double laid on a line; its lines are the tiles laid on its toes, outwards; a tile's inner
number is the one that matches the tile (or hub) it was laid against. The property test
checks the structure against ``board`` on reachable positions of every kind of rules.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import chickenfoot as cf
from chickenfoot.errors import ArgumentError
from chickenfoot.table import Hub, Line, Placed, Table
from helpers import feet
from strategies import positions

T = cf.Tile


def test_feet_and_closed_lines() -> None:
    t = feet().table
    assert t.centre == T(4, 4) and t.pending_hub is t.hubs[2] and t.toes_needed == 1
    # issue 19: one meaning of toes_needed (still needed), the total is toes_required
    assert [(h.toes_required, h.toes_needed) for h in t.hubs] == [(2, 0), (2, 0), (2, 1)]
    assert [h.tile for h in t.hubs] == [T(4, 4), T(1, 1), T(0, 0)]
    assert [h.on_line for h in t.hubs] == [None, T(4, 1), T(4, 2)]
    assert [h.is_centre for h in t.hubs] == [True, False, False]
    assert [h.toes for h in t.hubs] == [(T(4, 1), T(4, 2)), (T(1, 0), T(3, 1)), (T(3, 0),)]
    assert [h.is_complete for h in t.hubs] == [True, True, False]
    centre, one, zero = t.hubs
    # 4-2 on 4-4 (inner 4), 2-0 on 4-2 (inner 2), 0-0 on 2-0 closes the line
    assert centre.lines[1] == Line(
        T(4, 4),
        (
            Placed(T(4, 2), 4, 2, T(4, 4), 2),
            Placed(T(2, 0), 2, 0, T(4, 2), 6),
            Placed(T(0, 0), 0, 0, T(2, 0), 7),
        ),
        None,
        None,
        T(0, 0),
    )
    assert centre.lines[1].is_closed and centre.lines[1].toe == T(4, 2)
    # 3-1 on the foot 1-1 lies 1|3; its line is open on 3
    assert one.lines[1] == Line(T(1, 1), (Placed(T(3, 1), 1, 3, T(1, 1), 5),), 3, T(3, 1), None)
    assert zero == Hub(
        T(0, 0),
        2,
        (Line(T(0, 0), (Placed(T(3, 0), 0, 3, T(0, 0), 8),), 3, T(3, 0), None),),
        T(4, 2),
    )
    assert t.open_ends == ((T(1, 0), 0), (T(3, 1), 3), (T(3, 0), 3))
    assert t.last == Placed(T(3, 0), 0, 3, T(0, 0), 8)
    assert str(centre.lines[0]) == "4|1 1|1 -> closed by 1-1"
    assert str(zero.lines[0]) == "0|3 -> 3 on 3-0"


def test_lookups() -> None:
    t = feet().table
    assert len(t) == 9 and "1-1" in t and T(2, 1) not in t and "9-9" not in t and 5 not in t
    assert t.find("0-2") == Placed(T(2, 0), 2, 0, T(4, 2), 6)
    assert t.find(T(2, 1)) is None
    assert t.find("4-4") == Placed(T(4, 4), 4, 4, None, 0)
    assert t.line_of("4-4") is None  # the centre is on no line
    line = t.line_of("0-0")  # a double that closed a line lies on that line
    assert line is not None and line.toe == T(4, 2)
    assert t.line_of("3-1") == t.hubs[1].lines[1]
    assert t.hub("1-1") is t.hubs[1] and t.hub("4-1") is None
    assert [p.tile for p in t.placed] == [m.tile for m in feet().board]
    with pytest.raises(cf.InvalidMoveError):
        t.find("4-x")
    with pytest.raises(ArgumentError, match="expected a Tile or tile notation"):
        t.find(3)  # type: ignore[arg-type]


def test_fresh_deal_and_holder_mode() -> None:
    fresh = cf.deal(cf.Rules(), seed=5).table
    assert fresh.centre == T(9, 9) and len(fresh.hubs) == 1 and fresh.hubs[0].lines == ()
    assert fresh.pending_hub is fresh.hubs[0] and fresh.pending_hub.tile == T(9, 9)
    assert fresh.toes_needed == fresh.pending_hub.toes_needed == 6
    assert fresh.last is None  # the set-aside centre was not placed by a player
    assert fresh.open_ends == () and len(fresh) == 1
    holder = cf.deal(cf.Rules.preset("classic"), seed=3)
    assert not holder.centre_laid
    empty = holder.table
    assert empty == Table(None, (), None, 0, None, {}) and len(empty) == 0 and empty.lines == ()
    # in holder mode the centre is laid by a player: it is the last placement
    while not holder.centre_laid:
        holder = holder.apply(holder.legal_moves[0])
    assert holder.table.last == Placed(T(9, 9), 9, 9, None, 0)


def test_views_see_the_whole_table() -> None:
    s = feet()
    assert s.view(0).table == s.table == s.view(1).table


def _check(s: cf.State) -> None:
    t = s.table
    rules = s.rules
    if not s.centre_laid:
        assert t == Table(None, (), None, 0, None, {})
        return
    assert t.centre is s.centre and t.hubs[0].tile is s.centre
    assert (None if t.pending_hub is None else t.pending_hub.tile) is s.pending_hub
    assert t.toes_needed == (0 if s.pending_hub is None else s.toes_needed)
    if t.pending_hub is not None:
        assert t.pending_hub.toes_needed == t.toes_needed == s.toes_needed
    seen: list[cf.Tile] = [s.centre]
    index = {m.tile: i for i, m in enumerate(s.board)}
    closers = []
    for hub in t.hubs:
        assert hub.toes_required == (rules.opening_toes if hub.is_centre else rules.foot_toes)
        assert len(hub.lines) <= hub.toes_required
        assert hub.toes_needed == hub.toes_required - len(hub.lines)
        assert hub.toes_needed == (t.toes_needed if hub is t.pending_hub else 0)
        for line in hub.lines:
            assert line.hub is hub.tile
            # the toe carries the hub's number; neighbours touch on equal numbers
            assert line.tiles[0].inner == hub.tile.high and line.tiles[0].anchor is hub.tile
            for a, b in zip(line.tiles, line.tiles[1:], strict=False):
                assert a.outer == b.inner and b.anchor is a.tile
            for p in line.tiles:
                assert sorted((p.inner, p.outer)) == sorted((p.tile.low, p.tile.high))
                assert p.index == index[p.tile] and s.board[p.index].anchor is p.anchor
                assert t.line_of(p.tile) is line and t.find(p.tile) is p
                seen.append(p.tile)
            # only the last tile may be a double, and then it closes the line
            assert not any(p.tile.is_double for p in line.tiles[:-1])
            if line.is_closed:
                assert line.closed_by is line.tiles[-1].tile and line.closed_by.is_double
                assert line.open_end is None and line.anchor is None
                closers.append(line.closed_by)
            else:
                assert line.anchor is line.tiles[-1].tile
                assert line.open_end == line.tiles[-1].outer
    # every placed tile exactly once
    assert sorted(seen) == sorted(m.tile for m in s.board) and len(seen) == len(s.board)
    assert len(t) == len(s.board)
    assert sorted(t.open_ends) == sorted(s.open_ends)
    # every hub but the centre closed exactly one line, and names that line by its toe
    assert sorted(closers) == sorted(h.tile for h in t.hubs[1:])
    for hub in t.hubs[1:]:
        closed = t.line_of(hub.tile)
        assert closed is not None and closed.closed_by is hub.tile and hub.on_line is closed.toe
    incomplete = [h.tile for h in t.hubs if not h.is_complete]
    assert incomplete == ([] if s.pending_hub is None else [s.pending_hub])
    last = s.board[-1]
    if len(s.board) == 1 and rules.centre == "set_aside":
        assert t.last is None
    else:
        assert t.last is not None and t.last.tile is last.tile and t.last.index == len(s.board) - 1


@settings(max_examples=150, deadline=None)
@given(positions())
def test_property_the_table_is_the_board_reshaped(s: cf.State) -> None:
    _check(s)
