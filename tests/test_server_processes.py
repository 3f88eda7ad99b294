"""Two ``chickenfoot serve`` processes on one PostgreSQL database serve the same table
(docs: Serve, "PostgreSQL and more than one process"): the players of one table connected
to different processes play it together, a move made through one process reaching the
player of the other; and a process killed by SIGKILL in the middle of the game loses
nothing: its player opens the seat on the other process and plays on."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest

from chickenfoot.server._store import open_store
from server_helpers import Server, follower_of


def _drain(ws: Any) -> dict[str, Any] | None:
    """Read what ``ws`` was sent until it is quiet; the ``go`` it is to answer, if any."""
    go = None
    follower = follower_of(ws)
    while True:
        try:
            message = json.loads(ws.recv(timeout=0.3))
        except TimeoutError:
            return go
        if follower.take(message) is not None:
            go = None
        elif message["type"] == "go":
            go = message


def _play(sockets: list[Any], until: int) -> None:
    """Answer every ``go`` with its first legal move until the table has ``until`` moves."""
    deadline = time.monotonic() + 90
    while True:
        for ws in sockets:
            go = _drain(ws)
            if go is not None:
                ws.send(json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]}))
        shown = [follower_of(ws).table for ws in sockets]
        if all(t is not None and t["n"] >= until for t in shown):
            return
        assert time.monotonic() < deadline, f"the table stopped at {[t and t['n'] for t in shown]}"


def _stored(url: str, table: str) -> int:
    with contextlib.closing(open_store(url)) as store:
        return len(store.moves(table))


@pytest.mark.postgres
def test_two_processes_serve_one_table_and_one_killed_loses_nothing(postgres_url: str) -> None:
    a, b = Server(postgres_url), Server(postgres_url)
    try:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
        made = a.post("/api/tables", {"preset": "house", "players": 2, "seats": seats})
        table = made["table"]
        tokens = [s["link"].split("#")[1] for s in made["seats"]]
        first = contextlib.ExitStack()
        second = contextlib.ExitStack()
        ann = a.socket(first, table, tokens[0])  # Ann through process a...
        bo = b.socket(second, table, tokens[1])  # ...Bo through process b
        _play([ann, bo], until=10)
        _drain(ann), _drain(bo)
        shown = [follower_of(ws).table for ws in (ann, bo)]
        assert shown[0] is not None and shown[1] is not None
        assert shown[0]["n"] == shown[1]["n"] == _stored(postgres_url, table) >= 10
        views = [t["view"] for t in shown]  # one table, seen from both processes:
        assert views[0]["board"] == views[1]["board"] and views[0]["history"] == views[1]["history"]
        a.kill()  # SIGKILL: no shutdown, nothing flushed
        with contextlib.suppress(Exception):
            first.close()
        announced = shown[0]["n"]
        ann = b.socket(second, table, tokens[0])  # Ann opens her seat again, on b
        go = _drain(ann)
        again = follower_of(ann).table
        assert again is not None and again["n"] == announced == _stored(postgres_url, table)
        if go is not None:  # her turn: the same question as before
            ann.send(json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]}))
        _play([ann, bo], until=announced + 4)
        assert _stored(postgres_url, table) >= announced + 4
        second.close()
    finally:
        a.stop()
        b.stop()
