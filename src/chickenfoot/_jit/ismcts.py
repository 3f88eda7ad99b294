"""Information-set Monte Carlo tree search compiled with numba (``ISMCTSAgent``'s kernel).

Single-observer IS-MCTS (Cowling, Powley and Whitehouse 2012): one tree for the searching
seat, its nodes the sequences of moves (every seat's) from the decision; each iteration
deals the unseen tiles afresh (:func:`.sample.sample_into`: ``assign`` and the boneyard's
shuffle, exactly as ``View.sample`` from the caller's ``random.Random`` state), walks down
the tree among the moves legal in that deal, adds one node and finishes the round with
the heuristic rollout (:func:`.search.step`, mode 2, with the ``hurt`` term: each seat's
numbers lacked, from the caller's ``lacking`` and then kept by :func:`note` along the
walk, as ``note_lacking`` of ``chickenfoot._rollouts``). ``chickenfoot.ismcts`` holds the
same search in pure Python and the typed boundary; the two make the same choices. At a
node:

- the legal moves of the deal are listed in the core's order (:func:`legal`); each that
  is a child gains one availability;
- if one is not a child yet: the heuristic's choice if it is one of those, else the first
  of them, becomes a child (expansion) and the walk ends;
- else the child of the highest ``w / n + c * sqrt(log(avail) / n)`` (the first among
  equals) is taken.

With ``common`` each deal is tried with every move of the root in turn (the root's
children, made on the first deal in the legal order): the deal is copied, the move made,
and the walk goes on below it.

Every node on the walk then gains one visit and, in ``w``, the reward of the seat that
made its move: by ``against``, 0: ``0.5 - 0.5 * d / (|d| + scale)``, ``d`` the seat's
penalty minus the lowest of the others'; 1: the same, ``d`` minus their mean; 2: the share
of the others whose penalty was higher (a tie counts half). With ``alone`` the other seats
play the heuristic outside the tree.

The tree (caller's arrays, node 0 the root): ``tk``, ``ta`` the move (tile, anchor; -1 -1 a
draw, -2 -1 a pass), ``tm`` the seat that made it, ``tn`` visits, ``tv`` availability, ``tw``
rewards summed, ``tf``/``tl`` first and last child, ``ts`` next sibling; ``used[0]`` nodes
in use.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .rules import kth_word
from .sample import sample_into, workspace
from .search import (
    BPOS,
    C_MAYPLAY,
    C_MDI,
    C_UNTIL,
    DRAWN,
    LAID,
    NUMS,
    PEND,
    RES,
    TURN,
    candidates,
    count_plays,
    draw,
    end_turn,
    heuristic_play,
    nth_play,
    play,
    step,
)

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, _nrt=False)
def legal(st, hw, ew, mw, cw, nb, withw, px, py, cf, centre, lm):
    """The legal moves in the core's order into ``lm`` (n, 2); their number."""
    w_ = cf[1]
    d = st[DRAWN]
    if not candidates(st, hw, mw, cw, w_):
        if st[BPOS] < nb and (d < 0 or cf[C_UNTIL]):
            lm[0, 0], lm[0, 1] = -1, -1
        else:
            lm[0, 0], lm[0, 1] = -2, -1
        return 1
    total = count_plays(st, ew, cw, withw, w_, cf[2])
    for r in range(total):
        t, a = nth_play(st, ew, cw, px, py, w_, r, centre)
        lm[r, 0], lm[r, 1] = t, a
    extra = (1 if st[BPOS] < nb and cf[C_MDI] and st[LAID] else 0) if d < 0 else cf[C_MAYPLAY]
    if extra:
        lm[total, 0], lm[total, 1] = (-1, -1) if d < 0 else (-2, -1)
        return total + 1
    return total


@njit(cache=True, _nrt=False)
def note(st, hw, mw, cw, w_, px, lack):
    """``note_lacking`` of ``chickenfoot._rollouts``: before a move, a seat without a play
    lacks the numbers open to it (the hub's while a hub needs toes), and only those."""
    if not candidates(st, hw, mw, cw, w_):
        lack[st[TURN]] = (np.int64(1) << px[st[PEND]]) if st[PEND] >= 0 else st[NUMS]


