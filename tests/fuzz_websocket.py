"""The fuzz target ``server websocket`` of ``chickenfoot serve`` (issue 29): its inputs and
its property are described in ``fuzz_server``, which holds the servers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from fuzz_server import HOST, ORIGIN, _Lab, close_codes, lab, python_text
from fuzz_targets import (
    JSON_VALUES,
    KEY_NAMES,
    MAX_MESSAGE,
    Case,
    _mutate,
    _target,
    describe,
    encode,
    nest,
)

__all__ = ["ID", "LEGAL", "NAMES", "TOKEN", "WsRun", "converse"]

NAMES = ["server websocket"]
"""The target this module registers."""


# -- the WebSocket ------------------------------------------------------------------------------

LEGAL, ID, TOKEN = "<LEGAL>", "<ID>", "<TOKEN>"
_TEMPLATES: dict[str, dict[str, Any]] = {
    "move": {"type": "move", "move": LEGAL, "id": ID},
    "move as seat": {"type": "move", "move": LEGAL, "id": ID, "seat": 0},
    "hello": {"type": "hello", "token": TOKEN},
    "table": {"type": "table"},
    "ping": {"type": "ping", "id": 7},
    "unknown": {"type": "resign", "id": ID},
}
_TEXTS = st.one_of(
    st.sampled_from(["", "{", "null", "[]", "{}", "NaN", '{"type": 1}', '{"type": "move"}']),
    st.sampled_from([16_000, 16_385, 20_000, 200_000]).map(lambda n: "[" * n),
    st.sampled_from([900, 2_000, 5_000]).map(lambda n: encode(nest(n, 1, "mixed"))),
    st.sampled_from([16_370, 16_400, 100_000]).map(lambda n: json.dumps({"type": "x" * n})),
    st.text(max_size=40),
)
_BUDGET = 24  # messages a case sends at most (with its pings): within the burst of 30


@st.composite
def _ws_steps(draw: st.DrawFn) -> list[tuple[str, Any, int]]:
    steps: list[tuple[str, Any, int]] = []
    used = 0
    for _ in range(draw(st.integers(1, 6))):
        how = draw(st.sampled_from(["json", "json", "json", "text", "bytes", "flood"]))
        if how == "bytes":
            step: tuple[str, Any, int] = ("bytes", draw(st.binary(max_size=32)), 1)
        elif how == "text":
            step = ("text", draw(_TEXTS), 1)
        else:
            name = draw(st.sampled_from(sorted(_TEMPLATES)))
            doc: Any = json.loads(json.dumps(_TEMPLATES[name]))
            for _ in range(draw(st.integers(0, 2))):
                doc, _note = _mutate(draw, doc, JSON_VALUES)
            count = draw(st.integers(2, 8)) if how == "flood" else 1
            step = ("json", doc, count)
        cost = step[2] + 2  # and a ping before and after
        if used + cost > _BUDGET:
            break
        used += cost
        steps.append(step)
    return steps


@st.composite
def _ws_cases(draw: st.DrawFn) -> Case:
    hello = draw(st.sampled_from(["seat", "seat", "seat", "spectator", "forged", "none"]))
    origin = draw(st.sampled_from(["same", "same", "none", "other"]))
    where = draw(st.sampled_from(["table", "table", "table", "table", "nosuchtable"]))
    forged = draw(st.one_of(KEY_NAMES, st.sampled_from([TOKEN + "x", " " + TOKEN]), JSON_VALUES))
    return Case(hello, origin, where, forged, draw(_ws_steps()))


def _fill(
    doc: Any, go: dict[str, Any] | None, n: int, pick: int, token: str, depth: int = 0
) -> Any:
    """``doc`` with the placeholders replaced: the live go's id and one of its legal moves
    (in the first 20 levels)."""
    if isinstance(doc, dict) and depth < 20:
        return {k: _fill(v, go, n, pick, token, depth + 1) for k, v in doc.items()}
    if isinstance(doc, list) and len(doc) < 100 and depth < 20:
        return [_fill(v, go, n, pick, token, depth + 1) for v in doc]
    if doc == LEGAL:
        legal = go["legal"] if go is not None else ["9-9@9-9"]
        return legal[pick % len(legal)]
    if doc == ID:
        return go["id"] if go is not None else n
    if doc == TOKEN:
        return token
    return doc


@dataclass
class WsRun:
    """What one connection saw: the messages received, the close code (if the server
    closed), the moves it was not refused, and the table's moves around it."""

    received: list[Any] = field(default_factory=list)
    code: int | None = None
    accepted: int = 0
    seat: Any = None
    before: list[tuple[int, str, bool]] = field(default_factory=list)
    after: list[tuple[int, str, bool]] = field(default_factory=list)
    problem: str = ""
    watcher: str = ""


class _ClosedError(Exception):
    pass


def _receive(ws: Any, run: WsRun) -> dict[str, Any]:
    try:
        message = ws.receive()
    except WebSocketDisconnect as err:
        message = {"type": "websocket.close", "code": err.code}
    if message["type"] == "websocket.close":
        run.code = message.get("code")
        raise _ClosedError
    text = message.get("text")
    if text is None:
        run.received.append(message.get("bytes"))
        return {}
    try:
        answer = json.loads(text)
    except ValueError:
        answer = text
    run.received.append(answer)
    return answer if isinstance(answer, dict) else {}


