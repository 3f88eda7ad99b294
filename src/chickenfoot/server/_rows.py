"""What a store reads and writes (rows), the errors it raises, the checks and decisions
both stores make the same way (:func:`check_moves`, :func:`decide_ask`), and the one way a
database's address is written in a message (:func:`redact`): shared by the stores
(:mod:`~chickenfoot.server._sqlite`, :mod:`~chickenfoot.server._postgres`) and
:mod:`~chickenfoot.server._store`, which describes them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import unquote

__all__ = [
    "Asked",
    "ConflictError",
    "GapError",
    "MoveRow",
    "SeatRow",
    "StoreError",
    "StoredTable",
    "check_moves",
    "decide_ask",
    "ready_bits",
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
    """One table as stored (its moves are read with :meth:`Store.moves`), with what its
    people agree on, the same for every process: while the round dealt at move number
    ``pause_at`` waits, until ``pause_until`` (Unix seconds; ``pause_at`` is null once
    the people ended it), and the seats (a bit per seat, ``ready``) that asked, at the
    record's length ``ready_at``, for the next round or a rematch."""

    id: str
    rules: str
    seed: int
    seats: tuple[SeatRow, ...]
    pause_at: int | None = None
    pause_until: float | None = None
    ready_at: int | None = None
    ready: int = 0
    options: str = "{}"
    """The table's options as made (JSON: ``{"hints": true}``), never the rules."""

    def ready_seats(self, n: int) -> frozenset[int]:
        """The seats that asked at the record's length ``n`` (none if they asked at another).

        >>> StoredTable("t", "{}", 1, (), ready_at=4, ready=0b101).ready_seats(4)
        frozenset({0, 2})
        """
        if self.ready_at != n:
            return frozenset()
        return frozenset(s for s in range(self.ready.bit_length()) if self.ready >> s & 1)

    def paused(self, n: int, now: float) -> float | None:
        """The Unix time the round dealt at move ``n`` waits until, if it waits at ``now``."""
        if self.pause_at != n or self.pause_until is None or self.pause_until <= now:
            return None
        return self.pause_until


class MoveRow(NamedTuple):
    """One move to store: move number ``idx`` (from 0) of table ``table_id``, played by
    ``seat``, in the move's text (``Move.notation()``), and whether it was ``forced``.

    ``seed``, when given, is the match the move belongs to: the move is stored only while
    the table's seed is still that one (not after another process's rematch). ``pause``,
    when given, is how many seconds the round this move deals waits for the people (it
    ends a round, and the match goes on): stored with the move, from its commit on."""

    table_id: str
    idx: int
    seat: int
    move: str
    forced: bool
    seed: int | None = None
    pause: float | None = None


class ConflictError(Exception):
    """A move number already taken: another writer extended the table first (or the move
    does not extend the table: its table is gone, or was restarted)."""


class StoreError(Exception):
    """The database failed (cannot be reached, locked longer than the wait for it, a full
    disk, not a database...): the message is bounded and never holds a password. Both
    stores raise it, and nothing else, for every failure of the database; the write that
    failed may or may not have been committed (a connection lost at the commit)."""


class GapError(StoreError):
    """A table's stored moves have a gap (a move number missing): the record is damaged,
    and reading it again does not help."""


class Asked(NamedTuple):
    """What a person's ``next`` or ``rematch`` did (:meth:`Store.ask`): the seats that
    have asked now, and whether that was everyone (the round starts, or the rematch is
    made)."""

    ready: frozenset[int]
    done: bool


def check_moves(
    table_id: str, rows: Iterable[tuple[int, int, str, object]], since: int
) -> list[tuple[int, str, bool]]:
    """A table's moves as read from a database, ``(idx, seat, move, forced)`` in order of
    ``idx`` from ``since``, as ``(seat, move, forced)``; raises :class:`GapError` when a
    number is missing (a damaged record: nothing after a gap is played).

    >>> check_moves("t", [(2, 0, "draw", 0), (3, 1, "pass", 1)], since=2)
    [(0, 'draw', False), (1, 'pass', True)]
    >>> check_moves("t", [(0, 0, "draw", 0), (2, 1, "pass", 1)], since=0)
    Traceback (most recent call last):
    chickenfoot.server._rows.GapError: table t: move 1 is missing from the database
    """
    moves = []
    for expected, (idx, seat, move, forced) in enumerate(rows, start=since):
        if idx != expected:
            raise GapError(f"table {table_id}: move {expected} is missing from the database")
        moves.append((seat, move, bool(forced)))
    return moves


def decide_ask(
    stored: StoredTable, seat: int, *, seed: int, at: int, rematch: bool, now: float
) -> Asked | None:
    """What ``seat``'s ``next`` (or ``rematch``), asked at the record's length ``at`` of
    the match of ``seed``, does to ``stored`` (read in the transaction that writes the
    answer): the seats ready then, and whether every person's seat is among them.
    ``None``: the table moved on (another match, a ``next`` with no pause of that round)
    or the seat is no person's. A ``next`` once the pause is over is done at once.

    >>> seats = (SeatRow(0, "person", "", "a", "A"), SeatRow(1, "person", "", "b", "B"),
    ...          SeatRow(2, "bot", "greedy", None, "g"))
    >>> t = StoredTable("t", "{}", 1, seats, pause_at=9, pause_until=100.0)
    >>> decide_ask(t, 1, seed=1, at=9, rematch=False, now=50.0)
    Asked(ready=frozenset({1}), done=False)
    >>> decide_ask(t._replace(ready_at=9, ready=0b1), 1, seed=1, at=9, rematch=False, now=50.0)
    Asked(ready=frozenset({0, 1}), done=True)
    >>> decide_ask(t, 1, seed=1, at=8, rematch=False, now=50.0) is None   # not this pause
    True
    """
    if stored.seed != seed or not any(s.seat == seat and s.kind == "person" for s in stored.seats):
        return None
    if not rematch:
        if stored.pause_at != at:
            return None
        if stored.pause_until is None or stored.pause_until <= now:
            return Asked(stored.ready_seats(at), True)  # over by itself
    ready = stored.ready_seats(at) | {seat}
    people = {s.seat for s in stored.seats if s.kind == "person"}
    return Asked(frozenset(ready), people <= ready)


def ready_bits(seats: Iterable[int]) -> int:
    """The seats as stored: a bit per seat.

    >>> ready_bits([0, 2])
    5
    """
    return sum(1 << s for s in set(seats))


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
