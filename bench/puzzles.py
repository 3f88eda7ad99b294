"""How many puzzles a minute ``chickenfoot.puzzles.cut`` makes on one core.

Cuts the puzzles of ``--rounds`` rounds (house rules, seeds 0, 1, ...; the defaults of
``cut``: margin 5, 14 tiles, 20,000 nodes, the compiled solver when numba is there) after
one warm-up round, and prints how many, the processor and wall time, and the rate per
minute of each. On a shared machine the processor time is the figure: wall time grows
with the other jobs' load, which is printed too.

    taskset -c 0 python bench/puzzles.py              # 200 rounds
    python bench/puzzles.py --rounds 50 --backend python
"""

from __future__ import annotations

import argparse
import collections
import os
import time

from chickenfoot import Rules
from chickenfoot.puzzles import cut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--backend", choices=("auto", "numba", "python"), default="auto")
    args = parser.parse_args()
    list(cut(Rules(), seeds=[10**6], backend=args.backend))  # the solver's load, before any clock
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    found = list(cut(Rules(), seeds=range(args.rounds), backend=args.backend))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    grades = collections.Counter(p.grade for p in found)
    print(f"{len(found)} puzzles from {args.rounds} rounds, backend={args.backend}, "
          f"grades {dict(sorted(grades.items()))}")  # fmt: skip
    print(f"processor time {cpu:.1f} s: {60 * len(found) / cpu:.0f} puzzles a minute")
    print(f"wall time {wall:.1f} s: {60 * len(found) / wall:.0f} puzzles a minute "
          f"(load average {load:.1f} then {os.getloadavg()[0]:.1f})")  # fmt: skip


if __name__ == "__main__":
    main()
