"""The load benchmark of ``chickenfoot serve`` on the loopback (``nox -s serve_load``).

A benchmark that reports figures (nothing here asserts a speed). Real server processes
(``load_launch.py``: ``create_app`` with limits raised for a load, under uvicorn on
127.0.0.1) and scripted WebSocket clients, all in this one asyncio process beside them:

- ``pair``: two-person tables, a scripted client per seat answering each ``go`` with a
  random legal move (after ``--think`` seconds, 0 by default: the server's ceiling), as
  pages do (``--no-picture``: as programs, ``"picture": false`` in their hello);
- ``bots``: tables of two ``random`` bots (``bot_delay`` 0) with one spectator each,
  counting the moves announced;
- ``idle``: ``--idle`` spectators (2,000) of ``--idle-tables`` tables nobody plays, held
  open: the server's memory;
- ``two``: ``pair`` on two server processes on one PostgreSQL database, seat 0's client
  on one and seat 1's on the other (skipped, with the reason, by a server whose
  ``serve --help`` does not take ``--db postgresql://``);
- ``--kill-loop N``: a scripted game whose server is SIGKILLed and restarted N times
  (``load_kill.py``); SQLite, and PostgreSQL when the server takes it.

Each run reports moves/s, the latency of a move (sent -> the message announcing it back
at its client) p50/p99, the servers' CPU ms per move (``/proc/PID/stat`` over the
measured window, every server process) and resident memory, and checks the database
after the servers stop: every announced move stored once, in order (``load_check.py``).
The same scenarios run on the baseline (``--baseline REF``, default 1667614: a detached
git worktree of it in a temporary folder; or a ``src`` folder, read as it is), its ``src``
on ``PYTHONPATH``, same virtual environment, before and after side by side: a markdown
table on stdout, all figures in ``--json FILE``. Between runs it waits while ``/work/wt/QUIET`` (``$CF_QUIET_FILE``)
exists.

The default (``nox -s serve_load``) is bounded at a few minutes: 1, 50 and 200 tables,
10 seconds each, 10 kills. The full matrix (about 25 minutes; PostgreSQL from Debian's
``initdb`` in a throwaway cluster, or ``--db postgresql://USER@HOST/DB``)::

    nox -s serve_load -- --tables 1,50,200,500 --seconds 30 --kill-loop 30 --db postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from load_clients import HELLO
from load_kill import kill_loop
from load_report import markdown
from load_runs import run
from load_servers import (
    Cluster,
    baseline_source,
    fresh_database,
    package_of,
    supports_postgres,
)

SCENARIOS = ("pair", "bots", "idle", "two")
QUIET = Path(os.environ.get("CF_QUIET_FILE", "/work/wt/QUIET"))


def wait_quiet() -> None:
    """Wait while another measurement asks for a quiet machine."""
    while QUIET.exists():
        time.sleep(5)


class Databases:
    """A fresh database per run: a SQLite file, or a PostgreSQL database (of ``--db``'s
    server, or of a throwaway cluster started when first needed)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.folder = Path(tempfile.mkdtemp(prefix="cf-load-"))
        self.made = 0
        self.cluster: Cluster | None = None
        self.why_not: str | None = None

    def sqlite(self) -> str:
        self.made += 1
        return str(self.folder / f"run{self.made}.db")

    def postgres(self) -> str | None:
        """A fresh PostgreSQL database's URL, or ``None`` (``why_not`` says why)."""
        self.made += 1
        if self.db.startswith(("postgresql://", "postgres://")):
            return fresh_database(self.db, str(self.made))
        if self.why_not is not None:
            return None
        if self.cluster is None:
            try:
                cluster = Cluster()
                cluster.start()
            except Exception as err:
                self.why_not = f"no PostgreSQL: {err}"[:160]
                return None
            self.cluster = cluster
        return self.cluster.database()

    def cpu(self, db: str) -> Callable[[], float] | None:
        """The CPU time of the throwaway cluster serving ``db``, if it does."""
        if self.cluster is not None and f"host={self.cluster.folder}&" in db:
            return self.cluster.cpu
        return None

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()


@contextlib.contextmanager
def versions(args: argparse.Namespace) -> Iterator[list[tuple[str, Path | None]]]:
    """The servers measured: ``before`` (the baseline's tree) and ``after`` (``--src``,
    or the installed chickenfoot)."""
    after = ("after", None if args.src is None else Path(args.src).resolve())
    if args.baseline == "none":
        yield [after]
        return
    if Path(args.baseline).is_dir():  # a src folder (another checkout's), used as it is
        yield [("before", Path(args.baseline).resolve()), after]
        return
    try:
        source = baseline_source(args.baseline)
        src = source.__enter__()
    except subprocess.CalledProcessError as err:  # not a git checkout, an unknown ref
        print(f"  no baseline: git worktree add {args.baseline} failed ({err.returncode})")
        yield [after]
        return
    try:
        yield [("before", src), after]
    finally:
        source.__exit__(None, None, None)


