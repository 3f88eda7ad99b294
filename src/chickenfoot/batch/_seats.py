"""Built-in agents at the batched engine's seats, and calls on some of its rounds.

:meth:`Seats.play_agents` makes the moves of the seats given to built-in agents
(``"random"``, ``"greedy"``, ``"heuristic"``), round by round, until a seat played from
outside (``None``: a learner, a policy) is to act or the round ends: in the compiled
kernel on numba (:mod:`chickenfoot._jit.seats`), through the core on numpy. It is what
the Gymnasium environments (:mod:`chickenfoot.gym`) call after every learner's move.

``lanes`` (of :meth:`play_agents`, and of ``step``, ``reset``, ``observe`` and
``legal_mask``) names the rounds a call is about: :func:`lanes_arg` checks it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot._rollouts import heuristic_policy
from chickenfoot.agents import GreedyAgent
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.state import apply

from ._convert import state_of
from ._replays import Replays
from ._store import ONGOING

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from chickenfoot.state import State

    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

BUILT_IN: Final = ("random", "greedy", "heuristic")
"""The agents :meth:`Seats.play_agents` plays (their kinds in the kernel: 0, 1, 2)."""

_KERNEL: list[Any] = []


def lanes_arg(lanes: object, n: int) -> I64:
    """``lanes``: None (every round) or distinct rounds from 0 to ``n - 1``, as a 1-D
    integer numpy array or a sequence of ints."""
    if lanes is None:
        return np.arange(n)
    must = f"must be None or distinct rounds from 0 to {n - 1:,} (a 1-D integer array)"
    if isinstance(lanes, np.ndarray):
        arr = lanes
    else:
        given = checks.sequence(lanes, "lanes", "ints", low=0, high=n)
        for j, x in enumerate(given):
            checks.integer(x, f"lanes[{j}]", low=0, high=n - 1, index=True, must=must)
        arr = np.array(given, dtype=np.int64).reshape(-1)
    if arr.ndim != 1 or (arr.dtype.kind not in "iu" and len(arr)):
        raise checks.invalid("lanes", lanes, must)
    out: I64 = arr.astype(np.int64, copy=False)
    if len(out) and (int(out.min()) < 0 or int(out.max()) >= n):
        raise checks.invalid("lanes", lanes, must)
    if len(out) > 1 and int(np.bincount(out).max()) > 1:
        raise checks.invalid("lanes", lanes, must)
    return out


def agents_arg(agents: object, players: int) -> NDArray[np.int64]:
    """``agents``: one item per seat, a built-in name or None; their kinds (-1: None)."""
    must = f"must be one per seat: {', '.join(map(repr, BUILT_IN))} or None"
    given = checks.sequence(agents, "agents", "names", low=players, high=players)
    kinds = np.full(players, -1, dtype=np.int64)
    for s, a in enumerate(given):
        if a is None:
            continue
        if not isinstance(a, str) or a not in BUILT_IN:
            raise ArgumentError(f"agents[{s}]={brief(a)} is invalid: {must}")
        kinds[s] = BUILT_IN.index(a)
    return kinds


class Seats(Replays):
    """Built-in agents at the seats (see the module doc)."""

    def play_agents(
        self, agents: Sequence[str | None], *, lanes: object = None, actions: I64 | None = None
    ) -> tuple[NDArray[np.float32], Bools, I64]:
        """Make the moves of the built-in agents: in each round (of ``lanes``, default
        all), while it is in play and the seat to act has an agent in ``agents`` (one item
        per seat: ``"random"``, ``"greedy"``, ``"heuristic"``, or None for a seat played
        from outside), that agent moves.

        Returns ``(rewards, done, moves)``, all of length ``n``: ``rewards`` and ``done``
        as :meth:`step` gives them (minus each seat's penalty in the rounds that ended
        here), ``moves`` the moves made in each round. ``"greedy"`` is
        :class:`~chickenfoot.GreedyAgent`; ``"heuristic"`` is HeuristicAgent at its default
        weights without its ``hurt`` term (the search rollouts' heuristic, which reads no
        history); ``"random"`` draws from the engine's generator. On numba they play
        inside the compiled kernel; on numpy through the core, round by round (slow).
        With ``auto_reset``, the rounds that ended are not dealt again here.

        ``actions``: an int64 array ``(len(lanes), width)`` (C-contiguous) to keep the
        moves in: the action ids of the ``r``-th round of ``lanes`` go to ``actions[r,
        :moves[lanes[r]]]``, and a round stops when its row is full (not ended).

        >>> import chickenfoot as cf
        >>> from chickenfoot.batch import BatchEngine
        >>> e = BatchEngine(cf.Rules(), 3, seed=5)
        >>> rewards, done, moves = e.play_agents(["greedy"] * 4)
        >>> done.tolist(), bool((moves > 20).all())
        ([True, True, True], True)
        >>> e.play_agents([None, "greedy", "random", "heuristic"])[2].tolist()
        [0, 0, 0]
        """
        kinds = agents_arg(agents, self._tb.P)
        g = lanes_arg(lanes, self.n)
        kept = _actions_arg(actions, len(g))
        p = self._tb.P
        rewards = np.zeros((self.n, p), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        moves = np.zeros(self.n, dtype=np.int64)
        if self._ck is not None:
            ended = np.zeros(len(g), dtype=np.bool_)
            made = np.zeros(len(g), dtype=np.int64)
            k = _kernel()
            from ._compiled import arrays

            ck = self._ck
            rows = _NO_ACTIONS if kept is None else kept
            k.play_agents(arrays(self), ck.cf, ck.tb, self._rs, g, kinds, ended, made, rows)
            moves[g] = made
            over = g[ended]
        else:
            over = self._core_agents(g, kinds, moves, kept)
        if len(over):
            rewards[over] = -self._penalties(over)
            done[over] = True
        return rewards, done, moves

    def load(self, i: int, state: State) -> None:
        """Put the core ``state`` (under the engine's rules) in round ``i``, as
        :meth:`from_states` does (its seed stays; a match's next round, say).

        >>> import chickenfoot as cf
        >>> from chickenfoot.batch import BatchEngine
        >>> e = BatchEngine(cf.Rules(), 2, seed=1)
        >>> e.load(1, cf.deal(cf.Rules(), 99, 3))
        >>> e.to_state(1) == cf.deal(cf.Rules(), 99, 3)
        True
        """
        from chickenfoot.state import State as _State

        from . import _args as args

        i = args.index_arg(i, self.n)
        checks.instance(state, _State, "load")
        if state.rules != self.rules:
            raise ArgumentError("load: the state has other rules than the engine")
        if len(state._bone) > self.bone.shape[0]:
            raise ArgumentError("load: the state's boneyard is longer than the engine holds")
        self._load(i, state)
        self.plies[i] = 0

    def _core_agents(self, g: I64, kinds: I64, moves: I64, kept: I64 | None = None) -> I64:
        """:meth:`play_agents` through the core, round by round; returns the rounds that
        ended."""
        rng = random.Random(int(self.rng.integers(1 << 62)))
        greedy = GreedyAgent()
        over = []
        enc = self._tb.enc
        width = -1 if kept is None else kept.shape[1]
        for r, i in enumerate(g.tolist()):
            if self.result[i] != ONGOING or kinds[int(self.turn[i])] < 0:
                continue
            s: State = state_of(self, i)
            made = 0
            while not s.is_over() and kinds[s.turn] >= 0 and made != width:
                legal = s.legal_moves
                k = kinds[s.turn]
                if k == 0:
                    m = rng.choice(legal)
                elif k == 1:
                    m = greedy.choose(s.view(s.turn), legal, None)
                else:
                    m = heuristic_policy(s, legal)
                if kept is not None:
                    kept[r, made] = enc.action(m)
                s = apply(s, m)
                made += 1
            plies = int(self.plies[i]) + made
            self._load(i, s)
            self.plies[i] = plies
            moves[i] = made
            if s.is_over():
                over.append(i)
        return np.array(over, dtype=np.int64)


_NO_ACTIONS: Final = np.zeros((1, 0), dtype=np.int64)


def _actions_arg(actions: object, k: int) -> I64 | None:
    """``actions`` of :meth:`Seats.play_agents`: None or an int64 array ``(k, width)``."""
    if actions is None:
        return None
    if (
        not isinstance(actions, np.ndarray)
        or actions.ndim != 2
        or actions.shape[0] != k
        or actions.shape[1] < 1
        or actions.dtype != np.int64
        or not actions.flags.c_contiguous
        or not actions.flags.writeable
    ):
        must = f"must be None or a writeable C-contiguous int64 array of {k} rows"
        raise checks.invalid("actions", actions, must)
    return actions


def _kernel() -> Any:
    if not _KERNEL:
        import importlib

        _KERNEL.append(importlib.import_module("chickenfoot._jit.seats"))
    return _KERNEL[0]
