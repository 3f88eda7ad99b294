"""Seeded simulations: many whole matches among agents, in this process or on any executor.

:func:`simulate` plays ``games`` matches, rotating the seats from game to game, and
summarizes each agent's scores and wins with 95% confidence intervals. The numbers depend
only on the rules, the agents, ``games`` and ``seed``: not on the executor (none, a process
pool, a Dask cluster) nor on how many workers it has.

>>> from chickenfoot import Rules, Rounds
>>> from chickenfoot.agents import GreedyAgent, RandomAgent
>>> agents = [GreedyAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
>>> result = simulate(Rules(match=Rounds(1)), agents, games=40, seed=1)
>>> result.games, len(result.agents), result.rounds_per_match
(40, 4, 1.0)
>>> round(sum(a.win_rate for a in result.agents), 9)
1.0
"""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, as_completed
from fractions import Fraction
from typing import Any, Final, NamedTuple, TextIO

import attrs

from chickenfoot import _checks as checks
from chickenfoot.agents import Agent, check_agents, play_match
from chickenfoot.errors import (
    AgentError,
    ArgumentError,
    RulesError,
    brief,
)
from chickenfoot.rules import Rules
from chickenfoot.state import State

__all__ = [
    "MAX_GAMES",
    "AgentStats",
    "SimulationResult",
    "mean_interval",
    "simulate",
    "wilson_interval",
]

MAX_GAMES: Final = 1_000_000_000
"""The most games one :func:`simulate` plays."""

_LARGEST = 1e150  # the largest magnitude mean_interval takes: squares and sums stay floats

Z95 = 1.96
"""The normal quantile of the 95% intervals."""


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of ``values`` and its 95% normal interval, mean ± 1.96·s/√n.

    ``values`` are finite numbers from -1e150 to 1e150 (scores, rates; their squares must
    be floats).

    ``s`` is the sample standard deviation (divisor ``n - 1``). One value gives the
    interval ``(mean, mean)``: a single game says nothing about the spread. The interval is
    not clipped (its low end may be below 0 for scores near 0). The sums are exact
    (fractions), so the result does not depend on the order of ``values``.

    >>> mean, (low, high) = mean_interval([1, 2, 3, 4])  # s = √(5/3)
    >>> mean, round(low, 4), round(high, 4)
    (2.5, 1.2348, 3.7652)
    >>> mean_interval([7])
    (7.0, (7.0, 7.0))
    """
    if isinstance(values, (str, bytes, bytearray)) or not isinstance(values, Iterable):
        raise checks.invalid("values", values, "must be a sequence of numbers")
    exact = [
        Fraction(checks.real(v, f"values[{i}]", low=-_LARGEST, high=_LARGEST))
        for i, v in enumerate(values)
    ]
    if not exact:
        raise ArgumentError("mean_interval needs at least one value")
    return _normal(len(exact), sum(exact, Fraction(0)), sum((x * x for x in exact), Fraction(0)))


def _normal(n: int, s1: Fraction | int, s2: Fraction | int) -> tuple[float, tuple[float, float]]:
    """:func:`mean_interval` from the count, the sum and the sum of squares (exact)."""
    mean = Fraction(s1) / n
    if n == 1:
        return float(mean), (float(mean), float(mean))
    half = Z95 * math.sqrt((s2 - n * mean * mean) / (n - 1)) / math.sqrt(n)
    return float(mean), (float(mean) - half, float(mean) + half)


def wilson_interval(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion: ``successes`` out of ``n`` trials
    (``n`` an integer from 1 to 2**53, the integers a float holds exactly).

    ``successes`` may be fractional (shared wins). With ``p = successes / n`` and
    ``z = 1.96``: centre ``(p + z²/2n) / (1 + z²/n)``, half-width
    ``z·√(p(1-p)/n + z²/4n²) / (1 + z²/n)``; it always holds ``p`` and lies in ``[0, 1]``.

    >>> [round(x, 4) for x in wilson_interval(3, 10)]
    [0.1078, 0.6032]
    >>> [round(x, 4) for x in wilson_interval(0, 5)]
    [0.0, 0.4345]
    """
    checks.integer(n, "n", low=1, high=2**53)
    checks.real(successes, "successes", low=0, high=n)
    p, z2 = successes / n, Z95 * Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))  # rounding: still holds p
    return low, 1.0 if successes == n else max(p, min(1.0, centre + half))


