"""Issue 29, item 6: a save is written whole or not at all, and only over a regular file.

``write_file`` (``chickenfoot play``'s ``save FILE``, ``show --svg FILE``) writes a
temporary file beside the target, syncs it and renames it over the target: a disk that
fills mid-write leaves the old save as it was and no temporary file; a target that exists
and is not a regular file (a named pipe, a directory, a device, a symbolic link) is refused
at once with one line, never opened.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot import _files as files
from chickenfoot._files import write_file
from chickenfoot.cli import main

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="named pipes and rlimits")

ROUND = ["--players", "2", "--seed", "1", "--bots", "random", "--round", "0"]
OLD = '{"a good save": true}\n'


def play_in_a_process(
    cwd: Path, lines: list[str], *argv: str, fsize: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``chickenfoot play ARGV`` in a child process answering ``lines`` on its standard
    input (a timeout, so that a save that blocks fails the test instead of hanging it);
    ``fsize``: the largest file the child may write (RLIMIT_FSIZE: a disk that is full)."""

    def limit() -> None:  # pragma: no cover - runs in the child
        import resource
        import signal

        assert fsize is not None
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", *argv],
        check=False,
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=30,
        preexec_fn=None if fsize is None else limit,
    )


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def only(folder: Path, *names: str) -> None:
    """``folder`` holds exactly ``names``: no temporary file was left behind."""
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)


# -- targets that are not regular files --------------------------------------------------------


@posix_only
def test_save_to_a_named_pipe_fails_at_once_and_the_game_goes_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    done = play_in_a_process(tmp_path, ["save pipe", "save g.json", "quit"], *ROUND)
    assert done.returncode == 0, done.stderr
    assert "Could not save to 'pipe': a named pipe, not a regular file" in done.stdout
    assert "The game goes on." in done.stdout and "Traceback" not in done.stderr
    assert "Saved the round, your seat and the bots to g.json." in done.stdout
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)
    only(tmp_path, "pipe", "g.json")


def test_save_through_a_symlink_is_refused_and_its_target_untouched(
    answers: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real.json").write_text(OLD)
    (tmp_path / "link.json").symlink_to("real.json")
    (tmp_path / "dangling.json").symlink_to("nowhere.json")
    answers += ["save link.json", "save dangling.json", "quit"]
    code, out, err = run("play", *ROUND)
    assert (code, err) == (0, "")
    assert "Could not save to 'link.json': a symbolic link, not a regular file" in out
    assert "Could not save to 'dangling.json': a symbolic link, not a regular file" in out
    assert (tmp_path / "real.json").read_text() == OLD
    assert os.readlink(tmp_path / "link.json") == "real.json"
    assert not (tmp_path / "nowhere.json").exists()
    only(tmp_path, "real.json", "link.json", "dangling.json")


def test_other_targets_that_are_not_regular_files_are_refused(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    assert write_file(str(tmp_path / "dir"), "{}") == "a directory, not a regular file"
    if os.path.exists("/dev/null"):
        assert write_file("/dev/null", "{}") == "a device, not a regular file"
    only(tmp_path, "dir")


def test_show_svg_refuses_a_symlink_with_one_line(tmp_path: Path) -> None:
    doc = tmp_path / "pos.json"
    doc.write_text(cf.deal(cf.Rules(), 3).to_json())
    (tmp_path / "real.svg").write_text("<svg/>")
    (tmp_path / "link.svg").symlink_to("real.svg")
    code, out, err = run("show", str(doc), "--svg", str(tmp_path / "link.svg"))
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert "a symbolic link, not a regular file" in err and "Traceback" not in err
    assert (tmp_path / "real.svg").read_text() == "<svg/>"


# -- a disk that fills ---------------------------------------------------------------------------


@posix_only
def test_a_full_disk_leaves_the_old_save_whole_and_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_text(OLD)
    done = play_in_a_process(tmp_path, ["save g.json", "quit"], *ROUND, fsize=64)
    assert done.returncode == 0, done.stderr
    assert "Could not save to 'g.json': File too large. The game goes on." in done.stdout
    assert (tmp_path / "g.json").read_text() == OLD
    only(tmp_path, "g.json")


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_a_failure_at_any_step_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    target = tmp_path / "g.json"
    target.write_text(OLD)
    real = getattr(os, step)

    def full(*args: Any) -> Any:
        if step == "write":  # half of what was asked, then the disk is full
            fd, data = args
            real(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, step, full)
    assert write_file(str(target), '{"new": "x"}' * 1000) == "No space left on device"
    monkeypatch.undo()
    assert target.read_text() == OLD
    only(tmp_path, "g.json")


# -- what a good save does -----------------------------------------------------------------------


def test_a_save_replaces_the_file_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    target.write_text(OLD * 100)
    os.chmod(target, 0o640)
    assert write_file(str(target), "{}\n") is None
    assert target.read_text() == "{}\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    fresh = tmp_path / "new.json"
    assert write_file(str(fresh), "é\n") is None
    assert fresh.read_bytes() == "é\n".encode()
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o666 & ~umask
    only(tmp_path, "g.json", "new.json")


def test_bad_names_are_one_line(tmp_path: Path) -> None:
    assert write_file("a\x00b", "{}") == "embedded null byte"
    assert write_file(str(tmp_path / "no" / "x.json"), "{}") == "No such file or directory"
    assert write_file(str(tmp_path / "\ud800.json"), "{}") == "not a possible file name"
    assert write_file(str(tmp_path / ("x" * 300)), "{}") == "File name too long"
    only(tmp_path)
