"""ISMCTSAgent (chickenfoot.ismcts) in pure Python: legal, seeded, its spec forms and its
errors. The compiled path's sameness is tests/test_ismcts_compiled.py (needs numba)."""

from __future__ import annotations

import random

import pytest

from chickenfoot import ISMCTSAgent, Rules, apply, deal, play_round
from chickenfoot._rollouts import heuristic_policy, note_lacking
from chickenfoot.agents import HeuristicAgent, SearchAgent
from chickenfoot.errors import AgentError
from chickenfoot.ismcts import _key
from chickenfoot.sampling import public_facts
from chickenfoot.specs import SpecError, Trust, agent_of, parse_spec


def test_it_plays_legal_moves_and_a_seed_fixes_the_round() -> None:
    agents = [ISMCTSAgent(iterations=8, backend="python"), HeuristicAgent()] * 2
    a = play_round(deal(Rules(), seed=3), agents, random.Random(5))
    b = play_round(deal(Rules(), seed=3), agents, random.Random(5))
    assert a.is_over() and a.history == b.history


def test_a_forced_move_is_made_without_search() -> None:
    s = deal(Rules(players=2), seed=1)
    while len(s.legal_moves) != 1:
        s = apply(s, s.legal_moves[0])
    rng = random.Random(0)
    before = rng.getstate()
    v = s.view(s.turn)
    assert ISMCTSAgent(backend="python").choose(v, v.legal_moves, rng) == v.legal_moves[0]
    assert rng.getstate() == before


