"""The lines of a notation file, numbered from 1, each at most :data:`MAX_LINE` long.

A :class:`Lines` is kept on its handle between games (a line read one game too far is the
next game's) and started afresh when the handle has been moved since (``seek``). Lines can
be put back, each with the errors found while reading it, to be read again with the same
numbers and the same errors (the fast reader gives back a game it leaves to the general
parser: :mod:`chickenfoot.notation._fast`).
"""

from __future__ import annotations

import contextlib
from typing import IO, Any, Final

from chickenfoot.notation._model import NotationError

__all__ = ["CHUNK", "MAX_LINE", "Lines", "lines_of", "where"]

MAX_LINE: Final = 100_000
"""The longest line read (characters); a longer one is an error, skipped in chunks."""
CHUNK: Final = 1 << 16


class Lines:
    """The lines of a text or binary handle, numbered from 1, each at most MAX_LINE long."""

    __slots__ = ("_back", "_handle", "errors", "number", "position")

    def __init__(self, handle: IO[Any]) -> None:
        self._handle = handle
        self._back: list[
            tuple[str | None, list[NotationError]]
        ] = []  # read again first, last first
        self.number = 0
        self.position: int | None = None  # where the handle was when the last game ended
        self.errors: list[NotationError] = []

    def push_back(self, line: str | None, errors: list[NotationError] | None = None) -> None:
        """Put ``line`` back, to be read again next with the ``errors`` found reading it."""
        self._back.append((line, errors or []))
        self.number -= 1

    def next(self) -> str | None:
        """The next line without its line break, or ``None`` at the end."""
        if self._back:
            line, errors = self._back.pop()
            self.number += 1
            self.errors.extend(errors)
            return line
        try:
            raw = self._handle.readline(MAX_LINE + 1)
        except UnicodeDecodeError as err:
            self.number += 1
            self.errors.append(NotationError(self.number, 1, f"not UTF-8 text ({err.reason})"))
            return None
        if not raw:
            return None
        self.number += 1
        if isinstance(raw, (bytes, bytearray)):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                self.errors.append(
                    NotationError(self.number, err.start + 1, f"not UTF-8 text ({err.reason})")
                )
                raw = raw.decode("utf-8", "replace")
        elif not isinstance(raw, str):
            raise TypeError(f"expected a text or binary file, got lines of {type(raw).__name__}")
        text: str = raw
        if text.endswith("\n"):
            return text[:-1]
        if len(raw) > MAX_LINE:
            self.errors.append(
                NotationError(
                    self.number, MAX_LINE + 1, f"a line longer than {MAX_LINE:,} characters"
                )
            )
            while True:  # skip the rest of the line in bounded pieces
                rest = self._handle.readline(CHUNK)
                if not rest or rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                    break
            return ""
        return text


def lines_of(handle: IO[Any]) -> Lines:
    """The lines of ``handle``, kept on it between games (a line read one game too far is
    the next game's); started afresh, with lines counted from 1, when the handle has been
    moved (``seek``) since."""
    if not hasattr(handle, "readline"):
        raise TypeError(f"expected an open text or binary file, got {type(handle).__name__}")
    lines: Lines | None = getattr(handle, "_chickenfoot_lines", None)
    if lines is None or lines._handle is not handle or where(handle) != lines.position:
        lines = Lines(handle)
        with contextlib.suppress(AttributeError):
            handle._chickenfoot_lines = lines  # type: ignore[attr-defined]
    return lines


def where(handle: IO[Any]) -> int | None:
    """The position of ``handle`` (``tell``), or ``None`` when it has none."""
    try:
        return int(handle.tell())
    except (OSError, ValueError, AttributeError, TypeError):
        return None
