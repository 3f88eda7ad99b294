"""Issue 46, item 6: the Gymnasium environments keep their promises under copies and errors.

A pickled or deep-copied env (single or vector) shows its own state; an opponent policy
that raises (or answers what is not a move) leaves the env exactly as it was before the
step or reset, and says so with an :class:`~chickenfoot.AgentError`; the vector env's
memory is counted whole against ``max_bytes``, and a ``num_envs`` the constructor accepts
also resets and steps. Every test runs under both backends (the ``backend`` fixture).
"""

from __future__ import annotations

import copy
import gc
import os
import pickle
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.errors import AgentError, ArgumentError
from chickenfoot.gym import ChickenFootEnv, ChickenFootVectorEnv

BACKENDS = os.environ.get("CHICKENFOOT_BATCH_BACKENDS", "numpy,numba").split(",")


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test under one backend: ``backend="auto"`` (every engine here) picks it."""
    from chickenfoot.batch import _compiled

    if request.param == "numpy":
        monkeypatch.setattr(_compiled, "available", lambda: False)
    return str(request.param)


def copied(env: Any, how: str) -> Any:
    return copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))


def kept(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {k: np.array(v, copy=True) for k, v in obs.items()}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in ("observation", "action_mask"))


# -- copies -------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("views", [False, True])
def test_a_copied_single_env_shows_its_own_state(how: str, views: bool, backend: str) -> None:
    """The original ends its episode with an illegal action; the copy plays a legal one and
    sees what a fresh env replaying that move sees, and the original's step changes none
    of the copy's."""
    env = ChickenFootEnv(opponents="greedy", copy=not views)
    obs, _ = env.reset(seed=4)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    twin = copied(env, how)
    mask_before = twin.action_masks().copy()
    gone = env.step(illegal)
    assert gone[2] and gone[0]["action_mask"].all()
    assert (twin.action_masks() == mask_before).all()
    fresh = ChickenFootEnv(opponents="greedy", copy=not views)
    fresh.reset(seed=4)
    want = kept(fresh.step(legal)[0])
    got = twin.step(legal)[0]
    assert same(got, want)
    assert (twin.action_masks() == want["action_mask"].astype(bool)).all()
    assert not np.shares_memory(got["action_mask"], env.action_masks())


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("views", [False, True])
def test_a_copied_vector_env_shows_its_own_state(how: str, views: bool, backend: str) -> None:
    env = ChickenFootVectorEnv(3, opponents="greedy", copy=views is False)
    obs, _ = env.reset(seed=2)
    first = obs["action_mask"].astype(bool).argmax(axis=1)
    last = obs["action_mask"].shape[1] - 1 - obs["action_mask"][:, ::-1].astype(bool).argmax(axis=1)
    twin = copied(env, how)
    mask_before = twin.action_masks().copy()
    env.step(np.array([0, 0, 0]))  # illegal at every table: the original's episodes end
    assert (twin.action_masks() == mask_before).all()
    fresh = ChickenFootVectorEnv(3, opponents="greedy", copy=views is False)
    fresh.reset(seed=2)
    for actions in (last, first):
        want = kept(fresh.step(actions)[0])
        got = twin.step(actions)[0]
        assert same(got, want)
        assert (twin.action_masks() == want["action_mask"].astype(bool)).all()
        assert (twin.engine.turn == fresh.engine.turn).all()
    assert not np.shares_memory(twin.action_masks(), env.action_masks())


# -- an opponent policy that fails --------------------------------------------------------------


class Flaky:
    """The first legal action, or a failure while ``fail`` is set: it raises, or answers
    an action that is not legal, or rows of the wrong shape."""

    def __init__(self, how: str = "raise") -> None:
        self.fail, self.how, self.calls = False, how, 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.last = (obs, mask)  # held, as a training loop holds them
        if self.fail and self.how == "raise":
            raise RuntimeError("the policy's own failure")
        first = mask.argmax(axis=1)
        if self.fail and self.how == "illegal":
            return (~mask).argmax(axis=1)  # the first action that is not legal
        if self.fail and self.how == "shape":
            return first[:-1] if len(first) > 1 else np.array([[0, 0]])
        return first


