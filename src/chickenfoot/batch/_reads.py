"""The numpy rules of the batched engine's reads: legal masks, action checks, observations.

Each function reads whole rows of the :class:`~._store.Store` arrays (one column per
round); :mod:`chickenfoot._jit.rules` holds the same reads compiled (the ``numba`` backend).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from chickenfoot.errors import ArgumentError, IllegalMoveError
from chickenfoot.state import apply
from chickenfoot.tiles import Tile

from ._convert import state_of
from ._steps import Steps
from ._store import ONGOING
from ._tables import bit_of, popcount

if TYPE_CHECKING:
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]


class Reads(Steps):
    """Legal masks, action checks and observations of many rounds at once (numpy)."""

    def _legal_mask(self, lanes: I64) -> Bools:
        """The legal masks of rounds ``lanes``, one row each."""
        if self._ck is not None:
            return self._ck.legal_mask(self, lanes)
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

    def _actions(self, kind: I64, t: I64, a: I64) -> I64:
        """The action ids of moves given as ``(kind, tile, anchor)``."""
        tb = self._tb
        play = t * tb.slots + tb.SLOT[t, np.where(a < 0, tb.S, a)]
        out: I64 = np.where(kind == 1, tb.DRAW, np.where(kind == 2, tb.PASS, play))
        return out

    def _check_actions(self, act: I64, g: I64, shown: Callable[[int], str]) -> tuple[I64, I64, I64]:
        """Judge the actions ``act`` of the rounds ``g`` (one each, ``int64``) against the
        action space and the rules (nothing changes); returns their moves as
        ``(kind, tile, anchor)``. ``shown(r)`` names item ``r`` and its value in a message.

        The compiled backend judges them in its kernel, and when one is refused these numpy
        checks run to say why, in the same words."""
        if self._ck is not None:
            moves = self._ck.check(self, act, g)
            if moves is not None:
                return moves
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
                apply(state_of(self, int(g[r])), move)
            except IllegalMoveError as err:
                raise IllegalMoveError(f"{shown(r)}: {err}") from None
            raise AssertionError(
                f"internal: {move} judged illegal in round {int(g[r])}"
            )  # pragma: no cover
        if self._ck is not None:  # pragma: no cover - the kernel refused a legal move
            raise AssertionError(f"internal: the compiled checks refused legal actions {act}")
        kind = np.where(is_draw, 1, np.where(is_pass, 2, 0))
        return kind, t, anc

    def _observe(self, g: I64, seat: int | None) -> NDArray[np.float32]:
        if self._ck is not None:
            return self._ck.observe(self, g, seat)
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
