"""The results of the batched playouts, and how many rounds they may hold.

A playout of ``k`` rounds allocates its :class:`Results` up front, so ``k`` is bounded by
their memory: :data:`RESULTS_MEMORY` (1 GiB) over the bytes of one round's result, its
outcome, move count and each seat's penalty (``int64``) and its seed (a Python int in a
list), which is :func:`max_playout`.

>>> max_playout(players=4, first_seed=0)
12201611
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final

from ._args import results_args

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]

__all__ = ["RESULTS_MEMORY", "Results", "max_playout"]

RESULTS_MEMORY: Final = 1 << 30
"""The most memory the :class:`Results` of one playout may take (1 GiB), which bounds its
number of rounds ``k`` (:func:`max_playout`)."""


def max_playout(players: int, first_seed: int) -> int:
    """The most rounds whose :class:`Results` take at most :data:`RESULTS_MEMORY`, with
    ``players`` seats and the seeds from ``first_seed`` on: per round 8 bytes for ``out``, 8
    for ``plies``, 8 per seat for ``penalties`` and its seed, a pointer and an int object
    (measured at the largest seed the playout may hand out; a seed of 4,000 digits takes
    1.8 kB). This is ``BatchEngine.max_playout``."""
    # the seeds are first_seed + j for j < k, and k < 2**30 (a round takes over 64 bytes)
    seed_bytes = 8 + sys.getsizeof(abs(first_seed) + (1 << 30))
    return RESULTS_MEMORY // (8 * (players + 2) + seed_bytes)


class Results:
    """Finished rounds: how each ended and each seat's penalty (R11).

    ``seeds[i]`` dealt round ``i``; ``out[i]`` is the seat that went out, or -1 if the round
    was blocked; ``penalties[i]`` holds one penalty per seat; ``plies[i]`` counts its moves.
    The arrays are ``int64`` (a penalty is at most ``Rules.max_penalty``, 4,420). The
    playouts make them; built by hand, the parts are checked (``seeds`` a sequence of ints,
    integer arrays of shapes ``(k,)``, ``(k, players)`` and ``(k,)``).

    >>> import numpy as np
    >>> z = np.zeros(2, dtype=np.int64)
    >>> len(Results([7, 8], z, np.zeros((2, 4), dtype=np.int64), z))
    2
    >>> Results([7, 8], z, z, z)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: penalties=array([0, 0]) is invalid: must be an integer numpy array of shape (2, players)
    """

    __slots__ = ("out", "penalties", "plies", "seeds")

    def __init__(self, seeds: list[int], out: I64, penalties: I64, plies: I64) -> None:
        self.seeds = results_args(seeds, out, penalties, plies)
        self.out = out
        self.penalties = penalties
        self.plies = plies

    @classmethod
    def _of(cls, seeds: list[int], out: I64, penalties: I64, plies: I64) -> Results:
        """The engine's results (trusted, not checked again)."""
        made = cls.__new__(cls)
        made.seeds, made.out, made.penalties, made.plies = seeds, out, penalties, plies
        return made

    def __len__(self) -> int:
        return len(self.seeds)

    def __repr__(self) -> str:
        return f"<Results of {len(self)} rounds>"
