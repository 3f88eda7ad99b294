"""The server's storage: one SQLite file (the standard library's ``sqlite3``).

A table is stored as what it was made of and every move accepted on it, nothing derived:

- ``tables``: the table's id, its rules (a ``chickenfoot/rules`` document as JSON), the
  match's seed (secret: the seed deals every hand), when it last changed (``touched``,
  Unix seconds) and when its match ended (``finished``, or null): what the server's table
  life cycle reads (docs: Serve, "Bounded");
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
import time
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["MoveRow", "SeatRow", "Store", "StoredTable", "open_store"]

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


class MoveRow(NamedTuple):
    """One move to store: move number ``idx`` of a table, by ``seat``, in notation."""

    table_id: str
    idx: int
    seat: int
    move: str
    forced: bool


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
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            if "touched" not in columns:  # a database of an older version
                self._db.execute("ALTER TABLE tables ADD COLUMN touched REAL")
                self._db.execute("ALTER TABLE tables ADD COLUMN finished REAL")
                self._db.execute("UPDATE tables SET touched = (created - 2440587.5) * 86400.0")
            self._db.execute("CREATE INDEX IF NOT EXISTS tables_touched ON tables (touched)")

    def add_table(
        self,
        table_id: str,
        rules: str,
        seed: int,
        seats: Sequence[SeatRow],
        *,
        now: float | None = None,
    ) -> None:
        """Store a new table and its seats (one transaction); ``now``: Unix seconds."""
        when = time.time() if now is None else now
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO tables (id, rules, seed, touched) VALUES (?, ?, ?, ?)",
                    (table_id, rules, str(seed), when),
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

    def add_moves(self, rows: Sequence[MoveRow]) -> list[bool]:
        """Store moves, all in one transaction, committed (durable) when this returns; per
        row ``True``, or ``False`` when its table has a move of that number already
        (another writer extended it first: two writers never both extend a table)."""
        now = time.time()
        stored = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for row in rows:
                    cursor = self._db.execute(
                        "INSERT OR IGNORE INTO moves (table_id, idx, seat, move, forced) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (row.table_id, row.idx, row.seat, row.move, int(row.forced)),
                    )
                    stored.append(cursor.rowcount == 1)
                self._db.executemany(
                    "UPDATE tables SET touched = ? WHERE id = ?",
                    [
                        (now, t)
                        for t in {row.table_id for row, ok in zip(rows, stored, strict=True) if ok}
                    ],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return stored

    def add_move(
        self,
        table_id: str,
        idx: int,
        seat: int,
        move: str,
        *,
        forced: bool,
    ) -> None:
        """Store move number ``idx`` of a table, committed (durable) when this returns.

        A second move with the same number is refused (``sqlite3.IntegrityError``): two
        writers can never both extend a table.
        """
        if not self.add_moves([MoveRow(table_id, idx, seat, move, forced)])[0]:
            raise sqlite3.IntegrityError(f"table {table_id} has a move {idx} already")

    def finish(self, table_id: str) -> None:
        """Mark a table's match as ended (now)."""
        with self._lock:
            self._db.execute(
                "UPDATE tables SET finished = ?, touched = ? WHERE id = ?",
                (time.time(), time.time(), table_id),
            )

    def restart(self, table_id: str, seed: int) -> None:
        """A rematch: the table's new ``seed``, its moves deleted, its match no longer
        finished (one transaction)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "UPDATE tables SET seed = ?, finished = NULL, touched = ? WHERE id = ?",
                    (str(seed), time.time(), table_id),
                )
                self._db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def count(self) -> int:
        """The number of tables stored."""
        with self._lock:
            (n,) = self._db.execute("SELECT count(*) FROM tables").fetchone()
        return int(n)

    def stale(self, *, before: float, limit: int = -1) -> list[str]:
        """The ids of the tables not changed since ``before`` (Unix seconds; a finished
        table last changed when its match ended), oldest first (at most ``limit``; -1: all)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE touched < ? ORDER BY touched LIMIT ?",
                (before, limit),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def oldest(self, limit: int) -> list[str]:
        """The ids of the ``limit`` tables changed least recently, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables ORDER BY touched LIMIT ?", (limit,)
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def delete(self, table_ids: Sequence[str]) -> int:
        """Delete tables with their seats and moves (one transaction); returns how many."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                done = 0
                for table_id in table_ids:
                    self._db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
                    self._db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                    done += self._db.execute(
                        "DELETE FROM tables WHERE id = ?", (table_id,)
                    ).rowcount
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return done

    def tables(
        self, *, ids: Sequence[str] | None = None, live_since: float | None = None, limit: int = -1
    ) -> list[StoredTable]:
        """The tables, oldest first, with their seats: every one, or those of ``ids``, or
        (``live_since``, Unix seconds) those not finished and changed since then, the
        ``limit`` most recent."""
        where, args = "", list[object]()
        if ids is not None:
            where = f" WHERE id IN ({', '.join('?' for _ in ids)})"
            args = list(ids)
        elif live_since is not None:
            where = " WHERE finished IS NULL AND touched >= ?"
            args = [live_since]
        chosen = f"SELECT id, rowid AS r FROM tables{where} ORDER BY rowid DESC LIMIT ?"
        with self._lock:
            rows = self._db.execute(
                f"SELECT t.id, t.rules, t.seed FROM tables t JOIN ({chosen}) c ON t.id = c.id "
                "ORDER BY c.r",
                (*args, limit),
            ).fetchall()
            seats = self._db.execute(
                "SELECT s.table_id, s.seat, s.kind, s.spec, s.token, s.name FROM seats s "
                f"JOIN ({chosen}) c ON s.table_id = c.id ORDER BY s.table_id, s.seat",
                (*args, limit),
            ).fetchall()
        by_table: dict[str, list[SeatRow]] = {}
        for table_id, *rest in seats:
            by_table.setdefault(table_id, []).append(SeatRow(*rest))
        return [
            StoredTable(table_id, rules, int(seed), tuple(by_table.get(table_id, ())))
            for table_id, rules, seed in rows
        ]

    def moves(self, table_id: str, *, since: int = 0) -> list[tuple[int, str, bool]]:
        """A table's moves in order from number ``since``: ``(seat, move, forced)``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT idx, seat, move, forced FROM moves WHERE table_id = ? AND idx >= ? "
                "ORDER BY idx",
                (table_id, since),
            ).fetchall()
        for expected, (idx, *_rest) in enumerate(rows, start=since):
            if idx != expected:
                raise ValueError(f"table {table_id}: move {expected} is missing from the database")
        return [(seat, move, bool(forced)) for _idx, seat, move, forced in rows]

    def subscribe(self, callback: object) -> None:
        """Nothing: a SQLite file has one server process (no other writer to hear of)."""

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


def open_store(where: str) -> Store:
    """The store at ``where``: a SQLite file (``":memory:"`` for tests)."""
    return Store(where)
