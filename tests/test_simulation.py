"""simulate(): seeded, seat-rotating tournaments on any executor, and their statistics."""

from __future__ import annotations

import math
import multiprocessing
import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot.simulation as simulation
from chickenfoot import ChickenFootError, Rounds, Rules, RulesError, deal, half_match
from chickenfoot.agents import GreedyAgent, RandomAgent, play_match, play_round
from chickenfoot.errors import AgentError, ArgumentError
from chickenfoot.simulation import (
    AgentStats,
    SimulationResult,
    mean_interval,
    simulate,
    wilson_interval,
)

ONE_ROUND = Rules(match=Rounds(1))
FOUR = (GreedyAgent(), RandomAgent(), RandomAgent(), RandomAgent())
# A tiny two-player set where a blank left in hand scores 0: shared wins are frequent.
TINY = Rules(
    players=2,
    max_pip=3,
    hand_size=3,
    opening_toes=2,
    foot_toes=1,
    double_blank=0,
    match=Rounds(1),
)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Two worker processes, started with ``spawn`` (no fork of a threaded process)."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        yield ex


def by_hand(
    rules: Rules, agents: Any, seed: int, games: int
) -> tuple[list[list[int]], list[Fraction], int]:
    """The documented derivation, replayed with play_match: per-agent totals, win shares
    (1/k for a win shared by k seats) and the number of shared wins."""
    p = rules.players
    totals: list[list[int]] = [[] for _ in range(p)]
    shares = [Fraction(0)] * p
    shared = 0
    for g in range(games):
        rng = random.Random(f"simulate:{seed}:{g}")
        match_seed = rng.getrandbits(53)
        seated = [agents[(seat - g) % p] for seat in range(p)]
        result = play_match(rules, seated, seed=match_seed, rng=rng).result()
        for i in range(p):
            totals[i].append(result.totals[(i + g) % p])
        for seat in result.winners:
            shares[(seat - g) % p] += Fraction(1, len(result.winners))
        shared += len(result.winners) > 1
    return totals, shares, shared


# -- executors ---------------------------------------------------------------------------------


def test_process_pool_gives_the_serial_numbers(pool: ProcessPoolExecutor) -> None:
    serial = simulate(ONE_ROUND, FOUR, games=24, seed=3)
    assert simulate(ONE_ROUND, FOUR, games=24, seed=3, executor=pool) == serial
    agents = [GreedyAgent(), RandomAgent()]
    rules = Rules(players=2, match=half_match(9))
    serial = simulate(rules, agents, games=8, seed=11)
    assert serial.rounds_per_match == 5.0
    assert simulate(rules, agents, games=8, seed=11, executor=pool) == serial


def test_any_executor_and_batches_give_the_serial_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    serial = simulate(ONE_ROUND, FOUR, games=10, seed=5)
    monkeypatch.setattr(simulation, "_BATCH", 3)  # batches 3 + 3 + 3 + 1
    calls: list[tuple[int, int]] = []
    with ThreadPoolExecutor(3) as ex:
        threaded = simulate(
            ONE_ROUND, FOUR, games=10, seed=5, executor=ex, progress=lambda *a: calls.append(a)
        )
    assert threaded == serial
    assert calls == [(k, 10) for k in range(1, 11)]


def test_progress_is_called_once_per_game_in_order(pool: ProcessPoolExecutor) -> None:
    for executor in (None, pool):
        calls: list[tuple[int, int]] = []
        simulate(
            TINY,
            [RandomAgent()] * 2,
            games=7,
            seed=1,
            executor=executor,
            progress=lambda *a, calls=calls: calls.append(a),
        )
        assert calls == [(k, 7) for k in range(1, 8)]


# -- what is played ----------------------------------------------------------------------------