@njit(cache=True, _nrt=False)
def make(st, hw, ew, mw, bone, nb, withw, px, py, cf, t, a):
    w_ = cf[1]
    if t == -1:
        draw(st, hw, bone, w_)
    elif t == -2:
        end_turn(st, hw, mw, cf, nb)
    else:
        play(st, hw, ew, mw, withw, px, py, cf, t, a, nb)


@njit(cache=True, _nrt=False)
def child(tree, tw, used, node, t, a, seat):
    """A new last child of ``node`` for the move (``t``, ``a``) of ``seat``."""
    tk, ta, tm, tn, tv, tf, tl, ts = tree
    c = used[0]
    used[0] += 1
    tk[c], ta[c], tm[c] = t, a, seat
    tn[c], tv[c], tw[c], tf[c], tl[c], ts[c] = 0, 1, 0.0, -1, -1, -1
    if tl[node] < 0:
        tf[node] = c
    else:
        ts[tl[node]] = c
    tl[node] = c
    return c


@njit(cache=True, _nrt=False)
def walk(st, hw, ew, mw, cw, bone, nb, withw, px, py, val, cf, centre, tree, tw, used, node,
         depth, path, lm, kids, pens, explore, scale, alone, against, me, mt0, pos0, lack):  # fmt: skip
    """From ``node`` (``path[:depth]`` the walk so far): down the tree by UCB, one node
    added, the heuristic rollout to the round's end (``mt0``, ``pos0``: a generator it does
    not use; ``lack`` kept by :func:`note`), and every node on the walk credited (module
    docstring)."""
    tk, ta, tm, tn, tv, tf, _, ts = tree
    p_, w_ = cf[0], cf[1]
    while st[RES] < 0:
        note(st, hw, mw, cw, w_, px, lack)
        k = legal(st, hw, ew, mw, cw, nb, withw, px, py, cf, centre, lm)
        if alone and st[TURN] != me:  # the others play the heuristic, outside the tree
            if candidates(st, hw, mw, cw, w_):
                ht, ha = heuristic_play(st, hw, ew, cw, px, py, val, withw, w_, centre, lack)
                make(st, hw, ew, mw, bone, nb, withw, px, py, cf, ht, ha)
            else:
                make(st, hw, ew, mw, bone, nb, withw, px, py, cf, lm[0, 0], lm[0, 1])
            continue
        fresh = -1  # the first legal move without a child
        for i in range(k):
            c = tf[node]
            while c >= 0 and not (tk[c] == lm[i, 0] and ta[c] == lm[i, 1]):
                c = ts[c]
            kids[i] = c
            if c < 0:
                if fresh < 0:
                    fresh = i
                continue
            tv[c] += 1
        if fresh >= 0:
            pick = fresh
            if candidates(st, hw, mw, cw, w_):
                ht, ha = heuristic_play(st, hw, ew, cw, px, py, val, withw, w_, centre, lack)
                for i in range(k):
                    if lm[i, 0] == ht and lm[i, 1] == ha and kids[i] < 0:
                        pick = i
                        break
            path[depth] = child(tree, tw, used, node, lm[pick, 0], lm[pick, 1], st[TURN])
            depth += 1
            make(st, hw, ew, mw, bone, nb, withw, px, py, cf, lm[pick, 0], lm[pick, 1])
            break
        best = -1
        best_u = -1e300
        for i in range(k):
            c = kids[i]
            u = tw[c] / tn[c] + explore * math.sqrt(math.log(tv[c]) / tn[c])
            if u > best_u:
                best, best_u = c, u
        path[depth] = best
        depth += 1
        node = best
        make(st, hw, ew, mw, bone, nb, withw, px, py, cf, tk[best], ta[best])
    while st[RES] < 0:
        note(st, hw, mw, cw, w_, px, lack)
        step(st, hw, ew, mw, cw, bone, nb, withw, px, py, val, cf, centre, 2,
             mt0, pos0, lack)  # fmt: skip
    # The penalties (as .search.rollouts sums them): written out, since a shared function
    # called here slowed this search by a tenth (numba 0.68).
    total = 0
    for s in range(p_):
        pen = 0
        for w in range(w_):
            h = hw[s * w_ + w]
            while h != ZERO:
                pen += val[w * 64 + kth_word(h, 0)]
                h &= h - ONE
        pens[s] = pen
        total += pen
    tn[0] += 1
    for j in range(depth):
        c = path[j]
        tn[c] += 1
        own = pens[tm[c]]
        if against == 2:  # each: the share of the others it beat, a tie half
            beaten = 0.0
            for s in range(p_):
                if s != tm[c]:
                    beaten += 1.0 if pens[s] > own else 0.5 if pens[s] == own else 0.0
            r = beaten / np.float64(p_ - 1)
        else:
            if against == 0:
                low = np.int64(-1)
                for s in range(p_):
                    if s != tm[c] and (low < 0 or pens[s] < low):
                        low = pens[s]
                d = np.float64(own - low)
            else:
                d = np.float64(own) - np.float64(total - own) / np.float64(p_ - 1)
            r = 0.5 - 0.5 * d / (abs(d) + scale)
        tw[c] += r


