"""``chickenfoot serve`` tells a seat only what the rules make public (docs: Serve, secrets).

The property: for two deals with the same public history that differ only in tiles hidden
from one seat (hidden twins, made with :meth:`View.sample_record`), every message the server
sends to that seat and to a spectator is the same, byte for byte, over whole matches, with
the same moves played in both (moves are public; each side's bots and people play them).
What a move says about its player's hand (that it was the only legal one, that a draw was
the only choice) goes to that seat only; a bot's forced move waits ``bot_delay`` like its
choices; a person plays their own forced move; a failing bot's reason stays in the log,
and an engine that cannot start fails at its first turn, not at its first choice.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
from collections.abc import Sequence
from typing import Any

import pytest

import chickenfoot.match
import chickenfoot.server._deals
import chickenfoot.server._hub
from chickenfoot import Rules
from chickenfoot.deal import deal
from chickenfoot.match import Match
from chickenfoot.moves import Move
from chickenfoot.server._announce import Connection
from chickenfoot.server._hub import Hub
from chickenfoot.server._requests import rules_of
from chickenfoot.server._store import open_store
from chickenfoot.server._table import Table, public_document
from chickenfoot.state import LegalMoves, State
from chickenfoot.view import View
from server_helpers import tiles_in
from table_client import Follower

# (the table request, the seat the twins hide tiles from, the seed of the deals and moves):
# a person at the hidden seat, people and bots elsewhere, whole matches of two rounds.
P, B = {"kind": "person"}, {"kind": "bot", "spec": "random"}
TWO = {"match": {"rounds": 2}, "max_pip": 6}
TWIN_TABLES = [
    (  # the house rules, three players
        {"preset": "house", "players": 3, "seats": [P, B, P], "rules": {**TWO, "hand_size": 5}},
        0,
        1,
    ),
    (  # a draw may be chosen instead of a play: then a draw is forced only with no play
        {
            "preset": "house",
            "players": 3,
            "seats": [B, P, P],
            "rules": {**TWO, "hand_size": 5, "may_draw_instead": True},
        },
        1,
        0,
    ),
    (  # classic, four players, draw until playable, a drawn tile may be kept
        {
            "preset": "classic",
            "players": 4,
            "seats": [P, B, P, B],
            "rules": {**TWO, "hand_size": 4, "draw": "until_playable", "drawn_tile": "may_play"},
        },
        2,
        1,
    ),
]


def _wire(message: dict[str, Any], table_id: str) -> str:
    """A message as the server's writer sends it, the table's (random) id made constant,
    and the hands a finished round reveals left out: once a round is over its hands are
    public by the rules (the penalties are counted from them), and they are the one thing
    twins may differ in then (tests/test_server_rounds.py checks that reveal by itself)."""
    last = message.get("last_round")
    if isinstance(last, dict) and "hands" in last:
        message = {**message, "last_round": {**last, "hands": "revealed"}}
    return json.dumps(message, separators=(",", ":")).replace(table_id, "TABLE")


class Recorder(Connection):
    """A connection that keeps every message put to it, in order, as sent."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self.sent: list[dict[str, Any]] = []
        self.times: list[float] = []

    def put(self, message: str | dict[str, Any] | None) -> None:
        if message is not None:
            self.sent.append(json.loads(message) if isinstance(message, str) else message)
            self.times.append(asyncio.get_running_loop().time())

    def events(self) -> list[dict[str, Any]]:
        """Every event of the round logs this connection was told of (once each)."""
        follower = Follower()
        for message in self.sent:
            follower.take(message)
        return follower.events


class Scripted:
    """A bot that plays the script's move at the table's move number (the same in both
    twins: moves are public)."""

    def __init__(self, table: Table, script: Sequence[str]) -> None:
        self.table, self.script = table, script

    def choose(self, view: View, legal: LegalMoves, rng: random.Random | None) -> Move:
        return next(m for m in legal if m.notation() == self.script[self.table.n])


def _script(rules: Rules, seed: int) -> tuple[list[str], list[State]]:
    """A whole match from ``deal(rules, seed, k)``, random legal moves: the moves (in
    notation, draws without their tile: what a player sends) and each round's final state."""
    rng = random.Random(seed)
    m = Match.start(rules, seed=seed)
    moves: list[str] = []
    finals: list[State] = []
    while m.round is not None:
        move = rng.choice(list(m.legal_moves))
        moves.append(move.notation())
        m = m.apply(move)
        if m.last_round is not None and (not finals or m.last_round is not finals[-1]):
            finals.append(m.last_round)
    return moves, finals


