"""The batched engine (``chickenfoot.batch``, docs/batch.md) against the core API.

Exactness: rounds played in the batch engine and through ``apply`` from the same deals are
equal after every step (derived fields too), with equal legal moves (mask <=> legal_moves,
and the compact legal_actions), observations, outcomes and penalties; the conformance
vectors load through ``from_states`` and agree. Bad input is refused before anything
changes. Every test runs under both backends (the ``backend`` fixture: numpy, and the
compiled numba kernels), and the lockstep tests under both deal modes.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.batch import MAX_GAMES, BatchEngine
from chickenfoot.encoding import Encoding
from strategies import rules as all_rules
from strategies import seeds

DATA = Path(__file__).parent / "data"


BACKENDS = os.environ.get("CHICKENFOOT_BATCH_BACKENDS", "numpy,numba").split(",")
"""Both, except in the sdist's test run of ``nox -s build`` (numpy: a check that the sdist is
complete, without numba's first compile)."""


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test under one backend: ``backend="auto"`` (every engine here) picks it."""
    from chickenfoot.batch import _compiled

    if request.param == "numpy":
        monkeypatch.setattr(_compiled, "available", lambda: False)
    else:  # the tests session installs the fast extra: these tests need numba
        assert _compiled.available(), "the numba backend's tests need pip install '.[fast]'"
    return str(request.param)


PRESETS = [
    pytest.param(cf.Rules(), id="house"),
    pytest.param(cf.Rules.preset("four-toe"), id="four-toe"),
    pytest.param(cf.Rules.preset("classic"), id="classic"),
    pytest.param(cf.Rules.preset("classic", players=7), id="classic-7p"),
    pytest.param(cf.Rules(players=8), id="house-8p-double12"),
    *(
        pytest.param(cf.Rules(players=3, max_pip=n, hand_size=min(7, n + 1)), id=f"double-{n}")
        for n in (6, 7, 8, 10, 11)
    ),
    pytest.param(
        cf.Rules(draw="until_playable", drawn_tile="may_play", may_draw_instead=True),
        id="draw-variants",
    ),
    pytest.param(
        cf.Rules(centre="holder", players=3, draw="until_playable", drawn_tile="may_play"),
        id="holder-variants",
    ),
    pytest.param(cf.Rules(players=10, max_pip=15, hand_size=12), id="double-15"),
]


def same(a: cf.State, b: cf.State) -> bool:
    """Equal states, derived fields and outcome included."""
    return (
        a == b
        and a._ends == b._ends
        and a._pending == b._pending
        and a._need == b._need
        and a._mask == b._mask
        and a._nums == b._nums
        and a._outcome == b._outcome
    )


def mask_of(enc: Encoding, s: cf.State) -> np.ndarray:
    want = np.zeros(enc.num_actions, dtype=bool)
    for m in s.legal_moves:
        want[enc.action(m)] = True
    return want


def fast_deal_is_a_deal(rules: cf.Rules, s: cf.State) -> cf.State:
    """``s`` (a fast deal of round 0) as the core sets up its hands and boneyard: the
    centre and seat to open of ``deal``, every tile dealt once, ``hand_size`` a seat."""
    assert all(len(s.hand(i)) == rules.hand_size for i in range(rules.players))
    like = cf.deal(rules, 0)
    turn = like.turn if rules.centre == "set_aside" else rules.leader_of_round(0)
    for seat in range(rules.players):
        if rules.centre == "holder" and like.centre in s.hand(seat):
            turn = seat
    board = [str(m) for m in s.board]
    setup = cf.State.setup(
        rules,
        hands=[[str(t) for t in s.hand(i)] for i in range(rules.players)],
        boneyard=[str(t) for t in s.boneyard],
        centre=like.centre,
        board=board,
        turn=turn,
    )
    assert same(s, setup) and len(s.board) == len(like.board)
    return setup


def lockstep(
    rules: cf.Rules,
    seed: int,
    n: int,
    rng: random.Random,
    *,
    engine_choice: bool,
    full: bool,
    deals: str = "exact",
) -> int:
    """Play ``n`` rounds in the engine and through ``apply``; compare after every step.

    ``engine_choice``: the engine's own random actions (else random legal actions picked
    here from the core's legal moves); ``full``: also the masks, the legal action ids and
    the observations. With ``deals="fast"`` the core starts from the engine's deals
    (checked to be deals). Returns the steps played."""
    enc = Encoding(rules)
    e = BatchEngine(rules, n, seed=seed, rng_seed=rng.randrange(1 << 30), deals=deals)
    if deals == "exact":
        core = [cf.deal(rules, seed + i) for i in range(n)]
    else:
        core = [fast_deal_is_a_deal(rules, e.to_state(i)) for i in range(n)]
    steps = 0
    while True:
        if full:
            mask = e.legal_mask()
            ids = e.legal_actions()
            assert ids.shape[1] == max(mask.sum(axis=1).max(), 0)
            obs = e.observe()
        acts = e.random_actions() if engine_choice else np.zeros(n, dtype=np.int64)
        for i, s in enumerate(core):
            assert same(e.to_state(i), s), (steps, i)
            if full:
                assert (mask[i] == mask_of(enc, s)).all(), (steps, i)
                legal = sorted(enc.action(m) for m in s.legal_moves) if not s.is_over() else []
                assert ids[i].tolist() == legal + [-1] * (ids.shape[1] - len(legal)), (steps, i)
                assert (obs[i] == enc.observe(s.view(s.turn))).all(), (steps, i)
            if s.is_over():
                assert acts[i] == -1 if engine_choice else True
            elif not engine_choice:
                acts[i] = enc.action(rng.choice(s.legal_moves))
            else:
                assert enc.move(int(acts[i])) in s.legal_moves
        if all(s.is_over() for s in core):
            assert e.done.all()
            return steps
        rewards, done = e.step(acts)
        steps += 1
        for i, s in enumerate(core):
            if s.is_over():
                assert not done[i] and not rewards[i].any()
                continue
            core[i] = t = cf.apply(s, enc.move(int(acts[i])))
            assert done[i] == t.is_over()
            expected = [-p for p in t.penalties()] if t.is_over() else [0] * rules.players
            assert rewards[i].tolist() == expected


@pytest.mark.parametrize("rules", PRESETS)
def test_presets_and_sets_in_lockstep_with_the_core(rules: cf.Rules) -> None:
    rng = random.Random(rules.players * 100 + rules.max_pip)
    lockstep(rules, 1000, 3, rng, engine_choice=False, full=True)
    lockstep(rules, 2000, 4, rng, engine_choice=True, full=False)
    lockstep(rules, 3000, 3, rng, engine_choice=True, full=True, deals="fast")


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    rules=all_rules(max_pip=12),
    seed=seeds(),
    choice=st.booleans(),
    rng=st.randoms(),
    deals=st.sampled_from(["exact", "fast"]),
)
def test_every_variant_in_lockstep_with_the_core(
    rules: cf.Rules, seed: int, choice: bool, rng: random.Random, deals: str
) -> None:
    lockstep(rules, seed, 2, rng, engine_choice=choice, full=True, deals=deals)


def test_deals_are_the_library_deals() -> None:
    for rules in (cf.Rules(), cf.Rules.preset("classic"), cf.Rules(players=7)):
        for rnd in (0, 3, 11):
            picked = [0, -5, 2**70, 12345678901234567890, 7]
            e = BatchEngine(rules, len(picked), round=rnd)
            e.reset(picked)
            for i, s in enumerate(picked):
                assert same(e.to_state(i), cf.deal(rules, s, rnd))
            e2 = BatchEngine(rules, 3, seed=40, round=rnd)
            assert [e2.to_state(i) for i in range(3)] == [
                cf.deal(rules, 40 + i, rnd) for i in range(3)
            ]
            e2.reset()
            assert [e2.to_state(i) for i in range(3)] == [
                cf.deal(rules, 43 + i, rnd) for i in range(3)
            ]


def test_a_deal_that_is_blocked_at_once() -> None:
    # two seats, one tile each, an empty boneyard: blocked unless a hand holds a toe
    rules = cf.Rules(players=2, max_pip=2, hand_size=2, opening_toes=1, foot_toes=1)
    for seed in range(30):
        e = BatchEngine(rules, 1, seed=seed)
        assert same(e.to_state(0), cf.deal(rules, seed))


def test_observations_of_every_seat() -> None:
    rules = cf.Rules(players=3)
    enc = Encoding(rules)
    e = BatchEngine(rules, 5, seed=9, rng_seed=1)
    for _ in range(30):
        for seat in range(3):
            obs = e.observe(seat)
            assert obs.dtype == np.float32 and obs.shape == (5, enc.observation_size)
            for i in range(5):
                assert (obs[i] == enc.observe(e.to_state(i).view(seat))).all()
        e.step(e.random_actions())


def test_auto_reset_deals_the_next_seeds() -> None:
    rules = cf.Rules(players=2, max_pip=6, hand_size=7)
    e = BatchEngine(rules, 3, seed=100, auto_reset=True, rng_seed=3)
    dealt = 3
    for _ in range(200):
        rewards, done = e.step(e.random_actions())
        for i in np.nonzero(done)[0]:
            assert rewards[i].sum() <= 0
            assert e.to_state(int(i)) == cf.deal(rules, 100 + dealt)
            dealt += 1
        assert not e.done.any()
    assert dealt > 3


@pytest.fixture(params=["numpy", "core"])
def playout_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run ``random_playout`` on numpy arrays, or round by round with the core's playout
    (what engines of fewer than ``CORE_BELOW`` rounds do)."""
    from chickenfoot.batch import _play

    monkeypatch.setattr(_play, "CORE_BELOW", 0 if request.param == "numpy" else 1 << 30)
    return str(request.param)


