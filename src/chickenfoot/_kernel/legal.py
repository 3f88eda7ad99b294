"""Legal moves: generation in the documented order, the legality tests and :class:`LegalMoves`.

Part of the kernel: see :mod:`chickenfoot._kernel` for the contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from chickenfoot._kernel.position import is_state
from chickenfoot.errors import ArgumentError, InvalidMoveError, brief
from chickenfoot.moves import DRAW, PASS, Draw, Move, Play, parse_move, play_by_ids
from chickenfoot.tiles import BY_ID, PIPS, iter_bits

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = [
    "LegalMoves",
    "draw_ok",
    "generate",
    "is_legal",
    "legal_moves",
    "new_legal",
    "not_a_state",
    "pass_ok",
    "play_ok",
]


def generate(s: State) -> Sequence[Move]:
    """The legal moves of ``s`` in the documented order (a list or a shared tuple)."""
    if s._outcome is not None:
        return ()
    d = s._drawn
    cand = (s._hands[s.turn] if d < 0 else 1 << d) & s._mask
    if not cand:
        if s._bone and (d < 0 or s.rules.draw == "until_playable"):
            return _ONLY_DRAW
        return _ONLY_PASS
    moves: Sequence[Move]
    pending = s._pending
    if pending >= 0:
        moves = _TOES[pending].get(cand) or _hub_group(pending, cand)
    elif s.board:
        # Highest tile first (bit_length is cheaper than isolating the lowest bit of a
        # multi-digit int), each group highest anchor first, then one reverse: the documented order.
        ends = s._ends
        backwards: list[Move] = []
        while cand:
            t = cand.bit_length() - 1
            cand ^= 1 << t
            x, y = PIPS[t]
            anchors = ends[x] | ends[y]
            backwards += _GROUPS[t].get(anchors) or _tile_group(t, anchors)
        backwards.reverse()
        moves = backwards
    else:  # holder mode: laying the centre
        moves = [play_by_ids(s._centre, -1)]
    if d < 0:
        if s._bone and s.rules.may_draw_instead and s.board:
            return [*moves, DRAW]
    elif s.rules.drawn_tile == "may_play":
        return [*moves, PASS]
    return moves


# Memos of groups of plays: _GROUPS[t][anchors] is tile t on each anchor in the bitmask
# ``anchors``, highest anchor first (see generate); _TOES[hub][tiles] is each tile in the bitmask ``tiles`` as a toe of ``hub``.
# One lookup per candidate tile (per hub) instead of a loop per move makes generation about
# 30% faster. The combinations met keep growing over many rounds, so both memos are emptied
# together when they reach _MEMO_LIMIT entries (a few MB at most); frequent ones come back.
_GROUPS: Final[list[dict[int, tuple[Play, ...]]]] = [{} for _ in BY_ID]
_TOES: Final[list[dict[int, tuple[Play, ...]]]] = [{} for _ in BY_ID]
_MEMO_LIMIT: Final = 1 << 15
_memo_size = [0]


def _remember(memo: dict[int, tuple[Play, ...]], key: int, group: tuple[Play, ...]) -> None:
    if _memo_size[0] >= _MEMO_LIMIT:
        for table in (*_GROUPS, *_TOES):
            table.clear()
        _memo_size[0] = 0
    memo[key] = group
    _memo_size[0] += 1


def _tile_group(t: int, anchors: int) -> tuple[Play, ...]:
    """Tile ``t`` on each anchor in the bitmask ``anchors``, highest anchor first (memoised)."""
    group = tuple(play_by_ids(t, a) for a in reversed(list(iter_bits(anchors))))
    _remember(_GROUPS[t], anchors, group)
    return group


def _hub_group(hub: int, tiles: int) -> tuple[Play, ...]:
    """Each tile in the bitmask ``tiles`` as a toe of ``hub``, by tile id (memoised)."""
    group = tuple(play_by_ids(t, hub) for t in iter_bits(tiles))
    _remember(_TOES[hub], tiles, group)
    return group


_ONLY_DRAW: Final[tuple[Move, ...]] = (DRAW,)
_ONLY_PASS: Final[tuple[Move, ...]] = (PASS,)


def draw_ok(s: State) -> bool:
    """Whether ``draw`` is legal in ``s`` (agrees with :func:`generate`)."""
    if s._outcome is not None or not s._bone:
        return False
    d = s._drawn
    if d < 0:
        return not s._hands[s.turn] & s._mask or (s.rules.may_draw_instead and bool(s.board))
    return not (1 << d) & s._mask and s.rules.draw == "until_playable"


def pass_ok(s: State) -> bool:
    """Whether ``pass`` is legal in ``s`` (agrees with :func:`generate`)."""
    if s._outcome is not None:
        return False
    d = s._drawn
    if d < 0:
        return not s._bone and not s._hands[s.turn] & s._mask
    if (1 << d) & s._mask:
        return s.rules.drawn_tile == "may_play"
    return not s._bone or s.rules.draw != "until_playable"


class LegalMoves(tuple[Move, ...]):
    """The legal moves of a state, in the documented order: an immutable sequence (a tuple).

    ``in`` also accepts notation strings and tests the listed moves (``draw:X-Y`` is never
    listed: use :func:`is_legal` for it); ``count()`` with no argument gives the number of
    moves, as python-chess does. Moves are interned, so membership compares identities.

    >>> from chickenfoot import Rules, deal, legal_moves
    >>> moves = legal_moves(deal(Rules(), seed=2))
    >>> len(moves), moves.count(), [str(m) for m in moves], "9-7@9-9" in moves
    (2, 2, ['9-2@9-9', '9-7@9-9'], True)
    """

    __slots__ = ()

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except InvalidMoveError:
                return False
        return tuple.__contains__(self, move)

    def count(self, value: Any = None) -> int:
        """The number of legal moves (given a move: how often it is listed, 0 or 1)."""
        if value is None:
            return len(self)
        return 1 if value in self else 0

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.notation() for m in self)})>"


LegalMoves.__module__ = "chickenfoot.state"  # its public home, for pickles and the docs

new_legal: Final = tuple.__new__
"""``new_legal(LegalMoves, moves)``: a :class:`LegalMoves` without a copy (trusted)."""


def legal_moves(state: State) -> LegalMoves:
    """The legal moves of ``state`` in the documented order (empty when the round is over).

    >>> from chickenfoot import Rules, deal
    >>> [str(m) for m in legal_moves(deal(Rules(), seed=1))]
    ['9-0@9-9', '9-3@9-9', '9-8@9-9']
    """
    try:
        return new_legal(LegalMoves, generate(state))
    except AttributeError:
        raise not_a_state(state, "legal_moves") from None


def is_legal(state: State, move: Move | str) -> bool:
    """Whether ``apply(state, move)`` would accept ``move`` (a move or its notation).

    Unlike ``move in legal_moves(state)``, which tests the listed moves, this also accepts
    ``draw:X-Y`` (never listed; legal whenever ``draw`` is and X-Y is in the boneyard).
    Text that is not a move, or names a tile outside the set, is simply not legal.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1)
    >>> is_legal(s, "9-3@9-9"), is_legal(s, "draw"), is_legal(s, "junk")
    (True, False, False)
    """
    if not is_state(state):
        raise not_a_state(state, "is_legal")
    if isinstance(move, str):
        try:
            move = parse_move(move, max_pip=state.rules.max_pip)
        except InvalidMoveError:
            return False
    if isinstance(move, Play):
        return play_ok(state, move)
    if move is DRAW:
        return draw_ok(state)
    if move is PASS:
        return pass_ok(state)
    if isinstance(move, Draw) and move.tile is not None:
        return move.tile.id in state._bone and draw_ok(state)
    return False


def not_a_state(value: object, where: str) -> ArgumentError:
    return ArgumentError(f"{where} needs a State, got {brief(value)}")


def play_ok(s: State, move: Play) -> bool:
    """Whether ``move`` is legal in ``s`` (fast; agrees with :func:`generate`)."""
    t = move._t
    d = s._drawn
    src = s._hands[s.turn] if d < 0 else 1 << d
    if not (src & s._mask) >> t & 1 or s._outcome is not None:
        return False
    a = move._a
    pending = s._pending
    if pending >= 0:
        return a == pending
    if a < 0:
        return not s.board
    x, y = PIPS[t]
    ends = s._ends
    return bool((ends[x] | ends[y]) >> a & 1)
