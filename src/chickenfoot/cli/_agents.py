"""Agents named on the command line: ``random``, ``greedy``, ``heuristic``, ``search[:N]``."""

from __future__ import annotations

from chickenfoot.agents import Agent, GreedyAgent, HeuristicAgent, RandomAgent, SearchAgent
from chickenfoot.cli._common import UsageError, ascii_number
from chickenfoot.errors import brief

AGENT_NAMES = ("random", "greedy", "heuristic", "search")
MAX_ITERATIONS = 100_000


def agent_of(spec: str) -> Agent:
    """The agent a name stands for; ``search:N`` is a search of ``N`` iterations.

    >>> agent_of("search:8")
    SearchAgent(iterations=8, time_limit=None, rollout='greedy')
    >>> agent_of("Greedy")
    GreedyAgent()
    """
    name, _, arg = spec.strip().lower().partition(":")
    if name == "search":
        iterations = 32
        if arg:
            n = ascii_number(arg, 6)
            if n is None or not 1 <= n <= MAX_ITERATIONS:
                raise UsageError(
                    f"agent {brief(spec)}: search:N takes N from 1 to {MAX_ITERATIONS:,} "
                    "(iterations per decision)"
                )
            iterations = n
        return SearchAgent(iterations=iterations)
    agents: dict[str, Agent] = {
        "random": RandomAgent(),
        "greedy": GreedyAgent(),
        "heuristic": HeuristicAgent(),
    }
    if name in agents and not arg:
        return agents[name]
    raise UsageError(
        f"unknown agent {brief(spec)}: expected one of {', '.join(AGENT_NAMES)} "
        "(or search:N for N iterations)"
    )


def agents_of(text: str, count: int, what: str) -> list[tuple[str, Agent]]:
    """``count`` agents from a comma-separated list (one name: the same for all)."""
    names = [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise UsageError(
            f"{what} names {len(names)} agents, but {count} are needed (or give one name for all)"
        )
    return [(n.lower(), agent_of(n)) for n in names]