def test_random_playout_results(playout_path: str) -> None:
    rules = cf.Rules()
    e = BatchEngine(rules, 16, seed=5, rng_seed=2)
    res = e.random_playout(40)
    assert len(res) == 40 and res.seeds == list(range(21, 61))
    for out, pen in zip(res.out.tolist(), res.penalties.tolist(), strict=True):
        assert out == -1 or pen[out] == 0
    assert (res.plies > 0).all()
    # each lane is left with the last of its rounds, finished, as the results say
    assert len(set(e.seeds)) == 16 and set(e.seeds) <= set(res.seeds)
    for i, seed in enumerate(e.seeds):
        s, j = e.to_state(i), res.seeds.index(seed)
        assert s.is_over() and list(s.penalties()) == res.penalties[j].tolist()
        assert int(e.plies[i]) == res.plies[j]
    # to the end of the rounds in play (some moves made already): the final states agree
    e.reset()
    for _ in range(5):
        e.step(e.random_actions())
    res = e.random_playout()
    assert res.seeds == list(range(61, 77)) and (res.plies >= 5).all()
    for i in range(16):
        s = e.to_state(i)
        assert s.is_over()
        assert list(s.penalties()) == res.penalties[i].tolist()
        o = s.outcome()
        assert o is not None and (o.seat if o.seat is not None else -1) == res.out[i]


