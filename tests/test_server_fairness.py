"""``chickenfoot serve``: nothing a client sends spends what another client needs (issue 46,
item 2): plain connections per address, database reads (off the event loop, rate-limited
per address, unknown ids cheap), IPv4-mapped addresses, bounded bots of every kind, and a
full database that refuses new tables rather than delete a recent game (docs: Serve,
"Bounded")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from chickenfoot.server import Limits, create_app
from chickenfoot.server._store import SeatRow, Store, open_store
from server_helpers import ORIGIN, make_table
from test_server_limits import PEOPLE, SMALL, closed_with, hub_of

# -- addresses ------------------------------------------------------------------------------


def test_ipv4_mapped_addresses_count_as_their_ipv4_address() -> None:
    from chickenfoot.server._limits import Buckets, address_key

    assert address_key("::ffff:10.0.0.1") == address_key("10.0.0.1") == "10.0.0.1"
    assert address_key("::FFFF:0a00:0002") == "10.0.0.2"
    assert address_key("2001:db8::1") == address_key("2001:db8::2") == "2001:db8::/64"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("x" * 1000) == "x" * 100
    buckets = Buckets(6.0, 1)
    assert buckets.take("::ffff:10.0.0.1", now=0.0) == 0.0
    assert buckets.take("::ffff:10.0.0.2", now=0.0) == 0.0  # another IPv4 client: its own
    assert buckets.take("10.0.0.1", now=0.0) > 0  # the same client, said the other way


# -- plain connections per address ------------------------------------------------------------


@contextlib.contextmanager
def serving(app: Any, limits: Limits) -> Iterator[int]:
    """``app`` under uvicorn as ``chickenfoot serve`` runs it."""
    import uvicorn

    from chickenfoot.server import uvicorn_config

    config = uvicorn_config(app, host="127.0.0.1", port=0, limits=limits)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    port: int = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(20)


def _get(port: int, path: str, source: str) -> bytes:
    with socket.socket() as s:
        s.settimeout(10)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_one_address_holding_half_sent_requests_cannot_starve_the_others(tmp_path: Path) -> None:
    limits = Limits(connections=10, requests_per_address=8)  # uvicorn's global limit: 210
    with serving(create_app(tmp_path / "t.db", limits=limits), limits) as port:
        held: list[socket.socket] = []
        answered = 0
        try:
            for _ in range(260):  # idle and half-sent: more than the server's whole limit
                s = socket.socket()
                s.settimeout(10)
                s.bind(("127.0.0.1", 0))
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(s)
            time.sleep(0.3)
            for s in held[8:12]:  # those beyond the address's share are answered at once
                s.settimeout(5)
                head = s.recv(200)
                assert head.startswith(b"HTTP/1.1 503"), head
                answered += 1
            for source in ("127.0.0.3", "127.0.0.4"):  # the others are served
                page = _get(port, "/", source)
                assert page.startswith(b"HTTP/1.1 200"), page[:200]
                assert _get(port, "/api/options", source).startswith(b"HTTP/1.1 200")
        finally:
            for s in held:
                s.close()
        assert answered == 4
        time.sleep(0.3)  # closed sockets are counted no more
        assert _get(port, "/api/options", "127.0.0.1").startswith(b"HTTP/1.1 200")


# -- database reads ---------------------------------------------------------------------------


class SlowStore:
    """A store whose reads take ``delay`` seconds (a database that far away), noting
    whether each read ran on an event loop."""

    def __init__(self, store: Store, delay: float) -> None:
        self._store = store
        self.delay = delay
        self.reads: list[tuple[str, bool]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def _note(self, what: str) -> None:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        self.reads.append((what, on_loop))
        time.sleep(self.delay)

    def tables(self, **options: Any) -> Any:
        self._note("tables")
        return self._store.tables(**options)

    def moves(self, table_id: str, **options: Any) -> Any:
        self._note("moves")
        return self._store.moves(table_id, **options)


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> list[SlowStore]:
    import chickenfoot.server._app as app_module

    made: list[SlowStore] = []

    def open_slow(where: str) -> Any:
        made.append(SlowStore(open_store(where), 0.005))
        return made[-1]

    monkeypatch.setattr(app_module, "open_store", open_slow)
    return made


def test_unknown_tables_are_read_off_the_loop_once_and_cheaply(
    tmp_path: Path, slow: list[SlowStore]
) -> None:
    limits = Limits(finished_seconds=0, abandoned_seconds=0)
    with TestClient(create_app(tmp_path / "t.db", limits=limits)) as client:
        store = slow[0]
        made = make_table(client, PEOPLE, **SMALL)
        client.app.state.lifecycle.sweep(time.monotonic() + 10)  # type: ignore[attr-defined]
        assert made["table"] not in hub_of(client).tables
        store.reads.clear()
        assert client.get(f"/t/{made['table']}").status_code == 200  # opened from the database
        assert made["table"] in hub_of(client).tables
        for _ in range(3):
            assert client.get("/t/NoSuchTable0").status_code == 404
        with client.websocket_connect("/ws/NoSuchTable0") as ws:
            code, seen = closed_with(ws)
            assert code == 4404 and "no table" in seen[-1]["message"]
        for path in ("/t/" + "x" * 300, "/t/%ff%fe", "/t/a.b", "/ws/x y"):  # no such id at all
            if path.startswith("/ws/"):
                with client.websocket_connect(path) as ws:
                    assert closed_with(ws)[0] == 4404
            else:
                assert client.get(path).status_code == 404
        reads = [what for what, _ in store.reads]
        assert reads == ["tables", "moves", "tables"], reads  # the unknown id: read once
        assert not any(on_loop for _, on_loop in store.reads), store.reads


def test_database_reads_are_rate_limited_per_address(tmp_path: Path, slow: list[SlowStore]) -> None:
    app = create_app(tmp_path / "t.db")
    with TestClient(app, client=("10.0.0.1", 5000)) as client:
        limited = 0
        for i in range(60):
            r = client.get(f"/t/missing{i:04d}")
            if r.status_code == 429:
                limited += 1
                assert int(r.headers["retry-after"]) >= 1
                assert "too many" in r.text
            else:
                assert r.status_code == 404
        assert limited > 0 and len(slow[0].reads) < 60
        with client.websocket_connect("/ws/missing9999") as ws:
            code, seen = closed_with(ws)
            assert code == 4429 and "too many" in seen[-1]["message"]
        other = TestClient(app, client=("::ffff:10.0.0.2", 5000))  # another client reads
        assert other.get("/t/missing9998").status_code == 404
        mapped = TestClient(app, client=("::ffff:10.0.0.1", 5000))  # the first one again
        assert mapped.get("/t/missing9997").status_code == 429


# -- bots ------------------------------------------------------------------------------------


def test_ismcts_bots_are_bounded_like_search_bots(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db", bot_delay=0.05)
    with TestClient(app) as client:
        seats = [{"kind": "bot", "spec": "ismcts:2000"}] * 8
        r = client.post(
            "/api/tables", json={"players": 8, "seats": seats}, headers={"origin": ORIGIN}
        )
        assert r.status_code == 400 and "iterations per decision" in r.json()["error"]
        r = client.post("/api/play", json={"players": 8, "bot": "ismcts"})
        assert r.status_code == 400 and "iterations per decision" in r.json()["error"]
        hub = hub_of(client)
        seats = [
            {"kind": "person"},
            {"kind": "bot", "spec": "ismcts:50"},
            {"kind": "bot", "spec": "search:50"},
        ]
        made = make_table(client, seats, players=3, **SMALL)
        table = hub.tables[made["table"]]
        for seat in (1, 2):  # each thinks within the server's bot delay, forced or not
            agent = hub._agent(table, seat)
            assert agent.time_limit == 0.05 and agent.iterations == 50


def test_every_bot_a_server_offers_is_bounded() -> None:
    from chickenfoot.server._bots import BOUNDS, bound_of
    from chickenfoot.server._limits import search_cost
    from chickenfoot.server._requests import check_bot_spec
    from chickenfoot.server._table import RefusedError
    from chickenfoot.specs import AGENT_NAMES, parse_spec

    forms = [*AGENT_NAMES, *(f"{n}:7" for n in AGENT_NAMES), *(f"{n}:7ms" for n in AGENT_NAMES)]
    forms += ["engine:fast", "engine:sh -c x", "policy:p.npz", "mybot:Bot"]
    offered = []
    for form in forms:
        try:
            spec = check_bot_spec(form, ["fast"])
        except RefusedError:
            continue
        offered.append(spec)
        bound = bound_of(parse_spec(spec))
        assert bound is not None, spec
        if bound.searches:
            assert search_cost(spec) > 0, spec
    assert {"random", "greedy", "heuristic", "search", "ismcts", "search:7", "ismcts:7"} <= set(
        offered
    )
    assert "engine:fast" in offered
    # a bot kind with no declared bound is not offered
    assert all(parse_spec(s).name.partition(":")[0] in BOUNDS for s in offered)
    with pytest.raises(RefusedError, match="not offered"):
        check_bot_spec("ismcts", [], bounds={})


# -- the database's cap -------------------------------------------------------------------------


def test_a_full_database_refuses_new_tables_and_keeps_every_recent_game(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store = open_store(db)
    seats = [SeatRow(0, "person", "", "a", "Ann"), SeatRow(1, "person", "", "b", "Bob")]
    rules = json.dumps({"players": 2})
    for i in range(3):  # a move a day ago or three: within --keep-days
        store.add_table(f"recent{i}", rules, i, seats, now=time.time() - (i + 1) * 86400)
    store.close()
    limits = Limits(max_stored=3, keep_days=30, abandoned_seconds=0)
    with TestClient(create_app(db, limits=limits)) as client:
        assert not hub_of(client).tables  # none in memory
        r = client.post("/api/tables", json={"players": 2, "seats": PEOPLE, **SMALL})
        assert r.status_code == 503, r.text
        assert "3 tables" in r.json()["error"] and "--keep-days" not in r.json()["error"]
        assert int(r.headers["retry-after"]) >= 1
        r = client.post("/api/play", json={"players": 2})
        assert r.status_code == 503
        stored = {t.id for t in hub_of(client).store.tables()}
        assert stored == {"recent0", "recent1", "recent2"}
        hub_of(client).store.delete(["recent2"])  # one game stale for 40 days makes room
        hub_of(client).store.add_table("stale", rules, 9, seats, now=time.time() - 40 * 86400)
        r = client.post("/api/tables", json={"players": 2, "seats": PEOPLE, **SMALL})
        assert r.status_code == 200, r.text
        stored = {t.id for t in hub_of(client).store.tables()}
        assert stored == {"recent0", "recent1", r.json()["table"]}


def test_serve_takes_the_plain_connections_per_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from chickenfoot.cli import main

    assert main(["serve", "--max-requests-per-address", "0"]) == 2
    assert "--max-requests-per-address 0 is invalid: 1 to 100,000" in capsys.readouterr().err
    ran: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: ran.append(self.config))
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    db = str(tmp_path / "t.db")
    assert main(["serve", "--db", db, "--max-requests-per-address", "7"]) == 0
    assert ran[0].http.per_address == 7
