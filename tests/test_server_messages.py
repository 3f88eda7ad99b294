"""What a table's connections are sent after a move: only what changed, each message made
once, the picture drawn once, and the table a page keeps from them is the whole table.

A page's client (``afterMove`` in ``server/static/table.js``, mirrored by
``tests/table_client.py``) applies each ``moved`` message to the table it holds; these
tests check that what it then shows is, field by field, the ``table`` message the server
would send at that moment, for every seat and a spectator, over whole matches.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
from collections.abc import Callable
from typing import Any

import pytest

import chickenfoot.server._announce as announce
import chickenfoot.server._table as table_module
from chickenfoot.server._announce import Connection
from chickenfoot.server._hub import Hub
from chickenfoot.server._store import open_store
from chickenfoot.server._table import Table, picture_patch
from table_client import Follower

P = {"kind": "person"}
B = {"kind": "bot", "spec": "random"}


class Checked(Connection):
    """A connection that follows what it is sent as a page would, and at each message
    keeps the whole table the server would send it then (``expected``)."""

    def __init__(self, hub: Hub, table: Table, seat: int | None, *, picture: bool) -> None:
        super().__init__(seat, picture=picture)
        self.hub, self.table = hub, table
        self.follower = Follower()
        self.texts: list[str] = []
        self.pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def put(self, message: str | dict[str, Any] | None) -> None:
        if message is None:
            return
        text = message if isinstance(message, str) else json.dumps(message)
        self.texts.append(text)
        shown = self.follower.take(text)
        if shown is not None:
            expected = self.table.state_message(
                self.seat, self.hub.connected(self.table.id), picture=self.picture
            )
            self.pairs.append((shown, expected))


def _comparable(table: dict[str, Any]) -> dict[str, Any]:
    """A table message without what a ``moved`` message does not keep current: the view
    but its hand and drawn tile, and the seconds left of a pause (a clock)."""
    out = dict(table)
    if out.get("view") is not None:
        out["view"] = {"hand": out["view"]["hand"], "drawn": out["view"]["drawn"]}
    if out.get("pause"):
        out["pause"] = {**out["pause"], "seconds": None}
    return out


async def _play(
    request: dict[str, Any],
    seed: int,
    picture: bool,
    watchers: int = 1,
    started: Callable[[], object] = lambda: None,
) -> Any:
    """Play a whole match, people answering their go with a random legal move
    (``started`` is called once everyone has joined, before the first move)."""
    hub = Hub(open_store(":memory:"))
    table, tokens = hub.create(request)
    hub.store.restart(table.id, seed)  # the same deal every run (a new table's is secret)
    table.restart(seed)
    conns = [Checked(hub, table, None, picture=picture) for _ in range(watchers)]
    conns += [Checked(hub, table, s, picture=picture) for s, t in enumerate(tokens) if t]
    for c in conns:
        hub.join(table.id, c)
    started()
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    try:
        while table.round is not None:
            assert loop.time() < deadline and table.error is None
            seat = table.turn
            if seat is not None and table.seats[seat].kind == "person" and not table.paused:
                go = table.go_message(seat)
                assert go is not None
                move = {"type": "move", "move": rng.choice(go["legal"]), "id": go["id"]}
                await hub.person_moves(table.id, seat, move)
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
    finally:
        await hub.close()
    return table, conns


REQUESTS = [
    {"preset": "house", "players": 2, "seats": [P, P], "rules": {"match": {"rounds": 2}}},
    {"preset": "house", "players": 4, "seats": [P, B, P, B], "rules": {"match": {"rounds": 1}}},
    {"preset": "classic", "players": 3, "seats": [B, P, B], "rules": {"max_pip": 6}},
]


@pytest.mark.parametrize("picture", [True, False])
@pytest.mark.parametrize(("request_", "seed"), [(r, i) for i, r in enumerate(REQUESTS)])
def test_a_page_keeps_the_whole_table_from_what_changed(
    request_: dict[str, Any], seed: int, picture: bool
) -> None:
    table, conns = asyncio.run(_play(request_, seed, picture))
    for c in conns:
        moved = sum(json.loads(t)["type"] == "moved" for t in c.texts)
        assert moved > table.n // 2  # most moves came as what changed...
        for i, (shown, expected) in enumerate(c.pairs):  # ...and the page shows the table
            assert _comparable(shown) == _comparable(expected), (c.seat, i)
        if picture:  # the picture a page builds is the one the server draws
            assert c.pairs[-2][0]["svg"] == c.pairs[-2][1]["svg"]
        else:
            assert all(shown["svg"] is None for shown, _ in c.pairs)


def test_a_move_is_told_in_a_few_kilobytes_not_the_whole_table() -> None:
    _table, conns = asyncio.run(_play(REQUESTS[1], 1, True))
    for c in conns:
        sizes = [len(t) for t in c.texts if json.loads(t)["type"] == "moved"]
        end = max(len(t) for t in c.texts if json.loads(t)["type"] == "table")
        # a move changes a few lines of the picture (its tile, the outline of the last
        # tile, the captions); when a new double makes room for its foot, the lines below
        # it move too, and the change is most of the picture, still under the whole table
        assert statistics.median(sizes) < 3000 and statistics.median(sizes) * 8 < end, sizes
        assert max(sizes) < end


def test_each_message_is_encoded_once_and_the_picture_drawn_once_per_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counts = {"encode": 0, "svg": 0}
    real_encode, real_svg = announce.encode, table_module.svg

    def encode(message: dict[str, Any]) -> str:
        counts["encode"] += 1
        return real_encode(message)

    def svg(*args: Any, **kwargs: Any) -> str:
        counts["svg"] += 1
        return real_svg(*args, **kwargs)

    monkeypatch.setattr(announce, "encode", encode)
    monkeypatch.setattr(table_module, "svg", svg)
    for watchers in (1, 20):
        request = {
            "preset": "house",
            "players": 2,
            "seats": [P, P],
            "rules": {"match": {"rounds": 1}},
        }
        started = lambda: counts.update(encode=0, svg=0)  # noqa: E731 - once all joined
        table, _conns = asyncio.run(_play(request, 7, True, watchers, started))
        n = table.n
        # Per move within the round: the moved message of the seat that moved, the one of
        # everyone else, the go of the person to act: 3, however many connections (20
        # spectators encoded one by one would be 20 a move). The last move ends the match:
        # a whole table for each seat and for the spectators, 3 again, and no go.
        assert counts["encode"] <= 3 * n, (watchers, counts, n)
        # The picture: once after each move within the round, and the final board once.
        assert counts["svg"] <= n, (watchers, counts, n)


def test_no_picture_is_drawn_for_connections_that_show_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[int] = []
    real_svg = table_module.svg
    monkeypatch.setattr(table_module, "svg", lambda *a, **k: drawn.append(1) or real_svg(*a, **k))
    request = {"preset": "house", "players": 2, "seats": [P, P], "rules": {"match": {"rounds": 1}}}
    table, conns = asyncio.run(_play(request, 3, False))
    assert table.round is None and len(drawn) == 1  # the round's final board only
    assert all('"svg"' not in t or '"svg":null' in t for c in conns for t in c.texts[:-1])


def test_a_picture_patch_rebuilds_the_picture() -> None:
    before = ["<svg>", "a", "b", "c", "b", "</svg>"]
    for after in (
        before,
        ["<svg>", "x", "</svg>"],
        ["<svg>", "c", "b", "a", "b", "</svg>", "</svg>"],
        [],
        ["<svg>", "a", "b", "new", "c", "b", "</svg>"],
    ):
        parts = picture_patch(before, after)
        rebuilt = [
            line
            for p in parts
            for line in ([p] if isinstance(p, str) else before[p[0] : p[0] + p[1]])
        ]
        assert rebuilt == after
    assert picture_patch(before, before) == [[0, 6]]
