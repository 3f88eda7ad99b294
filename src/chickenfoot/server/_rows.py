"""What a store reads and writes (rows), the errors it raises, and the one way a database's
address is written in a message (:func:`redact`): shared by the stores
(:mod:`~chickenfoot.server._sqlite`, :mod:`~chickenfoot.server._postgres`) and
:mod:`~chickenfoot.server._store`, which describes them.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple
from urllib.parse import unquote

__all__ = [
    "ConflictError",
    "MoveRow",
    "SeatRow",
    "StoreError",
    "StoredTable",
    "redact",
    "scrub",
]


class SeatRow(NamedTuple):
    """One seat as stored: ``kind`` is ``person`` (with a ``token``) or ``bot`` (``spec``)."""

    seat: int
    kind: str
    spec: str
    token: str | None
    name: str


class StoredTable(NamedTuple):
    """One table as stored (its moves are read with :meth:`Store.moves`)."""

    id: str
    rules: str
    seed: int
    seats: tuple[SeatRow, ...]


class MoveRow(NamedTuple):
    """One move to store: move number ``idx`` (from 0) of table ``table_id``, played by
    ``seat``, in the move's text (``Move.notation()``), and whether it was ``forced``.

    ``seed``, when given, is the match the move belongs to: the move is stored only while
    the table's seed is still that one (not after another process's rematch)."""

    table_id: str
    idx: int
    seat: int
    move: str
    forced: bool
    seed: int | None = None


class ConflictError(Exception):
    """A move number already taken: another writer extended the table first (or the move
    does not extend the table: its table is gone, or was restarted)."""


class StoreError(Exception):
    """The database failed (cannot be reached, a full disk, not a database...): the
    message is bounded and never holds a password."""


def redact(where: str | os.PathLike[str]) -> str:
    """``where`` fit for a message or a log line: a URL's password replaced by ``***``.

    >>> redact("postgresql://cf:s3cret@db.example.org:5432/cf")
    'postgresql://cf:***@db.example.org:5432/cf'
    >>> redact("postgresql://db.example.org/cf?password=s3cret&sslmode=require")
    'postgresql://db.example.org/cf?password=***&sslmode=require'
    """
    text = os.fspath(where)
    text = re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://[^/@:]*):[^/@]*@", r"\1:***@", text)
    return re.sub(r"(?i)(password=)[^&\s]*", r"\1***", text)


def scrub(text: str, where: str) -> str:
    """``text`` (a driver's error message) without the password of ``where``, even where
    the message quotes it (libpq quotes the part of an address it cannot read).

    >>> scrub('invalid percent-encoded token: "pw%zz"', "postgresql://ann:pw%zz@h/db")
    'invalid percent-encoded token: "***"'
    >>> scrub('in URI: "postgresql://ann:pw@[::1/db"', "postgresql://ann:pw@[::1/db")
    'in URI: "postgresql://ann:***@[::1/db"'
    """
    found = re.findall(r"://[^/@:]*:([^/@]*)@", where)
    found += re.findall(r"(?i)password=([^&\s]*)", where)
    for secret in sorted({*found, *map(unquote, found)} - {""}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return re.sub(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^/@:\s\"]*):[^/@\s\"]*@", r"\1:***@", text)
