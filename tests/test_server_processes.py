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

_GO: dict[int, dict[str, Any]] = {}  # per socket, the last go it was sent


def _drain(ws: Any, *, take: bool = True) -> dict[str, Any] | None:
    """Read what ``ws`` was sent until it is quiet; the ``go`` it is to answer, if any
    (the last one sent, if it asks for the move the table shown is at; taken once, unless
    ``take`` is false)."""
    follower = follower_of(ws)
    while True:
        try:
            message = json.loads(ws.recv(timeout=0.3))
        except TimeoutError:
            break
        if follower.take(message) is None and message["type"] == "go":
            _GO[id(ws)] = message
    go, table = _GO.get(id(ws)), follower.table
    if go is None or table is None or go["id"] != table["n"] or table["pause"] is not None:
        return None
    return _GO.pop(id(ws)) if take else go


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


def _shown(sockets: list[Any], check: Any, what: str, seconds: float = 30) -> list[dict[str, Any]]:
    """Read both sockets until the table each shows passes ``check``; the tables."""
    deadline = time.monotonic() + seconds
    while True:
        for ws in sockets:
            _drain(ws, take=False)
        shown = [follower_of(ws).table for ws in sockets]
        if all(t is not None and check(t) for t in shown):
            return shown  # type: ignore[return-value]
        assert time.monotonic() < deadline, f"{what}: {[t and t.get('pause') for t in shown]}"


def _play_until(sockets: list[Any], check: Any) -> None:
    """Answer every ``go`` with its first legal move until both tables pass ``check``."""
    deadline = time.monotonic() + 90
    while True:
        for ws in sockets:
            go = _drain(ws)
            if go is not None:
                ws.send(json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]}))
        shown = [follower_of(ws).table for ws in sockets]
        if all(t is not None and check(t) for t in shown):
            return
        assert time.monotonic() < deadline, [t and (t["n"], t["pause"]) for t in shown]


@pytest.mark.postgres
def test_people_on_two_processes_agree_on_the_pause_the_next_round_and_the_rematch(
    postgres_url: str,
) -> None:
    """Ann through one process, Bo through another: both see the same pause, the same
    seats ready; the next round starts, and the rematch is made, only once both asked,
    on both processes."""
    extra = ("--round-pause", "60")
    a, b = Server(postgres_url, extra=extra), Server(postgres_url, extra=extra)
    try:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
        rules = {"max_pip": 6, "hand_size": 7, "match": {"rounds": 2}}
        made = a.post("/api/tables", {"preset": "house", "players": 2, "seats": seats,
                                      "rules": rules})  # fmt: skip
        table = made["table"]
        tokens = [s["link"].split("#")[1] for s in made["seats"]]
        with contextlib.ExitStack() as stack:
            ann, bo = a.socket(stack, table, tokens[0]), b.socket(stack, table, tokens[1])
            both = [ann, bo]
            _play_until(both, lambda t: t["pause"] is not None)
            paused = _shown(both, lambda t: t["pause"] is not None, "both paused")
            assert [t["pause"]["ready"] for t in paused] == [[], []]
            seconds = [t["pause"]["seconds"] for t in paused]
            assert abs(seconds[0] - seconds[1]) < 5 and min(seconds) > 30
            ann.send(json.dumps({"type": "next"}))
            _shown(both, lambda t: t["pause"] is not None and t["pause"]["ready"] == [0],
                   "Ann ready, on both")  # fmt: skip
            time.sleep(0.5)  # and still paused, on both: Bo has not asked
            assert all(t["pause"] is not None for t in _shown(both, lambda t: True, "read"))
            bo.send(json.dumps({"type": "next"}))
            _shown(both, lambda t: t["pause"] is None and t["round"] == 1, "the round on both")
            _play_until(both, lambda t: t["over"])
            over = _shown(both, lambda t: t["over"], "over on both")
            assert [t["rematch"] for t in over] == [[], []]
            bo.send(json.dumps({"type": "rematch"}))
            _shown(both, lambda t: t["over"] and t["rematch"] == [1], "Bo asked, on both")
            time.sleep(0.5)
            assert all(t["over"] for t in _shown(both, lambda t: True, "read"))
            ann.send(json.dumps({"type": "rematch"}))
            again = _shown(both, lambda t: not t["over"], "the rematch on both")
            assert [(t["round"], t["scores"]) for t in again] == [(0, []), (0, [])]
    finally:
        logs = []
        for server in (a, b):
            server.process.terminate()
            logs.append(server.process.communicate(timeout=15)[1].decode(errors="replace"))
    for log in logs:  # nothing failed unseen
        assert "never retrieved" not in log and "Traceback" not in log, log[-3000:]
