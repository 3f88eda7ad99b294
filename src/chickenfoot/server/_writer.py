"""The group commit: every move that arrives while the database commits waits for the
next commit, and all of them are stored in one transaction.

A move is announced only once it is committed (durable: no acknowledged move is lost if
the server is killed), but a commit with its sync to disk takes milliseconds: one
transaction per move would cap the server near a few hundred moves a second, however
many cores. :class:`Writer` keeps the promise and lifts the cap: :meth:`Writer.write`
queues a move and waits; one task at a time commits everything queued
(:meth:`~chickenfoot.server._store.Store.add_moves`, in a worker thread, one thread hop
per commit, not per move), then answers each waiting move.

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

from chickenfoot.server._store import MoveRow, Store

__all__ = ["Writer"]


class Writer:
    """The one writer of moves to ``store`` (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._waiting: list[tuple[MoveRow, asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None
        self.commits = 0
        """The transactions committed so far."""
        self.written = 0
        """The moves stored so far (``written / commits``: moves per commit)."""

    async def write(self, row: MoveRow) -> bool:
        """Store ``row``, committed when this returns: ``True``, or ``False`` if its
        table already has a move of that number (another process extended it first)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self._waiting.append((row, done))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        return await done

    async def _run(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                stored = await asyncio.to_thread(self._store.add_moves, [row for row, _ in batch])
            except asyncio.CancelledError:
                for _, done in batch:
                    done.cancel()
                raise
            except Exception as err:  # the database failed: every move of the batch fails
                for _, done in batch:
                    if not done.done():
                        done.set_exception(err)
                continue
            self.commits += 1
            self.written += sum(stored)
            for (_, done), ok in zip(batch, stored, strict=True):
                if not done.done():
                    done.set_result(ok)

    async def close(self) -> None:
        """Finish the commit under way (the moves queued are committed or fail)."""
        if self._task is not None and not self._task.done():
            await asyncio.wait({self._task})
