"""Fuzz targets of the PettingZoo environment (``chickenfoot.pettingzoo``), in the shared
registry.

Importing this module registers them in ``fuzz_targets.TARGETS``; it imports PettingZoo
first, so that without it the import fails and ``bench/fuzz.py`` skips the module.
``tests_adapters/test_fuzz_adapters.py`` runs each target for a short fixed budget, with
the inputs of issue 18 as explicit examples. The property is ``fuzz_targets.check``'s
(returns, or raises a ``ChickenFootError`` or the library's own ``TypeError`` with a bounded
message; under ``nox -s fuzz`` also in under a second). On top of it, checked in the calls themselves (a breach raises
``AssertionError``, which ``check`` reports):

* a refused ``reset`` or ``step`` changes nothing a program can see: the position, the
  match, the deal's seed, the agents, the agent to act, the rewards, terminations,
  truncations and infos, and the state of the environment's generator;
* an accepted ``reset`` deals ``chickenfoot.deal(rules, seed, round)`` when given a seed,
  and an accepted ``step`` of a live agent plays the move the action names.

Inputs: environments of three configurations (a round, a match, a threshold match), reset
or not, at a random point of a random episode (the end included); seeds, rounds, options,
actions and agents of every kind (``INTS``, huge and numpy integers, ``PY_VALUES``, legal and
illegal action ids); keyword arguments of ``raw_env`` and ``env``: real rules fields with
values replaced, and ``scope``, ``reward``, ``history``, ``render_mode``, ``preset``,
``rules`` and ``illegal_reward`` of any value.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pettingzoo  # noqa: F401  (first: without PettingZoo this module does not import)
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot import pettingzoo as cfpz
from fuzz_targets import (
    INTS,
    MISSING,
    PY_VALUES,
    Case,
    _call,
    _rules_kwargs,
    _target,
    describe,
)

__all__ = ["CONFIGS", "NAMES", "observable"]

NAMES: list[str] = []
"""The targets this module registers."""

CONFIGS: dict[str, dict[str, Any]] = {
    "round-2p": {"players": 2, "max_pip": 3, "hand_size": 2, "opening_toes": 2, "foot_toes": 1},
    "match-2-rounds": {"players": 2, "max_pip": 6, "hand_size": 5, "scope": "match"},
    "threshold-3p": {
        "players": 3,
        "max_pip": 4,
        "hand_size": 3,
        "opening_toes": 2,
        "foot_toes": 1,
        "scope": "match",
        "match": cf.Threshold(15),
        "reward": "zero_sum",
        "history": 3,
    },
}
CONFIGS["match-2-rounds"]["match"] = cf.Rounds(2)
_UNSET = object()


def _register(name: str, inputs: Any, call: Any) -> None:
    NAMES.append(name)
    _target(name, inputs, call)


def observable(e: Any) -> tuple[Any, ...]:
    """Everything a program can see of an environment, and its generator's state."""
    raw = e.unwrapped
    names = ("_state", "_match", "deal_seed", "agents", "agent_selection", "rewards")
    names += ("_cumulative_rewards", "terminations", "truncations", "infos")
    values = [repr(getattr(raw, name, _UNSET)) for name in names]
    rng = raw.np_random
    values.append(None if rng is None else repr(rng.bit_generator.state))
    return tuple(values)


class Point:
    """An environment of ``config``, reset with ``seed`` (unless None) and ``steps`` random
    legal steps into its episode (``None`` steps of the agents done, at the end)."""

    def __init__(self, config: str, seed: int | None, steps: int) -> None:
        self.config, self.seed, self.steps = config, seed, steps

    def make(self) -> Any:
        e = cfpz.raw_env(**CONFIGS[self.config])
        if self.seed is None:
            return e
        e.reset(seed=self.seed)
        rng = random.Random(self.seed)
        for _ in range(self.steps):
            if not e.agents:
                break
            if e.terminations[e.agent_selection]:
                e.step(None)
            else:
                e.step(e.encoding.action(rng.choice(e.position.legal_moves)))
        return e

    def __repr__(self) -> str:
        if self.seed is None:
            return f"raw_env({self.config}), never reset"
        return f"raw_env({self.config}) reset(seed={self.seed}), {self.steps} steps"


POINTS = st.builds(
    Point,
    st.sampled_from(sorted(CONFIGS)),
    st.one_of(st.none(), st.integers(0, 50)),
    st.one_of(st.integers(0, 12), st.integers(0, 400)),
)
NUMPY = st.sampled_from(
    [np.int64(1), np.int8(-1), np.uint64(2**64 - 1), np.int64(-1), np.float64(2.0), np.bool_(True)]
    + [np.array(3), np.array([3]), np.str_("player_0")]
)
NUMBERS = st.one_of(st.integers(0, 40), INTS, NUMPY, PY_VALUES)


def _unchanged(e: Any, before: tuple[Any, ...], what: str) -> None:
    if observable(e) != before:
        raise AssertionError(f"a refused {what} changed the environment")


