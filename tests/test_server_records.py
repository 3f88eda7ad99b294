"""Issue 47, item 5: a table's records in the notation (``GET /api/tables/{t}/record``):
each seat downloads its own copy at any time, anyone the spectator's copy, and the full
copy of a round once it is over; a seat's copy never holds a tile that seat did not see."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from chickenfoot.notation import read_game
from chickenfoot.server import create_app
from chickenfoot.server._records import round_texts, table_rounds
from server_helpers import hello, make_table, play_seat, token_of

SMALL = {"preset": "house", "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 2}}}
SEATS = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "spec": "greedy"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "t.db", round_pause=60.0)) as c:
        yield c


def _get(client: TestClient, table: str, token: str | None = None, **query: str) -> Any:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return client.get(f"/api/tables/{table}/record", params=query, headers=headers)


def _twin_check(client: TestClient, table_id: str, token: str, rng: random.Random) -> int:
    """The seat's and the spectator's copies of the round in play are the copies of a
    twin drawn from seat 0's view: the same public history, seat 0's hand and draws, the
    rest of the deal drawn anew. Returns the bytes compared."""
    t = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    records, _ = table_rounds(t.rules, t.seed, t.moves)
    k = len(records) - 1
    twin = records[k].final().view(0).sample_record(rng)
    twins = [*records[:k], twin]
    compared = 0
    for token_, audience in ((token, "seat 0"), (None, "spectator")):
        got = _get(client, table_id, token_)
        assert got.status_code == 200, got.text
        assert got.headers["cache-control"] == "no-store"
        assert got.text == round_texts(twins, t.seats, round=k, audience=audience, secret=t.seed)
        assert "[Commitment " in got.text and "[DealSeed " not in got.text
        compared += len(got.content)
    return compared


def test_seat_and_spectator_copies_are_the_same_for_hidden_twins(client: TestClient) -> None:
    made = make_table(client, SEATS, **SMALL)
    table_id, token = made["table"], token_of(made, 0)
    rng = random.Random(5)
    checked = compared = 0
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, token)
        for text in play_seat(ws, random.Random(1)):
            # (downloads are bounded per address: the first six of seat 0's turns)
            if json.loads(text)["type"] == "go" and checked < 6:
                compared += _twin_check(client, table_id, token, rng)
                checked += 1
            t = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
            if t.match.rounds_played == 1:
                break
    assert checked >= 3 and compared > 0
    # Round 0 is over (round 1 waits): its full copy is everyone's; round 1's is refused.
    full = _get(client, table_id, audience="full", round="0")
    assert full.status_code == 200
    game = read_game(io.StringIO(full.text), strict=True)
    assert game is not None and game.record is not None and game.record.final().is_over()
    assert game.header("Audience") == "full" and game.header("Seed") is None
    # The round is over: its seed opens the commitment (the reader checks it: strict=True).
    assert game.header("DealSeed") is not None and game.header("Commitment") is not None
    assert game.header("Name0") == "Ada" and game.header("Agent1") == "greedy"
    refused = _get(client, table_id, token, audience="full", round="1")
    assert refused.status_code == 409
    assert refused.json() == {
        "error": "the full copy of round 1 is given once the round is over; it is in play"
    }
    every = _get(client, table_id, token, round="all")
    assert every.status_code == 200 and every.text.count('[Audience "seat 0"]') == 2


def test_a_seat_copy_reads_back_as_that_seats_view(client: TestClient) -> None:
    made = make_table(client, SEATS, **SMALL)
    got = _get(client, made["table"], token_of(made, 0))
    assert got.status_code == 200
    assert "attachment" in got.headers["content-disposition"]
    game = read_game(io.StringIO(got.text), strict=True)
    assert game is not None and game.audience.seat == 0 and game.view is not None
    t = client.app.state.hub.tables[made["table"]]  # type: ignore[attr-defined]
    assert set(game.view.hand) == set(t.match.round.hand(0))
    assert game.header("Hand1") == " ".join(["??"] * 7)


@pytest.mark.parametrize(
    ("path", "query", "auth", "status", "says"),
    [
        ("nope", {}, None, 404, "there is no table"),
        ("bad id!", {}, None, 404, "there is no table"),
        ("T", {}, "Bearer wrong", 401, "not a seat of this table"),
        ("T", {}, "Basic abc", 401, "Bearer"),
        ("T", {"audience": "seat"}, None, 401, "the seat's token"),
        ("T", {"audience": "boss"}, None, 400, "is not seat, spectator or full"),
        ("T", {"round": "x1"}, None, 400, "is not a round number"),
        ("T", {"round": "99"}, None, 404, "round 99 has not been dealt"),
        ("T", {"audience": "full"}, None, 409, "once the round is over"),
    ],
)
def test_bad_requests_get_a_clean_4xx(
    client: TestClient, path: str, query: dict[str, str], auth: str | None, status: int, says: str
) -> None:
    made = make_table(client, SEATS, **SMALL)
    table = made["table"] if path == "T" else path
    headers = {} if auth is None else {"authorization": auth}
    got = client.get(f"/api/tables/{table}/record", params=query, headers=headers)
    assert got.status_code == status
    assert says in got.json()["error"]
    assert "Traceback" not in got.text


def test_downloads_are_bounded_per_address(client: TestClient) -> None:
    made = make_table(client, SEATS, **SMALL)
    codes = [_get(client, made["table"]).status_code for _ in range(25)]
    assert codes[:20] == [200] * 20 and 429 in codes
