"""The compiled search rollouts (``SearchAgent(backend="numba")``) are the pure ones, faster.

For the same world, move and seed the kernel ends every rollout with the penalties that
``playout(apply(world, move), ...)`` gives, greedy, random or heuristic, and scores it as
the pure search does, for either objective; so a search makes the same
choice on both backends for the same ``rng``, and leaves the ``rng`` in the same state;
the compiled sampler deals the worlds ``View.sample`` deals from the same generator.
Needs numba: the numpy-only test run of the noxfile leaves this file out.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import chickenfoot._rollouts as rollouts_module
from chickenfoot import AgentError, Rounds, Rules, State, View, apply, deal, playout
from chickenfoot._rollouts import OBJECTIVES, Rollouts, heuristic_policy, score
from chickenfoot.agents import HeuristicAgent, RandomAgent, SearchAgent, _greedy_policy
from chickenfoot.moves import DRAW, PASS
from chickenfoot.sampling import problem
from chickenfoot.simulation import simulate
from strategies import examples, positions
from strategies import rules as any_rules

ROLLOUTS = ("greedy", "random", "heuristic")


def pure(world: State, rollout: str, seed: int) -> list[tuple[int, ...]]:
    """What the pure search computes for each legal move of ``world``."""
    out = []
    for m in world.legal_moves:
        after = apply(world, m)
        if rollout == "greedy":
            end = playout(after, policy=_greedy_policy)
        elif rollout == "heuristic":
            end = playout(after, policy=heuristic_policy)
        else:
            end = playout(after, random.Random(seed))
        out.append(end.penalties())
    return out


def compiled(world: State, rollout: str, seed: int) -> list[tuple[int, ...]]:
    return Rollouts(world.rules, world.legal_moves, rollout, world.turn).penalties(world, seed)


# -- the rollouts ------------------------------------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(positions(), st.integers(0, 2**64 - 1), st.sampled_from(ROLLOUTS))
def test_rollouts_end_as_playout_does(s: State, seed: int, rollout: str) -> None:
    assume(not s.is_over())
    assert compiled(s, rollout, seed) == pure(s, rollout, seed)


@settings(max_examples=examples(200), deadline=None)
@given(
    positions(),
    st.integers(0, 2**64 - 1),
    st.sampled_from(ROLLOUTS),
    st.sampled_from(OBJECTIVES),
)
def test_rollouts_score_as_the_pure_search_does(
    s: State, seed: int, rollout: str, objective: str
) -> None:
    """Each objective's totals, over two worlds: the pure search's float sums, exactly."""
    assume(not s.is_over())
    r = Rollouts(s.rules, s.legal_moves, rollout, s.turn, objective)
    want = [0.0] * len(s.legal_moves)
    for k in (seed, seed ^ 1):
        r.run(s, k)
        for i, pens in enumerate(pure(s, rollout, k)):
            want[i] += score(pens, s.turn, objective)
    assert r.totals == want


def test_the_win_objective_counts_shared_wins() -> None:
    assert score((3, 3, 9, 1), 3, "win") == -1.0
    assert score((3, 3, 9, 10), 0, "win") == -0.5
    assert score((3, 3, 9, 10), 2, "win") == 0.0
    assert score((3, 3, 9, 10), 2, "margin") == 9 - 16 / 3


RULES = [
    *(
        Rules.preset(name, players=p)
        for name in ("house", "four-toe", "classic")
        for p in (2, 4, 7)
    ),
    Rules(players=2, max_pip=2, hand_size=2, opening_toes=1, foot_toes=1, centre="holder"),
    Rules(players=3, max_pip=3, hand_size=2, opening_toes=3, foot_toes=2, draw="until_playable"),
    Rules(
        players=2,
        max_pip=4,
        hand_size=3,
        opening_toes=4,
        drawn_tile="may_play",
        may_draw_instead=True,
    ),
    Rules(players=4, draw="until_playable", drawn_tile="may_play", double_blank=0),
    Rules(players=4, may_draw_instead=True, centre="holder", opening_toes=1, foot_toes=1),
    Rules(players=8, max_pip=12, hand_size=8, double_blank=1000, drawn_tile="may_play"),
    Rules(players=10, max_pip=15, hand_size=10, draw="until_playable", may_draw_instead=True),
    Rules(players=16, max_pip=18, hand_size=11, centre="holder", foot_toes=17),
    Rules(players=6, max_pip=18, hand_size=20, opening_toes=18, may_draw_instead=True),
]


def test_rollouts_in_every_kind_of_position() -> None:
    """Whole rounds of every preset and many variants and set sizes, compared every few
    plies; the positions met include drawn tiles, pending doubles, holder openings, empty
    boneyards and a draw or a pass among the moves tried."""
    seen = dict.fromkeys(("drawn", "pending foot", "holder", "empty boneyard", "draw", "pass"), 0)
    compared = 0
    for k, rules in enumerate(RULES):
        rng = random.Random(k)
        for rnd in range(2):
            s = deal(rules, seed=k, round=rnd)
            ply = 0
            while not s.is_over():
                legal = s.legal_moves
                if ply % 6 == 0 or (
                    ply % 2 and len(legal) > 1 and (DRAW in legal or PASS in legal)
                ):
                    seed = rng.getrandbits(64)
                    for rollout in ROLLOUTS:
                        assert compiled(s, rollout, seed) == pure(s, rollout, seed), (
                            rules,
                            s.to_dict(),
                        )
                    compared += 1
                    seen["drawn"] += s.drawn is not None
                    seen["pending foot"] += s.pending_hub is not None and len(s.board) > 1
                    seen["holder"] += not s.board
                    seen["empty boneyard"] += not s.boneyard_size
                    seen["draw"] += DRAW in legal
                    seen["pass"] += PASS in legal
                s = apply(s, rng.choice(legal))
                ply += 1
    assert compared > 300
    assert min(seen.values()) > 0, seen


def test_rollouts_at_the_end_of_a_round() -> None:
    """A move that ends the round at once (going out, or blocking it) ends the rollout."""
    rules = Rules(players=2, max_pip=2, hand_size=1, opening_toes=1, foot_toes=1)
    found = 0
    for seed in range(200):
        s = deal(rules, seed=seed)
        while not s.is_over():
            for m in s.legal_moves:
                if apply(s, m).is_over():
                    found += 1
                    for rollout in ROLLOUTS:
                        assert compiled(s, rollout, seed) == pure(s, rollout, seed)
            s = apply(s, s.legal_moves[0])
    assert found > 50


def test_seeds_of_every_size() -> None:
    """``random.Random(seed)`` keys on the seed's 32-bit words: one word up to 2**32."""
    s = deal(Rules(), seed=3)
    for seed in (0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1):
        assert compiled(s, "random", seed) == pure(s, "random", seed)


