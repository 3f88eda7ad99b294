"""Agent specs checked, and the trust that decides what they may run: :func:`parse_spec`,
:class:`AgentSpec`, :class:`Trust` (the forms and the decision: :mod:`chickenfoot.specs`).

Checking runs and imports nothing; :meth:`AgentSpec.build` asks the trust, then hands the
checked value to its kind's builder (``_build``).
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, get_args

import attrs

from chickenfoot.agents import Agent
from chickenfoot.errors import AgentError, ArgumentError, brief
from chickenfoot.levels import LEVELS, level_named
from chickenfoot.rules import Rules
from chickenfoot.specs._build import BUILDERS, Kind
from chickenfoot.specs._errors import SpecError, UntrustedSpecError

__all__ = [
    "AGENT_NAMES",
    "EXPECTED",
    "MAX_COMMAND",
    "MAX_ITERATIONS",
    "MAX_MS",
    "MAX_SPEC",
    "AgentSpec",
    "Trust",
    "agent_of",
    "agents_of",
    "parse_spec",
    "split_specs",
]


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
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = re.compile(rf"{_NAME}(\.{_NAME})*")
_ITERATIONS = re.compile(r"[0-9]{1,6}")
_LEVELS = f"1 to {len(LEVELS)} or {', '.join(level.name for level in LEVELS)}"
EXPECTED = (
    f"expected one of {', '.join(AGENT_NAMES)}, level:N or level:NAME (a level, {_LEVELS}), "
    "search:N or ismcts:N (N iterations), "
    "search:Nms or ismcts:Nms (N milliseconds a decision), engine:COMMAND "
    "(a program speaking the engine protocol), policy:PATH (a trained policy file), or "
    "module:Class (an agent class of yours, importable from the working directory)"
)
_BUILT_IN = f"{', '.join(AGENT_NAMES)}, level:N, search:N, ismcts:N, search:Nms, ismcts:Nms"


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


def _known(spec: AgentSpec, attribute: attrs.Attribute[Any], kind: object) -> None:
    if kind not in _KINDS:
        raise SpecError(
            f"an agent spec of kind {brief(kind, 40)}, which is none of {', '.join(_KINDS)} "
            "(make one with parse_spec)"
        )


_KINDS: tuple[str, ...] = get_args(Kind)


@attrs.frozen
class AgentSpec:
    """An agent spec, checked but not built.

    ``name`` is how the command line names it (``search:16``, ``mybot:Bot``: built-in
    names in lower case, a module spec as given), ``kind`` its form and ``value`` what the
    form needs to build it:

    - ``builtin``: ``random``, ``greedy``, ``heuristic``, ``search``, ``ismcts``; ``value``
      the name;
    - ``search``: ``search:N``, ``value`` the iterations ``N`` (an ``int``);
    - ``ismcts``: ``ismcts:N``, the same for the information-set search;
    - ``level``: ``level:N`` or ``level:NAME`` (:mod:`chickenfoot.levels`), ``value`` the
      level's number ``N`` (an ``int``; ``name`` is always ``level:N``);
    - ``timed``: ``search:Nms`` and ``ismcts:Nms``, ``value`` ``"search:N"`` or
      ``"ismcts:N"``, ``N`` the milliseconds a decision;
    - ``engine``: ``engine:COMMAND``, ``value`` the command (runs a program);
    - ``policy``: ``policy:PATH``, ``value`` the path of the policy file (reads it);
    - ``module``: ``module:Class``, ``value`` the spec as given (imports the module).

    Another kind is refused (:class:`SpecError`): make one with :func:`parse_spec`.

    >>> [parse_spec(s).kind for s in ("greedy", "ismcts:8", "search:20ms", "policy:p.npz")]
    ['builtin', 'ismcts', 'timed', 'policy']
    """

    name: str
    kind: Kind = attrs.field(validator=_known)
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
        return BUILDERS[trust.check(self).kind](self.value)


def _timed(spec: str, name: str, arg: str) -> AgentSpec:
    n = int(arg[:-2]) if _ITERATIONS.fullmatch(arg[:-2]) else 0
    if not 1 <= n <= MAX_MS:
        raise SpecError(
            f"agent {brief(spec)}: {name}:Nms takes N from 1 to {MAX_MS:,} "
            "(milliseconds a decision)"
        )
    return AgentSpec(f"{name}:{n}ms", "timed", f"{name}:{n}")


def _iterations(spec: str, arg: str, *, name: Literal["search", "ismcts"]) -> AgentSpec:
    if arg.lower().endswith("ms"):
        return _timed(spec, name, arg.lower())
    n = int(arg) if _ITERATIONS.fullmatch(arg) else 0
    if not 1 <= n <= MAX_ITERATIONS:
        raise SpecError(
            f"agent {brief(spec)}: {name}:N takes N from 1 to {MAX_ITERATIONS:,} "
            f"(iterations per decision; {name}:Nms: N milliseconds a decision)"
        )
    return AgentSpec(f"{name}:{n}", name, n)


def _level(spec: str, arg: str) -> AgentSpec:
    try:
        level = level_named(arg)
    except AgentError:
        raise SpecError(f"agent {brief(spec)}: level:N takes a level, {_LEVELS}") from None
    return AgentSpec(level.spec, "level", level.number)


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
    "level": _level,
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
    chickenfoot.specs.SpecError: unknown agent 'smart': expected one of random, greedy, heuristic, search, ismcts, level:N or level:NAME (a level, 1 to 5 or beginner, novice, intermediate, advanced, expert), search:N or ismcts:N (N iterations), search:Nms or ismcts:Nms (N milliseconds a decision), engine:COMMAND (a program speaking the engine protocol), policy:PATH (a trained policy file), or module:Class (an agent class of yours, importable from the working directory)
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
    if key == "level":
        raise SpecError(f"agent {brief(spec)}: level:N takes a level, {_LEVELS}")
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


def agent_of(spec: str, *, trust: Trust) -> Agent:
    """The agent a spec stands for, if ``trust`` allows it; ``search:N`` is a search of
    ``N`` iterations.

    >>> agent_of("search:8", trust=Trust.data())
    SearchAgent(iterations=8, time_limit=None, rollout='greedy', backend='auto', objective='margin')
    >>> agent_of("Greedy", trust=Trust.user())
    GreedyAgent()
    """
    return parse_spec(spec).build(trust=trust)


def rules_refusal(named: Sequence[tuple[str, Agent]], rules: Rules) -> str | None:
    """Why an agent of ``named`` (each with its spec, as :func:`agents_of` gives them)
    cannot play rounds of ``rules``, or ``None``: for a game to say so before it starts. A
    ``policy:PATH`` plays the rules it was trained for only (docs: Gymnasium, a trained
    policy at the table); every other agent plays any rules.

    >>> from chickenfoot import Rules
    >>> rules_refusal(agents_of("heuristic,random", 2, "--bots", trust=Trust.user()), Rules())
    """
    for name, agent in named:
        if parse_spec(name).kind != "policy":
            continue
        from chickenfoot.policy import PolicyAgent  # numpy is there: the agent was built

        why = agent.unfit(rules) if isinstance(agent, PolicyAgent) else None
        if why is not None:
            return f"{brief(name, 120)}: {why}"
    return None


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