def _until(
    ws: Any, run: WsRun, kind: str, state: dict[str, Any], name: Any = None
) -> list[dict[str, Any]]:
    """Read up to the first message of type ``kind`` (a ``pong``: of id ``name``), or a
    fatal error; the messages read (the latest go kept in ``state``)."""
    got = []
    while True:
        message = _receive(ws, run)
        got.append(message)
        kind_of = message.get("type")
        if kind_of == "go":
            state["go"] = message
        elif kind_of in ("table", "moved") and message.get("turn") != run.seat:
            state["go"] = None
        elif kind_of == "hello":
            run.seat = message.get("seat")
        if (kind_of == "error" and message.get("fatal")) or (
            kind_of == kind and (kind != "pong" or message.get("id") == name)
        ):
            return got


def converse(hello: str, origin: str, where: str, forged: Any, steps: list[Any]) -> WsRun:
    """One connection to the WebSocket target's table; see the module."""
    the = lab()
    if the.hub_table().turn is None:  # the match is over: a new table
        the.new_table()
    run = WsRun()
    run.before = the.quiet()
    headers = {"host": HOST}
    if origin != "none":
        headers["origin"] = ORIGIN if origin == "same" else "http://evil.example"
    table = the.table if where == "table" else "nosuchtable"
    if isinstance(forged, str):
        forged = forged.replace(TOKEN, the.token)
    token = {"seat": the.token, "spectator": "", "forged": forged}.get(hello)
    state: dict[str, Any] = {"go": None, "said": hello != "none"}
    try:
        _talk(the.ws, f"/ws/{table}", headers, run, state, token, steps)
    except (_ClosedError, WebSocketDisconnect) as err:
        if run.code is None:
            run.code = getattr(err, "code", None)
    run.after = the.quiet()
    run.watcher = _watch(the)
    return run


def _talk(
    client: Any,
    url: str,
    headers: dict[str, str],
    run: WsRun,
    state: dict[str, Any],
    token: Any,
    steps: list[Any],
) -> None:
    with client.websocket_connect(url, headers=headers) as ws:
        if state["said"]:
            ws.send_text(encode({"type": "hello", "token": token}))
            state["said"] = _receive(ws, run).get("type") == "hello"  # or refused
            if state["said"]:
                run.seat = run.received[-1].get("seat")
                _until(ws, run, "table", state)
        for k, (how, value, count) in enumerate(steps):
            _step(ws, run, state, how, value, count, k)


def _step(
    ws: Any, run: WsRun, state: dict[str, Any], how: str, value: Any, count: int, k: int
) -> None:
    """Send one step (``count`` times) and read its answers."""
    doc: Any = None
    if how == "json":
        if state["said"] and run.seat is not None:  # the live go, once the bot has played
            lab().quiet()
            _sync(ws, run, state, f"before {k}")
        doc = _fill(value, state["go"], lab().hub_table().n, k, lab().token)
    for _ in range(count):
        if how == "bytes":
            ws.send_bytes(value)
        else:
            ws.send_text(value if how == "text" else encode(doc))
    if not state["said"]:  # before the hello: one answer to each message
        for _ in range(count):
            answer = _receive(ws, run)
            if answer.get("type") == "hello":
                state["said"], run.seat = True, answer.get("seat")
                break
        if not state["said"]:
            return
    got = _sync(ws, run, state, f"after {k}")
    if _is_move(doc):
        errors = sum(1 for m in got if m.get("type") == "error")
        run.accepted += max(0, count - errors)


def _is_move(doc: Any) -> bool:
    """Whether the server reads ``doc`` as a move (as JSON: ``b"move"`` is ``"move"`` too)."""
    if not isinstance(doc, dict):
        return False
    try:
        kind = json.loads(encode({"type": doc.get("type")}))["type"]
    except (ValueError, RecursionError):
        return False
    return bool(kind == "move")


def _sync(ws: Any, run: WsRun, state: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """Every answer to what was sent so far: up to the pong of a ping named ``name``."""
    ws.send_text(json.dumps({"type": "ping", "id": name}))
    return _until(ws, run, "pong", state, name)


def _watch(the: _Lab) -> str:
    """A new spectator's hello and table, or what went wrong."""
    headers = {"origin": ORIGIN, "host": HOST}
    with the.ws.websocket_connect(f"/ws/{the.table}", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        hello, table = ws.receive_json(), ws.receive_json()
    if hello.get("type") != "hello" or table.get("type") != "table":
        return f"a new spectator got {describe(hello, 80)}, {describe(table, 80)}"
    return ""


def _ws_ok(case: Case, run: WsRun) -> str | None:
    if run.watcher:
        return run.watcher
    for message in run.received:
        if not isinstance(message, dict) or message.get("type") not in _KINDS:
            return f"received {describe(message, 120)}"
        if message["type"] == "error":
            text = message.get("message")
            if not isinstance(text, str) or not text.strip() or len(text) > MAX_MESSAGE:
                return f"an error message of {describe(text, 120)}"
            if python_text(text):
                return f"an error shows Python's {python_text(text)!r}: {describe(text, 200)}"
    if run.code is not None and run.code not in close_codes():
        return f"closed with code {run.code}, which docs/serve.md does not name"
    if run.after[: len(run.before)] != run.before:
        return "the table's stored moves changed under the connection"
    added = [(s, forced) for s, _m, forced in run.after[len(run.before) :] if s == 0]
    chosen = sum(1 for _s, forced in added if not forced)
    if run.seat is None and chosen:
        return f"{chosen} move(s) of seat 0 from a connection that is not seat 0"
    if not chosen <= run.accepted <= len(added):
        return (
            f"{run.accepted} move(s) not refused, but seat 0 gained {len(added)} ({chosen} chosen)"
        )
    return None


_KINDS = {"hello", "table", "moved", "go", "error", "pong"}

_target("server websocket", _ws_cases(), converse, _ws_ok)
