"""The command line's streams: standard output that may fail, standard error that may be
unusable, streams that may be closed, and files written on request.

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

import contextlib
import errno
import os
import secrets
import stat
import sys
from typing import Any, TextIO, cast

__all__ = [
    "Output",
    "OutputError",
    "discard",
    "is_terminal",
    "write_error",
    "write_file",
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


_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def write_file(path: str, text: str) -> str | None:
    """Write ``text`` to the file ``path`` (``~`` expanded) whole or not at all; ``None``
    once written, else why not, in one line: whatever the name (a NUL byte, too long, no
    such directory, no permission), the target and the disk (full).

    The text goes to a new temporary file in the target's folder, which is synced, then
    renamed over the target (and the folder synced where the platform allows): a failure at
    any point (a full disk) leaves the old file as it was and removes the temporary one. A
    target that exists must be a regular file, whose permissions the new one takes; a named
    pipe, a device, a directory or a symbolic link is refused before anything is opened.

    >>> write_file("a\\x00b", "{}")
    'embedded null byte'
    >>> write_file("/nonexistent/dir/x.json", "{}")
    'No such file or directory'
    >>> write_file("/", "{}")
    'a directory, not a regular file'
    """
    try:
        target = os.path.expanduser(path)
        data = text.encode("utf-8")
        return _replace(target, data)
    except OSError as err:
        return str(err.strerror or type(err).__name__)
    except UnicodeError:  # a name with a lone surrogate
        return "not a possible file name"
    except ValueError as err:  # a NUL byte
        return " ".join(str(err).split())[:80] or "not a possible file name"


def _replace(target: str, data: bytes) -> str | None:
    """:func:`write_file`'s work (its errors raised)."""
    try:
        mode: int | None = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a file")
        return f"{kind}, not a regular file"
    if mode is not None and not os.access(target, os.W_OK):  # a file one may not write
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))  # is not replaced
    folder, name = os.path.split(target)
    folder = folder or os.curdir
    temp, fd = _temporary(folder, name)
    try:
        try:
            if mode is not None and hasattr(os, "fchmod"):  # the old file's (else 0o666
                os.fchmod(fd, stat.S_IMODE(mode))  # less the umask, as open() makes it)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(folder)
    return None


def _temporary(folder: str, name: str) -> tuple[str, int]:
    """A new file beside the target, open for writing: ``(its path, its descriptor)``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temp = os.path.join(folder, f".{name[:64]}.{secrets.token_hex(6)}.tmp")
        try:
            return temp, os.open(temp, flags, 0o666)
        except FileExistsError:  # pragma: no cover - 48 random bits taken
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name")  # pragma: no cover


def _sync_folder(folder: str) -> None:
    """Sync the folder's entry of the renamed file, where the platform can (POSIX)."""
    flag = getattr(os, "O_DIRECTORY", None)
    if flag is None:  # pragma: no cover - Windows
        return
    try:
        fd = os.open(folder, os.O_RDONLY | flag)
    except OSError:  # pragma: no cover - a folder one may write to but not read
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems cannot sync a folder
        pass
    finally:
        os.close(fd)
