"""``chickenfoot serve`` deals checkable rounds (issue 47, item 4; docs/serve.md).

A table's secret has 128 bits; round ``k`` is dealt from ``round_seed(secret, k)``. Every
message carries the commitment of the round in play from its deal on; a round's seed is in
no message before that round is over (the secret in none at all), and once it is, the seed
opens the commitment and deals the round that was played.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import chickenfoot.server._hub
from chickenfoot.commitment import check_commitment, commitment, round_seed
from chickenfoot.deal import deal
from chickenfoot.server._announce import Connection
from chickenfoot.server._hub import Hub
from chickenfoot.server._requests import rules_of
from chickenfoot.server._store import open_store

P, B = {"kind": "person"}, {"kind": "bot", "spec": "random"}
REQUEST = {
    "preset": "house",
    "players": 3,
    "seats": [P, B, P],
    "rules": {"match": {"rounds": 3}, "max_pip": 6, "hand_size": 5},
}
SECRET = 2**127 + 0x5EED


class Recorder(Connection):
    """A connection that keeps every message put to it, as the wire carries it."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self.sent: list[str] = []

    def put(self, message: str | dict[str, Any] | None) -> None:
        if message is not None:
            text = message if isinstance(message, str) else json.dumps(message)
            self.sent.append(text)


async def _play(monkeypatch: pytest.MonkeyPatch) -> dict[int | None, Recorder]:
    """A whole match of three rounds: the people answer each ``go`` with its first move."""
    monkeypatch.setattr(chickenfoot.server._hub, "fresh_seed", lambda: SECRET)
    hub = Hub(open_store(":memory:"))
    table, tokens = hub.create(REQUEST)
    assert table.seed == SECRET
    recorders: dict[int | None, Recorder] = {None: Recorder(None)}
    for seat, token in enumerate(tokens):
        if token is not None:
            recorders[seat] = Recorder(seat)
    for recorder in recorders.values():
        hub.join(table.id, recorder)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    answered: set[int] = set()
    try:
        while table.round is not None:
            assert table.error is None and loop.time() < deadline
            for who, recorder in recorders.items():
                for text in recorder.sent:
                    go = json.loads(text)
                    if go["type"] == "go" and go["id"] == table.n and go["id"] not in answered:
                        answered.add(go["id"])
                        move = {"type": "move", "move": go["legal"][0], "id": go["id"]}
                        await hub.person_moves(table.id, who, move)
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.01)
    finally:
        await hub.close()
    return recorders


def test_no_seat_hears_a_rounds_seed_before_it_ends_and_then_it_opens_the_commitment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = rules_of(REQUEST)
    recorders = asyncio.run(_play(monkeypatch))
    seeds = [round_seed(SECRET, k) for k in range(3)]
    for who, recorder in recorders.items():
        ended = -1  # the last round whose end this connection was told of
        shown: dict[int, str] = {}
        for text in recorder.sent:
            assert str(SECRET) not in text and hex(SECRET)[2:] not in text, who
            message = json.loads(text)
            last = message.get("last_round")
            if isinstance(last, dict):
                ended = max(ended, last["round"])
            for k, seed in enumerate(seeds):
                if str(seed) in text:
                    assert k <= ended, f"round {k}'s seed sent to {who} before its end"
            if message["type"] == "table" and message["commitment"] is not None:
                k = message["round"]
                assert message["commitment"] == commitment(rules, seeds[k], round=k)
                if k not in shown and who is not None:  # the round's first table: its deal
                    dealt = deal(rules, seeds[k], k)
                    assert set(message["view"]["hand"]) == {str(t) for t in dealt.hand(who)}
                shown[k] = message["commitment"]
            if isinstance(last, dict) and "seed" in last:
                k = last["round"]
                assert last["seed"] == str(seeds[k]) and last["commitment"] == shown[k]
                assert check_commitment(last["commitment"], rules, int(last["seed"]), round=k)
        assert ended == 2, who  # told of every round's end
        assert len(shown) == 3, who  # a commitment per round, from its deal on


def test_new_tables_get_fresh_128_bit_secrets_that_survive_the_sqlite_store(
    tmp_path: Any,
) -> None:
    path = str(tmp_path / "tables.db")

    async def create() -> list[tuple[str, int]]:
        hub = Hub(open_store(path))
        people = {**REQUEST, "seats": [P, P, P]}
        try:
            return [(t.id, t.seed) for t, _tokens in (hub.create(people) for _ in range(8))]
        finally:
            await asyncio.sleep(0.01)
            await hub.close()

    made = asyncio.run(create())
    seeds = {seed for _id, seed in made}
    assert len(seeds) == 8 and max(s.bit_length() for s in seeds) > 120
    store = open_store(path)
    stored = {t.id: t.seed for t in store.tables(ids=[i for i, _seed in made])}
    assert stored == dict(made)
    store.restart(made[0][0], SECRET)  # a rematch's secret too
    assert store.tables(ids=[made[0][0]])[0].seed == SECRET
    store.close()


def test_the_play_page_deals_from_a_fresh_seed_and_reveals_it_only_at_the_end() -> None:
    """The Play page's worker (docs/play/tableplay.py) runs the server's table: a fresh
    128-bit secret, the commitment from the deal on, the seed in the round's end only."""
    play = Path(__file__).resolve().parent.parent / "docs" / "play"
    sys.path.insert(0, str(play))
    try:
        from tableplay import Game
    finally:
        sys.path.remove(str(play))
    games = [Game(players=3, bot="greedy", rounds=1) for _ in range(4)]
    assert len({g.table.seed for g in games}) == 4
    assert max(g.table.seed.bit_length() for g in games) > 120
    game = games[0]
    seed = round_seed(game.table.seed, 0)
    texts = list(json.loads(game.hello()))
    while game.table.round is not None:
        if game.bot_due():
            texts += json.loads(game.bot_move())
        else:
            go = game.table.go_message(0)
            assert go is not None
            move = json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]})
            texts += json.loads(game.receive(move))
    messages = [json.loads(t) for t in texts]
    ended = next(i for i, m in enumerate(messages) if (m.get("last_round") or {}).get("seed"))
    rules = game.table.rules
    tables = [m for m in messages[:ended] if m["type"] == "table"]
    assert tables and all(m["commitment"] == commitment(rules, seed) for m in tables)
    assert not any(str(seed) in t for t in texts[:ended])
    assert str(game.table.seed) not in "".join(texts)
    assert messages[ended]["last_round"]["seed"] == str(seed)
    assert check_commitment(tables[0]["commitment"], rules, seed)
