"""What the table page's client does with the server's messages, in Python, for tests.

``after_move`` is ``afterMove`` of ``server/static/table.js``: the table after a ``moved``
message, from the table before it (``None`` when they do not follow each other).
:class:`Follower` keeps a connection's table as the page's client does, from the messages
sent, so tests can read "the table this connection shows" whatever the messages were.
"""

from __future__ import annotations

import json
from typing import Any

LOG = 12


def after_move(t: dict[str, Any] | None, d: dict[str, Any]) -> dict[str, Any] | None:
    if t is None or t["over"] or d["n"] != t["n"] + 1:
        return None
    svg = t["svg"]
    if "picture" in d:
        change = d["picture"]
        if not change or not t["svg"] or change["base"] != t["version"]:
            return None
        lines = t["svg"].split("\n")
        svg = "\n".join(
            p if isinstance(p, str) else "\n".join(lines[p[0] : p[0] + p[1]])
            for p in change["parts"]
        )
    view = t["view"]
    if "hand" in d:
        view = {**t["view"], "hand": d["hand"], "drawn": d["drawn"]}
    return {
        **t,
        "n": d["n"],
        "version": d["version"],
        "turn": d["turn"],
        "boneyard": d["boneyard"],
        "last_round": d["last_round"],
        "log": (t["log"] + [d["event"]])[-LOG:],
        "last": d["event"],
        "svg": svg,
        "view": view,
        "seats": [{**s, "tiles": d["tiles"][i]} for i, s in enumerate(t["seats"])],
    }


class Follower:
    """A connection's table, kept from the messages it is sent (text or dicts)."""

    def __init__(self) -> None:
        self.table: dict[str, Any] | None = None
        self.tables: list[dict[str, Any]] = []
        """Every table shown, in order (one per ``table`` or ``moved`` message)."""
        self.events: list[dict[str, Any]] = []
        """Every log event the connection was told of (a ``moved`` message's event, the
        log of a ``table`` message not seen before), in order."""

    def take(self, message: str | dict[str, Any]) -> dict[str, Any] | None:
        """Follow one message; returns the table shown after it if it is one."""
        m = json.loads(message) if isinstance(message, str) else message
        if m["type"] == "table":
            self.table = m
        elif m["type"] == "moved":
            follows = after_move(self.table, m)
            assert follows is not None, f"a moved message out of step: {m['n']}"
            self.table = follows
            self.events.append(m["event"])
        else:
            return None
        self.tables.append(self.table)
        return self.table