@attrs.frozen
class AgentStats:
    """One agent's summary over a simulation (the agent, not a seat: seats rotate).

    ``mean_score`` is the mean match total (penalty points, lower is better) with its 95%
    normal interval ``score_ci``; ``win_rate`` is the agent's share of the wins, a win
    shared by ``k`` seats counting ``1/k`` for each, with its 95% Wilson interval ``win_ci``.
    """

    agent: str
    """The agent's ``repr``, cut to 60 characters."""
    mean_score: float
    score_ci: tuple[float, float]
    win_rate: float
    win_ci: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the intervals as lists)."""
        return {
            "agent": self.agent,
            "mean_score": self.mean_score,
            "score_ci": list(self.score_ci),
            "win_rate": self.win_rate,
            "win_ci": list(self.win_ci),
        }


@attrs.frozen
class SimulationResult:
    """What :func:`simulate` found: one :class:`AgentStats` per agent, indexed like the
    ``agents`` given, and the mean match length.

    ``moves_per_round`` counts every move (plays, draws, passes) of every round played,
    divided by the number of rounds; ``rounds_per_match`` is rounds over ``games``.
    """

    rules: Rules
    seed: int
    games: int
    agents: tuple[AgentStats, ...]
    moves_per_round: float
    rounds_per_match: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the rules as their JSON object, docs: Formats).

        >>> from chickenfoot import Rules, Rounds
        >>> from chickenfoot.agents import RandomAgent
        >>> d = simulate(Rules(players=2, match=Rounds(1)), [RandomAgent()] * 2, games=3,
        ...              seed=0).to_dict()
        >>> list(d), list(d["agents"][0])
        (['rules', 'seed', 'games', 'moves_per_round', 'rounds_per_match', 'agents'], ['agent', 'mean_score', 'score_ci', 'win_rate', 'win_ci'])
        """
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "games": self.games,
            "moves_per_round": self.moves_per_round,
            "rounds_per_match": self.rounds_per_match,
            "agents": [a.to_dict() for a in self.agents],
        }

    def __str__(self) -> str:
        head = (
            f"{self.games} game{'s' if self.games != 1 else ''} of {len(self.agents)} players, "
            f"seed {self.seed}: {self.rounds_per_match:.2f} rounds per match, "
            f"{self.moves_per_round:.1f} moves per round"
        )
        names = [f"{i} {a.agent}" for i, a in enumerate(self.agents)]
        width = max(len("agent"), *map(len, names))
        rows = [f"{'agent':<{width}} {'mean score':>10}  {'95% CI':<16} {'win rate':>8}  95% CI"]
        for name, a in zip(names, self.agents, strict=True):
            (lo, hi), (wlo, whi) = a.score_ci, a.win_ci
            rows.append(
                f"{name:<{width}} {a.mean_score:>10.1f}  {f'[{lo:.1f}, {hi:.1f}]':<16} "
                f"{a.win_rate:>8.1%}  [{wlo:.1%}, {whi:.1%}]"
            )
        return "\n".join([head, *rows])


def _is_process_pool(executor: Executor) -> bool:
    """Whether ``executor`` is a process pool. Its class is imported here, not with the
    module: it needs ``_multiprocessing``, which some Pythons lack (Pyodide, in a browser),
    and ``import chickenfoot`` must work there."""
    try:
        from concurrent.futures import ProcessPoolExecutor
    except ImportError:
        return False
    return isinstance(executor, ProcessPoolExecutor)


def _kind(value: object) -> str:
    name = type(value).__name__[:40]
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _label(agent: object) -> str:
    try:
        text = repr(agent)
    except Exception:  # a hostile __repr__: say only what it is
        text = f"<a {type(agent).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


