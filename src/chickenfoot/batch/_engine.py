"""The batched engine: N rounds as numpy arrays, advanced in lockstep (see the package doc)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, IllegalMoveError
from chickenfoot.moves import play_by_ids
from chickenfoot.outcome import Outcome
from chickenfoot.playout import playout
from chickenfoot.rules import Rules
from chickenfoot.state import _BLOCKED, _OUT, State, _make, _union, apply
from chickenfoot.tiles import PIPS, WITH, Tile

from . import _args as args
from ._args import MAX_GAMES
from ._results import Results, max_playout
from ._steps import Steps
from ._store import ONGOING, DealQueue
from ._tables import bit_of, int_of, popcount, tables

if TYPE_CHECKING:
    from numpy.typing import NDArray

    U64 = NDArray[np.uint64]
    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

__all__ = ["CORE_BELOW", "MAX_GAMES", "BatchEngine", "Policy", "Results"]

CORE_BELOW: Final = 128
"""Engines of fewer rounds play :meth:`BatchEngine.random_playout` round by round with the
core's :func:`~chickenfoot.playout` (faster there than numpy on a few columns)."""

Policy = Callable[["NDArray[np.float32]", "NDArray[np.bool_]"], Any]
"""Chooses actions: ``policy(observations, legal_mask) -> actions``, one row per round."""


