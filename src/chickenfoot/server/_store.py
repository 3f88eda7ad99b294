"""The server's storage: one SQLite file (the standard library's ``sqlite3``).

A table is stored as what it was made of and every move accepted on it, nothing derived:

- ``tables``: the table's id, its rules (a ``chickenfoot/rules`` document as JSON) and the
  match's seed (secret: the seed deals every hand);
- ``seats``: per seat its kind (``person`` or ``bot``), the bot's spec, its display name
  and, for a person, the seat's token (the invite link's secret);
- ``moves``: per table the moves in order (``idx`` from 0), each with its seat and whether
  it was forced (the only legal move: a fact about the hand, the server's own record, told
  to no seat but the one that moved).

:meth:`Store.add_move` commits before it returns, so a move is durable before anyone is
told of it; the server replays ``moves`` with every check on start
(:func:`~chickenfoot.server._table.restore`). The file is made readable by its owner only
(it holds the seats' tokens and the seeds).

>>> store = Store(":memory:")
>>> store.add_table("t1", '{"players": 2}', 7, [SeatRow(0, "person", "", "tok", "you"),
...                                             SeatRow(1, "bot", "greedy", None, "greedy")])
>>> store.add_move("t1", 0, 0, "9-3@9-9", forced=False)
>>> [t.id for t in store.tables()], store.moves("t1")
(['t1'], [(0, '9-3@9-9', False)])
>>> store.restart("t1", 8)                  # a rematch: a new seed, no moves
>>> store.tables()[0].seed, store.moves("t1")
(8, [])
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["SeatRow", "Store", "StoredTable"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
    spec TEXT NOT NULL,
    token TEXT,
    name TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    forced INTEGER NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


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


class Store:
    """The database at ``path`` (created if missing; ``":memory:"`` for tests).

    Every write is one transaction, committed before the method returns; a lock makes the
    store safe to share between the server's threads.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        where = os.fspath(path)
        if where != ":memory:" and not os.path.exists(where):
            fd = os.open(where, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        self._db = sqlite3.connect(where, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # durable at each commit
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)

    def add_table(self, table_id: str, rules: str, seed: int, seats: Sequence[SeatRow]) -> None:
        """Store a new table and its seats (one transaction)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO tables (id, rules, seed) VALUES (?, ?, ?)",
                    (table_id, rules, str(seed)),
                )
                self._db.executemany(
                    "INSERT INTO seats (table_id, seat, kind, spec, token, name) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(table_id, *row) for row in seats],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def add_move(self, table_id: str, idx: int, seat: int, move: str, *, forced: bool) -> None:
        """Store move number ``idx`` of a table, committed (durable) when this returns.

        A second move with the same number is refused (``sqlite3.IntegrityError``): two
        writers can never both extend a table.
        """
        with self._lock:
            self._db.execute(
                "INSERT INTO moves (table_id, idx, seat, move, forced) VALUES (?, ?, ?, ?, ?)",
                (table_id, idx, seat, move, int(forced)),
            )

    def restart(self, table_id: str, seed: int) -> None:
        """A rematch: the table's new ``seed``, its moves deleted (one transaction)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("UPDATE tables SET seed = ? WHERE id = ?", (str(seed), table_id))
                self._db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def tables(self) -> list[StoredTable]:
        """Every table, oldest first, with its seats."""
        with self._lock:
            rows = self._db.execute("SELECT id, rules, seed FROM tables ORDER BY rowid").fetchall()
            seats = self._db.execute(
                "SELECT table_id, seat, kind, spec, token, name FROM seats ORDER BY table_id, seat"
            ).fetchall()
        by_table: dict[str, list[SeatRow]] = {}
        for table_id, *rest in seats:
            by_table.setdefault(table_id, []).append(SeatRow(*rest))
        return [
            StoredTable(table_id, rules, int(seed), tuple(by_table.get(table_id, ())))
            for table_id, rules, seed in rows
        ]

    def moves(self, table_id: str) -> list[tuple[int, str, bool]]:
        """A table's moves in order: ``(seat, move, forced)``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT idx, seat, move, forced FROM moves WHERE table_id = ? ORDER BY idx",
                (table_id,),
            ).fetchall()
        for expected, (idx, *_rest) in enumerate(rows):
            if idx != expected:
                raise ValueError(f"table {table_id}: move {expected} is missing from the database")
        return [(seat, move, bool(forced)) for _idx, seat, move, forced in rows]

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
