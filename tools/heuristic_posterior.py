"""How much the history says about the hands when the others are known to be heuristics.

    python tools/heuristic_posterior.py DATA --views 40 --samples 500 --sharpness 10

A bound for :mod:`chickenfoot.belief`, not a player: on the first ``--views`` held-out
mid-round views of ``DATA`` (as ``tools/train_belief.py`` takes them: rounds numbered 4 mod
5, every third decision, moves 24 to 35), it deals ``--samples`` whole hidden histories
consistent with the view (``View.sample_record``), replays each and counts the others'
plays that ``HeuristicAgent`` would not have made with the sampled hands, weights each
history by ``exp(-sharpness * mistakes)``, and prints the mean probability the weighted
samples give the true hand over the others' tiles (the "right hand" of docs/learned.md),
beside the unweighted samples'. The data set must be of heuristics (``--agents heuristic``),
the opponents the weighting assumes. Seconds a view: far from a 50 ms search.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
from train_belief import mid_views, rounds_of  # (tools/, beside this file)

from chickenfoot import Rules
from chickenfoot.agents import HeuristicAgent
from chickenfoot.moves import Play


def main(argv: list[str] | None = None) -> int:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("data", type=Path)
    a.add_argument("--views", type=int, default=40)
    a.add_argument("--samples", type=int, default=200)
    a.add_argument("--sharpness", type=float, default=10.0)
    args = a.parse_args(argv)
    rules = Rules.preset("house", players=4)
    rows = [r for r in rounds_of(args.data, "house", 4) if r[0] % 5 == 4]
    views = mid_views(rows, rules, 3)[: args.views]
    agent = HeuristicAgent()
    start = time.process_time()
    plain = weighted = tiles = 0.0
    for i, (v, truth) in enumerate(views):
        rng = random.Random(i)
        hands, mistakes = [], []
        for _ in range(args.samples):
            record = v.sample_record(rng)
            s, wrong = record.start, 0
            for move in record.moves:
                if s.turn != v.seat and isinstance(move, Play):
                    seen = s.view(s.turn)
                    wrong += agent.choose(seen, seen.legal_moves, None) != move
                s = s.apply(move)
            hands.append([{t.id for t in s.hands[r]} for r in range(v.players)])
            mistakes.append(wrong)
        m = np.array(mistakes, dtype=float)
        w = np.exp(-args.sharpness * (m - m.min()))
        w /= w.sum()
        for r in range(v.players):
            if r != v.seat:
                for t in truth.hands[r]:
                    there = np.array([t.id in h[r] for h in hands], dtype=float)
                    plain += there.mean()
                    weighted += float(w @ there)
                    tiles += 1
    print(
        f"{len(views)} held-out mid-round views x {args.samples} histories: the others' tiles "
        f"in the right hand: unweighted {plain / tiles:.1%}, weighted by the heuristic's "
        f"mistakes (sharpness {args.sharpness:g}) {weighted / tiles:.1%}; "
        f"{time.process_time() - start:.0f} CPU-s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
