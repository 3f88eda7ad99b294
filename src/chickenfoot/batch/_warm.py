"""The first compile, said and done up front: every numba kernel compiled ahead.

numba compiles each kernel on its first call and caches it on disk (``cache=True``); the
first compile of all of them takes about 40 s on a quiet 2-core machine, over 100 s on a
busy one, and spread over the first call of each method it looks like a hang. So the
first numba engine of a process whose kernels are not cached yet says once, on the
``chickenfoot`` logger (shown on stderr), what it compiles and how long that may take,
compiles everything at once with :func:`~chickenfoot.batch.compile_kernels`, and says
how long it took; ``chickenfoot compile`` runs the same steps ahead, with progress.

The engine hands itself down: ``first_compile`` gets the compile to run and ``warm_up``
the engine class to run it with, so this module never imports the engine back.
"""

from __future__ import annotations

import glob
import logging
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from chickenfoot import _rollouts
from chickenfoot.agents import SearchAgent
from chickenfoot.deal import deal
from chickenfoot.errors import ArgumentError
from chickenfoot.rules import Rules

from . import _compiled

if TYPE_CHECKING:
    from ._engine import BatchEngine

LOG: Final = logging.getLogger("chickenfoot")

STEPS: Final = (
    "deals, masks, observations and moves (double-9)",
    "playouts in local state (double-9)",
    "the same for sets of several words (double-12)",
    "built-in agents at the seats (random, greedy, heuristic) and the replay",
    "the search agent's rollouts",
)
"""What :func:`warm_up` compiles, step by step."""

_SAID: list[bool] = []


def cached() -> bool:
    """Whether numba's cache holds the batch engine's kernels (the index files of a few
    of its entry points: :mod:`chickenfoot._jit.lanes`, ``.local``, ``.seats``)."""
    jit = Path(__file__).resolve().parent.parent / "_jit"
    where = os.environ.get("NUMBA_CACHE_DIR")
    roots = [Path(where)] if where else [jit / "__pycache__"]
    for name in ("lanes.observe", "lanes.legal_masks", "local.playout_new", "seats.play_agents"):
        if not any(glob.glob(str(r / "**" / f"{name}-*.nbi"), recursive=True) for r in roots):
            return False
    return True


def warm_up(
    engine: type[BatchEngine], progress: Callable[[int, str, float], object] | None = None
) -> float:
    """Compile (or load from the cache) every kernel, by running engines of the class
    ``engine`` (``BatchEngine``, handed down by :func:`chickenfoot.batch.compile_kernels`,
    which is this with the class), the built-in agents and the search;
    ``progress(k, step, seconds)`` after each step of :data:`STEPS`. Returns the seconds
    taken. :class:`~chickenfoot.ArgumentError` without numba."""
    if not _compiled.available():
        raise ArgumentError(
            "compiling needs numba, which is not installed: pip install 'chickenfoot[fast]'"
        )

    _SAID.append(True)  # the engines below need no first-compile message of their own
    start = time.perf_counter()

    def engine_calls(rules: Rules) -> None:
        for deals in ("exact", "fast"):
            e = engine(rules, 8, seed=1, backend="numba", deals=deals, rng_seed=1)
            e.legal_mask()
            e.legal_actions()
            e.observe()
            e.observe(0)
            e.penalties()
            e.step(e.random_actions())
            e.reset(seeds=list(range(8)))

    def playouts(rules: Rules) -> None:
        e = engine(rules, 8, seed=1, backend="numba", rng_seed=1)
        e.random_playout()
        e.random_playout(20)
        e._random_steps(np.arange(8))

    def rest_wide() -> None:
        rules = Rules(players=8)
        engine_calls(rules)
        playouts(rules)

    def seats() -> None:
        for rules in (Rules(), Rules(players=8)):
            e = engine(rules, 8, seed=1, backend="numba", rng_seed=1)
            e.play_agents((["random", "greedy", "heuristic", None] * 2)[: rules.players])
            e.replay([], np.zeros(8, dtype=np.int64))  # the replay (chickenfoot._jit.replay)
            e.replay([], np.zeros(8, dtype=np.int64), seats=np.zeros(0, dtype=np.int64))

    def search() -> None:
        if _rollouts.available():
            _rollouts.load()
            s = deal(Rules(), seed=1)
            SearchAgent(iterations=2).choose(s.view(s.turn), s.legal_moves, random.Random(0))

    work: tuple[Callable[[], None], ...] = (
        lambda: engine_calls(Rules()),
        lambda: playouts(Rules()),
        rest_wide,
        seats,
        search,
    )
    for k, (step, run) in enumerate(zip(STEPS, work, strict=True)):
        run()
        if progress is not None:
            progress(k, step, time.perf_counter() - start)
    return time.perf_counter() - start


def first_compile(run: Callable[[], float]) -> None:
    """Before a process's first numba engine: if the kernels are not cached, say so once,
    compile them all (``run()``: :func:`chickenfoot.batch.compile_kernels`), and say how
    long it took (see the module doc)."""
    if _SAID:
        return
    _SAID.append(True)
    if cached():
        return
    LOG.warning(
        "chickenfoot: compiling the batch engine's numba kernels, once per machine "
        "(about 40 s on a quiet 2-core machine, over 100 s on a busy one; cached on disk "
        "after that). `chickenfoot compile` does it ahead, with progress."
    )
    took = run()
    LOG.warning("chickenfoot: kernels compiled in %.0f s", took)
