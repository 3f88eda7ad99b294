"""The PettingZoo environment (docs/pettingzoo.md) under PettingZoo's own test suites, and
against the core library: the same deals, legal moves, observations and penalties."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

import chickenfoot as cf  # noqa: E402
from chickenfoot import pettingzoo as cfpz  # noqa: E402
from chickenfoot.encoding import Encoding  # noqa: E402
from chickenfoot.render import render_compact  # noqa: E402

# PettingZoo's api_test warns about any dictionary observation (and a Dict observation
# space) unless the environment is one of PettingZoo's own classic games, which have the
# same observation as this one: those two warnings are expected.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
]

CONFIGS: dict[str, dict[str, Any]] = {
    "house-4p": {},
    "double6-2p": {"players": 2, "max_pip": 6, "hand_size": 7},
    "holder": {"preset": "classic", "players": 3},
    "until-playable-may-play": {
        "players": 3,
        "draw": "until_playable",
        "drawn_tile": "may_play",
        "may_draw_instead": True,
    },
    "match-2-rounds": {"scope": "match", "players": 2, "match": cf.Rounds(2)},
    "zero-sum-history": {"reward": "zero_sum", "history": 4, "players": 5},
    "tiny-threshold-match": {
        "scope": "match",
        "players": 2,
        "max_pip": 3,
        "hand_size": 2,
        "opening_toes": 2,
        "foot_toes": 1,
        "match": cf.Threshold(20),
    },
}
IDS = list(CONFIGS)
# the PettingZoo suites also play a whole house-rules match (ten rounds, four players)
SUITE_CONFIGS = {**CONFIGS, "house-match": {"scope": "match"}}


def rules_of(kwargs: dict[str, Any]) -> cf.Rules:
    return cfpz.raw_env(**kwargs).rules


# -- PettingZoo's suites ---------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SUITE_CONFIGS))
def test_api_test(name: str) -> None:
    kwargs = SUITE_CONFIGS[name]
    api_test(cfpz.env(**kwargs), num_cycles=1000, verbose_progress=False)
    api_test(cfpz.raw_env(**kwargs), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("name", list(SUITE_CONFIGS))
def test_seed_test(name: str) -> None:
    kwargs = SUITE_CONFIGS[name]
    seed_test(lambda: cfpz.env(**kwargs), num_cycles=1000)


@pytest.mark.parametrize("name", ["house-4p", "match-2-rounds"])
def test_parallel_api_test_through_the_turn_based_conversion(name: str) -> None:
    """No ``parallel_env`` is offered (the game is turn-based: ``is_parallelizable`` is
    False); PettingZoo's ``turn_based_aec_to_parallel`` gives one that passes the suite."""
    assert cfpz.raw_env.metadata["is_parallelizable"] is False
    assert not hasattr(cfpz, "parallel_env")
    kwargs = CONFIGS[name]
    parallel_api_test(turn_based_aec_to_parallel(cfpz.env(**kwargs)), num_cycles=1000)


def test_max_cycles_does_not_apply() -> None:
    """``max_cycles_test`` needs ``parallel_env(max_cycles=...)``; a round always ends (each
    move lays or draws a tile, and nobody passes into a blocked round), so there is none: the
    keyword is refused like any unknown rules field."""
    with pytest.raises(cf.RulesError, match="max_cycles"):
        cfpz.env(max_cycles=4)


# -- the environment against the core library ------------------------------------------------


def play_env(e: Any, seed: int, rng: random.Random) -> tuple[list[cf.Move], dict[str, float]]:
    """Play a whole episode with uniformly random legal actions, checking every observation
    against the core library; return the moves and each agent's return."""
    e.reset(seed=seed)
    raw = e.unwrapped
    enc = raw.encoding
    rules = raw.rules
    space = raw.observation_space("player_0")
    returns = dict.fromkeys(raw.possible_agents, 0.0)
    moves: list[cf.Move] = []
    core: Any = cf.Match.start(rules, seed=seed) if raw.scope == "match" else cf.deal(rules, seed)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        returns[agent] += reward
        assert not trunc
        state = core if isinstance(core, cf.State) else core.round or core.last_round
        assert raw.position == state
        for other in raw.possible_agents:
            o = raw.observe(other)
            assert space.contains(o), (other, o)
            seat = int(other.rsplit("_", 1)[1])
            assert np.array_equal(o["observation"], enc.observe(state.view(seat)))
            if not term and seat == state.turn:
                assert np.array_equal(o["action_mask"], enc.legal_mask(state).astype(np.int8))
            else:
                assert not o["action_mask"].any()
        if term:
            e.step(None)
            continue
        assert agent == f"player_{state.turn}"
        legal = list(state.legal_moves)
        assert sorted(enc.action(m) for m in legal) == list(np.flatnonzero(obs["action_mask"]))
        move = rng.choice(legal)
        moves.append(move)
        e.step(enc.action(move))
        core = core.apply(move)
    assert e.agents == []
    return moves, returns