def after_forced(s: cf.State, m: cf.Move) -> list[cf.State]:
    """``apply(s, m)``, and after a draw the pass that may then be the only legal move."""
    t = cf.apply(s, m)
    out = [t]
    if isinstance(m, cf.Draw) and not t.is_over() and list(t.legal_moves) == [cf.PASS]:
        out.append(cf.apply(t, cf.PASS))
    return out


def random_step_successors(s: cf.State) -> tuple[list[cf.State], list[cf.State]]:
    """The states one step of ``random_playout``'s loop may reach from ``s``: one legal
    move, after the draw that is the only legal move if it is (and nothing is drawn yet),
    and followed by the pass that a draw may leave as the only legal move. Returns
    (by one move, by more than one)."""
    legal = list(s.legal_moves)
    if legal == [cf.DRAW] and s.drawn is None:
        drawn = cf.apply(s, cf.DRAW)
        more = [t for m in drawn.legal_moves for t in after_forced(drawn, m)]
        return [], more
    single = [cf.apply(s, m) for m in legal]
    more = [t for m in legal for t in after_forced(s, m)[1:]]
    return single, more


@pytest.mark.parametrize("rules", PRESETS)
def test_random_playout_steps_are_legal_moves(rules: cf.Rules) -> None:
    # every step of the playout loop, round by round, is one legal move of the core, with
    # the forced moves around it (a draw before, a pass after) made at once, until every
    # round is over
    e = BatchEngine(rules, 6, seed=40, rng_seed=3)
    before = [e.to_state(i) for i in range(6)]
    fused = 0
    while not e.done.all():
        live = np.nonzero(~e.done)[0]
        e._random_steps(live if len(live) < e.n else e._all)
        for i in live.tolist():
            now = e.to_state(i)
            single, more = random_step_successors(before[i])
            if not any(same(now, t) for t in single):
                assert any(same(now, t) for t in more), i
                fused += 1
            before[i] = now
    assert all(s.is_over() for s in before)
    assert fused > 0  # the forced draws (and passes) did happen


