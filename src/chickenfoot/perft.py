"""perft: count the leaf nodes of the move tree (docs/formats.md, "Perft").

>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(), seed=1)
>>> perft(s, 0), perft(s, 1)
(1, 3)
"""

from __future__ import annotations

from chickenfoot._kernel import do_draw, do_pass, do_play, generate
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.moves import DRAW, PASS, Play
from chickenfoot.state import State

__all__ = ["perft"]


def perft(state: State, depth: int) -> int:
    """perft(p, 0) = 1; perft(p, d) = the sum over legal moves of perft(apply(p, m), d - 1).

    ``draw`` takes the front tile, so the count is a pure function of the position. Any
    depth is accepted (past the end of the round the count is 0): the tree is walked with
    a stack of its own, not Python's recursion, so a round of a thousand moves is counted
    as any other.
    """
    if not isinstance(state, State):
        raise ArgumentError(f"perft needs a State, got {brief(state)}")
    if type(depth) is not int or depth < 0:
        raise ArgumentError(f"depth={brief(depth)} is invalid: must be a non-negative integer")
    if depth == 0:
        return 1
    if depth == 1:
        return len(generate(state))
    total = 0
    stack = [(state, depth)]  # positions still to expand, each with its depth (>= 2)
    push, pop = stack.append, stack.pop
    while stack:
        s, d = pop()
        for m in generate(s):
            if m is DRAW:
                nxt = do_draw(s, s._bone[0])
            elif m is PASS:
                nxt = do_pass(s)
            else:
                assert isinstance(m, Play)
                nxt = do_play(s, m)
            if d == 2:
                total += len(generate(nxt))
            else:
                push((nxt, d - 1))
    return total
