"""The batched engine's built-in agents, compiled: random, greedy and heuristic seats
play their moves inside the kernel, round after round, until a seat played from outside
(a learner, a policy) is to act or the round ends (``chickenfoot.batch``'s
``play_agents``, which the Gymnasium environments call after every learner's move).

Arguments as in :mod:`.rules` (``st``, ``cf``, ``tb``; ``rs`` a splitmix64 state), with
``kinds``: an int64 array ``(P,)``, per seat 0 (random), 1 (greedy), 2 (heuristic) or
-1 (played from outside: the kernel stops there). The choices are those of the core:

- greedy: :class:`~chickenfoot.GreedyAgent`, the play of the tile worth the most points
  (``tb[3]``, the double blank at its value), the first in legal order (tile, then
  anchor, ascending) among equals; the draw or the pass without a play;
- heuristic: ``heuristic_policy`` of ``chickenfoot._rollouts`` (HeuristicAgent at its
  default weights without its ``hurt`` term, which reads the public history), in integers,
  the first in legal order among equals; the same choice as the search rollouts'
  (:mod:`.search`'s ``heuristic_play``), over the engine's arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    C_P,
    C_W,
    NBOARD,
    PEND,
    RESULT,
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
    popc,
    stuck_move,
)

ONE = np.uint64(1)


@njit(cache=True, _nrt=False, inline="always")
def _first_anchor(st, cf, i, x, y):
    """The lowest anchor whose line ends in ``x`` or ``y`` in round ``i`` (-1: none)."""
    for w in range(cf[C_W]):
        aw = st[E][i, x, w] | st[E][i, y, w]
        if aw != ZERO:
            return w * 64 + kth_word(aw, 0)
    return -1


@njit(cache=True, _nrt=False, inline="always")
def greedy_move(st, cf, tb, i):
    """:class:`GreedyAgent`'s move in round ``i`` (in play): ``(kind, tile, anchor)``."""
    best, value = -1, -1
    for w in range(cf[C_W]):
        c = cand(st, i, w)
        while c != ZERO:
            t = w * 64 + kth_word(c, 0)
            c &= c - ONE
            if tb[3][t] > value:
                best, value = t, tb[3][t]
    if best < 0:
        return stuck_move(st, cf, i), -1, -1
    pend = st[PEND][i]
    if pend >= 0:
        return 0, best, pend
    if st[NBOARD][i] == 0:
        return 0, best, -1
    return 0, best, _first_anchor(st, cf, i, tb[1][best], tb[2][best])


@njit(cache=True, _nrt=False, inline="always")
def _kept(st, cf, tb, i, seat, t, v):
    """Of the seat's tiles but ``t``, how many show ``v``, and whether ``v-v`` is one."""
    n, double = 0, False
    for w in range(cf[C_W]):
        h = st[H][i, seat, w] & tb[0][v, w]
        if (t >> 6) == w:
            h &= ~(ONE << np.uint64(t & 63))
        n += popc(h)
        while h != ZERO:
            u = w * 64 + kth_word(h, 0)
            h &= h - ONE
            if tb[1][u] == tb[2][u]:
                double = True
    return n, double


@njit(cache=True, _nrt=False, inline="always")
def _follow(st, cf, tb, i, seat, t, o):
    """2 for each kept tile showing ``o``, the number a play leaves open; 6 with ``o-o``."""
    n, double = _kept(st, cf, tb, i, seat, t, o)
    return 2 * n * (3 if double else 1)


@njit(cache=True, _nrt=False, inline="always")
def heuristic_move(st, cf, tb, i):
    """``heuristic_policy``'s move in round ``i`` (in play): ``(kind, tile, anchor)``."""
    if not any_cand(st, cf, i):
        return stuck_move(st, cf, i), -1, -1
    seat = st[TURN][i]
    pending = st[PEND][i]
    laid = st[NBOARD][i] > 0
    best_t, best_a, best = -1, -1, np.int64(-(1 << 62))
    for w in range(cf[C_W]):
        c = cand(st, i, w)
        while c != ZERO:
            t = w * 64 + kth_word(c, 0)
            c &= c - ONE
            x, y = tb[1][t], tb[2][t]
            base = tb[3][t]
            if x != y and (
                _kept(st, cf, tb, i, seat, t, x)[1] or _kept(st, cf, tb, i, seat, t, y)[1]
            ):
                base -= 3
            if pending >= 0:  # a toe
                o = y if x == tb[1][pending] else x
                score = base + _follow(st, cf, tb, i, seat, t, o)
                if score > best:
                    best_t, best_a, best = t, pending, score
                continue
            if not laid:  # the centre
                if base > best:
                    best_t, best_a, best = t, -1, base
                continue
            for u in range(cf[C_W]):
                aw = st[E][i, x, u] | st[E][i, y, u]
                while aw != ZERO:
                    a = u * 64 + kth_word(aw, 0)
                    aw &= aw - ONE
                    if x == y:
                        helpers = _kept(st, cf, tb, i, seat, t, x)[0]
                        score = base + (6 if helpers > 0 else -6)
                    else:
                        o = y if has_bit(st[E], x, a, i) else x
                        score = base + _follow(st, cf, tb, i, seat, t, o)
                    if score > best:
                        best_t, best_a, best = t, a, score
    return 0, best_t, best_a


@njit(cache=True, _nrt=False)
def play_agents(st, cf, tb, rs, lanes, kinds, ended, moved, actions):
    """In each round ``lanes[r]``: while it is in play and seat ``turn`` has a built-in
    kind, make that seat's move. ``ended[r]``: whether the round ended here; ``moved[r]``:
    the moves made. ``actions``: an int64 array ``(len(lanes), width)``; with ``width``
    above 0, the action ids of round ``lanes[r]``'s moves go to ``actions[r, :moved[r]]``
    and a round stops when its row is full (``width`` 0: nothing is kept, no limit)."""
    p = cf[C_P]
    width = actions.shape[1]
    for r in range(lanes.shape[0]):
        i = lanes[r]
        m = 0
        while st[RESULT][i] == -1:
            k = kinds[st[TURN][i] if st[TURN][i] < p else 0]
            if k < 0 or (width > 0 and m == width):
                break
            if k == 0:
                kind, t, a = choose(st, cf, tb, i, rs)
            elif k == 1:
                kind, t, a = greedy_move(st, cf, tb, i)
            else:
                kind, t, a = heuristic_move(st, cf, tb, i)
            if width > 0:
                actions[r, m] = action_of(cf, tb, kind, t, a)
            apply_move(st, cf, tb, i, kind, t, a)
            m += 1
        ended[r] = m > 0 and st[RESULT][i] != -1
        moved[r] = m
