"""A ladder: how strong is each of several agents, on duplicate deals, with intervals.

:func:`play_ladder` plays every deal under every seating of its table (each rotation, in
an order drawn for the deal, or each permutation when there are at most six), so every
agent gets the same cards from every seat and the luck of the deal cancels, and plays
right after each other agent as often as right before it; it rates the agents (``openskill``'s
Plackett-Luce model: the ``ladder`` extra), compares every pair that met (mean penalty
difference and win share, with 95% intervals over the deals), splits the variance of the
score into deal, skill and the rest, and can stop as soon as a sequential test (:class:`Sprt`)
decides whether one agent is stronger than another. Games are appended to a results file
(JSON lines) as they finish; a later run with the same file continues it. The command
line is ``chickenfoot ladder`` (docs: Strength).

>>> from chickenfoot import Rules
>>> result = play_ladder(Rules(players=2), ["random", "greedy"], deals=20, seed=1)
>>> result.deals, result.games, [r.agent for r in result.ratings]
(20, 40, ['greedy', 'random'])
>>> pair = result.pairs[0]
>>> (pair.a, pair.b), pair.share < 0.5 < 1 - pair.share
(('random', 'greedy'), True)
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Final, TextIO

import attrs

from chickenfoot import _checks as checks
from chickenfoot.agents import Agent
from chickenfoot.errors import AgentError, LadderError, RulesError, brief
from chickenfoot.ladder._file import ResultsFile, header
from chickenfoot.ladder._play import (
    GAMES,
    MAX_DEALS,
    SEATINGS,
    Game,
    Task,
    play,
    seatings,
    tables,
)
from chickenfoot.ladder._play import play as play_game
from chickenfoot.ladder._plot import ratings_svg
from chickenfoot.ladder._stats import (
    Pair,
    Rating,
    Sprt,
    Variance,
    complete,
    head_to_head,
    pairs,
    ratings,
    variance,
)
from chickenfoot.rules import Rules
from chickenfoot.specs import Trust, parse_spec, rules_refusal

__all__ = [
    "GAMES",
    "MAX_DEALS",
    "SEATINGS",
    "LadderError",
    "LadderResult",
    "Game",
    "Pair",
    "Rating",
    "Sprt",
    "Task",
    "Variance",
    "play_game",
    "play_ladder",
    "ratings_svg",
    "seatings",
    "tables",
]

_WINDOW: Final = 32
"""Games handed to an executor at a time (a decided test stops soon after)."""


@attrs.frozen
class LadderResult:
    """What a ladder found, from every complete deal of its results (this run's and those
    the file already held).

    ``deals`` complete deals, ``games`` games in them; ``ratings`` strongest first;
    ``pairs`` every pair that met; ``variance`` the split of a seat's penalty (``None``
    under two deals); ``sprt`` the test, if one was asked for."""

    rules: Rules
    agents: tuple[str, ...]
    seed: int
    game: str
    deals: int
    games: int
    ratings: tuple[Rating, ...]
    pairs: tuple[Pair, ...]
    variance: Variance | None
    sprt: Sprt | None

    @property
    def players(self) -> int:
        """The seats at a table."""
        return self.rules.players

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON: ``players``, ``deals``, ``ratings`` (``{"agent", "mu",
        "sigma"}``, strongest first) and the rest."""
        test = self.sprt
        return {
            "players": self.players,
            "deals": self.deals,
            "games": self.games,
            "game": self.game,
            "seed": self.seed,
            "agents": list(self.agents),
            "ratings": [r.to_dict() for r in self.ratings],
            "pairs": [p.to_dict() for p in self.pairs],
            "variance": None if self.variance is None else self.variance.to_dict(),
            "sprt": None
            if test is None
            else {
                "a": test.a,
                "b": test.b,
                "elo0": test.elo0,
                "elo1": test.elo1,
                "alpha": test.alpha,
                "beta": test.beta,
                "llr": test.llr,
                "bounds": list(test.bounds),
                "deals": test.units,
                "decision": test.decision,
            },
            "rules": self.rules.to_dict(),
        }

    def svg(self) -> str:
        """The ratings as an SVG picture (:func:`ratings_svg`)."""
        return ratings_svg(
            self.ratings, title=f"Ratings at {self.players} seats, {self.deals} deals"
        )


def _check(rules: Any, agents: Any, deals: Any, seed: Any, game: Any, how: Any) -> list[str]:
    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise checks.invalid("agents", agents, "must be a list of agent specs")
    names = [parse_spec(a).name for a in agents]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise LadderError(f"the ladder names {', '.join(twice)} more than once")
    if len(names) < max(2, rules.players):
        raise LadderError(
            f"a ladder at {rules.players} seats needs at least {max(2, rules.players)} "
            f"agents, got {len(names)}"
        )
    checks.integer(deals, "deals", low=1, high=MAX_DEALS)
    checks.seed(seed)
    checks.choice(game, "game", GAMES)
    checks.choice(how, "seatings", SEATINGS)
    return names


