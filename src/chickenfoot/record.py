"""Records: a replayable round (the ``chickenfoot/record`` document of docs/formats.md).

A :class:`Record` is a start position and the moves played from it. Building one replays
the moves, so every record holds only legal moves; a move that cannot be played raises
:class:`RecordMoveError` (a :class:`~chickenfoot.FormatError` at path ``moves[i]``) with
the move's index, its text and the reason.

>>> from chickenfoot import Rules, deal
>>> start = deal(Rules(), seed=1)
>>> rec = Record(start, ["9-3@9-9", "draw", "pass"])
>>> rec.final().turn, len(rec.states())
(2, 4)
>>> Record.from_json(rec.to_json()) == rec
True
>>> Record(start, ["9-3@9-9", "9-3@9-9"])
Traceback (most recent call last):
...
chickenfoot.record.RecordMoveError: moves[1]: '9-3@9-9' cannot be played: 9-3@9-9 by seat 1: ...
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import attrs

from chickenfoot._checks import indent as check_indent
from chickenfoot._kernel import is_state, replay, states_of
from chickenfoot.errors import ChickenFootError, FormatError, brief
from chickenfoot.formats import VERSION, check_header, loads, position_from_dict
from chickenfoot.moves import Move, parse_move

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = ["RECORD_FORMAT", "Record", "RecordMoveError"]

RECORD_FORMAT: Final = "chickenfoot/record"
_RECORD_KEYS: Final = ("format", "version", "start", "moves")


class RecordMoveError(FormatError):
    """A move of a record that cannot be read or played, at path ``moves[i]``.

    ``index`` is ``i``, ``text`` the move as written (a string, or the ``repr`` of anything
    else), ``reason`` why it fails and ``error`` the underlying
    :class:`~chickenfoot.IllegalMoveError` or :class:`~chickenfoot.InvalidMoveError`
    (``None`` when the entry is not a move at all).

    >>> err = RecordMoveError(4, "pass", "seat 2 can play, so may not pass")
    >>> err.path, err.index, err.text, str(err)
    ('moves[4]', 4, 'pass', "moves[4]: 'pass' cannot be played: seat 2 can play, so may not pass")
    """

    def __init__(
        self, index: int, text: str, reason: str, error: ChickenFootError | None = None
    ) -> None:
        super().__init__(f"moves[{index}]", f"{brief(text)} cannot be played: {reason}")
        self.index = index
        self.text = text
        self.reason = reason
        self.error = error

    def __reduce__(self) -> tuple[Any, ...]:
        return (RecordMoveError, (self.index, self.text, self.reason, self.error))


@attrs.frozen(init=False, repr=False)
class Record:
    """A start position and the legal moves played from it, in order; immutable.

    ``Record(start, moves)`` takes :class:`~chickenfoot.Move` objects or their notation and
    replays them (raising :class:`RecordMoveError` at the first one that fails). Records are
    equal when their start positions and moves are; ``moves`` holds :class:`Move` objects,
    written back in canonical notation (``4-9@9-9`` is saved as ``9-4@9-9``, ``draw:5-3``
    stays ``draw:5-3``).

    >>> from chickenfoot import Rules, deal
    >>> rec = Record(deal(Rules(), seed=1), ["3-9@9-9"])
    >>> [str(m) for m in rec.moves], rec.final().turn
    (['9-3@9-9'], 1)
    """

    start: State
    moves: tuple[Move, ...]
    _states: tuple[State, ...] | None = attrs.field(eq=False)
    """Every position, built on the first call of :meth:`states` (``None`` until then)."""
    _final: State = attrs.field(eq=False)

    def __init__(self, start: State, moves: Iterable[Move | str] = ()) -> None:
        if not is_state(start):
            raise FormatError("start", f"expected a State, got {brief(start)}")
        if isinstance(moves, str):
            raise FormatError(
                "moves", f"expected a sequence of moves, got the string {brief(moves)}"
            )
        if not isinstance(moves, Iterable):
            raise FormatError("moves", f"expected a sequence of moves, got {brief(moves)}")
        # The kernel's replay checks every move as ``apply`` does and builds only the last
        # position; at the first move it does not accept, the move-by-move loop below
        # says why (the same error, at the same index, as it always has).
        raws: list[object] = list(moves)
        parsed: list[Move] = []
        max_pip = start.rules.max_pip
        for raw in raws:
            if isinstance(raw, Move):
                parsed.append(raw)
                continue
            if not isinstance(raw, str):
                break
            move = _PARSED.get((raw, max_pip))
            if move is None:
                try:
                    move = _parse(len(parsed), raw, max_pip)[0]
                except RecordMoveError:
                    break
            parsed.append(move)
        if len(parsed) == len(raws):
            final, done = replay(start, parsed)
            if done == len(parsed):
                self.__attrs_init__(start, tuple(parsed), None, final)
                return
        self._replay_checked(start, raws)

    def _replay_checked(self, start: State, raws: list[object]) -> None:
        states = [start]
        parsed: list[Move] = []
        state = start
        max_pip = start.rules.max_pip
        for i, raw in enumerate(raws):
            move, text = _parse(i, raw, max_pip)
            try:
                state = state.apply(move)
            except ChickenFootError as err:
                raise RecordMoveError(i, text, str(err), err) from None
            parsed.append(move)
            states.append(state)
        self.__attrs_init__(start, tuple(parsed), tuple(states), state)

    def states(self) -> tuple[State, ...]:
        """Every position of the record: the start, then the one after each move.

        >>> from chickenfoot import Rules, deal
        >>> s = deal(Rules(), seed=1)
        >>> Record(s, ["9-0@9-9"]).states()[0] is s
        True
        """
        states = self._states
        if states is None:  # built once, from moves the constructor checked
            states = (*states_of(self.start, self.moves)[:-1], self._final)
            object.__setattr__(self, "_states", states)
        return states

    def final(self) -> State:
        """The position after the last move (the start, for a record with no moves)."""
        return self._final

    def apply(self, move: Move | str) -> Record:
        """This record with ``move`` played after its last move (the record is unchanged).

        Errors as for :class:`Record` (``moves[i]`` with ``i`` the new move's index).

        >>> from chickenfoot import Rules, deal
        >>> rec = Record(deal(Rules(), seed=1)).apply("9-0@9-9").apply("draw")
        >>> [str(m) for m in rec.moves], str(rec.final().drawn)
        (['9-0@9-9', 'draw'], '6-3')
        """
        index = len(self.moves)
        move, text = _parse(index, move, self.start.rules.max_pip)
        try:
            state = self.final().apply(move)
        except ChickenFootError as err:
            raise RecordMoveError(index, text, str(err), err) from None
        rec = object.__new__(Record)
        object.__setattr__(rec, "start", self.start)
        object.__setattr__(rec, "moves", (*self.moves, move))
        states = self._states
        object.__setattr__(rec, "_states", None if states is None else (*states, state))
        object.__setattr__(rec, "_final", state)
        return rec

    # -- JSON -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The ``chickenfoot/record`` document (docs/formats.md, "Record").

        >>> from chickenfoot import Rules, deal
        >>> d = Record(deal(Rules(), seed=1), ["9-8@9-9"]).to_dict()
        >>> d["format"], d["version"], d["moves"], d["start"]["board"]
        ('chickenfoot/record', 1, ['9-8@9-9'], ['9-9'])
        """
        return {
            "format": RECORD_FORMAT,
            "version": VERSION,
            "start": self.start.to_dict(),
            "moves": [str(m) for m in self.moves],
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The record document as JSON text."""
        return json.dumps(self.to_dict(), indent=check_indent(indent))

    @classmethod
    def from_dict(cls, obj: Any) -> Record:
        """Read a ``chickenfoot/record`` document, replaying every move.

        Errors are :class:`~chickenfoot.FormatError` naming the path of the bad part; a
        move that cannot be read or played gives a :class:`RecordMoveError` at ``moves[i]``.

        >>> from chickenfoot import Rules, deal
        >>> d = Record(deal(Rules(), seed=1)).to_dict()
        >>> try:
        ...     Record.from_dict({**d, "moves": ["9-8@9-9", "pass"]})
        ... except RecordMoveError as err:
        ...     print(err.path, err.index, err.text, type(err.error).__name__)
        moves[1] 1 pass IllegalMoveError
        """
        doc = check_header(obj, RECORD_FORMAT, _RECORD_KEYS)
        start = position_from_dict(doc["start"], "start")
        moves = doc["moves"]
        if not isinstance(moves, list):
            raise FormatError("moves", f"expected an array of moves, got {brief(moves)}")
        for i, text in enumerate(moves):
            if not isinstance(text, str):
                raise RecordMoveError(i, brief(text), _NOT_A_MOVE)
        return cls(start, moves)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a record document from JSON text."""
        return cls.from_dict(loads(text))

    def __repr__(self) -> str:
        return f"<Record moves=[{' '.join(str(m) for m in self.moves)}] final={self.final()!r}>"


def checked_record(start: State, moves: tuple[Move, ...], final: State) -> Record:
    """The record of ``moves`` from ``start``, already replayed against the rules by a
    caller that reached ``final`` (the notation's compiled reader): nothing is checked
    again. Internal (not in ``__all__``); a record built otherwise is replayed."""
    rec = object.__new__(Record)
    rec.__attrs_init__(start, moves, None, final)
    return rec


_NOT_A_MOVE: Final = "expected a move such as '9-4@9-9', 'draw' or 'pass'"


_PARSED: dict[tuple[str, int], Move] = {}
"""Move texts read before, by ``(text, max_pip)``: moves are interned values (bounded)."""


def _parse(index: int, raw: object, max_pip: int) -> tuple[Move, str]:
    """The move ``raw`` (a Move or its notation) and its text, or a RecordMoveError."""
    if isinstance(raw, Move):
        return raw, str(raw)
    if not isinstance(raw, str):
        raise RecordMoveError(index, brief(raw), _NOT_A_MOVE)
    try:
        move = parse_move(raw, max_pip=max_pip)
    except ChickenFootError as err:
        raise RecordMoveError(index, raw, str(err), err) from None
    if len(_PARSED) >= 1 << 14:
        _PARSED.clear()
    _PARSED[raw, max_pip] = move
    return move, raw
