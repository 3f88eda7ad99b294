"""The library's errors: every one is a :class:`ValueError`, split by cause.

>>> from chickenfoot import ChickenFootError, IllegalMoveError
>>> issubclass(IllegalMoveError, ChickenFootError) and issubclass(IllegalMoveError, ValueError)
True
"""

from __future__ import annotations

import re
import reprlib
from typing import Any, Final

__all__ = [
    "AgentError",
    "ArgumentError",
    "BudgetError",
    "ChickenFootError",
    "FormatError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LadderError",
    "RulesError",
    "SeatError",
]


class ChickenFootError(ValueError):
    """Base class of every error the library raises on bad input."""


class RulesError(ChickenFootError):
    """A rules configuration that cannot be dealt or played; the message names the field.

    ``field`` is the name of the offending field.
    """

    def __init__(self, message: str, *, field: str = "") -> None:
        self.field = field
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (simulations on a pool or a cluster): keep fields.
        return (_rebuild_rules_error, (str(self), self.field))


class InvalidMoveError(ChickenFootError):
    """Text that is not a move or tile, or a move naming a tile outside the set."""


class IllegalMoveError(ChickenFootError):
    """A well-formed move that the rules do not allow in the position it was tried on."""


class FormatError(ChickenFootError):
    """A JSON document that is malformed or inconsistent; the message names the bad part's path.

    ``path`` is that path (``""`` for the document itself), e.g. ``hands[2][5]``.
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"{path}: {message}" if path else message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FormatError, (self.path, self.reason))


class ArgumentError(ChickenFootError, TypeError):
    """An argument of the wrong kind or out of range that is not a rules field, a move, a
    document, a seat or an agent: a state that is not a ``State``, a seed, a round number, a
    depth, a random generator. It is also a :class:`TypeError`, as Python's own would be.
    """


class SeatError(ChickenFootError):
    """A seat number that the round does not have (seats are ``0`` to ``players - 1``)."""


class AgentError(ChickenFootError):
    """An agent's failure: it answered with something that is not a legal move in the
    position it saw, raised, or (an engine) crashed or broke the protocol.

    The message names the agent, its seat, what it returned and why that was refused.
    """


class LadderError(ChickenFootError):
    """A ladder asked for something it cannot do: agents named twice or too few for its
    table, an SPRT of agents that are not among them, a results file that is not a
    regular file, not a ladder's, or another ladder's (``chickenfoot.ladder``).

    An agent that fails in one of the ladder's games is an :class:`AgentError`.
    """


class BudgetError(ChickenFootError):
    """A search ran out of its budget before it could answer exactly (:func:`chickenfoot.solve`
    never returns a value that is not exact). ``nodes`` is the budget it was given.
    """

    def __init__(self, message: str, *, nodes: int = 0) -> None:
        self.nodes = nodes
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_budget_error, (str(self), self.nodes))


def _rebuild_budget_error(message: str, nodes: int) -> BudgetError:
    return BudgetError(message, nodes=nodes)


def _rebuild_rules_error(message: str, field: str) -> RulesError:
    return RulesError(message, field=field)


def brief(value: object, limit: int = 60) -> str:
    """A bounded ``repr`` of ``value`` for an error message.

    Long strings are cut with their length said, huge integers are described rather than
    printed (Python refuses to print one of over 4,300 digits), deep or long containers are
    abbreviated, and a ``__repr__`` that fails is not called again.

    >>> brief("9-4@9-9"), brief("x" * 10_000)
    ("'9-4@9-9'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (10,000 characters)")
    >>> brief(-(10**5000)), brief([[[[[[1]]]]]])
    ('a negative integer of about 5,001 digits', '[[[[[...]]]]]')

    It is always one line (a ``repr`` that spans several is joined).
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        digits = int(value.bit_length() * 0.30103) + 1
        sign = "a negative" if value < 0 else "an"
        return f"{sign} integer of about {digits:,} digits"
    if isinstance(value, (str, bytes)) and len(value) > limit:
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{value[:limit]!r}... ({len(value):,} {unit})"
    r = reprlib.Repr()
    r.maxlevel = 4
    r.maxstring = r.maxother = limit
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = 8
    try:
        text = r.repr(value)
        if "..." not in text:  # nothing was cut: the plain repr is as short, and in order
            text = repr(value)
    except Exception:  # a hostile or broken __repr__: say only what it is
        return f"<a {type(value).__name__[:40]}>"
    if "\n" in text:  # e.g. the repr of a 2-D numpy array: a message is one line
        text = _LINE_BREAKS.sub(" ", text)
    return text if len(text) <= 3 * limit else text[: 3 * limit] + "..."


_LINE_BREAKS: Final = re.compile(r"\s*\n\s*")


MAX_DIGITS: Final = 4000
"""Seeds and round numbers have at most this many decimal digits (the deal seeds its
generator with their text, and Python prints integers of up to 4,300 digits)."""
_DIGITS_BOUND: Final = 10**MAX_DIGITS


def within_digits(n: int) -> bool:
    """Whether the integer ``n`` has at most :data:`MAX_DIGITS` decimal digits.

    >>> within_digits(10**4000 - 1), within_digits(-(10**4000)), within_digits(0)
    (True, False, True)
    """
    return -_DIGITS_BOUND < n < _DIGITS_BOUND
