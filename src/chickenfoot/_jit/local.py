"""The playouts, each round played to its end in local state (see :mod:`.rules`).

A round is dealt (:func:`deal_local`, for ``random_playout(k)``) or loaded from its lane
(:func:`load_lane`, for ``random_playout()``) into small working arrays and scalars of
its own, not the store's arrays, so that its state stays in registers and a few cache lines
for the length of its playout (:func:`play_local`); then its result is recorded and the
round goes back to its lane (a new round only if no later round of the playout takes that
lane). The random steps (:func:`random_steps`, for the tests) load, play one step and write
back, so the tests that hold each step to the core hold the playouts' rules.

Beside the rules on the store's arrays this keeps, per open number ``v``, the count of
its open ends (``ec[v]``), so that counting the plays costs one ``popcount`` per open
number, and it visits only the open numbers (the bits of ``nums``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .deal import shuffle_one
from .rules import (
    BEND,
    BOARD,
    BONE,
    BPOS,
    C_ASIDE,
    C_BONE0,
    C_FTOES,
    C_HAND,
    C_MAYPLAY,
    C_MDI,
    C_OTOES,
    C_P,
    C_UNTIL,
    C_V,
    C_W,
    CENTRE,
    DRAWN,
    MASK,
    NBOARD,
    NEED,
    NUMS,
    ONE,
    PEND,
    PLIES,
    RESULT,
    TABLE,
    TURN,
    ZERO,
    E,
    H,
    below_z,
    ctpop,
    cttz,
    kth_word,
)

# positions in the scalars' row ``sv`` (what the playout leaves there for the write-back)
L_BPOS, L_BEND, L_NUMS, L_PEND, L_NEED, L_TURN, L_DRAWN, L_NB, L_PLIES, L_RESULT = range(10)


@njit(cache=True, _nrt=False)
def deal_local(cf, tb, lo, x, base, centre, leader):
    """Deal the shuffled tiles ``x`` (hands, then the boneyard from ``x[base]``) into the
    working arrays ``lo = (hands, ends, counts, mask, table, board, scalars)`` (as
    :func:`.deal.deal_lane` deals into a lane)."""
    hw, ew, ec, mk, tw, bd, sv = lo
    with_, px = tb[0], tb[1]
    p, hs, w_, v_ = cf[C_P], cf[C_HAND], cf[C_W], cf[C_V]
    for k in range(p * w_):
        hw[k] = ZERO
    for s in range(p):  # (no division: a processor's slowest integer instruction)
        for j in range(s * hs, (s + 1) * hs):
            t = x[j]
            hw[s * w_ + (t >> 6)] |= ONE << np.uint64(t & 63)
    bpos = base
    bend = base + cf[C_BONE0]
    for k in range(v_ * w_):
        ew[k] = ZERO
    for v in range(v_):
        ec[v] = 0
    turn = leader
    wc = centre >> 6
    bc = ONE << np.uint64(centre & 63)
    for w in range(w_):
        tw[w] = ZERO
    if cf[C_ASIDE]:
        bd[0] = np.int32(centre << 16)
        nb = 1
        pend = centre
        need = cf[C_OTOES]
        for w in range(w_):
            mk[w] = with_[px[centre], w]
        tw[wc] = bc
    else:
        nb = 0
        pend = -1
        need = 0
        for w in range(w_):
            mk[w] = ZERO
        mk[wc] = bc
        for s in range(p):
            if hw[s * w_ + wc] & bc != ZERO:
                turn = s
                break
    sv[L_BPOS], sv[L_BEND], sv[L_NUMS], sv[L_PEND], sv[L_NEED] = bpos, bend, 0, pend, need
    sv[L_TURN], sv[L_DRAWN], sv[L_NB], sv[L_PLIES] = turn, -1, nb, 0
    sv[L_RESULT] = blocked(hw, mk, p, w_) if bpos >= bend else -1


@njit(cache=True, _nrt=False)
def load_lane(st, cf, lo, x, i):
    """The working arrays become round ``i`` of the store (its boneyard into ``x``, from 0)."""
    hw, ew, ec, mk, tw, bd, sv = lo
    p, w_, v_ = cf[C_P], cf[C_W], cf[C_V]
    for s in range(p):
        for w in range(w_):
            hw[s * w_ + w] = st[H][i, s, w]
    for v in range(v_):
        c = 0
        for w in range(w_):
            e = st[E][i, v, w]
            ew[v * w_ + w] = e
            c += np.int64(ctpop(e))
        ec[v] = c
    for w in range(w_):
        mk[w] = st[MASK][i, w]
        tw[w] = st[TABLE][i, w]
    bend = st[BEND][i]
    for j in range(bend):
        x[j] = st[BONE][i, j]
    nb = st[NBOARD][i]
    for k in range(nb):
        bd[k] = st[BOARD][i, k]
    sv[L_BPOS], sv[L_BEND], sv[L_NUMS] = st[BPOS][i], bend, st[NUMS][i]
    sv[L_PEND], sv[L_NEED], sv[L_TURN] = st[PEND][i], st[NEED][i], st[TURN][i]
    sv[L_DRAWN], sv[L_NB], sv[L_PLIES] = st[DRAWN][i], nb, st[PLIES][i]
    sv[L_RESULT] = st[RESULT][i]


@njit(cache=True, _nrt=False)
def play_local(cf, tb, lo, x, z, steps, words):
    """Play the round in the working arrays ``lo`` (:func:`deal_local`, :func:`load_lane`;
    its boneyard in ``x``) with random moves from the splitmix64 state ``z``, to its end
    or for ``steps`` steps (-1: to its end); returns the generator's state.

    A step is one move chosen uniformly among the legal moves, with the forced moves around
    it: before it the draw of a seat with nothing to play (and nothing drawn), after it the
    pass that an unplayable draw leaves as the only legal move (as the numpy rules'
    :meth:`~chickenfoot.batch._steps.Steps._random_step`)."""
    hw, ew, ec, mk, tw, bd, sv = lo
    with_, px, py = tb[0], tb[1], tb[2]
    p = cf[C_P]
    w_ = len(words) if len(words) else cf[C_W]  # a constant for one word
    until, mdi, mayplay = cf[C_UNTIL] != 0, cf[C_MDI] != 0, cf[C_MAYPLAY]
    bpos, bend, nums, pend, need = sv[L_BPOS], sv[L_BEND], sv[L_NUMS], sv[L_PEND], sv[L_NEED]
    turn, drawn, nb, plies = sv[L_TURN], sv[L_DRAWN], sv[L_NB], sv[L_PLIES]
    result = sv[L_RESULT]
    while result == -1:
        if steps == 0:
            break
        steps -= 1
        hb = turn * w_
        t = -1
        a = -1
        if drawn < 0 and bpos < bend:  # nothing to play: the forced draw first
            has = False
            for w in range(w_):
                if hw[hb + w] & mk[w] != ZERO:
                    has = True
            if not has:
                plies += 1
                drawn = np.int64(x[bpos])
                bpos += 1
                hw[hb + (drawn >> 6)] |= ONE << np.uint64(drawn & 63)
        # the plays (tile and anchor pairs) of the seat to act, and a draw or pass beside
        cw0 = ZERO  # the candidates of word 0 (most rules have one word)
        has = False
        for w in range(w_):
            c = hw[hb + w] & mk[w]
            if drawn >= 0:
                c &= (ONE << np.uint64(drawn & 63)) if (drawn >> 6) == w else ZERO
            if w == 0:
                cw0 = c
            if c != ZERO:
                has = True
        laid = nb > 0
        if not has:
            kind = 1 if bpos < bend and (drawn < 0 or until) else 2
        else:
            extra = 0
            if mdi:
                extra = (1 if bpos < bend and laid else 0) if drawn < 0 else mayplay
            elif mayplay and drawn >= 0:
                extra = 1
            single = pend >= 0 or not laid
            if single:
                total = 0
                for w in range(w_):
                    total += np.int64(ctpop(cand_word(hw, mk, hb, w, drawn, cw0)))
            else:
                total = 0
                rest = nums
                while rest:
                    v = np.int64(cttz(np.uint64(rest)))
                    rest &= rest - 1
                    c = 0
                    for w in range(w_):
                        c += np.int64(ctpop(cand_word(hw, mk, hb, w, drawn, cw0) & with_[v, w]))
                    total += c * ec[v]
            r, z = below_z(z, total + extra)
            if r == total:
                kind = 1 if drawn < 0 else 2
            else:
                kind = 0
                a = pend
                if single:
                    for w in range(w_):
                        c = cand_word(hw, mk, hb, w, drawn, cw0)
                        pc = np.int64(ctpop(c))
                        if r < pc:
                            t = w * 64 + kth_word(c, r)
                            break
                        r -= pc
                else:
                    rest = nums
                    while rest:
                        v = np.int64(cttz(np.uint64(rest)))
                        rest &= rest - 1
                        e = ec[v]
                        c = 0
                        for w in range(w_):
                            cv = cand_word(hw, mk, hb, w, drawn, cw0) & with_[v, w]
                            c += np.int64(ctpop(cv))
                        if r < c * e:
                            q, rem = 0, r  # r // e and r % e (q is below c: a few steps)
                            while rem >= e:
                                rem -= e
                                q += 1
                            for w in range(w_):
                                cv = cand_word(hw, mk, hb, w, drawn, cw0) & with_[v, w]
                                pc = np.int64(ctpop(cv))
                                if q < pc:
                                    t = w * 64 + kth_word(cv, q)
                                    break
                                q -= pc
                            for w in range(w_):
                                ewd = ew[v * w_ + w]
                                pc = np.int64(ctpop(ewd))
                                if rem < pc:
                                    a = w * 64 + kth_word(ewd, rem)
                                    break
                                rem -= pc
                            break
                        r -= c * e
        # the move
        plies += 1
        if kind == 1:  # a draw: the boneyard's next tile, and the seat acts again
            drawn = np.int64(x[bpos])
            bpos += 1
            hw[hb + (drawn >> 6)] |= ONE << np.uint64(drawn & 63)
            if mk[drawn >> 6] & (ONE << np.uint64(drawn & 63)) == ZERO and (
                not until or bpos >= bend
            ):  # an unplayable draw: the pass that is the only legal move
                plies += 1
                drawn = -1
            else:
                continue
        else:
            drawn = -1
            if kind == 0:
                wt = t >> 6
                bt = ONE << np.uint64(t & 63)
                hw[hb + wt] ^= bt
                bd[nb] = np.int32((t << 16) + a + 1)
                nb += 1
                tw[wt] |= bt
                x_, y_ = px[t], py[t]
                if a < 0:  # the centre, laid by its holder
                    pend = t
                    need = cf[C_OTOES]
                    for w in range(w_):
                        mk[w] = with_[x_, w]
                elif pend >= 0:  # a toe of the pending hub
                    o = x_ + y_ - px[pend]
                    ew[o * w_ + wt] |= bt
                    ec[o] += 1
                    nums |= 1 << o
                    need -= 1
                    if need == 0:
                        pend = -1
                        union(mk, with_, nums, w_)
                else:  # on an open end, number v
                    wa = a >> 6
                    ba = ONE << np.uint64(a & 63)
                    v = x_ if ew[x_ * w_ + wa] & ba != ZERO else y_
                    ew[v * w_ + wa] ^= ba
                    ec[v] -= 1
                    if ec[v] == 0:
                        nums ^= 1 << v
                    if x_ == y_:
                        pend = t
                        need = cf[C_FTOES]
                        for w in range(w_):
                            mk[w] = with_[x_, w]
                    else:
                        o = x_ + y_ - v
                        ew[o * w_ + wt] |= bt
                        ec[o] += 1
                        nums |= 1 << o
                        union(mk, with_, nums, w_)
                out = True
                for w in range(w_):
                    if hw[hb + w] != ZERO:
                        out = False
                if out:
                    result = turn
                    break
        turn += 1  # the turn passes; with an empty boneyard it may be blocked
        if turn == p:
            turn = 0
        if bpos >= bend:
            result = blocked(hw, mk, p, w_)
    sv[L_BPOS], sv[L_BEND], sv[L_NUMS], sv[L_PEND], sv[L_NEED] = bpos, bend, nums, pend, need
    sv[L_TURN], sv[L_DRAWN], sv[L_NB], sv[L_PLIES], sv[L_RESULT] = turn, drawn, nb, plies, result
    return z


ONE_WORD = (0,)
ANY_WORDS = ()


@njit(cache=True, _nrt=False)
def play(cf, tb, lo, x, z, steps):
    """:func:`play_local`, compiled for one word where the rules' sets have one."""
    if cf[C_W] == 1:
        return play_local(cf, tb, lo, x, z, steps, ONE_WORD)
    return play_local(cf, tb, lo, x, z, steps, ANY_WORDS)


