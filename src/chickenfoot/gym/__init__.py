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

Both are registered with Gymnasium as :data:`ENV_ID` (``gymnasium.make`` and, with
``vectorization_mode="vector_entry_point"``, ``gymnasium.make_vec``):

>>> import gymnasium
>>> venv = gymnasium.make_vec(ENV_ID, num_envs=4, vectorization_mode="vector_entry_point")
>>> type(venv).__name__, venv.num_envs
('ChickenFootVectorEnv', 4)
"""

from __future__ import annotations

from typing import Final

import gymnasium

from ._core import REWARDS, Opponent, OpponentPolicy, Opponents, reward_of
from ._single import ChickenFootEnv
from ._vector import ChickenFootVectorEnv

__all__ = [
    "ENV_ID",
    "REWARDS",
    "ChickenFootEnv",
    "ChickenFootVectorEnv",
    "Opponent",
    "OpponentPolicy",
    "Opponents",
    "reward_of",
]

ENV_ID: Final = "chickenfoot/ChickenFoot-v0"
"""The environments' id in Gymnasium's registry."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="chickenfoot.gym:ChickenFootEnv",
        vector_entry_point="chickenfoot.gym:ChickenFootVectorEnv",
    )
