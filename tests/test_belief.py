"""The learned model of where the unseen tiles are (chickenfoot.belief) and the dealing it
drives: the shipped model loads; its probabilities are probabilities, zero exactly where
the history rules a place out (as the sampler's problem does); the weighted dealing gives
states the view could have come from, seeded; a file that is not a model is refused, and
nothing in it is unpickled."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from chickenfoot import FormatError, ISMCTSAgent, Rules, apply, deal
from chickenfoot.agents import HeuristicAgent, ask
from chickenfoot.belief import FEATURES, BeliefModel, deal_weights, features
from chickenfoot.errors import AgentError
from chickenfoot.sampling import problem, sample_state
from chickenfoot.state import State
from chickenfoot.view import View

RULES = [Rules(), Rules(players=2), Rules(players=6), Rules(centre="holder", draw="until_playable")]


def views(rules: Rules, seed: int) -> list[View]:
    """Views of every seat to act along a round of heuristics (every third move)."""
    s = deal(rules, seed=seed)
    rng = random.Random(seed)
    out = []
    while not s.is_over():
        if len(s.history) % 3 == 0:
            out.append(s.view(s.turn))
        s = apply(s, ask(HeuristicAgent(), s, rng))
    out.append(s.view(0))
    return out


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.draw}-{r.centre}")
def test_probabilities_are_zero_exactly_where_the_history_rules_a_place_out(rules: Rules) -> None:
    model = BeliefModel.load()
    for v in views(rules, 3):
        tiles, q = model.probabilities(v)
        p = problem(v)
        unseen = [t for t in p.tiles if t not in p.played]
        assert tiles == unseen
        assert q.shape == (len(tiles), rules.players + 1)
        assert np.all(q >= 0)
        assert np.allclose(q.sum(axis=1), 1.0) if tiles else q.size == 0
        assert not q[:, v.seat].any()  # the viewer knows its own hand
        for j, t in enumerate(tiles):
            x = p.tiles.index(t)
            places = {rules.players if p.owner[g] < 0 else p.owner[g] for g in p.feasible[x]}
            assert {k for k in range(rules.players + 1) if q[j, k] > 0} == places


def test_a_seat_that_drew_and_passed_on_a_number_holds_none_of_it() -> None:
    s = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").apply("pass")
    tiles, q = BeliefModel.load().probabilities(s.view(0))
    nines = [j for j, t in enumerate(tiles) if t in {i for i in range(55) if _has(i, 9)}]
    assert nines and not q[nines, 1].any()
    assert q[nines, 2:].sum() > 0


def _has(tile_id: int, number: int) -> bool:
    from chickenfoot.tiles import BY_ID

    return BY_ID[tile_id].has(number)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.draw}-{r.centre}")
def test_the_learned_dealing_is_legal_and_seeded(rules: Rules) -> None:
    for k, v in enumerate(views(rules, 5)):
        w = deal_weights(v)
        a = sample_state(v, random.Random(k), weights=w)
        assert a.view(v.seat) == v
        b = sample_state(v, random.Random(k), weights=w)
        assert a == b


def test_weights_of_one_deal_as_the_uniform_sampler_does() -> None:
    for k, v in enumerate(views(Rules(), 7)):
        ones = [dict.fromkeys(slots, 1.0) for slots in problem(v).feasible]
        a, b = random.Random(k), random.Random(k)
        assert sample_state(v, a, weights=ones) == v.sample(b)
        assert a.getstate() == b.getstate()


def test_the_learned_dealing_moves_tiles_towards_the_model() -> None:
    # A model that puts heavy tiles in hands: the others' hands hold more points when the
    # dealing follows it than when it deals uniformly.
    w = np.zeros(len(FEATURES))
    w[0], w[FEATURES.index("points")] = 1.0, 8.0
    model = BeliefModel(w, None)
    v = views(Rules(players=2), 11)[0]  # (a large boneyard: room to choose)
    weights = deal_weights(v, model)
    rng_u, rng_l = random.Random(1), random.Random(1)
    uniform = learned = 0
    for _ in range(100):
        for seat in range(v.players):
            if seat != v.seat:
                uniform += sum(t.pips for t in v.sample(rng_u).hands[seat])
                learned += sum(t.pips for t in sample_state(v, rng_l, weights=weights).hands[seat])
    assert learned > 1.05 * uniform


def test_features_have_one_row_per_unseen_tile_and_place() -> None:
    v = views(Rules(), 2)[8]
    tiles, x, allowed = features(v)
    assert x.shape == (len(tiles), 5, len(FEATURES)) and allowed.shape == (len(tiles), 5)
    assert np.isfinite(x).all()


def test_a_file_that_is_not_a_model_is_refused_without_unpickling(tmp_path: Path) -> None:
    good = {"features": np.array(FEATURES), "weights": np.zeros(len(FEATURES))}
    cases = {
        "missing.npz": None,
        "text.npz": b"not a zip",
        "pickled.npz": {**good, "weights": np.array([object()] * len(FEATURES), dtype=object)},
        "names.npz": {**good, "features": np.array(["x"] * len(FEATURES))},
        "short.npz": {**good, "weights": np.zeros(3)},
        "nan.npz": {**good, "weights": np.full(len(FEATURES), np.nan)},
        "words.npz": {**good, "weights": np.array(["1"] * len(FEATURES))},
        "hidden.npz": {**good, "w1": np.zeros((len(FEATURES), 4)), "b1": np.zeros(3)},
    }
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            np.savez(path, **content)
        with pytest.raises(FormatError, match="belief model"):
            BeliefModel.load(path)
    np.savez(tmp_path / "ok.npz", **good)
    assert BeliefModel.load(tmp_path / "ok.npz").weights.shape == (len(FEATURES),)


def test_the_search_takes_the_learned_dealing_as_an_option() -> None:
    v = views(Rules(), 4)[5]
    agent = ISMCTSAgent(iterations=40, backend="python", dealing="learned")
    a = agent.choose(v, v.legal_moves, random.Random(3))
    assert a in v.legal_moves
    assert a == agent.choose(v, v.legal_moves, random.Random(3))
    with pytest.raises(AgentError, match="dealing"):
        ISMCTSAgent(dealing="psychic")


def test_a_tile_the_heuristic_would_have_played_instead_is_seldom_in_the_hand() -> None:
    # "beaten": the seat's plays since its last draw that the heuristic would have made
    # with the tile instead (by what is known of its hand). Against heuristics, the tiles a
    # seat truly holds are beaten far less often than the tiles it does not hold.
    beaten = FEATURES.index("beaten")
    held, other = [0, 0], [0, 0]
    for seed in range(8):
        for v in views(Rules(), seed)[4:-1]:
            s = _truth(v, seed)
            tiles, x, _ = features(v)
            for r in range(v.players):
                if r != v.seat:
                    hand = {t.id for t in s.hands[r]}
                    for j, t in enumerate(tiles):
                        count = held if t in hand else other
                        count[0] += int(x[j, r, beaten] > 0)
                        count[1] += 1
    assert held[1] > 500 and other[1] > 500
    assert held[0] / held[1] < 0.7 * other[0] / other[1]


def _truth(v: View, seed: int) -> State:
    """The true state behind a view of :func:`views`' round."""
    s = deal(v.rules, seed=seed)
    rng = random.Random(seed)
    while len(s.history) < len(v.history):
        s = apply(s, ask(HeuristicAgent(), s, rng))
    return s
