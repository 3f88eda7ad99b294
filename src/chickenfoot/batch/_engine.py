"""The batched engine: N rounds as numpy arrays, advanced in lockstep (see the package doc)."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, IllegalMoveError, brief, within_digits
from chickenfoot.moves import play_by_ids
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.playout import playout
from chickenfoot.rules import Rules
from chickenfoot.state import _BLOCKED, _OUT, State, _make, _union, apply
from chickenfoot.tiles import DOUBLE_ID, PIPS, WITH

from ._shuffle import BLOCK, shuffled_many
from ._tables import cols, cumsum_rows, int_of, kth_bit, popcount, popcount_small, tables, words_of

if TYPE_CHECKING:
    from numpy.typing import NDArray

    U64 = NDArray[np.uint64]
    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

__all__ = ["CORE_BELOW", "MAX_GAMES", "BatchEngine", "Policy", "Results"]

MAX_GAMES: Final = 1 << 20
"""The most rounds one engine holds (1,048,576)."""

CORE_BELOW: Final = 128
"""Engines of fewer rounds play :meth:`BatchEngine.random_playout` round by round with the
core's :func:`~chickenfoot.playout` (faster there than numpy on a few columns)."""

_ONGOING: Final = -1

Policy = Callable[["NDArray[np.float32]", "NDArray[np.bool_]"], Any]
"""Chooses actions: ``policy(observations, legal_mask) -> actions``, one row per round."""


class Results:
    """Finished rounds: how each ended and each seat's penalty (R11).

    ``seeds[i]`` dealt round ``i``; ``out[i]`` is the seat that went out, or -1 if the round
    was blocked; ``penalties[i]`` holds one penalty per seat; ``plies[i]`` counts its moves.
    """

    __slots__ = ("out", "penalties", "plies", "seeds")

    def __init__(self, seeds: list[int], out: I64, penalties: I64, plies: I64) -> None:
        self.seeds = seeds
        self.out = out
        self.penalties = penalties
        self.plies = plies

    def __len__(self) -> int:
        return len(self.seeds)

    def __repr__(self) -> str:
        return f"<Results of {len(self)} rounds>"


def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise ArgumentError(f"rules={brief(rules)} is invalid: must be a Rules object")
    return rules


def _check_n(n: object) -> int:
    if type(n) is not int or not 1 <= n <= MAX_GAMES:
        raise ArgumentError(
            f"n={brief(n)} is invalid: must be an int from 1 to {MAX_GAMES:,} (rounds held at once)"
        )
    return n


def _check_seed(seed: object, name: str) -> int:
    if type(seed) is not int or not within_digits(seed):
        raise ArgumentError(
            f"{name}={brief(seed)} is invalid: must be an integer of at most 4,000 digits"
        )
    return seed


