"""ISMCTSAgent's compiled path (numba) makes the pure path's choices: the same root visits,
the same move, the generator left in the same state, at small budgets on views with
histories (draws, passes, toes), at 2 to 8 seats and under other rules."""

from __future__ import annotations

import random

import pytest

from chickenfoot import ISMCTSAgent, Rules, apply, deal
from chickenfoot.ismcts import _Compiled, _key

# (without numba this file fails: the tests session leaves it out then, as it does
# tests/test_search_compiled.py; the fast session runs it)

RULES = [
    Rules(),
    Rules(players=2),
    Rules(players=3),
    Rules(players=8),
    Rules(centre="holder", draw="until_playable"),
    Rules(may_draw_instead=True, drawn_tile="may_play"),
]


SETTINGS = [
    {},  # the defaults: common deals at the root, the others play the rollout policy,
    # rewards against the best (up to four seats) or each of the others (Rules(players=8))
    {"root": "ucb"},
    {"root": "ucb", "opponents": "tree", "against": "mean"},
    {"opponents": "tree", "against": "best"},
    {"against": "each"},
]


@pytest.mark.parametrize("options", SETTINGS, ids=lambda o: "-".join(o.values()) or "default")
@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.draw}-{r.centre}")
def test_the_compiled_search_is_the_pure_one(rules: Rules, options: dict[str, str]) -> None:
    s = deal(rules, seed=rules.players)
    rng = random.Random(rules.players)
    checked = 0
    ply = 0
    while not s.is_over():
        legal = s.legal_moves
        if len(legal) > 1 and ply % 4 == 1:
            v = s.view(s.turn)
            pure = ISMCTSAgent(iterations=24, backend="python", **options)
            a, b = random.Random(ply), random.Random(ply)
            visits_pure = pure._search(v, legal, a, None)
            visits_jit = _Compiled(v, legal, pure).search(b, 24, None)
            assert visits_jit == visits_pure
            assert a.getstate() == b.getstate()
            c, d = random.Random(ply), random.Random(ply)
            assert ISMCTSAgent(iterations=24, backend="numba", **options).choose(v, legal, c) == (
                pure.choose(v, legal, d)
            )
            checked += 1
        s = apply(s, rng.choice(legal))
        ply += 1
    assert checked >= 3


def test_the_tree_grows_past_its_first_arrays() -> None:
    s = deal(Rules(players=2), seed=5)
    v = s.view(s.turn)
    legal = v.legal_moves
    agent = ISMCTSAgent(iterations=5000, root="ucb", backend="python")
    compiled = _Compiled(v, legal, agent)
    visits = compiled.search(random.Random(1), 5000, None)
    assert visits is not None and sum(visits.values()) == 5000
    assert compiled.size > 4096 and int(compiled.used[0]) == 5001


def test_common_deals_try_every_root_move_equally_often() -> None:
    s = deal(Rules(players=2), seed=5)
    v = s.view(s.turn)
    legal = v.legal_moves
    k = len(legal)
    assert k > 1
    compiled = _Compiled(v, legal, ISMCTSAgent(iterations=5000, backend="python"))
    means = compiled.search(random.Random(1), 5000, None)
    assert means is not None and len(means) == k
    assert all(0.0 <= m <= 1.0 for m in means.values())
    tk, ta, _, tn, _, tf, _, ts = compiled.tree
    kids, c = [], int(tf[0])
    while c >= 0:
        kids.append(c)
        c = int(ts[c])
    deals = 5000 // k
    assert [int(tn[c]) for c in kids] == [deals] * k  # one walk below each move a deal
    assert [(int(tk[c]), int(ta[c])) for c in kids] == [_key(m) for m in legal]
    assert int(tn[0]) == deals * k
    # each walk adds at most one node below the root's k children
    assert compiled.size > 4096 and k < int(compiled.used[0]) <= 1 + k + deals * k


@pytest.mark.parametrize("backend", ["numba", "python"])
def test_a_time_limit_stops_the_search(backend: str) -> None:
    v = deal(Rules(), seed=2).view(0)
    agent = ISMCTSAgent(iterations=1_000_000, time_limit=0.02, backend=backend)
    assert agent.choose(v, v.legal_moves, random.Random(0)) in v.legal_moves


@pytest.mark.parametrize(("opponents", "others_in_tree"), [("heuristic", False), ("tree", True)])
def test_only_its_own_moves_branch_when_the_others_play_the_heuristic(
    opponents: str, others_in_tree: bool
) -> None:
    s = deal(Rules(), seed=4)
    v = s.view(s.turn)
    compiled = _Compiled(v, v.legal_moves, ISMCTSAgent(opponents=opponents))
    assert compiled.search(random.Random(2), 400, None) is not None
    movers = {int(m) for m in compiled.tree[2][1 : int(compiled.used[0])]}
    assert (movers != {v.seat}) is others_in_tree
