"""The memory of a vector environment, counted whole before anything is allocated.

A :class:`~chickenfoot.gym.ChickenFootVectorEnv` of ``num_envs`` tables holds, for each
table: its round in the batch engine (its arrays, its seed, and the engine's largest
answer, which is also what an opponent policy is handed: :func:`engine_memory`, counted
for the largest seeds a seeded reset deals, so that a reset never needs more than the
constructor counted); the batched spaces (Gymnasium stores the observation space's bounds,
and the mask space's, as arrays of the batch's shape); the observation and mask buffers;
the copies a step hands out (``copy=True``, ``"SameStep"``'s final observations); with
policy opponents, the copy of the engine's arrays a step keeps to undo itself if a policy
fails; a match's totals; and the step's own work arrays. The constructor refuses a
``num_envs`` whose bytes exceed ``max_bytes`` (:data:`~chickenfoot.batch.ENGINE_MEMORY`,
1 GiB, by default), naming the bytes, the budget and the most tables that fit.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from chickenfoot.batch import ENGINE_MEMORY, MAX_GAMES, engine_memory
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError
from chickenfoot.rules import Rules

LARGEST_SEED: Final = 1 << 62
"""A seeded reset deals from a seed below this (its seeds follow it): their int objects
are the largest any seed below ``2**90`` takes, so the engine is counted for them."""


class TableBytes(NamedTuple):
    """The bytes one table of a vector env takes, by part."""

    engine: int
    """Its round in the batch engine, with the engine's largest answer (policy inputs)."""
    spaces: int
    """Its share of the batched observation and action spaces."""
    buffers: int
    """Its rows of the observation and mask buffers, its flags and its match's totals."""
    copies: int
    """The copies of its observation and mask a step hands out (``copy``, final ones)."""
    undo: int
    """With policy opponents: the copy of its engine arrays kept to undo a failed step."""
    work: int
    """Its share of a step's work arrays."""

    @property
    def total(self) -> int:
        """Every part."""
        return sum(self)


def table_bytes(rules: Rules, *, copies: int, policies: bool, match: bool) -> TableBytes:
    """The bytes of one table under ``rules``, with ``copies`` copies of its observation
    and mask handed out by a step, policy opponents or not, a match episode or a round."""
    enc = Encoding(rules)
    o, a, p = enc.observation_size, enc.num_actions, rules.players
    view = 4 * o + a  # one table's observation (float32) and mask (one byte an action)
    engine = engine_memory(rules, 1, seed=LARGEST_SEED)
    # Box(observation): low, high (float32) and two bool flags; the mask's MultiBinary,
    # batched, a Box of int8 with the same four; the actions' MultiDiscrete: two int64.
    spaces = 2 * (4 + 1) * o + 2 * (1 + 1) * a + 2 * 8
    held = (2 + p) * 8 if match else 0  # a match's seed, rounds played and totals
    buffers = view + 2 + held  # the buffers, ``over``, ``pending``
    # The engine's arrays and seed (its bytes less its answer), and the flags and totals.
    undo = engine_memory(rules, 1) - (view + 4 * p + 1) + 2 + held if policies else 0
    work = 8 * (12 + 6 * p)
    return TableBytes(engine, spaces, buffers, copies * (view + 1), undo, work)


def check_env_memory(n: int, per: TableBytes, budget: int) -> None:
    """Refuse ``n`` tables of ``per`` bytes each over ``budget`` bytes, naming the parts
    and the most tables that fit."""
    need = n * per.total
    if need <= budget:
        return
    fit = min(budget // per.total, MAX_GAMES)
    default = " (ENGINE_MEMORY, 1 GiB)" if budget == ENGINE_MEMORY else ""
    raise ArgumentError(
        f"num_envs={n:,} tables need {need:,} bytes ({per.total:,} a table: {per.engine:,} "
        f"in the batch engine, {per.spaces:,} of spaces, {per.buffers + per.copies:,} of "
        f"observations and masks, {per.undo + per.work:,} of work), more than "
        f"max_bytes={budget:,}{default}: at most {fit:,} tables fit (give a smaller "
        "num_envs, or a larger max_bytes)"
    )