# -- the agent ---------------------------------------------------------------------------------


def a_decision(rules: Rules, seed: int, plies: int) -> State | None:
    """A position with a choice, after about ``plies`` random moves of a round of ``rules``."""
    rng = random.Random(seed)
    for k in range(20):
        s = deal(rules, seed=seed, round=k)
        ply = 0
        while not s.is_over():
            if ply >= plies and len(s.legal_moves) > 1:
                return s
            s = apply(s, rng.choice(s.legal_moves))
            ply += 1
    return None


@settings(max_examples=examples(40), deadline=None)
@given(
    any_rules(),
    st.integers(0, 2**32),
    st.integers(0, 60),
    st.sampled_from(ROLLOUTS),
    st.integers(1, 6),
    st.sampled_from(OBJECTIVES),
)
def test_search_chooses_alike_on_both_backends(
    rules: Rules, seed: int, plies: int, rollout: str, iterations: int, objective: str
) -> None:
    s = a_decision(rules, seed, plies)
    assume(s is not None)
    assert s is not None
    v = s.view(s.turn)
    fast, slow = random.Random(seed), random.Random(seed)
    a, b = (
        SearchAgent(iterations=iterations, rollout=rollout, objective=objective, backend=backend)
        for backend in ("numba", "python")
    )
    assert a.choose(v, v.legal_moves, fast) is b.choose(v, v.legal_moves, slow)
    assert fast.getstate() == slow.getstate()


def pure_search(view: View, rollout: str, rng: random.Random, iterations: int) -> list[float]:
    """The pure search's totals (``SearchAgent.choose`` before it picks the best)."""
    r = Rollouts(view.rules, view.legal_moves, rollout, view.seat)
    for _ in range(iterations):
        r.run(view.sample(rng), rng.getrandbits(64))
    return r.totals


def compiled_search(
    view: View, rollout: str, rng: random.Random, iterations: int, *, kernel_deals: bool = True
) -> list[float]:
    """The compiled search's totals; with ``kernel_deals`` the kernel deals the worlds, so
    ``View.sample`` must not be called (the pure sampler is only the fallback)."""
    r = Rollouts(view.rules, view.legal_moves, rollout, view.seat)
    with pytest.MonkeyPatch.context() as mp:
        if kernel_deals:
            mp.setattr(View, "sample", _not_in_python)
        r.search(view, rng, iterations, None)
    return r.totals


def _not_in_python(*args: object) -> None:
    raise AssertionError("the compiled search fell back to the pure sampler")


def test_compiled_samples_are_the_pure_ones() -> None:
    """Through whole rounds of many rules, the compiled search deals the same worlds from
    the same generator: the same totals, and the generator left in the same state; among
    the views, some whose samples must keep the round unblocked (the forced pairs)."""
    forced = decisions = 0
    for k, rules in enumerate(RULES):
        rng = random.Random(k)
        s = deal(rules, seed=k, round=1)
        ply = 0
        while not s.is_over():
            if ply % 4 == 0 or not s.boneyard_size:
                v = s.view(s.turn)
                forced += bool(problem(v).force)
                decisions += 1
                seed = rng.getrandbits(32)
                rollout = ROLLOUTS[ply % 3]
                fast, slow = random.Random(seed), random.Random(seed)
                assert compiled_search(v, rollout, fast, 3) == pure_search(v, rollout, slow, 3)
                assert fast.getstate() == slow.getstate()
            s = apply(s, rng.choice(s.legal_moves))
            ply += 1
    assert decisions > 200 and forced > 0, (decisions, forced)