# -- reset ----------------------------------------------------------------------------------------

_OPTIONS = st.one_of(
    st.just(MISSING),
    st.none(),
    st.builds(lambda r: {"round": r}, NUMBERS),
    st.dictionaries(st.one_of(st.just("round"), st.text(max_size=6), INTS), NUMBERS, max_size=3),
    PY_VALUES,
)


def reset(point: Point, seed: Any, options: Any) -> Any:
    e = point.make()
    before = observable(e)
    try:
        _call(e.reset, seed=seed, options=options)
    except cf.ChickenFootError:
        _unchanged(e, before, "reset")
        raise
    if seed is not MISSING and seed is not None:
        got = options.get("round", 0) if isinstance(options, dict) else 0
        expected = cf.deal(e.rules, int(seed), int(got)) if e.scope == "round" else None
        if expected is not None and e.position != expected:
            raise AssertionError(f"reset(seed={describe(seed, 40)}) is not the library's deal")
    return e


_register(
    "pettingzoo: reset",
    st.builds(
        lambda p, s, o: Case(p, seed=s, options=o),
        POINTS,
        st.one_of(st.just(MISSING), st.none(), NUMBERS),
        _OPTIONS,
    ),
    lambda point, **kw: reset(point, kw["seed"], kw["options"]),
)


# -- step -----------------------------------------------------------------------------------------


@st.composite
def _steps(draw: st.DrawFn) -> Case:
    point = draw(POINTS.filter(lambda p: p.seed is not None))
    how = draw(st.integers(0, 4))
    if how == 0:
        action: Any = ("a legal action", draw(st.integers(0, 10**6)))
    elif how == 1:
        action = ("an action id", draw(st.integers(-3, 3000)))
    elif how == 2:
        action = None
    else:
        action = draw(NUMBERS)
    return Case(point, action)


def step(point: Point, action: Any) -> Any:
    e = point.make()
    legal = e.encoding.legal_actions(e.position) if e.agents else []
    if isinstance(action, tuple) and action and action[0] == "a legal action":
        action = legal[action[1] % len(legal)] if legal else None
    elif isinstance(action, tuple) and action and action[0] == "an action id":
        action = action[1]
    live = bool(e.agents) and not e.terminations[e.agent_selection]
    before, position = observable(e), e.position
    try:
        e.step(action)
    except cf.ChickenFootError:
        _unchanged(e, before, "step")
        raise
    if live:
        move = e.encoding.move(action)
        if move not in position.legal_moves:
            raise AssertionError(f"step({describe(action, 40)}) accepted an illegal action")
    return e


_register("pettingzoo: step", _steps(), step)


# -- observe, the spaces --------------------------------------------------------------------------

_AGENTS = st.one_of(st.sampled_from(["player_0", "player_1", "player_2", "player_9"]), NUMBERS)
_register(
    "pettingzoo: observe and the spaces",
    st.builds(
        Case,
        POINTS.filter(lambda p: p.seed is not None),
        _AGENTS,
        st.sampled_from(["observe", "action_space", "observation_space"]),
    ),
    lambda point, agent, method: getattr(point.make(), method)(agent),
)


# -- building the environment ---------------------------------------------------------------------

_ENV_VALUES = {
    "scope": st.one_of(st.sampled_from(["round", "match"]), PY_VALUES),
    "reward": st.one_of(st.sampled_from(["penalty", "zero_sum"]), PY_VALUES),
    "history": st.one_of(st.integers(-1, 65), INTS, NUMPY, PY_VALUES),
    "render_mode": st.one_of(st.sampled_from([None, "ansi", "human", "rgb_array"]), PY_VALUES),
    "preset": st.one_of(st.sampled_from(sorted(cf.PRESETS)), PY_VALUES),
    "rules": st.one_of(st.just(cf.Rules(players=2)), PY_VALUES),
    "illegal_reward": st.one_of(st.floats(), INTS, NUMPY, PY_VALUES),
}


@st.composite
def _env_kwargs(draw: st.DrawFn) -> Case:
    kwargs = draw(_rules_kwargs())
    for name in draw(st.sets(st.sampled_from(sorted(_ENV_VALUES)), max_size=3)):
        kwargs[name] = draw(_ENV_VALUES[name])
    if draw(st.integers(0, 9)) == 0:  # a keyword of any length, next to rules= or not
        kwargs[draw(st.sampled_from(["z" * 5000, "players" * 20, "é" * 41]))] = draw(PY_VALUES)
    return Case(**kwargs)


def build(**kwargs: Any) -> Any:
    e = cfpz.env(**kwargs) if "illegal_reward" in kwargs else cfpz.raw_env(**kwargs)
    if len(e.possible_agents) != e.unwrapped.rules.players:
        raise AssertionError("the agents are not the seats of the rules")
    return e


_register("pettingzoo: raw_env and env", _env_kwargs(), build)
