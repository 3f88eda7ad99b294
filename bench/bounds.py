"""How far can ``ISMCTSAgent`` go? What docs/strength.md's "How far from 50%" measures.

Each measures one of the things between the player and a perfect one, at 4 seats against
three ``HeuristicAgent``\\ s, house rules (``hands`` and ``model``: one-round games on
seed 2026's duplicate deals, the games of ``bench/strength.py versus``):

``hands``
    ``ismcts:50ms`` dealt the other seats' true hands (the boneyard's order still unknown,
    shuffled afresh for every deal): what knowing the hands is worth. An experiment, not a
    player: it swaps the compiled sampler's assignment problem (``chickenfoot._rollouts``
    reads it from ``chickenfoot.sampling.problem``) for one whose only assignment is the
    truth, so it needs numba, and it reaches into the package's internals on purpose.
``model``
    ``ismcts:50ms`` against three ``HeuristicAgent(hurt=0)``, which play exactly the policy
    of its rollouts: what a perfect model of the opponents is worth.
``regret``
    On the decisions of seeded rounds, the search at 12.5 to 200 ms against the same
    search at 60,000 iterations: the mean reward (the search's own estimate, at 60,000
    iterations) that each budget's choice gives up, and the heuristic's. How much more
    time would buy. It reads each move's mean from the compiled search (internal too).
``fit``
    What the others' plays say about their hands: on mid-round views, hidden histories
    sampled as ``View.sample_record`` deals them, by how many of the others' plays a
    ``HeuristicAgent`` would not have made with the hands they give (misfits; the true
    history has none), and the share of the others' tiles each puts in the right hand.

    python bench/bounds.py hands --deals 400 --workers 2
    python bench/bounds.py model --deals 400 --workers 2
    python bench/bounds.py regret --rounds 50 --workers 2
    python bench/bounds.py fit --rounds 24 --samples 1500 --workers 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from strength import one_deal  # (bench/, beside this file)

import chickenfoot._rollouts as rollouts_module
from chickenfoot import Record, Rules, apply, deal
from chickenfoot._slots import Problem
from chickenfoot.agents import Agent, HeuristicAgent, ask
from chickenfoot.ismcts import MAX_ITERATIONS, ISMCTSAgent, _Compiled, _key
from chickenfoot.ladder._play import deal_seed
from chickenfoot.moves import Move, Play
from chickenfoot.sampling import problem
from chickenfoot.simulation import mean_interval
from chickenfoot.state import State
from chickenfoot.view import View

_TRUTH: list[State] = []  # the state of the decision being searched (hands only)


def _true_problem(view: View) -> Problem:
    """The sampling problem of ``view`` whose one assignment is the true deal (when the
    state behind it is the one in ``_TRUTH``; any other view gets its real problem)."""
    if not _TRUTH or _TRUTH[0].view(view.seat) != view:
        return problem(view)
    s = _TRUTH[0]
    p = Problem()
    p.tiles, p.cap, p.owner, slot = [], [], [], []
    for seat in range(view.players):
        if seat != view.seat:
            held = [t for t in range(s._hands[seat].bit_length()) if s._hands[seat] >> t & 1]
            slot += [len(p.cap)] * len(held)
            p.tiles += held
            p.cap.append(len(held))
            p.owner.append(seat)
    p.bone_slot = len(p.cap)
    slot += [p.bone_slot] * len(s._bone)
    p.tiles += list(s._bone)
    p.cap.append(len(s._bone))
    p.owner.append(-1)
    p.feasible = [[g] for g in slot]
    p.base, p.force, p.played, p.drawn_slot = slot, [], set(), -1
    return p


def _hands_deal(rules: Rules, seed: int, d: int) -> tuple[float, float]:
    """Deal ``d`` under every rotation, the searcher dealt the true hands: its win share
    and mean penalty (the games of ``strength.one_deal``: same deal, same generators)."""
    rollouts_module.problem = _true_problem  # (in this worker process)
    agent: Agent = ISMCTSAgent(iterations=MAX_ITERATIONS, time_limit=0.05)
    other: Agent = HeuristicAgent()
    p = rules.players
    wins = pen = 0.0
    for r in range(p):
        rng = random.Random(f"ladder:{seed}:{d}:{r}")
        state = deal(rules, deal_seed(seed, d))
        while not state.is_over():
            _TRUTH[:] = [state]
            state = apply(state, ask(agent if state.turn == r else other, state, rng))
        _TRUTH.clear()
        pens = state.penalties()
        if pens[r] == min(pens):
            wins += 1 / pens.count(pens[r])
        pen += pens[r]
    return wins / p, pen / p


def _versus_deal(rules: Rules, seed: int, d: int) -> tuple[float, float]:
    agents = (ISMCTSAgent(iterations=MAX_ITERATIONS, time_limit=0.05), HeuristicAgent(hurt=0))
    w, pen, _ = one_deal(rules, agents, seed, d)
    return w, pen


def games(args: argparse.Namespace) -> None:
    rules = Rules(players=4)
    play = _hands_deal if args.command == "hands" else _versus_deal
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(play, [rules] * args.deals, [args.seed] * args.deals,
                             range(args.deals)))  # fmt: skip
    w, (lo, hi) = mean_interval([x for x, _ in rows])
    lo, hi = max(0.0, lo), min(1.0, hi)  # (a normal interval over the deals, clipped)
    m, (mlo, mhi) = mean_interval([y for _, y in rows])
    what = {"hands": "dealt the true hands", "model": "against HeuristicAgent(hurt=0)"}
    print(
        f"ismcts:50ms {what[args.command]}, {args.deals} deals x 4 rotations, seed "
        f"{args.seed}: win share {w:.1%} [{lo:.1%}, {hi:.1%}], mean penalty {m:.1f} "
        f"[{mlo:.1f}, {mhi:.1f}]; {time.perf_counter() - began:.0f} s"
    )


BUDGETS = (0.0125, 0.025, 0.05, 0.1, 0.2)


def _regret_round(d: int) -> list[dict[str, Any]]:
    """The searcher's decisions with a choice in round ``d`` (ISMCTSAgent(iterations=1500)
    at seat 0 against three heuristics): per move, the 60,000-iteration search's mean, and
    each budget's two choices."""
    s = deal(Rules(players=4), seed=10_000 + d)
    rng = random.Random(d)
    me, other = ISMCTSAgent(iterations=1500), HeuristicAgent()
    rows = []
    while not s.is_over():
        legal = s.legal_moves
        v = s.view(s.turn)
        if s.turn == 0 and len(legal) > 1:
            keys = [_key(m) for m in legal]
            truth = _Compiled(v, legal, me).search(random.Random(1), 60_000, None)
            if truth is not None:
                row: dict[str, Any] = {
                    "truth": [truth[k] for k in keys],
                    "heuristic": keys.index(_key(other.choose(v, legal, None))),
                }
                for budget in BUDGETS:
                    picks = []
                    for r in range(2):
                        c = _Compiled(v, legal, me)
                        deadline = time.perf_counter() + budget
                        means = c.search(random.Random(200 + r), MAX_ITERATIONS, deadline)
                        assert means is not None
                        picks.append(max(range(len(keys)), key=lambda i: means[keys[i]]))
                    row[str(budget)] = picks
                rows.append(row)
        s = apply(s, (me if s.turn == 0 else other).choose(v, legal, rng))
    return rows