def test_other_generators_are_sampled_by_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """A subclass of random.Random may draw differently: the pure sampler deals for it, as
    for a Python whose generator the self-check found to draw differently."""

    class Loaded(random.Random):
        def random(self) -> float:
            return 0.5

    s = a_decision(Rules(), 6, 20)
    assert s is not None
    v = s.view(s.turn)
    fast, slow = Loaded(3), Loaded(3)
    got = compiled_search(v, "random", fast, 4, kernel_deals=False)
    assert got == pure_search(v, "random", slow, 4)
    assert fast.getstate() == slow.getstate()
    monkeypatch.setitem(rollouts_module._MODULES, "agree", False)
    fast, slow = random.Random(3), random.Random(3)
    got = compiled_search(v, "greedy", fast, 4, kernel_deals=False)
    assert got == pure_search(v, "greedy", slow, 4)
    assert fast.getstate() == slow.getstate()


def test_search_with_a_time_limit_chooses_a_legal_move() -> None:
    v = deal(Rules(), seed=4).view(0)
    for rollout in ROLLOUTS:
        agent = SearchAgent(iterations=1000, time_limit=0.01, rollout=rollout, backend="numba")
        assert agent.choose(v, v.legal_moves, random.Random(1)) in v.legal_moves


def test_simulate_gives_the_same_games_on_both_backends() -> None:
    rules = Rules(players=3, match=Rounds(2))
    results = []
    for backend in ("numba", "python"):
        search = SearchAgent(iterations=3, rollout="random", backend=backend)
        agents = [search, HeuristicAgent(), RandomAgent()]
        results.append(simulate(rules, agents, games=3, seed=11))
    assert results[0] == results[1]


# -- the option --------------------------------------------------------------------------------


def test_auto_is_numba_when_it_can_be_imported() -> None:
    assert SearchAgent().backend == "auto"
    assert rollouts_module.resolve("auto") is True
    assert rollouts_module.resolve("python") is False


def test_the_default_search_is_unchanged() -> None:
    """``SearchAgent()`` is ``rollout="greedy", objective="margin"``: its scores are still
    the seat's penalty minus the others' mean, summed as before the objective existed."""
    s = a_decision(Rules(), 9, 12)
    assert s is not None
    v = s.view(s.turn)
    agent = SearchAgent()
    assert (agent.rollout, agent.objective) == ("greedy", "margin")
    rng = random.Random(4)
    totals = [0.0] * len(v.legal_moves)
    for _ in range(agent.iterations):
        world = v.sample(rng)
        rng.getrandbits(64)
        for i, m in enumerate(v.legal_moves):
            pens = playout(apply(world, m), policy=_greedy_policy).penalties()
            totals[i] += pens[s.turn] - (sum(pens) - pens[s.turn]) / (len(pens) - 1)
    want = v.legal_moves[min(range(len(totals)), key=totals.__getitem__)]
    for backend in ("python", "numba"):
        got = SearchAgent(backend=backend).choose(v, v.legal_moves, random.Random(4))
        assert got is want


@pytest.mark.parametrize("option", ["rollout", "objective"])
@pytest.mark.parametrize("bad", ["best", "Greedy", "", None, 1])
def test_a_bad_rollout_or_objective_is_refused(option: str, bad: object) -> None:
    with pytest.raises(AgentError, match=rf"{option}=.* is invalid: must be"):
        SearchAgent(**{option: bad})  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["fast", "NUMBA", "", None, 1, ["numba"]])
def test_a_bad_backend_is_refused(bad: object) -> None:
    with pytest.raises(AgentError, match=r"backend=.* is invalid: must be 'auto', 'numba' or"):
        SearchAgent(backend=bad)  # type: ignore[arg-type]


def test_numba_without_numba_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = SearchAgent(iterations=2, backend="numba")
    monkeypatch.setattr(rollouts_module, "available", lambda: False)
    with pytest.raises(AgentError, match=r"backend='numba' needs numba.*chickenfoot\[fast\]"):
        SearchAgent(backend="numba")
    # An agent made where numba is, unpickled where it is not: refused when it chooses.
    v = deal(Rules(), seed=2).view(0)
    moved = pickle.loads(pickle.dumps(kept))
    with pytest.raises(AgentError, match=r"chickenfoot\[fast\]"):
        moved.choose(v, v.legal_moves, random.Random(0))
    # "auto" falls back to the pure path, which never loads the kernel.
    monkeypatch.setattr(rollouts_module, "load", lambda: pytest.fail("loaded the kernel"))
    agent = SearchAgent(iterations=2, backend="auto")
    want = SearchAgent(iterations=2, backend="python").choose(v, v.legal_moves, random.Random(0))
    assert agent.choose(v, v.legal_moves, random.Random(0)) is want


def test_importing_the_agents_imports_neither_numba_nor_numpy() -> None:
    code = (
        "import sys, chickenfoot, chickenfoot.agents\n"
        "print(sorted(m for m in ('numba', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
