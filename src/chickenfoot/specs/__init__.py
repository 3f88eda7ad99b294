"""Agents named in text, and what such text may make run (docs: Agents, "Agent specs")."""

from chickenfoot.specs._spec import (
    AGENT_NAMES,
    MAX_COMMAND,
    MAX_ITERATIONS,
    MAX_SPEC,
    AgentSpec,
    SpecError,
    Trust,
    UntrustedSpecError,
    agent_of,
    agents_of,
    parse_spec,
    said,
    split_specs,
)

__all__ = [
    "AGENT_NAMES",
    "MAX_COMMAND",
    "MAX_ITERATIONS",
    "MAX_SPEC",
    "AgentSpec",
    "SpecError",
    "Trust",
    "UntrustedSpecError",
    "agent_of",
    "agents_of",
    "parse_spec",
    "said",
    "split_specs",
]
