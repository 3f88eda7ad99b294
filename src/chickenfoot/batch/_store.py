"""The batched engine's storage: N rounds as numpy arrays, their deals and their reads.

Every array has the round as its last axis (one column per round, so that an operation on
all rounds runs over contiguous memory); tile sets are ``W`` uint64 words (axis -2). The
rules live in :mod:`._steps`, the public calls in :mod:`._engine`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot.errors import MAX_DIGITS, ArgumentError, brief, within_digits
from chickenfoot.outcome import Termination
from chickenfoot.rules import Rules
from chickenfoot.state import State
from chickenfoot.tiles import DOUBLE_ID

from ._shuffle import BLOCK, fast_many, shuffled_many
from ._tables import Tables, cols, popcount_small, tables, words_of

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ._compiled import Compiled

    U64 = NDArray[np.uint64]
    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

ONGOING: Final = -1
"""``result`` of a round in play (else the seat that went out, or ``P`` if blocked)."""


ROUND_FIRST: Final = ("hands", "ends", "mask", "table", "bone", "board")
"""The arrays made by :meth:`Store._zeros`: round first in memory under the compiled backend."""


class Store:
    """The arrays of ``n`` rounds under one ``rules`` (see the module doc)."""

    rules: Rules
    n: int
    backend: str
    round: int
    rng: np.random.Generator
    _tb: Tables
    _next_seed: int
    _ck: Compiled | None
    """The compiled calls (``backend="numba"``), or None (numpy)."""
    _fast: bool
    """Fast deals (``deals="fast"``): shuffled from :attr:`_key`, not ``deal``'s."""
    _key: NDArray[np.uint64]
    _rs: NDArray[np.uint64]
    """The compiled backend's generator state (splitmix64), seeded from ``rng``."""

    def _setup(self, rules: Rules, n: int, bone_width: int) -> None:
        """Allocate the arrays. The round is the last axis of every array (one column per
        round), so that an operation on all rounds runs over contiguous memory; tile sets
        are ``W`` uint64 words (axis -2)."""
        tb = tables(rules)
        self.rules = rules
        self.n = n
        self._tb = tb
        s, v, w, p = tb.S, tb.V, tb.W, tb.P
        z = self._zeros
        self.hands = z((p, w, n), np.uint64)
        self.ends = z((v, w, n), np.uint64)  # anchors whose line ends in v
        self.mask = z((w, n), np.uint64)  # tiles with a legal play
        self.table = z((w, n), np.uint64)  # tiles on the table
        self.bone = z((max(bone_width, 1), n), np.int16)  # draw order
        self.bpos = np.zeros(n, dtype=np.int64)  # tiles drawn
        self.bend = np.zeros(n, dtype=np.int64)  # boneyard length at the start
        self.nums = np.zeros(n, dtype=np.int64)  # open numbers, a bitmask
        self.pending = np.zeros(n, dtype=np.int64)  # pending hub, or -1
        self.need = np.zeros(n, dtype=np.int64)  # toes it still needs
        self.turn = np.zeros(n, dtype=np.int64)
        self.drawn = np.zeros(n, dtype=np.int64)  # drawn tile this turn, or -1
        self.centre = np.zeros(n, dtype=np.int64)
        self.result = np.zeros(n, dtype=np.int64)  # -1 in play, a seat out, P blocked
        # placements in order, tile t on anchor a (-1: none) as (t << 16) + a + 1
        self.board = z((s, n), np.int32)
        self.nboard = np.zeros(n, dtype=np.int64)
        self.plies = np.zeros(n, dtype=np.int64)
        self.seeds: list[int | None] = [None] * n
        self._all = np.arange(n)  # every lane: _sel turns it into a slice

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle (or a deep copy) holds: the arrays and the options; the lookup
        tables are made again from the rules (shared and cached), and the compiled calls
        load their kernels again (:meth:`Compiled.__reduce__`)."""
        state = dict(self.__dict__)
        del state["_tb"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._tb = tables(self.rules)
        for name in ROUND_FIRST:  # a pickle holds them round last: the kernels read rounds
            held = getattr(self, name)  # first (see _zeros), as they were made
            if self.backend == "numba" and not np.moveaxis(held, -1, 0).flags.c_contiguous:
                again = self._zeros(held.shape, held.dtype)
                again[...] = held
                setattr(self, name, again)

    def _zeros(self, shape: tuple[int, ...], dtype: Any) -> Any:
        """A zeroed array, the round its last axis; under the compiled backend held round
        first in memory (a view), so that a round's words, which its kernels read
        together, lie together."""
        if self.backend != "numba":
            return np.zeros(shape, dtype=dtype)
        return np.moveaxis(np.zeros((shape[-1], *shape[:-1]), dtype=dtype), 0, -1)

    @property
    def bytes_per_round(self) -> int:
        """Bytes of the arrays that hold one round."""
        arrays = (
            self.hands,
            self.ends,
            self.mask,
            self.table,
            self.bone,
            self.bpos,
            self.bend,
            self.nums,
            self.pending,
            self.need,
            self.turn,
            self.drawn,
            self.centre,
            self.result,
            self.board,
            self.nboard,
            self.plies,
        )
        return sum(a.nbytes for a in arrays) // self.n

    # -- deals ---------------------------------------------------------------------------------

    def _check_seeds_left(self, k: int) -> None:
        """Refuse to go on if the next ``k`` seeds of the engine's sequence run past what a
        deal takes (integers of at most 4,000 digits), before anything changes."""
        last = self._next_seed + k - 1
        if k and not within_digits(last):
            raise ArgumentError(
                f"the engine's next {k:,} seeds run past {MAX_DIGITS:,} digits (a deal's "
                f"seeds: from {brief(self._next_seed)}): give reset() seeds of your own"
            )

    def _take_seeds(self, k: int) -> list[int]:
        self._check_seeds_left(k)
        out = list(range(self._next_seed, self._next_seed + k))
        self._next_seed += k
        return out

    def _deal(self, g: I64, seeds: list[int], order: I64 | None = None) -> None:
        """Deal ``deal(rules, seeds[j], self.round)`` into lane ``g[j]`` (``order``: the
        shuffles, if made already)."""
        tb, rules = self._tb, self.rules
        k = len(g)
        if not k:
            return
        if k > BLOCK:  # in blocks: a deal's temporaries take about 1 kB per round
            for i in range(0, k, BLOCK):
                part = None if order is None else order[i : i + BLOCK]
                self._deal(g[i : i + BLOCK], seeds[i : i + BLOCK], part)
            return
        if self._ck is not None:
            self._ck.deal(self, g, seeds, self._key)
            return
        if order is None:
            order = self._shuffles(seeds)  # (k, dealt) tile ids
        p, hs = tb.P, rules.hand_size
        bits = tb.BIT[order[:, : p * hs]].reshape(k, p, hs, tb.W)
        hands = np.bitwise_or.reduce(bits, axis=2).transpose(1, 2, 0)  # (P, W, k)
        self.hands[:, :, g] = hands
        nb = tb.bone0
        self.bone[:nb, g] = order[:, p * hs :].T
        self.bpos[g] = 0
        self.bend[g] = nb
        self.ends[:, :, g] = 0
        self.nums[g] = 0
        self.drawn[g] = -1
        self.plies[g] = 0
        centre = DOUBLE_ID[rules.centre_of_round(self.round)]
        self.centre[g] = centre
        cx = int(tb.PX[centre])
        turn = np.full(k, rules.leader_of_round(self.round), dtype=np.int64)
        if rules.centre == "set_aside":
            self.board[0, g] = centre << 16
            self.nboard[g] = 1
            self.pending[g] = centre
            self.need[g] = rules.opening_toes
            self.mask[:, g] = tb.WITH[cx][:, None]
            self.table[:, g] = tb.BIT[centre][:, None]
        else:
            self.nboard[g] = 0
            self.pending[g] = -1
            self.need[g] = 0
            self.mask[:, g] = tb.BIT[centre][:, None]
            self.table[:, g] = 0
            word, bit = divmod(centre, 64)
            holds = (hands[:, word, :] >> np.uint64(bit)) & np.uint64(1)  # (P, k)
            turn = np.where(holds.any(axis=0), holds.argmax(axis=0), turn)
        self.turn[g] = turn
        self.result[g] = ONGOING
        if nb == 0:
            self._check_blocked(g)
        for j, lane in enumerate(g.tolist()):
            self.seeds[lane] = seeds[j]

    def _shuffles(self, seeds: list[int]) -> I64:
        """``(len(seeds), dealt)``: the shuffled tiles of the deals of ``seeds``."""
        if self._fast:
            return fast_many(self.rules, seeds, self.round, self._key)
        return shuffled_many(self.rules, seeds, self.round)

    # -- reads and writes ----------------------------------------------------------------------
    #
    # Words of a set per round are (W, k) arrays (k rounds); _rows reads, for each round
    # g[j], the words of row r[j] of a (rows, W, n) array.

    def _rows(self, arr: U64, r: I64, g: I64) -> U64:
        if self._tb.W == 1:
            out: U64 = arr.reshape(-1)[r * self.n + g][None, :]
            return out
        return np.ascontiguousarray(arr[r, :, g].T)

    def _set_rows(self, arr: U64, r: I64, g: I64, value: U64) -> None:
        if self._tb.W == 1:
            arr.reshape(-1)[r * self.n + g] = value[0]
        else:
            arr[r, :, g] = value.T

    def _sel(self, g: I64) -> Any:
        """``g`` as an index: a slice (a view, no copy) when it is every lane in order."""
        return slice(None) if g is self._all else g

    def _check_blocked(self, g: I64) -> None:
        """R10: rounds ``g`` (with nothing drawn) are blocked if the boneyard is empty and no
        hand holds a playable tile."""
        empty = self.bpos[g] >= self.bend[g]
        if not empty.all():
            g = g[empty]
        held = np.bitwise_or.reduce(self.hands[:, :, g], axis=0)  # (W, k): every hand's tiles
        playable = (held & self.mask[:, g]).any(axis=0)
        self.result[g[~playable]] = self._tb.P

    def _candidates(self, g: I64, hand: U64 | None = None) -> U64:
        """``(W, k)``: the tiles the seat to act may play now: its hand (or the drawn tile)
        & the playable tiles (``hand``: the hands of the seats to act, if read already)."""
        sl = self._sel(g)
        tb = self._tb
        if hand is None:
            hand = self._rows(self.hands, self.turn[sl], g)
        out: U64 = hand & cols(self.mask, sl) & cols(tb.ONLY, self.drawn[sl])
        return out

    def _open_counts(self, sl: Any) -> Any:
        """``(V, k)`` int16: how many open ends show each number, in the rounds ``sl``."""
        return popcount_small(self.ends[:, :, sl], axis=1).astype(np.int16)

    def _penalties(self, g: I64) -> I64:
        if self._ck is not None:
            return self._ck.penalties(self, g)
        tb = self._tb
        h = self.hands[:, :, g].transpose(2, 0, 1)  # (k, P, W)
        bits = tb.unpack(h)  # (k, P, S)
        out: I64 = bits.astype(np.int64) @ tb.PIP
        return out

    def _load(self, i: int, s: State) -> None:
        """Put the core state ``s`` (under the engine's rules) in lane ``i``."""
        tb = self._tb
        w = tb.W
        self.hands[:, :, i] = [words_of(h, w) for h in s._hands]
        self.ends[:, :, i] = [words_of(e, w) for e in s._ends]
        self.mask[:, i] = words_of(s._mask & ((1 << tb.S) - 1), w)
        tab = 0
        for j, m in enumerate(s.board):
            self.board[j, i] = (m._t << 16) + m._a + 1
            tab |= 1 << m._t
        self.table[:, i] = words_of(tab, w)
        self.nboard[i] = len(s.board)
        nb = len(s._bone)
        self.bone[:nb, i] = s._bone
        self.bpos[i], self.bend[i] = 0, nb
        self.nums[i] = s._nums
        self.pending[i] = s._pending
        self.need[i] = s._need
        self.turn[i] = s.turn
        self.drawn[i] = s._drawn
        self.centre[i] = s._centre
        o = s._outcome
        if o is None:
            self.result[i] = ONGOING
        elif o.termination is Termination.BLOCKED:
            self.result[i] = tb.P
        else:
            assert o.seat is not None
            self.result[i] = o.seat


class DealQueue:
    """The shuffles of a list of seeds, made in large blocks (a vectorized shuffle costs
    about the same for one seed as for a thousand) and handed out in order."""

    def __init__(self, engine: Store, seeds: list[int]) -> None:
        self.engine = engine
        self.seeds = seeds
        self.made = 0  # seeds shuffled so far
        self.used = 0  # shuffles handed out
        self.buffer = np.zeros((0, engine._tb.dealt), dtype=np.int64)
        self.block = BLOCK

    def take(self, m: int) -> I64:
        left = self.made - self.used
        if left < m:
            size = max(m - left, min(self.block, len(self.seeds) - self.made))
            fresh = self.engine._shuffles(self.seeds[self.made : self.made + size])
            self.buffer = np.concatenate([self.buffer[self.buffer.shape[0] - left :], fresh])
            self.made += size
            left += size
        start = self.buffer.shape[0] - left
        out: I64 = self.buffer[start : start + m]
        self.used += m
        return out
