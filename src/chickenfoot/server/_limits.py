"""What one client may take of a server: connections, bodies, tables, hosts (docs: Serve).

:class:`Limits` gathers the bounds an operator may change (``chickenfoot serve`` has an
option for each that matters); the rest of this module applies them where the
application meets a request:

- :func:`read_body`: a request's body, refused on its ``Content-Length`` before anything
  is read and read with a running count (chunked bodies too), so a client never makes
  the server hold more than ``Limits.body_bytes``;
- :func:`address_key`: the client a bound counts an address as (IPv6 by its /64, an
  IPv4-mapped IPv6 address as its IPv4 address);
- :class:`Buckets`: a token bucket per client address, for making tables and for reading
  the database;
- :func:`key_matches`: the operator's table key, compared as bytes in constant time, as
  clients send it (UTF-8, percent-encoded, Latin-1);
- :func:`host_allowed`: the ``Host`` header against the names the server answers to (a
  page of another site that renames itself to this server's address, DNS rebinding, is
  refused);
- :func:`engine_names`: the short names under which ``--engine`` commands are offered
  (the commands themselves are never shown);
- :func:`search_cost`: what a table's bots may search per decision, summed.

>>> Limits().spectators, Limits(spectators=8).spectators
(64, 8)
>>> host_allowed("localhost:8000", ("localhost", "127.0.0.1")), host_allowed("evil.example", ("localhost",))
(True, False)
>>> engine_names(["node examples/engine.js", "fast=./bin/fast --quiet", "./bin/fast"])
{'engine': 'node examples/engine.js', 'fast': './bin/fast --quiet', 'fast-2': './bin/fast'}
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import os
import shlex
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote_to_bytes

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from chickenfoot.errors import ChickenFootError
from chickenfoot.server._bots import bound_of
from chickenfoot.server._table import RefusedError
from chickenfoot.specs import parse_spec

__all__ = [
    "LOOPBACK_HOSTS",
    "Buckets",
    "Limits",
    "HostCheck",
    "MessageBucket",
    "TooLargeError",
    "address_key",
    "check_table_cost",
    "engine_names",
    "host_allowed",
    "key_matches",
    "loopback_bind",
    "read_body",
    "search_cost",
]

LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "::1")
"""The names a server bound to the loopback answers to (besides ``--allow-host``)."""


@dataclass(frozen=True, kw_only=True)
class Limits:
    """The bounds of one server (each documented in docs/serve.md, "Bounded").

    >>> Limits(table_key="s3cret").tables_per_minute
    6.0
    """

    connections: int = 1000
    """WebSocket connections open at once on the whole server; spectators and connections
    that have not said hello yet may hold at most half of them each, so seats keep room."""
    connections_per_address: int = 100
    """WebSocket connections open at once from one client address (IPv6: its /64)."""
    requests_per_address: int = 50
    """Plain HTTP connections (not WebSockets) open at once from one client address: one
    address holding idle or half-sent requests never takes the server's capacity (under
    ``chickenfoot serve``; the address is the connection's, a reverse proxy's own)."""
    spectators: int = 64
    """Spectators of one table (seats are counted apart: a seat's link is never refused
    because of spectators)."""
    seat_connections: int = 4
    """Connections of one seat at once (tabs); a newer one closes the oldest (4409)."""
    idle_seconds: float = 120.0
    """A connection that sends nothing for this long after its hello is closed (4408); the
    page sends a ``ping`` every 25 seconds."""
    send_seconds: float = 10.0
    """A message the client does not take within this long closes its connection: a
    client that stops reading never holds a blocked writer."""
    body_bytes: int = 16_384
    """The largest request body (``POST``); larger ones are refused with 413."""
    tables_per_minute: float = 6.0
    """Tables one client address (IPv6: its /64) may make per minute, on average..."""
    tables_burst: int = 10
    """...and at once; beyond, 429 with ``Retry-After``."""
    reads_per_minute: float = 30.0
    """Database reads one client address may cause per minute (opening a table not in
    memory, or an id the server does not hold), on average..."""
    reads_burst: int = 20
    """...and at once; beyond, 429 (a WebSocket: 4429) with the seconds to wait."""
    table_key: str | None = None
    """When set, making a table needs this key (the ``X-Table-Key`` header)."""
    finished_seconds: float = 600.0
    """A finished match with no connection leaves memory after this long (it stays on
    disk, and opens again from there)."""
    abandoned_seconds: float = 6 * 3600.0
    """A table with no connection and no move for this long leaves memory likewise."""
    keep_days: float = 30.0
    """Tables (finished or not) with no move for this many days are deleted from the
    database (0: never)."""
    max_stored: int = 100_000
    """Tables in the database at most: making one more first deletes the tables with no move
    for ``keep_days``; when there are none, new tables are refused (503) until there are:
    a game that had a move within ``keep_days`` is never deleted for room."""
    search_budget: int = 4000
    """Search iterations per decision, summed over a table's ``search`` bots."""
    hosts: tuple[str, ...] | None = None
    """The ``Host`` names the server answers to (any port); ``None``: any."""