def test_results_follow_the_documented_seeds_and_seating() -> None:
    """Every number recomputed from play_match under the documented derivation, by agent."""
    agents = [GreedyAgent(), RandomAgent()]
    result = simulate(TINY, agents, games=12, seed=4)
    totals, shares, shared = by_hand(TINY, agents, 4, 12)
    assert shared > 0  # the 1/k rule is exercised
    for i, stats in enumerate(result.agents):
        assert (stats.mean_score, stats.score_ci) == mean_interval(totals[i])
        assert stats.win_rate == float(shares[i] / 12)
        assert stats.win_ci == wilson_interval(float(shares[i]), 12)
    assert sum(shares) == 12  # one win per game, however shared
    assert result.rounds_per_match == 1.0 and result.games == 12 and result.seed == 4


def test_whole_matches_are_the_ones_play_match_plays() -> None:
    rules = Rules(players=3, match=half_match(9))
    agents = [GreedyAgent(), RandomAgent(), GreedyAgent()]
    result = simulate(rules, agents, games=4, seed=6)
    totals, shares, _ = by_hand(rules, agents, 6, 4)
    assert [a.mean_score for a in result.agents] == [sum(t) / 4 for t in totals]
    assert [a.win_rate for a in result.agents] == [float(w / 4) for w in shares]
    assert result.rounds_per_match == 5.0


def test_moves_per_round_counts_every_move() -> None:
    result = simulate(ONE_ROUND, FOUR, games=6, seed=2)
    moves = 0
    for g in range(6):
        rng = random.Random(f"simulate:2:{g}")
        state = deal(ONE_ROUND, rng.getrandbits(53))
        moves += len(play_round(state, [FOUR[(s - g) % 4] for s in range(4)], rng).history)
    assert result.moves_per_round == moves / 6


@attrs.frozen
class Recorder:
    """Plays at random and records the seat of every decision it is asked for."""

    seats: list[int] = attrs.field(factory=list, eq=False)

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        self.seats.append(view.seat)
        return rng.choice(legal)


def test_seats_rotate_from_game_to_game() -> None:
    recorders = [Recorder(), Recorder(), Recorder()]
    marks: list[list[int]] = []  # after each game: how many decisions each had recorded
    rules = Rules(players=3, match=Rounds(1))
    simulate(
        rules,
        recorders,
        games=6,
        seed=8,
        progress=lambda done, total: marks.append([len(r.seats) for r in recorders]),
    )
    starts = [[0, 0, 0], *marks[:-1]]
    for g in range(6):
        for i, r in enumerate(recorders):
            asked = set(r.seats[starts[g][i] : marks[g][i]])
            assert asked == {(i + g) % 3}, (g, i, asked)


def test_the_strong_agent_is_found_wherever_it_is_listed() -> None:
    """Stats are by agent, not seat: swapping the list swaps the numbers' places."""
    rules = Rules(players=2, match=Rounds(1))
    a = simulate(rules, [GreedyAgent(), RandomAgent()], games=40, seed=9)
    b = simulate(rules, [RandomAgent(), GreedyAgent()], games=40, seed=9)
    assert a.agents[0].agent == b.agents[1].agent == "GreedyAgent()"
    assert a.agents[0].win_rate > 0.6 and b.agents[1].win_rate > 0.6
    assert a.agents[0].mean_score < a.agents[1].mean_score
    assert b.agents[1].mean_score < b.agents[0].mean_score


def test_same_seed_same_result_different_seed_different() -> None:
    a = simulate(ONE_ROUND, FOUR, games=10, seed=1)
    assert simulate(ONE_ROUND, FOUR, games=10, seed=1) == a
    assert simulate(ONE_ROUND, FOUR, games=10, seed=2) != a
    assert simulate(ONE_ROUND, FOUR, games=11, seed=1) != a


