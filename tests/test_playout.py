"""playout(): the fast path must end exactly where the public-API loop ends.

The loop it must agree with is the one every user writes::

    while not s.is_over():
        s = apply(s, rng.choice(legal_moves(s)))

"Exactly" means: the same final state (board, hands, boneyard, turn, drawn), the same
derived table and outcome, and the random generator left in the same state (so the same
random numbers were drawn, in the same order).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot import (
    DRAW,
    Draw,
    IllegalMoveError,
    LegalMoves,
    Move,
    Rules,
    State,
    apply,
    deal,
    legal_moves,
    playout,
)
from strategies import examples, positions, round_move_bound, rules, seeds


def api_loop(s: State, rng: random.Random) -> State:
    while not s.is_over():
        s = apply(s, rng.choice(legal_moves(s)))
    return s


def assert_same_end(fast: State, slow: State) -> None:
    assert fast == slow
    assert fast.history == slow.history  # move for move, not only the same end
    assert fast.to_dict() == slow.to_dict()
    assert fast.outcome() == slow.outcome()
    assert fast.penalties() == slow.penalties()
    assert (fast.phase, fast.pending_hub, fast.toes_needed) == (
        slow.phase,
        slow.pending_hub,
        slow.toes_needed,
    )
    assert fast.open_ends == slow.open_ends
    assert list(legal_moves(fast)) == list(legal_moves(slow)) == []
    # the derived table is equal too (it is not part of ==, so compare it directly)
    assert State.from_dict(fast.to_dict()).open_ends == fast.open_ends


@settings(max_examples=examples(150), deadline=None)
@given(positions(), st.integers(min_value=0, max_value=2**64))
def test_random_playout_equals_the_api_loop_from_any_position(s: State, seed: int) -> None:
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    fast = playout(s, fast_rng)
    slow = api_loop(s, slow_rng)
    assert_same_end(fast, slow)
    assert fast_rng.getstate() == slow_rng.getstate()


@settings(max_examples=examples(100), deadline=None)
@given(rules(), seeds(), st.integers(min_value=0, max_value=40), st.integers(0, 2**32))
def test_random_playout_equals_the_api_loop_from_a_deal(
    r: Rules, seed: int, round: int, rng_seed: int
) -> None:
    s = deal(r, seed, round)
    fast_rng, slow_rng = random.Random(rng_seed), random.Random(rng_seed)
    assert_same_end(playout(s, fast_rng), api_loop(s, slow_rng))
    assert fast_rng.getstate() == slow_rng.getstate()


@pytest.mark.parametrize(
    "r",
    [
        Rules(),
        Rules.preset("four-toe"),
        Rules.preset("classic"),
        Rules.preset("classic", players=8),
        Rules(players=8),
        Rules(players=10, max_pip=15, hand_size=8),
        Rules(
            players=5,
            opening_toes=3,
            foot_toes=2,
            centre="holder",
            draw="until_playable",
            drawn_tile="may_play",
            may_draw_instead=True,
        ),
    ],
    ids=["house", "four-toe", "classic", "classic-8", "house-8", "d15-10", "all-variants"],
)
def test_many_seeded_rounds_agree(r: Rules) -> None:
    for seed in range(40):
        s = deal(r, seed, seed % 13)
        assert_same_end(playout(s, random.Random(seed)), api_loop(s, random.Random(seed)))


def test_a_finished_round_is_returned_as_it_is() -> None:
    end = playout(deal(Rules(), 5), random.Random(1))
    rng = random.Random(2)
    before = rng.getstate()
    assert playout(end, rng) is end
    assert rng.getstate() == before  # no number drawn


def test_playout_leaves_its_input_alone() -> None:
    s = deal(Rules(), 9)
    before = (s.to_dict(), hash(s))
    playout(s, random.Random(3))
    assert (s.to_dict(), hash(s)) == before


def test_without_a_generator_the_round_still_ends_within_its_bound() -> None:
    s = deal(Rules(), 12)
    end = playout(s)
    assert end.is_over()
    played = len(end.board) - len(s.board)
    assert 0 < played <= round_move_bound(s)


class ChoosyRandom(random.Random):
    """A generator whose ``choice`` is its own: playout must call it, not bypass it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def choice(self, seq: Any) -> Any:
        self.calls += 1
        return seq[-1]


def test_a_generator_with_its_own_choice_is_honoured() -> None:
    s = deal(Rules(), 4)
    rng = ChoosyRandom(0)
    fast = playout(s, rng)
    slow, moves = s, 0
    while not slow.is_over():
        slow = apply(slow, legal_moves(slow)[-1])
        moves += 1
    assert fast == slow
    assert rng.calls == moves


class CountingRandom(random.Random):
    """A generator that draws through ``random()`` only: no ``getrandbits`` shortcut."""

    def random(self) -> float:
        return super().random()


def test_a_generator_without_getrandbits_randbelow_falls_back_to_choice() -> None:
    # Subclasses overriding random() but not getrandbits() use a different _randbelow.
    s = deal(Rules(), 6)
    assert_same_end(playout(s, CountingRandom(8)), api_loop(s, CountingRandom(8)))


@settings(max_examples=examples(40), deadline=None)
@given(positions(rules(max_pip=9)), st.data())
def test_a_policy_playout_equals_the_api_loop_with_that_policy(s: State, data: Any) -> None:
    picks = data.draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=8))
    seen: list[tuple[State, LegalMoves]] = []

    def policy(state: State, moves: LegalMoves) -> Move:
        seen.append((state, moves))
        assert moves == legal_moves(state) and len(moves) > 0
        return moves[picks[len(seen) % len(picks)] % len(moves)]

    fast = playout(s, policy=policy)
    calls = len(seen)
    slow, i = s, 0
    while not slow.is_over():
        i += 1
        moves = legal_moves(slow)
        slow = apply(slow, moves[picks[i % len(picks)] % len(moves)])
    assert_same_end(fast, slow)
    assert calls == i


def test_a_policy_may_draw_a_named_tile() -> None:
    s = deal(Rules(players=2), 3)

    def policy(state: State, moves: LegalMoves) -> Move:
        if DRAW in moves:
            return Draw(state.boneyard[-1])  # the back of the boneyard, not the front
        return moves[0]

    end = playout(s, policy=policy)
    assert end.is_over()


def test_a_policy_returning_an_illegal_move_raises_and_names_it() -> None:
    s = deal(Rules(), 1)

    def policy(state: State, moves: LegalMoves) -> Move:
        return cf.PASS

    with pytest.raises(IllegalMoveError, match=r"^pass by seat 0: seat 0 can play"):
        playout(s, policy=policy)
