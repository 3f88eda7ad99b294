"""Hints and the review after a round in ``chickenfoot serve`` (docs/serve.md, "Hints and
reviews"): a table option told to everyone, answered to the asking seat only, from its own
view; refused clearly where the table forbids it; nothing about it reaches anyone else."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import chickenfoot.server._hub as hub_module
from chickenfoot import State
from chickenfoot.match import Match
from chickenfoot.server import create_app
from chickenfoot.server._coach import Coach, hint_of
from server_helpers import ORIGIN, hello, make_table, token_of

SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 1}}}
FAST = {"hint_iterations": 16, "review_iterations": 8, "backend": "python"}


def _app(db: Path) -> Any:
    app = create_app(db)
    app.state.hub.coach = Coach(**FAST)
    return app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(_app(tmp_path / "t.db")) as c:
        yield c


def _people(client: TestClient, n: int = 2, **options: Any) -> dict[str, Any]:
    return make_table(client, [{"kind": "person"} for _ in range(n)], **SMALL, **options)


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (others skipped, an error returned as it is)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in (kind, "error"):
            return message


def _quiet(ws: Any) -> list[str]:
    """Every message sent to ``ws`` until the answer to a ping (what it was sent meanwhile)."""
    ws.send_json({"type": "ping", "id": "quiet"})
    seen = []
    while True:
        text = ws.receive_text()
        if json.loads(text).get("id") == "quiet":
            return seen
        seen.append(text)


def test_hints_are_off_unless_the_table_is_made_with_them(client: TestClient) -> None:
    off = _people(client)
    r = client.post("/api/tables", headers={"origin": ORIGIN},
                    json={"players": 2, "seats": [{"kind": "person"}] * 2, "hints": "yes"})  # fmt: skip
    assert r.status_code == 400
    assert r.json() == {"error": "hints must be true or false, not 'yes'"}
    turn = client.app.state.hub.tables[off["table"]].turn  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{off['table']}") as ws:
        hello(ws, token_of(off, turn))
        assert _next(ws, "table")["hints"] is False
        ws.send_json({"type": "hint", "id": 7})
        refused = _next(ws, "hint")
    assert refused == {
        "type": "error",
        "message": "refused: hints are off at this table: it was made without them",
        "code": 4400,
        "id": 7,
    }


def test_hints_on_are_told_to_every_seat_and_spectator(client: TestClient) -> None:
    made = _people(client, hints=True)
    for token in (token_of(made, 0), token_of(made, 1), None):
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, token)
            assert _next(ws, "table")["hints"] is True
    r = client.post("/api/play", json={"players": 2, "hints": True}, headers={"origin": ORIGIN})
    assert client.app.state.hub.tables[r.json()["table"]].hints  # type: ignore[attr-defined]


def test_a_hint_comes_at_the_seats_turn_to_that_seat_only(client: TestClient) -> None:
    made = _people(client, hints=True)
    table = client.app.state.hub.tables[made["table"]]  # type: ignore[attr-defined]
    me, other = table.turn, 1 - table.turn
    with (
        client.websocket_connect(f"/ws/{made['table']}") as watcher,
        client.websocket_connect(f"/ws/{made['table']}") as them,
        client.websocket_connect(f"/ws/{made['table']}") as ws,
    ):
        hello(watcher, None)
        hello(them, token_of(made, other))
        hello(ws, token_of(made, me))
        go = _next(ws, "go")
        _quiet(watcher), _quiet(them)
        them.send_json({"type": "hint"})
        assert (
            _next(them, "hint")["message"]
            == f"refused: a hint is given at your turn only (it is seat {me}'s)"
        )
        watcher.send_json({"type": "hint"})
        assert (
            _next(watcher, "hint")["message"]
            == "refused: a spectator gets no hints: hints are for the seat to act"
        )
        ws.send_json({"type": "hint"})
        hint = _next(ws, "hint")
        assert hint["type"] == "hint" and hint["n"] == go["id"] and hint["move"] in go["legal"]
        assert hint["deals"] == FAST["hint_iterations"] and 0 <= hint["win"] <= 1
        assert _quiet(watcher) == [] and _quiet(them) == []  # nothing, not even that it asked


def _twins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, twin: bool, ask: bool
) -> tuple[list[str], dict[str, Any] | None]:
    """Three people at a table; seat 2's hidden tiles swapped with the boneyard's (``twin``):
    the same public history, the same hand for seat 0 and seat 1. Seat 0 asks for a hint
    (``ask``) and plays its first legal move; what seat 1 and a spectator were sent, and
    the hint."""
    ids = iter(f"id-{i}" for i in range(100))
    monkeypatch.setattr(hub_module, "fresh_seed", lambda: 4848)
    monkeypatch.setattr(hub_module.secrets, "token_urlsafe", lambda n=None: next(ids))
    with TestClient(_app(tmp_path / f"{twin}-{ask}.db")) as client:
        made = make_table(client, [{"kind": "person"}] * 3, preset="house", players=3, hints=True)
        t = client.app.state.hub.tables[made["table"]]  # type: ignore[attr-defined]
        s, m = t.round, t.match
        if twin:
            hands = [list(h) for h in s.hands]
            bone = list(s.boneyard)
            hands[2][0], bone[0] = bone[0], hands[2][0]
            s = State.setup(s.rules, hands=hands, boneyard=bone, centre=s.centre, turn=s.turn)
            t.match = Match(m.rules, m.seed, m.scores, s, last_round=m.last_round)
        assert s.turn == 0
        seen: list[str] = []
        with (
            client.websocket_connect(f"/ws/{made['table']}") as watcher,
            client.websocket_connect(f"/ws/{made['table']}") as them,
            client.websocket_connect(f"/ws/{made['table']}") as ws,
        ):
            hello(watcher, None)
            hello(them, token_of(made, 1))
            hello(ws, token_of(made, 0))
            go = _next(ws, "go")
            hint = None
            if ask:
                ws.send_json({"type": "hint"})
                hint = _next(ws, "hint")
            ws.send_json({"type": "move", "move": go["legal"][0], "id": go["id"]})
            _next(ws, "moved")
            seen = _quiet(watcher) + ["--"] + _quiet(them)
    return seen, hint


def test_hidden_twins_get_the_same_hint_and_the_others_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    asked, hint = _twins(monkeypatch, tmp_path, twin=False, ask=True)
    twin_asked, twin_hint = _twins(monkeypatch, tmp_path, twin=True, ask=True)
    not_asked, _ = _twins(monkeypatch, tmp_path, twin=True, ask=False)
    assert hint is not None and hint == twin_hint  # from seat 0's own view only
    assert len(asked) > 4 and asked == twin_asked == not_asked


def test_a_hint_is_the_same_for_views_that_cannot_be_told_apart() -> None:
    from chickenfoot import Rules, deal

    s = deal(Rules(players=3, max_pip=6, hand_size=5), seed=3)
    hands, bone = [list(h) for h in s.hands], list(s.boneyard)
    hands[1][0], bone[0] = bone[0], hands[1][0]
    twin = State.setup(s.rules, hands=hands, boneyard=bone, centre=s.centre, turn=s.turn)
    assert twin != s and twin.view(s.turn) == s.view(s.turn)
    one = hint_of(s.view(s.turn), iterations=12, seed=5, backend="python")
    assert one == hint_of(twin.view(s.turn), iterations=12, seed=5, backend="python")


def _play_out(ws: Any, rng: random.Random) -> dict[str, Any]:
    """Play this seat's moves at random until the match is over; the last table."""
    ws.send_json({"type": "table"})  # the table again, and the go if it is to choose
    while True:
        message = ws.receive_json()
        if message["type"] == "go":
            ws.send_json(
                {"type": "move", "move": rng.choice(message["legal"]), "id": message["id"]}
            )
        elif message["type"] == "table" and message["over"]:
            return dict(message)


