"""The shepherd: a small program between the host and an engine, on Linux, so that no
process the engine starts outlives it. Run as ``python -I -S _shepherd.py FD PROGRAM ARGS``.

It marks itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every process
of the engine's tree that is orphaned (a child that called ``setsid()`` and whose parent
died, a double fork...) is reparented to it rather than to init, so it can always be found:
a descendant of the shepherd is a process of the engine, and nothing else is. It starts
the program on the standard input, output and error it was given (the host's pipes), which
it then lets go of (the pipes belong to the engine alone), writes ``pid N`` (or ``error
ERRNO``) and a newline to file descriptor ``FD``, and waits.

When the engine exits, when the host sends ``SIGTERM`` or when the host is gone, it kills
every descendant (the engine, its children wherever their session or group, their
children...) with ``SIGKILL``, reaps them, and ends as the engine ended: the same exit
status, or killed by the same signal. The subreaper mark is this process's alone: the
host's own process, its other children and their waiting are not touched.

It imports nothing of chickenfoot (it is run by path, in an isolated interpreter) and
only the standard library; it runs only where ``/proc`` and ``prctl`` exist.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
KILL_FOR = 2.0  # seconds to hunt descendants (a fork bomb is stopped trying, not hung on)
_WAKE = {signal.SIGCHLD, signal.SIGTERM}


def become_subreaper() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (ImportError, OSError, AttributeError):  # no ctypes, or no prctl: degraded
        return False


def parent(pid: int) -> int | None:
    """The parent of a live process (``None``: gone, or a zombie)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return None if fields[0] in (b"Z", b"X") else int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants() -> list[int]:
    """The live processes below this one, found through ``/proc`` (parents first)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            ppid = parent(int(name))
            if ppid is not None:
                children.setdefault(ppid, []).append(int(name))
    found: list[int] = []
    todo = [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), ()):
            found.append(pid)
            todo.append(pid)
    return found


def kill(pid: int, ours: set[int]) -> None:
    """``SIGKILL`` to ``pid`` if its parent is in ``ours``, checked once the process is
    pinned by a pidfd (Linux 5.3): a pid freed and reused meanwhile is never signalled."""
    try:
        pinned = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):  # no pidfd here: the plain kill (a tiny race)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        return
    try:
        if parent(pid) in ours:
            signal.pidfd_send_signal(pinned, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(pinned)


class Shepherd:
    def __init__(self, engine: int) -> None:
        self.engine = engine
        self.status: int | None = None  # the engine's wait status, once reaped

    def reap(self) -> bool:
        """Reap every child that has ended; whether any child is left."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return False
            if pid == 0:
                return True
            if pid == self.engine:
                self.status = status

    def watch(self, host: int) -> None:
        """Until the engine ends, the host asks (SIGTERM) or the host is gone."""
        while True:
            self.reap()
            if self.status is not None or os.getppid() != host:
                return
            info = signal.sigtimedwait(_WAKE, 0.5)
            if info is not None and info.si_signo == signal.SIGTERM:
                return

    def kill_all(self) -> None:
        """Kill every descendant and reap them; orphans come here, so looping until none
        is left catches those a dying parent leaves."""
        deadline = time.monotonic() + KILL_FOR
        while self.reap() or descendants():
            found = descendants()
            ours = {os.getpid(), *found}
            for pid in found:  # parents first: their orphans come here, still ours
                kill(pid, ours)
            if time.monotonic() > deadline:
                return
            signal.sigtimedwait({signal.SIGCHLD}, 0.01)

    def end(self) -> None:
        """End as the engine did: its exit status, or the signal that killed it."""
        code = 0 if self.status is None else os.waitstatus_to_exitcode(self.status)
        if code < 0:
            with contextlib.suppress(ValueError, OSError):
                import resource

                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core of ours
            with contextlib.suppress(ValueError, OSError):  # SIGKILL has no handler
                signal.signal(-code, signal.SIG_DFL)
            with contextlib.suppress(ValueError, OSError):
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {-code})
                os.kill(os.getpid(), -code)
            code = 128 - code
        os._exit(code)


def main(argv: list[str]) -> None:
    report, command = int(argv[1]), argv[2:]
    host = os.getppid()
    become_subreaper()
    try:  # subprocess, as the host would: no shell, only stdin, stdout and stderr inherited,
        # the signals the interpreter ignores back to default (os.posix_spawnp, faster
        # by 12 ms, leaves glibc's internal signals 32 and 33 ignored in the program)
        child = subprocess.Popen(command)  # kept: reaped here, by waitpid, not by it
    except OSError as err:
        os.write(report, b"error %d\n" % (err.errno or 0))
        os._exit(127)
    signal.pthread_sigmask(signal.SIG_BLOCK, _WAKE)  # after: the engine must not inherit it
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the pipes are the engine's: its exit (or its last child's) ends them
        os.dup2(null, fd)
    os.close(null)
    os.write(report, b"pid %d\n" % child.pid)
    os.close(report)
    shepherd = Shepherd(child.pid)
    shepherd.watch(host)
    shepherd.kill_all()
    shepherd.end()


if __name__ == "__main__":
    main(sys.argv)