def _forced(start: State, moves: Sequence[str], seat: int) -> list[bool]:
    """Whether each move of the others than ``seat`` was forced (the only legal one)."""
    out, state = [], start
    for text in moves:
        if state.turn != seat:
            out.append(len(state.legal_moves) == 1)
        state = state.apply(text)
    return out


def _twin_deals(finals: Sequence[State], moves: Sequence[str], seat: int, seed: int) -> list[State]:
    """Each round dealt again, hiding other tiles from ``seat``: a random deal whose round,
    played with the same moves, gives ``seat`` the same view all along and the same
    penalties (which the end of a round makes public); one where another seat's move is
    forced in one deal and a choice in the other, if one is found."""
    rng = random.Random(seed)
    deals, done = [], 0
    for k, final in enumerate(finals):
        real = deal(final.rules, seed, k)
        mine = moves[done : done + len(final.history)]
        done += len(mine)
        forced = _forced(real, mine, seat)
        found = None
        for _ in range(2000):
            start = final.view(seat).sample_record(rng).start
            if start == real:
                continue
            state = start
            for text in mine:
                state = state.apply(text)
            if state.penalties() != final.penalties():
                continue
            found = start
            if _forced(start, mine, seat) != forced:
                break
        assert found is not None, f"no hidden twin of round {k}"
        deals.append(found)
    return deals


def _dealing(monkeypatch: pytest.MonkeyPatch, deals: Sequence[State]) -> None:
    """From now on a match deals its round ``k`` as ``deals[k]``, whatever its seed (a
    table too, which deals each round from its own seed), and every table has the same
    seed: the twins' commitments are the same (a commitment differs between any two deals
    and says nothing of them: tests/test_server_commitment.py)."""
    monkeypatch.setattr(chickenfoot.match, "deal", lambda rules, seed, k=0: deals[k])
    monkeypatch.setattr(chickenfoot.server._deals, "deal", lambda rules, seed, k=0: deals[k])
    monkeypatch.setattr(chickenfoot.server._hub, "fresh_seed", lambda: 2**127 + 12345)


def _replay(
    rules: Rules, deals: Sequence[State], moves: Sequence[str], monkeypatch: pytest.MonkeyPatch
) -> list[Match]:
    """The match after each move, its rounds dealt from ``deals``."""
    _dealing(monkeypatch, deals)
    out = [Match.start(rules, seed=0)]
    for text in moves:
        out.append(out[-1].apply(text))
    return out


async def _serve(
    request: dict[str, Any],
    deals: Sequence[State],
    script: Sequence[str],
    monkeypatch: pytest.MonkeyPatch,
    bot_delay: float = 0.0,
) -> tuple[Table, dict[int | None, Recorder]]:
    """Play the script on a table of a hub (its rounds dealt from ``deals``): people answer
    their ``go`` with the script's move, bots are :class:`Scripted`. Returns the table and a
    recorder per person's seat and one spectator (``None``)."""
    _dealing(monkeypatch, deals)
    monkeypatch.setattr(Hub, "_agent", lambda self, table, seat: Scripted(table, script))
    hub = Hub(open_store(":memory:"), bot_delay=bot_delay)
    table, tokens = hub.create(request)
    recorders: dict[int | None, Recorder] = {None: Recorder(None)}
    for seat, token in enumerate(tokens):
        if token is not None:
            recorders[seat] = Recorder(seat)
    for recorder in recorders.values():  # all before any move: the play-on task waits
        hub.join(table.id, recorder)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    answered: set[int] = set()
    try:
        while table.round is not None:
            assert table.error is None, table.error
            assert loop.time() < deadline, "the match did not end"
            for who, recorder in recorders.items():
                for go in [m for m in recorder.sent if m["type"] == "go"]:
                    if go["id"] == table.n and go["id"] not in answered and table.turn == who:
                        answered.add(go["id"])
                        move = {"type": "move", "move": script[go["id"]], "id": go["id"]}
                        await hub.person_moves(table.id, who, move)
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.01)
    finally:
        await hub.close()
    return table, recorders


