"""A bounded load test of ``chickenfoot serve`` on the loopback (``nox -s serve_load``).

Starts a real server process, makes ``--tables`` tables of two person seats each, and
connects one client per seat over a real WebSocket; each client plays its seat like a bot
(a random legal move as soon as it gets its ``go``) for ``--seconds``. Reports moves per
second, the latency of a move (sent -> the table message announcing it) at p50 and p99,
the server's resident memory, and checks that every move a client saw announced is in
the database once, at its place, in order.

    python bench/serve_load.py --tables 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from chickenfoot.server._store import Store


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        answer: dict[str, Any] = json.loads(r.read())
        return answer


async def seat_client(
    port: int, table: str, token: str, stop: float, latencies: list[float], seen: list[Any]
) -> int:
    """Play one seat until ``stop``; returns the moves it made."""
    made = 0
    sent_at: dict[int, float] = {}
    answered: set[int] = set()
    rng = random.Random()
    url = f"ws://127.0.0.1:{port}/ws/{table}"
    async with connect(url, max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            message = json.loads(text)
            if message["type"] == "table":
                n = message["n"]
                if n - 1 in sent_at:
                    latencies.append(time.monotonic() - sent_at.pop(n - 1))
                seen.append((table, n, message["last"], message["round"]))
                if message["over"]:
                    break
            elif message["type"] == "go":
                if message["id"] in answered:  # the same go again (someone joined)
                    continue
                answered.add(message["id"])
                sent_at[message["id"]] = time.monotonic()
                move = rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "move", "move": move, "id": message["id"]}))
                made += 1
            elif message["type"] == "error":
                raise AssertionError(f"refused: {message['message']}")
    return made


def check(db: Path, seen: list[Any]) -> int:
    """Every announced move is in the database once, at its place: returns how many were
    checked."""
    store = Store(db)
    moves = {t.id: store.moves(t.id) for t in store.tables()}
    checked = 0
    for table, n, last, _round in seen:
        stored = moves[table]
        assert n <= len(stored), f"{table}: move {n} announced but not stored"
        if last is not None and n > 0:
            seat, move, _forced = stored[n - 1]
            assert last["seat"] == seat, (table, n, last, stored[n - 1])
            shown = last["move"]
            assert shown == move or (move == "draw" and shown.startswith("draw")), (last, move)
            checked += 1
    for table, stored in moves.items():
        assert len(stored) == len(set(range(len(stored)))), table
    return checked


async def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp())
    db = workdir / "load.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "chickenfoot", "serve", "--port", str(port), "--db", str(db),
         "--bot-delay", "0", "--tables-per-minute", "10000", "--max-connections", "100000",
         "--max-connections-per-address", "100000"],  # one loopback client: no limits
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=1).read()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.05)
        rss_idle = rss_mb(server.pid)
        seats = [{"kind": "person"}, {"kind": "person"}]
        tables = [
            post(base, "/api/tables", {"preset": "house", "players": 2, "seats": seats})
            for _ in range(args.tables)
        ]
        latencies: list[float] = []
        seen: list[Any] = []
        cpu_before = cpu_seconds(server.pid)
        began = time.monotonic()
        stop = began + args.seconds
        clients = [
            seat_client(port, t["table"], s["link"].split("#")[1], stop, latencies, seen)
            for t in tables
            for s in t["seats"]
        ]
        made = await asyncio.gather(*clients)
        elapsed = time.monotonic() - began
        rss_busy = rss_mb(server.pid)
        cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(20)
    stored = sum(len(Store(db).moves(t["table"])) for t in tables)
    checked = check(db, seen)
    lat = sorted(latencies)
    return {
        "tables": args.tables,
        "clients": len(clients),
        "seconds": round(elapsed, 1),
        "moves_by_clients": sum(made),
        "moves_stored": stored,
        "moves_per_second": round(stored / elapsed, 1),
        "client_moves_per_second": round(sum(made) / elapsed, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 2) if lat else None,
        "server_cpu_seconds": round(cpu, 1),
        "server_rss_mb_idle": round(rss_idle, 1),
        "server_rss_mb_loaded": round(rss_busy, 1),
        "announcements_checked": checked,
        "db_bytes": os.path.getsize(db),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0)
    args = p.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
