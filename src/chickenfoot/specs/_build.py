"""The agent each form of a checked spec makes: one builder per ``kind`` of
:class:`~chickenfoot.specs.AgentSpec`, given its ``value`` (:data:`BUILDERS`).

Nothing here checks text or trust: :func:`~chickenfoot.specs.parse_spec` checked the value
and :meth:`~chickenfoot.specs.AgentSpec.build` asked the :class:`~chickenfoot.specs.Trust`
before any builder runs. Only these builders import a module or start a program.
"""

from __future__ import annotations

import importlib
import os
import shlex
import sys
from collections.abc import Callable
from typing import Literal, cast

from chickenfoot.agents import Agent, GreedyAgent, HeuristicAgent, RandomAgent, SearchAgent
from chickenfoot.errors import brief
from chickenfoot.ismcts import ISMCTSAgent
from chickenfoot.levels import LEVELS
from chickenfoot.specs._errors import SpecError, said

__all__ = ["BUILDERS", "Kind"]

Kind = Literal["builtin", "search", "ismcts", "level", "timed", "engine", "policy", "module"]
"""The forms of an agent spec (:attr:`AgentSpec.kind <chickenfoot.specs.AgentSpec.kind>`):
each has a builder here, and :class:`~chickenfoot.specs.AgentSpec`'s docstring says what
each one's ``value`` is."""

_UNBOUNDED = 1_000_000
"""The iterations of ``search:Nms`` and ``ismcts:Nms`` (both agents' most): the time bounds them."""


def _builtin(value: str | int) -> Agent:
    made: dict[str, Callable[[], Agent]] = {
        "random": RandomAgent,
        "greedy": GreedyAgent,
        "heuristic": HeuristicAgent,
        "search": lambda: SearchAgent(iterations=32),
        "ismcts": ISMCTSAgent,
    }
    return made[str(value)]()


def _search_agent(value: str | int) -> Agent:
    return SearchAgent(iterations=int(value))


def _ismcts_agent(value: str | int) -> Agent:
    return ISMCTSAgent(iterations=int(value))


def _level_agent(value: str | int) -> Agent:
    return LEVELS[int(value) - 1].agent()


def _timed_agent(value: str | int) -> Agent:
    name, _, ms = str(value).partition(":")
    seconds = int(ms) / 1000
    if name == "search":  # the strongest search at a time limit (docs: Agents)
        return SearchAgent(iterations=_UNBOUNDED, time_limit=seconds, rollout="heuristic")
    return ISMCTSAgent(iterations=_UNBOUNDED, time_limit=seconds)


def _import(spec: str, module: str) -> object:
    here = os.getcwd()
    if here not in sys.path:  # as `uvicorn app:app`: the working directory's modules first
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        missing = err.name or ""
        if missing and (module == missing or module.startswith(missing + ".")):
            raise SpecError(
                f"agent {brief(spec)}: no module named {missing!r} (looked in the working "
                f"directory {brief(here, 80)} and on Python's path)"
            ) from None
        raise SpecError(f"agent {brief(spec)}: importing {module} failed: {said(err)}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # SyntaxError, SystemExit, anything the module raised
        raise SpecError(f"agent {brief(spec)}: importing {module} raised {said(err)}") from None


def _agents_in(module: object) -> list[str]:
    """Up to five names in ``module`` that look like agent classes (they have ``choose``)."""
    found = []
    for name, value in sorted(vars(module).items()):
        if not name.startswith("_") and isinstance(value, type) and hasattr(value, "choose"):
            found.append(name)
    return found[:5]


def _module_agent(value: str | int) -> Agent:
    text = str(value)
    module_name, _, path = text.partition(":")
    target = _import(text, module_name)
    module = target
    for part in path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            some = _agents_in(module)
            hint = f" (it has {', '.join(some)})" if some else ""
            raise SpecError(
                f"agent {brief(text)}: the module {module_name} has no attribute {path!r}{hint}"
            ) from None
        except Exception as err:
            raise SpecError(f"agent {brief(text)}: reading {path} raised {said(err)}") from None
    if not callable(target):
        raise SpecError(
            f"agent {brief(text)}: {path} is {brief(target, 40)}, which cannot be called: give "
            "a class whose instances have a choose method"
        )
    try:
        agent = target()
    except KeyboardInterrupt:
        raise
    except BaseException as err:
        raise SpecError(
            f"agent {brief(text)}: {path}() raised {said(err)} (it is called with no arguments)"
        ) from None
    try:
        choose = getattr(agent, "choose", None)
    except Exception as err:
        raise SpecError(f"agent {brief(text)}: reading its choose raised {said(err)}") from None
    if not callable(choose):
        raise SpecError(
            f"agent {brief(text)}: {path}() made {_kind(agent)} without a callable choose "
            "method (an agent needs choose(view, legal, rng); docs: Agents)"
        )
    return cast(Agent, agent)


def _kind(value: object) -> str:
    name = type(value).__name__[:40]
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _engine_agent(value: str | int) -> Agent:
    from chickenfoot.engine import EngineAgent  # specs stand above the engine (docs: layers)

    return EngineAgent(shlex.split(str(value)))


def _policy_agent(value: str | int) -> Agent:
    try:
        from chickenfoot.policy import PolicyAgent
    except ImportError:  # numpy missing
        raise SpecError(
            f"agent {brief(f'policy:{value}')} needs numpy: pip install 'chickenfoot[batch]'"
        ) from None
    return PolicyAgent.load(str(value))


BUILDERS: dict[Kind, Callable[[str | int], Agent]] = {
    "builtin": _builtin,
    "policy": _policy_agent,
    "search": _search_agent,
    "ismcts": _ismcts_agent,
    "level": _level_agent,
    "timed": _timed_agent,
    "engine": _engine_agent,
    "module": _module_agent,
}
"""Each ``kind`` of :class:`~chickenfoot.specs.AgentSpec`: the agent its ``value`` makes."""
