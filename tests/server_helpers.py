"""What the server's tests share: making tables, playing a seat, the hidden tiles."""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chickenfoot import Rules
from chickenfoot.match import Match
from chickenfoot.server._deals import deal_round
from chickenfoot.server._store import Store
from table_client import Follower

ORIGIN = "http://testserver"  # TestClient's own origin
# A tile in text: two numbers joined by "-", not part of a longer number (SVG coordinates
# such as "1.5-0.25" are excluded by the lookarounds on "." and digits).
TILE = re.compile(r"(?<![\d.])(\d{1,2})-(\d{1,2})(?![\d.])")
DATA_TILE = re.compile(r'data-tile="([^"]*)"')
SVG_TEXT = re.compile(r"<text[^>]*>([^<]*)</text>|<title>([^<]*)</title>")


def make_table(client: Any, seats: list[dict[str, Any]], **request: Any) -> dict[str, Any]:
    """A table made through the API; returns its JSON (table, seats with links)."""
    body = {"players": len(seats), "seats": seats, **request}
    r = client.post("/api/tables", json=body, headers={"origin": ORIGIN})
    assert r.status_code == 200, r.text
    return dict(r.json())


def token_of(made: dict[str, Any], seat: int) -> str:
    link = made["seats"][seat]["link"]
    assert link is not None
    return str(link.split("#", 1)[1])


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello; returns the server's hello (then the table and maybe a go follow)."""
    ws.send_json({"type": "hello", "token": token or ""})
    answer: dict[str, Any] = ws.receive_json()
    assert answer["type"] == "hello", answer
    return answer


def tiles_in(text: str) -> set[str]:
    """Every tile named in one message: in its JSON (the SVG left out) and in its SVG's
    ``data-tile`` attributes, texts and title, normalized high-low."""
    message = json.loads(text)
    message.pop("last_round", None)  # the finished round's hands, public: checked apart
    picture = message.pop("svg", None) or ""
    found = {_tile(a, b) for a, b in TILE.findall(json.dumps(message))}
    for value in DATA_TILE.findall(picture):
        if value:
            found.add(_tile(*value.split("-")))
    for a, b in SVG_TEXT.findall(picture):
        found |= {_tile(x, y) for x, y in TILE.findall(a + " " + b)}
    return found


def table_apply(match: Match, move: str, secret: int) -> Match:
    """``match.apply(move)`` as a server's table plays it: a round it deals is dealt from
    that round's own seed (``deal_round``)."""
    after = match.apply(move)
    return deal_round(after, secret) if after.rounds_played != match.rounds_played else after


def round_ends(store: Store, table_id: str) -> list[tuple[list[list[str]], set[str]]]:
    """Each finished round of a table's match, replayed from the stored record: every
    seat's hand at its end and the tiles on its final board."""
    stored = next(t for t in store.tables() if t.id == table_id)
    m = deal_round(
        Match.start(Rules.from_dict(json.loads(stored.rules)), seed=stored.seed), stored.seed
    )
    ends = []
    for _seat, move, _forced in store.moves(table_id):
        before = m.rounds_played
        m = table_apply(m, move, stored.seed)
        if m.rounds_played != before:
            end = m.last_round
            assert end is not None
            hands = [[str(t) for t in end.hand(s)] for s in range(end.players)]
            ends.append((hands, {str(p.tile) for p in end.board}))
    return ends


def _tile(a: str, b: str) -> str:
    x, y = int(a), int(b)
    return f"{max(x, y)}-{min(x, y)}"


def hidden_by_move(store: Store, table_id: str) -> tuple[list[dict[int | None, set[str]]], int]:
    """For each number of moves n (0 to the end): the tiles hidden from each seat (and from
    a spectator, ``None``) in the position after n moves, replayed from the stored record;
    and the table's seed."""
    stored = next(t for t in store.tables() if t.id == table_id)
    rules = Rules.from_dict(json.loads(stored.rules))
    m = deal_round(Match.start(rules, seed=stored.seed), stored.seed)
    out = []

    def hidden(match: Match) -> dict[int | None, set[str]]:
        state = match.round
        if state is None:
            return {s: set() for s in [None, *range(rules.players)]}
        hands = [{str(t) for t in state.hand(s)} for s in range(rules.players)]
        bone = {str(t) for t in state.boneyard}
        per: dict[int | None, set[str]] = {None: set().union(*hands) | bone}
        for s in range(rules.players):
            per[s] = set().union(*(h for i, h in enumerate(hands) if i != s)) | bone
        return per

    out.append(hidden(m))
    for _seat, move, _forced in store.moves(table_id):
        m = table_apply(m, move, stored.seed)
        out.append(hidden(m))
    return out, stored.seed


