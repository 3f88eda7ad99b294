"""The SQLite store: one file, the standard library's ``sqlite3`` (the server's default).

The record is the one :mod:`~chickenfoot.server._store` describes. The file is made
readable by its owner only (it holds the seats' tokens and the seeds); the journal is a
write-ahead log synced at every commit (``synchronous=FULL``), so a move is durable when
:meth:`SqliteStore.add_moves` returns. One process uses a file: a second server on the
same file would never hear of the first one's moves (:meth:`SqliteStore.subscribe` calls
nothing), which is what the PostgreSQL store is for.

>>> store = SqliteStore(":memory:")
>>> store.add_table("t1", '{"players": 2}', 7, [SeatRow(0, "person", "", "tok", "you"),
...                                             SeatRow(1, "bot", "greedy", None, "greedy")])
>>> store.add_move("t1", 0, 0, "9-3@9-9", forced=False)
>>> store.add_move("t1", 0, 1, "draw", forced=False)
Traceback (most recent call last):
chickenfoot.server._rows.ConflictError: table t1: move 0 is not stored (taken, or not the next)
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Final

from chickenfoot._files import appendable
from chickenfoot.errors import brief
from chickenfoot.server._rows import (
    Asked,
    ConflictError,
    MoveRow,
    SeatRow,
    StoredTable,
    StoreError,
    check_moves,
    decide_ask,
    ready_bits,
    redact,
)

__all__ = ["BUSY_SECONDS", "SqliteStore"]

BUSY_SECONDS: Final = 1.0
"""How long a statement waits for a lock another connection holds (a backup, a shell)
before the store raises :class:`StoreError`: short, since the store's own lock is held
meanwhile; the server tries a failed move again until the file answers."""

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

# A move is stored when its table exists (with the seed given, if one is), its number is
# free (OR IGNORE: the primary key) and the move before it is there: it extends the table.
# (After a refused move, the same batch's later moves of its table are refused unread.)
_ADD_MOVE = """
INSERT OR IGNORE INTO moves (table_id, idx, seat, move, forced)
SELECT :t, :idx, :seat, :move, :forced
WHERE EXISTS (SELECT 1 FROM tables WHERE id = :t AND (:seed IS NULL OR seed = :seed))
  AND (:idx = 0 OR EXISTS (SELECT 1 FROM moves WHERE table_id = :t AND idx = :idx - 1))
