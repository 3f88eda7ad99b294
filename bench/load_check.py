"""The load benchmark's check of the database against what its clients saw
(``bench/serve_load.py``, ``bench/load_kill.py``), once the server has stopped.

The database is opened read-only, with SQL of its own (not the server's store, so a
store that changes does not change what is checked): a SQLite file or a ``postgresql://``
DSN, its ``moves`` table (PostgreSQL: ``chickenfoot_moves``; columns ``table_id``,
``idx``, ``seat``, ``move``). For the tables the
clients played:

- **lost**: a move a client saw announced (its own, acknowledged; or any, in a ``table``
  message's ``last``) that is not in the database at its place (missing, or another move
  there);
- **doubled**: a place (table, index) stored more than once, or a stored move of a person's
  seat that its client never sent for that place (a move stored twice lands where no one
  sent it);
- **out of order**: a table whose stored indexes are not 0, 1, 2, ... without a gap.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from typing import Any

from load_clients import Record

Row = tuple[str, int, int, str]  # table, index, seat, move


def read_moves(db: str, tables: set[str]) -> list[Row]:
    """Every stored move of ``tables``, read-only."""
    query = "SELECT table_id, idx, seat, move FROM {} ORDER BY table_id, idx"
    if db.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(db) as conn:
            conn.read_only = True
            (name,) = conn.execute(
                "SELECT coalesce(to_regclass('chickenfoot_moves')::text, 'moves')"
            ).fetchone() or ("moves",)
            rows = conn.execute(query.format(name)).fetchall()
    else:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = conn.execute(query.format("moves")).fetchall()
        finally:
            conn.close()
    return [(t, int(i), int(s), str(m)) for t, i, s, m in rows if t in tables]


def _same(shown: str, stored: str) -> bool:
    """Whether a move as a message showed it is the stored one (a draw is shown with the
    tile drawn to its own seat, as ``draw`` to the others)."""
    return shown == stored or (stored == "draw" and shown.startswith("draw"))


def check(db: str, record: Record) -> dict[str, Any]:
    """Compare the database with ``record``; returns the counts and the first problems."""
    rows = read_moves(db, record.tables)
    at: dict[tuple[str, int], list[tuple[int, str]]] = defaultdict(list)
    for table, idx, seat_, move in rows:
        at[(table, idx)].append((seat_, move))
    problems: list[str] = []
    lost = doubled = disorder = 0
    for (table, idx), found in at.items():
        if len(found) > 1:
            doubled += len(found) - 1
            problems.append(f"{table} move {idx} stored {len(found)} times")
    person_tables = {table for table, _ in record.sent}
    for (table, idx), found in at.items():
        if table not in person_tables:
            continue
        seat_, move = found[0]
        if (seat_, move) not in record.sent.get((table, idx), []):
            doubled += 1
            problems.append(f"{table} move {idx} ({seat_}: {move}) stored but never sent there")
    for key, (seat_, move) in record.acked.items():
        found = at.get(key)
        if not found or found[0][0] != seat_ or found[0][1] != move:
            lost += 1
            problems.append(
                f"{key[0]} move {key[1]} acknowledged ({seat_}: {move}), stored {found}"
            )
    for key, (seat_, shown) in record.seen.items():
        found = at.get(key)
        if not found or found[0][0] != seat_ or not _same(shown, found[0][1]):
            lost += 1
            problems.append(f"{key[0]} move {key[1]} announced ({seat_}: {shown}), stored {found}")
    indexes: dict[str, list[int]] = defaultdict(list)
    for table, idx in at:
        indexes[table].append(idx)
    for table, found_idx in indexes.items():
        if sorted(found_idx) != list(range(len(found_idx))):
            disorder += 1
            problems.append(f"{table}: stored indexes are not 0..{len(found_idx) - 1}")
    return {
        "stored": len(rows),
        "acknowledged": len(record.acked),
        "announced": len(record.seen),
        "lost": lost,
        "doubled": doubled,
        "out_of_order": disorder,
        "problems": problems[:5],
    }
