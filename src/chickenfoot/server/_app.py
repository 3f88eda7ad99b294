"""The Starlette application: the pages, the JSON API that makes tables, the WebSocket.

Routes:

- ``GET /``: the home page (make a table; or one button to play against bots);
- ``POST /api/tables``: make a table (JSON in, JSON out: each seat's invite link);
- ``POST /api/play``: a table of one person against bots (JSON out: the person's link);
- ``GET /t/{table}``: the table page (the seat's token is in the link's fragment,
  ``#token``, which browsers never send to a server, so it stays out of logs);
- ``WS /ws/{table}``: the table's WebSocket (docs: serve, the message schema);
- ``GET /static/...``: the page's script and style sheet.

Every WebSocket and every ``POST`` must come from this server's own origin when it says
where it comes from (browsers always do): a page of another site can neither play nor
make tables here. What one client may take (connections, bodies, tables, the hosts the
server answers to) is bounded by :class:`~chickenfoot.server._limits.Limits`. What the pages
may do (this origin's scripts, styles and connections only) every response says
(:mod:`~chickenfoot.server._headers`). Once a WebSocket is admitted, its messages are
read and answered by :mod:`~chickenfoot.server._socket`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from chickenfoot.agents import Agent
from chickenfoot.errors import brief
from chickenfoot.server._announce import Connection
from chickenfoot.server._headers import PageHeaders
from chickenfoot.server._hub import Hub
from chickenfoot.server._language import localized_page, refusal
from chickenfoot.server._lifecycle import FullError, Lifecycle
from chickenfoot.server._limits import (
    Buckets,
    HostCheck,
    Limits,
    TooLargeError,
    key_matches,
    read_body,
)
from chickenfoot.server._lookups import Lookups, TooManyReadsError
from chickenfoot.server._socket import (
    BURST,
    HELLO_SECONDS,
    MAX_MESSAGE,
    RATE,
    ClosedError,
    answer,
    fail,
    read_hello,
    welcome,
    write,
)
from chickenfoot.server._store import StoreError, open_store
from chickenfoot.server._table import RefusedError

__all__ = ["BURST", "KEY_HEADER", "MAX_MESSAGE", "RATE", "make_app"]

KEY_HEADER: Final = "x-table-key"
"""The header that carries the operator's table key (``Limits.table_key``)."""

STATIC = Path(__file__).resolve().parent / "static"
_DOWN: Final = {"error": "the database is not answering: no table was made; try again"}


