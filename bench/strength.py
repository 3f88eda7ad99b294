"""How strong is one agent against copies of another? Duplicate deals, with intervals.

``versus A B``: agent ``A`` at one seat and ``B`` at every other, each deal played under
every rotation (``A`` takes every seat in turn on the same cards), one-round games of the
house rules. The unit of the 95% intervals is the deal (its rotations averaged): ``A``'s
win share (a round won alone counts 1, shared by ``k`` seats ``1/k``; ``1/P`` = no better
than the others) and its mean penalty. The games are those of ``chickenfoot ladder``
(:func:`chickenfoot.ladder.play_game`, the same seeds).

``speed A``: iterations a second of ``ISMCTSAgent`` (``python`` and ``numba``) on the
first, a middle and the last decision with a choice of a seeded round.

    nox -s strength                                      # ismcts:50ms vs heuristic, 4 seats
    python bench/strength.py versus ismcts:50ms heuristic --deals 2000 --workers 8
    python bench/strength.py versus search:50ms heuristic --deals 2000 --workers 8
    python bench/strength.py speed
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from chickenfoot import Rules, apply, deal
from chickenfoot.agents import Agent, HeuristicAgent
from chickenfoot.ismcts import ROOTS, ISMCTSAgent
from chickenfoot.ladder import Task, play_game
from chickenfoot.simulation import mean_interval
from chickenfoot.specs import Trust, agent_of


def one_deal(
    rules: Rules, agents: tuple[Agent, ...], seed: int, d: int
) -> tuple[float, float, float]:
    """Deal ``d`` under every rotation: A's win share, mean penalty, and the others' mean."""
    p = rules.players
    wins = pen = others = 0.0
    for r in range(p):
        seats = tuple(0 if s == r else 1 for s in range(p))
        g = play_game(rules, agents, "round", seed, Task(d, r, seats))
        if g.error is not None:
            raise SystemExit(f"deal {d}, seat {g.seat}: {g.error}")
        if r in g.winners:
            wins += 1 / len(g.winners)
        pen += g.penalties[r]
        others += (sum(g.penalties) - g.penalties[r]) / (p - 1)
    return wins / p, pen / p, others / p


def versus(args: argparse.Namespace) -> None:
    rules = Rules(players=args.players)
    agents = (agent_of(args.a, trust=Trust.user()), agent_of(args.b, trust=Trust.user()))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(one_deal, rules, agents, args.seed, d) for d in range(args.deals)]
        rows = [f.result() for f in futures]
    seconds = time.perf_counter() - start
    w, (wlo, whi) = mean_interval([x for x, _, _ in rows])
    wlo, whi = max(0.0, wlo), min(1.0, whi)  # (a normal interval over the deals, clipped)
    m, (mlo, mhi) = mean_interval([y for _, y, _ in rows])
    o, (olo, ohi) = mean_interval([z for _, _, z in rows])
    print(
        f"{args.a} vs {args.players - 1} x {args.b}, {args.players} seats, {args.deals} deals "
        f"x {args.players} rotations, seed {args.seed}: win share {w:.1%} [{wlo:.1%}, {whi:.1%}] "
        f"(even: {1 / args.players:.1%}); mean penalty {m:.1f} [{mlo:.1f}, {mhi:.1f}], the "
        f"others' {o:.1f} [{olo:.1f}, {ohi:.1f}]; {seconds:.0f} s on {args.workers} processes"
    )


def speed(args: argparse.Namespace) -> None:
    s = deal(Rules(), seed=7)
    rng = random.Random(1)
    h = HeuristicAgent()
    views = []
    while not s.is_over():
        legal = s.legal_moves
        v = s.view(s.turn)
        if len(legal) > 1:
            views.append((len(s.history), v, legal))
        s = apply(s, h.choose(v, legal, rng))
    picks = [views[0], views[len(views) // 2], views[-1]]
    for root in ROOTS:
        for backend, n in (("numba", args.iterations), ("python", max(1, args.iterations // 50))):
            agent = ISMCTSAgent(iterations=n, root=root, backend=backend)
            agent.choose(picks[0][1], picks[0][2], random.Random(0))  # compile / warm up
            for ply, v, legal in picks:
                began = time.perf_counter()
                agent.choose(v, legal, random.Random(0))
                done = n // len(legal) * len(legal) if root == "common" else n
                rate = done / (time.perf_counter() - began)
                print(
                    f"{root:>6}, {backend:>6}: move {ply:>3}, {len(legal):>2} legal moves: "
                    f"{rate:,.0f} it/s"
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    vs = commands.add_parser("versus", help="A against copies of B on duplicate deals")
    vs.add_argument("a", nargs="?", default="ismcts:50ms")
    vs.add_argument("b", nargs="?", default="heuristic")
    vs.add_argument("--players", type=int, default=4)
    vs.add_argument("--deals", type=int, default=100)
    vs.add_argument("--seed", type=int, default=2026)
    vs.add_argument("--workers", type=int, default=2)
    sp = commands.add_parser("speed", help="ISMCTSAgent's iterations a second")
    sp.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args(argv)
    versus(args) if args.command == "versus" else speed(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
