"""Puzzles cut from real rounds, each answer proven by the exact solver (docs/puzzles.md).

A puzzle is a position of a round, every hand open, in which the seat to act has exactly
one best move: by :func:`~chickenfoot.solve`, its final penalty after that move is lower
than after any other legal move by at least the puzzle's ``margin`` (5 points unless told).
:func:`cut` plays seeded rounds with a built-in :class:`~chickenfoot.agents.HeuristicAgent`
at every seat and keeps every such position of them; :meth:`Puzzle.of` makes a puzzle of
any position, or says why it is none.

Each puzzle is graded from 1 (easy) to 5 (hard) by :func:`grade`: one step for each of the
two built-in rules of thumb that miss the answer (:class:`~chickenfoot.agents.GreedyAgent`,
which sheds the most points, and :class:`~chickenfoot.agents.HeuristicAgent`), and one for
each wrong move that costs the mover at most :data:`LURE` points more than the answer (a
near miss, up to two).

>>> from chickenfoot import Rules
>>> from chickenfoot.puzzles import cut
>>> p = next(cut(Rules(), seeds=range(3)))
>>> p.id, str(p.answer), p.margin, p.grade
('1.50', '6-6@8-6', 12, 1)
>>> p.values[p.answer][p.seat] + p.margin == min(
...     v[p.seat] for m, v in p.values.items() if m is not p.answer)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

import attrs

from chickenfoot import _checks as checks
from chickenfoot.agents import GreedyAgent, HeuristicAgent
from chickenfoot.deal import deal
from chickenfoot.errors import ArgumentError, BudgetError, brief
from chickenfoot.moves import Move
from chickenfoot.notation import Evaluation, Game, Node, game_of, set_eval
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.solve import BACKENDS, MAX_NODES, Solution, solve
from chickenfoot.state import State

__all__ = [
    "FORMAT",
    "LURE",
    "MARGIN",
    "MAX_MARGIN",
    "MAX_TILES",
    "NODES",
    "TILES",
    "Puzzle",
    "cut",
    "grade",
]

FORMAT: Final = "chickenfoot/puzzle"
"""The ``format`` of a puzzle's JSON document (:meth:`Puzzle.to_dict`)."""
MARGIN: Final = 5
"""The least number of points by which a puzzle's answer beats every other move, unless
told: the mover's final penalty after the second-best move minus that after the answer."""
MAX_MARGIN: Final = 1000
"""The largest margin :func:`cut` and :meth:`Puzzle.of` accept (no round has more points)."""
LURE: Final = 10
"""A wrong move that costs the mover at most this many points more than the answer is a
lure: it looks as good, and :func:`grade` counts it (up to two)."""
TILES: Final = 14
""":func:`cut` looks at positions with at most this many tiles in the hands, unless told."""
MAX_TILES: Final = 40
"""The largest ``tiles`` :func:`cut` accepts."""
NODES: Final = 20_000
"""The solver's node budget per position, unless told: a position that needs more is
skipped by :func:`cut` (no puzzle is ever unproven)."""
GRADES: Final = (1, 2, 3, 4, 5)


def grade(*, misses: int, lures: int) -> int:
    """A puzzle's difficulty, 1 (easy) to 5 (hard): ``1 + misses + min(lures, 2)``.

    ``misses`` is how many of the two built-in rules of thumb (greedy, heuristic) do not
    play the answer (0 to 2); ``lures`` how many wrong moves cost the mover at most
    :data:`LURE` points more than the answer. The grade never falls when either grows.

    >>> grade(misses=0, lures=0), grade(misses=1, lures=1), grade(misses=2, lures=7)
    (1, 3, 5)
    """
    checks.integer(misses, "misses", low=0, high=2)
    checks.integer(lures, "lures", low=0)
    return 1 + misses + min(lures, 2)