class TooLargeError(Exception):
    """A request body over the limit (the text says which)."""


async def read_body(chunks: AsyncIterator[bytes], content_length: str | None, limit: int) -> bytes:
    """The body of a request from its ``chunks``, refused with :class:`TooLargeError` on
    a ``Content-Length`` over ``limit`` before any chunk is read, or as soon as the
    running count passes it.

    >>> import asyncio
    >>> async def chunks():
    ...     for _ in range(1000):
    ...         yield b"x" * 1000
    >>> asyncio.run(read_body(chunks(), None, 4096))
    Traceback (most recent call last):
    ...
    chickenfoot.server._limits.TooLargeError: the request is over 4,096 bytes
    """
    too_large = TooLargeError(f"the request is over {limit:,} bytes")
    if content_length is not None:
        try:
            declared = int(content_length)
        except ValueError:
            raise TooLargeError("the Content-Length header is not a number") from None
        if declared > limit:
            raise too_large
    parts: list[bytes] = []
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise too_large
        parts.append(chunk)
    return b"".join(parts)


class Buckets:
    """A token bucket per client address: ``rate`` per minute, ``burst`` at once.

    >>> b = Buckets(6.0, 2)
    >>> b.take("10.0.0.1", now=0.0), b.take("10.0.0.1", now=0.0), b.take("10.0.0.1", now=0.0)
    (0.0, 0.0, 10.0)
    >>> b.take("2001:db8::1", now=0.0), b.take("2001:db8::2", now=0.0), b.take("2001:db8::3", now=0.0)
    (0.0, 0.0, 10.0)
    """

    _MAX_KEYS: Final = 100_000

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._state: dict[str, tuple[float, float]] = {}

    @staticmethod
    def key(address: str) -> str:
        """The bucket of an address: :func:`address_key`."""
        return address_key(address)

    def take(self, address: str, *, now: float | None = None) -> float:
        """Take a token for ``address``: 0.0 when given, else the seconds to wait."""
        now = time.monotonic() if now is None else now
        key = self.key(address)
        tokens, when = self._state.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens >= 1.0:
            if len(self._state) >= self._MAX_KEYS and key not in self._state:
                self._forget(now)
            self._state[key] = (tokens - 1.0, now)
            return 0.0
        self._state[key] = (tokens, now)
        return (1.0 - tokens) / self.rate if self.rate > 0 else math.inf

    def _forget(self, now: float) -> None:
        """Drop the buckets that are full again (they hold nothing worth keeping)."""
        full = [k for k, (t, w) in self._state.items() if t + (now - w) * self.rate >= self.burst]
        for k in full:
            del self._state[k]
        if len(self._state) >= self._MAX_KEYS:
            self._state.clear()


def address_key(address: str) -> str:
    """The client an address counts as in every per-address bound: an IPv4 address itself,
    an IPv6 address its /64 (scope dropped), an IPv4-mapped IPv6 address (``::ffff:a.b.c.d``,
    from a dual-stack socket or proxy) its IPv4 address; anything else its first 100
    characters.

    >>> address_key("::ffff:192.0.2.7"), address_key("2001:db8::1"), address_key("192.0.2.7")
    ('192.0.2.7', '2001:db8::/64', '192.0.2.7')
    """
    try:
        ip = ipaddress.ip_address(address)
    except (ValueError, TypeError):
        return str(address)[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class MessageBucket:
    """The messages of one WebSocket connection: ``rate`` a second, ``burst`` at once.

    >>> bucket = MessageBucket(10.0, 2)
    >>> bucket.take(), bucket.take(), bucket.take(), bucket.refused
    (True, True, False, 1)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = self.burst
        self.when = time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        """Take a token for a message: ``False`` (counted in ``refused``) if none is left."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    def give_back(self) -> None:
        """Return a token: a move that answered the seat's ``go`` and was played. The game
        paces those (one a go), so a client that answers at once, its only legal move
        included, never trips the flood limit; refused moves still count."""
        self.tokens = min(self.burst, self.tokens + 1.0)


class HostCheck:
    """ASGI middleware: requests whose ``Host`` is not one of ``hosts`` are refused (HTTP
    400; a WebSocket is refused before its handshake): DNS rebinding cannot reach a
    server that answers only to its own names."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.hosts is not None:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.hosts):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4403})
                    return
                answer = JSONResponse({"error": "this server does not answer to that Host"}, 400)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def key_matches(given: str | None, key: str | None) -> bool:
    """Whether ``given`` (an ``X-Table-Key`` header) is the table key (always, when there is
    none), compared as bytes in constant time. A header's value reaches the application as
    its bytes read as Latin-1; it matches when those bytes are the key's UTF-8 (what curl
    and most HTTP libraries send), the key's UTF-8 percent-encoded (what the home page
    sends: a browser cannot put other characters in a header), or the key's Latin-1 (what
    browsers and Python's ``http.client`` send of a Latin-1 key). Never raises.

    >>> key_matches(None, None), key_matches("a", "a"), key_matches("b", "a"), key_matches(None, "a")
    (True, True, False, False)
    >>> utf8 = "clé".encode().decode("latin-1")  # the bytes c3 a9, as a header carries them
    >>> key_matches(utf8, "clé"), key_matches("cl%C3%A9", "clé"), key_matches("clé", "clé")
    (True, True, True)
    """
    if key is None:
        return True
    if given is None:
        return False
    try:
        sent = given.encode("latin-1")  # the bytes on the wire
    except UnicodeEncodeError:  # not from a header: a str of the caller's
        sent = given.encode("utf-8", "surrogatepass")
    want = key.encode("utf-8", "surrogatepass")
    try:
        latin = key.encode("latin-1")
    except UnicodeEncodeError:
        latin = want
    # every form compared, each in constant time, so the time says nothing of which matched
    found = hmac.compare_digest(sent, want)
    found |= hmac.compare_digest(unquote_to_bytes(sent), want)
    found |= hmac.compare_digest(sent, latin)
    return found


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def host_allowed(host: str | None, allowed: Sequence[str] | None) -> bool:
    """Whether a request's ``Host`` header names one of ``allowed`` (``None``: any)."""
    if allowed is None:
        return True
    if not host:
        return False
    return _host_name(host) in {_host_name(a) for a in allowed}


