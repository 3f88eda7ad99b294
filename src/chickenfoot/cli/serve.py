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
import os
import unicodedata
from pathlib import Path
from typing import TextIO

from chickenfoot.cli._common import EXIT_OK, UsageError
from chickenfoot.errors import ChickenFootError, brief

__all__ = ["KEY_VARIABLE", "add_options", "cmd_serve"]

KEY_VARIABLE = "CHICKENFOOT_TABLE_KEY"
"""The environment variable that holds the table key (instead of ``--table-key``)."""

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
    "chickenfoot serve --engine 'js=node examples/engine.js'",
    "CHICKENFOOT_TABLE_KEY=our-family-key chickenfoot serve --host 0.0.0.0",
    "chickenfoot serve --prune --db family.db     # delete old tables, then exit",
    "chickenfoot serve --db postgresql://cf@db.example.org/cf   # PostgreSQL, any number of servers",
)


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``serve``."""
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)"
    )
    p.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    p.add_argument(
        "--db", default="chickenfoot.db", metavar="FILE_OR_URL",
        help="where the tables are stored: a SQLite file (default: chickenfoot.db; created "
        "if missing), or a PostgreSQL database, postgresql://USER@HOST/DB (the postgres "
        "extra; several server processes may share one)",
    )  # fmt: skip
    p.add_argument(
        "--engine", action="append", default=[], metavar="[NAME=]COMMAND",
        help="a program speaking the engine protocol that tables may seat as engine:NAME "
        "(NAME: the program's file name unless given; pages see names, never commands; "
        "repeatable; no other program is ever run)",
    )  # fmt: skip
    p.add_argument(
        "--origin", action="append", default=[], metavar="URL",
        help="another origin whose pages may connect (behind a reverse proxy that rewrites "
        "the Host header), e.g. https://cf.example.org (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS",
        help="how long each bot move takes, forced or not, counted from the start of its "
        "turn (a search thinks within it; an engine takes its time_ms when longer), so people "
        "can follow and the timing tells nothing of a hand (default: 0.6; 0: at once)",
    )  # fmt: skip
    p.add_argument(
        "--round-pause", type=float, default=20.0, metavar="SECONDS",
        help="how long the next round waits after one ends, the hands shown, unless the "
        "people say next sooner (default: 20; 0: deal at once)",
    )  # fmt: skip
    p.add_argument(
        "--table-key", metavar="KEY", default=None,
        help="making a table needs KEY, 8 to 200 characters of any script (the home page "
        f"asks for it); or set {KEY_VARIABLE}, which other users cannot see in the process "
        "list",
    )  # fmt: skip
    p.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME",
        help="another host name the server answers to (the Host header; on a loopback "
        "--host only loopback names are answered otherwise; on another --host, any name "
        "is answered unless --allow-host names some) (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--max-connections", type=int, default=500, metavar="N",
        help="WebSocket connections open at once (default: 500; spectators may hold half)",
    )  # fmt: skip
    p.add_argument(
        "--max-connections-per-address", type=int, default=100, metavar="N",
        help="WebSocket connections open at once from one client address (default: 100)",
    )  # fmt: skip
    p.add_argument(
        "--max-requests-per-address", type=int, default=50, metavar="N",
        help="plain HTTP connections open at once from one client address; beyond, 503 "
        "(default: 50; behind a reverse proxy, its connections count as one address)",
    )  # fmt: skip
    p.add_argument(
        "--tables-per-minute", type=float, default=6.0, metavar="N",
        help="tables one client address may make per minute, above 0 and at most 10,000 "
        "(10 at once, or 10 seconds' worth; default: 6)",
    )  # fmt: skip
    p.add_argument(
        "--keep-days", type=float, default=30.0, metavar="DAYS",
        help="delete tables with no move for DAYS (finished or not; 0: never; default: 30)",
    )  # fmt: skip
    p.add_argument(
        "--policy", action="append", default=[], metavar="[NAME=]FILE",
        help="a trained policy file (docs: Gymnasium) that tables may seat as policy:NAME "
        "(NAME: the file's name without .npz by default; a page names it, never a file); "
        "a table of rules it was not trained for is refused (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--invite-url", action="append", default=[], metavar="URL",
        help="where people reach this server, for the invite links the home page makes "
        "(default: found from --host: on 0.0.0.0 this computer's network addresses; on "
        "127.0.0.1, none: the page says its links work on this computer only) (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--prune", action="store_true",
        help="delete the tables older than --keep-days from --db, say how many, and exit",
    )  # fmt: skip


def _hosts(bind: str, extra: list[str]) -> tuple[str, ...] | None:
    """The Host names the server answers to (``None``: any).

    >>> _hosts("127.0.0.1", []), _hosts("0.0.0.0", []), _hosts("0.0.0.0", ["cf.example.org"])
    (('localhost', '127.0.0.1', '::1'), None, ('cf.example.org',))
    """
    from chickenfoot.server import LOOPBACK_HOSTS, loopback_bind

    if loopback_bind(bind):
        return (*LOOPBACK_HOSTS, *extra)
    return tuple(extra) if extra else None


def policy_files(given: list[str]) -> dict[str, str]:
    """``--policy [NAME=]FILE`` options as ``{NAME: FILE}`` (NAME: the file's stem).

    >>> policy_files(["runs/ppo.npz", "strong=runs/ppo-long.npz"])
    {'ppo': 'runs/ppo.npz', 'strong': 'runs/ppo-long.npz'}
    """
    out: dict[str, str] = {}
    for text in given:
        name, sep, path = text.partition("=")
        if not sep or "/" in name or not name:
            name, path = Path(text).stem, text
        if name in out:
            raise UsageError(f"--policy {brief(text)}: the name {brief(name)} is given twice")
        out[name] = path
    return out


def invite_urls(bind: str, port: int, given: list[str]) -> tuple[str, ...]:
    """Where people on the network reach a server listening on ``bind``: the ``given``
    URLs (``--invite-url``, checked), or, on a wildcard bind, this computer's own
    addresses (from its name, no packet sent), or the bind address itself; none on a
    loopback bind (that server is this computer's only).

    >>> invite_urls("127.0.0.1", 8000, []), invite_urls("192.0.2.7", 8000, [])
    ((), ('http://192.0.2.7:8000',))
    >>> invite_urls("0.0.0.0", 80, ["https://cf.example.org/"])
    ('https://cf.example.org',)
    """
    import ipaddress
    import socket
    from urllib.parse import urlsplit

    from chickenfoot.server import loopback_bind

    out: list[str] = []
    for url in given:
        try:
            parts = urlsplit(url) if len(url) <= 200 and url.isprintable() else None
        except ValueError:  # an unclosed [ of an IPv6 address
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            raise UsageError(f"--invite-url {brief(url)} is invalid: must be http(s)://HOST[:PORT]")
        out.append(f"{parts.scheme}://{parts.netloc}")
    if out or loopback_bind(bind):
        return tuple(out)
    if bind not in ("0.0.0.0", "::", ""):
        host = f"[{bind}]" if ":" in bind else bind
        return (f"http://{host}:{port}",)
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        return ()
    for family, *_, address in found:
        ip = ipaddress.ip_address(address[0])
        if ip.is_loopback or ip.is_link_local or (family == socket.AF_INET6 and bind != "::"):
            continue
        url = f"http://[{ip}]:{port}" if ip.version == 6 else f"http://{ip}:{port}"
        if url not in out:
            out.append(url)
    return tuple(out)


def _check_key(key: str) -> None:
    """Refuse a table key no ``X-Table-Key`` header can carry, saying why (never the key).

    >>> _check_key("ключ-нашей-семьи")
    >>> _check_key("our family key ")
    Traceback (most recent call last):
    ...
    chickenfoot.cli._common.UsageError: the table key is invalid: it starts or ends with a space, which a header drops
    """
    if not 8 <= len(key) <= 200:
        raise UsageError("the table key is invalid: 8 to 200 characters")
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:  # bytes of another encoding, from the command line or environment
        raise UsageError(
            "the table key is invalid: it is not UTF-8 text (set a UTF-8 locale, or choose "
            "another key)"
        ) from None
    if any(unicodedata.category(c) == "Cc" for c in key):
        raise UsageError(
            "the table key is invalid: it holds a control character (a tab, a newline)"
        )
    if key != key.strip():
        raise UsageError(
            "the table key is invalid: it starts or ends with a space, which a header drops"
        )


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
    if not 2 <= args.max_connections <= 100_000:
        raise UsageError(f"--max-connections {args.max_connections} is invalid: 2 to 100,000")
    if not 1 <= args.max_connections_per_address <= 100_000:
        raise UsageError(
            f"--max-connections-per-address {args.max_connections_per_address} is invalid: "
            "1 to 100,000"
        )
    if not 1 <= args.max_requests_per_address <= 100_000:
        raise UsageError(
            f"--max-requests-per-address {args.max_requests_per_address} is invalid: 1 to 100,000"
        )
    if not 0 < args.tables_per_minute <= 10_000:
        raise UsageError(
            f"--tables-per-minute {args.tables_per_minute} is invalid: above 0 and at most 10,000"
        )
    if not 0 <= args.keep_days <= 100_000:
        raise UsageError(f"--keep-days {args.keep_days} is invalid: 0 (never) or more")
    key = args.table_key if args.table_key is not None else os.environ.get(KEY_VARIABLE)
    if key is not None:
        _check_key(key)
    postgres = args.db.lower().startswith(("postgresql://", "postgres://"))
    if postgres and importlib.util.find_spec("psycopg") is None:
        raise UsageError(
            "a PostgreSQL --db needs the postgres extra (psycopg missing): "
            "pip install 'chickenfoot[server,postgres]'"
        )
    import uvicorn

    from chickenfoot.server import Limits, StoreError, create_app, redact, uvicorn_config

    limits = Limits(
        connections=args.max_connections,
        connections_per_address=args.max_connections_per_address,
        requests_per_address=args.max_requests_per_address,
        tables_per_minute=args.tables_per_minute,
        tables_burst=max(10, int(args.tables_per_minute / 6)),  # or 10 seconds' worth
        keep_days=args.keep_days,
        table_key=key or None,
        hosts=_hosts(args.host, args.allow_host),
    )
    urls = invite_urls(args.host, args.port, args.invite_url)
    policies = policy_files(args.policy)
    try:
        app = create_app(
            args.db,
            engines=args.engine,
            origins=args.origin,
            bot_delay=args.bot_delay,
            round_pause=args.round_pause,
            limits=limits,
            invite_urls=urls,
            policies=policies,
        )
    except StoreError as err:  # not reached, not a database; says which, without a password
        raise UsageError(str(err)) from None
    except ChickenFootError as err:  # a --policy file that cannot be read, or its name
        raise UsageError(str(err)) from None
    except Exception as err:
        raise UsageError(f"cannot open the database {redact(args.db)!r}: {err}") from None
    where = redact(args.db)
    if args.prune:
        pruned = app.state.lifecycle.pruned
        app.state.hub.store.close()
        print(f"chickenfoot: pruned {pruned:,} tables from {where}", file=out)
        return EXIT_OK
    print(f"chickenfoot: serving on http://{args.host}:{args.port}/ (tables in {where})", file=out)
    if urls:
        print(f"chickenfoot: people on your network: {', '.join(u + '/' for u in urls)}", file=out)
    else:
        print("chickenfoot: this computer only (to invite others: --host 0.0.0.0)", file=out)
    out.flush()
    uvicorn.Server(uvicorn_config(app, host=args.host, port=args.port, limits=limits)).run()
    return EXIT_OK
