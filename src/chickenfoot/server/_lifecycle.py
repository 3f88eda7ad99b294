"""The life cycle of a server's tables: what leaves memory, and what leaves the disk.

Every table is in the database from the moment it is made. Memory holds only the tables
in use (at most :data:`~chickenfoot.server._hub.MAX_TABLES`); a table leaves memory when
it is idle (no connection, no bot or forced move being played) and

- its match is over, for ``Limits.finished_seconds`` (10 minutes), or
- nothing happened on it (no move, no connection) for ``Limits.abandoned_seconds`` (6 h);

and when memory is full, making or opening a table first unloads the idle tables used
least recently. A table not in memory opens again from the database (replayed with every
check) when someone opens its page or its WebSocket. On start only the live tables (not
finished, changed within ``abandoned_seconds``) are loaded, so a database full of stale
tables never stops a server from making new ones.

The database keeps a table until it has had no move for ``Limits.keep_days`` (30 days; a
finished table's last move ends its match): :meth:`Lifecycle.prune` deletes the others,
on start, every hour, and from ``chickenfoot serve --prune``. It holds at most
``Limits.max_stored`` tables: making one more first deletes the tables due for pruning
(no move for ``keep_days``); if there are none, the new table is refused
(:class:`FullError`), never a game that had a move within ``keep_days`` deleted.

>>> import asyncio
>>> from chickenfoot.server._hub import Hub
>>> from chickenfoot.server._limits import Limits
>>> from chickenfoot.server._store import open_store
>>> hub = Hub(open_store(":memory:"), limits=Limits(finished_seconds=0, abandoned_seconds=0))
>>> life = Lifecycle(hub)
>>> table, _tokens = hub.create({"players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]})
>>> life.sweep(), table.id in hub.tables          # idle for 0 seconds: unloaded
(1, False)
>>> life.load(table.id).id == table.id, table.id in hub.tables   # opened again from disk
(True, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Final

from chickenfoot.agents import Agent
from chickenfoot.server._hub import Hub
from chickenfoot.server._store import StoredTable, StoreError
from chickenfoot.server._table import RefusedError, Table

__all__ = ["PRUNE_SECONDS", "SWEEP_SECONDS", "FullError", "Lifecycle"]

log = logging.getLogger("chickenfoot.server")

SWEEP_SECONDS: Final = 30.0
"""How often idle tables are looked for."""
PRUNE_SECONDS: Final = 3600.0
"""How often the database is pruned."""


class FullError(RefusedError):
    """The database holds ``Limits.max_stored`` tables, none of them due for pruning: a new
    table must wait (the server answers 503)."""


class Lifecycle:
    """Loads, unloads and prunes the tables of ``hub`` (see the module's docstring)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.unloaded = 0
        """Tables unloaded from memory since start."""
        self.pruned = 0
        """Tables deleted from the database since start."""

    def idle(self, table_id: str) -> bool:
        """Whether a table in memory may leave it: no connection, nothing being played."""
        hub = self.hub
        return (
            not hub.connections.get(table_id)
            and not hub.playing.get(table_id)
            and not hub.lock(table_id).locked()
        )

    def unload(self, table_id: str) -> None:
        """Drop a table from memory (it stays in the database), closing its engines."""
        _close_later(self.hub.forget(table_id))
        self.unloaded += 1

    def sweep(self, now: float | None = None) -> int:
        """Unload the idle tables finished or abandoned for long enough; returns how many."""
        now = time.monotonic() if now is None else now
        limits = self.hub.limits
        done = 0
        for table_id, table in list(self.hub.tables.items()):
            quiet = now - self.hub.active.get(table_id, now)
            over = table.round is None or table.error is not None
            due = limits.finished_seconds if over else limits.abandoned_seconds
            if quiet >= due and self.idle(table_id):
                self.unload(table_id)
                done += 1
        return done

    def make_room(self) -> None:
        """When memory holds ``MAX_TABLES``, unload the idle tables used least recently."""
        hub = self.hub
        if hub.room() > 0:
            return
        self.sweep()
        excess = 1 - hub.room()
        if excess <= 0:
            return
        by_age = sorted(hub.tables, key=lambda t: hub.active.get(t, 0.0))
        for table_id in by_age:
            if excess <= 0:
                break
            if self.idle(table_id):
                self.unload(table_id)
                excess -= 1

    def load(self, table_id: str) -> Table | None:
        """The table ``table_id``: in memory, or opened from the database (then let play
        on); ``None`` if there is none, or memory is full of tables in use."""
        hub = self.hub
        table = hub.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 100:
            return None
        stored = hub.store.tables(ids=[table_id])
        if not stored:
            return None
        return self.open_stored(stored[0])

    def open_stored(
        self, stored: StoredTable, moves: Sequence[tuple[int, str, bool]] | None = None
    ) -> Table | None:
        """Open a table read from the database (its ``moves`` too, or ``None``: read them
        now) and let it play on; ``None`` if memory is full of tables in use."""
        hub = self.hub
        self.make_room()
        if hub.room() <= 0:
            return None
        table = hub.restore_one(stored, moves=moves)
        if table is not None:
            hub.kick(stored.id)
        return table

    def make_space_on_disk(self, now: float | None = None) -> int:
        """Before a table is made: when the database holds ``Limits.max_stored`` tables,
        delete those due for pruning (no move for ``keep_days``, not in memory), oldest
        first; returns how many. Raises :class:`FullError` when that leaves no room: a game
        that had a move within ``keep_days`` is never deleted to make room."""
        hub = self.hub
        limits = hub.limits
        excess = hub.store.count() - limits.max_stored + 1
        if excess <= 0:
            return 0
        done = 0
        if limits.keep_days > 0:
            now = time.time() if now is None else now
            before = now - limits.keep_days * 86400.0
            stale = hub.store.stale(before=before, limit=excess + len(hub.tables))
            done = hub.store.delete([t for t in stale if t not in hub.tables][:excess])
            self.pruned += done
        if done < excess:
            raise FullError(
                f"this server stores {limits.max_stored:,} tables, as many as it keeps, all "
                "played recently: try again later"
            )
        return done

    def prune(self, now: float | None = None) -> int:
        """Delete from the database the tables not in memory with no move for
        ``Limits.keep_days``; returns how many (``keep_days`` 0: none)."""
        hub = self.hub
        if hub.limits.keep_days <= 0:
            return 0
        now = time.time() if now is None else now
        stale = hub.store.stale(before=now - hub.limits.keep_days * 86400.0)
        done = hub.store.delete([t for t in stale if t not in hub.tables])
        self.pruned += done
        if done:
            log.info("pruned %d tables from the database", done)
        return done

    async def run(self) -> None:
        """Sweep every ``SWEEP_SECONDS`` and prune every ``PRUNE_SECONDS``, until cancelled
        (a prune the database fails is logged, and tried again at the next sweep)."""
        last_prune = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.sweep()
            if time.monotonic() - last_prune >= PRUNE_SECONDS:
                try:
                    await asyncio.to_thread(self.prune)
                except StoreError as err:
                    log.warning("the database was not pruned: %s", err)
                    continue
                last_prune = time.monotonic()


def _close_later(agents: list[Agent]) -> None:
    """Close agents (engines: their processes) in a worker thread, or now if no loop runs."""
    closers = [c for c in (getattr(a, "close", None) for a in agents) if callable(c)]
    if not closers:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        for close in closers:
            with contextlib.suppress(Exception):
                close()
        return
    for close in closers:
        loop.run_in_executor(None, close)
