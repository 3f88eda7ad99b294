"""The load benchmark's clients, all in one asyncio process (``bench/serve_load.py``).

- :func:`pair`: a two-person table played by two scripted WebSocket clients, one per
  seat (each on its own server when there are two), each answering its ``go`` with a
  random legal move after ``think`` seconds (0: at once, so the server's ceiling shows);
  when the match ends the pair makes a new table and plays on;
- :func:`watch_bots`: a table of bots only (``bot_delay`` 0), watched by one spectator that
  counts the moves announced; a new table when the match ends;
- :func:`idle`: a spectator that says hello and then only reads.

A move's latency runs from its ``move`` message being sent to the first message that
announces it reaching the same client: a ``table`` message whose ``n`` passes the move's
id, or a ``moved`` message whose ``n`` reaches it (whichever the server sends). What every
client saw is kept in a :class:`Record` for the check against the database
(``load_check.py``): each move it sent, each of its moves acknowledged (announced), each
move announced by a ``table`` message.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

Key = tuple[str, int]  # (table, move index)


@dataclass
class Record:
    """What the clients of one run saw, and the measuring window (monotonic seconds)."""

    start: float = float("inf")
    end: float = float("inf")
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    """Moves announced inside the window (each counted once, by the client that made it,
    or by the spectator of a bot table)."""
    sent: dict[Key, list[tuple[int, str]]] = field(default_factory=dict)
    acked: dict[Key, tuple[int, str]] = field(default_factory=dict)
    seen: dict[Key, tuple[int, str]] = field(default_factory=dict)
    """Moves announced by ``table`` messages (its ``last``): seat and move as shown."""
    errors: Counter[str] = field(default_factory=Counter)
    tables: set[str] = field(default_factory=set)
    reconnects: int = 0

    def inside(self, when: float) -> bool:
        return self.start <= when < self.end

    def announced(self, table: str, message: dict[str, Any], tally: Tally) -> int:
        """Note the moves a ``table`` or ``moved`` message announces (its ``last`` or
        ``event``, at its place); returns how many moves it announces that ``tally`` (what
        the same connection heard before) did not have."""
        kind, n = message.get("type"), message.get("n")
        if type(n) is not int or kind not in ("table", "moved"):
            return 0
        if kind == "moved":
            if tally.offset is None:  # its n numbers the move itself, or counts it
                tally.offset = 1 if tally.count is not None and n == tally.count else 0
            n += tally.offset
        last = message.get("last") if kind == "table" else message.get("event")
        if isinstance(last, dict) and n > 0:
            self.seen.setdefault((table, n - 1), (last.get("seat", -1), str(last.get("move"))))
        new = 0 if tally.count is None else max(0, n - tally.count)
        tally.count = n if tally.count is None else max(n, tally.count)
        return new


@dataclass
class Tally:
    """The moves announced to one connection so far (a ``table`` message's ``n``), and
    what a ``moved`` message's ``n`` lacks of that count (0 or 1, found at the first)."""

    count: int | None = None
    offset: int | None = None


async def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST`` JSON to the server on the loopback and read its JSON answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        data = json.dumps(body).encode()
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
            f"\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
            + data
        )
        answer = await reader.read()
    finally:
        writer.close()
    head, _, content = answer.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1] if head else b"?"
    if status != b"200":
        raise RuntimeError(f"POST {path}: {status.decode()} {content[:200]!r}")
    made: dict[str, Any] = json.loads(content)
    return made


def _connect(port: int, table: str) -> Any:
    return connect(
        f"ws://127.0.0.1:{port}/ws/{table}",
        max_size=2**23,
        compression=None,
        close_timeout=1,
        open_timeout=30,
    )


def _announces(kind: object, n: object, move_id: int) -> bool:
    """Whether a message announces the move that answered the go ``move_id``: a ``table``
    message past it, or a ``moved`` message reaching it (whether its ``n`` counts the
    moves before or after it: no ``moved`` message of the move before comes after ours)."""
    if type(n) is not int:
        return False
    return (kind == "table" and n > move_id) or (kind == "moved" and n >= move_id)


