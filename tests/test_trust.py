"""Text read from a file, a document or the network names built-in agents only (issue 29,
item 1): one decision, :class:`chickenfoot.specs.Trust`, made below the command line and
the server. A saved game that names an engine or a module runs nothing unless the person
says ``--trust-bots``; the server's own database runs only the engines it was started with.

Every test proves "nothing ran" by a mark the code would leave: a program that writes a
file when started, a module that writes one when imported.
"""

from __future__ import annotations

import io
import json
import sys
import time
import typing
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.server import create_app
from chickenfoot.server._store import SeatRow, open_store
from chickenfoot.specs import (
    AgentSpec,
    SpecError,
    Trust,
    UntrustedSpecError,
    agent_of,
    agents_of,
    parse_spec,
)
from chickenfoot.specs._build import BUILDERS

# -- the decision ------------------------------------------------------------------------------


@pytest.fixture
def marks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A working directory holding ``sidecar.py`` (it writes ``imported`` when imported)
    and ``engine.py`` (it writes ``started`` when run); yields the directory."""
    (tmp_path / "sidecar.py").write_text(
        "from pathlib import Path\n"
        "Path(__file__).with_name('imported').write_text('yes')\n"
        "from chickenfoot import GreedyAgent as Bot\n"
    )
    (tmp_path / "engine.py").write_text(
        "from pathlib import Path\nPath(__file__).with_name('started').write_text('yes')\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "sidecar", raising=False)
    yield tmp_path
    sys.modules.pop("sidecar", None)


def engine_spec(here: Path) -> str:
    return f"engine:{sys.executable} {here / 'engine.py'}"


def test_data_trust_allows_built_in_agents_and_the_named_engines_only() -> None:
    data = Trust.data(engines=["node bot.js"])
    for text in ("random", "Greedy", "heuristic", "search", "search:64"):
        assert data.allows(parse_spec(text)) and Trust.data().allows(parse_spec(text))
    assert data.allows(parse_spec("engine:node bot.js"))
    assert not data.allows(parse_spec("engine:node other.js"))
    assert not data.allows(parse_spec("engine:node bot.js --fast"))  # the command, exactly
    assert not data.allows(parse_spec("sidecar:Bot"))
    user = Trust.user()
    assert all(user.allows(parse_spec(t)) for t in ("engine:sh -c x", "sidecar:Bot", "random"))


def test_a_refused_spec_runs_and_imports_nothing(marks: Path) -> None:
    for text in (engine_spec(marks), "sidecar:Bot"):
        with pytest.raises(UntrustedSpecError) as caught:
            parse_spec(text).build(trust=Trust.data())
        message = str(caught.value)
        assert "read from a file or the network" in message and "built-in agents" in message
        with pytest.raises(UntrustedSpecError):
            agent_of(text, trust=Trust.data())
    with pytest.raises(UntrustedSpecError, match="runs the program"):
        parse_spec(engine_spec(marks)).build(trust=Trust.data())
    assert "imports the module sidecar" in parse_spec("sidecar:Bot").runs()
    # a list is checked whole before any agent is built: the module is not imported
    # though the engine after it is the one refused
    with pytest.raises(UntrustedSpecError):
        agents_of(f"sidecar:Bot,{engine_spec(marks)}", 2, "--bots", trust=Trust.data(engines=[]))
    assert sorted(p.name for p in marks.iterdir()) == ["engine.py", "sidecar.py"]
    assert "sidecar" not in sys.modules


def test_an_untrusted_spec_is_a_spec_error_and_a_value_error() -> None:
    assert issubclass(UntrustedSpecError, SpecError)
    assert issubclass(SpecError, cf.ChickenFootError) and issubclass(SpecError, ValueError)
    with pytest.raises(TypeError, match="agent spec is a string"):
        parse_spec(7)  # type: ignore[arg-type]


# One spec of every form the module's docstring lists (chickenfoot.specs).
FORMS = (
    "random",
    "ismcts",
    "search:16",
    "ismcts:16",
    "search:50ms",
    "ismcts:50ms",
    "level:2",
    "engine:node bot.js",
    "policy:policy.npz",
    "bots.mine:Bot",
)


def test_agent_spec_names_every_kind_the_parser_makes() -> None:
    # The kinds are one Literal (AgentSpec.kind's type): the parser makes each of them, the
    # builders build each, and the docstring says what each one's value is.
    kinds = typing.get_args(typing.get_type_hints(AgentSpec)["kind"])
    assert sorted({parse_spec(text).kind for text in FORMS}) == sorted(kinds)
    assert sorted(BUILDERS) == sorted(kinds)
    doc = AgentSpec.__doc__ or ""
    missing = [kind for kind in kinds if f"``{kind}``" not in doc]
    assert not missing, f"AgentSpec's docstring does not name the kinds {missing}"


def test_the_module_doc_and_the_refusal_name_every_prefix_the_parser_takes() -> None:
    import chickenfoot.specs
    from chickenfoot.specs._spec import _WITH_ARGUMENT

    doc = chickenfoot.specs.__doc__ or ""
    with pytest.raises(SpecError) as caught:
        parse_spec("smart")
    for prefix in _WITH_ARGUMENT:
        assert f"``{prefix}:" in doc, prefix
        assert f"{prefix}:" in str(caught.value), prefix
    assert "``module:Class``" in doc and "module:Class" in str(caught.value)


def test_an_agent_spec_of_no_kind_is_refused_before_it_builds() -> None:
    with pytest.raises(SpecError, match="kind 'shell'"):
        AgentSpec("x", "shell", "rm -rf ~")  # type: ignore[arg-type]


def test_the_user_trust_runs_what_the_user_named(marks: Path) -> None:
    agent = parse_spec("sidecar:Bot").build(trust=Trust.user())
    assert isinstance(agent, cf.GreedyAgent) and (marks / "imported").exists()


def test_parsing_alone_never_runs_anything(marks: Path) -> None:
    assert parse_spec("sidecar:Bot") == AgentSpec("sidecar:Bot", "module", "sidecar:Bot")
    assert parse_spec(engine_spec(marks)).kind == "engine"
    assert sorted(p.name for p in marks.iterdir()) == ["engine.py", "sidecar.py"]


# -- a saved game --------------------------------------------------------------------------


def run(lines: list[str], answers: list[str], *argv: str) -> tuple[int, str, str]:
    """``chickenfoot ARGV`` with ``lines`` as the person's answers (``input()``)."""
    answers[:] = lines
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def hostile_save(here: Path) -> Path:
    """A save of a 3-player match whose two bots are an engine and a module of the file's
    own choosing."""
    m = cf.Match.start(cf.Rules(players=3), seed=9)
    doc = {
        "format": "chickenfoot/play",
        "version": 1,
        "game": m.to_dict(),
        "seat": 0,
        "bots": [engine_spec(here), "sidecar:Bot"],
        "seed": 9,
        "watch": False,
    }
    path = here / "save.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_save_that_names_an_engine_and_a_module_runs_neither(
    marks: Path, answers: list[str]
) -> None:
    save = hostile_save(marks)
    moves = ["1"] * 6  # the person plays; the stand-ins answer between their turns
    code, out, err = run([*moves, "quit"], answers, "play", "save.json")
    assert (code, err) == (0, ""), err
    assert sorted(p.name for p in marks.iterdir()) == ["engine.py", "save.json", "sidecar.py"]
    assert "sidecar" not in sys.modules
    note = " ".join(out.split())
    assert "save.json names bots that run code of their own" in note
    assert "runs the program" in note and str(marks / "engine.py") in note
    assert "imports the module sidecar" in note
    assert "they play heuristic instead, and nothing was run" in note
    assert "--trust-bots" in note
    assert "seat 1: heuristic, seat 2: heuristic" in note
    assert "seat 1 (heuristic) plays" in out  # the stand-ins did play
    # leaving saves the game in its file: the bots the file named, not the stand-ins
    assert json.loads(save.read_text())["bots"] == [engine_spec(marks), "sidecar:Bot"]


