"""The ``--records FILE`` of the commands that play (``simulate``, ``ladder``, ``play``):
a notation file opened once, before any game is played, and written game by game.

The contract: :func:`open_records` checks the name first (a directory, a named pipe, a
missing folder, a file one may not write: one line naming the option, never a traceback)
and opens the file only when it is a regular file or a new one, never waiting on it
(:func:`chickenfoot._files.open_regular`). ``replace=True`` starts the file afresh
(``simulate``, ``play``), else games are appended to what it holds (``ladder``, whose
results file is continued too). The handle writes UTF-8 text with ``\\n`` line ends.

>>> open_records("/", "--records")
Traceback (most recent call last):
...
chickenfoot.cli._common.UsageError: --records '/': a directory, not a regular file
"""

from __future__ import annotations

import os
from typing import TextIO

from chickenfoot._files import appendable, open_regular, why_not, writable
from chickenfoot.cli._common import UsageError
from chickenfoot.errors import brief

__all__ = ["open_records"]


def open_records(path: str, option: str, *, replace: bool = True) -> TextIO:
    """The notation file ``path`` (given as ``option``), open for writing games."""
    name = os.path.expanduser(path)
    why = writable(name) if replace else appendable(name)
    if why is not None:
        raise UsageError(f"{option} {brief(path, 80)}: {why}")
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if replace else os.O_APPEND)
    try:
        fd = open_regular(name, flags)
    except (OSError, ValueError) as err:
        raise UsageError(f"{option} {brief(path, 80)}: {why_not(err)}") from None
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")
