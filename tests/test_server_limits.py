"""``chickenfoot serve`` against a client that takes too much (issue 29, parts 3 and 4):
connections (spectators, idle, slow readers, the whole server), bodies, tables (rate,
key, life cycle, disk), CPU per table, trickled requests, the ``Host`` header, and what
``/api/options`` shows (docs: Serve, "Bounded")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server import create_app
from server_helpers import ORIGIN, hello, make_table, token_of

SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 1}}}
PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def settle(client: TestClient) -> None:
    """Wait until no table is being played (its forced moves and bots), 30 s at most."""
    deadline = time.monotonic() + 30
    while hub_of(client).playing:
        assert time.monotonic() < deadline, "tables still playing"
        time.sleep(0.02)


def closed_with(ws: Any) -> tuple[int, list[dict[str, Any]]]:
    """Read until the server closes; its close code and the messages before."""
    seen = []
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            seen.append(ws.receive_json())
    return closed.value.code, seen


# -- 3. connections ------------------------------------------------------------------------


def test_a_crowd_of_spectators_never_locks_a_seat_out(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db")) as client, contextlib.ExitStack() as stack:
        made = make_table(client, PEOPLE, **SMALL)
        url = f"/ws/{made['table']}"
        for _ in range(64):  # the public watch link is all a crowd needs
            hello(stack.enter_context(client.websocket_connect(url)), None)
        with client.websocket_connect(url) as ws:  # one too many spectators
            ws.send_json({"type": "hello"})
            code, seen = closed_with(ws)
            assert code == 4429 and "spectators" in seen[-1]["message"]
        for seat in (0, 1):  # the seats still have room
            with client.websocket_connect(url) as ws:
                assert hello(ws, token_of(made, seat))["seat"] == seat
                assert ws.receive_json()["type"] == "table"


def test_a_seat_opened_again_closes_its_oldest_connection(tmp_path: Path) -> None:
    from chickenfoot.server import Limits

    app = create_app(tmp_path / "t.db", limits=Limits(seat_connections=1))
    with TestClient(app) as client:
        made = make_table(client, PEOPLE, **SMALL)
        url = f"/ws/{made['table']}"
        with client.websocket_connect(url) as old:
            hello(old, token_of(made, 0))
            with client.websocket_connect(url) as new:
                hello(new, token_of(made, 0))
                code, seen = closed_with(old)
                assert code == 4409 and "opened elsewhere" in seen[-1]["message"]
                new.send_json({"type": "ping", "id": 1})
                while (m := new.receive_json())["type"] != "pong":
                    assert m["type"] in ("table", "go")


def test_connections_idle_after_hello_time_out_and_a_heartbeat_keeps_them(
    tmp_path: Path,
) -> None:
    from chickenfoot.server import Limits

    app = create_app(tmp_path / "t.db", limits=Limits(idle_seconds=1.5))
    with TestClient(app) as client:
        made = make_table(client, PEOPLE, **SMALL)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, None)
            for i in range(8):  # a ping every 0.3 s: 2.4 s alive, past the idle time
                time.sleep(0.3)
                ws.send_json({"type": "ping", "id": i})
            started = time.monotonic()
            code, seen = closed_with(ws)  # then silence
            assert code == 4408 and "no message for" in seen[-1]["message"]
            assert {"type": "pong", "id": 7} in seen
        assert not hub_of(client).connections.get(made["table"])
        assert time.monotonic() - started < 30  # closed, not held (a loose bound)


def test_the_server_caps_its_connections_and_keeps_room_for_seats(tmp_path: Path) -> None:
    from chickenfoot.server import Limits

    app = create_app(tmp_path / "t.db", limits=Limits(connections=6))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        one, two = make_table(client, PEOPLE, **SMALL), make_table(client, PEOPLE, **SMALL)
        for made in (one, two, one):  # spectators of any table: half the server at most
            hello(stack.enter_context(client.websocket_connect(f"/ws/{made['table']}")), None)
        with client.websocket_connect(f"/ws/{two['table']}") as ws:
            ws.send_json({"type": "hello"})
            assert closed_with(ws)[0] == 4429
        for made, seat in ((one, 0), (one, 1), (two, 0)):  # seats use the other half
            ws = stack.enter_context(client.websocket_connect(f"/ws/{made['table']}"))
            assert hello(ws, token_of(made, seat))["seat"] == seat
        with client.websocket_connect(f"/ws/{two['table']}") as ws:  # the whole server: 6
            code, seen = closed_with(ws)
            assert code == 4503 and "connections already" in seen[-1]["message"]


def test_one_address_cannot_take_every_connection(tmp_path: Path) -> None:
    from chickenfoot.server import Limits

    app = create_app(tmp_path / "t.db", limits=Limits(connections_per_address=3))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        made = make_table(client, PEOPLE, **SMALL)
        url = f"/ws/{made['table']}"
        for seat in (None, 0, 1):
            token = None if seat is None else token_of(made, seat)
            hello(stack.enter_context(client.websocket_connect(url)), token)
        with client.websocket_connect(url) as ws:
            code, seen = closed_with(ws)
            assert code == 4503 and "your address" in seen[-1]["message"]
        stack.close()  # and its connections are counted no more once closed
        with client.websocket_connect(url) as ws:
            assert hello(ws, None)["role"] == "spectator"


@contextlib.contextmanager
def serving(app: Any, **options: Any) -> Iterator[int]:
    """``app`` under uvicorn, as ``chickenfoot serve`` runs it, on a free loopback port."""
    import uvicorn

    from chickenfoot.server import uvicorn_config

    server = uvicorn.Server(uvicorn_config(app, host="127.0.0.1", port=0, **options))
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


def test_a_client_that_stops_reading_is_closed(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    from chickenfoot.server import Limits

    limits = Limits(send_seconds=0.5)
    app = create_app(tmp_path / "t.db", limits=limits)
    hub = app.state.hub
    bots = [{"kind": "bot", "spec": "random"}] * 8  # a match of thousands of moves
    body = {"players": 8, "seats": bots, "preset": "house", "rules": {"max_pip": 15}}
    body["rules"]["hand_size"] = 15
    with serving(app, limits=limits) as port:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window
        sock.connect(("127.0.0.1", port))
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=json.dumps(body).encode()
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            table = json.loads(r.read())["table"]
        url = f"ws://127.0.0.1:{port}/ws/{table}"
        # max_queue=1: the client library stops reading its socket once a message waits
        with connect(
            url, sock=sock, max_queue=1, compression=None, close_timeout=1, ping_interval=None
        ) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello"}))
            deadline = time.monotonic() + 60
            while hub.spectators() == 0:  # the server took the hello
                assert time.monotonic() < deadline
                time.sleep(0.01)
            held = time.monotonic()
            while hub.spectators():  # every move is announced; the client reads none
                assert time.monotonic() < deadline, "the server still holds the connection"
                time.sleep(0.05)
            closed = time.monotonic() - held
            assert hub.tables[table].n > 0 and not hub.connections.get(table)
            while not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):  # and its socket
                assert time.monotonic() < deadline, "the server still holds the socket"
                time.sleep(0.05)
            reset = time.monotonic() - held
    print(
        f"a client that stopped reading: released after {closed:.1f} s, reset after {reset:.1f} s"
    )


# -- 4. bodies, tables, CPU ------------------------------------------------------------------


async def _post_chunks(
    app: Any, headers: list[tuple[bytes, bytes]], chunks: int
) -> tuple[int, int, dict[str, Any]]:
    """POST /api/tables straight to the ASGI app, the body in ``chunks`` of 64 KiB; the
    status, how many chunks the app read, and the JSON answer."""
    read = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= chunks:
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": b" " * 65536, "more_body": read < chunks}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, read, json.loads(body)


def test_a_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db")
    declared = [(b"content-length", str(200 * 65536).encode())]
    status, read, answer = asyncio.run(_post_chunks(app, declared, 200))  # 12.5 MiB
    assert (status, read) == (413, 0) and "over 16,384 bytes" in answer["error"]
    status, read, answer = asyncio.run(_post_chunks(app, [], 200))  # chunked: no length
    assert status == 413 and read == 1 and "over" in answer["error"]


def test_making_tables_is_rate_limited_per_address(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db")) as client:
        answers = [client.post("/api/play", json={"players": 2}) for _ in range(11)]
        assert [r.status_code for r in answers] == [200] * 10 + [429]
        assert int(answers[-1].headers["retry-after"]) >= 1
        assert "too many tables" in answers[-1].json()["error"]
        assert len(hub_of(client).tables) == 10


def test_an_operator_can_require_a_key_to_make_tables(tmp_path: Path) -> None:
    from chickenfoot.server import KEY_HEADER, Limits

    app = create_app(tmp_path / "t.db", limits=Limits(table_key="s3cret-key"))
    with TestClient(app) as client:
        assert client.get("/api/options").json()["key"] is True  # the page asks for it
        for headers in ({}, {KEY_HEADER: "guess"}, {KEY_HEADER: "s3cret-ke"}):
            r = client.post("/api/play", json={"players": 2}, headers=headers)
            assert r.status_code == 403 and "table key" in r.json()["error"]
        body = {"players": 2, "seats": PEOPLE}
        assert client.post("/api/tables", json=body).status_code == 403
        assert not hub_of(client).tables
        good = {KEY_HEADER: "s3cret-key"}
        assert client.post("/api/play", json={"players": 2}, headers=good).status_code == 200
        assert client.post("/api/tables", json=body, headers=good).status_code == 200


def test_serve_reads_the_table_key_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chickenfoot.cli import serve

    seen: dict[str, Any] = {}

    def fake_create_app(db: str, **options: Any) -> Any:
        seen.update(options)
        raise RuntimeError("stop here")

    import chickenfoot.server

    monkeypatch.setattr(chickenfoot.server, "create_app", fake_create_app)
    monkeypatch.setenv("CHICKENFOOT_TABLE_KEY", "from-the-environment")
    parser = __import__("argparse").ArgumentParser()
    serve.add_options(parser)
    args = parser.parse_args(["--db", str(tmp_path / "t.db")])
    with pytest.raises(Exception, match="cannot open"):
        serve.cmd_serve(args, sys.stdout)
    assert seen["limits"].table_key == "from-the-environment"
    assert seen["limits"].hosts == ("localhost", "127.0.0.1", "::1")  # a loopback bind


def _finish(client: TestClient, made: dict[str, Any]) -> None:
    """Wait until an all-bot table's match is over."""
    deadline = time.monotonic() + 60
    while hub_of(client).tables[made["table"]].round is not None:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_finished_and_abandoned_tables_leave_memory_and_open_again(tmp_path: Path) -> None:
    from chickenfoot.server import Limits

    limits = Limits(finished_seconds=0, abandoned_seconds=3600)
    with TestClient(create_app(tmp_path / "t.db", limits=limits)) as client:
        life = client.app.state.lifecycle  # type: ignore[attr-defined]
        bots = make_table(client, [{"kind": "bot", "spec": "random"}] * 2, **SMALL)
        people = make_table(client, PEOPLE, **SMALL)
        _finish(client, bots)
        n = hub_of(client).tables[bots["table"]].n
        settle(client)
        n_people = hub_of(client).tables[people["table"]].n
        life.sweep()
        assert bots["table"] not in hub_of(client).tables  # finished: out of memory
        assert people["table"] in hub_of(client).tables  # not yet abandoned
        life.sweep(time.monotonic() + 3600)
        assert people["table"] not in hub_of(client).tables  # abandoned: out of memory
        assert client.get(f"/t/{bots['table']}").status_code == 200  # both open again
        with client.websocket_connect(f"/ws/{people['table']}") as ws:
            assert hello(ws, token_of(people, 1))["seat"] == 1
            table = ws.receive_json()
            assert table["n"] == n_people and not table["over"]
        assert hub_of(client).tables[bots["table"]].n == n  # replayed, the same record


