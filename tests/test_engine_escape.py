"""chickenfoot.engine: the host's deadlines hold whatever an engine's children do.

The engines here fork a child that calls ``setsid()`` (out of the engine's process group,
so the group kill does not reach it), keeps the engine's pipes open and sleeps; then the
engine stops answering, or exits. The host must still fail within its deadline (plus a
bounded slack: the bounds below are correctness deadlines, far above the real figures),
``close()`` must return, the host's reader threads must end, and on Linux the escaped child
must be found and killed. Each test runs as on Linux (the shepherd) and, on Linux too, as
on other POSIX systems (the process group only, the shepherd switched off). Whatever
happens, each test kills what the engine left at its end.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from chickenfoot import AgentError, Rules, deal
from chickenfoot.engine import EngineAgent, _process

pytestmark = pytest.mark.skipif(not hasattr(os, "setsid"), reason="POSIX only: fork and setsid")

LINUX = sys.platform.startswith("linux")
SLEEP = 30  # how long an escaped child holds the pipes (the host must not wait for it)
BOUND = 5.0  # seconds: a deadline of 1 s plus slack, never the 30 s of the child

ESCAPER = """\
import json, os, sys, time

when, how, then, pidfile = sys.argv[1:5]

def note(pid):
    fd = os.open(pidfile, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, b"%d\\n" % pid)
    os.close(fd)

def say(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()

def escape():
    child = os.fork()
    if child == 0:
        if how == "double" and os.fork() != 0:
            os._exit(0)  # the middle process leaves: its child is orphaned at once
        os.setsid()  # out of the engine's process group and session
        note(os.getpid())
        if then == "flood":  # its stderr is never empty while anyone reads it
            deadline = time.monotonic() + SLEEP
            while time.monotonic() < deadline:
                os.write(2, b"flood " * 1000 + b"\\n")
        time.sleep(SLEEP)  # holding stdin, stdout and stderr
        os._exit(0)
    if how == "double":
        os.waitpid(child, 0)

def stop():
    if then == "exit":
        sys.exit(5)
    time.sleep(SLEEP)
    sys.exit(0)

note(os.getpid())
print("escaper started", file=sys.stderr, flush=True)
for line in sys.stdin:
    kind = json.loads(line)["type"]
    if kind == "hello":
        if when == "hello":
            escape()
            stop()
        say({"type": "hello", "protocol": 1, "name": "escaper"})
        if when == "idle":
            escape()
    elif kind == "go":
        if when == "go":
            escape()
            stop()
        say({"type": "move", "move": json.loads(line)["legal"][0]})
    elif kind == "quit":
        sys.exit(0)
""".replace("SLEEP", str(SLEEP))


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, waiting for its parent to reap it, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return not LINUX
    return state not in ("Z", "X")


def gone(pid: int) -> bool:
    deadline = time.monotonic() + 3
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture(params=["shepherd", "group"] if LINUX else ["group"])
def finds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether the host finds escaped children: on Linux, under the shepherd; as on other
    POSIX systems (``group``), where only the program's process group is killed."""
    if request.param == "group":
        monkeypatch.setattr(_process, "_use_shepherd", lambda: False)
    return bool(request.param == "shepherd")


def readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("chickenfoot engine")]


@pytest.fixture
def escaper(tmp_path: Path, finds: bool) -> Iterator[tuple[Path, Path]]:
    """The engine's script and its pid file; at the end, the host's reader threads must be
    gone (they never wait for the end of the pipes), and whatever happened, every process
    the engine noted (itself, the escaped child) is killed."""
    assert readers() == []
    script = tmp_path / "escaper.py"
    script.write_text(ESCAPER)
    pidfile = tmp_path / "escaper.pids"
    try:
        yield script, pidfile
        deadline = time.monotonic() + BOUND
        while readers() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert readers() == [], "a reader thread waits for a pipe a child holds"
    finally:
        kill_noted(pidfile)


def kill_noted(pidfile: Path) -> None:
    for pid in noted(pidfile):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes() if LINUX else b"escaper.py"
        except OSError:
            continue
        if b"escaper.py" in cmdline:  # still ours, not a reused pid
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def noted(pidfile: Path) -> list[int]:
    try:
        return [int(p) for p in pidfile.read_text().split()]
    except OSError:
        return []


def agent(
    script: Path, pidfile: Path, when: str, how: str = "single", then: str = "hang"
) -> EngineAgent:
    command = [sys.executable, str(script), when, how, then, str(pidfile)]
    return EngineAgent(command, time_ms=500, grace_ms=500, hello_ms=1000)


def decide(bot: EngineAgent) -> AgentError:
    state = deal(Rules(), seed=2)
    with pytest.raises(AgentError) as info:
        bot.choose(state.view(state.turn), state.legal_moves, None)
    return info.value


