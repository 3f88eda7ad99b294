"""What one player may know: :class:`View`, built by :func:`view` or :meth:`State.view`.

A view holds exactly what a seat sees at the table: its own hand, the board, how many tiles
every hand and the boneyard hold, whose turn it is, the tile it drew this turn, the rules,
whether the round is over, and the public history of the round (each play, draw and pass
with its seat, in order). Another seat's draw shows that a tile was drawn, not which.

>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw")
>>> v = s.view(0)
>>> [str(t) for t in v.hand][:4], v.hand_sizes, v.boneyard_size
(['2-1', '4-1', '4-2', '4-4'], (10, 12, 11, 11), 9)
>>> [str(e) for e in v.history]                      # seat 1's draw shows no tile
['0:9-3@9-9', '1:draw']
>>> [str(e) for e in s.view(1).history]              # ...except to seat 1
['0:9-3@9-9', '1:draw:6-3']
>>> View.from_json(v.to_json()) == v
True

Legal moves follow from a view for the seat to act, exactly as from the state; for any
other seat there are none. :meth:`View.sample` deals the unseen tiles into a full
:class:`~chickenfoot.State` that agrees with everything the view shows (docs: Hidden
information).
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, Final

import attrs

from chickenfoot._checks import indent as check_indent
from chickenfoot._checks import random_generator
from chickenfoot._compact import draw_view
from chickenfoot._kernel import LegalMoves, Phase, generate, is_state, make, new_legal, settle
from chickenfoot._view_reader import VIEW_FORMAT, read_view
from chickenfoot.errors import ArgumentError, FormatError, SeatError, brief
from chickenfoot.formats import VERSION, loads
from chickenfoot.moves import DRAW, Draw, Event, Play
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.sampling import check_history, sample_record, sample_state
from chickenfoot.table import Table
from chickenfoot.tiles import BY_ID, Tile, iter_bits

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = ["VIEW_FORMAT", "View", "view"]

_NO_MOVES: Final = LegalMoves()


@attrs.frozen(repr=False, weakref_slot=False)
class View:
    """One seat's knowledge of a round: immutable, hashable, comparable.

    Two states that differ only in what ``seat`` cannot see (the other hands, the boneyard
    and its order, which tiles the others drew) give equal views.

    >>> from chickenfoot import Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> v.seat, v.turn, v.phase, [str(m) for m in v.legal_moves]
    (0, 0, <Phase.OPENING: 'opening'>, ['9-2@9-9', '9-7@9-9'])
    >>> deal(Rules(), seed=2).view(1).legal_moves       # not seat 1's turn
    <LegalMoves ()>
    """

    rules: Rules
    seat: int
    """The seat whose view this is."""
    centre: Tile
    """The round's double."""
    board: tuple[Play, ...]
    """The placements in the order played, as :attr:`State.board <chickenfoot.State.board>`."""
    hand: tuple[Tile, ...]
    """This seat's tiles, in id order."""
    hand_sizes: tuple[int, ...]
    """How many tiles each seat holds."""
    boneyard_size: int
    """How many tiles are left to draw."""
    turn: int
    """The seat to act."""
    drawn: Tile | None
    """The tile this seat drew this turn (only when it is this seat's turn), else ``None``."""
    history: tuple[Event, ...]
    """The round's moves with their seats; only this seat's own draws name their tile."""
    _outcome: Outcome | None
    _table: State = attrs.field(eq=False)
    _cache: dict[str, Any] = attrs.field(eq=False, factory=dict)

    # -- what the table shows ---------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hand_sizes)

    @property
    def phase(self) -> Phase:
        """The :class:`~chickenfoot.Phase` of the round."""
        return self._table.phase

    @property
    def pending_hub(self) -> Tile | None:
        """The hub that still needs toes, if any."""
        return self._table.pending_hub

    @property
    def toes_needed(self) -> int:
        """How many toes the pending hub still needs (0 when none is pending)."""
        return self._table.toes_needed

    @property
    def table(self) -> Table:
        """The table as a structure (:class:`~chickenfoot.Table`): it is public, so a view
        has all of it."""
        return self._table.table

    @property
    def open_ends(self) -> tuple[tuple[Tile, int], ...]:
        """Every open end as ``(anchor tile, number)``, by anchor id."""
        return self._table.open_ends

    @property
    def places(self) -> tuple[tuple[Tile, int], ...]:
        """Every place a tile may be laid now, hubs included, as ``(anchor tile, number)``
        (as :attr:`State.places <chickenfoot.State.places>`)."""
        hub = self.pending_hub
        if hub is not None and self.board:
            return ((hub, hub.high),)
        return self.open_ends

    @property
    def centre_laid(self) -> bool:
        """Whether the centre is on the table."""
        return bool(self.board)

    @property
    def has_drawn(self) -> bool:
        """Whether the seat to act has drawn this turn (any seat's draw is public)."""
        if self._outcome is not None or not self.history:
            return False
        last = self.history[-1]
        return last.seat == self.turn and isinstance(last.move, Draw)

    @property
    def unseen(self) -> tuple[Tile, ...]:
        """The tiles this seat cannot see: in the other hands or the boneyard, by id."""
        seen = self._table._hands[self.seat]
        for m in self.board:
            seen |= 1 << m._t
        size = self.rules.set_size
        return tuple(BY_ID[t] for t in range(size) if not seen >> t & 1)

    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the round ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def penalty(self) -> int:
        """This seat's penalty points now (the pips in hand, ``0-0`` at ``double_blank``)."""
        return self._table.penalties()[self.seat]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves when it is this seat's turn (as the state gives them), else none."""
        if self.turn != self.seat:
            return _NO_MOVES
        return new_legal(LegalMoves, generate(self._table))

    # -- determinization --------------------------------------------------------------------

    def sample(self, rng: random.Random | None = None) -> State:
        """A full state that this view could have come from, drawn at random.

        The unseen tiles are dealt to the other hands and the boneyard (in a random order)
        in the right numbers, consistent with everything the history proves: a seat that
        drew or passed held no tile that was playable then, a drawn tile that was passed
        under ``drawn_tile="must_play"`` was not playable, and so on. The sample's history
        names every draw, and its view for this seat equals this view.

        >>> import random
        >>> from chickenfoot import Rules, deal
        >>> v = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").view(2)
        >>> s = v.sample(random.Random(0))
        >>> s.view(2) == v, s.hand(2) == v.hand, s.hand_sizes == v.hand_sizes
        (True, True, True)
        """
        return sample_state(self, random.Random() if rng is None else random_generator(rng))

    def sample_record(self, rng: random.Random | None = None) -> Record:
        """Like :meth:`sample`, with the whole hidden history: the start and every move.

        The record starts where the history starts (the deal, for a state dealt and
        played), and replaying it with the rules' checks gives the sampled state: the proof
        that the sample contradicts nothing. Same ``rng`` state, same sample as
        :meth:`sample`.

        >>> import random
        >>> from chickenfoot import Rules, deal
        >>> v = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").view(0)
        >>> rec = v.sample_record(random.Random(4))
        >>> [str(m) for m in rec.moves][:1], rec.final() == v.sample(random.Random(4))
        (['9-3@9-9'], True)
        """
        return sample_record(self, random.Random() if rng is None else random_generator(rng))

    # -- documents --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The ``chickenfoot/view`` document (docs: Formats).

        >>> from chickenfoot import Rules, deal
        >>> d = deal(Rules(), seed=1).apply("9-3@9-9").view(1).to_dict()
        >>> d["format"], d["seat"], d["hand_sizes"], d["history"], d["outcome"]
        ('chickenfoot/view', 1, [10, 11, 11, 11], [[0, '9-3@9-9']], None)
        """
        outcome = self._outcome
        return {
            "format": VIEW_FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "centre": str(self.centre),
            "board": [m.notation() for m in self.board],
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard_size": self.boneyard_size,
            "turn": self.turn,
            "drawn": None if self.drawn is None else str(self.drawn),
            "history": [[e.seat, e.move.notation()] for e in self.history],
            "outcome": None if outcome is None else outcome.to_dict(),
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The view document as JSON text."""
        return json.dumps(self.to_dict(), indent=check_indent(indent))

    @classmethod
    def from_dict(cls, obj: Any) -> View:
        """Read a ``chickenfoot/view`` document, checking that it could be a real view.

        Raises :class:`~chickenfoot.FormatError` naming the bad part: sizes that do not
        add up, a tile both in hand and on the table, a history that the board, the sizes
        or the turn contradict, or one that no deal of the unseen tiles could produce.
        """
        return view_from_dict(obj)

    @classmethod
    def from_json(cls, text: str | bytes) -> View:
        """Read a view document from JSON text."""
        return cls.from_dict(loads(text))

    def __str__(self) -> str:
        """The compact text picture of what this seat sees (its own hand, the others as
        counts), as :func:`~chickenfoot.render_compact` draws it.

        >>> from chickenfoot import Rules, deal
        >>> print(deal(Rules(players=3), seed=2).apply("9-1@9-9").view(1))
        centre 9-9  (1/6 toes, needs 5 more toes)
          └ 9|1* → 1
        seat 1 to play · boneyard 12
          seat 0: 13 tiles
        > seat 1: 2-1 3-0 3-1 5-5 6-0 6-4 7-2 7-4 7-7 8-2 8-5 9-4 9-5 9-8
                  (14 tiles, 137 points)
          seat 2: 14 tiles
        """
        return draw_view(self, width=80)

    def __repr__(self) -> str:
        return (
            f"<View seat={self.seat} turn={self.turn} phase={self.phase.value} "
            f"hand=[{' '.join(map(str, self.hand))}] hands={list(self.hand_sizes)} "
            f"boneyard={self.boneyard_size}>"
        )


