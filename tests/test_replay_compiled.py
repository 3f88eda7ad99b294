"""The compiled replay of action ids (``chickenfoot._jit.replay``, through
``BatchEngine.replay``) and the moves kept by ``play_agents``, held to the core move for
move. Needs numba: in the fast session, left out of the numpy-only tests session."""

from __future__ import annotations

import random

import numpy as np
import pytest

from chickenfoot import Rules, deal
from chickenfoot.batch import BatchEngine
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError
from chickenfoot.tiles import set_size

pytest.importorskip("numba")

RULES = [
    Rules(),
    Rules.preset("classic", players=3),
    Rules.preset("house", players=2),
    Rules(players=7, max_pip=12),
]


def _rounds(rules: Rules, seeds: list[int], rng: random.Random) -> list[list[int]]:
    """Random rounds played through the core, as action ids; some with a wrong action."""
    enc = Encoding(rules)
    out = []
    for seed in seeds:
        s = deal(rules, seed)
        acts = []
        while not s.is_over():
            m = rng.choice(s.legal_moves)
            acts.append(enc.action(m))
            s = s.apply(m)
        if rng.random() < 0.3:  # a wrong action somewhere, or one after the end
            j = rng.randrange(len(acts) + 1)
            acts.insert(j, rng.randrange(enc.num_actions))
        out.append(acts)
    return out


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p{r.max_pip}")
def test_the_compiled_replay_agrees_with_the_core_move_for_move(rules: Rules) -> None:
    rng = random.Random(rules.players)
    seeds = list(range(100, 124))
    rounds = _rounds(rules, seeds, rng)
    flat = np.array([a for r in rounds for a in r], dtype=np.int64)
    counts = np.array([len(r) for r in rounds])
    got = {}
    for backend in ("numba", "numpy"):  # numpy: the core, round by round
        e = BatchEngine(rules, len(seeds), seed=100, backend=backend)
        k = len(flat)
        outs = {
            "seats": np.full(k, -7, np.int64),
            "mask": np.zeros((k, e.num_actions), np.bool_),
            "observations": np.zeros((k, e.observation_size), np.float32),
            "hands": np.zeros((k, rules.players, set_size(rules.max_pip)), np.bool_),
        }
        made = e.replay(flat, counts, **outs)
        got[backend] = (made, outs, e.penalties(), e.outcomes(), e.plies)
    (made, outs, pens, ends, plies), (made2, outs2, pens2, ends2, plies2) = got.values()
    assert made.tolist() == made2.tolist() and pens.tolist() == pens2.tolist()
    assert ends.tolist() == ends2.tolist() and plies.tolist() == plies2.tolist()
    enc = Encoding(rules)
    start = 0
    for i, acts in enumerate(rounds):  # and each row against the core directly
        s = deal(rules, seeds[i])
        legal_all = True
        for n, a in enumerate(acts):
            j = start + n
            if n > made[i]:
                break
            assert outs["seats"][j] == s.turn
            legal = [] if s.is_over() else enc.legal_actions(s)
            assert np.flatnonzero(outs["mask"][j]).tolist() == sorted(legal)
            assert np.array_equal(outs["observations"][j], enc.observe(s.view(s.turn)))
            for seat, hand in enumerate(s.hands):
                assert np.flatnonzero(outs["hands"][j, seat]).tolist() == sorted(t.id for t in hand)
            if a not in legal:
                legal_all = False
                assert made[i] == n
                break
            s = s.apply(enc.move(a))
        assert legal_all == (made[i] == len(acts))
        if legal_all:
            assert e.to_state(i) == s or s.is_over()
        start += len(acts)
    for name, arr in outs.items():
        assert np.array_equal(arr, outs2[name]), name


def test_replay_refuses_counts_and_arrays_that_do_not_fit() -> None:
    e = BatchEngine(Rules(), 2, seed=1, backend="numba")
    with pytest.raises(ArgumentError, match="counts"):
        e.replay([1, 2], [1])
    with pytest.raises(ArgumentError, match="actions"):
        e.replay([1, 2], [1, 2])
    with pytest.raises(ArgumentError, match="mask"):
        e.replay([1], [1, 0], mask=np.zeros((1, 3), bool))
    before = e.to_state(0)
    assert e.replay([], [0, 0]).tolist() == [0, 0] and e.to_state(0) == before


@pytest.mark.parametrize("rules", RULES[:3], ids=lambda r: f"{r.players}p{r.max_pip}")
def test_play_agents_keeps_each_move_as_the_core_replays_it(rules: Rules) -> None:
    e = BatchEngine(rules, 12, seed=40, backend="numba", rng_seed=3)
    agents = ["heuristic", "random", "greedy", "random", "greedy", "heuristic"]
    kept = np.full((12, 600), -1, np.int64)
    _, done, moves = e.play_agents(agents[: rules.players], actions=kept)
    assert done.all()
    enc = Encoding(rules)
    for i in range(12):
        s = deal(rules, 40 + i)
        for a in kept[i, : moves[i]]:
            s = s.apply(enc.move(int(a)))
        assert s.is_over() and list(s.penalties()) == e.penalties()[i].tolist()
        assert (kept[i, moves[i] :] == -1).all()
    short = BatchEngine(rules, 2, seed=40, backend="numba", rng_seed=3)
    row = np.zeros((2, 5), np.int64)
    _, done, moves = short.play_agents(["greedy"] * rules.players, actions=row)
    assert moves.tolist() == [5, 5] and not done.any()  # a full row stops its round
    with pytest.raises(ArgumentError, match="actions"):
        short.play_agents(["greedy"] * rules.players, actions=np.zeros((3, 5), np.int64))