@pytest.mark.parametrize("name", IDS)
@pytest.mark.parametrize("wrapped", [True, False])
def test_episodes_equal_the_core_game(name: str, wrapped: bool) -> None:
    kwargs = CONFIGS[name]
    make = cfpz.env if wrapped else cfpz.raw_env
    for seed in range(3):
        e = make(**kwargs)
        moves, returns = play_env(e, seed, random.Random(seed))
        raw = e.unwrapped
        rules = raw.rules
        if raw.scope == "round":
            end = cf.deal(rules, seed)
            for m in moves:
                end = end.apply(m)
            assert end.is_over()
            penalties = end.penalties()
            rounds = 1
        else:
            match = cf.Match.start(rules, seed=seed)
            for m in moves:
                match = match.apply(m)
            assert match.is_over()
            penalties = match.totals
            rounds = match.rounds_played
        mean = sum(penalties) / len(penalties) if raw.reward == "zero_sum" else 0.0
        for seat, p in enumerate(penalties):
            assert returns[f"player_{seat}"] == pytest.approx(rounds * mean - p)
        if raw.reward == "zero_sum":
            assert sum(returns.values()) == pytest.approx(0.0)


def random_policy(seed: int) -> cf.Policy:
    rng = random.Random(seed)
    return lambda state, moves: rng.choice(moves)


def test_a_random_game_equals_the_core_playout() -> None:
    """The same random choices through the environment and through ``playout``."""
    for seed in range(5):
        rules = cf.Rules(players=3)
        end = cf.playout(cf.deal(rules, seed), policy=random_policy(seed))
        e = cfpz.env(players=3)
        e.reset(seed=seed)
        rng = random.Random(seed)
        enc = e.unwrapped.encoding
        for agent in e.agent_iter():
            _, reward, term, _, _ = e.last()
            if term:
                assert reward == -end.penalties()[int(agent[-1])]
                e.step(None)
                continue
            moves = e.unwrapped.position.legal_moves
            e.step(enc.action(rng.choice(moves)))
        assert e.unwrapped.position == end
        assert e.unwrapped.position.history == end.history


def test_match_rewards_come_at_each_round_end() -> None:
    e = cfpz.raw_env(players=2, match=cf.Rounds(3), scope="match")
    e.reset(seed=11)
    rng = random.Random(0)
    per_round: list[tuple[float, ...]] = []
    while not all(e.terminations.values()):
        before = e.match.rounds_played
        e.step(e.encoding.action(rng.choice(e.position.legal_moves)))
        if e.match.rounds_played > before:
            per_round.append(tuple(e.rewards[a] for a in e.possible_agents))
            # the next round is dealt at once, its first player to act
            if not e.match.is_over():
                assert e.position.history == ()
                assert e.agent_selection == f"player_{e.position.turn}"
                assert not any(e.terminations.values())
        else:
            assert set(e.rewards.values()) == {0.0}
    assert per_round == [tuple(-float(p) for p in row) for row in e.match.scores]
    assert len(per_round) == 3
    assert e.position == e.match.last_round


def test_seeded_reset_is_the_library_deal() -> None:
    e = cfpz.env()
    e.reset(seed=2026)
    assert e.unwrapped.position == cf.deal(cf.Rules(), 2026)
    assert e.unwrapped.deal_seed == 2026
    e.reset(seed=np.int64(7))
    assert e.unwrapped.position == cf.deal(cf.Rules(), 7)
    e.reset(seed=2026, options={"round": 3})
    assert e.unwrapped.position == cf.deal(cf.Rules(), 2026, 3)
    # unseeded resets draw the deal's seed from the generator the last seed set
    e.reset(seed=5)
    e.reset()
    a = e.unwrapped.deal_seed
    e.reset(seed=5)
    e.reset()
    assert e.unwrapped.deal_seed == a
    assert e.unwrapped.position == cf.deal(cf.Rules(), a)
    fresh = cfpz.env()
    fresh.reset()
    assert isinstance(fresh.unwrapped.deal_seed, int)


