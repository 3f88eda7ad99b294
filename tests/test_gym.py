"""The Gymnasium environments (chickenfoot.gym), the engine's built-in seats, the policy
agent and its spec, and ``chickenfoot compile``.

Every test runs under both backends of the batch engine (the ``backend`` fixture, as in
tests/test_batch.py): the built-in opponents play in the compiled kernel on numba and
through the core on numpy, and must make the core agents' moves.
"""

from __future__ import annotations

import io
import logging
import os
import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import chickenfoot as cf
from chickenfoot._rollouts import heuristic_policy
from chickenfoot.batch import BatchEngine
from chickenfoot.encoding import Encoding
from chickenfoot.errors import AgentError, ArgumentError
from chickenfoot.gym import ChickenFootEnv, ChickenFootVectorEnv, reward_of
from chickenfoot.policy import PolicyAgent, save_policy
from chickenfoot.specs import Trust, UntrustedSpecError, agent_of, parse_spec

BACKENDS = os.environ.get("CHICKENFOOT_BATCH_BACKENDS", "numpy,numba").split(",")


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test under one backend: ``backend="auto"`` (every engine here) picks it."""
    from chickenfoot.batch import _compiled

    if request.param == "numpy":
        monkeypatch.setattr(_compiled, "available", lambda: False)
    else:
        assert _compiled.available(), "the numba backend's tests need pip install '.[fast]'"
    return str(request.param)


def first_legal(mask: np.ndarray) -> np.ndarray:
    return np.asarray(mask).astype(bool).argmax(axis=-1)


# -- the engine's built-in seats ----------------------------------------------------------------


@pytest.mark.parametrize("rules", [cf.Rules(), cf.Rules.preset("classic"), cf.Rules(players=8)])
def test_built_in_seats_make_the_core_agents_moves(rules: cf.Rules, backend: str) -> None:
    """Greedy and heuristic seats end every round exactly where the core's agents do
    (GreedyAgent, and the rollouts' heuristic_policy), move for move."""
    p = rules.players
    names = ["greedy", "heuristic"] * p
    agents = names[:p]
    e = BatchEngine(rules, 12, seed=40)
    _, done, moves = e.play_agents(agents)
    assert done.all()
    greedy = cf.GreedyAgent()
    for i in range(12):
        s = cf.deal(rules, 40 + i)
        made = 0
        while not s.is_over():
            legal = s.legal_moves
            if agents[s.turn] == "greedy":
                m = greedy.choose(s.view(s.turn), legal, None)
            else:
                m = heuristic_policy(s, legal)
            s = cf.apply(s, m)
            made += 1
        assert e.to_state(i) == s
        assert moves[i] == made
        assert e.penalties()[i].tolist() == list(s.penalties())


def test_random_seats_make_legal_moves_and_stop_at_an_outside_seat(backend: str) -> None:
    e = BatchEngine(cf.Rules(), 16, seed=3, rng_seed=5)
    e.play_agents(["random", "random", "random", "random"], lanes=[0, 5])
    assert e.done[[0, 5]].all() and not e.done[[1, 2, 3]].any()
    before = e.turn.copy()
    e.step(np.array([first_legal(e.legal_mask())[i] for i in range(16)]), lanes=[1])
    e.play_agents(["random", None, "random", "random"], lanes=np.arange(1, 5))
    assert (e.turn[1:5] == 1).all() or e.done[1:5].any()
    assert before[6] == e.turn[6]  # untouched lanes


def test_seat_arguments_are_checked(backend: str) -> None:
    e = BatchEngine(cf.Rules(), 4)
    with pytest.raises(ArgumentError, match="agents"):
        e.play_agents(["greedy"] * 3)
    with pytest.raises(ArgumentError, match="agents\\[1\\]"):
        e.play_agents(["greedy", "smart", None, None])
    with pytest.raises(ArgumentError, match="lanes"):
        e.play_agents([None] * 4, lanes=[0, 0])
    with pytest.raises(ArgumentError, match="lanes"):
        e.step(np.zeros(4, dtype=np.int64), lanes=[7])
    with pytest.raises(ArgumentError, match="out"):
        e.observe(out=np.zeros((4, 3), dtype=np.float32))


def test_lanes_and_out_give_the_rows_of_the_whole(backend: str) -> None:
    e = BatchEngine(cf.Rules(), 6, seed=9)
    e.play_agents(["random"] * 4, lanes=[2])
    whole_obs, whole_mask = e.observe(), e.legal_mask()
    buf = np.zeros((2, e.observation_size), dtype=np.float32)
    assert e.observe(lanes=[4, 1], out=buf) is buf
    assert (buf == whole_obs[[4, 1]]).all()
    assert (e.legal_mask(lanes=[4, 1]) == whole_mask[[4, 1]]).all()
    e.reset(lanes=[3], seeds=[77])
    assert e.to_state(3) == cf.deal(cf.Rules(), 77)
    e.load(0, cf.deal(cf.Rules(), 5, 2))
    assert e.to_state(0) == cf.deal(cf.Rules(), 5, 2)


# -- the single-table environment ---------------------------------------------------------------


def test_the_single_env_passes_gymnasiums_checker(backend: str) -> None:
    check_env(ChickenFootEnv(opponents="greedy"), skip_render_check=True)
    check_env(ChickenFootEnv(opponents=["random", "heuristic", "greedy"], reward="margin"),
              skip_render_check=True)  # fmt: skip


def play_single(env: ChickenFootEnv, seed: int | None, episodes: int) -> list[tuple[float, int]]:
    out = []
    obs, _ = env.reset(seed=seed)
    for _ in range(episodes):
        steps, done, r = 0, False, 0.0
        while not done:
            obs, r, done, trunc, info = env.step(int(first_legal(obs["action_mask"])))
            assert not trunc and not info["illegal"]
            steps += 1
        out.append((r, steps))
        obs, _ = env.reset()
    return out


def test_reset_with_a_seed_is_reproducible(backend: str) -> None:
    a = play_single(ChickenFootEnv(opponents="random"), 11, 6)
    b = play_single(ChickenFootEnv(opponents="random"), 11, 6)
    c = play_single(ChickenFootEnv(opponents="random"), 12, 6)
    assert a == b
    assert a != c


def test_an_illegal_action_ends_the_episode_as_a_loss(backend: str) -> None:
    for reward, loss in (("win", -1.0), ("margin", -float(cf.Rules().max_penalty))):
        env = ChickenFootEnv(opponents="greedy", reward=reward)
        obs, _ = env.reset(seed=1)
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        obs, r, term, trunc, info = env.step(illegal)
        assert (r, term, trunc, info["illegal"]) == (loss, True, False, True)
        assert obs["action_mask"].all()  # a finished episode: every action is accepted
        assert env.step(0)[1:4] == (0.0, True, False)  # after the end: nothing happens
    for junk in (-5, 10**9, "x", None):
        env.reset()
        assert env.step(junk)[4]["illegal"] is True


def test_a_win_share_is_one_for_going_out_and_rewards_follow_the_penalties(backend: str) -> None:
    assert reward_of("win", np.array([[0, 5, 5, 9], [3, 3, 8, 8]])).tolist() == [
        [1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0],
    ]  # fmt: skip
    m = reward_of("margin", np.array([[0, 6, 3, 3]]))
    assert m.tolist() == [[4.0, -4.0, 0.0, 0.0]] and m.sum() == 0
    assert reward_of("penalty", np.array([[0, 6]])).tolist() == [[0.0, -6.0]]


def test_the_reward_is_the_learners_share_of_the_rounds_win(backend: str) -> None:
    """Against greedy opponents, the learner (first legal move) ends rounds with a win
    share matching its seat's penalty in the engine's final state."""
    env = ChickenFootEnv(opponents="greedy")
    obs, _ = env.reset(seed=4)
    for _ in range(5):
        done = False
        while not done:
            obs, r, done, _, _ = env.step(int(first_legal(obs["action_mask"])))
        pens = env.lanes.engine.penalties()[0]
        assert r == reward_of("win", pens[None, :])[0, 0]
        obs, _ = env.reset()


def test_a_match_episode_lasts_the_rules_rounds(backend: str) -> None:
    rules = cf.Rules(match=cf.Rounds(3))
    env = ChickenFootEnv(rules=rules, opponents="greedy", episode="match", reward="penalty")
    obs, _ = env.reset(seed=2)
    done, r = False, 0.0
    while not done:
        obs, r, done, _, _ = env.step(int(first_legal(obs["action_mask"])))
    assert env.lanes.played[0] == 3
    assert r == -env.lanes.totals[0, 0]


def test_opponents_may_be_policies(backend: str) -> None:
    calls: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def first(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append((obs.shape, mask.shape))
        return mask.argmax(axis=1)

    env = ChickenFootVectorEnv(3, opponents=[first, "greedy", first])
    obs, _ = env.reset(seed=1)
    for _ in range(20):
        obs, *_ = env.step(first_legal(obs["action_mask"]))
    assert calls and all(o[1] == 305 and m[1] == 1157 and o[0] == m[0] for o, m in calls)


def test_bad_options_are_refused(backend: str) -> None:
    with pytest.raises(ArgumentError, match="opponents"):
        ChickenFootEnv(opponents="smart")
    with pytest.raises(ArgumentError, match="opponents"):
        ChickenFootEnv(opponents=["greedy"] * 2)
    with pytest.raises(ArgumentError, match="reward"):
        ChickenFootEnv(reward="points")
    with pytest.raises(ArgumentError, match="autoreset_mode"):
        ChickenFootVectorEnv(2, autoreset_mode="Sometimes")
    with pytest.raises(ArgumentError, match="autoreset_mode"):  # not a TypeError: unhashable
        ChickenFootVectorEnv(2, autoreset_mode=["NextStep"])  # type: ignore[arg-type]


# -- the vector environment ---------------------------------------------------------------------


def run_until_end(env: ChickenFootVectorEnv, obs: dict[str, np.ndarray]) -> tuple:
    for _ in range(200):
        obs, r, term, _trunc, info = env.step(first_legal(obs["action_mask"]))
        if term.any():
            return obs, r, term, info
    raise AssertionError("no episode ended")


def test_next_step_autoreset_resets_on_the_step_after_the_end(backend: str) -> None:
    env = ChickenFootVectorEnv(4, opponents="greedy")
    assert env.metadata["autoreset_mode"].value == "NextStep"
    obs, _ = env.reset(seed=5)
    obs, _r, term, _ = run_until_end(env, obs)
    ended = np.flatnonzero(term)
    assert obs["action_mask"][ended].all()  # the final observation's mask: all ones
    obs, r2, term2, _, _ = env.step(np.zeros(4, dtype=np.int64))  # ignored where reset
    assert (r2[ended] == 0).all() and not term2[ended].any()
    for i in ended:  # a new deal: the learner's first turn
        assert len(env.engine.to_state(i).board) < 4
    assert obs["action_mask"][ended].sum(axis=1).max() < 1157


def test_same_step_autoreset_gives_the_final_observations(backend: str) -> None:
    env = ChickenFootVectorEnv(4, opponents="greedy", autoreset_mode="SameStep")
    obs, _ = env.reset(seed=5)
    obs, _r, term, info = run_until_end(env, obs)
    ended = np.flatnonzero(term)
    assert (info["_final_obs"] == term).all()
    assert info["final_obs"]["action_mask"][ended].all()
    assert obs["action_mask"][ended].sum(axis=1).max() < 1157  # already dealt again


def test_disabled_autoreset_waits_for_reset(backend: str) -> None:
    env = ChickenFootVectorEnv(4, opponents="greedy", autoreset_mode="Disabled")
    obs, _ = env.reset(seed=5)
    obs, _r, term, _ = run_until_end(env, obs)
    ended = np.flatnonzero(term)
    obs, r2, term2, _, _ = env.step(np.zeros(4, dtype=np.int64))
    assert (r2[ended] == 0).all() and not term2[ended].any()
    assert obs["action_mask"][ended].all()
    obs, _ = env.reset(options={"reset_mask": term})
    assert obs["action_mask"][ended].sum(axis=1).max() < 1157


def test_the_vector_env_hands_out_its_buffers(backend: str) -> None:
    env = ChickenFootVectorEnv(2)
    obs, _ = env.reset(seed=0)
    obs2, *_ = env.step(first_legal(obs["action_mask"]))
    assert obs2["observation"] is obs["observation"] and obs2["action_mask"] is obs["action_mask"]
    copied = ChickenFootVectorEnv(2, copy=True)
    a, _ = copied.reset(seed=0)
    b, *_ = copied.step(first_legal(a["action_mask"]))
    assert a["observation"] is not b["observation"]


def test_the_vector_env_matches_single_envs_step_for_step(backend: str) -> None:
    """Its observations, masks, rewards and ends are those of the engine's rounds: each
    table, replayed alone in a one-table engine from the same deal, agrees."""
    env = ChickenFootVectorEnv(3, opponents="greedy", autoreset_mode="Disabled")
    obs, _ = env.reset(seed=8)
    states = [env.engine.to_state(i) for i in range(3)]
    enc = Encoding(cf.Rules())
    for i, s in enumerate(states):
        assert (obs["observation"][i] == enc.observe(s.view(0))).all()
        assert (obs["action_mask"][i].astype(bool) == enc.legal_mask(s)).all()


def test_self_play_gives_the_seat_to_act_and_a_reward_for_every_seat(backend: str) -> None:
    env = ChickenFootVectorEnv(4, self_play=True)
    obs, info = env.reset(seed=3)
    enc = Encoding(cf.Rules())
    total = np.zeros((4, 4))
    for _ in range(400):
        for i in range(4):
            if not env.lanes.over[i]:
                s = env.engine.to_state(i)
                assert info["to_play"][i] == s.turn
                assert (obs["observation"][i] == enc.observe(s.view(s.turn))).all()
        obs, r, term, _trunc, info = env.step(first_legal(obs["action_mask"]))
        assert r.shape == (4, 4)
        total += r
        if term.any():
            assert np.allclose(r[term].sum(axis=1), 1.0)  # the win's shares
    assert total.sum() > 0


# -- the policy agent and its spec --------------------------------------------------------------


def small_policy(rules: cf.Rules) -> list[np.ndarray]:
    enc = Encoding(rules)
    rng = np.random.default_rng(0)
    return [
        rng.standard_normal((enc.observation_size, 8)).astype(np.float32),
        np.zeros(8, np.float32),
        rng.standard_normal((8, enc.num_actions)).astype(np.float32),
        np.zeros(enc.num_actions, np.float32),
    ]


def test_a_policy_file_plays_at_a_table(tmp_path, backend: str) -> None:
    path = tmp_path / "p.npz"
    save_policy(path, cf.Rules(), small_policy(cf.Rules()))
    agent = PolicyAgent.load(path)
    end = cf.play_round(cf.deal(cf.Rules(), 3), [agent, cf.GreedyAgent(), agent, cf.RandomAgent()],
                        random.Random(0))  # fmt: skip
    assert end.is_over()
    assert repr(agent) == "PolicyAgent(layers=[8, 1157])"
    # the spec: the user's, not a file's
    assert isinstance(agent_of(f"policy:{path}", trust=Trust.user()), PolicyAgent)
    with pytest.raises(UntrustedSpecError, match="reads the policy file"):
        parse_spec(f"policy:{path}").build(trust=Trust.data())


def test_policy_files_that_are_not_are_refused(tmp_path, backend: str) -> None:
    pickled = tmp_path / "pickled.npz"
    np.savez(
        pickled, format=np.array("chickenfoot-policy-1"), w0=np.array([object()], dtype=object)
    )
    bad = tmp_path / "bad.npz"
    layers = small_policy(cf.Rules())
    save_policy(bad, cf.Rules(), [layers[0], layers[1]])  # 8 outputs, not 1157 logits
    text = tmp_path / "text.npz"
    text.write_text("hello")
    for path, says in ((pickled, "cannot be read|not a"), (bad, "logits"), (text, "cannot be read"),
                       (tmp_path / "missing.npz", "cannot be read")):  # fmt: skip
        with pytest.raises(AgentError, match=says):
            PolicyAgent.load(path)
    buf = io.BytesIO()
    save_policy(buf, cf.Rules(players=2), small_policy(cf.Rules(players=2)))
    agent = PolicyAgent.load(io.BytesIO(buf.getvalue()))
    v = cf.deal(cf.Rules(), 1).view(0)
    with pytest.raises(AgentError, match="rules"):
        agent.choose(v, v.legal_moves, None)


# -- the first compile ---------------------------------------------------------------------------


def test_the_first_compile_is_said_once(monkeypatch, caplog, backend: str) -> None:
    from chickenfoot.batch import _warm

    ran: list[int] = []
    monkeypatch.setattr(_warm, "_SAID", [])
    monkeypatch.setattr(_warm, "cached", lambda: False)
    with caplog.at_level(logging.WARNING, logger="chickenfoot"):
        _warm.first_compile(lambda: ran.append(1) or 1.5)
        _warm.first_compile(lambda: ran.append(1) or 1.5)
    assert ran == [1]
    said = [r.getMessage() for r in caplog.records]
    assert (
        "compiling the batch engine's numba kernels" in said[0] and "chickenfoot compile" in said[0]
    )
    assert said[1] == "chickenfoot: kernels compiled in 2 s"


def test_the_compile_command_shows_progress(monkeypatch, capsys, backend: str) -> None:
    import chickenfoot.batch
    from chickenfoot.batch import _compiled, _warm
    from chickenfoot.cli import main

    def fake(progress=None):
        for k, step in enumerate(_warm.STEPS):
            progress(k, step, 0.5 * (k + 1))
        return 2.5

    monkeypatch.setattr(chickenfoot.batch, "compile_kernels", fake)
    assert main(["compile"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("compiling 5 groups of kernels")
    assert lines[1] == f"[1/5] {_warm.STEPS[0]}: 0.5 s"
    # each step's own time, then the running total: not a total that reads as a step's
    assert lines[2] == f"[2/5] {_warm.STEPS[1]}: 0.5 s (1.0 s so far)"
    assert lines[-1] == "done in 2.5 s"
    monkeypatch.undo()
    monkeypatch.setattr(_compiled, "available", lambda: False)
    assert main(["compile"]) == 2
    assert "needs numba" in capsys.readouterr().err


# -- the docs' learning curves --------------------------------------------------------------------


def test_the_docs_learning_curves_are_drawn_from_the_runs(backend: str) -> None:
    """docs/img/gym-learning-curves.svg is what tools/learning_curves.py draws from the
    committed runs (bench/gym_runs/), and a well-formed SVG."""
    import importlib.util
    import xml.etree.ElementTree as ET
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location(
        "learning_curves", root / "tools" / "learning_curves.py"
    )
    assert spec is not None and spec.loader is not None
    curves = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(curves)
    import json

    runs = [(title, json.loads((root / "bench" / "gym_runs" / name).read_text()))
            for title, name in curves.DOCS_RUNS]  # fmt: skip
    svg = curves.draw(runs)
    assert ET.fromstring(svg).tag.endswith("svg")
    committed = (root / "docs" / "img" / "gym-learning-curves.svg").read_text(encoding="utf-8")
    assert committed == svg, "redraw it: python tools/learning_curves.py --docs"
