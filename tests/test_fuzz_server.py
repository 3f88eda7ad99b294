"""The fuzz targets of ``chickenfoot serve`` (``fuzz_server``, ``fuzz_websocket``) on a short fixed budget, with
hostile inputs as explicit examples (``nox -s fuzz`` runs them for longer).

``bench/fuzz.py --target "server http" --target "server websocket"`` runs them for a time
budget.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example

import fuzz_server
import fuzz_websocket
from fuzz_server import ORIGIN
from fuzz_targets import IN_SUITE, Case, holds
from fuzz_targets import fuzzes as _fuzzes
from fuzz_websocket import ID, LEGAL, TOKEN

NAMES = [*fuzz_server.NAMES, *fuzz_websocket.NAMES]
IN_SUITE.update(NAMES)  # each runs below
SERVER_TESTED: set[str] = set()


def fuzzes(name: str, n: int) -> Callable[[Callable[[Case], None]], Callable[..., None]]:
    return _fuzzes(name, n, tested=SERVER_TESTED)


SAME = {"origin": ORIGIN}
TABLES = b'{"preset": "house", "players": 2, "seats": [{"kind": "person"}, {"kind": "person"}]}'


@fuzzes("server http", 25)
# found by this target: a preset that is not a string was a TypeError (a 500)
@example(Case("POST", "/api/tables", b'{"preset": {}, "players": 2}', SAME))
@example(Case("POST", "/api/play", b'{"preset": [1], "players": 2}', SAME))
@example(Case("POST", "/api/tables", b" " * 200_000 + TABLES, SAME))
@example(Case("POST", "/api/tables", TABLES, {**SAME, "content-length": "99999999999999999999"}))
@example(Case("POST", "/api/tables", TABLES, {**SAME, "content-length": "abc"}))
@example(Case("POST", "/api/tables", TABLES, {**SAME, "content-type": b"\xff\x00"}))
@example(Case("POST", "/api/tables", TABLES, {"origin": "http://evil.example"}))
@example(Case("POST", "/api/play", b"[" * 100_000, {**SAME, "host": "evil.example"}))
@example(Case("POST", "/api/play", b"{}", {**SAME, "cookie": "a=" + "b" * 20_000}))
@example(Case("GET", "/static/%2e%2e/%2e%2e/etc/passwd", b"", {}))
@example(Case("GET", "/t/NoSuchTable0", b"", {}))  # unknown ids: one read, then remembered
@example(Case("GET", "/t/" + "a" * 101, b"", {}))  # never a table's id: no read
@example(Case("FOO", "/api/tables", b"", {}))
@example(Case("HEAD", "/api/play", b"", {}))
def test_server_http(case: Case) -> None:
    holds("server http", case)


@fuzzes("server addresses", 25)
@example(Case("::ffff:10.1.2.3", "/t/NoSuchTable0"))
@example(Case("::FFFF:0A01:0203", "/t/UNKNOWN"))
@example(Case("fe80::1%eth0", "/t/UNKNOWN"))
@example(Case("x" * 5000, "/api/play"))
@example(Case("", "/t/TABLE"))
def test_server_addresses(case: Case) -> None:
    holds("server addresses", case)


MOVE = {"type": "move", "move": LEGAL, "id": ID}


@fuzzes("server websocket", 25)
@example(Case("seat", "same", "table", "", [("json", MOVE, 1), ("json", MOVE, 1)]))
@example(Case("seat", "same", "table", "", [("json", MOVE, 3)]))  # a replayed move
@example(Case("seat", "same", "table", "", [("json", {**MOVE, "id": "7"}, 1)]))
@example(Case("seat", "same", "table", "", [("json", {**MOVE, "seat": 1}, 1)]))
@example(Case("seat", "same", "table", "", [("json", {**MOVE, "move": [LEGAL]}, 1)]))
@example(Case("seat", "same", "table", "", [("text", "[" * 20_000, 1), ("bytes", b"\x00", 1)]))
@example(Case("seat", "same", "table", "", [("json", {"type": "ping", "id": 7}, 8)]))
@example(Case("spectator", "same", "table", "", [("json", MOVE, 1)]))
@example(Case("forged", "same", "table", TOKEN + "x", [("json", MOVE, 1)]))
@example(Case("none", "same", "table", "", [("json", MOVE, 1), ("json", {"type": "hello", "token": TOKEN}, 1), ("json", MOVE, 1)]))  # fmt: skip
@example(Case("seat", "other", "table", "", [("json", MOVE, 1)]))
@example(Case("seat", "same", "nosuchtable", "", [("json", MOVE, 1)]))
def test_server_websocket(case: Case) -> None:
    holds("server websocket", case)


def test_every_server_target_runs_here() -> None:
    assert set(NAMES) == SERVER_TESTED


def test_the_documented_close_codes_are_read_from_the_docs() -> None:
    assert {4401, 4403, 4404, 4429} <= fuzz_server.close_codes()
