"""Agents named in text, and what such text may make run (docs: Agents, "Agent specs").

An agent spec names an agent: ``--bots`` of ``chickenfoot play``, ``--agents`` of
``chickenfoot simulate``, the agent of ``chickenfoot engine``, the bots of a saved game,
the bot seats of ``chickenfoot serve``. Every one of them is read here, in two steps.
:func:`parse_spec` checks the text and says which form it is, running and importing
nothing; :meth:`AgentSpec.build` then makes the agent, if the :class:`Trust` it is given
allows it. The forms, tried in this order:

- a built-in name: ``random``, ``greedy``, ``heuristic``, ``search``, ``ismcts`` (any case);
- a level, ``level:N`` or ``level:NAME`` (``level:1`` to ``level:5``, ``level:beginner``
  to ``level:expert``: :mod:`chickenfoot.levels`);
- a built-in name with an argument, ``NAME:ARG``, for the names of ``_WITH_ARGUMENT``
  (``specs._spec``): ``search:N``, a search of ``N`` iterations per decision, ``ismcts:N``
  the same for the information-set search (:class:`~chickenfoot.ismcts.ISMCTSAgent`),
  ``search:Nms`` and ``ismcts:Nms``, ``N`` milliseconds a decision (with heuristic rollouts). A new form
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
chickenfoot.specs.UntrustedSpecError: agent "engine:sh -c 'rm -rf ~'" was read from a file or the network, which may name built-in agents only (random, greedy, heuristic, search, ismcts, level:N, search:N, ismcts:N, search:Nms, ismcts:Nms): it runs the program "sh -c 'rm -rf ~'"
>>> parse_spec("search:Bot")
Traceback (most recent call last):
...
chickenfoot.specs.SpecError: agent 'search:Bot': search:N takes N from 1 to 100,000 (iterations per decision; search:Nms: N milliseconds a decision)
"""

from chickenfoot.specs._build import Kind as Kind  # AgentSpec.kind's type, for get_type_hints
from chickenfoot.specs._errors import SpecError, UntrustedSpecError, said
from chickenfoot.specs._spec import (
    AGENT_NAMES,
    MAX_COMMAND,
    MAX_ITERATIONS,
    MAX_SPEC,
    AgentSpec,
    Trust,
    agent_of,
    agents_of,
    parse_spec,
    rules_refusal,
    split_specs,
)
from chickenfoot.specs._spec import EXPECTED as EXPECTED  # public before the package, kept
from chickenfoot.specs._spec import MAX_MS as MAX_MS

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
    "rules_refusal",
    "said",
    "split_specs",
]

# Their public home, for tracebacks, pickles and the docs.
SpecError.__module__ = UntrustedSpecError.__module__ = __name__
AgentSpec.__module__ = Trust.__module__ = __name__
