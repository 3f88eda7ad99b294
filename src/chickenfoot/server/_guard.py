"""Running the application with uvicorn, with the timeouts uvicorn does not have.

uvicorn (0.30 to at least 0.55) times out only an idle keep-alive connection *after* a
response (``timeout_keep_alive``): a connection that is opened and then sends its header
lines one by one, or its body a byte at a time, is held as long as the client likes.
:func:`guarded_h11` is uvicorn's own h11 protocol with one more timer: a request must
arrive whole (its headers and its body) within ``request_seconds`` of the connection's
opening or of the previous response, or the connection is closed. A WebSocket upgrade
stops the timer (the application's own timeouts take over: the hello, the idle time).
It also counts the plain connections open from each client address (:func:`address_key`):
one beyond ``Limits.requests_per_address`` is answered 503 and closed at once, so one
address holding hundreds of idle or half-sent requests never takes the capacity uvicorn's
``limit_concurrency`` gives the whole server. The address is the connection's own (a
reverse proxy's connections are all its address's: raise the limit to the proxy's
concurrency).

uvicorn also closes a WebSocket, once the application is done with it, by
``transport.close()``, which waits until everything sent has been taken: a client that
stops reading would keep its socket (and the unsent bytes) for as long as it keeps its
window shut. :func:`guarded_ws` is uvicorn's WebSocket protocol whose socket is reset
(aborted, unsent bytes dropped) ``linger_seconds`` after the application is done with it,
if it is still there.

:func:`uvicorn_config` gathers everything ``chickenfoot serve`` passes to uvicorn: this
protocol, the header size limit (``h11_max_incomplete_event_size``), the WebSocket
message size and pings, ``limit_concurrency`` (503 for plain requests beyond it, on the
whole server; one address's share is ``Limits.requests_per_address``) and a
graceful-shutdown timeout.

>>> from chickenfoot.server import create_app
>>> config = uvicorn_config(create_app(":memory:"), host="127.0.0.1", port=0)
>>> config.timeout_keep_alive, config.h11_max_incomplete_event_size, config.http.request_seconds
(5, 16384, 10.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
from typing import Any, Final

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from chickenfoot.server._app import MAX_MESSAGE
from chickenfoot.server._headers import HEADERS
from chickenfoot.server._limits import Limits, address_key

__all__ = [
    "HEADER_BYTES",
    "LINGER_SECONDS",
    "REQUEST_SECONDS",
    "guarded_h11",
    "guarded_ws",
    "uvicorn_config",
]

REQUEST_SECONDS: Final = 10.0
"""How long a client has to send a whole request (headers and body)."""
LINGER_SECONDS: Final = 10.0
"""How long a WebSocket's socket may outlive the application's handling of it."""
HEADER_BYTES: Final = 16_384
"""The longest request head (request line and headers) uvicorn takes."""


class _GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on receiving each request and a limit on
    the plain connections of one client address."""

    request_seconds: float = REQUEST_SECONDS
    per_address: int | None = None
    _open: dict[str, int]  # per client address, the plain connections open (one per class)
    _deadline: asyncio.TimerHandle | None = None
    _counted: str | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        cycle = self.cycle
        receiving = cycle is None or cycle.response_complete or cycle.more_body
        if receiving and not self.transport.is_closing():
            self.transport.close()

    def _admit(self) -> bool:
        """Count the connection against its address; ``False`` if it is one too many."""
        if self.per_address is None or self.client is None:
            return True
        key = address_key(str(self.client[0]))
        held = self._open.get(key, 0)
        if held >= self.per_address:
            return False
        self._open[key] = held + 1
        self._counted = key
        return True

    def _release(self) -> None:
        key, self._counted = self._counted, None
        if key is not None:
            left = self._open.get(key, 1) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self._admit():
            transport.write(_busy(self.per_address or 0))
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        self._release()  # a WebSocket is counted by the application (connections_per_address)
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()


def _busy(per_address: int) -> bytes:
    """The whole answer to a connection one beyond its address's share (503), with the
    page headers every answer carries (it never reaches the application's middleware)."""
    body = json.dumps(
        {"error": f"your address has {per_address:,} requests open here already; try again"}
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nretry-after: 1\r\nconnection: close\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items())
        + "\r\n"
    )
    return head.encode() + body


def guarded_h11(
    request_seconds: float = REQUEST_SECONDS, per_address: int | None = None
) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection that has not sent a whole request
    within ``request_seconds`` (of opening, or of the previous response), and answering
    503 to a connection beyond ``per_address`` plain connections open from its address."""
    namespace: dict[str, Any] = {
        "request_seconds": request_seconds,
        "per_address": per_address,
        "_open": {},
    }
    return type("GuardedH11", (_GuardedH11,), namespace)


def _reset(transport: asyncio.Transport) -> None:
    """Drop a connection at once, unsent bytes and all (a TCP reset), unless it is closed."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.fileno() >= 0:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()  # a no-op once the connection is lost


def guarded_ws(linger_seconds: float = LINGER_SECONDS) -> Any:
    """uvicorn's WebSocket protocol (the one it would pick), whose socket is aborted
    ``linger_seconds`` after the application returns, if it is not closed by then; or
    ``"auto"`` if uvicorn has no WebSocket library to speak with."""
    base: Any = AutoWebSocketsProtocol
    if base is None:
        return "auto"

    async def run_asgi(self: Any) -> None:
        await base.run_asgi(self)
        self.loop.call_later(linger_seconds, _reset, self.transport)

    return type("GuardedWebSocket", (base,), {"run_asgi": run_asgi})


def uvicorn_config(
    app: Any,
    *,
    host: str,
    port: int,
    limits: Limits | None = None,
    request_seconds: float = REQUEST_SECONDS,
) -> uvicorn.Config:
    """The uvicorn configuration ``chickenfoot serve`` runs ``app`` with."""
    limits = Limits() if limits is None else limits
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_h11(request_seconds, limits.requests_per_address),
        ws=guarded_ws(max(limits.send_seconds, 1.0)),
        h11_max_incomplete_event_size=HEADER_BYTES,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
        limit_concurrency=limits.connections + 200,
        ws_max_size=MAX_MESSAGE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        log_level="warning",
    )