def states(env: ChickenFootVectorEnv) -> list[cf.State]:
    return [env.engine.to_state(i) for i in range(env.num_envs)]


def step_or_fail(
    env: ChickenFootVectorEnv, policy: Flaky, obs: dict[str, np.ndarray], actions: np.ndarray
) -> tuple[Any, ...] | None:
    """Step with the policy failing: if it was asked, the env must raise and be as before
    (``obs``: its buffers, handed out by the last step)."""
    before_obs = kept(obs)
    before_states, before_mask = states(env), env.action_masks().copy()
    calls = policy.calls
    policy.fail = True
    try:
        out = env.step(actions)
    except AgentError as err:
        assert policy.calls > calls
        assert "seat 2" in str(err) and "as it was" in str(err)
        if policy.how == "raise":
            assert isinstance(err.__cause__, RuntimeError)
        assert states(env) == before_states
        assert (env.action_masks() == before_mask).all()
        assert same(obs, before_obs)
        return None
    finally:
        policy.fail = False
    assert policy.calls == calls  # not asked: the step is a normal one
    return out


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
@pytest.mark.parametrize("how", ["raise", "illegal", "shape"])
def test_a_failing_opponent_policy_leaves_the_vector_env_as_it_was(
    mode: str, how: str, backend: str
) -> None:
    """At every step the policy first fails (the step raises and changes nothing: tables,
    random opponents' choices, buffers, pending resets), then the step is made again and
    must give what an env whose policy never failed gives."""
    flaky, steady = Flaky(how), Flaky(how)
    kw: dict[str, Any] = {"autoreset_mode": mode}
    env = ChickenFootVectorEnv(4, opponents=["random", flaky, "greedy"], **kw)
    ref = ChickenFootVectorEnv(4, opponents=["random", steady, "greedy"], **kw)
    obs, _ = env.reset(seed=6)
    assert same(obs, ref.reset(seed=6)[0])
    raised = ended = 0
    for _ in range(70):
        actions = obs["action_mask"].astype(bool).argmax(axis=1)
        out = step_or_fail(env, flaky, obs, actions)
        if out is None:
            raised += 1
            out = env.step(actions)
        want = ref.step(actions)
        obs = out[0]
        assert same(obs, want[0])
        for got_part, want_part in zip(out[1:4], want[1:4], strict=True):
            assert np.array_equal(got_part, want_part)
        ended += int(out[2].sum())
    assert raised > 10 and ended > 2


def test_a_failing_opponent_policy_at_reset_leaves_the_env_as_it_was(backend: str) -> None:
    """The learner sits last: the policy at seat 0 moves before its first turn."""
    flaky = Flaky()
    env = ChickenFootVectorEnv(3, seat=3, opponents=[flaky, "greedy", "random"])
    ref = ChickenFootVectorEnv(3, seat=3, opponents=[Flaky(), "greedy", "random"])
    obs, _ = env.reset(seed=1)
    ref.reset(seed=1)
    before, before_obs = states(env), kept(obs)
    flaky.fail = True
    with pytest.raises(AgentError, match=r"seat 0 raised RuntimeError.*before this reset"):
        env.reset(seed=9)
    with pytest.raises(AgentError, match="seat 0"):
        env.reset()
    assert states(env) == before and same(obs, before_obs)
    flaky.fail = False
    assert same(env.reset()[0], ref.reset()[0])  # the engine's next deals: the same
    assert same(env.reset(seed=9)[0], ref.reset(seed=9)[0])


def test_a_failing_opponent_policy_leaves_the_single_env_as_it_was(backend: str) -> None:
    flaky = Flaky()
    env = ChickenFootEnv(opponents=[flaky, "random", "random"], episode="match")
    ref = ChickenFootEnv(opponents=[Flaky(), "random", "random"], episode="match")
    obs, _ = env.reset(seed=5)
    ref.reset(seed=5)
    raised = 0
    for _ in range(60):
        action = int(np.flatnonzero(obs["action_mask"])[0])
        mask = env.action_masks().copy()
        flaky.fail = True
        try:
            got = env.step(action)
        except AgentError as err:
            assert isinstance(err.__cause__, RuntimeError)
            assert (env.action_masks() == mask).all()
            raised += 1
            flaky.fail = False
            got = env.step(action)
        flaky.fail = False
        want = ref.step(action)
        assert same(got[0], want[0]) and got[1:4] == want[1:4]
        obs = got[0]
        if got[2]:
            obs = env.reset()[0]
            assert same(obs, ref.reset()[0])
    assert raised > 10


