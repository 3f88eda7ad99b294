"""The batched engine's playouts: rounds played to their ends, random or by a policy.

:meth:`Plays._playout` runs the numpy rules (or the core's playout below
:data:`CORE_BELOW` rounds); the ``numba`` backend plays random rounds in its own kernel.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot.deal import deal
from chickenfoot.playout import playout
from chickenfoot.state import State

from . import _args as args
from ._convert import state_of
from ._reads import Reads
from ._results import Results, max_playout
from ._store import ONGOING, DealQueue

if TYPE_CHECKING:
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]

CORE_BELOW: Final = 128
"""Engines of fewer rounds play :meth:`BatchEngine.random_playout` round by round with the
core's :func:`~chickenfoot.playout` (faster there than numpy on a few columns), under the
``numpy`` backend."""

Policy = Callable[["NDArray[np.float32]", "NDArray[np.bool_]"], Any]
"""Chooses actions: ``policy(observations, legal_mask) -> actions``, one row per round."""


class Plays(Reads):
    """Rounds played to their ends (see the module doc)."""

    @property
    def max_playout(self) -> int:
        """The largest ``k`` of :meth:`random_playout` and :meth:`playout` now: the most
        rounds whose :class:`Results` fit in 1 GiB (``RESULTS_MEMORY``), from the next
        seed on (about 12 million for four seats).

        >>> import chickenfoot as cf
        >>> from chickenfoot.batch import BatchEngine
        >>> f"{BatchEngine(cf.Rules(), 1).max_playout:,}"
        '12,201,611'
        """
        return max_playout(self._tb.P, self._next_seed)

    def _playout(self, policy: Policy | None, rounds: object) -> Results:
        k = args.rounds_arg(rounds, self.max_playout)
        if policy is None and self._ck is not None:
            return self._ck.random_playout(self, k, self._rs, self._key)
        if policy is None and self.n < CORE_BELOW:
            return self._core_playout(k)
        p = self._tb.P
        if k is None:  # the rounds in play, to their ends
            total = self.n
            seeds = [-1 if x is None else x for x in self.seeds]
            lanes = np.arange(self.n)
            handed = total
        else:  # k new rounds, dealt into the first min(k, n) lanes as they free up
            total = k
            seeds = self._take_seeds(k)
            handed = min(k, self.n)
            lanes = np.arange(handed)
            queue = None if self._ck is not None else DealQueue(self, seeds)
            self._deal(lanes, seeds[:handed], None if queue is None else queue.take(handed))
        slot_of = np.arange(self.n)  # lane -> index of its round in the results
        out = np.full(total, -1, dtype=np.int64)
        pens = np.zeros((total, p), dtype=np.int64)
        plies = np.zeros(total, dtype=np.int64)
        over = self.result[lanes] != ONGOING
        live, done_now = lanes[~over], lanes[over]
        while True:
            while len(done_now):
                idx = slot_of[done_now]
                res = self.result[done_now]
                out[idx] = np.where(res == p, -1, res)
                pens[idx] = self._penalties(done_now)
                plies[idx] = self.plies[done_now]
                m = min(len(done_now), total - handed)
                if not m:
                    break
                again = done_now[:m]
                self._deal(
                    again, seeds[handed : handed + m], None if queue is None else queue.take(m)
                )
                slot_of[again] = np.arange(handed, handed + m)
                handed += m
                over = self.result[again] != ONGOING
                live = np.concatenate([live, again[~over]])
                done_now = again[over]
            if not len(live):
                break
            if len(live) == self.n and live is not self._all:
                live = self._all  # (its order is the lanes' order from here)
            if policy is None:
                done_now = self._random_step(live)  # (numpy: the compiled path returned)
            else:
                done_now = self._apply(live, *self._policy_moves(live, policy))
            if len(done_now):
                live = live[self.result[live] == ONGOING]
        return Results._of(seeds, out, pens, plies)

    def _random_steps(self, g: I64) -> None:
        """One step of the random playout in each round ``g`` (none over), on either
        backend (for the tests: the playouts run their own loops)."""
        if self._ck is not None:
            self._ck.random_steps(self, g, self._rs)
        else:
            self._random_step(g)

    def _core_playout(self, k: int | None) -> Results:
        """:meth:`random_playout` with the core's :func:`~chickenfoot.playout`, round by
        round (faster below :data:`CORE_BELOW` rounds at once): round ``j`` of ``k`` is
        played in lane ``j % n``; the random choices come from a ``random.Random`` seeded
        by the engine's generator."""
        rng = random.Random(int(self.rng.integers(1 << 62)))
        rules, p = self.rules, self._tb.P
        jobs: Iterator[tuple[int, State]]  # each round is dealt when its turn comes
        if k is None:
            seeds = [-1 if x is None else x for x in self.seeds]
            jobs = ((i, state_of(self, i)) for i in range(self.n))
        else:
            seeds = self._take_seeds(k)
            jobs = ((j % self.n, deal(rules, x, self.round)) for j, x in enumerate(seeds))
        total = len(seeds)
        out = np.full(total, -1, dtype=np.int64)
        pens = np.zeros((total, p), dtype=np.int64)
        plies = np.zeros(total, dtype=np.int64)
        for j, (lane, start) in enumerate(jobs):
            end = playout(start, rng)
            made, log = 0, end._log
            while log is not start._log:
                made += 1
                log = log[0]
            o = end._outcome
            assert o is not None
            out[j] = -1 if o.seat is None else o.seat
            pens[j] = end.penalties()
            plies[j] = made + (int(self.plies[lane]) if k is None else 0)
            if k is None or j >= total - self.n:
                self._load(lane, end)
                self.plies[lane] = plies[j]
                if k is not None:
                    self.seeds[lane] = seeds[j]
        return Results._of(seeds, out, pens, plies)

    def _policy_moves(self, g: I64, policy: Policy) -> tuple[I64, I64, I64]:
        answer = policy(self._observe(g, None), self._legal_mask(g))
        arr, items = args.action_array(answer, len(g), args.POLICY)

        def shown(r: int) -> str:
            return args.POLICY.shown(r, int(g[r]), int(arr[r]) if items is None else items[r])

        return self._check_actions(arr.astype(np.int64, copy=False), g, shown)
