"""The expert level, which searches (issue 48, item 4), beats the level below it in a small
seeded match, compiled (numba: the ``fast`` session; in pure Python it takes seconds a
decision). The levels without a search, and the match itself: tests/test_levels.py."""

from __future__ import annotations

from chickenfoot._rollouts import resolve
from test_levels import penalty_gaps


def test_the_search_is_compiled_here() -> None:
    assert resolve("numba")  # without numba this file fails (the tests session leaves it out)


def test_the_expert_beats_the_advanced_level() -> None:
    """As tests/test_levels.py measures the others, on 40 duplicate deals (the expert's
    search costs most of the time): the expert's mean penalty is lower than the advanced
    level's by more than two standard errors over the deals. The ladder measured 5.3 points
    between them (docs, Strength, Levels), and here 5.2 with a standard error of 1.9 (2.8
    standard errors)."""
    diffs = penalty_gaps(4, 5, 40)
    mean = sum(diffs) / len(diffs)
    spread = (sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)) ** 0.5
    assert mean > 2 * spread / len(diffs) ** 0.5, (mean, spread)
