"""``chickenfoot serve`` as a real process: killed with SIGKILL in the middle of a round and
started again on the same database, every table resumes exactly where it was; and the
command's own messages (docs: Serve)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from chickenfoot.cli import main
from chickenfoot.server._store import open_store
from server_helpers import Server, follower_of


def _latest(ws: ClientConnection) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The table shown after the messages received so far (kept as the page's client
    keeps it) and the go after it, if any, once quiet."""
    go = None
    follower = follower_of(ws)
    while True:
        try:
            message = json.loads(ws.recv(timeout=0.15))
        except TimeoutError:
            assert follower.table is not None
            return follower.table, go
        if follower.take(message) is not None:
            go = None
        elif message["type"] == "go":
            go = message


def _without_presence(table: dict[str, Any]) -> dict[str, Any]:
    return {**table, "seats": [{**s, "connected": None} for s in table["seats"]]}


def _moves(db: str, table: str) -> list[tuple[int, str, bool]]:
    with contextlib.closing(open_store(db)) as store:
        return store.moves(table)


def test_a_table_resumes_exactly_after_sigkill(store_where: str) -> None:
    """On a SQLite file, and on PostgreSQL (``store_where``)."""
    db = store_where
    server = Server(db)
    try:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
        seats.append({"kind": "bot", "spec": "greedy"})
        made = server.post("/api/tables", {"preset": "house", "players": 3, "seats": seats})
        table = made["table"]
        tokens = [s["link"].split("#")[1] for s in made["seats"][:2]]
        stack = contextlib.ExitStack()
        sockets = [server.socket(stack, table, t) for t in tokens]
        played = 0
        while played < 8:
            views = [_latest(ws) for ws in sockets]
            for (_state, go), ws in zip(views, sockets, strict=True):
                if go is not None:
                    ws.send(json.dumps({"type": "move", "move": go["legal"][-1], "id": go["id"]}))
                    played += 1
        for ws in sockets:  # the whole table now (after a move, only what changed comes)
            _latest(ws)
            ws.send(json.dumps({"type": "table"}))
        before = [_latest(ws) for ws in sockets]
        assert before[0][0]["round"] == 0 and not before[0][0]["over"]  # mid-round
        server.kill()  # no shutdown, no flush: SIGKILL
        with contextlib.suppress(Exception):
            stack.close()
    finally:
        server.stop()
    stored = _moves(db, table)
    assert len(stored) == before[0][0]["n"] >= 8  # every announced move was in the database
    again = Server(db)
    try:
        stack = contextlib.ExitStack()
        sockets = [again.socket(stack, table, t) for t in tokens]
        after = [_latest(ws) for ws in sockets]
        for (was, was_go), (now, now_go) in zip(before, after, strict=True):
            assert _without_presence(now) == _without_presence(was)  # the same position
            assert now_go == was_go  # the same question to the seat to act
        assert _moves(db, table) == stored  # the same record
        # ...and play goes on from there
        for (_state, go), ws in zip(after, sockets, strict=True):
            if go is not None:
                ws.send(json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]}))
        time.sleep(0.3)
        assert len(_moves(db, table)) > len(stored)
        stack.close()
    finally:
        again.stop()


def test_a_stored_record_that_does_not_replay_stops_only_its_table(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from chickenfoot.server import create_app

    db = tmp_path / "t.db"
    seats = [{"kind": "person"}, {"kind": "person"}]
    body = {"players": 2, "seats": seats, "preset": "house"}
    with TestClient(create_app(db)) as client:
        good = client.post("/api/tables", json=body).json()["table"]
        bad = client.post("/api/tables", json=body).json()["table"]
    store = open_store(db)
    n = len(store.moves(bad))
    store.add_move(bad, n, 1, "pass", forced=False)  # a move that is not legal there
    store.close()
    with TestClient(create_app(db)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.tables[good].error is None
        assert "does not replay" in hub.tables[bad].error


def test_serve_without_the_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'chickenfoot[server]'" in err and "uvicorn" in err
    assert "Traceback" not in err


def test_serve_refuses_bad_options_and_a_file_that_is_not_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port 70000 is invalid" in capsys.readouterr().err
    assert main(["serve", "--round-pause", "nan"]) == 2
    assert "--round-pause nan is invalid" in capsys.readouterr().err
    junk = tmp_path / "junk.db"
    junk.write_bytes(os.urandom(4096))
    assert main(["serve", "--db", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "cannot open the database" in err and "Traceback" not in err