@pytest.mark.parametrize("name", IDS)
def test_observations_stay_inside_the_box(name: str) -> None:
    """Hand sizes, the boneyard and open-number counts above 1 are inside the bounds."""
    kwargs = CONFIGS[name]
    for seed in range(10, 15):  # seeds play_env (seeds 0-2) has not checked
        e = cfpz.raw_env(**kwargs)
        e.reset(seed=seed)
        rng = random.Random(seed)
        space = e.observation_space("player_0")
        while not all(e.terminations.values()):
            for agent in e.possible_agents:
                assert space.contains(e.observe(agent))
            e.step(e.encoding.action(rng.choice(e.position.legal_moves)))


def test_observation_bounds_are_the_rules_bounds() -> None:
    e = cfpz.raw_env(players=2)  # 20 tiles each, 14 in the boneyard
    box = e.observation_space("player_1")["observation"]
    enc: Encoding = e.encoding
    planes = {n: box.high[lo : lo + s] for n, s, lo in _spans(enc)}
    assert set(planes["hand_sizes"]) == {34.0}
    assert set(planes["boneyard"]) == {14.0}
    assert set(planes["open_numbers"]) == {10.0}
    assert set(planes["toes_needed"]) == {6.0}
    assert set(planes["hand"]) == {1.0}
    assert box.low.min() == 0.0
    assert box.dtype == np.float32
    mask = e.observation_space("player_1")["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,)
    assert e.action_space("player_0").n == enc.num_actions == 1157
    assert e.observation_space("player_0") is e.observation_space("player_0")


def _spans(enc: Encoding) -> list[tuple[str, int, int]]:
    out, at = [], 0
    for name, size in enc.fields:
        out.append((name, size, at))
        at += size
    return out


def test_a_hand_can_grow_to_its_bound() -> None:
    """Every draw of a long round going to one hand: the bound is reachable, not loose."""
    rules = cf.Rules(players=2, max_pip=3, hand_size=1, opening_toes=2, foot_toes=1)
    e = cfpz.raw_env(rules=rules)
    high = e.observation_space("player_0")["observation"].high
    lo = dict((n, at) for n, _, at in _spans(e.encoding))["hand_sizes"]
    assert high[lo] == 1 + (9 - 2)  # its tile and the whole boneyard of 7


# -- bad input ------------------------------------------------------------------------------


def test_raw_env_errors_leave_it_unchanged() -> None:
    e = cfpz.raw_env()
    e.reset(seed=1)
    before = e.position
    legal = set(e.encoding.legal_actions(before))
    illegal = next(a for a in range(e.encoding.num_actions) if a not in legal and _names(e, a))
    with pytest.raises(cf.IllegalMoveError, match="by seat 0"):
        e.step(illegal)
    with pytest.raises(cf.IllegalMoveError):
        e.step(e.encoding.pass_action)
    with pytest.raises(cf.ArgumentError, match="must be from 0 to 1156"):
        e.step(1157)
    with pytest.raises(cf.ArgumentError, match="must be from 0 to 1156"):
        e.step(-1)
    with pytest.raises(cf.ArgumentError, match="names no move"):
        e.step(1)  # 0-0 against itself: a slot no move uses
    for bad in (None, 1.5, "9-0@9-9", np.array([955])):
        with pytest.raises(cf.ArgumentError, match="must be an int"):
            e.step(bad)
    assert e.position is before
    assert e.agent_selection == "player_0"
    assert set(e._cumulative_rewards.values()) == {0.0}
    e.step(np.int32(min(legal)))  # numpy integers are actions too
    assert e.position != before


def _names(e: Any, action: int) -> bool:
    try:
        e.encoding.move(action)
    except cf.ArgumentError:
        return False
    return True


def test_env_wrappers_follow_the_classic_games() -> None:
    e = cfpz.env()
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    e.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        e.step(5000)
    with pytest.raises(AssertionError, match="action space"):
        e.step(None)
    illegal = e.unwrapped.encoding.pass_action
    e.step(illegal)  # ends the episode: the offender gets the illegal reward, the rest 0
    raw = e.unwrapped
    assert all(e.terminations.values())
    assert e.rewards["player_0"] == raw.illegal_reward == -(495 + 50 + 1)
    assert {e.rewards[a] for a in ("player_1", "player_2", "player_3")} == {0.0}
    for _ in e.agent_iter():
        e.step(None)
    assert e.agents == []
    assert cfpz.env(illegal_reward=-1.0).unwrapped is not None
    with pytest.raises(cf.ArgumentError, match="illegal_reward"):
        cfpz.env(illegal_reward="low")


def test_illegal_reward_is_below_every_return() -> None:
    per_round = 495 + 50
    assert cfpz.raw_env().illegal_reward == -(per_round + 1)
    assert cfpz.raw_env(reward="zero_sum").illegal_reward == -(2 * per_round + 1)
    assert cfpz.raw_env(scope="match").illegal_reward == -(10 * per_round + 1)
    m = cfpz.raw_env(scope="match", match=cf.Threshold(100))
    assert m.illegal_reward == -(100 + per_round + 1)


def test_unknown_agents_are_seat_errors() -> None:
    e = cfpz.raw_env(players=2)
    e.reset(seed=0)
    for bad in ("player_2", "player_-1", "nobody", 0, None):
        with pytest.raises(cf.SeatError, match="player_0 to player_1"):
            e.observe(bad)
        with pytest.raises(cf.SeatError):
            e.action_space(bad)
        with pytest.raises(cf.SeatError):
            e.observation_space(bad)


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"players": 1}, cf.RulesError, "players=1"),
        ({"players": 10}, cf.RulesError, "hand_size is required"),
        ({"foot_toes": 9}, cf.RulesError, "foot_toes=9"),
        ({"colour": "red"}, cf.RulesError, "not a rules field"),
        ({"preset": "nope"}, cf.RulesError, "preset"),
        ({"rules": "house"}, cf.RulesError, "must be a Rules object"),
        ({"rules": cf.Rules(), "players": 2}, cf.RulesError, "players is invalid with rules="),
        ({"rules": cf.Rules(), "preset": "house"}, cf.RulesError, "preset is invalid"),
        ({"scope": "game"}, cf.ArgumentError, "scope"),
        ({"reward": "win"}, cf.ArgumentError, "reward"),
        ({"render_mode": "rgb_array"}, cf.ArgumentError, "render_mode"),
        ({"history": 99}, cf.ArgumentError, "history"),
        # issue 18: a message of 5,098 characters
        ({"rules": cf.Rules(), "z" * 5000: 1}, cf.RulesError, "... (5,000 characters) is invalid"),
        ({"z" * 5000: 1}, cf.RulesError, "(5,000 characters)=1 is invalid"),
    ],
)
def test_bad_parameters(kwargs: dict[str, Any], error: type[Exception], text: str) -> None:
    with pytest.raises(error, match=re.escape(text)) as info:
        cfpz.env(**kwargs)
    assert issubclass(error, ValueError)
    message = str(info.value)
    assert "\n" not in message and len(message) <= 500, message


