"""The library's errors: every one is a :class:`ValueError`, split by cause.

>>> from chickenfoot import ChickenFootError, IllegalMoveError
>>> issubclass(IllegalMoveError, ChickenFootError) and issubclass(IllegalMoveError, ValueError)
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AgentError",
    "ChickenFootError",
    "FormatError",
    "IllegalMoveError",
    "InvalidMoveError",
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


class SeatError(ChickenFootError):
    """A seat number that the round does not have (seats are ``0`` to ``players - 1``)."""


class AgentError(ChickenFootError):
    """An agent answered with something that is not a legal move in the position it saw.

    The message names the agent, its seat, what it returned and why that was refused.
    """


def _rebuild_rules_error(message: str, field: str) -> RulesError:
    return RulesError(message, field=field)
