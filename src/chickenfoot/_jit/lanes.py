"""The batched engine's calls compiled with numba, over many lanes (see :mod:`.rules`):
masks, legal action ids, observations, action checks, moves and random actions (the
playouts and random steps are in :mod:`.local`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    BEND,
    BPOS,
    C_A,
    C_DRAW,
    C_MAYPLAY,
    C_MDI,
    C_P,
    C_PASS,
    C_SLOTS,
    C_UNTIL,
    C_V,
    C_W,
    CENTRE,
    DRAWN,
    NBOARD,
    NEED,
    PEND,
    RESULT,
    TABLE,
    TURN,
    ZERO,
    E,
    H,
    action_of,
    any_cand,
    apply_move,
    cand,
    choose,
    has_bit,
    kth_word,
    penalty,
    popc,
)

# -- the rules are inlined into each entry point below (a call that passes the store's
# arrays costs more than a move); the playouts are in .local


@njit(cache=True, _nrt=False, inline="always")
def legal_row(st, cf, tb, i, row):
    """The legal action ids of round ``i`` into ``row`` (unsorted); returns how many."""
    if st[RESULT][i] != -1:
        return 0
    n = 0
    w_, slots = cf[C_W], cf[C_SLOTS]
    d = st[DRAWN][i]
    bone_left = st[BPOS][i] < st[BEND][i]
    laid = st[NBOARD][i] > 0
    if not any_cand(st, cf, i):
        if bone_left and (d < 0 or cf[C_UNTIL]):
            row[0] = cf[C_DRAW]
        else:
            row[0] = cf[C_PASS]
        return 1
    if cf[C_MDI] and d < 0 and bone_left and laid:
        row[n] = cf[C_DRAW]
        n += 1
    if cf[C_MAYPLAY] and d >= 0:
        row[n] = cf[C_PASS]
        n += 1
    pend = st[PEND][i]
    if not laid:
        row[n] = st[CENTRE][i] * slots
        return n + 1
    for w in range(w_):
        c = cand(st, i, w)
        while c != ZERO:
            t = w * 64 + kth_word(c, 0)
            c &= c - np.uint64(1)
            if pend >= 0:
                row[n] = t * slots + tb[4][t, pend]
                n += 1
                continue
            x, y = tb[1][t], tb[2][t]
            for k in range(1 if x == y else 2):
                v = x if k == 0 else y
                for ww in range(w_):
                    e = st[E][i, v, ww]
                    while e != ZERO:
                        a = ww * 64 + kth_word(e, 0)
                        e &= e - np.uint64(1)
                        row[n] = t * slots + tb[4][t, a]
                        n += 1
    return n


@njit(cache=True, _nrt=False)
def legal_masks(st, cf, tb, sc, lanes, out):
    row = sc[4]
    for r in range(lanes.shape[0]):  # out is uninitialised: each row is cleared here
        for j in range(out.shape[1]):
            out[r, j] = False
        k = legal_row(st, cf, tb, lanes[r], row)
        for j in range(k):
            out[r, row[j]] = True


@njit(cache=True, _nrt=False)
def legal_counts(st, cf, tb, sc, lanes, counts):
    row = sc[4]
    for r in range(lanes.shape[0]):
        counts[r] = legal_row(st, cf, tb, lanes[r], row)


@njit(cache=True, _nrt=False)
def legal_ids(st, cf, tb, sc, lanes, out):
    """The legal action ids of each lane, ascending, padded with -1."""
    row = sc[4]
    for r in range(lanes.shape[0]):
        k = legal_row(st, cf, tb, lanes[r], row)
        for j in range(1, k):  # insertion sort: a few dozen ids at most
            x = row[j]
            q = j - 1
            while q >= 0 and row[q] > x:
                row[q + 1] = row[q]
                q -= 1
            row[q + 1] = x
        for j in range(k):
            out[r, j] = row[j]


@njit(cache=True, _nrt=False)
def observe(st, cf, tb, g, seat, off, out):
    """``Encoding.observe`` of each round ``g[r]`` from ``seat`` (-1: the seat to act);
    ``out`` is uninitialised: each row is cleared here."""
    w_, p, v_ = cf[C_W], cf[C_P], cf[C_V]
    one = np.uint64(1)
    for r in range(g.shape[0]):
        for j in range(out.shape[1]):
            out[r, j] = 0.0
        i = g[r]
        turn = st[TURN][i]
        me = turn if seat < 0 else seat
        for w in range(w_):
            aw = ZERO
            for v in range(v_):
                aw |= st[E][i, v, w]
            for f, words in ((0, st[H][i, me, w]), (1, st[TABLE][i, w]), (2, aw)):
                x = words
                while x != ZERO:
                    out[r, off[f] + w * 64 + kth_word(x, 0)] = 1.0
                    x &= x - one
        for v in range(v_):
            c = 0
            for w in range(w_):
                c += popc(st[E][i, v, w])
            out[r, off[3] + v] = c
        pend = st[PEND][i]
        if pend >= 0:
            out[r, off[4] + pend] = 1.0
            out[r, off[5]] = st[NEED][i]
        out[r, off[6] + tb[1][st[CENTRE][i]]] = 1.0
        d = st[DRAWN][i]
        if d >= 0 and turn == me:
            out[r, off[7] + d] = 1.0
        for s in range(p):
            c = 0
            for w in range(w_):
                c += popc(st[H][i, s, w])
            out[r, off[8] + (s - me) % p] = c
        out[r, off[9]] = st[BEND][i] - st[BPOS][i]
        if st[RESULT][i] == -1:
            out[r, off[10] + (turn - me) % p] = 1.0


@njit(cache=True, _nrt=False)
def check(st, cf, tb, g, act, kind, tile, anc):
    """Judge action ``act[r]`` of round ``g[r]`` (in play) and decode it into ``kind``,
    ``tile``, ``anc``; returns the first row that is not a legal move, or -1."""
    slots = cf[C_SLOTS]
    for r in range(g.shape[0]):
        i, x = g[r], act[r]
        if x < 0 or x >= cf[C_A]:
            return r
        d = st[DRAWN][i]
        bone_left = st[BPOS][i] < st[BEND][i]
        laid = st[NBOARD][i] > 0
        has = any_cand(st, cf, i)
        tile[r] = -1
        anc[r] = -1
        if x == cf[C_DRAW]:
            kind[r] = 1
            if d < 0:
                ok = bone_left and (not has or (cf[C_MDI] and laid))
            else:
                ok = bone_left and not has and cf[C_UNTIL]
        elif x == cf[C_PASS]:
            kind[r] = 2
            if d < 0:
                ok = not bone_left and not has
            elif has:
                ok = cf[C_MAYPLAY] != 0
            else:
                ok = not bone_left or not cf[C_UNTIL]
        else:
            kind[r] = 0
            t, slot = x // slots, x % slots
            a = tb[5][t, slot]
            tile[r] = t
            anc[r] = a
            if a == -2 or cand(st, i, t >> 6) >> np.uint64(t & 63) & np.uint64(1) == ZERO:
                return r
            pend = st[PEND][i]
            if pend >= 0:
                ok = a == pend
            elif laid:
                ok = a >= 0 and (has_bit(st[E], tb[1][t], a, i) or has_bit(st[E], tb[2][t], a, i))
            else:
                ok = a == -1
        if not ok:
            return r
    return -1


@njit(cache=True, _nrt=False)
def apply_moves(st, cf, tb, g, kind, tile, anc, ended):
    """Make the (checked) moves; ``ended[r]`` says whether round ``g[r]`` ended."""
    for r in range(g.shape[0]):
        i = g[r]
        apply_move(st, cf, tb, i, kind[r], tile[r], anc[r])
        ended[r] = st[RESULT][i] != -1


@njit(cache=True, _nrt=False)
def random_actions(st, cf, tb, rs, out):
    for i in range(out.shape[0]):
        if st[RESULT][i] == -1:
            kind, t, a = choose(st, cf, tb, i, rs)
            out[i] = action_of(cf, tb, kind, t, a)
        else:
            out[i] = -1


@njit(cache=True, _nrt=False)
def penalties(st, cf, tb, g, out):
    for r in range(g.shape[0]):
        for s in range(cf[C_P]):
            out[r, s] = penalty(st, tb, g[r], s, cf[C_W])
