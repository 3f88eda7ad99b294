"""What the connections of a table are sent when it changes, each made once.

A :class:`Connection` is one WebSocket client of a table: its seat (``None``: a
spectator), whether it shows the table's picture, the version of the picture it holds,
and its queue of outgoing messages (already encoded: a writer task sends them in order).

After a move within a round every connection gets a ``moved`` message (the move as its
seat may see it and what changed: :meth:`~chickenfoot.server._table.Table.moved_message`),
and the seat to act its ``go``; after any other change (a round's end, a pause, a
rematch, a stop, someone coming or going) and on connecting, the whole ``table``. The
messages differ only by audience: the seat that moved, the seat to act, everyone else
(the other seats and the spectators get the same bytes), with or without the picture. So
each distinct message is made and encoded once, whatever the number of connections, and
the picture is drawn once per change (and its change worked out once).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable, Sequence
from typing import Any, Final

from chickenfoot.server._table import Table

__all__ = [
    "DELAYED",
    "FAILED",
    "FLOODED",
    "QUEUE",
    "REFUSED",
    "Connection",
    "announce_move",
    "announce_table",
    "encode",
    "send_table",
]

QUEUE: Final = 256
"""The messages waiting for one connection at most; a client that falls behind further
is disconnected (its page reconnects and gets the whole table again)."""

# The ``code`` of an ``error`` message, for the page to say it in the reader's language
# (``message`` stays English, for programs and logs): 4000 plus the HTTP status of the same
# meaning, as the WebSocket's close codes are. A fatal error's code is the close code that
# follows it (docs/serve.md); these are the codes of the errors after which the connection
# stays open.
REFUSED: Final = 4400
"""A message or move refused: ``message`` says why."""
FLOODED: Final = 4429
"""A message ignored: the connection sends too many."""
FAILED: Final = 4500
"""A hint or review that could not be worked out (the server's log says why)."""
DELAYED: Final = 4503
"""A move waiting for the database: it is played as soon as it is stored."""

Made = dict[Any, list[str]]
"""The messages made during one announcement, by audience, encoded."""


def encode(message: dict[str, Any]) -> str:
    """A message as sent: compact JSON."""
    return json.dumps(message, separators=(",", ":"))


class Connection:
    """One WebSocket client of a table: its seat (``None``: a spectator), whether it
    shows the picture (``picture``; a script that plays says no in its ``hello``), the
    ``version`` of the table's picture it holds, and its queue of outgoing messages (a
    writer task sends them in order); ``ending``: why and with which code the server
    closes it, once it does."""

    def __init__(self, seat: int | None, *, picture: bool = True) -> None:
        self.seat = seat
        self.picture = picture
        self.version: int | None = None
        self.queue: asyncio.Queue[str | dict[str, Any] | None] = asyncio.Queue(QUEUE)
        self.dropped = False
        self.opened = time.monotonic()
        self.ending: tuple[str, int] | None = None

    def close(self, message: str, code: int) -> None:
        """End the connection: its writer sends ``message`` (fatal) and closes with ``code``."""
        if self.ending is None:
            self.ending = (message, code)
            self.put(None)

    def put(self, message: str | dict[str, Any] | None) -> None:
        """Queue ``message`` (encoded, or a dict the writer encodes; ``None`` ends the
        writer); a full queue drops the client."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            if self.ending is None:
                self.ending = ("the connection fell too far behind; reconnect", 4000)
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


def _go(table: Table, connection: Connection, made: Made) -> None:
    """Queue the seat's ``go`` if it is a person's seat to act."""
    seat = connection.seat
    if seat is None or table.seats[seat].kind != "person" or table.turn != seat:
        return
    key = ("go", seat, connection.picture)
    if key not in made:
        go = table.go_message(seat, picture=connection.picture)
        made[key] = [] if go is None else [encode(go)]
    for text in made[key]:
        connection.put(text)


def send_table(
    table: Table, connection: Connection, connected: Sequence[bool], made: Made | None = None
) -> None:
    """Queue the whole table (and the seat's ``go``, if it is to choose) for one
    connection; ``made`` keeps the messages made during one announcement."""
    made = {} if made is None else made
    key = ("table", connection.seat, connection.picture)
    if key not in made:
        made[key] = [
            encode(table.state_message(connection.seat, connected, picture=connection.picture))
        ]
    for text in made[key]:
        connection.put(text)
    if connection.picture:
        connection.version = table.version
    _go(table, connection, made)


def announce_table(
    table: Table, connections: Iterable[Connection], connected: Sequence[bool]
) -> None:
    """Send the whole table to every connection, each what its seat may see."""
    made: Made = {}
    for connection in connections:
        send_table(table, connection, connected, made)


def announce_move(
    table: Table, connections: Iterable[Connection], connected: Sequence[bool]
) -> None:
    """Tell every connection of the table's last move: a ``moved`` message (the whole
    table when the move ended a round, or for a page whose picture is not the last one
    drawn), then the ``go`` of the seat to act."""
    made: Made = {}
    mover = table.moves[-1][0] if table.moves else None
    for connection in connections:
        seat = connection.seat if connection.seat == mover else None
        base = connection.version if connection.picture else None
        key = ("moved", seat, connection.picture, base)
        if key not in made:
            message = table.moved_message(seat, base=base)
            if message is None or (connection.picture and message.get("picture") is None):
                made[key] = []  # not a move within a round, or a page out of step
            else:
                made[key] = [encode(message)]
        if not made[key]:
            send_table(table, connection, connected, made)
            continue
        for text in made[key]:
            connection.put(text)
        if connection.picture:
            connection.version = table.version
        _go(table, connection, made)
