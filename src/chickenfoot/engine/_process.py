"""An engine's operating-system process: started in a session of its own, read and
written with deadlines, its standard error kept in a bounded ring, and always killed and
reaped (no zombie).

No wait here depends on what the engine's children do. A child can keep the engine's
pipes open after the engine is gone (a ``setsid()`` child escapes the process group's
kill), so end-of-file may never come: the pipes are read by daemon threads that wait on
the pipe *and* on a wake-up pipe of their own (POSIX), so that :meth:`EngineProcess.finish`
stops them at once, and nothing ever joins a thread or closes a pipe that a thread reads
without a bound. On Linux the engine runs under a shepherd (``_shepherd.py``, a child
subreaper) that finds and kills every process of the engine's tree, escaped or not.

The protocol is not known here: lines go out and come in as bytes.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import queue
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Final

from chickenfoot._protocol import MAX_LINE, printable

__all__ = [
    "EOF",
    "TIMEOUT",
    "TOO_LONG",
    "EngineProcess",
    "StartError",
    "StartTimeoutError",
    "describe_exit",
]

EOF: Final = "eof"
TIMEOUT: Final = "timeout"
TOO_LONG: Final = "too long"

STDERR_LINES: Final = 20
"""The last lines of an engine's standard error kept for error messages."""
_STDERR_LINE = 200  # characters kept of each stderr line
_STDERR_SHOWN = 200  # characters of stderr an error message quotes
_QUEUE = 64  # lines read ahead of the host (a flood of info lines waits in the pipe)
_CHUNK = 65536
_LAST_WORDS = 16 * _CHUNK  # stderr read after the end, at most (no wait: what is there)
_POSIX = os.name == "posix"
_SHEPHERD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_shepherd.py")
_SHEPHERD_ENDS = 3.0  # seconds the shepherd has to kill the engine's tree and exit
_REAP = 5.0  # seconds to reap a process killed with SIGKILL (it cannot refuse)
# poll(2) where there is one: no file descriptor of its own (epoll's), no limit (select's)
_Selector = getattr(selectors, "PollSelector", selectors.DefaultSelector)


def _use_shepherd() -> bool:
    """On Linux (``/proc``, ``prctl``), with a Python to run it: the shepherd."""
    return (
        sys.platform.startswith("linux")
        and bool(sys.executable)
        and os.path.isfile(sys.executable)
        and os.path.isfile(_SHEPHERD)
    )


class StartError(Exception):
    """The program could not be started; the text says why (no process exists)."""


class StartTimeoutError(StartError):
    """The program was not started within the time given (no process is left)."""


def _start_error(number: int, text: str | None) -> StartError:
    if number == errno.ENOENT:
        return StartError("cannot start: no such program")
    if number in (errno.EACCES, errno.EPERM, errno.EISDIR):
        return StartError("cannot start: the program is not executable")
    return StartError(f"cannot start: {text or os.strerror(number) or 'error'}")


def _read_report(fd: int, timeout: float) -> bytes | None:
    """The shepherd's first line (``None``: none within ``timeout``; ``b""``: it died)."""
    deadline = time.monotonic() + timeout
    data = b""
    with _Selector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while b"\n" not in data and len(data) < 100:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(left):
                return None
            chunk = os.read(fd, 100)
            if not chunk:
                return b""
            data += chunk
    return data.split(b"\n", 1)[0]


