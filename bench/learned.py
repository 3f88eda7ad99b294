"""The search with the learned dealing against the same search dealing uniformly, paired.

Both play one seat against three ``HeuristicAgent``s on the same duplicate deals (seed 2026,
every rotation: bench/strength.py's ``one_deal``); the unit of the 95% intervals is the deal,
and the gain is the per-deal difference of the win shares (paired). ``--iterations`` fixes
the work a decision (a measurement that does not depend on the machine's load); ``--ms``
bounds it by time instead (``ismcts:Nms``; the learned dealing's features count against it).

    python bench/learned.py --deals 200 --iterations 2500 --workers 2
    python bench/learned.py --deals 2000 --ms 50 --workers 8

Run by chunks (``--first``, ``--deals``) with ``--rows FILE``, then ``--summary FILE`` prints
the figures of every deal gathered there (each deal once) without playing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from strength import one_deal  # (bench/, beside this file)

from chickenfoot import Rules
from chickenfoot.agents import HeuristicAgent
from chickenfoot.ismcts import ISMCTSAgent
from chickenfoot.simulation import mean_interval


def both(args: argparse.Namespace, d: int) -> tuple[float, float]:
    rules = Rules(players=4)
    limit = None if args.ms is None else args.ms / 1000
    iterations = 1_000_000 if args.ms is not None else args.iterations
    out = []
    for dealing in ("uniform", "learned"):
        agent = ISMCTSAgent(iterations=iterations, time_limit=limit, dealing=dealing)
        out.append(one_deal(rules, (agent, HeuristicAgent()), args.seed, d)[0])
    return out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--deals", type=int, default=100)
    a.add_argument("--first", type=int, default=0)
    a.add_argument("--seed", type=int, default=2026)
    a.add_argument("--iterations", type=int, default=2500)
    a.add_argument("--ms", type=int, default=None)
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--rows", default=None, help="append each deal's two win shares to this file")
    a.add_argument("--summary", default=None, help="the figures of the deals of this rows file")
    args = a.parse_args(argv)
    if args.summary is not None:
        with open(args.summary) as f:
            got = {int(d): (float(x), float(y)) for d, x, y in (line.split() for line in f)}
        report(args, sorted(got), [got[d] for d in sorted(got)], None)
        return 0
    start = time.perf_counter()
    deals = range(args.first, args.first + args.deals)
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(both, [args] * len(deals), deals))
    if args.rows is not None:
        with open(args.rows, "a") as f:
            f.writelines(f"{d} {x} {y}\n" for d, (x, y) in zip(deals, rows, strict=True))
    report(args, deals, rows, time.perf_counter() - start)
    return 0


def report(
    args: argparse.Namespace,
    deals: Sequence[int],
    rows: list[tuple[float, float]],
    took: float | None,
) -> None:
    what = f"{args.ms} ms" if args.ms is not None else f"{args.iterations} iterations"
    u, (ulo, uhi) = mean_interval([x for x, _ in rows])
    lw, (llo, lhi) = mean_interval([y for _, y in rows])
    g, (glo, ghi) = mean_interval([y - x for x, y in rows])
    print(
        f"ismcts ({what}) vs 3 x heuristic, 4 seats, {len(deals)} deals ({deals[0]}-{deals[-1]}) "
        f"x 4 rotations, seed {args.seed}: uniform dealing {u:.1%} [{ulo:.1%}, {uhi:.1%}], learned "
        f"{lw:.1%} [{llo:.1%}, {lhi:.1%}]; paired gain {g:+.1%} [{glo:+.1%}, {ghi:+.1%}]"
        + ("" if took is None else f"; {took:.0f} s on {args.workers} processes")
    )


if __name__ == "__main__":
    sys.exit(main())