def test_with_one_iteration_it_plays_the_heuristic_rollouts_first_choice() -> None:
    # With UCB at the root one iteration expands one root child: the heuristic's choice
    # (the rollout policy's, which is HeuristicAgent's, its hurt term read from the history)
    s = deal(Rules(), seed=2)
    v = s.view(0)
    agent = ISMCTSAgent(iterations=1, root="ucb", backend="python")
    got = agent.choose(v, v.legal_moves, random.Random(0))
    assert got == HeuristicAgent().choose(v, v.legal_moves, random.Random(0))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_rollouts_keep_the_lacked_numbers_as_the_history_gives_them(players: int) -> None:
    # Along whole rounds of heuristics: the numbers note_lacking keeps, move by move from
    # nothing, are what public_facts reads from the history for every other seat, and the
    # rollout heuristic with them chooses what HeuristicAgent (hurt included) chooses.
    heuristic = HeuristicAgent()
    hurts = 0
    for seed in range(12):
        s = deal(Rules(players=players), seed=seed)
        lacking = [0] * players
        while not s.is_over():
            legal = s.legal_moves
            note_lacking(s, legal, lacking)
            v = s.view(s.turn)
            facts = public_facts(v)
            assert [f for i, f in enumerate(facts) if i != s.turn] == [
                f for i, f in enumerate(lacking) if i != s.turn
            ]
            choice = heuristic.choose(v, legal, None)
            assert heuristic_policy(s, legal, lacking) == choice
            hurts += heuristic_policy(s, legal) != choice
            s = apply(s, choice)
    assert hurts > 0  # the hurt term did decide some of these moves


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=2),
        Rules(players=6),
        Rules(draw="until_playable"),
        Rules(drawn_tile="may_play"),
        Rules(may_draw_instead=True),
    ],
    ids=["house", "two", "six", "until_playable", "may_play", "may_draw_instead"],
)
def test_every_other_seat_proves_the_same_of_a_seat_and_the_seat_knows_it(rules: Rules) -> None:
    # public_facts(view, viewer=True) gives the viewer's entry as the others prove it: the
    # same as each other seat's view gives (the facts are public), on whole rounds.
    proved = 0
    for seed in range(8):
        s = deal(rules, seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            views = [s.view(x) for x in range(rules.players)]
            facts = [public_facts(v) for v in views]
            for r, v in enumerate(views):
                own = public_facts(v, viewer=True)
                assert [f for i, f in enumerate(own) if i != r] == [
                    f for i, f in enumerate(facts[r]) if i != r
                ]
                assert facts[r][r] == 0
                assert {facts[x][r] for x in range(rules.players) if x != r} == {own[r]}
                held = 0
                for t in s.hand(r):
                    held |= 1 << t.high | 1 << t.low
                assert not own[r] & held  # true of the hand it holds
                proved += own[r] != 0
            s = apply(s, rng.choice(s.legal_moves))
    assert proved > 0


def test_the_searchers_rollouts_know_what_the_others_know_of_its_hand() -> None:
    # The seats the search models play HeuristicAgent, whose hurt term counts what they
    # can prove the searching seat lacks: with the viewer's entry the rollout heuristic
    # chooses as each of them does; without it (the viewer's entry empty) it did not.
    heuristic = HeuristicAgent()
    missed = 0
    for seed in range(30):
        s = deal(Rules(), seed=seed)
        while not s.is_over():
            v = s.view(s.turn)
            legal = v.legal_moves
            choice = heuristic.choose(v, legal, None)
            if s.turn != 0:
                seen = s.view(0)
                assert heuristic_policy(s, legal, public_facts(seen, viewer=True)) == choice
                missed += heuristic_policy(s, legal, public_facts(seen)) != choice
            s = apply(s, choice)
    assert missed > 0


def test_common_deals_play_the_best_mean_over_the_same_deals() -> None:
    s = deal(Rules(), seed=2)
    v = s.view(0)
    legal = v.legal_moves
    agent = ISMCTSAgent(iterations=3 * len(legal), backend="python")
    rng = random.Random(4)
    means = agent._search(v, legal, rng, None)
    assert set(means) == {_key(m) for m in legal}
    best = max(means.values())
    expected = next(m for m in legal if means[_key(m)] == best)  # the first among equals
    assert agent.choose(v, legal, random.Random(4)) == expected
    # three deals drawn, whatever the number of moves: each serves every move
    three = random.Random(4)
    for _ in range(3):
        v.sample(three)
    assert rng.getstate() == three.getstate()


@pytest.mark.parametrize(("players", "meant"), [(2, "best"), (4, "best"), (5, "each"), (8, "each")])
def test_the_default_reward_is_winning_up_to_four_seats_and_the_seats_beaten_beyond(
    players: int, meant: str
) -> None:
    # against="auto" credits exactly what the reward it stands for credits: the same means
    # for every root move on the same deals; and another reward's means differ somewhere.
    other = "mean" if meant == "each" else "each"
    differs = 0
    for seed in range(3):
        v = deal(Rules(players=players), seed=seed).view(0)
        means = {}
        for against in ("auto", meant, other):
            agent = ISMCTSAgent(
                iterations=6 * len(v.legal_moves), against=against, backend="python"
            )
            means[against] = agent._search(v, v.legal_moves, random.Random(seed), None)
        assert means["auto"] == means[meant]
        differs += means[other] != means[meant]
    assert differs


def test_the_spec_forms() -> None:
    assert agent_of("ismcts", trust=Trust.data()) == ISMCTSAgent()
    assert agent_of("ISMCTS:64", trust=Trust.data()) == ISMCTSAgent(iterations=64)
    timed = agent_of("ismcts:50ms", trust=Trust.data())
    assert isinstance(timed, ISMCTSAgent) and timed.time_limit == 0.05
    search = agent_of("search:20ms", trust=Trust.data())
    assert isinstance(search, SearchAgent)
    assert (search.time_limit, search.rollout) == (0.02, "heuristic")
    assert parse_spec("ismcts:50MS").name == "ismcts:50ms"
    for bad, said in [
        ("ismcts:0", "ismcts:N takes N from 1 to 100,000"),
        ("ismcts:x", "ismcts:N takes N"),
        ("ismcts:0ms", "ismcts:Nms takes N from 1 to 60,000"),
        ("search:60001ms", "search:Nms takes N from 1 to 60,000"),
    ]:
        with pytest.raises(SpecError, match=said):
            parse_spec(bad)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"iterations": 0}, "iterations=0"),
        ({"time_limit": 0}, "time_limit=0"),
        ({"explore": -1}, "explore=-1"),
        ({"scale": 0}, "scale=0"),
        ({"opponents": "all"}, "opponents='all'"),
        ({"against": "worst"}, "against='worst'"),
        ({"root": "leaf"}, "root='leaf'"),
        ({"backend": "gpu"}, "backend='gpu'"),
    ],
)
def test_bad_settings(options: dict[str, object], said: str) -> None:
    with pytest.raises(AgentError, match=said):
        ISMCTSAgent(**options)  # type: ignore[arg-type]


def test_bad_arguments_to_choose() -> None:
    v = deal(Rules(), seed=2).view(0)
    agent = ISMCTSAgent(iterations=2, backend="python")
    with pytest.raises(ValueError, match="legal"):
        agent.choose(v, [], random.Random(0))
    with pytest.raises(ValueError):
        agent.choose("view", v.legal_moves, random.Random(0))  # type: ignore[arg-type]
