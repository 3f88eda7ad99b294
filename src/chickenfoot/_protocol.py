"""The wire format of the engine protocol: the only module that knows it (private).

One message schema for everything that speaks it: the engine host and server
(:mod:`chickenfoot.engine`) and ``chickenfoot serve`` (:mod:`chickenfoot.server`), whose
WebSocket sends the same ``go`` and reads the same ``move``.

Messages are JSON objects, one per line, UTF-8 (docs: Engine protocol). This module builds
the messages each side sends and checks the ones it receives; a message that breaks the
protocol raises :class:`ProtocolError` with a short reason, which the host turns into an
:class:`~chickenfoot.AgentError` naming the engine and the seat.

>>> encode({"type": "quit"})
b'{"type":"quit"}\\n'
>>> decode(b'{"type": "move", "move": "9-2@9-9"}\\n')
{'type': 'move', 'move': '9-2@9-9'}
>>> decode(b"bestmove e2e4\\n")
Traceback (most recent call last):
...
chickenfoot._protocol.ProtocolError: sent a line that is not JSON: 'bestmove e2e4'
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from chickenfoot.errors import InvalidMoveError, brief
from chickenfoot.moves import Move, parse_move
from chickenfoot.view import View

__all__ = [
    "EXTENSIONS",
    "MAX_LINE",
    "MAX_OPTIONS",
    "OPTION_TYPES",
    "PROTOCOL",
    "Hello",
    "ProtocolError",
    "advertised_options",
    "check_option_values",
    "check_options_given",
    "decode",
    "encode",
    "engine_hello",
    "go",
    "host_hello",
    "parse_hello",
    "printable",
    "read_move",
    "read_rng",
    "rng_state",
]

PROTOCOL: Final = 1
"""The protocol version this library speaks."""

MAX_LINE: Final = 1 << 20
"""The longest line either side accepts, in bytes (1 MiB): a view document is a few kB."""

EXTENSIONS: Final = ("rng", "ping", "rounds")
"""The extensions of version 1 the host understands (an engine lists those it uses)."""

OPTION_TYPES: Final = ("int", "float", "bool", "string", "choice")
MAX_OPTIONS: Final = 64
_MAX_TEXT = 200  # the longest name, author or option name kept
_MT_WORDS = 625  # the words of a Mersenne Twister state (624 and the index)


class ProtocolError(Exception):
    """A message that breaks the protocol; the text says how (host side: one clause)."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as its line: compact JSON, UTF-8, ending in a newline."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def decode(line: bytes) -> dict[str, Any]:
    """The message of one line (without its limit check: the reader bounds lines).

    Raises :class:`ProtocolError` for text that is not UTF-8, not JSON, not an object or
    without a string ``type``.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(f"sent a line that is not UTF-8: {brief(line)}") from None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError, a 5,000-digit number, nesting
        raise ProtocolError(f"sent a line that is not JSON: {brief(text.strip())}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"sent {brief(message)}, which is not a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(f"sent an object without a string 'type': {brief(text.strip())}")
    return message


def printable(text: str) -> str:
    """``text`` with every character that is not printable (a terminal's escape sequences,
    control characters) as its ``\\x..`` escape: an engine's words reach error messages.

    >>> printable("ok\x1b[2J")
    'ok\\\\x1b[2J'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# -- hello --------------------------------------------------------------------------------


def host_hello() -> dict[str, Any]:
    """The host's first message.

    >>> host_hello()
    {'type': 'hello', 'protocol': 1, 'extensions': ['rng', 'ping', 'rounds']}
    """
    return {"type": "hello", "protocol": PROTOCOL, "extensions": list(EXTENSIONS)}


@attrs.frozen
class Hello:
    """What an engine said of itself in its hello."""

    name: str
    author: str
    extensions: frozenset[str]
    options: dict[str, dict[str, Any]]


