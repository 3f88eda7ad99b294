"""The server's stores, SQLite and PostgreSQL, keep one record with one set of promises
(``chickenfoot.server._store``): every test taking ``store_where`` runs on both (the
PostgreSQL one is marked ``postgres``: see conftest)."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from chickenfoot.server._store import (
    ConflictError,
    GapError,
    MoveRow,
    SeatRow,
    Store,
    StoreError,
    open_store,
    redact,
)

SEATS = [SeatRow(0, "person", "", "tok-0", "Ann"), SeatRow(1, "bot", "greedy", None, "Henny")]


@pytest.fixture
def store(store_where: str) -> Iterator[Store]:
    with contextlib.closing(open_store(store_where)) as s:
        yield s


def _wait_for(condition: object, seconds: float = 10.0) -> None:
    """Wait until ``condition()`` holds (a notification crosses a connection)."""
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not delivered in time"
        time.sleep(0.02)


def test_a_table_is_stored_with_its_seats_and_read_back(store: Store) -> None:
    store.add_table("t1", '{"players": 2}', 7, SEATS, now=100.0)
    store.add_table("t2", '{"players": 3}', 2**62, SEATS, now=200.0)
    (t1,) = store.tables(ids=["t1"])
    assert (t1.id, t1.rules, t1.seed, t1.seats) == ("t1", '{"players": 2}', 7, tuple(SEATS))
    assert [t.id for t in store.tables()] == ["t1", "t2"]  # oldest first
    assert [t.id for t in store.tables(limit=1)] == ["t2"]  # the most recent
    assert store.tables(ids=["t2"])[0].seed == 2**62
    assert store.tables(ids=[]) == [] and store.tables(ids=["none"]) == []
    assert [t.id for t in store.tables(live_since=150.0)] == ["t2"]
    assert store.count() == 2


def test_a_tables_options_are_stored_apart_from_its_rules(store: Store) -> None:
    store.add_table("t1", '{"players": 2}', 7, SEATS, options='{"hints": true}')
    store.add_table("t2", '{"players": 2}', 8, SEATS)
    t1, t2 = store.tables()
    assert (t1.rules, t1.options) == ('{"players": 2}', '{"hints": true}')
    assert t2.options == "{}"  # no options: hints off


def test_add_moves_stores_a_batch_and_refuses_only_what_does_not_extend_a_table(
    store: Store,
) -> None:
    store.add_table("a", "{}", 1, SEATS)
    store.add_table("b", "{}", 2, SEATS)
    rows = [
        MoveRow("a", 1, 1, "draw", True),  # out of order: stored after move 0
        MoveRow("a", 0, 0, "9-3@9-9", False),
        MoveRow("b", 0, 0, "pass", False),
        MoveRow("c", 2, 1, "draw", False),  # moves 0 and 1 of c are missing: refused
        MoveRow("gone", 0, 0, "draw", False),  # no such table: refused
    ]
    store.add_table("c", "{}", 3, SEATS)
    assert store.add_moves(rows) == [True, True, True, False, False]
    assert store.moves("a") == [(0, "9-3@9-9", False), (1, "draw", True)]
    assert store.moves("b") == [(0, "pass", False)] and store.moves("c") == []
    assert store.add_moves([]) == []
    # number 1 of a is taken (refused), number 1 of b is free (stored): one refusal never
    # fails another table's move
    assert store.add_moves([MoveRow("a", 1, 0, "x", False), MoveRow("b", 1, 1, "y", False)]) == [
        False,
        True,
    ]
    assert store.moves("b", since=1) == [(1, "y", False)]
    assert store.moves("a", since=1) == [(1, "draw", True)]
    assert store.moves("a", since=3) == []


def test_after_a_refused_move_the_batch_adds_nothing_more_to_its_table(store: Store) -> None:
    store.add_table("t", "{}", 5, SEATS)
    store.add_table("u", "{}", 5, SEATS)
    assert store.add_moves([MoveRow("t", 0, 0, "theirs", False)]) == [True]
    # this writer's moves 0 and 1 of t: 0 is taken, so its 1 (made after its own 0) is not
    # stored on top of the other writer's 0; u is another table: stored
    rows = [MoveRow("t", 0, 0, "mine", False), MoveRow("t", 1, 1, "mine", False)]
    assert store.add_moves([*rows, MoveRow("u", 0, 0, "x", False)]) == [False, False, True]
    assert store.moves("t") == [(0, "theirs", False)]
    # moves of one batch that follow each other, all stored
    rows = [MoveRow("t", i, i % 2, f"m{i}", False) for i in (3, 1, 2)]
    assert store.add_moves(rows) == [True, True, True]
    assert [m for _s, m, _f in store.moves("t")] == ["theirs", "m1", "m2", "m3"]


def test_a_move_given_its_seed_is_stored_only_in_that_match(store: Store) -> None:
    store.add_table("t", "{}", 5, SEATS)
    assert store.add_moves([MoveRow("t", 0, 0, "x", False, seed=6)]) == [False]
    assert store.add_moves([MoveRow("t", 0, 0, "x", False, seed=5)]) == [True]
    store.restart("t", 6)  # a rematch elsewhere: the old match's next move is refused
    assert store.add_moves([MoveRow("t", 1, 1, "y", False, seed=5)]) == [False]
    assert store.add_moves([MoveRow("t", 1, 1, "y", False)]) == [False]  # move 0 is gone
    assert store.add_moves([MoveRow("t", 0, 1, "y", False, seed=6)]) == [True]
    assert store.moves("t") == [(1, "y", False)]


def test_add_move_raises_conflict_when_the_number_is_taken(store: Store) -> None:
    store.add_table("t", "{}", 5, SEATS)
    store.add_move("t", 0, 0, "x", forced=True)
    with pytest.raises(ConflictError, match="move 0"):
        store.add_move("t", 0, 1, "y", forced=False)
    assert store.moves("t") == [(0, "x", True)]


def test_finish_restart_and_the_life_cycle_queries(store: Store) -> None:
    store.add_table("old", "{}", 1, SEATS, now=10.0)
    store.add_table("new", "{}", 2, SEATS, now=20.0)
    store.add_table("idle", "{}", 3, SEATS, now=15.0)
    assert store.oldest(2) == ["old", "idle"]
    assert store.stale(before=16.0) == ["old", "idle"] and store.stale(before=16.0, limit=1) == [
        "old"
    ]
    store.add_moves([MoveRow("old", 0, 0, "x", False)])  # touched now
    assert store.stale(before=16.0) == ["idle"]
    assert store.oldest(1) == ["idle"]
    store.finish("new")
    live = [t.id for t in store.tables(live_since=0.0)]
    assert live == ["old", "idle"]  # "new" is finished
    store.restart("new", 9)
    (new,) = store.tables(ids=["new"])
    assert new.seed == 9 and store.moves("new") == []
    assert [t.id for t in store.tables(live_since=0.0)] == ["old", "new", "idle"]
    store.restart("old", 4)
    assert store.moves("old") == [] and store.tables(ids=["old"])[0].seed == 4
    assert store.delete(["old", "idle", "never"]) == 2
    assert [t.id for t in store.tables()] == ["new"] and store.count() == 1
    assert store.moves("old") == []
    assert store.delete([]) == 0


def test_a_missing_move_is_reported_not_skipped(store_where: str) -> None:
    with contextlib.closing(open_store(store_where)) as store:
        store.add_table("t", "{}", 1, SEATS)
        store.add_moves([MoveRow("t", i, i % 2, f"m{i}", False) for i in range(3)])
    _sql(store_where, "DELETE FROM {moves} WHERE table_id = 't' AND idx = 1")
    with contextlib.closing(open_store(store_where)) as store:
        # the same error from both stores: a StoreError (a damaged record, not bad input)
        with pytest.raises(StoreError, match="move 1 is missing") as raised:
            store.moves("t")
        assert isinstance(raised.value, GapError) and not isinstance(raised.value, ValueError)
        assert store.moves("t", since=2) == [(0, "m2", False)]
        with pytest.raises(GapError, match="move 1 is missing"):
            store.catch_up("t", seed=1, since=0)


def test_a_sqlite_file_locked_by_another_connection_is_a_store_error(tmp_path: Path) -> None:
    """A shell or a backup holding the file's write lock longer than the store waits for
    it: every write fails with a StoreError (never the driver's own error), committing
    nothing, and succeeds once the lock is gone."""
    import sqlite3

    db = tmp_path / "t.db"
    with contextlib.closing(open_store(db)) as store:
        store.add_table("t", "{}", 1, SEATS)
        with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as shell:
            shell.execute("BEGIN EXCLUSIVE")
            for write in (
                lambda: store.add_moves([MoveRow("t", 0, 0, "draw", False)]),
                lambda: store.finish("t"),
                lambda: store.ask("t", 0, seed=1, at=0, rematch=2),
                lambda: store.add_table("u", "{}", 1, SEATS),
            ):
                with pytest.raises(StoreError, match="database is locked") as raised:
                    write()
                assert "Traceback" not in str(raised.value) and len(str(raised.value)) < 400
            shell.execute("ROLLBACK")
        assert store.moves("t") == [] and store.tables(ids=["u"]) == []
        assert store.add_moves([MoveRow("t", 0, 0, "draw", False)]) == [True]


def _sql(where: str, statement: str) -> None:
    """Run ``statement`` on a store's database behind its back (``{moves}``: the table)."""
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as db:
            db.execute(statement.format(moves="chickenfoot_moves"))  # type: ignore[arg-type]
    else:
        import sqlite3

        with contextlib.closing(sqlite3.connect(where)) as db, db:
            db.execute(statement.format(moves="moves"))


def test_two_stores_racing_to_extend_a_table_never_both_win(store_where: str) -> None:
    """Two writers (as two server processes would) each try to store every move number of
    one table: each number is stored exactly once, by one of them, and the record has no
    hole."""
    stores = [open_store(store_where), open_store(store_where)]
    try:
        stores[0].add_table("t", "{}", 1, SEATS)
        n = 40
        won: list[list[int]] = [[], []]
        start = threading.Barrier(2)

        def race(k: int) -> None:
            start.wait()
            for idx in range(n):
                rows = [MoveRow("t", idx, k, f"w{k}", False)]
                if stores[k].add_moves(rows) == [True]:
                    won[k].append(idx)

        threads = [threading.Thread(target=race, args=(k,)) for k in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(won[0] + won[1]) == list(range(n))  # each number won exactly once
        record = stores[1].moves("t")
        assert [move for _seat, move, _forced in record] == [
            "w0" if i in won[0] else "w1" for i in range(n)
        ]
    finally:
        for s in stores:
            s.close()


def test_the_sqlite_file_is_its_owners_only_and_subscribe_calls_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    heard: list[tuple[str, int | None]] = []
    with contextlib.closing(open_store(db)) as store:
        store.subscribe(lambda table_id, moves: heard.append((table_id, moves)))
        store.add_table("t", "{}", 1, SEATS)
        store.add_moves([MoveRow("t", 0, 0, "x", False)])
        store.finish("t")
        assert store.file == str(db)
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    assert heard == []
    with contextlib.closing(open_store(":memory:")) as memory:
        assert memory.file is None


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x01" * 4096)
    with pytest.raises(StoreError, match="cannot open the database"):
        open_store(junk)


@pytest.mark.postgres
def test_subscribe_hears_every_change_by_another_store(postgres_url: str) -> None:
    with (
        contextlib.closing(open_store(postgres_url)) as writer,
        contextlib.closing(open_store(postgres_url)) as reader,
    ):
        assert writer.file is None
        heard: list[tuple[str, int | None]] = []
        reader.subscribe(lambda table_id, moves: heard.append((table_id, moves)))
        writer.add_table("t", "{}", 1, SEATS)
        writer.add_table("u", "{}", 1, SEATS)
        assert writer.add_moves([MoveRow("t", 0, 0, "x", False)]) == [True]
        _wait_for(lambda: heard == [("t", 1)])  # with the record's length after a move
        writer.add_moves([MoveRow("t", 0, 0, "x", False)])  # refused: nothing changed
        writer.finish("u")
        _wait_for(lambda: heard == [("t", 1), ("u", None)])
        writer.restart("t", 3)
        _wait_for(lambda: heard[2:] == [("t", None)])
        assert reader.tables(ids=["t"])[0].seed == 3  # what the listener tells is readable
        writer.delete(["u"])
        _wait_for(lambda: heard[3:] == [("u", None)])
        mine: list[tuple[str, int | None]] = []
        writer.subscribe(lambda table_id, moves: mine.append((table_id, moves)))  # its own too
        writer.add_moves([MoveRow("t", 0, 0, "y", False), MoveRow("t", 1, 0, "z", False)])
        _wait_for(lambda: mine == [("t", 1), ("t", 2)] and heard[-1] == ("t", 2))


@pytest.mark.postgres
def test_subscribe_survives_a_lost_connection_and_tells_what_it_missed(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    import psycopg

    with (
        contextlib.closing(open_store(postgres_url)) as writer,
        contextlib.closing(open_store(postgres_url)) as reader,
        psycopg.connect(postgres_url, autocommit=True) as admin,
    ):
        heard: list[tuple[str, int | None]] = []
        reader.subscribe(lambda table_id, moves: heard.append((table_id, moves)))
        writer.add_table("t", "{}", 1, SEATS)
        kill = (
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query LIKE 'LISTEN%%' AND pid <> pg_backend_pid()"
        )
        with caplog.at_level(logging.WARNING, logger="chickenfoot.server"):
            admin.execute(kill)
            _wait_for(lambda: "lost the connection that listens" in caplog.text)
            # a change while nobody listens (the listener waits before it connects again):
            # told when it is back
            assert writer.add_moves([MoveRow("t", 0, 0, "x", False)]) == [True]
            _wait_for(lambda: "listening to the database" in caplog.text)
            _wait_for(lambda: ("t", None) in heard)  # told again: read it
        assert "password" not in caplog.text.lower()
        heard.clear()
        writer.add_moves([MoveRow("t", 1, 1, "y", False)])
        _wait_for(lambda: heard == [("t", 2)])


@pytest.mark.postgres
def test_a_postgres_store_commits_synchronously(postgres_url: str) -> None:
    from chickenfoot.server._postgres import PostgresStore

    with contextlib.closing(open_store(postgres_url)) as store:
        assert isinstance(store, PostgresStore)
        db = store.connect()
        with db:
            assert db.execute("SHOW synchronous_commit").fetchone() == ("on",)


def test_a_database_url_is_written_without_its_password() -> None:
    assert redact("postgres://ann:pw@h/db") == "postgres://ann:***@h/db"
    assert (
        redact("postgresql://ann@h/db?sslmode=require") == "postgresql://ann@h/db?sslmode=require"
    )
    assert redact("tables.db") == "tables.db"


def test_serve_on_postgres_says_why_it_cannot_without_a_traceback_or_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from chickenfoot.cli import main

    url = "postgresql://ann:s3cret@127.0.0.1:1/cf"  # port 1: nobody listens
    assert main(["serve", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "s3cret" not in err
    if importlib.util.find_spec("psycopg") is not None:
        assert "postgresql://ann:***@127.0.0.1:1/cf cannot be reached" in err
        # libpq quotes what it cannot read of an address: the password is scrubbed there too
        for bad in ("postgresql://ann:s3cret@[::1/cf", "postgresql://ann:s3cret%zz@h/cf"):
            assert main(["serve", "--db", bad]) == 2
            err = capsys.readouterr().err
            assert "cannot be reached" in err and "s3cret" not in err and "Traceback" not in err
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a)
    )
    assert main(["serve", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "pip install 'chickenfoot[server,postgres]'" in err and "s3cret" not in err


@pytest.mark.postgres
def test_a_postgres_store_without_pipeline_mode_keeps_the_same_promises(
    postgres_url: str,
) -> None:
    """With a libpq older than 14 the batch's statements go one by one: same answers."""
    with contextlib.closing(open_store(postgres_url)) as store:
        store._pipeline = False  # type: ignore[attr-defined]
        test_after_a_refused_move_the_batch_adds_nothing_more_to_its_table(store)