def view(state: State, seat: int) -> View:
    """What ``seat`` may know of ``state``; see :class:`View`.

    >>> from chickenfoot import Rules, deal
    >>> view(deal(Rules(), seed=1), 5)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.SeatError: seat 5 is not a seat of this round (0 to 3)
    """
    if not is_state(state):
        raise ArgumentError(f"view needs a State, got {brief(state)}")
    players = len(state._hands)
    if type(seat) is not int or not 0 <= seat < players:
        raise SeatError(f"seat {brief(seat)} is not a seat of this round (0 to {players - 1})")
    hand = state._hands[seat]
    events: list[Event] = []
    log = state._log
    while log is not None:
        log, who, move = log
        if who != seat and isinstance(move, Draw):
            move = DRAW
        events.append(Event(who, move))
    events.reverse()
    drawn = state.drawn if state.turn == seat else None
    hands = tuple(hand if i == seat else 0 for i in range(players))
    table = make(
        state.rules,
        state._centre,
        state.board,
        hands,
        (0,) * len(state._bone),
        state.turn,
        state._drawn if drawn is not None else -1,
        state._ends,
        state._pending,
        state._need,
        state._mask,
        state._nums,
        state._outcome,
        None,
    )
    return View(
        state.rules,
        seat,
        state.centre,
        state.board,
        tuple(BY_ID[t] for t in iter_bits(hand)),
        state.hand_sizes,
        len(state._bone),
        state.turn,
        drawn,
        tuple(events),
        state._outcome,
        table,
    )


