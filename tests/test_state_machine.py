"""A Hypothesis state machine that plays random legal moves across every rules variant.

Each run deals a round under rules drawn from ``strategies.rules``, then mixes single moves,
named draws (``draw:X-Y``), bursts of random moves, rejected illegal moves and JSON round
trips; when the round ends it deals a new one under new rules. Invariants are checked
after every step against the reference model of ``strategies``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from chickenfoot import (
    DRAW,
    Draw,
    IllegalMoveError,
    Move,
    Phase,
    Play,
    Rules,
    State,
    Tile,
    apply,
    deal,
    legal_moves,
)
from strategies import (
    check_against_reference,
    examples,
    hub_toes,
    open_ends,
    reference_successor,
    round_move_bound,
    rules,
    seeds,
    set_tiles,
    tile_census,
)

ROUNDS = st.integers(0, 40)


class RoundMachine(RuleBasedStateMachine):
    """Plays rounds move by move; ``restart`` deals a new round once one is over."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = deal(Rules(), 0)
        self.bound = 0
        self.made = 0
        self.rounds = 0

    def _deal(self, r: Rules, seed: int, rnd: int) -> None:
        self.state = deal(r, seed, rnd)
        self.bound = round_move_bound(self.state)
        self.made = 0
        self.rounds += 1

    def _apply(self, move: Move) -> None:
        s = self.state
        doc = s.to_dict()
        nxt = apply(s, move)
        assert s.to_dict() == doc, f"apply({move}) changed its input"
        assert nxt.to_dict() == reference_successor(s, move), move
        self.state = nxt
        self.made += 1
        assert self.made <= self.bound, "the round outlived its derived bound"

    # -- rules --------------------------------------------------------------------------------

    @initialize(r=rules(), seed=seeds(), rnd=ROUNDS)
    def start(self, r: Rules, seed: int, rnd: int) -> None:
        self._deal(r, seed, rnd)

    @precondition(lambda self: self.state.is_over())
    @rule(r=rules(), seed=seeds(), rnd=ROUNDS)
    def restart(self, r: Rules, seed: int, rnd: int) -> None:
        self._deal(r, seed, rnd)

    @precondition(lambda self: not self.state.is_over())
    @rule(data=st.data())
    def play_one(self, data: st.DataObject) -> None:
        moves = list(legal_moves(self.state))
        self._apply(data.draw(st.sampled_from(moves), label="move"))

    @precondition(lambda self: DRAW in legal_moves(self.state) and self.state.boneyard_size > 1)
    @rule(data=st.data())
    def draw_named_tile(self, data: st.DataObject) -> None:
        tile = data.draw(st.sampled_from(self.state.boneyard), label="tile")
        self._apply(Draw(tile))
        assert self.state.drawn == tile

    @precondition(lambda self: not self.state.is_over())
    @rule(rng=st.randoms(use_true_random=False), count=st.integers(1, 60))
    def play_many(self, rng: random.Random, count: int) -> None:
        for _ in range(count):
            if self.state.is_over():
                break
            self._apply(rng.choice(list(legal_moves(self.state))))

    @rule(data=st.data())
    def reject_an_illegal_play(self, data: st.DataObject) -> None:
        s = self.state
        tiles = set_tiles(s.rules.max_pip)
        legal = set(legal_moves(s))
        tile = data.draw(st.sampled_from(tiles), label="tile")
        anchor = data.draw(st.sampled_from([None, *tiles]), label="anchor")
        move = Play(tile, anchor)
        if move in legal:
            return
        doc, h = s.to_dict(), hash(s)
        with pytest.raises(IllegalMoveError):
            apply(s, move)
        with pytest.raises(IllegalMoveError):
            apply(s, str(move))
        assert s.to_dict() == doc and hash(s) == h

    @rule()
    def round_trip(self) -> None:
        s = self.state
        back = State.from_json(s.to_json())
        assert back == s and hash(back) == hash(s)
        assert list(legal_moves(back)) == list(legal_moves(s))
        assert back.outcome() == s.outcome()
        self.state = back  # carry on from the copy

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def every_tile_once(self) -> None:
        s = self.state
        assert sorted(tile_census(s), key=lambda t: t.id) == set_tiles(s.rules.max_pip)
        assert s.centre_laid == bool(s.board)
        if s.board:
            assert s.board[0] == Play(s.centre, None)

    @invariant()
    def at_most_one_pending_hub(self) -> None:
        toes = hub_toes(self.state)
        assert all(laid <= need for laid, need in toes.values()), toes
        pending = [hub for hub, (laid, need) in toes.items() if laid < need]
        assert len(pending) <= 1
        assert self.state.pending_hub == (pending[0] if pending else None)

    @invariant()
    def turn_in_range(self) -> None:
        s = self.state
        assert 0 <= s.turn < s.rules.players
        if s.drawn is not None:
            assert s.drawn in s.hand(s.turn)

    @invariant()
    def penalties_and_moves_match_the_reference(self) -> None:
        check_against_reference(self.state)  # legal moves (in order), outcome, penalties

    @invariant()
    def moves_consistent_with_phase(self) -> None:
        s = self.state
        moves = list(legal_moves(s))
        plays = [m for m in moves if isinstance(m, Play)]
        phase = s.phase
        assert (phase is Phase.OVER) == s.is_over() == (not moves)
        if phase is Phase.SEEKING_CENTRE:
            assert not s.board and all(m == Play(s.centre, None) for m in plays)
        elif phase is Phase.OPENING:
            assert s.pending_hub == s.centre
            assert all(m.anchor == s.centre and m.tile.has(s.centre.high) for m in plays)
        elif phase is Phase.FOOT_PENDING:
            hub = s.pending_hub
            assert hub is not None and hub != s.centre and hub.is_double
            assert all(m.anchor == hub and m.tile.has(hub.high) for m in plays)
        elif phase is Phase.OPEN:
            ends: dict[Tile, int] = open_ends(s)
            assert all(m.anchor in ends and m.tile.has(ends[m.anchor]) for m in plays)


RoundMachine.TestCase.settings = settings(
    max_examples=examples(60), stateful_step_count=50, deadline=None
)
TestRoundMachine = RoundMachine.TestCase
