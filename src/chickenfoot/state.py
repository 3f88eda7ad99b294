"""One round of Chicken Foot: the immutable :class:`State`, its legal moves and ``apply``.

This module is the public face of the rules core for one round: the terms and rules R1-R12
of the rules page (docs/rules.md), and the legal-move order and bad-input contract of
docs/formats.md. :class:`State` is defined here, with its convenience methods (documents,
views, the text picture); the representation and the transitions behind it, shared with the
modules that build or step positions fast, are the kernel, :mod:`chickenfoot._kernel`, whose
docstring is their contract. :class:`Phase`, :class:`LegalMoves`, :func:`legal_moves`,
:func:`is_legal`, :func:`apply`, :func:`outcome` and :func:`penalties` come from there and
are public here.

Representation, chosen for speed: hands are int bitmasks over tile ids, the boneyard a
tuple of tile ids, the board a tuple of interned :class:`~chickenfoot.Play` objects, and the
open ends, the pending hub and the bitmask of every tile with a legal play are kept
alongside and updated by ``apply``, so move generation is ``hand & mask`` plus one memo
lookup per candidate tile and never walks the board (docs/performance.md).

>>> from chickenfoot import Rules, deal, legal_moves, apply
>>> s = deal(Rules(), seed=7)
>>> s.phase, s.turn, s.toes_needed, str(s.pending_hub)
(<Phase.OPENING: 'opening'>, 0, 6, '9-9')
>>> s2 = apply(s, legal_moves(s)[0])
>>> s2.turn, len(s2.board), len(s.board)
(1, 2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from chickenfoot._compact import draw_state
from chickenfoot._kernel import (
    LegalMoves,
    Phase,
    apply,
    build_as,
    is_legal,
    legal_moves,
    outcome,
    penalties,
    restore,
    tiles_of,
)
from chickenfoot.errors import RulesError, SeatError, brief
from chickenfoot.formats import (
    position_from_dict,
    position_from_json,
    position_from_parts,
    position_to_dict,
    position_to_json,
)
from chickenfoot.moves import Event, Move, Play
from chickenfoot.outcome import Outcome
from chickenfoot.rules import Rounds, Rules
from chickenfoot.table import Table, table_of
from chickenfoot.tiles import BY_ID, Tile, iter_bits
from chickenfoot.view import View, view

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

        >>> from chickenfoot import Rules, deal
        >>> s = deal(Rules(players=2), seed=1)
        >>> State.from_dict(s.to_dict()) == s
        True
        >>> State.from_dict({**s.to_dict(), "turn": 2})
        Traceback (most recent call last):
        ...
        chickenfoot.errors.FormatError: turn: 2 is not a seat (0 to 1)
        """
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
        return position_from_json(text)

    def to_dict(self) -> dict[str, Any]:
        """The ``chickenfoot/position`` document (docs/formats.md, "Position").

        >>> from chickenfoot import deal, Rules
        >>> d = deal(Rules(), seed=3).to_dict()
        >>> d["format"], d["board"], d["turn"], d["drawn"]
        ('chickenfoot/position', ['9-9'], 0, None)
        """
        return position_to_dict(self)

    def to_json(self, *, indent: int | None = None) -> str:
        """The position document as JSON text."""
        return position_to_json(self, indent=indent)

    # -- views ------------------------------------------------------------------------------

    @property
    def centre(self) -> Tile:
        """The round's double (on the table, or in ``holder`` mode perhaps not yet)."""
        return BY_ID[self._centre]

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self._hands)

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's tiles, in id order."""
        return tuple(tiles_of(h) for h in self._hands)

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
        return tiles_of(self._hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds."""
        return tuple(h.bit_count() for h in self._hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The boneyard in draw order, front first."""
        return tuple(BY_ID[t] for t in self._bone)

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left to draw."""
        return len(self._bone)

    @property
    def drawn(self) -> Tile | None:
        """The tile the player to act drew this turn, if any (only it may be played)."""
        return None if self._drawn < 0 else BY_ID[self._drawn]

    @property
    def centre_laid(self) -> bool:
        """Whether the centre is on the table (always, except early in ``holder`` mode)."""
        return bool(self.board)

    @property
    def pending_hub(self) -> Tile | None:
        """The hub that still needs toes (the centre in the opening, or a foot), if any."""
        return None if self._pending < 0 else BY_ID[self._pending]

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
        :attr:`toes_needed`), so right after the deal there is none: :attr:`places` lists
        every place a tile may go, hubs included. While a hub is
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
        out = [(BY_ID[a], v) for v, mask in enumerate(self._ends) for a in iter_bits(mask)]
        out.sort(key=lambda e: e[0].id)
        return tuple(out)

    @property
    def places(self) -> tuple[tuple[Tile, int], ...]:
        """Every place a tile may be laid now, hubs included, as ``(anchor tile, number)``:
        the pending hub alone while one is pending (a toe carries its number), else
        :attr:`open_ends`; ``()`` before the centre is laid in ``holder`` mode. One call
        for a front end's glowing places (a tile ``X-number`` goes ``@anchor``).

        >>> from chickenfoot import deal, Rules
        >>> s = deal(Rules(), seed=1)
        >>> s.places, s.apply("9-3@9-9").places   # the centre takes toes until it has six
        (((Tile(9, 9), 9),), ((Tile(9, 9), 9),))
        """
        hub = self.pending_hub
        if hub is not None and self.board:
            return ((hub, hub.high),)
        return self.open_ends

    @property
    def table(self) -> Table:
        """The table as a structure: hubs, their toes and lines, how each tile lies.

        Built from :attr:`board` on each access (a few microseconds per tile); see
        :class:`~chickenfoot.Table`.

        >>> from chickenfoot import deal, Rules
        >>> t = deal(Rules(), seed=1).apply("9-3@9-9").table
        >>> t.centre, t.pending_hub.tile, t.toes_needed, [str(line) for line in t.lines]
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
        return draw_state(self, width=80)

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


build_as(State)


def _restore(*fields: Any) -> State:
    """Unpickle a :class:`State`: the stable name its pickles refer to (``__reduce__``)."""
    return restore(*fields)
