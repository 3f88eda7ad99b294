"""The deals of the batched engine compiled with numba (see :mod:`.rules`).

An exact deal replays ``random.Random(f"{seed}:{round}").shuffle`` (Python's MT19937,
seeded by ``init_by_array`` with the key :mod:`chickenfoot.batch._shuffle` derives from the text's SHA-512,
then ``getrandbits`` with rejection); the state is twisted word by word as the outputs
are read, so a deal computes the ~80 outputs it uses, not 624. A fast deal shuffles with
splitmix64 from ``(key, seed, round)`` (:func:`fast_state`), as :func:`chickenfoot.batch._shuffle.fast_many`
does on numpy arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    BEND,
    BOARD,
    BONE,
    BPOS,
    C_ASIDE,
    C_BONE0,
    C_HAND,
    C_OTOES,
    C_P,
    C_V,
    C_W,
    CENTRE,
    DRAWN,
    MASK,
    NBOARD,
    NEED,
    NUMS,
    PEND,
    PLIES,
    RESULT,
    TABLE,
    TURN,
    ZERO,
    E,
    H,
    below_z,
    bitw,
    check_blocked,
    mix,
)

N = 624
M32 = np.uint64(0xFFFF_FFFF)
UPPER = np.uint64(0x8000_0000)
LOWER = np.uint64(0x7FFF_FFFF)
MATRIX_A = np.uint64(0x9908_B0DF)


@njit(cache=True, _nrt=False, inline="always")
def mt_seed(mt0, key, klen, mt):
    """``init_by_array(key[:klen])`` into ``mt`` (624 words held in uint64); ``mt0`` is
    ``init_genrand(19650218)``."""
    for k in range(N):
        mt[k] = mt0[k]
    i, j = 1, 0
    for _ in range(max(N, klen)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)) & M32))
                 + key[j] + np.uint64(j)) & M32  # fmt: skip
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)) & M32))
                 - np.uint64(i)) & M32  # fmt: skip
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = UPPER


LANES = 16
"""Exact deals seeded together (:func:`mt_seed_lanes`): one vector of 32-bit words each."""
KEYW = 64
"""The longest key (32-bit words) seeded with others: seeds of up to about 200 digits."""


@njit(cache=True, _nrt=False, inline="always")
def mt_seed_lanes(mt0, keys, klen, j, kb, ms):
    """:func:`mt_seed` of the keys ``j`` to ``j + LANES - 1`` (all of ``klen <= KEYW``
    words) at once, into the columns of ``ms`` ``(624, LANES)`` uint32 (``kb``: a
    ``(KEYW, LANES)`` uint32 buffer): the same steps on a vector of independent states,
    in 32-bit arithmetic (the seeding is most of an exact deal)."""
    for jj in range(klen):
        for q in range(LANES):
            kb[jj, q] = np.uint32((keys[j + q, jj] + np.uint64(jj)) & M32)
    for k in range(N):
        v = np.uint32(mt0[k])
        for q in range(LANES):
            ms[k, q] = v
    c1, c2 = np.uint32(1664525), np.uint32(1566083941)
    s30 = np.uint32(30)
    i, jj = 1, 0
    for _ in range(N):
        for q in range(LANES):
            prev = ms[i - 1, q]
            ms[i, q] = (ms[i, q] ^ ((prev ^ (prev >> s30)) * c1)) + kb[jj, q]
        i += 1
        jj += 1
        if i >= N:
            for q in range(LANES):
                ms[0, q] = ms[N - 1, q]
            i = 1
        if jj >= klen:
            jj = 0
    for _ in range(N - 1):
        iw = np.uint32(i)
        for q in range(LANES):
            prev = ms[i - 1, q]
            ms[i, q] = (ms[i, q] ^ ((prev ^ (prev >> s30)) * c2)) - iw
        i += 1
        if i >= N:
            for q in range(LANES):
                ms[0, q] = ms[N - 1, q]
            i = 1
    for q in range(LANES):
        ms[0, q] = np.uint32(UPPER)


@njit(cache=True, _nrt=False, inline="always")
def mt_shuffle_lane(ms, q, pos, x, m):
    """:func:`mt_shuffle` with the generator in column ``q`` of ``ms`` (uint32), its words
    twisted as :func:`mt_next` twists them."""
    bits = 0  # as in mt_shuffle
    while (1 << bits) <= m:
        bits += 1
    for i in range(m - 1, 0, -1):
        bound = i + 1
        if (1 << (bits - 1)) > bound:
            bits -= 1
        shift = np.uint64(32 - bits)
        while True:
            k = pos[0]
            if k >= N:
                k = 0
            y = (np.uint64(ms[k, q]) & UPPER) | (np.uint64(ms[(k + 1) % N, q]) & LOWER)
            mag = MATRIX_A if y & np.uint64(1) else ZERO
            w = np.uint64(ms[(k + 397) % N, q]) ^ (y >> np.uint64(1)) ^ mag
            ms[k, q] = np.uint32(w)
            pos[0] = k + 1
            w ^= w >> np.uint64(11)
            w ^= (w << np.uint64(7)) & np.uint64(0x9D2C_5680)
            w ^= (w << np.uint64(15)) & np.uint64(0xEFC6_0000)
            w ^= w >> np.uint64(18)
            r = np.int64((w & M32) >> shift)
            if r < bound:
                break
        x[i], x[r] = x[r], x[i]


@njit(cache=True, _nrt=False, inline="always")
def mt_next(mt, pos):
    """The next 32-bit output; ``pos[0]`` counts the outputs of this twist. Word ``k`` is
    twisted just before it is read: in order, each reads what the whole twist would."""
    k = pos[0]
    if k >= N:
        k = 0
    y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER)
    mag = MATRIX_A if y & np.uint64(1) else ZERO
    mt[k] = mt[(k + 397) % N] ^ (y >> np.uint64(1)) ^ mag
    pos[0] = k + 1
    y = mt[k]
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C_5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC6_0000)
    y ^= y >> np.uint64(18)
    return y & M32


@njit(cache=True, _nrt=False, inline="always")
def mt_shuffle(mt, pos, x, m):
    """``random.shuffle(x[:m])`` with the generator ``mt``: ``_randbelow`` by
    ``getrandbits(bound.bit_length())`` until below the bound."""
    bits = 0  # bound.bit_length(), kept as the bound goes down
    while (1 << bits) <= m:
        bits += 1
    for i in range(m - 1, 0, -1):
        bound = i + 1
        if (1 << (bits - 1)) > bound:
            bits -= 1
        shift = np.uint64(32 - bits)
        r = np.int64(mt_next(mt, pos) >> shift)
        while r >= bound:
            r = np.int64(mt_next(mt, pos) >> shift)
        x[i], x[r] = x[r], x[i]


@njit(cache=True, _nrt=False, inline="always")
def fast_state(key0, key1, seed64, round64):
    """The splitmix64 state that shuffles the fast deal of ``seed`` (mod 2**64)."""
    return mix(mix(seed64 ^ key0) ^ (round64 + key1))


@njit(cache=True, _nrt=False, inline="always")
def fast_shuffle(rs, x, m):
    """Fisher-Yates on ``x[:m]`` with exactly uniform draws (:func:`.rules.below`)."""
    z = rs[0]
    for i in range(m - 1, 0, -1):
        j, z = below_z(z, i + 1)
        x[i], x[j] = x[j], x[i]
    rs[0] = z


@njit(cache=True, _nrt=False, inline="always")
def deal_lane(st, cf, tb, i, order, centre, leader):
    """Deal the shuffled tiles ``order`` into lane ``i`` (as :meth:`~chickenfoot.batch._store.Store._deal`)."""
    p, hs, w_ = cf[C_P], cf[C_HAND], cf[C_W]
    for s in range(p):
        for w in range(w_):
            st[H][i, s, w] = ZERO
    for s in range(p):
        for j in range(s * hs, (s + 1) * hs):
            t = order[j]
            st[H][i, s, t >> 6] |= bitw(t, t >> 6)
    nb = cf[C_BONE0]
    for j in range(nb):
        st[BONE][i, j] = order[p * hs + j]
    st[BPOS][i] = 0
    st[BEND][i] = nb
    for v in range(cf[C_V]):
        for w in range(w_):
            st[E][i, v, w] = ZERO
    st[NUMS][i] = 0
    st[DRAWN][i] = -1
    st[PLIES][i] = 0
    st[CENTRE][i] = centre
    turn = leader
    wc = centre >> 6
    for w in range(w_):
        st[TABLE][i, w] = ZERO
    if cf[C_ASIDE]:
        st[BOARD][i, 0] = np.int32(centre << 16)
        st[NBOARD][i] = 1
        st[PEND][i] = centre
        st[NEED][i] = cf[C_OTOES]
        for w in range(w_):
            st[MASK][i, w] = tb[0][tb[1][centre], w]
        st[TABLE][i, wc] = bitw(centre, wc)
    else:
        st[NBOARD][i] = 0
        st[PEND][i] = -1
        st[NEED][i] = 0
        for w in range(w_):
            st[MASK][i, w] = bitw(centre, w)
        for s in range(p):
            if st[H][i, s, wc] & bitw(centre, wc) != ZERO:
                turn = s
                break
    st[TURN][i] = turn
    st[RESULT][i] = -1
    if nb == 0:
        check_blocked(st, cf, i)


@njit(cache=True, _nrt=False, inline="always")
def shuffled(mode, j, tiles, x, mt0, mt, pos, keys, klens, rs, key0, key1, seed64, round64,
             orders):  # fmt: skip
    """The shuffle of deal ``j`` of a block into ``x``: exact (mode 0, from ``keys[j]``),
    fast (mode 1, from seed ``seed64[j]``) or given (mode 2, ``orders[j]``)."""
    m = tiles.shape[0]
    if mode == 2:
        for k in range(m):
            x[k] = orders[j, k]
        return
    for k in range(m):
        x[k] = tiles[k]
    if mode == 0:
        mt_seed(mt0, keys[j], klens[j], mt)
        pos[0] = 0
        mt_shuffle(mt, pos, x, m)
    else:
        rs[0] = fast_state(key0, key1, seed64[j], round64)
        fast_shuffle(rs, x, m)


@njit(cache=True, _nrt=False)
def deal_lanes(st, cf, tb, sc, lanes, mode, orders, tiles, mt0, keys, klens, fkey, seeds64,
               round64, centre, leader):  # fmt: skip
    """Deal round ``j`` into lane ``lanes[j]``: mode 0 exact, 1 fast, 2 the given
    ``orders[j]`` (``sc``: the scratch arrays, :func:`chickenfoot.batch._compiled.scratch`)."""
    sc[6][1] = 0  # no seeded group of this call yet
    for j in range(lanes.shape[0]):
        deal_one(st, cf, tb, sc, j, lanes[j], mode, orders, tiles, mt0, keys, klens, fkey,
                 seeds64, round64, centre, leader)  # fmt: skip


@njit(cache=True, _nrt=False)
def deal_one(st, cf, tb, sc, j, i, mode, orders, tiles, mt0, keys, klens, fkey, seeds64,
             round64, centre, leader):  # fmt: skip
    """Deal round ``j`` of a block into lane ``i`` (:func:`shuffle_one`, then :func:`deal_lane`)."""
    shuffle_one(sc, j, mode, orders, tiles, mt0, keys, klens, fkey, seeds64, round64)
    deal_lane(st, cf, tb, i, sc[0], centre, leader)


@njit(cache=True, _nrt=False)
def shuffle_one(sc, j, mode, orders, tiles, mt0, keys, klens, fkey, seeds64, round64):
    """The shuffle of round ``j`` of a block into ``sc[0]`` (compiled once, called once a
    round; the calls of a block come in order of ``j``, from a call that cleared ``sc[6][1]``).

    Exact deals are seeded ``LANES`` at a time (:func:`mt_seed_lanes`) when the keys of a
    group have the same length; the group's states wait in ``sc[5]``."""
    x, mt, pos, rs, ms, grp, kb = sc[0], sc[1], sc[2], sc[3], sc[5], sc[6], sc[7]
    if mode == 0:
        g0 = j - j % LANES
        if grp[1] == 0 or grp[0] != g0:
            grp[0] = g0
            grp[1] = 1 if g0 + LANES <= klens.shape[0] and klens[g0] <= KEYW else 2
            if grp[1] == 1:
                for q in range(1, LANES):
                    if klens[g0 + q] != klens[g0]:
                        grp[1] = 2
            if grp[1] == 1:
                mt_seed_lanes(mt0, keys, klens[g0], g0, kb, ms)
        if grp[1] == 1:
            m = tiles.shape[0]
            for k in range(m):
                x[k] = tiles[k]
            pos[0] = 0
            mt_shuffle_lane(ms, j - g0, pos, x, m)
            return
    shuffled(mode, j, tiles, x, mt0, mt, pos, keys, klens, rs, fkey[0], fkey[1], seeds64,
             round64, orders)  # fmt: skip


@njit(cache=True, _nrt=False)
def shuffles(sc, mode, tiles, mt0, keys, klens, fkey, seeds64, round64, orders, out):
    """The shuffles alone, as rows of ``out``, as the deals make them (:func:`shuffle_one`:
    for the self-check against ``random.Random``)."""
    m = tiles.shape[0]
    x = sc[0]
    sc[6][1] = 0
    for j in range(out.shape[0]):
        shuffle_one(sc, j, mode, orders, tiles, mt0, keys, klens, fkey, seeds64, round64)
        for k in range(m):
            out[j, k] = x[k]
