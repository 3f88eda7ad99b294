"""The kernel's replay (``chickenfoot._kernel.replay``) decides as ``apply`` decides.

For rounds of every kind of rules, lines of moves mixing legal ones with moves that are
not (plays of tiles not held or on the wrong place, draws, named draws, passes, moves
after the end): the replay accepts exactly the prefix a chain of ``apply`` calls accepts,
and ends on the same position with the same history; ``states_of`` gives every position of
that chain.
"""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import DRAW, PASS, Draw, Move, Play, State, Tile, apply, deal, legal_moves
from chickenfoot._kernel import replay, states_of
from chickenfoot.errors import ChickenFootError
from strategies import examples, rules, seeds


def _wild(s: State, rng: random.Random) -> Move:
    """A move that may or may not be legal in ``s``."""
    size = s.rules.set_size
    roll = rng.random()
    if roll < 0.55:
        moves = legal_moves(s)
        if moves:
            return rng.choice(moves)
    if roll < 0.7:
        return rng.choice([DRAW, PASS])
    if roll < 0.8:
        return Draw(Tile.from_id(rng.randrange(size)))
    tile = Tile.from_id(rng.randrange(size))
    anchor = None if rng.random() < 0.05 else Tile.from_id(rng.randrange(size))
    return Play(tile, anchor)


def _chain(start: State, moves: list[Move]) -> tuple[list[State], int]:
    states = [start]
    for move in moves:
        try:
            states.append(apply(states[-1], move))
        except ChickenFootError:
            break
    return states, len(states) - 1


@settings(max_examples=examples(150), deadline=None)
@given(rules(max_pip=12), seeds(), st.integers(0, 2**32 - 1), st.floats(0.0, 0.2))
def test_replay_accepts_what_apply_accepts_and_ends_where_it_ends(
    r: object, seed: int, choices: int, wildness: float
) -> None:
    start = deal(r, seed)  # type: ignore[arg-type]
    rng = random.Random(choices)
    moves: list[Move] = []
    s = start
    for _ in range(400):
        legal = legal_moves(s)
        move = rng.choice(legal) if legal and rng.random() >= wildness else _wild(s, rng)
        moves.append(move)
        with contextlib.suppress(ChickenFootError):  # an illegal move: the line goes on
            s = apply(s, move)
    moves.extend(_wild(s, rng) for _ in range(3))  # after the end, or more wild moves
    states, accepted = _chain(start, moves)
    final, done = replay(start, moves)
    assert done == accepted
    assert final == states[-1]
    assert final.history == states[-1].history
    assert final.outcome() == states[-1].outcome()
    assert list(legal_moves(final)) == list(legal_moves(states[-1]))
    assert (final.open_ends, final.pending_hub, final.toes_needed, final.phase) == (
        states[-1].open_ends,
        states[-1].pending_hub,
        states[-1].toes_needed,
        states[-1].phase,
    )
    built = states_of(start, moves[:done])
    assert built == tuple(states)
    assert [b.history for b in built] == [c.history for c in states]


def test_replay_of_nothing_is_the_start_itself() -> None:
    from chickenfoot import Rules

    start = deal(Rules(), 1)
    assert replay(start, []) == (start, 0)
    assert replay(start, [PASS])[0] is start
    assert states_of(start, []) == (start,)
