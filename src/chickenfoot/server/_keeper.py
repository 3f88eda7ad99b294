"""Every table of a server kept in step with the database: each change stored first, then
played and announced; what other processes stored read back; what the people agree on
(the pause, the next round, the rematch) decided in the database.

:class:`Keeper` is the part of the :class:`~chickenfoot.server._hub.Hub` that changes
tables. Every change goes through :meth:`Keeper.commit`, under the table's lock: the move
is written to the database (committed, through the group commit) first, then played,
then announced to every connection of the table, each getting what its seat may see.

When a round ends and another is dealt, the table waits ``round_pause`` seconds, or until
every person's seat says ``next``, so people can look at the round's end (the hands
revealed); when the match ends, the people may ask for a ``rematch``: a new match at the
same table, same seats, same links, once every person's seat has. Both are decided in
the database (:meth:`~chickenfoot.server._store.Store.ask`; the pause is stored with the
move that ended the round, from its commit), so every process serving the table agrees:
the same pause, the same seats ready, the same moment the round starts or the rematch
is made. (Every person's seat, not every person connected: who is connected to which
process is not in the database, and a rematch needs every player anyway.)

A database that fails stops no table (:mod:`~chickenfoot.server._writer`): a move waits
until it is stored, tried again with backoff, and so does every read of a table that
catches up; a person whose move waits is told so at once (an ``error`` message: the move
is played once stored, never lost, never played twice); a person's ``next`` or
``rematch`` that the database fails is refused (ask again). No task ends with an error
nobody reads: one that fails stops its table, the reason in the log.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from chickenfoot.commitment import fresh_seed
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.match import Match
from chickenfoot.moves import Move, parse_move
from chickenfoot.server._announce import (
    DELAYED,
    Connection,
    announce_move,
    announce_table,
    send_table,
)
from chickenfoot.server._store import GapError, MoveRow, Store, StoredTable, StoreError
from chickenfoot.server._table import RefusedError, Table
from chickenfoot.server._writer import Writer

__all__ = ["WAITING", "Keeper"]

log = logging.getLogger("chickenfoot.server")

WAITING: Final = (
    "the database is not answering: your move waits, and is played as soon as it is stored"
)
"""What a person whose move waits for the database is told (an ``error`` message)."""


class Keeper:
    """The tables of one server stored in ``store``, kept in step with it (see the
    module's docstring); a round dealt waits ``round_pause`` seconds (0: none)."""

    def __init__(self, store: Store, *, round_pause: float = 0.0) -> None:
        self.store = store
        self.writer = Writer(store)
        """The group commit: every move goes to the database through it."""
        self.round_pause = round_pause
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.active: dict[str, float] = {}
        """When each table in memory last changed or was left (``time.monotonic()``)."""
        self.playing: dict[str, int] = {}
        """The tables whose bots or forced moves are being played: how many tasks."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._hearing: set[str] = set()  # the tables to catch up with the database, soon
        self._pausing: dict[str, float] = {}  # the end of each table's pause waited for

    def heard(self, table_id: str, moves: int | None = None) -> None:
        """A table changed in the database (by any process; ``moves``: its record's length
        after a move): one held here catches up, unless it holds that move already (this
        process stored it: a rematch made elsewhere is heard first, with no length)."""
        table = self.tables.get(table_id)
        if table is None or (moves is not None and moves <= table.n):
            return
        if table_id not in self._hearing:
            self._hearing.add(table_id)
            self._task(table_id, self._catch_up_heard(table_id))

    async def _catch_up_heard(self, table_id: str) -> None:
        async with self.lock(table_id):
            self._hearing.discard(table_id)  # a change heard from now on is read again
            table = self.tables.get(table_id)
            if table is not None:
                await self.catch_up(table)

    def connected(self, table_id: str) -> list[bool]:
        """For each seat of the table, whether a connection plays it now."""
        table = self.tables[table_id]
        seats = {c.seat for c in self.connections.get(table_id, ()) if not c.dropped}
        return [s.seat in seats for s in table.seats]

    def send_table(self, table_id: str, connection: Connection) -> None:
        """Queue the whole table (and the ``go``, if any) for one connection."""
        send_table(self.tables[table_id], connection, self.connected(table_id))

    def announce(self, table_id: str) -> None:
        """Send the whole table to every connection, each what its seat may see."""
        here = self.connections.get(table_id, ())
        announce_table(self.tables[table_id], list(here), self.connected(table_id))

    # -- changes ---------------------------------------------------------------------------------

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock under which a table changes."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def commit(
        self,
        table: Table,
        move: Move,
        *,
        forced: bool,
        waiting: Callable[[StoreError], object] | None = None,
    ) -> bool:
        """Store ``move`` (committed, through the group commit: other tables go on
        meanwhile; while the database fails it waits, ``waiting`` told once), then play
        it, then announce it; under the table's lock. ``False`` (nothing played) when
        another process stored a move of that number first: the table has caught up with
        the database then (a move of ours stored by a try that seemed to fail is played
        so: ``True``)."""
        seat = table.turn
        assert seat is not None
        n, text = table.n, move.notation()
        after = table.match.apply(move)
        deals = after.rounds_played != table.match.rounds_played and after.round is not None
        pause = self.round_pause if deals and self.round_pause > 0 else None
        row = MoveRow(table.id, n, seat, text, forced, seed=table.seed, pause=pause)
        stored = await self.writer.write(row, waiting=waiting)
        if not stored:
            seed = table.seed
            await self.catch_up(table)
            mine = table.seed == seed and table.n > n and table.moves[n][:2] == (seat, text)
            if not mine:
                return False
        else:
            until = None if pause is None else time.time() + pause
            self._play(table, move, forced, after, until)
        if table.round is None:
            await self.writer.until_answered(self.store.finish, table.id)
        return True

    def _play(
        self,
        table: Table,
        move: Move,
        forced: bool,
        after: Match | None = None,
        until: float | None = None,
    ) -> None:
        """Play a stored move and announce it (the round it deals waiting ``until``, Unix
        seconds, if given)."""
        table.play(move, forced=forced, after=after)
        if until is not None:
            self._pause(table, until)
        self.active[table.id] = time.monotonic()
        here = self.connections.get(table.id, ())
        announce_move(table, list(here), self.connected(table.id))

    def _pause(self, table: Table, until: float) -> None:
        """Hold the round just dealt until ``until`` (Unix seconds), ended then here."""
        table.pause(until - time.time())
        self._time_pause(table)

    def _agree_as_stored(self, table: Table, stored: StoredTable) -> bool:
        """Take the pause and the seats ready from ``stored`` (read with the table's moves):
        what every process agrees on. Whether anything changed."""
        until = stored.paused(table.n, time.time()) if table.error is None else None
        ready = set(stored.ready_seats(table.n))
        changed = False
        if until is not None and not table.paused and table.round is not None:
            if self.tables.get(table.id) is table:
                self._pause(table, until)
            else:  # being restored: start() or kick() ends the pause
                table.pause(until - time.time())
            changed = True
        elif until is None and table.paused:
            table.resume()  # ended by the people, or by its time, elsewhere
            changed = True
        if ready != table.ready:
            table.ready = ready
            table.version += 1
            changed = True
        return changed

    async def catch_up(self, table: Table) -> None:
        """Play the moves another process stored on the table since ours (under the
        table's lock), announcing each, and take what its people agreed on there (the
        pause, the seats ready); a table restarted elsewhere (a rematch) is read again
        whole. Read until the database answers; a damaged record stops the table."""
        try:
            found = await self.writer.until_answered(
                self.store.catch_up, table.id, seed=table.seed, since=table.n
            )
        except GapError as err:
            table.stop(f"the stored record does not replay at move {table.n}")
            log.error("table %s: %s: %s", table.id, table.error, brief(str(err), 200))
            self.announce(table.id)
            return
        if found is None:
            return
        stored, rows = found
        changed = False
        if stored.seed != table.seed:  # a rematch, made through another process
            table.restart(stored.seed)
            self.announce(table.id)
        if rows and table.paused:  # the round started elsewhere
            table.resume()
            changed = True
        for seat, text, forced in rows:
            try:
                if table.turn != seat:
                    raise ValueError(f"move {table.n} ({text}) is by seat {seat}, not the turn's")
                self._play(table, parse_move(text, max_pip=table.rules.max_pip), forced)
            except (ChickenFootError, ValueError, RefusedError) as err:
                table.stop(f"the stored record does not replay at move {table.n}")
                log.error("table %s: %s: %s", table.id, table.error, brief(str(err), 200))
                self.announce(table.id)
                return
        if self._agree_as_stored(table, stored) or changed:
            self.announce(table.id)
            self.kick(table.id)

    async def _end_pause(self, table_id: str, until: float | None) -> None:
        """End a table's pause at its deadline (``until``, ``time.monotonic()``), unless
        it ended already."""
        if until is not None:
            await asyncio.sleep(max(0.0, until - time.monotonic()))
        table = self.tables[table_id]
        async with self.lock(table_id):
            if self._pausing.get(table_id) == until:
                del self._pausing[table_id]
            if table.pause_until != until:
                return
            table.resume()
            self.announce(table_id)
        self.kick(table_id)

    async def agree(self, table_id: str, seat: int | None, what: str) -> None:
        """A person's ``next`` (deal the next round now) or ``rematch`` (a new match, once
        this one is over): done when every person's seat has asked for it, decided in the
        database (the same on every process). Refused when the database fails."""
        table = self.tables[table_id]
        if seat is None or table.seats[seat].kind != "person":
            raise RefusedError(f"only the people at the table can ask for {what}")
        async with self.lock(table_id):
            if what == "next" and not table.paused:
                raise RefusedError("no round is waiting to start")
            if what == "rematch" and table.round is not None:
                raise RefusedError("a rematch is for when the match is over")
            seed = fresh_seed() if what == "rematch" else None
            try:
                asked = await asyncio.to_thread(
                    self.store.ask, table_id, seat, seed=table.seed, at=table.n, rematch=seed
                )
            except StoreError as err:
                log.warning("table %s: a %s was not stored: %s", table_id, what, err)
                self._task(table_id, self._catch_up_heard(table_id))  # it may have been
                raise RefusedError(
                    f"the database did not answer, so your {what} is not counted: ask again"
                ) from None
            if asked is None:  # the table moved on, elsewhere
                await self.catch_up(table)
            elif asked.done and seed is not None:
                table.restart(seed)
            elif asked.done:
                table.resume()
            else:
                table.ready = set(asked.ready)
                table.version += 1
            self.announce(table_id)
        self.kick(table_id)

    async def person_moves(
        self, table_id: str, seat: int | None, message: Mapping[str, Any]
    ) -> None:
        """A person's ``move`` message: checked, committed, announced; then the table plays
        on. Raises :class:`RefusedError` (and changes nothing) when it cannot be played."""
        table = self.tables[table_id]

        def waiting(err: StoreError) -> None:
            for c in self.connections.get(table_id, ()):
                if c.seat == seat:
                    c.put(
                        {
                            "type": "error",
                            "id": message.get("id"),
                            "message": WAITING,
                            "code": DELAYED,
                        }
                    )

        async with self.lock(table_id):
            move = table.check_move(seat, message)
            forced = len(table.legal) == 1
            if not await self.commit(table, move, forced=forced, waiting=waiting):
                raise RefusedError("another move was played first (the table has moved on)")
        self.kick(table_id)

    def _time_pause(self, table: Table, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """End the table's pause at its time, if it has one that nothing ends yet."""
        until = table.pause_until
        if until is not None and self._pausing.get(table.id) != until:
            self._pausing[table.id] = until
            self._task(table.id, self._end_pause(table.id, until), loop)

    def _task(
        self, table_id: str, work: Any, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        """Run ``work`` for the table in a task (counted in ``playing``: a table with work
        in hand is not unloaded); one that fails stops its table, never silently."""
        task = (loop or asyncio.get_running_loop()).create_task(self._guarded(table_id, work))
        self._tasks.add(task)
        self.playing[table_id] = self.playing.get(table_id, 0) + 1
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda _t: self._played(table_id))

    async def _guarded(self, table_id: str, work: Awaitable[None]) -> None:
        """``work``; an error it ends with (a bug: a failing database is waited for) stops
        the table, said in the log, instead of ending a task nobody reads."""
        try:
            await work
        except Exception as err:
            log.error("table %s: stopped by an error: %s", table_id, brief(repr(err), 300))
            table = self.tables.get(table_id)
            if table is not None and table.error is None:
                table.stop("the server failed (its log says why)")
                self.announce(table_id)

    def _played(self, table_id: str) -> None:
        left = self.playing.get(table_id, 0) - 1
        if left > 0:
            self.playing[table_id] = left
        else:
            self.playing.pop(table_id, None)
            self.active[table_id] = time.monotonic()

    def kick(self, table_id: str) -> None:
        """Let the table play on by itself (:meth:`play_on`: its bots), in a task of its
        own, and end its pause at its time, if it has one that nothing ends yet."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet: start() kicks every table
        table = self.tables.get(table_id)
        if table is not None:
            self._time_pause(table, loop)
        self._task(table_id, self.play_on(table_id), loop)

    async def play_on(self, table_id: str) -> None:
        """Play the table on by itself while it may (the hub: its bots); here, nothing."""