# -- memory -------------------------------------------------------------------------------------


def largest(accepts: Callable[[int], bool], high: int) -> int:
    low = 0
    while low < high:
        mid = (low + high + 1) // 2
        if accepts(mid):
            low = mid
        else:
            high = mid - 1
    return low


def accepted(n: int, **kw: Any) -> bool:
    try:
        ChickenFootVectorEnv(n, **kw)
    except ArgumentError:
        return False
    return True


@pytest.mark.parametrize("players", [4, 8])
def test_the_largest_vector_env_the_constructor_accepts_resets_and_steps(
    players: int, backend: str
) -> None:
    rules = cf.Rules(players=players)
    kw: dict[str, Any] = {"rules": rules, "max_bytes": 600_000, "opponents": Flaky()}
    n = largest(lambda k: accepted(k, **kw), 400)
    assert 0 < n < 400
    with pytest.raises(ArgumentError, match=f"at most {n:,} tables fit") as err:
        ChickenFootVectorEnv(n + 1, **kw)
    assert "max_bytes=600,000" in str(err.value)
    env = ChickenFootVectorEnv(n, **kw)
    assert env.memory <= 600_000
    for seed in (None, 2**62 - 1, 5):
        obs, _ = env.reset(seed=seed)
        for _ in range(3):
            obs, *_ = env.step(obs["action_mask"].astype(bool).argmax(axis=1))


def test_the_engines_own_largest_n_is_refused_before_anything_is_made(backend: str) -> None:
    """The engine alone fits 371,023 rounds of house rules in 1 GiB; with the spaces,
    buffers and larger seeds of a vector env they do not fit, and the refusal comes first."""
    from chickenfoot.batch import max_rounds

    n = max_rounds(cf.Rules())
    tracemalloc.start()
    try:
        with pytest.raises(
            ArgumentError, match=r"more than max_bytes=1,073,741,824 \(ENGINE_MEMORY"
        ):
            ChickenFootVectorEnv(n)
        assert tracemalloc.get_traced_memory()[1] < 1 << 20
    finally:
        tracemalloc.stop()


def held(n: int, **kw: Any) -> tuple[int, int]:
    """The most bytes traced after a step of an env of ``n`` tables (made, reset and stepped
    under tracing), holding what the step handed out and what its policy was handed,
    and the bytes the env says it is counted for."""
    gc.collect()
    tracemalloc.start()
    try:
        env = ChickenFootVectorEnv(n, **kw)
        out = env.reset(seed=3)
        most = tracemalloc.get_traced_memory()[0]
        for _ in range(6):
            out = env.step(out[0]["action_mask"].astype(bool).argmax(axis=1))
            most = max(most, tracemalloc.get_traced_memory()[0])
        return most, env.memory
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "kw",
    [
        {"opponents": Flaky()},
        {"opponents": Flaky(), "autoreset_mode": "SameStep", "copy": True, "seat": 2},
        {"self_play": True, "episode": "match"},
    ],
)
def test_a_vector_env_takes_no_more_memory_a_table_than_it_counts(
    kw: dict[str, Any], backend: str
) -> None:
    """Spaces, buffers, policy inputs, copies and the engine: what a table more holds while
    the env steps, traced, is at most what the env counts for it against ``max_bytes``.
    The opponents are policies that keep what they were handed (the built-in ones play
    inside the engine); the engine's own working arrays while it computes are its own."""
    held(64, **kw)  # warm caches
    small, counted_small = held(64, **kw)
    large, counted_large = held(576, **kw)
    per_table = (large - small) / 512
    counted = (counted_large - counted_small) / 512
    assert per_table <= counted, (per_table, counted)
