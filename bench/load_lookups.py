"""Do a few clients asking for tables that do not exist stall the others? (issue 46)

A benchmark that reports figures (nothing here asserts a speed). A real ``chickenfoot
serve`` application under uvicorn on 127.0.0.1 (as ``chickenfoot serve`` runs it), whose
database is ``--delay-ms`` away (5 ms: every call of its store sleeps that long first,
as a round trip to a database server would take), and, in this process:

- a *player* (its own loopback address, 127.0.0.10) that asks, one after the other, for
  the page of a table in memory and for ``/api/options``: the latency of each answer;
- ``--askers`` clients (4; 127.0.0.20 and up, one address each) asking as fast as they
  can for pages of tables that do not exist (a fresh random id each time).

Each server runs ``quiet`` (the player alone) then ``asked`` (with the askers), for
``--seconds`` each; the servers measured are ``before`` (``--baseline``, a ``src`` folder)
and ``after`` (``--src``), and ``after`` with its read limit lifted (``unlimited``: what
reading off the event loop alone does), interleaved, ``--rounds`` times. Prints a
markdown table: the player's answers per second and latency p50/p99/max, and the askers'
answers by status::

    python bench/load_lookups.py --baseline ../main/src --src src --delay-ms 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

try:  # Starlette's TestClient's client (the server's test dependencies)
    import httpx2 as httpx
except ImportError:
    import httpx

SERVER = r"""
import sys, time, dataclasses
import uvicorn
import chickenfoot.server._app as app_module
from chickenfoot.server import Limits, create_app, uvicorn_config

db, port, delay, unlimited = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) / 1000, sys.argv[4] == "1"

class Far:
    # a store whose every call waits ``delay`` first: a database that far away
    def __init__(self, store):
        self._store = store
    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if not callable(attr) or name in ("subscribe", "close"):
            return attr
        def call(*args, **kwargs):
            time.sleep(delay)
            return attr(*args, **kwargs)
        return call

real = app_module.open_store
app_module.open_store = lambda where: Far(real(where))
known = {f.name for f in dataclasses.fields(Limits)}
wanted = {"tables_per_minute": 1e6, "tables_burst": 10**6}
if unlimited:
    wanted.update(reads_per_minute=1e9, reads_burst=10**6)
limits = Limits(**{k: v for k, v in wanted.items() if k in known})
app = create_app(db, limits=limits)
config = uvicorn_config(app, host="127.0.0.1", port=port, limits=limits)
config.forwarded_allow_ips = "192.0.2.1"  # each client's own loopback address counts
server = uvicorn.Server(config)
print("ready", flush=True)
server.run()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _client(address: str, port: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=30.0)


async def _player(port: int, table: str, until: float) -> list[float]:
    latencies = []
    async with _client("127.0.0.10", port) as client:
        paths = [f"/t/{table}", "/api/options"]
        i = 0
        while time.monotonic() < until:
            started = time.perf_counter()
            r = await client.get(paths[i % 2])
            latencies.append(time.perf_counter() - started)
            if r.status_code != 200:
                raise RuntimeError(f"the player got {r.status_code}")
            i += 1
    return latencies


async def _asker(port: int, n: int, until: float, statuses: dict[int, int]) -> None:
    async with _client(f"127.0.0.{20 + n}", port) as client:
        while time.monotonic() < until:
            r = await client.get(f"/t/{secrets.token_urlsafe(9)}")
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1


async def _measure(port: int, seconds: float, askers: int) -> dict[str, Any]:
    async with _client("127.0.0.9", port) as maker:
        seats = [{"kind": "person"}, {"kind": "person"}]
        made = await maker.post("/api/tables", json={"players": 2, "seats": seats})
        table = made.json()["table"]
    out: dict[str, Any] = {}
    for phase, n in (("quiet", 0), ("asked", askers)):
        until = time.monotonic() + seconds
        statuses: dict[int, int] = {}
        tasks = [asyncio.create_task(_asker(port, i, until, statuses)) for i in range(n)]
        latencies = await _player(port, table, until)
        await asyncio.gather(*tasks)
        ms = sorted(x * 1000 for x in latencies)
        out[phase] = {
            "per_second": len(ms) / seconds,
            "p50": statistics.median(ms),
            "p99": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
            "max": ms[-1],
            "askers": dict(sorted(statuses.items())),
        }
    return out


def _serve(src: Path, delay_ms: float, unlimited: bool, folder: Path) -> tuple[Any, int]:
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONDONTWRITEBYTECODE="1")
    db = folder / f"{secrets.token_hex(4)}.db"
    command = [sys.executable, "-c", SERVER, str(db), str(port), str(delay_ms), "1" * unlimited]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError("the server did not start")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server does not listen")


def main() -> None:
    import tempfile

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True, help="the src folder of the server before")
    p.add_argument("--src", required=True, help="the src folder of the server after")
    p.add_argument("--delay-ms", type=float, default=5.0, help="the database's distance")
    p.add_argument("--seconds", type=float, default=8.0, help="seconds per phase")
    p.add_argument("--askers", type=int, default=4, help="clients asking for no table")
    p.add_argument("--rounds", type=int, default=2, help="times each server is measured")
    args = p.parse_args()
    servers = [
        ("before", Path(args.baseline), False),
        ("after", Path(args.src), False),
        ("after, unlimited", Path(args.src), True),
    ]
    rows = []
    with tempfile.TemporaryDirectory(prefix="cf-lookups-") as folder:
        for round_ in range(args.rounds):
            for name, src, unlimited in servers:
                proc, port = _serve(src.resolve(), args.delay_ms, unlimited, Path(folder))
                try:
                    result = asyncio.run(_measure(port, args.seconds, args.askers))
                finally:
                    proc.terminate()
                    proc.wait(20)
                for phase, r in result.items():
                    rows.append((round_ + 1, name, phase, r))
                    print(round_ + 1, name, phase, r, flush=True)
    print(f"\ndatabase {args.delay_ms:g} ms away; {args.askers} askers; {args.seconds:g} s a phase")
    print(
        "| round | server | phase | player answers/s | p50 ms | p99 ms | max ms | askers' answers |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for round_, name, phase, r in rows:
        askers = ", ".join(f"{k}: {v:,}" for k, v in r["askers"].items()) or "-"
        print(
            f"| {round_} | {name} | {phase} | {r['per_second']:.0f} | {r['p50']:.1f} "
            f"| {r['p99']:.1f} | {r['max']:.1f} | {askers} |"
        )


if __name__ == "__main__":
    main()
