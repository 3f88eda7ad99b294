"""Issue 18: every public entry point checks what it is given, and every integer that
enters has a documented range.

Each test here failed before its fix (the audit's probes, and the entry points a sweep of
``__all__`` found beside them): a Python error escaped (``AttributeError``,
``RecursionError``, a plain ``ValueError``, ``OverflowError``, ``TypeError`` from Python
itself), a bad value was accepted and exploded later, or a message ran to thousands of
characters.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

import chickenfoot as cf
from chickenfoot.agents import play_match, play_round
from chickenfoot.errors import AgentError, ArgumentError, FormatError, RulesError, SeatError
from chickenfoot.render import render, render_compact, render_table

S = cf.deal(cf.Rules(), seed=1)
V = S.apply("9-3@9-9").apply("draw").view(2)
FOUR = [cf.RandomAgent()] * 4
HUGE = 10**5000


def raises(error: type[Exception], message: str, call: Any) -> str:
    """``call()`` raises ``error`` whose message starts with ``message``; its message."""
    with pytest.raises(error) as info:
        call()
    text = str(info.value)
    assert text.startswith(message), text
    assert isinstance(info.value, cf.ChickenFootError)
    assert "\n" not in text and len(text) <= 500
    return text


# -- integers: one documented range each --------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cf.Rules(double_blank=HUGE), "double_blank=an integer of about 5,001 digits is invalid: must be an integer from 0 to 1,000"),
        (lambda: cf.Rules(double_blank=2**63 - 1), "double_blank=9223372036854775807 is invalid"),
        (lambda: cf.Rules(match=cf.Threshold(HUGE)), "threshold=an integer of about 5,001 digits is invalid"),
        (lambda: cf.Rules.from_dict({"match": {"threshold": 10**6 + 1}}), "threshold=1000001 is invalid"),
        (lambda: cf.Rules.from_dict({"double_blank": 1001}), "double_blank=1001 is invalid"),
    ],
)  # fmt: skip
def test_rules_integers_have_ranges(call: Any, message: str) -> None:
    raises(RulesError, message, call)


def test_the_worst_rules_still_fit_everywhere() -> None:
    # The largest values the ranges allow play, score and print like any others.
    rules = cf.Rules(
        players=2, max_pip=18, hand_size=20, double_blank=1000, match=cf.Threshold(10**6)
    )
    m = cf.Match.start(rules, seed=10**4000 - 1)
    assert m.to_json() and repr(m) and str(m.result())
    assert cf.Match.from_json(m.to_json()) == m
    end = cf.playout(m.round, random.Random(0))
    assert max(end.penalties()) <= rules.max_penalty < 2**24


def _match_doc(**changes: Any) -> dict[str, Any]:
    doc = cf.Match.start(cf.Rules(players=2), seed=4).to_dict()
    doc.update(changes)
    return doc


def test_a_match_document_checks_its_seed_as_the_constructor_does() -> None:
    # The reader took a 4,100-digit seed, and the resumed game died dealing the next round.
    text = raises(
        FormatError,
        "seed: an integer of about 4,100 digits is not an integer of at most 4,000 digits",
        lambda: cf.Match.from_dict(_match_doc(seed=10**4099)),
    )
    assert len(text) < 120
    raises(
        ArgumentError,
        "seed=an integer of about 4,100 digits is invalid",
        lambda: cf.Match(cf.Rules(), 10**4099, [], cf.deal(cf.Rules(), 0)),
    )
    raises(
        ArgumentError,
        "seed=an integer of about 4,100 digits is invalid",
        lambda: cf.Match.from_scores(cf.Rules(), seed=10**4099, scores=[]),
    )
    raises(
        FormatError, "seed: 1.5 is not an integer", lambda: cf.Match.from_dict(_match_doc(seed=1.5))
    )
    raises(
        FormatError,
        "seed: True is not an integer",
        lambda: cf.Match.from_dict(_match_doc(seed=True)),
    )


@pytest.mark.parametrize("score", [HUGE, 10**400, 321], ids=["10**5000", "10**400", "321"])
def test_a_score_is_at_most_what_a_round_can_give(score: int) -> None:
    # Scores of 10**5000 were read, then to_json(), repr() and str(result()) raised Python's
    # int-to-string ValueError, and messages quoted them in 4,000 characters.
    rules = cf.Rules(match=cf.Threshold(10**6))
    assert rules.max_penalty == 320
    doc = cf.Match.start(rules, seed=1).to_dict()
    doc["scores"] = [[score, 0, 0, 0]]
    raises(FormatError, "scores[0][0]: ", lambda: cf.Match.from_dict(doc))
    raises(
        RulesError,
        "scores[0][0]: ",
        lambda: cf.Match.from_scores(rules, seed=1, scores=[(score, 0, 0, 0)]),
    )
    assert cf.Match.from_scores(rules, seed=1, scores=[(320, 0, 0, 0)]).totals == (320, 0, 0, 0)


def test_scores_over_the_bound_name_it() -> None:
    message = raises(
        RulesError,
        "scores[0][1]: 321 is more than a seat can score",
        lambda: cf.Match.from_scores(cf.Rules(), seed=1, scores=[(0, 321, 0, 0)]),
    )
    assert "(at most 320: rules.max_penalty)" in message


# -- documents ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [False, 0.0, "0", None, [0]])
def test_a_view_outcome_seat_is_an_integer(seat: Any) -> None:
    # View.from_dict took false and 0.0 as seat 0 and wrote them back that way.
    s = cf.State.setup(
        cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1),
        hands=[["3-2"], ["1-1", "2-2", "2-0"]],
        boneyard=["1-0", "2-1", "3-0", "3-1", "0-0"],
        board=["3-3"],
    )
    end = s.apply("3-2@3-3")
    assert end.outcome() == cf.Outcome(cf.Termination.OUT, 0)
    doc = end.view(1).to_dict()
    assert cf.View.from_dict(doc).outcome() == cf.Outcome(cf.Termination.OUT, 0)
    doc["outcome"]["seat"] = seat
    raises(FormatError, "outcome.seat: ", lambda: cf.View.from_dict(doc))


def test_a_position_of_the_wrong_set_gets_a_short_message() -> None:
    # 899 characters before: every tile of the double-18 set missing from a double-9 position.
    doc = S.to_dict()
    doc["rules"] = {**doc["rules"], "max_pip": 18, "hand_size": 11}
    text = raises(
        FormatError,
        "tiles missing from board, hands and boneyard: 10-0, 10-1,",
        lambda: cf.State.from_dict(doc),
    )
    assert text.endswith("and 127 more") and len(text) < 120


# -- tiles, rules helpers, deals --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: cf.Tile(9, 4).other(7), ArgumentError, "number=7 is invalid: must be a number 9-4 shows (9 or 4)"),
        (lambda: cf.Tile(6, 6).other("6"), ArgumentError, "number='6' is invalid: must be a number 6-6 shows (6)"),
        (lambda: cf.tile_id("a", "b"), ArgumentError, "a='a' is invalid: must be an integer from 0 to 18"),
        (lambda: cf.tile_id(3, 19), ArgumentError, "b=19 is invalid: must be an integer from 0 to 18"),
        (lambda: cf.set_size(None), ArgumentError, "max_pip=None is invalid: must be an integer from 0 to 18"),
        (lambda: cf.set_size(HUGE), ArgumentError, "max_pip=an integer of about 5,001 digits is invalid"),
        (lambda: cf.tiles_of_set("9"), ArgumentError, "max_pip='9' is invalid"),
        (lambda: cf.half_match("9"), RulesError, "max_pip='9' is invalid: must be an integer from 2 to 18"),
        (lambda: cf.Rules().centre_of_round("x"), ArgumentError, "round='x' is invalid: must be a non-negative integer"),
        (lambda: cf.Rules().centre_of_round(-1), ArgumentError, "round=-1 is invalid"),
        (lambda: cf.Rules().leader_of_round(2.0), ArgumentError, "round=2.0 is invalid"),
        (lambda: cf.shuffled_tiles("x", 1), RulesError, "rules='x' is invalid: must be a Rules object"),
        (lambda: cf.shuffled_tiles(cf.Rules(), "1"), ArgumentError, "seed='1' is invalid"),
        (lambda: cf.shuffled_tiles(cf.Rules(), 1, round=-1), ArgumentError, "round=-1 is invalid"),
        (lambda: cf.match_legal_moves("x"), ArgumentError, "match_legal_moves needs a Match, got 'x'"),
        (lambda: cf.match_apply(None, "draw"), ArgumentError, "match_apply needs a Match, got None"),
    ],
)  # fmt: skip
def test_helpers_check_their_arguments(call: Any, error: type[Exception], message: str) -> None:
    raises(error, message, call)


def test_shuffled_tiles_is_the_deal() -> None:
    rules = cf.Rules()
    order = cf.shuffled_tiles(rules, 1000)
    assert [t.id for t in cf.deal(rules, 1000).hand(0)] == sorted(order[:11])


# -- perft: no recursion ----------------------------------------------------------------------------

_DEEP_PERFT = textwrap.dedent(
    """
    import sys
    import chickenfoot as cf
    # A long forced line: every seat draws an unplayable tile and passes, 169 times over.
    rules = cf.Rules(players=2, max_pip=18, hand_size=1)
    with_18 = [str(cf.Tile(18, k)) for k in range(18)]
    rest = [str(t) for t in cf.tiles_of_set(17) if str(t) not in ("0-0", "1-0")]
    s = cf.State.setup(rules, hands=[["0-0"], ["1-0"]], boneyard=rest + with_18)
    line = 2 * len(rest)
    sys.setrecursionlimit(120)  # far below the line's length
    print(cf.perft(s, line), cf.perft(s, line - 1), line)
    """
)


def test_perft_walks_a_long_line_without_recursion() -> None:
    # perft(state, 1100) on a long round raised RecursionError.
    done = subprocess.run(
        [sys.executable, "-c", _DEEP_PERFT],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-1500:]
    leaves, before, line = map(int, done.stdout.split())
    # The line is forced: one leaf at every depth along it (draw, then pass, 169 times).
    assert (leaves, before, line) == (1, 1, 338)


def test_perft_past_the_end_of_the_round_is_zero() -> None:
    rng = random.Random(3)
    s = S
    while len(cf.legal_moves(s)) and not s.is_over():
        s = s.apply(rng.choice(cf.legal_moves(s)))
        if s.boneyard_size == 0:
            break
    end = cf.playout(s, random.Random(1))
    assert cf.perft(end, 10**9) == 0
    assert cf.perft(end, 0) == 1


# -- agents and drivers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: cf.HeuristicAgent(follow="x"), "follow='x' is invalid: must be a finite number"),
        (lambda: cf.HeuristicAgent(hurt=float("nan")), "hurt=nan is invalid: must be a finite number"),
        (lambda: cf.HeuristicAgent(foot=None), "foot=None is invalid"),
        (lambda: cf.HeuristicAgent(keep=True), "keep=True is invalid"),
        (lambda: cf.HeuristicAgent(keep=10**400), "keep=an integer of about 401 digits is invalid"),
        (lambda: cf.SearchAgent(iterations=HUGE), "iterations=an integer of about 5,001 digits is invalid: must be an integer from 1 to 1,000,000"),
        (lambda: cf.SearchAgent(time_limit=float("inf")), "time_limit=inf is invalid"),
        (lambda: cf.SearchAgent(rollout=["greedy"]), "rollout=['greedy'] is invalid: must be 'greedy', 'random' or 'heuristic'"),
    ],
)  # fmt: skip
def test_agents_check_their_fields(build: Any, message: str) -> None:
    # HeuristicAgent(follow="x") was accepted and failed mid-game.
    raises(AgentError, message, build)


def test_agent_weights_may_be_any_finite_number() -> None:
    a = cf.HeuristicAgent(follow=-1, hurt=0, foot=np.float32(2.5), keep=1e6)
    v = S.view(0)
    assert a.choose(v, v.legal_moves, random.Random(0)) in v.legal_moves


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: play_round("x", FOUR, random.Random(0)), ArgumentError, "play_round needs a State, got 'x'"),
        (lambda: play_round(S, FOUR, None), ArgumentError, "rng=None is invalid: must be a random.Random"),
        (lambda: play_round(S, FOUR, np.random.default_rng(0)), ArgumentError, "rng=Generator(PCG64)"),
        (lambda: play_round(S, FOUR, 7), ArgumentError, "rng=7 is invalid"),
        (lambda: play_match("x", FOUR, seed=1, rng=random.Random(0)), RulesError, "rules='x' is invalid: must be a Rules object"),
        (lambda: play_match(cf.Rules(), FOUR, seed="1", rng=random.Random(0)), ArgumentError, "seed='1' is invalid"),
        (lambda: play_match(cf.Rules(), FOUR, seed=1, rng=None), ArgumentError, "rng=None is invalid"),
        (lambda: play_match(cf.Rules(), FOUR, seed=1, rng=random.Random(0), on_round=5), ArgumentError, "on_round=5 is invalid: must be callable"),
        (lambda: play_match(cf.Rules(), FOUR[:3], seed=1, rng=random.Random(0)), AgentError, "expected 4 agents"),
    ],
)  # fmt: skip
def test_drivers_check_their_arguments(call: Any, error: type[Exception], message: str) -> None:
    raises(error, message, call)


# -- pictures, views, encodings ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: render("x"), ArgumentError, "render needs a State or a View, got 'x'"),
        (lambda: render_table(None), ArgumentError, "render_table needs a State or a View, got None"),
        (lambda: render_compact(S, width="80"), ArgumentError, "width='80' is invalid: must be an integer from 20 to 10,000"),
        (lambda: render_compact(S, width=10**9), ArgumentError, "width=1000000000 is invalid"),
        (lambda: render_compact(S, seat=7), SeatError, "seat 7 is not a seat of this round"),
        (lambda: render_compact(V, seat=1), ArgumentError, "seat= is for a State"),
        (lambda: render_compact([S]), ArgumentError, "render_compact needs a State or a View"),
    ],
)  # fmt: skip
def test_renderers_check_their_arguments(call: Any, error: type[Exception], message: str) -> None:
    raises(error, message, call)


def test_render_draws_a_view() -> None:
    # render(view) raised AttributeError; a view's long picture lists only its own hand.
    text = render(V)
    assert text.startswith(render_table(V))
    assert "  seat 2 (you): " + " ".join(map(str, V.hand)) in text
    assert "  seat 0: 10 tiles" in text and "  seat 1: 12 tiles" in text
    assert "Turn: seat 1" in text
    for seat in (0, 1, 3):
        for tile in S.hand(seat):
            if tile not in V.hand and str(tile) not in text.split("Hands:")[0]:
                assert str(tile) not in text.split("Hands:")[1]


@pytest.mark.parametrize(
    "rng",
    [5, "seed", np.random.default_rng(0), random, object(), 1.5],
    ids=lambda rng: type(rng).__name__,  # no address in an id: xdist's workers must agree
)
def test_view_sampling_needs_a_random_generator(rng: Any) -> None:
    # View.sample(5) and sample_record("x") raised AttributeError.
    raises(ArgumentError, "rng=", lambda: V.sample(rng))
    raises(ArgumentError, "rng=", lambda: V.sample_record(rng))


def test_view_sampling_takes_a_subclass_and_none() -> None:
    class Mine(random.Random):
        pass

    assert V.sample(Mine(3)).view(2) == V
    assert V.sample(None).view(2) == V
    assert V.sample_record(Mine(3)).final().view(2) == V


# -- simulation ---------------------------------------------------------------------------------------

ONE = cf.Rules(players=2, match=cf.Rounds(1))


def test_a_shut_down_executor_is_a_library_error() -> None:
    pool = ThreadPoolExecutor(max_workers=1)
    pool.shutdown()
    raises(
        ArgumentError,
        "executor=<concurrent.futures.thread.T",
        lambda: cf.simulate(ONE, FOUR[:2], games=3, seed=1, executor=pool),
    )
    message = raises(
        ArgumentError,
        "executor=",
        lambda: cf.simulate(ONE, FOUR[:2], games=3, seed=1, executor=pool),
    )
    assert "its submit() raised RuntimeError: cannot schedule new futures after shutdown" in message


class _Lazy(ThreadPoolExecutor):
    """An executor whose ``submit`` returns something that is not a future (after one real
    one, so that the cleanup has a future to cancel)."""

    def __init__(self, answer: Any) -> None:
        super().__init__(max_workers=1)
        self.answer = answer
        self.calls = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            return super().submit(*args, **kwargs)
        return self.answer


@pytest.mark.parametrize("answer", [None, 42, "future"])
def test_an_executor_that_returns_no_future_gets_the_first_error(answer: Any) -> None:
    # The cleanup used to call .cancel() on the answer and raise a second error (an
    # AttributeError) that hid the first.
    with _Lazy(answer) as pool:
        message = raises(
            ArgumentError,
            "executor=",
            lambda: cf.simulate(ONE, FOUR[:2], games=3, seed=1, executor=pool),
        )
    assert "must return a concurrent.futures.Future from submit()" in message


def test_a_working_executor_gives_the_serial_numbers() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert cf.simulate(ONE, FOUR[:2], games=6, seed=2, executor=pool) == cf.simulate(
            ONE, FOUR[:2], games=6, seed=2
        )
    assert isinstance(Future(), Future)
