"""The lines of a notation file, numbered from 1, each at most :data:`MAX_LINE` long.

A :class:`Lines` is kept on its handle between games (a line read one game too far is the
next game's) and started afresh when the handle has been moved since (``seek``). Lines can
be put back, each with the errors found while reading it, to be read again with the same
numbers and the same errors (the fast reader gives back a game it leaves to the general
parser: :mod:`chickenfoot.notation._fast`).

A binary file opened for reading (``open(path, "rb")``) or a :class:`io.BytesIO` is read
in chunks of :data:`CHUNK` bytes kept here, and the lines are cut from that buffer as
``readline`` would cut them; :meth:`Lines.mark` leaves the handle where the lines read so
far end, as a handle read line by line would be (``tell()`` after a game is where the
next one begins to be read), so reading stays in constant memory and the handle can be
shared with other readers. Other handles (text, pipes, compressed files) are read a line
at a time.
"""

from __future__ import annotations

import contextlib
import io
from typing import IO, Any, Final

from chickenfoot.notation._model import NotationError

__all__ = ["CHUNK", "MAX_LINE", "Lines", "lines_of", "where"]

MAX_LINE: Final = 100_000
"""The longest line read (characters); a longer one is an error, skipped in chunks."""
CHUNK: Final = 1 << 16


class Lines:
    """The lines of a text or binary handle, numbered from 1, each at most MAX_LINE long."""

    __slots__ = ("_at", "_back", "_base", "_buf", "_handle", "errors", "number", "position")

    def __init__(self, handle: IO[Any]) -> None:
        self._handle = handle
        self._buf: bytes | None = None  # the chunk being read (a chunked handle only)
        self._at = 0  # where in it the next line starts
        self._base = 0  # the handle's position of its first byte
        if type(handle) in _CHUNKED:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if handle.seekable():
                    self._base = handle.tell()
                    self._buf = b""
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
            raw = (
                self._handle.readline(MAX_LINE + 1)
                if self._buf is None
                else self._line(MAX_LINE + 1)
            )
        except UnicodeDecodeError as err:
            self.number += 1
            self.errors.append(NotationError(self.number, 1, f"not UTF-8 text ({err.reason})"))
            return None
        if not raw:
            return None
        self.number += 1
        if isinstance(raw, (bytes, bytearray)):
            data = raw
            try:
                raw = data.decode("utf-8")
            except UnicodeDecodeError as err:
                self.errors.append(
                    NotationError(self.number, err.start + 1, f"not UTF-8 text ({err.reason})")
                )
                raw = data.decode("utf-8", "replace")
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
                rest: Any = self._handle.readline(CHUNK) if self._buf is None else self._line(CHUNK)
                if not rest or rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                    break
            return ""
        return text

    def _line(self, limit: int) -> bytes:
        """``readline(limit)`` of the handle, cut from the buffer (refilled as needed)."""
        buf, at = self._buf, self._at
        assert buf is not None
        end = buf.find(b"\n", at, at + limit)
        while end < 0 and len(buf) - at < limit and self._fill():
            buf, at = self._buf, self._at
            assert buf is not None
            end = buf.find(b"\n", at, at + limit)
        stop = end + 1 if end >= 0 else min(len(buf), at + limit)
        self._at = stop
        return buf[at:stop]

    def _fill(self) -> bool:
        """Read the next chunk after the buffer (the handle may have been left at
        :meth:`mark`'s position); whether there was more to read."""
        buf = self._buf
        assert buf is not None
        handle = self._handle
        end = self._base + len(buf)
        if handle.tell() != end:
            handle.seek(end)
        more = handle.read(CHUNK)
        if not more:
            return False
        self._base += self._at
        self._buf = buf[self._at :] + more
        self._at = 0
        return True

    def window(self, size: int) -> tuple[bytes, int] | None:
        """The buffer and where the next line starts in it, refilled so that it holds
        ``size`` bytes from there or the rest of the file; ``None`` when the handle is read
        a line at a time, lines were put back or errors are waiting. Consumed with
        :meth:`skip`."""
        buf = self._buf
        if buf is None or self._back or self.errors:
            return None
        while len(buf) - self._at < size and self._fill():
            buf = self._buf
            assert buf is not None
        return buf, self._at

    def skip(self, stop: int, lines: int) -> None:
        """Consume the buffer up to ``stop`` (after a line break), ``lines`` lines."""
        self._at = stop
        self.number += lines

    def mark(self) -> None:
        """Note where the handle is as the game read ends (a chunked handle is moved back
        to where its lines read so far end), to tell later whether it has been moved."""
        if self._buf is None:
            self.position = where(self._handle)
            return
        at = self._base + self._at
        try:
            self.position = int(self._handle.seek(at))  # where it is now (BytesIO, buffered)
        except (OSError, ValueError):
            self.position = where(self._handle)


_CHUNKED: Final = (io.BytesIO, io.BufferedReader, io.BufferedRandom)
"""The handle types read in chunks (exactly these: a subclass may read or seek otherwise)."""


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
