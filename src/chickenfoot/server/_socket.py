"""One WebSocket connection of a table: its ``hello``, the messages it may send
(:func:`answer`) and the writer that sends it its queue (:func:`write`).

Every message is at most :data:`MAX_MESSAGE` bytes of JSON text; a connection sends at
most :data:`RATE` a second on average (:data:`BURST` at once) and is closed after
:data:`REFUSED_MAX` refused for coming too fast. The application
(:mod:`~chickenfoot.server._app`) admits the connection, then runs these.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from chickenfoot._protocol import PROTOCOL, ProtocolError, decode
from chickenfoot.errors import brief
from chickenfoot.server._announce import FLOODED, REFUSED, Connection, encode
from chickenfoot.server._hub import Hub
from chickenfoot.server._limits import MessageBucket
from chickenfoot.server._table import RefusedError, Table

__all__ = [
    "BURST",
    "HELLO_SECONDS",
    "MAX_MESSAGE",
    "RATE",
    "REFUSED_MAX",
    "ClosedError",
    "answer",
    "echo",
    "fail",
    "read_hello",
    "read_text",
    "send_error",
    "welcome",
    "write",
]

MAX_MESSAGE: Final = 16_384
"""The longest message a client may send, in bytes (a move is a few dozen)."""
RATE: Final = 10.0
"""The messages a connection may send per second, on average..."""
BURST: Final = 30
"""...and at once; messages beyond are refused."""
REFUSED_MAX: Final = 60
"""The messages refused for coming too fast after which a connection is closed."""
HELLO_SECONDS: Final = 10.0
"""How long a new connection has to send its ``hello``."""


class ClosedError(Exception):
    """The connection was closed by the server (after an error message)."""


async def fail(ws: WebSocket, message: str, code: int) -> None:
    with contextlib.suppress(Exception):
        error = {"type": "error", "message": message, "fatal": True, "code": code}
        await ws.send_text(json.dumps(error))
        await ws.close(code=code)


async def read_text(ws: WebSocket) -> tuple[str | None, str | None]:
    """The next message's text, or ``None`` and why it is refused (binary, oversized)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    data = text.encode() if isinstance(text, str) else message.get("bytes") or b""
    if len(data) > MAX_MESSAGE:
        return None, f"a message of {len(data):,} bytes is over the limit of {MAX_MESSAGE:,}"
    if not isinstance(text, str):
        return None, "messages are JSON text, not binary"
    return text, None


async def send_error(ws: WebSocket, message: str) -> None:
    await ws.send_text(json.dumps({"type": "error", "message": message, "code": REFUSED}))


async def read_hello(ws: WebSocket, table: Table) -> tuple[int | None, bool]:
    """Read the client's ``hello``: with its seat's ``token``, or none for a spectator
    (answered by the caller, once it admits the connection), and whether it shows the
    picture (``"picture": false``: a program that plays, not a page)."""
    while True:
        text, why = await read_text(ws)
        if text is None:
            await send_error(ws, f"refused: {why}")
            continue
        try:
            message = decode(text.encode())
        except ProtocolError as err:
            await send_error(ws, f"the first message must be a hello: {err}")
            continue
        if message["type"] != "hello":
            await send_error(ws, f"the first message must be a hello, not {brief(message['type'])}")
            continue
        picture = message.get("picture", True)
        if type(picture) is not bool:
            await send_error(ws, "a hello's picture is true or false")
            continue
        token = message.get("token")
        if token is None or token == "":
            seat = None
        else:
            seat = table.seat_of(token)
            if seat is None:
                await fail(ws, "this token is not a seat of this table", 4401)
                raise ClosedError
        return seat, picture


def welcome(table_id: str, seat: int | None) -> str:
    """The server's ``hello``, once the connection is admitted."""
    role = "spectator" if seat is None else "player"
    return json.dumps(
        {"type": "hello", "protocol": PROTOCOL, "table": table_id, "seat": seat, "role": role}
    )


