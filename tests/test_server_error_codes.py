"""The ``code`` of the server's ``error`` messages, by which the page says them in the
reader's language (docs/serve.md): 4000 plus the HTTP status of the same meaning, the
close code that follows a fatal error, and the codes of the errors after which the
connection stays open."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server import create_app
from server_helpers import hello, make_table, token_of

SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 7}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "t.db")) as c:
        yield c


def _error(ws: Any) -> dict[str, Any]:
    """The next ``error`` message (skipping the table's updates)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "error":
            return message
        assert message["type"] in ("table", "moved", "go"), message


def test_a_fatal_error_carries_the_close_code_that_follows_it(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person"}, {"kind": "person"}], **SMALL)
    table, token = made["table"], token_of(made, 0)
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token[:-2] + "xx"})
        error = _error(ws)
        assert (error["fatal"], error["code"]) == (True, 4401)
        assert "not a seat of this table" in error["message"]  # the English, for programs
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == error["code"]
    with client.websocket_connect("/ws/no-such-table") as ws:
        error = _error(ws)
        assert (error["fatal"], error["code"]) == (True, 4404)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_refusal_keeps_the_connection_and_says_4400(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person"}, {"kind": "person"}], **SMALL)
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "move", "move": "pass", "id": 0})  # before any hello
        error = _error(ws)
        assert (error.get("fatal", False), error["code"]) == (False, 4400)
        hello(ws, None)  # still open: a spectator now
        ws.send_json({"type": "move", "move": "pass", "id": 7})
        error = _error(ws)
        assert (error.get("fatal", False), error["code"], error["id"]) == (False, 4400, 7)
        assert error["message"].startswith("refused: ")
        ws.send_json({"type": "no-such-type", "id": 8})
        assert _error(ws)["code"] == 4400
