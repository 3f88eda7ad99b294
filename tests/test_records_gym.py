"""Issue 47, item 5: the Gymnasium environments hand out the rounds they finished as
records (``records=True``, ``take_records``), every seat's moves in them."""

from __future__ import annotations

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.gym import ChickenFootEnv, ChickenFootVectorEnv

RULES = cf.Rules(players=2, max_pip=6, hand_size=5, match=cf.Rounds(2))


def _play(env: ChickenFootEnv, episodes: int) -> list[list[float]]:
    rng = np.random.default_rng(0)
    rewards = []
    env.reset(seed=4)
    for _ in range(episodes):
        while True:
            _, reward, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if term:
                rewards.append(reward)
                env.reset()
                break
    return rewards


def test_the_single_env_keeps_every_round_with_the_opponents_moves() -> None:
    env = ChickenFootEnv(rules=RULES, opponents="greedy", backend="numpy", records=True)
    _play(env, 3)
    kept = env.take_records()
    assert len(kept) >= 3
    for seed, rec in kept:
        assert rec.final().is_over()
        assert {rec.states()[i].turn for i in range(len(rec.moves))} == {0, 1}
        if seed is not None:
            assert rec.start == cf.deal(RULES, seed)
    assert env.take_records() == []


def test_a_match_episode_keeps_its_later_rounds_too() -> None:
    env = ChickenFootEnv(rules=RULES, episode="match", backend="numpy", records=True)
    _play(env, 1)
    kept = env.take_records()
    assert len(kept) == 2  # the match's two rounds
    assert kept[0][1].start == cf.deal(RULES, kept[0][0])  # type: ignore[arg-type]
    assert kept[1][0] is None and kept[1][1].final().is_over()


def test_the_vector_env_keeps_records_across_a_seeded_reset() -> None:
    env = ChickenFootVectorEnv(4, rules=RULES, backend="numpy", records=True)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        legal = [np.flatnonzero(row) for row in obs["action_mask"]]
        actions = np.array([rng.choice(a) if len(a) else 0 for a in legal])
        obs, _, term, _, _ = env.step(actions)
        ended += int(term.sum())
    env.reset(seed=2)  # a new engine: what the old one finished is kept
    kept = env.take_records()
    assert len(kept) >= ended > 0
    assert all(rec.final().is_over() for _, rec in kept)


def test_records_must_be_asked_for() -> None:
    env = ChickenFootEnv(rules=RULES, backend="numpy")
    with pytest.raises(cf.ArgumentError, match="an environment made with records=True"):
        env.take_records()
    with pytest.raises(cf.ArgumentError, match="records"):
        ChickenFootEnv(rules=RULES, records=1)  # type: ignore[arg-type]