def regret(args: argparse.Namespace) -> None:
    with ProcessPoolExecutor(args.workers) as pool:
        rows = [r for rs in pool.map(_regret_round, range(args.rounds)) for r in rs]
    print(f"{len(rows)} decisions of {args.rounds} rounds; reward given up against the "
          f"60,000-iteration search's best move (its own estimates):")  # fmt: skip
    heur = sum(max(r["truth"]) - r["truth"][r["heuristic"]] for r in rows) / len(rows)
    print(f"  the heuristic's move: {heur:.5f}")
    for budget in BUDGETS:
        lost = [max(r["truth"]) - r["truth"][i] for r in rows for i in r[str(budget)]]
        print(f"  {budget * 1000:6.1f} ms: {sum(lost) / len(lost):.5f}")


def _misfits(states: Sequence[State], moves: Sequence[Move], me: int) -> int:
    """The plays of seats other than ``me``, with another play open to them, that a
    ``HeuristicAgent`` would not have made in their place."""
    other = HeuristicAgent()
    bad = 0
    for s, m in zip(states, moves, strict=True):
        choice = s.turn != me and isinstance(m, Play)
        if choice and sum(isinstance(x, Play) for x in s.legal_moves) > 1:
            bad += other.choose(s.view(s.turn), s.legal_moves, None) != m
    return bad


