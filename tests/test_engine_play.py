"""Whole matches through the engine protocol: our agents served by ``chickenfoot engine``
give exactly the games they give directly (same seeds, same moves, same scores), the
Node.js example plays whole matches, and ``simulate`` runs engines on a process pool; the
command line serves engines and plays them (``play --bots``, ``simulate --agents``).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from chickenfoot import Rounds, Rules, State, deal, play_match, simulate
from chickenfoot.agents import Agent, GreedyAgent, HeuristicAgent, RandomAgent, SearchAgent
from chickenfoot.engine import EngineAgent

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "engine.js"
PYTHON = [sys.executable, "-m", "chickenfoot"]


def served(spec: str, **settings: object) -> EngineAgent:
    return EngineAgent([*PYTHON, "engine", spec], time_ms=10_000, **settings)  # type: ignore[arg-type]


def games(rules: Rules, agents: list[Agent], seed: int) -> tuple[list[list[str]], object]:
    """Every round's moves and the match's result."""
    rounds: list[list[str]] = []

    def keep(end: State) -> None:
        rounds.append([str(e) for e in end.history])

    m = play_match(rules, agents, seed=seed, rng=random.Random(seed), on_round=keep)
    return rounds, m.scores


@pytest.mark.parametrize(
    ("spec", "direct"),
    [
        ("random", RandomAgent()),
        ("greedy", GreedyAgent()),
        ("heuristic", HeuristicAgent()),
        ("search:3", SearchAgent(iterations=3)),
    ],
    ids=["random", "greedy", "heuristic", "search"],
)
def test_our_agents_through_the_protocol_play_the_same_matches(spec: str, direct: Agent) -> None:
    rules = Rules(players=3, match=Rounds(2))
    with served(spec) as engine:
        for seed in (1, 2):
            # the engine at two seats, a direct agent drawing from the same generator between
            through = games(rules, [engine, RandomAgent(), engine], seed)
            assert through == games(rules, [direct, RandomAgent(), direct], seed)
            assert len(through[0]) == 2 and all(through[0])


def test_options_configure_a_served_agent() -> None:
    rules = Rules(players=2, match=Rounds(1))
    with served("search", options={"iterations": 2, "rollout": "random"}) as engine:
        direct = SearchAgent(iterations=2, rollout="random")
        assert games(rules, [engine, GreedyAgent()], 5) == games(rules, [direct, GreedyAgent()], 5)


def node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("node is not on PATH: CI must run the JavaScript example engine")
        pytest.skip("node is not on PATH (the JavaScript example engine needs Node.js)")
    return found


def test_the_javascript_example_plays_whole_matches() -> None:
    infos: list[dict[str, object]] = []
    rules = Rules(players=4, match=Rounds(3))
    with EngineAgent([node(), str(EXAMPLE)], on_info=infos.append) as js:
        # It plays greedily, with GreedyAgent's tie-break: the very same games.
        for seed in (3, 4):
            mixed = [js, RandomAgent(), js, HeuristicAgent()]
            assert games(rules, mixed, seed) == games(
                rules, [GreedyAgent(), RandomAgent(), GreedyAgent(), HeuristicAgent()], seed
            )
        assert js.hello == {
            "name": "greedy.js",
            "author": "the chickenfoot examples",
            "extensions": [],
            "options": {},
        }
        pid = js.pid
    assert infos and str(infos[0]["string"]).endswith("legal moves")
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def running(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (engines, not the shepherds that
    watch them on Linux, whose command lines hold the engines')."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                if marker.encode() in cmdline and b"_shepherd.py" not in cmdline:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes in /proc")
def test_the_engine_page_shows_the_javascript_example_whole() -> None:
    """docs/engine.md holds the example's text itself (GitHub shows no snippet include), and
    that copy is the file, byte for byte."""
    page = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert "```javascript\n" + EXAMPLE.read_text(encoding="utf-8") + "```\n" in page
    assert "--8<--" not in page


def test_simulate_on_a_process_pool_starts_one_engine_per_worker() -> None:
    marker = f"engine-{uuid.uuid4().hex}"
    engine = EngineAgent([*PYTHON, "engine", "greedy", "--name", marker], time_ms=10_000)
    rules = Rules(players=2, match=Rounds(1))
    agents: list[Agent] = [engine, RandomAgent()]
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = simulate(rules, agents, games=8, seed=3, executor=pool)
        assert 1 <= len(running(marker)) <= 2  # one per worker, kept between games
    direct = simulate(rules, [GreedyAgent(), RandomAgent()], games=8, seed=3)
    assert pooled.to_dict()["agents"][1] == direct.to_dict()["agents"][1]
    assert [a.mean_score for a in pooled.agents] == [a.mean_score for a in direct.agents]
    assert engine.pid is None  # this process never started one
    deadline = time.monotonic() + 5
    while running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running(marker) == []


# -- the command line -----------------------------------------------------------------------


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PYTHON, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def test_chickenfoot_engine_speaks_the_protocol_on_stdio() -> None:
    view = deal(Rules(), seed=2).view(0)
    go = {
        "type": "go",
        "view": view.to_dict(),
        "legal": [m.notation() for m in view.legal_moves],
        "time_ms": 100,
    }
    lines = [{"type": "hello", "protocol": 1}, go, {"type": "ping", "id": 1}, {"type": "quit"}]
    done = cli("engine", "random", stdin="".join(json.dumps(m) + "\n" for m in lines))
    assert done.returncode == 0 and done.stderr == ""
    hello, move, pong = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["name"] == "random" and hello["protocol"] == 1 and "rng" in hello["extensions"]
    assert move["type"] == "move" and move["move"] in go["legal"] and "rng" not in move
    assert pong == {"type": "pong", "id": 1}


def test_chickenfoot_engine_refuses_a_bad_agent_in_one_line() -> None:
    done = cli("engine", "smart")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("chickenfoot: error: unknown agent 'smart'")
    assert done.stderr.count("\n") == 1


def engine_spec(agent: str) -> str:
    return "engine:" + " ".join([sys.executable, "-m", "chickenfoot", "engine", agent])


def test_simulate_agents_engine_gives_the_numbers_of_the_agent_itself() -> None:
    common = ["--players", "2", "--games", "3", "--set", 'match={"rounds": 1}', "--json"]
    through = cli("simulate", "--agents", f"{engine_spec('heuristic')},random", *common)
    direct = cli("simulate", "--agents", "heuristic,random", *common)
    assert through.returncode == 0, through.stderr
    strip = [
        {k: v for k, v in a.items() if k != "agent"} for a in json.loads(direct.stdout)["agents"]
    ]
    got = [
        {k: v for k, v in a.items() if k != "agent"} for a in json.loads(through.stdout)["agents"]
    ]
    assert got == strip


def test_simulate_with_a_failing_engine_says_so_in_one_line(tmp_path: Path) -> None:
    fake = Path(__file__).with_name("fake_engine.py")
    spec = f"engine:{sys.executable} {fake} illegal {tmp_path / 'pid'}"
    done = cli("simulate", "--agents", f"{spec},random", "--players", "2", "--games", "2")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert "at seat 0: chose pass, which is not legal here" in done.stderr
    missing = cli("simulate", "--agents", "engine:no-such-engine-here,random", "--games", "1")
    assert missing.returncode == 2
    assert missing.stderr == (
        "chickenfoot: error: engine 'no-such-engine-here': cannot start: no such program\n"
    )
    unsplittable = cli("simulate", "--agents", "engine:'node,random", "--players", "2")
    assert unsplittable.returncode == 2
    assert "the command cannot be split: No closing quotation" in unsplittable.stderr


def test_play_bots_engine() -> None:
    done = cli(
        "play", "--round", "--players", "2", "--seed", "1", "--bots", engine_spec("greedy"),
        stdin="1\nquit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "You left the game." in done.stdout
    assert "engine:" in done.stdout