class _Game(NamedTuple):
    """One game's record, by agent (not seat)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    moves: int
    record: str = ""
    """The match in the notation, when asked for (else empty)."""


def _play_game(
    rules: Rules, agents: tuple[Agent, ...], seed: int, game: int, keep: bool = False
) -> _Game:
    """Play game ``game`` of a simulation seeded ``seed`` (a top-level, picklable task);
    with ``keep``, its match is written in the notation too."""
    players = rules.players
    rng = random.Random(f"simulate:{seed}:{game}")
    match_seed = rng.getrandbits(53)
    seated = [agents[(seat - game) % players] for seat in range(players)]
    moves = [0]
    ends: list[State] = []

    def count(end: State) -> None:
        moves[0] += len(end.history)
        if keep:
            ends.append(end)

    result = play_match(rules, seated, seed=match_seed, rng=rng, on_round=count).result()
    totals = tuple(result.totals[(i + game) % players] for i in range(players))
    winners = tuple(sorted((seat - game) % players for seat in result.winners))
    text = _notation(rules, seated, seed, game, match_seed, ends) if keep else ""
    return _Game(totals, winners, result.rounds, moves[0], text)


def _notation(
    rules: Rules,
    seated: list[Agent],
    seed: int,
    game: int,
    match_seed: int,
    ends: list[State],
) -> str:
    """Game ``game``'s match in the notation (``full``): the agents at their seats, the
    match's seed, every round from its deal."""
    from chickenfoot.deal import deal
    from chickenfoot.notation import write_match_rounds
    from chickenfoot.record import Record

    headers = {"Event": f"chickenfoot simulate, seed {seed}, game {game}"}
    for i, agent in enumerate(seated):
        headers[f"Agent{i}"] = _label(agent)
    rounds = [
        Record(deal(rules, match_seed, k), [e.move for e in end.history])
        for k, end in enumerate(ends)
    ]
    return write_match_rounds(rules, seed=match_seed, rounds=rounds, headers=headers)


def _check(
    rules: Any, agents: Any, games: Any, seed: Any, executor: Any, progress: Any
) -> tuple[Agent, ...]:
    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    check_agents(agents, rules.players)
    checks.integer(games, "games", low=1, high=MAX_GAMES)
    checks.seed(seed)
    if executor is not None and not isinstance(executor, Executor):
        raise checks.invalid("executor", executor, "must be a concurrent.futures.Executor or None")
    if progress is not None and not callable(progress):
        raise checks.invalid("progress", progress, "must be callable or None")
    if executor is not None and _is_process_pool(executor):
        for i, a in enumerate(agents):
            try:
                pickle.dumps(a)
            except Exception as err:
                why = " ".join(str(err).split())[:160] or type(err).__name__
                raise AgentError(
                    f"agents[{i}] ({_kind(a)}) cannot be pickled, which a process pool needs: "
                    f"{why} (every part of an agent must be picklable: its class and what it "
                    "holds defined at module level, no lambdas, open files or locks)"
                ) from None
    return tuple(agents)


