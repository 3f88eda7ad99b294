"""How fast the server's stores commit moves: ``add_moves`` of 1, 10 and 100 moves a
transaction (the group commit: every move that arrived during the previous commit), on
SQLite and PostgreSQL; prints commits/s and moves/s for each.

    python bench/store_commits.py                       # SQLite only, in a temporary file
    python bench/store_commits.py --postgres postgresql://USER@HOST/DB --seconds 5

A batch holds one move of each of as many tables (the moves of one commit come from many
tables). The PostgreSQL run uses a schema of its own, dropped at the end. Not a test: the
figures depend on the disk (SQLite syncs the file at each commit, PostgreSQL its WAL).
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from chickenfoot.server._store import MoveRow, SeatRow, Store, open_store

SEATS = [SeatRow(0, "person", "", "tok", "Ann"), SeatRow(1, "bot", "greedy", None, "Henny")]


def measure(store: Store, batch: int, seconds: float) -> tuple[float, float]:
    """Commits/s and moves/s of ``add_moves`` with ``batch`` moves, for ``seconds``."""
    tag = secrets.token_hex(4)
    ids = [f"{tag}-{i}" for i in range(batch)]
    for table_id in ids:
        store.add_table(table_id, "{}", 1, SEATS)
    commits = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rows = [MoveRow(t, commits, commits % 2, "draw", False) for t in ids]
        assert all(store.add_moves(rows))
        commits += 1
    elapsed = time.perf_counter() - start
    return commits / elapsed, commits * batch / elapsed


def _with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    option = "options=" + quote(f"-c search_path={schema}", safe="")
    return urlunsplit(parts._replace(query=f"{parts.query}&{option}" if parts.query else option))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--postgres", metavar="URL", help="a PostgreSQL server to measure too")
    p.add_argument("--seconds", type=float, default=3.0, help="per measure (default: 3)")
    p.add_argument("--dir", type=Path, default=None, help="where the SQLite file goes")
    args = p.parse_args()
    where: list[tuple[str, str]] = []
    with contextlib.ExitStack() as stack:
        folder = args.dir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        db = folder / f"bench-{secrets.token_hex(4)}.db"
        for suffix in ("", "-wal", "-shm"):
            stack.callback(Path(f"{db}{suffix}").unlink, missing_ok=True)
        where.append(("sqlite", str(db)))
        if args.postgres:
            import psycopg

            schema = f"cf_bench_{secrets.token_hex(4)}"
            with psycopg.connect(args.postgres, autocommit=True) as db:
                db.execute(f"CREATE SCHEMA {schema}")

            def drop(schema: str = schema) -> None:
                with psycopg.connect(args.postgres, autocommit=True) as db:
                    db.execute(f"DROP SCHEMA {schema} CASCADE")

            stack.callback(drop)
            where.append(("postgresql", _with_schema(args.postgres, schema)))
        print(f"{'store':<12}{'moves/commit':>14}{'commits/s':>12}{'moves/s':>12}")
        for name, place in where:
            with contextlib.closing(open_store(place)) as store:
                for batch in (1, 10, 100):
                    commits, moves = measure(store, batch, args.seconds)
                    print(f"{name:<12}{batch:>14}{commits:>12,.0f}{moves:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