def _picklable(agents: Sequence[Agent], names: Sequence[str]) -> None:
    for name, a in zip(names, agents, strict=True):
        try:
            pickle.dumps(a)
        except Exception as err:
            raise AgentError(
                f"agent {brief(name)} cannot be pickled, which a process pool needs: "
                f"{' '.join(str(err).split())[:160] or type(err).__name__}"
            ) from None


def play_ladder(
    rules: Rules,
    agents: Sequence[str],
    *,
    deals: int,
    seed: int,
    trust: Trust | None = None,
    game: str = "round",
    seatings: str = "auto",
    results: str | os.PathLike[str] | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
    sprt: Sprt | None = None,
    records: TextIO | None = None,
) -> LadderResult:
    """Play a ladder of ``agents`` (specs: ``random``, ``search:64``, ``engine:COMMAND``,
    ``module:Class``, built under ``trust``, default :meth:`Trust.user`) over ``deals``
    duplicate deals of ``rules``, and rate them.

    ``game`` is ``"round"`` (one round, the default) or ``"match"``; ``seatings`` how a
    deal is seated (:data:`SEATINGS`). ``results``: a JSON-lines file the games are appended
    to; one that already holds games of this ladder (the same rules, agents, seed, game
    and seatings) is continued, and ``deals`` counts its deals too; one of another ladder
    raises :class:`LadderError`. ``executor``: where games are played (``None``: here), the
    numbers the same whatever it is. ``progress(done, total)`` is called after each game of
    this run. ``sprt``: a test of ``sprt.a`` against ``sprt.b`` (both agents of the ladder);
    the ladder stops at the first deal where it decides. ``records``: a text handle every
    game of this run is written to in the notation (docs/notation.md; ``full``), in the
    order of the deals and seatings whatever the executor, its ``Event`` naming the
    seed, the deal and the seating and ``AgentK`` the spec at seat K.

    A ladder asked for what it cannot do (agents named twice or too few for the table,
    an SPRT of agents not among them, a results file that is not this ladder's or not a
    regular file) raises :class:`~chickenfoot.LadderError` before anything is played or
    written. An agent that fails in a game (an engine that crashed, an illegal move) stops
    the ladder: the games played are kept (in ``results``), and
    :class:`~chickenfoot.AgentError` names the agent, its seat and the deal.

    >>> from chickenfoot import Rules
    >>> play_ladder(Rules(), ["random", "greedy"], deals=1, seed=0)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.LadderError: a ladder at 4 seats needs at least 4 agents, got 2
    """
    names = _check(rules, agents, deals, seed, game, seatings)
    if records is not None and not callable(getattr(records, "write", None)):
        raise checks.invalid("records", records, "must be a text handle (with write) or None")
    trust = Trust.user() if trust is None else trust
    specs = [trust.check(parse_spec(a)) for a in agents]
    if sprt is not None:
        if not isinstance(sprt, Sprt):
            raise checks.invalid("sprt", sprt, "must be a Sprt or None")
        for side in (sprt.a, sprt.b):
            if side not in names:
                raise LadderError(f"the SPRT's agent {brief(side)} is not one of the ladder's")
        if sprt.a == sprt.b:
            raise LadderError("the SPRT compares two different agents")
    table_of = tables(len(names), rules.players)
    plan = {d: _seated(table_of[d % len(table_of)], seatings, seed, d) for d in range(deals)}
    count = {d: len(s) for d, s in plan.items()}
    file = None
    games: list[Game] = []
    if results is not None:
        head = header(rules.to_dict(), names, seed, game, seatings)
        file = ResultsFile(results, head, rules.players)
    try:
        if file is not None:  # check first (nothing written, no agent built)...
            games = file.read()
            _same_seatings(games, plan, file.name)
        built = tuple(s.build(trust=trust) for s in specs)
        why = rules_refusal(list(zip(names, built, strict=True)), rules)
        if why is not None:  # before a game is played or a line written
            raise LadderError(f"the agent {why}")
        if isinstance(executor, ProcessPoolExecutor):
            _picklable(built, names)
        if file is not None:  # ... write after
            file.start()
        done = {(g.task.deal, g.task.seating) for g in games if g.error is None}
        tasks = [
            Task(d, k, seats)
            for d in range(deals)
            for k, seats in enumerate(plan[d])
            if (d, k) not in done
        ]
        runner = _Runner(rules, built, game, seed, names, count, sprt, file, progress)
        runner.records = records
        runner.start(games)
        runner.run(tasks, executor)
    finally:
        if file is not None:
            file.close()
    return runner.result(deals)


