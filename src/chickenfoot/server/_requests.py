"""What a request to make a table may ask for: its rules, and its seats' names and bots.

The hub (:mod:`chickenfoot.server._hub`) makes a table from a request only through these:
:func:`rules_of` reads the rules, :func:`check_bot_spec` each bot (built-in agents, and
the engines the server was started with, by name: never a program or a module a page
names), :func:`distinct_names` the names the people will read, :func:`options_of` the
table's options (``hints``: off unless asked; :func:`hints_of` reads them back as stored,
trusting nothing). Each raises
:class:`~chickenfoot.server._table.RefusedError` saying what is wrong, and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.server._bots import BOUNDS, Bound, bound_of
from chickenfoot.server._table import RefusedError
from chickenfoot.specs import Trust, UntrustedSpecError, parse_spec

__all__ = [
    "BOT_NAMES",
    "MAX_NAME",
    "MAX_SEARCH",
    "check_bot_spec",
    "distinct_names",
    "hints_of",
    "options_of",
    "rules_of",
]

MAX_SEARCH: Final = 2000
"""The most iterations a ``search:N`` bot of the server may take per decision."""
MAX_NAME = 40
"""The longest name a request may give a seat (in characters)."""
BOT_NAMES: Final = (
    "Henny Penny", "Cocky Locky", "Ducky Lucky", "Goosey Loosey",
    "Turkey Lurkey", "Foxy Loxy", "Chicken Licken", "Drakey Lakey",
)  # fmt: skip
"""The names of the bots that are not given one (the folk tale's birds), so that two
bots of the same kind can be told apart."""


def distinct_names(names: Sequence[str | None], bots: Sequence[bool]) -> list[str]:
    """Each seat's name: the given one, else a bot's name or ``Player N`` (N from 1); a
    name already taken gets a number (``Ann 2``).

    >>> distinct_names(["Ann", None, None, "Ann", None], [False, True, True, False, False])
    ['Ann', 'Henny Penny', 'Cocky Locky', 'Ann 2', 'Player 5']
    """
    out: list[str] = []
    birds = iter(BOT_NAMES)
    for i, (name, bot) in enumerate(zip(names, bots, strict=True)):
        base = (name or "").strip() or (next(birds, "") if bot else "") or f"Player {i + 1}"
        name_, k = base, 2
        while name_.casefold() in {n.casefold() for n in out}:
            name_, k = f"{base} {k}", k + 1
        out.append(name_)
    return out


def check_bot_spec(
    spec: object,
    engines: Sequence[str],
    *,
    policies: Sequence[str] = (),
    bounds: Mapping[str, Bound] = BOUNDS,
) -> str:
    """A bot spec the server accepts, normalized; :class:`RefusedError` otherwise. A bot
    is offered only with a declared bound (``bounds``: see :mod:`chickenfoot.server._bots`).

    >>> check_bot_spec("Greedy", []), check_bot_spec("search:8", [])
    ('greedy', 'search:8')
    >>> check_bot_spec("engine:node bot.js", [])
    Traceback (most recent call last):
    ...
    chickenfoot.server._table.RefusedError: engine 'node bot.js' is not one this server was started with (chickenfoot serve --engine NAME=COMMAND)
    """
    if not isinstance(spec, str) or len(spec) > 2000:
        raise RefusedError(f"a bot is named by a string, not {brief(spec)}")
    try:
        parsed = parse_spec(spec)
    except ChickenFootError as err:  # SpecError, or a wrong type
        raise RefusedError(str(err)) from None
    if parsed.kind in ("search", "ismcts") and int(parsed.value) > MAX_SEARCH:
        raise RefusedError(
            f"{parsed.kind}:N takes at most {MAX_SEARCH:,} iterations on this server"
        )
    if parsed.kind == "timed":  # search:Nms, ismcts:Nms: the server's --bot-delay is its time
        raise RefusedError(f"bot {brief(spec)}: a time a decision cannot be named from the web")
    if parsed.kind == "policy":  # by the name it was offered under, never a path
        if parsed.value not in policies:
            raise RefusedError(
                f"policy {brief(str(parsed.value))} is not one this server was started with "
                "(chickenfoot serve --policy NAME=FILE)"
            )
        return parsed.name
    try:
        Trust.data(engines=engines).check(parsed)
    except UntrustedSpecError:
        if parsed.kind == "engine":
            raise RefusedError(
                f"engine {brief(str(parsed.value))} is not one this server was started with "
                "(chickenfoot serve --engine NAME=COMMAND)"
            ) from None
        raise RefusedError(
            f"bot {brief(spec)}: module:Class bots cannot be named from the web"
        ) from None
    if bound_of(parsed, bounds) is None:
        raise RefusedError(f"bot {brief(spec)} is not offered by this server")
    return parsed.name


def rules_of(request: Mapping[str, Any]) -> Rules:
    """The rules a table request asks for: ``preset`` (default ``classic``), ``players``
    and any other rule fields (as in a ``chickenfoot/rules`` document) in ``rules``."""
    preset = request.get("preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:  # a dict is unhashable
        raise RefusedError(f"preset {brief(preset)} is not one of {', '.join(PRESETS)}")
    changes = request.get("rules", {})
    if not isinstance(changes, dict):
        raise RefusedError(f"rules must be an object of rule fields, not {brief(changes)}")
    plain = {k: v for k, v in changes.items() if k != "match" and isinstance(k, str)}
    try:
        rules = Rules.preset(str(preset), players=request.get("players", 4), **plain)
        if "match" in changes:  # a match document ({"rounds": 3}): read as the format reads it
            rules = Rules.from_dict({**rules.to_dict(), "match": changes["match"]})
        return rules
    except (ChickenFootError, TypeError) as err:
        raise RefusedError(str(err)) from None


def options_of(request: Mapping[str, Any]) -> str:
    """The table's options a request asks for, as stored (JSON): ``hints`` (``true``: a seat
    may ask for a hint at its turn; ``false``, the default).

    >>> options_of({}), options_of({"hints": True})
    ('{}', '{"hints": true}')
    >>> options_of({"hints": "yes"})
    Traceback (most recent call last):
    ...
    chickenfoot.server._table.RefusedError: hints must be true or false, not 'yes'
    """
    hints = request.get("hints", False)
    if type(hints) is not bool:
        raise RefusedError(f"hints must be true or false, not {brief(hints)}")
    return json.dumps({"hints": True}) if hints else "{}"


def hints_of(options: str) -> bool:
    """Whether the options stored (:func:`options_of`) turn hints on; anything else the
    column holds (a damaged or foreign value) turns them off.

    >>> hints_of('{"hints": true}'), hints_of("{}"), hints_of("[1"), hints_of('{"hints": 1}')
    (True, False, False, False)
    """
    try:
        read = json.loads(options)
    except (ValueError, TypeError, RecursionError):
        return False
    return isinstance(read, dict) and read.get("hints") is True
