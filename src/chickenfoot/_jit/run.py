"""The compiled entry points of the batched engine (see :mod:`.rules`), by ``op``.

The rules' functions are inlined into the kernel of each step-by-step call (numba's
``inline="always"``: a call that passes the store's arrays costs more than the rules it
runs); the playouts and random steps play each round in local state (:mod:`.local`).
:func:`play` and :func:`read` are plain functions that pick the kernel of ``op``
(so each kernel compiles on its first use). Arguments a call does not use are small
arrays of the right type (:mod:`chickenfoot.batch._compiled`), so each kernel has one signature.
"""

from __future__ import annotations

from .deal import deal_lanes
from .lanes import (
    apply_moves,
    check,
    legal_counts,
    legal_ids,
    legal_masks,
    observe,
    penalties,
    random_actions,
)
from .local import playout_lanes, playout_new, random_steps

DEAL, STEPS, ACTIONS, APPLY, LANES, NEW = range(6)
MASK, COUNTS, IDS, OBSERVE, CHECK, PENALTIES = range(6)


def play(op, st, cf, tb, sc, lo, rs, lanes, moves, ended, dl, out, pens, plies):
    """The moves: deal (``DEAL``), random steps, random actions (into ``out``), the
    given ``moves`` (``(kind, tile, anchor)``; ``ended`` says which rounds ended), and
    the playouts of the rounds in ``lanes`` or of new rounds (in the working arrays
    ``lo``, :mod:`.local`). ``dl``: the deals' arguments ``(mode, orders, tiles, mt0,
    keys, klens, fkey, seeds64, round64, centre, leader, h, j0, k)``."""
    mode, orders, tiles, mt0, keys, klens, fkey, seeds64, round64, centre, leader, h, j0, k = dl
    if op == DEAL:
        deal_lanes(st, cf, tb, sc, lanes, mode, orders, tiles, mt0, keys, klens, fkey, seeds64,
                   round64, centre, leader)  # fmt: skip
    elif op == STEPS:
        random_steps(st, cf, tb, sc, lo, rs, lanes)
    elif op == ACTIONS:
        random_actions(st, cf, tb, rs, out)
    elif op == APPLY:
        apply_moves(st, cf, tb, lanes, moves[0], moves[1], moves[2], ended)
    elif op == LANES:
        playout_lanes(st, cf, tb, sc, lo, rs, lanes, out, pens, plies)
    else:
        playout_new(st, cf, tb, sc, lo, rs, h, j0, k, mode, tiles, mt0, keys, klens, fkey, seeds64,
                    round64, orders, centre, leader, out, pens, plies)  # fmt: skip


def read(op, st, cf, tb, sc, lanes, seat, off, mask, ids, obs, counts, act, moves):
    """The reads: legal masks, counts and ids (``ids`` also takes the penalties), the
    observations from ``seat`` (-1: the seat to act) and the check of the actions ``act``
    (decoded into ``moves``; returns the first refused row, or -1)."""
    if op == MASK:
        legal_masks(st, cf, tb, sc, lanes, mask)
    elif op == COUNTS:
        legal_counts(st, cf, tb, sc, lanes, counts)
    elif op == IDS:
        legal_ids(st, cf, tb, sc, lanes, ids)
    elif op == OBSERVE:
        observe(st, cf, tb, lanes, seat, off, obs)
    elif op == CHECK:
        return check(st, cf, tb, lanes, act, moves[0], moves[1], moves[2])
    else:
        penalties(st, cf, tb, lanes, ids)
    return -1
