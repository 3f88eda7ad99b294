"""The analysis's compiled rollouts (numba, the ``fast`` extra) give the pure path's values:
run in ``nox -s fast``, left out of the numpy-only ``tests`` session."""

from __future__ import annotations

import numba  # noqa: F401 - this file is the compiled path's: numba must be there

from chickenfoot.analysis import analyse
from test_analysis import SMALL, play


def test_compiled_and_pure_rollouts_give_the_same_values() -> None:
    rec = play(SMALL[2], 2)
    pure = analyse(rec, iterations=10, nodes=None, backend="python")
    fast = analyse(rec, iterations=10, nodes=None, backend="numba")
    assert [(d.ply, d.values, d.best) for d in pure.decisions] == [
        (d.ply, d.values, d.best) for d in fast.decisions
    ]
