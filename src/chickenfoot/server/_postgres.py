"""The PostgreSQL store: psycopg 3 (the ``postgres`` extra), for more than one process.

The record is the one :mod:`~chickenfoot.server._store` describes, in three tables of its
own (``chickenfoot_tables``, ``chickenfoot_seats``, ``chickenfoot_moves``, made on first
use). Every write is one transaction with ``synchronous_commit`` on, so a move is durable
when :meth:`PostgresStore.add_moves` returns; each one that changes a table also sends
the table's id on the channel ``chickenfoot_tables_SCHEMA`` (``SCHEMA``: the schema of
the store's tables, usually ``public``; ``pg_notify``, delivered at its commit), which
:meth:`PostgresStore.subscribe` hears, from every process.

Two processes never both extend a table: a batch first locks its tables' rows (in order
of id, so two batches never wait on each other in a circle), then stores each move only
if its number is free and the move before it is there (``ON CONFLICT DO NOTHING``).

psycopg is imported here only, when a store is made; the database's address is never
written in a message or a log line with its password (:func:`~._rows.redact`).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from chickenfoot.errors import brief
from chickenfoot.server._postgres_sql import (
    ADD_MOVE,
    ADD_MOVES,
    ADD_TABLE,
    LOCK_AND_TOUCH,
    PAUSE,
    SCHEMA,
    TABLE,
)
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
    scrub,
)

if TYPE_CHECKING:
    import psycopg

__all__ = ["CATCH_UP_MARGIN", "PostgresStore"]

log = logging.getLogger("chickenfoot.server")

CHANNEL: Final = "chickenfoot_tables"
"""The start of the channel's name on which a store sends each changed table's id."""
CATCH_UP_MARGIN: Final = 60.0
"""After the subscription's connection was lost, the tables changed since this many
seconds before it was last known alive are announced again (the changes it may have
missed, with room for the clocks of the processes to differ)."""
_WAIT: Final = 0.5
"""How often the subscription's thread looks whether the store is closing (seconds)."""


def _psycopg() -> Any:
    """The psycopg module, or a :class:`StoreError` saying how to install it."""
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            "a PostgreSQL database needs psycopg 3: pip install 'chickenfoot[postgres]'"
        ) from None
    return psycopg


def _failed(err: Exception, dsn: str, what: str = "failed") -> StoreError:
    """``err`` of the driver as a :class:`StoreError`: one bounded line, no password."""
    text = scrub(" ".join(str(err).split()), dsn)
    return StoreError(f"the database {redact(dsn)} {what}: {brief(text, 300)[1:-1]}")


