"""The files a user names: only regular files are opened, none is waited on, and a file
written on request is written whole or not at all.

The contract, for every module that reads or writes a file whose name came from a user
(``chickenfoot ladder --results`` and ``--plot``, ``play``'s ``save``, ``show --svg``, a
policy file):

- A name that exists and is not a regular file (a named pipe, a device, a directory, a
  socket) is refused before anything is opened: opening a named pipe waits for a writer
  and a device may do anything. :func:`open_regular` then opens with ``O_NONBLOCK`` and
  checks the descriptor itself, so a name swapped for a pipe in between is refused too.
  The refusal is :class:`NotRegularError`, an ``OSError`` whose ``strerror`` says what the
  name is: ``"a named pipe, not a regular file"``.
- :func:`write_file` replaces a file atomically (a temporary file beside it, synced, then
  renamed) and refuses a symbolic link as well (a rename would replace the link, not its
  target); :func:`writable` says beforehand whether it would, so that a command checks
  every file it will write before it starts the work (check first, write after).
- Every failure is one short line (an ``OSError``'s ``strerror``), never a traceback.

>>> writable("/"), writable("/nonexistent/dir/x.json")
('a directory, not a regular file', 'No such file or directory')
>>> try:
...     open_regular("/")
... except NotRegularError as err:
...     print(err.strerror)
a directory, not a regular file
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from typing import Final

__all__ = [
    "NotRegularError",
    "appendable",
    "kind_of",
    "open_regular",
    "why_not",
    "writable",
    "write_file",
]

_KINDS: Final = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)
_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS: Final = (
    _NONBLOCK
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class NotRegularError(OSError):
    """A name that is not a regular file: its ``strerror`` says what it is."""

    def __init__(self, mode: int) -> None:
        super().__init__(errno.EINVAL, f"{kind_of(mode)}, not a regular file")


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, for messages: ``"a named pipe"``...

    >>> kind_of(stat.S_IFIFO), kind_of(stat.S_IFREG)
    ('a named pipe', 'a regular file')
    """
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in _KINDS if test(mode)), "not a file")


def why_not(err: BaseException) -> str:
    """One line saying why a file could not be used: an ``OSError``'s ``strerror``, a name
    with a NUL byte or a lone surrogate.

    >>> why_not(FileNotFoundError(2, "No such file or directory"))
    'No such file or directory'
    """
    if isinstance(err, OSError):
        return str(err.strerror or type(err).__name__)
    if isinstance(err, UnicodeError):  # a name with a lone surrogate
        return "not a possible file name"
    return " ".join(str(err).split())[:80] or "not a possible file name"  # a NUL byte


def open_regular(path: str | os.PathLike[str], flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
    """A descriptor of the regular file ``path`` opened with ``flags`` (``os.O_CREAT``
    among them creates a missing one), never blocking; :class:`NotRegularError` if the
    name is anything else, another ``OSError`` if it cannot be opened."""
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise NotRegularError(st.st_mode)
    fd = os.open(path, flags | _OPEN_FLAGS, mode)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped for something else since the check
            raise NotRegularError(st.st_mode)
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def writable(path: str) -> str | None:
    """``None`` if :func:`write_file` may write ``path`` (``~`` expanded), else why not,
    in one line; nothing is opened or written."""
    try:
        return _check(os.path.expanduser(path))[0]
    except (OSError, ValueError) as err:
        return why_not(err)


def appendable(path: str | os.PathLike[str]) -> str | None:
    """``None`` if ``path`` is a regular file one may read and write (a symbolic link is
    followed) or names nothing yet in a folder that takes a new file, else why not, in one
    line; nothing is opened or written.

    >>> appendable("/"), appendable("/nonexistent/dir/x.jsonl")
    ('a directory, not a regular file', 'No such file or directory')
    """
    try:
        try:
            mode: int | None = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is None:
            _folder_takes_a_file(os.fspath(path))
        elif not stat.S_ISREG(mode):
            return f"{kind_of(mode)}, not a regular file"
        elif not os.access(path, os.R_OK | os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    except (OSError, ValueError) as err:
        return why_not(err)
    return None


def _folder_takes_a_file(target: str) -> None:
    """Raise the ``OSError`` of creating a file ``target``: its folder is missing, not a
    folder, or one that may not be written."""
    folder = os.path.dirname(target) or os.curdir
    st = os.stat(folder)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))


def _check(target: str) -> tuple[str | None, int | None]:
    """Why ``target`` may not be replaced (or ``None``), and its mode if it exists."""
    try:
        mode: int | None = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        return f"{kind_of(mode)}, not a regular file", mode
    if mode is not None and not os.access(target, os.W_OK):  # a file one may not write
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))  # is not replaced
    _folder_takes_a_file(target)
    return None, mode


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
    except (OSError, ValueError) as err:  # ValueError: a NUL byte, a lone surrogate
        return why_not(err)


def _replace(target: str, data: bytes) -> str | None:
    """:func:`write_file`'s work (its errors raised)."""
    refused, mode = _check(target)
    if refused is not None:
        return refused
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