def test_policy_playout_equals_the_core_with_the_same_policy() -> None:
    rules = cf.Rules.preset("classic")
    enc = Encoding(rules)

    def first(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert obs.shape[0] == mask.shape[0]
        return mask.argmax(axis=1)

    e = BatchEngine(rules, 4, seed=70)
    res = e.playout(first, 9)
    for j, seed in enumerate(res.seeds):
        s = cf.deal(rules, seed)
        while not s.is_over():
            s = cf.apply(s, enc.move(min(enc.legal_actions(s))))
        assert list(s.penalties()) == res.penalties[j].tolist()
        o = s.outcome()
        assert o is not None and (o.seat if o.seat is not None else -1) == res.out[j]


def test_random_actions_cover_the_legal_moves() -> None:
    s = cf.deal(cf.Rules(), 1)
    s = cf.apply(s, "9-3@9-9")
    e = BatchEngine.from_states([s] * 2000, rng_seed=4)
    enc = Encoding(cf.Rules())
    acts = e.random_actions()
    counts = {a: int((acts == a).sum()) for a in enc.legal_actions(s)}
    assert set(np.unique(acts).tolist()) == set(counts)
    # uniform: each of the k moves about 2000/k times
    assert min(counts.values()) > 2000 / len(counts) * 0.7


# -- conformance vectors ---------------------------------------------------------------------


def _vectors() -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    with (DATA / "vectors.jsonl").open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                v = json.loads(line)
                groups.setdefault(json.dumps(v["position"]["rules"], sort_keys=True), []).append(v)
    return groups


VECTOR_GROUPS = _vectors()


@pytest.mark.parametrize("key", sorted(VECTOR_GROUPS), ids=range(len(VECTOR_GROUPS)))
def test_conformance_vectors_through_from_states(key: str) -> None:
    vectors = VECTOR_GROUPS[key]
    states = [cf.State.from_dict(v["position"]) for v in vectors]
    e = BatchEngine.from_states(states)
    enc = e.encoding
    mask = e.legal_mask()
    pens = e.penalties()
    outs = e.outcomes()
    for i, v in enumerate(vectors):
        assert same(e.to_state(i), states[i])
        assert e.to_state(i).to_dict() == v["position"]
        legal = {enc.action(m) for m in v["legal"]}
        assert set(np.nonzero(mask[i])[0].tolist()) == legal, v["id"]
        assert pens[i].tolist() == v["penalties"]
        out = v["outcome"]
        want = -2 if out is None else (-1 if out["seat"] is None else out["seat"])
        assert outs[i] == want
    # the listed after-states: every move of every vector in one step (a named draw,
    # draw:X-Y, is chance rather than a player's action: the draw action takes the front tile)
    rows, acts, expected = [], [], []
    for i, v in enumerate(vectors):
        for move, after in v["after"].items():
            if move.startswith("draw:"):
                continue
            rows.append(states[i])
            acts.append(enc.action(move))
            expected.append(after)
    if rows:
        e2 = BatchEngine.from_states(rows)
        e2.step(np.array(acts))
        for j, after in enumerate(expected):
            got = e2.to_state(j)
            if after == "over":
                assert got.is_over()
            else:
                assert got.to_dict() == after
                assert same(got, cf.State.from_dict(after))
    # illegal moves are refused (draw:X-Y is chance, not an action: skipped)
    for i, v in enumerate(vectors):
        for move in v["illegal"]:
            if move.startswith("draw:"):
                continue
            try:
                a = enc.action(move)
            except cf.ChickenFootError:
                continue  # no action names it
            if states[i].is_over():
                continue  # a finished round's action is ignored
            one = BatchEngine.from_states([states[i]])
            with pytest.raises((cf.IllegalMoveError, cf.ArgumentError)):
                one.step(np.array([a]))
            assert same(one.to_state(0), states[i])


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, -1, MAX_GAMES + 1, 2.0, True, "8", None])
def test_bad_sizes(n: Any) -> None:
    with pytest.raises(cf.ArgumentError, match="n="):
        BatchEngine(cf.Rules(), n)