@attrs.frozen(repr=False)
class Puzzle:
    """A position with one best move for the seat to act, proven by the solver.

    ``state`` is the position (every hand open); ``answer`` the best move; ``values`` the
    solver's vector of final penalties (one per seat) after each legal move, in the legal
    order. ``seed`` and ``ply`` say where it was cut: round 0 of ``deal(rules, seed)``
    after ``ply`` moves of the heuristic players, who then played ``played`` (``None``
    for a position given to :meth:`Puzzle.of`). ``misses`` counts the rules of thumb that
    miss the answer; ``nodes`` is the solver's effort.
    """

    state: State
    answer: Move
    values: Mapping[Move, tuple[int, ...]]
    misses: int
    nodes: int
    seed: int | None = attrs.field(default=None, kw_only=True)
    ply: int | None = attrs.field(default=None, kw_only=True)
    played: Move | None = attrs.field(default=None, kw_only=True)

    @classmethod
    def of(
        cls,
        state: State,
        *,
        margin: int = MARGIN,
        nodes: int = NODES,
        backend: str = "auto",
    ) -> Puzzle:
        """The puzzle of ``state``, or :class:`~chickenfoot.ArgumentError` saying why it is
        none: the round is over, the seat has one legal move, or no move is better than
        every other by ``margin`` points (1 to :data:`MAX_MARGIN`). A position the solver
        cannot prove within ``nodes`` raises :class:`~chickenfoot.BudgetError`.

        >>> from chickenfoot import Rules, State
        >>> small = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
        >>> s = State.setup(small, board=["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
        ...                 hands=[["2-0", "1-1"], ["2-2"]], boneyard=["3-0", "0-0"])
        >>> p = Puzzle.of(s)
        >>> str(p.answer), p.margin, p.grade
        ('2-0@1-0', 50, 2)
        >>> Puzzle.of(s, margin=51)
        Traceback (most recent call last):
        ...
        chickenfoot.errors.ArgumentError: not a puzzle: the best move for seat 0, 2-0@1-0, is better than the next best by 50 points, fewer than margin=51
        """
        if not isinstance(state, State):
            raise ArgumentError(f"a puzzle needs a State (every hand open), got {brief(state)}")
        need = checks.integer(margin, "margin", low=1, high=MAX_MARGIN)
        budget = checks.integer(nodes, "nodes", low=1, high=MAX_NODES)
        checks.choice(backend, "backend", BACKENDS)
        if state.is_over():
            raise ArgumentError("not a puzzle: the round is over, nobody is to move")
        if len(state.legal_moves) < 2:
            raise ArgumentError(
                f"not a puzzle: seat {state.turn} has one legal move, "
                f"{state.legal_moves[0]}, so there is nothing to find"
            )
        sol = solve(state, nodes=budget, backend=backend)
        found = _puzzle(state, sol, need, seed=None, ply=None, played=None)
        if found is None:
            me = state.turn
            gap = _second(sol.values, sol.best, me) - sol.values[sol.best][me]
            raise ArgumentError(
                f"not a puzzle: the best move for seat {me}, {sol.best}, is better than the "
                f"next best by {gap} points, fewer than margin={need}"
            )
        return found

    @property
    def seat(self) -> int:
        """The seat to act: the one who solves the puzzle."""
        return self.state.turn

    @property
    def id(self) -> str:
        """``SEED.PLY`` for a puzzle cut from a round, else ``"-"``."""
        return "-" if self.seed is None else f"{self.seed}.{self.ply}"

    @property
    def tiles(self) -> int:
        """The tiles left in the hands."""
        return sum(self.state.hand_sizes)

    @property
    def margin(self) -> int:
        """How many points more the mover keeps after the second-best move."""
        me = self.seat
        best = self.values[self.answer][me]
        return _second(self.values, self.answer, me) - best

    @property
    def lures(self) -> int:
        """The wrong moves that cost the mover at most :data:`LURE` points more."""
        me = self.seat
        best = self.values[self.answer][me]
        return sum(
            1 for m, v in self.values.items() if m is not self.answer and v[me] - best <= LURE
        )

    @property
    def grade(self) -> int:
        """The difficulty, 1 to 5 (:func:`grade`)."""
        return grade(misses=self.misses, lures=self.lures)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as a JSON-ready ``chickenfoot/puzzle`` document (docs/puzzles.md)."""
        return {
            "format": FORMAT,
            "version": 1,
            "id": self.id,
            "seed": self.seed,
            "ply": self.ply,
            "seat": self.seat,
            "answer": str(self.answer),
            "margin": self.margin,
            "lures": self.lures,
            "misses": self.misses,
            "grade": self.grade,
            "tiles": self.tiles,
            "played": None if self.played is None else str(self.played),
            "nodes": self.nodes,
            "values": {str(m): list(v) for m, v in self.values.items()},
            "position": self.state.to_dict(),
        }

    def to_game(self) -> Game:
        """The puzzle in the game notation: the position as the start (its headers), a
        comment that sets the task, the answer with the glyph ``!`` and the solver's
        ``[%eval]`` (exact penalties, the nodes as the effort), and the second-best move
        as a variation with its own.

        >>> from chickenfoot import Rules
        >>> from chickenfoot.notation import write_game
        >>> text = write_game(next(cut(Rules(), seeds=range(3))).to_game())
        >>> print(text.split("\\n\\n")[1])
        {Puzzle 1.50, grade 1 of 5: seat 3 to play has one best move, 12 points better for it than any other.}
        3. 6-6@8-6 ! {[%eval 3:0 9:0 0:1 5:0 it=2620]} (3. 6-2@5-2
        {[%eval 8:0 15:0 0:1 17:0 it=2620]}) *
        """
        headers: dict[str, str] = {"Event": f"chickenfoot puzzle {self.id}"}
        if self.seed is not None:
            headers |= {"Seed": str(self.seed), "Round": "0"}
        plain = game_of(Record(self.state, []), headers=headers)
        task = (
            f"Puzzle {self.id}, grade {self.grade} of 5: seat {self.seat} to play has one "
            f"best move, {self.margin} points better for it than any other."
        )
        second = min(
            (m for m in self.values if m is not self.answer),
            key=lambda m: self.values[m][self.seat],
        )
        answer = Node(
            self.seat,
            str(self.answer),
            glyphs=("!",),
            comments=(self._eval(self.answer),),
            variations=((Node(self.seat, str(second), comments=(self._eval(second),)),),),
        )
        record = Record(self.state, [self.answer])
        return Game(plain.headers, (answer,), comment=(task,), record=record)

    def _eval(self, move: Move) -> str:
        v = self.values[move]
        low = min(v)
        first = [1.0 / v.count(low) if x == low else 0.0 for x in v]
        return set_eval("", Evaluation(tuple(map(float, v)), tuple(first), iterations=self.nodes))

    def __repr__(self) -> str:
        return (
            f"Puzzle(id={self.id!r}, seat={self.seat}, answer={str(self.answer)!r}, "
            f"margin={self.margin}, grade={self.grade}, tiles={self.tiles})"
        )


def _misses(state: State, answer: Move) -> int:
    """How many of the two rules of thumb (greedy, heuristic) play something else."""
    view = state.view(state.turn)
    legal = state.legal_moves
    rng = random.Random(0)
    picks = (GreedyAgent().choose(view, legal, rng), HeuristicAgent().choose(view, legal, rng))
    return sum(1 for m in picks if m is not answer)


def _second(values: Mapping[Move, tuple[int, ...]], best: Move, seat: int) -> int:
    """The seat's lowest penalty after a move other than ``best``."""
    return min(v[seat] for m, v in values.items() if m is not best)


