"""The tables of a running server, their connections and their bots.

The :class:`Hub` owns the :class:`~chickenfoot.server._store.Store` and every
:class:`~chickenfoot.server._table.Table`; how a table changes (stored first, then played
and announced), pauses, agrees and follows the database is its
:class:`~chickenfoot.server._keeper.Keeper` part. After each change the hub plays on by
itself while the seat to act is a bot (asked in a worker thread, so the server keeps
serving while it thinks); a person plays every move of theirs, forced or not.

What a seat may not know never reaches it, by message or by timing: that a move was
forced (the only legal one, a fact about the hand) is told to the seat that made it only;
every bot move is announced at its :meth:`Hub.pace` after its turn began (``bot_delay``,
or an engine's ``time_ms`` when longer), forced or not (a forced move is made without
asking the bot, a choice is thought over during the wait; a search thinks within
``bot_delay``, whatever its ``search:N``); a failing
bot's reason (which may quote its hand) goes to the server's log, not to the table.

Bots are the built-in agents (``random``, ``greedy``, ``heuristic``, ``search``,
``search:N``, ``ismcts``, ``ismcts:N``: each within its declared bound, see
:mod:`chickenfoot.server._bots`) and ``engine:COMMAND`` for the commands the server was started with
(``chickenfoot serve --engine COMMAND``): a web page can never make the server run a
program of its choosing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from chickenfoot.agents import Agent, ask
from chickenfoot.commitment import fresh_seed
from chickenfoot.engine import EngineAgent
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.moves import Move, parse_move
from chickenfoot.rules import Rules
from chickenfoot.server._announce import Connection
from chickenfoot.server._bots import bounded
from chickenfoot.server._coach import Coach
from chickenfoot.server._keeper import Keeper
from chickenfoot.server._limits import Limits, check_table_cost, engine_names
from chickenfoot.server._requests import (
    MAX_NAME,
    check_bot_spec,
    distinct_names,
    hints_of,
    options_of,
    rules_of,
)
from chickenfoot.server._store import GapError, SeatRow, Store, StoredTable
from chickenfoot.server._table import RefusedError, Table
from chickenfoot.specs import Trust, parse_spec, rules_refusal
from chickenfoot.state import State

__all__ = ["MAX_TABLES", "Hub"]

log = logging.getLogger("chickenfoot.server")

MAX_TABLES = 10_000
"""The tables a server holds at most (each is kept in memory); more are refused."""


def _think(agent: Agent, state: State, rng: random.Random) -> Move:
    """A bot's move (a forced one made without asking it, as :func:`ask` does). An engine
    is started first: one that cannot start fails at its seat's first turn, forced or not,
    not at its first choice (which would tell that the turns before were forced)."""
    if isinstance(agent, EngineAgent):
        agent.start()
    return ask(agent, state, rng)


class Hub(Keeper):
    """The tables of one server, stored in ``store``; each bot move is announced
    ``bot_delay`` seconds after its turn began, forced or not (so people can follow, and
    when it comes tells nothing of the hand), engines are those of ``engines``."""

    def __init__(
        self,
        store: Store,
        *,
        engines: Sequence[str] = (),
        policies: Mapping[str, Agent] | None = None,
        bot_delay: float = 0.0,
        round_pause: float = 0.0,
        limits: Limits | None = None,
    ):
        super().__init__(store, round_pause=round_pause)
        self.engines = engine_names(engines)
        """The engines a seat may name, by short name: ``{name: command}``."""
        self.policies: dict[str, Agent] = dict(policies or {})
        """The trained policies a seat may name (``policy:NAME``), loaded at the start."""
        self.bot_delay = bot_delay
        self.limits = Limits() if limits is None else limits
        self._agents: dict[tuple[str, int], Agent] = {}
        self._rng = random.Random(secrets.randbits(64))
        self.coach = Coach()
        """The hints and reviews asked for at the tables (:mod:`~chickenfoot.server._coach`)."""

    # -- start: every table restored ---------------------------------------------------------

    def restore(self) -> None:
        """Load the live stored tables (not finished, changed within
        ``limits.abandoned_seconds``; the most recent half of ``MAX_TABLES`` at most: the
        others open from the database when someone asks), replaying each one's moves with
        every check (a move that does not replay stops that table with the reason)."""
        since = time.time() - self.limits.abandoned_seconds
        for stored in self.store.tables(live_since=since, limit=MAX_TABLES // 2):
            self.restore_one(stored)

    def restore_one(
        self, stored: StoredTable, *, moves: Sequence[tuple[int, str, bool]] | None = None
    ) -> Table | None:
        """Load one stored table into memory, replaying its moves (see :meth:`restore`;
        ``moves``: read already, else read now)."""
        try:
            rules = Rules.from_dict(json.loads(stored.rules))
            table = Table(
                stored.id, rules, stored.seed, stored.seats, hints=hints_of(stored.options)
            )
        except (ChickenFootError, ValueError) as err:
            log.error("table %s cannot be restored: %s", stored.id, err)
            return None
        i = 0
        try:
            record = self.store.moves(stored.id) if moves is None else moves
            for i, (seat, text, forced) in enumerate(record):
                if table.turn != seat:
                    raise ValueError(f"move {i} ({text}) is by seat {seat}, not the turn's")
                table.play(parse_move(text, max_pip=rules.max_pip), forced=forced)
            i = table.n
        except (ChickenFootError, ValueError, RefusedError, GapError) as err:
            # Why a move is illegal may name a tile of a hand ("seat 0 can play 9-3@9-9"):
            # the log (the operator's) says it, the table only where.
            table.stop(f"the stored record does not replay at move {i}")
            log.error("table %s: %s: %s", stored.id, table.error, brief(str(err), 200))
        self._agree_as_stored(table, stored)
        self.tables[stored.id] = table
        self.active[stored.id] = time.monotonic()
        return table

    def start(self) -> None:
        """Hear of the changes other processes make to the database (a PostgreSQL store:
        LISTEN; a SQLite file has one process), and let every restored table play on."""
        loop = asyncio.get_running_loop()
        self.store.subscribe(
            lambda table_id, moves: loop.call_soon_threadsafe(self.heard, table_id, moves)
        )
        for table_id in self.tables:
            self.kick(table_id)

    # -- making tables -----------------------------------------------------------------------

    def create(self, request: Mapping[str, Any]) -> tuple[Table, list[str | None]]:
        """A new table from a request (``preset``, ``players``, ``rules``, ``hints``,
        ``seats``: a list of ``{"kind": "person", "name": ...}`` or ``{"kind": "bot", "spec":
        ...}``), stored;
        returns it and each seat's token (``None`` for a bot)."""
        if len(self.tables) >= MAX_TABLES:
            raise RefusedError(f"this server holds {MAX_TABLES:,} tables already")
        rules = rules_of(request)
        options = options_of(request)
        seats = request.get("seats")
        if not isinstance(seats, list) or len(seats) != rules.players:
            raise RefusedError(f"seats must list {rules.players} seats, one per player")
        rows = []
        names = distinct_names(
            [s.get("name") if isinstance(s, dict) and isinstance(s.get("name"), str) else None
             for s in seats],
            [isinstance(s, dict) and s.get("kind") == "bot" for s in seats],
        )  # fmt: skip
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in ("person", "bot"):
                raise RefusedError(
                    f"seat {i} must be {{'kind': 'person'}} or {{'kind': 'bot', ...}}"
                )
            name = seat.get("name")
            if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
                raise RefusedError(f"seat {i}: a name is a string of at most {MAX_NAME} characters")
            if seat["kind"] == "bot":
                spec = check_bot_spec(
                    seat.get("spec", "heuristic"), list(self.engines), policies=list(self.policies)
                )
                rows.append(SeatRow(i, "bot", spec, None, names[i][: MAX_NAME + 3]))
            else:
                token = secrets.token_urlsafe(24)
                rows.append(SeatRow(i, "person", "", token, names[i][: MAX_NAME + 3]))
        check_table_cost([row.spec for row in rows], self.limits.search_budget)
        named = [
            (row.spec, self.policies[row.spec[7:]])
            for row in rows
            if row.spec.startswith("policy:")
        ]
        why = rules_refusal(named, rules)
        if why is not None:  # a policy plays the rules it was trained for only
            raise RefusedError(f"the bot {why}")
        table_id = secrets.token_urlsafe(9)
        seed = fresh_seed()  # 128 bits: each round is dealt from its own seed (_table)
        table = Table(table_id, rules, seed, rows, hints=hints_of(options))
        self.store.add_table(table_id, json.dumps(rules.to_dict()), seed, rows, options=options)
        self.tables[table_id] = table
        self.active[table_id] = time.monotonic()
        self.kick(table_id)
        return table, [row.token for row in rows]

    # -- connections ---------------------------------------------------------------------------

    def join(self, table_id: str, connection: Connection) -> None:
        """Add a connection and send it the table (and its ``go`` if it is to choose); the
        others are told only if a seat came online. A seat's connection beyond
        ``limits.seat_connections`` closes that seat's oldest."""
        here = self.connections.setdefault(table_id, set())
        before = self.connected(table_id)
        if connection.seat is not None:
            same = sorted(
                (c for c in here if c.seat == connection.seat and c.ending is None),
                key=lambda c: c.opened,
            )
            for old in same[: max(0, len(same) + 1 - self.limits.seat_connections)]:
                old.close("this seat was opened elsewhere (a newer connection)", 4409)
        here.add(connection)
        self.active[table_id] = time.monotonic()
        if self.connected(table_id) != before:
            self.announce(table_id)
        else:
            self.send_table(table_id, connection)
        if table_id not in self.playing:  # its bots play on here (another process that
            self.kick(table_id)  # played them may have stopped)

    def leave(self, table_id: str, connection: Connection) -> None:
        """Remove a connection (the others are told if its seat went offline)."""
        here = self.connections.get(table_id, set())
        before = self.connected(table_id) if table_id in self.tables else None
        here.discard(connection)
        self.active[table_id] = time.monotonic()
        if table_id in self.tables and self.connected(table_id) != before:
            self.announce(table_id)

    def room(self) -> int:
        """How many more tables memory may hold (``MAX_TABLES`` in all)."""
        return MAX_TABLES - len(self.tables)

    def spectators(self, table_id: str | None = None) -> int:
        """The spectators of one table (``None``: of every table)."""
        groups = (
            self.connections.values()
            if table_id is None
            else [self.connections.get(table_id, set())]
        )
        return sum(1 for group in groups for c in group if c.seat is None)

    def forget(self, table_id: str) -> list[Agent]:
        """Drop a table from memory (it stays in the database); returns its bots' agents,
        to be closed."""
        self.tables.pop(table_id, None)
        self.active.pop(table_id, None)
        self.connections.pop(table_id, None)
        self._locks.pop(table_id, None)
        self._pausing.pop(table_id, None)
        agents = [a for (t, _s), a in self._agents.items() if t == table_id]
        for key in [k for k in self._agents if k[0] == table_id]:
            del self._agents[key]
        return agents

    def _agent(self, table: Table, seat: int) -> Agent:
        key = (table.id, seat)
        if key not in self._agents:
            # The database is data too: a stored spec runs only what this server may run,
            # an engine by its name (engine:NAME), or by a command it was started with.
            spec = parse_spec(table.seats[seat].spec)
            if spec.kind == "engine" and spec.value in self.engines:
                spec = parse_spec(f"engine:{self.engines[str(spec.value)]}")
            if spec.kind == "policy":  # one this server was started with, by its name
                if spec.value not in self.policies:
                    raise ValueError(f"the policy {spec.name!r} is not offered by this server")
                agent = self.policies[str(spec.value)]
            else:
                agent = spec.build(trust=Trust.data(engines=self.engines.values()))
            # a search thinks within the wait, so its move comes when any other bot's would
            self._agents[key] = bounded(agent, spec, self.bot_delay)
        return self._agents[key]

    def pace(self, agent: Agent) -> float:
        """Seconds from the start of a bot's turn to its move, forced or not: ``bot_delay``,
        or an engine's ``time_ms`` when longer (what the engine may think; a search thinks
        within ``bot_delay``). 0 when ``bot_delay`` is 0: bots then move when ready."""
        if self.bot_delay <= 0:
            return 0.0
        if isinstance(agent, EngineAgent):
            return max(self.bot_delay, agent.time_ms / 1000)
        return self.bot_delay

    async def play_on(self, table_id: str) -> None:
        """Play the table's bots until a person is to act or the match ends.

        Every bot move is announced :meth:`pace` seconds after its turn began, forced or
        not, the bot thinking meanwhile (a search within that time): when a move comes
        tells nothing of the hand (unless an engine overruns its ``time_ms``)."""
        table = self.tables[table_id]
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock(table_id):
                state = table.round
                if state is None or table.error is not None or table.paused:
                    return
                seat = state.turn
                if table.seats[seat].kind != "bot":
                    return
                n = table.n
            began = loop.time()
            due = began + self.bot_delay
            failed = None
            try:  # a forced move too, the same way
                agent = self._agent(table, seat)
                due = began + self.pace(agent)
                rng = random.Random(self._rng.random())
                move = await asyncio.to_thread(_think, agent, state, rng)
            except Exception as err:  # a bot that fails stops its table, not the server
                failed = err
            if loop.time() < due:
                await asyncio.sleep(due - loop.time())
            async with self.lock(table_id):
                if failed is not None:
                    # Its reason may quote the hand (an engine's answer, its legal moves).
                    table.stop(f"the bot at seat {seat} failed (the server's log says why)")
                    reason = brief(str(failed), 300)
                    log.error("table %s: the bot at seat %d failed: %s", table_id, seat, reason)
                    self.announce(table_id)
                    return
                if table.n != n:  # another task played meanwhile: ask again
                    continue
                await self.commit(table, move, forced=len(state.legal_moves) == 1)

    async def close(self) -> None:
        """Stop the bots' tasks, close the engines and the database."""
        for task in list(self._tasks):
            task.cancel()
        self.coach.close()
        await self.writer.close()
        for agent in self._agents.values():
            close = getattr(agent, "close", None)
            if callable(close):
                await asyncio.to_thread(close)
        self.store.close()
