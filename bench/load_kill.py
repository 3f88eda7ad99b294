"""The SIGKILL loop of the load benchmark (``bench/serve_load.py --kill-loop N``).

One server plays a scripted two-person game (two clients answering at once, a new
table when a match ends); ``kills`` times, at a random moment, the server is killed with
SIGKILL (no shutdown, nothing flushed), started again on the same port and the same
database, and the clients reconnect and play on. Each client records every move it sent
and every move whose announcement it received (acknowledged, its own or the other
seat's). At the end the database is checked (``load_check.py``): every acknowledged move
stored once at its place (zero lost, zero doubled), no gap.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import statistics
import time
from pathlib import Path
from typing import Any

from load_check import check
from load_clients import Record, cancel, pair
from load_servers import Server


async def kill_loop(
    kills: int, *, db: str, src: Path | None, seed: int = 1, tables: int = 1
) -> dict[str, Any]:
    """Play, SIGKILL, restart ``kills`` times; returns the figures and the check."""
    rng = random.Random(seed)
    server = Server(db, src=src)
    try:
        server.start()
    except RuntimeError as err:
        return {"skipped": f"the server did not start: {err}"[:200]}
    record = Record(start=0.0)
    port = server.port
    tasks = [asyncio.create_task(pair((port, port), record, reconnect=True)) for _ in range(tables)]
    restarts: list[float] = []
    acked_at_kill: list[int] = []
    aborted = None
    try:
        for _ in range(kills):
            await asyncio.sleep(rng.uniform(0.3, 1.5))
            acked_at_kill.append(len(record.acked))
            server.kill()
            began = time.monotonic()
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            server = Server(db, src=src, port=port)
            try:
                server.start()
            except RuntimeError as err:  # it does not come back: the check still runs
                aborted = f"the server did not start again after kill {len(restarts) + 1}: {err}"
                break
            restarts.append(time.monotonic() - began)
        else:
            await asyncio.sleep(1.0)
        failures = await cancel(tasks)
        tasks = []
    finally:
        await cancel(tasks)
        server.stop()
    progress = [b - a for a, b in itertools.pairwise(acked_at_kill)]
    return {
        "kills": len(acked_at_kill),
        "aborted": aborted,
        "tables": len(record.tables),
        "acknowledged": len(record.acked),
        "reconnects": record.reconnects,
        "restart_ms_median": round(1000 * statistics.median(restarts), 0) if restarts else None,
        "stalled_between_kills": sum(1 for p in progress if p == 0),
        "client_failures": [f"{type(f).__name__}: {f}"[:120] for f in failures[:3]],
        "check": check(db, record),
    }
