"""The tables of a running server, their connections and their bots.

The :class:`Hub` owns the :class:`~chickenfoot.server._store.Store` and every
:class:`~chickenfoot.server._table.Table`. Every change of a table goes through
:meth:`Hub.commit`, under the table's lock: the move is written to the database (and
committed) first, then played, then announced to every connection of the table, each
getting what its seat may see. After each change the hub plays on by itself while the
seat to act is a bot (asked in a worker thread, so the server keeps serving while it
thinks); a person plays every move of theirs, forced or not.

What a seat may not know never reaches it, by message or by timing: that a move was
forced (the only legal one, a fact about the hand) is told to the seat that made it only;
every bot move is announced ``bot_delay`` after its turn began, forced or not (a forced
move is made without asking the bot, a choice is thought over during the wait); a failing
bot's reason (which may quote its hand) goes to the server's log, not to the table.
When a round ends and another is dealt, the table waits ``round_pause`` seconds, or until
every person connected says ``next``, so people can look at the round's end (the hands
revealed); when the match ends, the people there may ask for a ``rematch``: a new match
at the same table, same seats, same links.

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
from chickenfoot.engine import EngineAgent
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.moves import Move, parse_move
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.server._store import SeatRow, Store
from chickenfoot.server._table import RefusedError, Table
from chickenfoot.specs import Trust, UntrustedSpecError, parse_spec
from chickenfoot.state import State

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
BOT_NAMES: Final = (
    "Henny Penny", "Cocky Locky", "Ducky Lucky", "Goosey Loosey",
    "Turkey Lurkey", "Foxy Loxy", "Chicken Licken", "Drakey Lakey",
)  # fmt: skip
"""The names of the bots that are not given one (the folk tale's birds), so that two
bots of the same kind can be told apart."""


def distinct_names(names: Sequence[str | None], bots: Sequence[bool]) -> list[str]:
    """Each seat's name: the given one, else a bot's name or ``Player N`` (N from 1); a
    name already taken gets a number (``Ann 2``).

    >>> distinct_names(["Ann", None, None, "Ann", None], [False, True, True, False, False])
    ['Ann', 'Henny Penny', 'Cocky Locky', 'Ann 2', 'Player 5']
    """
    out: list[str] = []
    birds = iter(BOT_NAMES)
    for i, (name, bot) in enumerate(zip(names, bots, strict=True)):
        base = (name or "").strip() or (next(birds, "") if bot else "") or f"Player {i + 1}"
        name_, k = base, 2
        while name_.casefold() in {n.casefold() for n in out}:
            name_, k = f"{base} {k}", k + 1
        out.append(name_)
    return out


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
    except ChickenFootError as err:  # SpecError, or a wrong type
        raise RefusedError(str(err)) from None
    if parsed.kind == "search" and int(parsed.value) > MAX_SEARCH:
        raise RefusedError(f"search:N takes at most {MAX_SEARCH:,} iterations on this server")
    try:
        Trust.data(engines=engines).check(parsed)
    except UntrustedSpecError:
        if parsed.kind == "engine":
            raise RefusedError(
                f"engine {brief(str(parsed.value))} is not one this server was started with "
                "(chickenfoot serve --engine COMMAND)"
            ) from None
        raise RefusedError(
            f"bot {brief(spec)}: module:Class bots cannot be named from the web"
        ) from None
    return parsed.name


def _think(agent: Agent, state: State, rng: random.Random) -> Move:
    """A bot's move (a forced one made without asking it, as :func:`ask` does). An engine
    is started first: one that cannot start fails at its seat's first turn, forced or not,
    not at its first choice (which would tell that the turns before were forced)."""
    if isinstance(agent, EngineAgent):
        agent.start()
    return ask(agent, state, rng)


def rules_of(request: Mapping[str, Any]) -> Rules:
    """The rules a table request asks for: ``preset`` (default ``classic``), ``players``
    and any other rule fields (as in a ``chickenfoot/rules`` document) in ``rules``."""
    preset = request.get("preset", "classic")
    if preset not in PRESETS:
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
    """The tables of one server, stored in ``store``; each bot move is announced
    ``bot_delay`` seconds after its turn began, forced or not (so people can follow, and
    when it comes tells nothing of the hand), engines are those of ``engines``."""

    def __init__(
        self,
        store: Store,
        *,
        engines: Sequence[str] = (),
        bot_delay: float = 0.0,
        round_pause: float = 0.0,
    ):
        self.store = store
        self.engines = tuple(engines)
        self.bot_delay = bot_delay
        self.round_pause = round_pause
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
            i = 0
            try:
                for i, (seat, text, forced) in enumerate(self.store.moves(stored.id)):
                    if table.turn != seat:
                        raise ValueError(f"move {i} ({text}) is by seat {seat}, not the turn's")
                    table.play(parse_move(text, max_pip=rules.max_pip), forced=forced)
            except (ChickenFootError, ValueError, RefusedError) as err:
                # Why a move is illegal may name a tile of a hand ("seat 0 can play 9-3@9-9"):
                # the log (the operator's) says it, the table only where.
                table.error = f"the stored record does not replay at move {i}"
                log.error("table %s: %s: %s", stored.id, table.error, brief(str(err), 200))
            self.tables[stored.id] = table

    def start(self) -> None:
        """Let every restored table play on (its bots)."""
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
            if name is not None and (not isinstance(name, str) or len(name) > _MAX_NAME):
                raise RefusedError(
                    f"seat {i}: a name is a string of at most {_MAX_NAME} characters"
                )
            if seat["kind"] == "bot":
                spec = check_bot_spec(seat.get("spec", "heuristic"), self.engines)
                rows.append(SeatRow(i, "bot", spec, None, names[i][: _MAX_NAME + 3]))
            else:
                token = secrets.token_urlsafe(24)
                rows.append(SeatRow(i, "person", "", token, names[i][: _MAX_NAME + 3]))
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
        rounds = table.match.rounds_played
        table.play(move, forced=forced)
        if table.match.rounds_played != rounds and table.round is not None and self.round_pause:
            table.pause(self.round_pause)
            self._task(self._end_pause(table.id, table.pause_until))
        self.announce(table.id)

    async def _end_pause(self, table_id: str, until: float | None) -> None:
        """End a table's pause at its deadline (unless it ended already)."""
        await asyncio.sleep(self.round_pause)
        table = self.tables[table_id]
        async with self.lock(table_id):
            if table.pause_until != until:
                return
            table.resume()
            self.announce(table_id)
        self.kick(table_id)

    def _people_agree(self, table_id: str) -> bool:
        """Whether every person connected to the table is in its ``ready`` seats."""
        table = self.tables[table_id]
        here = [
            s.seat
            for s, on in zip(table.seats, self.connected(table_id), strict=True)
            if on and s.kind == "person"
        ]
        return all(seat in table.ready for seat in here)

    async def agree(self, table_id: str, seat: int | None, what: str) -> None:
        """A person's ``next`` (deal the next round now) or ``rematch`` (a new match, once
        this one is over): done when every person connected has asked for it."""
        table = self.tables[table_id]
        if seat is None or table.seats[seat].kind != "person":
            raise RefusedError(f"only the people at the table can ask for {what}")
        async with self.lock(table_id):
            if what == "next" and not table.paused:
                raise RefusedError("no round is waiting to start")
            if what == "rematch" and table.round is not None:
                raise RefusedError("a rematch is for when the match is over")
            table.ready.add(seat)
            if self._people_agree(table_id):
                if what == "next":
                    table.resume()
                else:
                    seed = secrets.randbits(63)
                    await asyncio.to_thread(self.store.restart, table_id, seed)
                    table.restart(seed)
            self.announce(table_id)
        self.kick(table_id)

    async def person_moves(
        self, table_id: str, seat: int | None, message: Mapping[str, Any]
    ) -> None:
        """A person's ``move`` message: checked, committed, announced; then the table plays
        on. Raises :class:`RefusedError` (and changes nothing) when it cannot be played."""
        table = self.tables[table_id]
        async with self.lock(table_id):
            move = table.check_move(seat, message)
            await self.commit(table, move, forced=len(table.legal) == 1)
        self.kick(table_id)

    def kick(self, table_id: str) -> None:
        """Let the table play its bots, in a task of its own."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet: start() kicks every table
        self._task(self._play_on(table_id), loop)

    def _task(self, work: Any, loop: asyncio.AbstractEventLoop | None = None) -> None:
        task = (loop or asyncio.get_running_loop()).create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _agent(self, table: Table, seat: int) -> Agent:
        key = (table.id, seat)
        if key not in self._agents:
            # The database is data too: a stored spec runs only what this server may run.
            spec = parse_spec(table.seats[seat].spec)
            self._agents[key] = spec.build(trust=Trust.data(engines=self.engines))
        return self._agents[key]

    async def _play_on(self, table_id: str) -> None:
        """Play the table's bots until a person is to act or the match ends.

        Every bot move is announced no sooner than ``bot_delay`` after its turn began,
        forced or not, the bot thinking meanwhile: when a move comes tells nothing of the
        hand (unless a bot thinks longer than ``bot_delay``)."""
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
            due = loop.time() + self.bot_delay
            failed = None
            try:  # a forced move too, the same way
                agent = self._agent(table, seat)
                rng = random.Random(self._rng.random())
                move = await asyncio.to_thread(_think, agent, state, rng)
            except Exception as err:  # a bot that fails stops its table, not the server
                failed = err
            if loop.time() < due:
                await asyncio.sleep(due - loop.time())
            async with self.lock(table_id):
                if failed is not None:
                    # Its reason may quote the hand (an engine's answer, its legal moves).
                    table.error = f"the bot at seat {seat} failed (the server's log says why)"
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
        for agent in self._agents.values():
            close = getattr(agent, "close", None)
            if callable(close):
                await asyncio.to_thread(close)
        self.store.close()