def test_bad_reset_arguments() -> None:
    e = cfpz.raw_env()
    for seed in (-1, 1.0, "1", True):
        with pytest.raises(cf.ArgumentError, match="seed"):
            e.reset(seed=seed)
    with pytest.raises(cf.ArgumentError, match="round"):
        e.reset(seed=1, options={"round": -1})
    with pytest.raises(cf.ArgumentError, match="scope='round'"):
        cfpz.raw_env(scope="match").reset(seed=1, options={"round": 1})
    e.reset(seed=0, options={"anything": 1})  # other options are ignored
    with pytest.raises(AttributeError, match="reset"):
        cfpz.raw_env().position  # noqa: B018
    with pytest.raises(AttributeError, match="reset"):
        cfpz.raw_env().step(0)
    with pytest.raises(AttributeError, match="reset"):
        cfpz.raw_env().observe("player_0")


_UNSET = object()


def _observable(e: Any) -> tuple[Any, ...]:
    """Everything a program can see of an environment (and its generator's state)."""
    raw = e.unwrapped
    names = ("_state", "_match", "deal_seed", "agents", "agent_selection", "rewards")
    names += ("_cumulative_rewards", "terminations", "truncations", "infos")
    values = [repr(getattr(raw, name, _UNSET)) for name in names]
    rng = raw.np_random
    values.append(None if rng is None else repr(rng.bit_generator.state))
    return tuple(values)


_BAD_RESETS: list[tuple[dict[str, Any], str]] = [
    ({"seed": 10**4000}, "seed"),  # issue 18: the generator was reseeded before the deal failed
    ({"seed": -1}, "seed"),
    ({"seed": "1"}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"seed": True}, "seed"),
    ({"seed": [1]}, "seed"),
    ({"seed": 1, "options": "round"}, "options"),  # issue 18: TypeError: string indices...
    ({"seed": 1, "options": 5}, "options"),
    ({"seed": 1, "options": [("round", 1)]}, "options"),
    ({"seed": 1, "options": {"round": 10**4000}}, "round"),
    ({"seed": 1, "options": {"round": -1}}, "round"),
    ({"seed": 1, "options": {"round": "1"}}, "round"),
    ({"seed": 1, "options": {"round": 1.5}}, "round"),
    ({"options": {"round": -1}}, "round"),  # no seed: nothing drawn from the generator
    ({"options": "x" * 5000}, "options"),
]


