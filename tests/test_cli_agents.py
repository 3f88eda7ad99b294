"""Your own agent at the command line (issue 19, item 10): ``--bots module:Class`` (play)
and ``--agents module:Class`` (simulate), imported from the working directory.

Every test runs the real command line in a process of its own whose working directory holds
the module files, with Python's path as the installed ``chickenfoot`` command has it (no
working directory on it: the command line must put it there), and checks that what goes
wrong is one ``chickenfoot: error: ...`` line, never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import SRC

# ``python -m`` and ``python -c`` put the working directory on sys.path; the console script
# ``chickenfoot`` does not. Take it off, to run as the installed command does.
AS_INSTALLED = (
    "import os, sys; here = os.getcwd(); "
    "sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != here]; "
    "from chickenfoot.cli import main; sys.exit(main())"
)
TIMEOUT = 120

MODULES = {
    "mybot.py": '''
import chickenfoot as cf

class Bot:
    """Sheds its heaviest tile; draws or passes only when it must."""

    def choose(self, view, legal, rng):
        plays = [m for m in legal if isinstance(m, cf.Play)]
        return max(plays, key=lambda m: (m.tile.pips, str(m))) if plays else legal[0]

class Needs:
    def __init__(self, depth):
        self.depth = depth

    def choose(self, view, legal, rng):
        return legal[0]

class Broken:
    def __init__(self):
        raise RuntimeError("no table today")

class NoChoose:
    pass

class Cheater:
    def choose(self, view, legal, rng):
        return "draw"

class Raises:
    def choose(self, view, legal, rng):
        raise ZeroDivisionError("oops " * 100)

class Unpicklable:
    def __init__(self):
        self.rule = lambda m: 0

    def choose(self, view, legal, rng):
        return legal[0]

class Outer:
    class Inner(Bot):
        pass

NOT_CALLABLE = 3
''',
    "badsyntax.py": "class Bot(:\n    pass\n",
    "explodes.py": "raise ValueError('no import today')\n",
    "needsdep.py": "import not_installed_anywhere_xyz\n",
    "search.py": "class Bot:\n    pass\n",  # a module named like a built-in: the built-in wins
}


@pytest.fixture
def place(tmp_path: Path) -> Path:
    for name, text in MODULES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def cli(place: Path, *argv: str, answers: str = "") -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("NO_COLOR", None)
    proc = subprocess.run(
        [sys.executable, "-c", AS_INSTALLED, *argv],
        input=answers.encode(),
        capture_output=True,
        cwd=place,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def one_error(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert "Traceback" not in err + out
    assert code == 2, result
    assert err.count("\n") == 1 and err.startswith("chickenfoot: error: "), err
    assert len(err) < 600
    return err


ROUND = ["play", "--round", "--players", "2", "--seed", "3"]


def test_play_against_your_own_agent(place: Path) -> None:
    code, out, err = cli(place, *ROUND, "--bots", "mybot:Bot", answers="1\n" * 80)
    assert (code, err) == (0, ""), err
    assert "You are seat 0; seat 1: mybot:Bot." in out
    assert "seat 1 (mybot:Bot) plays " in out
    assert "the round with " in out or "you left the game" in out.lower()  # the winner named


def test_a_dotted_attribute_and_a_saved_game_keep_the_name(place: Path) -> None:
    code, out, _ = cli(
        place, *ROUND, "--bots", "mybot:Outer.Inner", answers="1\nsave g.json\nquit\n"
    )
    assert code == 0 and "seat 1 (mybot:Outer.Inner) " in out
    assert json.loads((place / "g.json").read_text())["bots"] == ["mybot:Outer.Inner"]
    code, out, _ = cli(place, "play", "g.json", "--trust-bots", answers="quit\n")
    assert code == 0 and "You are seat 0; seat 1: mybot:Outer.Inner." in out
    code, out, _ = cli(place, "play", "g.json", answers="quit\n")  # a file runs no module
    assert code == 0 and "You are seat 0; seat 1: heuristic." in out


def test_simulate_with_your_agent_on_two_processes(place: Path) -> None:
    argv = ["simulate", "--agents", "mybot:Bot,heuristic", "--games", "4"]
    argv += ["--set", 'match={"rounds": 1}', "--json"]
    code, out, err = cli(place, *argv, "--workers", "2")
    assert (code, err) == (0, ""), err
    result = json.loads(out)
    assert result["games"] == 4 and len(result["agents"]) == 2
    code, alone, _ = cli(place, *argv, "--workers", "1")
    assert code == 0

    def numbers(result: dict[str, Any]) -> dict[str, Any]:  # the agents' labels hold an id()
        return {**result, "agents": [{**a, "agent": None} for a in result["agents"]]}

    assert numbers(json.loads(alone)) == numbers(result)  # they do not depend on --workers
    code, table, _ = cli(place, *argv[:-1])
    assert code == 0 and "mybot:Bot" in table


def test_builtin_names_come_first(place: Path) -> None:
    # search.py is in the working directory: search:2 is still the built-in search
    argv = ["simulate", "--agents", "search:2,mybot:Bot", "--games", "1"]
    code, out, err = cli(place, *argv, "--set", 'match={"rounds": 1}')
    assert (code, err) == (0, "") and "search:2" in out
    err = one_error(cli(place, "play", "--bots", "search:Bot"))
    assert "agent 'search:Bot': search:N takes N from 1 to 100,000" in err


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        (
            "nosuchmod:Bot",
            "agent 'nosuchmod:Bot': no module named 'nosuchmod' (looked in the working directory ",
        ),
        ("nosuchpkg.sub:Bot", "no module named 'nosuchpkg'"),
        ("badsyntax:Bot", "agent 'badsyntax:Bot': importing badsyntax raised SyntaxError: "),
        (
            "explodes:Bot",
            "agent 'explodes:Bot': importing explodes raised ValueError: no import today",
        ),
        (
            "needsdep:Bot",
            "importing needsdep failed: ModuleNotFoundError: No module named 'not_installed_anywhere_xyz'",
        ),
        (
            "mybot:Missing",
            "the module mybot has no attribute 'Missing' (it has Bot, Cheater, Needs, Raises, Unpicklable)",
        ),
        ("mybot:Outer.Gone", "the module mybot has no attribute 'Outer.Gone'"),
        (
            "mybot:NOT_CALLABLE",
            "agent 'mybot:NOT_CALLABLE': NOT_CALLABLE is 3, which cannot be called",
        ),
        ("mybot:Needs", "agent 'mybot:Needs': Needs() raised TypeError: "),
        (
            "mybot:Broken",
            "agent 'mybot:Broken': Broken() raised RuntimeError: no table today (it is called with no arguments)",
        ),
        (
            "mybot:NoChoose",
            "agent 'mybot:NoChoose': NoChoose() made a NoChoose without a callable choose method",
        ),
        (
            "my-bot:Bot",
            "module:Class takes a module name and an attribute, each made of Python names",
        ),
        ("greedy:3", "unknown agent 'greedy:3': greedy takes no argument"),
        ("mybot:" + "B" * 300, "too long (at most 200 characters)"),
    ],
)
def test_an_agent_that_cannot_be_made_is_one_line(place: Path, spec: str, needle: str) -> None:
    err = one_error(cli(place, "play", "--bots", spec, "--players", "2"))
    assert needle in err, err


def test_simulate_names_an_agent_that_cannot_be_made_the_same_way(place: Path) -> None:
    for spec, needle in [
        ("nosuchmod:Bot", "agent 'nosuchmod:Bot': no module named 'nosuchmod'"),
        ("explodes:Bot", "agent 'explodes:Bot': importing explodes raised ValueError"),
        ("mybot:NoChoose", "NoChoose() made a NoChoose without a callable choose method"),
    ]:
        err = one_error(cli(place, "simulate", "--agents", f"greedy,{spec}"))
        assert needle in err, err


def test_an_agent_that_fails_in_a_game_stops_it_with_one_line(place: Path) -> None:
    err = one_error(cli(place, *ROUND, "--bots", "mybot:Raises", answers="1\n" * 20))
    assert "the bot at seat 1 (mybot:Raises) failed: ZeroDivisionError: oops oops" in err
    assert "the game stops (it was not saved)" in err
    err = one_error(cli(place, *ROUND, "--bots", "mybot:Cheater", answers="1\n" * 20))
    assert "the bot at seat 1 (mybot:Cheater) failed: Cheater at seat 1 chose draw" in err
    argv = ["simulate", "--agents", "mybot:Raises,greedy", "--games", "2"]
    for workers in ("1", "2"):
        err = one_error(cli(place, *argv, "--workers", workers))
        assert "the simulation stopped: an agent raised ZeroDivisionError: oops" in err


def test_a_process_pool_needs_a_picklable_agent(place: Path) -> None:
    argv = ["simulate", "--agents", "mybot:Unpicklable,greedy", "--games", "2"]
    err = one_error(cli(place, *argv, "--workers", "2"))
    assert "agents[0] (an Unpicklable) cannot be pickled, which a process pool needs" in err
    code, _, _ = cli(place, *argv, "--set", 'match={"rounds": 1}')  # one process: fine
    assert code == 0
