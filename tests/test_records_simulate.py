"""Issue 47, item 5: ``simulate`` and ``ladder`` keep every game they play in the notation
(``records=``, ``--records FILE``), streamed in game order whatever the executor."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.agents import GreedyAgent, RandomAgent
from chickenfoot.notation import iter_games, read_match
from chickenfoot.simulation import simulate

RULES = cf.Rules(players=2, max_pip=6, hand_size=5, match=cf.Rounds(2))


def _matches(text: str) -> list[object]:
    handle = io.StringIO(text)
    out = []
    while (m := read_match(handle, strict=True)) is not None:
        out.append(m)
    return out


def test_simulate_writes_every_game_as_a_full_match_in_game_order() -> None:
    handle = io.StringIO()
    agents = [GreedyAgent(), RandomAgent()]
    result = simulate(RULES, agents, games=3, seed=4, records=handle)
    matches = _matches(handle.getvalue())
    assert len(matches) == 3 and result.games == 3
    for g, m in enumerate(matches):
        assert m.begin.header("Event") == f"chickenfoot simulate, seed 4, game {g}"
        # seats rotate: agents[i] sits at seat (i + g) % 2
        assert m.begin.header(f"Agent{g % 2}") == "GreedyAgent()"
        assert len(m.rounds) == 2 and all(r.record is not None for r in m.rounds)
        assert m.to_match().is_over()
        assert [r.header("Round") for r in m.rounds] == ["0", "1"]


def test_simulate_records_do_not_depend_on_the_executor() -> None:
    agents = [GreedyAgent(), RandomAgent()]
    here, there = io.StringIO(), io.StringIO()
    simulate(RULES, agents, games=5, seed=9, records=here)
    with ThreadPoolExecutor(3) as pool:
        simulate(RULES, agents, games=5, seed=9, executor=pool, records=there)
    assert here.getvalue() == there.getvalue() != ""


def test_simulate_refuses_a_records_handle_that_cannot_be_written() -> None:
    with pytest.raises(cf.ArgumentError, match="records"):
        simulate(RULES, [GreedyAgent()] * 2, games=1, seed=0, records="out.txt")  # type: ignore[arg-type]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args],
        check=False, capture_output=True, text=True, cwd=cwd, env=env, timeout=120,
    )  # fmt: skip


def test_cli_simulate_records_file_reads_back(tmp_path: Path) -> None:
    out = _cli("simulate", "--players", "2", "--games", "2", "--seed", "1", "--records",
               "games.cfn", "--set", "match={\"rounds\":1}", cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "games.cfn").read_text()
    assert len(_matches(text)) == 2
    assert all(not g.errors for g in iter_games(io.StringIO(text)))


@pytest.mark.parametrize("name", [".", "missing/x.cfn"])
def test_cli_simulate_bad_records_file_is_one_line(tmp_path: Path, name: str) -> None:
    out = _cli("simulate", "--players", "2", "--games", "1", "--records", name, cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and "--records" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


LADDER_RULES = cf.Rules(players=2, max_pip=6, hand_size=5, match=cf.Rounds(2))


@pytest.mark.parametrize("game", ["round", "match"])
def test_ladder_writes_every_game_in_deal_order_whatever_the_executor(game: str) -> None:
    from chickenfoot.ladder import play_ladder

    here, there = io.StringIO(), io.StringIO()
    agents = ["random", "greedy"]
    play_ladder(LADDER_RULES, agents, deals=3, seed=2, game=game, records=here)
    with ThreadPoolExecutor(2) as pool:
        play_ladder(LADDER_RULES, agents, deals=3, seed=2, game=game, records=there,
                    executor=pool)  # fmt: skip
    assert here.getvalue() == there.getvalue()
    every = list(iter_games(io.StringIO(here.getvalue()), strict=True))
    games = [g for g in every if g.header("Match") is None]
    # 3 deals, every permutation of 2 seats: 6 games (a match: 2 rounds each)
    assert len(games) == 6 * (1 if game == "round" else 2)
    assert every[0].header("Event") == "chickenfoot ladder, seed 2, deal 0, seating 0"
    assert every[0].header("Match") == (None if game == "round" else "begin")
    assert {games[0].header("Agent0"), games[0].header("Agent1")} == {"random", "greedy"}
    assert all(g.record is not None and g.record.final().is_over() for g in games)


def test_cli_ladder_records_append_and_refuse_the_results_file(tmp_path: Path) -> None:
    args = ("ladder", "--agents", "random,greedy", "--players", "2", "--deals", "1",
            "--set", "max_pip=6", "--set", "hand_size=5")  # fmt: skip
    for _ in range(2):
        out = _cli(*args, "--records", "games.cfn", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
    text = (tmp_path / "games.cfn").read_text()
    assert len(list(iter_games(io.StringIO(text), strict=True))) == 4
    out = _cli(*args, "--records", "r.jsonl", "--results", "r.jsonl", cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--records" in out.stderr and "--results" in out.stderr
    out = _cli(*args, "--records", ".", cwd=tmp_path)
    assert out.returncode == 2 and "a directory" in out.stderr and "Traceback" not in out.stderr
