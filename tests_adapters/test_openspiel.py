"""The OpenSpiel game (docs/openspiel.md) under OpenSpiel's own test suites, and against the
core library: the same game tree, enumerated independently with ``State``/``apply``."""

from __future__ import annotations

import importlib.util
import io
import itertools
import random
import re
import runpy
import sys
import unittest
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import chickenfoot as cf  # noqa: E402
import chickenfoot.openspiel._config as cfos_config  # noqa: E402 - the parameters' defaults
from chickenfoot import openspiel as cfos  # noqa: E402
from chickenfoot.encoding import Encoding  # noqa: E402
from chickenfoot.render import render_compact  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

CONFIGS: dict[str, tuple[str, int]] = {
    # name: (game string, simulations)
    "house-4p": ("python_chickenfoot", 3),
    "double6-2p": ("python_chickenfoot(players=2,max_pip=6,hand_size=4)", 10),
    "holder": ("python_chickenfoot(players=3,centre=holder,hand_size=7,opening_toes=4)", 4),
    "until-playable-may-play": (
        "python_chickenfoot(players=3,draw=until_playable,drawn_tile=may_play,"
        "may_draw_instead=True,utility=zero_sum)",
        4,
    ),
    "match-2-rounds": (
        "python_chickenfoot(players=2,max_pip=6,hand_size=7,scope=match,match_rounds=2)",
        2,
    ),
    "threshold-match": (
        "python_chickenfoot(players=3,max_pip=6,hand_size=5,scope=match,match_threshold=20,"
        "utility=penalty)",
        2,
    ),
}

TINY = "python_chickenfoot(players=2,max_pip=2,hand_size=2,opening_toes=2,foot_toes=1)"
TINY_RULES = cf.Rules(players=2, max_pip=2, hand_size=2, opening_toes=2, foot_toes=1)
TINY_HOLDER = (
    "python_chickenfoot(players=2,max_pip=2,hand_size=2,opening_toes=2,foot_toes=1,"
    "centre=holder,draw=until_playable,drawn_tile=may_play)"
)
TINY_HOLDER_RULES = TINY_RULES.replace(
    centre="holder", draw="until_playable", drawn_tile="may_play"
)

# (chance nodes, decision nodes, terminals, (infostate, player) pairs at decision nodes),
# derived by the enumeration below and pinned.
TINY_COUNTS = (170, 600, 240, 102)
TINY_HOLDER_COUNTS = (1249, 8724, 3464, 1453)


# -- OpenSpiel's own suites --------------------------------------------------------------------


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_sim_test(name: str) -> None:
    text, sims = CONFIGS[name]
    game = pyspiel.load_game(text)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_api_test_suite() -> None:
    """OpenSpiel's integration_tests/api_test.py: the partial-tree suite on small games (one
    round; holder mode drawing until playable; a match) and the full-tree suite on the tiny
    game, through its ``load_tests`` hook."""
    from absl import flags
    from open_spiel.integration_tests import api_test

    if not flags.FLAGS.is_parsed():
        flags.FLAGS(["api_test"])
    partial = {
        "python_chickenfoot(players=2,max_pip=6,hand_size=5,opening_toes=4,foot_toes=2)",
        "python_chickenfoot(players=3,max_pip=6,hand_size=5,centre=holder,draw=until_playable)",
        "python_chickenfoot(players=2,max_pip=4,hand_size=4,opening_toes=3,foot_toes=2,"
        "scope=match,match_rounds=2)",
    }
    saved = (
        flags.FLAGS.test_only_games,
        api_test._GAMES_TO_TEST,
        api_test._GAMES_FULL_TREE_TRAVERSAL_TESTS,
    )
    chance, decisions, terminals, infosets = TINY_COUNTS
    api_test.TOTAL_NUM_STATES["chickenfoot_tiny"] = (chance, decisions, terminals)
    api_test.PERFECT_RECALL_NUM_STATES["chickenfoot_tiny"] = infosets
    try:
        flags.FLAGS.test_only_games = "python_chickenfoot"
        api_test._GAMES_TO_TEST = partial
        api_test._GAMES_FULL_TREE_TRAVERSAL_TESTS = [("chickenfoot_tiny", TINY)]
        suite = api_test.load_tests(unittest.TestLoader(), None, None)
        out = io.StringIO()
        result = unittest.TextTestRunner(stream=out, verbosity=2).run(suite)
    finally:
        (
            flags.FLAGS.test_only_games,
            api_test._GAMES_TO_TEST,
            api_test._GAMES_FULL_TREE_TRAVERSAL_TESTS,
        ) = saved
    assert result.wasSuccessful(), out.getvalue()
    # 5 partial-tree tests on each of the 3 small games, 8 full-tree tests on the tiny one
    assert result.testsRun == 5 * 3 + 8, out.getvalue()
    print(f"api_test: {result.testsRun} tests run")