@settings(max_examples=20)
@given(seed=st.integers(-(2**70), 2**70), games=st.integers(1, 5))
def test_win_rates_sum_to_one_and_intervals_hold_their_estimates(seed: int, games: int) -> None:
    r = simulate(TINY, [GreedyAgent(), RandomAgent()], games=games, seed=seed)
    assert math.isclose(sum(a.win_rate for a in r.agents), 1.0)
    for a in r.agents:
        assert a.score_ci[0] <= a.mean_score <= a.score_ci[1]
        assert 0.0 <= a.win_ci[0] <= a.win_rate <= a.win_ci[1] <= 1.0
    assert r == simulate(TINY, [GreedyAgent(), RandomAgent()], games=games, seed=seed)


def test_result_text_and_dict() -> None:
    r = simulate(TINY, [GreedyAgent(), RandomAgent()], games=12, seed=4)
    text = str(r).splitlines()
    assert text[0] == "12 games of 2 players, seed 4: 1.00 rounds per match, " + (
        f"{r.moves_per_round:.1f} moves per round"
    )
    assert text[1].split() == ["agent", "mean", "score", "95%", "CI", "win", "rate", "95%", "CI"]
    assert text[2].startswith("0 GreedyAgent() ") and text[3].startswith("1 RandomAgent() ")
    assert f"{r.agents[1].win_rate:.1%}" in text[3]
    d = r.to_dict()
    assert d["rules"] == TINY.to_dict() and d["games"] == 12 and d["seed"] == 4
    assert d["agents"][0] == {
        "agent": "GreedyAgent()",
        "mean_score": r.agents[0].mean_score,
        "score_ci": list(r.agents[0].score_ci),
        "win_rate": r.agents[0].win_rate,
        "win_ci": list(r.agents[0].win_ci),
    }
    assert isinstance(r, SimulationResult) and isinstance(r.agents[0], AgentStats)


# -- the interval maths ------------------------------------------------------------------------


def test_mean_interval_by_hand() -> None:
    # [1, 2, 3, 4]: mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, so
    # s = sqrt(5/3) = 1.2909944; half-width 1.96 * 1.2909944 / sqrt(4) = 1.2651745.
    mean, (low, high) = mean_interval([1, 2, 3, 4])
    assert mean == 2.5
    assert low == pytest.approx(1.2348255, abs=1e-7)
    assert high == pytest.approx(3.7651745, abs=1e-7)
    # [10, 10, 40]: mean 20; deviations 100 + 100 + 400 = 600, s = sqrt(300) = 17.3205081;
    # half-width 1.96 * 17.3205081 / sqrt(3) = 1.96 * 10 = 19.6 exactly.
    assert mean_interval([10, 10, 40]) == (20.0, pytest.approx((0.4, 39.6), abs=1e-12))
    # One game: no spread to estimate; the interval is the mean itself (documented).
    assert mean_interval([37]) == (37.0, (37.0, 37.0))
    # No spread: the interval is the point.
    assert mean_interval([5, 5, 5]) == (5.0, (5.0, 5.0))


def test_wilson_interval_by_hand() -> None:
    # 3 of 10, z = 1.96, z^2 = 3.8416: denominator 1 + 0.38416 = 1.38416;
    # centre (0.3 + 0.19208) / 1.38416 = 0.3555080; half-width
    # 1.96 * sqrt(0.3 * 0.7 / 10 + 3.8416 / 400) / 1.38416 = 1.96 * sqrt(0.030604) / 1.38416
    # = 0.2477187. So (0.1077893, 0.6032268), as in published tables (0.1078, 0.6032).
    low, high = wilson_interval(3, 10)
    assert low == pytest.approx(0.1077893, abs=1e-7)
    assert high == pytest.approx(0.6032268, abs=1e-7)
    # 0 of 5: centre = half-width = (3.8416 / 10) / 1.76832 = 0.2172457, so (0, 0.4344915).
    assert wilson_interval(0, 5) == (0.0, pytest.approx(0.4344915, abs=1e-7))
    assert wilson_interval(5, 5) == (pytest.approx(1 - 0.4344915, abs=1e-7), 1.0)
    # 1.5 of 3 (shared wins count halves): p = 0.5, symmetric about 0.5.
    low, high = wilson_interval(1.5, 3)
    assert low + high == pytest.approx(1.0, abs=1e-12)


