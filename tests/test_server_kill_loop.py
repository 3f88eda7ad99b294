"""A scripted game over WebSockets against a real ``chickenfoot serve`` process that is
killed with SIGKILL again and again, at random points (often between a move being sent and
its announcement), on until the first round has ended and the next is being played, and
started again on the same database each time, a SQLite file or
PostgreSQL (issue 29, "Keep the instruments"; issue 31; docs/serve.md: "Nothing lost").

After every kill: a SQLite file passes ``PRAGMA integrity_check``; every move the server
announced (acknowledged) is stored; the stored record holds at each index the move the seat
sent for that ``go`` id (or a move the server made itself, marked forced), so no move is
lost, doubled or moved; and at the end the stored record replays from the table's seed to
exactly the position the server shows.
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import sqlite3
import threading
import time
from typing import Any

from websockets.exceptions import ConnectionClosed

from chickenfoot import Rules, parse_move
from chickenfoot.match import Match
from chickenfoot.server._deals import deal_round
from chickenfoot.server._store import is_postgres, open_store
from server_helpers import Server

KILLS = 10
"""The SIGKILLs per run (each then a restart: about a second each)."""

NO_PAUSE = ("--round-pause", "0")
"""The loop goes on past a round's end: the next round is dealt at once, not after
``serve``'s default 20 seconds, in which no ``go`` would come."""


class Seats:
    """The two persons' connections; a reader thread per connection puts every message
    received, with its seat, on one queue."""

    def __init__(self, server: Server, table: str, tokens: list[str]) -> None:
        self.stack = contextlib.ExitStack()
        self.messages: queue.Queue[tuple[int, dict[str, Any] | None]] = queue.Queue()
        self.answered: set[int] = set()
        """The ids of the gos answered on these connections."""
        try:
            self.sockets = [server.socket(self.stack, table, t) for t in tokens]
        except BaseException:  # close the connections already open, then say why
            self.close()
            raise
        for seat, ws in enumerate(self.sockets):
            threading.Thread(target=self._read, args=(seat, ws), daemon=True).start()

    def _read(self, seat: int, ws: Any) -> None:
        try:
            while True:
                self.messages.put((seat, json.loads(ws.recv())))
        except (ConnectionClosed, OSError, TimeoutError):
            self.messages.put((seat, None))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


def _integrity(db: str) -> str:
    """SQLite's own check of the file ("ok"); PostgreSQL checks its own pages."""
    if is_postgres(db):
        return "ok"
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])


def _check_record(
    stored: list[tuple[int, str, bool]], sent: dict[int, tuple[int, str]], acked: int, max_pip: int
) -> None:
    """No acknowledged move lost; at each index the move sent for that id, or the server's."""
    assert len(stored) >= acked, f"{acked} moves were announced, {len(stored)} are stored"
    for i, (seat, text, forced) in enumerate(stored):
        if i in sent:
            want_seat, want = sent[i]
            assert (seat, str(parse_move(text, max_pip=max_pip))) == (
                want_seat,
                str(parse_move(want, max_pip=max_pip)),
            ), f"move {i}: stored {seat}:{text}, but seat {want_seat} sent {want} for it"
        else:
            assert forced, f"move {i} ({seat}:{text}) was stored but never sent"


def test_no_announced_move_is_lost_or_doubled_over_repeated_sigkills(store_where: str) -> None:
    """On a SQLite file, and on PostgreSQL (``store_where``)."""
    rng = random.Random(29)
    db = store_where
    server = Server(db, extra=NO_PAUSE)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    made = server.post("/api/tables", {"preset": "house", "players": 2, "seats": seats})
    table = made["table"]
    tokens = [s["link"].split("#")[1] for s in made["seats"]]
    with contextlib.closing(open_store(db)) as store:
        (stored_table,) = store.tables(ids=[table])
    rules = Rules.from_dict(json.loads(stored_table.rules))
    sent: dict[int, tuple[int, str]] = {}  # go id -> the seat and the move it sent last
    acked = 0  # moves announced: the largest n of a table message
    last: dict[int, dict[str, Any]] = {}  # each seat's last table message
    kills, sends = 0, 0
    rounds = 0  # rounds ended: the largest round of a table message
    in_window = 0  # kills between a send and that move's announcement
    deadline = time.monotonic() + 240  # catches a hang; a loaded CI machine is slow, not hung
    conns: Seats | None = None
    try:
        conns = Seats(server, table, tokens)
        next_kill = rng.randint(2, 8)
        while kills < KILLS or rounds < 1:
            assert time.monotonic() < deadline, "the kill loop took too long"
            seat, message = conns.messages.get(timeout=10)
            assert message is not None, f"seat {seat}'s connection closed unasked"
            if message["type"] in ("table", "moved"):  # the whole table, or a move in it
                acked = max(acked, message["n"])
                rounds = max(rounds, message.get("round", 0))
                assert not message.get("over"), "the match ended: play a longer match"
            elif message["type"] == "error":
                raise AssertionError(f"seat {seat} was refused: {message}")
            elif message["type"] == "go" and message["id"] not in conns.answered:
                conns.answered.add(message["id"])  # the same go comes again at each announce
                move = rng.choice(message["legal"])
                sent[message["id"]] = (seat, move)
                conns.sockets[seat].send(
                    json.dumps({"type": "move", "move": move, "id": message["id"]})
                )
                sends += 1
                if sends >= next_kill:
                    time.sleep(rng.choice([0, 0, 0.001, 0.003, 0.01, 0.05]))
                    server.kill()  # SIGKILL: no shutdown, nothing flushed
                    kills += 1
                    next_kill = sends + rng.randint(1, 8)
                    conns.close()
                    while not conns.messages.empty():  # what was announced before the kill
                        s, m = conns.messages.get()
                        if m is not None and m["type"] in ("table", "moved"):
                            acked = max(acked, m["n"])
                    in_window += acked <= message["id"]
                    assert _integrity(db) == "ok"
                    with contextlib.closing(open_store(db)) as store:
                        _check_record(store.moves(table), sent, acked, rules.max_pip)
                    server = Server(db, extra=NO_PAUSE)
                    conns = Seats(server, table, tokens)
        # the final record replays from the seed to the table the server shows
        time.sleep(0.3)
        for ws in conns.sockets:
            ws.send(json.dumps({"type": "table"}))
        time.sleep(0.3)
        while not conns.messages.empty():
            s, m = conns.messages.get()
            if m is not None and m["type"] == "table":
                last[s] = m
        with contextlib.closing(open_store(db)) as store:
            stored = store.moves(table)
        _check_record(stored, sent, acked, rules.max_pip)
        secret = stored_table.seed  # each round dealt from its own seed (docs: Serve)
        match = deal_round(Match.start(rules, seed=secret), secret)
        for _seat, text, _forced in stored:
            played = match.rounds_played
            match = match.apply(text)
            if match.rounds_played != played:
                match = deal_round(match, secret)
        assert match.round is not None and match.rounds_played >= 1
        for s in (0, 1):
            assert last[s]["n"] == len(stored)
            assert last[s]["view"] == match.round.view(s).to_dict()
    finally:  # whatever failed, no server process or connection outlives the test
        if conns is not None:
            conns.close()
        server.stop()
    assert _integrity(db) == "ok"
    print(
        f"{kills} SIGKILLs, {sends} moves sent, {len(stored)} stored, {in_window} kills in flight,"
        f" {rounds} round(s) ended"
    )