def loopback_bind(bind: str) -> bool:
    """Whether the address ``bind`` (``--host``) is on the loopback only.

    >>> loopback_bind("127.0.0.1"), loopback_bind("localhost"), loopback_bind("0.0.0.0")
    (True, True, False)
    """
    if bind.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind.strip("[]")).is_loopback
    except ValueError:
        return False


def engine_names(engines: Iterable[str]) -> dict[str, str]:
    """Each ``--engine`` under its short name: ``NAME=COMMAND`` names itself, otherwise
    the program's file name (``./bin/fast``: ``fast``; for an interpreter, its script's:
    ``node examples/engine.js``: ``engine``), made unique with ``-2``, ``-3``...
    A name is what pages show and send (``engine:NAME``); commands are never shown."""
    out: dict[str, str] = {}
    for text in engines:
        name, eq, command = text.partition("=")
        if not eq or not name.strip() or any(c in name for c in " /\\'\""):
            command = text
            try:
                words = shlex.split(command)
            except ValueError:
                words = command.split()
            name = _program_name(words)
        base, n = name.strip()[:40] or "engine", 1
        name = base
        while name in out:
            n += 1
            name = f"{base}-{n}"
        out[name] = command.strip()
    return out


_INTERPRETERS = ("python", "node", "deno", "bun", "ruby", "perl", "sh", "bash", "java", "uv")


def _program_name(words: Sequence[str]) -> str:
    """The file name of a command's program, or of its script when the program is an
    interpreter (``python3 bots/mine.py``: ``mine``)."""
    if not words:
        return "engine"
    name = os.path.basename(words[0])
    if name.lower().startswith(_INTERPRETERS):
        script = next((w for w in words[1:] if not w.startswith("-")), None)
        if script is not None:
            return os.path.splitext(os.path.basename(script))[0] or name
    return name


def check_table_cost(specs: Sequence[str], budget: int) -> None:
    """Refuse a table whose searching bots (``search``, ``ismcts``: every bot whose bound
    says it searches) would take more than ``budget`` iterations per decision, summed over
    its seats: the CPU one table may take is bounded.

    >>> check_table_cost(["search:2000", "ismcts:2000"], 4000)
    >>> check_table_cost(["ismcts:2000"] * 8, 4000)
    Traceback (most recent call last):
    ...
    chickenfoot.server._table.RefusedError: the bots of one table may search 4,000 iterations per decision in all on this server, not 16,000
    """
    total = sum(search_cost(spec) for spec in specs)
    if total > budget:
        raise RefusedError(
            f"the bots of one table may search {budget:,} iterations per decision in all "
            f"on this server, not {total:,}"
        )


def search_cost(spec: str) -> int:
    """The search iterations per decision of a bot spec (as the server normalizes it), by
    its declared bound (:data:`~chickenfoot.server._bots.BOUNDS`); 0 for a spec that is not
    a searching bot the server offers.

    >>> search_cost("search:500"), search_cost("search"), search_cost("ismcts"), search_cost("greedy")
    (500, 32, 1000, 0)
    """
    try:
        parsed = parse_spec(spec)
    except ChickenFootError:
        return 0
    bound = bound_of(parsed)
    return 0 if bound is None else bound.iterations(parsed)
