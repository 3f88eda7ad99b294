"""The exact solver's speed: milliseconds per position, by tiles left in the hands.

Rounds of the house rules (4 seats, double-nine) are played by four ``HeuristicAgent``s
(deal seeds 0, 1, ...; the agents' generator seeded alike); every position of them with
``--tiles`` tiles or fewer in the hands (20 by default) and the round not over is solved,
each once, compiled (``backend="numba"``, after one warm-up call) or pure. The table gives,
per number of tiles left and over all, the positions, the median, 99th percentile and worst
time in milliseconds, and the median and worst nodes visited. A position whose search needs
more than ``--nodes`` nodes counts as over budget (its time is that of the refusal).

    python bench/solve.py                         # 200 rounds, compiled
    python bench/solve.py --rounds 50 --backend python --tiles 12
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from chickenfoot import BudgetError, Rules, State, apply, deal, solve
from chickenfoot.agents import HeuristicAgent


def positions(rounds: int, tiles: int) -> list[State]:
    """Every position with ``tiles`` tiles or fewer in the hands, of ``rounds`` rounds."""
    out = []
    agent = HeuristicAgent()
    for seed in range(rounds):
        s = deal(Rules(), seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            if sum(s.hand_sizes) <= tiles:
                out.append(s)
            s = apply(s, agent.choose(s.view(s.turn), s.legal_moves, rng))
    return out


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ``xs``, nearest rank."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, round(q * len(ys) + 0.5) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--tiles", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=100_000_000)
    parser.add_argument("--backend", choices=("numba", "python"), default="numba")
    args = parser.parse_args()
    found = positions(args.rounds, args.tiles)
    solve(found[-1], backend=args.backend)  # the kernel's compile or load, before any clock
    rows: dict[int, list[tuple[float, int]]] = {}
    over = 0
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    for s in found:
        began = time.perf_counter()
        try:
            nodes = solve(s, nodes=args.nodes, backend=args.backend).nodes
        except BudgetError:
            nodes = args.nodes + 1
            over += 1
        ms = 1000 * (time.perf_counter() - began)
        rows.setdefault(sum(s.hand_sizes), []).append((ms, nodes))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{len(found)} positions of {args.rounds} rounds, backend={args.backend}, "
          f"{over} over the budget of {args.nodes:,} nodes")  # fmt: skip
    # A shared machine's load stretches wall times; processor time says how much.
    print(f"load average {load:.1f} then {os.getloadavg()[0]:.1f}; {wall:.1f} s of wall "
          f"time, {cpu:.1f} s of processor time")  # fmt: skip
    print("| tiles left | positions | median ms | p99 ms | worst ms | median nodes | worst nodes |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    every = [x for k in rows for x in rows[k]]
    for label, xs in [*((str(k), rows[k]) for k in sorted(rows)), ("all", every)]:
        ms = [x[0] for x in xs]
        nodes = [x[1] for x in xs]
        print(
            f"| {label} | {len(xs)} | {statistics.median(ms):.3f} | {percentile(ms, 0.99):.2f} "
            f"| {max(ms):.2f} | {int(statistics.median(nodes)):,} | {max(nodes):,} |"
        )


if __name__ == "__main__":
    main()
