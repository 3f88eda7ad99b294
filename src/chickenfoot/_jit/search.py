"""The rollouts of the search agent compiled with numba: one call per sampled world.

:func:`rollouts` takes one position of the core (``chickenfoot._kernel``) as arrays, and
for each of the listed moves makes it, plays the round to its end and writes every seat's
penalty. Three rollouts, exactly as the pure Python ones (the tests hold them to
``chickenfoot.playout.playout``):

- greedy (mode 0): ``_greedy_policy`` of ``chickenfoot.agents``: the play of the tile worth
  the most points (``val``), the first in the core's legal order among equals; else the
  only move (draw or pass);
- heuristic (mode 2): ``heuristic_policy`` of ``chickenfoot._rollouts`` (HeuristicAgent's
  scores at its default weights, without ``hurt``, in integers), the first among equals;
- random (mode 1): the choices of ``random.Random(seed)`` (``seed`` an int below 2**64)
  over the core's legal order, as ``chickenfoot.playout`` makes them: ``_randbelow(n)``
  by ``getrandbits(n.bit_length())`` until below ``n``, one Mersenne Twister output each
  (:func:`.deal.mt_next`), seeded by ``init_by_array`` of the seed's 32-bit words.

The layout (``W`` uint64 words per tile set, tile ``t`` bit ``t % 64`` of word ``t // 64``):

- ``bits`` uint64: the hands (``P * W`` words, seat by seat), the open ends by number
  (``V * W``) and the playable tiles (``W``);
- ``sc`` int64: turn, drawn tile (-1), pending hub (-1), toes needed, the bitmask of open
  numbers, 1 if the board is not empty, the centre;
- ``bone`` int64: the boneyard's tile ids, front first;
- ``moves`` int64 ``(n, 2)``: tile and anchor of each play (anchor -1: the centre), tile
  -1 for a draw and -2 for a pass;
- tables: ``px``, ``py`` the pips of each tile, ``val`` its points, ``withw`` ``(V, W)`` the
  tiles showing each number; ``cf`` int64: players, words, numbers, ``draw ==
  "until_playable"``, ``may_draw_instead``, ``drawn_tile == "may_play"``, opening toes,
  foot toes, the objective (0: margin, 1: win);
- out: ``pens`` ``(n, P)`` the penalties, and ``totals[i]`` gains the search agent's score
  of the rollout, in the same float operations: objective 0 (``"margin"``) seat ``seat``'s
  penalty minus the others' mean; objective 1 (``"win"``) minus its share of the round's
  win (``1 / k`` when it is one of ``k`` seats with the lowest penalty, else nothing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .deal import mt_next, mt_seed
from .rules import kth_word, popc

ZERO = np.uint64(0)
ONE = np.uint64(1)
M32 = np.uint64(0xFFFF_FFFF)
# positions in the scalar state ``st`` of a rollout
TURN, DRAWN, PEND, NEED, NUMS, LAID, BPOS, RES = range(8)
C_P, C_W, C_V, C_UNTIL, C_MDI, C_MAYPLAY, C_OTOES, C_FTOES, C_OBJ = range(9)


@njit(cache=True, _nrt=False, inline="always")
def bit(t):
    return ONE << np.uint64(t & 63)


@njit(cache=True, _nrt=False)
def set_mask(mw, withw, nums, w_, v_):
    for w in range(w_):
        m = ZERO
        for v in range(v_):
            if (nums >> v) & 1:
                m |= withw[v, w]
        mw[w] = m


@njit(cache=True, _nrt=False)
def end_turn(st, hw, mw, cf, nb):
    """The turn passes (after a pass or a play that did not go out); an empty boneyard
    and no playable tile in any hand block the round."""
    st[DRAWN] = -1
    st[TURN] = (st[TURN] + 1) % cf[C_P]
    if st[BPOS] < nb:
        return
    w_ = cf[C_W]
    for s in range(cf[C_P]):
        for w in range(w_):
            if hw[s * w_ + w] & mw[w] != ZERO:
                return
    st[RES] = cf[C_P]


@njit(cache=True, _nrt=False)
def play(st, hw, ew, mw, withw, px, py, cf, t, a, nb):
    """Lay tile ``t`` of the seat to act on anchor ``a`` (the core's ``lay`` and ``do_play``)."""
    w_, v_ = cf[C_W], cf[C_V]
    seat = st[TURN]
    wt = t >> 6
    hw[seat * w_ + wt] ^= bit(t)
    x, y = px[t], py[t]
    pending = st[PEND]
    if a < 0:  # the centre, in holder mode
        st[LAID] = 1
        st[PEND] = t
        st[NEED] = cf[C_OTOES]
        for w in range(w_):
            mw[w] = withw[x, w]
    elif pending >= 0:  # a toe of the pending hub
        o = y if x == px[pending] else x
        ew[o * w_ + wt] |= bit(t)
        st[NUMS] |= 1 << o
        st[NEED] -= 1
        if st[NEED] == 0:
            st[PEND] = -1
            set_mask(mw, withw, st[NUMS], w_, v_)
    else:  # on an open end
        wa = a >> 6
        if ew[x * w_ + wa] & bit(a) != ZERO:
            v, o = x, y
        else:
            v, o = y, x
        ew[v * w_ + wa] ^= bit(a)
        before = st[NUMS]
        empty = True
        for w in range(w_):
            if ew[v * w_ + w] != ZERO:
                empty = False
        if empty:
            st[NUMS] ^= 1 << v
        if x == y:  # a double: a hub needing toes
            st[PEND] = t
            st[NEED] = cf[C_FTOES]
            for w in range(w_):
                mw[w] = withw[x, w]
        else:
            ew[o * w_ + wt] |= bit(t)
            st[NUMS] |= 1 << o
            if st[NUMS] != before:
                set_mask(mw, withw, st[NUMS], w_, v_)
    for w in range(w_):
        if hw[seat * w_ + w] != ZERO:
            end_turn(st, hw, mw, cf, nb)
            return
    st[DRAWN] = -1
    st[RES] = seat  # went out


@njit(cache=True, _nrt=False)
def draw(st, hw, bone, w_):
    t = bone[st[BPOS]]
    st[BPOS] += 1
    hw[st[TURN] * w_ + (t >> 6)] |= bit(t)
    st[DRAWN] = t


@njit(cache=True, _nrt=False)
def candidates(st, hw, mw, cw, w_):
    """The tiles the seat to act may play into ``cw``; whether there is one."""
    d = st[DRAWN]
    seat = st[TURN]
    found = False
    for w in range(w_):
        c = hw[seat * w_ + w] & mw[w]
        if d >= 0:
            c &= bit(d) if (d >> 6) == w else ZERO
        cw[w] = c
        if c != ZERO:
            found = True
    return found


@njit(cache=True, _nrt=False)
def count_plays(st, ew, cw, withw, w_, v_):
    """The number of plays (the candidates are not empty)."""
    if st[PEND] >= 0:
        total = 0
        for w in range(w_):
            total += popc(cw[w])
        return total
    if not st[LAID]:
        return 1
    total = 0
    nums = st[NUMS]
    for v in range(v_):
        if (nums >> v) & 1:
            c = 0
            e = 0
            for w in range(w_):
                c += popc(cw[w] & withw[v, w])
                e += popc(ew[v * w_ + w])
            total += c * e
    return total


@njit(cache=True, _nrt=False)
def anchors_word(ew, px, py, t, w, w_):
    x, y = px[t], py[t]
    return ew[x * w_ + w] | ew[y * w_ + w]


@njit(cache=True, _nrt=False)
def nth_play(st, ew, cw, px, py, w_, r, centre):
    """Play ``r`` (from 0) in the core's legal order: tiles ascending, each on its anchors
    ascending (a toe: on the pending hub). Returns ``(tile, anchor)``."""
    pending = st[PEND]
    if pending >= 0:
        for w in range(w_):
            pc = popc(cw[w])
            if r < pc:
                return w * 64 + kth_word(cw[w], r), pending
            r -= pc
        return -1, -1  # pragma: no cover - r is below the count
    if not st[LAID]:
        return centre, -1
    for w in range(w_):
        c = cw[w]
        while c != ZERO:
            t = w * 64 + kth_word(c, 0)
            c &= c - ONE
            k = 0
            for u in range(w_):
                k += popc(anchors_word(ew, px, py, t, u, w_))
            if r < k:
                for u in range(w_):
                    aw = anchors_word(ew, px, py, t, u, w_)
                    pc = popc(aw)
                    if r < pc:
                        return t, u * 64 + kth_word(aw, r)
                    r -= pc
            r -= k
    return -1, -1  # pragma: no cover - r is below the count


@njit(cache=True, _nrt=False)
def greedy_play(st, ew, cw, px, py, val, w_, centre):
    """The play of the tile worth the most points, the first in legal order among equals."""
    best, best_value = -1, -1
    for w in range(w_):
        c = cw[w]
        while c != ZERO:
            t = w * 64 + kth_word(c, 0)
            c &= c - ONE
            if val[t] > best_value:
                best, best_value = t, val[t]
    if st[PEND] >= 0:
        return best, st[PEND]
    if not st[LAID]:
        return best, -1
    for u in range(w_):
        aw = anchors_word(ew, px, py, best, u, w_)
        if aw != ZERO:
            return best, u * 64 + kth_word(aw, 0)
    return best, -1  # pragma: no cover - a candidate has an anchor


@njit(cache=True, _nrt=False)
def kept(hw, withw, px, py, seat, t, v, w_):
    """Of the seat's tiles but ``t``, how many show ``v``, and whether ``v-v`` is one."""
    n, double = 0, False
    for w in range(w_):
        h = hw[seat * w_ + w] & withw[v, w]
        if (t >> 6) == w:
            h &= ~bit(t)
        n += popc(h)
        while h != ZERO:
            u = w * 64 + kth_word(h, 0)
            h &= h - ONE
            if px[u] == py[u]:
                double = True
    return n, double


@njit(cache=True, _nrt=False)
def follow(hw, withw, px, py, seat, t, o, w_):
    """2 for each kept tile showing ``o``, the number a play leaves open; 6 with ``o-o``."""
    n, double = kept(hw, withw, px, py, seat, t, o, w_)
    return 2 * n * (3 if double else 1)


@njit(cache=True, _nrt=False)
def lacking(lack, seat, o):
    """3 for each seat but ``seat`` whose bitmask in ``lack`` holds number ``o``."""
    n = 0
    for s in range(lack.shape[0]):
        if s != seat and (lack[s] >> o) & 1:
            n += 3
    return n


@njit(cache=True, _nrt=False)
def heuristic_play(st, hw, ew, cw, px, py, val, withw, w_, centre, lack):
    """``heuristic_policy`` of ``chickenfoot._rollouts``: the play with the best integer
    score, the first in legal order among equals; ``lack`` the numbers each seat lacks
    for the ``hurt`` term (empty: none)."""
    seat = st[TURN]
    pending = st[PEND]
    best_t, best_a, best = -1, -1, np.int64(-(1 << 62))
    for w in range(w_):
        c = cw[w]
        while c != ZERO:
            t = w * 64 + kth_word(c, 0)
            c &= c - ONE
            x, y = px[t], py[t]
            base = val[t]
            if x != y and (
                kept(hw, withw, px, py, seat, t, x, w_)[1]
                or kept(hw, withw, px, py, seat, t, y, w_)[1]
            ):
                base -= 3
            if pending >= 0:  # a toe
                o = y if x == px[pending] else x
                score = base + follow(hw, withw, px, py, seat, t, o, w_) + lacking(lack, seat, o)
                if score > best:
                    best_t, best_a, best = t, pending, score
                continue
            if not st[LAID]:  # the centre
                if base > best:
                    best_t, best_a, best = t, -1, base
                continue
            for u in range(w_):
                aw = anchors_word(ew, px, py, t, u, w_)
                while aw != ZERO:
                    a = u * 64 + kth_word(aw, 0)
                    aw &= aw - ONE
                    if x == y:
                        helpers = kept(hw, withw, px, py, seat, t, x, w_)[0]
                        score = base + (6 if helpers > 0 else -6)
                    else:
                        o = y if ew[x * w_ + u] & bit(a) != ZERO else x
                        score = base + follow(hw, withw, px, py, seat, t, o, w_)
                        score += lacking(lack, seat, o)
                    if score > best:
                        best_t, best_a, best = t, a, score
    return best_t, best_a


@njit(cache=True, _nrt=False)
def getrandbits(mt, pos, k):
    return np.int64(mt_next(mt, pos) >> np.uint64(32 - k))


@njit(cache=True, _nrt=False)
def step(st, hw, ew, mw, cw, bone, nb, withw, px, py, val, cf, centre, mode, mt, pos, lack):
    """One move of the rollout: greedy (mode 0), random (mode 1) or heuristic (mode 2,
    ``lack`` as :func:`heuristic_play` reads it)."""
    w_ = cf[C_W]
    d = st[DRAWN]
    if not candidates(st, hw, mw, cw, w_):
        if mode == 1:
            while getrandbits(mt, pos, 1):  # choice() over the one move: _randbelow(1)
                pass
        if st[BPOS] < nb and (d < 0 or cf[C_UNTIL]):
            draw(st, hw, bone, w_)
        else:
            end_turn(st, hw, mw, cf, nb)
        return
    if mode == 0:
        t, a = greedy_play(st, ew, cw, px, py, val, w_, centre)
        play(st, hw, ew, mw, withw, px, py, cf, t, a, nb)
        return
    if mode == 2:
        t, a = heuristic_play(st, hw, ew, cw, px, py, val, withw, w_, centre, lack)
        play(st, hw, ew, mw, withw, px, py, cf, t, a, nb)
        return
    total = count_plays(st, ew, cw, withw, w_, cf[C_V])
    # the move beside the plays: a draw instead (before drawing), or a pass (after)
    extra = (1 if st[BPOS] < nb and cf[C_MDI] and st[LAID] else 0) if d < 0 else cf[C_MAYPLAY]
    n = total + extra
    k = 0
    while (1 << k) <= n:
        k += 1
    r = getrandbits(mt, pos, k)
    while r >= n:
        r = getrandbits(mt, pos, k)
    if r == total:
        if d < 0:
            draw(st, hw, bone, w_)
        else:
            end_turn(st, hw, mw, cf, nb)
        return
    t, a = nth_play(st, ew, cw, px, py, w_, r, centre)
    play(st, hw, ew, mw, withw, px, py, cf, t, a, nb)


@njit(cache=True)
def rollouts(bits, sc, bone, moves, px, py, val, withw, cf, mode, seed, mt0, pens, totals, seat):
    """For each move: make it, play the round out, write the penalties (module docstring)."""
    p_, w_, v_ = cf[C_P], cf[C_W], cf[C_V]
    nb = bone.shape[0]
    centre = sc[6]
    hw = np.empty(p_ * w_, dtype=np.uint64)
    ew = np.empty(v_ * w_, dtype=np.uint64)
    mw = np.empty(w_, dtype=np.uint64)
    cw = np.empty(w_, dtype=np.uint64)
    st = np.empty(8, dtype=np.int64)
    mt = np.empty(624, dtype=np.uint64)
    seeded = np.empty(624, dtype=np.uint64)
    pos = np.zeros(1, dtype=np.int64)
    lack = np.zeros(0, dtype=np.int64)  # (no hurt term)
    if mode == 1:  # random.Random(seed): init_by_array of the seed's 32-bit words, once
        key = np.empty(2, dtype=np.uint64)
        key[0] = seed & M32
        key[1] = seed >> np.uint64(32)
        mt_seed(mt0, key, 2 if key[1] != ZERO else 1, seeded)
    for i in range(moves.shape[0]):
        for j in range(p_ * w_):
            hw[j] = bits[j]
        for j in range(v_ * w_):
            ew[j] = bits[p_ * w_ + j]
        for j in range(w_):
            mw[j] = bits[(p_ + v_) * w_ + j]
        for j in range(6):
            st[j] = sc[j]
        st[BPOS] = 0
        st[RES] = -1
        if mode == 1:
            for j in range(624):
                mt[j] = seeded[j]
            pos[0] = 0
        t, a = moves[i, 0], moves[i, 1]
        if t == -1:
            draw(st, hw, bone, w_)
        elif t == -2:
            end_turn(st, hw, mw, cf, nb)
        else:
            play(st, hw, ew, mw, withw, px, py, cf, t, a, nb)
        while st[RES] < 0:
            step(st, hw, ew, mw, cw, bone, nb, withw, px, py, val, cf, centre, mode, mt, pos, lack)
        total = 0
        for s in range(p_):
            pen = 0
            for w in range(w_):
                h = hw[s * w_ + w]
                while h != ZERO:
                    pen += val[w * 64 + kth_word(h, 0)]
                    h &= h - ONE
            pens[i, s] = pen
            total += pen
        own = pens[i, seat]
        if cf[C_OBJ] == 0:
            totals[i] += np.float64(own) - np.float64(total - own) / np.float64(p_ - 1)
        else:
            low = own
            for s in range(p_):
                low = min(low, pens[i, s])
            if own == low:
                k = 0
                for s in range(p_):
                    if pens[i, s] == low:
                        k += 1
                totals[i] -= 1.0 / np.float64(k)
