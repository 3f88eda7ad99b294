"""The memory of a batched engine, bounded by the bytes its rules need, before anything is
allocated or compiled.

An engine of ``n`` rounds takes ``n`` times the bytes of one round: its arrays (the hands,
open ends, boneyard, board and counters of :class:`~chickenfoot.batch._store.Store`), the
int of its seed in :attr:`~chickenfoot.batch.BatchEngine.seeds`, and the largest answer
its calls hand back at once, :meth:`~chickenfoot.batch.BatchEngine.observe` and
:meth:`~chickenfoot.batch.BatchEngine.legal_mask` together (``playout`` passes both to its
policy, as a training loop holds both) with the rewards and ``done`` of ``step``. Both
constructors refuse an ``n`` whose bytes exceed ``max_bytes`` (:data:`ENGINE_MEMORY`, 1 GiB,
by default), naming the bytes, the budget and the largest ``n`` that fits.

>>> import chickenfoot as cf
>>> engine_memory(cf.Rules(), 1)
2894
>>> f"{max_rounds(cf.Rules()):,}", f"{max_rounds(cf.Rules(players=8)):,}"
('371,023', '199,283')
"""

from __future__ import annotations

import sys
from typing import Final, NamedTuple

from chickenfoot import _checks as checks
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError
from chickenfoot.rules import Rules

from ._args import rules_arg

__all__ = ["ENGINE_MEMORY", "RoundBytes", "check_memory", "engine_memory", "max_rounds"]

ENGINE_MEMORY: Final = 1 << 30
"""The most memory one engine may take by default (1 GiB): its arrays, its seeds and its
largest answer (:func:`engine_memory`); the constructors' ``max_bytes`` changes it."""

COUNTERS: Final = 12
"""The int64 arrays of one value per round: ``bpos``, ``bend``, ``nums``, ``pending``,
``need``, ``turn``, ``drawn``, ``centre``, ``result``, ``nboard``, ``plies`` and the lanes'
index (``_all``)."""


class RoundBytes(NamedTuple):
    """The bytes of one round of an engine: its ``arrays``, its ``seed`` (a list's pointer
    and an int object) and its share of the largest ``answer``."""

    arrays: int
    seed: int
    answer: int

    @property
    def total(self) -> int:
        """All three."""
        return self.arrays + self.seed + self.answer


def round_bytes(rules: Rules, *, bone_width: int = 0, seed: int = 0, n: int = 1) -> RoundBytes:
    """The bytes one round of an engine of ``n`` rounds takes (``bone_width``: the longest
    boneyard held beyond the deals'; ``seed``: the first seed dealt, so that the seeds are
    ``seed`` to ``seed + n - 1``)."""
    s, v, p = rules.set_size, rules.max_pip + 1, rules.players
    w = (s + 63) // 64
    dealt = s - (1 if rules.centre == "set_aside" else 0)
    bone = max(dealt - p * rules.hand_size, bone_width, 1)
    arrays = 8 * w * (p + v + 2) + 2 * bone + 4 * s + 8 * COUNTERS
    enc = Encoding(rules)
    answer = enc.num_actions + 4 * enc.observation_size + 4 * p + 1
    return RoundBytes(arrays, _seed_bytes(seed, n), answer)


def _seed_bytes(seed: int, n: int) -> int:
    """A list's pointer and the int object of the largest of the seeds ``seed`` to
    ``seed + n - 1`` (small ints are shared: an upper bound; ints of at least 1, whose size
    is the same in every Python)."""
    largest = max(abs(seed), abs(seed + n - 1), 1)
    return 8 + sys.getsizeof(largest)


def engine_memory(rules: Rules, n: int, *, seed: int = 0) -> int:
    """The bytes an engine of ``n`` rounds of ``rules`` takes, its deals from ``seed`` on:
    its arrays, its seeds, and its largest answer (the observations and the legal mask
    that a playout hands its policy at once, and a step's rewards and ``done``): what the
    constructors check against ``max_bytes`` (:data:`ENGINE_MEMORY` by default).

    >>> import chickenfoot as cf
    >>> f"{engine_memory(cf.Rules(players=8, max_pip=18, hand_size=15), 131_072):,}"
    '1,729,495,040'
    """
    rules = rules_arg(rules)
    count = checks.integer(n, "n", low=0, index=True)
    first = checks.seed(seed, "seed", index=True)
    return count * round_bytes(rules, seed=first, n=max(count, 1)).total


def max_rounds(rules: Rules, *, max_bytes: int = ENGINE_MEMORY, seed: int = 0) -> int:
    """The largest ``n`` whose :func:`engine_memory` is at most ``max_bytes`` (0 if one round
    takes more; the engine also holds at most ``MAX_GAMES`` rounds).

    >>> import chickenfoot as cf
    >>> max_rounds(cf.Rules(), max_bytes=10_000)
    3
    """
    rules = rules_arg(rules)
    budget = checks.integer(max_bytes, "max_bytes", low=1, index=True)
    first = checks.seed(seed, "seed", index=True)
    return _fit(round_bytes(rules, seed=first), budget, first)


def _fit(per: RoundBytes, budget: int, seed: int) -> int:
    """The largest ``n`` of ``n`` rounds of ``per`` bytes (its seed's for one round) in
    ``budget`` bytes: a bisection, since the seeds' bytes grow with ``n`` (slowly)."""
    fixed = per.arrays + per.answer
    low, high = 0, budget // per.total  # n rounds take at least n * per.total
    while low < high:
        mid = (low + high + 1) // 2
        if mid * (fixed + _seed_bytes(seed, mid)) <= budget:
            low = mid
        else:
            high = mid - 1
    return low


def check_memory(rules: Rules, n: int, bone_width: int, seed: int, max_bytes: object) -> None:
    """Refuse ``n`` rounds whose bytes exceed ``max_bytes`` (checked too), naming the bytes,
    the budget and the largest ``n`` that fits."""
    budget = checks.integer(max_bytes, "max_bytes", low=1, index=True)
    per = round_bytes(rules, bone_width=bone_width, seed=seed, n=n)
    need = n * per.total
    if need <= budget:
        return
    fit = _fit(round_bytes(rules, bone_width=bone_width, seed=seed), budget, seed)
    default = " (ENGINE_MEMORY, 1 GiB)" if budget == ENGINE_MEMORY else ""
    raise ArgumentError(
        f"n={n:,} rounds of these rules need {need:,} bytes ({per.total:,} a round: "
        f"{per.arrays:,} of arrays, {per.seed:,} of seed, {per.answer:,} of observations, "
        f"legal mask and rewards), more than max_bytes={budget:,}{default}: at most "
        f"{fit:,} rounds fit (give a smaller n, or a larger max_bytes)"
    )
