"""``chickenfoot compile``: compile every numba kernel ahead, with progress.

The batch engine, the Gymnasium environments' built-in opponents and the search agent
run compiled kernels when numba is installed (the ``fast`` extra); numba compiles them on
first use and caches them on disk. This command does that first compile now, step by
step, so that no later program pauses for it (docs: Batched play, "Backends").
"""

from __future__ import annotations

import argparse
from typing import TextIO

from chickenfoot.cli._common import EXIT_OK


def cmd_compile(args: argparse.Namespace, out: TextIO) -> int:
    """Compile the kernels, printing one line per step; a usage error without numba."""
    from chickenfoot import batch

    steps = batch.COMPILE_STEPS
    if batch.kernels_cached():
        state = "loading them from numba's cache"
    else:
        state = "once per machine: about 40 s to 2 min"
    print(f"compiling {len(steps)} groups of kernels ({state})", file=out, flush=True)

    before = [0.0]  # the seconds of the steps before this one (progress says them all)

    def said(k: int, step: str, seconds: float) -> None:
        so_far = f" ({seconds:.1f} s so far)" if k else ""
        took = seconds - before[0]
        before[0] = seconds
        print(f"[{k + 1}/{len(steps)}] {step}: {took:.1f} s{so_far}", file=out, flush=True)

    took = batch.compile_kernels(said)
    print(f"done in {took:.1f} s", file=out)
    return EXIT_OK
