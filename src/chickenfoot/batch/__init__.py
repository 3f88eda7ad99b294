"""Batched play: thousands of rounds in lockstep on numpy arrays (docs/batch.md).

:class:`BatchEngine` holds ``n`` rounds of one rules configuration, each a seeded deal
(``deal(rules, seed, round)``), and advances all of them with one call. Its actions and
observations are those of :mod:`chickenfoot.encoding`; ``to_state`` and ``from_states``
convert exactly to and from the core :class:`~chickenfoot.State`. It needs numpy (the
``batch`` extra).

>>> import chickenfoot as cf
>>> from chickenfoot.batch import BatchEngine
>>> engine = BatchEngine(cf.Rules(), 8, seed=1)
>>> engine.legal_mask().shape, engine.observe().shape
((8, 1157), (8, 305))
>>> actions = engine.random_actions()
>>> rewards, done = engine.step(actions)
>>> engine.to_state(0) == cf.apply(cf.deal(cf.Rules(), 1), engine.encoding.move(int(actions[0])))
True
>>> results = engine.random_playout(20)
>>> len(results), results.penalties.shape
(20, (20, 4))
"""

from __future__ import annotations

from chickenfoot.batch._engine import CORE_BELOW, MAX_GAMES, BatchEngine, Policy, compile_kernels
from chickenfoot.batch._memory import ENGINE_MEMORY, engine_memory, max_rounds
from chickenfoot.batch._results import RESULTS_MEMORY, Results
from chickenfoot.batch._seats import BUILT_IN
from chickenfoot.batch._warm import STEPS as COMPILE_STEPS
from chickenfoot.batch._warm import cached as kernels_cached

__all__ = [
    "BUILT_IN",
    "COMPILE_STEPS",
    "CORE_BELOW",
    "ENGINE_MEMORY",
    "MAX_GAMES",
    "RESULTS_MEMORY",
    "BatchEngine",
    "Policy",
    "Results",
    "compile_kernels",
    "engine_memory",
    "kernels_cached",
    "max_rounds",
]
