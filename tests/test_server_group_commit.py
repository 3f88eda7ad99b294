"""The group commit (``server/_writer.py``) and a table that another writer extended first.

Every move goes to the database through one writer: the moves that arrive while a commit
is under way are committed together, in one transaction, and each move is played and
announced only once committed. When the database already holds a move of that number
(another server process on the same database stored it first), nothing is played: the
table catches up with the database, and a person's move is refused, to be chosen again.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

from chickenfoot import Match
from chickenfoot.server._announce import Connection
from chickenfoot.server._deals import deal_round
from chickenfoot.server._hub import Hub
from chickenfoot.server._sqlite import SqliteStore
from chickenfoot.server._store import MoveRow, SeatRow, open_store
from chickenfoot.server._table import RefusedError
from chickenfoot.server._writer import Writer


class SlowStore(SqliteStore):
    """A store whose commits take a while (a disk's sync), counting them."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.batches: list[int] = []
        self.threads: set[int] = set()

    def add_moves(self, rows: Any) -> list[bool]:
        self.batches.append(len(rows))
        self.threads.add(threading.get_ident())
        time.sleep(0.02)
        return super().add_moves(rows)


def test_moves_arriving_during_a_commit_are_committed_together() -> None:
    store = SlowStore(":memory:")
    for t in range(50):
        store.add_table(f"t{t}", "{}", 1, [SeatRow(0, "bot", "random", None, "a")])

    async def main() -> list[bool]:
        writer = Writer(store)
        rows = [MoveRow(f"t{t}", 0, 0, "draw", False) for t in range(50)]
        first = asyncio.create_task(writer.write(rows[0]))
        await asyncio.sleep(0.005)  # the first commit is under way...
        rest = await asyncio.gather(*(writer.write(row) for row in rows[1:]))
        return [await first, *rest]

    assert asyncio.run(main()) == [True] * 50
    assert store.batches == [1, 49]  # ...and everything that came meanwhile waits for one
    assert all(len(store.moves(f"t{t}")) == 1 for t in range(50))


def test_a_failing_commit_fails_every_move_of_its_batch_and_the_next_one_goes_on() -> None:
    class Failing(SqliteStore):
        fail = True

        def add_moves(self, rows: Any) -> list[bool]:
            if self.fail:
                self.fail = False
                raise OSError("disk full")
            return super().add_moves(rows)

    store = Failing(":memory:")
    store.add_table("t", "{}", 1, [SeatRow(0, "bot", "random", None, "a")])

    async def main() -> tuple[list[Any], bool]:
        writer = Writer(store)
        failed = await asyncio.gather(
            writer.write(MoveRow("t", 0, 0, "draw", False)), return_exceptions=True
        )
        return failed, await writer.write(MoveRow("t", 0, 0, "draw", False))

    failed, again = asyncio.run(main())
    assert isinstance(failed[0], OSError) and again is True
    assert store.moves("t") == [(0, "draw", False)]


class Recorder(Connection):
    def __init__(self, seat: int | None) -> None:
        super().__init__(seat, picture=False)
        self.sent: list[dict[str, Any]] = []

    def put(self, message: str | dict[str, Any] | None) -> None:
        if message is not None:
            self.sent.append(json.loads(message) if isinstance(message, str) else message)


def test_a_table_another_writer_extended_first_catches_up(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    request = {"preset": "house", "players": 2, "seats": [{"kind": "person"}] * 2}

    async def main() -> None:
        here, there = Hub(open_store(db)), open_store(db)  # "there": another process's writer
        table, _tokens = here.create(request)
        seat = table.turn
        assert seat is not None
        watcher = Recorder(None)
        here.join(table.id, watcher)
        legal = table.go_message(seat)
        assert legal is not None
        theirs, mine = legal["legal"][0], legal["legal"][-1]
        assert there.add_moves([MoveRow(table.id, 0, seat, theirs, False)]) == [True]
        move = {"type": "move", "move": mine, "id": 0}
        try:
            await here.person_moves(table.id, seat, move)
        except RefusedError as err:
            assert "another move was played first" in str(err)
        else:
            raise AssertionError("a move of a number already stored was played")
        # the table is the database's: their move, played and announced; not ours
        assert table.moves == [(seat, theirs, False)]
        assert [m["n"] for m in watcher.sent if m["type"] == "moved"] == [1]
        assert open_store(db).moves(table.id) == [(seat, theirs, False)]
        await here.close()

    asyncio.run(main())


def test_a_rematch_made_elsewhere_is_read_again_whole(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    request = {"preset": "house", "players": 2, "seats": [{"kind": "person"}] * 2}

    async def main() -> None:
        here, there = Hub(open_store(db)), open_store(db)
        table, _tokens = here.create(request)
        seat = table.turn
        go = table.go_message(seat or 0)
        assert go is not None
        await here.person_moves(table.id, seat, {"type": "move", "move": go["legal"][0], "id": 0})
        there.restart(table.id, 12345)
        match = deal_round(Match.start(table.rules, seed=12345), 12345)
        first = match.legal_moves[0].notation()
        turn = match.round.turn if match.round is not None else 0
        there.add_moves([MoveRow(table.id, 0, turn, first, False)])
        await here.catch_up(table)
        assert table.seed == 12345  # the new match, and its first move played here too
        assert table.moves == [(turn, first, False)] and table.error is None
        await here.close()

    asyncio.run(main())