def _text(message: Mapping[str, Any], key: str) -> str:
    value = message.get(key, "")
    if not isinstance(value, str):
        raise ProtocolError(f"said hello with {key}={brief(value)}, which is not a string")
    text = " ".join(value.split())
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def parse_hello(message: Mapping[str, Any]) -> Hello:
    """Check an engine's hello: protocol 1, and well-formed optional fields.

    >>> parse_hello({"type": "hello", "protocol": 1, "name": "first"}).name
    'first'
    >>> parse_hello({"type": "hello", "protocol": 2})
    Traceback (most recent call last):
    ...
    chickenfoot._protocol.ProtocolError: speaks protocol 2, not 1
    """
    if message.get("type") != "hello":
        raise ProtocolError(f"answered hello with a {brief(message.get('type'))} message")
    version = message.get("protocol")
    if version != PROTOCOL or isinstance(version, bool):
        raise ProtocolError(f"speaks protocol {brief(version)}, not {PROTOCOL}")
    extensions = message.get("extensions", [])
    if not isinstance(extensions, list) or not all(isinstance(e, str) for e in extensions):
        raise ProtocolError(f"said hello with extensions={brief(extensions)}: not strings")
    options = message.get("options", {})
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise ProtocolError(f"said hello with options={brief(options)}: not an object")
    checked = {}
    for name, spec in options.items():
        try:
            checked[name] = _option_spec(spec)
        except ProtocolError as err:
            raise ProtocolError(f"advertised option {brief(name, 40)}: {err}") from None
    return Hello(_text(message, "name"), _text(message, "author"), frozenset(extensions), checked)


def _option_spec(spec: object) -> dict[str, Any]:
    if not isinstance(spec, dict) or spec.get("type") not in OPTION_TYPES:
        raise ProtocolError(f"{brief(spec)} has no type among {', '.join(OPTION_TYPES)}")
    kind = spec["type"]
    if kind == "choice":
        choices = spec.get("choices")
        if not isinstance(choices, list) or not choices or len(choices) > MAX_OPTIONS:
            raise ProtocolError(f"a choice needs a list of choices, got {brief(choices)}")
    for bound in ("min", "max"):
        if bound in spec and (not _is_number(spec[bound]) or kind not in ("int", "float")):
            raise ProtocolError(f"{bound}={brief(spec[bound])} is not a number bound")
    return dict(spec)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _fits(value: object, spec: Mapping[str, Any]) -> str | None:
    """Why ``value`` does not fit the option ``spec`` (``None``: it fits)."""
    kind = spec["type"]
    if kind == "int" and (type(value) is not int or not -(2**63) <= value < 2**63):
        return "must be an integer"
    if kind == "float" and not _is_number(value):
        return "must be a finite number"
    if kind == "bool" and type(value) is not bool:
        return "must be true or false"
    if kind == "string" and (not isinstance(value, str) or len(value) > 10_000):
        return "must be a string (of at most 10,000 characters)"
    if kind == "choice" and value not in spec["choices"]:
        return f"must be one of {brief(spec['choices'])}"
    number: Any = value
    if "min" in spec and number < spec["min"]:
        return f"must be at least {spec['min']}"
    if "max" in spec and number > spec["max"]:
        return f"must be at most {spec['max']}"
    return None


def check_options_given(options: object) -> dict[str, Any]:
    """The options a user gave: a mapping of names to JSON values (true, 3, 0.5, "x").

    Raises :class:`ProtocolError` with the reason (the caller raises ArgumentError).
    """
    if not isinstance(options, Mapping) or len(options) > MAX_OPTIONS:
        raise ProtocolError(f"must be a mapping of at most {MAX_OPTIONS} names to values")
    checked = {}
    for name, value in options.items():
        if not isinstance(name, str) or not name or len(name) > _MAX_TEXT:
            raise ProtocolError(f"has the name {brief(name)}: names are non-empty strings")
        if not (isinstance(value, (bool, str)) or _is_number(value)):
            raise ProtocolError(f"{name}={brief(value)}: a value is a bool, a number or a string")
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 63:
            raise ProtocolError(f"{name}={brief(value)}: integers are 64-bit")
        checked[name] = value
    return checked


def check_option_values(given: Mapping[str, Any], advertised: Mapping[str, Any]) -> str | None:
    """Why the options ``given`` do not fit those an engine ``advertised`` (``None``: fine).

    >>> spec = {"depth": {"type": "int", "default": 2, "min": 1, "max": 9}}
    >>> check_option_values({"depth": 4}, spec) is None, check_option_values({"depth": 0}, spec)
    (True, 'option depth=0 must be at least 1')
    """
    for name, value in given.items():
        if name not in advertised:
            known = ", ".join(list(advertised)[:8]) or "none"
            return f"has no option {brief(name, 40)} (it advertises: {known})"
        why = _fits(value, advertised[name])
        if why is not None:
            return f"option {name}={brief(value, 40)} {why}"
    return None


