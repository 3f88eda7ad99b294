"""Issue 47, item 5: ``chickenfoot play --record FILE`` keeps the game in the notation,
after every round and when the person leaves; a file it cannot write is refused before
the game starts, in one line."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pexpect
import pytest

from chickenfoot.cli import main
from chickenfoot.notation import iter_games, read_match
from helpers import SRC, WITHOUT_RICH, Transcript

PROMPT = r"move \[1-\d+, help\]> "
NEXT = r"Enter: deal round"
OVER = r"== The match is over: [^=]+ =="


def test_a_match_of_two_rounds_is_kept_as_a_match(tmp_path: Path, answers: list[str]) -> None:
    kept = tmp_path / "games.cfn"
    answers += (["1"] * 150 + [""]) * 2
    argv = ["play", "--players", "2", "--set", 'match={"rounds": 2}', "--seed", "6"]
    assert main([*argv, "--bots", "greedy", "--record", str(kept)]) == 0
    games = read_match(io.StringIO(kept.read_text()), strict=True)
    assert games is not None and games.end is not None
    assert games.begin.header("Event") == "chickenfoot play"
    assert games.begin.header("Name0") == "You" and games.begin.header("Agent1") == "greedy"
    assert [g.header("Round") for g in games.rounds] == ["0", "1"]
    match = games.to_match()
    assert match.is_over() and match.seed == 6


def test_leaving_mid_round_keeps_the_round_so_far(tmp_path: Path, answers: list[str]) -> None:
    kept = tmp_path / "round.cfn"
    answers += ["1", "1", "quit"]
    argv = ["play", "--players", "2", "--round", "--seed", "2", "--bots", "greedy"]
    assert main([*argv, "--record", str(kept)]) == 0
    (game,) = iter_games(io.StringIO(kept.read_text()), strict=True)
    assert game.record is not None and len(game.record.moves) >= 2
    assert not game.record.final().is_over() and game.header("Round") == "0"


def test_the_record_file_is_written_in_a_pty_and_reads_back(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    argv = ["-c", WITHOUT_RICH, "play", "--players", "2", "--set", 'match={"rounds": 1}',
            "--bots", "greedy", "--seed", "3", "--record", "kept.cfn"]  # fmt: skip
    child = pexpect.spawn(sys.executable, argv, env=env, cwd=str(tmp_path),
                          encoding="utf-8", timeout=20, dimensions=(50, 100))  # fmt: skip
    child.logfile_read = Transcript()
    while child.expect([PROMPT, OVER]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.logfile_read.text()
    games = read_match(io.StringIO((tmp_path / "kept.cfn").read_text()), strict=True)
    assert games is not None and games.to_match().is_over()


@pytest.mark.parametrize(
    ("name", "says"),
    [(".", "a directory, not a regular file"), ("nowhere/x.cfn", "No such file or directory")],
)
def test_a_record_file_that_cannot_be_written_is_refused_first(
    tmp_path: Path,
    name: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--players", "2", "--round", "--record", name]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and says in err and "--record" in err
