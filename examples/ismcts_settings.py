"""``ISMCTSAgent`` at 50 ms a decision under other settings, as ladder players.

The Strength page compares the rewards of :class:`~chickenfoot.ISMCTSAgent` on one table;
these classes are those players, named by spec from the project's root::

    chickenfoot ladder --agents ismcts:50ms,examples.ismcts_settings:Each,examples.ismcts_settings:Mean,heuristic \\
        --players 4 --deals 100

``ismcts:50ms`` is ``ISMCTSAgent(time_limit=0.05)``: rewards against the best of the others
at up to four seats, and the share of the others beaten from five (``against="auto"``).
"""

from __future__ import annotations

import random

from chickenfoot import ISMCTSAgent, LegalMoves, Move, View

_MOST = 1_000_000  # iterations: the time bounds them


class Each:
    """``ISMCTSAgent(time_limit=0.05, against="each")``: rewards the share of seats beaten."""

    def __init__(self) -> None:
        self.agent = ISMCTSAgent(iterations=_MOST, time_limit=0.05, against="each")

    def choose(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """The search's move."""
        return self.agent.choose(view, legal, rng)


class Mean(Each):
    """``ISMCTSAgent(time_limit=0.05, against="mean")``: rewards against the others' mean."""

    def __init__(self) -> None:
        self.agent = ISMCTSAgent(iterations=_MOST, time_limit=0.05, against="mean")


class Best(Each):
    """``ISMCTSAgent(time_limit=0.05, against="best")``: winning the round, at any size."""

    def __init__(self) -> None:
        self.agent = ISMCTSAgent(iterations=_MOST, time_limit=0.05, against="best")


class Best10(Each):
    """``ISMCTSAgent(time_limit=0.05, against="best", scale=10)``: the margin weighs more."""

    def __init__(self) -> None:
        self.agent = ISMCTSAgent(iterations=_MOST, time_limit=0.05, against="best", scale=10)