class EngineProcess:
    """A running engine program, its pipes and the threads that read them.

    ``start`` bounds the wait for the shepherd's report that the program started (Linux);
    elsewhere the program is started directly and the constructor does not wait.
    """

    def __init__(self, argv: Sequence[str], *, start: float = 10.0) -> None:
        report = -1
        shepherded = _use_shepherd()
        command = list(argv)
        extra: tuple[int, ...] = ()
        if shepherded:
            report, writer = os.pipe()
            command = [sys.executable, "-I", "-S", _SHEPHERD, str(writer), *command]
            extra = (writer,)
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=_POSIX,  # its own process group: killed as one
                pass_fds=extra,
            )
        except OSError as err:
            if shepherded:
                os.close(report)
                os.close(extra[0])
            raise _start_error(err.errno or 0, err.strerror) from None
        self._shepherd = shepherded
        self.pid = self.proc.pid
        """The engine's process id (under a shepherd, not the shepherd's)."""
        if shepherded:
            os.close(extra[0])
            try:
                line = _read_report(report, start)
            finally:
                os.close(report)
            word, _, value = (line or b"").partition(b" ")
            if word != b"pid" or not value.isdigit():
                self._abandon()
                if word == b"error" and value.isdigit():
                    raise _start_error(int(value), None)
                if line is None:
                    raise StartTimeoutError(f"cannot start: not started within {start:g} s")
                raise StartError(f"cannot start: {sys.executable} {_SHEPHERD} failed")
            self.pid = int(value)
        self._lines: queue.Queue[bytes | str] = queue.Queue(_QUEUE)
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._closing = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._threads_left = 2
        self._threads_lock = threading.Lock()
        self._finished = False
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        if _POSIX:
            os.set_blocking(self.proc.stdin.fileno(), False)  # writes have deadlines
        self._out = self._thread("stdout", self.proc.stdout, self._stdout_lines())
        self._err = self._thread("stderr", self.proc.stderr, self._stderr_lines())

    # -- threads ---------------------------------------------------------------------------

    def _thread(
        self, name: str, stream: IO[bytes], take: Callable[[bytes], bool]
    ) -> threading.Thread:
        name = f"chickenfoot engine {self.pid} {name}"
        thread = threading.Thread(target=self._pump, args=(stream, take), name=name, daemon=True)
        thread.start()
        return thread

    def _pump(self, stream: IO[bytes], take: Callable[[bytes], bool]) -> None:
        """Read ``stream`` into ``take`` (``b""`` at the end; ``take`` returns whether to go
        on) until end-of-file or :meth:`finish`, which never waits for end-of-file: a child
        of the engine may hold the pipe forever. The stream is closed here, by its reader."""
        fd = stream.fileno()
        try:
            if _POSIX:
                os.set_blocking(fd, False)
                with _Selector() as sel:
                    sel.register(fd, selectors.EVENT_READ)
                    sel.register(self._wake_r, selectors.EVENT_READ)
                    while True:
                        ready = {key.fd for key, _ in sel.select()}
                        if self._wake_r in ready:  # finish: what is there, no wait (first:
                            self._drain(fd, take)  # a pipe that a child floods is always
                            return  # ready, and this thread must end all the same)
                        with contextlib.suppress(BlockingIOError):
                            data = os.read(fd, _CHUNK)
                            if not take(data) or not data:
                                return
            else:  # pragma: no cover - Windows: a held pipe keeps this (daemon) thread
                while not self._closing.is_set():
                    data = os.read(fd, _CHUNK)
                    if not take(data) or not data:
                        return
        except (OSError, ValueError):  # the pipe closed under us: the process is going
            take(b"")
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()
            with self._threads_lock:
                self._threads_left -= 1
                if self._threads_left == 0:  # no one waits on the wake-up pipe any more
                    for wake in (self._wake_r, self._wake_w):
                        with contextlib.suppress(OSError):
                            os.close(wake)

    def _wake(self) -> None:
        """Stop the threads (they read what is there, without waiting, and end)."""
        self._closing.set()
        with self._threads_lock:
            if self._threads_left > 0:  # else the wake-up pipe is closed (its fd reused?)
                with contextlib.suppress(OSError):
                    os.write(self._wake_w, b"x")

    def _drain(self, fd: int, take: Callable[[bytes], bool]) -> None:
        read = 0
        with contextlib.suppress(OSError):
            while read < _LAST_WORDS:
                data = os.read(fd, _CHUNK)
                read += len(data)
                if not take(data) or not data:
                    return
        take(b"")

    def _put(self, item: bytes | str) -> bool:
        while not self._closing.is_set():
            try:
                self._lines.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _stdout_lines(self) -> Callable[[bytes], bool]:
        buffer = bytearray()

        def take(data: bytes) -> bool:
            if not data:  # the end: a last line without its newline, then EOF
                if buffer and len(buffer) <= MAX_LINE:
                    self._put(bytes(buffer))
                self._put(TOO_LONG if len(buffer) > MAX_LINE else EOF)
                buffer.clear()
                return False
            start = len(buffer)
            buffer.extend(data)
            while True:
                end = buffer.find(b"\n", start)
                if end < 0:
                    break
                if end > MAX_LINE:
                    break
                if not self._put(bytes(buffer[: end + 1])):
                    return False
                del buffer[: end + 1]
                start = 0
            if len(buffer) > MAX_LINE:  # no newline within MAX_LINE bytes: refused
                buffer.clear()
                self._put(TOO_LONG)
                return False
            return True

        return take

    def _stderr_lines(self) -> Callable[[bytes], bool]:
        buffer = bytearray()

        def keep(raw: bytes) -> None:
            text = printable(" ".join(raw.decode("utf-8", "replace").split()))
            if text:
                self._stderr.append(text[:_STDERR_LINE])

        def take(data: bytes) -> bool:
            buffer.extend(data)
            while b"\n" in buffer or len(buffer) >= 4096 or (not data and buffer):
                end = buffer.find(b"\n")
                end = len(buffer) if end < 0 else end + 1
                end = min(end, 4096)
                keep(bytes(buffer[:end]))
                del buffer[:end]
            return bool(data)

        return take

    # -- the host's side -------------------------------------------------------------------

    def send(self, line: bytes, timeout: float) -> str | None:
        """Write one line within ``timeout`` seconds: ``None`` once written, :data:`EOF`
        if the engine no longer reads (its pipe is closed), :data:`TIMEOUT` if the pipe
        stayed full (the engine, or a child holding its input, does not read)."""
        stdin = self.proc.stdin
        if stdin is None or stdin.closed:
            return EOF
        if not _POSIX:  # pragma: no cover - Windows: no non-blocking pipes
            try:
                stdin.write(line)
                stdin.flush()
            except (OSError, ValueError):
                return EOF
            return None
        deadline = time.monotonic() + timeout
        view = memoryview(line)
        try:
            fd = stdin.fileno()
            with _Selector() as sel:
                sel.register(fd, selectors.EVENT_WRITE)
                while view:
                    try:
                        view = view[os.write(fd, view) :]
                        continue
                    except BlockingIOError:
                        pass
                    left = deadline - time.monotonic()
                    if left <= 0 or not sel.select(left):
                        return TIMEOUT
        except (OSError, ValueError):  # BrokenPipeError: no reader left
            return EOF
        return None

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
        """Wait up to ``timeout`` seconds for the program (or its shepherd) to exit,
        without reaping it: while it is a zombie its pid is still its group's id, so the
        group can be killed safely."""
        deadline = time.monotonic() + timeout
        pause = 0.001
        while True:
            if _POSIX and hasattr(os, "waitid"):
                try:
                    result = os.waitid(
                        os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT
                    )
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
        seconds for it to exit, then kill it and all its processes and reap it. Returns
        within ``wait`` plus a few seconds at most, whatever the engine's children do.

        Returns whether it had exited by itself, and its exit status (negative: the signal
        that ended it, as :attr:`subprocess.Popen.returncode`). Safe to call twice.
        """
        if self._finished:
            return True, self.proc.returncode if self.proc.returncode is not None else 0
        self._finished = True
        if quit is not None:
            self.send(quit, 0.0)
        with contextlib.suppress(OSError, ValueError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        by_itself = self._exited(wait)
        if self._shepherd and not by_itself:  # it kills the engine's whole tree, then ends
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.proc.pid, signal.SIGTERM)
            self._exited(_SHEPHERD_ENDS)
        if _POSIX:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)  # its group, if any is left
        else:  # pragma: no cover - Windows: no process groups to kill
            with contextlib.suppress(OSError):
                self.proc.kill()
        try:
            code = self.proc.wait(_REAP)
        except subprocess.TimeoutExpired:  # pragma: no cover - stuck in the kernel
            code = -signal.SIGKILL
        self._wake()
        self._err.join(0.5)  # bounded: they do not wait for the pipes' end
        self._out.join(0.5)
        return by_itself, code

    def _abandon(self) -> None:
        """The shepherd did not start the program: kill it, reap it, close the pipes."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(_REAP)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


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
