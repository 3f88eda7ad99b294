"""The rules of the batched engine compiled with numba, one round at a time (``backend="numba"``).

The functions read and write the same arrays as the batch engine's numpy rules
(``chickenfoot.batch``: its store, steps and reads), round ``i`` being column ``i``, and
follow those rules step for step; the tests hold both to the core after every move.

Arguments are packed: ``st`` is the tuple of the store's arrays
(the ``ST_*`` positions below), ``tb`` the tables ``(WITH, PX, PY, PIP, SLOT)`` and ``cf``
an int64 array of the rules' numbers (the ``C_*`` positions). Tile sets are ``W`` uint64
words; set bits are counted and found with LLVM's ``ctpop`` and ``cttz``. Random numbers
come from splitmix64 (:func:`below` draws an exactly uniform integer by Lemire's method).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# positions in the packed arguments
(H, E, MASK, TABLE, BONE, BPOS, BEND, NUMS, PEND, NEED, TURN, DRAWN, CENTRE, RESULT, BOARD) = range(
    15
)
NBOARD, PLIES = 15, 16
C_S, C_V, C_W, C_P, C_SLOTS, C_A, C_DRAW, C_PASS = range(8)
C_UNTIL, C_MDI, C_MAYPLAY, C_OTOES, C_FTOES, C_HAND, C_ASIDE, C_BONE0 = range(8, 16)

ZERO = np.uint64(0)
ONE = np.uint64(1)
M32 = np.uint64(0xFFFF_FFFF)
GOLD = np.uint64(0x9E37_79B9_7F4A_7C15)
MIX1 = np.uint64(0xBF58_476D_1CE4_E5B9)
MIX2 = np.uint64(0x94D0_49BB_1331_11EB)
S30, S27, S31, S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@intrinsic
def ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def popc(x):
    """Set bits of a uint64 word."""
    return np.int64(ctpop(x))


@njit(cache=True, _nrt=False, inline="always")
def kth_word(x, k):
    """The index of the k-th set bit (from 0) of the word ``x`` (k below its popcount)."""
    for _ in range(k):
        x &= x - ONE
    return np.int64(cttz(x))


@njit(cache=True, _nrt=False, inline="always")
def bitw(t, w):
    """Word ``w`` of the set holding tile ``t`` alone (empty for ``t < 0``)."""
    if t >= 0 and (t >> 6) == w:
        return ONE << np.uint64(t & 63)
    return ZERO


@njit(cache=True, _nrt=False, inline="always")
def has_bit(arr, r, t, i):
    """Whether tile ``t`` is in the set ``arr[i, r, :]``."""
    return (arr[i, r, t >> 6] >> np.uint64(t & 63)) & ONE != ZERO


# -- random numbers ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def mix(z):
    """splitmix64's finaliser."""
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, _nrt=False, inline="always")
def next64(rs):
    """The next output of the splitmix64 generator whose state is ``rs[0]``."""
    rs[0] += GOLD
    return mix(rs[0])


@njit(cache=True, _nrt=False, inline="always")
def below(rs, n):
    """An exactly uniform integer from 0 to ``n - 1`` (1 <= n < 2**32), Lemire's method."""
    bound = np.uint64(n)
    m = (next64(rs) >> S32) * bound
    low = m & M32
    if low < bound:
        floor = ((M32 + ONE) - bound) % bound
        while low < floor:
            m = (next64(rs) >> S32) * bound
            low = m & M32
    return np.int64(m >> S32)


@njit(cache=True, _nrt=False, inline="always")
def below_z(z, n):
    """``(r, z)``: :func:`below` on the splitmix64 state ``z`` held in a register."""
    bound = np.uint64(n)
    z += GOLD
    m = (mix(z) >> S32) * bound
    low = m & M32
    if low < bound:
        floor = ((M32 + ONE) - bound) % bound
        while low < floor:
            z += GOLD
            m = (mix(z) >> S32) * bound
            low = m & M32
    return np.int64(m >> S32), z


# -- the rules ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def cand(st, i, w):
    """Word ``w`` of the tiles the seat to act in round ``i`` may play: its hand (or the
    drawn tile) and the playable tiles."""
    c = st[H][i, st[TURN][i], w] & st[MASK][i, w]
    d = st[DRAWN][i]
    if d >= 0:
        c &= bitw(d, w)
    return c