def test_bad_arguments() -> None:
    with pytest.raises(cf.ArgumentError, match="rules"):
        BatchEngine("house", 4)  # type: ignore[arg-type]
    with pytest.raises(cf.ArgumentError, match="seed"):
        BatchEngine(cf.Rules(), 4, seed=1.5)  # type: ignore[arg-type]
    e = BatchEngine(cf.Rules(), 2)
    with pytest.raises(cf.ArgumentError, match="seeds"):
        e.reset([1])
    with pytest.raises(cf.ArgumentError, match="seeds"):
        e.reset([1, "2"])  # type: ignore[list-item]
    with pytest.raises(cf.SeatError, match="seat"):
        e.observe(4)
    with pytest.raises(cf.ArgumentError, match="i="):
        e.to_state(2)
    with pytest.raises(cf.ArgumentError, match="k="):
        e.random_playout(-1)
    with pytest.raises(cf.ArgumentError, match="policy"):
        e.playout(3, 1)  # type: ignore[arg-type]
    with pytest.raises(cf.ArgumentError, match="states"):
        BatchEngine.from_states([])
    with pytest.raises(cf.ArgumentError, match="other rules"):
        BatchEngine.from_states([cf.deal(cf.Rules(), 1), cf.deal(cf.Rules(players=3), 1)])


def test_bad_actions_change_nothing() -> None:
    rules = cf.Rules()
    e = BatchEngine(rules, 4, seed=3, rng_seed=0)
    for _ in range(12):
        e.step(e.random_actions())
    before = [e.to_state(i) for i in range(4)]
    good = e.random_actions()
    enc = e.encoding
    bad_inputs: list[tuple[Any, type[Exception], str]] = [
        (good[:3], cf.ArgumentError, "shape"),
        (good.reshape(2, 2), cf.ArgumentError, "shape"),
        (good.astype(np.float64), cf.ArgumentError, "dtype"),
        (good.astype(bool), cf.ArgumentError, "dtype"),
        ("draw", cf.ArgumentError, "actions"),
        (np.where(np.arange(4) == 2, enc.num_actions, good), cf.ArgumentError, r"actions\[2\]"),
        (np.where(np.arange(4) == 1, -1, good), cf.ArgumentError, r"actions\[1\]"),
        (np.where(np.arange(4) == 3, 1, good), cf.ArgumentError, "names no move"),
    ]
    mask = e.legal_mask()
    illegal = int(np.nonzero(~mask[2])[0][0])
    bad_inputs.append(
        (np.where(np.arange(4) == 2, illegal, good), cf.IllegalMoveError, r"actions\[2\]")
    )
    bad_inputs.append(
        (
            np.where(
                np.arange(4) == 0,
                enc.pass_action if not mask[0, enc.pass_action] else enc.draw_action,
                good,
            ),
            cf.IllegalMoveError,
            "seat",
        ),
    )
    for actions, error, match in bad_inputs:
        with pytest.raises(error, match=match):
            e.step(actions)
        assert all(same(e.to_state(i), before[i]) for i in range(4))
    e.step(good)  # still playable
    assert [e.to_state(i) for i in range(4)] != before


def test_memory_per_round_is_stated() -> None:
    # house rules: 55 tiles (one 64-bit word a set), 10 numbers, 4 seats, 10 in the
    # boneyard: hands 4 x 8, open ends 10 x 8, mask and table 8 each, boneyard 10 x 2,
    # eleven int64 counters, the board 55 x 4 (docs/batch.md, "Speed and memory")
    assert BatchEngine(cf.Rules(), 64).bytes_per_round == 32 + 80 + 16 + 20 + 88 + 220 == 456
    # eight seats and double-12: 91 tiles (two words), 13 numbers, 91 - 1 - 8 x 9 = 18 left
    eight = BatchEngine(cf.Rules(players=8), 64).bytes_per_round
    assert eight == 8 * 16 + 13 * 16 + 2 * 16 + 18 * 2 + 88 + 91 * 4 == 856


