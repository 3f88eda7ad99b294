"""Run one ``chickenfoot serve`` application for the load benchmark (``bench/serve_load.py``).

Not the command line: this calls ``chickenfoot.server.create_app`` with the limits a load
needs (thousands of connections from one loopback address, tables made by the hundred,
spectators by the thousand) and runs it with uvicorn on 127.0.0.1, as ``chickenfoot
serve`` would (its ``uvicorn_config``). It uses only what every version since the
benchmark's baseline has, so the same launcher runs today's server and the baseline's
(``PYTHONPATH=<baseline>/src``); a limit the server does not know is left out.

    python bench/load_launch.py --db FILE_OR_DSN --port 8001 [--bot-delay 0]

Prints ``ready`` on stdout once it listens; exits 3 with a line on stderr when the server
cannot open ``--db`` (a ``postgresql://`` DSN on a server without PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import dataclasses
import resource
import signal
import sys
from typing import Any

LIMITS: dict[str, Any] = {
    "connections": 100_000,
    "connections_per_address": 100_000,
    "requests_per_address": 100_000,
    "reads_per_minute": 1e9,
    "reads_burst": 1_000_000,
    "spectators": 100_000,
    "seat_connections": 4,
    "idle_seconds": 3600.0,
    "tables_per_minute": 1e9,
    "tables_burst": 1_000_000,
    "keep_days": 0.0,
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--bot-delay", type=float, default=0.0)
    args = p.parse_args()
    with contextlib.suppress(OSError, AttributeError):  # killed when the benchmark dies
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    import uvicorn

    from chickenfoot.server import Limits, create_app

    known = {f.name for f in dataclasses.fields(Limits)}
    limits = Limits(**{k: v for k, v in LIMITS.items() if k in known})
    try:
        app = create_app(args.db, limits=limits, bot_delay=args.bot_delay)
    except Exception as err:  # a DSN this server cannot open, a database it cannot read
        print(f"the server cannot open --db: {type(err).__name__}: {err}"[:300], file=sys.stderr)
        sys.exit(3)
    try:
        from chickenfoot.server import uvicorn_config

        config = uvicorn_config(app, host="127.0.0.1", port=args.port, limits=limits)
    except ImportError:  # a server without it: uvicorn's own defaults
        config = uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning")
    config.backlog = 4096
    server = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                await task
                return
            await asyncio.sleep(0.02)
        print("ready", flush=True)
        await task

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


if __name__ == "__main__":
    main()
