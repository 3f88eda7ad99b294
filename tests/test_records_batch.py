"""Issue 47, item 5: the batch engine hands out the rounds it finished as records
(``records=True``, ``take_records``), each the round from its deal, replayed by the rules."""

from __future__ import annotations

import io

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.batch import BatchEngine
from chickenfoot.notation import read_game, write_game

RULES = cf.Rules(players=3, max_pip=6, hand_size=5)


def test_every_finished_round_is_a_record_from_its_deal() -> None:
    e = BatchEngine(RULES, 5, seed=10, backend="numpy", auto_reset=True, records=True)
    rewards_by_seed: dict[int, list[float]] = {}
    for _ in range(300):
        seeds = list(e.seeds)
        rewards, done = e.step(e.random_actions())
        for lane in np.nonzero(done)[0].tolist():
            seed = seeds[lane]
            assert seed is not None
            rewards_by_seed[seed] = rewards[lane].tolist()
    kept = e.take_records()
    assert len(kept) == len(rewards_by_seed) > 5
    for seed, rec in kept:
        assert seed is not None
        assert rec.start == cf.deal(RULES, seed)
        assert rec.final().is_over()
        assert [-p for p in rec.final().penalties()] == rewards_by_seed[seed]
        text = write_game(rec, headers={"Seed": str(seed), "Round": "0"})
        back = read_game(io.StringIO(text), strict=True)
        assert back is not None and back.record == rec
    assert e.take_records() == []  # handed out once


def test_a_round_in_play_and_states_given() -> None:
    first = cf.deal(RULES, 3)
    start = first.apply(first.legal_moves[0])
    e = BatchEngine.from_states([start], backend="numpy", records=True)
    e.step(e.random_actions())
    rec = e.record(0)
    assert rec is not None and rec.start == start and len(rec.moves) == 1
    while not e.done.all():
        e.step(e.random_actions())
    ((seed, whole),) = e.take_records()
    assert seed is None and whole.start == start and whole.final() == e.to_state(0)


def test_a_playout_is_not_kept() -> None:
    e = BatchEngine(RULES, 3, seed=1, backend="numpy", records=True)
    e.random_playout()
    assert e.record(0) is None and e.take_records() == []


def test_records_must_be_asked_for() -> None:
    e = BatchEngine(RULES, 2, seed=1, backend="numpy")
    with pytest.raises(cf.ArgumentError, match="records=True"):
        e.take_records()
    with pytest.raises(cf.ArgumentError, match="records=True"):
        e.record(0)
    with pytest.raises(cf.ArgumentError, match="records='yes' is invalid"):
        BatchEngine(RULES, 2, records="yes")  # type: ignore[arg-type]
