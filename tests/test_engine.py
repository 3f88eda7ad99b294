"""chickenfoot.engine: every failure of an engine is an AgentError naming the engine, the
seat and what happened, and leaves no process behind; bad arguments are library errors.

The engines are ``tests/fake_engine.py MODE PIDFILE`` (no chickenfoot import: they start
in milliseconds); the timeouts are short so that the failures take little time.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import random
import re
import signal
import stat
import sys
import time
import warnings
from pathlib import Path

import pytest

from chickenfoot import (
    AgentError,
    ArgumentError,
    Rounds,
    Rules,
    State,
    deal,
    play_match,
    play_round,
)
from chickenfoot.agents import GreedyAgent, HeuristicAgent, SearchAgent
from chickenfoot.engine import MAX_LINE, MAX_MESSAGE, EngineAgent, serve

FAKE = str(Path(__file__).with_name("fake_engine.py"))
FAST = {"time_ms": 200, "grace_ms": 100, "hello_ms": 1500}


def gone(pid: int, *, ours: bool = True) -> bool:
    """Whether process ``pid`` no longer exists: our own child must be reaped (no
    zombie); a grandchild may stay a zombie until its new parent reaps it."""
    deadline = time.monotonic() + 3
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if not ours:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                return True
            if state in ("Z", "X"):
                return True
        if ours or time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def fake(mode: str, tmp_path: Path, **settings: object) -> tuple[EngineAgent, Path]:
    pidfile = tmp_path / f"{mode}.pid"
    kwargs = {**FAST, **settings}
    return EngineAgent([sys.executable, FAKE, mode, str(pidfile)], **kwargs), pidfile  # type: ignore[arg-type]


def pids(pidfile: Path) -> list[int]:
    return [int(p) for p in pidfile.read_text().split()]


def first_decision() -> tuple[object, random.Random]:
    state = deal(Rules(), seed=2)  # seat 0 has two legal moves
    return state, random.Random(0)


def fail(agent: EngineAgent) -> AgentError:
    state, rng = first_decision()
    with pytest.raises(AgentError) as info:
        play_round(state, [agent] * 4, rng)  # type: ignore[arg-type]
    message = str(info.value)
    assert len(message) <= MAX_MESSAGE and "\n" not in message
    return info.value


CASES = {
    # mode: the words the message must hold
    "crash": ["at seat 0", "exited with status 3", "Traceback: something broke"],
    "hang": ["at seat 0", "sent no move within 300 ms", "time_ms 200 + grace_ms 100"],
    "junk": ["at seat 0", "not JSON", "bestmove 9-2@9-9"],
    "flood": ["at seat 0", "sent no move within 300 ms"],
    "long": ["at seat 0", f"a line over {MAX_LINE:,} bytes"],
    "illegal": ["at seat 0", "chose pass, which is not legal here (legal: 9-2@9-9, 9-7@9-9)"],
    "not_a_move": ["at seat 0", "'e2e4', which is not a move"],
    "error": ["at seat 0", "reported an error instead of move: 'I give up'"],
    "close_stdout": ["at seat 0", "closed its standard output"],
    "array": ["at seat 0", "[1, 2, 3], which is not a JSON object"],
    "no_rng_back": ["at seat 0", "without the rng state"],
    "bad_rng": ["at seat 0", "not a random.Random state"],
    "slow_hello": ["sent no hello within 1,500 ms (hello_ms)"],
    "junk_hello": ["not JSON: 'id name fake'"],
    "version": ["speaks protocol 2, not 1"],
}


@pytest.mark.parametrize("mode", sorted(CASES))
def test_each_failure_is_an_agent_error_and_leaves_no_process(mode: str, tmp_path: Path) -> None:
    agent, pidfile = fake(mode, tmp_path)
    err = fail(agent)
    message = str(err)
    assert message.startswith("engine 'fake' (") or message.startswith("engine 'python")
    for words in CASES[mode]:
        assert words in message, message
    if mode not in ("slow_hello", "junk_hello", "version"):
        assert "fake engine" in message  # the stderr's last lines
    assert agent.pid is None
    (pid,) = pids(pidfile)
    assert gone(pid)


def test_an_engines_words_reach_a_terminal_escaped(tmp_path: Path) -> None:
    script = tmp_path / "escapes.py"
    script.write_text(
        "import sys\n"
        "sys.stderr.write('\\x1b[2J cleared your screen\\n'); sys.stderr.flush()\n"
        "sys.stdin.readline()\n"
        'print(\'{"type": "hello", "protocol": 1, "name": "\\\\u001b[31mred"}\')\n'
        "sys.stdout.flush(); sys.stdin.readline()\n"
    )
    agent = EngineAgent([sys.executable, str(script)], **FAST)  # type: ignore[arg-type]
    message = str(fail(agent))
    assert "\x1b" not in message
    assert "engine '\\x1b[31mred'" in message and "\\x1b[2J cleared your screen" in message


def test_a_failure_kills_the_engines_children_too(tmp_path: Path) -> None:
    agent, pidfile = fake("child", tmp_path)
    assert "sent no move within" in str(fail(agent))
    parent, child = pids(pidfile)
    assert gone(parent)
    assert gone(child, ours=False)


def test_close_kills_an_engine_that_ignores_quit(tmp_path: Path) -> None:
    agent, pidfile = fake("stubborn", tmp_path)
    agent.start()
    (pid,) = pids(pidfile)
    began = time.monotonic()
    agent.close()
    assert time.monotonic() - began < 2
    assert gone(pid) and agent.pid is None
    agent.close()  # twice is fine


def test_after_a_failure_the_next_decision_starts_a_new_engine(tmp_path: Path) -> None:
    agent, _ = fake("first", tmp_path)
    with agent:
        state, rng = first_decision()
        agent.start()
        first = agent.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        with pytest.raises(AgentError, match=r"at seat 0: was killed by signal 9 \(SIGKILL\)"):
            agent.choose(state.view(0), state.view(0).legal_moves, rng)  # type: ignore[attr-defined]
        end = play_round(state, [agent] * 4, rng)  # type: ignore[arg-type]
        assert end.is_over() and agent.pid not in (None, first)
    assert gone(first)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_use_its_parents_engine(tmp_path: Path) -> None:
    agent, _ = fake("first", tmp_path)
    with agent:
        agent.start()
        parent_engine = agent.pid
        read, write = os.pipe()
        with warnings.catch_warnings():  # Python 3.12+: fork() with threads running
            warnings.simplefilter("ignore", DeprecationWarning)
            child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe
            ok = agent.pid is None
            state, rng = first_decision()
            ok = ok and play_round(state, [agent] * 4, rng).is_over()  # type: ignore[arg-type]
            ok = ok and agent.pid not in (None, parent_engine)
            agent.close()
            os.write(write, b"1" if ok else b"0")
            os._exit(0)
        os.close(write)
        assert os.read(read, 1) == b"1"
        os.waitpid(child, 0)
        os.close(read)
        assert agent.pid == parent_engine
        state, rng = first_decision()
        assert play_round(state, [agent] * 4, rng).is_over()  # type: ignore[arg-type]


def test_info_messages_reach_the_callback(tmp_path: Path) -> None:
    seen: list[dict[str, object]] = []
    agent, _ = fake("first", tmp_path, on_info=seen.append)
    with agent:
        state, rng = first_decision()
        play_round(state, [agent] * 4, rng)  # type: ignore[arg-type]
    assert seen and seen[0]["type"] == "info" and seen[0]["depth"] == 1


def test_an_interrupted_decision_ends_the_engine(tmp_path: Path) -> None:
    def interrupt(message: dict[str, object]) -> None:
        raise KeyboardInterrupt

    agent, pidfile = fake("first", tmp_path, on_info=interrupt)
    state, rng = first_decision()
    with pytest.raises(KeyboardInterrupt):
        play_round(state, [agent] * 4, rng)  # type: ignore[arg-type]
    assert agent.pid is None and gone(pids(pidfile)[0])


def test_a_program_that_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(AgentError, match="cannot start: no such program"):
        EngineAgent(str(tmp_path / "nothing-here")).start()
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(stat.S_IRUSR | stat.S_IWUSR)  # not executable
    with pytest.raises(AgentError, match="cannot start: the program is not executable"):
        EngineAgent(script).start()
    with pytest.raises(AgentError, match="not executable"):
        EngineAgent(tmp_path).start()  # a directory


def test_options_are_checked_against_those_advertised(tmp_path: Path) -> None:
    agent, _ = fake("options", tmp_path, options={"depth": 3})
    with agent:
        agent.start()
        assert agent.hello is not None and agent.hello["options"]["depth"]["max"] == 5
    for options, words in [
        ({"depth": 9}, "option depth=9 must be at most 5"),
        ({"depth": "deep"}, "option depth='deep' must be an integer"),
        ({"width": 2}, "has no option 'width' (it advertises: depth)"),
    ]:
        agent, pidfile = fake("options", tmp_path, options=options)
        with pytest.raises(AgentError, match=re.escape(words)):
            agent.start()
        assert gone(pids(pidfile)[0])
    agent, _ = fake("first", tmp_path, options={"depth": 2})
    with pytest.raises(AgentError, match=r"has no option 'depth' \(it advertises: none\)"):
        agent.start()
    agent, _ = fake("options_refused", tmp_path, options={"depth": 4})
    with pytest.raises(AgentError, match="reported an error instead of ready: 'depth 4 is too"):
        agent.start()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"command": 5}, "command=5 is invalid"),
        ({"command": []}, "must have 1 to 1,000 arguments"),
        ({"command": ["node", 3]}, "command[1]=3 is invalid"),
        ({"command": ["a\0b"]}, "without NUL"),
        ({"command": b"node"}, "must be a program path or a list"),
        ({"command": "x", "time_ms": 0}, "time_ms=0 is invalid"),
        ({"command": "x", "grace_ms": -1}, "grace_ms=-1 is invalid"),
        ({"command": "x", "hello_ms": True}, "hello_ms=True is invalid"),
        ({"command": "x", "options": {"a": [1]}}, "a value is a bool, a number or a string"),
        ({"command": "x", "options": ["a"]}, "options=['a'] is invalid"),
        ({"command": "x", "options": {"": 1}}, "names are non-empty strings"),
        ({"command": "x", "name": ""}, "name='' is invalid"),
        ({"command": "x", "on_info": 3}, "on_info=3 is invalid"),
    ],
)
def test_bad_arguments_are_argument_errors(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ArgumentError) as info:
        EngineAgent(**kwargs)  # type: ignore[arg-type]
    assert words in str(info.value)


def test_choose_checks_its_arguments(tmp_path: Path) -> None:
    agent, _ = fake("first", tmp_path)
    state, _ = first_decision()
    view = state.view(0)  # type: ignore[attr-defined]
    with pytest.raises(ArgumentError, match=r"EngineAgent\.choose needs a View"):
        agent.choose("view", view.legal_moves, None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="legal="):
        agent.choose(view, [], None)
    with pytest.raises(ArgumentError, match="rng=3"):
        agent.choose(view, view.legal_moves, 3)  # type: ignore[arg-type]
    assert agent.pid is None  # nothing was started


def test_it_pickles_as_its_settings_and_the_copy_starts_its_own(tmp_path: Path) -> None:
    agent, _ = fake("first", tmp_path, name="mine", options=None)
    with agent:
        agent.start()
        copy = pickle.loads(pickle.dumps(agent))
        assert copy.pid is None and repr(copy) == repr(agent)
        assert repr(agent).startswith("EngineAgent(name='mine', command=[")
        state, rng = first_decision()
        assert play_round(state, [copy] * 4, rng).is_over()  # type: ignore[arg-type]
        assert copy.pid not in (None, agent.pid)
        copy.close()


def test_ping_and_the_rounds_extension() -> None:
    command = [sys.executable, "-m", "chickenfoot", "engine", "greedy"]
    with EngineAgent(command) as agent:
        assert 0 < agent.ping() < 5
        assert agent.ping() < 5
        state, rng = first_decision()
        end = play_round(state, [agent] * 4, rng)  # type: ignore[arg-type]
        agent.round_over(end.view(1))
        assert end == play_round(state, [GreedyAgent()] * 4, random.Random(0))  # type: ignore[arg-type]


def test_new_round_and_round_over_reach_an_engine_that_uses_them(tmp_path: Path) -> None:
    agent, pidfile = fake("rounds", tmp_path)
    rules = Rules(players=2, match=Rounds(2))
    ends: list[State] = []
    with agent:
        play_match(rules, [agent, agent], seed=1, rng=random.Random(0), on_round=ends.append)
        agent.round_over(ends[-1].view(1))
    told = Path(f"{pidfile}.log").read_text().split("\n")[:-1]
    assert told[0] == "hello None" and told[-2:] == ["round_over 1", "quit None"]
    rounds = [line for line in told if line.startswith("new_round")]
    assert sorted(rounds) == ["new_round 0", "new_round 0", "new_round 1", "new_round 1"]
    for seat in (0, 1):  # each seat's first go of a round follows its new_round
        first = told.index(f"new_round {seat}")
        assert told[first + 1 :].index(f"go {seat}") < told[first + 1 :].index(f"new_round {seat}")


def test_ping_needs_the_extension(tmp_path: Path) -> None:
    agent, _ = fake("first", tmp_path)
    with agent, pytest.raises(AgentError, match="does not support ping"):
        agent.ping()


# -- serve ----------------------------------------------------------------------------------


def served(agent: object, *messages: object, text: bool = False) -> list[dict[str, object]]:
    lines = "".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in messages)
    if text:
        out_text = io.StringIO()
        serve(agent, stdin=io.StringIO(lines), stdout=out_text)  # type: ignore[arg-type]
        got = out_text.getvalue()
    else:
        out = io.BytesIO()
        serve(agent, stdin=io.BytesIO(lines.encode()), stdout=out)  # type: ignore[arg-type]
        got = out.getvalue().decode()
    return [json.loads(line) for line in got.splitlines()]


def go_message(seed: int = 2, rng: random.Random | None = None) -> dict[str, object]:
    view = deal(Rules(), seed=seed).view(0)
    message: dict[str, object] = {
        "type": "go",
        "view": view.to_dict(),
        "legal": [m.notation() for m in view.legal_moves],
        "time_ms": 100,
    }
    if rng is not None:
        state = rng.getstate()
        message["rng"] = [state[0], list(state[1]), state[2]]
    return message


def test_serve_answers_every_message() -> None:
    hello = {"type": "hello", "protocol": 1}
    got = served(
        SearchAgent(iterations=2),
        hello,
        {"type": "options", "options": {"iterations": 3}},
        {"type": "new_round", "seat": 0},
        go_message(rng=random.Random(1)),
        {"type": "ping", "id": 7},
        {"type": "round_over", "view": {}},
        {"type": "quit"},
        {"type": "ping", "id": 8},  # after quit: never read
    )
    assert [m["type"] for m in got] == ["hello", "ready", "move", "pong"]
    assert got[0]["options"] == {
        "iterations": {"type": "int", "default": 2},
        "rollout": {"type": "string", "default": "greedy"},
        "backend": {"type": "string", "default": "auto"},
        "objective": {"type": "string", "default": "margin"},
    }
    rng = random.Random(1)
    view = deal(Rules(), seed=2).view(0)
    assert (
        got[2]["move"] == SearchAgent(iterations=3).choose(view, view.legal_moves, rng).notation()
    )
    state = got[2]["rng"]
    assert isinstance(state, list) and tuple(state[1]) == rng.getstate()[1]
    assert got[3] == {"type": "pong", "id": 7}


def test_serve_reports_bad_messages_and_goes_on() -> None:
    class Broken:
        def choose(self, view: object, legal: object, rng: object) -> object:
            print("debugging output")  # must not reach the protocol
            raise RuntimeError("oops")

    bad_view = {**go_message(), "view": {"format": "chickenfoot/view"}}
    got = served(
        Broken(),
        "not json",
        "[1]",
        bad_view,
        {**go_message(), "legal": ["pass"]},
        {**go_message(), "rng": [1]},
        go_message(),
        {"type": "options", "options": {"x": 1}},
        "",
        {"type": "unknown-later-extension"},
        text=True,
    )
    texts = [str(m.get("message")) for m in got]
    assert all(m["type"] == "error" for m in got)
    assert "received a line that is not JSON" in texts[0]
    assert "which is not a JSON object" in texts[1]
    assert texts[2].startswith("the view cannot be read: FormatError")
    assert texts[3] == "the legal moves sent are not the view's"
    assert texts[4] == "the rng state cannot be read"
    assert texts[5] == "Broken.choose raised RuntimeError: oops"
    assert texts[6].startswith("has no option 'x'")
    assert len(got) == 7


def test_serve_refuses_a_line_over_the_limit() -> None:
    out = io.BytesIO()
    huge = b'{"type": "ping", "pad": "' + b"x" * (MAX_LINE + 10) + b'"}\n'
    serve(GreedyAgent(), stdin=io.BytesIO(huge + b'{"type":"ping","id":1}\n'), stdout=out)
    first, second = out.getvalue().decode().splitlines()
    assert json.loads(first)["message"] == f"a line over {MAX_LINE:,} bytes"
    assert json.loads(second) == {"type": "pong", "id": 1}


def test_serve_options_that_the_agent_refuses() -> None:
    got = served(HeuristicAgent(), {"type": "options", "options": {"follow": 1e400 - 1e400}})
    assert got[0]["type"] == "error"


def test_serve_checks_its_arguments() -> None:
    with pytest.raises(ArgumentError, match="agent=3 is invalid"):
        serve(3)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="name=3"):
        serve(GreedyAgent(), name=3)  # type: ignore[arg-type]


def test_nothing_below_the_engine_imports_it() -> None:
    """The engine stands above the core and the agents: only the front ends beside it (the
    command line, which builds ``engine:COMMAND``, and the server) and the subpackage itself
    may import it. The imports are read with ``ast``, lazy ones included (test_layers)."""
    from test_layers import EDGES

    def engine(module: str) -> bool:
        return module == "engine" or module.startswith("engine.")

    importers = sorted(
        m
        for m, edges in EDGES.items()
        if any(engine(t) for t, _ in edges)
        and not (engine(m) or m in ("cli", "specs") or m.startswith(("cli.", "server.", "specs.")))
    )
    assert importers == []
    # the reader sees the one that does: the specs' builders (specs/_build.py)
    assert any(engine(t) for t, _ in EDGES["specs._build"])


def test_the_public_names() -> None:
    import chickenfoot.engine as engine

    assert sorted(engine.__all__) == [
        "EXTENSIONS",
        "EngineAgent",
        "MAX_LINE",
        "MAX_MESSAGE",
        "PROTOCOL",
        "STDERR_LINES",
        "serve",
    ]
    assert engine.PROTOCOL == 1 and engine.EXTENSIONS == ("rng", "ping", "rounds")