@njit(cache=True, _nrt=False, inline="always")
def cand_word(hw, mk, hb, w, drawn, cw0):
    """Word ``w`` of the tiles the seat may play (``cw0``: word 0, computed already)."""
    if w == 0:
        return cw0
    c = hw[hb + w] & mk[w]
    if drawn >= 0:
        c &= (ONE << np.uint64(drawn & 63)) if (drawn >> 6) == w else ZERO
    return c


@njit(cache=True, _nrt=False, inline="always")
def union(mk, with_, nums, w_):
    """The playable tiles: every tile showing an open number."""
    for w in range(w_):
        m = ZERO
        rest = nums
        while rest:
            m |= with_[np.int64(cttz(np.uint64(rest))), w]
            rest &= rest - 1
        mk[w] = m


@njit(cache=True, _nrt=False, inline="always")
def blocked(hw, mk, p, w_):
    """R10 with an empty boneyard: ``p`` (blocked) if no hand holds a playable tile, else -1."""
    for w in range(w_):
        held = ZERO
        for s in range(p):
            held |= hw[s * w_ + w]
        if held & mk[w] != ZERO:
            return -1
    return p


@njit(cache=True, _nrt=False)
def write_back(st, cf, lo, x, base, i, centre):
    """Round ``i`` of the store becomes the round in ``lo``."""
    hw, ew, _, mk, tw, bd, sv = lo
    p, w_, v_ = cf[C_P], cf[C_W], cf[C_V]
    for s in range(p):
        for w in range(w_):
            st[H][i, s, w] = hw[s * w_ + w]
    for v in range(v_):
        for w in range(w_):
            st[E][i, v, w] = ew[v * w_ + w]
    for w in range(w_):
        st[MASK][i, w] = mk[w]
        st[TABLE][i, w] = tw[w]
    bend = sv[L_BEND]
    for j in range(bend - base):
        st[BONE][i, j] = x[base + j]
    st[BPOS][i] = sv[L_BPOS] - base
    st[BEND][i] = bend - base
    st[NUMS][i] = sv[L_NUMS]
    st[PEND][i] = sv[L_PEND]
    st[NEED][i] = sv[L_NEED]
    st[TURN][i] = sv[L_TURN]
    st[DRAWN][i] = sv[L_DRAWN]
    st[CENTRE][i] = centre
    st[RESULT][i] = sv[L_RESULT]
    nb = sv[L_NB]
    for k in range(nb):
        st[BOARD][i, k] = bd[k]
    st[NBOARD][i] = nb
    st[PLIES][i] = sv[L_PLIES]


