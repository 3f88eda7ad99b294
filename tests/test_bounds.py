"""``bench/bounds.py``'s hands bound: the problem it swaps in deals exactly the true hands."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from chickenfoot import HeuristicAgent, Rules, apply, deal
from chickenfoot._slots import Problem, assign
from chickenfoot.sampling import problem
from chickenfoot.state import State
from chickenfoot.view import View

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import bounds  # (bench/, not a package)


def mid_round(seed: int, plies: int) -> State:
    s = deal(Rules(), seed=seed)
    h, rng = HeuristicAgent(), random.Random(seed)
    for _ in range(plies):
        s = apply(s, h.choose(s.view(s.turn), s.legal_moves, rng))
    return s


def problem_with_truth(truth: State, view: View) -> Problem:
    """``bounds._true_problem(view)`` while the state searched is ``truth``."""
    bounds._TRUTH[:] = [truth]
    try:
        return bounds._true_problem(view)
    finally:
        bounds._TRUTH.clear()


def test_the_swapped_problem_deals_the_true_hands_and_boneyard() -> None:
    s = mid_round(3, 30)
    v = s.view(s.turn)
    p = problem_with_truth(s, v)
    for k in range(3):
        where = assign(p, random.Random(k))
        held = [0] * v.players
        bone = set()
        for t, g in zip(p.tiles, where, strict=True):
            if p.owner[g] >= 0:
                held[p.owner[g]] |= 1 << t
            else:
                bone.add(t)
        assert [h for seat, h in enumerate(held) if seat != v.seat] == [
            h for seat, h in enumerate(s._hands) if seat != v.seat
        ]
        assert bone == set(s._bone) and len(s._bone) > 0
    assert s._hands[v.seat] and not held[v.seat]  # (the viewer's own hand is not dealt)


def test_any_other_view_gets_its_real_problem() -> None:
    s, other = mid_round(3, 30), mid_round(4, 30)
    v = other.view(other.turn)
    assert problem_with_truth(s, v) is problem(v)  # (built once per view, and not replaced)
    alone = s.view(s.turn)  # (and with no truth set, every view does)
    assert bounds._true_problem(alone) is problem(alone)
