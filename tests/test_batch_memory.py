"""Issue 29, item 7: a batched engine's memory is bounded by the bytes its rules need
(``max_bytes``, ``ENGINE_MEMORY`` by default), checked before anything is allocated or
compiled; the formula (``engine_memory``) is held to the arrays an engine allocates.

Every test runs under both backends (``test_batch``'s ``backend`` fixture).
"""

from __future__ import annotations

import sys
import tracemalloc
from typing import Any

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.batch import (
    ENGINE_MEMORY,
    MAX_GAMES,
    BatchEngine,
    engine_memory,
    max_rounds,
)
from chickenfoot.batch._memory import round_bytes
from chickenfoot.batch._store import Store
from chickenfoot.tiles import tiles_of_set
from test_batch import backend  # noqa: F401  (the fixture: every test on both backends)
from test_batch_checkpoints import STORAGE
from test_batch_hardening import refused

BIG = cf.Rules(players=8, max_pip=18, hand_size=15)
RULES = [
    pytest.param(cf.Rules(), id="house"),
    pytest.param(cf.Rules.preset("classic", players=7), id="classic-7p"),
    pytest.param(cf.Rules(centre="holder", players=3, draw="until_playable"), id="holder"),
    pytest.param(
        cf.Rules(players=2, max_pip=4, hand_size=3, opening_toes=2, foot_toes=2), id="double-4"
    ),
    pytest.param(BIG, id="8p-double-18"),
]


class AllocatedError(Exception):
    """The engine went past its checks to allocate its arrays."""


