"""The engine's side: :func:`serve` runs any agent as an engine on standard input and output."""

from __future__ import annotations

import contextlib
import io
import random
import sys
from typing import IO, Any

import attrs

from chickenfoot import _checks as checks
from chickenfoot import _protocol as wire
from chickenfoot.agents import Agent
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.moves import Move
from chickenfoot.view import View

__all__ = ["serve"]


class _HostGoneError(Exception):
    """The host went away (its pipe closed): stop serving."""


def _said(err: BaseException) -> str:
    text = " ".join(str(err).split())
    text = text if len(text) <= 300 else text[:297] + "..."
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def serve(
    agent: Agent,
    *,
    name: str | None = None,
    author: str = "",
    stdin: IO[bytes] | IO[str] | None = None,
    stdout: IO[bytes] | IO[str] | None = None,
) -> None:
    """Serve ``agent`` as an engine (docs: Engine protocol) until ``quit`` or the end of
    the input; ``stdin`` and ``stdout`` are streams, binary or text (default: the
    process's own standard input and output).

    The hello names the engine (``name``, default the agent's class name) and lists every
    extension: with ``rng``, each decision draws from the host's generator, so the games
    are those the agent plays directly. An :mod:`attrs` agent advertises its fields of
    type bool, int, float or str as options (a ``SearchAgent``: ``iterations``,
    ``rollout``, ``backend``, ``objective``); an ``options`` message rebuilds it with the
    values given. While the agent chooses, whatever it prints goes to standard error, never
    into the protocol.
    An agent that raises, or a message that cannot be read, is answered with an
    ``error`` message, and serving goes on.

    A whole engine, in a file ``mybot.py`` run as ``python mybot.py``::

        from chickenfoot.engine import serve

        class FirstMove:
            def choose(self, view, legal, rng):
                return legal[0]

        serve(FirstMove(), name="first-move")

    >>> import io
    >>> from chickenfoot.agents import GreedyAgent
    >>> host = io.BytesIO(b'{"type": "hello", "protocol": 1}\\n{"type": "quit"}\\n')
    >>> engine = io.BytesIO()
    >>> serve(GreedyAgent(), stdin=host, stdout=engine, author="me")
    >>> engine.getvalue().decode()
    '{"type":"hello","protocol":1,"name":"GreedyAgent","author":"me","extensions":["rng","ping","rounds"]}\\n'
    """
    if not callable(getattr(agent, "choose", None)):
        raise checks.invalid("agent", agent, "must have a choose(view, legal, rng) method")
    if name is not None and not isinstance(name, str):
        raise checks.invalid("name", name, "must be None or a string")
    if not isinstance(author, str):
        raise checks.invalid("author", author, "must be a string")
    source: Any = sys.stdin.buffer if stdin is None else stdin
    sink: Any = sys.stdout.buffer if stdout is None else stdout
    if _is_text(source):  # a text stream: read its bytes
        source = _TextReader(source)
    _Server(agent, name or type(agent).__name__, author, source, sink).run()


def _is_text(stream: object) -> bool:
    return isinstance(stream, io.TextIOBase) or getattr(stream, "encoding", None) is not None


class _TextReader:
    """A text stream read as UTF-8 bytes (``serve`` reads bytes: lines are bounded in bytes)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def readline(self, limit: int) -> bytes:
        text: str = self.stream.readline(limit)
        return text.encode("utf-8", "surrogateescape")


class _Server:
    def __init__(self, agent: Agent, name: str, author: str, source: Any, sink: Any) -> None:
        self.agent = agent
        self.name = name
        self.author = author
        self.source = source
        self.sink = sink
        self.own_rng = random.Random()  # for a host that sends no rng state
        self.text = _is_text(sink)

    def send(self, message: dict[str, Any]) -> None:
        line = wire.encode(message)
        try:
            if self.text:
                self.sink.write(line.decode())
            else:
                self.sink.write(line)
            self.sink.flush()
        except (OSError, ValueError):  # the host closed its end
            raise _HostGoneError from None

    def error(self, text: str) -> None:
        self.send({"type": "error", "message": text})

    def run(self) -> None:
        with contextlib.suppress(_HostGoneError):
            while True:
                line = self.source.readline(wire.MAX_LINE + 1)
                if not line:
                    return
                if len(line) > wire.MAX_LINE and line[-1:] != b"\n":
                    self.error(f"a line over {wire.MAX_LINE:,} bytes")
                    while line and line[-1:] != b"\n":  # skip the rest of it
                        line = self.source.readline(wire.MAX_LINE + 1)
                    continue
                if not line.strip():
                    continue
                try:
                    message = wire.decode(line)
                except wire.ProtocolError as err:
                    self.error(str(err).replace("sent ", "received ", 1))
                    continue
                if not self.handle(message):
                    return

    def handle(self, message: dict[str, Any]) -> bool:
        """Answer one message; ``False`` for quit."""
        kind = message["type"]
        if kind == "quit":
            return False
        if kind == "hello":
            options = wire.advertised_options(self.agent)
            self.send(wire.engine_hello(self.name, self.author, options))
        elif kind == "options":
            self.configure(message.get("options"))
        elif kind == "go":
            self.go(message)
        elif kind == "ping":
            self.send({"type": "pong", "id": message.get("id")})
        # new_round, round_over and messages of later extensions need no answer
        return True

    def configure(self, options: object) -> None:
        if not isinstance(options, dict):
            self.error(f"options must be an object, got {brief(options)}")
            return
        why = wire.check_option_values(options, wire.advertised_options(self.agent))
        if why is not None:
            self.error(why)
            return
        try:
            self.agent = attrs.evolve(self.agent, **options)  # type: ignore[misc]
        except (ChickenFootError, TypeError) as err:
            self.error(_said(err))
            return
        self.send({"type": "ready"})

    def go(self, message: dict[str, Any]) -> None:
        try:
            view = View.from_dict(message.get("view"))
        except (ChickenFootError, RecursionError) as err:
            self.error(f"the view cannot be read: {_said(err)}")
            return
        legal = view.legal_moves
        if message.get("legal") != [m.notation() for m in legal]:
            self.error("the legal moves sent are not the view's")
            return
        state = message.get("rng")
        rng = self.own_rng
        if state is not None:
            try:
                rng = random.Random()
                rng.setstate(wire.read_rng(state))
            except (wire.ProtocolError, ValueError, TypeError):
                self.error("the rng state cannot be read")
                return
        try:
            with contextlib.redirect_stdout(sys.stderr):  # a print() must not reach the host
                answer = self.agent.choose(view, legal, rng)
        except Exception as err:
            self.error(f"{type(self.agent).__name__}.choose raised {_said(err)}")
            return
        text: object = answer.notation() if isinstance(answer, Move) else answer
        if not isinstance(text, str):
            self.error(f"{type(self.agent).__name__}.choose returned {brief(answer)}")
            return
        reply: dict[str, Any] = {"type": "move", "move": text}
        if state is not None:
            reply["rng"] = wire.rng_state(rng)
        self.send(reply)
