"""Hints during a round and the review after it, for the people at a table (docs/serve.md,
"Hints and reviews"; the analysis: docs/analysis.md).

- A **hint** (message ``hint``, at the seat's turn, at a table made with ``hints`` on) is
  the search player's best move from the asking seat's own view
  (:func:`chickenfoot.analysis.evaluate` on that seat's view: what the seat may know,
  nothing more), within :data:`HINT_ITERATIONS` sampled deals.
- A **review** (message ``review``, once a round is over) is the analysis of the asking
  seat's decisions in the last finished round (:func:`chickenfoot.analysis.analyse`, from
  what it knew, no hindsight), biggest loss first (at most :data:`SHOWN`), each with the
  picture of that moment and the better move's place drawn on it; made once per seat and
  round, and kept (the last :data:`KEPT`).

Both are worked out in a worker thread (the server keeps serving meanwhile), at most
:data:`WORKERS` hints and as many reviews at once for the whole server (apart: a hint never
waits behind a review), one at a time per seat, and sent to the asking connection only:
nothing about them (that a seat asked, how long it took) is sent to anyone else. A hint
whose position has changed before its turn to be worked out (its seat moved on) is
dropped unworked, so that it cannot keep the next seat's hint waiting; what is left is the
server's CPU, shared as the bots' thinking is (docs/serve.md, "Hints and reviews"). A spectator gets neither. What is refused (hints off, not the seat's turn,
no round finished) raises :class:`~chickenfoot.server._table.RefusedError` saying why.

>>> from chickenfoot import Rules, deal
>>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
>>> hint_of(deal(rules, seed=25).view(0), iterations=10, seed=0, backend="python")
{'type': 'hint', 'move': '4-0@4-4', 'penalty': 9.5, 'win': 0.5, 'deals': 10}
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Coroutine, Mapping
from typing import Any, Final

from chickenfoot.analysis import Decision, analyse, best_of, evaluate
from chickenfoot.commitment import round_seed
from chickenfoot.deal import deal
from chickenfoot.errors import ChickenFootError
from chickenfoot.moves import Play
from chickenfoot.picture import svg
from chickenfoot.record import Record
from chickenfoot.server._announce import FAILED, Connection
from chickenfoot.server._table import RefusedError, Table
from chickenfoot.view import View

__all__ = [
    "HINT_ITERATIONS",
    "KEPT",
    "REVIEW_ITERATIONS",
    "SHOWN",
    "WORKERS",
    "Coach",
    "hint_of",
    "hint_view",
    "last_record",
    "review_of",
    "reviewed_round",
]

log = logging.getLogger("chickenfoot.server")

HINT_ITERATIONS: Final = 200
"""Deals sampled for one hint (a fraction of a second compiled, a few in pure Python)."""
REVIEW_ITERATIONS: Final = 100
"""Deals sampled per decision by a review (a few seconds for a round of four)."""
SHOWN: Final = 5
"""The most decisions a review shows (the biggest losses)."""
WORKERS: Final = 1
"""Hints and reviews worked out at once on the whole server (each takes a core)."""
KEPT: Final = 64
"""The reviews kept, made once per table, round and seat."""


def hint_of(view: View, *, iterations: int, seed: int, backend: str) -> dict[str, Any]:
    """The ``hint`` message for ``view`` (the asking seat's own): the search player's best
    move, its expected penalty and win share, and the deals it sampled."""
    best = best_of(evaluate(view, iterations=iterations, seed=seed, backend=backend))
    return {
        "type": "hint",
        "move": best.move.notation(),
        "penalty": round(best.penalty, 1),
        "win": round(best.win, 2),
        "deals": iterations,
    }


def last_record(table: Table) -> tuple[int, Record] | None:
    """The number and record of the table's last finished round, or ``None`` when no round
    has finished in this match (or its moves do not replay from its deal)."""
    end = table.match.last_round
    if end is None:
        return None
    k = table.match.rounds_played - 1
    try:
        record = Record(
            deal(table.rules, round_seed(table.seed, k), k), [e.move for e in end.history]
        )
    except ChickenFootError:
        return None
    return (k, record) if record.final() == end else None


def _shown(record: Record, d: Decision) -> dict[str, Any]:
    """One decision of a review, with the picture of that moment (the seat's view) and the
    better move's place drawn on it (a draw or a pass has no place)."""
    view = record.states()[d.ply].view(d.seat)
    return {
        "ply": d.ply,
        "move": d.move.notation(),
        "best": d.best.notation(),
        "loss": round(d.loss, 1),
        "glyph": d.glyph,
        "svg": svg(view, targets=[d.best] if isinstance(d.best, Play) else None),
    }


def review_of(record: Record, seat: int, *, iterations: int, backend: str) -> dict[str, Any]:
    """What a review of ``seat``'s decisions in ``record`` says: ``decisions`` (how many it
    made, choices only) and ``lost`` (those that gave up points, biggest loss first, at most
    :data:`SHOWN`, each with its picture)."""
    if not any(s.turn == seat and len(s.legal_moves) > 1 for s in record.states()[:-1]):
        return {"decisions": 0, "lost": []}
    result = analyse(record, seats=seat, iterations=iterations, nodes=None, backend=backend)
    decisions = result.review()
    lost = [d for d in decisions if d.loss > 0][:SHOWN]
    return {"decisions": len(decisions), "lost": [_shown(record, d) for d in lost]}


def hint_view(table: Table, seat: int) -> View:
    """The view of ``seat`` if it may have a hint now, else :class:`RefusedError` saying why."""
    if not table.hints:
        raise RefusedError("hints are off at this table: it was made without them")
    if table.error is not None:
        raise RefusedError(f"the table is stopped: {table.error}")
    if table.round is None:
        raise RefusedError("the match is over: no hints")
    if table.paused:
        raise RefusedError("the next round has not started: no hints yet")
    if table.turn != seat:
        raise RefusedError(f"a hint is given at your turn only (it is seat {table.turn}'s)")
    return table.view(seat)


def reviewed_round(table: Table, asked: object) -> tuple[int, Record]:
    """The last finished round's number and record, if it is the one ``asked`` (``None``:
    whichever), else :class:`RefusedError` saying why."""
    found = last_record(table)
    if found is None:
        raise RefusedError("no round of this match has finished yet: nothing to review")
    if asked is not None and (type(asked) is not int or asked != found[0]):
        raise RefusedError(f"only the last finished round (round {found[0]}) can be reviewed")
    return found


class _StaleError(Exception):
    """A hint's position changed before it was worked out."""


class Coach:
    """The hints and reviews of one server's tables: ``hint_iterations`` and
    ``review_iterations`` deals sampled per decision, with the analysis's ``backend``."""

    def __init__(
        self,
        *,
        hint_iterations: int = HINT_ITERATIONS,
        review_iterations: int = REVIEW_ITERATIONS,
        backend: str = "auto",
    ) -> None:
        self.hint_iterations = hint_iterations
        self.review_iterations = review_iterations
        self.backend = backend
        self._slots: dict[str, asyncio.Semaphore] = {}
        self._asking: set[tuple[str, int]] = set()
        self._reviews: OrderedDict[tuple[str, int, int, int], dict[str, Any]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()

    def ask(
        self, kind: str, table: Table, connection: Connection, message: Mapping[str, Any]
    ) -> None:
        """Answer a ``hint`` or ``review`` message of ``connection`` (in a task: the answer
        is queued for that connection when ready), or raise
        :class:`~chickenfoot.server._table.RefusedError` saying why there is none."""
        seat = connection.seat
        if seat is None:
            raise RefusedError(
                "a spectator gets no hints: hints are for the seat to act"
                if kind == "hint"
                else "a spectator has no review: a review is of a seat's own decisions"
            )
        key = (table.id, seat)
        if key in self._asking:
            raise RefusedError(f"your last {kind} is still being worked out: wait for it")
        if kind == "hint":
            work = self._hint(table, hint_view(table, seat), table.n)
        else:
            k, record = reviewed_round(table, message.get("round"))
            work = self._review((table.id, table.seed % 2**61, k, seat), record, seat)
        self._asking.add(key)
        task = asyncio.get_running_loop().create_task(self._answer(key, kind, work, connection))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(
        self,
        key: tuple[str, int],
        kind: str,
        work: Coroutine[Any, Any, dict[str, Any]],
        connection: Connection,
    ) -> None:
        try:
            connection.put(await work)
        except _StaleError:
            connection.put({"type": "error", "message": "the hint was dropped: you moved on"})
        except Exception as err:  # never the server's traceback to the page
            log.error("table %s: a %s could not be worked out: %s", key[0], kind, err)
            failed = {"type": "error", "message": f"the {kind} could not be worked out"}
            connection.put({**failed, "code": FAILED})
        finally:
            self._asking.discard(key)

    def _slot(self, kind: str) -> asyncio.Semaphore:
        if kind not in self._slots:  # made in the server's event loop, on first use
            self._slots[kind] = asyncio.Semaphore(WORKERS)
        return self._slots[kind]

    async def _hint(self, table: Table, view: View, n: int) -> dict[str, Any]:
        async with self._slot("hint"):
            if table.n != n:  # the seat moved on while it waited: worked out for nobody
                raise _StaleError
            hint = await asyncio.to_thread(
                hint_of, view, iterations=self.hint_iterations, seed=n, backend=self.backend
            )
        return {**hint, "n": n}

    async def _review(
        self, key: tuple[str, int, int, int], record: Record, seat: int
    ) -> dict[str, Any]:
        if key not in self._reviews:
            async with self._slot("review"):
                made = await asyncio.to_thread(
                    review_of, record, seat, iterations=self.review_iterations, backend=self.backend
                )
            self._reviews[key] = made
            while len(self._reviews) > KEPT:
                self._reviews.popitem(last=False)
        return {"type": "review", "round": key[2], "seat": seat, **self._reviews[key]}

    def close(self) -> None:
        """Stop the hints and reviews being worked out (their threads finish unheard)."""
        for task in list(self._tasks):
            task.cancel()