async def matrix(args: argparse.Namespace, report: dict[str, Any]) -> None:
    databases = Databases(args.db)
    want_pg = args.db != "sqlite"
    try:
        with versions(args) as measured:
            pg = {name: supports_postgres(src) for name, src in measured}
            for name, src in measured:
                report["servers"][name] = {"package": package_of(src), "postgresql": pg[name][0]}
                print(f"  {name}: {package_of(src)}" + (" (takes PostgreSQL)" * pg[name][0]))
            for scenario in args.scenarios:
                sizes = [args.idle] if scenario == "idle" else args.tables
                for size in sizes:
                    for name, src in measured:
                        wait_quiet()
                        takes_pg, why = pg[name]
                        db: str | None
                        if scenario == "two" or (want_pg and takes_pg):
                            db = databases.postgres() if takes_pg else None
                            why = why if not takes_pg else databases.why_not or ""
                        else:
                            db = databases.sqlite()
                        if db is None:
                            procs = 2 if scenario == "two" else 1
                            result = {"scenario": scenario, "tables": size, "procs": procs,
                                      "skipped": why}  # fmt: skip
                        else:
                            result = await run(
                                scenario, size, db=db, src=src, seconds=args.seconds,
                                warmup=args.warmup, think=args.think,
                                idle_tables=args.idle_tables, db_cpu=databases.cpu(db),
                            )  # fmt: skip
                            result["db"] = "postgresql" if db.startswith("postgres") else "sqlite"
                        result["version"] = name
                        report["runs"].append(result)
                        print(_line(result), flush=True)
            if args.kill_loop:
                for name, src in measured:
                    stores = ["sqlite"] + (["postgresql"] if pg[name][0] else [])
                    for store in stores:
                        wait_quiet()
                        db = databases.sqlite() if store == "sqlite" else databases.postgres()
                        if db is None:
                            result = {"skipped": databases.why_not}
                        else:
                            result = await kill_loop(args.kill_loop, db=db, src=src)
                        result.update(version=name, db=store)
                        report["kill_loops"].append(result)
                        print(_line(result), flush=True)
                    if not pg[name][0]:
                        report["kill_loops"].append(
                            {"version": name, "db": "postgresql", "skipped": pg[name][1]}
                        )
    finally:
        databases.close()


def _line(result: dict[str, Any]) -> str:
    shown = {k: v for k, v in result.items() if k not in ("check",)}
    if "check" in result:
        c = result["check"]
        shown["check"] = f"lost {c['lost']} doubled {c['doubled']} disorder {c['out_of_order']}"
        shown["check"] += (
            f" ({c['acknowledged']} acknowledged, {c['announced']} announced, {c['stored']} stored)"
        )
        if c["problems"]:
            shown["problems"] = c["problems"]
    return "  " + json.dumps(shown)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", default="1,50,200", help="table counts, comma-separated")
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds played before measuring")
    p.add_argument("--scenarios", default=",".join(SCENARIOS), help="of " + ",".join(SCENARIOS))
    p.add_argument("--think", type=float, default=0.0, help="a person's think time, seconds")
    p.add_argument(
        "--no-picture",
        action="store_true",
        help='clients say "picture": false in their hello (programs, not pages)',
    )
    p.add_argument("--idle", type=int, default=2000, help="idle connections (scenario idle)")
    p.add_argument("--idle-tables", type=int, default=100, help="the tables they watch")
    p.add_argument(
        "--baseline", default="1667614", help="a git ref, a src folder to run as it is, or none"
    )
    p.add_argument(
        "--src", default=None, help="the measured server's src folder (default: installed)"
    )
    p.add_argument("--db", default="sqlite", help="sqlite, postgres (a throwaway cluster) or a DSN")
    p.add_argument("--kill-loop", type=int, default=10, metavar="N", help="SIGKILLs (0: none)")
    p.add_argument("--json", default=None, metavar="FILE", help="write every figure here")
    args = p.parse_args()
    args.tables = [int(t) for t in args.tables.split(",") if t.strip()]
    args.scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = set(args.scenarios) - set(SCENARIOS)
    if unknown or not args.tables or min(args.tables) < 1:
        p.error(f"--scenarios are of {', '.join(SCENARIOS)}; --tables are counts >= 1")
    if args.no_picture:
        HELLO["picture"] = False
    report: dict[str, Any] = {
        "options": vars(args).copy(),
        "runs": [],
        "kill_loops": [],
        "servers": {},
    }
    report["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    # a SIGTERM (``timeout``) unwinds like ^C: servers stopped, the baseline's worktree and
    # the throwaway cluster removed
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"serve load: {', '.join(args.scenarios)}; tables {args.tables}; {args.seconds:g} s each")
    try:
        asyncio.run(matrix(args, report))
    except KeyboardInterrupt:
        print("interrupted: the figures so far follow", file=sys.stderr)
        args.json = args.json and args.json + ".partial"
    print()
    print(markdown(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