def test_finished_rounds_are_left_alone(playout_path: str) -> None:
    rules = cf.Rules(players=2, max_pip=4, hand_size=3, opening_toes=2, foot_toes=1)
    e = BatchEngine(rules, 3, seed=1, rng_seed=1)
    e.random_playout()
    assert e.done.all()
    finals = [e.to_state(i) for i in range(3)]
    assert not e.legal_mask().any() and (e.random_actions() == -1).all()
    rewards, done = e.step(np.zeros(3, dtype=np.int64))  # every row ignored
    assert not rewards.any() and not done.any()
    assert all(same(e.to_state(i), finals[i]) for i in range(3))
    assert e.random_playout().penalties.tolist() == [list(s.penalties()) for s in finals]


def test_a_policy_must_answer_one_action_per_row() -> None:
    e = BatchEngine(cf.Rules(), 3, seed=1)
    with pytest.raises(cf.ArgumentError, match="policy returned"):
        e.playout(lambda obs, mask: mask.argmax(axis=1)[:1], 2)
    with pytest.raises(cf.IllegalMoveError):
        e.playout(lambda obs, mask: (~mask).argmax(axis=1), 2)


def test_double_eighteen_in_lockstep() -> None:
    # three words per set; no table of playable tiles (19 numbers)
    rules = cf.Rules(players=6, max_pip=18, hand_size=15, opening_toes=4)
    lockstep(rules, 77, 2, random.Random(18), engine_choice=True, full=False)


@pytest.mark.parametrize("rules", [cf.Rules(), cf.Rules(players=8)], ids=["double-9", "double-12"])
def test_without_numpy_bitwise_count(rules: cf.Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    # numpy before 2.0 has no bitwise_count: the byte-table popcount gives the same games
    from chickenfoot.batch import _tables

    monkeypatch.setattr(_tables, "_HAS_BITWISE_COUNT", False)
    lockstep(rules, 500, 3, random.Random(7), engine_choice=True, full=True)
    e = BatchEngine(rules, 200, seed=9, rng_seed=1)
    res = e.random_playout()
    assert all(e.to_state(i).is_over() for i in range(200))
    assert res.penalties.tolist() == [list(e.to_state(i).penalties()) for i in range(200)]


def test_deals_across_shuffle_blocks() -> None:
    # seeds are shuffled (and rounds dealt) in blocks of BLOCK: the block edges deal right
    from chickenfoot.batch._shuffle import BLOCK

    rules = cf.Rules()
    n = 2 * BLOCK + 3
    e = BatchEngine(rules, n, seed=100)
    for i in (0, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK, n - 1):
        assert same(e.to_state(i), cf.deal(rules, 100 + i)), i


@pytest.mark.parametrize("words", [1, 2, 3])
def test_kth_bit_is_the_kth_set_bit(words: int) -> None:
    # the broadword selection against a plain scan of the bits, on sparse and dense sets
    from chickenfoot.batch._tables import kth_bit

    rng = np.random.default_rng(words)
    top = np.iinfo(np.uint64).max
    x = rng.integers(0, top, (words, 400), dtype=np.uint64, endpoint=True)
    x[:, :200] &= rng.integers(0, top, (words, 200), dtype=np.uint64, endpoint=True)
    x[:, :100] &= rng.integers(0, top, (words, 100), dtype=np.uint64, endpoint=True)
    x[0, :20] = 0  # nothing in the first word
    x[:, 390:] = np.uint64(top)  # every bit
    bits = [
        [w * 64 + b for w in range(words) for b in range(64) if int(x[w, j]) >> b & 1]
        for j in range(400)
    ]
    for k in range(64 * words):
        rows = [j for j in range(400) if k < len(bits[j])]
        got = kth_bit(x[:, rows], np.full(len(rows), k))
        assert got.tolist() == [bits[j][k] for j in rows], k


def test_the_backend_is_the_one_the_fixture_chose(backend: str) -> None:
    e = BatchEngine(cf.Rules(), 2)
    assert e.backend == backend and (e._ck is not None) == (backend == "numba")