# -- the game tree, enumerated with the core library ------------------------------------------


def _core_tree(rules: cf.Rules) -> tuple[int, int, int, int]:
    """The counts of the game tree of one round under ``rules``, walked with State/apply.

    The deal deals ``hand_size`` tiles to seat 0, then seat 1, ..., one chance node per tile,
    each over the undealt tiles; a ``draw`` is a decision followed by a chance node over the
    boneyard. Returns (chance nodes, decision nodes, terminals, distinct (seat, view) pairs
    of the seat to act).
    """
    n = rules.max_pip
    centre = cf.Tile(n, n)
    pool = [t for t in cf.tiles_of_set(n) if rules.centre == "holder" or t != centre]
    dealt = rules.players * rules.hand_size
    chance = sum(
        len(list(itertools.permutations(pool, k))) for k in range(dealt)
    )  # one chance node per dealt prefix
    counts = [chance, 0, 0]
    infosets: set[tuple[int, cf.View]] = set()

    def walk(s: cf.State) -> None:
        if s.is_over():
            counts[2] += 1
            return
        counts[1] += 1
        infosets.add((s.turn, s.view(s.turn)))
        for move in s.legal_moves:
            if move is cf.DRAW:
                counts[0] += 1
                for tile in s.boneyard:
                    walk(cf.apply(s, cf.Draw(tile)))
            else:
                walk(cf.apply(s, move))

    hs = rules.hand_size
    for order in itertools.permutations(pool, dealt):
        hands = [list(order[i * hs : (i + 1) * hs]) for i in range(rules.players)]
        rest = [t for t in pool if t not in order]
        turn = rules.first_leader
        for seat, hand in enumerate(hands):
            if rules.centre == "holder" and centre in hand:
                turn = seat
        walk(cf.State.setup(rules, hands=hands, boneyard=rest, turn=turn))
    return counts[0], counts[1], counts[2], len(infosets)


def _spiel_tree(game: Any) -> tuple[int, int, int, int]:
    from open_spiel.python.algorithms import get_all_states

    states = get_all_states.get_all_states(
        game, depth_limit=-1, include_terminals=True, include_chance_states=True
    ).values()
    chance = sum(s.is_chance_node() for s in states)
    terminals = sum(s.is_terminal() for s in states)
    decisions = len(states) - chance - terminals
    infosets = {
        (s.current_player(), s.information_state_string())
        for s in states
        if not s.is_chance_node() and not s.is_terminal()
    }
    return chance, decisions, terminals, len(infosets)


@pytest.mark.parametrize(
    ("text", "rules", "pinned"),
    [(TINY, TINY_RULES, TINY_COUNTS), (TINY_HOLDER, TINY_HOLDER_RULES, TINY_HOLDER_COUNTS)],
    ids=["set-aside", "holder-until-playable-may-play"],
)
def test_full_tree_matches_the_core_library(text: str, rules: cf.Rules, pinned: Any) -> None:
    game = pyspiel.load_game(text)
    assert game.config.rules == rules
    core = _core_tree(rules)
    assert core == pinned
    assert _spiel_tree(game) == core


# -- the game against the library, move by move -----------------------------------------------