def escaped(pidfile: Path) -> list[int]:
    """The escaped children's pids (the first noted is the engine's)."""
    deadline = time.monotonic() + 3
    while len(noted(pidfile)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    pids = noted(pidfile)
    assert len(pids) >= 2, "the engine's child never noted itself"
    return pids[1:]


def all_gone(bot: EngineAgent, pidfile: Path, *, finds: bool) -> None:
    """The engine is gone, and (where escaped children are found) so is every child."""
    assert bot.pid is None and not alive(noted(pidfile)[0])
    if finds:
        for pid in escaped(pidfile):
            assert gone(pid), f"the escaped child {pid} still runs"


@pytest.mark.parametrize(
    ("how", "then"), [("single", "hang"), ("double", "hang"), ("single", "flood")]
)
def test_a_decision_fails_within_its_deadline_when_a_child_holds_the_pipes(
    escaper: tuple[Path, Path], finds: bool, how: str, then: str
) -> None:
    """``double``: the child forks the one that escapes and exits (orphaned at once);
    ``flood``: the escaped child writes to stderr without pause."""
    script, pidfile = escaper
    bot = agent(script, pidfile, "go", how, then)
    began = time.monotonic()
    err = decide(bot)
    took = time.monotonic() - began
    assert took < BOUND, f"choose took {took:.1f} s"
    assert "sent no move within 1,000 ms" in str(err)
    said = "flood flood" if then == "flood" else "escaper started"
    assert said in str(err)  # the engine's stderr still reaches the message
    began = time.monotonic()
    bot.close()
    assert time.monotonic() - began < BOUND
    all_gone(bot, pidfile, finds=finds)


def test_the_handshake_fails_within_its_deadline_when_a_child_holds_the_pipes(
    escaper: tuple[Path, Path], finds: bool
) -> None:
    script, pidfile = escaper
    bot = agent(script, pidfile, "hello")
    began = time.monotonic()
    with pytest.raises(AgentError, match="sent no hello within 1,000 ms"):
        bot.start()
    assert time.monotonic() - began < BOUND
    all_gone(bot, pidfile, finds=finds)


def test_an_engine_that_exits_leaving_a_child_on_the_pipes(
    escaper: tuple[Path, Path], finds: bool
) -> None:
    script, pidfile = escaper
    bot = agent(script, pidfile, "go", "single", "exit")
    began = time.monotonic()
    err = decide(bot)
    assert time.monotonic() - began < BOUND
    if finds:  # the child is found and killed, so its pipes close: the exit is seen
        assert "exited with status 5 instead of sending move" in str(err)
        for pid in escaped(pidfile):
            assert gone(pid), f"the escaped child {pid} still runs"
    else:  # the child keeps the pipes: the engine is silent until the deadline
        assert "sent no move within 1,000 ms" in str(err)


def test_close_returns_when_a_child_holds_the_pipes(
    escaper: tuple[Path, Path], finds: bool
) -> None:
    script, pidfile = escaper
    bot = agent(script, pidfile, "idle")
    state = deal(Rules(), seed=2)
    with bot:
        assert bot.choose(state.view(state.turn), state.legal_moves, None) in state.legal_moves
        began = time.monotonic()
    assert time.monotonic() - began < BOUND  # the engine quits; its child does not
    all_gone(bot, pidfile, finds=finds)


DEAF = """\
import json, sys, time
sys.stdout.write(json.dumps({"type": "hello", "protocol": 1, "name": "deaf",
                             "extensions": ["rounds"]}) + "\\n")
sys.stdout.flush()
time.sleep(SLEEP)  # never reads its input again: the pipe fills up
""".replace("SLEEP", str(SLEEP))


def test_writes_have_deadlines_too(tmp_path: Path) -> None:
    """An engine that stops reading its input (or a child that holds it and does not
    read): once the pipe is full, a message the host writes fails within its deadline
    rather than blocking the host for good."""
    script = tmp_path / "deaf.py"
    script.write_text(DEAF)
    bot = EngineAgent([sys.executable, str(script)], time_ms=500, grace_ms=500)
    view = deal(Rules(), seed=2).view(0)
    outcome: list[BaseException | None] = []

    def tell() -> None:
        try:
            for _ in range(10_000):  # each view is a few hundred bytes: the pipe fills
                bot.round_over(view)
            outcome.append(None)
        except BaseException as err:  # handed to the test's thread
            outcome.append(err)

    bot.start()
    pid = bot.pid
    assert pid is not None
    teller = threading.Thread(target=tell, daemon=True)
    began = time.monotonic()
    teller.start()
    teller.join(BOUND)
    try:
        assert not teller.is_alive(), "round_over blocked on a full pipe"
        took = time.monotonic() - began
        (err,) = outcome
        assert isinstance(err, AgentError), err
        assert "did not read round_over within 500 ms (grace_ms)" in str(err)
        assert took < BOUND and bot.pid is None and not alive(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # a blocked writer gets its broken pipe
