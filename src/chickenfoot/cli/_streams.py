"""The command line's streams: standard output that may fail, standard error that may be
unusable, streams that may be closed. (Files written on request: :mod:`chickenfoot._files`.)

:func:`chickenfoot.cli.main` owns the streams. It refuses to start when standard output is
closed, hands every command an :class:`Output` (a write that fails raises
:class:`OutputError`, so a failure of standard output is told apart from any other
``OSError``), flushes it before returning (so an error of the last buffered write surfaces
there, not as "Exception ignored" at interpreter exit) and maps an :class:`OutputError` to
the exit status :data:`~chickenfoot.cli._common.EXIT_FAILURE`: silently for a broken pipe,
with one line on standard error otherwise.

>>> import io
>>> out = Output(io.StringIO())
>>> out.write("fine\\n")
5
>>> class Full(io.StringIO):
...     def write(self, text: str) -> int:
...         raise OSError(28, "No space left on device")
>>> try:
...     Output(Full()).write("x")
... except OutputError as err:
...     print(err, err.broken)
cannot write standard output: No space left on device False
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, TextIO, cast

__all__ = [
    "Output",
    "OutputError",
    "discard",
    "is_terminal",
    "write_error",
]


class OutputError(Exception):
    """Standard output could not be written: closed, full, or a pipe nobody reads."""

    def __init__(self, reason: str, *, broken: bool = False) -> None:
        super().__init__(f"cannot write standard output: {reason}")
        self.broken = broken
        """A broken pipe (EPIPE): the reader went away, as with ``| head``. Not an error
        to report, only to stop on."""


def _output_error(err: BaseException) -> OutputError:
    if isinstance(err, BrokenPipeError) or getattr(err, "errno", None) == errno.EPIPE:
        return OutputError("broken pipe", broken=True)
    if isinstance(err, OSError):
        return OutputError(str(err.strerror or err))
    if isinstance(err, UnicodeEncodeError):
        char = err.object[err.start : err.start + 1]
        return OutputError(
            f"its encoding, {err.encoding}, has no {char!r} (try PYTHONIOENCODING=utf-8)"
        )
    return OutputError("it is closed")  # ValueError: I/O operation on closed file


class Output:
    """A text stream whose write errors are :class:`OutputError`; anything else is the
    wrapped stream's (``isatty``, ``encoding``, ``fileno``...)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as err:  # ValueError: closed, or not encodable
            raise _output_error(err) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError) as err:
            raise _output_error(err) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def as_text_io(self) -> TextIO:
        """This object, typed as the text stream it stands for."""
        return cast(TextIO, self)


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` is an open terminal: ``False`` for ``None`` (a closed standard
    stream), a closed file or an object without ``isatty``.

    >>> import io
    >>> is_terminal(None), is_terminal(io.StringIO())
    (False, False)
    """
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def discard(stream: object) -> None:
    """Point the file descriptor under ``stream`` at ``os.devnull``, so that what the stream
    still buffers goes nowhere at interpreter exit instead of failing again there
    ("Exception ignored ..."). Nothing happens for a stream without a descriptor."""
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return
    if not isinstance(fd, int):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # pragma: no cover - no /dev/null
        return
    try:
        os.dup2(devnull, fd)
    except OSError:  # pragma: no cover - fd already closed
        pass
    finally:
        os.close(devnull)


def write_error(text: str) -> None:
    """Write ``text`` and a newline on standard error, if it can be written at all (it may
    be closed or full: then nothing is said, and the exit status tells)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(text + "\n")
        stream.flush()
    except (OSError, ValueError):
        discard(stream)
