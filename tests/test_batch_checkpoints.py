"""Issue 29, item 7: a batched engine is a checkpoint (it pickles and copies, on both
backends, to an engine that plays on exactly as the original), and its memory is bounded
by the bytes its rules need, checked before anything is allocated.

Every test runs under both backends (``test_batch``'s ``backend`` fixture).
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.batch import BatchEngine
from test_batch import (
    backend,  # noqa: F401  (the fixture: every test on both backends)
    same,
)

STORAGE = (
    "hands", "ends", "mask", "table", "bone", "bpos", "bend", "nums", "pending", "need",
    "turn", "drawn", "centre", "result", "board", "nboard", "plies",
)  # fmt: skip
"""The engine's arrays (``Store._setup``)."""


def pickled(e: BatchEngine) -> Any:
    return pickle.loads(pickle.dumps(e, protocol=pickle.HIGHEST_PROTOCOL))


def default_pickled(e: BatchEngine) -> Any:
    return pickle.loads(pickle.dumps(e))


COPIES = [
    pytest.param(pickled, id="pickle"),
    pytest.param(default_pickled, id="pickle-default-protocol"),
    pytest.param(copy.deepcopy, id="deepcopy"),
]


def equal_engines(a: BatchEngine, b: BatchEngine) -> None:
    assert (a.backend, a.deals, a.n, a.rules, a.round, a.auto_reset) == (
        b.backend,
        b.deals,
        b.n,
        b.rules,
        b.round,
        b.auto_reset,
    )
    assert a.seeds == b.seeds and a._next_seed == b._next_seed
    for name in STORAGE:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
        assert not np.shares_memory(x, y), name
    assert all(same(a.to_state(i), b.to_state(i)) for i in range(a.n))
    if b.backend == "numba":  # held as made: each round's words together (the kernels' layout)
        for name in ("hands", "ends", "mask", "table", "bone", "board"):
            assert np.moveaxis(getattr(b, name), -1, 0).flags.c_contiguous, name


def plays_on_the_same(a: BatchEngine, b: BatchEngine, steps: int) -> None:
    """Both engines take the same random actions, observations, masks and rewards."""
    for _ in range(steps):
        assert np.array_equal(a.legal_mask(), b.legal_mask())
        assert np.array_equal(a.legal_actions(), b.legal_actions())
        assert np.array_equal(a.observe(), b.observe())
        acts = a.random_actions()
        assert np.array_equal(acts, b.random_actions())
        ra, da = a.step(acts)
        rb, db = b.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
    ka, kb = a.random_playout(), b.random_playout()
    assert ka.seeds == kb.seeds and np.array_equal(ka.penalties, kb.penalties)
    ka, kb = a.random_playout(150), b.random_playout(150)
    assert ka.seeds == kb.seeds and np.array_equal(ka.penalties, kb.penalties)
    assert np.array_equal(ka.plies, kb.plies) and np.array_equal(ka.out, kb.out)
    equal_engines(a, b)


@pytest.mark.parametrize("clone", COPIES)
@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(cf.Rules(), id="house"),
        pytest.param(cf.Rules(players=3, max_pip=12, hand_size=9), id="double-12"),
        pytest.param(cf.Rules(centre="holder", players=2, draw="until_playable"), id="holder"),
    ],
)
def test_an_engine_is_a_checkpoint_that_plays_on_the_same(clone: Any, rules: cf.Rules) -> None:
    e = BatchEngine(rules, 130, seed=11, rng_seed=4, auto_reset=True)
    for _ in range(12):
        e.step(e.random_actions())
    c = clone(e)
    assert type(c) is BatchEngine
    equal_engines(e, c)
    plays_on_the_same(e, c, 25)
    # and the checkpoint of a checkpoint, taken mid-way
    plays_on_the_same(c, clone(c), 5)


@pytest.mark.parametrize("clone", COPIES)
def test_an_engine_from_states_with_fast_deals_is_a_checkpoint(clone: Any) -> None:
    rules = cf.Rules(players=3)
    states = [cf.apply(cf.deal(rules, s), cf.deal(rules, s).legal_moves[0]) for s in range(5)]
    e = BatchEngine.from_states(states, seed=70, rng_seed=1, deals="fast")
    c = clone(e)
    equal_engines(e, c)
    plays_on_the_same(e, c, 8)


def test_a_copy_is_independent_of_the_original() -> None:
    e = BatchEngine(cf.Rules(), 8, seed=3, rng_seed=2)
    before = [e.to_state(i) for i in range(e.n)]
    c = copy.deepcopy(e)
    c.step(c.random_actions())
    c.random_playout(20)
    assert all(same(e.to_state(i), s) for i, s in enumerate(before))