class BatchEngine(Steps):
    """``n`` rounds of Chicken Foot under one ``rules``, held as numpy arrays.

    Every round is a seeded deal, ``deal(rules, seed, round)``: the engine's rounds take the
    seeds ``seed, seed + 1, ...`` in order (the first ``n`` at construction, then every
    :meth:`reset` and re-deal the next ones), all with the same ``round`` of a match.
    ``auto_reset=True`` re-deals each round as soon as :meth:`step` finishes it.
    ``rng_seed`` seeds the random choices of :meth:`random_playout`.
    """

    def __init__(
        self,
        rules: Rules,
        n: int,
        *,
        seed: int = 0,
        round: int = 0,
        auto_reset: bool = False,
        rng_seed: int | None = None,
    ) -> None:
        rules = args.rules_arg(rules)
        self._start(rules, args.size_arg(n), 0, seed, round, auto_reset, rng_seed)
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
    ) -> None:
        """What both constructors do: check the options, then allocate (``bone_width``:
        the longest boneyard to hold, beyond the deals')."""
        first, rnd, auto, rng_seed = args.options(seed, round, auto_reset, rng_seed)
        self._setup(rules, n, max(tables(rules).bone0, bone_width))
        self.round = rnd
        self.auto_reset = auto
        self.rng = np.random.default_rng(rng_seed)
        self._next_seed = first

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
    def max_playout(self) -> int:
        """The largest ``k`` of :meth:`random_playout` and :meth:`playout` now: the most
        rounds whose :class:`Results` fit in 1 GiB (``RESULTS_MEMORY``), from the next
        seed on (about 12 million for four seats).

        >>> import chickenfoot as cf
        >>> f"{BatchEngine(cf.Rules(), 1).max_playout:,}"
        '12,201,611'
        """
        return max_playout(self._tb.P, self._next_seed)

    @property
    def done(self) -> Bools:
        """Whether each round is over (a copy)."""
        out: Bools = self.result != ONGOING
        return out

    # -- deals ------------------------------------------------------------------------------

    def reset(self, seeds: Sequence[int] | None = None) -> None:
        """Deal every round again: with ``seeds`` (one int per round), or the next ``n``
        seeds of the engine's sequence."""
        chosen = self._take_seeds(self.n) if seeds is None else args.seeds_arg(seeds, self.n)
        if self.bone.shape[0] < max(self._tb.bone0, 1):
            self.bone = np.zeros((max(self._tb.bone0, 1), self.n), dtype=np.int16)
        self._deal(np.arange(self.n), chosen)

    # -- the public steps -------------------------------------------------------------------

    def legal_mask(self) -> Bools:
        """``(n, num_actions)`` booleans: True for each legal move of each round, in the
        encoding's action space (a finished round's row is all False)."""
        return self._legal_mask(np.arange(self.n))

    def _legal_mask(self, lanes: I64) -> Bools:
        """The legal masks of rounds ``lanes``, one row each."""
        tb, rules = self._tb, self.rules
        out = np.zeros((len(lanes), tb.A), dtype=bool)
        li = np.nonzero(self.result[lanes] == ONGOING)[0]  # rows of out
        if not len(li):
            return out
        g = lanes[li]
        cand = self._candidates(g)
        has = cand.any(axis=0)
        d = self.drawn[g]
        bone_left = self.bpos[g] < self.bend[g]
        pending = self.pending[g]
        laid = self.nboard[g] > 0
        until = rules.draw == "until_playable"
        can_draw = bone_left & ((d < 0) | until)
        out[li[~has & can_draw], tb.DRAW] = True
        out[li[~has & ~can_draw], tb.PASS] = True
        if rules.may_draw_instead:
            out[li[has & (d < 0) & bone_left & laid], tb.DRAW] = True
        if rules.drawn_tile == "may_play":
            out[li[has & (d >= 0)], tb.PASS] = True
        cb = tb.unpack(cand.T)  # (k, S)
        hold = has & ~laid  # laying the centre (holder mode)
        out[li[hold], self.centre[g[hold]] * tb.slots] = True
        toe = has & laid & (pending >= 0)  # toes of the pending hub
        if toe.any():
            rr, tt = np.nonzero(cb[toe])
            hub = pending[toe][rr]
            out[li[toe][rr], tt * tb.slots + tb.SLOT[tt, hub]] = True
        opn = has & laid & (pending < 0)  # plays on open ends
        if opn.any():
            ends = tb.unpack(self.ends[:, :, g[opn]].transpose(2, 0, 1))  # (k, V, S)
            endv = np.where(ends.any(axis=1), ends.argmax(axis=1), -1)  # each anchor's number
            ev = endv[:, tb.PAIR_A]
            pt = tb.PAIR_T
            ok = cb[opn][:, pt] & (ev >= 0) & ((ev == tb.PX[pt]) | (ev == tb.PY[pt]))
            sub = out[li[opn]]
            sub[:, tb.PAIR_ACTION] = ok
            out[li[opn]] = sub
        return out

    def random_actions(self) -> I64:
        """``(n,)``: a uniformly random legal action of each round in play (-1 for a finished
        round), as :meth:`random_playout` chooses them (``rng_seed`` seeds the choices)."""
        g = np.nonzero(self.result == ONGOING)[0]
        out = np.full(self.n, -1, dtype=np.int64)
        kind, t, a = self._random_moves(g)
        out[g] = self._actions(kind, t, a)
        return out

    def _actions(self, kind: I64, t: I64, a: I64) -> I64:
        """The action ids of moves given as ``(kind, tile, anchor)``."""
        tb = self._tb
        play = t * tb.slots + tb.SLOT[t, np.where(a < 0, tb.S, a)]
        out: I64 = np.where(kind == 1, tb.DRAW, np.where(kind == 2, tb.PASS, play))
        return out

    def _check_actions(self, act: I64, g: I64, shown: Callable[[int], str]) -> tuple[I64, I64, I64]:
        """Judge the actions ``act`` of the rounds ``g`` (one each, ``int64``) against the
        action space and the rules (nothing changes); returns their moves as
        ``(kind, tile, anchor)``. ``shown(r)`` names item ``r`` and its value in a message."""
        tb, rules = self._tb, self.rules
        bad = (act < 0) | (act >= tb.A)
        if bad.any():
            r = int(np.argmax(bad))
            raise ArgumentError(f"{shown(r)} is invalid: must be an action from 0 to {tb.A - 1}")
        is_draw, is_pass = act == tb.DRAW, act == tb.PASS
        is_play = ~is_draw & ~is_pass
        t = np.where(is_play, act // tb.slots, 0)
        slot = np.where(is_play, act % tb.slots, 0)
        anc = np.where(is_play, tb.ANCH[t, slot], -1)
        nameless = is_play & (anc == -2)
        if nameless.any():
            r = int(np.argmax(nameless))
            which = f"tile {Tile.from_id(int(t[r]))}, slot {int(slot[r])}"
            raise ArgumentError(f"{shown(r)} is invalid: it names no move ({which})")
        cand = self._candidates(g)
        has = cand.any(axis=0)
        d = self.drawn[g]
        bone_left = self.bpos[g] < self.bend[g]
        laid = self.nboard[g] > 0
        pending = self.pending[g]
        until = rules.draw == "until_playable"
        draw_ok = bone_left & np.where(d < 0, ~has | (rules.may_draw_instead & laid), ~has & until)
        pass_ok = np.where(
            d < 0,
            ~bone_left & ~has,
            np.where(has, rules.drawn_tile == "may_play", ~bone_left | (not until)),
        )
        rows = np.arange(len(g))
        has_t = bit_of(cand, t, rows)
        ax = self._rows(self.ends, tb.PX[t], g) | self._rows(self.ends, tb.PY[t], g)
        on_end = bit_of(ax, np.maximum(anc, 0), rows)
        where_ok = np.where(
            pending >= 0, anc == pending, np.where(laid, (anc >= 0) & on_end, anc == -1)
        )
        play_ok = has_t & where_ok
        ok = np.where(is_draw, draw_ok, np.where(is_pass, pass_ok, play_ok))
        if not ok.all():
            r = int(np.argmin(ok))
            move = tb.enc.move(int(act[r]))
            try:
                apply(self.to_state(int(g[r])), move)
            except IllegalMoveError as err:
                raise IllegalMoveError(f"{shown(r)}: {err}") from None
            raise AssertionError(
                f"internal: {move} judged illegal in round {int(g[r])}"
            )  # pragma: no cover
        kind = np.where(is_draw, 1, np.where(is_pass, 2, 0))
        return kind, t, anc

    def step(self, actions: Any) -> tuple[NDArray[np.float32], Bools]:
        """Make one move in every round in play: ``actions[i]`` is an action id of round ``i``
        (the rows of finished rounds are ignored).

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
        g = np.nonzero(self.result == ONGOING)[0]
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
        rewards = np.zeros((self.n, self._tb.P), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        if len(ended):
            rewards[ended] = -self._penalties(ended)
            done[ended] = True
            if self.auto_reset:
                self._deal(ended, self._take_seeds(len(ended)))
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

    def observe(self, seat: int | None = None) -> NDArray[np.float32]:
        """``(n, observation_size)`` float32: row ``i`` is
        ``Encoding(rules).observe(self.to_state(i).view(seat))``, the view of the seat to act
        by default."""
        return self._observe(np.arange(self.n), args.seat_arg(seat, self._tb.P))

    def _observe(self, g: I64, seat: int | None) -> NDArray[np.float32]:
        tb = self._tb
        n, p, s = len(g), tb.P, tb.S
        turn = self.turn[g]
        me = turn if seat is None else np.full(n, seat, dtype=np.int64)
        off = tb.enc._offsets
        out = np.zeros((n, tb.enc.observation_size), dtype=np.float32)
        rows = np.arange(n)

        def at(name: str) -> int:
            return int(off[name][0])

        ends = self.ends[:, :, g]
        out[:, at("hand") : at("hand") + s] = tb.unpack(self._rows(self.hands, me, g).T)
        out[:, at("table") : at("table") + s] = tb.unpack(self.table[:, g].T)
        anchors = np.bitwise_or.reduce(ends, axis=0)  # (W, k)
        out[:, at("anchors") : at("anchors") + s] = tb.unpack(anchors.T)
        out[:, at("open_numbers") : at("open_numbers") + tb.V] = self._open_counts(g).T
        pending = self.pending[g]
        pend = pending >= 0
        out[rows[pend], at("pending") + pending[pend]] = 1.0
        out[:, at("toes_needed")] = np.where(pend, self.need[g], 0)
        out[rows, at("centre") + tb.PX[self.centre[g]]] = 1.0
        drawn = self.drawn[g]
        mine = (drawn >= 0) & (turn == me)
        out[rows[mine], at("drawn") + drawn[mine]] = 1.0
        sizes = popcount(self.hands[:, :, g], axis=1).T.astype(np.float32)  # (k, P)
        cols = (np.arange(p)[None, :] - me[:, None]) % p
        hs = np.zeros((n, p), dtype=np.float32)
        np.put_along_axis(hs, cols, sizes, axis=1)
        out[:, at("hand_sizes") : at("hand_sizes") + p] = hs
        out[:, at("boneyard")] = self.bend[g] - self.bpos[g]
        live = self.result[g] == ONGOING
        out[rows[live], at("turn") + (turn[live] - me[live]) % p] = 1.0
        return out

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
        return self._playout(None, k)

    def playout(self, policy: Policy, k: int | None = None) -> Results:
        """Like :meth:`random_playout`, with ``policy(observations, legal_mask)`` choosing
        the moves: it gets the rows (of the rounds in play) of :meth:`observe` and
        :meth:`legal_mask` and returns one action per row; its actions are checked as
        :meth:`step` checks them, and an answer that is not actions raises
        :class:`~chickenfoot.ArgumentError` naming it (the rounds played until then stay
        as they are)."""
        return self._playout(checks.function(policy, "policy"), k)

    def _playout(self, policy: Policy | None, rounds: object) -> Results:
        k = args.rounds_arg(rounds, self.max_playout)
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
            queue = DealQueue(self, seeds)
            self._deal(lanes, seeds[:handed], queue.take(handed))
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
                self._deal(again, seeds[handed : handed + m], queue.take(m))
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
                done_now = self._random_step(live)
            else:
                done_now = self._apply(live, *self._policy_moves(live, policy))
            if len(done_now):
                live = live[self.result[live] == ONGOING]
        return Results._of(seeds, out, pens, plies)

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
            jobs = ((i, self.to_state(i)) for i in range(self.n))
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

    # -- conversion -------------------------------------------------------------------------

    def to_state(self, i: int) -> State:
        """Round ``i`` as a core :class:`~chickenfoot.State` (equal to the state the core API
        reaches with the same moves; its history starts here, as a read position's)."""
        i = args.index_arg(i, self.n)
        tb = self._tb
        w = tb.W
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
            outcome = _BLOCKED
        else:
            outcome = _OUT[res]
        drawn = int(self.drawn[i])
        del w
        return _make(
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

    @classmethod
    def from_states(
        cls,
        states: Sequence[State],
        *,
        seed: int = 0,
        round: int = 0,
        auto_reset: bool = False,
        rng_seed: int | None = None,
    ) -> BatchEngine:
        """An engine holding the given states (all under the same rules), row by row.

        ``seed`` and ``round`` set the deals of later :meth:`reset`\\ s and re-deals; the
        options are checked as the constructor checks them."""
        given = args.states_arg(states)
        eng = cls.__new__(cls)
        width = max(len(s._bone) for s in given)
        eng._start(given[0].rules, len(given), width, seed, round, auto_reset, rng_seed)
        for i, s in enumerate(given):
            eng._load(i, s)
        return eng


def _core_mask(board: int, centre: int, pending: int, nums: int) -> int:
    """The core's ``_mask`` (its WITH rows run past the set's tiles)."""
    if not board:
        return 1 << centre
    if pending >= 0:
        return WITH[PIPS[pending][0]]
    return _union(nums)


def _draw_event(t: int) -> Any:
    from chickenfoot.moves import _DRAWS

    return _DRAWS[t]
