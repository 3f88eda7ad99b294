"""Visitors of the notation's parser: the base :class:`Visitor`, :class:`GameBuilder` and
:class:`HeadersBuilder` (python-chess's ``BaseVisitor``, ``GameBuilder``, ``HeadersBuilder``).

A visitor receives ``begin_game``, each header, ``end_headers`` (return ``False`` to skip
the moves unread), then each seat number, move, glyph, comment and variation, and
``end_game``; :meth:`Visitor.result` gives what it built. Errors reach
:meth:`Visitor.handle_error`, which raises in the base class.

>>> import io
>>> from chickenfoot.notation import visit_game
>>> class Moves(Visitor[list]):
...     def begin_game(self): self.moves = []
...     def visit_move(self, text, line, column): self.moves.append(text)
...     def result(self): return self.moves
>>> visit_game(io.StringIO('[Notation "1"]\\n\\n0. 9-3@9-9 1. draw:?? *\\n'), Moves())
['9-3@9-9', 'draw:??']
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

from chickenfoot.notation._model import Game, Node, NotationError
from chickenfoot.notation._replay import replay
from chickenfoot.record import Record
from chickenfoot.view import View

__all__ = ["MAX_ERRORS", "MAX_NODES", "GameBuilder", "HeadersBuilder", "Visitor"]

T = TypeVar("T")

MAX_ERRORS: Final = 100
"""A game keeps at most this many errors (then one saying that more follow)."""
MAX_NODES: Final = 100_000
"""A game holds at most this many moves, variations included (a round of the largest
table has a few thousand); the moves after are an error, read but not kept."""


class Visitor(Generic[T]):
    """The parser's callbacks; every one does nothing by default (``line``/``column``
    say where, from 1)."""

    def begin_game(self) -> None:
        """A game starts."""

    def visit_header(self, name: str, value: str, line: int) -> None:
        """A header (names are checked known and unique before they reach a visitor)."""

    def end_headers(self) -> bool:
        """The headers are read: return ``False`` to skip the moves unread."""
        return True

    def visit_seat(self, seat: int, line: int, column: int) -> None:
        """A seat number ``K.`` before a move."""

    def visit_move(self, text: str, line: int, column: int) -> None:
        """A move as written (``9-4@9-9``, ``draw:??``...), not yet checked."""

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        """A glyph (``!``, ``??``...) after a move."""

    def visit_comment(self, text: str, line: int, column: int) -> None:
        """A comment, without its braces and outer spaces."""

    def begin_variation(self, line: int, column: int) -> None:
        """``(``: another line, instead of the last move."""

    def end_variation(self) -> None:
        """``)``."""

    def handle_error(self, error: NotationError) -> None:
        """A problem in the text; raises it (override to collect)."""
        raise error

    def end_game(self) -> None:
        """The game's terminator ``*`` (or the end of the file) is reached."""

    def result(self) -> T:
        """What the visitor built."""
        raise NotImplementedError


class HeadersBuilder(Visitor[tuple[tuple[str, str], ...]]):
    """The headers of a game, in order; its moves are skipped unread; errors collected."""

    def begin_game(self) -> None:
        self.headers: list[tuple[str, str]] = []

    def visit_header(self, name: str, value: str, line: int) -> None:
        self.headers.append((name, value))

    def end_headers(self) -> bool:
        return False

    def handle_error(self, error: NotationError) -> None:
        pass

    def result(self) -> tuple[tuple[str, str], ...]:
        return tuple(self.headers)


class _Open:
    """A node being built (mutable until the game ends)."""

    __slots__ = ("at", "comments", "glyphs", "move", "seat", "variations")

    def __init__(self, seat: int | None, move: str, at: tuple[int, int]) -> None:
        self.seat = seat
        self.move = move
        self.at = at
        self.glyphs: list[str] = []
        self.comments: list[str] = []
        self.variations: list[list[_Open]] = []


