"""The end of a round and of a match at a ``chickenfoot serve`` table: every hand revealed
once (and only once) the round is over, the next round waiting for the people (or the
end of a countdown), a rematch at the same table, and names people can tell apart."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from chickenfoot.server import create_app
from chickenfoot.server._hub import Hub
from server_helpers import TILE, hello, make_table, receive, round_ends, token_of

SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 2}}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "t.db", round_pause=60.0)) as c:
        yield c


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def play(
    client: TestClient, table: str, sockets: dict[int, Any], until: Any
) -> list[dict[str, Any]]:
    """Play the people's seats (``sockets``) with random legal moves until ``until(table)``
    holds; returns every message the first socket received meanwhile."""
    t = hub_of(client).tables[table]
    rng = random.Random(3)
    first = min(sockets)
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    while not until(t):
        assert time.monotonic() < deadline, "the table did not get there"
        turn = t.turn
        if turn not in sockets or t.paused:
            time.sleep(0.01)  # a bot's move, or the next round waiting
            continue
        while True:  # the go of this very position
            message = receive(sockets[turn])
            if turn == first:
                seen.append(message)
            if message["type"] == "go" and message["id"] == t.n:
                break
        n = t.n
        sockets[turn].send_json({"type": "move", "move": rng.choice(message["legal"]), "id": n})
        while t.n == n:
            time.sleep(0.005)
    return seen


def latest(ws: Any, check: Any) -> dict[str, Any]:
    """The next ``table`` message for which ``check`` holds."""
    for _ in range(500):
        message: dict[str, Any] = receive(ws)
        if message["type"] == "table" and check(message):
            return message
    raise AssertionError("no such table message")


def test_a_round_end_reveals_every_hand_then_waits_for_the_person(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person", "name": "Ann"}, {"kind": "bot"}], **SMALL)
    table = made["table"]
    t = hub_of(client).tables[table]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, token_of(made, 0))
        seen = play(client, table, {0: ws}, lambda t: t.paused)
        # no hand of the round in play is revealed: nothing before its end
        assert all(m.get("last_round") is None for m in seen if m["type"] == "table")
        paused = latest(ws, lambda m: m["pause"] is not None)
        end = paused["last_round"]
        ((hands, board),) = round_ends(hub_of(client).store, table)
        assert end["round"] == 0 and end["hands"] == hands
        assert end["penalties"] == paused["scores"][0]
        assert end["out"] is None or end["hands"][end["out"]] == []
        named = {
            f"{max(int(a), int(b))}-{min(int(a), int(b))}" for a, b in TILE.findall(json.dumps(end))
        }
        assert named <= board | {tile for hand in hands for tile in hand}  # nothing else
        assert 0 < paused["pause"]["seconds"] <= 60 and paused["pause"]["ready"] == []
        # the round dealt waits: no go, no move taken, the bots wait too
        n = t.n
        ws.send_json({"type": "move", "move": "draw", "id": n})
        error = receive(ws)
        while error["type"] != "error":
            assert error["type"] == "table", error  # never a go during the pause
            error = receive(ws)
        assert "next round has not started" in error["message"]
        assert t.n == n and t.paused
        # the only person connected says next: the round starts
        ws.send_json({"type": "next"})
        resumed = latest(ws, lambda m: m["pause"] is None and m["round"] == 1)
        assert resumed["last_round"]["hands"] == hands  # still sent, for the page to keep...
        n = t.n
        moved = latest(ws, lambda m: m["n"] > n)
        assert "hands" not in moved["last_round"] and "svg" not in moved["last_round"]  # ...once
        play(client, table, {0: ws}, lambda t: t.round is None)
        over = latest(ws, lambda m: m["over"])
        ends = round_ends(hub_of(client).store, table)
        assert over["last_round"]["round"] == 1 and over["last_round"]["hands"] == ends[1][0]
        assert over["pause"] is None and over["rematch"] == []
        old_seed = t._seed
        ws.send_json({"type": "rematch"})
        again = latest(ws, lambda m: not m["over"])
        assert again["round"] == 0 and again["last_round"] is None and again["scores"] == []
        assert [s["name"] for s in again["seats"]] == [s["name"] for s in over["seats"]]
        assert t._seed != old_seed
        for _ in range(200):  # the store is a move ahead of the table, for a moment
            if hub_of(client).store.moves(table) == t.moves:
                break
            time.sleep(0.005)
        assert hub_of(client).store.moves(table) == t.moves  # the old match's moves gone
    # the same link still plays the seat, and the table restores to the new match
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, token_of(made, 0))["seat"] == 0
    deadline = time.monotonic() + 10
    while t.turn != 0 or hub_of(client).store.moves(table) != t.moves:
        assert time.monotonic() < deadline  # the bot's moves played
        time.sleep(0.01)
    restored = Hub(hub_of(client).store)
    restored.restore()
    assert restored.tables[table].match.round == t.match.round


def test_the_next_round_waits_for_every_person_connected(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person"}, {"kind": "person"}], **SMALL)
    table = made["table"]
    t = hub_of(client).tables[table]
    with (
        client.websocket_connect(f"/ws/{table}") as a,
        client.websocket_connect(f"/ws/{table}") as b,
    ):
        hello(a, token_of(made, 0))
        hello(b, token_of(made, 1))
        play(client, table, {0: a, 1: b}, lambda t: t.paused)
        a.send_json({"type": "next"})
        assert latest(a, lambda m: m["pause"] is not None and m["pause"]["ready"] == [0])
        assert t.paused  # seat 1 is connected and has not said so yet
        b.send_json({"type": "next"})
        # (a table of round 0 may still wait in b's queue: the round dealt is round 1)
        assert latest(b, lambda m: m["pause"] is None and m["round"] == 1)
        assert not t.paused


def test_the_pause_ends_by_itself(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db", round_pause=0.2)) as client:
        made = make_table(client, [{"kind": "person"}, {"kind": "bot"}], **SMALL)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token_of(made, 0))
            play(client, table, {0: ws}, lambda t: t.paused)
            assert latest(ws, lambda m: m["pause"] is None and m["round"] == 1)


def test_next_and_rematch_out_of_place_are_refused(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person"}, {"kind": "bot"}], **SMALL)
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, token_of(made, 0))
        for kind, why in [("next", "no round is waiting"), ("rematch", "when the match is over")]:
            ws.send_json({"type": kind})
            message = receive(ws)
            while message["type"] != "error":
                message = receive(ws)
            assert why in message["message"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, None)
        ws.send_json({"type": "rematch"})
        message = receive(ws)
        while message["type"] != "error":
            message = receive(ws)
        assert "only the people at the table" in message["message"]


def test_seats_have_names_people_can_tell_apart(client: TestClient) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ann"}]
    seats += [{"kind": "bot", "spec": "heuristic"}, {"kind": "bot", "spec": "heuristic"}]
    made = make_table(client, seats, players=4)
    names = [s["name"] for s in made["seats"]]
    assert names[:2] == ["Ann", "Ann 2"] and len(set(names)) == 4
    quick = client.post("/api/play", json={"players": 4}, headers={"origin": "http://testserver"})
    assert len({s["name"] for s in quick.json()["seats"]}) == 4


def test_the_seat_to_act_sees_where_its_moves_go_and_no_one_else_does(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person"}, {"kind": "person"}], **SMALL)
    table = made["table"]
    t = hub_of(client).tables[table]
    for _ in range(50):  # until the seat to act has a tile to lay (people draw for themselves)
        turn = t.turn
        with (
            client.websocket_connect(f"/ws/{table}") as mover,
            client.websocket_connect(f"/ws/{table}") as other,
            client.websocket_connect(f"/ws/{table}") as watcher,
        ):
            hello(mover, token_of(made, turn))
            hello(other, token_of(made, 1 - turn))
            hello(watcher, None)
            mine = receive(mover)
            go = receive(mover)
            assert go["type"] == "go"
            plays = sorted(m for m in go["legal"] if "@" in m)
            # the go holds the seat's places, to lay over the picture everyone gets
            assert sorted(_targets("".join(go["targets"]))) == plays
            assert _targets(mine["svg"]) == []
            assert receive(other)["svg"] == receive(watcher)["svg"] == mine["svg"]
            if plays:
                return
            n = t.n
            mover.send_json({"type": "move", "move": go["legal"][0], "id": go["id"]})
            while t.n == n:
                time.sleep(0.005)
    raise AssertionError("no seat had a tile to lay in 50 moves")


def _targets(picture: str) -> list[str]:
    import re

    return re.findall(r'<g class="target" data-move="([^"]+)"', picture)


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_and_a_spectator_see_each_finished_round_as_it_ended_and_nothing_more(
    tmp_path: Path, players: int
) -> None:
    """Every ``last_round`` sent over whole matches (no pause) is the round's end as the
    record replays it: its hands, and no tile but those and the final board's."""
    from server_helpers import play_seat

    seats = [{"kind": "person", "name": "Ann"}]
    seats += [{"kind": "bot", "spec": spec} for spec in ["greedy", "random"][: players - 1]]
    with TestClient(create_app(tmp_path / "t.db")) as client:
        made = make_table(client, seats, **SMALL)
        table = made["table"]
        with (
            client.websocket_connect(f"/ws/{table}") as watcher,
            client.websocket_connect(f"/ws/{table}") as ws,
        ):
            hello(watcher, None)
            hello(ws, token_of(made, 0))
            texts = list(play_seat(ws, random.Random(players)))
            while True:  # the spectator's messages, to the match's end
                message = receive(watcher)
                texts.append(json.dumps(message))
                if message["type"] == "table" and message["over"]:
                    break
        ends = round_ends(hub_of(client).store, table)
    revealed = 0
    for text in texts:
        end = json.loads(text).get("last_round")
        if not end or "hands" not in end:
            continue
        hands, board = ends[end["round"]]
        assert end["hands"] == hands
        named = {
            f"{max(int(a), int(b))}-{min(int(a), int(b))}" for a, b in TILE.findall(json.dumps(end))
        }
        assert named <= board | {tile for hand in hands for tile in hand}
        revealed += 1
    assert revealed >= 2  # each round's end was seen (by the seat and the spectator)
