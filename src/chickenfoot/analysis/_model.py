"""The values of an analysis (docs/analysis.md): move values, hindsight, decisions, glyphs.

A :class:`Decision` is one choice of one seat in a record: the value of each legal move
from what the seat knew (:class:`MoveValue`, the search player's expected penalty and win
share), the best of them, the loss of the move played against it, its glyph, and the
:class:`Hindsight` of the open hands (the solver's exact values, or a budget that ran out).

>>> glyph(0.0), glyph(INACCURACY), glyph(MISTAKE), glyph(BLUNDER + 10)
(None, '?!', '?', '??')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from chickenfoot.moves import Move

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Analysis",
    "Decision",
    "Hindsight",
    "MoveValue",
    "glyph",
]

INACCURACY: Final = 3.0
"""A move that gives up this many expected penalty points or more is an inaccuracy (``?!``)."""
MISTAKE: Final = 6.0
"""... this many or more, a mistake (``?``)."""
BLUNDER: Final = 12.0
"""... this many or more, a blunder (``??``)."""


def glyph(loss: float) -> str | None:
    """The glyph of a move that gave up ``loss`` expected penalty points (docs/analysis.md,
    "Glyphs"): ``??`` from :data:`BLUNDER`, ``?`` from :data:`MISTAKE`, ``?!`` from
    :data:`INACCURACY`, else ``None``.

    >>> [glyph(x) for x in (2.9, 3, 5.99, 6, 11.9, 12)]
    [None, '?!', '?!', '?', '?', '??']
    """
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    if loss >= INACCURACY:
        return "?!"
    return None


def _round(x: float) -> float:
    return round(x, 3)


@attrs.frozen
class MoveValue:
    """One legal move's value from what the seat knew: over the sampled deals, each seat's
    mean final penalty (``penalties``, seat 0 first) and mean share of the round's win
    (``wins``: ``1/k`` to each of ``k`` seats with the lowest penalty); ``penalty`` and
    ``win`` are those of the seat to move.
    """

    move: Move
    penalties: tuple[float, ...]
    wins: tuple[float, ...]
    seat: int

    @property
    def penalty(self) -> float:
        """The expected final penalty of the seat that moves."""
        return self.penalties[self.seat]

    @property
    def win(self) -> float:
        """The expected win share of the seat that moves."""
        return self.wins[self.seat]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the move in the move notation, the seat's penalty and win share."""
        return {"move": str(self.move), "penalty": _round(self.penalty), "win": _round(self.win)}


@attrs.frozen
class Hindsight:
    """The open hands' verdict on a decision (the solver, :func:`chickenfoot.solve`).

    ``solved`` says whether the search finished within ``nodes`` (its budget when it did
    not: then ``values``, ``best`` and ``loss`` are ``None``, never a guess). ``values``
    maps each legal move to the seats' exact final penalties; ``loss`` is the seat's
    penalty after the move played minus that after ``best`` (0 or more).
    """

    solved: bool
    nodes: int
    values: Mapping[Move, tuple[int, ...]] | None = None
    best: Move | None = None
    loss: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (moves in the move notation)."""
        if not self.solved:
            return {"solved": False, "nodes": self.nodes}
        assert self.values is not None
        return {
            "solved": True,
            "nodes": self.nodes,
            "best": str(self.best),
            "loss": self.loss,
            "values": {str(m): list(v) for m, v in self.values.items()},
        }


@attrs.frozen
class Decision:
    """One decision of a seat: the position before move ``ply`` of the record (0-based).

    ``values`` holds every legal move's :class:`MoveValue` in the order of the legal moves;
    ``best`` is a move with the lowest expected penalty for ``seat`` (the move played when
    it is one, else the first in the legal order); ``loss`` is the expected penalty points the move played gave up against it
    (0 or more, 0 when ``move`` is ``best``); ``glyph`` is :func:`glyph` of ``loss``;
    ``iterations`` the deals sampled and ``ms`` the milliseconds spent on them (left out of equality: a clock's);
    ``hindsight`` the open hands' verdict, or ``None`` when it was not asked for.
    """

    ply: int
    seat: int
    move: Move
    values: tuple[MoveValue, ...]
    best: Move
    iterations: int
    ms: int = attrs.field(eq=False)  # the clock's: not part of the value
    hindsight: Hindsight | None = None

    def value_of(self, move: Move) -> MoveValue:
        """The value of the legal move ``move``."""
        for v in self.values:
            if v.move == move:
                return v
        raise KeyError(str(move))

    @property
    def played(self) -> MoveValue:
        """The value of the move played."""
        return self.value_of(self.move)

    @property
    def best_value(self) -> MoveValue:
        """The value of the best move."""
        return self.value_of(self.best)

    @property
    def loss(self) -> float:
        """Expected penalty points given up by the move played (0 or more)."""
        return self.played.penalty - self.best_value.penalty

    @property
    def glyph(self) -> str | None:
        """The glyph of :attr:`loss` (``?!``, ``?``, ``??``), or ``None``."""
        return glyph(self.loss)

    def to_dict(self) -> dict[str, Any]:
        """One JSON object: ``seat``, ``move`` (played), ``best``, ``loss`` and the rest."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "move": str(self.move),
            "best": str(self.best),
            "loss": _round(self.loss),
            "glyph": self.glyph,
            "penalty": _round(self.played.penalty),
            "win": _round(self.played.win),
            "best_penalty": _round(self.best_value.penalty),
            "best_win": _round(self.best_value.win),
            "iterations": self.iterations,
            "ms": self.ms,
            "values": [v.to_dict() for v in self.values],
            "hindsight": None if self.hindsight is None else self.hindsight.to_dict(),
        }


@attrs.frozen
class Analysis:
    """The decisions analysed in a record, in the record's order, and the budgets used.

    :meth:`review` gives the same decisions biggest loss first (a review after a round).
    """

    decisions: tuple[Decision, ...]
    seats: tuple[int, ...]
    iterations: int
    nodes: int | None
    seed: int

    def review(self) -> tuple[Decision, ...]:
        """The decisions by loss, biggest first (the record's order among equal losses)."""
        return tuple(sorted(self.decisions, key=lambda d: -d.loss))

    def to_dicts(self) -> list[dict[str, Any]]:
        """One JSON object per decision (:meth:`Decision.to_dict`)."""
        return [d.to_dict() for d in self.decisions]
