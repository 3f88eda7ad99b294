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
whether the board holds a tile. A slot of ``table`` (uint64, one row each, so that a probe
reads one place) is its stamp, its key and its value, one word per seat; it belongs to this
search when its stamp is ``stamp``.

Out: ``out[i]`` the vector of root move ``i`` and ``codes[i]`` the move (kind 0 play, 1 draw,
2 pass; tile; anchor, -1 for the centre). Returns the nodes visited, ``budget + 1`` when the
search needed more than ``budget``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import cttz
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
    return np.int64(cttz(x))


@njit(cache=True, _nrt=False, inline="always")
def start(st, hw, mw, cw, aw, xk, d, nb, cf, w_):
    """Ready frame ``d`` (its position in the working arrays) to list its moves: the
    candidate tiles into ``cw[d]``, no anchors left, and ``xk[d]`` the move after the
    plays (0 none, 1 draw, 2 pass)."""
    d_ = st[DRAWN]
    seat = st[TURN]
    has = False
    for w in range(w_):
        c = hw[seat * w_ + w] & mw[w]
        if d_ >= 0:
            c &= (ONE << np.uint64(d_ & 63)) if (d_ >> 6) == w else ZERO
        cw[d, w] = c
        aw[d, w] = ZERO
        if c != ZERO:
            has = True
    if not has:
        xk[d] = 1 if st[BPOS] < nb and (d_ < 0 or cf[C_UNTIL]) else 2
    elif d_ < 0:
        xk[d] = 1 if st[BPOS] < nb and cf[C_MDI] and st[LAID] else 0
    else:
        xk[d] = 2 if cf[C_MAYPLAY] else 0


@njit(cache=True, _nrt=False, inline="always")
def next_move(sst, sew, cw, aw, cur, xk, d, px, py, w_):
    """Frame ``d``'s next move in legal order ``(kind, tile, anchor)``; kind -1: no more
    (``sst``, ``sew``: the frames' saved scalars and open ends)."""
    while True:
        for w in range(w_):
            if aw[d, w] != ZERO:
                a = w * 64 + low_bit(aw[d, w])
                aw[d, w] &= aw[d, w] - ONE
                return 0, cur[d], a
        t = -1
        for w in range(w_):
            if cw[d, w] != ZERO:
                t = w * 64 + low_bit(cw[d, w])
                cw[d, w] &= cw[d, w] - ONE
                break
        if t < 0:
            break
        if sst[d, PEND] >= 0:
            return 0, t, sst[d, PEND]
        if not sst[d, LAID]:
            return 0, t, -1
        cur[d] = t
        x, y = px[t], py[t]
        for u in range(w_):
            aw[d, u] = sew[d, x * w_ + u] | sew[d, y * w_ + u]
    k = xk[d]
    xk[d] = 0
    if k > 0:
        return k, -1, -1
    return -1, -1, -1


@njit(cache=True, _nrt=False, inline="always")
def make_key(st, hw, ew, loww, kws, d, p_, w_, v_):
    """The position's key into ``kws[d]``; returns its hash."""
    n = p_ * w_
    for j in range(n):
        kws[d, j] = hw[j]
    for w in range(w_):
        anchors = ZERO
        side = ZERO
        for v in range(v_):
            e = ew[v * w_ + w]
            anchors |= e
            side |= e & loww[v, w]
        kws[d, n + w] = anchors
        kws[d, n + w_ + w] = side
    word = (
        st[TURN]
        | ((st[DRAWN] + 1) << 8)
        | ((st[PEND] + 1) << 16)
        | (st[NEED] << 24)
        | (st[BPOS] << 32)
        | (st[LAID] << 48)
    )
    kws[d, n + 2 * w_] = np.uint64(word)
    h = SEED
    for j in range(n + 2 * w_ + 1):
        h = (h ^ kws[d, j]) * MIX1
        h ^= h >> np.uint64(29)
    h = (h ^ (h >> np.uint64(32))) * MIX2
    return h ^ (h >> np.uint64(29))


@njit(cache=True, _nrt=False, inline="always")
def find(table, stamp, kws, d, h, mask):
    """The slot holding key ``kws[d]`` (``slot, True``) or the empty slot it would take."""
    slot = np.int64(h & np.uint64(mask))
    width = kws.shape[1]
    while table[slot, 0] == stamp:
        same = True
        for j in range(width):
            if table[slot, 1 + j] != kws[d, j]:
                same = False
                break
        if same:
            return slot, True
        slot = (slot + 1) & mask
    return slot, False