class BatchEngine:
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
        rules = _check_rules(rules)
        n = _check_n(n)
        seed = _check_seed(seed, "seed")
        if type(round) is not int or not 0 <= round < 1 << 62:
            raise ArgumentError(f"round={brief(round)} is invalid: must be an int >= 0")
        if type(auto_reset) is not bool:
            raise ArgumentError(f"auto_reset={brief(auto_reset)} is invalid: must be a bool")
        if rng_seed is not None and (type(rng_seed) is not int or rng_seed < 0):
            raise ArgumentError(f"rng_seed={brief(rng_seed)} is invalid: must be an int >= 0")
        self._setup(rules, n, max(tables(rules).bone0, 0))
        self.round = round
        self.auto_reset = auto_reset
        self.rng = np.random.default_rng(rng_seed)
        self._next_seed = seed
        self.reset()

    # -- storage -------------------------------------------------------------------------------

    def _setup(self, rules: Rules, n: int, bone_width: int) -> None:
        """Allocate the arrays. The round is the last axis of every array (one column per
        round), so that an operation on all rounds runs over contiguous memory; tile sets
        are ``W`` uint64 words (axis -2)."""
        tb = tables(rules)
        self.rules = rules
        self.n = n
        self._tb = tb
        s, v, w, p = tb.S, tb.V, tb.W, tb.P
        self.hands = np.zeros((p, w, n), dtype=np.uint64)
        self.ends = np.zeros((v, w, n), dtype=np.uint64)  # anchors whose line ends in v
        self.mask = np.zeros((w, n), dtype=np.uint64)  # tiles with a legal play
        self.table = np.zeros((w, n), dtype=np.uint64)  # tiles on the table
        self.bone = np.zeros((max(bone_width, 1), n), dtype=np.int16)  # draw order
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
        self.board = np.zeros((s, n), dtype=np.int32)
        self.nboard = np.zeros(n, dtype=np.int64)
        self.plies = np.zeros(n, dtype=np.int64)
        self.seeds: list[int | None] = [None] * n
        self._all = np.arange(n)  # every lane: _sel turns it into a slice

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
        out: Bools = self.result != _ONGOING
        return out

    # -- deals ---------------------------------------------------------------------------------

    def reset(self, seeds: Sequence[int] | None = None) -> None:
        """Deal every round again: with ``seeds`` (one int per round), or the next ``n``
        seeds of the engine's sequence."""
        if seeds is None:
            chosen = list(range(self._next_seed, self._next_seed + self.n))
            self._next_seed += self.n
        else:
            if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__"):
                raise ArgumentError(f"seeds={brief(seeds)} is invalid: must be a sequence of ints")
            if len(seeds) != self.n:
                raise ArgumentError(
                    f"seeds has {len(seeds)} items: must have one per round ({self.n})"
                )
            given: list[Any] = list(seeds)
            chosen = [
                _check_seed(operator.index(x) if isinstance(x, np.integer) else x, f"seeds[{i}]")
                for i, x in enumerate(given)
            ]
        if self.bone.shape[0] < max(self._tb.bone0, 1):
            self.bone = np.zeros((max(self._tb.bone0, 1), self.n), dtype=np.int16)
        self._deal(np.arange(self.n), chosen)

    def _take_seeds(self, k: int) -> list[int]:
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
        if order is None:
            order = shuffled_many(rules, seeds, self.round)  # (k, dealt) tile ids
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
        self.result[g] = _ONGOING
        if nb == 0:
            self._check_blocked(g)
        for j, lane in enumerate(g.tolist()):
            self.seeds[lane] = seeds[j]

    # -- rules, vectorized -------------------------------------------------------------------
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

    def _apply(
        self,
        g: I64,
        kind: Any,
        t: I64,
        a: I64,
        hand: U64 | None = None,
        end: tuple[I64, U64] | None = None,
    ) -> I64:
        """Make the moves: ``kind`` 0 plays tile ``t`` on anchor ``a`` (-1: none), 1 draws,
        2 passes. Trusted: the moves are legal. Returns the rounds that ended.

        ``hand``: the hands of the seats to act, if read already; ``end``: ``(v, ends)``
        with ``v`` the number each open play is matched on and ``ends`` the rows
        ``self.ends[v]``, if read already (``v`` may be anything in other rounds).

        Every array is updated across all rounds ``g`` at once, with the moves that do not
        touch a field leaving it as it was (an empty set xor-ed in, a zero added): numpy's
        whole-array operations cost less than selecting the rounds each kind of move
        touches."""
        sl = self._sel(g)
        tb, rules = self._tb, self.rules
        n, none = self.n, tb.S
        play = kind == 0
        drw = kind == 1
        self.plies[sl] += 1
        turn = self.turn[sl]
        # a draw puts the boneyard's next tile in the hand, a play takes its tile out
        bp = self.bpos[sl]
        top = self.bone.reshape(-1)[np.minimum(bp, self.bone.shape[0] - 1) * n + g]
        tile = np.where(drw, top, -1)
        self.drawn[sl] = tile
        self.bpos[sl] = bp + drw
        moved = cols(tb.BITT, np.where(play, t, np.where(drw, tile, none)))
        if hand is None:
            hand = self._rows(self.hands, turn, g)
        h = hand ^ moved
        self._set_rows(self.hands, turn, g, h)
        if play.any():  # plays
            tp = np.where(play, t, 0)  # (tile 0 where no tile is played: looked up, unused)
            nb = self.nboard[sl]  # below S in every round in play: the row is free
            self.board.reshape(-1)[nb * n + g] = (tp << 16) + a + 1
            self.nboard[sl] = nb + play
            zero = np.uint64(0)
            self.table[:, sl] |= np.where(play, moved, zero)
            x, y = tb.PX[tp], tb.PY[tp]
            pending, need, nums = self.pending[sl], self.need[sl], self.nums[sl]
            centre_laid = play & (a < 0)
            placed = play & (a >= 0)
            toe = placed & (pending >= 0)
            opn = placed & (pending < 0)
            dbl = x == y
            if end is None:  # an open play covers the end of anchor a: on number x or y
                a0 = np.maximum(a, 0)
                ends_x = self._rows(self.ends, x, g)
                if tb.W == 1:
                    on_x = ((ends_x[0] >> a0.astype(np.uint64)) & np.uint64(1)).astype(bool)
                else:
                    on_x = _bit(ends_x, a0, np.arange(len(g)))
                v = np.where(on_x, x, y)
                ends_v = self._rows(self.ends, v, g)
            else:
                v, ends_v = end
            # the number a toe is matched on is its hub's; the tile's other number opens
            o = x + y - np.where(toe, tb.PX[np.maximum(pending, 0)], v)
            ev = ends_v ^ cols(tb.BITT, np.where(opn, a, none))
            self._set_rows(self.ends, v, g, ev)
            nums = nums ^ np.where(opn & ~ev.any(axis=0), 1 << v, 0)
            grow = toe | (opn & ~dbl)  # a new open end, number o, anchor t
            grown = self._rows(self.ends, o, g) | np.where(grow, moved, zero)
            self._set_rows(self.ends, o, g, grown)
            nums = nums | np.where(grow, 1 << o, 0)
            need = np.where(toe, need - 1, need)
            served = toe & (need == 0)
            new_hub = centre_laid | (opn & dbl)
            pending = np.where(served, -1, np.where(new_hub, tp, pending))
            need = np.where(
                centre_laid, rules.opening_toes, np.where(opn & dbl, rules.foot_toes, need)
            )
            recompute = served | (opn & ~dbl)
            mask = cols(self.mask, sl)
            mask = np.where(recompute, tb.union_t(nums), mask)
            mask = np.where(new_hub, cols(tb.WITHT, x), mask)
            self.pending[sl], self.need[sl], self.nums[sl] = pending, need, nums
            self.mask[:, sl] = mask
            out = play & ~h.any(axis=0)
            if out.any():
                self.result[g[out]] = turn[out]
        # the turn passes (a pass, or a play that did not end the round)
        result = self.result[sl]
        nxt = (kind == 2) | ((kind == 0) & (result == _ONGOING))
        turn = self.turn[sl] + nxt
        turn[turn == tb.P] = 0
        self.turn[sl] = turn
        empty = nxt & (self.bpos[sl] >= self.bend[sl])
        if empty.any():
            self._check_blocked(g[empty])
            result = self.result[sl]
        ended: I64 = g[result != _ONGOING]
        return ended

    def _random_moves(self, g: I64) -> tuple[I64, I64, I64]:
        """A uniformly random legal move in each round ``g`` (which must not be over), as
        ``(kind, tile, anchor)`` (tile 0 where ``kind`` is not a play)."""
        kind, t, a, _ = self._choose(g, self._rows(self.hands, self.turn[self._sel(g)], g))
        return kind.astype(np.int64), np.where(kind == 0, t, 0), a

    def _random_step(self, g: I64) -> I64:
        """Make a uniformly random legal move in each round ``g`` (none over); returns the
        rounds that ended (:meth:`_choose`, then :meth:`_apply` with what it read).

        Forced moves around it are made in the same step: a seat with nothing to play, no
        tile drawn and tiles in the boneyard must draw, so it draws first (and then chooses
        among the drawn tile's plays and what else is legal); a draw whose tile cannot be
        played leaves the pass as the only legal move (with ``draw="one"``, or an empty
        boneyard), so it passes."""
        sl = self._sel(g)
        tb, n = self._tb, self.n
        turn = self.turn[sl]
        hand = self._rows(self.hands, turn, g)
        cand = self._candidates(g, hand)
        d, bp = self.drawn[sl], self.bpos[sl]
        must = ~cand.any(axis=0) & (d < 0) & (bp < self.bend[sl])
        if must.any():  # the forced draw
            top = self.bone.reshape(-1)[np.minimum(bp, self.bone.shape[0] - 1) * n + g]
            hand = hand | cols(tb.BITT, np.where(must, top, tb.S))
            self._set_rows(self.hands, turn, g, hand)
            self.drawn[sl] = np.where(must, top, d)
            self.bpos[sl] = bp + must
            self.plies[sl] += must
            cand = self._candidates(g, hand)
        kind, t, a, end = self._choose(g, hand, cand)
        ended = self._apply(g, kind, t, a, hand, end)
        d = self.drawn[sl]
        forced = (d >= 0) & ~(cols(tb.BITT, d) & cols(self.mask, sl)).any(axis=0)
        if self.rules.draw != "one":
            forced &= self.bpos[sl] >= self.bend[sl]
        if forced.any():
            return self._pass(g, forced)
        return ended

    def _pass(self, g: I64, forced: Bools) -> I64:
        """Pass in the rounds ``g[forced]`` (none over, each to pass); returns the rounds of
        ``g`` that are over."""
        sl = self._sel(g)
        self.plies[sl] += forced
        self.drawn[sl] = np.where(forced, -1, self.drawn[sl])
        turn = self.turn[sl] + forced
        turn[turn == self._tb.P] = 0
        self.turn[sl] = turn
        empty = forced & (self.bpos[sl] >= self.bend[sl])
        if empty.any():
            self._check_blocked(g[empty])
        ended: I64 = g[self.result[sl] != _ONGOING]
        return ended

    def _choose(
        self, g: I64, hand: U64, cand: U64 | None = None
    ) -> tuple[Any, I64, I64, tuple[I64, U64]]:
        """A uniformly random legal move in each round ``g`` (none over; ``hand``: the hands
        of the seats to act, ``cand``: their :meth:`_candidates` if known) as
        ``(kind, tile, anchor, (v, ends[v]))``: ``kind`` 0 plays,
        1 draws, 2 passes (int8); the tile is junk where ``kind`` is not 0; ``v`` is the
        number an open play is matched on (junk elsewhere).

        The moves are counted (per open number ``v``: tiles showing ``v`` times open ends at
        ``v``), one is drawn, then found by number, tile index and anchor index (the k-th
        set bit of a word)."""
        sl = self._sel(g)
        tb, rules = self._tb, self.rules
        k = len(g)
        if cand is None:
            cand = self._candidates(g, hand)  # (W, k)
        has = cand.any(axis=0)
        d = self.drawn[sl]
        bone_left = self.bpos[sl] < self.bend[sl]
        pending = self.pending[sl]
        laid = self.nboard[sl] > 0
        until = rules.draw == "until_playable"
        # 0 (play) with a playable tile, else 1 (draw) if one may draw, else 2 (pass)
        stuck = ~has
        kind = stuck.view(np.int8) * np.int8(2) - (stuck & bone_left & ((d < 0) | until)).view(
            np.int8
        )
        if rules.may_draw_instead:
            extra: Any = np.where(d < 0, bone_left & laid, rules.drawn_tile == "may_play")
        elif rules.drawn_tile == "may_play":
            extra = d >= 0
        else:
            extra = None
        ec = self._open_counts(sl)  # (V, k)
        # (V, k) in int16: moves per open number, and their running sums
        per_v = popcount_small(tb.WITHT[:, :, None] & cand[:, None, :], axis=0) * ec
        cum = cumsum_rows(per_v)
        toe = pending >= 0
        total = np.where(toe, popcount(cand, axis=0), np.where(laid, cum[-1], 1))
        n_moves = total if extra is None else total + extra
        r = (self.rng.random(k) * n_moves).astype(np.int64)
        if extra is not None:
            is_extra = has & (r == total)
            kind = np.where(is_extra, np.where(d < 0, 1, 2), kind).astype(np.int8)
        play = kind == 0
        opn = play & laid & ~toe
        vsel = np.minimum(np.count_nonzero(cum <= r.astype(cum.dtype), axis=0), tb.V - 1)
        flat = vsel * k + np.arange(k)
        ca = np.maximum(ec.reshape(-1)[flat], 1)
        q, rem = np.divmod(r - (cum.reshape(-1)[flat] - per_v.reshape(-1)[flat]), ca)
        # an open play: tile q among those showing vsel, anchor rem among the ends at vsel;
        # a toe: tile r of the candidates
        t = kth_bit(np.where(opn, cand & cols(tb.WITHT, vsel), cand), np.where(opn, q, r))
        ends_v = self._rows(self.ends, vsel, g)
        a = np.where(opn, kth_bit(ends_v, rem), np.where(toe, pending, -1))
        return kind, t, a, (vsel, ends_v)

    # -- the public steps ----------------------------------------------------------------------

    def legal_mask(self) -> Bools:
        """``(n, num_actions)`` booleans: True for each legal move of each round, in the
        encoding's action space (a finished round's row is all False)."""
        return self._legal_mask(np.arange(self.n))

    def _legal_mask(self, lanes: I64) -> Bools:
        """The legal masks of rounds ``lanes``, one row each."""
        tb, rules = self._tb, self.rules
        out = np.zeros((len(lanes), tb.A), dtype=bool)
        li = np.nonzero(self.result[lanes] == _ONGOING)[0]  # rows of out
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
        g = np.nonzero(self.result == _ONGOING)[0]
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

    def _check_actions(self, actions: Any, lanes: I64 | None = None) -> tuple[I64, I64, I64, I64]:
        """Validate ``actions`` for every round in play (nothing changes); returns the rounds
        to step and their moves as ``(g, kind, tile, anchor)``."""
        tb, rules = self._tb, self.rules
        if not isinstance(actions, np.ndarray):
            if isinstance(actions, (list, tuple)) and all(type(x) is int for x in actions):
                actions = np.array(actions, dtype=np.int64) if actions else np.zeros(0, np.int64)
            else:
                raise ArgumentError(
                    f"actions={brief(actions)} is invalid: must be a numpy integer array of "
                    f"shape ({self.n},)"
                )
        if actions.dtype == np.bool_ or not np.issubdtype(actions.dtype, np.integer):
            raise ArgumentError(f"actions has dtype {actions.dtype}: must be an integer dtype")
        if lanes is None:
            if actions.shape != (self.n,):
                raise ArgumentError(
                    f"actions has shape {actions.shape}: must be ({self.n},), one per round"
                )
            g = np.nonzero(self.result == _ONGOING)[0]
            act = actions[g].astype(np.int64)
            if len(g) == self.n:
                g = self._all
        else:
            g = lanes
            act = actions.astype(np.int64)
            actions = np.zeros(self.n, dtype=np.int64)
            actions[g] = act
        bad = (act < 0) | (act >= tb.A)
        if bad.any():
            i = int(g[np.argmax(bad)])
            raise ArgumentError(
                f"actions[{i}]={int(actions[i])} is invalid: must be from 0 to {tb.A - 1}"
            )
        is_draw, is_pass = act == tb.DRAW, act == tb.PASS
        is_play = ~is_draw & ~is_pass
        t = np.where(is_play, act // tb.slots, 0)
        slot = np.where(is_play, act % tb.slots, 0)
        anc = np.where(is_play, tb.ANCH[t, slot], -1)
        nameless = is_play & (anc == -2)
        if nameless.any():
            i = int(g[np.argmax(nameless)])
            tb.enc.move(int(actions[i]))  # raises ArgumentError naming the action
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
        has_t = _bit(cand, t, rows)
        ax = self._rows(self.ends, tb.PX[t], g) | self._rows(self.ends, tb.PY[t], g)
        on_end = _bit(ax, np.maximum(anc, 0), rows)
        where_ok = np.where(
            pending >= 0, anc == pending, np.where(laid, (anc >= 0) & on_end, anc == -1)
        )
        play_ok = has_t & where_ok
        ok = np.where(is_draw, draw_ok, np.where(is_pass, pass_ok, play_ok))
        if not ok.all():
            i = int(g[np.argmin(ok)])
            move = tb.enc.move(int(actions[i]))
            try:
                apply(self.to_state(i), move)
            except IllegalMoveError as err:
                raise IllegalMoveError(f"actions[{i}]={int(actions[i])}: {err}") from None
            raise AssertionError(
                f"internal: {move} judged illegal in round {i}"
            )  # pragma: no cover
        kind = np.where(is_draw, 1, np.where(is_pass, 2, 0))
        return g, kind, t, anc

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
        """
        g, kind, t, a = self._check_actions(actions)
        ended = self._apply(g, kind, t, a)
        rewards = np.zeros((self.n, self._tb.P), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        if len(ended):
            rewards[ended] = -self._penalties(ended)
            done[ended] = True
            if self.auto_reset:
                self._deal(ended, self._take_seeds(len(ended)))
        return rewards, done

    def _penalties(self, g: I64) -> I64:
        tb = self._tb
        h = self.hands[:, :, g].transpose(2, 0, 1)  # (k, P, W)
        bits = tb.unpack(h)  # (k, P, S)
        out: I64 = bits.astype(np.int64) @ tb.PIP
        return out

    def penalties(self) -> I64:
        """``(n, players)``: each seat's penalty points now (R11), in every round."""
        return self._penalties(np.arange(self.n))

    def outcomes(self) -> I64:
        """``(n,)``: -2 while a round goes on, -1 if it ended blocked, else the seat that
        went out."""
        r = self.result
        out: I64 = np.where(r == _ONGOING, -2, np.where(r == self._tb.P, -1, r))
        return out

    # -- observations ------------------------------------------------------------------------

    def observe(self, seat: int | None = None) -> NDArray[np.float32]:
        """``(n, observation_size)`` float32: row ``i`` is
        ``Encoding(rules).observe(self.to_state(i).view(seat))``, the view of the seat to act
        by default."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._tb.P):
            raise ArgumentError(
                f"seat={brief(seat)} is invalid: must be None or a seat from 0 to {self._tb.P - 1}"
            )
        return self._observe(np.arange(self.n), seat)

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
        live = self.result[g] == _ONGOING
        out[rows[live], at("turn") + (turn[live] - me[live]) % p] = 1.0
        return out

    # -- playouts ------------------------------------------------------------------------------

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
        :meth:`step` checks them."""
        if not callable(policy):
            raise ArgumentError(f"policy={brief(policy)} is invalid: must be callable")
        return self._playout(policy, k)

    def _playout(self, policy: Policy | None, k: int | None) -> Results:
        if k is not None and (type(k) is not int or not 0 <= k <= 1 << 40):
            raise ArgumentError(f"k={brief(k)} is invalid: must be None or an int >= 0")
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
            queue = _DealQueue(self, seeds)
            self._deal(lanes, seeds[:handed], queue.take(handed))
        slot_of = np.arange(self.n)  # lane -> index of its round in the results
        out = np.full(total, -1, dtype=np.int64)
        pens = np.zeros((total, p), dtype=np.int64)
        plies = np.zeros(total, dtype=np.int64)
        over = self.result[lanes] != _ONGOING
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
                over = self.result[again] != _ONGOING
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
                live = live[self.result[live] == _ONGOING]
        return Results(seeds, out, pens, plies)

    def _core_playout(self, k: int | None) -> Results:
        """:meth:`random_playout` with the core's :func:`~chickenfoot.playout`, round by
        round (faster below :data:`CORE_BELOW` rounds at once): round ``j`` of ``k`` is
        played in lane ``j % n``; the random choices come from a ``random.Random`` seeded
        by the engine's generator."""
        rng = random.Random(int(self.rng.integers(1 << 62)))
        rules, p = self.rules, self._tb.P
        if k is None:
            seeds = [-1 if x is None else x for x in self.seeds]
            jobs: list[tuple[int, State]] = [(i, self.to_state(i)) for i in range(self.n)]
        else:
            seeds = self._take_seeds(k)
            jobs = [(j % self.n, deal(rules, x, self.round)) for j, x in enumerate(seeds)]
        out = np.full(len(jobs), -1, dtype=np.int64)
        pens = np.zeros((len(jobs), p), dtype=np.int64)
        plies = np.zeros(len(jobs), dtype=np.int64)
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
            if k is None or j >= len(jobs) - self.n:
                self._load(lane, end)
                self.plies[lane] = plies[j]
                if k is not None:
                    self.seeds[lane] = seeds[j]
        return Results(seeds, out, pens, plies)

    def _policy_moves(self, g: I64, policy: Policy) -> tuple[I64, I64, I64]:
        acts = np.asarray(policy(self._observe(g, None), self._legal_mask(g)))
        if acts.shape != (len(g),):
            raise ArgumentError(
                f"the policy returned {brief(acts)}: must be an array of shape ({len(g)},)"
            )
        _, kind, t, a = self._check_actions(acts, g)
        return kind, t, a

    # -- conversion ----------------------------------------------------------------------------

    def to_state(self, i: int) -> State:
        """Round ``i`` as a core :class:`~chickenfoot.State` (equal to the state the core API
        reaches with the same moves; its history starts here, as a read position's)."""
        index: Any = i
        if isinstance(index, np.integer):
            i = int(index)
        if type(i) is not int or not 0 <= i < self.n:
            raise ArgumentError(f"i={brief(i)} is invalid: must be a round from 0 to {self.n - 1}")
        tb = self._tb
        w = tb.W
        nb = int(self.nboard[i])
        board = tuple(play_by_ids(x >> 16, (x & 0xFFFF) - 1) for x in self.board[:nb, i].tolist())
        hands = tuple(int_of(self.hands[s, :, i]) for s in range(tb.P))
        bone = tuple(int(x) for x in self.bone[int(self.bpos[i]) : int(self.bend[i]), i])
        ends = tuple(int_of(self.ends[v, :, i]) for v in range(tb.V))
        res = int(self.result[i])
        outcome: Outcome | None
        if res == _ONGOING or res > tb.P:
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

        ``seed`` and ``round`` set the deals of later :meth:`reset`\\ s and re-deals."""
        given: Any = states
        if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
            raise ArgumentError(f"states={brief(states)} is invalid: must be a sequence of States")
        if not 1 <= len(states) <= MAX_GAMES:
            raise ArgumentError(
                f"states has {len(states)} items: must have from 1 to {MAX_GAMES:,}"
            )
        n = len(states)
        for j, s in enumerate(states):
            if not isinstance(s, State):
                raise ArgumentError(f"states[{j}]={brief(s)} is invalid: must be a State")
        rules = states[0].rules
        for j, s in enumerate(states):
            if s.rules != rules:
                raise ArgumentError(f"states[{j}] has other rules than states[0]")
        seed = _check_seed(seed, "seed")
        eng = cls.__new__(cls)
        width = max(tables(rules).bone0, *(len(s._bone) for s in states))
        eng._setup(rules, n, width)
        eng.round = round
        eng.auto_reset = auto_reset
        eng.rng = np.random.default_rng(rng_seed)
        eng._next_seed = seed
        for i, s in enumerate(states):
            eng._load(i, s)
        return eng

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
            self.result[i] = _ONGOING
        elif o.termination is Termination.BLOCKED:
            self.result[i] = tb.P
        else:
            assert o.seat is not None
            self.result[i] = o.seat


class _DealQueue:
    """The shuffles of a list of seeds, made in large blocks (a vectorized shuffle costs
    about the same for one seed as for a thousand) and handed out in order."""

    def __init__(self, engine: BatchEngine, seeds: list[int]) -> None:
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
            fresh = shuffled_many(
                self.engine.rules, self.seeds[self.made : self.made + size], self.engine.round
            )
            self.buffer = np.concatenate([self.buffer[self.buffer.shape[0] - left :], fresh])
            self.made += size
            left += size
        start = self.buffer.shape[0] - left
        out: I64 = self.buffer[start : start + m]
        self.used += m
        return out


def _bit(words: U64, t: I64, cols: I64) -> Bools:
    """Whether tile ``t[j]`` is in the set ``words[:, j]`` (``words`` is ``(W, k)``)."""
    word = words[t // 64, cols]
    out: Bools = ((word >> (t % 64).astype(np.uint64)) & np.uint64(1)).astype(bool)
    return out


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