@njit(cache=True, _nrt=False)
def playout_new(st, cf, tb, sc, lo, rs, h, j0, k, mode, tiles, mt0, keys, klens, fkey, seeds64,
                round64, orders, centre, leader, out, pens, plies):  # fmt: skip
    """Deal and play ``len(out)`` new rounds, round ``j`` of the block (``j0 + j`` of the
    ``k`` of the playout) in lane ``(j0 + j) % h``: exact deals (mode 0) from ``keys[j]``,
    fast ones (mode 1) from seed ``seeds64[j]``, or the given ``orders[j]`` (mode 2)."""
    sc[6][1] = 0  # no seeded group of this call yet
    x = sc[0]
    base = cf[C_P] * cf[C_HAND]
    z = rs[0]
    for j in range(out.shape[0]):
        shuffle_one(sc, j, mode, orders, tiles, mt0, keys, klens, fkey, seeds64, round64)
        deal_local(cf, tb, lo, x, base, centre, leader)
        z = play(cf, tb, lo, x, z, -1)
        record(cf, tb, lo, j, out, pens, plies)
        if j0 + j + h >= k:  # the last round of its lane
            write_back(st, cf, lo, x, base, (j0 + j) % h, centre)
    rs[0] = z


@njit(cache=True, _nrt=False)
def playout_lanes(st, cf, tb, sc, lo, rs, lanes, out, pens, plies):
    """Play the rounds in ``lanes`` to their ends; their results go to row ``r``."""
    x = sc[0]
    z = rs[0]
    for r in range(lanes.shape[0]):
        i = lanes[r]
        load_lane(st, cf, lo, x, i)
        z = play(cf, tb, lo, x, z, -1)
        record(cf, tb, lo, r, out, pens, plies)
        write_back(st, cf, lo, x, 0, i, st[CENTRE][i])
    rs[0] = z


@njit(cache=True, _nrt=False, inline="always")
def record(cf, tb, lo, j, out, pens, plies):
    """Row ``j`` of the results: the round in ``lo`` (over)."""
    hw, sv = lo[0], lo[6]
    p, w_, pip = cf[C_P], cf[C_W], tb[3]
    res = sv[L_RESULT]
    out[j] = -1 if res == p else res
    for s in range(p):
        total = 0
        for w in range(w_):
            hand = hw[s * w_ + w]
            while hand != ZERO:
                total += pip[w * 64 + np.int64(cttz(hand))]
                hand &= hand - ONE
        pens[j, s] = total
    plies[j] = sv[L_PLIES]


@njit(cache=True, _nrt=False)
def random_steps(st, cf, tb, sc, lo, rs, lanes):
    """One step of the random playout (:func:`play_local`) in each round ``lanes[r]``."""
    x = sc[0]
    z = rs[0]
    for r in range(lanes.shape[0]):
        i = lanes[r]
        load_lane(st, cf, lo, x, i)
        z = play(cf, tb, lo, x, z, 1)
        write_back(st, cf, lo, x, 0, i, st[CENTRE][i])
    rs[0] = z
