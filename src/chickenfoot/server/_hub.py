"""The tables of a running server, their connections and their bots.

The :class:`Hub` owns the :class:`~chickenfoot.server._store.Store` and every
:class:`~chickenfoot.server._table.Table`. Every change of a table goes through
:meth:`Hub.commit`, under the table's lock: the move is written to the database (and
committed) first, then played, then announced to every connection of the table, each
getting what its seat may see. After each change the hub plays on by itself while the
seat to act has one legal move (forced) or is a bot (asked in a worker thread, so the
server keeps serving while it thinks).

Bots are the built-in agents (``random``, ``greedy``, ``heuristic``, ``search``,
``search:N``) and ``engine:COMMAND`` for the commands the server was started with
(``chickenfoot serve --engine COMMAND``): a web page can never make the server run a
program of its choosing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Final

from chickenfoot.agents import Agent, ask
from chickenfoot.cli.specs import SpecError, parse_spec
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.moves import parse_move
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.server._store import SeatRow, Store
from chickenfoot.server._table import RefusedError, Table

__all__ = ["MAX_SEARCH", "MAX_TABLES", "Connection", "Hub", "check_bot_spec"]

log = logging.getLogger("chickenfoot.server")

MAX_SEARCH: Final = 2000
"""The most iterations a ``search:N`` bot of the server may take per decision."""
MAX_TABLES = 10_000
"""The tables a server holds at most (each is kept in memory); more are refused."""
QUEUE: Final = 256
"""The messages waiting for one connection at most; a client that falls behind further
is disconnected (its page reconnects and gets the whole table again)."""
_MAX_NAME = 40


class Connection:
    """One WebSocket client of a table: its seat (``None``: a spectator) and its queue of
    outgoing messages (a writer task sends them in order)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE)
        self.dropped = False

    def put(self, message: dict[str, Any] | None) -> None:
        """Queue ``message`` (``None`` ends the writer); a full queue drops the client."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


def check_bot_spec(spec: object, engines: Sequence[str]) -> str:
    """A bot spec the server accepts, normalized; :class:`RefusedError` otherwise.

    >>> check_bot_spec("Greedy", []), check_bot_spec("search:8", [])
    ('greedy', 'search:8')
    >>> check_bot_spec("engine:node bot.js", [])
    Traceback (most recent call last):
    ...
    chickenfoot.server._table.RefusedError: engine 'node bot.js' is not one this server was started with (chickenfoot serve --engine COMMAND)
    """
    if not isinstance(spec, str) or len(spec) > 2000:
        raise RefusedError(f"a bot is named by a string, not {brief(spec)}")
    try:
        parsed = parse_spec(spec)
    except (SpecError, ChickenFootError) as err:
        raise RefusedError(str(err)) from None
    if parsed.kind == "search" and int(parsed.value) > MAX_SEARCH:
        raise RefusedError(f"search:N takes at most {MAX_SEARCH:,} iterations on this server")
    if parsed.kind == "engine" and str(parsed.value) not in engines:
        raise RefusedError(
            f"engine {brief(str(parsed.value))} is not one this server was started with "
            "(chickenfoot serve --engine COMMAND)"
        )
    if parsed.kind == "module":
        raise RefusedError(f"bot {brief(spec)}: module:Class bots cannot be named from the web")
    return parsed.name


def rules_of(request: Mapping[str, Any]) -> Rules:
    """The rules a table request asks for: ``preset`` (default ``classic``), ``players``
    and any other rule fields (as in a ``chickenfoot/rules`` document) in ``rules``."""
    preset = request.get("preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RefusedError(f"preset {brief(preset)} is not one of {', '.join(PRESETS)}")
    changes = request.get("rules", {})
    if not isinstance(changes, dict):
        raise RefusedError(f"rules must be an object of rule fields, not {brief(changes)}")
    plain = {k: v for k, v in changes.items() if k != "match" and isinstance(k, str)}
    try:
        rules = Rules.preset(str(preset), players=request.get("players", 4), **plain)
        if "match" in changes:  # a match document ({"rounds": 3}): read as the format reads it
            rules = Rules.from_dict({**rules.to_dict(), "match": changes["match"]})
        return rules
    except (ChickenFootError, TypeError) as err:
        raise RefusedError(str(err)) from None


class Hub:
    """The tables of one server, stored in ``store``; bots wait ``bot_delay`` seconds
    before each move (so people can follow), engines are those of ``engines``."""

    def __init__(self, store: Store, *, engines: Sequence[str] = (), bot_delay: float = 0.0):
        self.store = store
        self.engines = tuple(engines)
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, set[Connection]] = {}
        self._agents: dict[tuple[str, int], Agent] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng = random.Random(secrets.randbits(64))

    # -- start: every table restored ---------------------------------------------------------

    def restore(self) -> None:
        """Load every stored table, replaying its moves with every check (a move that does
        not replay stops that table with the reason; the others go on)."""
        for stored in self.store.tables():
            try:
                rules = Rules.from_dict(json.loads(stored.rules))
                table = Table(stored.id, rules, stored.seed, stored.seats)
            except (ChickenFootError, ValueError) as err:
                log.error("table %s cannot be restored: %s", stored.id, err)
                continue
            try:
                for i, (seat, text, forced) in enumerate(self.store.moves(stored.id)):
                    if table.turn != seat:
                        raise ValueError(f"move {i} ({text}) is by seat {seat}, not the turn's")
                    table.play(parse_move(text, max_pip=rules.max_pip), forced=forced)
            except (ChickenFootError, ValueError, RefusedError) as err:
                table.error = f"the stored record does not replay: {brief(str(err), 200)}"
                log.error("table %s: %s", stored.id, table.error)
            self.tables[stored.id] = table

    def start(self) -> None:
        """Let every restored table play on (its bots and forced moves)."""
        for table_id in self.tables:
            self.kick(table_id)

    # -- making tables -----------------------------------------------------------------------

    def create(self, request: Mapping[str, Any]) -> tuple[Table, list[str | None]]:
        """A new table from a request (``preset``, ``players``, ``rules``, ``seats``: a list
        of ``{"kind": "person", "name": ...}`` or ``{"kind": "bot", "spec": ...}``), stored;
        returns it and each seat's token (``None`` for a bot)."""
        if len(self.tables) >= MAX_TABLES:
            raise RefusedError(f"this server holds {MAX_TABLES:,} tables already")
        rules = rules_of(request)
        seats = request.get("seats")
        if not isinstance(seats, list) or len(seats) != rules.players:
            raise RefusedError(f"seats must list {rules.players} seats, one per player")
        rows = []
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in ("person", "bot"):
                raise RefusedError(
                    f"seat {i} must be {{'kind': 'person'}} or {{'kind': 'bot', ...}}"
                )
            name = seat.get("name")
            if name is not None and (not isinstance(name, str) or len(name) > _MAX_NAME):
                raise RefusedError(
                    f"seat {i}: a name is a string of at most {_MAX_NAME} characters"
                )
            if seat["kind"] == "bot":
                spec = check_bot_spec(seat.get("spec", "heuristic"), self.engines)
                rows.append(SeatRow(i, "bot", spec, None, (name or spec).strip()[:_MAX_NAME]))
            else:
                token = secrets.token_urlsafe(24)
                rows.append(SeatRow(i, "person", "", token, (name or f"seat {i}").strip()))
        table_id = secrets.token_urlsafe(9)
        seed = secrets.randbits(63)
        table = Table(table_id, rules, seed, rows)
        self.store.add_table(table_id, json.dumps(rules.to_dict()), seed, rows)
        self.tables[table_id] = table
        self.kick(table_id)
        return table, [row.token for row in rows]

    # -- connections ---------------------------------------------------------------------------

    def connected(self, table_id: str) -> list[bool]:
        """For each seat of the table, whether a connection plays it now."""
        table = self.tables[table_id]
        seats = {c.seat for c in self.connections.get(table_id, ()) if not c.dropped}
        return [s.seat in seats for s in table.seats]

    def join(self, table_id: str, connection: Connection) -> None:
        """Add a connection and send it the table (and its ``go`` if it is to choose)."""
        self.connections.setdefault(table_id, set()).add(connection)
        self.announce(table_id)

    def leave(self, table_id: str, connection: Connection) -> None:
        """Remove a connection."""
        self.connections.get(table_id, set()).discard(connection)
        self.announce(table_id)

    def send_table(
        self,
        table_id: str,
        connection: Connection,
        made: dict[int | None, list[dict[str, Any]]] | None = None,
    ) -> None:
        """Queue the table (and the ``go``, if any) for one connection; ``made`` keeps the
        messages already made for a seat during one announcement (every spectator, and
        every connection of one seat, gets the same)."""
        made = {} if made is None else made
        seat = connection.seat
        if seat not in made:
            table = self.tables[table_id]
            messages = [table.state_message(seat, self.connected(table_id))]
            if seat is not None and table.seats[seat].kind == "person":
                go = table.go_message(seat)
                if go is not None:
                    messages.append(go)
            made[seat] = messages
        for message in made[seat]:
            connection.put(message)

    def announce(self, table_id: str) -> None:
        """Send the table to every connection, each what its seat may see."""
        made: dict[int | None, list[dict[str, Any]]] = {}
        for connection in list(self.connections.get(table_id, ())):
            self.send_table(table_id, connection, made)

    # -- moves ---------------------------------------------------------------------------------

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock under which a table changes."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def commit(self, table: Table, move: Any, *, forced: bool) -> None:
        """Store ``move`` (committed: the write and its fsync in a worker thread, so other
        tables go on meanwhile), then play it, then announce it; under the table's lock."""
        seat = table.turn
        assert seat is not None
        await asyncio.to_thread(
            self.store.add_move, table.id, table.n, seat, move.uci(), forced=forced
        )
        table.play(move, forced=forced)
        self.announce(table.id)

    async def person_moves(
        self, table_id: str, seat: int | None, message: Mapping[str, Any]
    ) -> None:
        """A person's ``move`` message: checked, committed, announced; then the table plays
        on. Raises :class:`RefusedError` (and changes nothing) when it cannot be played."""
        table = self.tables[table_id]
        async with self.lock(table_id):
            move = table.check_move(seat, message)
            await self.commit(table, move, forced=False)
        self.kick(table_id)

    def kick(self, table_id: str) -> None:
        """Let the table play its forced moves and bots, in a task of its own."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet: start() kicks every table
        task = loop.create_task(self._play_on(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _agent(self, table: Table, seat: int) -> Agent:
        key = (table.id, seat)
        if key not in self._agents:
            self._agents[key] = parse_spec(table.seats[seat].spec).build()
        return self._agents[key]

    async def _play_on(self, table_id: str) -> None:
        table = self.tables[table_id]
        while True:
            async with self.lock(table_id):
                state = table.round
                if state is None or table.error is not None:
                    return
                legal = table.legal
                seat = state.turn
                if len(legal) == 1:
                    await self.commit(table, legal[0], forced=True)
                    continue
                if table.seats[seat].kind != "bot":
                    return
                n = table.n
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            try:
                agent = self._agent(table, seat)
                move = await asyncio.to_thread(ask, agent, state, random.Random(self._rng.random()))
            except Exception as err:  # a bot that fails stops its table, not the server
                async with self.lock(table_id):
                    table.error = f"the bot at seat {seat} failed: {brief(str(err), 300)}"
                    log.error("table %s: %s", table_id, table.error)
                    self.announce(table_id)
                return
            async with self.lock(table_id):
                if table.n != n:  # another task played meanwhile: ask again
                    continue
                await self.commit(table, move, forced=False)

    async def close(self) -> None:
        """Stop the bots' tasks, close the engines and the database."""
        for task in list(self._tasks):
            task.cancel()
        for agent in self._agents.values():
            close = getattr(agent, "close", None)
            if callable(close):
                await asyncio.to_thread(close)
        self.store.close()
