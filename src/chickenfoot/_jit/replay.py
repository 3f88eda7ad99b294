"""Rounds replayed from their action ids, compiled: each move judged against the rules,
then made, and (:func:`replay_rows`) what a learner sees before it written out.

The batched engine's ``replay`` (``chickenfoot.batch``) calls these; the data sets
(:mod:`chickenfoot.dataset`: its check and its decisions) stand on that. Arguments as in
:mod:`.rules` (``st``, ``cf``, ``tb``; ``sc`` the scratch arrays of
``chickenfoot.batch._compiled``, whose ``sc[4]`` is a row of action ids), and:

- ``lanes``: int64 ``(n,)``, the rounds replayed (each from where it stands: its deal);
- ``starts``: int64 ``(n + 1,)``; round ``lanes[r]`` replays ``actions[starts[r]:starts[r + 1]]``;
- ``actions``: int64, action ids of :class:`chickenfoot.encoding.Encoding` (the layout of
  every kernel here: ``tile * slots + slot``, then the draw and the pass);
- ``made``: int64 ``(n,)``, out: the moves made in round ``lanes[r]``. A round stops at
  the first action that is not a legal move there (outside the action space, not among
  :func:`.lanes.legal_row`'s, or after the round's end), so ``made[r]`` is its index
  from ``starts[r]``, or the round's whole count if every action was legal.

:func:`replay_rows` also fills, for action ``j`` (a global index into ``actions``), before
it is made: ``seats[j]`` (int64, the seat to act), ``mask[j]`` (bool, the legal actions), ``obs[j]`` (float32, the observation of
the seat to act, :func:`.lanes.observe`'s, ``off`` its offsets) and ``hands[j]`` (bool
``(players, tiles)``, the true hands), each row cleared first. Rows of actions after a
refused one are left as they were.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .lanes import legal_row, observe
from .rules import (
    BEND,
    BOARD,
    BONE,
    BPOS,
    C_A,
    C_DRAW,
    C_OTOES,
    C_P,
    C_PASS,
    C_SLOTS,
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
    apply_move,
    bitw,
    kth_word,
    penalty,
)


@njit(cache=True, _nrt=False, inline="always")
def decode(cf, tb, x):
    """The move ``(kind, tile, anchor)`` of action id ``x`` (in the action space)."""
    if x == cf[C_DRAW]:
        return 1, -1, -1
    if x == cf[C_PASS]:
        return 2, -1, -1
    t = x // cf[C_SLOTS]
    return 0, t, tb[5][t, x % cf[C_SLOTS]]


@njit(cache=True, _nrt=False, inline="always")
def _legal(row, k, x):
    for j in range(k):
        if row[j] == x:
            return True
    return False


@njit(cache=True, _nrt=False)
def replay(st, cf, tb, sc, lanes, starts, actions, made):
    """Replay the actions of each round (see the module doc)."""
    row = sc[4]
    for r in range(lanes.shape[0]):
        i = lanes[r]
        m = 0
        for j in range(starts[r], starts[r + 1]):
            x = actions[j]
            if x < 0 or x >= cf[C_A] or not _legal(row, legal_row(st, cf, tb, i, row), x):
                break
            kind, t, a = decode(cf, tb, x)
            apply_move(st, cf, tb, i, kind, t, a)
            m += 1
        made[r] = m


@njit(cache=True, _nrt=False)
def replay_rows(st, cf, tb, sc, lanes, starts, actions, off, made, seats, mask, obs, hands):
    """:func:`replay`, writing each decision's mask, observation and hands (module doc)."""
    row = sc[4]
    p, w_ = cf[C_P], cf[C_W]
    for r in range(lanes.shape[0]):
        i = lanes[r]
        m = 0
        for j in range(starts[r], starts[r + 1]):
            x = actions[j]
            k = legal_row(st, cf, tb, i, row)
            seats[j] = st[TURN][i]
            for q in range(mask.shape[1]):
                mask[j, q] = False
            for q in range(k):
                mask[j, row[q]] = True
            observe(st, cf, tb, lanes[r : r + 1], -1, off, obs[j : j + 1])
            for s in range(p):
                for q in range(hands.shape[2]):
                    hands[j, s, q] = False
                for w in range(w_):
                    h = st[H][i, s, w]
                    while h != ZERO:
                        hands[j, s, w * 64 + kth_word(h, 0)] = True
                        h &= h - ONE
            if x < 0 or x >= cf[C_A] or not _legal(row, k, x):
                break
            kind, t, a = decode(cf, tb, x)
            apply_move(st, cf, tb, i, kind, t, a)
            m += 1
        made[r] = m


