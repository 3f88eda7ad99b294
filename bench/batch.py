"""Random rounds per second of the batched engine (``chickenfoot.batch``), beside the
reference and the C loop.

House rules, 4 players, double-nine: ``BatchEngine(rules, n, backend=..., deals=...)
.random_playout(k)`` with ``n`` rounds held at once (N = 1, 64, 1,024, 8,192 by default;
``--sizes`` for others), deals included, per backend: numpy (exact deals; engines of fewer
than ``CORE_BELOW`` rounds play with the core's ``playout``), numba with exact deals (each
round is ``deal(rules, seed)``) and numba with fast deals. Every figure is a median of
``--repeats`` timed runs; the reference (a bare pure-Python playout, ``reference.py``,
loaded as ``bench/run.py`` loads it) and the C loop (``shared/bench/cf.c``, the house rules
with random play, built here with ``cc -O2`` and called through ctypes) are timed in the
same run, interleaved. Then the training loop at N = 8,192 (``legal_mask()`` or
``legal_actions()``, ``observe()`` and ``step(random_actions())`` per step, in game-steps
a second) and the memory of one round (``bytes_per_round``). ``--compile`` also times the
numba kernels' first compile (in a fresh cache directory, in a subprocess); ``--layouts``
times the numpy per-step kernel on uint64 words against boolean planes.

    python bench/batch.py --seconds 2 --repeats 3
    python bench/batch.py --sizes 1024 2048 4096 8192 16384 32768   # the scaling with N
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import load_reference, rate, ref_rounds  # noqa: E402

import chickenfoot as cf  # noqa: E402

SIZES = (1, 64, 1024, 8192)
C_SOURCE = "shared/bench/cfwrap.c"  # includes cf.c: `double cf_run(long n)`, seconds for n rounds


def backends() -> list[tuple[str, str, str]]:
    """``(label, backend, deals)`` of the figures: numpy, and numba if it is installed."""
    from chickenfoot.batch import _compiled

    out = [("numpy", "numpy", "exact")]
    if _compiled.available():
        out += [("numba exact", "numba", "exact"), ("numba fast", "numba", "fast")]
    return out


def batch_rounds(
    rules: cf.Rules, n: int, backend: str = "numpy", deals: str = "exact"
) -> Callable[[], int]:
    """Random rounds through ``BatchEngine(rules, n).random_playout(k)``, deals included."""
    from chickenfoot.batch import BatchEngine

    engine = BatchEngine(rules, n, seed=0, rng_seed=1, backend=backend, deals=deals)
    k = max(8 * n, 16)
    engine.random_playout(16)  # the kernels' first call (a compile, or the cache's load)

    def run() -> int:
        engine.random_playout(k)
        return k

    return run


def c_loop() -> Callable[[], int] | None:
    """Random rounds of the C loop (``shared/bench/cf.c``), built now with ``cc -O2``."""
    source = next((p / C_SOURCE for p in HERE.parents if (p / C_SOURCE).is_file()), None)
    cc = shutil.which("cc") or shutil.which("gcc")
    if source is None or cc is None:
        return None
    lib = Path(tempfile.mkdtemp()) / "cf.so"
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(source)], check=True)
    dll = ctypes.CDLL(str(lib))
    dll.cf_run.restype = ctypes.c_double
    dll.cf_run.argtypes = [ctypes.c_long]

    def run() -> int:
        dll.cf_run(20_000)
        return 20_000

    return run


def rows(
    ref: Any, sizes: tuple[int, ...] = SIZES, c: Callable[[], int] | None = None
) -> list[tuple[str, str, Callable[[], int], Callable[[], int] | None]]:
    """The batch figures as rows of ``bench/run.py``'s table: each backend's rounds/s
    against the C loop (``c``, built if not given) if there is a C compiler, else the
    reference; and the C loop against the reference."""
    house = cf.Rules()
    c = c or c_loop()
    out: list[tuple[str, str, Callable[[], int], Callable[[], int] | None]] = []
    if c is not None:
        out.append(("C loop rounds/s (cf.c, cc -O2)", "rounds/s", c, ref and ref_rounds(ref)))
    for label, backend, deals in backends():
        for n in sizes:
            name = f"batch {label}, house 4p, N={n:,}"
            ours = batch_rounds(house, n, backend, deals)
            out.append(
                (name, "C rounds/s" if c else "rounds/s", ours, c or (ref and ref_rounds(ref)))
            )
    return out


def training_loop(n: int, backend: str, compact: bool) -> Callable[[], int]:
    """Game-steps of the training loop: the legal mask (or ids), the observations and a
    step of random actions, at once in ``n`` rounds (``auto_reset``)."""
    from chickenfoot.batch import BatchEngine

    e = BatchEngine(cf.Rules(), n, seed=0, rng_seed=1, auto_reset=True, backend=backend)
    legal = e.legal_actions if compact else e.legal_mask

    def run() -> int:
        legal()
        e.observe()
        e.step(e.random_actions())
        return n

    run()
    return run


def compile_seconds() -> float:
    """Seconds of the numba kernels' first compile: every call, in a fresh cache."""
    code = (
        "import time, numpy as np, chickenfoot as cf\n"
        "from chickenfoot.batch import BatchEngine\n"
        "t = time.perf_counter()\n"
        "for deals in ('exact', 'fast'):\n"
        "    e = BatchEngine(cf.Rules(), 16, backend='numba', deals=deals, auto_reset=True)\n"
        "    e.legal_mask(); e.legal_actions(); e.observe(); e.step(e.random_actions())\n"
        "    e.penalties(); e.random_playout(40); e.random_playout()\n"
        "    e.playout(lambda o, m: m.argmax(axis=1), 5)\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(done.stdout.split()[-1])


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
    ap.add_argument("--compile", action="store_true", help="also time numba's first compile")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="values of N")
    args = ap.parse_args(argv)
    ref = load_reference(args.reference)
    c = c_loop()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"memory per round: {bytes_per_round(8):,} bytes (house rules, 4 players, double-9)")
    head = f"{'figure':40} {'chickenfoot':>12} {'reference':>12} {'ratio':>7} {'C loop':>10} {'vs C':>6}"
    print(head)
    house = cf.Rules()
    table = [("C loop (cf.c, cc -O2)", c)] if c else []
    for label, backend, deals in backends():
        for n in args.sizes:
            table.append((f"{label}, N={n:,}", batch_rounds(house, n, backend, deals)))
    for name, ours in table:
        assert ours is not None
        rate(ours, args.seconds / 4)
        mine, refs, cs = [], [], []
        for _ in range(args.repeats):
            mine.append(rate(ours, args.seconds))
            if ref:
                refs.append(rate(ref_rounds(ref), args.seconds))
            if c:
                cs.append(rate(c, args.seconds / 2))
        m = statistics.median(mine)
        r = statistics.median(refs) if refs else None
        cm = statistics.median(cs) if cs else None
        rs = f"{r:12,.0f} {m / r:7.2f}" if r else f"{'-':>12} {'-':>7}"
        qs = f"{cm:10,.0f} {m / cm:6.2f}" if cm else f"{'-':>10} {'-':>6}"
        print(f"{name:40} {m:12,.0f} {rs} {qs}")
    for label, backend, _ in backends()[:2]:
        for compact in (False, True):
            fn = training_loop(8192, backend, compact)
            steps = statistics.median(rate(fn, args.seconds) for _ in range(args.repeats))
            what = "legal_actions" if compact else "legal_mask"
            print(f"{'training game-steps/s, ' + label + ', ' + what:52} {steps:12,.0f}")
    if args.compile and len(backends()) > 1:
        print(f"numba first compile (every kernel, fresh cache): {compile_seconds():.1f} s")
    if args.layouts:
        for name, steps in layouts(args.seconds, args.repeats).items():
            print(f"{'kernel game-steps/s, ' + name:40} {steps:12,.0f}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    random.seed(0)
    time.perf_counter()
    sys.exit(main())
