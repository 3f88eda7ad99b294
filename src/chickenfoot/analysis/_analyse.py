"""Analysing a record decision by decision (docs/analysis.md).

:func:`evaluate` values every legal move of a seat's :class:`~chickenfoot.View` as the
search player does (``SearchAgent(rollout="heuristic")``): it deals the unseen tiles at
random, consistently with the history (:meth:`View.sample <chickenfoot.View.sample>`),
makes each move on every deal and finishes the round with the heuristic rollout; a
move's value is each seat's mean final penalty and win share over the deals.
:func:`analyse` does that at every decision of the chosen seats in a record and adds, as
hindsight, the open hands' exact values (:func:`chickenfoot.solve`, within a node budget).

>>> from chickenfoot import Record, Rules, deal
>>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
>>> rec = Record(deal(rules, seed=25), ["4-1@4-4", "4-2@4-4", "2-0@4-2", "3-1@4-1",
...                                     "4-0@2-0", "3-0@3-1", "0-0@3-0"])
>>> a = analyse(rec, seats=0, iterations=20, backend="python")
>>> [(d.ply, str(d.move), str(d.best), d.loss > 0) for d in a.decisions]
[(0, '4-1@4-4', '4-0@4-4', True), (4, '4-0@2-0', '0-0@2-0', True)]
>>> a == analyse(rec, seats=0, iterations=20, backend="python")    # seeded: the same
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from chickenfoot import _checks as checks
from chickenfoot._rollouts import BACKENDS, Rollouts, heuristic_policy, resolve
from chickenfoot.analysis._model import Analysis, Decision, Hindsight, MoveValue
from chickenfoot.errors import ArgumentError, BudgetError, FormatError, brief
from chickenfoot.moves import Move
from chickenfoot.notation import Game
from chickenfoot.playout import playout
from chickenfoot.record import Record
from chickenfoot.solve import MAX_NODES, solve
from chickenfoot.state import State, apply
from chickenfoot.view import View

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_NODES",
    "MAX_ITERATIONS",
    "analyse",
    "best_of",
    "evaluate",
    "record_of",
]

DEFAULT_ITERATIONS: Final = 200
"""The deals sampled per decision when none are given."""
MAX_ITERATIONS: Final = 100_000
"""The most deals :func:`evaluate` samples for one decision."""
DEFAULT_NODES: Final = 50_000
"""The solver's node budget per decision (hindsight) when none is given."""


def _rng(seed: int, ply: int) -> random.Random:
    """The generator of one decision: the same for the same seed and move, whichever
    other decisions are analysed."""
    return random.Random(f"chickenfoot analysis {seed} {ply}")


def _shares(pens: Sequence[int]) -> list[float]:
    low = min(pens)
    k = pens.count(low)
    return [1.0 / k if p == low else 0.0 for p in pens]


def evaluate(
    view: View,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    backend: str = "auto",
) -> tuple[MoveValue, ...]:
    """Every legal move's :class:`MoveValue` from what ``view`` shows, in the legal order.

    ``iterations`` deals are sampled (1 to :data:`MAX_ITERATIONS`), from a generator seeded
    by ``seed``; every move is played on each (common deals, so that the moves are compared
    on the same worlds). ``backend`` as for :class:`~chickenfoot.SearchAgent`: compiled
    (``"numba"``) or pure (``"python"``) rollouts give the same values.

    >>> from chickenfoot import Rules, deal
    >>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
    >>> values = evaluate(deal(rules, seed=25).view(0), iterations=10, backend="python")
    >>> [(str(x.move), x.penalty) for x in values], str(best_of(values).move)
    ([('4-0@4-4', 9.5), ('4-1@4-4', 15.7)], '4-0@4-4')
    """
    if not isinstance(view, View):
        raise ArgumentError(f"evaluate needs a View, got {brief(view)}")
    n = checks.integer(iterations, "iterations", low=1, high=MAX_ITERATIONS)
    checks.seed(seed)
    compiled = resolve(checks.choice(backend, "backend", BACKENDS))
    if view.is_over():
        raise ArgumentError("the round is over: there is no move to evaluate")
    return _evaluate(view, view.legal_moves, n, random.Random(seed), compiled)


def _evaluate(
    view: View, legal: Sequence[Move], n: int, rng: random.Random, compiled: bool
) -> tuple[MoveValue, ...]:
    players = view.rules.players
    pens = [[0.0] * players for _ in legal]
    wins = [[0.0] * players for _ in legal]
    rollouts = Rollouts(view.rules, legal, "heuristic", view.seat) if compiled else None
    for _ in range(n):
        world = view.sample(rng)
        if rollouts is not None:
            ends = rollouts.penalties(world, 0)
        else:
            ends = [playout(apply(world, m), policy=heuristic_policy).penalties() for m in legal]
        for i, end in enumerate(ends):
            row, share = pens[i], wins[i]
            for seat, (p, w) in enumerate(zip(end, _shares(end), strict=True)):
                row[seat] += p
                share[seat] += w
    return tuple(
        MoveValue(m, tuple(p / n for p in pens[i]), tuple(w / n for w in wins[i]), view.seat)
        for i, m in enumerate(legal)
    )


def best_of(values: Sequence[MoveValue]) -> MoveValue:
    """The value with the lowest expected penalty for its seat (the first among equals).

    >>> from chickenfoot import DRAW, PASS
    >>> a, b = MoveValue(DRAW, (4.0, 1.0), (0.0, 1.0), 0), MoveValue(PASS, (4.0, 2.0), (0.5, 0.5), 0)
    >>> best_of([a, b]) is a
    True
    """
    best = values[0]
    for v in values[1:]:
        if v.penalty < best.penalty:
            best = v
    return best


