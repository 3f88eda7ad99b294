"""Round ``i`` of the batched engine as a core :class:`~chickenfoot.State`.

The one module of the batch package that builds states from their parts: the core's
private constructor and outcomes are imported here, in one block, and nowhere else.
"""

from __future__ import annotations

from typing import Any

from chickenfoot._kernel import BLOCKED, OUT, make, union
from chickenfoot.moves import DRAWS, play_by_ids
from chickenfoot.outcome import Outcome
from chickenfoot.state import State
from chickenfoot.tiles import PIPS, WITH

from ._store import ONGOING, Store
from ._tables import int_of


def state_of(self: Store, i: int) -> State:
    """Round ``i`` (a checked index) of the engine ``self`` as a core state."""
    tb = self._tb
    nb = int(self.nboard[i])
    board = tuple(play_by_ids(x >> 16, (x & 0xFFFF) - 1) for x in self.board[:nb, i].tolist())
    hands = tuple(int_of(self.hands[s, :, i]) for s in range(tb.P))
    bone = tuple(int(x) for x in self.bone[int(self.bpos[i]) : int(self.bend[i]), i])
    ends = tuple(int_of(self.ends[v, :, i]) for v in range(tb.V))
    res = int(self.result[i])
    outcome: Outcome | None
    if res == ONGOING or res > tb.P:
        outcome = None
    elif res == tb.P:
        outcome = BLOCKED
    else:
        outcome = OUT[res]
    drawn = int(self.drawn[i])
    return make(
        self.rules,
        int(self.centre[i]),
        board,
        hands,
        bone,
        int(self.turn[i]),
        drawn,
        ends,
        int(self.pending[i]),
        int(self.need[i]) if int(self.pending[i]) >= 0 else 0,
        _core_mask(nb, int(self.centre[i]), int(self.pending[i]), int(self.nums[i])),
        int(self.nums[i]),
        outcome,
        None if drawn < 0 else (None, int(self.turn[i]), _draw_event(drawn)),
    )


def _core_mask(board: int, centre: int, pending: int, nums: int) -> int:
    """The core's ``_mask`` (its WITH rows run past the set's tiles)."""
    if not board:
        return 1 << centre
    if pending >= 0:
        return WITH[PIPS[pending][0]]
    return union(nums)


def _draw_event(t: int) -> Any:
    return DRAWS[t]