@njit(cache=True, _nrt=False, inline="always")
def any_cand(st, cf, i):
    for w in range(cf[C_W]):
        if cand(st, i, w) != ZERO:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def set_union(st, cf, tb, i):
    """The playable tiles: every tile showing an open number."""
    nums = st[NUMS][i]
    for w in range(cf[C_W]):
        m = ZERO
        for v in range(cf[C_V]):
            if (nums >> v) & 1:
                m |= tb[0][v, w]
        st[MASK][i, w] = m


@njit(cache=True, _nrt=False, inline="always")
def set_with(st, cf, tb, i, x):
    for w in range(cf[C_W]):
        st[MASK][i, w] = tb[0][x, w]


@njit(cache=True, _nrt=False, inline="always")
def check_blocked(st, cf, i):
    """R10: round ``i`` (nothing drawn) is blocked if the boneyard is empty and no hand
    holds a playable tile."""
    if st[BPOS][i] < st[BEND][i]:
        return
    for w in range(cf[C_W]):
        held = ZERO
        for s in range(cf[C_P]):
            held |= st[H][i, s, w]
        if held & st[MASK][i, w] != ZERO:
            return
    st[RESULT][i] = cf[C_P]


@njit(cache=True, _nrt=False, inline="always")
def count_moves(st, cf, tb, i):
    """``(has, plays, extra)`` of round ``i`` (in play): whether a tile can be played, the
    plays (tile and anchor pairs), and 1 if a draw or pass is legal beside them."""
    w_ = cf[C_W]
    has = any_cand(st, cf, i)
    if not has:
        return False, 0, 0
    d = st[DRAWN][i]
    laid = st[NBOARD][i] > 0
    extra = 0
    if cf[C_MDI]:
        extra = (1 if st[BPOS][i] < st[BEND][i] and laid else 0) if d < 0 else cf[C_MAYPLAY]
    elif cf[C_MAYPLAY] and d >= 0:
        extra = 1
    if st[PEND][i] >= 0:
        total = 0
        for w in range(w_):
            total += popc(cand(st, i, w))
    elif laid:
        total = 0
        for v in range(cf[C_V]):
            ec = 0
            c = 0
            for w in range(w_):
                ec += popc(st[E][i, v, w])
            if ec:
                for w in range(w_):
                    c += popc(cand(st, i, w) & tb[0][v, w])
                total += c * ec
    else:
        total = 1
    return True, total, extra


@njit(cache=True, _nrt=False, inline="always")
def stuck_move(st, cf, i):
    """The one legal move of a seat with nothing to play: 1 (draw) or 2 (pass)."""
    if st[BPOS][i] < st[BEND][i] and (st[DRAWN][i] < 0 or cf[C_UNTIL]):
        return 1
    return 2


@njit(cache=True, _nrt=False, inline="always")
def play_number(st, cf, tb, i, r):
    """Play ``r`` (from 0) of round ``i``'s plays, in the order of :func:`count_moves`:
    ``(tile, anchor)`` (anchor -1: the centre)."""
    w_ = cf[C_W]
    pend = st[PEND][i]
    if pend >= 0 or st[NBOARD][i] == 0:
        for w in range(w_):
            c = cand(st, i, w)
            pc = popc(c)
            if r < pc:
                return w * 64 + kth_word(c, r), pend
            r -= pc
        return -1, -1  # pragma: no cover - r is below the count
    for v in range(cf[C_V]):
        ec = 0
        c = 0
        for w in range(w_):
            ec += popc(st[E][i, v, w])
        if not ec:
            continue
        for w in range(w_):
            c += popc(cand(st, i, w) & tb[0][v, w])
        if r < c * ec:
            q, rem = r // ec, r % ec
            t = -1
            for w in range(w_):
                cw = cand(st, i, w) & tb[0][v, w]
                pc = popc(cw)
                if q < pc:
                    t = w * 64 + kth_word(cw, q)
                    break
                q -= pc
            for w in range(w_):
                ew = st[E][i, v, w]
                pc = popc(ew)
                if rem < pc:
                    return t, w * 64 + kth_word(ew, rem)
                rem -= pc
        r -= c * ec
    return -1, -1  # pragma: no cover - r is below the count


