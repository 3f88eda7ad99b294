"""Agents and the drivers that hand them views: the protocol, each built-in agent's rule,
determinism for a seed, and every bad answer refused with AgentError."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.agents import _lacking
from strategies import examples, positions, rules

ALL_AGENTS = [
    cf.RandomAgent(),
    cf.GreedyAgent(),
    cf.HeuristicAgent(),
    cf.SearchAgent(iterations=2),
]


def _value(tile: cf.Tile, r: cf.Rules) -> int:
    return r.double_blank if tile.id == 0 else tile.pips


def _to_act(s: cf.State) -> tuple[cf.View, cf.LegalMoves]:
    v = s.view(s.turn)
    return v, v.legal_moves


live_positions = positions(rules(max_pip=12)).filter(lambda s: not s.is_over())


# -- the drivers ------------------------------------------------------------------------------


class Recorder:
    """Remembers what it was handed, and plays the first legal move."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, Any]] = []

    def choose(self, view: Any, legal: Any, rng: random.Random) -> cf.Move:
        self.calls.append((view, legal))
        return legal[0]  # type: ignore[no-any-return]


def test_agents_are_handed_views_of_their_own_seat_and_the_legal_moves() -> None:
    recorders = [Recorder() for _ in range(4)]
    end = cf.play_round(cf.deal(cf.Rules(), seed=8), recorders, random.Random(0))
    assert end.is_over()
    asked = 0
    for seat, rec in enumerate(recorders):
        for v, legal in rec.calls:
            assert isinstance(v, cf.View) and not isinstance(v, cf.State)
            assert v.seat == seat == v.turn
            assert legal == v.legal_moves and len(legal) > 1
            asked += 1
    # Only decisions with a choice are asked; forced moves are made by the driver.
    forced = 0
    s = cf.deal(cf.Rules(), seed=8)
    while not s.is_over():
        forced += len(s.legal_moves) == 1
        s = s.apply(s.legal_moves[0])
    assert asked + forced == len(end.history)


def test_first_move_agents_replay_the_legal_moves_first_loop() -> None:
    # An agent answering legal[0] must reproduce the plain loop over legal_moves(s)[0].
    start = cf.deal(cf.Rules.preset("classic"), seed=3)
    end = cf.play_round(start, [Recorder() for _ in range(4)], random.Random(0))
    s = start
    while not s.is_over():
        s = s.apply(s.legal_moves[0])
    assert end == s and end.history == s.history


@pytest.mark.parametrize("agent", ALL_AGENTS, ids=lambda a: type(a).__name__)
def test_each_agent_is_deterministic_for_a_seed_and_picklable(agent: Any) -> None:
    r = cf.Rules(players=3)
    runs = [
        cf.play_round(cf.deal(r, seed=5), [agent, cf.RandomAgent(), agent], random.Random(9))
        for _ in range(2)
    ]
    assert runs[0].history == runs[1].history
    other = cf.play_round(cf.deal(r, seed=5), [agent, cf.RandomAgent(), agent], random.Random(10))
    assert other.history != runs[0].history  # the random seat at least plays differently
    assert pickle.loads(pickle.dumps(agent)) == agent


def test_play_match_plays_every_round_with_views() -> None:
    recorder = Recorder()
    m = cf.play_match(
        cf.Rules(match=cf.Rounds(2)),
        [recorder, cf.GreedyAgent(), cf.GreedyAgent(), cf.GreedyAgent()],
        seed=4,
        rng=random.Random(1),
    )
    assert m.is_over() and m.rounds_played == 2
    centres = {v.centre for v, _ in recorder.calls}
    assert centres == {cf.Tile(9, 9), cf.Tile(8, 8)}  # rounds 0 and 1 (R3)


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        ("pass", "Bad at seat 0 chose pass, which is not legal here (legal: 9-2@9-9, 9-7@9-9)"),
        (cf.DRAW, "chose draw, which is not legal here"),
        ("9-9@9-9", "chose 9-9@9-9, which is not legal"),
        ("9-4 @ 9-9", "Bad at seat 0 answered '9-4 @ 9-9', which is not a move of the"),
        ("19-1@9-9", "'19-1@9-9', which is not a move of the double-9 set in notation"),
        (None, "Bad at seat 0 returned None, which is not a move"),
        (3, "returned 3, which is not a move"),
        ("x" * 10_000, "answered 'xxxx"),
    ],
    ids=lambda value: repr(value)[:20],
)
def test_a_bad_answer_raises_agent_error(answer: Any, fragment: str) -> None:
    class Bad:
        def choose(self, view: Any, legal: Any, rng: Any) -> Any:
            return answer

    start = cf.deal(cf.Rules(), seed=2)
    with pytest.raises(cf.AgentError) as info:
        cf.play_round(start, [Bad()] * 4, random.Random(0))
    assert fragment in str(info.value)
    assert len(str(info.value)) < 300
    assert start.history == ()  # nothing was changed


