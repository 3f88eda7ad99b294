"""Rounds replayed from their action ids, judged move by move (:meth:`Replays.replay`).

On numba the replay runs in :mod:`chickenfoot._jit.replay`; on numpy through the core,
round by round. Both stop a round at its first action that is not a legal move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.state import apply
from chickenfoot.tiles import set_size

from ._convert import state_of
from ._play import Plays

if TYPE_CHECKING:
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

_KERNEL: list[Any] = []


def _rows(arr: object, name: str, shape: tuple[int, ...], dtype: type) -> Any:
    """An out-array argument: None, or a C-contiguous array of ``shape`` and ``dtype``."""
    if arr is None:
        return None
    if (
        not isinstance(arr, np.ndarray)
        or arr.shape != shape
        or arr.dtype != dtype
        or not arr.flags.c_contiguous
        or not arr.flags.writeable
    ):
        must = f"must be a writeable C-contiguous {np.dtype(dtype).name} array of shape {shape}"
        raise checks.invalid(name, arr, must)
    return arr


class Replays(Plays):
    """Rounds replayed from action ids (see the module doc)."""

    def replay(
        self,
        actions: Any,
        counts: Any,
        *,
        seats: I64 | None = None,
        mask: Bools | None = None,
        observations: NDArray[np.float32] | None = None,
        hands: Bools | None = None,
    ) -> I64:
        """Make in each round ``i``, from where it stands, its next ``counts[i]`` moves of
        ``actions`` (action ids; round 0's first, then round 1's, ...), each judged against
        the rules first: a round stops at its first action that is not a legal move there
        (or that comes after its end). Returns ``(n,)`` int64, the moves made in each round
        (``counts[i]`` when all were legal).

        ``seats``, ``mask``, ``observations``, ``hands``: arrays of one row per action
        (``(len(actions),)`` int64, ``(len(actions), num_actions)`` bool, ``(len(actions), observation_size)`` float32, ``(len(actions),
        players, tiles)`` bool) to fill, before each action is made, with the seat to act,
        the legal actions, the observation of the seat to act and the true hands; the rows of
        actions after a refused one are left as they were.

        >>> import chickenfoot as cf
        >>> from chickenfoot.batch import BatchEngine
        >>> e = BatchEngine(cf.Rules(players=2), 2, seed=1)
        >>> s = cf.deal(cf.Rules(players=2), 1)
        >>> first = e.encoding.action(s.legal_moves[0])
        >>> e.replay([first, first, 9999], [2, 1]).tolist()
        [1, 0]
        >>> e.to_state(0) == s.apply(s.legal_moves[0])
        True
        """
        acts = np.ascontiguousarray(np.asarray(actions), dtype=np.int64).reshape(-1)
        cnt = np.asarray(counts)
        if cnt.shape != (self.n,) or cnt.dtype.kind not in "iu" or (cnt < 0).any():
            raise checks.invalid("counts", counts, f"must be {self.n} counts of moves, 0 or more")
        starts = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(cnt, out=starts[1:])
        if int(starts[-1]) != len(acts):
            raise checks.invalid("actions", len(acts), f"must be {int(starts[-1])} action ids")
        tb, k = self._tb, len(acts)
        outs = (
            _rows(seats, "seats", (k,), np.int64),
            _rows(mask, "mask", (k, tb.A), np.bool_),
            _rows(observations, "observations", (k, tb.enc.observation_size), np.float32),
            _rows(hands, "hands", (k, tb.P, set_size(self.rules.max_pip)), np.bool_),
        )
        made = np.zeros(self.n, dtype=np.int64)
        if self._ck is not None:
            self._compiled_replay(acts, starts, made, outs)
        else:
            self._core_replay(acts, starts, made, outs)
        return made

    def _compiled_replay(self, acts: I64, starts: I64, made: I64, outs: tuple[Any, ...]) -> None:
        if not _KERNEL:
            import importlib

            _KERNEL.append(importlib.import_module("chickenfoot._jit.replay"))
        from ._compiled import arrays

        ck, lanes = self._ck, np.arange(self.n, dtype=np.int64)
        assert ck is not None
        if all(o is None for o in outs):
            _KERNEL[0].replay(arrays(self), ck.cf, ck.tb, ck.sc, lanes, starts, acts, made)
            return
        k, tb = len(acts), self._tb
        tiles = set_size(self.rules.max_pip)
        seats = np.empty(k, np.int64) if outs[0] is None else outs[0]
        mask = np.empty((k, tb.A), np.bool_) if outs[1] is None else outs[1]
        obs = np.empty((k, tb.enc.observation_size), np.float32) if outs[2] is None else outs[2]
        hands = np.empty((k, tb.P, tiles), np.bool_) if outs[3] is None else outs[3]
        _KERNEL[0].replay_rows(arrays(self), ck.cf, ck.tb, ck.sc, lanes, starts, acts, ck.off,
                               made, seats, mask, obs, hands)  # fmt: skip

    def _core_replay(self, acts: I64, starts: I64, made: I64, outs: tuple[Any, ...]) -> None:
        enc = self._tb.enc
        seats, mask, obs, hands = outs
        for i in range(self.n):
            j0, j1 = int(starts[i]), int(starts[i + 1])
            if j0 == j1:
                continue
            s = state_of(self, i)
            m = 0
            for j in range(j0, j1):
                legal = [] if s.is_over() else enc.legal_actions(s)
                if seats is not None:
                    seats[j] = s.turn
                if mask is not None:
                    mask[j] = False
                    mask[j, legal] = True
                if obs is not None:
                    enc.observe(s.view(s.turn), out=obs[j])
                if hands is not None:
                    hands[j] = False
                    for seat, hand in enumerate(s.hands):
                        hands[j, seat, [t.id for t in hand]] = True
                if int(acts[j]) not in legal:
                    break
                s = apply(s, enc.move(int(acts[j])))
                m += 1
            plies = int(self.plies[i]) + m
            self._load(i, s)
            self.plies[i] = plies
            made[i] = m