@pytest.mark.parametrize(("asked", "hidden", "seed"), TWIN_TABLES)
def test_hidden_twins_get_the_same_messages_byte_for_byte(
    asked: dict[str, Any], hidden: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = rules_of(asked)
    script, finals = _script(rules, seed)
    real = [deal(rules, seed, k) for k in range(len(finals))]
    twin = _twin_deals(finals, script, hidden, seed)
    # The twins are sound: the same moves are legal in both, and the hidden seat's view
    # and the public one are the same after every move...
    a = _replay(rules, real, script, monkeypatch)
    b = _replay(rules, twin, script, monkeypatch)
    for x, y in zip(a, b, strict=True):
        if x.round is None or y.round is None:
            assert x.round is None and y.round is None and x.scores == y.scores
            continue
        assert x.round.view(hidden) == y.round.view(hidden)
        other = (x.round.turn + 1) % rules.players
        assert public_document(x.round.view(other)) == public_document(y.round.view(other))
    # ...and they differ in what another seat's hand says: a move forced in one twin is a
    # choice in the other (the fact the server must not tell).
    assert any(
        (len(x.round.legal_moves) == 1) != (len(y.round.legal_moves) == 1)
        for x, y in zip(a, b, strict=True)
        if x.round is not None and y.round is not None and x.round.turn != hidden
    )
    sent = []
    for deals in (real, twin):
        table, recorders = asyncio.run(_serve(asked, deals, script, monkeypatch))
        assert table.n == len(script)
        sent.append({w: [_wire(m, table.id) for m in recorders[w].sent] for w in (hidden, None)})
    for who in (hidden, None):
        mine, theirs = sent[0][who], sent[1][who]
        assert len(mine) == len(theirs) > len(script)
        for i, (said, twin_said) in enumerate(zip(mine, theirs, strict=True)):
            assert said == twin_said, (
                f"message {i} to {'the spectator' if who is None else f'seat {who}'}"
            )


SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 5, "match": {"rounds": 1}}}


def test_a_bot_waits_bot_delay_before_every_move_forced_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = {**SMALL, "players": 2, "seats": [B, B]}
    rules = rules_of(request)
    script, _finals = _script(rules, 4)
    delay = 0.03
    table, recorders = asyncio.run(
        _serve(request, [deal(rules, 4, 0)], script, monkeypatch, bot_delay=delay)
    )
    forced = [f for _seat, _move, f in table.moves]
    assert any(forced) and not all(forced)  # the bots had choices and forced moves
    watched = recorders[None]
    times = [
        t
        for m, t in zip(watched.sent, watched.times, strict=True)
        if m["type"] in ("table", "moved")
    ]
    assert len(times) == len(script) + 1  # the table on joining, then one per move
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= delay - 0.001, [round(g, 3) for g in gaps]


def test_a_person_plays_their_own_forced_move_and_only_they_hear_it_was_forced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = {**SMALL, "players": 3, "seats": [P, B, P]}
    rules = rules_of(request)
    script, _finals = _script(rules, 5)
    table, recorders = asyncio.run(_serve(request, [deal(rules, 5, 0)], script, monkeypatch))
    for seat in (0, 2):
        mine = [n for n, (s, _move, f) in enumerate(table.moves) if s == seat and f]
        assert mine  # the person had forced moves...
        gos = {m["id"]: m["legal"] for m in recorders[seat].sent if m["type"] == "go"}
        assert all(len(gos[n]) == 1 for n in mine)  # ...and was asked for each: one move
        said = recorders[seat].events()
        assert {e["forced"] for e in said if e["seat"] == seat} == {True, False}
        assert {e["forced"] for e in said if e["seat"] != seat} == {None}
        assert not any("forced" in e["text"] for e in said if e["seat"] != seat)
    watched = recorders[None].events()
    assert watched and {e["forced"] for e in watched} == {None}
    assert not any("forced" in e["text"] or "only" in e["text"] for e in watched)


class Failing:
    """A bot that fails with a reason naming its hand (as an engine's error may)."""

    def choose(self, view: View, legal: LegalMoves, rng: random.Random | None) -> Move:
        raise ValueError(f"cannot choose from {' '.join(map(str, view.hand))}")


