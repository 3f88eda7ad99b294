"""``chickenfoot serve``: tables in the browser for people and bots (docs: Serve).

Needs the ``server`` extra (``pip install "chickenfoot[server]"``: Starlette and
uvicorn); nothing else in the library imports this subpackage. :func:`create_app` makes
the ASGI application; ``chickenfoot serve`` runs it with uvicorn.

The server keeps each hand secret: a connection authenticates with its seat's token (the
secret of the seat's invite link, compared in constant time), sees only its seat's view
(a spectator: the public view, no hand) and acts only for its seat. Every accepted move is
committed to the database (a SQLite file, or PostgreSQL) before it is announced, and a
table is restored (on start if it is live, else when it is opened) by replaying its moves
with every check of the rules.

>>> import tempfile, os
>>> from starlette.testclient import TestClient
>>> db = os.path.join(tempfile.mkdtemp(), "tables.db")
>>> with TestClient(create_app(db)) as client:
...     made = client.post("/api/play", json={"players": 2, "bot": "greedy"}).json()
...     token = made["link"].split("#")[1]
...     with client.websocket_connect(f"/ws/{made['table']}") as ws:
...         ws.send_json({"type": "hello", "token": token})
...         hello, table = ws.receive_json(), ws.receive_json()
>>> hello["seat"], table["type"], table["you"], len(table["view"]["hand"]) > 0
(0, 'table', 0, True)
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from starlette.applications import Starlette

from chickenfoot.agents import Agent
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.server._app import BURST, KEY_HEADER, MAX_MESSAGE, RATE, make_app
from chickenfoot.server._guard import uvicorn_config
from chickenfoot.server._limits import LOOPBACK_HOSTS, Limits, loopback_bind
from chickenfoot.server._records import record_route
from chickenfoot.server._store import StoreError, redact

__all__ = [
    "BURST",
    "KEY_HEADER",
    "LOOPBACK_HOSTS",
    "MAX_MESSAGE",
    "RATE",
    "Limits",
    "StoreError",
    "create_app",
    "loopback_bind",
    "redact",
    "uvicorn_config",
]

_POLICY_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""The name a served policy is offered under (``policy:NAME``)."""

Limits.__module__ = "chickenfoot.server"
StoreError.__module__ = "chickenfoot.server"


def create_app(
    db_path: str | os.PathLike[str],
    *,
    engines: Sequence[str] = (),
    origins: Sequence[str] = (),
    bot_delay: float = 0.0,
    round_pause: float = 0.0,
    limits: Limits | None = None,
    invite_urls: Sequence[str] | None = None,
    policies: Mapping[str, str | os.PathLike[str]] | None = None,
) -> Starlette:
    """The ASGI application serving the tables stored in ``db_path``: a SQLite file
    (created if missing), or a PostgreSQL database given by a ``postgresql://`` URL (the
    ``postgres`` extra; several server processes may share one); each table is restored by
    replaying its moves when it is opened.

    - ``engines``: the commands a table's seat may run, each ``NAME=COMMAND`` or a
      command named by its program's file name; a seat names one as ``engine:NAME`` (the
      page offers the names, never the commands; no other command is ever run);
    - ``origins``: more origins (``https://cf.example.org``) whose pages may connect,
      besides the server's own (for a reverse proxy that rewrites ``Host``);
    - ``bot_delay``: seconds from the start of a bot's turn to its move, forced or not
      (it thinks meanwhile), so that people can follow and the timing of a move tells
      nothing of a hand;
    - ``round_pause``: seconds the next round waits after one ends (unless every person
      connected says ``next`` sooner), so that people can see the hands revealed; 0: none;
    - ``limits``: what one client may take (:class:`Limits`: connections, bodies, tables
      per minute, a table key, the table life cycle, the hosts answered);
    - ``invite_urls``: where people on the network reach this server
      (``http://192.168.1.20:8000``), for the invite links of a host who opened the page
      on this computer (``127.0.0.1`` works nowhere else); ``()``: it listens on this
      computer only, and the page says so; ``None`` (the default): not known;
    - ``policies``: trained policy files (``save_policy``) a seat may name as
      ``policy:NAME``, by name (a page names a policy, never a file); each is read here,
      and a table whose rules it was not trained for is refused.

    >>> app = create_app(":memory:", limits=Limits(table_key="s3cret", hosts=LOOPBACK_HOSTS))
    >>> sorted(r.path for r in app.routes)[:3]
    ['/', '/api/options', '/api/play']
    """
    app = make_app(
        os.fspath(db_path),
        engines=tuple(engines),
        origins=tuple(origins),
        bot_delay=bot_delay,
        round_pause=round_pause,
        limits=limits,
        invite_urls=None if invite_urls is None else tuple(invite_urls),
        policies=None if not policies else _loaded(policies),
    )
    # Each seat's, a spectator's and the full copy of a round (docs: Serve, "Records").
    app.router.routes.append(record_route(app.state.lookups))
    return app


def _loaded(policies: Mapping[str, str | os.PathLike[str]]) -> dict[str, Agent]:
    """Each policy file read (:class:`~chickenfoot.AgentError` for one that cannot be),
    by a name a spec can carry (``policy:NAME``)."""
    from chickenfoot.policy import PolicyAgent

    out: dict[str, Agent] = {}
    for name, path in policies.items():
        if not isinstance(name, str) or not _POLICY_NAME.fullmatch(name):
            raise ArgumentError(f"policy name {brief(name)} is invalid: letters, digits, - and _")
        out[name] = PolicyAgent.load(path)
    return out
