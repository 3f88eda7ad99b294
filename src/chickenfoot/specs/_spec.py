"""Agents named in text, and what such text may make run (docs: Agents, "Agent specs").

An agent spec names an agent: ``--bots`` of ``chickenfoot play``, ``--agents`` of
``chickenfoot simulate``, the agent of ``chickenfoot engine``, the bots of a saved game,
the bot seats of ``chickenfoot serve``. Every one of them is read here, in two steps.
:func:`parse_spec` checks the text and says which form it is, running and importing
nothing; :meth:`AgentSpec.build` then makes the agent, if the :class:`Trust` it is given
allows it. The forms, tried in this order:

- a built-in name: ``random``, ``greedy``, ``heuristic``, ``search``, ``ismcts`` (any case);
- a built-in name with an argument, ``NAME:ARG``, for the names of :data:`_WITH_ARGUMENT`:
  ``search:N``, a search of ``N`` iterations per decision, ``ismcts:N`` the same for the
  information-set search (:class:`~chickenfoot.ismcts.ISMCTSAgent`), ``search:Nms`` and
  ``ismcts:Nms``, ``N`` milliseconds a decision (with heuristic rollouts). A new form
  with a prefix of its own is one more entry there, taken before the module form;
- ``engine:COMMAND``: a program speaking the engine protocol (docs: Engine protocol), run
  as :class:`~chickenfoot.engine.EngineAgent`; ``COMMAND`` is split into arguments as a
  shell would (:func:`shlex.split`), but no shell runs it;
- ``policy:PATH``: a trained policy file (:mod:`chickenfoot.policy`, read with numpy and
  ``allow_pickle=False``: nothing in it runs); a path is the user's to name, so a spec read
  from a file may not name one, as for the two forms below;
- ``module:Class``, like ``uvicorn app:app``: ``Class`` (a dotted attribute path) of the
  module ``module``, importable from the working directory, called with no arguments. The
  object must have a callable ``choose`` (the :class:`~chickenfoot.Agent` protocol).

Both ``search:16`` and ``mybot:Bot`` hold a colon: the text before it decides.

The last two forms run code: a program, or a module's import. Whether they may is one
decision, made here by the caller's :class:`Trust`: text the user typed themselves (a
command-line option, their own program) may run code, :meth:`Trust.user`; text read from
a file, a document or the network names built-in agents only, :meth:`Trust.data`, unless
the user said otherwise on the command line (``play --trust-bots``, ``serve --engine``).

>>> parse_spec("Search:8")
AgentSpec(name='search:8', kind='search', value=8)
>>> parse_spec("mybot:Bot")
AgentSpec(name='mybot:Bot', kind='module', value='mybot:Bot')
>>> parse_spec("engine:node examples/engine.js").runs_code
True
>>> parse_spec("engine:sh -c 'rm -rf ~'").build(trust=Trust.data())
Traceback (most recent call last):
...
chickenfoot.specs.UntrustedSpecError: agent "engine:sh -c 'rm -rf ~'" was read from a file or the network, which may name built-in agents only (random, greedy, heuristic, search, ismcts, search:N, ismcts:N, search:Nms, ismcts:Nms): it runs the program "sh -c 'rm -rf ~'"
>>> parse_spec("search:Bot")
Traceback (most recent call last):
...
chickenfoot.specs.SpecError: agent 'search:Bot': search:N takes N from 1 to 100,000 (iterations per decision; search:Nms: N milliseconds a decision)
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import shlex
import sys
from collections.abc import Callable, Iterable
from typing import cast

import attrs

from chickenfoot.agents import Agent, GreedyAgent, HeuristicAgent, RandomAgent, SearchAgent
from chickenfoot.errors import ArgumentError, ChickenFootError, brief
from chickenfoot.ismcts import ISMCTSAgent

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


class SpecError(ChickenFootError):
    """An agent spec that is not one: unknown, malformed, or naming something that cannot
    be imported or is not an agent. The command line reports it as any usage error."""


class UntrustedSpecError(SpecError):
    """A well-formed spec that would run code (``engine:COMMAND``, ``module:Class``) where
    the :class:`Trust` it was built with allows built-in agents only."""


AGENT_NAMES = ("random", "greedy", "heuristic", "search", "ismcts")
"""The built-in agents' names (``search`` and ``ismcts`` also take ``:N`` iterations and
``:Nms`` milliseconds a decision)."""
MAX_ITERATIONS = 100_000
"""The most iterations of ``search:N`` and ``ismcts:N``."""
MAX_MS = 60_000
"""The most milliseconds a decision of ``search:Nms`` and ``ismcts:Nms``."""
MAX_SPEC = 200
"""The longest agent spec read (in characters), but for ``engine:COMMAND``."""
MAX_COMMAND = 2000
"""The longest ``COMMAND`` of ``engine:COMMAND`` (in characters)."""
_MESSAGE = 200
"""How much of an exception's message an error line quotes."""
_UNBOUNDED = 1_000_000
"""The iterations of ``search:Nms`` and ``ismcts:Nms`` (both agents' most): the time bounds them."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = re.compile(rf"{_NAME}(\.{_NAME})*")
_ITERATIONS = re.compile(r"[0-9]{1,6}")
EXPECTED = (
    f"expected one of {', '.join(AGENT_NAMES)}, search:N or ismcts:N (N iterations), "
    "search:Nms or ismcts:Nms (N milliseconds a decision), engine:COMMAND "
    "(a program speaking the engine protocol), or module:Class (an agent class of yours, "
    "importable from the working directory)"
)
_BUILT_IN = f"{', '.join(AGENT_NAMES)}, search:N, ismcts:N, search:Nms, ismcts:Nms"


def _commands(commands: Iterable[str]) -> tuple[str, ...]:
    return tuple(commands)


@attrs.frozen(kw_only=True)
class Trust:
    """What an agent spec may make run: the one decision, wherever the spec came from.

    ``code``: any program (``engine:COMMAND``) and any module (``module:Class``) may run;
    the user said so, by typing the spec themselves. ``engines``: commands that may run even
    without ``code`` (``chickenfoot serve --engine COMMAND``: the operator named them).
    Built-in agents are always allowed. Make one with :meth:`user` or :meth:`data`.

    >>> Trust.user().allows(parse_spec("mybot:Bot"))
    True
    >>> data = Trust.data(engines=["node bot.js"])
    >>> [data.allows(parse_spec(s)) for s in ("greedy", "engine:node bot.js", "engine:sh", "m:B")]
    [True, True, False, False]
    """

    code: bool = False
    engines: tuple[str, ...] = attrs.field(default=(), converter=_commands)

    @classmethod
    def user(cls) -> Trust:
        """Specs the user typed (a command-line option, their own code): every form runs."""
        return cls(code=True)

    @classmethod
    def data(cls, *, engines: Iterable[str] = ()) -> Trust:
        """Specs read from a file, a document or the network: built-in agents, and the
        programs of ``engines`` (which the user named themselves), only."""
        return cls(engines=tuple(engines))

    def allows(self, spec: AgentSpec) -> bool:
        """Whether ``spec`` may be built under this trust (``policy:PATH``, which reads a
        file the spec names, only when the user typed it)."""
        if self.code or (not spec.runs_code and spec.kind != "policy"):
            return True
        return spec.kind == "engine" and spec.value in self.engines

    def check(self, spec: AgentSpec) -> AgentSpec:
        """``spec`` when allowed, else :class:`UntrustedSpecError` saying what it would run."""
        if self.allows(spec):
            return spec
        raise UntrustedSpecError(
            f"agent {brief(spec.name)} was read from a file or the network, which may name "
            f"built-in agents only ({_BUILT_IN}): it {spec.runs()}"
        )


@attrs.frozen
class AgentSpec:
    """An agent spec, checked but not built.

    ``name`` is how the command line names it (``search:16``, ``mybot:Bot``: built-in
    names in lower case, a module spec as given), ``kind`` its form (``builtin``,
    ``search``, ``engine``, ``module``) and ``value`` what the form needs to build it.
    """

    name: str
    kind: str
    value: str | int

    @property
    def runs_code(self) -> bool:
        """Whether building it runs code that is not the library's: a program or a module.

        >>> parse_spec("search:64").runs_code, parse_spec("bots.mine:Bot").runs_code
        (False, True)
        """
        return self.kind in ("engine", "module")

    def runs(self) -> str:
        """What building it would run, in words (for a question or a refusal).

        >>> parse_spec("engine:python bot.py").runs(), parse_spec("bots.mine:Bot").runs()
        ("runs the program 'python bot.py'", 'imports the module bots.mine')
        """
        if self.kind == "engine":
            return f"runs the program {brief(str(self.value), 300)}"
        if self.kind == "module":
            return f"imports the module {str(self.value).partition(':')[0]}"
        if self.kind == "policy":
            return f"reads the policy file {brief(str(self.value), 300)}"
        return "runs nothing but the library"

    def build(self, *, trust: Trust) -> Agent:
        """The agent (for ``module:Class``: imported and constructed now), if ``trust``
        allows it; :class:`UntrustedSpecError` otherwise, before anything runs.

        >>> parse_spec("greedy").build(trust=Trust.data())
        GreedyAgent()
        """
        return _BUILDERS[trust.check(self).kind](self)


def _timed(spec: str, name: str, arg: str) -> AgentSpec:
    n = int(arg[:-2]) if _ITERATIONS.fullmatch(arg[:-2]) else 0
    if not 1 <= n <= MAX_MS:
        raise SpecError(
            f"agent {brief(spec)}: {name}:Nms takes N from 1 to {MAX_MS:,} "
            "(milliseconds a decision)"
        )
    return AgentSpec(f"{name}:{n}ms", "timed", f"{name}:{n}")


def _iterations(spec: str, arg: str, *, name: str) -> AgentSpec:
    if arg.lower().endswith("ms"):
        return _timed(spec, name, arg.lower())
    n = int(arg) if _ITERATIONS.fullmatch(arg) else 0
    if not 1 <= n <= MAX_ITERATIONS:
        raise SpecError(
            f"agent {brief(spec)}: {name}:N takes N from 1 to {MAX_ITERATIONS:,} "
            f"(iterations per decision; {name}:Nms: N milliseconds a decision)"
        )
    return AgentSpec(f"{name}:{n}", name, n)


def _engine(spec: str, arg: str) -> AgentSpec:
    command = arg.strip()
    if len(command) > MAX_COMMAND:
        raise SpecError(f"agent {brief(spec)}: too long (at most {MAX_COMMAND:,} characters)")
    try:
        argv = shlex.split(command)
    except ValueError as err:  # No closing quotation, No escaped character
        raise SpecError(f"agent {brief(spec)}: the command cannot be split: {err}") from None
    if not argv:
        raise SpecError(f"agent {brief(spec)}: engine:COMMAND needs a command to run")
    return AgentSpec(f"engine:{command}", "engine", command)


def _policy(spec: str, arg: str) -> AgentSpec:
    path = arg.strip()
    if not path or len(path) > MAX_COMMAND or "\x00" in path:
        raise SpecError(f"agent {brief(spec)}: policy:PATH needs the path of a policy file")
    return AgentSpec(f"policy:{path}", "policy", path)


_WITH_ARGUMENT: dict[str, Callable[[str, str], AgentSpec]] = {
    "search": functools.partial(_iterations, name="search"),
    "ismcts": functools.partial(_iterations, name="ismcts"),
    "engine": _engine,
    "policy": _policy,
}
"""The forms ``NAME:ARG`` whose ``NAME`` is taken (a module of that name cannot be named)."""


def parse_spec(text: str) -> AgentSpec:
    """Check one agent spec (see the module's docstring for the forms); import nothing.

    Raises :class:`SpecError` saying what is expected.

    >>> parse_spec(" Greedy ")
    AgentSpec(name='greedy', kind='builtin', value='greedy')
    >>> parse_spec("smart")
    Traceback (most recent call last):
    ...
    chickenfoot.specs.SpecError: unknown agent 'smart': expected one of random, greedy, heuristic, search, ismcts, search:N or ismcts:N (N iterations), search:Nms or ismcts:Nms (N milliseconds a decision), engine:COMMAND (a program speaking the engine protocol), or module:Class (an agent class of yours, importable from the working directory)
    """
    if not isinstance(text, str):
        raise ArgumentError(f"an agent spec is a string such as 'heuristic', not {brief(text)}")
    spec = text.strip()
    head, colon, arg = spec.partition(":")
    key = head.lower()
    if not colon and key in AGENT_NAMES:
        return AgentSpec(key, "builtin", key)
    if colon and key in _WITH_ARGUMENT:
        return _WITH_ARGUMENT[key](spec, arg)
    if colon and key in AGENT_NAMES:
        raise SpecError(f"unknown agent {brief(spec)}: {key} takes no argument ({EXPECTED})")
    if len(spec) > MAX_SPEC:
        raise SpecError(f"agent {brief(spec)}: too long (at most {MAX_SPEC} characters)")
    if colon and _DOTTED.fullmatch(head) and _DOTTED.fullmatch(arg):
        return AgentSpec(spec, "module", spec)
    if colon and head and arg:
        raise SpecError(
            f"agent {brief(spec)}: module:Class takes a module name and an attribute, "
            "each made of Python names (e.g. mybot:Bot, bots.simple:Greedy)"
        )
    raise SpecError(f"unknown agent {brief(spec)}: {EXPECTED}")


def _builtin(spec: AgentSpec) -> Agent:
    made: dict[str, Callable[[], Agent]] = {
        "random": RandomAgent,
        "greedy": GreedyAgent,
        "heuristic": HeuristicAgent,
        "search": lambda: SearchAgent(iterations=32),
        "ismcts": ISMCTSAgent,
    }
    return made[str(spec.value)]()


def _search_agent(spec: AgentSpec) -> Agent:
    return SearchAgent(iterations=int(spec.value))


def _ismcts_agent(spec: AgentSpec) -> Agent:
    return ISMCTSAgent(iterations=int(spec.value))


def _timed_agent(spec: AgentSpec) -> Agent:
    name, _, ms = str(spec.value).partition(":")
    seconds = int(ms) / 1000
    if name == "search":  # the strongest search at a time limit (docs: Agents)
        return SearchAgent(iterations=_UNBOUNDED, time_limit=seconds, rollout="heuristic")
    return ISMCTSAgent(iterations=_UNBOUNDED, time_limit=seconds)


def said(err: BaseException) -> str:
    """``Type: message`` of an exception, bounded, on one line.

    >>> said(ValueError("no  good")), said(KeyError())
    ('ValueError: no good', 'KeyError')
    """
    try:
        text = " ".join(str(err).split())
    except Exception:  # a hostile __str__
        text = ""
    if len(text) > _MESSAGE:
        text = f"{text[:_MESSAGE]}... ({len(text):,} characters)"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


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


def _module_agent(spec: AgentSpec) -> Agent:
    text = str(spec.value)
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


def _engine_agent(spec: AgentSpec) -> Agent:
    from chickenfoot.engine import EngineAgent  # specs stand above the engine (docs: layers)

    return EngineAgent(shlex.split(str(spec.value)))


def _policy_agent(spec: AgentSpec) -> Agent:
    try:
        from chickenfoot.policy import PolicyAgent
    except ImportError:  # numpy missing
        raise SpecError(
            f"agent {brief(spec.name)} needs numpy: pip install 'chickenfoot[batch]'"
        ) from None
    return PolicyAgent.load(str(spec.value))


_BUILDERS: dict[str, Callable[[AgentSpec], Agent]] = {
    "builtin": _builtin,
    "policy": _policy_agent,
    "search": _search_agent,
    "ismcts": _ismcts_agent,
    "timed": _timed_agent,
    "engine": _engine_agent,
    "module": _module_agent,
}


def agent_of(spec: str, *, trust: Trust) -> Agent:
    """The agent a spec stands for, if ``trust`` allows it; ``search:N`` is a search of
    ``N`` iterations.

    >>> agent_of("search:8", trust=Trust.data())
    SearchAgent(iterations=8, time_limit=None, rollout='greedy', backend='auto', objective='margin')
    >>> agent_of("Greedy", trust=Trust.user())
    GreedyAgent()
    """
    return parse_spec(spec).build(trust=trust)


def split_specs(text: str) -> list[str]:
    """The specs of a comma-separated list; a comma inside quotes (``'...'`` or ``"..."``,
    as in the command of ``engine:COMMAND``) does not separate.

    >>> split_specs("random, search:16,mybot:Bot")
    ['random', 'search:16', 'mybot:Bot']
    >>> split_specs("engine:'./bot --x=1,2',random")
    ["engine:'./bot --x=1,2'", 'random']
    """
    parts, start, quote = [], 0, ""
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [n.strip() for n in parts]


def agents_of(text: str, count: int, what: str, *, trust: Trust) -> list[tuple[str, Agent]]:
    """``count`` agents from a comma-separated list (one name: the same for all, each seat
    with an agent of its own), each with its name as the command line gives it. Every spec
    is checked against ``trust`` before any agent is built.

    >>> [name for name, _ in agents_of("Search:4", 2, "--bots", trust=Trust.user())]
    ['search:4', 'search:4']
    """
    names = split_specs(text)
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise SpecError(
            f"{what} names {len(names)} agents, but {count} are needed (or give one name for all)"
        )
    specs = [trust.check(parse_spec(n)) for n in names]
    return [(s.name, s.build(trust=trust)) for s in specs]
