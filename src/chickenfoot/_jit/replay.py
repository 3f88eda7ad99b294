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

from numba import njit

from .lanes import legal_row, observe
from .rules import C_A, C_DRAW, C_P, C_PASS, C_SLOTS, C_W, ONE, TURN, ZERO, H, apply_move, kth_word


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
