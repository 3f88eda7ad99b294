"""Issue 46, item 4: no file a user names to the ladder is harmed.

``--results FILE`` and ``--plot FILE`` (and ``play_ladder(results=...)``) check first and
write after: a file they refuse is left byte for byte as it was; a named pipe or a device
is refused at once, never opened to block on; the results are read like every other
document (strict JSON: no key twice, no NaN, bounded lines; the header checked as a
document's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot import Rules
from chickenfoot.cli import main
from chickenfoot.errors import LadderError
from chickenfoot.ladder import play_ladder

TWO = Rules(players=2)
AGENTS = ["random", "greedy"]
BASE = ["ladder", "--agents", "random,greedy", "--players", "2", "--deals", "2", "--seed", "9"]


def _ladder_file(path: Path, deals: int = 2) -> bytes:
    play_ladder(TWO, AGENTS, deals=deals, seed=9, results=path)
    return path.read_bytes()


def _refused(path: Path, said: str) -> None:
    before = path.read_bytes()
    with pytest.raises(LadderError, match=said):
        play_ladder(TWO, AGENTS, deals=3, seed=9, results=path)
    assert path.read_bytes() == before  # not a byte changed


# -- a file refused is a file left as it was --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "my notes\nthe last line has no end",  # no header: once cut to "my notes\n"
        '{"format": "chickenfoot/position", "version": 1}\n{"deal": 0',
        "\ufeffnot json at all",
    ],
)
def test_a_file_that_is_not_a_ladders_is_left_as_it_was(tmp_path: Path, text: str) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(text, encoding="utf-8")
    _refused(path, "not a ladder's results file")


def test_a_file_with_a_bad_game_and_a_cut_last_line_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    _ladder_file(path)
    with path.open("a") as f:
        f.write('{"deal": 1, "seating": 0, "seats": [0, 7], "penalties": [1, 2]}\n{"deal": 1, "se')
    _refused(path, "line 6: not a game of this ladder")


def test_a_game_in_another_seating_and_a_cut_last_line_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    _ladder_file(path, deals=1)
    with path.open("a") as f:  # deal 1, seating 0 is (0, 1): random at seat 0
        f.write('{"deal": 1, "seating": 0, "seats": [1, 0], "penalties": [1, 2], "winners": [0]}\n')
        f.write('{"deal": 1, "seat')
    _refused(path, r"deal 1, seating 0 seats agents \[1, 0\]")


def test_another_ladders_file_with_a_cut_last_line_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    play_ladder(TWO, ["random", "heuristic"], deals=1, seed=9, results=path)
    with path.open("a") as f:
        f.write('{"deal": 1, "se')
    _refused(path, "another ladder's games: agents")


def test_an_accepted_file_still_drops_its_cut_last_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    whole = _ladder_file(path)
    path.write_bytes(whole + b'{"deal": 2, "sea')
    play_ladder(TWO, AGENTS, deals=2, seed=9, results=path)
    assert path.read_bytes() == whole


# -- the strict reader and the header check ---------------------------------------------------


def _with_header(path: Path, **changes: object) -> None:
    head, *games = _ladder_file(path).decode().splitlines()
    path.write_text("\n".join([json.dumps({**json.loads(head), **changes}), *games]) + "\n")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('{"deal": 1, "deal": 1, "seating": 0, "seats": [0, 1], "penalties": [1, 2], "winners": [0]}',
         "line 6: .*the key 'deal' appears twice"),
        ('{"deal": 1, "seating": 0, "seats": [0, 1], "penalties": [NaN, 2], "winners": [0]}',
         "line 6: .*NaN is not a JSON number"),
        ('{"deal": 1, "seating": 0, "seats": [0, 1], "penalties": [1, 2], "winners": [0], "x": 1}',
         "line 6: .*unknown key"),
        ('{"deal": 1, "seating": 0, "seats": [0, 1], "error": {"a": 1}, "seat": 0}',
         "line 6: .*error"),
        ('{"deal": 1, "seating": 0, "seats": [0, 1], "error": "x", "seat": 5}', "line 6: .*seat"),
        ('{"deal": 10000000, "seating": 0, "seats": [0, 1], "penalties": [1, 2], "winners": [0]}',
         "line 6: not a game of this ladder"),
        ('"' + "x" * (1 << 20) + '"', "line 6: longer than"),
        ("[" * 100_000, "line 6: "),
    ],
    ids=["key twice", "NaN", "unknown key", "error not text", "seat", "deal", "long", "deep"],
)  # fmt: skip
def test_game_lines_are_read_strictly(tmp_path: Path, line: str, said: str) -> None:
    path = tmp_path / "l.jsonl"
    path.write_bytes(_ladder_file(path) + line.encode() + b"\n")
    _refused(path, said)


def test_a_line_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    path.write_bytes(_ladder_file(path) + b'{"deal": 1, "seating": 0, "seats": "\xff"}\n')
    _refused(path, "line 6: not UTF-8")


def test_a_header_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    whole = _ladder_file(path)
    path.write_bytes(whole.replace(b'"seed":9', b'"seed":9,"seed":9', 1))
    _refused(path, "line 1: .*the key 'seed' appears twice")


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"extra": 1}, "line 1: extra: unknown key"),
        ({"version": True}, "line 1: version: expected the integer"),
        ({"version": 3}, "line 1: version: version 3 is newer than this library reads"),
    ],
)
def test_the_header_is_checked_as_a_documents(
    tmp_path: Path, changes: dict[str, object], said: str
) -> None:
    path = tmp_path / "l.jsonl"
    _with_header(path, **changes)
    _refused(path, said)


def test_a_header_without_a_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    head, *games = _ladder_file(path).decode().splitlines()
    d = json.loads(head)
    del d["game"]
    path.write_text("\n".join([json.dumps(d), *games]) + "\n")
    _refused(path, "line 1: game: missing")


# -- named pipes, devices, one file named twice: refused before anything is opened --------------


def _run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own: one that blocks is killed by the timeout."""
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *argv],
        check=False, capture_output=True, text=True, timeout=60, cwd=cwd,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def _one_line(done: subprocess.CompletedProcess[str], *said: str) -> None:
    assert done.returncode == 2, done.stderr
    err = done.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for s in said:
        assert s in err, err


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes are POSIX")
@pytest.mark.parametrize("option", ["--results", "--plot"])
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path, option: str) -> None:
    os.mkfifo(tmp_path / "pipe")
    done = _run(*BASE, option, "pipe", cwd=tmp_path)
    _one_line(done, option, "a named pipe, not a regular file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.parametrize("option", ["--results", "--plot"])
def test_a_device_is_refused(tmp_path: Path, option: str) -> None:
    done = _run(*BASE, option, os.devnull, cwd=tmp_path)
    _one_line(done, option, "a device, not a regular file")


def test_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for option in ("--results", "--plot"):
        assert main([*BASE, option, str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert option in err and "a directory, not a regular file" in err


def test_the_plot_is_checked_before_the_ladder_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "l.jsonl"
    missing = tmp_path / "no" / "such.svg"
    assert main([*BASE, "--results", str(results), "--plot", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "--plot" in err and "No such file or directory" in err
    assert not results.exists()  # nothing played, nothing written


def test_results_and_plot_may_not_be_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "l.jsonl"
    whole = _ladder_file(path)
    os.symlink(path, tmp_path / "link.svg")
    for plot in (path, tmp_path / "link.svg"):
        assert main([*BASE, "--results", str(path), "--plot", str(plot)]) == 2
        assert "--plot" in capsys.readouterr().err
        assert path.read_bytes() == whole


def test_a_plot_that_cannot_replace_its_file_leaves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "r.svg"
    plot.write_text("mine")
    plot.chmod(0o444)
    if os.access(plot, os.W_OK):  # root writes anything: nothing to test
        return
    assert main([*BASE, "--plot", str(plot)]) == 2
    assert "--plot" in capsys.readouterr().err
    assert plot.read_text() == "mine"
