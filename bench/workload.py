"""Fixed workloads for instruction counting (``bench/instructions.sh``).

    python bench/workload.py api 200        # 200 random rounds through the public API
    python bench/workload.py playout 200    # the same through playout()
    python bench/workload.py reference 200  # the shared reference engine

Each first plays 200 untimed rounds (to warm the move memos), then the requested number, so
the difference between two counts divided by the number of rounds is the cost of one round.
"""

from __future__ import annotations

import random
import sys

from common import load_reference

import chickenfoot as cf
from chickenfoot.playout import playout


def main(argv: list[str]) -> None:
    mode, rounds = argv[0], int(argv[1])
    rng = random.Random(1)
    if mode == "reference":
        ref = load_reference(None)
        if ref is None:
            raise SystemExit("reference.py not found")
        for _ in range(200 + rounds):
            ref.play_round(rng)
        return
    rules = cf.Rules()
    legal_moves, apply, choice = cf.legal_moves, cf.apply, rng.choice

    def api(seed: int) -> None:
        s = cf.deal(rules, seed)
        while not s.is_over():
            s = apply(s, choice(legal_moves(s)))

    def fast(seed: int) -> None:
        playout(cf.deal(rules, seed), rng)

    one = {"api": api, "playout": fast}[mode]
    for seed in range(200 + rounds):
        one(seed)


if __name__ == "__main__":
    main(sys.argv[1:])
