"""The compiled solver (``solve(backend="numba")``) is the pure one, faster: for every
position it gives the same values, the same best move and the same node count, and runs
out of a budget at the same point. Needs numba: the numpy-only test run of the noxfile
leaves this file out.
"""

from __future__ import annotations

import pytest

import chickenfoot as cf
from test_solve import SMALL, TINY, late_positions

RULES = [
    *SMALL,
    cf.Rules(),  # 4 seats, double-nine, the house rules
    cf.Rules(players=2),
    cf.Rules.preset("classic", players=3),
    cf.Rules(players=3, max_pip=10, hand_size=20),  # 66 tiles: two words per tile set
    cf.Rules(players=3, draw="until_playable", drawn_tile="may_play", may_draw_instead=True),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"p{r.players}n{r.max_pip}")
def test_the_compiled_solver_makes_the_pure_solvers_choices(rules: cf.Rules) -> None:
    tiles = 10 if rules.max_pip <= 6 else 9
    for s in late_positions(rules, 60, seed=rules.players * 7 + rules.max_pip, tiles=tiles):
        pure = cf.solve(s, backend="python")
        fast = cf.solve(s, backend="numba")
        assert fast == pure, s.to_json()


def test_the_budget_runs_out_at_the_same_node_on_both_paths() -> None:
    s = late_positions(cf.Rules(), 1, seed=5, tiles=10)[0]
    need = cf.solve(s, backend="python").nodes
    assert cf.solve(s, backend="numba").nodes == need
    for backend in ("python", "numba"):
        with pytest.raises(cf.BudgetError):
            cf.solve(s, nodes=need - 1, backend=backend)
        assert cf.solve(s, nodes=need, backend=backend).nodes == need


@pytest.mark.parametrize("rules", TINY, ids=lambda r: f"p{r.players}n{r.max_pip}{r.centre}")
def test_whole_tiny_rounds_agree_from_the_deal(rules: cf.Rules) -> None:
    for seed in range(60):
        s = cf.deal(rules, seed=seed)
        assert cf.solve(s, backend="numba") == cf.solve(s, backend="python")


def test_threads_sharing_the_compiled_table_get_the_answers_of_one() -> None:
    from concurrent.futures import ThreadPoolExecutor

    found = late_positions(cf.Rules(), 24, seed=11, tiles=10)
    alone = [cf.solve(s, backend="numba") for s in found]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: cf.solve(s, backend="numba"), found * 3))
    assert together == alone * 3


def test_puzzles_cut_with_the_compiled_solver_are_the_pure_ones() -> None:
    from chickenfoot.puzzles import cut

    small = cf.Rules(players=3, max_pip=6, hand_size=5, opening_toes=3, foot_toes=2)
    pure = list(cut(small, seeds=range(40), tiles=9, margin=3, backend="python"))
    fast = list(cut(small, seeds=range(40), tiles=9, margin=3, backend="numba"))
    assert len(pure) >= 3
    assert [(p.id, p.answer, dict(p.values), p.nodes, p.grade) for p in fast] == [
        (p.id, p.answer, dict(p.values), p.nodes, p.grade) for p in pure
    ]