def test_a_restart_with_many_stale_tables_still_makes_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chickenfoot.server import _hub
    from chickenfoot.server._hub import Hub
    from chickenfoot.server._store import open_store

    monkeypatch.setattr(_hub, "MAX_TABLES", 20)
    store = open_store(tmp_path / "t.db")
    before = Hub(store)
    for _ in range(20):  # memory's cap, all made (and left) before the restart
        before.create({"players": 2, "seats": PEOPLE, **SMALL})
    store.close()
    with TestClient(create_app(tmp_path / "t.db")) as client:
        assert len(hub_of(client).tables) <= 10  # the live ones only, and only so many
        r = client.post("/api/play", json={"players": 2}, headers={"origin": ORIGIN})
        assert r.status_code == 200, r.text
        table = next(iter(before.tables))  # an old table still opens, from the database
        assert client.get(f"/t/{table}").status_code == 200


def test_old_tables_are_pruned_and_the_database_is_bounded(tmp_path: Path) -> None:
    from chickenfoot.server import Limits
    from chickenfoot.server._store import SeatRow, open_store

    db = tmp_path / "t.db"
    store = open_store(db)
    seats = [SeatRow(0, "person", "", "a", "Ann"), SeatRow(1, "person", "", "b", "Bob")]
    rules = json.dumps({"players": 2})
    old = time.time() - 40 * 86400
    for i in range(3):
        store.add_table(f"old{i}", rules, i, seats, now=old)
    store.add_table("new", rules, 9, seats)
    store.close()
    out = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "serve", "--prune", "--db", str(db)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "pruned 3 tables" in out.stdout
    assert [t.id for t in open_store(db).tables()] == ["new"]
    with TestClient(create_app(db, limits=Limits(max_stored=3))) as client:
        life = client.app.state.lifecycle  # type: ignore[attr-defined]
        made = []
        for _ in range(3):
            r = client.post("/api/tables", json={"players": 2, "seats": PEOPLE, **SMALL})
            made.append(r.json().get("table"))
            settle(client)
            life.sweep(time.monotonic() + 86400)  # each left alone for a day
        assert r.status_code == 503 and made[-1] is None  # full of games played recently
        stored = {t.id for t in hub_of(client).store.tables()}
        assert stored == {"new", *made[:2]}  # none of them deleted for room


