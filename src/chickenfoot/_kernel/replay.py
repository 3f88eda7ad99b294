"""Replaying a line of moves on local variables: the checks of ``apply`` and the steps of
``do_play``/``do_draw``/``do_pass``, building only the last position.

Part of the kernel: see :mod:`chickenfoot._kernel` for the contract. :func:`replay` makes
the decisions :func:`~chickenfoot._kernel.apply` makes (``play_ok``, ``draw_ok``,
``pass_ok``, a named draw's tile in the boneyard) and takes the steps the trusted
transitions take, so its position is the one a chain of ``apply`` calls gives, history
included; ``tests/test_kernel_replay.py`` holds it to that, move for move. It explains
nothing: at the first move it does not accept it stops, and the caller asks ``apply``
(on :func:`states_of` the accepted prefix) why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chickenfoot._kernel.position import BLOCKED, OUT, blocked, make
from chickenfoot._kernel.transitions import do_draw, do_pass, do_play, lay
from chickenfoot.moves import DRAW, DRAWS, PASS, Draw, Move, Play
from chickenfoot.tiles import PIPS

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = ["replay", "states_of"]


def replay(start: State, moves: Sequence[Move]) -> tuple[State, int]:
    """The position after the longest prefix of ``moves`` that ``apply`` accepts from
    ``start``, and that prefix's length (``len(moves)`` when every move is legal).

    ``start`` itself when no move is accepted. Anything but a :class:`Play`, a
    :class:`Draw` or :data:`PASS` stops the replay (text is the caller's to parse).
    """
    if not moves:
        return start, 0
    rules = start.rules
    hands = list(start._hands)
    players = len(hands)
    board = list(start.board)
    bone = list(start._bone)
    turn, drawn = start.turn, start._drawn
    ends = list(start._ends)
    pending, need, mask, nums = start._pending, start._need, start._mask, start._nums
    result, log = start._outcome, start._log
    may_draw_instead = rules.may_draw_instead
    until_playable = rules.draw == "until_playable"
    may_play = rules.drawn_tile == "may_play"
    done = 0
    for move in moves:
        if result is not None:
            break
        if isinstance(move, Play):  # play_ok, then do_play
            t = move._t
            hand = hands[turn]
            if not ((hand if drawn < 0 else 1 << drawn) & mask) >> t & 1:
                break
            a = move._a
            if pending >= 0:
                if a != pending:
                    break
            elif a < 0:
                if board:
                    break
            else:
                x, y = PIPS[t]
                if not (ends[x] | ends[y]) >> a & 1:
                    break
            hand ^= 1 << t
            hands[turn] = hand
            board.append(move)
            pending, need, mask, nums = lay(ends, t, a, pending, need, mask, nums, rules)
            log = (log, turn, move)
            drawn = -1
            if not hand:
                result = OUT[turn]
            else:
                turn += 1
                if turn == players:
                    turn = 0
                if not bone and blocked(tuple(hands), mask):
                    result = BLOCKED
        elif move is PASS:  # pass_ok, then do_pass
            if drawn < 0:
                if bone or hands[turn] & mask:
                    break
            elif (1 << drawn) & mask:
                if not may_play:
                    break
            elif bone and until_playable:
                break
            log = (log, turn, PASS)
            drawn = -1
            turn += 1
            if turn == players:
                turn = 0
            if not bone and blocked(tuple(hands), mask):
                result = BLOCKED
        elif isinstance(move, Draw):  # draw_ok (a named tile: in the boneyard), do_draw
            if not bone:
                break
            if drawn < 0:
                if hands[turn] & mask and not (may_draw_instead and board):
                    break
            elif (1 << drawn) & mask or not until_playable:
                break
            if move is DRAW:
                t = bone.pop(0)
            else:
                tile = move.tile
                if tile is None or tile.id not in bone:
                    break
                t = tile.id
                bone.remove(t)
            hands[turn] |= 1 << t
            drawn = t
            log = (log, turn, DRAWS[t])
        else:
            break
        done += 1
    if not done:
        return start, 0
    final = make(
        rules,
        start._centre,
        tuple(board),
        tuple(hands),
        tuple(bone),
        turn,
        drawn,
        tuple(ends),
        pending,
        need,
        mask,
        nums,
        result,
        log,
    )
    return final, done


def states_of(start: State, moves: Sequence[Move]) -> tuple[State, ...]:
    """Every position of a line of legal moves from ``start`` (trusted: checked before, by
    :func:`replay` or ``apply``): ``start``, then the one after each move."""
    out = [start]
    s = start
    for move in moves:
        if isinstance(move, Play):
            s = do_play(s, move)
        elif move is PASS:
            s = do_pass(s)
        else:
            assert isinstance(move, Draw)
            s = do_draw(s, s._bone[0] if move.tile is None else move.tile.id)
        out.append(s)
    return tuple(out)
