"""The group commit: every move that arrives while the database commits waits for the
next commit, and all of them are stored in one transaction; and the patience: a write
the database fails is tried again, with backoff, until it answers.

A move is announced only once it is committed (durable: no acknowledged move is lost if
the server is killed), but a commit with its sync to disk takes milliseconds: one
transaction per move would cap the server near a few hundred moves a second, however
many cores. :class:`Writer` keeps the promise and lifts the cap: :meth:`Writer.write`
queues a move and waits; one task at a time commits everything queued
(:meth:`~chickenfoot.server._store.Store.add_moves`, in a worker thread, one thread hop
per commit, not per move), then answers each waiting move.

A database that fails (a SQLite file locked by a backup or a shell for longer than its
busy wait, a PostgreSQL server restarting: a :class:`~chickenfoot.server._store.StoreError`)
stops no table: the moves of the commit that failed wait, with the ones that arrive
meanwhile, and are tried again after 0.05 s, 0.1 s, ... (at most :data:`RETRY_MAX`
apart) until the database answers. A failed commit may have been committed all the same
(a connection lost at the commit): tried again, its moves are then refused as taken,
and the table reads them back as the database's (:meth:`Keeper.catch_up
<chickenfoot.server._keeper.Keeper.catch_up>`), so nothing is lost or played twice.

>>> import asyncio
>>> from chickenfoot.server._store import MoveRow, SeatRow, open_store
>>> store = open_store(":memory:")
>>> store.add_table("t1", "{}", 7, [SeatRow(0, "bot", "greedy", None, "a")])
>>> async def main():
...     writer = Writer(store)
...     rows = [MoveRow("t1", i, 0, "draw", False) for i in (0, 1, 1)]
...     return await asyncio.gather(*(writer.write(row) for row in rows)), writer.commits
>>> asyncio.run(main())                  # one commit; the second move 1 is refused
([True, True, False], 1)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Final, TypeVar

from chickenfoot.server._store import GapError, MoveRow, Store, StoreError

__all__ = ["RETRY_FIRST", "RETRY_MAX", "Writer"]

log = logging.getLogger("chickenfoot.server")

RETRY_FIRST: Final = 0.05
"""Seconds before a failed write or read is first tried again (then twice as long...)."""
RETRY_MAX: Final = 2.0
"""...up to this many seconds between tries."""

T = TypeVar("T")


class _Waiting:
    """A move waiting for its commit: its answer, and whom to tell that it waits."""

    __slots__ = ("done", "row", "told")

    def __init__(self, row: MoveRow, done: asyncio.Future[bool], told: _Told | None) -> None:
        self.row = row
        self.done = done
        self.told = told


_Told = Callable[[StoreError], object]


class Writer:
    """The one writer of moves to ``store`` (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._waiting: list[_Waiting] = []
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._wakes: set[asyncio.Future[None]] = set()  # the waits between tries
        self.commits = 0
        """The transactions committed so far."""
        self.written = 0
        """The moves stored so far (``written / commits``: moves per commit)."""
        self.failures = 0
        """The commits and reads the database failed so far (each tried again)."""

    async def write(self, row: MoveRow, *, waiting: _Told | None = None) -> bool:
        """Store ``row``, committed when this returns: ``True``, or ``False`` if its
        table already has a move of that number (another process extended it first).
        While the database fails, the move waits (``waiting`` is called once, with the
        error, if it does); raises :class:`StoreError` only when the server stops
        meanwhile."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self._waiting.append(_Waiting(row, done, waiting))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        return await done

    async def until_answered(self, call: Callable[..., T], *args: object, **kwargs: object) -> T:
        """``call(*args, **kwargs)`` in a worker thread, tried again with backoff while
        the database fails; raises :class:`StoreError` only when the server stops
        meanwhile, and a :class:`GapError` at once (a damaged record stays damaged)."""
        pause = RETRY_FIRST
        since = None
        while True:
            try:
                answer = await asyncio.to_thread(call, *args, **kwargs)
            except GapError:
                raise
            except StoreError as err:
                self.failures += 1
                if self._closing:
                    raise
                if since is None:
                    since = time.monotonic()
                    log.warning("the database failed (%s); trying again until it answers", err)
                await self._sleep(pause)
                pause = min(pause * 2, RETRY_MAX)
                continue
            if since is not None:
                log.warning("the database answers again, after %.1f s", time.monotonic() - since)
            return answer

    async def _sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or until :meth:`close`."""
        wake = asyncio.get_running_loop().create_future()
        self._wakes.add(wake)
        try:
            await asyncio.wait({wake}, timeout=seconds)
        finally:
            self._wakes.discard(wake)

    async def _run(self) -> None:
        pause = RETRY_FIRST
        since = None
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                stored = await asyncio.to_thread(self._store.add_moves, [w.row for w in batch])
            except asyncio.CancelledError:
                for w in batch:
                    w.done.cancel()
                raise
            except StoreError as err:  # the database failed: the batch waits, and again
                self.failures += 1
                if self._closing:
                    self._fail(batch, StoreError(f"the server stopped: {err}"))
                    continue
                if since is None:
                    since = time.monotonic()
                    log.warning(
                        "the database failed (%s): %d moves wait, tried again until it answers",
                        err, len(batch),
                    )  # fmt: skip
                for w in batch:
                    if w.told is not None:
                        told, w.told = w.told, None
                        told(err)
                self._waiting = [w for w in batch if not w.done.done()] + self._waiting
                await self._sleep(pause)
                pause = min(pause * 2, RETRY_MAX)
                continue
            except Exception as err:  # not the database's failure (a bug): the batch fails
                self._fail(batch, err)
                continue
            if since is not None:
                log.warning(
                    "the database answers again: %d moves stored after %.1f s",
                    sum(stored), time.monotonic() - since,
                )  # fmt: skip
                since, pause = None, RETRY_FIRST
            self.commits += 1
            self.written += sum(stored)
            for w, ok in zip(batch, stored, strict=True):
                if not w.done.done():
                    w.done.set_result(ok)

    @staticmethod
    def _fail(batch: list[_Waiting], err: Exception) -> None:
        for w in batch:
            if not w.done.done():
                w.done.set_exception(err)

    async def close(self) -> None:
        """Finish the commit under way (the moves queued are committed, or fail if the
        database does not answer: no more tries)."""
        self._closing = True
        for wake in self._wakes:
            if not wake.done():
                wake.set_result(None)
        if self._task is not None and not self._task.done():
            await asyncio.wait({self._task})
