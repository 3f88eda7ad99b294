"""The exact solver for open hands (docs/solve.md): every value against a brute force.

The brute force below is a deliberately naive max^n written here from the public API only
(``legal_moves``, ``apply``, ``penalties``): every seat takes the move with its lowest
final penalty, the first in the order of the legal moves among equals. The solver must
give every root move's vector and the best move exactly as it does, on thousands of small
late positions (2-4 seats, double-3 to double-6). The compiled path is held to the pure one
(values, best move and node count) in ``test_solve_compiled.py``.
"""

from __future__ import annotations

import random

import pytest

import chickenfoot as cf
from chickenfoot.solve import MAX_NODES, Solution

SMALL = [
    cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1),
    cf.Rules(players=3, max_pip=4, hand_size=3, opening_toes=3, foot_toes=2),
    cf.Rules(players=4, max_pip=5, hand_size=3, opening_toes=3, foot_toes=2),
    cf.Rules(players=2, max_pip=6, hand_size=5, opening_toes=4, foot_toes=2),
    cf.Rules(players=3, max_pip=5, hand_size=4, opening_toes=2, foot_toes=1, draw="until_playable"),
    cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1, drawn_tile="may_play"),
    cf.Rules(players=3, max_pip=4, hand_size=3, opening_toes=2, foot_toes=2, may_draw_instead=True),
    cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1, centre="holder"),
    cf.Rules(players=4, max_pip=6, hand_size=4, opening_toes=4, foot_toes=3, double_blank=0),
]


def brute(s: cf.State) -> tuple[int, ...]:
    """The max^n value of ``s``, naively: no table, no cut."""
    if s.is_over():
        return s.penalties()
    me = s.turn
    best: tuple[int, ...] | None = None
    for m in cf.legal_moves(s):
        v = brute(cf.apply(s, m))
        if best is None or v[me] < best[me]:
            best = v
    assert best is not None
    return best


def late_positions(rules: cf.Rules, count: int, seed: int, tiles: int) -> list[cf.State]:
    """``count`` positions of random rounds once the hands hold ``tiles`` tiles or fewer."""
    rng = random.Random(seed)
    out: list[cf.State] = []
    while len(out) < count:
        s = cf.deal(rules, seed=rng.getrandbits(32))
        stop = rng.randint(0, tiles)
        while not s.is_over() and sum(s.hand_sizes) > stop:
            s = cf.apply(s, rng.choice(s.legal_moves))
        if not s.is_over() and sum(s.hand_sizes) + s.boneyard_size <= tiles + 3:
            out.append(s)
    return out


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: f"p{r.players}n{r.max_pip}")
def test_every_root_value_agrees_with_the_brute_force(rules: cf.Rules) -> None:
    agree = 0
    for s in late_positions(rules, 300, seed=rules.players * 100 + rules.max_pip, tiles=8):
        got = cf.solve(s, backend="python")
        legal = list(cf.legal_moves(s))
        want = {m: brute(cf.apply(s, m)) for m in legal}
        assert list(got.values) == legal
        assert dict(got.values) == want, s.to_json()
        me = s.turn
        low = min(v[me] for v in want.values())
        assert got.best == next(m for m in legal if want[m][me] == low)
        assert got.value == want[got.best] == brute(s)
        agree += 1
    assert agree == 300


TINY = [
    cf.Rules(players=2, max_pip=2, hand_size=2, opening_toes=1, foot_toes=1, centre="holder"),
    cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1, centre="holder",
             draw="until_playable"),
    cf.Rules(players=3, max_pip=3, hand_size=2, opening_toes=2, foot_toes=1, centre="holder",
             drawn_tile="may_play"),
    cf.Rules(players=2, max_pip=3, hand_size=2, opening_toes=1, foot_toes=1,
             may_draw_instead=True, double_blank=0),
]  # fmt: skip


@pytest.mark.parametrize("rules", TINY, ids=lambda r: f"p{r.players}n{r.max_pip}{r.centre}")
def test_whole_tiny_rounds_from_the_deal(rules: cf.Rules) -> None:
    for seed in range(60):  # the centre held in hand and sought, every draw rule
        s = cf.deal(rules, seed=seed)
        got = cf.solve(s, backend="python")
        assert dict(got.values) == {m: brute(cf.apply(s, m)) for m in cf.legal_moves(s)}