def record_of(source: Record | Game) -> Record:
    """The record of ``source``: a :class:`~chickenfoot.Record`, or a ``full`` notation
    :class:`~chickenfoot.notation.Game` (a seat's or a spectator's copy hides hands).

    >>> import io
    >>> from chickenfoot import Rules, deal
    >>> from chickenfoot.notation import read_game, write_game
    >>> rec = Record(deal(Rules(), seed=1), ["9-3@9-9"])
    >>> record_of(read_game(io.StringIO(write_game(rec)))) == rec
    True
    >>> record_of(read_game(io.StringIO(write_game(rec, audience="seat 1"))))
    Traceback (most recent call last):
    ...
    chickenfoot.errors.FormatError: game: only a full copy can be analysed (this one is for seat 1): the hindsight needs every hand
    """
    if isinstance(source, Record):
        return source
    if isinstance(source, Game):
        if source.record is None:
            raise FormatError(
                "game",
                f"only a full copy can be analysed (this one is for {source.audience}): "
                "the hindsight needs every hand",
            )
        return source.record
    raise ArgumentError(f"analyse needs a Record or a notation Game, got {brief(source)}")


def _seats(seats: int | Sequence[int] | None, record: Record) -> tuple[int, ...]:
    states = record.states()
    moved = sorted({states[i].turn for i in range(len(record.moves))})
    players = record.start.players
    if seats is None:
        if not moved:
            raise ArgumentError("the record has no move: there is no decision to analyse")
        return tuple(moved)
    chosen: object = [seats] if isinstance(seats, int) else seats
    if isinstance(chosen, str) or not isinstance(chosen, (list, tuple)) or not chosen:
        raise ArgumentError(f"seats={brief(seats)} is invalid: must be a seat or seats")
    out: list[int] = []
    for k, seat in enumerate(chosen):
        checks.integer(seat, f"seats[{k}]", low=0, high=players - 1)
        if seat not in moved:
            raise ArgumentError(f"seat {seat} never moved in this record: nothing to analyse")
        if seat not in out:
            out.append(seat)
    return tuple(sorted(out))


def analyse(
    source: Record | Game,
    *,
    seats: int | Sequence[int] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    nodes: int | None = DEFAULT_NODES,
    seed: int = 0,
    backend: str = "auto",
) -> Analysis:
    """Analyse every decision of ``seats`` (default: every seat that moved) in ``source``.

    A decision is a position where the seat to act had more than one legal move (a forced
    move teaches nothing). Its best move is the move played when no move has a lower
    expected penalty, else the first with the lowest. Each is valued by :func:`evaluate` with ``iterations`` deals
    from the seat's view then, and, unless ``nodes`` is ``None``, solved with the open
    hands within ``nodes`` positions (hindsight; an unsolved one says so). The same
    ``seed`` gives the same values, whichever seats are chosen.

    A seat out of range or that never moved, budgets out of range, or a notation copy
    that is not ``full`` raise the library's errors (``ValueError`` subclasses).
    """
    record = record_of(source)
    chosen = _seats(seats, record)
    n = checks.integer(iterations, "iterations", low=1, high=MAX_ITERATIONS)
    budget = None if nodes is None else checks.integer(nodes, "nodes", low=1, high=MAX_NODES)
    seed = checks.seed(seed)
    compiled = resolve(checks.choice(backend, "backend", BACKENDS))
    states = record.states()
    decisions: list[Decision] = []
    for ply, move in enumerate(record.moves):
        state = states[ply]
        if state.turn not in chosen:
            continue
        legal = state.legal_moves
        if len(legal) < 2:
            continue
        decisions.append(_decide(state, ply, move, legal, n, budget, seed, compiled))
    return Analysis(tuple(decisions), chosen, n, budget, seed)


def _decide(
    state: State,
    ply: int,
    move: Move,
    legal: Sequence[Move],
    n: int,
    budget: int | None,
    seed: int,
    compiled: bool,
) -> Decision:
    began = time.perf_counter()
    values = _evaluate(state.view(state.turn), legal, n, _rng(seed, ply), compiled)
    ms = round((time.perf_counter() - began) * 1000)
    seen = None if budget is None else hindsight(state, move, nodes=budget)
    best = best_of(values)
    played = next(v for v in values if v.move == move)
    if played.penalty == best.penalty:  # the move played is one of the best: no loss
        best = played
    return Decision(ply, state.turn, move, values, best.move, n, ms, seen)


def hindsight(state: State, move: Move, *, nodes: int) -> Hindsight:
    """The open hands' verdict on ``move`` in ``state`` (exact, or unsolved within ``nodes``).

    >>> from chickenfoot import Rules, deal, parse_move
    >>> s = deal(Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1), seed=25)
    >>> h = hindsight(s, parse_move("4-1@4-4"), nodes=1000)
    >>> h.solved, str(h.best), h.loss, h.nodes
    (True, '4-0@4-4', 52, 93)
    >>> hindsight(s, parse_move("4-1@4-4"), nodes=10)
    Hindsight(solved=False, nodes=10, values=None, best=None, loss=None)
    """
    try:
        sol = solve(state, nodes=nodes)
    except BudgetError:
        return Hindsight(False, nodes)
    me = state.turn
    loss = sol.values[move][me] - sol.value[me]
    return Hindsight(True, sol.nodes, sol.values, sol.best, loss)