# -- one round from its deal, with the seat of every move (the notation's reader) ---------------

# ``spec`` of :func:`replay_deal` (int64): these four, then each seat's tile count and tiles,
# then the boneyard's tiles in order, then the moves' action ids, then their seats.
D_TURN, D_CENTRE, D_LAID, D_MOVES = range(4)
# ``out`` of :func:`replay_deal` (uint64): these eight, then each seat's hand words, each
# number's open-end words, each seat's penalty.
O_MADE, O_TURN, O_DRAWN, O_BPOS, O_PEND, O_NEED, O_NUMS, O_RESULT = range(8)
O_WORDS = 8


@njit(cache=True, _nrt=False)
def replay_deal(st, cf, tb, row, spec, out):
    """Deal round 0 of ``st`` (``row``: a row of action ids, scratch) from ``spec`` (layout above: the seat to act, the centre,
    whether it is laid, the move count; the hands, the boneyard, the action ids, the
    seats), replay its moves as :func:`replay` does, stopping also at a move whose seat is
    not the seat to act, and write the position reached into ``out`` (layout above; the
    drawn tile, the pending hub and the result plus one, so that none is negative)."""
    i = 0
    p, w_, v_ = cf[C_P], cf[C_W], cf[C_V]
    centre = spec[D_CENTRE]
    for w in range(w_):
        st[MASK][i, w] = ZERO
        st[TABLE][i, w] = ZERO
        for s in range(p):
            st[H][i, s, w] = ZERO
        for v in range(v_):
            st[E][i, v, w] = ZERO
    at = 4
    for s in range(p):
        c = spec[at]
        for k in range(at + 1, at + 1 + c):
            t = spec[k]
            st[H][i, s, t >> 6] |= bitw(t, t >> 6)
        at += 1 + c
    n = spec[D_MOVES]
    nbone = spec.shape[0] - at - 2 * n
    for k in range(nbone):
        st[BONE][i, k] = spec[at + k]
    at += nbone
    st[BPOS][i] = 0
    st[BEND][i] = nbone
    st[NUMS][i] = 0
    st[TURN][i] = spec[D_TURN]
    st[DRAWN][i] = -1
    st[CENTRE][i] = centre
    st[RESULT][i] = -1
    st[PLIES][i] = 0
    if spec[D_LAID]:
        st[BOARD][i, 0] = np.int32(centre << 16)
        st[NBOARD][i] = 1
        st[TABLE][i, centre >> 6] = bitw(centre, centre >> 6)
        st[PEND][i] = centre
        st[NEED][i] = cf[C_OTOES]
        for w in range(w_):
            st[MASK][i, w] = tb[0][tb[1][centre], w]
    else:
        st[NBOARD][i] = 0
        st[PEND][i] = -1
        st[NEED][i] = 0
        st[MASK][i, centre >> 6] = bitw(centre, centre >> 6)
    m = 0
    for j in range(at, at + n):
        x = spec[j]
        if spec[j + n] != st[TURN][i] or x < 0 or x >= cf[C_A]:
            break
        if not _legal(row, legal_row(st, cf, tb, i, row), x):
            break
        kind, t, a = decode(cf, tb, x)
        apply_move(st, cf, tb, i, kind, t, a)
        m += 1
    out[O_MADE] = np.uint64(m)
    out[O_TURN] = np.uint64(st[TURN][i])
    out[O_DRAWN] = np.uint64(st[DRAWN][i] + 1)
    out[O_BPOS] = np.uint64(st[BPOS][i])
    out[O_PEND] = np.uint64(st[PEND][i] + 1)
    out[O_NEED] = np.uint64(st[NEED][i])
    out[O_NUMS] = np.uint64(st[NUMS][i])
    out[O_RESULT] = np.uint64(st[RESULT][i] + 1)
    at = O_WORDS
    for s in range(p):
        for w in range(w_):
            out[at] = st[H][i, s, w]
            at += 1
    for v in range(v_):
        for w in range(w_):
            out[at] = st[E][i, v, w]
            at += 1
    for s in range(p):
        out[at + s] = np.uint64(penalty(st, tb, i, s, w_))