async def seat(
    port: int,
    table: str,
    token: str,
    record: Record,
    *,
    think: float = 0.0,
    reconnect: bool = False,
    rng: random.Random | None = None,
) -> None:
    """Play one seat until its match ends (or the task is cancelled); with ``reconnect``,
    a lost connection is opened again (the server was killed) until it is back."""
    rng = rng or random.Random()
    pending: tuple[int, str, float] | None = None  # id, move, when sent
    over = False
    while not over:
        answered: set[int] = set()
        tally = Tally()
        try:
            async with _connect(port, table) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, **HELLO}))
                me: int | None = None
                async for text in ws:
                    message = json.loads(text)
                    kind = message.get("type")
                    now = time.monotonic()
                    n = message.get("n")
                    if pending is not None and _announces(kind, n, pending[0]):
                        record.acked[(table, pending[0])] = (-1 if me is None else me, pending[1])
                        if record.inside(pending[2]):
                            record.latencies.append(now - pending[2])
                        if record.inside(now):
                            record.moves += 1
                        pending = None
                    if kind == "hello":
                        me = message.get("seat")
                    elif kind in ("table", "moved"):
                        record.announced(table, message, tally)
                        if message.get("over"):
                            over = True
                            break
                    elif kind == "go":
                        go_id = message["id"]
                        if go_id in answered:  # the same go again (someone joined)
                            continue
                        answered.add(go_id)
                        if think > 0:
                            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                        move = rng.choice(message["legal"])
                        pending = (go_id, move, time.monotonic())
                        record.sent.setdefault((table, go_id), []).append(
                            (-1 if me is None else me, move)
                        )
                        await ws.send(json.dumps({"type": "move", "move": move, "id": go_id}))
                    elif kind == "error":
                        record.errors[str(message.get("message"))[:60]] += 1
                        if message.get("fatal"):
                            raise RuntimeError(f"closed by the server: {message.get('message')}")
                        if pending is not None and message.get("id") == pending[0]:
                            answered.discard(pending[0])  # refused: ask for the go again
                            pending = None
                            await ws.send(json.dumps({"type": "table"}))
                    elif message.get("over"):
                        over = True
                        break
        except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
            if not reconnect:
                raise
            record.reconnects += 1
            await asyncio.sleep(0.05)


async def pair(
    ports: tuple[int, int],
    record: Record,
    *,
    think: float = 0.0,
    reconnect: bool = False,
    made: dict[str, Any] | None = None,
) -> None:
    """A two-person table (seat 0's client on ``ports[0]``, seat 1's on ``ports[1]``),
    played match after match, a new table for each, until cancelled."""
    while True:
        if made is None:
            made = await _retry(lambda: post(ports[0], "/api/tables", PERSON_TABLE), reconnect)
        table = made["table"]
        record.tables.add(table)
        tokens = [s["link"].split("#")[1] for s in made["seats"]]
        await asyncio.gather(
            *(
                seat(port, table, token, record, think=think, reconnect=reconnect)
                for port, token in zip(ports, tokens, strict=True)
            )
        )
        made = None


async def watch_bots(port: int, record: Record, made: dict[str, Any] | None = None) -> None:
    """Tables of two ``random`` bots, one after another, each watched by a spectator that
    counts the moves announced, until cancelled."""
    while True:
        if made is None:
            made = await post(port, "/api/tables", BOT_TABLE)
        table = made["table"]
        record.tables.add(table)
        tally = Tally()
        async with _connect(port, table) as ws:
            await ws.send(json.dumps({"type": "hello", **HELLO}))
            async for text in ws:
                message = json.loads(text)
                new = record.announced(table, message, tally)
                if new and record.inside(time.monotonic()):
                    record.moves += new
                if message.get("type") == "error" and message.get("fatal"):
                    raise RuntimeError(f"closed by the server: {message.get('message')}")
                if message.get("over"):
                    break
        made = None


HELLO: dict[str, Any] = {}
"""What the clients add to their ``hello`` (``{"picture": False}``: programs, not pages)."""

BOT_TABLE: dict[str, Any] = {
    "preset": "house",
    "players": 2,
    "seats": [{"kind": "bot", "spec": "random"}, {"kind": "bot", "spec": "random"}],
}

PERSON_TABLE: dict[str, Any] = {
    "preset": "house",
    "players": 2,
    "seats": [{"kind": "person"}, {"kind": "person"}],
}


async def idle(port: int, table: str, opened: list[int], record: Record) -> None:
    """A spectator of ``table`` that only reads, until cancelled."""
    async with _connect(port, table) as ws:
        await ws.send(json.dumps({"type": "hello", **HELLO}))
        opened[0] += 1
        async for text in ws:
            if '"fatal":true' in text.replace(" ", ""):
                record.errors[text[:60]] += 1


async def _retry(make: Callable[[], Awaitable[dict[str, Any]]], again: bool) -> dict[str, Any]:
    while True:
        try:
            return await make()
        except (OSError, RuntimeError):
            if not again:
                raise
            await asyncio.sleep(0.05)


async def cancel(tasks: list[asyncio.Task[None]]) -> list[BaseException]:
    """Cancel ``tasks`` and wait for them; returns the failures other than cancellation."""
    for task in tasks:
        task.cancel()
    failures = []
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            failures.append(result)
    return failures


async def bounded(work: list[Callable[[], Awaitable[Any]]], at_once: int) -> list[Any]:
    """Run ``work`` with at most ``at_once`` at a time (tables made, connections opened)."""
    gate = asyncio.Semaphore(at_once)

    async def one(job: Callable[[], Awaitable[Any]]) -> Any:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(job) for job in work)))