def test_one_table_cannot_take_unbounded_cpu(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db")) as client:
        seats = [{"kind": "bot", "spec": "search:2000"}] * 8
        body = {"players": 8, "seats": seats}
        r = client.post("/api/tables", json=body, headers={"origin": ORIGIN})
        assert r.status_code == 400 and "iterations per decision" in r.json()["error"]
        r = client.post("/api/play", json={"players": 8, "bot": "search:2000"})
        assert r.status_code == 400 and "iterations per decision" in r.json()["error"]
        assert not hub_of(client).tables
        seats = [{"kind": "person"}, {"kind": "bot", "spec": "search:2000"}]
        make_table(client, seats, **SMALL)  # within the budget


# -- 4. the HTTP surface ---------------------------------------------------------------------


def test_a_request_trickling_its_headers_is_cut(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db")
    with serving(app, request_seconds=1.0) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            started, cut = time.monotonic(), False
            for i in range(100):  # a header line every 0.1 s, for 10 s at most
                try:
                    s.sendall(f"X-Slow-{i}: 1\r\n".encode())
                except OSError:
                    cut = True
                    break
                s.settimeout(0.1)
                try:
                    if s.recv(1024) == b"":
                        cut = True
                        break
                except TimeoutError:
                    pass
                except OSError:  # a reset (the server closed with the request unread): cut
                    cut = True
                    break
            assert cut and time.monotonic() - started < 5
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:  # a whole one
            s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 200")
        from websockets.sync.client import connect

        made = json.loads(  # a WebSocket outlives the request deadline
            urllib.request.urlopen(
                urllib.request.Request(f"http://127.0.0.1:{port}/api/play", data=b'{"players": 2}'),
                timeout=10,
            ).read()
        )
        with connect(f"ws://127.0.0.1:{port}/ws/{made['table']}", close_timeout=1) as ws:
            ws.send(json.dumps({"type": "hello"}))
            time.sleep(2.0)
            ws.send(json.dumps({"type": "ping", "id": 5}))
            for _ in range(50):
                if json.loads(ws.recv(timeout=10)) == {"type": "pong", "id": 5}:
                    break
            else:
                raise AssertionError("no pong")


def test_the_host_header_is_checked(tmp_path: Path) -> None:
    from chickenfoot.server import LOOPBACK_HOSTS, Limits

    app = create_app(tmp_path / "t.db", limits=Limits(hosts=(*LOOPBACK_HOSTS, "cf.lan")))
    with TestClient(app, base_url="http://localhost:8000") as client:
        assert client.get("/").status_code == 200
        for host in ("127.0.0.1:8000", "[::1]:8000", "cf.lan"):
            assert client.get("/api/options", headers={"host": host}).status_code == 200
        rebound = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
        r = client.post("/api/play", json={"players": 2}, headers=rebound)
        assert r.status_code == 400 and "Host" in r.json()["error"]
        assert not hub_of(client).tables
        made = client.post("/api/play", json={"players": 2}).json()
        socket_url = f"/ws/{made['table']}"
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(socket_url, headers=rebound) as ws,
        ):
            ws.receive_json()


def test_options_show_engine_names_never_commands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = Path(__file__).with_name("fake_engine.py")
    command = f"{sys.executable} {fake} ok {tmp_path / 'pids'}"
    app = create_app(tmp_path / "t.db", engines=[command, f"mine={command}"])
    with TestClient(app) as client:
        options = client.get("/api/options").json()
        assert options["engines"] == ["fake_engine", "mine"]
        assert str(fake) not in json.dumps(options)
        seats = [{"kind": "person"}, {"kind": "bot", "spec": "engine:mine"}]
        made = make_table(client, seats, **SMALL)
        assert made["seats"][1]["name"] == "Henny Penny"  # a bot's name, never the command
        assert str(fake) not in json.dumps(made)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, token_of(made, 0))
            deadline = time.monotonic() + 30
            while not any(s == 1 for s, _m, _f in hub_of(client).tables[made["table"]].moves):
                assert time.monotonic() < deadline, "the engine never moved"
                message = ws.receive_json()
                if message["type"] == "go":
                    ws.send_json({"type": "move", "move": message["legal"][0], "id": message["id"]})
        assert hub_of(client).tables[made["table"]].error is None
        seats[1]["spec"] = f"engine:{command}"  # the command itself is not a name
        r = client.post("/api/tables", json={"players": 2, "seats": seats})
        assert r.status_code == 400
    # started again without that engine: its name runs nothing (no program called "mine")
    with TestClient(create_app(tmp_path / "t.db")) as client:
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, token_of(made, 0))
            deadline = time.monotonic() + 30
            while hub_of(client).tables[made["table"]].error is None:
                assert time.monotonic() < deadline
                message = ws.receive_json()
                if message["type"] == "go":
                    ws.send_json({"type": "move", "move": message["legal"][0], "id": message["id"]})
        assert "the bot at seat 1 failed" in hub_of(client).tables[made["table"]].error
    assert "which may name built-in agents only" in caplog.text  # the reason, in the log
