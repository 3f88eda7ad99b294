"""Issue 47, item 5: ``chickenfoot replay`` reads the notation, for any audience, forward
and back, as it reads JSON records; a seat's copy shows only what that seat saw."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.notation import write_game
from chickenfoot.record import Record
from helpers import SRC, WITHOUT_RICH, Transcript

RULES = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
REC = Record(cf.deal(RULES, 21), ["4-2@4-4", "4-1@4-4", "1-1@4-1", "draw", "pass",
             "2-1@1-1", "2-0@2-1", "draw", "3-0@2-0", "3-3@3-0", "3-1@3-3"])  # fmt: skip


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_full_copy_replays_as_its_json_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r.cfn").write_text(write_game(REC))
    (tmp_path / "r.json").write_text(REC.to_json())
    code, from_notation, _ = _run(capsys, str(tmp_path / "r.cfn"))
    assert code == 0
    assert _run(capsys, str(tmp_path / "r.json"))[1] == from_notation
    assert "Move 11/11: seat 0: 3-1@3-3" in from_notation


def test_a_seat_copy_shows_only_what_the_seat_saw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "seat1.cfn"
    path.write_text(write_game(REC, audience="seat 1"))
    code, out, err = _run(capsys, str(path))
    assert code == 0 and err == "", err
    assert "Start (seat 1's copy of 2 players, double-4):" in out
    assert "Move 8/11: seat 0: draw:??" in out and "Move 4/11: seat 1: draw:4-0" in out
    # seat 0's tiles never shown before they are laid: 3-1 is in its hand from the deal
    before_laid = out.split("Move 11/11")[0]
    assert "3-1" not in before_laid.replace("3-1@", "")
    assert out.rstrip().endswith("End of the record: out; penalties 0 11, winner 0.")


def test_a_spectator_copy_counts_the_tiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "all.cfn"
    path.write_text(write_game(REC, audience="spectator") + write_game(REC))
    code, out, _ = _run(capsys, str(path), "--final")
    assert code == 0
    assert "Tiles laid: 9. In hand: seat 0: 0, seat 1: 2. Boneyard: 4." in out
    code, out, _ = _run(capsys, str(path), "--game", "1", "--final")
    assert code == 0 and "Record: 11 moves; the final position:" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--game", "5"], "--game 5 is not in the file: it holds 2 round(s)"),
        (["--game", "-1"], "--game -1 is invalid"),
    ],
)
def test_bad_game_numbers_say_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    path = tmp_path / "two.cfn"
    path.write_text(write_game(REC) + write_game(REC))
    code, out, err = _run(capsys, str(path), *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err


def test_a_broken_notation_file_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.cfn"
    path.write_text(write_game(REC).replace("1. 2-0@2-1", "1. 2-2@2-1"))
    code, _, err = _run(capsys, str(path))
    assert code == 2 and "line " in err and "column" in err and "Traceback" not in err


def test_back_and_forth_in_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "r.cfn").write_text(write_game(REC, audience="seat 0"))
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    child = pexpect.spawn(sys.executable, ["-c", WITHOUT_RICH, "replay", "r.cfn"], env=env,
                          cwd=str(tmp_path), encoding="utf-8", timeout=20)  # fmt: skip
    child.logfile_read = Transcript()
    child.expect("Enter: next move, b: back")
    child.sendline("b")
    child.expect("At the start: nothing before it.")
    child.sendline("")
    child.expect("Move 1/11: seat 0: 4-2@4-4")
    child.sendline("")
    child.expect("Move 2/11")
    child.sendline("b")
    child.expect("Move 1/11: seat 0: 4-2@4-4")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.logfile_read.text()


def test_a_named_pipe_is_refused_without_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = tmp_path / "pipe.cfn"
    os.mkfifo(pipe)
    code, _, err = _run(capsys, str(pipe))
    assert code == 2 and "named pipe" in err and err.count("\n") == 1


def test_game_is_for_notation_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "r.json").write_text(REC.to_json())
    code, _, err = _run(capsys, str(tmp_path / "r.json"), "--game", "1")
    assert code == 2 and "--game is for a notation file" in err
