"""The host's side: :class:`EngineAgent`, an agent that asks a program for its moves."""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing.util
import os
import random
import secrets
import shlex
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from chickenfoot import _checks as checks
from chickenfoot import _protocol as wire
from chickenfoot.engine._process import (
    EOF,
    TIMEOUT,
    TOO_LONG,
    EngineProcess,
    StartError,
    StartTimeoutError,
    describe_exit,
)
from chickenfoot.errors import AgentError, ArgumentError, brief
from chickenfoot.moves import Move
from chickenfoot.state import LegalMoves
from chickenfoot.view import View

__all__ = ["MAX_MESSAGE", "EngineAgent"]

log = logging.getLogger("chickenfoot.engine")

MAX_MESSAGE: Final = 500
"""The longest error message an engine's failure makes (characters)."""
_MAX_MS = 86_400_000  # a day: the longest time_ms, grace_ms or hello_ms
_MAX_ARGS = 1000


class _Session:
    """One running engine: its process, its hello, the rounds it has seen per seat."""

    def __init__(self, process: EngineProcess, hello: wire.Hello) -> None:
        self.process = process
        self.hello = hello
        self.seen: dict[int, tuple[Any, ...]] = {}  # seat -> (rules, centre, history)
        self.pings = 0


class _Slot:
    """Where an agent's running engine lives; a worker's unpickled copies share one."""

    def __init__(self) -> None:
        self.session: _Session | None = None
        self.pid = os.getpid()
        self.lock = threading.RLock()
        _ALL_SLOTS.add(self)

    def current(self) -> _Session | None:
        if self.pid != os.getpid():  # inherited by a fork: the parent's engine, not ours
            self.forget()
        return self.session

    def forget(self) -> None:
        """After a fork: the engine (and a lock another thread may have held) are the
        parent's; this process starts its own when it needs one."""
        self.session, self.pid, self.lock = None, os.getpid(), threading.RLock()

    def close(self, wait: float = 1.0) -> None:
        session, self.session = self.current(), None
        if session is not None:
            session.process.finish(quit=wire.encode({"type": "quit"}), wait=wait)


_ALL_SLOTS: weakref.WeakSet[_Slot] = weakref.WeakSet()


def _after_fork() -> None:
    for slot in list(_ALL_SLOTS):
        slot.forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


_WORKER_SLOTS: dict[str, _Slot] = {}
"""The slots of unpickled agents in this process, by token: a worker of a process pool
starts each engine once and keeps it for every game it plays."""


def _close_worker_slots() -> None:
    for slot in list(_WORKER_SLOTS.values()):
        slot.close(wait=0.2)


atexit.register(_close_worker_slots)
# A worker of multiprocessing ends with os._exit, which skips atexit: its finalizers run.
multiprocessing.util.Finalize(None, _close_worker_slots, exitpriority=10)


_Limit = tuple[float, int, str]
"""A deadline (``time.monotonic()``), the milliseconds it was set for, and which setting
that is (for the error message)."""


def _limit(timeout_ms: int, why: str) -> _Limit:
    return time.monotonic() + timeout_ms / 1000, timeout_ms, why


def _command(command: object) -> tuple[str, ...]:
    if isinstance(command, (str, os.PathLike)):
        items: tuple[object, ...] = (command,)
    elif isinstance(command, Sequence) and not isinstance(command, (bytes, bytearray)):
        items = tuple(command)
    else:
        raise checks.invalid("command", command, "must be a program path or a list of arguments")
    if not items or len(items) > _MAX_ARGS:
        raise checks.invalid("command", command, f"must have 1 to {_MAX_ARGS:,} arguments")
    argv = []
    for i, item in enumerate(items):
        arg = os.fspath(item) if isinstance(item, os.PathLike) else item
        if not isinstance(arg, str) or "\0" in arg:
            raise checks.invalid(f"command[{i}]", item, "must be a string without NUL")
        argv.append(arg)
    if not argv[0].strip():
        raise checks.invalid("command", command, "must name a program")
    return tuple(argv)


