"""How a round ended (the rules page, R10: docs/rules.md), in the style of python-chess ``Outcome``/``Termination``.

>>> o = Outcome(Termination.OUT, 2)
>>> o.termination.name, o.seat, str(o)
('OUT', 2, 'seat 2 went out')
>>> str(Outcome(Termination.BLOCKED))
'blocked'
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

__all__ = ["Outcome", "Termination"]


class Termination(enum.Enum):
    """Why a round ended."""

    OUT = "out"
    """A player laid the last tile of their hand."""
    BLOCKED = "blocked"
    """The boneyard is empty and nobody can play."""


@attrs.frozen
class Outcome:
    """The end of a round: a seat went out, or the round is blocked (``seat`` is ``None``)."""

    termination: Termination
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "out"|"blocked", "seat": int|None}`` (the conformance vectors' form).

        >>> Outcome(Termination.OUT, 1).to_dict()
        {'kind': 'out', 'seat': 1}
        """
        return {"kind": self.termination.value, "seat": self.seat}

    def __str__(self) -> str:
        if self.termination is Termination.OUT:
            return f"seat {self.seat} went out"
        return "blocked"
