"""How much stronger is each built-in agent than the last? Seeded match tournaments.

Three tournaments of whole house-rule matches (4 players, 10 rounds): greedy vs random,
heuristic vs greedy, search vs heuristic. Each seats one copy of the stronger agent
(agent 0) with three copies of the weaker; seats rotate from game to game, so agent 0
leads round 0 in a quarter of the games. An agent no better than the others wins 25% of
the time; the interval says how sure that the difference is real.

    nox -s strength                                   # defaults below
    python bench/strength.py --games 1000 --search-iterations 64 --workers 8
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from chickenfoot import Rules
from chickenfoot.agents import Agent, GreedyAgent, HeuristicAgent, RandomAgent, SearchAgent
from chickenfoot.simulation import simulate

PAIRS = ("greedy", "heuristic", "search")


def tournaments(search_iterations: int) -> dict[str, tuple[Agent, Agent]]:
    """Name -> (stronger, weaker)."""
    return {
        "greedy": (GreedyAgent(), RandomAgent()),
        "heuristic": (HeuristicAgent(), GreedyAgent()),
        "search": (SearchAgent(iterations=search_iterations), HeuristicAgent()),
    }


def bar(label: str) -> Callable[[int, int], None]:
    """A progress callback drawing ``label [#####.....] done/total`` on stderr."""

    def draw(done: int, total: int) -> None:
        filled = 30 * done // total
        end = "\n" if done == total else ""
        print(
            f"\r{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}",
            end=end,
            file=sys.stderr,
            flush=True,
        )

    return draw


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="matches per tournament (100)")
    parser.add_argument(
        "--search-iterations", type=int, default=16, help="SearchAgent deals per decision (16)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="tournament seed (2026)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--only", choices=PAIRS, action="append", help="run only this tournament (repeatable)"
    )
    args = parser.parse_args(argv)
    rules = Rules()
    pairs = tournaments(args.search_iterations)
    print(
        f"house rules, 4 players, {args.games} matches each, seed {args.seed}, "
        f"{args.workers} processes"
    )
    with ProcessPoolExecutor(args.workers) as pool:
        for name in args.only or PAIRS:
            strong, weak = pairs[name]
            agents = [strong, weak, weak, weak]
            start = time.perf_counter()
            result = simulate(
                rules, agents, games=args.games, seed=args.seed, executor=pool, progress=bar(name)
            )
            seconds = time.perf_counter() - start
            a = result.agents[0]
            lo, hi = a.win_ci
            verdict = "stronger" if lo > 0.25 else "weaker" if hi < 0.25 else "not separated"
            print(
                f"\n{type(strong).__name__} vs 3 x {type(weak).__name__}: win rate "
                f"{a.win_rate:.1%} [{lo:.1%}, {hi:.1%}] (25% = even): {verdict}; "
                f"{seconds:.1f} s"
            )
            print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
