"""The representation of a position and the constructors that derive its table.

Part of the kernel: see :mod:`chickenfoot._kernel` for the contract.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from chickenfoot.moves import DRAWS, Move, Play
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.rules import Rules
from chickenfoot.tiles import BY_ID, MAX_PIP, PIPS, WITH, Tile, iter_bits, set_size

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = [
    "BLOCKED",
    "FIELDS",
    "NO_LOG",
    "OUT",
    "UNION",
    "Phase",
    "Scaffold",
    "blocked",
    "build_as",
    "is_state",
    "make",
    "restore",
    "settle",
    "tiles_of",
    "union",
]


class Phase(enum.Enum):
    """Where a round stands.

    >>> [p.value for p in Phase]
    ['seeking_centre', 'opening', 'open', 'foot_pending', 'over']
    """

    SEEKING_CENTRE = "seeking_centre"
    """``holder`` mode: the centre is not on the table yet."""
    OPENING = "opening"
    """The centre still needs toes (R6)."""
    OPEN = "open"
    """Tiles go on the open ends of lines (R7)."""
    FOOT_PENDING = "foot_pending"
    """A double laid on a line still needs toes (R8)."""
    OVER = "over"
    """Someone went out, or the round is blocked (R10)."""


Phase.__module__ = "chickenfoot.state"  # its public home, for pickles and the docs


# Derived fields, kept up to date by ``apply`` so that nothing walks the board:
#   _ends[v]   bitmask of the anchor tiles whose line ends in number v
#   _pending   id of the hub that still needs toes (the centre in the opening), or -1
#   _need      toes the pending hub still needs
#   _mask      bitmask of the tiles that have a legal play on this table: the centre before
#              it is laid, the toes of the pending hub, else every tile showing an open number
#   _nums      bitmask of the numbers that some line ends in
#   _outcome   the Outcome once the round is over, else None


FIELDS: Final = (
    "rules",
    "_centre",
    "board",
    "_hands",
    "_bone",
    "turn",
    "_drawn",
    "_ends",
    "_pending",
    "_need",
    "_mask",
    "_nums",
    "_outcome",
    "_log",
)
"""The slots of a position, in order: what :class:`~chickenfoot.State` declares with attrs."""


class Scaffold:
    """Same slot layout as :class:`~chickenfoot.State`, but writable: the fast constructor's
    scaffold.

    attrs' frozen ``__init__`` sets each slot through ``object.__setattr__``; filling a
    writable twin and then switching ``__class__`` (legal: same layout) is about 3x faster
    and leaves the same object the constructor would.
    """

    __slots__ = FIELDS


_face: type = Scaffold  # the class of the positions built: State, once build_as has run


def build_as(cls: type) -> None:
    """Build every position as an instance of ``cls`` from now on.

    :mod:`chickenfoot.state` calls this once, right after defining
    :class:`~chickenfoot.State`: the class stands above the readers, views and pictures its
    convenience methods call, which build positions through this kernel, so the kernel is
    handed the class instead of importing it.
    """
    global _face  # noqa: PLW0603 - the one hook, set once at import (see the docstring)
    if getattr(cls, "__slots__", None) != FIELDS:
        raise TypeError(f"{cls.__name__} does not have the slots of a position: {FIELDS}")
    _face = cls


def is_state(value: object) -> TypeGuard[State]:
    """Whether ``value`` is a position (a :class:`~chickenfoot.State`)."""
    return isinstance(value, _face)


def make(
    rules: Rules,
    centre: int,
    board: tuple[Play, ...],
    hands: tuple[int, ...],
    bone: tuple[int, ...],
    turn: int,
    drawn: int,
    ends: tuple[int, ...],
    pending: int,
    need: int,
    mask: int,
    nums: int,
    result: Outcome | None,
    log: Any,
) -> State:
    s: Any = object.__new__(Scaffold)
    s.rules = rules
    s._centre = centre
    s.board = board
    s._hands = hands
    s._bone = bone
    s.turn = turn
    s._drawn = drawn
    s._ends = ends
    s._pending = pending
    s._need = need
    s._mask = mask
    s._nums = nums
    s._outcome = result
    s._log = log
    s.__class__ = _face
    return s  # type: ignore[no-any-return]


def tiles_of(mask: int) -> tuple[Tile, ...]:
    return tuple(BY_ID[t] for t in iter_bits(mask))


UNION: Final[dict[int, int]] = {}


def union(nums: int) -> int:
    """Bitmask of the tiles showing any number in the bitmask ``nums`` (memoised)."""
    mask = UNION.get(nums)
    if mask is None:
        mask = 0
        v, rest = 0, nums
        while rest:
            if rest & 1:
                mask |= WITH[v]
            rest >>= 1
            v += 1
        if len(UNION) < 1 << 16:
            UNION[nums] = mask
    return mask


def blocked(hands: tuple[int, ...], mask: int) -> bool:
    """No seat holds a tile in ``mask`` (called only when the boneyard is empty)."""
    for h in hands:
        if h & mask:
            return False
    return True


NO_LOG: Final[Any] = object()  # settle's default: start the history at this position

BLOCKED: Final = Outcome(Termination.BLOCKED)
# One per seat there can be: every player holds at least one tile of the largest set.
OUT: Final = tuple(Outcome(Termination.OUT, seat) for seat in range(set_size(MAX_PIP)))


def settle(
    rules: Rules,
    centre: int,
    board: tuple[Play, ...],
    hands: tuple[int, ...],
    bone: tuple[int, ...],
    turn: int,
    drawn: int,
    log: Any = NO_LOG,
) -> State:
    """Build a state from its primary data, deriving the table (trusted input).

    Used by the position reader and the samplers; the board must be a legal sequence.
    The history starts here (``log``), except that a tile already drawn this turn
    is remembered as drawn by the seat to act.
    """
    ends = [0] * (rules.max_pip + 1)
    pending, need = -1, 0
    for i, m in enumerate(board):
        t, a = m._t, m._a
        if i == 0:
            pending, need = t, rules.opening_toes
            continue
        x, y = PIPS[t]
        if a == pending:
            ends[y if x == PIPS[a][0] else x] |= 1 << t
            need -= 1
            if not need:
                pending = -1
            continue
        v = x if ends[x] >> a & 1 else y
        ends[v] &= ~(1 << a)
        if x == y:
            pending, need = t, rules.foot_toes
        else:
            ends[y if v == x else x] |= 1 << t
    nums = sum(1 << v for v, e in enumerate(ends) if e)
    if not board:
        mask = 1 << centre
    elif pending >= 0:
        mask = WITH[PIPS[pending][0]]
    else:
        mask = union(nums)
    result = None
    for seat, h in enumerate(hands):
        if not h:
            result = OUT[seat]
            break
    else:
        if drawn < 0 and not bone and blocked(hands, mask):
            result = BLOCKED
    return make(
        rules,
        centre,
        board,
        hands,
        bone,
        turn,
        drawn,
        tuple(ends),
        pending,
        need,
        mask,
        nums,
        result,
        log if log is not NO_LOG else (None, turn, DRAWS[drawn]) if drawn >= 0 else None,
    )


def restore(
    rules: Rules,
    centre: int,
    board: tuple[Play, ...],
    hands: tuple[int, ...],
    bone: tuple[int, ...],
    turn: int,
    drawn: int,
    events: tuple[tuple[int, Move], ...],
) -> State:
    """Rebuild a pickled :class:`~chickenfoot.State` (see ``State.__reduce__``)."""
    log: Any = None
    for seat, move in events:
        log = (log, seat, move)
    return settle(rules, centre, board, hands, bone, turn, drawn, log)
