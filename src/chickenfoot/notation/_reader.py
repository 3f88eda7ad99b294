"""Reading the notation one game at a time, in constant memory (docs/notation.md).

The parser drives a :class:`~chickenfoot.notation.Visitor`; :func:`read_game` builds a
:class:`~chickenfoot.notation.Game`, :func:`read_headers` skims the headers and skips the
moves without replaying them, :func:`scan_offsets` lists where each game starts so that a
reader can ``seek`` to game N. Handles may be text or binary (bytes are read as UTF-8;
a line that is not is an error at its line and column). Lines longer than
:data:`MAX_LINE`, comments longer than :data:`MAX_COMMENT` and variations nested deeper
than :data:`MAX_DEPTH` are errors found in bounded memory.

>>> import io
>>> text = '[Notation "1"]\\n[Event "a"]\\n\\n*\\n\\n[Notation "1"]\\n[Event "b"]\\n\\n*\\n'
>>> list(scan_offsets(io.BytesIO(text.encode())))
[0, 31]
>>> handle = io.StringIO(text)
>>> read_headers(handle), read_headers(handle), read_headers(handle)
((('Notation', '1'), ('Event', 'a')), (('Notation', '1'), ('Event', 'b')), None)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any, Final, TypeVar

from chickenfoot.notation._fast import read_plain, skim_plain
from chickenfoot.notation._headers import is_known, unescape
from chickenfoot.notation._lines import CHUNK, MAX_LINE, Lines, lines_of
from chickenfoot.notation._model import GLYPHS, Game, NotationError
from chickenfoot.notation._visitor import GameBuilder, HeadersBuilder, Visitor

__all__ = [
    "MAX_COMMENT",
    "MAX_DEPTH",
    "MAX_LINE",
    "iter_games",
    "read_game",
    "read_headers",
    "scan_offsets",
    "skip_game",
    "visit_game",
]

T = TypeVar("T")

MAX_COMMENT: Final = 100_000
"""The longest comment (characters)."""
MAX_DEPTH: Final = 100
"""The deepest nesting of variations."""

_HEADER: Final = re.compile(r'\[([A-Za-z][A-Za-z0-9_]{0,39}) "((?:[^"\\]|\\.)*)"\]\s*\Z')
_TOKEN: Final = re.compile(r"\s*(?:(\{)|(\()|(\))|(\*)|([0-9]{1,3})\.|([^\s{}()*]+))")
_GLYPH: Final = frozenset(GLYPHS)


def _is_blank(line: str) -> bool:
    return not line or line.isspace()


def visit_game(handle: IO[Any], visitor: Visitor[T]) -> T | None:
    """Read the next game of ``handle`` into ``visitor``; ``None`` at the end of the file.

    Errors go to ``visitor.handle_error`` with their line and column; reading goes on to
    the end of the game (the base visitor raises the first one).

    >>> import io
    >>> visit_game(io.StringIO('[Notation "1"]\\n\\n*\\n'), HeadersBuilder())
    (('Notation', '1'),)
    >>> visit_game(io.StringIO(""), HeadersBuilder()) is None
    True
    """
    return _visit(lines_of(handle), handle, visitor)


def _visit(lines: Lines, handle: IO[Any], visitor: Visitor[T]) -> T | None:
    line = lines.next()
    while line is not None and _is_blank(line) and not lines.errors:
        line = lines.next()
    if line is None and not lines.errors:
        return None
    visitor.begin_game()
    _flush(lines, visitor)
    if line is None:  # only an unreadable line: a game of its errors
        lines.mark()
        visitor.end_game()
        return visitor.result()
    if not line.startswith("["):
        visitor.handle_error(
            NotationError(lines.number, 1, "a game starts with its headers ('[Name \"value\"]')")
        )
    seen: set[str] = set()
    while line is not None and line.startswith("["):
        _header(line, lines.number, seen, visitor)
        line = lines.next()
        _flush(lines, visitor)
    wants_moves = visitor.end_headers()
    ended = _movetext(lines, line, visitor, True) if wants_moves else _skip_movetext(lines, line)
    _flush(lines, visitor)
    lines.mark()
    if not ended:
        visitor.handle_error(
            NotationError(
                lines.number + 1, 1, "the game ends without its terminator '*' (a truncated file?)"
            )
        )
    visitor.end_game()
    return visitor.result()


def _flush(lines: Lines, visitor: Visitor[Any]) -> None:
    while lines.errors:
        visitor.handle_error(lines.errors.pop(0))


def _header(line: str, number: int, seen: set[str], visitor: Visitor[Any]) -> None:
    if line.endswith('"]'):  # the common case, without the regular expression
        cut = line.find(' "')
        name, value = line[1:cut], line[cut + 2 : -2]
        if cut > 1 and '"' not in value and "\\" not in value and is_known(name):
            if name in seen:
                visitor.handle_error(NotationError(number, 2, f"the header {name!r} appears twice"))
            else:
                seen.add(name)
                visitor.visit_header(name, value, number)
            return
    m = _HEADER.match(line)
    if m is None:
        visitor.handle_error(NotationError(number, 1, 'not a header line: expected [Name "value"]'))
        return
    name = m.group(1)
    if not is_known(name):
        visitor.handle_error(NotationError(number, 2, f"unknown header {name!r}"))
    elif name in seen:
        visitor.handle_error(NotationError(number, 2, f"the header {name!r} appears twice"))
    else:
        seen.add(name)
        visitor.visit_header(name, unescape(m.group(2)), number)


def _movetext(lines: Lines, line: str | None, visitor: Visitor[Any], wants: bool) -> bool:
    """Read moves up to the terminator ``*`` at depth 0; whether it was found."""
    depth = 0
    comment: list[str] | None = None  # the comment being read, across lines
    skipping = False  # inside a comment too long to keep
    comment_size = comment_line = comment_col = 0
    while line is not None:
        number = lines.number
        if comment is None and not skipping:
            if line.startswith("["):
                lines.push_back(line)
                return False
            if _PLAIN.search(line) is None:  # no comment, no variation: words only
                ended = _plain_line(line, number, visitor, wants and depth <= MAX_DEPTH, depth)
                if ended:
                    return True
                line = lines.next()
                _flush(lines, visitor)
                continue
        pos, end = 0, len(line)
        while pos < end:
            if comment is not None or skipping:
                close = line.find("}", pos)
                piece = line[pos:] if close < 0 else line[pos:close]
                if comment is not None:
                    comment_size += len(piece) + 1
                    if comment_size > MAX_COMMENT:
                        message = f"a comment longer than {MAX_COMMENT:,} characters"
                        visitor.handle_error(NotationError(comment_line, comment_col, message))
                        comment, skipping = None, True
                    else:
                        comment.append(piece)
                if close < 0:
                    break
                if comment is not None and wants:
                    visitor.visit_comment("\n".join(comment).strip(), comment_line, comment_col)
                comment, skipping, pos = None, False, close + 1
                continue
            m = _TOKEN.match(line, pos)
            if m is None:  # only spaces left
                break
            pos = m.end()
            kind = m.lastindex or 0
            col = m.start(kind) + 1
            if kind == 1:
                comment, comment_size, comment_line, comment_col = [], 0, number, col
            elif kind == 2:
                depth += 1
                if depth == MAX_DEPTH + 1:
                    message = f"variations nested deeper than {MAX_DEPTH}"
                    visitor.handle_error(NotationError(number, col, message))
                if wants and depth <= MAX_DEPTH:
                    visitor.begin_variation(number, col)
            elif kind == 3:
                if depth == 0:
                    visitor.handle_error(NotationError(number, col, "')' closes no variation"))
                    continue
                if wants and depth <= MAX_DEPTH:
                    visitor.end_variation()
                depth -= 1
            elif kind == 4:
                return _terminator(line, pos, number, col, depth, visitor, wants)
            elif depth <= MAX_DEPTH and wants:
                _word(m.group(kind), kind, number, col, visitor)
        line = lines.next()
        _flush(lines, visitor)
    if comment is not None or skipping:
        visitor.handle_error(
            NotationError(comment_line, comment_col, "a comment '{' is never closed")
        )
    return False


_PLAIN: Final = re.compile(r"[{}()]")


def _word(word: str, kind: int, number: int, col: int, visitor: Visitor[Any]) -> None:
    if kind == 5:
        visitor.visit_seat(int(word), number, col)
    elif word in _GLYPH:
        visitor.visit_glyph(word, number, col)
    else:
        visitor.visit_move(word, number, col)


def _plain_line(line: str, number: int, visitor: Visitor[Any], wants: bool, depth: int) -> bool:
    """A line of words only (no braces or parentheses); whether it ends the game.

    Reads as the general tokenizer does: a seat number ``K.``, a glyph or a move per word;
    a word holding ``*`` or a ``.`` elsewhere is split by that tokenizer.
    """
    pos = 0
    for word in line.split():
        start = line.find(word, pos)
        pos = start + len(word)
        if word[-1] == "." and 1 < len(word) <= 4 and word.isascii() and word[:-1].isdigit():
            if wants:
                visitor.visit_seat(int(word[:-1]), number, start + 1)
        elif "*" in word or "." in word:
            at = start
            while at < pos:
                m = _TOKEN.match(line, at)
                if m is None:
                    break
                kind = m.lastindex or 6
                at = m.end()
                if kind == 4:
                    return _terminator(line, at, number, m.start(4) + 1, depth, visitor, wants)
                if wants:
                    _word(m.group(kind), kind, number, m.start(kind) + 1, visitor)
        elif wants:
            if word in _GLYPH:
                visitor.visit_glyph(word, number, start + 1)
            else:
                visitor.visit_move(word, number, start + 1)
    return False


def _terminator(
    line: str, pos: int, number: int, col: int, depth: int, visitor: Visitor[Any], wants: bool
) -> bool:
    """The terminator ``*`` at ``col``: close what is open, refuse text after it."""
    if depth:
        visitor.handle_error(NotationError(number, col, "'*' ends the game inside a variation"))
        for _ in range(min(depth, MAX_DEPTH)):
            if wants:
                visitor.end_variation()
    if pos < len(line) and line[pos:].strip():
        visitor.handle_error(NotationError(number, pos + 1, "text after the terminator '*'"))
    return True


def _skip_movetext(lines: Lines, line: str | None) -> bool:
    """Skip moves up to the terminator ``*`` outside comments; whether it was found."""
    in_comment = False
    while line is not None:
        if not in_comment and line.startswith("["):
            lines.push_back(line)
            return False
        if in_comment:
            close = line.find("}")
            if close >= 0:
                in_comment = False
                line = line[close + 1 :]
                continue
        elif "{" in line:
            brace = line.find("{")
            if "*" in line[:brace]:
                return True
            in_comment = True
            line = line[brace + 1 :]
            continue
        elif "*" in line:
            return True
        line = lines.next()
    return False


def read_game(handle: IO[Any], *, strict: bool = False) -> Game | None:
    """The next game of ``handle``, every move replayed; ``None`` at the end of the file.

    Tolerant by default: the game's problems are in ``game.errors`` (each a
    :class:`~chickenfoot.notation.NotationError` with its line and column) and reading
    goes on; a full copy's ``record`` stops before its first move that cannot be played.
    ``strict=True`` raises the first problem instead.

    >>> import io
    >>> game = read_game(io.StringIO('[Notation "1"]\\n[Colour "red"]\\n\\n*\\n'))
    >>> [str(e) for e in game.errors][:1]
    ["line 2, column 2: unknown header 'Colour'"]
    >>> read_game(io.StringIO('[Notation "1"]\\n[Colour "red"]\\n\\n*\\n'), strict=True)
    Traceback (most recent call last):
    ...
    chickenfoot.notation._model.NotationError: line 2, column 2: unknown header 'Colour'
    """
    lines = lines_of(handle)
    done, game = read_plain(lines, handle)  # most games: the same Game, sooner
    return game if done else _visit(lines, handle, GameBuilder(strict=strict))


def read_headers(handle: IO[Any]) -> tuple[tuple[str, str], ...] | None:
    """The headers of the next game, its moves skipped unread; ``None`` at the end.

    >>> import io
    >>> read_headers(io.StringIO('[Notation "1"]\\n[Round "3"]\\n\\n0. 9-3@9-9 *\\n'))
    (('Notation', '1'), ('Round', '3'))
    """
    lines = lines_of(handle)
    done, headers = skim_plain(lines, handle)  # most games: the same headers, sooner
    return headers if done else _visit(lines, handle, HeadersBuilder())


def skip_game(handle: IO[Any]) -> bool:
    """Skip the next game; whether there was one.

    >>> import io
    >>> handle = io.StringIO('[Notation "1"]\\n\\n*\\n')
    >>> skip_game(handle), skip_game(handle)
    (True, False)
    """
    return visit_game(handle, HeadersBuilder()) is not None


def iter_games(handle: IO[Any], *, strict: bool = False) -> Iterator[Game]:
    """Every game of ``handle`` in order, one at a time (as :func:`read_game`).

    >>> import io
    >>> text = '[Notation "1"]\\n[Round "0"]\\n\\n*\\n\\n[Notation "1"]\\n[Round "1"]\\n\\n*\\n'
    >>> [g.header("Round") for g in iter_games(io.StringIO(text))]
    ['0', '1']
    """
    while (game := read_game(handle, strict=strict)) is not None:
        yield game


def scan_offsets(handle: IO[bytes]) -> Iterator[int]:
    """The byte offset where each game of a binary ``handle`` starts (its first header),
    from the current position: ``handle.seek(offset)`` then :func:`read_game` reads it."""
    pos = handle.tell()
    in_game = False
    while True:
        line = handle.readline(CHUNK)
        if not line:
            return
        head = line[:1]
        if head == b"[" and not in_game:
            in_game = True
            yield pos
        elif head != b"[" and in_game and line.strip():
            in_game = False
        pos += len(line)
