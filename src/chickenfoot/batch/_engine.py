"""The batched engine: N rounds as numpy arrays, advanced in lockstep (see the package doc)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.state import State

from . import _args as args
from . import _compiled, _warm
from ._args import MAX_GAMES
from ._convert import state_of
from ._memory import ENGINE_MEMORY, check_memory
from ._play import CORE_BELOW, Policy
from ._records import RecordLog
from ._results import Results
from ._seats import Seats, lanes_arg
from ._shuffle import fast_key
from ._store import ONGOING
from ._tables import tables

if TYPE_CHECKING:
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

__all__ = [
    "CORE_BELOW",
    "ENGINE_MEMORY",
    "MAX_GAMES",
    "BatchEngine",
    "Policy",
    "Results",
    "compile_kernels",
]


class BatchEngine(Seats):
    """``n`` rounds of Chicken Foot under one ``rules``, held as numpy arrays.

    Every round is a seeded deal, ``deal(rules, seed, round)``: the engine's rounds take the
    seeds ``seed, seed + 1, ...`` in order (the first ``n`` at construction, then every
    :meth:`reset` and re-deal the next ones), all with the same ``round`` of a match.
    ``auto_reset=True`` re-deals each round as soon as :meth:`step` finishes it.
    ``rng_seed`` seeds the random choices of :meth:`random_playout`.

    ``backend``: ``"numpy"``, ``"numba"`` (compiled kernels, the ``fast`` extra) or
    ``"auto"`` (numba when it can be imported); both play the same rules, deal the same
    rounds, and differ only in their random choices. ``deals="fast"`` shuffles each round
    from ``rng_seed`` instead (uniformly random and reproducible, not ``deal``'s).

    ``max_bytes`` bounds the engine's memory (:data:`ENGINE_MEMORY`, 1 GiB, by default): an
    ``n`` whose arrays, seeds and largest answer (:func:`engine_memory`) need more is
    refused before anything is allocated or compiled, naming the largest ``n`` that fits.

    ``records=True`` keeps every round :meth:`step` finishes as a record, handed out by
    :meth:`take_records` (and :meth:`record` gives a round in play); off by default, so
    the steps pay nothing for it.

    >>> import chickenfoot as cf
    >>> e = BatchEngine(cf.Rules(), 4, seed=7, backend="numpy", deals="fast", rng_seed=1)
    >>> e.backend, e.deals, e.to_state(0) == cf.deal(cf.Rules(), 7)
    ('numpy', 'fast', False)
    """

    _log: RecordLog | None = None
    _agents = False  # the built-in agents play (play_agents with records=True)

    def __init__(
        self,
        rules: Rules,
        n: int,
        *,
        seed: int = 0,
        round: int = 0,
        auto_reset: bool = False,
        rng_seed: int | None = None,
        backend: str = "auto",
        deals: str = "exact",
        max_bytes: int = ENGINE_MEMORY,
        records: bool = False,
    ) -> None:
        rules = args.rules_arg(rules)
        size = args.size_arg(n)
        self._start(rules, size, 0, seed, round, auto_reset, rng_seed, backend, deals, max_bytes)
        self._log = _log_arg(records, size)
        self.reset()

    def _start(
        self,
        rules: Rules,
        n: int,
        bone_width: int,
        seed: object,
        round: object,
        auto_reset: object,
        rng_seed: object,
        backend: object,
        deals: object,
        max_bytes: object,
    ) -> None:
        """What both constructors do: check the options and the memory the rounds need,
        then allocate (``bone_width``: the longest boneyard to hold, beyond the deals') and
        load the kernels."""
        first, rnd, auto, rng_seed = args.options(seed, round, auto_reset, rng_seed)
        numba = _compiled.available()  # whether numba can be imported, asked at each engine
        self.backend, self._fast = args.backend_arg(backend, deals, numba=numba)
        check_memory(rules, n, bone_width, first, max_bytes)
        self._setup(rules, n, max(tables(rules).bone0, bone_width))
        self.round = rnd
        self.auto_reset = auto
        self.rng = np.random.default_rng(rng_seed)
        self._key = fast_key(rng_seed)
        self._next_seed = first
        self._ck = None
        if self.backend == "numba":
            _warm.first_compile(compile_kernels)
            self._ck = _compiled.Compiled(self._tb, self._fast)
            self._rs = self.rng.integers(0, 1 << 64, size=1, dtype=np.uint64)

    @property
    def deals(self) -> str:
        """``"exact"`` (every round is ``deal(rules, seed, round)``) or ``"fast"``."""
        return "fast" if self._fast else "exact"

    @property
    def num_actions(self) -> int:
        """The size of the action space (the :class:`~chickenfoot.encoding.Encoding`'s)."""
        return self._tb.A

    @property
    def observation_size(self) -> int:
        """The length of an observation (the encoding's, with no history)."""
        return self._tb.enc.observation_size

    @property
    def encoding(self) -> Encoding:
        """The :class:`~chickenfoot.encoding.Encoding` of the actions and observations."""
        return self._tb.enc

    @property
    def done(self) -> Bools:
        """Whether each round is over (a copy)."""
        out: Bools = self.result != ONGOING
        return out

    # -- deals ------------------------------------------------------------------------------

    def reset(self, seeds: Sequence[int] | None = None, *, lanes: object = None) -> None:
        """Deal every round again (or the rounds ``lanes``): with ``seeds`` (one int per
        round dealt), or the next seeds of the engine's sequence."""
        g = lanes_arg(lanes, self.n)
        k = len(g)
        chosen = self._take_seeds(k) if seeds is None else args.seeds_arg(seeds, k)
        if self.bone.shape[0] < max(self._tb.bone0, 1):
            self.bone = self._zeros((max(self._tb.bone0, 1), self.n), np.int16)
        if k:
            self._deal(g, chosen)
            self._logged(g)

    # -- records ----------------------------------------------------------------------------

    def _logged(self, g: I64) -> None:
        """Tell the record log (``records=True``) of the rounds just dealt into lanes ``g``."""
        if self._log is not None:
            for lane in g.tolist():
                self._log.dealt(lane, self.seeds[lane], state_of(self, lane))

    def take_records(self) -> list[tuple[int | None, Record]]:
        """The rounds :meth:`step` finished since the last call (``records=True``), in the
        order they ended: ``(seed, record)``, the seed the round was dealt from (``None``
        for a state given to :meth:`from_states`) and its :class:`~chickenfoot.Record`
        from the deal, every move replayed with the rules' checks. Write one in the
        notation with :func:`chickenfoot.notation.write_game`. Rounds played by a playout
        are not kept. Without ``records=True``: :class:`~chickenfoot.ArgumentError`.

        >>> import chickenfoot as cf
        >>> e = BatchEngine(cf.Rules(players=2), 2, seed=5, backend="numpy", records=True)
        >>> while not e.done.all():
        ...     _ = e.step(e.random_actions())
        >>> [(seed, rec.final().is_over(), rec.start == cf.deal(cf.Rules(players=2), seed))
        ...  for seed, rec in sorted(e.take_records(), key=lambda p: p[0])]
        [(5, True, True), (6, True, True)]
        """
        if self._log is None:
            raise ArgumentError("take_records() needs an engine made with records=True")
        return self._log.take(self._tb.enc)

    def load(self, i: int, state: State) -> None:
        """Put ``state`` in round ``i`` (see :meth:`Seats.load`); with ``records=True`` the
        round's record starts there (its seed ``None``)."""
        super().load(i, state)
        if self._log is not None:
            self._log.dealt(args.index_arg(i, self.n), None, state)

    def play_agents(
        self, agents: Sequence[str | None], *, lanes: object = None, actions: I64 | None = None
    ) -> tuple[NDArray[np.float32], Bools, I64]:
        """See :meth:`Seats.play_agents`. With ``records=True`` the agents play through
        the core on every backend, so that each of their moves is kept (on numba that is
        slower, and the random agent's choices differ from an engine without records)."""
        if self._log is None:
            return super().play_agents(agents, lanes=lanes, actions=actions)
        compiled, self._ck = self._ck, None
        self._agents = True
        try:
            rewards, done, moves = super().play_agents(agents, lanes=lanes, actions=actions)
        finally:
            self._ck, self._agents = compiled, False
        self._log.ended(np.nonzero(done)[0])
        return rewards, done, moves

    def _load(self, i: int, state: State) -> None:
        super()._load(i, state)
        if self._log is not None and self._agents:  # the built-in agents' moves, kept
            self._log.played(i, [e.move for e in state.history])

    def record(self, i: int) -> Record | None:
        """Round ``i`` from its deal to now (``records=True``), or ``None`` when a playout
        played it."""
        if self._log is None:
            raise ArgumentError("record() needs an engine made with records=True")
        return self._log.record(args.index_arg(i, self.n), self._tb.enc)

    # -- the public steps -------------------------------------------------------------------

    def legal_mask(self, *, lanes: object = None, out: Bools | None = None) -> Bools:
        """``(n, num_actions)`` booleans: True for each legal move of each round, in the
        encoding's action space (a finished round's row is all False).

        ``lanes``: only these rounds, one row each; ``out``: a C-contiguous bool array of
        the answer's shape to write it into (and return), instead of a new one."""
        g = lanes_arg(lanes, self.n)
        buf: Bools | None = args.out_arg(out, (len(g), self._tb.A), np.bool_)
        if buf is not None and self._ck is not None:
            return self._ck.legal_mask(self, g, buf)
        got = self._legal_mask(g)
        if buf is None:
            return got
        buf[...] = got
        return buf

    def legal_actions(self) -> I64:
        """``(n, m)`` int64: the legal action ids of each round, ascending, padded with -1
        to ``m``, the most legal moves of any round now (a finished round's row is all -1).

        The compact form of :meth:`legal_mask`: row ``i`` lists ``np.nonzero(mask[i])``.

        >>> import chickenfoot as cf
        >>> e = BatchEngine(cf.Rules(), 2, seed=1000)
        >>> [e.encoding.action(m) for m in e.to_state(0).legal_moves] == e.legal_actions()[0][:4].tolist()
        True
        """
        if self._ck is not None:
            return self._ck.legal_actions(self, np.arange(self.n))
        mask = self._legal_mask(np.arange(self.n))
        counts = mask.sum(axis=1)
        out = np.full((self.n, int(counts.max(initial=0))), -1, dtype=np.int64)
        rows, ids = np.nonzero(mask)
        out[rows, np.arange(len(ids)) - np.repeat(np.cumsum(counts) - counts, counts)] = ids
        return out

    def random_actions(self) -> I64:
        """``(n,)``: a uniformly random legal action of each round in play (-1 for a finished
        round), as :meth:`random_playout` chooses them (``rng_seed`` seeds the choices)."""
        if self._ck is not None:
            return self._ck.random_actions(self, self._rs)
        g = np.nonzero(self.result == ONGOING)[0]
        out = np.full(self.n, -1, dtype=np.int64)
        kind, t, a = self._random_moves(g)
        out[g] = self._actions(kind, t, a)
        return out

    def step(self, actions: Any, *, lanes: object = None) -> tuple[NDArray[np.float32], Bools]:
        """Make one move in every round in play: ``actions[i]`` is an action id of round ``i``
        (the rows of finished rounds are ignored). ``lanes``: move only these rounds
        (``actions`` still has one item per round; the others are ignored).

        Returns ``(rewards, done)``: ``rewards`` is ``(n, players)`` float32, minus each
        seat's penalty (R11) in the rounds that ended on this step and 0 elsewhere; ``done``
        says which rounds ended on this step. Every action is checked before any round
        changes: an action outside the space or naming no move raises
        :class:`~chickenfoot.ArgumentError`, an illegal one
        :class:`~chickenfoot.IllegalMoveError`, and then no round has moved. With
        ``auto_reset``, the rounds that ended are dealt again at once (the next seeds).

        ``actions`` is a numpy integer array (any integer dtype), a list of ints or an
        array-like numpy reads as one (a tensor); anything else, another shape or a value
        outside the action space in a round in play raises
        :class:`~chickenfoot.ArgumentError`.
        """
        arr, items = args.action_array(actions, self.n, args.STEP)
        if lanes is None:
            g = np.nonzero(self.result == ONGOING)[0]
        else:
            g = lanes_arg(lanes, self.n)
            g = g[self.result[g] == ONGOING]
        if len(g) == self.n:
            g, act = self._all, arr.astype(np.int64, copy=False)
        else:
            act = arr[g].astype(np.int64, copy=False)

        def shown(r: int) -> str:
            i = int(g[r])
            return args.STEP.shown(r, i, int(arr[i]) if items is None else items[i])

        kind, t, a = self._check_actions(act, g, shown)
        if self.auto_reset:  # as many rounds as are in play may end and be dealt again
            self._check_seeds_left(len(g))
        ended = self._apply(g, kind, t, a)
        if self._log is not None:
            self._log.moved(g, act)
            self._log.ended(ended)
        rewards = np.zeros((self.n, self._tb.P), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        if len(ended):
            rewards[ended] = -self._penalties(ended)
            done[ended] = True
            if self.auto_reset:
                self._deal(ended, self._take_seeds(len(ended)))
                self._logged(ended)
        return rewards, done

    def penalties(self) -> I64:
        """``(n, players)``: each seat's penalty points now (R11), in every round."""
        return self._penalties(np.arange(self.n))

    def outcomes(self) -> I64:
        """``(n,)``: -2 while a round goes on, -1 if it ended blocked, else the seat that
        went out."""
        r = self.result
        out: I64 = np.where(r == ONGOING, -2, np.where(r == self._tb.P, -1, r))
        return out

    # -- observations -----------------------------------------------------------------------

    def observe(
        self,
        seat: int | None = None,
        *,
        lanes: object = None,
        out: NDArray[np.float32] | None = None,
    ) -> NDArray[np.float32]:
        """``(n, observation_size)`` float32: row ``i`` is
        ``Encoding(rules).observe(self.to_state(i).view(seat))``, the view of the seat to act
        by default. ``lanes`` and ``out`` as in :meth:`legal_mask`."""
        me = args.seat_arg(seat, self._tb.P)
        g = lanes_arg(lanes, self.n)
        buf: NDArray[np.float32] | None = args.out_arg(
            out, (len(g), self._tb.enc.observation_size), np.float32
        )
        if buf is not None and self._ck is not None:
            return self._ck.observe(self, g, me, buf)
        got = self._observe(g, me)
        if buf is None:
            return got
        buf[...] = got
        return buf

    # -- playouts ---------------------------------------------------------------------------

    def random_playout(self, k: int | None = None) -> Results:
        """Play rounds with uniformly random legal moves.

        ``k=None`` plays every round in play to its end. An int ``k`` plays ``k`` new rounds
        (the next ``k`` seeds, dealt into the lanes as they free up; this discards the rounds
        in play) and leaves each lane holding the last round it played, finished (its seed
        in :attr:`seeds`). Returns the finished rounds' :class:`Results`, in seed order.

        Engines of fewer than :data:`CORE_BELOW` rounds play round by round with the core's
        :func:`~chickenfoot.playout` (random choices seeded by the engine's generator):
        numpy's per-call cost makes a few columns slower than plain Python.
        """
        if self._log is not None:
            self._log.forget()
        return self._playout(None, k)

    def playout(self, policy: Policy, k: int | None = None) -> Results:
        """Like :meth:`random_playout`, with ``policy(observations, legal_mask)`` choosing
        the moves: it gets the rows (of the rounds in play) of :meth:`observe` and
        :meth:`legal_mask` and returns one action per row; its actions are checked as
        :meth:`step` checks them, and an answer that is not actions raises
        :class:`~chickenfoot.ArgumentError` naming it (the rounds played until then stay
        as they are)."""
        if self._log is not None:
            self._log.forget()
        return self._playout(checks.function(policy, "policy"), k)

    # -- conversion -------------------------------------------------------------------------

    def to_state(self, i: int) -> State:
        """Round ``i`` as a core :class:`~chickenfoot.State` (equal to the state the core API
        reaches with the same moves; its history starts here, as a read position's)."""
        return state_of(self, args.index_arg(i, self.n))

    @classmethod
    def from_states(
        cls,
        states: Sequence[State],
        *,
        seed: int = 0,
        round: int = 0,
        auto_reset: bool = False,
        rng_seed: int | None = None,
        backend: str = "auto",
        deals: str = "exact",
        max_bytes: int = ENGINE_MEMORY,
        records: bool = False,
    ) -> BatchEngine:
        """An engine holding the given states (all under the same rules), row by row.

        ``seed``, ``round`` and ``deals`` set the deals of later :meth:`reset`\\ s and
        re-deals; the options (``max_bytes`` too) are checked as the constructor checks
        them."""
        given = args.states_arg(states)
        eng = cls.__new__(cls)
        width = max(len(s._bone) for s in given)
        rules = given[0].rules
        eng._start(
            rules, len(given), width, seed, round, auto_reset, rng_seed, backend, deals, max_bytes
        )
        for i, s in enumerate(given):
            eng._load(i, s)
        eng._log = _log_arg(records, len(given))
        if eng._log is not None:
            for i, s in enumerate(given):
                eng._log.dealt(i, None, s)
        return eng


def _log_arg(records: object, n: int) -> RecordLog | None:
    """The record log of an engine of ``n`` lanes, made with ``records`` (a bool)."""
    if not isinstance(records, bool):
        raise ArgumentError(f"records={brief(records)} is invalid: must be True or False")
    return RecordLog(n) if records else None


def compile_kernels(progress: Callable[[int, str, float], object] | None = None) -> float:
    """Compile (or load from the cache) every kernel of the batch engine, the built-in
    agents and the search; ``progress(k, step, seconds)`` after each step of
    :data:`~chickenfoot.batch.COMPILE_STEPS`. Returns the seconds taken. Needs numba (the
    ``fast`` extra): :class:`~chickenfoot.ArgumentError` without it.

    The steps run engines of this module's :class:`BatchEngine` (``_warm.warm_up``), and the
    first numba engine of a process runs them (``_warm.first_compile``): the engine hands
    itself down, so nothing below imports it back."""
    return _warm.warm_up(BatchEngine, progress)
