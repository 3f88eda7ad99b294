"""Determinization compiled with numba: ``View.sample`` and the search's iterations.

:func:`iterations` runs whole iterations of the search agent: deal the unseen tiles as
``chickenfoot.sampling.sample_state`` does (``chickenfoot._slots.assign``, then the
boneyard's shuffle), draw the rollouts' seed (``rng.getrandbits(64)``) and run the
rollouts (:func:`.search.rollouts`), all from the caller's ``random.Random`` state,
which it advances exactly as the pure Python code would.

Exactness needs two things of CPython's, mirrored here:

- the Mersenne Twister (``mt``: the 624 words of ``random.getstate()``, ``pos[0]`` its
  index), ``getrandbits(k)`` (one output shifted for k <= 32; two, low word first, for
  64), ``random()`` (``(a >> 5, b >> 6)`` over 2**53), ``_randbelow`` (``getrandbits``
  of the bit length until below), ``shuffle`` and ``choices`` with weights
  (``random() * total`` bisected in the running sums);
- ``bisect`` and the list operations ``assign`` uses (``append``, ``remove``: each
  slot's tiles are a list, walked in order), written out.

The caller's self-check (``chickenfoot._rollouts``) compares with real samples once a
process before trusting the kernel, and falls back to the pure sampler if they differ.

Layout of the problem ``pr`` (int64 arrays, from ``chickenfoot._slots.Problem``): tiles,
the feasible slots of each tile as ``foff``/``fsl`` (offsets, slots in list order), cap,
owner, base, the force pairs ``(tile index, slot)``, played (1: the tile is on the board,
in no hand), the slots' list offsets ``toff``, ``misc`` (players, boneyard slot,
viewer's seat) and ``fw`` (float64, beside ``fsl``: the weight of each feasible slot, which
scales its room when the tile is placed; all 1 for the uniform dealing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .search import rollouts

N = 624
ONE = np.uint64(1)
M32 = np.uint64(0xFFFF_FFFF)
UPPER = np.uint64(0x8000_0000)
LOWER = np.uint64(0x7FFF_FFFF)
MATRIX_A = np.uint64(0x9908_B0DF)


# -- CPython's random.Random ------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def genrand(mt, pos):
    """The next 32-bit output of the generator whose state is ``mt`` and index ``pos[0]``."""
    if pos[0] >= N:
        for k in range(N):
            y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER)
            mag = MATRIX_A if y & ONE else np.uint64(0)
            mt[k] = mt[(k + 397) % N] ^ (y >> ONE) ^ mag
        pos[0] = 0
    y = mt[pos[0]]
    pos[0] += 1
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C_5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC6_0000)
    y ^= y >> np.uint64(18)
    return y & M32


@njit(cache=True, _nrt=False)
def randbelow(mt, pos, n):
    k = 0
    while (1 << k) <= n:
        k += 1
    r = np.int64(genrand(mt, pos) >> np.uint64(32 - k))
    while r >= n:
        r = np.int64(genrand(mt, pos) >> np.uint64(32 - k))
    return r


@njit(cache=True, _nrt=False)
def shuffle(mt, pos, x, m):
    for i in range(m - 1, 0, -1):
        j = randbelow(mt, pos, i + 1)
        x[i], x[j] = x[j], x[i]


@njit(cache=True, _nrt=False)
def shuffle_pairs(mt, pos, x, m):
    for i in range(m - 1, 0, -1):
        j = randbelow(mt, pos, i + 1)
        a, b = x[i, 0], x[i, 1]
        x[i, 0], x[i, 1] = x[j, 0], x[j, 1]
        x[j, 0], x[j, 1] = a, b


@njit(cache=True, _nrt=False)
def random01(mt, pos):
    a = np.float64(genrand(mt, pos) >> np.uint64(5))
    b = np.float64(genrand(mt, pos) >> np.uint64(6))
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


# -- the slots' lists of tiles ----------------------------------------------------------------
# Slot ``g``'s list is ``keys[toff[g]:toff[g] + sm[g]]`` (room for ``cap[g] + 1``: a walk
# adds to a slot before it takes one out).


@njit(cache=True, _nrt=False)
def list_append(keys, toff, sm, g, key):
    keys[toff[g] + sm[g]] = key
    sm[g] += 1


@njit(cache=True, _nrt=False)
def list_remove(keys, toff, sm, g, key):
    """``list.remove``: the first ``key`` goes, the ones after it move up."""
    base, n = toff[g], sm[g]
    j = 0
    while keys[base + j] != key:
        j += 1
    for k in range(j, n - 1):
        keys[base + k] = keys[base + k + 1]
    sm[g] = n - 1


# -- chickenfoot._slots.assign ----------------------------------------------------------------


@njit(cache=True, _nrt=False)
def move_to(x, g, where, fixed, room, foff, fsl, keys, toff, sm, par, queue):
    """``move_to`` of ``assign``: place ``x`` in ``g`` along an alternating path."""
    home = where[x]
    if home != g:
        slots = room.shape[0]
        for h in range(slots):
            par[h, 0] = -2  # not in parent
        par[g, 0] = -1
        par[g, 1] = -1
        queue[0] = g
        qn = 1
        qi = 0
        found = False
        while qi < qn:
            q = queue[qi]
            qi += 1
            base = toff[q]
            for j in range(sm[q]):
                y = keys[base + j]
                if fixed[y] or y == x:
                    continue
                for f in range(foff[y], foff[y + 1]):
                    h = fsl[f]
                    if par[h, 0] != -2:
                        continue
                    par[h, 0] = y
                    par[h, 1] = q
                    if h == home:
                        break
                    queue[qn] = h
                    qn += 1
                if par[home, 0] != -2:
                    found = True
                    break
            if found:
                break
        if not found:
            return False
        h = home
        while h != g:
            y, q = par[h, 0], par[h, 1]
            list_remove(keys, toff, sm, q, y)
            list_append(keys, toff, sm, h, y)
            where[y] = h
            h = q
        list_remove(keys, toff, sm, home, x)
        list_append(keys, toff, sm, g, x)
        where[x] = g
    fixed[x] = True
    room[g] -= 1
    return True


@njit(cache=True, _nrt=False)
def assign(mt, pos, foff, fsl, cap, base, force, keys, toff, sm, where, ws, fw):
    """``assign(p, rng)`` into ``where``; False when forcing fails (never, once it worked)."""
    n = base.shape[0]
    slots = cap.shape[0]
    fixed, room, order, cands, cum, par, queue, pairs, cw = ws
    for g in range(slots):
        sm[g] = 0
        room[g] = cap[g]
    for x in range(n):
        where[x] = base[x]
        fixed[x] = False
        list_append(keys, toff, sm, base[x], x)
    nf = force.shape[0]
    if nf:
        for i in range(nf):
            pairs[i, 0], pairs[i, 1] = force[i, 0], force[i, 1]
        shuffle_pairs(mt, pos, pairs, nf)
        ok = False
        for i in range(nf):
            if move_to(pairs[i, 0], pairs[i, 1], where, fixed, room, foff, fsl, keys, toff,
                       sm, par, queue):  # fmt: skip
                ok = True
                break
        if not ok:
            return False
    for i in range(n):
        order[i] = i
    shuffle(mt, pos, order, n)
    for i in range(n):
        x = order[i]
        if fixed[x]:
            continue
        nc = 0
        for f in range(foff[x], foff[x + 1]):
            if room[fsl[f]]:
                cands[nc] = fsl[f]
                cw[nc] = fw[f]
                nc += 1
        while True:
            if nc == 0:
                return False  # pragma: no cover - a complete assignment always exists
            if nc == 1:
                c = 0
            else:
                total = 0.0
                for k in range(nc):
                    total += np.float64(room[cands[k]]) * cw[k]
                    cum[k] = total
                r = random01(mt, pos) * np.float64(total)
                lo, hi = 0, nc - 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if r < cum[mid]:
                        hi = mid
                    else:
                        lo = mid + 1
                c = lo
            g = cands[c]
            if move_to(x, g, where, fixed, room, foff, fsl, keys, toff, sm, par, queue):
                break
            for k in range(c, nc - 1):
                cands[k] = cands[k + 1]
                cw[k] = cw[k + 1]
            nc -= 1
    return True


@njit(cache=True)
def workspace(pr):
    """The arrays a caller of :func:`sample_into` keeps between deals: ``assign``'s lists and
    scratch, the slot of each tile, and the boneyard."""
    tiles, _, _, cap, _, _, force, _, toff, _, _ = pr
    n = tiles.shape[0]
    slots = cap.shape[0]
    keys = np.empty(toff[slots], dtype=np.int64)
    sm = np.zeros(slots, dtype=np.int64)
    where = np.empty(n, dtype=np.int64)
    big = max(n, slots) + 1
    ws = (
        np.zeros(n, dtype=np.bool_),
        np.empty(slots, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(slots, dtype=np.int64),
        np.empty(slots, dtype=np.float64),
        np.empty((slots, 2), dtype=np.int64),
        np.empty(big, dtype=np.int64),
        np.empty((max(force.shape[0], 1), 2), dtype=np.int64),
        np.empty(slots, dtype=np.float64),
    )
    return keys, sm, where, ws, np.empty(n, dtype=np.int64)


@njit(cache=True, _nrt=False)
def sample_into(pr, mt, pos, keys, sm, where, ws, bone, hw, hand, w_):
    """One sample, as ``sample_state`` deals it: ``assign``, then every seat's hand into
    ``hw`` (the viewer's is ``hand``), the boneyard into ``bone``, shuffled. Returns the
    boneyard's size, or -1 when forcing failed (never, once it worked)."""
    tiles, foff, fsl, cap, owner, base, force, played, toff, misc, fw = pr
    p_, bone_slot, me = misc[0], misc[1], misc[2]
    if not assign(mt, pos, foff, fsl, cap, base, force, keys, toff, sm, where, ws, fw):
        return -1
    for j in range(p_ * w_):
        hw[j] = np.uint64(0)
    for w in range(w_):
        hw[me * w_ + w] = hand[w]
    nb = 0
    for i in range(tiles.shape[0]):
        g = where[i]
        t = tiles[i]
        if g == bone_slot:
            bone[nb] = t
            nb += 1
        elif owner[g] >= 0 and not played[i]:
            hw[owner[g] * w_ + (t >> 6)] |= ONE << np.uint64(t & 63)
    shuffle(mt, pos, bone, nb)
    return nb


@njit(cache=True)
def iterations(pr, mt, pos, count, bits, sc, moves, tabs, cf, mode, mt0, pens, totals, seat,
               hand):  # fmt: skip
    """``count`` iterations of the search (module docstring): sample, seed, rollouts.
    ``hand`` is the viewer's hand (``W`` words); returns False if a sample failed."""
    keys, sm, where, ws, bone = workspace(pr)
    for _ in range(count):
        nb = sample_into(pr, mt, pos, keys, sm, where, ws, bone, bits, hand, cf[1])
        if nb < 0:
            return False
        lo = genrand(mt, pos)
        hi = genrand(mt, pos)
        seed = (hi << np.uint64(32)) | lo
        rollouts(bits, sc, bone[:nb], moves, tabs[0], tabs[1], tabs[2], tabs[3], cf, mode, seed,
                 mt0, pens, totals, seat)  # fmt: skip
    return True