class PostgresStore:
    """The PostgreSQL database at ``dsn`` (a ``postgresql://`` URL or libpq's
    ``key=value`` text); its tables are made if missing.

    Safe to share between threads (one connection behind a lock; a connection lost is
    made again at the next call). Raises :class:`StoreError` when the database cannot be
    reached or fails; the write that failed then may or may not have been committed.
    """

    def __init__(self, dsn: str) -> None:
        self._psycopg = _psycopg()
        self.file: str | None = None
        self._dsn = dsn
        self._where = redact(dsn)
        self._lock = threading.Lock()
        self._closed = False
        self._listener: _Listener | None = None
        # pipeline mode needs libpq 14 (psycopg[binary] brings its own)
        self._pipeline = bool(self._psycopg.Pipeline.is_supported())
        self._db = self.connect()
        try:
            with self._lock, self._transaction() as db:
                # two processes starting at once make the tables one after the other
                db.execute("SELECT pg_advisory_xact_lock(hashtext('chickenfoot schema'))")
                for statement in SCHEMA.split(";"):
                    db.execute(statement)
                row = db.execute("SELECT current_schema()").fetchone()
        except BaseException:
            self._db.close()
            raise
        # the channel of this schema's tables: stores of other schemas hear nothing of them
        name = f"{CHANNEL}_{row[0] if row else ''}".encode()[:63]
        self.channel: str = name.decode(errors="ignore")
        """The channel on which the changed tables' ids are sent."""

    def connect(self, **options: Any) -> psycopg.Connection[Any]:
        """A new connection to the database (autocommit: transactions are explicit),
        ``synchronous_commit`` on; ``options`` are libpq's, over the address's own."""
        psycopg = self._psycopg
        try:
            params = psycopg.conninfo.conninfo_to_dict(self._dsn)
            params.setdefault("connect_timeout", 10)
            params.setdefault("application_name", "chickenfoot")
            params.update(options)
            db = psycopg.connect(autocommit=True, **params)
            db.execute("SET synchronous_commit TO on")
        except psycopg.Error as err:
            raise _failed(err, self._dsn, "cannot be reached") from None
        return db  # type: ignore[no-any-return]

    @contextmanager
    def _transaction(
        self, *, repeatable: bool = False, pipeline: bool = False
    ) -> Iterator[psycopg.Connection[Any]]:
        """One transaction on the store's connection (under the lock, which the caller
        holds): committed at the end, rolled back on an error; in pipeline mode (the
        statements sent without waiting for their results) if asked. The driver's errors
        become :class:`StoreError`, and a broken connection is made again next time."""
        psycopg = self._psycopg
        if self._closed:
            raise StoreError(f"the database {self._where} is closed")
        if self._db.closed or self._db.broken:
            self._db = self.connect()
        try:
            with contextlib.ExitStack() as stack:
                if pipeline:
                    stack.enter_context(self._db.pipeline())
                stack.enter_context(self._db.transaction())
                if repeatable:
                    self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                yield self._db
        except psycopg.Error as err:
            raise _failed(err, self._dsn) from err

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
        with self._lock, self._transaction() as db:
            db.execute(ADD_TABLE, (table_id, rules, str(seed), when, options))
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO chickenfoot_seats (table_id, seat, kind, spec, token, name) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    # PostgreSQL's text holds no NUL character (SQLite's does): a name's is
                    # shown as the replacement character
                    [(table_id, s.seat, s.kind, s.spec, s.token, s.name.replace("\0", "\ufffd"))
                     for s in seats],
                )  # fmt: skip

    def add_moves(self, rows: Sequence[MoveRow]) -> list[bool]:
        """Store ``rows`` in one transaction with one commit (durable when this returns);
        per row whether it was stored (see :meth:`Store.add_moves
        <chickenfoot.server._store.Store.add_moves>`)."""
        if not rows:
            return []
        now = time.time()
        ids = sorted({row.table_id for row in rows})
        per_table = Counter(row.table_id for row in rows)
        order = sorted(range(len(rows)), key=lambda i: (rows[i].table_id, rows[i].idx))
        alone = [rows[i] for i in order if per_table[rows[i].table_id] == 1]
        several = [i for i in order if per_table[rows[i].table_id] > 1]
        columns = [
            [r.table_id for r in alone], [r.idx for r in alone], [r.seat for r in alone],
            [r.move for r in alone], [bool(r.forced) for r in alone],
            [None if r.seed is None else str(r.seed) for r in alone],
        ]  # fmt: skip
        params = [
            {"t": rows[i].table_id, "idx": rows[i].idx, "seat": rows[i].seat,
             "move": rows[i].move, "forced": bool(rows[i].forced),
             "seed": None if rows[i].seed is None else str(rows[i].seed),
             "first": k == 0 or rows[several[k - 1]].table_id != rows[i].table_id,
             "channel": self.channel}
            for k, i in enumerate(several)
        ]  # fmt: skip
        with self._lock, self._transaction(pipeline=self._pipeline) as db:
            # one round trip: the statements are sent at once, read at the commit
            db.execute(LOCK_AND_TOUCH, (now, ids))
            batch = db.execute(ADD_MOVES, (*columns, self.channel)) if alone else None
            cursors = [db.execute(ADD_MOVE, p) for p in params]
            pauses = [r for r in rows if r.pause is not None]
            if pauses:
                db.execute(
                    PAUSE,
                    (now, [r.table_id for r in pauses], [r.idx for r in pauses],
                     [r.pause for r in pauses]),
                )  # fmt: skip
        done = {(t, idx) for t, idx, _ in batch.fetchall()} if batch is not None else set()
        stored = [(row.table_id, row.idx) in done for row in rows]
        for i, cursor in zip(several, cursors, strict=True):
            stored[i] = cursor.fetchone() is not None
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
        with self._lock, self._transaction() as db:
            db.execute(
                "WITH changed AS (UPDATE chickenfoot_tables SET finished = %s, touched = %s "
                "WHERE id = %s RETURNING id) SELECT pg_notify(%s, id) FROM changed",
                (now, now, table_id, self.channel),
            )

    def restart(self, table_id: str, seed: int) -> None:
        """A rematch: the table's new ``seed``, its moves deleted, its match no longer
        finished (one transaction)."""
        with self._lock, self._transaction() as db:
            self._restart(db, table_id, seed)

    def _restart(self, db: psycopg.Connection[Any], table_id: str, seed: int) -> None:
        db.execute(
            "WITH changed AS (UPDATE chickenfoot_tables SET seed = %s, finished = NULL, "
            "touched = %s, pause_at = NULL, ready_at = NULL, ready = 0 WHERE id = %s "
            "RETURNING id) SELECT pg_notify(%s, id) FROM changed",
            (str(seed), time.time(), table_id, self.channel),
        )
        db.execute("DELETE FROM chickenfoot_moves WHERE table_id = %s", (table_id,))

    def ask(
        self, table_id: str, seat: int, *, seed: int, at: int, rematch: int | None = None
    ) -> Asked | None:
        """A person's ``next`` or ``rematch`` (:meth:`Store.ask
        <chickenfoot.server._store.Store.ask>`): the row locked, the change sent."""
        with self._lock, self._transaction() as db:
            row = db.execute(
                f"SELECT {TABLE} FROM chickenfoot_tables WHERE id = %s FOR NO KEY UPDATE",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            asked = decide_ask(
                self._stored(db, [row])[0], seat, seed=seed, at=at,
                rematch=rematch is not None, now=time.time(),
            )  # fmt: skip
            if asked is None:
                return None
            if asked.done and rematch is not None:
                self._restart(db, table_id, rematch)
                return asked
            if asked.done:
                change = "pause_at = NULL, ready_at = NULL, ready = 0"
                values: tuple[object, ...] = ()
            else:
                change, values = "ready_at = %s, ready = %s", (at, ready_bits(asked.ready))
            db.execute(
                f"WITH changed AS (UPDATE chickenfoot_tables SET {change} WHERE id = %s "
                "RETURNING id) SELECT pg_notify(%s, id) FROM changed",
                (*values, table_id, self.channel),
            )
        return asked

    def catch_up(
        self, table_id: str, *, seed: int, since: int
    ) -> tuple[StoredTable, list[tuple[int, str, bool]]] | None:
        """The table and its moves from number ``since`` on (from 0 when its seed is no
        longer ``seed``: a rematch), read in one snapshot; ``None`` if it is gone."""
        with self._lock, self._transaction(repeatable=True) as db:
            found = db.execute(
                f"SELECT {TABLE} FROM chickenfoot_tables WHERE id = %s", (table_id,)
            ).fetchall()
            if not found:
                return None
            stored = self._stored(db, found)[0]
            start = since if stored.seed == seed else 0
            rows = db.execute(
                "SELECT idx, seat, move, forced FROM chickenfoot_moves "
                "WHERE table_id = %s AND idx >= %s ORDER BY idx",
                (table_id, start),
            ).fetchall()
        return stored, check_moves(table_id, rows, start)

    @staticmethod
    def _stored(db: psycopg.Connection[Any], rows: Sequence[Any]) -> list[StoredTable]:
        """The tables of ``rows`` (read as ``TABLE`` says), with their seats, in order."""
        seats = db.execute(
            "SELECT table_id, seat, kind, spec, token, name FROM chickenfoot_seats "
            "WHERE table_id = ANY(%s) ORDER BY table_id, seat",
            ([row[0] for row in rows],),
        ).fetchall()
        by_table: dict[str, list[SeatRow]] = {}
        for table_id, *rest in seats:
            by_table.setdefault(table_id, []).append(SeatRow(*rest))
        return [
            StoredTable(table_id, rules, int(seed), tuple(by_table.get(table_id, ())), *agreed)
            for table_id, rules, seed, *agreed in rows
        ]

    def count(self) -> int:
        """The number of tables stored."""
        with self._lock, self._transaction() as db:
            row = db.execute("SELECT count(*) FROM chickenfoot_tables").fetchone()
        return int(row[0]) if row else 0

    def stale(self, *, before: float, limit: int = -1) -> list[str]:
        """The ids of the tables not changed since ``before`` (Unix seconds; a finished
        table last changed when its match ended), oldest first (at most ``limit``; -1: all)."""
        with self._lock, self._transaction() as db:
            rows = db.execute(
                "SELECT id FROM chickenfoot_tables WHERE touched < %s ORDER BY touched, n LIMIT %s",
                (before, None if limit < 0 else limit),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def oldest(self, limit: int) -> list[str]:
        """The ids of the ``limit`` tables changed least recently, oldest first."""
        with self._lock, self._transaction() as db:
            rows = db.execute(
                "SELECT id FROM chickenfoot_tables ORDER BY touched, n LIMIT %s",
                (None if limit < 0 else limit,),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def delete(self, table_ids: Sequence[str]) -> int:
        """Delete tables with their seats and moves (one transaction); returns how many."""
        ids = sorted(set(table_ids))
        if not ids:
            return 0
        with self._lock, self._transaction() as db:
            db.execute(
                "SELECT id FROM chickenfoot_tables WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                (ids,),
            )
            gone = db.execute(
                "WITH gone AS (DELETE FROM chickenfoot_tables WHERE id = ANY(%s) RETURNING id) "
                "SELECT pg_notify(%s, id) FROM gone",
                (ids, self.channel),
            ).fetchall()
        return len(gone)

    def tables(
        self, *, ids: Sequence[str] | None = None, live_since: float | None = None, limit: int = -1
    ) -> list[StoredTable]:
        """The tables, oldest first, with their seats: every one, or those of ``ids``, or
        (``live_since``, Unix seconds) those not finished and changed since then, the
        ``limit`` most recent."""
        where, args = "", list[object]()
        if ids is not None:
            where, args = " WHERE id = ANY(%s)", [list(ids)]
        elif live_since is not None:
            where, args = " WHERE finished IS NULL AND touched >= %s", [live_since]
        with self._lock, self._transaction(repeatable=True) as db:
            rows = db.execute(
                f"SELECT {TABLE} FROM chickenfoot_tables{where} ORDER BY n DESC LIMIT %s",
                (*args, None if limit < 0 else limit),
            ).fetchall()
            return self._stored(db, rows[::-1])

    def moves(self, table_id: str, *, since: int = 0) -> list[tuple[int, str, bool]]:
        """A table's moves from number ``since`` on, in order: ``(seat, move, forced)``."""
        with self._lock, self._transaction() as db:
            rows = db.execute(
                "SELECT idx, seat, move, forced FROM chickenfoot_moves "
                "WHERE table_id = %s AND idx >= %s ORDER BY idx",
                (table_id, since),
            ).fetchall()
        return check_moves(table_id, rows, since)

    def changed_since(self, when: float) -> list[str]:
        """The ids of the tables changed since ``when`` (Unix seconds)."""
        with self._lock, self._transaction() as db:
            rows = db.execute(
                "SELECT id FROM chickenfoot_tables WHERE touched >= %s ORDER BY touched", (when,)
            ).fetchall()
        return [table_id for (table_id,) in rows]

    def subscribe(self, callback: Callable[[str, int | None], object]) -> None:
        """Call ``callback(table_id, moves)`` from the store's listening thread after every
        committed change of a table by any process, this one's included (``moves``: the
        length of the table's record after a move was stored, else ``None``; a change the
        thread missed while its connection was lost is announced when it is back, a
        deletion excepted: see :data:`CATCH_UP_MARGIN`). The callback must be quick and thread-safe (an asyncio
        server hands the id to its loop with ``call_soon_threadsafe``); one that raises is
        logged and called again for the next change."""
        with self._lock:
            if self._closed:
                raise StoreError(f"the database {self._where} is closed")
            listener = self._listener
            if listener is None:
                listener = self._listener = _Listener(self)
                listener.start()
            listener.callbacks.append(callback)
        listener.ready.wait(15.0)  # listening (or failed once, and trying again) from now

    def close(self) -> None:
        """Stop the subscription and close the database."""
        with self._lock:
            self._closed = True
            listener, self._listener = self._listener, None
            self._db.close()
        if listener is not None:
            listener.stop.set()
            listener.join(4 * _WAIT)


class _Listener(threading.Thread):
    """The thread of :meth:`PostgresStore.subscribe`: a connection of its own that
    LISTENs, made again (and the missed changes announced) when it is lost."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(name="chickenfoot-listen", daemon=True)
        self.store = store
        self.callbacks: list[Callable[[str, int | None], object]] = []
        self.stop = threading.Event()
        self.ready = threading.Event()
        """Set once the first LISTEN is in place (or failed)."""

    def deliver(self, payload: str) -> None:
        """Tell the subscribers of a change: ``"TABLE"``, or ``"TABLE N"`` when a move made
        the table's record ``N`` moves long."""
        table_id, _, count = payload.partition(" ")
        moves = int(count) if count.isdigit() else None
        for callback in list(self.callbacks):
            try:
                callback(table_id, moves)
            except Exception:
                log.exception("a subscriber to the database's changes failed")

    def run(self) -> None:
        store = self.store
        alive: float | None = None  # when the connection was last known to be listening
        pause = 0.5
        while not self.stop.is_set():
            db = None
            try:
                # TCP keepalives: a connection cut without a word is noticed within 30 s
                db = store.connect(keepalives=1, keepalives_idle=10, keepalives_interval=5,
                                   keepalives_count=3)  # fmt: skip
                listen = store._psycopg.sql.SQL("LISTEN {}")
                db.execute(listen.format(store._psycopg.sql.Identifier(store.channel)))
                self.ready.set()
                if alive is not None:
                    log.warning("listening to the database %s again", store._where)
                    for table_id in store.changed_since(alive - CATCH_UP_MARGIN):
                        self.deliver(table_id)
                pause = 0.5
                while not self.stop.is_set():
                    alive = time.time()
                    for note in db.notifies(timeout=_WAIT):
                        if note.payload:
                            self.deliver(note.payload)
            except (StoreError, store._psycopg.Error) as err:
                self.ready.set()
                if self.stop.is_set():
                    break
                text = err if isinstance(err, StoreError) else _failed(err, store._dsn)
                log.warning("lost the connection that listens for changes: %s; trying "
                            "again in %.1f s", text, pause)  # fmt: skip
                alive = time.time() if alive is None else alive
                self.stop.wait(pause)
                pause = min(pause * 2, 10.0)
            finally:
                if db is not None:
                    db.close()
