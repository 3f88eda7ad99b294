"""The finished rounds of a batch engine kept as records (``BatchEngine(records=True)``).

The contract: :class:`RecordLog` is told of every lane dealt (:meth:`RecordLog.dealt`:
its start state and seed), every step (:meth:`RecordLog.moved`: the action of each lane
that moved) and every round that ended (:meth:`RecordLog.ended`); :meth:`RecordLog.take`
hands out the ended rounds as ``(seed, Record)`` pairs in the order they ended (lanes in
increasing order within a step), each replayed with the rules' checks from its start, only
when taken. A lane played outside :meth:`~chickenfoot.batch.BatchEngine.step` (a playout)
is forgotten: its moves are not known here. The log holds only action ids per lane until
a round ends, so keeping records costs one append per lane and step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chickenfoot.moves import Move
from chickenfoot.record import Record
from chickenfoot.state import State

if TYPE_CHECKING:
    from chickenfoot.encoding import Encoding

__all__ = ["RecordLog"]


class RecordLog:
    """What the lanes of an engine played since their deal, and the rounds that ended."""

    def __init__(self, n: int) -> None:
        self.starts: list[tuple[int | None, State] | None] = [None] * n
        self.actions: list[list[int | Move]] = [[] for _ in range(n)]
        self.done: list[tuple[int | None, State, list[int | Move]]] = []

    def dealt(self, lane: int, seed: int | None, start: State) -> None:
        """Lane ``lane`` holds a new round from ``start`` (dealt from ``seed``)."""
        self.starts[lane] = (seed, start)
        self.actions[lane] = []

    def forget(self) -> None:
        """Every lane was played elsewhere (a playout): nothing of them is known."""
        self.starts = [None] * len(self.starts)
        self.actions = [[] for _ in self.starts]

    def moved(self, lanes: Any, actions: Any) -> None:
        """The lanes ``lanes`` made the actions ``actions`` (numpy integer arrays)."""
        log = self.actions
        for lane, action in zip(lanes.tolist(), actions.tolist(), strict=True):
            log[lane].append(action)

    def played(self, lane: int, moves: list[Move]) -> None:
        """Lane ``lane`` made ``moves`` outside :meth:`moved` (the built-in agents)."""
        self.actions[lane].extend(moves)

    def ended(self, lanes: Any) -> None:
        """The rounds of ``lanes`` ended on the last step."""
        for lane in lanes.tolist():
            start = self.starts[lane]
            if start is not None:
                self.done.append((start[0], start[1], self.actions[lane]))
            self.starts[lane] = None
            self.actions[lane] = []

    def record(self, lane: int, encoding: Encoding) -> Record | None:
        """The round in ``lane`` so far, or ``None`` when its start is not known."""
        start = self.starts[lane]
        if start is None:
            return None
        return Record(start[1], _moves(self.actions[lane], encoding))

    def take(self, encoding: Encoding) -> list[tuple[int | None, Record]]:
        """The rounds ended since the last call, as ``(seed, record)``, then forgotten."""
        done, self.done = self.done, []
        return [(seed, Record(s, _moves(acts, encoding))) for seed, s, acts in done]


def _moves(actions: list[int | Move], encoding: Encoding) -> list[Move]:
    return [encoding.move(a) if isinstance(a, int) else a for a in actions]