def _random_games(text: str, count: int, seed: int) -> Iterator[Any]:
    """Final states of ``count`` random games (chance sampled by its probabilities)."""
    game = pyspiel.load_game(text)
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                assert abs(sum(probs) - 1.0) < 1e-9
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("name", list(CONFIGS))
def test_lengths_returns_and_replay(name: str) -> None:
    text, _ = CONFIGS[name]
    game = pyspiel.load_game(text)
    cfg = game.config
    for state in _random_games(text, 3, seed=len(name)):
        history = state.full_history()
        chance = sum(item.player == pyspiel.PlayerId.CHANCE for item in history)
        assert len(history) - chance <= game.max_game_length()
        assert chance <= cfg.max_chance_nodes <= game.max_chance_nodes_in_history()
        assert len(history) <= game.max_history_length()
        returns = state.returns()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        totals = [sum(row[s] for row in state.scores) for s in range(cfg.players)]
        if cfg.utility == "penalty":
            assert returns == [-t for t in totals]
        elif cfg.utility == "zero_sum":
            assert returns == [sum(t - mine for t in totals) for mine in totals]
            assert sum(returns) == 0
        else:
            assert sum(returns) == 0 and max(returns) > 0
        # the last round, replayed with the library from its own history, ends the same
        last = state._finished[-1]
        replay = cf.Record(
            cf.State.setup(
                cfg.rules,
                hands=[_start_hand(last, seat) for seat in range(cfg.players)],
                boneyard=_start_boneyard(last),
                centre=last.centre,
                turn=last.history[0].seat,
            ),
            [e.move for e in last.history],
        ).final()
        assert replay == last
        assert tuple(replay.penalties()) == state.scores[-1]


def _start_hand(end: cf.State, seat: int) -> list[cf.Tile]:
    hand = set(end.hand(seat))
    for e in reversed(end.history):
        if e.seat != seat:
            continue
        if isinstance(e.move, cf.Play):
            hand.add(e.move.tile)
        elif isinstance(e.move, cf.Draw):
            hand.discard(e.move.tile)
    return sorted(hand, key=lambda t: t.id)


def _start_boneyard(end: cf.State) -> list[cf.Tile]:
    drawn = [e.move.tile for e in end.history if isinstance(e.move, cf.Draw)]
    return [*drawn, *end.boneyard]


def test_actions_are_the_encoding() -> None:
    game = pyspiel.load_game("python_chickenfoot")
    enc = Encoding(cf.Rules())
    assert game.num_distinct_actions() == enc.num_actions == 1157
    assert game.max_chance_outcomes() == cf.set_size(9)
    state = game.new_initial_state()
    rng = random.Random(3)
    seen_draw = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        core = state.round_state
        legal = state.legal_actions()
        assert legal == enc.legal_actions(core)
        assert [str(enc.move(a)) for a in legal] == sorted(
            (str(m) for m in core.legal_moves), key=enc.action
        )
        assert [state.action_to_string(a) for a in legal] == [str(enc.move(a)) for a in legal]
        action = rng.choice(legal)
        if action == enc.draw_action:
            seen_draw = True
            state.apply_action(action)
            assert state.is_chance_node()
            assert [a for a, _ in state.chance_outcomes()] == sorted(t.id for t in core.boneyard)
        else:
            state.apply_action(action)
    assert seen_draw


