"""``chickenfoot serve``: tables in the browser for people and bots (docs: Serve).

The server itself is :mod:`chickenfoot.server` (the ``server`` extra: Starlette and
uvicorn); this module only reads the options and runs it with uvicorn. Without the extra
the command says what to install, in one line.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_options(p)
>>> p.parse_args(["--port", "9000"]).port
9000
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import TextIO

from chickenfoot.cli._common import EXIT_OK, UsageError

__all__ = ["add_options", "cmd_serve"]

DESCRIPTION = (
    "Serve Chicken Foot tables in the browser: the home page makes a table (rules from a "
    "preset and options; each seat a person with an invite link, a built-in bot, or an "
    "engine given with --engine) or starts a game against bots in one click. Hands stay "
    "secret: each seat sees only its own; every move is saved before it is shown, and the "
    "tables resume after a restart. Needs the server extra: pip install 'chickenfoot[server]'."
)
EXAMPLES = (
    "chickenfoot serve                          # http://127.0.0.1:8000",
    "chickenfoot serve --host 0.0.0.0 --port 8080 --db family.db",
    "chickenfoot serve --engine 'node examples/engine.js'",
)


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``serve``."""
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)"
    )
    p.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    p.add_argument(
        "--db", default="chickenfoot.db", metavar="FILE",
        help="the SQLite file of the tables (default: chickenfoot.db; created if missing)",
    )  # fmt: skip
    p.add_argument(
        "--engine", action="append", default=[], metavar="COMMAND",
        help="a program speaking the engine protocol that tables may seat as engine:COMMAND "
        "(repeatable; no other program is ever run)",
    )  # fmt: skip
    p.add_argument(
        "--origin", action="append", default=[], metavar="URL",
        help="another origin whose pages may connect (behind a reverse proxy that rewrites "
        "the Host header), e.g. https://cf.example.org (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS",
        help="how long each bot move takes at least, forced or not, counted from the start "
        "of its turn, so people can follow (default: 0.6)",
    )  # fmt: skip
    p.add_argument(
        "--round-pause", type=float, default=20.0, metavar="SECONDS",
        help="how long the next round waits after one ends, the hands shown, unless the "
        "people say next sooner (default: 20; 0: deal at once)",
    )  # fmt: skip


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the server until interrupted."""
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(
            f"serve needs the server extra ({' and '.join(missing)} missing): "
            "pip install 'chickenfoot[server]'"
        )
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is invalid: must be from 0 to 65535")
    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay {args.bot_delay} is invalid: must be from 0 to 60")
    if not 0 <= args.round_pause <= 600:
        raise UsageError(f"--round-pause {args.round_pause} is invalid: must be from 0 to 600")
    import uvicorn

    from chickenfoot.server import MAX_MESSAGE, create_app

    try:
        app = create_app(
            args.db,
            engines=args.engine,
            origins=args.origin,
            bot_delay=args.bot_delay,
            round_pause=args.round_pause,
        )
    except Exception as err:  # sqlite3.Error, a file that is not a database
        raise UsageError(f"cannot open the database {args.db!r}: {err}") from None
    print(
        f"chickenfoot: serving on http://{args.host}:{args.port}/ (tables in {args.db})", file=out
    )
    out.flush()
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_MESSAGE, log_level="warning")
    return EXIT_OK