@njit(cache=True, _nrt=False, inline="always")
def choose(st, cf, tb, i, rs):
    """A uniformly random legal move of round ``i`` (in play): ``(kind, tile, anchor)``,
    kind 0 plays, 1 draws, 2 passes."""
    has, total, extra = count_moves(st, cf, tb, i)
    if not has:
        return stuck_move(st, cf, i), -1, -1
    r = below(rs, total + extra)
    if r == total:
        return (1 if st[DRAWN][i] < 0 else 2), -1, -1
    t, a = play_number(st, cf, tb, i, r)
    return 0, t, a


@njit(cache=True, _nrt=False, inline="always")
def apply_move(st, cf, tb, i, kind, t, a):
    """Make the (legal) move ``(kind, t, a)`` in round ``i``."""
    w_ = cf[C_W]
    st[PLIES][i] += 1
    seat = st[TURN][i]
    if kind == 1:  # a draw: the boneyard's next tile, and the seat acts again
        tile = np.int64(st[BONE][i, st[BPOS][i]])
        st[DRAWN][i] = tile
        st[BPOS][i] += 1
        st[H][i, seat, tile >> 6] |= bitw(tile, tile >> 6)
        return
    st[DRAWN][i] = -1
    if kind == 0:
        wt = t >> 6
        bt = bitw(t, wt)
        st[H][i, seat, wt] ^= bt
        nb = st[NBOARD][i]
        st[BOARD][i, nb] = np.int32((t << 16) + a + 1)
        st[NBOARD][i] = nb + 1
        st[TABLE][i, wt] |= bt
        x, y = tb[1][t], tb[2][t]
        pend = st[PEND][i]
        if a < 0:  # the centre, laid by its holder
            st[PEND][i] = t
            st[NEED][i] = cf[C_OTOES]
            set_with(st, cf, tb, i, x)
        elif pend >= 0:  # a toe of the pending hub
            o = x + y - tb[1][pend]
            st[E][i, o, wt] |= bt
            st[NUMS][i] |= 1 << o
            st[NEED][i] -= 1
            if st[NEED][i] == 0:
                st[PEND][i] = -1
                set_union(st, cf, tb, i)
        else:  # on an open end, number v
            v = x if has_bit(st[E], x, a, i) else y
            wa = a >> 6
            st[E][i, v, wa] ^= bitw(a, wa)
            empty = True
            for w in range(w_):
                if st[E][i, v, w] != ZERO:
                    empty = False
            if empty:
                st[NUMS][i] ^= 1 << v
            if x == y:
                st[PEND][i] = t
                st[NEED][i] = cf[C_FTOES]
                set_with(st, cf, tb, i, x)
            else:
                o = x + y - v
                st[E][i, o, wt] |= bt
                st[NUMS][i] |= 1 << o
                set_union(st, cf, tb, i)
        out = True
        for w in range(w_):
            if st[H][i, seat, w] != ZERO:
                out = False
        if out:
            st[RESULT][i] = seat
            return
    pass_turn(st, cf, i)


@njit(cache=True, _nrt=False, inline="always")
def pass_turn(st, cf, i):
    """The turn passes; with an empty boneyard the round may be blocked."""
    turn = st[TURN][i] + 1
    st[TURN][i] = 0 if turn == cf[C_P] else turn
    if st[BPOS][i] >= st[BEND][i]:
        check_blocked(st, cf, i)


@njit(cache=True, _nrt=False, inline="always")
def penalty(st, tb, i, s, w_):
    """Seat ``s``'s penalty in round ``i`` (R11)."""
    total = 0
    for w in range(w_):
        h = st[H][i, s, w]
        while h != ZERO:
            total += tb[3][w * 64 + np.int64(cttz(h))]
            h &= h - ONE
    return total


@njit(cache=True, _nrt=False, inline="always")
def action_of(cf, tb, kind, t, a):
    """The action id of the move ``(kind, t, a)``."""
    if kind == 1:
        return cf[C_DRAW]
    if kind == 2:
        return cf[C_PASS]
    return t * cf[C_SLOTS] + tb[4][t, cf[C_S] if a < 0 else a]
