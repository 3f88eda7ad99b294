"""Issue 46, item 4, for ``chickenfoot serve --db FILE``: the SQLite file a user names is a
regular file or a new name, never a named pipe (which SQLite would wait on forever) nor a
device (``/dev/null`` would take every game and keep none); refused with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot.server._rows import StoreError
from chickenfoot.server._sqlite import SqliteStore

CHILD = """
import sys
from chickenfoot.server._rows import StoreError
from chickenfoot.server._sqlite import SqliteStore
try:
    SqliteStore(sys.argv[1]).close()
    print("opened")
except StoreError as err:
    print("refused:", err)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.db")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "pipe.db")],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "refused: " in done.stdout, done.stdout + done.stderr[-1000:]
    assert "a named pipe, not a regular file" in done.stdout


def test_a_device_and_a_folder_are_refused(tmp_path: Path) -> None:
    for path in (os.devnull, str(tmp_path)):
        with pytest.raises(StoreError, match="not a regular file"):
            SqliteStore(path)


def test_a_new_name_and_a_database_still_open(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "new.db").close()
    SqliteStore(tmp_path / "new.db").close()
    with pytest.raises(StoreError, match="No such file or directory"):
        SqliteStore(tmp_path / "no" / "such.db")