"""
_AGREEMENT = (  # what the people agree on (docs: _store): added to a database of before
    ("pause_at", "INTEGER"),
    ("pause_until", "REAL"),
    ("ready_at", "INTEGER"),
    ("ready", "INTEGER NOT NULL DEFAULT 0"),
    ("options", "TEXT NOT NULL DEFAULT '{}'"),  # the table's options (hints), as made
)
_TABLE = "t.id, t.rules, t.seed, t.pause_at, t.pause_until, t.ready_at, t.ready, t.options"


def _seed_text(seed: int) -> str:
    """A seed as the ``seed`` column keeps it: decimal when it fits in 64 bits, else
    hexadecimal (``0x...``), which SQLite keeps as text: a 128-bit seed in decimal would be
    turned into a float by the column's integer affinity, and lose its digits.

    >>> _seed_text(7), _seed_text(2**64), _seed_value(_seed_text(2**127 + 1)) == 2**127 + 1
    ('7', '0x10000000000000000', True)
    """
    return str(seed) if -(2**63) <= seed < 2**63 else hex(seed)


def _seed_value(raw: object) -> int:
    """The seed a ``seed`` column holds (an integer, or :func:`_seed_text`'s text)."""
    return raw if isinstance(raw, int) else int(str(raw), 0)


class SqliteStore:
    """The SQLite file at ``path`` (created if missing; ``":memory:"`` for tests).

    Every write is one transaction, committed before the method returns; a lock makes the
    store safe to share between the server's threads. Raises :class:`StoreError` when the
    file cannot be opened as a database, and when it fails (locked by another connection
    for over :data:`BUSY_SECONDS`, a full disk): a write that failed was not committed.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        where = os.fspath(path)
        self.file: str | None = None if where == ":memory:" else where
        self._lock = threading.Lock()
        why = None if self.file is None else appendable(where)  # never a pipe or a device
        if why is not None:
            raise StoreError(f"cannot open the database {redact(where)!r}: {why}")
        try:
            if self.file is not None and not os.path.exists(where):
                fd = os.open(where, os.O_CREAT | os.O_WRONLY, 0o600)
                os.close(fd)
            self._db = sqlite3.connect(
                where, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None
            )
            with self._lock:
                self._setup()
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"cannot open the database {redact(where)!r}: {err}") from None

    def _setup(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # durable at each commit
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "touched" not in columns:  # a database of an older version
            self._db.execute("ALTER TABLE tables ADD COLUMN touched REAL")
            self._db.execute("ALTER TABLE tables ADD COLUMN finished REAL")
            self._db.execute("UPDATE tables SET touched = (created - 2440587.5) * 86400.0")
        for column, kind in _AGREEMENT:
            if column not in columns:
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")
        self._db.execute("CREATE INDEX IF NOT EXISTS tables_touched ON tables (touched)")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock; the driver's errors become :class:`StoreError`."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as err:
                raise self._failed(err) from None

    def _failed(self, err: sqlite3.Error) -> StoreError:
        text = brief(" ".join(str(err).split()), 200)[1:-1]
        return StoreError(f"the database {redact(self.file or ':memory:')!r} failed: {text}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction under the lock: committed at the end, rolled back on an
        error; the driver's errors become :class:`StoreError` (nothing committed)."""
        with self._reading() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

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
        """Store a new table and its seats (one transaction); ``now``: Unix seconds."""
        when = time.time() if now is None else now
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, rules, seed, touched, options) VALUES (?, ?, ?, ?, ?)",
                (table_id, rules, _seed_text(seed), when, options),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, kind, spec, token, name) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, *row) for row in seats],
            )

    def add_moves(self, rows: Sequence[MoveRow]) -> list[bool]:
        """Store ``rows`` in one transaction with one commit (durable when this returns);
        per row whether it was stored (see :meth:`Store.add_moves
        <chickenfoot.server._store.Store.add_moves>`)."""
        if not rows:
            return []
        now = time.time()
        order = sorted(range(len(rows)), key=lambda i: (rows[i].table_id, rows[i].idx))
        stored = [False] * len(rows)
        refused: set[str] = set()  # a table's later moves in the batch follow a refused one
        with self._transaction() as db:
            for i in order:
                row = rows[i]
                if row.table_id in refused:
                    continue
                seed = None if row.seed is None else _seed_text(row.seed)
                cursor = db.execute(
                    _ADD_MOVE,
                    {"t": row.table_id, "idx": row.idx, "seat": row.seat, "move": row.move,
                     "forced": int(row.forced), "seed": seed},
                )  # fmt: skip
                stored[i] = cursor.rowcount == 1
                if not stored[i]:
                    refused.add(row.table_id)
                elif row.pause is not None:  # the round it deals waits, from this commit
                    db.execute(
                        "UPDATE tables SET pause_at = ?, pause_until = ?, ready_at = NULL, "
                        "ready = 0 WHERE id = ?",
                        (row.idx + 1, now + row.pause, row.table_id),
                    )
            changed = sorted({rows[i].table_id for i in order if stored[i]})
            db.executemany(
                "UPDATE tables SET touched = ? WHERE id = ?", [(now, t) for t in changed]
            )
        return stored

    def add_move(self, table_id: str, idx: int, seat: int, move: str, *, forced: bool) -> None:
        """Store move number ``idx`` of a table, committed (durable) when this returns;
        raises :class:`ConflictError` when it is not stored (the number taken: two writers
        can never both extend a table)."""
        if not self.add_moves([MoveRow(table_id, idx, seat, move, forced)]) == [True]:
            raise ConflictError(
                f"table {table_id}: move {idx} is not stored (taken, or not the next)"
            )

    def finish(self, table_id: str) -> None:
        """Mark a table's match as ended (now)."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET finished = ?, touched = ? WHERE id = ?", (now, now, table_id)
            )

    def restart(self, table_id: str, seed: int) -> None:
        """A rematch: the table's new ``seed``, its moves deleted, its match no longer
        finished (one transaction)."""
        with self._transaction() as db:
            self._restart(db, table_id, seed)

    @staticmethod
    def _restart(db: sqlite3.Connection, table_id: str, seed: int) -> None:
        db.execute(
            "UPDATE tables SET seed = ?, finished = NULL, touched = ?, pause_at = NULL, "
            "ready_at = NULL, ready = 0 WHERE id = ?",
            (_seed_text(seed), time.time(), table_id),
        )
        db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))

    def ask(
        self, table_id: str, seat: int, *, seed: int, at: int, rematch: int | None = None
    ) -> Asked | None:
        """A person's ``next`` (or, with ``rematch``, the new match's seed, a
        ``rematch``), asked at the record's length ``at`` of the match of ``seed`` (see
        :meth:`Store.ask <chickenfoot.server._store.Store.ask>`; one transaction)."""
        with self._transaction() as db:
            found = self._tables(db, " WHERE id = ?", [table_id], -1)
            if not found:
                return None
            asked = decide_ask(
                found[0], seat, seed=seed, at=at, rematch=rematch is not None, now=time.time()
            )
            if asked is None:
                return None
            if asked.done and rematch is not None:
                self._restart(db, table_id, rematch)
            elif asked.done:
                db.execute(
                    "UPDATE tables SET pause_at = NULL, ready_at = NULL, ready = 0 "
                    "WHERE id = ? AND pause_at = ?",
                    (table_id, at),
                )
            else:
                db.execute(
                    "UPDATE tables SET ready_at = ?, ready = ? WHERE id = ?",
                    (at, ready_bits(asked.ready), table_id),
                )
        return asked

    def catch_up(
        self, table_id: str, *, seed: int, since: int
    ) -> tuple[StoredTable, list[tuple[int, str, bool]]] | None:
        """The table and its moves from number ``since`` on (from 0 when its seed is no
        longer ``seed``: a rematch), read together; ``None`` if it is gone."""
        with self._reading() as db:
            db.execute("BEGIN")
            try:
                found = self._tables(db, " WHERE id = ?", [table_id], -1)
                if not found:
                    return None
                start = since if found[0].seed == seed else 0
                rows = db.execute(
                    "SELECT idx, seat, move, forced FROM moves WHERE table_id = ? AND idx >= ? "
                    "ORDER BY idx",
                    (table_id, start),
                ).fetchall()
            finally:
                db.execute("COMMIT")
        return found[0], check_moves(table_id, rows, start)

    def count(self) -> int:
        """The number of tables stored."""
        with self._reading() as db:
            (n,) = db.execute("SELECT count(*) FROM tables").fetchone()
        return int(n)

    def stale(self, *, before: float, limit: int = -1) -> list[str]:
        """The ids of the tables not changed since ``before`` (Unix seconds; a finished
        table last changed when its match ended), oldest first (at most ``limit``; -1: all)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT id FROM tables WHERE touched < ? ORDER BY touched LIMIT ?",
                (before, limit),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def oldest(self, limit: int) -> list[str]:
        """The ids of the ``limit`` tables changed least recently, oldest first."""
        with self._reading() as db:
            rows = db.execute("SELECT id FROM tables ORDER BY touched LIMIT ?", (limit,)).fetchall()
        return [table_id for (table_id,) in rows]

    def delete(self, table_ids: Sequence[str]) -> int:
        """Delete tables with their seats and moves (one transaction); returns how many."""
        done = 0
        with self._transaction() as db:
            for table_id in table_ids:
                db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
                db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                done += db.execute("DELETE FROM tables WHERE id = ?", (table_id,)).rowcount
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
        with self._reading() as db:
            db.execute("BEGIN")
            try:
                return self._tables(db, where, args, limit)
            finally:
                db.execute("COMMIT")

    @staticmethod
    def _tables(
        db: sqlite3.Connection, where: str, args: list[object], limit: int
    ) -> list[StoredTable]:
        """The tables ``where`` says, the ``limit`` most recent, oldest first, with seats."""
        chosen = f"SELECT id, rowid AS r FROM tables{where} ORDER BY rowid DESC LIMIT ?"
        rows = db.execute(
            f"SELECT {_TABLE} FROM tables t JOIN ({chosen}) c ON t.id = c.id ORDER BY c.r",
            (*args, limit),
        ).fetchall()
        seats = db.execute(
            "SELECT s.table_id, s.seat, s.kind, s.spec, s.token, s.name FROM seats s "
            f"JOIN ({chosen}) c ON s.table_id = c.id ORDER BY s.table_id, s.seat",
            (*args, limit),
        ).fetchall()
        by_table: dict[str, list[SeatRow]] = {}
        for table_id, *rest in seats:
            by_table.setdefault(table_id, []).append(SeatRow(*rest))
        return [
            StoredTable(
                table_id, rules, _seed_value(seed), tuple(by_table.get(table_id, ())), *agreed
            )
            for table_id, rules, seed, *agreed in rows
        ]

    def moves(self, table_id: str, *, since: int = 0) -> list[tuple[int, str, bool]]:
        """A table's moves from number ``since`` on, in order: ``(seat, move, forced)``."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT idx, seat, move, forced FROM moves WHERE table_id = ? AND idx >= ? "
                "ORDER BY idx",
                (table_id, since),
            ).fetchall()
        return check_moves(table_id, rows, since)

    def subscribe(self, callback: Callable[[str, int | None], object]) -> None:
        """Nothing: one process uses a SQLite file, and it knows its own changes."""

    def close(self) -> None:
        """Close the database."""
        with self._reading() as db:
            db.close()
