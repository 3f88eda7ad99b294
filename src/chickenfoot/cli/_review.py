"""The review after a round and the hints of ``chickenfoot play`` (docs/analysis.md).

The review analyses the person's decisions in the round just finished
(:func:`chickenfoot.analysis.analyse`, one seat) and shows them biggest loss first, each
with the table at that moment and the better move. A hint, when the table allows them
(``play --hints``), is the search player's best move from the person's own view: what the
seat may know, nothing more.

>>> from chickenfoot import Record, Rules, deal
>>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
>>> rec = Record(deal(rules, seed=25), ["4-1@4-4", "4-2@4-4", "2-0@4-2", "3-1@4-1",
...                                     "4-0@2-0", "3-0@3-1", "0-0@3-0"])
>>> for line in review_lines(rec, 0, iterations=20, backend="python"):
...     print(line)
Move 5: you played 4-0@2-0; 0-0@2-0 was better by 27.2 expected penalty points (a blunder, ??).
Move 1: you played 4-1@4-4; 4-0@4-4 was better by 24.6 expected penalty points (a blunder, ??).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from chickenfoot._i18n import N_, decimal, number
from chickenfoot._i18n import gettext as _
from chickenfoot.analysis import Decision, analyse, best_of, evaluate
from chickenfoot.cli._game import Game
from chickenfoot.cli._screen import Screen
from chickenfoot.deal import deal
from chickenfoot.errors import ChickenFootError
from chickenfoot.record import Record
from chickenfoot.state import State
from chickenfoot.view import View

__all__ = [
    "HINTS_ON",
    "HINT_ITERATIONS",
    "REVIEW_ITERATIONS",
    "SHOWN",
    "finished_record",
    "hint",
    "hint_line",
    "moment",
    "offer_review",
    "review_lines",
    "reviewed",
    "show_review",
]

REVIEW_ITERATIONS: Final = 100
"""Deals sampled per decision by the review (about two seconds for a round of four)."""
HINT_ITERATIONS: Final = 200
"""Deals sampled for one hint."""
HINTS_ON: Final = N_(
    "Hints are on at this table: type hint at your turn for the search player's move."
)
"""What every seat is told when hints are on (``play --hints``), translated where shown."""
SHOWN: Final = 5
"""The most decisions a review shows (the biggest losses)."""

_NO_CHOICE: Final = N_("You had no choice to make in this round: nothing to review.")
_ALL_BEST: Final = N_("Every move you chose was the best one found from what you could see.")


def finished_record(game: Game, final: State) -> Record | None:
    """The record of the round that ended in ``final`` (``game`` is the game after it), or
    ``None`` when its moves are not known (a round resumed from a position)."""
    if game.record is not None:
        return game.record
    m = game.match
    if m is None or m.rounds_played < 1:
        return None
    moves = [e.move for e in final.history]
    try:
        rec = Record(deal(m.rules, m.seed, m.rounds_played - 1), moves)
    except ChickenFootError:
        return None
    return rec if rec.final() == final else None


def reviewed(
    record: Record, seat: int, *, iterations: int = REVIEW_ITERATIONS, backend: str = "auto"
) -> tuple[Decision, ...]:
    """The decisions of ``seat`` in ``record``, biggest loss first (none when it had no
    choice); no hindsight: a review is of what the seat could know."""
    moved = any(s.turn == seat for s in record.states()[:-1])
    if not moved:
        return ()
    result = analyse(record, seats=seat, iterations=iterations, nodes=None, backend=backend)
    return result.review()


def _line(d: Decision) -> str:
    if d.move == d.best:
        return _("Move {number}: you played {move}, the best move.", number=d.ply + 1, move=d.move)
    said = {"number": d.ply + 1, "move": d.move, "best": d.best, "points": decimal(d.loss)}
    if d.glyph == "?!":
        return _(
            "Move {number}: you played {move}; {best} was better by {points} expected "
            "penalty points (an inaccuracy, ?!).",
            **said,
        )
    if d.glyph == "?":
        return _(
            "Move {number}: you played {move}; {best} was better by {points} expected "
            "penalty points (a mistake, ?).",
            **said,
        )
    if d.glyph == "??":
        return _(
            "Move {number}: you played {move}; {best} was better by {points} expected "
            "penalty points (a blunder, ??).",
            **said,
        )
    return _(
        "Move {number}: you played {move}; {best} was better by {points} expected penalty points.",
        **said,
    )


def review_lines(
    record: Record,
    seat: int,
    *,
    iterations: int = REVIEW_ITERATIONS,
    backend: str = "auto",
) -> Iterator[str]:
    """One sentence per decision that lost points, biggest loss first (at most
    :data:`SHOWN`), or one sentence saying none did."""
    decisions = [d for d in reviewed(record, seat, iterations=iterations, backend=backend)]
    lost = [d for d in decisions if d.loss > 0][:SHOWN]
    if not decisions:
        yield _(_NO_CHOICE)
    elif not lost:
        yield _(_ALL_BEST)
    for d in lost:
        yield _line(d)


def moment(record: Record, d: Decision) -> View:
    """The view of the seat at decision ``d`` (the table as the person saw it)."""
    return record.states()[d.ply].view(d.seat)


def hint_line(view: View, *, iterations: int = HINT_ITERATIONS, seed: int = 0) -> str:
    """The hint at ``view``: the search player's best move from what the seat sees.

    >>> from chickenfoot import Rules, deal
    >>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
    >>> print(hint_line(deal(rules, seed=25).view(0), iterations=10))
    Hint: 4-0@4-4 (expected penalty 9.5, win share 50%, from 10 sampled deals).
    """
    values = evaluate(view, iterations=iterations, seed=seed)
    best = best_of(values)
    return _(
        "Hint: {move} (expected penalty {penalty}, win share {share}%, from {deals} "
        "sampled deals).",
        move=best.move,
        penalty=decimal(best.penalty),
        share=round(100 * best.win),
        deals=number(iterations),
    )


def show_review(screen: Screen, record: Record | None, seat: int) -> None:
    """Draw the review of ``seat``'s decisions in ``record``: biggest loss first, each with
    the table at that moment and the better move highlighted."""
    if record is None:
        screen.say(_("No review: the moves of this round are not known (it was resumed)."))
        return
    decisions = reviewed(record, seat)
    lost = [d for d in decisions if d.loss > 0][:SHOWN]
    screen.say()
    screen.heading(_("Your decisions in this round, biggest loss first"))
    if not decisions:
        screen.say(_(_NO_CHOICE))
    elif not lost:
        screen.say(_(_ALL_BEST))
    for d in lost:
        screen.board(moment(record, d), heading=_line(d), legal=(d.best,))
    screen.say()


def offer_review(
    screen: Screen, game: Game, final: State, seat: int, *, now: bool
) -> Record | None:
    """At a round's end: the review drawn (``now``, ``play --review``), or offered at the
    prompt between rounds; the round's record, for the ``review`` command."""
    record = finished_record(game, final)
    if now:
        show_review(screen, record, seat)
    elif record is not None and game.match is not None and game.match.round is not None:
        screen.say(_("Type review at the prompt to see your decisions, biggest loss first."))
    return record


def hint(screen: Screen, view: View, *, allowed: bool, seed: int) -> None:
    """Answer the ``hint`` command: the hint, or why there is none."""
    if not allowed:
        screen.refuse(_("Hints are off at this table: start it with chickenfoot play --hints."))
        return
    screen.say(hint_line(view, seed=seed))
