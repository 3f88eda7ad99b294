"""``ChickenFootEnv``: one table, one learning seat, as a ``gymnasium.Env``."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.record import Record
from chickenfoot.rules import Rules

from ._core import Lanes, Opponents
from ._spaces import single_spaces

if TYPE_CHECKING:
    from numpy.typing import NDArray


class ChickenFootEnv(gymnasium.Env):
    """One table of Chicken Foot: the learner at ``seat`` against ``opponents``.

    The options are :class:`ChickenFootVectorEnv`'s (without self-play; ``rules`` may also
    be the rules' document, ``Rules.to_dict()``, as in a Minari data set's env spec): ``opponents``
    one for each other seat or one for all, ``"random"``, ``"greedy"``, ``"heuristic"``
    (inside the compiled kernel on numba) or a policy callable; ``reward`` ``"win"``,
    ``"margin"`` or ``"penalty"``; ``episode`` ``"round"`` or ``"match"``. The
    observation is ``{"observation": float32 (observation_size,), "action_mask": int8
    (num_actions,)}``: new arrays at every call (Gymnasium 1.x's checker demands it), or
    with ``copy=False`` views of the env's own buffers, handed out without a copy (copy
    them to keep them; never write them); :meth:`action_masks` gives the mask as bools, for sb3-contrib's
    ``MaskablePPO``. An illegal action ends the episode as a loss, never an exception;
    ``reset(seed=...)`` makes the episodes that follow reproducible. An opponent policy
    that raises or answers what is not a legal move fails the ``step`` or ``reset`` that
    asked it with an :class:`~chickenfoot.AgentError`, and the env is as it was before
    that call. A pickled or deep-copied env is a table of its own.

    >>> env = ChickenFootEnv(opponents="greedy")
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape, int(obs["action_mask"].sum()) >= 1
    ((305,), True)
    >>> obs, reward, terminated, truncated, info = env.step(env.num_actions - 1)
    >>> reward, terminated, info["illegal"]
    (-1.0, True, True)
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        *,
        rules: Rules | dict[str, Any] | None = None,
        seat: int = 0,
        opponents: Opponents = "random",
        reward: str = "win",
        episode: str = "round",
        backend: str = "auto",
        deals: str = "exact",
        copy: bool = True,
        records: bool = False,
    ) -> None:
        rules = Rules() if rules is None else rules
        if isinstance(rules, dict):  # the rules' document (an env spec's JSON arguments)
            rules = Rules.from_dict(rules)
        if not isinstance(rules, Rules):
            raise checks.invalid("rules", rules, "must be a Rules object")
        me = checks.integer(seat, "seat", low=0, high=rules.players - 1, index=True)
        self.lanes = Lanes(
            rules, 1, seat=me, opponents=opponents, reward=reward, episode=episode,
            backend=backend, deals=deals, records=records,
        )  # fmt: skip
        self.observation_space, self.action_space = single_spaces(rules, self.lanes.engine)
        self.num_actions = int(self.action_space.n)
        self.copy = checks.flag(copy, "copy")
        self._obs = self._views()

    def _views(self) -> dict[str, NDArray[Any]]:
        """What ``copy=False`` hands out: views of the lanes' buffers."""
        return {
            "observation": self.lanes.obs[0],
            "action_mask": self.lanes.mask.view(np.int8)[0],
        }

    def __getstate__(self) -> dict[str, Any]:
        """A pickle (or a deep copy) holds the lanes, not the views of their buffers."""
        state = dict(self.__dict__)
        del state["_obs"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._obs = self._views()  # views of this env's own buffers

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """A new episode (``seed``: reproducibly, from here on)."""
        lanes = self.lanes
        rng = (copy.deepcopy(self._np_random), self._np_random_seed, hasattr(self, "_seeded"))
        try:
            with lanes.kept("reset"):
                super().reset(seed=seed)
                if seed is not None or not hasattr(self, "_seeded"):
                    lanes.seed(self.np_random)
                    self._seeded = True
                lanes.start(np.zeros(1, dtype=np.int64))
                lanes.observe()
        except BaseException:
            self._np_random, self._np_random_seed = rng[0], rng[1]
            if not rng[2]:
                self.__dict__.pop("_seeded", None)
            raise
        return self._out(), {}

    def take_records(self) -> list[tuple[int | None, Record]]:
        """The rounds finished since the last call (``records=True``), every seat's moves
        in them, in the order they ended: ``(seed, record)``, the seed the round was dealt
        from (``None`` for a match's later rounds, dealt by the environment) and its
        :class:`~chickenfoot.Record` from the deal. Write one in the notation with
        :func:`chickenfoot.notation.write_game`. Without ``records=True``:
        :class:`~chickenfoot.ArgumentError`."""
        return self.lanes.take_records()

    def step(
        self, action: Any
    ) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]:
        """The learner's move, then the opponents' up to its next turn or the end."""
        lanes = self.lanes
        try:
            a = np.array([int(action)], dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            a = np.array([-1], dtype=np.int64)  # not an action: illegal
        if lanes.over[0]:  # stepped after the end: nothing happens
            return self._out(), 0.0, True, False, {"illegal": False}
        with lanes.kept("step"):
            rewards, term, illegal = lanes.act(a, ~lanes.over)
            lanes.observe()
        reward = float(rewards[0, lanes.seat])
        return self._out(), reward, bool(term[0]), False, {"illegal": bool(illegal[0])}

    def _out(self) -> dict[str, NDArray[Any]]:
        if self.copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return self._obs

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as bools (sb3-contrib's ``MaskablePPO`` asks for it)."""
        mask: NDArray[np.bool_] = self.lanes.mask[0]
        return mask
