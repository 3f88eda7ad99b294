"""The servers of the load benchmark: starting them, measuring them, the baseline's source
and a throwaway PostgreSQL cluster (``bench/serve_load.py`` and ``bench/load_kill.py``).

- :class:`Server`: one server process (``load_launch.py``) on a port, with its CPU time and
  resident memory read from ``/proc``;
- :func:`baseline_source`: a detached git worktree of a commit (the baseline), removed on
  exit; its server runs from that tree's ``src`` in the same virtual environment;
- :func:`supports_postgres`: whether a server's ``chickenfoot serve`` takes
  ``--db postgresql://...``;
- :class:`Cluster`: a PostgreSQL cluster made with Debian's ``initdb`` in a temporary
  folder (owned by the ``postgres`` user when run as root), listening on a Unix socket
  only; one fresh database per run.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LAUNCHER = HERE / "load_launch.py"
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system, every thread) of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def memory_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak (``VmRSS``, ``VmHWM``), in MB."""
    now = peak = float("nan")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
        elif line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return now, peak


class Server:
    """One server process serving ``db`` on a free port, from ``src`` (a tree's ``src``
    folder put first on ``PYTHONPATH``; ``None``: the installed chickenfoot)."""

    def __init__(self, db: str, *, src: Path | None = None, port: int | None = None) -> None:
        self.db = db
        self.src = src
        self.port = free_port() if port is None else port
        self.process: subprocess.Popen[str] | None = None
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed in stop)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 30.0) -> None:
        """Start it and wait until it listens; raises ``RuntimeError`` with its last
        words if it exits first."""
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        if self.src is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(self.src), env.get("PYTHONPATH", "")])
        command = [sys.executable, str(LAUNCHER), "--db", self.db, "--port", str(self.port)]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if line.strip() != "ready":
            self.process.kill()
            self.process.wait()
            raise RuntimeError(self.last_words() or "the server did not start")

    def last_words(self, lines: int = 3) -> str:
        self.log.seek(0)
        return " | ".join(self.log.read().strip().splitlines()[-lines:])

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    def memory(self) -> tuple[float, float]:
        return memory_mb(self.pid)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last commit."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful shutdown), SIGKILL after 15 seconds."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


@contextlib.contextmanager
def baseline_source(ref: str) -> Iterator[Path]:
    """The ``src`` folder of a detached worktree of ``ref`` in a temporary folder; the
    worktree is removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="cf-baseline-")) / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(folder), ref],
        check=True,
    )
    try:
        yield folder / "src"
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False
        )
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def _python(src: Path | None, *arguments: str) -> str:
    """What ``python ARGUMENTS`` prints with ``src`` first on the path."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    command = [sys.executable, *arguments]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False).stdout


def package_of(src: Path | None) -> str:
    """Where the server of ``src`` imports chickenfoot from (``RuntimeError`` when an
    installed copy shadows ``src``)."""
    where = _python(src, "-c", "import chickenfoot; print(chickenfoot.__file__)").strip()
    if src is not None and not where.startswith(str(src)):
        raise RuntimeError(f"chickenfoot is imported from {where}, not from {src}")
    return where


def supports_postgres(src: Path | None) -> tuple[bool, str]:
    """Whether the server of ``src`` takes ``--db postgresql://...`` (its ``chickenfoot
    serve --help`` says so), and if not, why."""
    if "postgresql://" in _python(src, "-m", "chickenfoot", "serve", "--help"):
        return True, ""
    return False, "this server does not take --db postgresql:// (its serve --help does not say so)"


def _initdb() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return found[-1] if found else shutil.which("initdb")


def with_database(dsn: str, name: str) -> str:
    """``dsn`` (a ``postgresql://`` URL) naming the database ``name`` instead."""
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path="/" + name))


class Cluster:
    """A throwaway PostgreSQL cluster (``initdb``, ``pg_ctl``), on a Unix socket in its own
    folder, trusted for its owner; :meth:`database` makes a fresh database and returns its
    ``postgresql://`` URL. As root, the cluster is the ``postgres`` user's."""

    def __init__(self) -> None:
        initdb = _initdb()
        if initdb is None:
            raise RuntimeError("no initdb (Debian's postgresql package) on this machine")
        self.bin = Path(initdb).parent
        self.folder = Path(tempfile.mkdtemp(prefix="cf-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.made = 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run(
            [*prefix, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def start(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        options = (
            f"-k {self.folder} -p {self.port} -c listen_addresses='' -c max_connections=200 "
            "-c fsync=on -c synchronous_commit=on"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l",
            str(self.folder / "log"), "start",
        )  # fmt: skip

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.folder}&port={self.port}"

    def database(self) -> str:
        """A fresh database's URL."""
        import psycopg

        self.made += 1
        name = f"load{self.made}"
        with psycopg.connect(self.dsn, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return with_database(self.dsn, name)

    def cpu(self) -> float:
        """The CPU time so far of the cluster's processes (the postmaster and its children:
        a backend per connection, the WAL writer...); those that ended are not counted."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(stat.parent.name) == postmaster or int(fields[1]) == postmaster:
                    total += (int(fields[11]) + int(fields[12])) / TICK
        return total

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def fresh_database(dsn: str, tag: str) -> str:
    """A fresh database next to the one of ``dsn`` (a given server), or ``dsn`` itself
    when this role may not make databases (the run's tables are told apart by id)."""
    import psycopg

    name = f"cf_load_{tag}_{os.getpid()}"
    try:
        with psycopg.connect(dsn, autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {name}")
            db.execute(f"CREATE DATABASE {name}")
    except psycopg.Error as err:
        print(f"  (cannot make a database, using the DSN's own: {str(err).strip()[:100]})")
        return dsn
    return with_database(dsn, name)
