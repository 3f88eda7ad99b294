"""Levels: named players from the first-time player to the strongest we have (docs: Agents,
"Levels"; their calibration: Strength, "Levels").

A level is an agent spec, ``level:N`` or ``level:NAME`` (:data:`LEVELS` lists them), read
wherever agents are named: ``chickenfoot play --bots level:2``, the bots of ``chickenfoot
serve``, the Play page, ``chickenfoot ladder --agents``. Each level is a built-in player,
some of them with blunders mixed in (:class:`BlunderingAgent`: a share of its decisions
played at random), so that the levels are spaced by measure, not by guess: on the ladder at
four seats on duplicate deals each level rates above the one below it.

Every level is fixed by iterations, never by a clock: it plays the same on a busy machine
as on an idle one, a seed reproduces its games, and a server bounds its work.

>>> [level.name for level in LEVELS]
['beginner', 'novice', 'intermediate', 'advanced', 'expert']
>>> level_named("Novice").number, LEVELS[4].agent()
(2, SearchAgent(iterations=300, time_limit=None, rollout='heuristic', backend='auto', objective='margin'))
"""

from __future__ import annotations

import random
from typing import Final

import attrs

from chickenfoot import _checks as checks
from chickenfoot.agents import Agent, HeuristicAgent, RandomAgent, SearchAgent
from chickenfoot.errors import AgentError, brief
from chickenfoot.moves import Move
from chickenfoot.state import LegalMoves
from chickenfoot.view import View

__all__ = ["CHOICES", "LEVELS", "BlunderingAgent", "Level", "level_named"]


def _blunders(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    checks.real(value, "blunders", low=0, high=1, error=AgentError)


def _player(instance: object, attribute: attrs.Attribute[Agent], value: object) -> None:
    if not callable(getattr(value, "choose", None)):
        raise AgentError(
            f"player must be an agent (with a choose method), not {type(value).__name__}"
        )


@attrs.frozen(kw_only=True)
class BlunderingAgent:
    """``player``, but for a share ``blunders`` (0 to 1) of its decisions, played uniformly
    at random among the legal moves: a strong player made weaker by a measured amount.

    A decision with one legal move is not a decision: it draws nothing from ``rng``. Each
    other decision draws once to decide (a blunder when below ``blunders``), so a seed
    reproduces the game.

    >>> import random
    >>> from chickenfoot import GreedyAgent, Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> agent = BlunderingAgent(player=GreedyAgent(), blunders=0.5)
    >>> sorted({str(agent.choose(v, v.legal_moves, random.Random(s))) for s in range(8)})
    ['9-2@9-9', '9-7@9-9']
    >>> BlunderingAgent(player=GreedyAgent(), blunders=1.5)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: blunders=1.5 is invalid: must be a finite number from 0 to 1
    """

    player: Agent = attrs.field(validator=_player)
    blunders: float = attrs.field(validator=_blunders)

    def choose(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """A random legal move for a blunder, ``player``'s choice otherwise."""
        checks.random_generator(rng)
        if len(legal) > 1 and rng.random() < self.blunders:
            return rng.choice(legal)
        return self.player.choose(view, legal, rng)


@attrs.frozen(kw_only=True)
class Level:
    """One level: its ``number`` (1 the weakest), its ``name`` (``level:NAME``), the player
    (``player``, one of the built-in agents below) and the share of its decisions played at
    random (``blunders``); ``summary`` says in words how it plays.

    >>> LEVELS[0].spec, LEVELS[0].agent()
    ('level:1', RandomAgent())
    """

    number: int
    name: str
    player: Agent
    blunders: float
    summary: str

    @property
    def spec(self) -> str:
        """Its agent spec, ``level:N`` (the form the command line and the ladder name it by)."""
        return f"level:{self.number}"

    @property
    def iterations(self) -> int:
        """The search iterations one of its decisions may take (0: it does not search).

        >>> [level.iterations for level in LEVELS]
        [0, 0, 0, 0, 300]
        """
        return self.player.iterations if isinstance(self.player, SearchAgent) else 0

    def agent(self) -> Agent:
        """The agent that plays at this level."""
        if self.blunders:
            return BlunderingAgent(player=self.player, blunders=self.blunders)
        return self.player


LEVELS: Final[tuple[Level, ...]] = (
    Level(
        number=1,
        name="beginner",
        player=RandomAgent(),
        blunders=0.0,
        summary="plays any legal move, as someone who has just learnt the rules",
    ),
    Level(
        number=2,
        name="novice",
        player=HeuristicAgent(),
        blunders=0.7,
        summary="plays seven moves in ten at random and the other three as the advanced level "
        "would",
    ),
    Level(
        number=3,
        name="intermediate",
        player=HeuristicAgent(),
        blunders=0.4,
        summary="plays as the advanced level would but for two moves in five, played at random",
    ),
    Level(
        number=4,
        name="advanced",
        player=HeuristicAgent(),
        blunders=0.0,
        summary="sheds heavy tiles with judgement: it keeps tiles to follow, blocks the seats "
        "that lack a number and lays the doubles it can fill",
    ),
    Level(
        number=5,
        name="expert",
        player=SearchAgent(iterations=300, rollout="heuristic"),
        blunders=0.0,
        summary="tries each move on 300 deals of the unseen tiles, each round finished as the "
        "advanced level would play it, and plays the best: the strongest player we have",
    ),
)
"""The levels, weakest first: ``LEVELS[n - 1]`` is ``level:n``."""


def level_named(text: str) -> Level:
    """The level ``text`` names: its number (``"3"``) or its name (``"intermediate"``, any
    case). Raises :class:`~chickenfoot.errors.AgentError` naming the levels there are.

    >>> level_named("3").name
    'intermediate'
    >>> level_named("99")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: no level '99': the levels are 1 to 5 or beginner, novice, intermediate, advanced, expert
    """
    key = text.strip().lower() if isinstance(text, str) else ""
    for level in LEVELS:
        if key in (str(level.number), level.name):
            return level
    raise AgentError(f"no level {brief(text, 40)}: {CHOICES}")


CHOICES: Final = f"the levels are 1 to {len(LEVELS)} or {', '.join(level.name for level in LEVELS)}"
"""What a level may be, in words (for an error or a help text)."""