@njit(cache=True)
def iterations(pr, mt, pos, count, bits, sc, tabs, cf, hand, tree, tw, used, explore, scale,
               alone, against, common, lacking):  # fmt: skip
    """``count`` iterations (with ``common``: ``count`` deals, each tried with every move
    of the root) from the caller's generator state; ``lacking`` the numbers each seat
    lacks by the history so far (module docstring)."""
    px, py, val, withw = tabs
    tk, ta, _, _, _, tf, _, ts = tree
    p_, w_, v_ = cf[0], cf[1], cf[2]
    me = pr[9][2]  # (misc: players, the boneyard's slot, the viewer's seat)
    keys, sm, where, ws, bone = workspace(pr)
    hw = np.empty(p_ * w_, dtype=np.uint64)
    ew = np.empty(v_ * w_, dtype=np.uint64)
    mw = np.empty(w_, dtype=np.uint64)
    cw = np.empty(w_, dtype=np.uint64)
    st = np.empty(8, dtype=np.int64)
    lm = np.empty((4096, 2), dtype=np.int64)
    kids = np.empty(4096, dtype=np.int64)
    path = np.empty(8192, dtype=np.int64)
    pens = np.empty(p_, dtype=np.int64)
    mt0 = np.zeros(624, dtype=np.uint64)
    pos0 = np.zeros(1, dtype=np.int64)
    dealt = (hw.copy(), ew.copy(), mw.copy(), st.copy(), bone.copy())  # a deal, to try again
    centre = sc[6]
    lack = lacking.copy()
    for _ in range(count):
        nb = sample_into(pr, mt, pos, keys, sm, where, ws, bone, hw, hand, w_)
        if nb < 0:
            return False
        for j in range(v_ * w_):
            ew[j] = bits[p_ * w_ + j]
        for j in range(w_):
            mw[j] = bits[(p_ + v_) * w_ + j]
        for j in range(6):
            st[j] = sc[j]
        st[BPOS] = 0
        st[RES] = -1
        if not common:
            lack[:] = lacking
            walk(st, hw, ew, mw, cw, bone, nb, withw, px, py, val, cf, centre, tree, tw, used,
                 0, 0, path, lm, kids, pens, explore, scale, alone, against, me, mt0, pos0, lack)  # fmt: skip
            continue
        if tf[0] < 0:  # the first deal: every move of the root a child, in the legal order
            k = legal(st, hw, ew, mw, cw, nb, withw, px, py, cf, centre, lm)
            for i in range(k):
                child(tree, tw, used, 0, lm[i, 0], lm[i, 1], me)
        copy_deal((hw, ew, mw, st, bone), dealt, nb)
        c = tf[0]
        while c >= 0:
            copy_deal(dealt, (hw, ew, mw, st, bone), nb)
            lack[:] = lacking
            note(st, hw, mw, cw, w_, px, lack)
            path[0] = c
            make(st, hw, ew, mw, bone, nb, withw, px, py, cf, tk[c], ta[c])
            walk(st, hw, ew, mw, cw, bone, nb, withw, px, py, val, cf, centre, tree, tw, used,
                 c, 1, path, lm, kids, pens, explore, scale, alone, against, me, mt0, pos0, lack)  # fmt: skip
            c = ts[c]
    return True


@njit(cache=True, _nrt=False)
def copy_deal(src, dst, nb):
    """Copy a deal's arrays (hands, ends, marks, state, the first ``nb`` of the boneyard)."""
    for a, b in ((src[0], dst[0]), (src[1], dst[1]), (src[2], dst[2])):
        for j in range(a.shape[0]):
            b[j] = a[j]
    for j in range(src[3].shape[0]):
        dst[3][j] = src[3][j]
    for j in range(nb):
        dst[4][j] = src[4][j]
