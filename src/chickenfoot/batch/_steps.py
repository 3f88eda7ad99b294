"""The rules of the batched engine, vectorized: make moves, choose random ones.

Each function of a step reads and writes whole rows of the :class:`~._store.Store` arrays
(one column per round), so one call moves every round given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._store import ONGOING, Store
from ._tables import bit_of, cols, cumsum_rows, kth_bit, popcount, popcount_small

if TYPE_CHECKING:
    from numpy.typing import NDArray

    U64 = NDArray[np.uint64]
    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]


class Steps(Store):
    """Moves made and chosen across many rounds at once (trusted: the moves are legal)."""

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
        if self._ck is not None:
            return self._ck.apply(self, g, kind, t, a)
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
                    on_x = bit_of(ends_x, a0, np.arange(len(g)))
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
        nxt = (kind == 2) | ((kind == 0) & (result == ONGOING))
        turn = self.turn[sl] + nxt
        turn[turn == tb.P] = 0
        self.turn[sl] = turn
        empty = nxt & (self.bpos[sl] >= self.bend[sl])
        if empty.any():
            self._check_blocked(g[empty])
            result = self.result[sl]
        ended: I64 = g[result != ONGOING]
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
        ended: I64 = g[self.result[sl] != ONGOING]
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
