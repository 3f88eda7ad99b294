"""Speed and memory of the notation (docs/notation.md), one core, 4 seats, house rules.

    python bench/notation.py [--rounds 2000] [--repeats 3] [--twins 40] [--stream-mb 8,32]

Figures (medians over ``--repeats``): writing full copies and spectator copies, reading a
file with every move replayed (and, apart, with every record's positions built as well),
skimming headers, scanning byte offsets; the peak memory (tracemalloc) of reading a file of
N rounds and of 4N rounds, which should be the same; the peak resident memory of a fresh
process streaming files of each ``--stream-mb`` size from disk (``--stream-mb 1024`` for a
gigabyte), which should not grow with the size; and the hidden-twins count: for ``--twins``
rounds, at every prefix, a twin drawn from a seat's view (``View.sample_record``) must give
byte-identical seat and spectator copies.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import chickenfoot as cf
from chickenfoot.notation import iter_games, read_headers, scan_offsets, write_game
from chickenfoot.record import Record


def rounds(n: int, rules: cf.Rules) -> list[Record]:
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        s = cf.deal(rules, seed)
        moves = []
        while not s.is_over():
            m = rng.choice(cf.legal_moves(s))
            moves.append(m)
            s = cf.apply(s, m)
        out.append(Record(cf.deal(rules, seed), moves))
    return out


def timed(repeats: int, n: int, work: Callable[[], object]) -> float:
    rates = []
    for _ in range(repeats):
        began = time.perf_counter()
        work()
        rates.append(n / (time.perf_counter() - began))
    return statistics.median(rates)


def peak_reading(data: bytes) -> int:
    """The peak memory of reading ``data`` (after a first read has filled the caches of
    move and tile texts, which are bounded)."""
    for _ in iter_games(io.BytesIO(data)):
        pass
    tracemalloc.start()
    for _ in iter_games(io.BytesIO(data)):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


_STREAM = """
import resource, sys, time
from chickenfoot.notation import iter_games
began, good, bad = time.perf_counter(), 0, 0
with open(sys.argv[1], "rb") as handle:
    for game in iter_games(handle):
        if game.record is not None and not game.errors:
            good += 1
        else:
            bad += 1
took = time.perf_counter() - began
print(good, bad, took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def streamed(data: bytes, megabytes: int) -> tuple[int, float, int]:
    """Stream a file of ``megabytes`` MB or a little more (``data`` repeated) from disk in a
    fresh process: the rounds read, the seconds, and the peak resident memory (kB)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.cfn"
        with path.open("wb") as out:
            for _ in range(-(-(megabytes << 20) // len(data))):
                out.write(data)
        src = str(Path(__file__).resolve().parent.parent / "src")
        env = {**os.environ, "PYTHONPATH": src}
        run = subprocess.run(
            [sys.executable, "-c", _STREAM, str(path)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    good, bad, took, rss = run.stdout.split()
    if int(bad):
        raise SystemExit(f"{bad} rounds of the streamed file did not read")
    return int(good), float(took), int(rss)


def twins(records: list[Record], rng: random.Random) -> tuple[int, int, int]:
    prefixes = compared = 0
    for rec in records:
        for i in range(len(rec.moves)):
            prefix = Record(rec.start, rec.moves[:i])
            seat = rng.randrange(rec.start.players)
            twin = prefix.final().view(seat).sample_record(rng)
            for audience in (f"seat {seat}", "spectator"):
                a, b = write_game(prefix, audience=audience), write_game(twin, audience=audience)
                if a != b:
                    raise SystemExit(f"twins differ: round {rec.start!r} prefix {i} {audience}")
                compared += len(a)
            prefixes += 1
    return len(records), prefixes, compared


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--twins", type=int, default=40, help="rounds for the hidden-twins count")
    ap.add_argument(
        "--stream-mb",
        default="8,32",
        help="sizes (MB, comma-separated) of the files streamed from disk for the memory figure",
    )
    args = ap.parse_args(argv)
    rules = cf.Rules()
    recs = rounds(args.rounds, rules)
    n = len(recs)
    moves = sum(len(r.moves) for r in recs) / n
    full = "".join(write_game(r, headers={"Round": "0"}) for r in recs).encode()
    print(
        f"{n} rounds of the house rules, 4 seats, {moves:.1f} moves a round, "
        f"{len(full) / n:.0f} bytes a round"
    )
    compiled = importlib.util.find_spec("numba") is not None  # the fast extra: docs/notation.md
    print(f"replay of plain games: {'compiled (numba)' if compiled else 'pure Python (no numba)'}")
    if hasattr(os, "getloadavg"):  # figures on a busy machine are lower: say how busy
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    w = timed(args.repeats, n, lambda: [write_game(r) for r in recs])
    ws = timed(args.repeats, n, lambda: [write_game(r, audience="spectator") for r in recs])
    r = timed(args.repeats, n, lambda: sum(1 for _ in iter_games(io.BytesIO(full))))
    rs = timed(
        args.repeats,
        n,
        lambda: sum(len(g.record.states()) for g in iter_games(io.BytesIO(full)) if g.record),
    )

    def skim() -> None:
        handle = io.BytesIO(full)
        while read_headers(handle) is not None:
            pass

    h = timed(args.repeats, n, skim)
    o = timed(args.repeats, n, lambda: list(scan_offsets(io.BytesIO(full))))
    replay = timed(args.repeats, n, lambda: [Record(x.start, x.moves) for x in recs])
    print(f"write (full)            {w:>10,.0f} rounds/s   (target 20,000)")
    print(f"write (spectator)       {ws:>10,.0f} rounds/s")
    print(f"read, every move played {r:>10,.0f} rounds/s   (target 10,000)")
    print(f"  of which Record()     {replay:>10,.0f} rounds/s   (the library's replay alone)")
    print(f"read, positions built   {rs:>10,.0f} rounds/s   (record.states() of every round)")
    print(f"header skim             {h:>10,.0f} rounds/s   (target 100,000)")
    print(f"byte offsets            {o:>10,.0f} rounds/s")
    small, large = peak_reading(full[: len(full) // 4]), peak_reading(full)
    print(
        f"peak memory reading {n // 4} rounds: {small / 1e3:.0f} kB; {n} rounds: {large / 1e3:.0f} kB"
    )
    for mb in (int(x) for x in args.stream_mb.split(",") if x.strip()):
        count, took, rss = streamed(full, mb)
        print(
            f"streamed {mb:,} MB from disk: {count:,} rounds in {took:.1f} s "
            f"({count / took:,.0f} rounds/s), peak resident memory {rss / 1e3:.0f} MB"
        )
    if args.twins:
        t_rounds, t_prefixes, t_bytes = twins(recs[: args.twins], random.Random(7))
        print(
            f"hidden twins: {t_rounds} rounds, {t_prefixes} prefixes, "
            f"{t_bytes:,} bytes compared (seat and spectator copies), all identical"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