@given(st.lists(st.integers(0, 1000), min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_mean_interval_is_exact_and_symmetric(values: list[int], rnd: random.Random) -> None:
    mean, (low, high) = mean_interval(values)
    shuffled = values[:]
    rnd.shuffle(shuffled)
    assert mean_interval(shuffled) == (mean, (low, high))  # order never matters
    assert mean == float(Fraction(sum(values), len(values)))
    assert low <= mean <= high
    assert high - mean == pytest.approx(mean - low, rel=1e-9, abs=1e-9)


@given(st.integers(1, 10**6), st.fractions(0, 1))
def test_wilson_interval_holds_the_estimate(n: int, p: Fraction) -> None:
    successes = float(p * n)
    low, high = wilson_interval(successes, n)
    assert 0.0 <= low <= successes / n <= high <= 1.0
    assert low < high
    if successes == 0:
        assert low == 0.0
    if successes == n:
        assert high == 1.0


def test_interval_helpers_reject_nonsense() -> None:
    with pytest.raises(ChickenFootError, match="at least one value"):
        mean_interval([])
    for successes, n, message in [
        (1, 0, "n=0 is invalid: must be an integer from 1 to 9,007,199,254,740,992"),
        (1, 2**53 + 1, "n=9007199254740993 is invalid"),
        (-1, 5, "successes=-1 is invalid: must be a finite number from 0 to 5"),
        (6, 5, "successes=6 is invalid: must be a finite number from 0 to 5"),
        # issue 18: these escaped as Python's own errors, or were accepted
        (1, 5.0, "n=5.0 is invalid: must be an integer from 1 to"),
        ("1", 5, "successes='1' is invalid: must be a finite number from 0 to 5"),
        (float("nan"), 5, "successes=nan is invalid: must be a finite number from 0 to 5"),
        (True, 5, "successes=True is invalid"),
    ]:
        with pytest.raises(ArgumentError) as info:
            wilson_interval(successes, n)
        assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["x"], "values[0]='x' is invalid: must be a finite number from -1e+150 to 1e+150"),
        (
            [1, float("nan")],
            "values[1]=nan is invalid: must be a finite number from -1e+150 to 1e+150",
        ),
        (
            [1, float("inf")],
            "values[1]=inf is invalid: must be a finite number from -1e+150 to 1e+150",
        ),
        ([1, None], "values[1]=None is invalid: must be a finite number from -1e+150 to 1e+150"),
        (
            [10**400],
            "values[0]=an integer of about 401 digits is invalid: must be a finite number from -1e+150 to 1e+150",
        ),
        ([1e151], "values[0]=1e+151 is invalid: must be a finite number from -1e+150 to 1e+150"),
        ("12", "values='12' is invalid: must be a sequence of numbers"),
        (5, "values=5 is invalid: must be a sequence of numbers"),
    ],
)
def test_mean_interval_rejects_what_is_not_a_number(values: Any, message: str) -> None:
    # Issue 18: Fraction("x") and Fraction(nan) escaped as Python's ValueError.
    with pytest.raises(ArgumentError) as info:
        mean_interval(values)
    assert str(info.value) == message


def test_mean_interval_takes_numpy_values() -> None:
    import numpy as np  # a test dependency

    assert mean_interval(np.array([1, 2, 3, 4])) == mean_interval([1, 2, 3, 4])
    assert mean_interval(np.array([0.5, 1.5])) == mean_interval([0.5, 1.5])


# -- bad input ---------------------------------------------------------------------------------