@njit(cache=True, _nrt=False, inline="always")
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
          table, stamp, out, codes):  # fmt: skip
    """The search (module docstring). The position being worked on is in ``hw``, ``ew``,
    ``mw`` and ``st``; each frame's own is saved in the rows ``d`` of ``shw``... and
    copied back before each of its moves is made."""
    p_, w_, v_ = cf[C_P], cf[C_W], cf[C_V]
    nb = bone.shape[0]
    nh, ne = p_ * w_, v_ * w_
    kwid = nh + 2 * w_ + 1
    mask = table.shape[0] - 1
    stamp = np.uint64(stamp)
    cap = cf[C_CAP]
    hw = np.empty(nh, dtype=np.uint64)
    ew = np.empty(ne, dtype=np.uint64)
    mw = np.empty(w_, dtype=np.uint64)
    st = np.empty(8, dtype=np.int64)
    shw = np.empty((depth, nh), dtype=np.uint64)
    sew = np.empty((depth, ne), dtype=np.uint64)
    smw = np.empty((depth, w_), dtype=np.uint64)
    sst = np.empty((depth, 8), dtype=np.int64)
    cw = np.empty((depth, w_), dtype=np.uint64)
    aw = np.empty((depth, w_), dtype=np.uint64)
    cur = np.zeros(depth, dtype=np.int64)
    xk = np.zeros(depth, dtype=np.int64)
    best = np.zeros((depth, p_), dtype=np.int64)
    has = np.zeros(depth, dtype=np.bool_)
    kws = np.empty((depth, kwid), dtype=np.uint64)
    hs = np.empty(depth, dtype=np.uint64)
    ret = np.empty(p_, dtype=np.int64)
    for j in range(nh):
        hw[j] = bits[j]
    for j in range(ne):
        ew[j] = bits[nh + j]
    for j in range(w_):
        mw[j] = bits[nh + ne + j]
    for j in range(6):
        st[j] = sc[j]
    st[BPOS] = 0
    st[RES] = -1
    d = 0
    save(hw, ew, mw, st, shw, sew, smw, sst, d, nh, ne, w_)
    start(st, hw, mw, cw, aw, xk, d, nb, cf, w_)
    nodes = 1
    stored = 0
    found = 0
    back = False  # whether ``ret`` holds a child's value for frame ``d``
    while d >= 0:
        if back:
            back = False
            me = sst[d, TURN]
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
                xk[d] = 0
        kind, t, a = next_move(sst, sew, cw, aw, cur, xk, d, px, py, w_)
        if kind < 0:  # the frame is done: its value goes up
            for s in range(p_):
                ret[s] = best[d, s]
            if d > 0 and stored < cap:
                slot, _ = find(table, stamp, kws, d, hs[d], mask)
                table[slot, 0] = stamp
                for j in range(kwid):
                    table[slot, 1 + j] = kws[d, j]
                for s in range(p_):
                    table[slot, 1 + kwid + s] = np.uint64(ret[s])
                stored += 1
            d -= 1
            back = True
            continue
        if d == 0:
            codes[found, 0] = kind
            codes[found, 1] = t
            codes[found, 2] = a
        for j in range(nh):  # the frame's position, to make this move in
            hw[j] = shw[d, j]
        for j in range(ne):
            ew[j] = sew[d, j]
        for j in range(w_):
            mw[j] = smw[d, j]
        for j in range(8):
            st[j] = sst[d, j]
        if kind == 0:
            play(st, hw, ew, mw, withw, px, py, cf, t, a, nb)
        elif kind == 1:
            draw(st, hw, bone, w_)
        else:
            end_turn(st, hw, mw, cf, nb)
        nodes += 1
        if nodes > budget:
            return nodes
        back = True
        if st[RES] >= 0:
            penalties(hw, val, ret, p_, w_)
            continue
        c = d + 1
        h = make_key(st, hw, ew, loww, kws, c, p_, w_, v_)
        slot, hit = find(table, stamp, kws, c, h, mask)
        if hit:
            for s in range(p_):
                ret[s] = np.int64(table[slot, 1 + kwid + s])
            continue
        back = False
        d = c
        hs[d] = h
        has[d] = False
        save(hw, ew, mw, st, shw, sew, smw, sst, d, nh, ne, w_)
        start(st, hw, mw, cw, aw, xk, d, nb, cf, w_)
    return nodes


@njit(cache=True, _nrt=False, inline="always")
def save(hw, ew, mw, st, shw, sew, smw, sst, d, nh, ne, w_):
    """Frame ``d``'s position: the working arrays, copied into its rows."""
    for j in range(nh):
        shw[d, j] = hw[j]
    for j in range(ne):
        sew[d, j] = ew[j]
    for j in range(w_):
        smw[d, j] = mw[j]
    for j in range(8):
        sst[d, j] = st[j]