@pytest.mark.parametrize("wrapped", [False, True])
def test_a_failed_reset_changes_nothing(wrapped: bool) -> None:
    make = cfpz.env if wrapped else cfpz.raw_env
    fresh = make(players=2)
    for kwargs, name in _BAD_RESETS:
        for e in (fresh, _played(make)):
            before = _observable(e)
            with pytest.raises(cf.ArgumentError, match=re.escape(name)) as info:
                e.reset(**kwargs)
            message = str(info.value)
            assert "\n" not in message and len(message) <= 500, message
            assert _observable(e) == before, kwargs
    match = _played(make, scope="match")
    before = _observable(match)
    with pytest.raises(cf.ArgumentError, match="scope='round'"):
        match.reset(seed=1, options={"round": 1})
    assert _observable(match) == before


def _played(make: Any, **kwargs: Any) -> Any:
    e = make(players=2, **kwargs)
    e.reset(seed=3)
    for _ in range(3):
        e.step(e.unwrapped.encoding.action(e.unwrapped.position.legal_moves[0]))
    return e


def test_reset_takes_numpy_integers_and_ignores_other_options() -> None:
    e = cfpz.raw_env()
    e.reset(seed=np.uint64(2**64 - 1), options={"round": np.int64(2), 7: "ignored"})
    assert e.position == cf.deal(cf.Rules(), 2**64 - 1, 2)
    e.reset(seed=10**3999)  # the longest seed a deal takes
    assert e.position == cf.deal(cf.Rules(), 10**3999)
    e.reset(options={})
    e.reset(options=None)


def test_steps_after_the_end() -> None:
    e = cfpz.raw_env(players=2, max_pip=3, hand_size=2, opening_toes=2, foot_toes=1)
    e.reset(seed=1)
    rng = random.Random(0)
    while not all(e.terminations.values()):
        e.step(e.encoding.action(rng.choice(e.position.legal_moves)))
    before = _observable(e)
    with pytest.raises(cf.ArgumentError, match="must be None"):  # was PettingZoo's ValueError
        e.step(5)
    assert _observable(e) == before
    while e.agents:
        e.step(None)
    for action in (None, 5):
        with pytest.raises(cf.ArgumentError, match="reset"):  # was KeyError: 'player_0'
            e.step(action)


def test_illegal_reward_must_be_a_finite_number() -> None:
    for bad in (10**400, -(10**400), float("nan"), float("inf"), "low", True, [1]):
        with pytest.raises(cf.ArgumentError, match="illegal_reward") as info:
            cfpz.env(illegal_reward=bad)
        assert len(str(info.value)) <= 500
    assert cfpz.env(illegal_reward=np.float32(-5.0)) is not None


def test_rules_from_keywords() -> None:
    assert cfpz.raw_env().rules == cf.Rules()
    assert cfpz.raw_env(players=2).rules == cf.Rules(players=2)
    assert cfpz.raw_env(preset="classic", players=8).rules == cf.Rules.preset("classic", players=8)
    r = cf.Rules(players=3, double_blank=25)
    assert cfpz.raw_env(rules=r).rules is r
    assert cfpz.raw_env(rules=r).possible_agents == ["player_0", "player_1", "player_2"]


# -- rendering, pickling ---------------------------------------------------------------------


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    e = cfpz.env(render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == render_compact(cf.deal(cf.Rules(), 1))
    m = cfpz.env(render_mode="ansi", scope="match", players=2)
    m.reset(seed=1)
    assert m.render().startswith("round 1 · totals 0 0\ncentre 9-9")
    h = cfpz.env(render_mode="human")
    h.reset(seed=1)
    assert h.render() is None
    h.step(h.unwrapped.encoding.action("9-0@9-9"))
    out = capsys.readouterr().out
    assert out.count("centre 9-9") == 2 and "9|0*" in out
    h.close()
    assert cfpz.raw_env.metadata["render_modes"] == ["human", "ansi"]


def test_render_without_a_mode_warns() -> None:
    e = cfpz.env()
    e.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None


def test_pickles_by_its_arguments() -> None:
    e = cfpz.raw_env(players=3, scope="match", reward="zero_sum", history=2)
    e2 = pickle.loads(pickle.dumps(e))
    assert (e2.rules, e2.scope, e2.reward, e2.encoding) == (e.rules, e.scope, e.reward, e.encoding)


# -- the documentation's example -------------------------------------------------------------


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    page = Path(__file__).parents[1] / "docs" / "pettingzoo.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert blocks
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(page), "exec"), namespace)
    assert capsys.readouterr().out
