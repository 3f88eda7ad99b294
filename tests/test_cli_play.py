"""``chickenfoot play``: whole games in a real pseudo-terminal (pexpect), and scripted ones.

The pty tests run the installed code as ``python -m chickenfoot`` and read what a person
would see; every one checks that no traceback ever appears.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.match import Match
from chickenfoot.record import Record

try:
    import pexpect
except ImportError:  # pragma: no cover - the tests session installs it
    pexpect = None

needs_pty = pytest.mark.skipif(
    pexpect is None or sys.platform == "win32", reason="needs pexpect and a POSIX pty"
)

SRC = Path(__file__).resolve().parent.parent / "src"
SMALL = ["--players", "2", "--set", 'match={"rounds": 1}', "--bots", "greedy"]
PROMPT = r"move \[1-\d+, help\]> "
OVER = r"== The match is over: [^=]+ =="


def spawn(*argv: str, cwd: Path | None = None) -> Any:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "chickenfoot", "play", *argv],
        env=env,
        cwd=str(cwd) if cwd else None,
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 100),
    )
    child.logfile_read = _Log()
    return child


class _Log:
    """Everything the child printed, to check for tracebacks at the end."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


def transcript(child: Any) -> str:
    log = child.logfile_read
    assert isinstance(log, _Log)
    return log.text()


def finish(child: Any) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in transcript(child)
    status = child.exitstatus
    assert isinstance(status, int)
    return status


def play_to_the_end(child: Any, answer: str = "1") -> int:
    """Answer every decision with ``answer``; return how many decisions there were."""
    decisions = 0
    while child.expect([PROMPT, OVER]) == 0:
        child.sendline(answer)
        decisions += 1
        assert decisions < 200
    return decisions


# -- real terminal ----------------------------------------------------------------------------


@needs_pty
def test_a_whole_round_in_a_pty_choosing_move_1() -> None:
    child = spawn(*SMALL, "--seed", "3")
    child.expect("You are seat 0; seat 1: greedy.")
    decisions = play_to_the_end(child)
    assert decisions > 3
    assert finish(child) == 0
    seen = transcript(child)
    assert "== The round is over: " in seen
    assert "Round scores: you " in seen
    assert "seat 1 (greedy) plays " in seen
    assert "  1. " in seen  # the standings


@needs_pty
def test_a_single_round_in_a_pty_driven_by_notation() -> None:
    # --round: one round, saved as a record. Answer with the notation of the listed moves.
    child = spawn("--players", "2", "--round", "--seed", "5", "--bots", "random")
    decisions = 0
    while child.expect([r"  1\) (\S+)", r"You score \d+"]) == 0:
        move = child.match.group(1)
        child.expect(PROMPT)
        child.sendline(move)
        decisions += 1
        assert decisions < 200
    assert finish(child) == 0
    assert decisions > 0


