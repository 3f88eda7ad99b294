"""The exact solver for open hands compiled with numba (``chickenfoot.solve``, compiled path).

:func:`solve` runs the same search as the pure path of ``chickenfoot.solve``, step for step:
a depth-first max^n over the legal moves in their documented order, each seat keeping the
first move with its lowest final penalty, a seat that finds a penalty of 0 trying nothing
more, and a transposition table that remembers up to ``cf[8]`` positions per search (no
more are stored once it holds that many, as the pure path's dict). It counts the same nodes.

The position is the search kernel's (:mod:`.search`, whose moves it makes): ``bits`` the
hands, the open ends by number and the playable tiles; ``sc`` turn, drawn tile, pending hub,
toes needed, open numbers, whether the board holds a tile, the centre; ``bone`` the
boneyard, front first; tables ``px``, ``py``, ``val``, ``withw`` and ``loww`` ``(V, W)``, the
non-doubles whose low number is ``v``; ``cf`` players, words, numbers, ``until_playable``,
``may_draw_instead``, ``may_play``, opening toes, foot toes, the table's capacity.

A table key (``P * W + 2 * W + 1`` words): the hands, the anchors, which anchors show their
low number, and a word of turn, drawn tile, pending hub, toes needed, boneyard position and
whether the board holds a tile. A slot belongs to this search when its stamp is ``stamp``.

Out: ``out[i]`` the vector of root move ``i`` and ``codes[i]`` the move (kind 0 play, 1 draw,
2 pass; tile; anchor, -1 for the centre). Returns the nodes visited, ``budget + 1`` when the
search needed more than ``budget``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import _cttz
from .search import (
    BPOS,
    C_FTOES,
    C_MAYPLAY,
    C_MDI,
    C_P,
    C_UNTIL,
    C_V,
    C_W,
    DRAWN,
    LAID,
    NEED,
    PEND,
    RES,
    TURN,
    candidates,
    draw,
    end_turn,
    play,
)

ZERO = np.uint64(0)
ONE = np.uint64(1)
MIX1 = np.uint64(0xBF58_476D_1CE4_E5B9)
MIX2 = np.uint64(0x94D0_49BB_1331_11EB)
SEED = np.uint64(0x9E37_79B9_7F4A_7C15)
C_CAP = 8
_ = C_FTOES  # (the kernel's cf layout: positions 0-7 as .search's)


@njit(cache=True, _nrt=False, inline="always")
def low_bit(x):
    return np.int64(_cttz(x))


@njit(cache=True, _nrt=False)
def start(st, hw, mw, cw, aw, xk, nb, cf, w_):
    """Ready the frame of a position to list its moves: the candidate tiles into ``cw``,
    no anchors left, and ``xk[0]`` the move after the plays (0 none, 1 draw, 2 pass)."""
    has = candidates(st, hw, mw, cw, w_)
    for w in range(w_):
        aw[w] = ZERO
    if not has:
        xk[0] = 1 if st[BPOS] < nb and (st[DRAWN] < 0 or cf[C_UNTIL]) else 2
    elif st[DRAWN] < 0:
        xk[0] = 1 if st[BPOS] < nb and cf[C_MDI] and st[LAID] else 0
    else:
        xk[0] = 2 if cf[C_MAYPLAY] else 0


@njit(cache=True, _nrt=False)
def next_move(st, ew, cw, aw, cur, xk, px, py, w_):
    """The frame's next move in legal order ``(kind, tile, anchor)``; kind -1: no more."""
    while True:
        for w in range(w_):
            if aw[w] != ZERO:
                a = w * 64 + low_bit(aw[w])
                aw[w] &= aw[w] - ONE
                return 0, cur[0], a
        t = -1
        for w in range(w_):
            if cw[w] != ZERO:
                t = w * 64 + low_bit(cw[w])
                cw[w] &= cw[w] - ONE
                break
        if t < 0:
            break
        if st[PEND] >= 0:
            return 0, t, st[PEND]
        if not st[LAID]:
            return 0, t, -1
        cur[0] = t
        x, y = px[t], py[t]
        for u in range(w_):
            aw[u] = ew[x * w_ + u] | ew[y * w_ + u]
    k = xk[0]
    xk[0] = 0
    if k > 0:
        return k, -1, -1
    return -1, -1, -1


@njit(cache=True, _nrt=False)
def make_key(st, hw, ew, loww, kw, p_, w_, v_):
    """The position's key into ``kw``; returns its hash."""
    n = p_ * w_
    for j in range(n):
        kw[j] = hw[j]
    for w in range(w_):
        anchors = ZERO
        side = ZERO
        for v in range(v_):
            e = ew[v * w_ + w]
            anchors |= e
            side |= e & loww[v, w]
        kw[n + w] = anchors
        kw[n + w_ + w] = side
    word = (
        st[TURN]
        | ((st[DRAWN] + 1) << 8)
        | ((st[PEND] + 1) << 16)
        | (st[NEED] << 24)
        | (st[BPOS] << 32)
        | (st[LAID] << 48)
    )
    kw[n + 2 * w_] = np.uint64(word)
    h = SEED
    for j in range(n + 2 * w_ + 1):
        h = (h ^ kw[j]) * MIX1
        h ^= h >> np.uint64(29)
    h = (h ^ (h >> np.uint64(32))) * MIX2
    return h ^ (h >> np.uint64(29))