def test_observations_are_the_encoding() -> None:
    game = pyspiel.load_game("python_chickenfoot(players=3)")
    enc = Encoding(game.config.rules)
    info = Encoding(game.config.rules, history=cfos.INFO_HISTORY)
    assert game.observation_tensor_size() == enc.observation_size
    assert game.information_state_tensor_size() == info.observation_size
    (state,) = _random_games("python_chickenfoot(players=3)", 1, seed=5)
    # a mid-game state: replay the history halfway
    mid = game.new_initial_state()
    for action in state.history()[: len(state.history()) // 2]:
        mid.apply_action(action)
    while mid.is_chance_node():
        mid.apply_action(mid.chance_outcomes()[0][0])
    core = mid.round_state
    for seat in range(3):
        view = core.view(seat)
        assert np.array_equal(mid.observation_tensor(seat), enc.observe(view))
        assert np.array_equal(mid.information_state_tensor(seat), info.observe(view))
        text = mid.observation_string(seat)
        assert text == f"seat {seat}\n" + render_compact(view)
        history = mid.information_state_string(seat).splitlines()[-1]
        assert history == "history " + " ".join(str(e) for e in view.history)
    assert str(mid) == render_compact(core)


def test_match_observation_has_the_totals() -> None:
    text = "python_chickenfoot(players=2,max_pip=6,hand_size=7,scope=match,match_rounds=2)"
    game = pyspiel.load_game(text)
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.rounds_played == 0:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    first = state.scores[0]
    enc = Encoding(game.config.rules)
    for seat in range(2):
        x = np.asarray(state.observation_tensor(seat))
        assert x.shape == (enc.observation_size + 3,)
        assert list(x[-3:]) == [1, first[seat], first[1 - seat]]
        assert "round 0: " in state.information_state_string(seat)
        assert f"scores {list(first)}" in state.information_state_string(seat)


def test_clone_shares_the_round_state() -> None:
    (end,) = _random_games(CONFIGS["double6-2p"][0], 1, seed=2)
    game = end.get_game()
    state = game.new_initial_state()
    for action in end.history()[:-3]:
        state.apply_action(action)
    copy = state.clone()
    assert copy.round_state is state.round_state
    assert copy.history() == state.history()
    copy.apply_action(end.history()[-3])
    assert copy.history() != state.history() and state.round_state is not None
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.round_state == state.round_state and str(again) == str(state)


# -- bad input ------------------------------------------------------------------------------


def _first_decision(text: str) -> Any:
    state = pyspiel.load_game(text).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_illegal_and_invalid_actions() -> None:
    state = _first_decision("python_chickenfoot")
    enc = Encoding(cf.Rules())
    legal = set(state.legal_actions())
    illegal = next(
        a
        for a in range(enc.num_actions - 2)
        if a not in legal and _names_a_move(enc, a) and enc.move(a).anchor is not None
    )
    with pytest.raises(cf.IllegalMoveError, match="by seat 0"):
        state.apply_action(illegal)
    with pytest.raises(cf.IllegalMoveError):
        state.apply_action(enc.pass_action)
    for outside in (enc.num_actions, 10**6):
        with pytest.raises(cf.ArgumentError, match="must be from 0 to 1156"):
            state.apply_action(outside)
    with pytest.raises(pyspiel.SpielError, match="kInvalidAction"):  # -1: OpenSpiel's own check
        state.apply_action(-1)
    with pytest.raises(cf.ArgumentError, match="names no move"):
        state.apply_action(next(a for a in range(enc.num_actions) if not _names_a_move(enc, a)))
    assert sorted(state.legal_actions()) == sorted(legal)  # nothing changed
    # a draw is illegal while the player can play
    if enc.draw_action not in legal:
        with pytest.raises(cf.IllegalMoveError):
            state.apply_action(enc.draw_action)
    # chance outcomes that are not on offer
    deal = pyspiel.load_game("python_chickenfoot").new_initial_state()
    deal.apply_action(5)
    with pytest.raises(cf.ArgumentError, match="not a tile id undealt"):
        deal.apply_action(5)
    with pytest.raises(cf.ArgumentError, match="not a tile id undealt"):
        deal.apply_action(54)  # the centre 9-9 is never dealt
    # the end: nothing more
    (end,) = _random_games(CONFIGS["double6-2p"][0], 1, seed=1)
    assert end.legal_actions() == [] and end.chance_outcomes() == []
    with pytest.raises(cf.ArgumentError, match="the game is over"):
        end.apply_action(0)


def _names_a_move(enc: Encoding, action: int) -> bool:
    try:
        enc.move(action)
    except cf.ArgumentError:
        return False
    return True


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ("players=1", cf.RulesError, "players=1 is invalid"),
        ("foot_toes=9", cf.RulesError, "foot_toes=9 is invalid"),
        ("players=2,max_pip=2", cf.RulesError, "hand_size is required"),
        ("centre=middle", cf.RulesError, "centre='middle' is invalid"),
        ("match_rounds=0", cf.RulesError, "match"),
        ("match_rounds=2,match_threshold=50", cf.RulesError, "not both"),
        ("match_inclusive=True", cf.RulesError, "only with match_threshold"),
        ("scope=tournament", cf.ArgumentError, "scope='tournament' is invalid"),
        ("utility=fun", cf.ArgumentError, "utility='fun' is invalid"),
        ("players=2,double_blank=0,scope=match,match_threshold=9", cf.ArgumentError, "forever"),
        ("colour=red", pyspiel.SpielError, "Unknown parameter 'colour'"),
        ("players=two", pyspiel.SpielError, "Wrong type for parameter players"),
    ],
)
def test_bad_parameters(params: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        pyspiel.load_game(f"python_chickenfoot({params})")


_INT_PARAMETERS = [k for k, v in cfos_config.DEFAULTS.items() if type(v) is int]


@pytest.mark.parametrize("name", _INT_PARAMETERS)
def test_integer_parameters_out_of_range(name: str) -> None:
    """Issue 18: every integer parameter, huge, negative or of another type, in a game string
    and in a parameters dict given to the game: a library error or OpenSpiel's SpielError,
    never pybind11's RuntimeError or an OverflowError."""
    texts = ["2147483648", "-2147483649", "9" * 30, "-5", "-2147483648", "2147483647"]
    texts += ["1.5", "x", "True", "9" * 5000]
    for value in texts:
        with pytest.raises((cf.ChickenFootError, pyspiel.SpielError)) as info:
            pyspiel.load_game(f"python_chickenfoot({name}={value})")
        _bounded(info.value)
    for py in (2**31, -(2**31) - 1, 2**63, 10**400, -(10**400), -5, 1.5, "x", None, True, [1]):
        with pytest.raises(cf.ChickenFootError) as info:
            cfos.ChickenFootGame({name: py})
        _bounded(info.value)


def _bounded(error: BaseException) -> None:
    if isinstance(error, cf.ChickenFootError):  # OpenSpiel's own messages span lines
        message = str(error)
        assert "\n" not in message and 0 < len(message) <= 500, message


def test_a_game_too_long_for_openspiel_is_refused() -> None:
    """``max_game_length`` is a C++ int, and OpenSpiel adds as many chance nodes to it for
    ``max_history_length``: five players to 1,000,000 points gave a negative history bound,
    eight players a pybind11 TypeError."""
    for players in (5, 8):
        text = f"python_chickenfoot(players={players},scope=match,match_threshold=1000000)"
        with pytest.raises(cf.ArgumentError, match="match_rounds") as info:
            pyspiel.load_game(text)
        _bounded(info.value)
        most = int(
            re.search(r"match_threshold=([\d,]+) or less", str(info.value))[1].replace(",", "")
        )
        game = pyspiel.load_game(text.replace("1000000", str(most)))
        assert 0 < game.max_game_length() < game.max_history_length() <= 2**31 - 1
        with pytest.raises(cf.ArgumentError):
            pyspiel.load_game(text.replace("1000000", str(most + 1)))
    rules = cf.Rules(players=8, match=cf.Threshold(10**6))
    with pytest.raises(cf.ArgumentError, match="C\\+\\+ int"):
        cfos.load_game(rules, scope="match")
    assert cfos.load_game(rules).max_game_length() > 0  # one round is short


@pytest.mark.parametrize(
    "params",
    ["abc", 5, [("players", 2)], {1: 2, "a": 3}, {"z" * 5000: 1}, {("a",): 1}],
    ids=["str", "int", "list", "mixed-keys", "long-key", "tuple-key"],
)
def test_parameters_that_are_no_parameters(params: Any) -> None:
    with pytest.raises(cf.ArgumentError) as info:
        cfos.ChickenFootGame(params)
    _bounded(info.value)
    with pytest.raises(cf.ArgumentError):
        cfos.rules_from_parameters(params)


def test_observer_arguments() -> None:
    """Issue 18: observation parameters of 5,000 characters gave a message of 5,055."""
    game = pyspiel.load_game("python_chickenfoot(players=2)")
    from open_spiel.python.observation import make_observation

    for params in ({"x": "y" * 5000}, {"y" * 5000: 1}, "abc", [1] * 5000, np.arange(3)):
        with pytest.raises(cf.ArgumentError, match="observation parameters") as info:
            game.make_py_observer(None, params)
        _bounded(info.value)
    with pytest.raises(cf.ArgumentError) as info:
        make_observation(game, params={"x": "y" * 5000})
    _bounded(info.value)
    for kind in ("junk", 5, np.arange(3)):
        with pytest.raises(cf.ArgumentError, match="IIGObservationType") as info:
            game.make_py_observer(kind)
        _bounded(info.value)
    assert game.make_py_observer(None, {}).tensor.shape == (game.observation_tensor_size(),)


def test_observations_for_a_seat_that_does_not_exist() -> None:
    state = _first_decision("python_chickenfoot(players=2)")
    for method in (
        state.observation_tensor,
        state.observation_string,
        state.information_state_tensor,
        state.information_state_string,
    ):
        for player in (-1, 2, 99):
            with pytest.raises(RuntimeError, match="player"):
                method(player)
    with pytest.raises(RuntimeError):  # a chance node has no information state of its own
        pyspiel.load_game("python_chickenfoot").new_initial_state().information_state_string()


def test_game_parameters_round_trip() -> None:
    rules = cf.Rules(players=3, centre="holder", match=cf.Threshold(100, inclusive=True))
    game = cfos.load_game(rules, scope="match")
    assert game.config.rules == rules and game.config.utility == "win"
    assert pyspiel.load_game(str(game)).config.rules == rules
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert cfos.load_game().get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert cfos.load_game().config.rules == cf.Rules()


# -- the example and the docs ---------------------------------------------------------------


def test_example_mcts(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "openspiel_mcts.py"
    monkeypatch.setattr(sys, "argv", [str(path), "--simulations", "20", "--seed", "1"])
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert re.search(r"penalties", out), out


def test_docs_examples_run() -> None:
    """Every ```python block of docs/openspiel.md runs, in order, in one namespace."""
    text = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert blocks
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "docs/openspiel.md", "exec"), namespace)