@needs_pty
def test_prompt_commands_help_bad_input_undo_save_quit_and_resume(tmp_path: Path) -> None:
    child = spawn(*SMALL, "--seed", "1", cwd=tmp_path)
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("undo        take back your last move")
    child.expect(PROMPT)
    for bad, reply in [
        ("", "Type a move number from 1 to"),
        ("42", "There is no move 42: choose 1 to"),
        ("hello", "'hello' is not a move: type 1 to"),
        ("9-9@9-9", r"9-9@9-9: "),
        ("draw:5-5", "You cannot choose which tile to draw"),
        ("save", "save needs a file name"),
        ("undo", "Nothing to undo: you have not chosen a move yet."),
        ("x" * 5000, "is not a move"),
    ]:
        child.sendline(bad)
        child.expect(reply)
        child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(r"Undone: your move 9-0@9-9 and the \d+ moves? after it")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("save game.json")
    child.expect("Saved the match to game.json. Resume it with: chickenfoot play game.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("You left the game. The game is saved in game.json.")
    assert finish(child) == 0
    saved = Match.from_json((tmp_path / "game.json").read_text())
    assert saved.round is not None and len(saved.round.board) > 1

    again = spawn("game.json", "--bots", "greedy", cwd=tmp_path)
    again.expect("Resumed the match in game.json")
    play_to_the_end(again)
    assert finish(again) == 0


@needs_pty
def test_ctrl_d_and_ctrl_c_leave_cleanly() -> None:
    child = spawn(*SMALL, "--seed", "2")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("End of input: you left the game.")
    assert finish(child) == 0

    child = spawn(*SMALL, "--seed", "2")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted: you left the game.")
    assert finish(child) == 130


@needs_pty
def test_bad_options_fail_before_the_game_with_one_line() -> None:
    child = spawn("--players", "2", "--bots", "greedy,random")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert transcript(child).strip() == (
        "chickenfoot: error: --bots names 2 agents, but 1 are needed (or give one name for all)"
    )


# -- scripted, in this process ------------------------------------------------------------------


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Lines for ``input()``; an empty list then means end of input (Ctrl-D)."""
    lines: list[str] = []

    def fake_input(prompt: str = "") -> str:
        print(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    yield lines


def test_scripted_round_saves_a_record_that_replays(
    answers: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.json"
    answers += ["1", "1", f"save {path}", "quit"]
    code = main(["play", "--players", "3", "--round", "2", "--seed", "4", "--bots", "random"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert f"Saved the record of the round to {path}" in out
    rec = Record.from_json(path.read_text())
    assert rec.start == cf.deal(rec.start.rules, 4, 2)  # round 2: centre 7-7
    assert str(rec.start.centre) == "7-7" and len(rec.moves) >= 2
    # play FILE resumes it, and the record grows from where it was
    answers[:] = ["1", f"save {path}", "quit"]
    assert main(["play", str(path), "--bots", "random"]) == 0
    longer = Record.from_json(path.read_text())
    assert longer.moves[: len(rec.moves)] == rec.moves and len(longer.moves) > len(rec.moves)


def test_undo_restores_the_game_and_the_bots_answer_the_same(
    answers: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    argv = ["play", "--players", "3", "--seed", "8", "--bots", "random", "--round"]
    answers += ["2", "1", f"save {a}", "undo", "1", f"save {b}", "quit"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Undone: your move" in out
    assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_end_of_input_at_the_first_prompt(
    answers: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *SMALL, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("End of input: you left the game.")


def test_a_whole_match_of_two_rounds_scripted(
    answers: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    answers += ["1"] * 300  # moves, and Enter... "1" at the between-rounds prompt is refused
    argv = ["play", "--players", "2", "--set", 'match={"rounds": 2}', "--seed", "6"]
    code = main([*argv, "--bots", "heuristic", "--seat", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "press Enter for the next round" in out  # "1" is not Enter
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--seat", "2", "--players", "2"], "--seat 2 is invalid: seats are 0 to 1"),
        (["--seat", "-1"], "--seat -1 is invalid"),
        (["--bots", "smart"], "unknown agent 'smart'"),
        (["--bots", "search:0"], "search:N takes N from 1"),
        (["--bots", "search:" + "9" * 5000], "search:N takes N from 1"),
        (["--players", "3", "--bots", "a,b,c"], "--bots names 3 agents, but 2 are needed"),
        (["--seed", "9" * 5000], "--seed"),
        (["--round", "-1"], "--round -1 is invalid"),
        (["--round", "x"], "argument --round: invalid int value"),
        (["--round", "0", "--match"], "not allowed with argument"),
        (["--preset", "nope"], "preset='nope' is invalid"),
        (["missing.json"], "cannot read 'missing.json'"),
        (["a.json", "--resume", "b.json"], "give the saved game once"),
    ],
)
def test_play_option_errors(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and needle in err


def test_resume_refuses_views_finished_games_and_rules_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = cf.deal(cf.Rules(players=2), seed=1)
    view = tmp_path / "view.json"
    view.write_text(s.view(0).to_json())
    over = tmp_path / "over.json"
    over.write_text(
        Match.from_scores(
            cf.Rules(players=2, match=cf.Rounds(1)), seed=1, scores=[(0, 9)]
        ).to_json()
    )
    pos = tmp_path / "pos.json"
    pos.write_text(s.to_json())
    for argv, needle in [
        ([str(view)], "this is a view; expected a match, a record or a position"),
        ([str(over)], "the match is over (seat 0 wins with 0): nothing to play"),
        ([str(pos), "--players", "3"], "cannot be used with a saved game"),
        ([str(pos), "--round"], "--round and --match cannot be used with a saved game"),
    ]:
        assert main(["play", *argv]) == 2
        _, err = capsys.readouterr()
        assert needle in err, err
