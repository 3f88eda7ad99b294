"""SearchAgent, pure Python against compiled rollouts: iterations per second, and strength
at a time limit.

``rate``: iterations per second of ``SearchAgent.choose`` on a few positions (the
first, a middle and a late decision of a round), for each rollout, on the
``python`` and the ``numba`` backends (the same choices: only the speed differs).
``strength``: one ``SearchAgent(time_limit=T)`` (iterations high enough that the clock
binds) against three ``HeuristicAgent``s, one-round matches of the house rules, seats
rotating; the win rate with its Wilson interval (25% = even).

    python bench/search.py rate
    python bench/search.py strength --backend numba --games 400 --time-limit 0.05
    python bench/search.py strength --backend python --time-limit 0 --iterations 32  # default
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from chickenfoot import Rounds, Rules, State, apply, deal
from chickenfoot.agents import HeuristicAgent, SearchAgent
from chickenfoot.simulation import simulate


def positions() -> list[tuple[str, State]]:
    """The first, a middle and a late decision with a choice of a house-rule round played
    by heuristic agents (deal seed 5)."""
    s = deal(Rules(), seed=5)
    rng = random.Random(5)
    choices = []
    while not s.is_over():
        if len(s.legal_moves) > 1:
            choices.append(s)
        s = apply(s, HeuristicAgent().choose(s.view(s.turn), s.legal_moves, rng))
    n = len(choices)
    return [("opening", choices[0]), ("mid-round", choices[n // 2]), ("late", choices[4 * n // 5])]


def rate(agent: SearchAgent, s: State, seconds: float) -> float:
    """Iterations per second of ``agent.choose`` at ``s``."""
    v = s.view(s.turn)
    rng = random.Random(0)
    agent.choose(v, v.legal_moves, rng)  # the view's analysis, the kernel's load
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        agent.choose(v, v.legal_moves, rng)
        done += agent.iterations
    return done / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("rate", help="iterations per second")
    r.add_argument("--iterations", type=int, default=32, help="per decision (32)")
    r.add_argument("--seconds", type=float, default=2.0, help="per figure (2)")
    g = sub.add_parser("strength", help="win rate against three HeuristicAgents")
    g.add_argument("--backend", default="auto", choices=("auto", "numba", "python"))
    g.add_argument("--games", type=int, default=200, help="one-round matches (200)")
    g.add_argument(
        "--time-limit", type=float, default=0.05, help="seconds a decision (0.05; 0: none)"
    )
    g.add_argument("--iterations", type=int, default=1_000_000, help="a decision (1,000,000)")
    g.add_argument("--rollout", default="greedy", choices=("greedy", "random", "heuristic"))
    g.add_argument("--objective", default="margin", choices=("margin", "win"))
    g.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.command == "rate":
        print(f"SearchAgent iterations/s, iterations={args.iterations}")
        print(f"{'position':10} {'moves':>5} {'rollout':8} {'python':>8} {'numba':>8} {'x':>6}")
        for name, s in positions():
            for rollout in ("greedy", "random"):
                got = [
                    rate(SearchAgent(iterations=args.iterations, rollout=rollout, backend=b), s, args.seconds)
                    for b in ("python", "numba")
                ]  # fmt: skip
                print(
                    f"{name:10} {len(s.legal_moves):5} {rollout:8} {got[0]:8.0f} {got[1]:8.0f} "
                    f"{got[1] / got[0]:6.1f}"
                )
        return 0
    search = SearchAgent(
        iterations=args.iterations,
        time_limit=args.time_limit or None,
        rollout=args.rollout,
        backend=args.backend,
        objective=args.objective,
    )
    agents = [search, HeuristicAgent(), HeuristicAgent(), HeuristicAgent()]
    start = time.perf_counter()
    result = simulate(Rules(match=Rounds(1)), agents, games=args.games, seed=args.seed)
    a = result.agents[0]
    lo, hi = a.win_ci
    print(
        f"{search!r} vs 3 x HeuristicAgent, {args.games} one-round games: win rate "
        f"{a.win_rate:.1%} [{lo:.1%}, {hi:.1%}]; mean score {a.mean_score:.2f} "
        f"{a.score_ci}; {time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
