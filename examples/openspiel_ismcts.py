"""OpenSpiel's IS-MCTS as a Chicken Foot agent: the outside anchor of the ladder.

``Anchor`` is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (UCT, random rollouts,
the most visited move) on this library's OpenSpiel game (``chickenfoot.openspiel``),
thinking 50 ms a decision as ``search:50ms`` and ``ismcts:50ms`` do. Each of its
simulations starts from a deal of the unseen tiles consistent with its view
(``view.sample``), so it sees nothing it may not. Its own generator is seeded from the
ladder's. Needs the ``openspiel`` extra; from the project's root::

    pip install 'chickenfoot[openspiel,ladder]'
    chickenfoot ladder --agents examples.openspiel_ismcts:Anchor,heuristic,greedy,random
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from chickenfoot import Move, View
from chickenfoot import openspiel as cfos
from chickenfoot.rules import Rules


class _TimedBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """ISMCTSBot whose search stops at a deadline (its run_search, with a clock)."""

    deadline = 0.0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        for _ in range(self._max_simulations):
            self.run_simulation(self.sample_root_state(state))
            # (the first simulation only expands the root: at least one more visits it)
            if time.perf_counter() > self.deadline and self._root_node.total_visits > 0:
                break
        return self.get_final_policy(state, self._root_node)


class Anchor:
    """OpenSpiel's IS-MCTS, ``time_limit`` seconds a decision (UCT constant ``uct_c``)."""

    def __init__(self, time_limit: float = 0.05, uct_c: float = 2.0) -> None:
        self.time_limit = time_limit
        self.uct_c = uct_c
        self._games: dict[Rules, Any] = {}

    def __repr__(self) -> str:
        return f"Anchor(time_limit={self.time_limit})"

    def choose(self, view: View, legal: Any, rng: random.Random) -> Move:
        game = self._games.get(view.rules)
        if game is None:
            game = self._games[view.rules] = cfos.load_game(view.rules)
        state = np.random.RandomState(rng.getrandbits(32))
        bot = _TimedBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=state),
            self.uct_c,
            max_simulations=1_000_000,
            random_state=state,
        )
        bot.set_resampler(lambda _state, _player: game.new_state_from(view.sample(rng)))
        root = game.new_state_from(view.sample(rng))
        bot.deadline = time.perf_counter() + self.time_limit
        action = bot.step(root)
        text = root.action_to_string(root.current_player(), action)
        for m in legal:
            if str(m) == text:
                return m  # type: ignore[no-any-return]
        raise ValueError(f"OpenSpiel chose {text}, not a legal move")
