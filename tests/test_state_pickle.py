"""States pickle whole: position, derived table and history, however long the history."""

from __future__ import annotations

import pickle

from hypothesis import given, settings

import chickenfoot as cf
from chickenfoot._kernel import settle
from strategies import examples, positions


@settings(max_examples=examples(100))
@given(positions())
def test_a_pickled_state_is_the_same_state_with_the_same_history(s: cf.State) -> None:
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.history == s.history
    assert back.outcome() == s.outcome() and back.legal_moves == s.legal_moves
    assert back.open_ends == s.open_ends and back.pending_hub == s.pending_hub
    assert back.to_dict() == s.to_dict()


def test_a_history_far_deeper_than_the_recursion_limit_pickles() -> None:
    # The history is stored as nested cells; 5,000 of them would overflow a recursive
    # pickler (Python's limit is 1,000 frames), so states pickle it flat.
    s = cf.deal(cf.Rules(), seed=1)
    log = None
    for _ in range(5000):
        log = (log, 0, cf.PASS)
    long = settle(s.rules, s.centre.id, s.board, s._hands, s._bone, s.turn, -1, log)
    back = pickle.loads(pickle.dumps(long))
    assert len(back.history) == 5000 and back.history == long.history and back == s