def _same_origin(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a request that says it comes from ``origin`` may use this server."""
    if origin is None:
        return True  # not a browser (browsers always send Origin on WebSockets and POSTs)
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


def make_app(
    db_path: str,
    *,
    engines: Sequence[str] = (),
    origins: Sequence[str] = (),
    bot_delay: float = 0.0,
    round_pause: float = 0.0,
    limits: Limits | None = None,
    invite_urls: tuple[str, ...] | None = None,
    policies: Mapping[str, Agent] | None = None,
) -> Starlette:
    """The application serving the tables stored in ``db_path``; see :func:`create_app`."""
    limits = Limits() if limits is None else limits
    hub = Hub(
        open_store(db_path),
        engines=engines,
        policies=policies,
        bot_delay=bot_delay,
        round_pause=round_pause,
        limits=limits,
    )
    life = Lifecycle(hub)
    life.prune()
    hub.restore()
    lookups = Lookups(life)
    allowed = tuple(origins)
    buckets = Buckets(limits.tables_per_minute, limits.tables_burst)
    # WebSocket connections: all, before their hello, and per client address
    gate: dict[str, int] = {"open": 0, "waiting": 0}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        sweeper = asyncio.create_task(life.run())
        yield
        sweeper.cancel()
        lookups.close()
        await hub.close()

    def refuse_cross_origin(request: Request) -> Response | None:
        if _same_origin(request.headers.get("origin"), request.headers.get("host"), allowed):
            return None
        return JSONResponse({"error": "cross-origin request refused"}, status_code=403)

    async def refuse_maker(request: Request) -> Response | None:
        """The answer to a request to make a table that may not: cross-origin, without the
        table key, or too many from its address."""
        refused = refuse_cross_origin(request)
        if refused is not None:
            return refused
        if not key_matches(request.headers.get(KEY_HEADER), limits.table_key):
            return JSONResponse(
                {"error": "making tables needs this server's table key (X-Table-Key)"}, 403
            )
        wait = buckets.take(request.client.host if request.client else "")
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            return JSONResponse(
                {"error": f"too many tables made from your address: try again in {seconds} s"},
                429,
                headers={"Retry-After": str(seconds)},
            )
        life.make_room()
        try:
            await asyncio.to_thread(life.make_space_on_disk)  # reads the database
        except FullError as err:
            return JSONResponse({"error": str(err)}, 503, headers={"Retry-After": "600"})
        return None

    async def body(request: Request) -> dict[str, Any]:
        raw = await read_body(
            request.stream(), request.headers.get("content-length"), limits.body_bytes
        )
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            raise RefusedError("the request is not JSON") from None
        if not isinstance(data, dict):
            raise RefusedError("the request must be a JSON object")
        return data

    def links(table_id: str, tokens: list[str | None]) -> dict[str, Any]:
        table = hub.tables[table_id]
        return {
            "table": table_id,
            "watch": f"/t/{table_id}",
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "link": None if token is None else f"/t/{table_id}#{token}",
                }
                for s, token in zip(table.seats, tokens, strict=True)
            ],
        }

    async def home(request: Request) -> Response:
        return localized_page(STATIC / "home.html", request)

    async def page(request: Request) -> Response:
        address = request.client.host if request.client else ""
        try:
            table = await lookups.open(request.path_params["table"], address)
        except TooManyReadsError as err:
            wait = {"Retry-After": str(err.seconds)}
            return refusal(request, 429, "Too many requests", str(err), headers=wait)
        if table is None:
            return refusal(request, 404, "No such table")
        return localized_page(STATIC / "table.html", request)

    async def options(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": ["classic", "house", "four-toe"],
                "engines": list(hub.engines),  # names only: never the commands
                "policies": list(hub.policies),  # names only: never the files
                "key": limits.table_key is not None,
                # where the network reaches this server, for invite links ([]: this
                # computer only; null: not known)
                "invite_urls": None if invite_urls is None else list(invite_urls),
            }
        )

    async def create(request: Request) -> Response:
        refused = await refuse_maker(request)
        if refused is not None:
            return refused
        try:
            table, tokens = hub.create(await body(request))
        except TooLargeError as err:
            return JSONResponse({"error": str(err)}, status_code=413)
        except RefusedError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        except StoreError:
            return JSONResponse(_DOWN, status_code=503, headers={"Retry-After": "5"})
        return JSONResponse(links(table.id, tokens))

    async def play(request: Request) -> Response:
        refused = await refuse_maker(request)
        if refused is not None:
            return refused
        try:
            data = await body(request)
            players = data.get("players", 4)
            bot = data.get("bot", "heuristic")
            if type(players) is not int or not 2 <= players <= 8:
                raise RefusedError("players must be an integer from 2 to 8")
            seats = [{"kind": "person", "name": "You"}]
            seats += [{"kind": "bot", "spec": bot} for _ in range(players - 1)]
            request_ = {
                "preset": data.get("preset", "house"),
                "players": players,
                "hints": data.get("hints", False),
            }
            table, tokens = hub.create({**request_, "seats": seats})
        except TooLargeError as err:
            return JSONResponse({"error": str(err)}, status_code=413)
        except RefusedError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        except StoreError:
            return JSONResponse(_DOWN, status_code=503, headers={"Retry-After": "5"})
        made = links(table.id, tokens)
        return JSONResponse({**made, "link": made["seats"][0]["link"]})

    async def socket(ws: WebSocket) -> None:
        if not _same_origin(ws.headers.get("origin"), ws.headers.get("host"), allowed):
            await ws.accept()
            origin = brief(ws.headers.get("origin"), 80)
            await fail(ws, f"cross-origin WebSocket refused: {origin} is not this server", 4403)
            return
        if gate["open"] >= limits.connections or gate["waiting"] >= limits.connections // 2:
            await ws.accept()
            await fail(ws, f"the server has {gate['open']:,} connections already", 4503)
            return
        host = ws.client.host if ws.client else ""
        address = "@" + Buckets.key(host)
        if gate.get(address, 0) >= limits.connections_per_address:
            await ws.accept()
            many = limits.connections_per_address
            await fail(ws, f"your address has {many} connections here already", 4503)
            return
        gate["open"] += 1
        gate[address] = gate.get(address, 0) + 1
        try:
            await _serve(ws, ws.path_params["table"], host)
        except TooManyReadsError as err:
            await fail(ws, str(err), 4429)
        finally:
            gate["open"] -= 1
            gate[address] -= 1
            if not gate[address]:
                del gate[address]

    async def _serve(ws: WebSocket, table_id: str, host: str) -> None:
        await ws.accept()
        table = await lookups.open(table_id, host)
        if table is None:
            await fail(ws, f"there is no table {brief(table_id, 40)}", 4404)
            return
        gate["waiting"] += 1
        try:
            seat, picture = await asyncio.wait_for(read_hello(ws, table), HELLO_SECONDS)
        except asyncio.TimeoutError:
            await fail(ws, f"no hello within {HELLO_SECONDS:.0f} seconds", 4408)
            return
        except (ClosedError, WebSocketDisconnect):
            return
        finally:
            gate["waiting"] -= 1
        if await lookups.open(table_id, host) is None:  # unloaded meanwhile, and full
            await fail(ws, "the server holds too many tables in use; try again", 4503)
            return
        if seat is None and hub.spectators(table_id) >= limits.spectators:
            await fail(ws, f"the table has {limits.spectators} spectators already", 4429)
            return
        if seat is None and hub.spectators() >= limits.connections // 2:
            await fail(ws, "the server has as many spectators as it takes; try later", 4429)
            return
        await ws.send_text(welcome(table_id, seat))
        connection = Connection(seat, picture=picture)
        writer = asyncio.create_task(write(ws, connection, limits.send_seconds))
        hub.join(table_id, connection)
        reader = asyncio.create_task(answer(ws, hub, table_id, connection, limits.idle_seconds))
        try:
            await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            hub.leave(table_id, connection)
            connection.put(None)
            reader.cancel()
            if not writer.done():  # let it say why it closes, but never wait on a slow client
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, limits.send_seconds)
            for task in (reader, writer):
                with contextlib.suppress(BaseException):
                    await task

    app = Starlette(
        middleware=[Middleware(PageHeaders), Middleware(HostCheck, hosts=limits.hosts)],
        routes=[
            Route("/", home),
            Route("/api/options", options),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/play", play, methods=["POST"]),
            Route("/t/{table}", page),
            WebSocketRoute("/ws/{table}", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.lifecycle = life
    app.state.lookups = lookups
    app.state.connections = gate
    return app