def test_a_notation_answer_is_accepted() -> None:
    class Text:
        def choose(self, view: Any, legal: Any, rng: Any) -> str:
            return str(legal[-1])

    end = cf.play_round(cf.deal(cf.Rules(), seed=2), [Text()] * 4, random.Random(0))
    assert end.is_over()


@pytest.mark.parametrize(
    ("agents", "fragment"),
    [
        ([cf.RandomAgent()] * 3, "expected 4 agents (one per seat), got 3"),
        ("abcd", "agents must be a sequence of agents"),
        (None, "agents must be a sequence of agents"),
        (
            [cf.RandomAgent()] * 3 + [object()],
            "agents[3] (a object) has no choose(view, legal, rng) method",
        ),
    ],
)
def test_bad_agent_lists(agents: Any, fragment: str) -> None:
    with pytest.raises(cf.AgentError, match=None) as info:
        cf.play_round(cf.deal(cf.Rules(), seed=2), agents, random.Random(0))
    assert fragment in str(info.value)
    with pytest.raises(cf.AgentError):
        cf.play_match(cf.Rules(), agents, seed=1, rng=random.Random(0))


@pytest.mark.parametrize("bad", [0, -3, 2.5, "8", True])
def test_search_agent_rejects_a_bad_budget(bad: Any) -> None:
    with pytest.raises(cf.AgentError, match="iterations="):
        cf.SearchAgent(iterations=bad)


@pytest.mark.parametrize("bad", [0, -1.0, float("inf"), float("nan"), "1", True])
def test_search_agent_rejects_a_bad_time_limit(bad: Any) -> None:
    with pytest.raises(cf.AgentError, match="time_limit="):
        cf.SearchAgent(time_limit=bad)


@pytest.mark.parametrize("bad", ["mcts", None, 1])
def test_search_agent_rejects_an_unknown_rollout(bad: Any) -> None:
    with pytest.raises(cf.AgentError, match="rollout="):
        cf.SearchAgent(rollout=bad)


def test_search_agent_time_limit_stops_early() -> None:
    # A tiny time limit still tries one deal, so it answers a legal move quickly; 10**6
    # iterations would take minutes without the limit.
    v = cf.deal(cf.Rules(), seed=2).view(0)
    agent = cf.SearchAgent(iterations=10**6, time_limit=0.01)
    assert agent.choose(v, v.legal_moves, random.Random(0)) in v.legal_moves