class GameBuilder(Visitor[Game]):
    """Builds a :class:`Game` and replays it (``strict``: the first error raises). A
    game with a ``DealSeed`` has its deal rebuilt and its commitment checked; with
    ``seeds``, one with only a match's ``Seed`` has its deal rebuilt too (as
    ``chickenfoot verify`` does; docs/notation.md, "Checking a deal")."""

    def __init__(self, *, strict: bool = False, seeds: bool = False) -> None:
        self.strict = strict
        self.seeds = seeds

    def begin_game(self) -> None:
        self.headers: list[tuple[str, str]] = []
        self.header_lines: dict[str, int] = {}
        self.main: list[_Open] = []
        self.stack: list[list[_Open]] = [self.main]
        self.comment: list[str] = []
        self.errors: list[NotationError] = []
        self.seat: int | None = None
        self.nodes = 0
        self.game: Game | None = None

    def visit_header(self, name: str, value: str, line: int) -> None:
        self.headers.append((name, value))
        self.header_lines[name] = line

    def visit_seat(self, seat: int, line: int, column: int) -> None:
        if self.seat is not None:
            self.handle_error(NotationError(line, column, "a seat number follows a seat number"))
        self.seat = seat

    def visit_move(self, text: str, line: int, column: int) -> None:
        seat, self.seat = self.seat, None
        self.nodes += 1
        if self.nodes > MAX_NODES:
            if self.nodes == MAX_NODES + 1:
                self.handle_error(NotationError(line, column, f"more than {MAX_NODES:,} moves"))
            return
        self.stack[-1].append(_Open(seat, text, (line, column)))

    def _last(self, what: str, line: int, column: int) -> _Open | None:
        if self.seat is not None:
            self.handle_error(
                NotationError(line, column, f"a seat number with no move before this {what}")
            )
            self.seat = None
        here = self.stack[-1]
        return here[-1] if here else None

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        node = self._last("glyph", line, column)
        if node is None:
            self.handle_error(NotationError(line, column, f"the glyph {glyph!r} follows no move"))
        else:
            node.glyphs.append(glyph)

    def visit_comment(self, text: str, line: int, column: int) -> None:
        node = self._last("comment", line, column)
        if node is not None:
            node.comments.append(text)
        elif len(self.stack) == 1:
            self.comment.append(text)
        else:
            self.handle_error(
                NotationError(line, column, "a comment before a variation's first move")
            )

    def begin_variation(self, line: int, column: int) -> None:
        node = self._last("variation", line, column)
        if node is None:
            self.handle_error(NotationError(line, column, "a variation follows no move"))
            node = _Open(None, "", (line, column))  # a sink, dropped at the end
        line_of: list[_Open] = []
        node.variations.append(line_of)
        self.stack.append(line_of)

    def end_variation(self) -> None:
        if self.seat is not None:
            self.seat = None
        if len(self.stack) > 1:
            self.stack.pop()

    def handle_error(self, error: NotationError) -> None:
        if self.strict:
            raise error
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(error)
        elif len(self.errors) == MAX_ERRORS:
            self.errors.append(NotationError(error.line, error.column, "more problems, not listed"))

    def end_game(self) -> None:
        read = replay(
            self.headers, self.header_lines, self.main, self.handle_error, seeds=self.seeds
        )
        self.game = Game(
            tuple(self.headers),
            _freeze(self.main),
            comment=tuple(self.comment),
            record=read if isinstance(read, Record) else None,
            view=read if isinstance(read, View) else None,
            errors=tuple(self.errors),
        )

    def result(self) -> Game:
        assert self.game is not None
        return self.game


def _freeze(nodes: list[_Open]) -> tuple[Node, ...]:
    return tuple(
        Node(
            -1 if n.seat is None else n.seat,
            n.move,
            glyphs=tuple(n.glyphs),
            comments=tuple(n.comments),
            variations=tuple(_freeze(v) for v in n.variations),
        )
        for n in nodes
    )
