"""The bots a server offers, each with its declared bound (docs: Serve, "Bounded").

A server offers a bot only if :data:`BOUNDS` declares what one decision of it may take:
the iterations it searches (summed over a table's bots against ``Limits.search_budget``)
and whether it searches until a time limit is reached (then it gets the server's
``bot_delay``, the same time every searching bot gets, so when its move comes tells
nothing of its hand). A bot the library gains later is refused by every server until it
is declared here: :func:`bound_of` is ``None`` for it.

>>> from chickenfoot.specs import parse_spec
>>> bound_of(parse_spec("ismcts:300")).iterations(parse_spec("ismcts:300"))
300
>>> bound_of(parse_spec("ismcts")).iterations(parse_spec("ismcts")), bound_of(parse_spec("mybot:Bot"))
(1000, None)
>>> expert = parse_spec("level:expert")
>>> bound_of(expert).iterations(expert), bound_of(parse_spec("level:1")).searches
(300, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import attrs

from chickenfoot.agents import Agent
from chickenfoot.levels import LEVELS, BlunderingAgent
from chickenfoot.specs import AgentSpec

__all__ = ["BOUNDS", "Bound", "bound_of", "bounded"]


@dataclass(frozen=True)
class Bound:
    """What one decision of a bot may take: ``default`` iterations when its spec names none
    (``search``), the spec's own number otherwise (``search:N``); ``searches``: it thinks
    until a time limit (given the server's ``bot_delay``)."""

    default: int = 0
    searches: bool = False

    def iterations(self, spec: AgentSpec) -> int:
        """The iterations a decision of ``spec`` may search."""
        if not self.searches:
            return 0
        if spec.kind in ("search", "ismcts") and isinstance(spec.value, int):
            return spec.value
        return self.default  # search, ismcts, level:N (whose N is no count)


BOUNDS: Final[Mapping[str, Bound]] = {
    "random": Bound(),
    "greedy": Bound(),
    "heuristic": Bound(),
    "search": Bound(32, searches=True),  # SearchAgent(iterations=32), as specs builds it
    "ismcts": Bound(1000, searches=True),  # ISMCTSAgent()'s default
    "engine": Bound(),  # paced by its own time_ms (the engine protocol bounds it)
    "policy": Bound(),  # one pass of its network a decision (offered by name: --policy)
    # each level by its spec, level:N: its player's iterations (chickenfoot.levels)
    **{level.spec: Bound(level.iterations, searches=level.iterations > 0) for level in LEVELS},
}
"""The bots a server offers, by name (``search``, ``search:N``: ``search``; an engine:
``engine``; a level: ``level:N``), and each one's bound; no other bot is offered."""


def bound_of(spec: AgentSpec, bounds: Mapping[str, Bound] = BOUNDS) -> Bound | None:
    """The declared bound of a bot, ``None`` if the server does not offer it (a
    ``module:Class``, a timed search, or a kind not declared). A ``policy:NAME`` is one
    the server was started with (``--policy``): :func:`~chickenfoot.server._requests.check_bot_spec`
    refuses any other."""
    if spec.kind == "builtin":
        return bounds.get(str(spec.value))
    if spec.kind in ("search", "ismcts", "engine", "policy"):
        return bounds.get(spec.kind)
    if spec.kind == "level":
        return bounds.get(spec.name)
    return None


def bounded(agent: Agent, spec: AgentSpec, time_limit: float) -> Agent:
    """``agent`` (built from ``spec``) within its bound: a searching bot thinks for
    ``time_limit`` seconds at most (when above 0). Raises ``ValueError`` for a bot with no
    declared bound (a table stored by another version)."""
    bound = bound_of(spec)
    if bound is None:
        raise ValueError(f"the bot {spec.name!r} is not offered by this server")
    if bound.searches and time_limit > 0:
        if isinstance(agent, BlunderingAgent):  # a level: its player searches
            return attrs.evolve(agent, player=bounded(agent.player, spec, time_limit))
        return attrs.evolve(agent, time_limit=time_limit)  # type: ignore[misc]
    return agent
