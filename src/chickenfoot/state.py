"""One round of Chicken Foot: the immutable :class:`State`, its legal moves and ``apply``.

This module is the rules core for one round: the terms and rules R1-R12 of the rules page
(docs/rules.md), and the legal-move order and bad-input contract of docs/formats.md. It
imports only the tiles, moves, rules, outcome and table modules.

Representation, chosen for speed: hands are int bitmasks over tile ids, the boneyard a
tuple of tile ids (front first), the board a tuple of interned :class:`~chickenfoot.Play`
objects in the order played, and the open ends a tuple indexed by number of bitmasks of the
anchor tiles whose line ends in that number. The pending hub (the centre during the opening,
or a double laid on a line), the toes it still needs, the open numbers and the bitmask of
every tile that has a legal play are kept alongside and updated by ``apply``, so move
generation is ``hand & mask`` plus one memo lookup per candidate tile and never walks the
board (docs/performance.md).

>>> from chickenfoot import Rules, deal, legal_moves, apply
>>> s = deal(Rules(), seed=7)
>>> s.phase, s.turn, s.toes_needed, str(s.pending_hub)
(<Phase.OPENING: 'opening'>, 0, 6, '9-9')
>>> s2 = apply(s, legal_moves(s)[0])
>>> s2.turn, len(s2.board), len(s.board)
(1, 2, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from chickenfoot.errors import (
    ArgumentError,
    IllegalMoveError,
    InvalidMoveError,
    RulesError,
    SeatError,
    brief,
)
from chickenfoot.moves import (
    _DRAWS,
    DRAW,
    PASS,
    Draw,
    Event,
    Move,
    Pass,
    Play,
    parse_move,
    play_by_ids,
)
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.rules import Rounds, Rules
from chickenfoot.table import Table, table_of
from chickenfoot.tiles import _BY_ID, MAX_PIP, PIPS, WITH, Tile, iter_bits, set_size

if TYPE_CHECKING:
    from chickenfoot.view import View

__all__ = [
    "LegalMoves",
    "Phase",
    "State",
    "apply",
    "is_legal",
    "legal_moves",
    "outcome",
    "penalties",
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


@attrs.frozen(weakref_slot=False, repr=False)
class State:
    """A position of one round: full information, immutable and hashable.

    Build states with :func:`~chickenfoot.deal`, :meth:`from_dict` / :meth:`from_json`, or
    :func:`apply`; the constructor takes the internal representation and is not checked.
    Two states are equal when their rules, centre, board, hands, boneyard, turn and drawn
    tile are equal.

    >>> from chickenfoot import deal, Rules
    >>> s = deal(Rules(players=2), seed=1)
    >>> s.hand_sizes, s.boneyard_size, s.centre, s.drawn
    ((20, 20), 14, Tile(9, 9), None)
    """

    rules: Rules
    _centre: int
    board: tuple[Play, ...]
    """The placements in the order played; the first is the centre (anchor ``None``)."""
    _hands: tuple[int, ...]
    _bone: tuple[int, ...]
    turn: int
    """The seat to act."""
    _drawn: int
    _ends: tuple[int, ...] = attrs.field(eq=False)
    _pending: int = attrs.field(eq=False)
    _need: int = attrs.field(eq=False)
    _mask: int = attrs.field(eq=False)
    _nums: int = attrs.field(eq=False)
    _outcome: Outcome | None = attrs.field(eq=False)
    _log: Any = attrs.field(eq=False)
    """The moves of the round as cons cells ``(earlier, seat, move)``, or ``None``."""

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def from_dict(cls, obj: Any) -> State:
        """Read a ``chickenfoot/position`` document (docs/formats.md), checking everything.

        Raises :class:`~chickenfoot.FormatError` naming the path of the bad part.

        >>> s = State.from_dict({"format": "chickenfoot/position", "version": 1,
        ...   "rules": {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2,
        ...             "foot_toes": 1},
        ...   "centre": "3-3", "board": ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
        ...   "hands": [["2-0"], ["2-2"]], "boneyard": ["1-1", "3-0", "0-0"],
        ...   "turn": 0, "drawn": None})
        >>> [str(m) for m in s.legal_moves]
        ['2-0@1-0']
        """
        from chickenfoot.formats import position_from_dict

        return position_from_dict(obj)

    @classmethod
    def setup(
        cls,
        rules: Rules,
        *,
        hands: Sequence[Sequence[Tile | str]],
        boneyard: Sequence[Tile | str],
        centre: Tile | str | None = None,
        board: Sequence[Play | str] | None = None,
        turn: int | None = None,
        drawn: Tile | str | None = None,
    ) -> State:
        """A position from given hands: for games that deal their own tiles, and samplers.

        Tiles and placements are objects or their notation. ``centre`` defaults to the
        double of round 0 (``N-N``), ``board`` to the centre alone (nothing in ``holder``
        mode), ``turn`` to ``rules.first_leader`` and ``drawn`` to nothing drawn. The
        checks are those of :meth:`from_dict`, with the same errors: a
        :class:`~chickenfoot.FormatError` naming the bad part as a position document
        would (``hands[1][0]``, ``board[2]``), and every tile of the set must be placed
        exactly once.

        >>> from chickenfoot import Rules
        >>> rules = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
        >>> s = State.setup(rules, hands=[["3-2", "3-1", "0-0"], ["1-1", "2-2", "2-0"]],
        ...                 boneyard=["1-0", "2-1", "3-0"])
        >>> s.turn, str(s.centre), [str(m) for m in s.legal_moves]
        (0, '3-3', ['3-1@3-3', '3-2@3-3'])
        >>> State.setup(rules, hands=[["3-2"], ["3-2"]], boneyard=[])
        Traceback (most recent call last):
        ...
        chickenfoot.errors.FormatError: hands[1][0]: 3-2 appears twice (also at hands[0][0])
        """
        from chickenfoot.formats import position_from_parts

        if not isinstance(rules, Rules):
            raise RulesError(
                f"rules={brief(rules)} is invalid: must be a Rules object", field="rules"
            )
        if centre is None:
            centre = Tile(rules.centre_of_round(0), rules.centre_of_round(0))
        if board is None:
            board = [str(centre)] if rules.centre == "set_aside" else []
        return position_from_parts(
            rules,
            centre=_text(centre),
            board=_texts(board),
            hands=[_texts(h) for h in hands] if _is_seq(hands) else hands,
            boneyard=_texts(boneyard),
            turn=rules.first_leader if turn is None else turn,
            drawn=_text(drawn),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> State:
        """Read a position document from JSON text."""
        from chickenfoot.formats import position_from_json

        return position_from_json(text)

    def to_dict(self) -> dict[str, Any]:
        """The ``chickenfoot/position`` document (docs/formats.md, "Position").

        >>> from chickenfoot import deal, Rules
        >>> d = deal(Rules(), seed=3).to_dict()
        >>> d["format"], d["board"], d["turn"], d["drawn"]
        ('chickenfoot/position', ['9-9'], 0, None)
        """
        from chickenfoot.formats import position_to_dict

        return position_to_dict(self)

    def to_json(self, *, indent: int | None = None) -> str:
        """The position document as JSON text."""
        from chickenfoot.formats import position_to_json

        return position_to_json(self, indent=indent)

    # -- views ------------------------------------------------------------------------------

    @property
    def centre(self) -> Tile:
        """The round's double (on the table, or in ``holder`` mode perhaps not yet)."""
        return _BY_ID[self._centre]

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self._hands)

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's tiles, in id order."""
        return tuple(_tiles(h) for h in self._hands)

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles of ``seat``, in id order.

        >>> from chickenfoot import deal, Rules
        >>> deal(Rules(), seed=1).hand(4)
        Traceback (most recent call last):
        ...
        chickenfoot.errors.SeatError: seat 4 is not a seat of this round (0 to 3)
        """
        if type(seat) is not int or not 0 <= seat < len(self._hands):
            raise SeatError(
                f"seat {brief(seat)} is not a seat of this round (0 to {len(self._hands) - 1})"
            )
        return _tiles(self._hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds."""
        return tuple(h.bit_count() for h in self._hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The boneyard in draw order, front first."""
        return tuple(_BY_ID[t] for t in self._bone)

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left to draw."""
        return len(self._bone)

    @property
    def drawn(self) -> Tile | None:
        """The tile the player to act drew this turn, if any (only it may be played)."""
        return None if self._drawn < 0 else _BY_ID[self._drawn]

    @property
    def centre_laid(self) -> bool:
        """Whether the centre is on the table (always, except early in ``holder`` mode)."""
        return bool(self.board)

    @property
    def pending_hub(self) -> Tile | None:
        """The hub that still needs toes (the centre in the opening, or a foot), if any."""
        return None if self._pending < 0 else _BY_ID[self._pending]

    @property
    def toes_needed(self) -> int:
        """How many toes the pending hub still needs (0 when none is pending)."""
        return self._need if self._pending >= 0 else 0

    @property
    def open_ends(self) -> tuple[tuple[Tile, int], ...]:
        """Every open end of a line as ``(anchor tile, number)``, by anchor id.

        An open end is the outer end of a line: a tile laid there carries ``number`` and
        is written ``X-number@anchor``. A hub is not an open end: the centre (and a double
        laid on a line) takes toes, which go on the hub itself (:attr:`pending_hub`,
        :attr:`toes_needed`), so right after the deal there is none. While a hub is
        pending, nothing may be laid on the open ends (only toes); :attr:`Play.joins
        <chickenfoot.Play.joins>` and :attr:`Play.opens <chickenfoot.Play.opens>` say, of
        any legal play, the number it meets and the number it leaves.

        >>> from chickenfoot import deal, Rules
        >>> s = deal(Rules(), seed=1)
        >>> s.open_ends, str(s.pending_hub), s.toes_needed   # the centre is a hub
        ((), '9-9', 6)
        >>> s.apply("9-3@9-9").open_ends                      # its first toe ends in 3
        ((Tile(9, 3), 3),)
        """
        out = [(_BY_ID[a], v) for v, mask in enumerate(self._ends) for a in iter_bits(mask)]
        out.sort(key=lambda e: e[0].id)
        return tuple(out)

    @property
    def table(self) -> Table:
        """The table as a structure: hubs, their toes and lines, how each tile lies.

        Built from :attr:`board` on each access (a few microseconds per tile); see
        :class:`~chickenfoot.Table`.

        >>> from chickenfoot import deal, Rules
        >>> t = deal(Rules(), seed=1).apply("9-3@9-9").table
        >>> t.centre, t.pending.tile, t.toes_needed, [str(line) for line in t.lines]
        (Tile(9, 9), Tile(9, 9), 5, ['9|3 -> 3 on 9-3'])
        """
        return table_of(self.rules, self.board, self.pending_hub, self.toes_needed)

    @property
    def history(self) -> tuple[Event, ...]:
        """The moves made in this round, in order, each with its seat; draws name their tile.

        It starts at the deal, or at the position a state was read from (a position read
        with a tile already drawn starts with that draw). It is not part of equality.

        >>> from chickenfoot import deal, Rules
        >>> s = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw")
        >>> [str(e) for e in s.history]
        ['0:9-3@9-9', '1:draw:6-3']
        """
        out: list[Event] = []
        log = self._log
        while log is not None:
            log, seat, move = log
            out.append(Event(seat, move))
        out.reverse()
        return tuple(out)

    @property
    def phase(self) -> Phase:
        """The :class:`Phase` of the round."""
        if self._outcome is not None:
            return Phase.OVER
        if not self.board:
            return Phase.SEEKING_CENTRE
        if self._pending < 0:
            return Phase.OPEN
        return Phase.OPENING if self._pending == self._centre else Phase.FOOT_PENDING

    def is_over(self) -> bool:
        """Whether the round has ended (R10)."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the round ended, or ``None`` while it goes on."""
        return self._outcome

    def penalties(self) -> tuple[int, ...]:
        """Each seat's penalty points (R11): pips in hand, ``0-0`` counting ``double_blank``.

        Defined on every position, not only at the end.
        """
        return penalties(self)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, as :func:`legal_moves` gives them."""
        return legal_moves(self)

    def apply(self, move: Move | str) -> State:
        """The state after ``move``; see :func:`apply`."""
        return apply(self, move)

    def is_legal(self, move: Move | str) -> bool:
        """Whether :meth:`apply` would accept ``move``; see :func:`is_legal`."""
        return is_legal(self, move)

    def key(self) -> tuple[int, ...]:
        """A key of the position made of integers only: equal states have equal keys and
        unequal states different ones, and its hash is the same in every process and run
        (integers hash by value, whatever ``PYTHONHASHSEED``), so it can key a transposition
        table shared between processes or be stored (``list(key)`` is JSON).

        ``hash(state)`` itself is only stable within a process (moves hash by identity).

        >>> from chickenfoot import deal, Rules
        >>> s = deal(Rules(), seed=1)
        >>> s.key() == State.from_json(s.to_json()).key(), s.key() == s.apply("9-3@9-9").key()
        (True, False)
        >>> hash(deal(Rules(), seed=1).apply("9-3@9-9").key()) == hash(s.apply("9-3@9-9").key())
        True
        """
        r = self.rules
        m = r.match
        match = (0, m.count, 0) if isinstance(m, Rounds) else (1, m.points, int(m.inclusive))
        board = self.board
        return (
            r.players,
            r.max_pip,
            r.hand_size,
            r.opening_toes,
            r.foot_toes,
            r.double_blank,
            int(r.centre == "holder"),
            int(r.draw == "until_playable"),
            int(r.drawn_tile == "may_play"),
            int(r.may_draw_instead),
            *match,
            int(r.tie_break == "zero_rounds"),
            r.first_leader,
            self._centre,
            self.turn,
            self._drawn,
            len(board),
            *(m._t for m in board),
            *(m._a for m in board),
            *self._hands,
            *self._bone,
        )

    def view(self, seat: int) -> View:
        """What ``seat`` may know of this state: a :class:`~chickenfoot.View`.

        >>> from chickenfoot import deal, Rules
        >>> v = deal(Rules(), seed=1).view(2)
        >>> v.hand_sizes, v.turn, len(v.hand)
        ((11, 11, 11, 11), 0, 11)
        """
        from chickenfoot.view import view

        return view(self, seat)

    def __reduce__(self) -> tuple[Any, ...]:
        # The history is a chain of nested cells; pickle it flat (no deep recursion).
        return (
            _restore,
            (
                self.rules,
                self._centre,
                self.board,
                self._hands,
                self._bone,
                self.turn,
                self._drawn,
                tuple((e.seat, e.move) for e in self.history),
            ),
        )

    def __deepcopy__(self, memo: Any) -> State:
        return self

    def __copy__(self) -> State:
        return self

    def __str__(self) -> str:
        """The compact text picture of the position, every hand shown (as
        :func:`~chickenfoot.render_compact` draws it): ``print(state)`` draws the table.

        >>> from chickenfoot import Rules, deal
        >>> print(deal(Rules(players=2), seed=1).apply("9-0@9-9"))
        centre 9-9  (1/6 toes, needs 5 more toes)
          └ 9|0* → 0
        seat 1 to play · boneyard 14
          seat 0: 1-1 2-1 2-2 3-3 4-1 4-2 4-3 4-4 5-0 5-5 6-0 6-1 7-2 7-4 8-0 8-3 8-7
                  9-3 9-8 (19 tiles, 152 points)
          seat 1: 0-0 1-0 2-0 3-1 5-1 5-3 5-4 6-4 6-6 7-0 7-1 7-3 7-6 7-7 8-2 8-4 8-5
                  8-6 9-4 9-5 (20 tiles, 230 points)
        """
        from chickenfoot.render import render_compact

        return render_compact(self)

    def __repr__(self) -> str:
        board = " ".join(str(m) for m in self.board)
        return (
            f"<State turn={self.turn} phase={self.phase.value} board=[{board}] "
            f"hands={list(self.hand_sizes)} boneyard={len(self._bone)}"
            + (f" drawn={self.drawn}" if self._drawn >= 0 else "")
            + ">"
        )


def _text(value: Any) -> Any:
    """Tiles and moves as their notation; anything else as it is, for the checks to name."""
    return str(value) if isinstance(value, (Tile, Move)) else value


def _is_seq(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _texts(values: Any) -> Any:
    return [_text(v) for v in values] if _is_seq(values) else values


# -- internal construction (the hot path) ----------------------------------------------------
#
# Derived fields, kept up to date by ``apply`` so that nothing walks the board:
#   _ends[v]   bitmask of the anchor tiles whose line ends in number v
#   _pending   id of the hub that still needs toes (the centre in the opening), or -1
#   _need      toes the pending hub still needs
#   _mask      bitmask of the tiles that have a legal play on this table: the centre before
#              it is laid, the toes of the pending hub, else every tile showing an open number
#   _nums      bitmask of the numbers that some line ends in
#   _outcome   the Outcome once the round is over, else None


class _Blank:
    """Same slot layout as :class:`State`, but writable: the fast constructor's scaffold.

    attrs' frozen ``__init__`` sets each slot through ``object.__setattr__``; filling a
    writable twin and then switching ``__class__`` (legal: same layout) is about 3x faster
    and leaves the same object the constructor would.
    """

    __slots__ = State.__slots__  # type: ignore[attr-defined]


def _make(
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
    s: Any = object.__new__(_Blank)
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
    s.__class__ = State
    return s  # type: ignore[no-any-return]


def _tiles(mask: int) -> tuple[Tile, ...]:
    return tuple(_BY_ID[t] for t in iter_bits(mask))


_UNION: Final[dict[int, int]] = {}


def _union(nums: int) -> int:
    """Bitmask of the tiles showing any number in the bitmask ``nums`` (memoised)."""
    mask = _UNION.get(nums)
    if mask is None:
        mask = 0
        v, rest = 0, nums
        while rest:
            if rest & 1:
                mask |= WITH[v]
            rest >>= 1
            v += 1
        if len(_UNION) < 1 << 16:
            _UNION[nums] = mask
    return mask


def _blocked(hands: tuple[int, ...], mask: int) -> bool:
    """No seat holds a tile in ``mask`` (called only when the boneyard is empty)."""
    for h in hands:
        if h & mask:
            return False
    return True


_NO_LOG: Final[Any] = object()  # _settle's default: start the history at this position

_BLOCKED: Final = Outcome(Termination.BLOCKED)
# One per seat there can be: every player holds at least one tile of the largest set.
_OUT: Final = tuple(Outcome(Termination.OUT, seat) for seat in range(set_size(MAX_PIP)))


def _settle(
    rules: Rules,
    centre: int,
    board: tuple[Play, ...],
    hands: tuple[int, ...],
    bone: tuple[int, ...],
    turn: int,
    drawn: int,
    log: Any = _NO_LOG,
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
        mask = _union(nums)
    result = None
    for seat, h in enumerate(hands):
        if not h:
            result = _OUT[seat]
            break
    else:
        if drawn < 0 and not bone and _blocked(hands, mask):
            result = _BLOCKED
    return _make(
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
        log if log is not _NO_LOG else (None, turn, _DRAWS[drawn]) if drawn >= 0 else None,
    )


def _restore(
    rules: Rules,
    centre: int,
    board: tuple[Play, ...],
    hands: tuple[int, ...],
    bone: tuple[int, ...],
    turn: int,
    drawn: int,
    events: tuple[tuple[int, Move], ...],
) -> State:
    """Unpickle a :class:`State` (see ``State.__reduce__``)."""
    log: Any = None
    for seat, move in events:
        log = (log, seat, move)
    return _settle(rules, centre, board, hands, bone, turn, drawn, log)


# -- legal moves -----------------------------------------------------------------------------


def _generate(s: State) -> Sequence[Move]:
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
# ``anchors``, highest anchor first (see _generate); _TOES[hub][tiles] is each tile in the bitmask ``tiles`` as a toe of ``hub``.
# One lookup per candidate tile (per hub) instead of a loop per move makes generation about
# 30% faster. The combinations met keep growing over many rounds, so both memos are emptied
# together when they reach _MEMO_LIMIT entries (a few MB at most); frequent ones come back.
_GROUPS: Final[list[dict[int, tuple[Play, ...]]]] = [{} for _ in _BY_ID]
_TOES: Final[list[dict[int, tuple[Play, ...]]]] = [{} for _ in _BY_ID]
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


def _draw_ok(s: State) -> bool:
    """Whether ``draw`` is legal in ``s`` (agrees with :func:`_generate`)."""
    if s._outcome is not None or not s._bone:
        return False
    d = s._drawn
    if d < 0:
        return not s._hands[s.turn] & s._mask or (s.rules.may_draw_instead and bool(s.board))
    return not (1 << d) & s._mask and s.rules.draw == "until_playable"


def _pass_ok(s: State) -> bool:
    """Whether ``pass`` is legal in ``s`` (agrees with :func:`_generate`)."""
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
        return f"<LegalMoves ({', '.join(m.uci() for m in self)})>"


_new_legal = tuple.__new__


def legal_moves(state: State) -> LegalMoves:
    """The legal moves of ``state`` in the documented order (empty when the round is over).

    >>> from chickenfoot import Rules, deal
    >>> [str(m) for m in legal_moves(deal(Rules(), seed=1))]
    ['9-0@9-9', '9-3@9-9', '9-8@9-9']
    """
    try:
        return _new_legal(LegalMoves, _generate(state))
    except AttributeError:
        raise _not_a_state(state, "legal_moves") from None


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
    if not isinstance(state, State):
        raise _not_a_state(state, "is_legal")
    if isinstance(move, str):
        try:
            move = parse_move(move, max_pip=state.rules.max_pip)
        except InvalidMoveError:
            return False
    if isinstance(move, Play):
        return _play_ok(state, move)
    if move is DRAW:
        return _draw_ok(state)
    if move is PASS:
        return _pass_ok(state)
    if isinstance(move, Draw) and move.tile is not None:
        return move.tile.id in state._bone and _draw_ok(state)
    return False


def _not_a_state(value: object, where: str) -> ArgumentError:
    return ArgumentError(f"{where} needs a State, got {brief(value)}")


def _play_ok(s: State, move: Play) -> bool:
    """Whether ``move`` is legal in ``s`` (fast; agrees with :func:`_generate`)."""
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


# -- apply ------------------------------------------------------------------------------------


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
            if _play_ok(state, move):
                return _do_play(state, move)
        elif move is DRAW:
            if _draw_ok(state):
                return _do_draw(state, state._bone[0])
        elif move is PASS:
            if _pass_ok(state):
                return _do_pass(state)
        elif isinstance(move, str):
            return apply(state, parse_move(move, max_pip=state.rules.max_pip))
        elif isinstance(move, Draw):
            tile = move.tile
            if tile is not None and tile.id in state._bone and _draw_ok(state):
                return _do_draw(state, tile.id)
    except AttributeError:
        if not isinstance(state, State):
            raise _not_a_state(state, "apply") from None
        raise
    if not isinstance(state, State):
        raise _not_a_state(state, "apply")
    if type(move) not in (Play, Draw, Pass):
        raise InvalidMoveError(f"{brief(move)} is not a move (expected a Move or its notation)")
    _check_in_set(state, move)
    raise IllegalMoveError(f"{move} by seat {state.turn}: {_why_illegal(state, move)}")


def _do_play(s: State, move: Play) -> State:
    """The successor after a legal play (trusted: no checks)."""
    t, a = move._t, move._a
    rules = s.rules
    turn = s.turn
    hl = list(s._hands)
    h = hl[turn] ^ (1 << t)
    hl[turn] = h
    hands = tuple(hl)
    board = s.board + (move,)
    ends = s._ends
    pending, need, mask, nums = s._pending, s._need, s._mask, s._nums
    x, y = PIPS[t]
    if a < 0:  # the centre, in holder mode
        pending, need, mask = t, rules.opening_toes, WITH[x]
    elif pending >= 0:  # a toe on the pending hub
        o = y if x == PIPS[pending][0] else x
        e = list(ends)
        e[o] |= 1 << t
        ends = tuple(e)
        nums |= 1 << o
        need -= 1
        if not need:
            pending = -1
            mask = _UNION.get(nums) or _union(nums)
    else:  # a tile on an open end
        e = list(ends)
        if e[x] >> a & 1:
            v, o = x, y
        else:
            v, o = y, x
        ev = e[v] ^ (1 << a)
        e[v] = ev
        if not ev:
            nums ^= 1 << v
        if x == y:
            pending, need, mask = t, rules.foot_toes, WITH[x]
        else:
            e[o] |= 1 << t
            nums |= 1 << o
            if nums != s._nums:
                mask = _UNION.get(nums) or _union(nums)
        ends = tuple(e)
    if not h:
        return _make(
            rules,
            s._centre,
            board,
            hands,
            s._bone,
            turn,
            -1,
            ends,
            pending,
            need,
            mask,
            nums,
            _OUT[turn],
            (s._log, turn, move),
        )
    bone = s._bone
    nxt = turn + 1
    if nxt == len(hands):
        nxt = 0
    result = None
    if not bone and _blocked(hands, mask):
        result = _BLOCKED
    return _make(
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


def _do_draw(s: State, t: int) -> State:
    """The successor after drawing tile ``t`` from the boneyard (trusted)."""
    turn = s.turn
    hl = list(s._hands)
    hl[turn] |= 1 << t
    bone = s._bone
    bone = bone[1:] if bone[0] == t else tuple(x for x in bone if x != t)
    return _make(
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
        (s._log, turn, _DRAWS[t]),
    )


def _do_pass(s: State) -> State:
    """The successor after a pass (trusted)."""
    hands = s._hands
    nxt = s.turn + 1
    if nxt == len(hands):
        nxt = 0
    bone = s._bone
    mask = s._mask
    result = _BLOCKED if not bone and _blocked(hands, mask) else None
    return _make(
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


def _check_in_set(s: State, move: Move) -> None:
    size = s.rules.set_size
    for tile in (getattr(move, "tile", None), getattr(move, "anchor", None)):
        if tile is not None and tile.id >= size:
            raise InvalidMoveError(
                f"{brief(str(move))} names {tile}, which is not in the double-{s.rules.max_pip} set"
            )


def _why_illegal(s: State, move: Move) -> str:
    """A plain-words reason why ``move`` is illegal in ``s`` (slow path, errors only)."""
    if s._outcome is not None:
        return f"the round is over ({s._outcome})"
    seat = s.turn
    moves = _generate(s)
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
        hub = _BY_ID[pending]
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


# -- results ---------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """How the round ended (:class:`~chickenfoot.Outcome`), or ``None`` while it goes on.

    >>> from chickenfoot import Rules, deal
    >>> outcome(deal(Rules(), seed=1)) is None
    True
    """
    if not isinstance(state, State):
        raise _not_a_state(state, "outcome")
    return state._outcome


def penalties(state: State) -> tuple[int, ...]:
    """Each seat's penalty points (R11): the pips in hand, ``0-0`` counting ``double_blank``.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1)
    >>> sum(s.penalties()) == sum(t.pips for h in s.hands for t in h) + 50 * any(
    ...     t.id == 0 for h in s.hands for t in h)
    True
    """
    if not isinstance(state, State):
        raise _not_a_state(state, "penalties")
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
