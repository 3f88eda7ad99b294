"""What the bench scripts share: the reference engine, timing, and the reference's rounds.

``run.py`` (every figure of ``nox -s bench``), ``batch.py`` (the batch engine's figures)
and ``workload.py`` (the instruction counts) import from here, and not from each other.
"""

from __future__ import annotations

import importlib.util
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def load_reference(path: str | None) -> ModuleType | None:
    """Import ``reference.py`` from ``path``, ``$CHICKENFOOT_REFERENCE`` or ../shared/bench."""
    candidates = [path, os.environ.get("CHICKENFOOT_REFERENCE")]
    candidates += [str(p / "shared/bench/reference.py") for p in HERE.parents]
    for c in candidates:
        if c and Path(c).is_file():
            spec = importlib.util.spec_from_file_location("cf_reference", c)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Units per second: call ``fn`` (which returns units done) for about ``seconds``."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


def ref_rounds(ref: ModuleType) -> Callable[[], int]:
    rng = random.Random(1)

    def run() -> int:
        ref.play_round(rng)
        return 1

    return run
