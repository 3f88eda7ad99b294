"""Random rounds per second of the batched engine (``chickenfoot.batch``), beside the reference.

House rules, 4 players, double-nine: ``BatchEngine(rules, n).random_playout(k)`` with
``n`` rounds held at once (N = 1, 64, 1,024, 8,192 by default; ``--sizes`` for others),
deals included (each round is the seeded deal ``deal(rules, seed)``); engines of fewer than
``CORE_BELOW`` rounds play with the core's ``playout``. Every figure is a median of
``--repeats`` timed runs; the reference (a bare pure-Python playout, ``reference.py``,
loaded as ``bench/run.py`` loads it) is timed in the same run, interleaved. The memory of
one round (``bytes_per_round``) is printed beside. ``--layouts`` also times the per-step
kernel (count the legal moves, draw one, find it) on uint64 words against boolean planes.

    python bench/batch.py --seconds 2 --repeats 3
    python bench/batch.py --sizes 1024 2048 4096 8192 16384 32768   # the scaling with N
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import load_reference, rate, ref_rounds  # noqa: E402

import chickenfoot as cf  # noqa: E402

SIZES = (1, 64, 1024, 8192)


def batch_rounds(rules: cf.Rules, n: int) -> Callable[[], int]:
    """Random rounds through ``BatchEngine(rules, n).random_playout(k)``, deals included."""
    from chickenfoot.batch import BatchEngine

    engine = BatchEngine(rules, n, seed=0, rng_seed=1)
    k = max(8 * n, 16)

    def run() -> int:
        engine.random_playout(k)
        return k

    return run


def rows(
    ref: Any, sizes: tuple[int, ...] = SIZES
) -> list[tuple[str, str, Callable[[], int], Callable[[], int] | None]]:
    """The batch figures as rows of ``bench/run.py``'s table."""
    house = cf.Rules()
    return [
        (
            f"batch rounds/s, house 4p, N={n:,}",
            "rounds/s",
            batch_rounds(house, n),
            ref and ref_rounds(ref),
        )
        for n in sizes
    ]


def bytes_per_round(n: int) -> int:
    """``BatchEngine(Rules(), n).bytes_per_round``."""
    from chickenfoot.batch import BatchEngine

    return BatchEngine(cf.Rules(), n).bytes_per_round


def layouts(seconds: float, repeats: int) -> dict[str, float]:
    """Game-steps per second of the per-step kernel, words against boolean planes."""
    import numpy as np

    from chickenfoot.batch._tables import cumsum_rows, kth_bit, popcount, tables

    tb = tables(cf.Rules())
    n = 8192
    rng = np.random.default_rng(0)
    # a realistic mid-round mix: 11-tile hands, about 8 open ends spread over the numbers
    hand_bits = np.zeros((n, tb.S), dtype=bool)
    for i in range(n):
        hand_bits[i, rng.choice(tb.S, 8, replace=False)] = True
    end_v = np.full((n, tb.S), -1, dtype=np.int64)  # each tile's open-end number, or -1
    for i in range(n):
        anchors = rng.choice(tb.S, 8, replace=False)
        end_v[i, anchors] = np.where(rng.random(8) < 0.5, tb.PX[anchors], tb.PY[anchors])
    words = np.packbits(hand_bits, axis=1, bitorder="little")
    hand_w = np.zeros((n, 8), dtype=np.uint8)
    hand_w[:, : words.shape[1]] = words
    hand_w64 = hand_w.view(np.uint64)[:, 0][None, :].copy()  # (1, n)
    ends_w = np.zeros((tb.V, 1, n), dtype=np.uint64)
    for v in range(tb.V):
        bits = np.zeros((n, 64), dtype=bool)
        bits[:, : tb.S] = end_v == v
        ends_w[v, 0] = np.packbits(bits, axis=1, bitorder="little").view(np.uint64)[:, 0]
    ecount = popcount(ends_w, axis=1)  # (V, n)
    ends_b = np.stack([end_v == v for v in range(tb.V)])  # (V, n, S) boolean planes
    with_b = tb.unpack(tb.WITH)  # (V, S)
    u = rng.random(n)

    def words_kernel() -> int:
        cand = hand_w64
        per_v = popcount(tb.WITHT[:, :, None] & cand[:, None, :], axis=0) * ecount
        cum = cumsum_rows(per_v)
        r = (u * np.maximum(cum[-1], 1)).astype(np.int64)
        v = np.minimum((cum <= r).sum(axis=0), tb.V - 1)
        cols = np.arange(n)
        flat = v * n + cols
        ca = np.maximum(ecount.reshape(-1)[flat], 1)
        rr = r - (cum.reshape(-1)[flat] - per_v.reshape(-1)[flat])
        kth_bit(cand & tb.WITHT[:, v], rr // ca)
        kth_bit(ends_w.reshape(tb.V, n)[v, cols][None, :], rr % ca)
        return n

    def planes_kernel() -> int:
        cand = hand_bits  # (n, S)
        per_v = (cand[None, :, :] & with_b[:, None, :]).sum(axis=2) * ends_b.sum(axis=2)
        cum = cumsum_rows(per_v)
        r = (u * np.maximum(cum[-1], 1)).astype(np.int64)
        v = np.minimum((cum <= r).sum(axis=0), tb.V - 1)
        cols = np.arange(n)
        flat = v * n + cols
        ca = np.maximum(ends_b.sum(axis=2).reshape(-1)[flat], 1)
        rr = r - (cum.reshape(-1)[flat] - per_v.reshape(-1)[flat])
        tiles = cand & with_b[v]
        t = (np.cumsum(tiles, axis=1) <= (rr // ca)[:, None]).sum(axis=1)
        anchors = ends_b[v, cols]
        a = (np.cumsum(anchors, axis=1) <= (rr % ca)[:, None]).sum(axis=1)
        del t, a
        return n

    out = {}
    for name, fn in (("uint64 words", words_kernel), ("boolean planes", planes_kernel)):
        rate(fn, seconds / 4)
        out[name] = statistics.median(rate(fn, seconds) for _ in range(repeats))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per figure (median)")
    ap.add_argument("--reference", help="path to the shared reference.py")
    ap.add_argument("--layouts", action="store_true", help="also time the layouts' kernel")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="values of N")
    args = ap.parse_args(argv)
    ref = load_reference(args.reference)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"memory per round: {bytes_per_round(8):,} bytes (house rules, 4 players, double-9)")
    print(f"{'figure':40} {'chickenfoot':>12} {'reference':>12} {'ratio':>7}")
    for name, _unit, ours, theirs in rows(ref, tuple(args.sizes)):
        rate(ours, args.seconds / 4)
        mine, refs = [], []
        for _ in range(args.repeats):
            mine.append(rate(ours, args.seconds))
            if theirs:
                refs.append(rate(theirs, args.seconds))
        m = statistics.median(mine)
        r = statistics.median(refs) if refs else None
        rs = f"{r:12,.0f}" if r else f"{'-':>12}"
        qs = f"{m / r:7.2f}" if r else f"{'-':>7}"
        print(f"{name:40} {m:12,.0f} {rs} {qs}")
    if args.layouts:
        for name, steps in layouts(args.seconds, args.repeats).items():
            print(f"{'kernel game-steps/s, ' + name:40} {steps:12,.0f}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    random.seed(0)
    time.perf_counter()
    sys.exit(main())
