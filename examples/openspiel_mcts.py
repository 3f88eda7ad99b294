"""OpenSpiel's MCTS bot plays a round of Chicken Foot against the library's agents.

The bot (``open_spiel.python.algorithms.mcts.MCTSBot`` with random rollouts) sits at
seat 0 and plays fair: at each of its turns it searches a state sampled from its own view
(``view.sample``, docs/hidden.md), so it never sees the other hands or the boneyard. The
other seats are the built-in ``GreedyAgent`` and ``RandomAgent``, which decide from their
views too. Needs the ``openspiel`` extra::

    pip install 'chickenfoot[openspiel]'
    python examples/openspiel_mcts.py --simulations 100 --seed 1
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from open_spiel.python.algorithms import mcts

import chickenfoot as cf
from chickenfoot import openspiel as cfos


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations a move")
    parser.add_argument("--seed", type=int, default=1, help="the deal and every random choice")
    args = parser.parse_args(argv)

    rules = cf.Rules(players=3, max_pip=6, hand_size=7, opening_toes=4)
    game = cfos.load_game(rules, utility="zero_sum")
    rng = random.Random(args.seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(args.seed)),
        random_state=np.random.RandomState(args.seed),
    )
    agents: dict[int, cf.Agent] = {1: cf.GreedyAgent(), 2: cf.RandomAgent()}
    names = {0: "MCTS", 1: "GreedyAgent", 2: "RandomAgent"}

    state = cf.deal(rules, seed=args.seed)
    enc = game.config.enc
    while not state.is_over():
        seat = state.turn
        view = state.view(seat)
        if seat == 0:
            # search a deal consistent with what seat 0 knows, and play the chosen move
            guess = game.new_state_from(view.sample(rng))
            move = enc.move(bot.step(guess))  # a draw takes the real boneyard's front tile
        else:
            move = agents[seat].choose(view, view.legal_moves, rng)
        state = cf.apply(state, move)

    print(f"{state.outcome()}; penalties by seat:")
    for seat, points in enumerate(state.penalties()):
        print(f"  seat {seat} ({names[seat]}): {points}")


if __name__ == "__main__":
    main()
