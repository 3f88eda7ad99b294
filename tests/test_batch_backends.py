"""The batch engine's backends (issue 21): the compiled kernels against the numpy rules on
the same inputs, the fast deals, and the options' checks.

``tests/test_batch.py`` holds both backends to the core (every test runs under each); here
the two are compared with each other on the same positions, row by row, and the choice of
backend is checked: numba is imported only for ``backend="numba"``, and a missing numba or
a wrong name is refused before anything is allocated or compiled.
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.batch import BatchEngine, _compiled, _store
from chickenfoot.batch._shuffle import fast_key, fast_many
from test_batch import PRESETS, same

NUMBA = {"backend": "numba"}
NUMPY = {"backend": "numpy"}


def test_numba_is_installed_for_these_tests() -> None:
    # the tests session installs the fast extra; without it the numba half would not run
    assert _compiled.available()


def positions(rules: cf.Rules, rounds: int, seed: int) -> list[cf.State]:
    """Every position of ``rounds`` random rounds played with the core."""
    rng = random.Random(seed)
    out = []
    for j in range(rounds):
        s = cf.deal(rules, seed + j)
        out.append(s)
        while not s.is_over():
            s = cf.apply(s, rng.choice(list(s.legal_moves)))
            out.append(s)
    return out


@pytest.mark.parametrize("rules", PRESETS)
def test_compiled_and_numpy_agree_on_the_same_positions(rules: cf.Rules) -> None:
    states = positions(rules, 3, 500)
    a = BatchEngine.from_states(states, **NUMPY)
    b = BatchEngine.from_states(states, **NUMBA)
    assert (a.legal_mask() == b.legal_mask()).all()
    assert (a.legal_actions() == b.legal_actions()).all()
    assert (a.observe() == b.observe()).all()
    for seat in range(rules.players):
        assert (a.observe(seat) == b.observe(seat)).all()
    assert (a.penalties() == b.penalties()).all() and (a.outcomes() == b.outcomes()).all()
    # the same legal actions in both: the same after-states, rewards and ends
    rng = np.random.default_rng(1)
    ids = a.legal_actions()
    counts = (ids >= 0).sum(axis=1)
    pick = ids[np.arange(len(ids)), (rng.random(len(ids)) * np.maximum(counts, 1)).astype(int)]
    ra, da = a.step(pick)
    rb, db = b.step(pick)
    assert (ra == rb).all() and (da == db).all()
    assert all(same(a.to_state(i), b.to_state(i)) for i in range(len(states)))
    # the compiled random actions are legal moves of the core
    acts = b.random_actions()
    for i in range(len(states)):
        s = b.to_state(i)
        if s.is_over():
            assert acts[i] == -1
        else:
            assert b.encoding.move(int(acts[i])) in s.legal_moves


def test_a_refused_step_is_refused_in_the_same_words() -> None:
    states = positions(cf.Rules(), 1, 7)[:30]
    for kw in (NUMPY, NUMBA):
        e = BatchEngine.from_states(states, **kw)
        mask = e.legal_mask()
        acts = e.legal_actions()[:, 0].copy()
        acts[5] = int(np.nonzero(~mask[5])[0][0])
        with pytest.raises(cf.IllegalMoveError, match=r"actions\[5\]") as info:
            e.step(acts)
        assert all(same(e.to_state(i), s) for i, s in enumerate(states))
        if kw is NUMPY:
            words = str(info.value)
        else:
            assert str(info.value) == words


@pytest.mark.parametrize("deals", ["exact", "fast"])
def test_compiled_random_play_is_reproducible_from_rng_seed(deals: str) -> None:
    def play(rng_seed: int) -> Any:
        e = BatchEngine(cf.Rules(), 32, seed=3, rng_seed=rng_seed, deals=deals, **NUMBA)
        res = e.random_playout(100)
        return res.seeds, res.out.tolist(), res.penalties.tolist(), res.plies.tolist()

    assert play(1) == play(1)
    assert play(1) != play(2)
    e = BatchEngine(cf.Rules(), 8, seed=3, rng_seed=5, **NUMBA)
    f = BatchEngine(cf.Rules(), 8, seed=3, rng_seed=5, **NUMBA)
    assert (e.random_actions() == f.random_actions()).all()


def test_compiled_playout_results_agree_with_the_final_states() -> None:
    rules = cf.Rules.preset("classic")
    e = BatchEngine(rules, 20, seed=11, rng_seed=4, **NUMBA)
    res = e.random_playout(61)
    assert res.seeds == list(range(31, 92))
    for i, seed in enumerate(e.seeds):  # lane i keeps round j = i + 20 m, the last of its own
        assert seed == res.seeds[i + 20 * ((60 - i) // 20)]
        s, j = e.to_state(i), res.seeds.index(seed)
        assert s.is_over() and list(s.penalties()) == res.penalties[j].tolist()
        o = s.outcome()
        assert o is not None and (o.seat if o.seat is not None else -1) == res.out[j]
    assert len(e.random_playout(0)) == 0


@pytest.mark.parametrize("deals", ["exact", "fast"])
@pytest.mark.parametrize("rules", PRESETS)
def test_new_rounds_play_as_the_same_deals_held_in_the_lanes(rules: cf.Rules, deals: str) -> None:
    # random_playout(k) plays each new round in its own working state (chickenfoot._jit.local);
    # the same deals held in the lanes and played by random_playout() (the rules on the
    # store's arrays, round after round from the same generator) end the same, array for array
    n = 12
    a = BatchEngine(rules, n, seed=0, rng_seed=7, deals=deals, **NUMBA)
    ra = a.random_playout(n)
    b = BatchEngine(rules, n, seed=n, rng_seed=7, deals=deals, **NUMBA)
    rb = b.random_playout()
    assert ra.seeds == rb.seeds == list(range(n, 2 * n))
    assert ra.out.tolist() == rb.out.tolist() and ra.plies.tolist() == rb.plies.tolist()
    assert ra.penalties.tolist() == rb.penalties.tolist()
    assert all(same(a.to_state(i), b.to_state(i)) for i in range(n))
    for x, y in zip(_compiled.arrays(a), _compiled.arrays(b), strict=True):
        if x.ndim == 2 and x.dtype == np.int32:  # the board: the placements made
            assert all((p[:k] == q[:k]).all() for p, q, k in zip(x, y, a.nboard, strict=True))
        elif x.ndim == 2 and x.dtype == np.int16:  # the boneyard: its tiles
            assert all((p[:k] == q[:k]).all() for p, q, k in zip(x, y, a.bend, strict=True))
        else:
            assert (x == y).all()
    assert (a.random_actions() == b.random_actions()).all()  # the generators agree after


@pytest.mark.parametrize("rules", PRESETS)
def test_a_playout_is_its_random_steps(rules: cf.Rules) -> None:
    # one round: random_playout() draws the same random numbers in the same order as the
    # random steps made one call at a time (each loaded from the store and written back;
    # test_batch holds every such step to the core), so it ends in the same round
    for seed in range(4):
        a = BatchEngine(rules, 1, seed=seed, rng_seed=seed, **NUMBA)
        b = BatchEngine(rules, 1, seed=seed, rng_seed=seed, **NUMBA)
        for _ in range(seed):  # from a round in play, some moves made
            if not a.done.all():
                a.step(acts := a.random_actions())
                b.step(acts)
        b._rs[:] = a._rs
        res = a.random_playout()
        while not b.done.all():
            b._random_steps(b._all)
        assert same(a.to_state(0), b.to_state(0))
        assert res.plies.tolist() == b.plies.tolist()
        assert (a._rs == b._rs).all()  # the generators agree after


def test_exact_deals_of_any_seed_and_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = cf.Rules(players=6, max_pip=12, hand_size=9)
    picked = [10**3999, -(10**3999), -1, 0, 2**64, 2**64 + 1, 99, 123456789]
    e = BatchEngine(rules, len(picked), round=4, **NUMBA)
    e.reset(picked)
    assert all(same(e.to_state(i), cf.deal(rules, s, 4)) for i, s in enumerate(picked))
    # another Python whose generator differed would deal one by one, still exactly
    monkeypatch.setattr(_compiled, "_agree", [False])
    e.reset(picked[::-1])
    assert all(same(e.to_state(i), cf.deal(rules, s, 4)) for i, s in enumerate(picked[::-1]))


def test_fast_deals_are_the_same_on_both_backends_and_not_deals() -> None:
    rules = cf.Rules(players=3, max_pip=12, hand_size=10)
    a = BatchEngine(rules, 50, seed=-7, rng_seed=9, deals="fast", **NUMPY)
    b = BatchEngine(rules, 50, seed=-7, rng_seed=9, deals="fast", **NUMBA)
    c = BatchEngine(rules, 50, seed=-7, rng_seed=10, deals="fast", **NUMBA)
    assert a.deals == b.deals == "fast"
    assert all(same(a.to_state(i), b.to_state(i)) for i in range(50))
    assert sum(a.to_state(i) == c.to_state(i) for i in range(50)) == 0
    assert sum(a.to_state(i) == cf.deal(rules, -7 + i) for i in range(50)) == 0
    # the playouts of fast deals deal the same rounds whatever the backend's choices
    ra, rb = a.random_playout(30), b.random_playout(30)
    assert ra.seeds == rb.seeds == list(range(43, 73))


def test_fast_deals_are_uniformly_random() -> None:
    # 18,000 fast shuffles of 9 tiles: each (tile, position) cell holds about 1/9 of them
    rules = cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
    rows = fast_many(rules, list(range(18_000)), 0, fast_key(1))
    assert rows.shape == (18_000, 9)
    assert (np.sort(rows, axis=1) == np.sort(rows[0])).all()
    counts = np.zeros((9, 9))
    for pos in range(9):
        for j, tile in enumerate(np.sort(rows[0])):
            counts[j, pos] = (rows[:, pos] == tile).sum()
    expected = 18_000 / 9
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 130  # 64 degrees of freedom: p < 1e-6 above 130


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"backend": "cuda"}, "backend='cuda' is invalid: must be 'auto', 'numba' or 'numpy'"),
        ({"backend": None}, "backend=None is invalid"),
        ({"deals": "shuffled"}, "deals='shuffled' is invalid: must be 'exact' or 'fast'"),
        ({"deals": 1}, "deals=1 is invalid"),
    ],
)
def test_bad_options_are_refused_before_anything_is_made(
    options: dict[str, Any], match: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: Any) -> None:
        raise AssertionError("allocated or compiled before the options were checked")

    monkeypatch.setattr(_store.Store, "_setup", never)
    monkeypatch.setattr(_compiled, "load", never)
    with pytest.raises(cf.ArgumentError, match=match):
        BatchEngine(cf.Rules(), 1_000_000, **options)
    with pytest.raises(cf.ArgumentError, match=match):
        BatchEngine.from_states([cf.deal(cf.Rules(), 1)], **options)


def test_numba_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: Any) -> None:
        raise AssertionError("allocated or compiled")

    monkeypatch.setattr(_compiled, "available", lambda: False)
    monkeypatch.setattr(_store.Store, "_setup", never)
    with pytest.raises(cf.ArgumentError, match=r"pip install 'chickenfoot\[fast\]'"):
        BatchEngine(cf.Rules(), 4, backend="numba")
    monkeypatch.undo()
    monkeypatch.setattr(_compiled, "available", lambda: False)
    assert BatchEngine(cf.Rules(), 4).backend == "numpy"  # auto: numpy without numba


def run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_without_numba_everything_works_on_numpy() -> None:
    # numba made unimportable: the package, the batch engine and "auto" work; "numba" says
    # which extra brings it
    out = run(
        "import sys; sys.modules['numba'] = None\n"
        "import chickenfoot as cf, chickenfoot.batch\n"
        "from chickenfoot.batch import BatchEngine\n"
        "e = BatchEngine(cf.Rules(), 4, seed=1)\n"
        "assert e.backend == 'numpy' and e.to_state(0) == cf.deal(cf.Rules(), 1)\n"
        "assert len(e.random_playout(8)) == 8\n"
        "try:\n"
        "    BatchEngine(cf.Rules(), 4, backend='numba')\n"
        "except cf.ArgumentError as err:\n"
        "    print(err)\n"
    )
    assert "chickenfoot[fast]" in out


def test_numba_is_imported_only_for_a_numba_engine() -> None:
    out = run(
        "import sys\n"
        "import chickenfoot as cf, chickenfoot.batch\n"
        "from chickenfoot.batch import BatchEngine\n"
        "BatchEngine(cf.Rules(), 2, backend='numpy').random_playout(4)\n"
        "print('numba' in sys.modules)\n"
        "BatchEngine(cf.Rules(), 2, backend='auto')\n"
        "print('numba' in sys.modules)\n"
    )
    assert out.split() == ["False", "True"]


def test_exact_deal_keys_made_in_the_kernel_are_pythons() -> None:
    # the SHA-512 keys of int64 seeds are made in the kernel (chickenfoot._jit.keys), the
    # others in Python: the same words
    rng = random.Random(5)
    seeds = [rng.randrange(-(1 << 63), 1 << 63) for _ in range(300)]
    seeds += [0, -1, 10**9, (1 << 63) - 1, -(1 << 63)]
    _compiled.load()
    for rnd in (0, 7, 10**20, 10**62):
        got, glens = _compiled.compiled_keys(np.array(seeds, dtype=np.int64), rnd)
        want, wlens = _compiled.keys_of([f"{s}:{rnd}" for s in seeds])
        assert glens.tolist() == wlens.tolist()
        assert (got[:, : want.shape[1]] == want).all() and not got[:, want.shape[1] :].any()
    assert _compiled.keys_agree()
    rules = cf.Rules()
    e = BatchEngine(rules, 40, seed=(1 << 63) - 20, round=10**62, **NUMBA)  # both kinds of key
    assert all(same(e.to_state(i), cf.deal(rules, (1 << 63) - 20 + i, 10**62)) for i in range(40))


@pytest.mark.parametrize("max_pip", [9, 18])
def test_exact_deals_seeded_in_groups_are_deals(max_pip: int) -> None:
    # exact deals are seeded 64 at a time, a partial group too; a double-18 set (189
    # tiles dealt) reads more outputs than are made ahead and twists each state as it goes
    rules = cf.Rules(players=4, max_pip=max_pip, hand_size=10)
    e = BatchEngine(rules, 70, seed=10**5, round=2, rng_seed=1, **NUMBA)
    assert all(same(e.to_state(i), cf.deal(rules, 10**5 + i, 2)) for i in range(70))
    res = e.random_playout(70)  # the new rounds of a playout: the same deals
    f = BatchEngine(rules, 70, seed=10**5 + 70, round=2, rng_seed=1, **NUMBA)
    assert all(same(f.to_state(i), cf.deal(rules, 10**5 + 70 + i, 2)) for i in range(70))
    got = f.random_playout()
    assert res.seeds == got.seeds and res.penalties.tolist() == got.penalties.tolist()
    assert all(same(e.to_state(i), f.to_state(i)) for i in range(70))
