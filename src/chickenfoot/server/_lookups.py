"""Opening the table a client names, without letting one client spend another's time
(docs: Serve, "Bounded").

A page (``GET /t/{table}``) or a WebSocket (``/ws/{table}``) names a table; one in memory
is answered at once. Any other costs a database read, so :meth:`Lookups.open`:

- answers an id that cannot be a table's (not 1 to 100 of ``A-Z a-z 0-9 _ -``) with no
  read at all, and an id read and found missing within :data:`MISSING_SECONDS` from
  memory (a bounded negative cache);
- takes a token of the client address's bucket for every read
  (``Limits.reads_per_minute``, ``Limits.reads_burst``): beyond, :class:`TooManyReadsError`
  says how long to wait (429, or 4429 for a WebSocket);
- reads in worker threads of its own (:data:`READERS`), never on the event loop, so a
  slow database stalls none of the tables in memory, nor bots (who think in the default
  executor); clients asking for the same table at once share one read.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from chickenfoot.server._lifecycle import Lifecycle
from chickenfoot.server._limits import Buckets
from chickenfoot.server._store import StoredTable
from chickenfoot.server._table import Table

__all__ = ["MAX_MISSING", "MISSING_SECONDS", "READERS", "Lookups", "TooManyReadsError"]

READERS: Final = 2
"""The threads that read tables from the database for clients (reads beyond wait)."""
MISSING_SECONDS: Final = 60.0
"""How long an id read and found missing is answered from memory."""
MAX_MISSING: Final = 100_000
"""The ids remembered missing at most."""
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,100}")

_Fetched = tuple[StoredTable | None, list[tuple[int, str, bool]] | None]


class TooManyReadsError(Exception):
    """A client address has caused as many database reads as it may for now."""

    def __init__(self, seconds: float) -> None:
        self.seconds = max(1, math.ceil(seconds)) if math.isfinite(seconds) else 3600
        super().__init__(
            f"too many tables asked for from your address: try again in {self.seconds} s"
        )


class Lookups:
    """The tables clients name, opened from memory or (bounded, off the loop) from the
    database of ``life``'s hub.

    >>> import asyncio
    >>> from chickenfoot.server._hub import Hub
    >>> from chickenfoot.server._store import open_store
    >>> lookups = Lookups(Lifecycle(Hub(open_store(":memory:"))))
    >>> asyncio.run(lookups.open("NoSuchTable0", "192.0.2.7")), lookups.reads
    (None, 1)
    >>> asyncio.run(lookups.open("NoSuchTable0", "192.0.2.7")), lookups.reads  # remembered
    (None, 1)
    >>> asyncio.run(lookups.open("../etc/passwd", "192.0.2.7")), lookups.reads  # never a table's
    (None, 1)
    >>> lookups.close()
    """

    def __init__(self, life: Lifecycle) -> None:
        self.life = life
        limits = life.hub.limits
        self.buckets = Buckets(limits.reads_per_minute, limits.reads_burst)
        self.reads = 0
        """Database reads made for clients since start."""
        self._missing: dict[str, float] = {}  # id: until when it is known missing
        self._pending: dict[str, asyncio.Future[Table | None]] = {}
        self._pool = ThreadPoolExecutor(READERS, thread_name_prefix="chickenfoot-reads")

    async def open(self, table_id: str, address: str) -> Table | None:
        """The table ``table_id`` for a client at ``address``: in memory, or read from the
        database and opened (then let play on); ``None`` if there is none, or memory is
        full of tables in use. Raises :class:`TooManyReadsError`."""
        hub = self.life.hub
        table = hub.tables.get(table_id)
        if table is not None:
            return table
        if not _TABLE_ID.fullmatch(table_id):
            return None
        if self._missing.get(table_id, 0.0) > time.monotonic():
            return None
        pending = self._pending.get(table_id)
        if pending is None:
            wait = self.buckets.take(address)
            if wait > 0:
                raise TooManyReadsError(wait)
            pending = asyncio.ensure_future(self._read(table_id))
            self._pending[table_id] = pending
            pending.add_done_callback(lambda done: self._done(table_id, done))
        return await asyncio.shield(pending)

    def _done(self, table_id: str, done: asyncio.Future[Table | None]) -> None:
        if self._pending.get(table_id) is done:
            del self._pending[table_id]
        if not done.cancelled():
            done.exception()  # retrieved: every client that waited for it has gone

    async def _read(self, table_id: str) -> Table | None:
        self.reads += 1
        loop = asyncio.get_running_loop()
        stored, moves = await loop.run_in_executor(self._pool, self._fetch, table_id)
        if stored is None:
            self._remember_missing(table_id)
            return None
        table = self.life.hub.tables.get(table_id)  # opened meanwhile (made, or heard of)
        if table is not None:
            return table
        return self.life.open_stored(stored, moves)

    def _fetch(self, table_id: str) -> _Fetched:
        """In a reader thread: the stored table and its moves (``None``: read them again
        when restoring, where a damaged record stops the table with the reason)."""
        store = self.life.hub.store
        stored = store.tables(ids=[table_id])
        if not stored:
            return None, None
        try:
            return stored[0], store.moves(table_id)
        except ValueError:
            return stored[0], None

    def _remember_missing(self, table_id: str) -> None:
        now = time.monotonic()
        if len(self._missing) >= MAX_MISSING:
            self._missing = {k: t for k, t in self._missing.items() if t > now}
            if len(self._missing) >= MAX_MISSING:
                self._missing.clear()
        self._missing[table_id] = now + MISSING_SECONDS

    def close(self) -> None:
        """Stop the reader threads (reads under way finish)."""
        self._pool.shutdown(wait=False)
