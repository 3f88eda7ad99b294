"""The transitions: ``apply`` with its checks and explanations, the trusted steps it takes,
and the results of a round.

Part of the kernel: see :mod:`chickenfoot._kernel` for the contract.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chickenfoot._kernel.legal import draw_ok, generate, not_a_state, pass_ok, play_ok
from chickenfoot._kernel.position import BLOCKED, OUT, UNION, blocked, is_state, make, union
from chickenfoot.errors import IllegalMoveError, InvalidMoveError, brief
from chickenfoot.moves import DRAW, DRAWS, PASS, Draw, Move, Pass, Play, parse_move
from chickenfoot.outcome import Outcome
from chickenfoot.rules import Rules
from chickenfoot.tiles import BY_ID, PIPS, WITH

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = [
    "apply",
    "check_in_set",
    "do_draw",
    "do_pass",
    "do_play",
    "lay",
    "outcome",
    "penalties",
    "why_illegal",
]


def apply(state: State, move: Move | str) -> State:
    """The state after ``move`` (a :class:`~chickenfoot.Move` or its notation).

    Raises :class:`~chickenfoot.InvalidMoveError` for text that is not a move or names a
    tile outside the set, and :class:`~chickenfoot.IllegalMoveError` (naming the move, the
    seat and why) for a move the rules do not allow; ``state`` is never changed.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1)
    >>> str(apply(s, "9-3@9-9").board[-1])
    '9-3@9-9'
    >>> apply(s, "draw")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.IllegalMoveError: draw by seat 0: seat 0 can play (e.g. 9-0@9-9), so may not draw
    """
    try:  # (free in CPython 3.11+: the checks below run only when something is wrong)
        if isinstance(move, Play):
            if play_ok(state, move):
                return do_play(state, move)
        elif move is DRAW:
            if draw_ok(state):
                return do_draw(state, state._bone[0])
        elif move is PASS:
            if pass_ok(state):
                return do_pass(state)
        elif isinstance(move, str):
            return apply(state, parse_move(move, max_pip=state.rules.max_pip))
        elif isinstance(move, Draw):
            tile = move.tile
            if tile is not None and tile.id in state._bone and draw_ok(state):
                return do_draw(state, tile.id)
    except AttributeError:
        if not is_state(state):
            raise not_a_state(state, "apply") from None
        raise
    if not is_state(state):
        raise not_a_state(state, "apply")
    if type(move) not in (Play, Draw, Pass):
        raise InvalidMoveError(f"{brief(move)} is not a move (expected a Move or its notation)")
    check_in_set(state, move)
    raise IllegalMoveError(f"{move} by seat {state.turn}: {why_illegal(state, move)}")


def lay(
    ends: list[int],
    t: int,
    a: int,
    pending: int,
    need: int,
    mask: int,
    nums: int,
    rules: Rules,
) -> tuple[int, int, int, int]:
    """The table after tile ``t`` is laid on anchor ``a`` (-1: the centre, in holder mode).

    The one copy of the table's transition, shared by :func:`do_play` and the playout loop
    (:func:`chickenfoot.playout.playout`): ``ends`` (the open ends, by number) is updated in
    place, and the new ``(pending, need, mask, nums)`` are returned (trusted: the play is
    legal).
    """
    x, y = PIPS[t]
    if a < 0:  # the centre, in holder mode
        return t, rules.opening_toes, WITH[x], nums
    if pending >= 0:  # a toe on the pending hub
        o = y if x == PIPS[pending][0] else x
        ends[o] |= 1 << t
        nums |= 1 << o
        need -= 1
        if need:
            return pending, need, mask, nums
        return -1, 0, UNION.get(nums) or union(nums), nums
    # a tile on an open end
    if ends[x] >> a & 1:
        v, o = x, y
    else:
        v, o = y, x
    ev = ends[v] ^ (1 << a)
    ends[v] = ev
    before = nums
    if not ev:
        nums ^= 1 << v
    if x == y:  # a double: the line is closed, and the double is a hub needing toes
        return t, rules.foot_toes, WITH[x], nums
    ends[o] |= 1 << t
    nums |= 1 << o
    if nums != before:
        mask = UNION.get(nums) or union(nums)
    return pending, need, mask, nums


def do_play(s: State, move: Play) -> State:
    """The successor after a legal play (trusted: no checks)."""
    t, a = move._t, move._a
    rules = s.rules
    turn = s.turn
    hl = list(s._hands)
    h = hl[turn] ^ (1 << t)
    hl[turn] = h
    hands = tuple(hl)
    board = s.board + (move,)
    e = list(s._ends)
    pending, need, mask, nums = lay(e, t, a, s._pending, s._need, s._mask, s._nums, rules)
    ends = tuple(e)
    bone = s._bone
    result: Outcome | None
    if not h:  # went out (R10): the turn stays with the seat that won
        nxt, result = turn, OUT[turn]
    else:
        nxt = turn + 1
        if nxt == len(hands):
            nxt = 0
        result = BLOCKED if not bone and blocked(hands, mask) else None
    return make(
        rules,
        s._centre,
        board,
        hands,
        bone,
        nxt,
        -1,
        ends,
        pending,
        need,
        mask,
        nums,
        result,
        (s._log, turn, move),
    )


def do_draw(s: State, t: int) -> State:
    """The successor after drawing tile ``t`` from the boneyard (trusted)."""
    turn = s.turn
    hl = list(s._hands)
    hl[turn] |= 1 << t
    bone = s._bone
    bone = bone[1:] if bone[0] == t else tuple(x for x in bone if x != t)
    return make(
        s.rules,
        s._centre,
        s.board,
        tuple(hl),
        bone,
        turn,
        t,
        s._ends,
        s._pending,
        s._need,
        s._mask,
        s._nums,
        None,
        (s._log, turn, DRAWS[t]),
    )


def do_pass(s: State) -> State:
    """The successor after a pass (trusted)."""
    hands = s._hands
    nxt = s.turn + 1
    if nxt == len(hands):
        nxt = 0
    bone = s._bone
    mask = s._mask
    result = BLOCKED if not bone and blocked(hands, mask) else None
    return make(
        s.rules,
        s._centre,
        s.board,
        hands,
        bone,
        nxt,
        -1,
        s._ends,
        s._pending,
        s._need,
        mask,
        s._nums,
        result,
        (s._log, s.turn, PASS),
    )


def check_in_set(s: State, move: Move) -> None:
    size = s.rules.set_size
    for tile in (getattr(move, "tile", None), getattr(move, "anchor", None)):
        if tile is not None and tile.id >= size:
            raise InvalidMoveError(
                f"{brief(str(move))} names {tile}, which is not in the double-{s.rules.max_pip} set"
            )


def why_illegal(s: State, move: Move) -> str:
    """A plain-words reason why ``move`` is illegal in ``s`` (slow path, errors only)."""
    if s._outcome is not None:
        return f"the round is over ({s._outcome})"
    seat = s.turn
    moves = generate(s)
    example = f" (e.g. {moves[0]})" if moves else ""
    if isinstance(move, Pass):
        if DRAW in moves:
            return f"seat {seat} can draw{' or play' if len(moves) > 1 else ''}, so may not pass"
        return f"seat {seat} can play{example}, so may not pass"
    if isinstance(move, Draw):
        if not s._bone:
            return "the boneyard is empty"
        if move.tile is not None and move.tile.id not in s._bone:
            return f"{move.tile} is not in the boneyard"
        if s._drawn >= 0:
            if PASS in moves and len(moves) == 1:
                return f"seat {seat} has drawn {s.drawn}, which has no play, and must pass"
            if PASS in moves:
                return f"seat {seat} has drawn {s.drawn} and must play it{example} or pass"
            return f"seat {seat} has drawn {s.drawn} and must play it{example}"
        if not s.board:
            return f"seat {seat} holds the centre {s.centre} and must lay it"
        return f"seat {seat} can play{example}, so may not draw"
    assert isinstance(move, Play)
    tile, anchor = move.tile, move.anchor
    if s._drawn >= 0 and tile.id != s._drawn:
        return f"only the drawn tile {s.drawn} may be played this turn"
    if s._drawn < 0 and not s._hands[seat] >> tile.id & 1:
        return f"seat {seat} does not hold {tile}"
    if not s.board:
        if tile.id != s._centre:
            return f"the centre {s.centre} must be laid first"
        return f"the centre {s.centre} is laid without an anchor (write {tile})"
    if anchor is None:
        if tile.id == s._centre:
            return f"the centre {s.centre} is already on the table"
        return f"{tile} needs an anchor (write {tile}@ANCHOR)"
    placed = {m.tile.id for m in s.board}
    if anchor.id not in placed:
        return f"{anchor} is not on the table"
    pending = s._pending
    if pending >= 0:
        hub = BY_ID[pending]
        what = "the centre" if pending == s._centre else "the foot on"
        need = s._need
        toes = "toe" if need == 1 else "toes"
        if anchor.id != pending:
            return f"{what} {hub} needs {need} more {toes}"
        return f"{tile} does not carry {hub.high}, so it is not a toe of {hub}"
    for v, mask in enumerate(s._ends):
        if mask >> anchor.id & 1:
            if not tile.has(v):
                return f"{tile} does not match the open end {v} of {anchor}"
            break  # pragma: no cover - a matching end would have been legal
    else:
        if anchor.is_double:
            return f"{anchor} is a hub with all its toes; it takes no more"
        return f"{anchor} is not an open end"
    return "not a legal move here"  # pragma: no cover - defensive


def outcome(state: State) -> Outcome | None:
    """How the round ended (:class:`~chickenfoot.Outcome`), or ``None`` while it goes on.

    >>> from chickenfoot import Rules, deal
    >>> outcome(deal(Rules(), seed=1)) is None
    True
    """
    if not is_state(state):
        raise not_a_state(state, "outcome")
    return state._outcome


def penalties(state: State) -> tuple[int, ...]:
    """Each seat's penalty points (R11): the pips in hand, ``0-0`` counting ``double_blank``.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1)
    >>> sum(s.penalties()) == sum(t.pips for h in s.hands for t in h) + 50 * any(
    ...     t.id == 0 for h in s.hands for t in h)
    True
    """
    if not is_state(state):
        raise not_a_state(state, "penalties")
    blank = state.rules.double_blank
    out = []
    for h in state._hands:
        total = 0
        m = h
        while m:
            low = m & -m
            x, y = PIPS[low.bit_length() - 1]
            total += x + y
            m ^= low
        if h & 1:
            total += blank
        out.append(total)
    return tuple(out)