async def write(ws: WebSocket, connection: Connection, send_seconds: float) -> None:
    """Send the connection's queued messages in order, until ``None`` (then, if the server
    ends the connection, say why and close). A message the client does not take within
    ``send_seconds`` (it stopped reading), or a socket closed under it, ends the connection
    at once: a client going away is ordinary, never an error of the server's."""
    while True:
        message = await connection.queue.get()
        if message is None:
            if connection.ending is not None:
                why, code = connection.ending
                with contextlib.suppress(asyncio.TimeoutError):  # fail suppresses the rest
                    await asyncio.wait_for(fail(ws, why, code), send_seconds)
            return
        try:
            text = message if isinstance(message, str) else encode(message)
            await asyncio.wait_for(ws.send_text(text), send_seconds)
        except Exception:  # it stopped reading, or went away (the socket closed under us)
            connection.dropped = True
            return


def echo(value: object) -> int | str | None:
    """The ``id`` a client gave, to send back: an integer of at most 64 bits or a string of
    at most 64 characters, else null (never the client's own structure: it may be 16 KiB
    nested hundreds deep).

    >>> echo(17), echo("a-17"), echo(True), echo(2**70), echo([[[]]]), echo("x" * 65)
    (17, 'a-17', None, None, None, None)
    """
    if type(value) is int and -(2**63) <= value < 2**63:
        return value
    if type(value) is str and len(value) <= 64:
        return value
    return None


async def answer(
    ws: WebSocket, hub: Hub, table_id: str, connection: Connection, idle_seconds: float
) -> None:
    """Answer the connection's messages: ``move`` (checked, then played), ``next`` (deal
    the next round now), ``rematch``, ``table`` (send the table again), ``hint`` and
    ``review`` (:mod:`~chickenfoot.server._coach`), ``ping``; anything else is refused with a message. A connection that sends nothing for ``idle_seconds``
    is closed (4408)."""
    bucket = MessageBucket(RATE, BURST)
    while not connection.dropped:
        try:
            text, why = await asyncio.wait_for(read_text(ws), idle_seconds)
        except asyncio.TimeoutError:
            connection.close(f"no message for {idle_seconds:.0f} seconds: closed", 4408)
            return
        except WebSocketDisconnect:
            return
        if not bucket.take():
            if bucket.refused > REFUSED_MAX:
                connection.close("too many messages", 4429)
                return
            if bucket.refused <= BURST:  # the answers to a flood are bounded too
                connection.put(
                    {
                        "type": "error",
                        "message": f"too many messages: at most {RATE:.0f} a second; ignored",
                        "code": FLOODED,
                    }
                )
            continue
        if text is None:
            connection.put({"type": "error", "message": f"refused: {why}", "code": REFUSED})
            continue
        try:
            message = decode(text.encode())
        except ProtocolError as err:
            connection.put({"type": "error", "message": f"refused: {err}", "code": REFUSED})
            continue
        kind = message["type"]
        try:
            if kind == "move":
                # shielded: a move being stored is played and announced even if the
                # connection ends meanwhile
                await asyncio.shield(hub.person_moves(table_id, connection.seat, message))
                bucket.give_back()
            elif kind in ("next", "rematch"):
                await hub.agree(table_id, connection.seat, kind)
            elif kind == "table":
                hub.send_table(table_id, connection)
            elif kind in ("hint", "review"):  # worked out aside, answered to this connection
                table = hub.tables.get(table_id)
                if table is None:
                    raise RefusedError("the table is not loaded here: reconnect")
                hub.coach.ask(kind, table, connection, message)
            elif kind == "ping":
                connection.put({"type": "pong", "id": echo(message.get("id"))})
            else:
                raise RefusedError(f"unknown message type {brief(kind, 40)}")
        except RefusedError as err:
            message_id = echo(message.get("id"))
            refusal = {"type": "error", "message": f"refused: {err}", "code": REFUSED}
            connection.put({**refusal, "id": message_id})