def _fit_round(g: int, samples: int) -> tuple[int, list[tuple[int, float]]]:
    """Round ``g`` played to seat 0's turn after 24 + g % 12 moves (ISMCTSAgent(500) at
    seat 0, three heuristics); its view's hidden histories sampled ``samples`` times: each
    one's misfits and the share of the others' tiles it puts in the right hand, and the
    true history's misfits."""
    s = deal(Rules(players=4), seed=20_000 + g)
    rng = random.Random(g)
    me, other = ISMCTSAgent(iterations=500), HeuristicAgent()
    while not s.is_over() and (len(s.history) < 24 + g % 12 or s.turn != 0):
        s = apply(s, ask(me if s.turn == 0 else other, s, rng))
    if s.is_over():
        return 0, []
    v = s.view(0)
    truth = Record(deal(Rules(players=4), seed=20_000 + g), [e.move for e in s.history])
    true_misfits = _misfits(truth.states()[:-1], truth.moves, 0)
    held = sum(h.bit_count() for h in s._hands[1:])
    rows = []
    r = random.Random(g)
    for _ in range(samples):
        rec = v.sample_record(r)
        states = rec.states()
        right = sum(
            (a & b).bit_count() for a, b in zip(states[-1]._hands[1:], s._hands[1:], strict=True)
        )
        rows.append((_misfits(states[:-1], rec.moves, 0), right / held))
    return true_misfits, rows


def fit(args: argparse.Namespace) -> None:
    with ProcessPoolExecutor(args.workers) as pool:
        got = list(pool.map(_fit_round, range(args.rounds), [args.samples] * args.rounds))
    by: dict[int, list[float]] = {}
    for _, rows in got:
        for bad, right in rows:
            by.setdefault(min(bad, 12), []).append(right)
    views = sum(1 for _, rows in got if rows)
    print(f"{views} views; the true histories' misfits: "
          f"{sorted(m for m, rows in got if rows)}")  # fmt: skip
    print("misfits  samples  the others' tiles in the right hand (12: 12 or more)")
    for bad in sorted(by):
        print(f"{bad:7d} {len(by[bad]):8d}  {sum(by[bad]) / len(by[bad]):.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("hands", "dealt the true hands"), ("model", "a perfect model")):
        c = commands.add_parser(name, help=f"ismcts:50ms {text}, against three heuristics")
        c.add_argument("--deals", type=int, default=100)
        c.add_argument("--seed", type=int, default=2026)
        c.add_argument("--workers", type=int, default=2)
    c = commands.add_parser("fit", help="what the others' plays say about their hands")
    c.add_argument("--rounds", type=int, default=24)
    c.add_argument("--samples", type=int, default=1500)
    c.add_argument("--workers", type=int, default=2)
    c = commands.add_parser("regret", help="what each time budget gives up")
    c.add_argument("--rounds", type=int, default=50)
    c.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    {"regret": regret, "fit": fit}.get(args.command, games)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
