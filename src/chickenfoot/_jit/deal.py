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
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

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


LANES = 64
"""Exact deals seeded together (:func:`mt_seed_lanes`), 32-bit words in vectors: four of
AVX-512's, eight of AVX2's, in flight at once to hide each step's latency."""
KEYW = 64
"""The longest key (32-bit words) seeded with others: seeds of up to about 200 digits."""


@intrinsic
def _row_step(typingctx, ms, i, c, kb, jj, addend):
    """Row ``i`` of ``ms`` ``(624, LANES)`` becomes ``(ms[i] ^ ((p ^ (p >> 30)) * c)) +
    kb[jj] + addend`` (``p = ms[i - 1]``), in 32-bit words, as one vector operation (numba
    cannot tell the rows apart, so it would not vectorise the loop)."""
    sig = types.void(ms, i, c, kb, jj, addend)

    def codegen(context, builder, signature, args):
        ms_v, i_v, c_v, kb_v, jj_v, add_v = args
        rows = context.make_array(signature.args[0])(context, builder, value=ms_v)
        keyb = context.make_array(signature.args[3])(context, builder, value=kb_v)
        i32, i64 = ir.IntType(32), ir.IntType(64)
        vec = ir.VectorType(i32, LANES)
        width = ir.Constant(i64, LANES)

        def row(data, r):
            return builder.bitcast(builder.gep(data, [builder.mul(r, width)]), vec.as_pointer())

        def splat(x):
            v = ir.Constant(vec, ir.Undefined)
            for q in range(LANES):
                v = builder.insert_element(v, x, ir.Constant(i32, q))
            return v

        here = row(rows.data, i_v)
        prev = builder.load(row(rows.data, builder.sub(i_v, ir.Constant(i64, 1))), align=4)
        mixed = builder.xor(prev, builder.lshr(prev, ir.Constant(vec, [30] * LANES)))
        out = builder.xor(builder.load(here, align=4), builder.mul(mixed, splat(c_v)))
        out = builder.add(
            builder.add(out, builder.load(row(keyb.data, jj_v), align=4)), splat(add_v)
        )
        builder.store(out, here, align=4)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def mt_seed_lanes(mt0, keys, klen, j, count, kb, ms):
    """:func:`mt_seed` of the keys ``j`` to ``j + count - 1`` (``count <= LANES``, all of
    ``klen <= KEYW`` words) at once, into the columns of ``ms`` ``(624, LANES)`` uint32
    (columns from ``count`` on repeat key ``j``; ``kb``: a ``(KEYW + 1, LANES)`` uint32
    buffer): the same steps on vectors of independent states, in 32-bit arithmetic (the
    seeding is most of an exact deal)."""
    for jj in range(klen):
        for q in range(LANES):
            src = j + q if q < count else j
            kb[jj, q] = np.uint32((keys[src, jj] + np.uint64(jj)) & M32)
    for q in range(LANES):
        kb[KEYW, q] = np.uint32(0)
    for k in range(N):
        v = np.uint32(mt0[k])
        for q in range(LANES):
            ms[k, q] = v
    c1, c2 = np.uint32(1664525), np.uint32(1566083941)
    i, jj = 1, 0
    for _ in range(N):
        _row_step(ms, i, c1, kb, jj, np.uint32(0))
        i += 1
        jj += 1
        if i >= N:
            for q in range(LANES):
                ms[0, q] = ms[N - 1, q]
            i = 1
        if jj >= klen:
            jj = 0
    for _ in range(N - 1):
        _row_step(ms, i, c2, kb, KEYW, np.uint32((1 << 32) - i))  # - i, mod 2**32
        i += 1
        if i >= N:
            for q in range(LANES):
                ms[0, q] = ms[N - 1, q]
            i = 1
    for q in range(LANES):
        ms[0, q] = np.uint32(UPPER)


OUTS = 226
"""The most outputs made ahead for each state of a group (:func:`mt_outputs_lanes`)."""


@njit(cache=True, _nrt=False, inline="always")
def mt_outputs_lanes(ms, nout, ov, ot):
    """The first ``nout <= OUTS`` outputs of each state of ``ms`` into ``ot[q, :nout]``
    (``ov``: ``(OUTS, LANES)`` scratch): twisting word ``k < 227`` reads words the twist
    has not changed yet, so the words of all the states go through the twist row by row,
    as vectors, without writing the state back."""
    for k in range(nout):
        for q in range(LANES):
            y = (ms[k, q] & UPPER) | (ms[k + 1, q] & LOWER)
            w = ms[k + 397, q] ^ (y >> np.uint64(1)) ^ ((ZERO - (y & np.uint64(1))) & MATRIX_A)
            w ^= w >> np.uint64(11)
            w ^= (w << np.uint64(7)) & np.uint64(0x9D2C_5680)
            w ^= (w << np.uint64(15)) & np.uint64(0xEFC6_0000)
            w ^= w >> np.uint64(18)
            ov[k, q] = w
    for q in range(LANES):
        for k in range(nout):
            ot[q, k] = ov[k, q]


@njit(cache=True, _nrt=False, inline="always")
def shuffle_outputs(ot, q, nout, x, m):
    """:func:`mt_shuffle` of ``x[:m]`` reading the outputs ``ot[q, :nout]``; False if they
    ran out (the shuffle is then to be made again from the state)."""
    bits = 0  # as in mt_shuffle
    while (1 << bits) <= m:
        bits += 1
    p = 0
    for i in range(m - 1, 0, -1):
        bound = i + 1
        if (1 << (bits - 1)) > bound:
            bits -= 1
        shift = np.uint64(32 - bits)
        while True:
            if p >= nout:
                return False
            r = np.int64(np.uint64(ot[q, p]) >> shift)
            p += 1
            if r < bound:
                break
        x[i], x[r] = x[r], x[i]
    return True


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
    m = tiles.shape[0]
    nout = m + m // 2 + 16  # outputs made ahead: about 1.35 a draw are read
    if mode == 0:
        g0 = j - j % LANES
        if grp[1] == 0 or grp[0] != g0:
            grp[0] = g0
            count = min(LANES, klens.shape[0] - g0)
            grp[1] = 1 if count >= 4 and klens[g0] <= KEYW else 2
            if grp[1] == 1:
                for q in range(1, count):
                    if klens[g0 + q] != klens[g0]:
                        grp[1] = 2
            if grp[1] == 1:
                mt_seed_lanes(mt0, keys, klens[g0], g0, count, kb, ms)
                if nout <= OUTS:
                    mt_outputs_lanes(ms, nout, sc[8], sc[9])
        if grp[1] == 1:
            for k in range(m):
                x[k] = tiles[k]
            if nout > OUTS:  # a large set: the state's words twisted as they are read
                pos[0] = 0
                mt_shuffle_lane(ms, j - g0, pos, x, m)
                return
            if shuffle_outputs(sc[9], j - g0, nout, x, m):
                return  # else (rare: more outputs read than made) from the seed alone
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
