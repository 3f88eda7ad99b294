"""The learned dealing deals the same in the compiled search (numba) as in the pure one: the
same root values, the same move, the generator left in the same state."""

from __future__ import annotations

import random

import pytest

from chickenfoot import ISMCTSAgent, Rules, apply, deal
from chickenfoot.belief import deal_weights
from chickenfoot.ismcts import _Compiled

# (without numba this file fails: the tests session leaves it out then, as it does
# tests/test_ismcts_compiled.py; the fast session runs it)

RULES = [Rules(), Rules(players=2), Rules(players=5), Rules(centre="holder", draw="until_playable")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.draw}-{r.centre}")
def test_the_compiled_learned_dealing_is_the_pure_one(rules: Rules) -> None:
    s = deal(rules, seed=rules.players)
    rng = random.Random(rules.players)
    checked = 0
    while not s.is_over():
        legal = s.legal_moves
        if len(legal) > 1 and len(s.history) % 3 == 1:
            v = s.view(s.turn)
            pure = ISMCTSAgent(iterations=30, backend="python", dealing="learned")
            w = deal_weights(v)
            a, b = random.Random(checked), random.Random(checked)
            assert _Compiled(v, legal, pure, w).search(b, 30, None) == pure._search(
                v, legal, a, None, w
            )
            assert a.getstate() == b.getstate()
            jit = ISMCTSAgent(iterations=30, backend="numba", dealing="learned")
            c, d = random.Random(checked), random.Random(checked)
            assert jit.choose(v, legal, c) == pure.choose(v, legal, d)
            assert c.getstate() == d.getstate()
            checked += 1
        s = apply(s, rng.choice(legal))
    assert checked >= 3
