"""The spaces of the Gymnasium environments (one table's)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from chickenfoot.batch import BatchEngine
from chickenfoot.rules import Rules


def single_spaces(rules: Rules, engine: BatchEngine) -> tuple[spaces.Dict, spaces.Discrete]:
    """One table's observation space, ``{"observation": Box, "action_mask": MultiBinary}``,
    and its action space, ``Discrete(num_actions)``. Every number of an observation (a
    flag, a count of tiles, ends or toes) lies from 0 to the set's size."""
    obs = spaces.Box(
        low=0.0,
        high=float(rules.set_size),
        shape=(engine.observation_size,),
        dtype=np.float32,
    )
    mask = spaces.MultiBinary(engine.num_actions)
    return spaces.Dict({"observation": obs, "action_mask": mask}), spaces.Discrete(
        engine.num_actions
    )