@njit(cache=True, _nrt=False)
def find(keys, stamps, stamp, kw, h, mask):
    """The slot holding key ``kw`` (``slot, True``) or the empty slot it would take."""
    slot = np.int64(h & np.uint64(mask))
    width = kw.shape[0]
    while stamps[slot] == stamp:
        same = True
        for j in range(width):
            if keys[slot, j] != kw[j]:
                same = False
                break
        if same:
            return slot, True
        slot = (slot + 1) & mask
    return slot, False


@njit(cache=True, _nrt=False)
def penalties(hw, val, ret, p_, w_):
    for s in range(p_):
        total = 0
        for w in range(w_):
            h = hw[s * w_ + w]
            while h != ZERO:
                total += val[w * 64 + low_bit(h)]
                h &= h - ONE
        ret[s] = total


@njit(cache=True)
def solve(bits, sc, bone, px, py, val, withw, loww, cf, budget, depth,
          keys, vals, stamps, stamp, out, codes):  # fmt: skip
    """The search (module docstring)."""
    p_, w_, v_ = cf[C_P], cf[C_W], cf[C_V]
    nb = bone.shape[0]
    kwid = p_ * w_ + 2 * w_ + 1
    mask = keys.shape[0] - 1
    cap = cf[C_CAP]
    hw = np.empty((depth, p_ * w_), dtype=np.uint64)
    ew = np.empty((depth, v_ * w_), dtype=np.uint64)
    mw = np.empty((depth, w_), dtype=np.uint64)
    cw = np.empty((depth, w_), dtype=np.uint64)
    aw = np.empty((depth, w_), dtype=np.uint64)
    st = np.empty((depth, 8), dtype=np.int64)
    cur = np.zeros((depth, 1), dtype=np.int64)
    xk = np.zeros((depth, 1), dtype=np.int64)
    best = np.zeros((depth, p_), dtype=np.int64)
    has = np.zeros(depth, dtype=np.bool_)
    kws = np.empty((depth, kwid), dtype=np.uint64)
    hs = np.empty(depth, dtype=np.uint64)
    ret = np.empty(p_, dtype=np.int64)
    for j in range(p_ * w_):
        hw[0, j] = bits[j]
    for j in range(v_ * w_):
        ew[0, j] = bits[p_ * w_ + j]
    for j in range(w_):
        mw[0, j] = bits[(p_ + v_) * w_ + j]
    for j in range(6):
        st[0, j] = sc[j]
    st[0, BPOS] = 0
    st[0, RES] = -1
    start(st[0], hw[0], mw[0], cw[0], aw[0], xk[0], nb, cf, w_)
    nodes = 1
    stored = 0
    found = 0
    d = 0
    back = False  # whether ``ret`` holds a child's value for frame ``d``
    while d >= 0:
        if back:
            back = False
            me = st[d, TURN]
            if not has[d] or ret[me] < best[d, me]:
                has[d] = True
                for s in range(p_):
                    best[d, s] = ret[s]
            if d == 0:
                for s in range(p_):
                    out[found, s] = ret[s]
                found += 1
            elif best[d, me] == 0:  # nothing is lower: later moves could only tie
                for w in range(w_):
                    cw[d, w] = ZERO
                    aw[d, w] = ZERO
                xk[d, 0] = 0
        kind, t, a = next_move(st[d], ew[d], cw[d], aw[d], cur[d], xk[d], px, py, w_)
        if kind < 0:  # the frame is done: its value goes up
            for s in range(p_):
                ret[s] = best[d, s]
            if d > 0 and stored < cap:
                slot, _ = find(keys, stamps, stamp, kws[d], hs[d], mask)
                stamps[slot] = stamp
                for j in range(kwid):
                    keys[slot, j] = kws[d, j]
                for s in range(p_):
                    vals[slot, s] = ret[s]
                stored += 1
            d -= 1
            back = True
            continue
        if d == 0:
            codes[found, 0] = kind
            codes[found, 1] = t
            codes[found, 2] = a
        c = d + 1
        for j in range(p_ * w_):
            hw[c, j] = hw[d, j]
        for j in range(v_ * w_):
            ew[c, j] = ew[d, j]
        for j in range(w_):
            mw[c, j] = mw[d, j]
        for j in range(8):
            st[c, j] = st[d, j]
        if kind == 0:
            play(st[c], hw[c], ew[c], mw[c], withw, px, py, cf, t, a, nb)
        elif kind == 1:
            draw(st[c], hw[c], bone, w_)
        else:
            end_turn(st[c], hw[c], mw[c], cf, nb)
        nodes += 1
        if nodes > budget:
            return nodes
        back = True
        if st[c, RES] >= 0:
            penalties(hw[c], val, ret, p_, w_)
            continue
        h = make_key(st[c], hw[c], ew[c], loww, kws[c], p_, w_, v_)
        slot, hit = find(keys, stamps, stamp, kws[c], h, mask)
        if hit:
            for s in range(p_):
                ret[s] = vals[slot, s]
            continue
        back = False
        hs[c] = h
        has[c] = False
        start(st[c], hw[c], mw[c], cw[c], aw[c], xk[c], nb, cf, w_)
        d = c
    return nodes
