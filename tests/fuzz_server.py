"""Fuzz targets of ``chickenfoot serve`` (issue 29, "Keep the instruments"): its HTTP
surface and its WebSocket, in this process (Starlette's ``TestClient``).

Importing this module and ``fuzz_websocket`` registers them in ``fuzz_targets.TARGETS`` (``bench/fuzz.py`` imports
every ``tests*/fuzz_*.py``); ``tests/test_fuzz_server.py`` runs each on a short fixed
budget. The property is ``fuzz_targets.check``'s (nothing escapes, in time), and on top:

* ``server http``: a request of any method to any path (the API's, the pages', odd ones,
  unknown table ids: each a database read, rate-limited) with a mutated JSON body (from
  real ``POST /api/tables`` and ``/api/play`` requests), text or bytes that are not JSON, bodies past the 16 KiB limit, and mutated or garbage
  ``Content-Type``, ``Content-Length``, ``Origin``, ``Host`` and ``Cookie`` headers. The
  answer is never a 5xx, never holds a traceback or a Python exception's name; an error is
  a JSON ``{"error": ...}`` of at most 500 characters (or Starlette's own one-line ``Not
  Found`` / ``Method Not Allowed`` for a path or method the server has no route for); every
  answer says what a page may do (the Content-Security-Policy and the other headers of
  ``chickenfoot.server._headers``); and the server answers ``GET /api/options`` afterwards.
* ``server addresses``: a request (an unknown table id, a page, ``/api/play``) from a client
  address in every form: IPv4, IPv6 (compressed, exploded, scoped), IPv4-mapped IPv6 in
  either spelling, bracketed, with a port, empty, 5,000 characters, any text. The answer
  keeps the ``server http`` property, the address's key is at most 100 characters, and
  an IPv4-mapped address counts as its IPv4 address.
* ``server websocket``: a connection (same origin, another origin or none; a seat's token,
  a spectator, a forged token or no hello at all) that sends up to a few dozen messages:
  mutated ``hello``, ``move`` (built from the live ``go``: its ``id`` and a legal move, then
  mutated), ``table``, ``ping`` and unknown messages, text that is not JSON, JSON nested
  thousands deep, messages over 16 KiB, binary frames, and floods within the rate limit.
  Every answer is a JSON object of a known type; an ``error``'s message has at most 500
  characters and no Python exception text; a close has a code that docs/serve.md names;
  the moves the table gained from the seat are exactly the moves the connection was not
  refused (a refused message changes nothing, an accepted move is stored once); and a new
  connection to the table gets its ``hello`` and the table afterwards.

The server's tables live in a temporary SQLite file for the process; bots on the HTTP
target's server wait an hour before each move (a fuzzed table of eight ``search:2000`` bots
must not eat the machine's CPU while the fuzz goes on).
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import ipaddress
import json
import re
import secrets
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from starlette.testclient import TestClient  # the server extra: bench/fuzz.py skips without

from chickenfoot.server import create_app
from chickenfoot.server._headers import HEADERS
from fuzz_targets import (
    JSON_VALUES,
    LONG_TEXTS,
    MAX_MESSAGE,
    Case,
    _mutate,
    _target,
    describe,
    encode,
)

__all__ = [
    "HOST",
    "NAMES",
    "ORIGIN",
    "HttpRun",
    "close_codes",
    "from_address",
    "lab",
    "python_text",
    "request",
]

NAMES = ["server http", "server addresses"]
"""The targets this module registers (``fuzz_websocket`` registers ``server websocket``)."""

HOST = "127.0.0.1"
ORIGIN = f"http://{HOST}"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "serve.md"
# Python's own words: the name of any built-in exception, a traceback, a source location.
_PYTHON = re.compile(
    r"Traceback \(most recent|File \"[^\"]*\", line \d|\b(?:"
    + "|".join(
        sorted(
            n
            for n, v in vars(builtins).items()
            if isinstance(v, type) and issubclass(v, BaseException) and n.endswith("Error")
        )
    )
    + r")\b"
)


def python_text(text: str) -> str | None:
    """The Python error text found in ``text`` (a traceback, an exception's name), if any.

    >>> python_text('{"error": "players must be an integer"}')
    >>> python_text("KeyError: 'seats'")
    'KeyError'
    """
    found = _PYTHON.search(text)
    return None if found is None else found.group(0)


def close_codes() -> set[int]:
    """The WebSocket close codes docs/serve.md documents (``code 4401``, ``(4429)``...),
    and 1000, the normal close."""
    text = DOCS.read_text(encoding="utf-8")
    return {1000} | {int(c) for c in re.findall(r"\b(4\d{3})\b", text)}


# -- the servers -------------------------------------------------------------------------------


class _Lab:
    """Two in-process servers for the process: ``http`` (bots wait an hour) and ``ws`` (bots
    play at once, a table of a person at seat 0 against a random bot)."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="chickenfoot-fuzz-server-")
        self._stack = contextlib.ExitStack()
        folder = Path(self._dir.name)
        base = f"http://{HOST}"
        self.http = self._stack.enter_context(
            TestClient(create_app(folder / "http.db", bot_delay=3600.0), base_url=base)
        )
        self.ws = self._stack.enter_context(TestClient(create_app(folder / "ws.db"), base_url=base))
        self.table = ""
        self.token = ""
        self.new_table()
        atexit.register(self.close)

    def new_table(self) -> None:
        seats = [{"kind": "person", "name": "fuzz"}, {"kind": "bot", "spec": "random"}]
        body = {"preset": "house", "players": 2, "seats": seats}
        r = self.ws.post("/api/tables", json=body, headers={"origin": ORIGIN})
        if r.status_code == 200:
            made = r.json()
            self.table = made["table"]
            self.token = made["seats"][0]["link"].split("#", 1)[1]

    def hub_table(self) -> Any:
        return self.ws.app.state.hub.tables[self.table]  # type: ignore[attr-defined]

    def quiet(self) -> list[tuple[int, str, bool]]:
        """Wait (at most 3 s) until the table waits for the person (or is over, or
        stopped) and nothing changed for 30 ms; its moves then."""
        table = self.hub_table()
        deadline = time.monotonic() + 3.0
        last, stable = -1, 0
        while time.monotonic() < deadline and stable < 2:
            turn = table.turn
            waits = turn is None or table.error is not None or table.seats[turn].kind == "person"
            stable = stable + 1 if waits and table.n == last else 0
            last = table.n
            time.sleep(0.005)
        return list(table.moves)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
        self._dir.cleanup()


_LABS: list[_Lab] = []


def lab() -> _Lab:
    """The servers of this process, started on first use."""
    if not _LABS:
        _LABS.append(_Lab())
    return _LABS[0]


# -- the HTTP surface -------------------------------------------------------------------------

_SEATS = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "spec": "greedy"}]
_BODIES: list[tuple[str, dict[str, Any]]] = [
    ("tables", {"preset": "house", "players": 2, "seats": _SEATS}),
    (
        "tables",
        {
            "preset": "classic",
            "players": 3,
            "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 2}},
            "seats": [*_SEATS, {"kind": "bot", "spec": "search:8", "name": "s"}],
        },
    ),
    ("tables", {"players": 2, "seats": [_SEATS[0], {"kind": "bot", "spec": "engine:sh -c x"}]}),
    ("tables", {"players": 2, "seats": [_SEATS[0], {"kind": "bot", "spec": "sidecar:Bot"}]}),
    ("play", {"players": 2, "bot": "greedy", "preset": "house"}),
    ("play", {"players": 8, "bot": "search:2000"}),
]
_PATHS = [
    "/", "/api/options", "/api/tables", "/api/play", "/t/TABLE", "/t/nosuchtable", "/ws/TABLE",
    "/static/table.js", "/static/../../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd",
    "/api/tables/", "//api/tables", "/api/tables?x=1&x=2", "/api/%00", "/t/" + "x" * 5000,
    "/api/tables;x", "/\u00e9\u00e8", "/t/%ff%fe", "/api/play#frag", "/static/",
    "/t/NoSuchTable0", "/t/UNKNOWN", "/t/UNKNOWN", "/t/-", "/t/" + "a" * 101, "/t/TABLE%00",
    "/api/tables/TABLE/record", "/api/tables/TABLE/record?audience=full&round=all",
    "/api/tables/TABLE/record?round=9999&audience=seat", "/api/tables/UNKNOWN/record",
]  # fmt: skip
_METHODS = ["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "FOO"]
_GARBAGE = st.one_of(
    st.sampled_from(["", " ", "null", "\x00", "a" * 9000, "\u00ff\u00fe", "\r\n\r\nX: y"]),
    st.binary(max_size=40),
    st.text(st.characters(max_codepoint=255), max_size=40),
)
_HEADERS: dict[str, st.SearchStrategy[Any]] = {
    "content-type": st.one_of(
        st.sampled_from(["application/json", "text/plain", "application/json; charset=utf-16"]),
        st.sampled_from(["multipart/form-data; boundary=x", "application/x-www-form-urlencoded"]),
        _GARBAGE,
    ),
    "content-length": st.one_of(
        st.sampled_from(["0", "-1", "1", "abc", "99999999999999999999", "16385", "1e3", " 5"]),
        st.integers(-(2**63), 2**63).map(str),
        _GARBAGE,
    ),
    "origin": st.one_of(
        st.sampled_from([ORIGIN, "http://localhost", "http://evil.example", "null", ORIGIN + "/"]),
        _GARBAGE,
    ),
    "host": st.one_of(
        st.sampled_from([HOST, "localhost", "evil.example", "127.0.0.1:99999", "[::1]"]),
        _GARBAGE,
    ),
    "cookie": st.one_of(st.sampled_from(["a=b", "=" * 5000, "a=" + "b" * 20_000]), _GARBAGE),
}


@st.composite
def _http_cases(draw: st.DrawFn) -> Case:
    kind, base = draw(st.sampled_from(_BODIES))
    doc: Any = json.loads(json.dumps(base))
    notes = [f"{kind} body"]
    for _ in range(draw(st.integers(0, 3))):
        doc, note = _mutate(draw, doc, JSON_VALUES)
        notes.append(note)
    how = draw(st.sampled_from(["json", "json", "json", "utf-16", "raw", "none", "padded"]))
    body: bytes
    if how == "raw":
        body = draw(st.one_of(st.binary(max_size=64), LONG_TEXTS.map(str.encode)))
        notes = [f"raw body {describe(body, 60)}"]
    elif how == "none":
        body, notes = b"", ["no body"]
    else:
        text = encode(doc)
        if how == "padded":
            text += " " * draw(st.sampled_from([16_384, 100_000, 2_000_000]))
        body = text.encode("utf-16" if how == "utf-16" else "utf-8", "surrogatepass")
    path = draw(
        st.one_of(st.just(f"/api/{kind}"), st.just(f"/api/{kind}"), st.sampled_from(_PATHS))
    )
    method = draw(st.sampled_from(["POST", "POST", "POST", *_METHODS]))
    headers = {"origin": ORIGIN} if draw(st.booleans()) else {}
    for name in draw(st.lists(st.sampled_from(sorted(_HEADERS)), max_size=3, unique=True)):
        headers[name] = draw(_HEADERS[name])
    return Case(method, path, body, headers, note="; ".join(notes))


@dataclass
class HttpRun:
    """The answer to one request, and the server's answer to ``GET /api/options`` after."""

    status: int
    content_type: str
    text: str
    after: int
    missing: tuple[str, ...] = ()
    """The page headers (``chickenfoot.server._headers.HEADERS``) the answer lacks."""


def request(method: str, path: str, body: bytes, headers: dict[str, Any]) -> HttpRun:
    """Send one request to the HTTP target's server."""
    client = lab().http
    path = path.replace("TABLE", lab().table)
    sent = {k: v.encode("latin-1") if isinstance(v, str) else v for k, v in headers.items()}
    path = path.replace("UNKNOWN", secrets.token_urlsafe(9))  # a read each (rate-limited)
    r = client.request(method, path, content=body, headers=sent)
    after = client.get("/api/options", headers={"host": HOST}).status_code
    missing = tuple(k for k, v in HEADERS.items() if r.headers.get(k) != v)
    return HttpRun(r.status_code, r.headers.get("content-type", ""), r.text, after, missing)


_STARLETTE = {404: "Not Found", 405: "Method Not Allowed"}


def _http_ok(case: Case, run: HttpRun) -> str | None:
    if run.after != 200:
        return f"GET /api/options answered {run.after} after the request"
    if run.status >= 500:
        return f"status {run.status}: {describe(run.text, 200)}"
    if run.missing:
        return f"status {run.status} without the page headers {', '.join(run.missing)}"
    python = python_text(run.text[:200_000])
    if python is not None:
        return f"status {run.status} shows Python's {python!r}: {describe(run.text, 200)}"
    if run.status < 400 or (case.args[0] == "HEAD" and not run.text):
        return None
    if run.content_type.startswith("text/plain") and run.text == _STARLETTE.get(run.status):
        return None
    if run.content_type.startswith("text/html") and not case.args[1].startswith("/api/"):
        return None if len(run.text) <= 2000 else f"an error page of {len(run.text):,} characters"
    try:
        answer = json.loads(run.text)
    except ValueError:
        return f"status {run.status} is not JSON: {describe(run.text, 200)}"
    if not isinstance(answer, dict) or not isinstance(answer.get("error"), str):
        return f"status {run.status}, not an {{'error': ...}}: {describe(answer, 200)}"
    if not answer["error"].strip() or len(answer["error"]) > MAX_MESSAGE:
        return f"an error of {len(answer['error']):,} characters"
    return None


_target("server http", _http_cases(), request, _http_ok)


# -- client addresses --------------------------------------------------------------------------

_V4 = st.ip_addresses(v=4).map(str)
_ADDRESSES = st.one_of(
    _V4,
    st.ip_addresses(v=6).map(str),
    _V4.map(lambda a: f"::ffff:{a}"),  # IPv4-mapped, as a dual-stack proxy forwards it
    _V4.map(lambda a: ipaddress.IPv6Address(f"::ffff:{a}").exploded.upper()),
    st.ip_addresses(v=6).map(lambda a: a.exploded),
    st.sampled_from(["fe80::1%eth0", "[::1]", "127.0.0.1:8000", "::ffff:999.1.1.1", "0x7f.1"]),
    st.sampled_from(["", "unknown", "testclient", "a" * 5000, "::ffff:1.2.3.4%x", "1.2.3.4\n"]),
    st.text(max_size=60),
)
_ADDRESS_PATHS = ["/t/NoSuchTable0", "/t/UNKNOWN", "/t/TABLE", "/api/options", "/api/play"]


@st.composite
def _address_cases(draw: st.DrawFn) -> Case:
    address = draw(_ADDRESSES)
    return Case(address, draw(st.sampled_from(_ADDRESS_PATHS)), note="a client's address")


def from_address(address: str, path: str) -> tuple[str, HttpRun]:
    """Send one request to the HTTP target's server from a client at ``address`` (as
    uvicorn's proxy headers give it); the address's key too."""
    from chickenfoot.server._limits import address_key

    client = TestClient(lab().http.app, base_url=f"http://{HOST}", client=(address, 5000))
    path = path.replace("TABLE", lab().table).replace("UNKNOWN", secrets.token_urlsafe(9))
    method, body = ("POST", b'{"players": 2}') if path == "/api/play" else ("GET", b"")
    r = client.request(method, path, content=body, headers={"origin": ORIGIN})
    after = lab().http.get("/api/options", headers={"host": HOST}).status_code
    missing = tuple(k for k, v in HEADERS.items() if r.headers.get(k) != v)
    return address_key(address), HttpRun(
        r.status_code, r.headers.get("content-type", ""), r.text, after, missing
    )


def _address_ok(case: Case, result: tuple[str, HttpRun]) -> str | None:
    key, run = result
    address, path = case.args
    if not isinstance(key, str) or len(key) > 100:
        return f"the address's key is {describe(key, 120)}"
    with contextlib.suppress(ValueError):
        ip = ipaddress.ip_address(address)
        mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
        if mapped is not None and key != str(mapped):
            return f"an IPv4-mapped address counts as {key!r}, not its IPv4 address"
    return _http_ok(Case("GET", path, b"", {}), run)


_target("server addresses", _address_cases(), from_address, _address_ok)
