"""The seeded shuffles of many deals at once (docs/formats.md, "Seeded deals")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from chickenfoot.deal import shuffled_tiles
from chickenfoot.rules import Rules

if TYPE_CHECKING:
    from numpy.typing import NDArray


def shuffled_many(rules: Rules, seeds: list[int], round: int) -> NDArray[np.int64]:
    """``(len(seeds), dealt)``: row ``j`` is ``shuffled_tiles(rules, seeds[j], round)``."""
    return np.array([shuffled_tiles(rules, s, round) for s in seeds], dtype=np.int64).reshape(
        len(seeds), -1
    )
