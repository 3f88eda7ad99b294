"""The command line and its streams (issue 18, section 3), in real processes.

Every test runs the real entry point, ``python -m chickenfoot``, with its standard streams
closed (``<&-``, ``>&-``, ``2>&-`` through a fixed ``bash -c`` line), full (``/dev/full``),
or a pipe whose reader is gone (EPIPE), and checks the exit status and that standard error
holds exactly one ``chickenfoot: error: ...`` line (nothing for a broken pipe): never a
traceback, never "Exception ignored" at interpreter exit. The ``play`` prompt is driven
through a pipe (hostile answers, bytes that are not UTF-8) and once in a real
pseudo-terminal.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.cli._save import PlaySave
from chickenfoot.match import Match

if sys.platform == "win32":  # pragma: no cover - the streams of a POSIX process
    pytest.skip(
        "closed descriptors, /dev/full and pseudo-terminals are POSIX", allow_module_level=True
    )
import pexpect

from helpers import SRC, Transcript

ENTRY = [sys.executable, "-m", "chickenfoot"]
TIMEOUT = 60

CLOSED_OUT = "chickenfoot: error: cannot write standard output: it is closed\n"
FULL_OUT = "chickenfoot: error: cannot write standard output: No space left on device\n"
CLOSED_IN = "chickenfoot: error: cannot read standard input: it is closed\n"

# A fixed shell line: the program and its arguments are the positional parameters, never
# part of the command string.
CLOSE = {
    "stdin": 'exec "$@" <&-',
    "stdout": 'exec "$@" >&-',
    "stderr": 'exec "$@" 2>&-',
}


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC), **extra}


def start(
    argv: Sequence[str],
    *,
    close: str | None = None,
    stdin: Any = subprocess.DEVNULL,
    stdout: Any = subprocess.PIPE,
    stderr: Any = subprocess.PIPE,
    cwd: Path | None = None,
    extra_env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    cmd = [*ENTRY, *argv]
    if close is not None:
        cmd = ["bash", "-c", CLOSE[close], "bash", *cmd]
    return subprocess.Popen(
        cmd, stdin=stdin, stdout=stdout, stderr=stderr, env=env(**(extra_env or {})), cwd=cwd
    )


def finish(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=TIMEOUT)
    return (
        proc.returncode,
        (out or b"").decode("utf-8", "replace"),
        (err or b"").decode("utf-8", "replace"),
    )


def no_reader() -> int:
    """The write end of a pipe whose read end is already closed: a write fails with EPIPE."""
    r, w = os.pipe()
    os.close(r)
    return w


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("docs")
    start_ = cf.deal(cf.Rules(players=2), seed=1)
    rec = cf.Record(start_, [start_.legal_moves[0]])
    # A whole 8-player round: its replay (about 90 KB) is more than a pipe holds.
    big = cf.Record(cf.deal(cf.Rules(players=8), seed=1))
    rng = random.Random(0)
    while not big.final().is_over():
        big = big.apply(rng.choice(big.final().legal_moves))
    paths = {}
    for name, text in (
        ("pos", start_.to_json()),
        ("rec", rec.to_json()),
        ("big", big.to_json()),
        ("answers", "1\nquit\n"),
    ):
        path = tmp / f"{name}.json"
        path.write_text(text)
        paths[name] = str(path)
    paths["first"] = str(start_.legal_moves[0])
    return paths


# Every command (and --help, --version), with arguments that print something.
COMMANDS = {
    "play": ["play", "--round", "--players", "2", "--seed", "1", "--bots", "greedy"],
    "simulate": ["simulate", "--games", "1", "--players", "2", "--set", 'match={"rounds": 1}'],
    "show": ["show", "POS"],
    "moves": ["moves", "POS"],
    "apply": ["apply", "POS", "FIRST"],
    "perft": ["perft", "POS", "--depth", "2"],
    "replay": ["replay", "REC"],
    "validate": ["validate", "POS"],
    "rules": ["rules"],
    "demo": ["demo"],
    "--help": ["--help"],
    "--version": ["--version"],
}


def argv_of(name: str, docs: dict[str, str]) -> list[str]:
    return [docs[a.lower()] if a in ("POS", "REC", "FIRST") else a for a in COMMANDS[name]]


# -- standard output closed, full, or a pipe nobody reads ----------------------------------------


@pytest.mark.parametrize("name", list(COMMANDS))
def test_output_that_cannot_be_written_is_one_line_and_status_1(
    name: str, docs: dict[str, str]
) -> None:
    argv = argv_of(name, docs)
    with contextlib.ExitStack() as files:
        answers = [files.enter_context(open(docs["answers"], "rb")) for _ in range(3)]
        full = files.enter_context(open("/dev/full", "wb"))
        w = no_reader()
        closed = start(argv, close="stdout", stdin=answers[0])
        filled = start(argv, stdout=full, stdin=answers[1])
        broken = start(argv, stdout=w, stdin=answers[2])
        os.close(w)
        got = {"closed": finish(closed), "full": finish(filled), "broken pipe": finish(broken)}
    assert got["closed"][::2] == (1, CLOSED_OUT), got["closed"]
    assert got["full"][::2] == (1, FULL_OUT), got["full"]
    assert got["broken pipe"][::2] == (1, ""), got["broken pipe"]


def test_a_reader_that_stops_early_is_a_quiet_status_1(docs: dict[str, str]) -> None:
    """``chickenfoot replay big.json | head -1``: the rest of the output meets EPIPE."""
    proc = start(["replay", docs["big"]])
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=TIMEOUT) == 1
    assert first.startswith(b"Start (a position of 8 players")
    assert err == b""


def test_a_full_stdout_after_a_long_output(docs: dict[str, str]) -> None:
    """Output much longer than a buffer: the first failed write ends the command."""
    with open("/dev/full", "wb") as full:
        status, _, err = finish(start(["replay", docs["big"]], stdout=full))
    assert (status, err) == (1, FULL_OUT)


# -- standard error closed or full -----------------------------------------------------------------


def test_an_error_with_stderr_closed_or_full_still_exits_2() -> None:
    argv = ["demo", "--players", "1"]
    status, out, _ = finish(start(argv, close="stderr"))
    assert (status, out) == (2, "")
    with open("/dev/full", "wb") as full:
        status, out, _ = finish(start(argv, stderr=full))
    assert (status, out) == (2, "")  # not 120 (a failed flush at exit)


def test_play_with_stderr_closed(docs: dict[str, str]) -> None:
    """input() needs a sys.stderr: main gives it one when descriptor 2 is closed."""
    with open(docs["answers"], "rb") as answers:
        status, out, _ = finish(start(argv_of("play", docs), close="stderr", stdin=answers))
    assert status == 0
    assert out.rstrip().endswith("You left the game. The game was not saved (save FILE keeps it).")


# -- standard input closed -------------------------------------------------------------------------


def test_play_with_stdin_closed_is_the_end_of_input(docs: dict[str, str]) -> None:
    status, out, err = finish(start(argv_of("play", docs), close="stdin"))
    assert (status, err) == (0, "")
    assert out.endswith("End of input (standard input is closed): you left the game.\n")


@pytest.mark.parametrize(
    "argv",
    [["show", "-"], ["validate", "-"], ["moves", "-"], ["apply", "-", "draw"], ["perft", "-"]],
    ids=" ".join,
)
def test_reading_a_closed_stdin_is_one_error_line(argv: list[str]) -> None:
    assert finish(start(argv, close="stdin")) == (2, "", CLOSED_IN)


def test_replay_with_stdin_closed_prints_the_record(docs: dict[str, str]) -> None:
    status, out, err = finish(start(["replay", docs["rec"]], close="stdin"))
    assert (status, err) == (0, "")
    assert out.startswith("Start (a position of 2 players, double-9):")
    assert out.endswith("End of the record: the round goes on.\n")


# -- the play prompt: every answer that is not understood is asked again ---------------------------

SMALL = [
    "play",
    "--players",
    "2",
    "--set",
    'match={"rounds": 1}',
    "--bots",
    "greedy",
    "--seed",
    "1",
]
PROMPT = "move [1-3, help]> "


@pytest.mark.parametrize(
    "encoding",
    ["utf-8:strict", ""],  # strict: as in a UTF-8 locale; "": the default (surrogateescape here)
    ids=["strict", "default"],
)
def test_hostile_answers_on_a_pipe_never_end_the_game(tmp_path: Path, encoding: str) -> None:
    long_name = "x" * 300
    answers: list[bytes] = [
        "²".encode(),
        "٣".encode(),  # an Arabic-Indic 3: not move 3
        b"save a\x00b",
        b"save /dev/full",
        b"save /nonexistent/dir/x.json",
        b"save " + long_name.encode(),
        b"save dir",
        b"\xff\xfe\x01\x1b[2J",  # not UTF-8, and control characters
        b"y" * 100_000,
        b"1",
        b"save good.json",
        b"quit",
    ]
    (tmp_path / "dir").mkdir()
    (tmp_path / "answers").write_bytes(b"".join(a + b"\n" for a in answers))
    extra = {"PYTHONIOENCODING": encoding} if encoding else {}
    with open(tmp_path / "answers", "rb") as stdin:
        status, out, err = finish(start(SMALL, stdin=stdin, cwd=tmp_path, extra_env=extra))
    assert (status, err) == (0, "")
    assert "Traceback" not in out
    replies = [
        "'²' is not a move: type 1 to 3, a move as listed (9|0), or help.",
        "'٣' is not a move: type 1 to 3",
        "Could not save to 'a\\x00b': embedded null byte. The game goes on.",
        # a device is refused before it is opened (a full disk: tests/test_cli_save_files.py)
        "Could not save to '/dev/full': a device, not a regular file. The game goes on.",
        "Could not save to '/nonexistent/dir/x.json': No such file or directory.",
        "(300 characters): File name too long. The game goes on.",
        "Could not save to 'dir': a directory, not a regular file. The game goes on.",
        "'\ufffd\ufffd\\x01\\x1b[2J' is not a move",
        "'" + "y" * 30 + "'... (100,000 characters) is not a move",
        "Saved the match, your seat and the bots to good.json.\nResume it with: chickenfoot play good.json",
        "You left the game. The game is saved in good.json.",
    ]
    at = 0
    for reply in replies:
        found = out.find(reply, at)
        assert found >= 0, (reply, out[at : at + 500])
        at = found + len(reply)
    assert out.count(PROMPT) >= 10  # asked again after every answer
    saved = PlaySave.from_json((tmp_path / "good.json").read_text()).game
    assert isinstance(saved, Match)
    assert saved.round is not None and len(saved.round.board) > 1  # move 1 was played
    assert not (tmp_path / "a").exists()


def test_a_pty_session_survives_hostile_answers(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "chickenfoot", *SMALL],
        env=env(PYTHONUNBUFFERED="1"),
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 100),
    )
    log = Transcript()
    child.logfile_read = log
    prompt = r"move \[1-\d+, help\]> "
    child.expect(prompt)
    child.sendline("²")
    child.expect("'²' is not a move: type 1 to 3")
    child.expect(prompt)
    # 100,000 characters, sent in pieces while the echo is read (the terminal's buffers are
    # a few kilobytes: one write of it all would block both sides).
    for _ in range(50):
        child.send("z" * 2000)
        deadline = time.monotonic() + TIMEOUT
        try:
            while time.monotonic() < deadline:
                child.read_nonblocking(65536, timeout=0.02)
        except pexpect.TIMEOUT:
            pass
    child.sendline("")
    child.expect(r"\(100,000 characters\) is not a move")
    child.expect(prompt)
    for answer, reply in [
        ("save /dev/full", "Could not save to '/dev/full': a device, not a regular file."),
        ("save /nonexistent/dir/x.json", "No such file or directory. The game goes on."),
        # Last: readline reads NUL (Ctrl-@) as set-mark, so the name may arrive as "ab" (and
        # the marked region makes its redisplay of any later long line slow).
        (
            "save a\x00b",
            r"(Could not save to 'a\\x00b': embedded null byte|Saved the match, .* to a)",
        ),
    ]:
        child.sendline(answer)
        child.expect(reply)
        child.expect(prompt)
    child.sendline("1")
    child.expect(prompt)
    child.sendline("save good.json")
    child.expect("Saved the match, your seat and the bots to good.json.")
    child.expect(prompt)
    child.sendline("quit")
    child.expect("You left the game. The game is saved in good.json.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in log.text()
    saved = PlaySave.from_json((tmp_path / "good.json").read_text()).game
    assert isinstance(saved, Match)
    assert saved.round is not None and len(saved.round.board) > 1


# -- numbers are ASCII digits; a file that cannot be written is a message --------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (
            ["show", "POS", "--svg", "-", "--hands", "²"],
            "--hands '²' is invalid: none, all or a seat",
        ),
        (
            ["show", "POS", "--svg", "-", "--hands", "٣"],
            "--hands '٣' is invalid: none, all or a seat",
        ),
        (["play", "--bots", "search:²"], "agent 'search:²': search:N takes N from 1 to 100,000"),
        (["simulate", "--agents", "search:٣"], "agent 'search:٣': search:N takes N from 1"),
        (["show", "POS", "--svg", "a\x00b"], "cannot write 'a\\x00b': embedded null byte"),
        (
            ["show", "POS", "--svg", "/dev/full"],
            "cannot write '/dev/full': a device, not a regular file",
        ),
        (
            ["show", "POS", "--svg", "/nonexistent/x.svg"],
            "cannot write '/nonexistent/x.svg': No such",
        ),
        (["show", "a\x00b"], "cannot read 'a\\x00b': embedded null byte"),
    ],
)
def test_bad_numbers_and_unwritable_files_are_named(
    argv: list[str], needle: str, docs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from chickenfoot.cli import main

    assert main([docs["pos"] if a == "POS" else a for a in argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("chickenfoot: error: ") and needle in err, err