def test_each_seat_reviews_its_own_decisions_biggest_loss_first(client: TestClient) -> None:
    made = make_table(client, [{"kind": "person"}, {"kind": "bot", "spec": "random"}], **SMALL)
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        hello(ws, token_of(made, 0))
        ws.send_json({"type": "review"})
        early = _next(ws, "review")
        assert (
            early["message"]
            == "refused: no round of this match has finished yet: nothing to review"
        )
        end = _play_out(ws, random.Random(48))
        ws.send_json({"type": "review", "round": 3})
        assert (
            _next(ws, "review")["message"]
            == "refused: only the last finished round (round 0) can be reviewed"
        )
        ws.send_json({"type": "review", "round": 0})
        review = _next(ws, "review")
    assert end["last_round"]["round"] == 0
    assert review["type"] == "review" and review["round"] == 0 and review["seat"] == 0
    assert review["decisions"] >= len(review["lost"]) >= 1
    losses = [d["loss"] for d in review["lost"]]
    assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
    mine = {m for s, m, _f in client.app.state.hub.tables[made["table"]].moves if s == 0}  # type: ignore[attr-defined]
    for d in review["lost"]:
        assert d["move"] in mine and d["move"] != d["best"]
        assert d["svg"].startswith("<svg")
        if "@" in d["best"]:  # the better move's place is drawn on the picture of that moment
            assert f'data-move="{d["best"]}"' in d["svg"]
    with client.websocket_connect(f"/ws/{made['table']}") as watcher:
        hello(watcher, None)
        watcher.send_json({"type": "review"})
        assert _next(watcher, "review")["message"] == (
            "refused: a spectator has no review: a review is of a seat's own decisions"
        )


def test_the_hints_option_is_stored_and_restored(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path / "t.db")) as client:
        on, off = _people(client, hints=True)["table"], _people(client)["table"]
    with TestClient(_app(tmp_path / "t.db")) as client:
        tables = client.app.state.hub.tables  # type: ignore[attr-defined]
        assert tables[on].hints is True and tables[off].hints is False


def test_a_hint_whose_seat_moved_on_meanwhile_is_dropped_unworked() -> None:
    # A hint waiting for its turn to be worked out (another seat's is) is dropped once its
    # seat has moved: it would keep the next seat's hint waiting, which tells that it asked.
    import asyncio

    from chickenfoot import Rounds, Rules
    from chickenfoot.server._announce import Connection
    from chickenfoot.server._store import SeatRow
    from chickenfoot.server._table import Table

    seats = (SeatRow(0, "person", "", "a", "Ann"), SeatRow(1, "person", "", "b", "Bo"))
    table = Table(
        "t", Rules(players=2, max_pip=6, hand_size=7, match=Rounds(1)), 5, seats, hints=True
    )
    coach = Coach(**FAST)

    async def run() -> list[Any]:
        connection = Connection(table.turn)
        slot = coach._slot("hint")
        await slot.acquire()  # another hint is being worked out
        coach.ask("hint", table, connection, {"type": "hint"})
        await asyncio.sleep(0.05)
        table.play(table.legal[0], forced=False)  # the seat moves on meanwhile
        slot.release()
        return [await asyncio.wait_for(connection.queue.get(), 10)]

    assert asyncio.run(run()) == [
        {"type": "error", "message": "the hint was dropped: you moved on"}
    ]