@pytest.fixture
def no_allocation(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that passes its checks raises :class:`AllocatedError` instead of allocating."""

    def allocate(*args: Any) -> None:
        raise AllocatedError

    monkeypatch.setattr(Store, "_setup", allocate)


def held_bytes(e: BatchEngine) -> int:
    """The bytes of the engine's arrays, as allocated."""
    return sum(getattr(e, name).nbytes for name in STORAGE) + e._all.nbytes


def answer_bytes(e: BatchEngine) -> int:
    """The bytes of the largest answer: a playout's policy gets the observations and the
    legal mask at once; a step gives rewards and done."""
    rewards, done = e.step(e.random_actions())
    return e.observe().nbytes + e.legal_mask().nbytes + rewards.nbytes + done.nbytes


# -- the formula is the arrays ----------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("n", [1, 37])
def test_the_formula_is_exactly_what_an_engine_allocates(rules: cf.Rules, n: int) -> None:
    e = BatchEngine(rules, n, seed=10**12, rng_seed=1)
    per = round_bytes(rules, seed=10**12, n=n)
    assert held_bytes(e) == n * per.arrays
    assert answer_bytes(e) == n * per.answer
    seeds = [s for s in e.seeds if s is not None]
    assert 8 * n + sum(sys.getsizeof(s) for s in seeds) <= n * per.seed
    assert engine_memory(rules, n, seed=10**12) == n * per.total


@pytest.mark.parametrize("rules", RULES)
def test_the_formula_counts_the_long_boneyards_of_given_states(rules: cf.Rules) -> None:
    tiles = [str(t) for t in tiles_of_set(rules.max_pip)]
    centre = cf.deal(rules, 1).centre
    centre_id = str(centre) if rules.centre == "set_aside" else None
    rest = [t for t in tiles if t != centre_id]
    long_bone = cf.State.setup(
        rules,
        hands=[[rest[p]] for p in range(rules.players)],
        boneyard=rest[rules.players :],
    )
    states = [long_bone, cf.deal(rules, 2)]
    e = BatchEngine.from_states(states, seed=5)
    width = len(long_bone._bone)
    assert held_bytes(e) == 2 * round_bytes(rules, bone_width=width).arrays


def test_legal_actions_is_smaller_than_the_answer_counted() -> None:
    # legal_actions' width is the most legal moves of a round now; over whole playouts it
    # stays far below what the formula counts for the observations and the mask
    for rules in (cf.Rules(), BIG):
        e = BatchEngine(rules, 64, seed=3, rng_seed=3, auto_reset=True)
        per = round_bytes(rules)
        for _ in range(120):
            assert e.legal_actions().nbytes <= 64 * per.answer
            e.step(e.random_actions())


# -- the bound --------------------------------------------------------------------------------


@pytest.mark.usefixtures("no_allocation")
def test_an_engine_too_big_for_its_rules_is_refused_before_anything_is_allocated() -> None:
    need = engine_memory(BIG, MAX_GAMES)
    fit = max_rounds(BIG)
    assert need > ENGINE_MEMORY and 0 < fit < MAX_GAMES
    tracemalloc.start()
    try:
        text = refused(lambda: BatchEngine(BIG, MAX_GAMES))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # (the engine would take about 13 GB)
    assert text.startswith(f"n={MAX_GAMES:,} rounds of these rules need {need:,} bytes")
    assert "max_bytes=1,073,741,824 (ENGINE_MEMORY, 1 GiB)" in text
    assert f"at most {fit:,} rounds fit" in text
    # the budget the caller gives, and from_states the same way
    assert f"at most {max_rounds(BIG, max_bytes=10**6):,} rounds" in refused(
        lambda: BatchEngine(BIG, 1000, max_bytes=10**6)
    )
    states = [cf.deal(cf.Rules(), 1)] * 100
    text = refused(lambda: BatchEngine.from_states(states, max_bytes=100_000))
    assert f"at most {max_rounds(cf.Rules(), max_bytes=100_000)} rounds fit" in text


@pytest.mark.usefixtures("no_allocation")
@pytest.mark.parametrize("rules", RULES)
def test_the_largest_n_that_fits_is_accepted(rules: cf.Rules) -> None:
    for budget in (ENGINE_MEMORY, 3 * ENGINE_MEMORY, 123_456_789):
        fit = max_rounds(rules, max_bytes=budget)
        assert engine_memory(rules, fit) <= budget < engine_memory(rules, fit + 1)
        if fit + 1 <= MAX_GAMES:
            refused(lambda b=budget, n=fit + 1: BatchEngine(rules, n, max_bytes=b))
        if fit <= MAX_GAMES:
            with pytest.raises(AllocatedError):  # past the check: it would allocate now
                BatchEngine(rules, fit, max_bytes=budget)


@pytest.mark.parametrize("rules", RULES)
def test_an_engine_of_the_largest_n_under_a_small_budget_fits_it(rules: cf.Rules) -> None:
    budget = 40 * engine_memory(rules, 1) + 17
    fit = max_rounds(rules, max_bytes=budget)
    assert fit == 40
    e = BatchEngine(rules, fit, max_bytes=budget, rng_seed=1)
    assert held_bytes(e) + answer_bytes(e) <= budget
    refused(lambda: BatchEngine(rules, fit + 1, max_bytes=budget))


def test_the_budget_counts_long_seeds() -> None:
    seed = -(10**3999)
    fit = max_rounds(cf.Rules(), seed=seed)
    assert (
        fit < max_rounds(cf.Rules()) and engine_memory(cf.Rules(), fit, seed=seed) <= ENGINE_MEMORY
    )


def test_bad_budgets() -> None:
    for bad in [0, -1, 1.5, "1", True, None, np.float64(8.0), -(10**5000)]:
        text = refused(lambda b=bad: BatchEngine(cf.Rules(), 2, max_bytes=b))
        assert text.startswith("max_bytes="), text
        assert refused(lambda b=bad: max_rounds(cf.Rules(), max_bytes=b)).startswith("max_bytes=")


def test_a_numpy_integer_budget_is_taken() -> None:
    assert BatchEngine(cf.Rules(), 2, max_bytes=np.int64(10**6)).n == 2