def _same_seatings(games: list[Game], plan: dict[int, list[tuple[int, ...]]], name: str) -> None:
    """A file of this ladder holds its seatings (an edited one may not)."""
    for g in games:
        d, k = g.task.deal, g.task.seating
        if d in plan and (k >= len(plan[d]) or plan[d][k] != g.task.seats):
            raise LadderError(
                f"{name}: deal {d}, seating {k} seats agents {list(g.task.seats)}, "
                "not this ladder's seating of that deal"
            )


def _cut(text: str, most: int = 240) -> str:
    """``text`` (an error already on one line), cut to ``most`` characters."""
    return text if len(text) <= most else f"{text[: most - 3]}..."


def _seated(table: tuple[int, ...], how: str, seed: int, deal: int) -> list[tuple[int, ...]]:
    """:func:`seatings` of deal ``deal`` (whose name is also an option of
    :func:`play_ladder`)."""
    return seatings(table, how, seed=seed, deal_index=deal)


class _Runner:
    """The games of one run, the test fed in deal order, the file written as they finish."""

    def __init__(
        self,
        rules: Rules,
        agents: tuple[Agent, ...],
        game: str,
        seed: int,
        names: list[str],
        count: dict[int, int],
        sprt: Sprt | None,
        file: ResultsFile | None,
        progress: Callable[[int, int], object] | None,
    ) -> None:
        self.rules, self.agents, self.game, self.seed = rules, agents, game, seed
        self.names, self.count, self.sprt, self.file = names, count, sprt, file
        self.progress = progress
        self.games: list[Game] = []
        self.frontier = 0  # the next deal the test has not seen
        self.failed: Game | None = None
        self.records: TextIO | None = None

    def start(self, games: list[Game]) -> None:
        self.games = list(games)
        self._feed()

    def _decided(self) -> bool:
        return self.sprt is not None and self.sprt.decision is not None

    def _feed(self) -> None:
        """Feed the test every deal complete from the frontier on, in deal order."""
        if self.sprt is None:
            return
        deals = complete(self.games, self.count)
        a, b = self.names.index(self.sprt.a), self.names.index(self.sprt.b)
        while self.frontier in deals and not self._decided():
            shares = head_to_head({self.frontier: deals[self.frontier]}, a, b)
            if shares:
                self.sprt.add(shares[0])
            self.frontier += 1

    def _finish(self, game: Game) -> None:
        self.games.append(game)
        if self.file is not None:
            self.file.add(game)
        if self.records is not None and game.record:
            self.records.write(game.record)
        if game.error is not None and self.failed is None:
            self.failed = game

    def run(self, tasks: list[Task], executor: Executor | None) -> None:
        total = len(tasks)
        done = 0
        window = 1 if executor is None else _WINDOW
        position = 0
        while position < total and self.failed is None and not self._decided():
            batch = tasks[position : position + window]
            position += len(batch)
            if executor is None:
                finished = [
                    play(self.rules, self.agents, self.game, self.seed, batch[0], self._names())
                ]
            else:
                finished = self._on(executor, batch)
            for game in finished:
                self._finish(game)
                done += 1
                if self.progress is not None:
                    self.progress(done, total)
            self._feed()
        if self.failed is not None:
            g = self.failed
            seat = g.seat if g.seat is not None else 0
            kept = f"; the games played are kept in {self.file.name}" if self.file else ""
            raise AgentError(
                f"deal {g.task.deal} (seating {g.task.seating}), seat {seat}: the agent "
                f"{brief(self.names[g.task.seats[seat]], 80)} failed: {_cut(g.error or '')}{kept}"
            )

    def _on(self, executor: Executor, batch: list[Task]) -> list[Game]:
        futures: list[Future[Game]] = []
        try:
            for task in batch:
                futures.append(
                    executor.submit(
                        play, self.rules, self.agents, self.game, self.seed, task, self._names()
                    )
                )
            # In task order, whatever order they finish in: files and records do not
            # depend on the executor.
            return [f.result() for f in futures]
        finally:
            for f in futures:
                f.cancel()

    def _names(self) -> tuple[str, ...] | None:
        """The agents' specs when records are kept (games then write their notation)."""
        return None if self.records is None else tuple(self.names)

    def result(self, deals: int) -> LadderResult:
        complete_deals = {d: g for d, g in complete(self.games, self.count).items() if d < deals}
        return LadderResult(
            rules=self.rules,
            agents=tuple(self.names),
            seed=self.seed,
            game=self.game,
            deals=len(complete_deals),
            games=sum(len(g) for g in complete_deals.values()),
            ratings=tuple(ratings(self.names, complete_deals)),
            pairs=tuple(pairs(self.names, complete_deals)),
            variance=variance(complete_deals, len(self.names)),
            sprt=self.sprt,
        )