def _puzzle(
    state: State,
    sol: Solution,
    margin: int,
    *,
    seed: int | None,
    ply: int | None,
    played: Move | None,
) -> Puzzle | None:
    """The puzzle of ``state`` solved as ``sol``, or ``None``: no move is the best by
    ``margin``."""
    me = state.turn
    if _second(sol.values, sol.best, me) - sol.values[sol.best][me] < margin:
        return None
    return Puzzle(
        state,
        sol.best,
        sol.values,
        _misses(state, sol.best),
        sol.nodes,
        seed=seed,
        ply=ply,
        played=played,
    )


def cut(
    rules: Rules | None = None,
    *,
    seeds: Iterable[int] = range(100),
    margin: int = MARGIN,
    tiles: int = TILES,
    nodes: int = NODES,
    backend: str = "auto",
) -> Iterator[Puzzle]:
    """The puzzles of the rounds dealt by ``seeds``, in order: round 0 of ``deal(rules,
    seed)`` (the house rules by default) played by a :class:`HeuristicAgent` at every seat
    (``random.Random(seed)`` for their choices), and at every position with at most
    ``tiles`` tiles in the hands and two legal moves or more, a puzzle when the solver
    proves, within ``nodes``, one move better than every other by ``margin`` points.
    Positions it cannot prove within ``nodes`` are skipped.

    Checks its options before the first round: ``margin`` 1 to :data:`MAX_MARGIN`,
    ``tiles`` 1 to :data:`MAX_TILES`, ``nodes`` 1 to 1,000,000,000.

    >>> from chickenfoot import Rules
    >>> [p.id for p in cut(Rules(), seeds=[0, 1, 2, 3])]
    ['1.50', '3.45']
    >>> next(cut(Rules(), tiles=0))
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: tiles=0 is invalid: must be an integer from 1 to 40
    """
    table = Rules() if rules is None else checks.instance(rules, Rules, "rules")
    need = checks.integer(margin, "margin", low=1, high=MAX_MARGIN)
    most = checks.integer(tiles, "tiles", low=1, high=MAX_TILES)
    budget = checks.integer(nodes, "nodes", low=1, high=MAX_NODES)
    checks.choice(backend, "backend", BACKENDS)
    return _cut(table, seeds, need, most, budget, backend)


def _cut(
    rules: Rules, seeds: Iterable[int], margin: int, tiles: int, nodes: int, backend: str
) -> Iterator[Puzzle]:
    agent = HeuristicAgent()
    for i, raw in enumerate(seeds):
        seed = checks.seed(raw, f"seeds[{i}]")
        state = deal(rules, seed)
        rng = random.Random(seed)
        ply = 0
        while not state.is_over():
            legal = state.legal_moves
            move = agent.choose(state.view(state.turn), legal, rng)
            if len(legal) > 1 and sum(state.hand_sizes) <= tiles:
                try:
                    sol = solve(state, nodes=nodes, backend=backend)
                except BudgetError:
                    sol = None  # not proven within the budget: skipped
                found = (
                    None
                    if sol is None
                    else _puzzle(state, sol, margin, seed=seed, ply=ply, played=move)
                )
                if found is not None:
                    yield found
            state = state.apply(move)
            ply += 1
