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
    python bench/search.py strength --backend numba --rollout heuristic --games 800
    python bench/search.py compare --games 800  # the two beside each other

Each strength row also gives the searcher's iterations a decision (with a choice) and a
second of its own thinking.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

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


_ITERATIONS = [0]


def _count_iterations() -> None:
    """Count the sampled worlds of every search (pure: ``View.sample``; compiled: the
    kernel sampler's iterations), for the iterations per second."""
    import chickenfoot._rollouts as rollouts
    from chickenfoot.view import View

    sample, iterate = View.sample, rollouts._Sampler.iterate

    def counted_sample(self: View, rng: random.Random) -> State:
        _ITERATIONS[0] += 1
        return sample(self, rng)

    def counted_iterate(self: Any, count: int) -> None:
        _ITERATIONS[0] += count
        iterate(self, count)

    View.sample = counted_sample  # type: ignore[method-assign]
    rollouts._Sampler.iterate = counted_iterate  # type: ignore[method-assign]


class Timed:
    """A search agent, with the decisions it made and the seconds they took."""

    def __init__(self, agent: SearchAgent) -> None:
        self.agent, self.decisions, self.seconds = agent, 0, 0.0

    def __repr__(self) -> str:
        return repr(self.agent)

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        start = time.perf_counter()
        move = self.agent.choose(view, legal, rng)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return move


def strength(search: SearchAgent, games: int, seed: int) -> None:
    """One row: ``search`` against three HeuristicAgents, ``games`` one-round games."""
    if not _ITERATIONS[0]:
        _count_iterations()
    before = _ITERATIONS[0]
    timed = Timed(search)
    agents = [timed, HeuristicAgent(), HeuristicAgent(), HeuristicAgent()]
    start = time.perf_counter()
    result = simulate(Rules(match=Rounds(1)), agents, games=games, seed=seed)
    done = _ITERATIONS[0] - before
    a = result.agents[0]
    (lo, hi), (slo, shi) = a.win_ci, a.score_ci
    print(
        f"{search!r} vs 3 x HeuristicAgent, {games} one-round games: win rate "
        f"{a.win_rate:.1%} [{lo:.1%}, {hi:.1%}]; mean score {a.mean_score:.2f} "
        f"[{slo:.2f}, {shi:.2f}]; {done / max(timed.decisions, 1):.0f} iterations a decision, "
        f"{done / max(timed.seconds, 1e-9):.0f} a second; {time.perf_counter() - start:.0f} s",
        flush=True,
    )


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
    c = sub.add_parser("compare", help="today's default beside the strongest at 50 ms")
    c.add_argument("--games", type=int, default=800, help="one-round matches a row (800)")
    c.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.command == "rate":
        print(f"SearchAgent iterations/s, iterations={args.iterations}")
        print(f"{'position':10} {'moves':>5} {'rollout':8} {'python':>8} {'numba':>8} {'x':>6}")
        for name, s in positions():
            for rollout in ("greedy", "random", "heuristic"):
                got = [
                    rate(SearchAgent(iterations=args.iterations, rollout=rollout, backend=b), s, args.seconds)
                    for b in ("python", "numba")
                ]  # fmt: skip
                print(
                    f"{name:10} {len(s.legal_moves):5} {rollout:8} {got[0]:8.0f} {got[1]:8.0f} "
                    f"{got[1] / got[0]:6.1f}"
                )
        return 0
    if args.command == "compare":
        rows = [
            SearchAgent(backend="python"),  # today's default (32 iterations, greedy)
            SearchAgent(iterations=1_000_000, time_limit=0.05, rollout="heuristic", backend="numba"),
        ]  # fmt: skip
        for search in rows:
            strength(search, args.games, args.seed)
        return 0
    search = SearchAgent(
        iterations=args.iterations,
        time_limit=args.time_limit or None,
        rollout=args.rollout,
        backend=args.backend,
        objective=args.objective,
    )
    strength(search, args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