def test_a_failing_bots_reason_goes_to_the_log_not_to_the_table(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    request = {**SMALL, "players": 2, "seats": [B, P]}

    async def run() -> tuple[Table, Recorder]:
        monkeypatch.setattr(Hub, "_agent", lambda self, table, seat: Failing())
        hub = Hub(open_store(":memory:"))
        table, _tokens = hub.create(request)
        watcher = Recorder(None)
        hub.join(table.id, watcher)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while table.error is None:  # the bot leads: it is asked at its first choice
            assert loop.time() < deadline
            if table.turn == 1:
                go = table.go_message(1)
                assert go is not None
                move = {"type": "move", "move": go["legal"][0], "id": go["id"]}
                await hub.person_moves(table.id, 1, move)
            await asyncio.sleep(0.001)
        await hub.close()
        return table, watcher

    with caplog.at_level(logging.ERROR, logger="chickenfoot.server"):
        table, watcher = asyncio.run(run())
    hand = table.round.hand(0) if table.round is not None else ()
    shown = watcher.sent[-1]["error"]
    assert shown.startswith("the bot at seat 0 failed")
    assert not tiles_in(json.dumps({"error": shown})) & {str(t) for t in hand}
    assert any("cannot choose from" in r.getMessage() for r in caplog.records)


def test_a_record_that_does_not_replay_names_no_tile_to_the_table(tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    from chickenfoot.server import create_app

    db = tmp_path / "t.db"
    body = {"players": 2, "seats": [P, P], "preset": "house"}
    with TestClient(create_app(db)) as client:
        made = client.post("/api/tables", json=body).json()["table"]
    store = open_store(db)
    store.add_move(made, 0, 0, "pass", forced=False)  # seat 0 leads and can play: illegal
    store.close()
    with TestClient(create_app(db)) as client:
        error = client.app.state.hub.tables[made].error
    assert "does not replay" in error and not tiles_in(json.dumps({"error": error}))


def test_an_engine_that_cannot_start_fails_at_its_first_turn_even_a_forced_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chickenfoot.engine import EngineAgent

    request = {**SMALL, "players": 2, "seats": [B, P]}
    first = deal(rules_of(request), 1, 0)
    assert first.turn == 0 and len(first.legal_moves) == 1  # the bot's first move is forced
    _dealing(monkeypatch, [first])
    engine = EngineAgent(["/nonexistent/chickenfoot-engine"])
    monkeypatch.setattr(Hub, "_agent", lambda self, table, seat: engine)

    async def run() -> Table:
        hub = Hub(open_store(":memory:"))
        table, _tokens = hub.create(request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while table.error is None and table.n == 0:
            assert loop.time() < deadline
            await asyncio.sleep(0.001)
        await hub.close()
        return table

    table = asyncio.run(run())
    # it failed there, not at its first choice: when a bot fails says nothing of its hand
    assert table.n == 0 and table.error == "the bot at seat 0 failed (the server's log says why)"


def test_a_search_thinks_within_the_bot_delay_and_an_engine_moves_at_its_time(
    tmp_path: Any,
) -> None:
    # A search:N that thought longer than bot_delay on its choices, while its forced moves
    # came at bot_delay, would tell by timing which were forced: in the server a search
    # thinks within bot_delay, and an engine (never asked about a forced move) has every
    # move announced at its time_ms when that is longer.
    from chickenfoot.agents import SearchAgent
    from chickenfoot.engine import EngineAgent

    request = {**SMALL, "players": 2, "seats": [{"kind": "bot", "spec": "search:2000"}, P]}
    for delay, limit in ((0.5, 0.5), (0.0, None)):  # bot_delay 0: bots move when ready
        hub = Hub(open_store(tmp_path / f"t{delay}.db"), bot_delay=delay)
        table, _tokens = hub.create(request)
        agent = hub._agent(table, 0)
        assert isinstance(agent, SearchAgent)
        assert (agent.iterations, agent.time_limit) == (2000, limit)
        assert hub.pace(agent) == delay
        engine = EngineAgent(["unused"], time_ms=1500)
        assert hub.pace(engine) == (1.5 if delay else 0.0)
        assert hub.pace(EngineAgent(["unused"], time_ms=100)) == delay
        hub.store.close()