def engine_hello(name: str, author: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The hello of :func:`~chickenfoot.engine.serve`: protocol 1 and every extension."""
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "name": name}
    if author:
        message["author"] = author
    message["extensions"] = list(EXTENSIONS)
    if options:
        message["options"] = dict(options)
    return message


def advertised_options(agent: object) -> dict[str, dict[str, Any]]:
    """The options :func:`~chickenfoot.engine.serve` advertises for an attrs agent: each
    field whose value is a bool, an int, a float or a string, with that value as default.

    >>> from chickenfoot.agents import SearchAgent
    >>> advertised_options(SearchAgent())["iterations"]
    {'type': 'int', 'default': 32}
    """
    kind_of_agent = type(agent)
    if not attrs.has(kind_of_agent):
        return {}
    found = {}
    for field in attrs.fields(kind_of_agent):
        if not field.init or field.name.startswith("_"):
            continue
        value = getattr(agent, field.name)
        kind = {bool: "bool", int: "int", float: "float", str: "string"}.get(type(value))
        if kind is not None:
            found[field.name] = {"type": kind, "default": value}
    return found


# -- go and move --------------------------------------------------------------------------


def rng_state(rng: random.Random | None) -> list[Any] | None:
    """The state of ``rng`` as JSON (``random.Random.getstate()`` as lists), or ``None``
    when it has none to give (``None``, ``random.SystemRandom``)."""
    if rng is None:
        return None
    try:
        version, words, gauss = rng.getstate()
    except (NotImplementedError, TypeError, ValueError):
        return None
    return [version, list(words), gauss]


def read_rng(value: object) -> tuple[Any, ...]:
    """A state for ``random.Random.setstate`` from its JSON form, checked.

    >>> r = random.Random(5)
    >>> s = read_rng(rng_state(r))
    >>> r2 = random.Random(); r2.setstate(s); r2.random() == r.random()
    True
    """
    if (
        not isinstance(value, list)
        or len(value) != 3
        or type(value[0]) is not int
        or not isinstance(value[1], list)
        or len(value[1]) != _MT_WORDS
        or not all(type(w) is int and 0 <= w < 2**32 for w in value[1])
        or not (value[2] is None or _is_number(value[2]))
    ):
        raise ProtocolError(f"sent rng={brief(value)}, which is not a random.Random state")
    words = tuple(value[1])
    if not 0 <= words[-1] <= _MT_WORDS - 1 or not any(words[:-1]):
        raise ProtocolError("sent an rng state that random.Random refuses")
    return (value[0], words, value[2])


def go(view: View, legal: Sequence[Move], time_ms: int, rng: list[Any] | None) -> dict[str, Any]:
    """The request for a decision (``rng``: the host generator's state, for the extension)."""
    message: dict[str, Any] = {
        "type": "go",
        "view": view.to_dict(),
        "legal": [m.notation() for m in legal],
        "time_ms": time_ms,
    }
    if rng is not None:
        message["rng"] = rng
    return message


def read_move(message: Mapping[str, Any], legal: Sequence[Move], max_pip: int) -> Move:
    """The legal move an engine's ``move`` message names.

    >>> from chickenfoot import Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> str(read_move({"type": "move", "move": "9-7@9-9"}, v.legal_moves, 9))
    '9-7@9-9'
    >>> read_move({"type": "move", "move": "pass"}, v.legal_moves, 9)
    Traceback (most recent call last):
    ...
    chickenfoot._protocol.ProtocolError: chose pass, which is not legal here (legal: 9-2@9-9, 9-7@9-9)
    """
    text = message.get("move")
    if not isinstance(text, str):
        raise ProtocolError(f"sent a move message without a move string: {brief(text)}")
    try:
        move = parse_move(text, max_pip=max_pip)
    except InvalidMoveError:
        raise ProtocolError(f"answered {brief(text)}, which is not a move in notation") from None
    if move not in legal:
        shown = ", ".join(m.notation() for m in legal[:8]) + (", ..." if len(legal) > 8 else "")
        raise ProtocolError(f"chose {move}, which is not legal here (legal: {shown})")
    return move
