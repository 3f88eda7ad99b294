"""The values of the notation (docs/notation.md): audiences, move nodes, games, errors.

A :class:`Game` is one round as a notation file holds it: its headers in order, the moves
of the main line as :class:`Node` values (each with its glyphs, comments and variations),
and what reading it gave: a :class:`~chickenfoot.Record` for a ``full`` copy, and the
errors a tolerant reader collected.

>>> n = Node(0, "9-4@9-9", glyphs=("!",), comments=("the only 4",))
>>> n.seat, n.move, n.glyphs, n.comments
(0, '9-4@9-9', ('!',), ('the only 4',))
>>> Audience.parse("seat 2"), str(Audience.parse("seat:2")), Audience.parse("spectator").seat
(Audience(kind='seat', seat=2), 'seat 2', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from chickenfoot.errors import FormatError, brief

if TYPE_CHECKING:
    from chickenfoot.record import Record
    from chickenfoot.view import View

__all__ = ["GLYPHS", "NOTATION_VERSION", "Audience", "Game", "Node", "NotationError"]

NOTATION_VERSION: Final = 1
"""The version of the notation this library reads and writes (the ``Notation`` header)."""

GLYPHS: Final = ("!", "?", "!!", "??", "!?", "?!")
"""The move glyphs: good, mistake, brilliant, blunder, interesting, dubious."""


class NotationError(FormatError):
    """A notation text that is malformed, or a move in it that cannot be played.

    ``line`` and ``column`` (both from 1) say where; ``path`` is ``"line L, column C"``.

    >>> err = NotationError(3, 14, "unknown header 'Colour'")
    >>> err.line, err.column, str(err)
    (3, 14, "line 3, column 14: unknown header 'Colour'")
    """

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}", message)
        self.line = line
        self.column = column

    def __reduce__(self) -> tuple[Any, ...]:
        return (NotationError, (self.line, self.column, self.reason))


@attrs.frozen
class Audience:
    """Who a copy is for: ``full`` (every hand), ``seat K`` (what seat K saw), ``spectator``.

    >>> Audience.FULL.kind, Audience.seat_of(1), Audience.parse("full") is Audience.FULL
    ('full', Audience(kind='seat', seat=1), True)
    >>> Audience.parse("seat 9x")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.FormatError: audience: 'seat 9x' is not 'full', 'spectator' or 'seat K'
    """

    kind: str
    seat: int | None = None

    FULL: ClassVar[Audience]
    SPECTATOR: ClassVar[Audience]

    @classmethod
    def seat_of(cls, seat: int) -> Audience:
        """The audience of seat ``seat``."""
        if type(seat) is not int or not 0 <= seat < 1000:
            raise FormatError("audience", f"{brief(seat)} is not a seat number")
        return cls("seat", seat)

    @classmethod
    def parse(cls, text: str) -> Audience:
        """``full``, ``spectator``, ``seat K`` or ``seat:K``."""
        if text == "full":
            return cls.FULL
        if text == "spectator":
            return cls.SPECTATOR
        if isinstance(text, str) and text[:5] in ("seat ", "seat:"):
            digits = text[5:]
            if digits.isascii() and digits.isdigit() and len(digits) <= 3:
                return cls.seat_of(int(digits))
        raise FormatError("audience", f"{brief(text)} is not 'full', 'spectator' or 'seat K'")

    def sees(self, seat: int) -> bool:
        """Whether this audience sees the hand and the draws of ``seat``."""
        return self.kind == "full" or self.seat == seat

    def __str__(self) -> str:
        return self.kind if self.seat is None else f"seat {self.seat}"


Audience.FULL = Audience("full")
Audience.SPECTATOR = Audience("spectator")


@attrs.frozen
class Node:
    """One move as written: the seat that made it, its text, glyphs, comments and variations.

    ``move`` is the move notation (``9-4@9-9``, ``draw``, ``draw:5-3``, ``pass``) or a
    draw whose tile the audience may not see, ``draw:??``. ``variations`` are other lines
    played instead of this move, each a tuple of nodes.

    >>> Node(1, "draw:??").hidden, Node(1, "draw:5-3").hidden
    (True, False)
    """

    seat: int
    move: str
    glyphs: tuple[str, ...] = attrs.field(default=(), kw_only=True)
    comments: tuple[str, ...] = attrs.field(default=(), kw_only=True)
    variations: tuple[tuple[Node, ...], ...] = attrs.field(default=(), kw_only=True)

    @property
    def hidden(self) -> bool:
        """Whether the move is a draw whose tile is not written (``draw:??``)."""
        return self.move == "draw:??"


@attrs.frozen
class Game:
    """One round read from (or for) a notation file.

    ``headers`` keeps the header lines in order, as ``(name, value)`` pairs; ``moves`` the
    main line; ``comment`` the comments before the first move; ``record`` the replayed
    round for a ``full`` copy (``None`` for other audiences, or when the start could not be
    read); ``view`` the :class:`~chickenfoot.View` at the end of a seat's copy of a round
    from its deal (what the seat saw, ready for an agent); ``errors`` what a tolerant
    reader found (empty for a good game).

    >>> g = Game((("Notation", "1"), ("Event", "club")), ())
    >>> g.header("Event"), g.header("Site"), dict(g.headers)["Notation"]
    ('club', None, '1')
    """

    headers: tuple[tuple[str, str], ...]
    moves: tuple[Node, ...]
    comment: tuple[str, ...] = attrs.field(default=(), kw_only=True)
    record: Record | None = attrs.field(default=None, kw_only=True, eq=False)
    view: View | None = attrs.field(default=None, kw_only=True, eq=False)
    errors: tuple[NotationError, ...] = attrs.field(default=(), kw_only=True, eq=False)

    def header(self, name: str) -> str | None:
        """The value of header ``name``, or ``None`` when the game has none."""
        for key, value in self.headers:
            if key == name:
                return value
        return None

    @property
    def header_map(self) -> Mapping[str, str]:
        """The headers as a mapping (names are unique in a game that reads)."""
        return dict(self.headers)

    @property
    def audience(self) -> Audience:
        """The audience the copy was written for (``full`` when no header says)."""
        text = self.header("Audience")
        try:
            return Audience.FULL if text is None else Audience.parse(text)
        except FormatError:
            return Audience.FULL
