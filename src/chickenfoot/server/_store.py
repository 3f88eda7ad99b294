"""The server's storage: what a store holds and promises, whichever database holds it.

Two stores keep the same record (:func:`open_store` picks one):

- :class:`~chickenfoot.server._sqlite.SqliteStore`, one SQLite file (the standard
  library's ``sqlite3``): the embedded default, for one server process;
- :class:`~chickenfoot.server._postgres.PostgresStore`, a PostgreSQL database (psycopg 3,
  the ``postgres`` extra): for hosts whose disk does not outlive a restart, and for more
  than one server process on the same tables.

A table is stored as what it was made of and every move accepted on it, nothing derived:

- ``tables``: the table's id, its rules (a ``chickenfoot/rules`` document as JSON), its
  options (JSON: whether hints are on), the match's seed (secret: the seed deals every hand), when it last changed (``touched``,
  Unix seconds) and when its match ended (``finished``, or null): what the server's table
  life cycle reads (docs: Serve, "Bounded");
- ``seats``: per seat its kind (``person`` or ``bot``), the bot's spec, its display name
  and, for a person, the seat's token (the invite link's secret);
- ``moves``: per table the moves in order (``idx`` from 0), each with its seat and whether
  it was forced (the only legal move: a fact about the hand, the server's own record, told
  to no seat but the one that moved).

What the people of a table agree on is stored too, so that every process serving it
agrees (:class:`StoredTable`): while the round just dealt waits (until when; stored with
the move that ended the round, from its commit), and which person's seats asked for the
next round or a rematch (:meth:`Store.ask`: done when every person's seat has).

Every failure of the database is a :class:`StoreError` (a damaged record, a move number
missing, a :class:`GapError`), whichever store; never the driver's own error.

A move is stored only when it extends its table: number ``idx`` not taken yet, and move
``idx - 1`` there (or ``idx`` 0). So two writers (two server processes) never both extend
a table: the database refuses the second move of one number, and the loser reads what
won. :meth:`Store.add_moves` commits a batch of moves in one transaction before it
returns (the group commit), so a move is durable before anyone is told of it; the server
replays ``moves`` with every check when it loads a table.

>>> store = open_store(":memory:")
>>> store.add_table("t1", '{"players": 2}', 7, [SeatRow(0, "person", "", "tok", "you"),
...                                             SeatRow(1, "bot", "greedy", None, "greedy")])
>>> store.add_moves([MoveRow("t1", 0, 0, "9-3@9-9", False), MoveRow("t1", 1, 1, "draw", True)])
[True, True]
>>> store.add_moves([MoveRow("t1", 1, 0, "draw", False)])   # number 1 is taken
[False]
>>> [t.id for t in store.tables()], store.moves("t1", since=1)
(['t1'], [(1, 'draw', True)])
>>> store.restart("t1", 8)                  # a rematch: a new seed, no moves
>>> store.tables(ids=["t1"])[0].seed, store.moves("t1")
(8, [])
>>> store.add_moves([MoveRow("t1", 0, 0, "9-3@9-9", False), MoveRow("t1", 1, 1, "draw", True)])
[True, True]
>>> store.ask("t1", 0, seed=8, at=2, rematch=9)   # the only person's seat: a new match
Asked(ready=frozenset({0}), done=True)
>>> stored, moves = store.catch_up("t1", seed=8, since=2)
>>> stored.seed, moves
(9, [])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Protocol

from chickenfoot.server._rows import (
    Asked,
    ConflictError,
    GapError,
    MoveRow,
    SeatRow,
    StoredTable,
    StoreError,
    redact,
)

__all__ = [
    "Asked",
    "ConflictError",
    "GapError",
    "MoveRow",
    "SeatRow",
    "Store",
    "StoreError",
    "StoredTable",
    "is_postgres",
    "open_store",
    "redact",
]


class Store(Protocol):
    """What the server needs of its database. Every method is synchronous and safe to
    call from any thread; every write is one transaction, committed (durable) before the
    method returns. Every method raises :class:`StoreError` when the database fails (a
    write then may or may not have been committed: try it again)."""

    file: str | None
    """The SQLite file the store writes (its disk's free space matters), or ``None``: in
    memory, or a database server."""

    def add_table(
        self,
        table_id: str,
        rules: str,
        seed: int,
        seats: Sequence[SeatRow],
        *,
        now: float | None = None,
        options: str = "{}",
    ) -> None:
        """Store a new table and its seats; ``now``: Unix seconds (default: now);
        ``options``: the table's options as JSON (``{"hints": true}``)."""

    def add_moves(self, rows: Sequence[MoveRow]) -> list[bool]:
        """Store ``rows`` in one transaction, one commit (each table's ``touched`` set);
        per row ``True`` if stored, ``False`` if not: its number was taken (another writer
        extended the table first), or it does not extend its table (move ``idx - 1``
        missing, the table gone, or its seed no longer ``row.seed``), or it follows a
        refused move of its table in ``rows`` (it was made after that one). One refused
        row never fails the others' tables."""

    def add_move(self, table_id: str, idx: int, seat: int, move: str, *, forced: bool) -> None:
        """Store one move (:meth:`add_moves`); raises :class:`ConflictError` if refused."""

    def finish(self, table_id: str) -> None:
        """Mark a table's match as ended (now)."""

    def restart(self, table_id: str, seed: int) -> None:
        """A rematch: the table's new ``seed``, its moves deleted, its match no longer
        finished, nobody ready, no pause."""

    def ask(
        self, table_id: str, seat: int, *, seed: int, at: int, rematch: int | None = None
    ) -> Asked | None:
        """A person's ``next`` (without ``rematch``) or ``rematch`` (``rematch``: the new
        match's seed), asked by ``seat`` with the table at the record's length ``at`` of
        the match of ``seed``: the seats that have asked now, and whether every person's
        seat has, in one transaction; when all have, the round dealt starts (the pause
        ends) or the rematch is made (:meth:`restart`). ``None`` (nothing written): the
        table moved on (another match, no pause of that round: catch up) or is gone."""

    def catch_up(
        self, table_id: str, *, seed: int, since: int
    ) -> tuple[StoredTable, list[tuple[int, str, bool]]] | None:
        """What a process holding the table at move ``since`` of the match of ``seed``
        reads to catch up, in one snapshot: the table (its seed, pause, ready seats) and
        its moves from ``since`` on, or from 0 when the seed is no longer ``seed`` (a
        rematch made elsewhere); ``None`` if the table is gone. Raises :class:`GapError`
        when a move is missing."""

    def count(self) -> int:
        """The number of tables stored."""

    def stale(self, *, before: float, limit: int = -1) -> list[str]:
        """The ids of the tables not changed since ``before`` (Unix seconds), oldest first
        (at most ``limit``; -1: all)."""

    def oldest(self, limit: int) -> list[str]:
        """The ids of the ``limit`` tables changed least recently, oldest first."""

    def delete(self, table_ids: Sequence[str]) -> int:
        """Delete tables with their seats and moves; returns how many."""

    def tables(
        self, *, ids: Sequence[str] | None = None, live_since: float | None = None, limit: int = -1
    ) -> list[StoredTable]:
        """The tables, oldest first, with their seats and current seeds: every one, or
        those of ``ids``, or (``live_since``, Unix seconds) those not finished and changed
        since then; the ``limit`` most recent."""

    def moves(self, table_id: str, *, since: int = 0) -> list[tuple[int, str, bool]]:
        """A table's moves from number ``since`` on, in order: ``(seat, move, forced)``.
        Raises :class:`GapError` when one is missing (a damaged record)."""

    def subscribe(self, callback: Callable[[str, int | None], object]) -> None:
        """Call ``callback(table_id, moves)`` (from a thread of the store's own) after every
        committed change of a table by any process (moves, finish, restart, delete), this
        one's included; ``moves`` is the length of the table's record after a move was
        stored, else ``None``. PostgreSQL only; a SQLite store has one process and calls
        nothing."""

    def close(self) -> None:
        """Close the database (and stop the subscription)."""


def is_postgres(where: str | os.PathLike[str]) -> bool:
    """Whether ``where`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://``
    URL) rather than a SQLite file.

    >>> is_postgres("postgresql://cf@db.example.org/cf"), is_postgres("tables.db")
    (True, False)
    """
    return isinstance(where, str) and where.lower().startswith(("postgresql://", "postgres://"))


def open_store(where: str | os.PathLike[str]) -> Store:
    """The store at ``where``: a ``postgresql://`` (or ``postgres://``) URL opens a
    PostgreSQL database (psycopg is imported then only), anything else a SQLite file
    (created if missing, readable by its owner only) or ``":memory:"``.

    Raises :class:`StoreError` when the database cannot be opened (psycopg missing, the
    server unreachable, a file that is not a database).
    """
    if is_postgres(where):
        from chickenfoot.server._postgres import PostgresStore

        return PostgresStore(os.fspath(where))
    from chickenfoot.server._sqlite import SqliteStore

    return SqliteStore(where)
