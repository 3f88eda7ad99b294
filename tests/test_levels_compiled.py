"""The levels that search (issue 48, item 4) beat the level below them in a small seeded
match, compiled (numba: the ``fast`` session; in pure Python the expert takes seconds a
decision). The levels without a search, and the match itself: tests/test_levels.py."""

from __future__ import annotations

import pytest

from chickenfoot._rollouts import resolve
from test_levels import penalty_gaps


def test_the_search_is_compiled_here() -> None:
    assert resolve("numba")  # without numba this file fails (the tests session leaves it out)


@pytest.mark.parametrize("weak", [3, 4])
def test_each_searching_level_beats_the_one_below_it(weak: int) -> None:
    """As tests/test_levels.py measures the others: over 80 duplicate deals the stronger
    level's mean penalty is lower by more than two standard errors over the deals."""
    diffs = penalty_gaps(weak, weak + 1, 80)
    mean = sum(diffs) / len(diffs)
    spread = (sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)) ** 0.5
    assert mean > 2 * spread / len(diffs) ** 0.5, (mean, spread)
