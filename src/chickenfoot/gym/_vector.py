"""``ChickenFootVectorEnv``: N tables of one batch engine as a Gymnasium vector env."""

from __future__ import annotations

import copy as copying
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from chickenfoot import _checks as checks
from chickenfoot.batch import ENGINE_MEMORY, MAX_GAMES, BatchEngine
from chickenfoot.record import Record
from chickenfoot.rules import Rules

from ._core import Lanes, Opponents
from ._spaces import single_spaces

if TYPE_CHECKING:
    from numpy.typing import NDArray

_MODES = {m.value: m for m in AutoresetMode} | {m.name: m for m in AutoresetMode}


class ChickenFootVectorEnv(VectorEnv):
    """``num_envs`` tables of Chicken Foot in one process, over one batch engine.

    The learner sits at ``seat`` of every table (0 by default), against ``opponents``
    (one for every other seat, or one for all): ``"random"``, ``"greedy"`` or
    ``"heuristic"`` (played inside the engine's compiled kernel on numba), or a policy
    ``policy(observations, legal_mask) -> actions`` asked with the rows of the tables
    where its seat is to act. ``self_play=True`` has no opponents: every seat is played
    by the caller, the observation is the seat to act's, ``infos["to_play"]`` says which
    seat that is, and rewards are ``(num_envs, players)``, one for every seat.

    Observations are a dict of two batched arrays, ``"observation"``
    (``(num_envs, observation_size)`` float32, :mod:`chickenfoot.encoding`) and
    ``"action_mask"`` (``(num_envs, num_actions)`` int8, 1 for a legal action). They are
    the env's own buffers, handed out without a copy and written again by the next
    ``step`` or ``reset``: copy them to keep them, and never write them (``step`` reads
    the mask back to judge the actions); ``copy=True`` returns new arrays instead. A
    finished episode's mask row is all ones.

    An episode is a round (``episode="match"``: a whole match, scored on its totals);
    ``reward`` is ``"win"`` (the share of the win: 1, 1/2 for a tie...; 0 otherwise),
    ``"margin"`` (the other seats' mean penalty minus one's own) or ``"penalty"``, given
    when the episode ends. An illegal action ends its episode as a loss (reward -1, or
    minus ``rules.max_penalty``), never an exception. ``autoreset_mode``: ``"NextStep"``
    (Gymnasium's default), ``"SameStep"`` (``infos["final_obs"]``, batched) or
    ``"Disabled"`` (``reset(options={"reset_mask": ...})``).

    An opponent policy that raises or answers what is not a legal move fails the ``step``
    or ``reset`` that asked it with an :class:`~chickenfoot.AgentError`, and the env is as
    it was before that call (every table, the random opponents' choices, the buffers). A
    pickled or deep-copied env holds tables and buffers of its own. ``max_bytes`` bounds
    the env's memory, counted whole (:attr:`memory`: the engine's rounds, the batched
    spaces, the buffers, the copies a step hands out, what a step keeps to undo itself);
    a ``num_envs`` that needs more is refused, naming the most tables that fit, and one
    that is accepted resets and steps.

    >>> import numpy as np
    >>> env = ChickenFootVectorEnv(4, opponents="greedy")
    >>> obs, info = env.reset(seed=1)
    >>> obs["observation"].shape, obs["action_mask"].shape
    ((4, 305), (4, 1157))
    >>> actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    >>> obs, rewards, terminated, truncated, info = env.step(actions)
    >>> rewards.shape, env.metadata["autoreset_mode"].value
    ((4,), 'NextStep')
    """

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Rules | None = None,
        seat: int = 0,
        opponents: Opponents = "random",
        self_play: bool = False,
        reward: str = "win",
        episode: str = "round",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        backend: str = "auto",
        deals: str = "exact",
        copy: bool = False,
        max_bytes: int = ENGINE_MEMORY,
        records: bool = False,
    ) -> None:
        n = checks.integer(num_envs, "num_envs", low=1, high=MAX_GAMES, index=True)
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise checks.invalid("rules", rules, "must be a Rules object")
        self_play = checks.flag(self_play, "self_play")
        me = None if self_play else _seat(seat, rules.players)
        key = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        mode = _MODES.get(key) if isinstance(key, str) else None  # a list is no mode either
        if mode is None:
            raise checks.invalid(
                "autoreset_mode", autoreset_mode, "must be 'NextStep', 'SameStep' or 'Disabled'"
            )
        copy = checks.flag(copy, "copy")
        copies = int(copy) + int(mode is AutoresetMode.SAME_STEP)  # a step's copies out
        self.lanes = Lanes(
            rules, n, seat=me, opponents=opponents, reward=reward, episode=episode,
            backend=backend, deals=deals, copies=copies, max_bytes=max_bytes,
            records=records,
        )  # fmt: skip
        self.num_envs = n
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.single_observation_space, self.single_action_space = single_spaces(
            rules, self.lanes.engine
        )
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, n
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, n)
        self.self_play = self_play
        self.copy = copy
        self._obs = self._views()

    def _views(self) -> dict[str, NDArray[Any]]:
        """What ``copy=False`` hands out: the lanes' buffers (the mask as int8)."""
        return {"observation": self.lanes.obs, "action_mask": self.lanes.mask.view(np.int8)}

    def __getstate__(self) -> dict[str, Any]:
        """A pickle (or a deep copy) holds the lanes, not the views of their buffers."""
        state = dict(self.__dict__)
        del state["_obs"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._obs = self._views()  # views of this env's own buffers

    @property
    def engine(self) -> BatchEngine:
        """The :class:`~chickenfoot.batch.BatchEngine` holding the tables (read it only)."""
        return self.lanes.engine

    @property
    def memory(self) -> int:
        """The bytes the env is counted for against ``max_bytes``: for each table, its
        round in the engine (counted for the largest seeds a seeded reset deals), its share
        of the batched spaces, its rows of the buffers and of the copies a step hands out,
        and, with policy opponents, what a step keeps to undo itself.

        >>> f"{ChickenFootVectorEnv(100).memory:,}"
        '1,326,300'
        >>> f"{ChickenFootVectorEnv(100, opponents=lambda obs, mask: mask.argmax(1)).memory:,}"
        '1,376,500'
        """
        return self.lanes.memory

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """New episodes at every table (or, with ``options={"reset_mask": mask}``, at the
        tables of the mask); ``seed`` makes the deals and the random opponents
        reproducible."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        lanes = self.lanes
        which = np.ones(self.num_envs, dtype=np.bool_)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise checks.invalid("reset_mask", options["reset_mask"], "must be n booleans")
            which = mask
        rng = (copying.deepcopy(self._np_random), self._np_random_seed)
        try:
            with lanes.kept("reset"):
                super().reset(seed=seed)
                if seed is not None:
                    lanes.seed(self.np_random)
                lanes.start(np.flatnonzero(which))
                lanes.pending[which] = False
                lanes.observe()
        except BaseException:
            self._np_random, self._np_random_seed = rng
            raise
        return self._out(), self._info()

    def take_records(self) -> list[tuple[int | None, Record]]:
        """The rounds finished since the last call (``records=True``), every seat's moves
        in them, in the order they ended: ``(seed, record)``, the seed the round was dealt
        from (``None`` for a match's later rounds, dealt by the environment) and its
        :class:`~chickenfoot.Record` from the deal. Write one in the notation with
        :func:`chickenfoot.notation.write_game`. Without ``records=True``:
        :class:`~chickenfoot.ArgumentError`."""
        return self.lanes.take_records()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, NDArray[Any]], NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:  # fmt: skip
        """One move of the learner (or of the seat to act) at every table, then the
        opponents' moves up to the learner's next turn."""
        lanes, n = self.lanes, self.num_envs
        mode = self.metadata["autoreset_mode"]
        info: dict[str, Any] = {}
        with lanes.kept("step"):
            pending = lanes.pending.copy()
            rewards, term, illegal = lanes.act(actions, ~lanes.over)
            if mode is AutoresetMode.NEXT_STEP:
                if pending.any():
                    lanes.start(np.flatnonzero(pending))
                lanes.pending[...] = term
            elif mode is AutoresetMode.SAME_STEP and term.any():
                lanes.observe()
                info["final_obs"] = {k: v.copy() for k, v in self._obs.items()}
                info["_final_obs"] = term.copy()
                lanes.start(np.flatnonzero(term))
            lanes.observe()
        info.update(self._info())
        info["illegal"] = illegal
        out = rewards if self.self_play else rewards[:, lanes.seat]
        return self._out(), out, term, np.zeros(n, dtype=np.bool_), info

    def _out(self) -> dict[str, NDArray[Any]]:
        if self.copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return self._obs

    def _info(self) -> dict[str, Any]:
        if self.self_play:
            return {"to_play": self.lanes.engine.turn.copy()}
        return {}

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every table, ``(num_envs, num_actions)`` bool (the buffer)."""
        return self.lanes.mask


def _seat(seat: object, players: int) -> int:
    return checks.integer(seat, "seat", low=0, high=players - 1, index=True)