def simulate(
    rules: Rules,
    agents: Sequence[Agent],
    *,
    games: int,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
    records: TextIO | None = None,
) -> SimulationResult:
    """Play ``games`` whole matches of ``rules`` among ``agents`` and summarize them.

    Seats rotate: in game ``g`` (from 0), ``agents[i]`` sits at seat ``(i + g) % players``,
    so every agent leads round 0 equally often over ``players`` games. Game ``g`` takes its
    randomness from ``rng = random.Random(f"simulate:{seed}:{g}")``: the match is dealt
    with seed ``rng.getrandbits(53)``, then the agents draw from ``rng``. Each game is one
    task for ``executor`` (``None``: played here, one after another); the results are
    summed in game order with exact arithmetic, so the numbers are the same whatever the
    executor and its worker count. ``progress(done, games)`` is called in this process as
    each game finishes (``done`` = 1, 2, ..., ``games``).

    ``records``: a text handle every game is written to as it is summed, in game order
    and whatever the executor, as a match in the notation (docs/notation.md; ``full``: every
    hand), its ``Event`` naming the seed and the game, ``AgentK`` the agent at seat K
    (``repr``), ``Seed`` the match's seed and every round its ``Round``. Memory stays
    bounded: at most 256 games are held before they are written.

    The agents must be picklable for an executor that runs games in other processes
    (the built-in agents are); with a :class:`~concurrent.futures.ProcessPoolExecutor`
    that is checked first. Bad arguments raise :class:`~chickenfoot.RulesError` (``rules``),
    :class:`~chickenfoot.AgentError` (``agents``) or :class:`~chickenfoot.ArgumentError`
    (``games``, ``seed``, ``executor``, ``progress``; also an executor that refuses the
    games, e.g. one already shut down, or whose ``submit`` returns no future).

    >>> from chickenfoot import Rules, Rounds
    >>> from chickenfoot.agents import GreedyAgent, RandomAgent
    >>> agents = [GreedyAgent(), RandomAgent()]
    >>> print(simulate(Rules(players=2, match=Rounds(1)), agents, games=50, seed=7))
    50 games of 2 players, seed 7: 1.00 rounds per match, 65.8 moves per round
    agent           mean score  95% CI           win rate  95% CI
    0 GreedyAgent()       31.8  [23.2, 40.3]        80.0%  [67.0%, 88.8%]
    1 RandomAgent()       66.6  [54.8, 78.3]        20.0%  [11.2%, 33.0%]
    >>> simulate(Rules(), agents, games=1, seed=0)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: expected 4 agents (one per seat), got 2
    """
    seated = _check(rules, agents, games, seed, executor, progress)
    if records is not None and not callable(getattr(records, "write", None)):
        raise checks.invalid("records", records, "must be a text handle (with write) or None")
    keep = records is not None
    sums = _Sums(len(seated))
    if executor is None:
        for g in range(games):
            played = _play_game(rules, seated, seed, g, keep)
            sums.add(played)
            if records is not None:
                records.write(played.record)
            if progress is not None:
                progress(g + 1, games)
        return sums.result(rules, seed, seated)
    done = 0
    size = _KEPT_BATCH if keep else _BATCH
    for first in range(0, games, size):  # bounded memory for any number of games
        futures: dict[Future[_Game], int] = {}
        try:
            for g in range(first, min(first + size, games)):
                futures[_submit(executor, rules, seated, seed, g, keep)] = g - first
            batch: list[_Game | None] = [None] * len(futures)
            for future in as_completed(futures):
                batch[futures[future]] = future.result()
                done += 1
                if progress is not None:
                    progress(done, games)
        finally:
            for future in futures:
                future.cancel()
        for record in batch:
            assert record is not None
            sums.add(record)
            if records is not None:
                records.write(record.record)
    return sums.result(rules, seed, seated)


def _submit(
    executor: Executor, rules: Rules, agents: tuple[Agent, ...], seed: int, game: int, keep: bool
) -> Future[_Game]:
    """``executor.submit`` of one game, with the executor's refusals as the library's error:
    a shut-down executor raises ``RuntimeError``, a broken one something else, and an
    object whose ``submit`` returns no future could not be waited for."""
    try:
        future = executor.submit(_play_game, rules, agents, seed, game, keep)
    except Exception as err:
        raise checks.invalid(
            "executor",
            executor,
            f"must accept the games: its submit() raised {type(err).__name__}: "
            f"{' '.join(str(err).split())[:120]}",
        ) from None
    if not isinstance(future, Future):
        raise checks.invalid(
            "executor",
            executor,
            f"must return a concurrent.futures.Future from submit(), not {brief(future)}",
        )
    return future


_BATCH = 4096
"""Games submitted to an executor at a time."""
_KEPT_BATCH = 256
"""Games submitted at a time when their records are kept (each holds its match's text)."""


class _Sums:
    """Exact running sums over the games, by agent (index in ``agents``)."""

    def __init__(self, players: int) -> None:
        self.games = self.rounds = self.moves = 0
        self.s1 = [0] * players
        self.s2 = [0] * players
        self.wins = [Fraction(0)] * players

    def add(self, game: _Game) -> None:
        self.games += 1
        self.rounds += game.rounds
        self.moves += game.moves
        for i, total in enumerate(game.totals):
            self.s1[i] += total
            self.s2[i] += total * total
        for i in game.winners:
            self.wins[i] += Fraction(1, len(game.winners))

    def result(self, rules: Rules, seed: int, agents: tuple[Agent, ...]) -> SimulationResult:
        n = self.games
        stats = []
        for i, agent in enumerate(agents):
            mean, ci = _normal(n, self.s1[i], self.s2[i])
            rate = self.wins[i] / n
            stats.append(
                AgentStats(
                    _label(agent), mean, ci, float(rate), wilson_interval(float(self.wins[i]), n)
                )
            )
        return SimulationResult(
            rules=rules,
            seed=seed,
            games=n,
            agents=tuple(stats),
            moves_per_round=self.moves / self.rounds,
            rounds_per_match=self.rounds / n,
        )