_FOLLOWERS: weakref.WeakKeyDictionary[Any, Follower] = weakref.WeakKeyDictionary()


def follower_of(ws: Any) -> Follower:
    """The table a test's WebSocket shows, kept as the page's client keeps it."""
    return _FOLLOWERS.setdefault(ws, Follower())


def receive(ws: Any) -> dict[str, Any]:
    """The next message of ``ws``; a ``table`` or ``moved`` message as the whole table the
    page shows after it (a ``moved`` message's own fields are under ``"moved"``)."""
    message: dict[str, Any] = ws.receive_json()
    shown = follower_of(ws).take(message)
    if shown is not None and message["type"] == "moved":
        return {**shown, "type": "table", "moved": message}
    return message


def play_seat(ws: Any, rng: random.Random, limit: int = 5000) -> Iterator[str]:
    """Play a person's seat to the end of the match with random legal moves, yielding the
    text of every message received. A person plays their forced moves too, so a client
    answering at once can outrun the rate limit: a move refused for coming too fast is sent
    again a moment later."""
    sent: dict[str, Any] = {}
    for _ in range(limit):
        text = ws.receive_text()
        yield text
        message = json.loads(text)
        if message["type"] == "go":
            sent = {"type": "move", "move": rng.choice(message["legal"]), "id": message["id"]}
            ws.send_json(sent)
        elif message["type"] == "error" and "too many messages" in message["message"]:
            time.sleep(0.2)
            ws.send_json(sent)
        elif message["type"] == "table" and message["over"]:
            return
    raise AssertionError("the match did not end")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``python -m chickenfoot serve`` on a free port of the loopback."""

    def __init__(
        self, db: Path | str, port: int | None = None, extra: tuple[str, ...] = ()
    ) -> None:
        self.port = _free_port() if port is None else port
        self.base = f"http://127.0.0.1:{self.port}"
        args = ["serve", "--port", str(self.port), "--db", str(db), "--bot-delay", "0", *extra]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "chickenfoot", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(self.base + "/", timeout=1).read()
                return
            except OSError:
                assert self.process.poll() is None, self.process.communicate()
                if time.monotonic() >= deadline:
                    self.stop()  # no process outlives a failed start
                    raise AssertionError("the server did not start in 20 seconds") from None
                time.sleep(0.05)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Origin": self.base},
        )
        with urllib.request.urlopen(request, timeout=5) as r:
            answer: dict[str, Any] = json.loads(r.read())
            return answer

    def socket(self, stack: contextlib.ExitStack[Any], table: str, token: str) -> Any:
        from websockets.sync.client import connect

        url = f"ws://127.0.0.1:{self.port}/ws/{table}"
        # open_timeout: a loaded CI machine once took over websockets' default 10 s to answer
        # the first handshake of a fresh server; a hang still fails, a little later.
        ws = stack.enter_context(connect(url, origin=self.base, open_timeout=30))  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=5))["type"] == "hello"
        return ws

    def kill(self) -> None:
        self.process.kill()  # SIGKILL on POSIX: no shutdown, nothing flushed
        self.process.wait(10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@contextlib.contextmanager
def serving(app: Any, **options: Any) -> Iterator[int]:
    """``app`` under uvicorn, as ``chickenfoot serve`` runs it, on a free loopback port."""
    import uvicorn

    from chickenfoot.server import uvicorn_config

    server = uvicorn.Server(uvicorn_config(app, host="127.0.0.1", port=0, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    port: int = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(20)


class Proxy:
    """A TCP proxy on the loopback to ``port`` (a database server): :meth:`cut` closes
    every connection through it and refuses new ones, as a database server restarting
    does, until :meth:`resume`."""

    def __init__(self, port: int) -> None:
        self.target = ("127.0.0.1", port)
        self.port = _free_port()
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.resume()

    def url(self, url: str) -> str:
        """``url`` (a ``postgresql://`` URL to the target) through the proxy."""
        return url.replace(f":{self.target[1]}/", f":{self.port}/", 1)

    def resume(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port))
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            if self._listener is not None:
                with contextlib.suppress(OSError):  # wakes its accept() (close alone may not)
                    self._listener.shutdown(socket.SHUT_RDWR)
                self._listener.close()
                self._listener = None
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            with self._lock:
                self._sockets -= {source, sink}
