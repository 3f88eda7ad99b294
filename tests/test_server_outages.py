"""A database that fails never stops a table (docs: Serve, "What the server stores and
promises"): a SQLite file locked by another connection (a shell, a backup) for longer
than the store waits for it, a PostgreSQL server restarting. A bot's move waits and is
tried again until the database answers, then the table goes on; a person's move that
waits is told so at once, then played once stored, once; no task of the server ends with
an error nobody reads (``no_lost_errors``, conftest: on every test)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from chickenfoot.server import create_app
from chickenfoot.server._keeper import WAITING
from chickenfoot.server._store import open_store
from server_helpers import ORIGIN, Proxy, Server, hello, make_table, token_of

BOTS = [{"kind": "bot", "spec": "random"}, {"kind": "bot", "spec": "random"}]
LONG = {"preset": "house", "rules": {"match": {"rounds": 10}}}  # bots play on for a while


def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@contextlib.contextmanager
def _locked(db: Path) -> Iterator[None]:
    """The file's write lock, held by another connection (as ``sqlite3 file`` and
    ``BEGIN EXCLUSIVE`` in a shell would)."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as shell:
        shell.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            shell.execute("ROLLBACK")


def test_bots_play_on_after_a_sqlite_lock_longer_than_any_busy_wait(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with TestClient(create_app(db, bot_delay=0.02)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[make_table(client, BOTS, **LONG)["table"]]
        _wait(lambda: table.n >= 5, 30, "the bots did not start")
        with _locked(db):
            time.sleep(0.5)
            n = table.n  # the move under way when the lock came waits with the table
            time.sleep(6.0)  # longer than sqlite3's default wait (5 s) and the store's
            assert table.n <= n + 1 and table.error is None
        _wait(lambda: table.n >= n + 10, 30, "the table stopped after the lock was gone")
        assert table.error is None and hub.writer.failures > 0
        with contextlib.closing(open_store(db)) as store:  # one record, no move twice
            _wait(lambda: len(store.moves(table.id)) >= n + 10, 10, "not stored")
            stored = store.moves(table.id)
        assert stored[: table.n] == table.moves[: len(stored)]


def test_a_person_whose_move_meets_a_locked_file_is_told_and_the_move_is_played_once(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    with TestClient(create_app(db)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        made = make_table(client, [{"kind": "person"}, {"kind": "bot", "spec": "random"}])
        table = hub.tables[made["table"]]
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, token_of(made, 0))
            message = ws.receive_json()
            while message["type"] != "go":
                message = ws.receive_json()
            n = message["id"]
            with _locked(db):
                ws.send_json({"type": "move", "move": message["legal"][0], "id": n})
                told = ws.receive_json()  # at once, while the file is locked
                assert told == {"type": "error", "id": n, "message": WAITING, "code": 4503}
                time.sleep(1.5)
                assert table.n == n  # not played before it is stored
            message = ws.receive_json()
            while message["type"] not in ("moved", "table") or message["n"] <= n:
                assert message["type"] != "error", message
                message = ws.receive_json()
        with contextlib.closing(open_store(db)) as store:
            stored = store.moves(table.id)
        assert stored[n][:2] == (0, table.moves[n][1]) and len(stored) >= n + 1


@pytest.mark.postgres
def test_bots_play_on_through_a_postgres_restart(postgres_url: str) -> None:
    """The connections cut and refused for two seconds, as a server restarting does: the
    table goes on once the database is back, and the listener too."""
    port = int(postgres_url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    proxy = Proxy(port)
    try:
        with TestClient(create_app(proxy.url(postgres_url), bot_delay=0.02)) as client:
            hub = client.app.state.hub  # type: ignore[attr-defined]
            table = hub.tables[make_table(client, BOTS, **LONG)["table"]]
            _wait(lambda: table.n >= 5, 30, "the bots did not start")
            proxy.cut()
            time.sleep(0.5)
            n = table.n
            time.sleep(2.0)
            assert table.n <= n + 1 and table.error is None
            proxy.resume()
            _wait(lambda: table.n >= n + 10, 30, "the table stopped after the restart")
            assert table.error is None and hub.writer.failures > 0
        with contextlib.closing(open_store(postgres_url)) as store:
            stored = store.moves(table.id)
        assert stored == table.moves[: len(stored)] and len(stored) >= n + 10
    finally:
        proxy.cut()


@pytest.mark.postgres
def test_two_processes_play_on_through_a_postgres_restart(postgres_url: str) -> None:
    """Two ``chickenfoot serve`` processes on one database, a table of bots made on one
    and watched through the other: both go on after the restart, and neither logs an
    error nobody read (nor a traceback)."""
    port = int(postgres_url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    proxy = Proxy(port)
    url = proxy.url(postgres_url)
    a, b = Server(url, extra=("--bot-delay", "0.02")), Server(url)
    try:
        made = a.post("/api/tables", {"players": 2, "seats": BOTS, **LONG})
        with contextlib.ExitStack() as stack:
            watch = b.socket(stack, made["table"], "")
            seen = [0]

            def watched() -> bool:
                with contextlib.suppress(TimeoutError):
                    while True:
                        message = json.loads(watch.recv(timeout=0.05))
                        seen[0] = max(seen[0], message.get("n", 0))
                return False

            def until(n: int) -> bool:
                watched()
                return seen[0] >= n

            _wait(lambda: until(5), 30, "the bots did not start")
            proxy.cut()
            time.sleep(2.0)
            watched()
            n = seen[0]
            proxy.resume()
            _wait(lambda: until(n + 10), 60, "the table stopped after the restart")
    finally:
        proxy.cut()
        logs = []
        for server in (a, b):
            server.process.terminate()
            _out, err = server.process.communicate(timeout=15)
            logs.append(err.decode(errors="replace"))
    for log in logs:
        assert "never retrieved" not in log and "Traceback" not in log, log[-3000:]
    assert any("trying again" in log for log in logs)


def test_the_writer_stops_trying_when_the_server_stops(tmp_path: Path) -> None:
    """A move waiting for a database that never answers does not hold the server's stop:
    it fails then, unannounced (nothing is announced that is not stored)."""
    import asyncio

    from chickenfoot.server._store import MoveRow, SeatRow, StoreError
    from chickenfoot.server._writer import Writer

    db = tmp_path / "t.db"
    store = open_store(db)
    store.add_table("t", "{}", 1, [SeatRow(0, "bot", "random", None, "a")])
    held = threading.Event()

    async def main() -> object:
        writer = Writer(store)
        waiting = asyncio.create_task(writer.write(MoveRow("t", 0, 0, "draw", False)))
        await asyncio.sleep(1.5)  # at least one try failed
        assert not waiting.done()
        await writer.close()
        return await asyncio.gather(waiting, return_exceptions=True)

    with _locked(db):
        held.set()
        (result,) = asyncio.run(main())  # type: ignore[misc]
    assert isinstance(result, StoreError)
    assert store.moves("t") == []
    store.close()


def test_making_a_table_while_the_file_is_locked_is_a_clear_answer(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with TestClient(create_app(db), raise_server_exceptions=False) as client:
        with _locked(db):
            body = {"players": 2, "seats": BOTS}
            r = client.post("/api/tables", json=body, headers={"origin": ORIGIN})
            assert r.status_code == 503 and "database is not answering" in r.json()["error"]
            assert r.headers["retry-after"] == "5"
        assert make_table(client, BOTS)["table"]  # and once it answers, tables are made