def test_trust_bots_runs_them_and_bots_typed_on_the_command_line_run_anyway(
    marks: Path, answers: list[str]
) -> None:
    save = hostile_save(marks)
    doc = json.loads(save.read_text())
    doc["bots"] = ["greedy", "sidecar:Bot"]
    save.write_text(json.dumps(doc))
    code, out, err = run(["quit"], answers, "play", "save.json", "--trust-bots")
    assert (code, err) == (0, "") and (marks / "imported").exists()
    assert "--trust-bots" not in out and "seat 2: sidecar:Bot" in out
    (marks / "imported").unlink()
    sys.modules.pop("sidecar", None)
    code, out, err = run(
        ["quit"], answers, "play", "--players", "3", "--bots", "random,sidecar:Bot"
    )
    assert (code, err) == (0, "") and (marks / "imported").exists()


def test_trust_bots_without_a_saved_game_is_a_usage_error(marks: Path, answers: list[str]) -> None:
    code, out, err = run([], answers, "play", "--trust-bots")
    assert code == 2 and out == "" and "--trust-bots is for the bots of a saved game" in err


def test_a_save_of_built_in_bots_says_nothing_about_trust(marks: Path, answers: list[str]) -> None:
    save = hostile_save(marks)
    doc = json.loads(save.read_text())
    doc["bots"] = ["greedy", "search:4"]
    save.write_text(json.dumps(doc))
    code, out, err = run(["quit"], answers, "play", "save.json")
    assert (code, err) == (0, "") and "--trust-bots" not in out and "code of" not in out
    assert "seat 1: greedy, seat 2: search:4" in out


# -- the server ----------------------------------------------------------------------------


def test_the_servers_database_runs_only_the_engines_it_was_started_with(
    marks: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A database is data too: a table stored with an engine the server no longer runs (or
    # a module, which it never runs) stops with the reason when its bot is to play.
    for spec in (engine_spec(marks), "sidecar:Bot"):
        path = marks / "t.db"
        path.unlink(missing_ok=True)
        store = open_store(path)
        seats = [SeatRow(0, "bot", spec, None, "b0"), SeatRow(1, "bot", spec, None, "b1")]
        rules = cf.Rules(players=2, max_pip=6, hand_size=7)
        store.add_table("t", json.dumps(rules.to_dict()), 5, seats)
        store.close()
        with TestClient(create_app(path, engines=[])) as client:
            table = client.app.state.hub.tables["t"]  # type: ignore[attr-defined]
            deadline = time.monotonic() + 10
            while table.error is None:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            assert "the bot at seat 0 failed" in table.error
        assert "built-in agents only" in caplog.text  # the reason, in the server's log
        assert sorted(p.name for p in marks.iterdir()) == ["engine.py", "sidecar.py", "t.db"]
