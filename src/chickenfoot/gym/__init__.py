"""Gymnasium environments over the batch engine (docs/gym.md): the ``gym`` extra.

:class:`ChickenFootEnv` is one table with one learning seat (a ``gymnasium.Env``, for
Stable-Baselines3 and sb3-contrib's ``MaskablePPO``); :class:`ChickenFootVectorEnv` is
``num_envs`` tables in one process over one :class:`~chickenfoot.batch.BatchEngine` (a
``gymnasium.vector.VectorEnv``, for CleanRL-style loops), with a self-play mode. Both
observe ``{"observation", "action_mask"}`` in the encoding of :mod:`chickenfoot.encoding`,
so a policy trained here plays in the PettingZoo and OpenSpiel adapters, and at a table
as a :class:`~chickenfoot.policy.PolicyAgent`. This module imports gymnasium; nothing
else in the package does.

>>> env = ChickenFootEnv(opponents="random")
>>> obs, info = env.reset(seed=0)
>>> sorted(obs), env.action_space
(['action_mask', 'observation'], Discrete(1157))
"""

from __future__ import annotations

from ._core import REWARDS, reward_of
from ._single import ChickenFootEnv
from ._vector import ChickenFootVectorEnv

__all__ = ["REWARDS", "ChickenFootEnv", "ChickenFootVectorEnv", "reward_of"]