@pytest.mark.parametrize("rollout", ["greedy", "random", "heuristic"])
def test_search_agent_is_deterministic_per_rollout(rollout: str) -> None:
    s = cf.deal(cf.Rules(), seed=6)
    for _ in range(12):
        s = s.apply(s.legal_moves[-1])
    v = s.view(s.turn)
    agent = cf.SearchAgent(iterations=4, rollout=rollout)
    picks = {agent.choose(v, v.legal_moves, random.Random(3)) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(v.legal_moves)


# -- what each agent plays ----------------------------------------------------------------


@settings(max_examples=examples(60))
@given(live_positions, st.integers(0, 2**32))
def test_every_agent_answers_a_legal_move(s: cf.State, seed: int) -> None:
    v, legal = _to_act(s)
    for agent in ALL_AGENTS:
        assert agent.choose(v, legal, random.Random(seed)) in legal


@settings(max_examples=examples(100))
@given(live_positions)
def test_greedy_plays_the_tile_worth_most(s: cf.State) -> None:
    v, legal = _to_act(s)
    m = cf.GreedyAgent().choose(v, legal, random.Random(0))
    plays = [p for p in legal if isinstance(p, cf.Play)]
    if not plays:
        assert m is legal[0]
        return
    assert isinstance(m, cf.Play)
    best = max(_value(p.tile, s.rules) for p in plays)
    assert _value(m.tile, s.rules) == best
    # the first listed among equals
    assert m is next(p for p in plays if _value(p.tile, s.rules) == best)


def test_greedy_counts_the_double_blank_at_its_rules_value() -> None:
    # Seat 0 may lay 9-0 (9 pips) or... build a table where 0-0 and 5-4 are both playable:
    # the centre 0-0 is not possible (it is the round's double), so use a 0 open end and a
    # 4 open end on double-5.
    def table(blank: int) -> cf.State:
        r = cf.Rules(players=2, max_pip=5, hand_size=3, opening_toes=2, foot_toes=1)
        r = r.replace(double_blank=blank)
        return cf.State.setup(
            r,
            board=["5-5", "5-0@5-5", "5-4@5-5"],
            hands=[["0-0", "4-3", "1-1"], ["2-1", "3-3", "4-1"]],
            boneyard=["1-0", "2-0", "2-2", "3-0", "3-1", "3-2", "4-0", "4-2", "4-4", "5-1", "5-2"]
            + ["5-3"],
        )

    # 0-0@5-0 is worth 50 under the house rules, more than 4-3@5-4 (7 pips)...
    s = table(50)
    v, legal = _to_act(s)
    assert [str(m) for m in legal] == ["0-0@5-0", "4-3@5-4"]
    assert str(cf.GreedyAgent().choose(v, legal, random.Random(0))) == "0-0@5-0"
    # ...and 0 when the double blank counts 0.
    s = table(0)
    v, legal = _to_act(s)
    assert str(cf.GreedyAgent().choose(v, legal, random.Random(0))) == "4-3@5-4"


def _left_open(v: cf.View, m: cf.Play) -> int | None:
    """The number a play leaves open (None for a double or the centre), from the view."""
    if m.anchor is None or m.tile.is_double:
        return None
    if v.pending_hub is not None:
        return m.tile.other(v.pending_hub.high)
    (number,) = [n for a, n in v.open_ends if a is m.anchor]
    return m.tile.other(number)


@settings(max_examples=examples(80))
@given(live_positions)
def test_heuristic_hurt_leaves_open_what_most_others_lack(s: cf.State) -> None:
    # With only 'hurt' weighted (10**6 outweighs any tile's value, 0-0 at any double_blank
    # included), the chosen play leaves open a number lacked by as many other seats as any.
    v, legal = _to_act(s)
    plays = [m for m in legal if isinstance(m, cf.Play)]
    if len(plays) < 2:
        return
    agent = cf.HeuristicAgent(follow=0, hurt=10**6, foot=0, keep=0)
    lacking = _lacking(v)

    def hurt(m: cf.Play) -> int:
        n = _left_open(v, m)
        return 0 if n is None else sum(1 for mask in lacking if mask >> n & 1)

    m = agent.choose(v, legal, random.Random(0))
    assert isinstance(m, cf.Play)
    assert hurt(m) == max(map(hurt, plays))


@settings(max_examples=examples(80))
@given(live_positions)
def test_heuristic_foot_lays_doubles_it_can_help_fill(s: cf.State) -> None:
    v, legal = _to_act(s)
    plays = [m for m in legal if isinstance(m, cf.Play)]
    if len(plays) < 2:
        return
    # foot = 10**6 outweighs any tile's value (0-0 may count any double_blank).
    m = cf.HeuristicAgent(follow=0, hurt=0, foot=10**6, keep=0).choose(v, legal, random.Random(0))
    assert isinstance(m, cf.Play)

    def helped(p: cf.Play) -> bool:
        return any(t.has(p.tile.high) for t in v.hand if t is not p.tile)

    doubles = [p for p in plays if p.anchor is not None and p.tile.is_double]
    if any(helped(p) for p in doubles):
        assert m.tile.is_double and helped(m)
    elif len(doubles) < len(plays):
        assert not m.tile.is_double


def test_lacking_numbers_come_from_draws_and_passes() -> None:
    # Seat 1 drew and passed while only 9s were playable (the opening on 9-9): it has no 9.
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9").apply("draw").apply("pass")
    assert _lacking(s.view(2)) == [0, 1 << 9, 0, 0]
    # Its own view knows its hand and claims nothing of itself.
    assert _lacking(s.view(1))[1] == 0


def test_search_beats_random_over_seeded_rounds() -> None:
    # A behavioural check, deterministic for these seeds: over 12 two-player rounds the
    # searching seat ends with fewer penalty points in total than the random seat.
    r = cf.Rules(players=2, max_pip=6, hand_size=7)
    search = cf.SearchAgent(iterations=6)
    mine = theirs = 0
    for g in range(12):
        seat = g % 2
        agents: list[Any] = [cf.RandomAgent(), cf.RandomAgent()]
        agents[seat] = search
        end = cf.play_round(cf.deal(r, seed=g), agents, random.Random(g))
        mine += end.penalties()[seat]
        theirs += end.penalties()[1 - seat]
    assert mine < theirs


@pytest.mark.parametrize(
    "error",
    [
        cf.RulesError("players=1 is invalid", field="players"),
        cf.FormatError("hands[2][5]", "9-9 appears twice"),
        cf.FormatError("", "not valid JSON"),
        cf.RecordMoveError(4, "pass", "seat 2 can play", cf.IllegalMoveError("pass by seat 2")),
        cf.AgentError("X at seat 0 chose pass"),
        cf.SeatError("seat 5 is not a seat"),
        cf.IllegalMoveError("pass by seat 2: ..."),
    ],
    ids=lambda e: type(e).__name__,
)
def test_errors_survive_pickling(error: cf.ChickenFootError) -> None:
    # An agent's error raised in a worker process reaches the caller through pickle.
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    for name in ("field", "path", "reason", "index", "text"):
        assert getattr(back, name, None) == getattr(error, name, None)
