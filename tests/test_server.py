"""``chickenfoot serve`` as an attacker sees it: secrets stay secret, and every refused
message is refused with a clear message and changes nothing (docs: Serve, security)."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.server import BURST, MAX_MESSAGE, create_app
from server_helpers import ORIGIN, hello, hidden_by_move, make_table, play_seat, tiles_in, token_of

SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 2}}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "t.db")) as c:
        yield c


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


# -- secrets -----------------------------------------------------------------------------------


def _watch(client: TestClient, table: str, sink: list[str], ready: threading.Event) -> None:
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, None)
        ready.set()
        while True:
            text = ws.receive_text()
            sink.append(text)
            message = json.loads(text)
            if message["type"] == "table" and message["over"]:
                return


@pytest.mark.parametrize("players", [2, 3])
def test_no_hidden_tile_reaches_a_seat_or_a_spectator_over_whole_matches(
    client: TestClient, players: int
) -> None:
    seats = [{"kind": "person", "name": "Ann"}]
    seats += [{"kind": "bot", "spec": spec} for spec in ["greedy", "random"][: players - 1]]
    made = make_table(client, seats, **SMALL)
    table = made["table"]
    spectator: list[str] = []
    ready = threading.Event()
    watcher = threading.Thread(target=_watch, args=(client, table, spectator, ready))
    watcher.start()
    assert ready.wait(10)
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, token_of(made, 0))["seat"] == 0
        player = list(play_seat(ws, random.Random(players)))
    watcher.join(30)
    assert not watcher.is_alive()
    hidden, seed = hidden_by_move(hub_of(client).store, table)
    assert len(hidden) > 20  # whole rounds were played
    checked = 0
    for who, texts in ((0, player), (None, spectator)):
        for text in texts:
            message = json.loads(text)
            n = message.get("n", message.get("id"))
            if n is None:
                continue
            leaked = tiles_in(text) & hidden[n][who]
            assert not leaked, f"{'seat 0' if who == 0 else 'the spectator'} saw {leaked} at {n}"
            assert str(seed) not in text  # the seed deals every hand: never sent
            checked += 1
    assert checked >= len(hidden)  # every position reached both
    # ...and the check has teeth: the seat's own hand was in what it received.
    assert any(tiles_in(t) & hidden[0][1] - hidden[0][0] for t in player[:3])
    spectated = [json.loads(t) for t in spectator if '"type":"table"' in t]
    assert all(m["view"] is None or m["view"]["hand"] == [] for m in spectated)


# -- moves refused -------------------------------------------------------------------------------


def _two_people(client: TestClient) -> tuple[str, str, str]:
    made = make_table(client, [{"kind": "person"}, {"kind": "person"}], **SMALL)
    _quiet(client, made["table"])
    return made["table"], token_of(made, 0), token_of(made, 1)


def _until_go(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "go":
            return message


def _refused(ws: Any, payload: Any, *, raw: bool = False) -> str:
    """Send ``payload`` and return the error it gets (skipping table updates)."""
    if raw:
        ws.send_text(payload) if isinstance(payload, str) else ws.send_bytes(payload)
    else:
        ws.send_json(payload)
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return str(message["message"])
        assert message["type"] in ("table", "moved", "go"), message


def _moves(client: TestClient, table: str) -> list[tuple[int, str, bool]]:
    # The server commits a move (in a worker thread) and then plays it: between the two the
    # database is one move ahead of the table, for a moment.
    for _ in range(200):
        stored: list[tuple[int, str, bool]] = hub_of(client).store.moves(table)
        if stored == hub_of(client).tables[table].moves:
            return stored
        time.sleep(0.005)
    raise AssertionError("the database and the table disagree")


def _quiet(client: TestClient, table: str) -> list[tuple[int, str, bool]]:
    """The moves once the server has played on (a person is to act: people play every
    move of theirs, forced or not)."""
    deadline = time.monotonic() + 10
    t = hub_of(client).tables[table]
    while t.turn is not None and t.seats[t.turn].kind != "person":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return _moves(client, table)


def _turn_seat(client: TestClient, table: str) -> int:
    turn: int = hub_of(client).tables[table].turn
    return turn


def test_moves_out_of_turn_for_another_seat_replayed_or_illegal_are_refused(
    client: TestClient,
) -> None:
    table, t0, t1 = _two_people(client)
    tokens = {0: t0, 1: t1}
    with (
        client.websocket_connect(f"/ws/{table}") as a,
        client.websocket_connect(f"/ws/{table}") as b,
    ):
        hello(a, t0)
        hello(b, t1)
        sockets = {0: a, 1: b}
        assert tokens
        first = _turn_seat(client, table)
        mover, other = sockets[first], sockets[1 - first]
        go = _until_go(mover)
        before = _moves(client, table)
        move = {"type": "move", "move": go["legal"][0], "id": go["id"]}
        # out of turn: the other seat sends the same move
        assert "turn, not yours" in _refused(other, move)
        # for another seat: a move claiming the other seat's number
        assert "plays seat" in _refused(other, {**move, "seat": first})
        # no id, a wrong id, an illegal move, a move that is not notation
        assert "must carry the id" in _refused(mover, {"type": "move", "move": go["legal"][0]})
        assert "replayed or stale" in _refused(mover, {**move, "id": go["id"] + 1})
        assert "not legal here" in _refused(mover, {**move, "move": "pass"})
        assert "not a move in notation" in _refused(mover, {**move, "move": "e2e4"})
        assert _moves(client, table) == before
        # the move itself is accepted, once
        mover.send_json(move)
        while len(_moves(client, table)) == len(before):
            mover.receive_json()
        after = _quiet(client, table)
        # replayed: the same message again, now and whenever this seat is next to move
        assert _refused(mover, move)
        assert _moves(client, table) == after


def test_spectators_forged_and_missing_tokens(client: TestClient) -> None:
    table, t0, _t1 = _two_people(client)
    before = _moves(client, table)
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": t0[:-2] + "xx"})
        error = ws.receive_json()
        assert error["type"] == "error" and "not a seat of this table" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    with client.websocket_connect(f"/ws/{table}") as ws:  # no token: a spectator
        assert hello(ws, None)["role"] == "spectator"
        seat = _turn_seat(client, table)
        assert "spectator cannot move" in _refused(ws, {"type": "move", "move": "pass", "id": 0})
        assert "spectator cannot move" in _refused(ws, {"type": "move", "seat": seat, "id": 0})
    with client.websocket_connect(f"/ws/{table}") as ws:  # a move before any hello
        ws.send_json({"type": "move", "move": "pass", "id": 0})
        assert "must be a hello" in ws.receive_json()["message"]
    with client.websocket_connect("/ws/no-such-table") as ws:
        assert "no table" in ws.receive_json()["message"]
    assert _moves(client, table) == before


def test_oversized_malformed_and_binary_messages_are_refused(client: TestClient) -> None:
    table, t0, t1 = _two_people(client)
    before = _moves(client, table)
    token = t0 if _turn_seat(client, table) == 0 else t1
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, token)
        go = _until_go(ws)
        big = json.dumps(
            {"type": "move", "move": go["legal"][0], "id": go["id"], "x": "a" * MAX_MESSAGE}
        )
        assert "over the limit" in _refused(ws, big, raw=True)
        assert "not JSON" in _refused(ws, "{'type': 'move'", raw=True)
        assert "not a JSON object" in _refused(ws, "[1, 2]", raw=True)
        assert "string 'type'" in _refused(ws, '{"type": 5}', raw=True)
        assert "not binary" in _refused(ws, b'{"type": "ping"}', raw=True)
        assert "without a move string" in _refused(ws, {"type": "move", "id": go["id"]})
        assert "unknown message type" in _refused(ws, {"type": "quit"})
        assert "not a move" in _refused(ws, {"type": "move", "move": "9" * 5000, "id": go["id"]})
        ws.send_json({"type": "table"})  # and the connection still works
        assert ws.receive_json()["n"] == len(before)
    assert _moves(client, table) == before


def test_a_flood_is_bounded_and_changes_nothing(client: TestClient) -> None:
    table, t0, t1 = _two_people(client)
    before = _moves(client, table)
    token = t0 if _turn_seat(client, table) == 0 else t1
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, token)
        go = _until_go(ws)
        wrong = {"type": "move", "move": go["legal"][0], "id": go["id"] + 7}
        for _ in range(400):
            ws.send_json(wrong)
        answers = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                answers.append(ws.receive_json())
        assert closed.value.code == 4429
    errors = [a["message"] for a in answers if a["type"] == "error"]
    assert len(answers) <= 3 * BURST + 5  # bounded: not one answer per message
    assert any("too many messages" in e for e in errors)
    assert _moves(client, table) == before


def test_cross_origin_websockets_and_posts_are_refused(client: TestClient) -> None:
    table, t0, _t1 = _two_people(client)
    evil = {"origin": "http://evil.example"}
    with client.websocket_connect(f"/ws/{table}", headers=evil) as ws:
        error = ws.receive_json()
        assert error["type"] == "error" and "cross-origin" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    seats = [{"kind": "person"}, {"kind": "bot", "spec": "random"}]
    r = client.post("/api/tables", json={"players": 2, "seats": seats}, headers=evil)
    assert r.status_code == 403
    assert client.post("/api/play", json={}, headers=evil).status_code == 403
    with client.websocket_connect(f"/ws/{table}", headers={"origin": ORIGIN}) as ws:
        assert hello(ws, t0)["seat"] == 0  # the server's own origin is welcome


def test_a_page_can_never_make_the_server_run_a_program(client: TestClient) -> None:
    for spec in ["engine:touch /tmp/pwned", "os:system", "search:999999", 5]:
        seats = [{"kind": "person"}, {"kind": "bot", "spec": spec}]
        r = client.post(
            "/api/tables", json={"players": 2, "seats": seats}, headers={"origin": ORIGIN}
        )
        assert r.status_code == 400, spec
        assert r.json()["error"]
    assert not hub_of(client).tables


def test_bad_table_requests_say_what_is_wrong(client: TestClient) -> None:
    def post(body: Any, status: int = 400) -> str:
        r = client.post(
            "/api/tables", content=body if isinstance(body, bytes) else json.dumps(body)
        )
        assert r.status_code == status
        return str(r.json()["error"])

    person = {"kind": "person"}
    assert "not JSON" in post(b"{")
    assert "over" in post(b" " * 20_000, 413)
    assert "one per player" in post({"players": 3, "seats": [person]})
    assert "preset" in post({"preset": "chess", "seats": [person] * 4})
    assert "players" in post({"players": 1, "seats": [person]})
    assert "max_pip" in post({"players": 2, "rules": {"max_pip": 99}, "seats": [person] * 2})
    assert "name" in post({"players": 2, "seats": [{"kind": "person", "name": "x" * 99}, person]})
    assert client.get("/t/nothing-here").status_code == 404


def test_an_engine_that_fails_stops_its_table_and_the_log_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="chickenfoot.server")
    with TestClient(create_app(tmp_path / "t.db", engines=["no-such-engine"])) as client:
        seats = [{"kind": "bot", "spec": "engine:no-such-engine"}, {"kind": "person"}]
        made = make_table(client, seats, **SMALL)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token_of(made, 1))
            deadline = time.monotonic() + 10
            while hub_of(client).tables[table].error is None:  # the person may lead
                assert time.monotonic() < deadline
                message = ws.receive_json()
                if message["type"] == "go":
                    move = {"type": "move", "move": message["legal"][0], "id": message["id"]}
                    ws.send_json(move)
            # the reason (which may quote the bot's hand) is the operator's, in the log
            assert any("no such program" in r.getMessage() for r in caplog.records)
            ws.send_json({"type": "table"})
            state = ws.receive_json()
            while state["type"] != "table" or state["error"] is None:
                state = ws.receive_json()
            assert state["type"] == "table" and "the bot at seat 0 failed" in state["error"]
            assert "table is stopped" in _refused(ws, {"type": "move", "move": "pass", "id": 0})
        options = client.get("/api/options").json()
        assert options["engines"] == ["no-such-engine"]


def test_ping_and_asking_for_the_table_again(client: TestClient) -> None:
    table, t0, _t1 = _two_people(client)
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, t0)
        first = ws.receive_json()
        ws.send_json({"type": "ping", "id": 7})
        ws.send_json({"type": "table"})
        answers = [ws.receive_json() for _ in range(3 if first["turn"] == 0 else 2)]
        assert {"type": "pong", "id": 7} in answers
        again = next(a for a in answers if a["type"] == "table")
        assert again == first  # the same table, whole: what a reconnecting page gets
    assert client.get("/").status_code == 200
    assert client.get(f"/t/{table}").headers["content-type"].startswith("text/html")
    assert "connectTable" in client.get("/static/table.js").text


def test_the_number_of_tables_is_bounded(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chickenfoot.server import _hub

    monkeypatch.setattr(_hub, "MAX_TABLES", len(hub_of(client).tables) + 1)
    table, t0, _t1 = _two_people(client)
    with client.websocket_connect(f"/ws/{table}") as ws:  # the table is in use
        hello(ws, t0)
        r = client.post("/api/play", json={"players": 2})
        assert r.status_code == 400 and "tables already" in r.json()["error"]
    # idle now (no connection, nothing to play): it leaves memory for a new table
    deadline = time.monotonic() + 30
    while hub_of(client).playing:  # its forced moves, if any, are played
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert client.post("/api/play", json={"players": 2}).status_code == 200
    assert table not in hub_of(client).tables
    assert client.get(f"/t/{table}").status_code == 200  # and opens again from the database


def test_a_go_is_the_engine_protocols_so_a_library_agent_plays_a_seat_remotely(
    client: TestClient,
) -> None:
    from chickenfoot import View
    from chickenfoot.agents import GreedyAgent

    seats = [{"kind": "person"}, {"kind": "bot", "spec": "random"}]
    made = make_table(client, seats, **SMALL)
    agent, answered, sent = GreedyAgent(), 0, {}
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, token_of(made, 0))
        while True:
            message = ws.receive_json()
            if message["type"] == "table" and message["over"]:
                break
            if message["type"] == "error" and "too many messages" in message["message"]:
                time.sleep(0.2)  # a seat plays its forced moves too: faster than 10 a second
                ws.send_json(sent)
            if message["type"] != "go":
                continue
            assert set(message) >= {"type", "view", "legal", "time_ms", "id"}
            view = View.from_dict(message["view"])  # a chickenfoot/view document, checked
            assert view.seat == 0 and message["legal"] == [m.notation() for m in view.legal_moves]
            move = agent.choose(view, view.legal_moves, random.Random(0))
            sent = {"type": "move", "move": move.notation(), "id": message["id"]}
            ws.send_json(sent)
            answered += 1
    assert answered > 5


def test_a_socket_closed_under_the_writer_ends_the_connection_quietly() -> None:
    # Found by the websocket fuzz target: a client gone while a message was being sent
    # left the writer task failing ("Task exception was never retrieved" and a traceback
    # on the server's standard error). A client going away is ordinary.
    import asyncio

    from anyio import ClosedResourceError

    from chickenfoot.server._announce import Connection
    from chickenfoot.server._socket import write

    class Gone:
        async def send_text(self, text: str) -> None:
            raise ClosedResourceError

    async def run() -> Connection:
        connection = Connection(0)
        connection.put({"type": "table"})
        await asyncio.wait_for(write(Gone(), connection, 1.0), 5)  # type: ignore[arg-type]
        return connection

    assert asyncio.run(run()).dropped


def test_a_message_id_is_sent_back_only_as_a_number(client: TestClient) -> None:
    # Found by the websocket fuzz target: the id of a refused message or a ping was sent
    # back as the client gave it, so a structure 900 deep came back deeper (one level more,
    # past what the client's own json module decodes).
    table, t0, _t1 = _two_people(client)
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, t0)
        deep = "[" * 900 + "0" + "]" * 900  # as text; deep, yet JSON the server reads
        ws.send_text('{"type": "ping", "id": ' + deep + "}")
        ws.send_text('{"type": "nonsense", "id": {"a": ' + deep + "}}")
        ws.send_json({"type": "ping", "id": 41})
        answers = []
        while len(answers) < 3:
            message = ws.receive_json()
            if message["type"] in ("pong", "error"):
                answers.append((message["type"], message.get("id")))
        assert answers == [("pong", None), ("error", None), ("pong", 41)]