def _public_table(
    rules: Rules,
    centre: int,
    board: tuple[Play, ...],
    seat: int,
    hand: int,
    boneyard_size: int,
    turn: int,
    drawn: int,
    outcome: Outcome | None,
) -> State:
    """The table of a view as an internal state (the other hands empty, a blank boneyard)."""
    hands = tuple(hand if i == seat else 0 for i in range(rules.players))
    s = settle(rules, centre, board, hands, (0,) * boneyard_size, turn, drawn, None)
    return make(
        rules,
        centre,
        board,
        hands,
        s._bone,
        turn,
        drawn,
        s._ends,
        s._pending,
        s._need,
        s._mask,
        s._nums,
        outcome,
        None,
    )


def view_from_dict(obj: Any) -> View:
    """Read and check a ``chickenfoot/view`` document; see :meth:`View.from_dict`."""
    rules, seat, centre, board, hand, sizes, bone, turn, drawn, events, outcome = read_view(obj)
    table = _public_table(rules, centre.id, board, seat, hand, bone, turn, drawn, outcome)
    v = View(
        rules,
        seat,
        centre,
        board,
        tuple(BY_ID[t] for t in iter_bits(hand)),
        sizes,
        bone,
        turn,
        None if drawn < 0 else BY_ID[drawn],
        tuple(events),
        outcome,
        table,
    )
    if outcome is not None and outcome.termination is Termination.BLOCKED and table._drawn >= 0:
        raise FormatError("drawn", "a blocked round has no drawn tile")
    check_history(v)
    return v