class NoChoose:
    pass


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rules": None}, RulesError, r"^rules=None is invalid: must be a Rules object$"),
        ({"rules": {"players": 4}}, RulesError, "rules=.* must be a Rules object"),
        ({"agents": FOUR[:3]}, AgentError, r"^expected 4 agents \(one per seat\), got 3$"),
        ({"agents": [*FOUR, RandomAgent()]}, AgentError, "expected 4 agents .*got 5"),
        ({"agents": "abcd"}, AgentError, "^agents must be a sequence of agents, got 'abcd'$"),
        ({"agents": GreedyAgent()}, AgentError, "agents must be a sequence"),
        (
            {"agents": [*FOUR[:3], NoChoose()]},
            AgentError,
            r"^agents\[3\] \(a NoChoose\) has no choose\(view, legal, rng\) method$",
        ),
        (
            {"games": 0},
            ArgumentError,
            "^games=0 is invalid: must be an integer from 1 to 1,000,000,000$",
        ),
        ({"games": 10**5000}, ArgumentError, "games=an integer of about 5,001 digits is invalid"),
        ({"games": -3}, ArgumentError, "games=-3 is invalid"),
        ({"games": 2.0}, ArgumentError, "games=2.0 is invalid"),
        ({"games": True}, ArgumentError, "games=True is invalid"),
        ({"games": "5"}, ArgumentError, "games='5' is invalid"),
        (
            {"seed": 1.5},
            ArgumentError,
            "^seed=1.5 is invalid: must be an integer of at most 4,000 digits$",
        ),
        (
            {"seed": -(10**5000)},
            ArgumentError,
            "^seed=a negative integer of about 5,001 digits is invalid",
        ),
        ({"seed": "1"}, ArgumentError, "seed='1' is invalid"),
        ({"seed": None}, ArgumentError, "seed=None is invalid"),
        ({"seed": False}, ArgumentError, "seed=False is invalid"),
        ({"executor": 2}, ArgumentError, "executor=2 is invalid: must be a concurrent"),
        ({"progress": 1}, ArgumentError, "progress=1 is invalid: must be callable"),
    ],
)
def test_bad_input(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    args: dict[str, Any] = {"rules": ONE_ROUND, "agents": FOUR, "games": 2, "seed": 0, **kwargs}
    rules, agents = args.pop("rules"), args.pop("agents")
    with pytest.raises(error, match=message) as info:
        simulate(rules, agents, **args)
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) < 200


def test_bad_input_messages_are_bounded() -> None:
    huge = "x" * 10_000
    for kwargs in ({"seed": huge}, {"games": huge}, {"games": [0] * 10_000}, {"seed": 2.0**900}):
        with pytest.raises(ArgumentError) as info:
            simulate(ONE_ROUND, FOUR, **{"games": 1, "seed": 0, **kwargs})
        assert len(str(info.value)) < 200
    with pytest.raises(RulesError) as info:
        simulate(huge, FOUR, games=1, seed=0)
    assert len(str(info.value)) < 200


def test_unpicklable_agents_are_refused_before_a_process_pool_runs(
    pool: ProcessPoolExecutor,
) -> None:
    class Local:  # a local class cannot be pickled
        def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
            return legal[0]

    with pytest.raises(AgentError, match=r"^agents\[1\] \(a Local\) cannot be pickled"):
        simulate(TINY, [RandomAgent(), Local()], games=2, seed=0, executor=pool)
    # in this process it is fine
    assert simulate(TINY, [RandomAgent(), Local()], games=2, seed=0).games == 2


@attrs.frozen
class Cheat:
    """Always answers ``pass`` (module level: a process pool can pickle it)."""

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        return "pass"


def test_an_agents_illegal_answer_is_reported_as_is(pool: ProcessPoolExecutor) -> None:
    for executor in (None, pool):  # raised in a worker, it arrives unchanged
        with pytest.raises(AgentError, match=r"^Cheat at seat \d chose pass, which is not legal"):
            simulate(ONE_ROUND, [Cheat()] * 4, games=3, seed=0, executor=executor)
