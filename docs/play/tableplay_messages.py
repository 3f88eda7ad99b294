"""Where the Play page's messages come from: the server's own message-making.

``Table`` (``state_message``, ``moved_message``, ``go_message``, ``check_move``), the
announcements (``Connection``, ``send_table``, ``announce_move``, ``announce_table``,
``encode``), the rounds of a table's moves (``table_rounds``, for the review), ``SeatRow``, ``RefusedError`` and ``PROTOCOL`` are those of ``chickenfoot
serve``, so the worker sends exactly what the server sends. TEMPORARY: until the server's message-making is importable
without Starlette and sqlite3, the server package is entered without running its
``__init__`` (which imports Starlette) and ``sqlite3``, absent from Pyodide, is stood in for
(only ``Store`` uses it; the worker has no store).
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import chickenfoot


def _enter_server_package() -> None:
    try:
        importlib.import_module("chickenfoot.server")
    except ImportError:  # no Starlette (Pyodide): the package without its __init__
        package = types.ModuleType("chickenfoot.server")
        package.__path__ = [str(Path(chickenfoot.__file__).parent / "server")]
        sys.modules["chickenfoot.server"] = package
    try:
        import sqlite3  # noqa: F401
    except ImportError:
        sys.modules["sqlite3"] = types.ModuleType("sqlite3")


_enter_server_package()
_table = importlib.import_module("chickenfoot.server._table")
_store = importlib.import_module("chickenfoot.server._store")
_announce = importlib.import_module("chickenfoot.server._announce")
_records = importlib.import_module("chickenfoot.server._records")

from chickenfoot._protocol import PROTOCOL  # noqa: E402

Table = _table.Table
RefusedError = _table.RefusedError
SeatRow = _store.SeatRow
Connection = _announce.Connection
announce_move = _announce.announce_move
announce_table = _announce.announce_table
send_table = _announce.send_table
encode = _announce.encode
page_copy = _records.page_copy
table_rounds = _records.table_rounds

__all__ = [
    "PROTOCOL",
    "Connection",
    "RefusedError",
    "SeatRow",
    "Table",
    "announce_move",
    "announce_table",
    "encode",
    "page_copy",
    "send_table",
    "table_rounds",
]