class EngineAgent:
    """An agent whose moves come from a program speaking the engine protocol on its
    standard input and output (docs: Engine protocol), in any language.

    ``command`` is the program: a path, or a list of its arguments
    (``["node", "examples/engine.js"]``); it is run directly, never by a shell. The program
    starts on the first decision (or :meth:`start`), in a process group of its own; it is
    greeted, configured with ``options`` (which it must advertise), and then asked for each
    decision with the view and the legal moves, and ``time_ms`` milliseconds to think. It
    is closed by :meth:`close`, at the end of a ``with`` block, when the agent is garbage
    collected, or when Python exits.

    Any failure of the engine raises :class:`~chickenfoot.AgentError` naming the engine,
    the seat and what happened, with the last lines of its standard error; the program
    and its children are then killed and reaped, and the next decision starts it afresh:

    - it cannot be started (no such program, not executable);
    - no hello within ``hello_ms``, or a protocol other than 1, or refused options;
    - no move within ``time_ms + grace_ms``; it exits or closes its output;
    - a line that is not a protocol message, or longer than 1 MiB; an illegal move.

    ``on_info(message)`` receives each ``info`` message (a dict) the engine sends while
    thinking; without it they are logged at DEBUG level on the ``chickenfoot.engine``
    logger. The agent pickles as its settings only, so :func:`~chickenfoot.simulate` can
    ship it to a process pool or a cluster: each worker process starts its own engine
    once and keeps it for all the games it plays.

    Through the ``rng`` extension the engine draws from the host's generator, so an agent
    of this library served by :func:`~chickenfoot.engine.serve` plays exactly the games it
    plays directly.

    >>> import sys, random
    >>> from chickenfoot import Rules, deal, play_round
    >>> from chickenfoot.agents import GreedyAgent
    >>> serving = [sys.executable, "-m", "chickenfoot", "engine", "greedy"]
    >>> with EngineAgent(serving) as bot:
    ...     end = play_round(deal(Rules(), seed=3), [bot] * 4, random.Random(0))
    >>> end == play_round(deal(Rules(), seed=3), [GreedyAgent()] * 4, random.Random(0))
    True
    >>> EngineAgent(["no-such-engine"]).start()
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: engine 'no-such-engine': cannot start: no such program
    """

    def __init__(
        self,
        command: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        options: Mapping[str, bool | int | float | str] | None = None,
        time_ms: int = 1000,
        grace_ms: int = 1000,
        hello_ms: int = 10_000,
        name: str | None = None,
        on_info: Callable[[dict[str, Any]], object] | None = None,
    ) -> None:
        self._command = _command(command)
        try:
            self._options = {} if options is None else wire.check_options_given(options)
        except wire.ProtocolError as err:
            raise ArgumentError(f"options={brief(options)} is invalid: {err}") from None
        self._time_ms = checks.integer(time_ms, "time_ms", low=1, high=_MAX_MS)
        self._grace_ms = checks.integer(grace_ms, "grace_ms", low=0, high=_MAX_MS)
        self._hello_ms = checks.integer(hello_ms, "hello_ms", low=1, high=_MAX_MS)
        if name is not None and (not isinstance(name, str) or not 0 < len(name) <= 100):
            raise checks.invalid("name", name, "must be None or a string of 1 to 100 characters")
        self._name = name
        self._on_info = None if on_info is None else checks.function(on_info, "on_info")
        self._token = secrets.token_hex(8)
        self._slot = _Slot()
        weakref.finalize(self, self._slot.close, 0.2)

    # -- settings --------------------------------------------------------------------------

    @property
    def command(self) -> tuple[str, ...]:
        """The program and its arguments."""
        return self._command

    @property
    def options(self) -> dict[str, bool | int | float | str]:
        """The options sent to the engine after its hello (a copy)."""
        return dict(self._options)

    @property
    def time_ms(self) -> int:
        """The time the engine is given per decision, in milliseconds."""
        return self._time_ms

    @property
    def name(self) -> str:
        """The name given, else the engine's own (once it has said hello), else the
        program's file name."""
        if self._name is not None:
            return self._name
        session = self._slot.current()
        if session is not None and session.hello.name:
            return session.hello.name
        return os.path.basename(self._command[0]) or self._command[0]

    @property
    def pid(self) -> int | None:
        """The process id of the running engine, or ``None`` when it is not running."""
        session = self._slot.current()
        return None if session is None else session.process.pid

    @property
    def hello(self) -> dict[str, Any] | None:
        """What the running engine said of itself (``name``, ``author``, ``extensions``,
        ``options``), or ``None`` when it is not running."""
        session = self._slot.current()
        if session is None:
            return None
        h = session.hello
        return {
            "name": h.name,
            "author": h.author,
            "extensions": sorted(h.extensions),
            "options": {k: dict(v) for k, v in h.options.items()},
        }

    def __repr__(self) -> str:
        # The name first: simulate's tables show the first 60 characters.
        shown = self._command[0] if len(self._command) == 1 else list(self._command)
        name = "" if self._name is None else f"name={self._name!r}, "
        return f"EngineAgent({name}command={shown!r})"

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_slot"]  # the process stays here; a copy starts its own
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._slot = _WORKER_SLOTS.setdefault(self._token, _Slot())

    # -- the conversation ------------------------------------------------------------------

    def _label(self) -> str:
        shown = wire.printable(" ".join(shlex.join(self._command).split()))
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        label = f"engine {brief(self.name, 60)}"
        return label if shown == self.name else f"{label} ({shown})"

    def _fail(self, what: str, seat: int | None = None, *, finish: bool = True) -> AgentError:
        """End the engine (kill and reap) and make the error that says what happened."""
        session = self._slot.current()
        where = "" if seat is None else f" at seat {seat}"
        head = f"{self._label()}{where}: "
        tail = ""
        if session is not None:
            self._slot.session = None
            if finish:
                session.process.finish()
            stderr = session.process.stderr_tail()
            tail = f"; its stderr: {stderr}" if stderr else ""
        room = MAX_MESSAGE - len(head) - len(tail)
        what = " ".join(what.split())
        if len(what) > room:
            what = what[: max(room - 3, 40)] + "..."
        return AgentError((head + what + tail)[:MAX_MESSAGE])

    def _lost(self, session: _Session, doing: str, seat: int | None) -> AgentError:
        """The engine's output closed (or its input would not take a line)."""
        by_itself, code = session.process.finish(wait=0.5)
        what = describe_exit(code) if by_itself else "closed its standard output"
        return self._fail(f"{what} {doing}", seat, finish=False)

    def _send(
        self, session: _Session, message: dict[str, Any], seat: int | None, limit: _Limit
    ) -> None:
        """Write a message before ``limit``'s deadline (a full pipe is not waited on past
        it: the engine, or a child holding its input, may never read)."""
        deadline, timeout_ms, why = limit
        sent = session.process.send(wire.encode(message), deadline - time.monotonic())
        if sent == EOF:
            raise self._lost(session, f"before reading {message['type']}", seat)
        if sent == TIMEOUT:
            kind = message["type"]
            raise self._fail(f"did not read {kind} within {timeout_ms:,} ms{why}", seat)

    def _receive(
        self, session: _Session, want: str, seat: int | None, limit: _Limit
    ) -> dict[str, Any]:
        """The next message of type ``want`` before ``limit``'s deadline, passing ``info``
        messages on."""
        deadline, timeout_ms, why = limit
        while True:
            left = deadline - time.monotonic()
            line = session.process.read(left) if left > 0 else TIMEOUT  # a flood ends too
            if line == TIMEOUT:
                raise self._fail(f"sent no {want} within {timeout_ms:,} ms{why}", seat)
            if line == EOF:
                raise self._lost(session, f"instead of sending {want}", seat)
            if line == TOO_LONG:
                raise self._fail(f"sent a line over {wire.MAX_LINE:,} bytes", seat)
            assert isinstance(line, bytes)
            if not line.strip():
                continue
            try:
                message = wire.decode(line)
            except wire.ProtocolError as err:
                raise self._fail(str(err), seat) from None
            kind = message["type"]
            if kind == want:
                return message
            if kind == "info":
                self._info(message, seat)
            elif kind == "error":
                text = message.get("message")
                said = brief(text, 200) if isinstance(text, str) else "(no message)"
                raise self._fail(f"reported an error instead of {want}: {said}", seat)
            else:
                raise self._fail(f"sent a {brief(kind, 40)} message where {want} was due", seat)

    def _info(self, message: dict[str, Any], seat: int | None) -> None:
        if self._on_info is not None:
            self._on_info(message)  # if it raises, _talking ends the engine
        else:
            log.debug("%s at seat %s: %s", self._label(), seat, brief(message, 200))

    def _session(self) -> _Session:
        session = self._slot.current()
        if session is not None:
            return session
        limit = _limit(self._hello_ms, " (hello_ms)")
        try:
            process = EngineProcess(self._command, start=self._hello_ms / 1000)
        except StartTimeoutError:  # started too slowly to say hello in time: no hello, then
            raise self._fail(f"sent no hello within {self._hello_ms:,} ms (hello_ms)") from None
        except StartError as err:
            raise self._fail(str(err)) from None
        session = _Session(process, wire.Hello("", "", frozenset(), {}))
        self._slot.session = session
        self._send(session, wire.host_hello(), None, limit)
        reply = self._receive(session, "hello", None, limit)
        try:
            session.hello = wire.parse_hello(reply)
        except wire.ProtocolError as err:
            raise self._fail(str(err)) from None
        if self._options:
            why = wire.check_option_values(self._options, session.hello.options)
            if why is not None:
                raise self._fail(why)
            limit = _limit(self._hello_ms, " after options (hello_ms)")
            self._send(session, {"type": "options", "options": self._options}, None, limit)
            self._receive(session, "ready", None, limit)
        return session

    @contextlib.contextmanager
    def _talking(self) -> Iterator[None]:
        """One exchange with the engine, alone; interrupted (Ctrl-C, an ``on_info`` that
        raises), the engine is ended: its next line would answer a question not asked."""
        with self._slot.lock:
            try:
                yield
            except AgentError:
                raise
            except BaseException:
                self._slot.close(wait=0)
                raise

    # -- the public methods ----------------------------------------------------------------

    def start(self) -> None:
        """Start the engine now (and greet and configure it), if it is not running."""
        with self._talking():
            self._session()

    def choose(self, view: View, legal: LegalMoves, rng: random.Random | None) -> Move:
        """Ask the engine for its move (docs: Engine protocol, ``go``)."""
        checks.instance(view, View, "EngineAgent.choose")
        given: object = legal
        if isinstance(given, (str, bytes)) or not isinstance(given, Sequence) or not given:
            raise checks.invalid("legal", legal, "must be the view's legal moves (not empty)")
        if rng is not None:
            checks.random_generator(rng)
        seat = view.seat
        with self._talking():
            session = self._session()
            why = f" (time_ms {self._time_ms:,} + grace_ms {self._grace_ms:,})"
            limit = _limit(self._time_ms + self._grace_ms, why)  # the whole exchange's
            uses = session.hello.extensions
            if "rounds" in uses:
                self._new_round(session, view, limit)
            state = wire.rng_state(rng) if "rng" in uses else None
            self._send(session, wire.go(view, legal, self._time_ms, state), seat, limit)
            reply = self._receive(session, "move", seat, limit)
            try:
                move = wire.read_move(reply, legal, view.rules.max_pip)
                if state is not None:
                    if "rng" not in reply:
                        raise wire.ProtocolError("sent a move without the rng state it owes")
                    restored = wire.read_rng(reply["rng"])
                    assert rng is not None
                    rng.setstate(restored)
            except wire.ProtocolError as err:
                raise self._fail(str(err), seat) from None
            except (ValueError, TypeError):  # setstate refused what read_rng let through
                raise self._fail("sent an rng state that random.Random refuses", seat) from None
            return move

    def _new_round(self, session: _Session, view: View, limit: _Limit) -> None:
        """``new_round`` before the first decision of each round, per seat."""
        seat, history = view.seat, view.history
        key = (view.rules, view.centre)
        seen = session.seen.get(seat)
        if seen is None or seen[0] != key or history[: len(seen[1])] != seen[1]:
            self._send(session, {"type": "new_round", "seat": seat}, seat, limit)
        session.seen[seat] = (key, history)

    def round_over(self, view: View) -> None:
        """Tell a running engine that uses the ``rounds`` extension that a round is over,
        with the final view of a seat it played (e.g. from ``play_match``'s ``on_round``,
        with ``end.view(seat)``); for other engines this does nothing."""
        checks.instance(view, View, "EngineAgent.round_over")
        with self._talking():
            session = self._slot.current()
            if session is None or "rounds" not in session.hello.extensions:
                return
            limit = _limit(self._grace_ms, " (grace_ms)")
            self._send(session, {"type": "round_over", "view": view.to_dict()}, view.seat, limit)
            session.seen.pop(view.seat, None)

    def ping(self) -> float:
        """The seconds of one ``ping``/``pong`` round trip (the engine is started first if
        it is not running); :class:`~chickenfoot.AgentError` for an engine without the
        ``ping`` extension, or one that does not answer within ``grace_ms``."""
        with self._talking():
            session = self._session()
            if "ping" not in session.hello.extensions:
                raise AgentError(f"{self._label()}: does not support ping (no 'ping' extension)")
            session.pings += 1
            began = time.perf_counter()
            limit = _limit(max(self._grace_ms, 1), " (grace_ms)")
            self._send(session, {"type": "ping", "id": session.pings}, None, limit)
            pong = self._receive(session, "pong", None, limit)
            if pong.get("id") != session.pings:
                raise self._fail(f"answered ping {session.pings} with {brief(pong, 80)}")
            return time.perf_counter() - began

    def close(self) -> None:
        """Send ``quit``, wait up to ``grace_ms`` for the engine to exit, then kill what is
        left of its process group and reap it. Safe to call twice; the agent can be used
        again (it starts a new engine)."""
        with self._slot.lock:
            self._slot.close(wait=min(self._grace_ms, 5000) / 1000)

    def __enter__(self) -> EngineAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