def test_new_state_from_a_position() -> None:
    rules = cf.Rules(players=3)
    game = cfos.load_game(rules)
    position = cf.deal(rules, seed=4)
    sample = position.view(1).sample(random.Random(0))
    for start in (position, sample):
        state = game.new_state_from(start)
        assert state.round_state is start and state.current_player() == start.turn
        assert state.legal_actions() == game.config.enc.legal_actions(start)
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(cf.ArgumentError, match="rules of this game"):
        game.new_state_from(cf.deal(cf.Rules(), seed=1))
    with pytest.raises(cf.ArgumentError, match="needs a State"):
        game.new_state_from("9-9")
    with pytest.raises(cf.ArgumentError, match="scope 'round'"):
        cfos.load_game(rules, scope="match").new_state_from(position)


def test_example_ismcts_anchor_plays_legal_moves_from_its_view() -> None:
    """examples/openspiel_ismcts.py: OpenSpiel's ISMCTSBot as an agent (the Strength page's
    outside anchor) plays whole rounds; a tiny time limit still searches (at least the
    simulations that visit the root) and answers a legal move."""
    spec = importlib.util.spec_from_file_location(
        "openspiel_ismcts", ROOT / "examples" / "openspiel_ismcts.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for players in (2, 4):
        agents = [module.Anchor(time_limit=1e-6)] + [cf.GreedyAgent()] * (players - 1)
        end = cf.play_round(cf.deal(cf.Rules(players=players), seed=3), agents, random.Random(0))
        assert end.is_over()
