"""One measured run of the load benchmark: a scenario on fresh servers and a fresh database
(``bench/serve_load.py`` runs the matrix, before and after).

Scenarios:

- ``pair``: ``tables`` two-person tables, two scripted clients each;
- ``bots``: ``tables`` tables of two ``random`` bots (``bot_delay`` 0), one spectator each;
- ``idle``: ``idle`` spectators of ``idle_tables`` tables nobody plays, held open;
- ``two``: ``pair`` on two server processes sharing one PostgreSQL database, seat 0's
  client on the first, seat 1's on the second (every move crosses processes).

Each run: the servers start (``load_launch.py``), the tables are made, the clients play
for ``warmup`` seconds, then for ``seconds`` measured (moves announced, latencies, the
servers' CPU time from ``/proc/PID/stat`` and resident memory, the load generator's own
CPU time); then the clients stop, the servers stop, and the database is checked against
what the clients saw (``load_check.py``).
"""

from __future__ import annotations

import asyncio
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from load_check import check
from load_clients import (
    BOT_TABLE,
    PERSON_TABLE,
    Record,
    bounded,
    cancel,
    idle,
    pair,
    post,
    watch_bots,
)
from load_servers import Server


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _ms(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def run(
    scenario: str,
    tables: int,
    *,
    db: str,
    src: Path | None,
    seconds: float,
    warmup: float,
    think: float = 0.0,
    idle_tables: int = 100,
    db_cpu: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """Measure one scenario; returns its figures (or ``skipped`` and why); ``db_cpu``: the
    CPU time of the database server's processes so far, when it is measured too."""
    procs = 2 if scenario == "two" else 1
    servers = [Server(db, src=src) for _ in range(procs)]
    result: dict[str, Any] = {"scenario": scenario, "tables": tables, "procs": procs}
    started = []
    try:
        for server in servers:
            server.start()
            started.append(server)
    except RuntimeError as err:
        for server in started:
            server.stop()
        return {**result, "skipped": f"the server did not start: {err}"[:200]}
    record = Record()
    tasks: list[asyncio.Task[None]] = []
    failures: list[BaseException] = []
    try:
        rss_start = sum(s.memory()[0] for s in servers)
        port = servers[0].port
        ports = (port, servers[-1].port)
        if scenario == "idle":
            figures = await _idle(servers, record, tables, idle_tables, seconds, warmup)
            growth = (figures["rss_mb"] - rss_start) * 1024 / max(1, figures["connections"])
            return {
                **result,
                **figures,
                "rss_mb_start": round(rss_start, 1),
                "rss_kb_per_connection": round(growth, 1),
            }
        spec = BOT_TABLE if scenario == "bots" else PERSON_TABLE
        made = await bounded([lambda: post(port, "/api/tables", spec)] * tables, 16)
        for m in made:
            play = (
                watch_bots(port, record, m)
                if scenario == "bots"
                else pair(ports, record, think=think, made=m)
            )
            tasks.append(asyncio.create_task(play))
        await asyncio.sleep(warmup)
        cpu0, own0 = sum(s.cpu() for s in servers), _self_cpu()
        db0 = db_cpu() if db_cpu is not None else 0.0
        record.start = time.monotonic()
        await asyncio.sleep(seconds)
        record.end = time.monotonic()
        cpu = sum(s.cpu() for s in servers) - cpu0
        own = _self_cpu() - own0
        db_seconds = db_cpu() - db0 if db_cpu is not None else None
        memory = [s.memory() for s in servers]
        failures = await cancel(tasks)
        tasks = []
    finally:
        await cancel(tasks)
        for server in servers:
            server.stop()
    elapsed = record.end - record.start
    moves = record.moves
    result.update(
        seconds=round(elapsed, 1),
        moves=moves,
        moves_per_s=round(moves / elapsed, 1),
        p50_ms=_ms(record.latencies, 0.50),
        p99_ms=_ms(record.latencies, 0.99),
        cpu_ms_per_move=round(1000 * cpu / moves, 2) if moves else None,
        server_cpu_share=round(cpu / elapsed, 2),
        client_cpu_ms_per_move=round(1000 * own / moves, 2) if moves else None,
        db_cpu_ms_per_move=round(1000 * db_seconds / moves, 2)
        if moves and db_seconds is not None
        else None,
        rss_mb=round(sum(m[0] for m in memory), 1),
        rss_mb_peak=round(sum(m[1] for m in memory), 1),
        rss_mb_start=round(rss_start, 1),
        errors=dict(record.errors.most_common(3)),
        client_failures=[f"{type(f).__name__}: {f}"[:120] for f in failures[:3]],
        check=check(db, record),
    )
    return result


async def _idle(
    servers: list[Server],
    record: Record,
    connections: int,
    tables: int,
    seconds: float,
    settle: float,
) -> dict[str, Any]:
    """Open ``connections`` spectators over ``tables`` idle tables, hold them ``seconds``."""
    port = servers[0].port
    made = await bounded([lambda: post(port, "/api/tables", PERSON_TABLE)] * tables, 16)
    opened = [0]
    began = time.monotonic()
    tasks = [
        asyncio.create_task(idle(port, made[i % tables]["table"], opened, record))
        for i in range(connections)
    ]
    try:
        while opened[0] < connections and time.monotonic() - began < 120:
            if all(t.done() for t in tasks):
                break
            await asyncio.sleep(0.1)
        open_s = time.monotonic() - began
        await asyncio.sleep(settle)  # the joins' announcements sent
        cpu0 = sum(s.cpu() for s in servers)
        await asyncio.sleep(seconds)
        cpu = sum(s.cpu() for s in servers) - cpu0
        memory = [s.memory() for s in servers]
        alive = sum(1 for t in tasks if not t.done())
    finally:
        failures = await cancel(tasks)
    return {
        "connections": opened[0],
        "held": alive,
        "open_seconds": round(open_s, 1),
        "rss_mb": round(sum(m[0] for m in memory), 1),
        "rss_mb_peak": round(sum(m[1] for m in memory), 1),
        "server_cpu_share": round(cpu / seconds, 3),
        "errors": dict(record.errors.most_common(3)),
        "client_failures": [f"{type(f).__name__}: {f}"[:120] for f in failures[:3]],
    }
