"""An engine's operating-system process: started in a session of its own, read with a
timeout, its standard error kept in a bounded ring, and always killed as a group and
reaped (no process of it is ever left behind, no zombie).

The protocol is not known here: lines go out and come in as bytes.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Final

from chickenfoot._protocol import MAX_LINE, printable

__all__ = ["EOF", "TIMEOUT", "TOO_LONG", "EngineProcess", "StartError", "describe_exit"]

EOF: Final = "eof"
TIMEOUT: Final = "timeout"
TOO_LONG: Final = "too long"

STDERR_LINES: Final = 20
"""The last lines of an engine's standard error kept for error messages."""
_STDERR_LINE = 200  # characters kept of each stderr line
_STDERR_SHOWN = 200  # characters of stderr an error message quotes
_QUEUE = 64  # lines read ahead of the host (a flood of info lines waits in the pipe)
_POSIX = os.name == "posix"


class StartError(Exception):
    """The program could not be started; the text says why (no process exists)."""


class EngineProcess:
    """A running engine program, its pipes and the threads that read them."""

    def __init__(self, argv: Sequence[str]) -> None:
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=_POSIX,  # its own process group: killed as one
            )
        except FileNotFoundError:
            raise StartError("cannot start: no such program") from None
        except PermissionError:
            raise StartError("cannot start: the program is not executable") from None
        except OSError as err:
            raise StartError(f"cannot start: {err.strerror or type(err).__name__}") from None
        self.pid = self.proc.pid
        self._lines: queue.Queue[bytes | str] = queue.Queue(_QUEUE)
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._closing = threading.Event()
        self._finished = False
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._out = threading.Thread(
            target=self._read_stdout, args=(self.proc.stdout,), daemon=True
        )
        self._err = threading.Thread(
            target=self._read_stderr, args=(self.proc.stderr,), daemon=True
        )
        self._out.start()
        self._err.start()

    # -- threads ---------------------------------------------------------------------------

    def _put(self, item: bytes | str) -> None:
        while not self._closing.is_set():
            try:
                self._lines.put(item, timeout=0.05)
                return
            except queue.Full:
                continue

    def _read_stdout(self, stream: IO[bytes]) -> None:
        try:
            while not self._closing.is_set():
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE and not (len(line) == MAX_LINE + 1 and line[-1:] == b"\n"):
                    self._put(TOO_LONG)
                    return
                self._put(line)
        except (OSError, ValueError):  # the pipe closed under us: the process is going
            pass
        self._put(EOF)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                chunk = stream.readline(4096)
                if not chunk:
                    return
                text = printable(" ".join(chunk.decode("utf-8", "replace").split()))
                if text:
                    self._stderr.append(text[:_STDERR_LINE])

    # -- the host's side -------------------------------------------------------------------

    def send(self, line: bytes) -> bool:
        """Write one line; ``False`` if the engine no longer reads (its pipe is closed)."""
        stdin = self.proc.stdin
        if stdin is None:
            return False
        try:
            stdin.write(line)
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            return False
        return True

    def read(self, timeout: float) -> bytes | str:
        """The next line (bytes), or :data:`EOF`, :data:`TOO_LONG` or :data:`TIMEOUT`."""
        try:
            return self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return TIMEOUT

    def stderr_tail(self) -> str:
        """The last lines of standard error, joined with `` | `` and bounded (``""``: none)."""
        self._err.join(0.2 if self._finished else 0)  # its last words, once it is gone
        lines = list(self._stderr)
        text = " | ".join(lines)
        if len(text) > _STDERR_SHOWN:
            text = "..." + text[-(_STDERR_SHOWN - 3) :]
        return text

    def _exited(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the program to exit, without reaping it: while
        it is a zombie its pid is still its group's id, so the group can be killed safely."""
        deadline = time.monotonic() + timeout
        pause = 0.001
        while True:
            if _POSIX and hasattr(os, "waitid"):
                try:
                    result = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                except ChildProcessError:  # already reaped
                    return True
                if result is not None and result.si_pid != 0:
                    return True
            elif self.proc.poll() is not None:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.02)

    def finish(self, *, quit: bytes | None = None, wait: float = 0.0) -> tuple[bool, int]:
        """End the engine: send ``quit`` (if given), close its input, wait up to ``wait``
        seconds for it to exit, then kill its whole process group and reap it.

        Returns whether it had exited by itself, and its exit status (negative: the signal
        that ended it, as :attr:`subprocess.Popen.returncode`). Safe to call twice.
        """
        if self._finished:
            return True, self.proc.returncode if self.proc.returncode is not None else 0
        self._finished = True
        if quit is not None:
            self.send(quit)
        with contextlib.suppress(OSError, ValueError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        by_itself = self._exited(wait)
        if _POSIX:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)  # its children too, if any are left
        else:  # pragma: no cover - Windows: no process groups to kill
            with contextlib.suppress(OSError):
                self.proc.kill()
        code = self.proc.wait()
        self._closing.set()
        self._err.join(1.0)
        self._out.join(1.0)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
        return by_itself, code


def describe_exit(code: int) -> str:
    """``exited with status 3`` or ``was killed by signal 9 (SIGKILL)``.

    >>> describe_exit(3), describe_exit(-9)
    ('exited with status 3', 'was killed by signal 9 (SIGKILL)')
    """
    if code >= 0:
        return f"exited with status {code}"
    try:
        name = f" ({signal.Signals(-code).name})"
    except ValueError:
        name = ""
    return f"was killed by signal {-code}{name}"