def test_solution_shape_and_repr() -> None:
    rules = SMALL[0]
    doc = {"format": "chickenfoot/position", "version": 1, "rules": rules.to_dict(),
           "centre": "3-3", "board": ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
           "hands": [["2-0", "1-1"], ["2-2"]], "boneyard": ["3-0", "0-0"],
           "turn": 0, "drawn": None}  # fmt: skip
    s = cf.State.from_dict(doc)
    sol = cf.solve(s)
    assert isinstance(sol, Solution)
    assert {str(m): v for m, v in sol.values.items()} == {"1-1@2-1": (52, 7), "2-0@1-0": (2, 0)}
    assert sol.best == cf.parse_move("2-0@1-0") and sol.value == sol.values[sol.best] == (2, 0)
    assert sol.value == brute(s) and sol.nodes == 8
    assert repr(sol) == (
        "Solution(best='2-0@1-0', value=(2, 0), nodes=8, "
        "values={'1-1@2-1': (52, 7), '2-0@1-0': (2, 0)})"
    )
    assert sol.to_dict()["values"] == {"1-1@2-1": [52, 7], "2-0@1-0": [2, 0]}
    with pytest.raises(TypeError):
        sol.values[sol.best] = (0, 0)  # type: ignore[index]


def test_a_finished_round_is_refused_clearly() -> None:
    s = cf.deal(cf.Rules(), seed=1)
    while not s.is_over():
        s = cf.apply(s, s.legal_moves[0])
    with pytest.raises(cf.ArgumentError, match="the round is over"):
        cf.solve(s)


def test_a_view_is_refused_with_what_to_do() -> None:
    v = cf.deal(cf.Rules(), seed=1).view(0)
    with pytest.raises(cf.ArgumentError, match=r"solve needs a State.*sample"):
        cf.solve(v)  # type: ignore[arg-type]


@pytest.mark.parametrize("nodes", [0, -1, MAX_NODES + 1, 10**100, 2.5, "9", True, None])
def test_budgets_out_of_range_are_refused(nodes: object) -> None:
    s = late_positions(SMALL[0], 1, seed=1, tiles=6)[0]
    with pytest.raises(cf.ArgumentError, match="nodes="):
        cf.solve(s, nodes=nodes)  # type: ignore[arg-type]


def test_a_budget_too_small_says_so_and_never_answers() -> None:
    s = late_positions(SMALL[3], 1, seed=3, tiles=9)[0]
    need = cf.solve(s, backend="python").nodes
    assert need > 3
    for nodes in (1, 2, need - 1):
        with pytest.raises(cf.BudgetError, match=f"more than {nodes:,} node") as caught:
            cf.solve(s, nodes=nodes, backend="python")
        assert caught.value.nodes == nodes
    assert cf.solve(s, nodes=need, backend="python").nodes == need


def test_the_backend_is_checked() -> None:
    s = late_positions(SMALL[0], 1, seed=1, tiles=6)[0]
    with pytest.raises(cf.ArgumentError, match="backend="):
        cf.solve(s, backend="gpu")


def test_one_legal_move_is_still_solved() -> None:
    for s in late_positions(SMALL[1], 200, seed=9, tiles=7):
        if len(s.legal_moves) == 1:
            sol = cf.solve(s, backend="python")
            assert list(sol.values) == list(s.legal_moves) and sol.value == brute(s)
            return
    raise AssertionError("no position with one legal move among 200")


def test_the_input_is_not_changed() -> None:
    s = late_positions(SMALL[2], 1, seed=4, tiles=8)[0]
    before = s.to_json()
    cf.solve(s, backend="python")
    assert s.to_json() == before


def test_numba_asked_for_without_numba_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(sys.modules["chickenfoot.solve"], "_FOUND", [False])
    s = late_positions(SMALL[0], 1, seed=1, tiles=6)[0]
    with pytest.raises(cf.ArgumentError, match=r"pip install 'chickenfoot\[fast\]'"):
        cf.solve(s, backend="numba")
    assert cf.solve(s) == cf.solve(s, backend="python")  # "auto" falls back to Python


def test_a_budget_error_keeps_its_budget_across_processes() -> None:
    import pickle

    err = pickle.loads(pickle.dumps(cf.BudgetError("out of nodes", nodes=7)))
    assert isinstance(err, cf.BudgetError) and err.nodes == 7 and str(err) == "out of nodes"
