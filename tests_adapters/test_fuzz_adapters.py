"""Fuzzing the adapters in the adapters' suite: the targets of ``fuzz_openspiel`` and
``fuzz_pettingzoo`` (the shared registry of ``tests/fuzz_targets.py``), a short fixed
budget each, plus the inputs of issue 18 as explicit examples, so that every run tries
them. ``bench/fuzz.py --target NAME`` runs the same targets for a time budget.

The property is ``fuzz_targets.check``'s, and here the library's messages are also held to
one line of at most 500 characters (``fuzz_targets.MAX_MESSAGE`` allows 1,000 today).
"""

from __future__ import annotations

import base64
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings

fuzz_openspiel = pytest.importorskip("fuzz_openspiel")  # needs OpenSpiel
fuzz_pettingzoo = pytest.importorskip("fuzz_pettingzoo")  # needs PettingZoo

import chickenfoot as cf  # noqa: E402
from fuzz_targets import TARGETS, Case, check  # noqa: E402

TESTED: set[str] = set()
LIMIT = 500


def fuzzes(name: str, n: int) -> Callable[[Callable[[Case], None]], Callable[..., None]]:
    """Run the decorated test on ``n`` generated examples of target ``name``."""
    TESTED.add(name)

    def wrap(test: Callable[[Case], None]) -> Callable[..., None]:
        return settings(
            max_examples=n,
            deadline=None,  # check() times every call itself
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )(given(TARGETS[name].inputs)(test))

    return wrap


def holds(name: str, case: Case) -> None:
    target = TARGETS[name]
    failure = check(target, case)
    assert failure is None, failure.report()
    try:
        target.call(*case.args, **case.kwargs)
    except cf.ChickenFootError as err:
        message = str(err)
        assert "\n" not in message and len(message) <= LIMIT, (len(message), message[:200])
    except target.foreign:
        pass


# -- the inputs of issue 18 -------------------------------------------------------------------

SAVED = {s.name: s for s in fuzz_openspiel.saved()}
MID = SAVED["double6-2p at mid-round"]
GAME = MID.game
PAYLOAD = (
    "__dict__=" + base64.b64encode(pickle.dumps({"_core": fuzz_openspiel._Payload()})).decode()
)
HUGE = 10**400


def _with_payload(text: str) -> str:
    return "\n".join(text.split("\n")[:2] + [PAYLOAD])


def _document(state_text: str, game: Any = GAME) -> str:
    return f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{state_text}\n"


# -- OpenSpiel --------------------------------------------------------------------------------


@fuzzes("openspiel: game.deserialize_state", 100)
@example(Case(GAME, _with_payload(MID.own)))  # the exploit: accepted, the payload ignored
@example(Case(GAME, _with_payload("history=0:5\nmove_number=1")))  # and refused: wrong player
@example(Case(GAME, MID.own.replace("move_number=", "move_number=1")))
@example(Case(GAME, "history=-1:" + "9" * 5000 + "\nmove_number=1"))
@example(Case(GAME, "history=-1:0,-1:0\nmove_number=2"))  # one tile dealt twice
@example(Case(GAME, "history=" + ",".join(["-1:0"] * 10_000) + "\nmove_number=10000"))
@example(Case(GAME, "x" * 1_000_000))
@example(Case(GAME, 5))
def test_deserialize_state(case: Case) -> None:
    holds("openspiel: game.deserialize_state", case)


@fuzzes("openspiel: pyspiel.deserialize_game_and_state", 100)
@example(Case(_document(_with_payload(MID.cpp))))  # the exploit, through OpenSpiel's function
@example(Case(b"#\xff\n" + _document(_with_payload(MID.cpp)).encode()))  # as bytes
@example(Case(bytearray(_document(_with_payload(MID.cpp)).encode())))
@example(Case(_document(_with_payload("history=0:1\nmove_number=1"))))
@example(Case(_document(MID.own, "python_chickenfoot(players=3)")))  # another game's history
@example(Case(_document(MID.own, "python_chickenfoot(double_blank=2147483648)")))
@example(Case(MID.document.replace("[Meta]", "[Game]")))
def test_deserialize_game_and_state(case: Case) -> None:
    holds("openspiel: pyspiel.deserialize_game_and_state", case)


@fuzzes("openspiel: pyspiel.load_game(text)", 80)
@example(Case("python_chickenfoot(double_blank=2147483648)"))  # was pybind11's RuntimeError
@example(Case("python_chickenfoot(players=5,scope=match,match_threshold=1000000)"))
@example(Case("python_chickenfoot(players=8,scope=match,match_threshold=1000000)"))
@example(Case("python_chickenfoot(match_rounds=" + "9" * 5000 + ")"))
@example(Case("python_chickenfoot(centre=" + "y" * 5000 + ")"))
def test_load_game_text(case: Case) -> None:
    holds("openspiel: pyspiel.load_game(text)", case)


@fuzzes("openspiel: pyspiel.load_game(name, params)", 60)
@example(Case({"double_blank": 2**31 - 1}))
@example(Case({"players": -(2**31)}))
@example(Case({"players": 8, "scope": "match", "match_threshold": 10**6}))
def test_load_game_params(case: Case) -> None:
    holds("openspiel: pyspiel.load_game(name, params)", case)


@fuzzes("openspiel: ChickenFootGame(params)", 60)
@example(Case({"double_blank": 2**31}))
@example(Case({"players": HUGE}))
@example(Case("abc"))
@example(Case({1: 2, "a": 3}))
@example(Case({"z" * 5000: 1}))
def test_game_params(case: Case) -> None:
    holds("openspiel: ChickenFootGame(params)", case)


@fuzzes("openspiel: make_py_observer", 40)
@example(Case(GAME, None, {"x": "y" * 5000}))  # was a message of 5,055 characters
@example(Case(GAME, "junk", None))
@example(Case(GAME, None, [1] * 5000))
def test_make_py_observer(case: Case) -> None:
    holds("openspiel: make_py_observer", case)


# -- PettingZoo ---------------------------------------------------------------------------------

Point = fuzz_pettingzoo.Point
END = Point("round-2p", 1, 400)
PLAYING = Point("match-2-rounds", 2, 5)


@fuzzes("pettingzoo: reset", 80)
@example(Case(PLAYING, seed=10**4000, options=None))  # left the generator reseeded
@example(Case(PLAYING, seed=1, options="round"))  # TypeError: string indices...
@example(Case(Point("round-2p", 3, 2), seed=1, options={"round": 10**4000}))
@example(Case(Point("round-2p", None, 0), seed=None, options={"round": -1}))
@example(Case(PLAYING, seed=-1, options=None))
def test_reset(case: Case) -> None:
    holds("pettingzoo: reset", case)


@fuzzes("pettingzoo: step", 80)
@example(Case(Point("round-2p", 1, 6), 5))  # an agent done stepping 5: PettingZoo's ValueError
@example(Case(END, None))  # every agent gone: KeyError
@example(Case(PLAYING, HUGE))
@example(Case(PLAYING, "x" * 5000))
def test_step(case: Case) -> None:
    holds("pettingzoo: step", case)


@fuzzes("pettingzoo: observe and the spaces", 40)
@example(Case(PLAYING, "x" * 5000, "observe"))
@example(Case(END, HUGE, "action_space"))
def test_observe(case: Case) -> None:
    holds("pettingzoo: observe and the spaces", case)


@fuzzes("pettingzoo: raw_env and env", 60)
@example(Case(double_blank=HUGE))  # was OverflowError
@example(Case(illegal_reward=HUGE))  # was OverflowError
@example(Case(illegal_reward=float("nan")))
@example(Case(history=HUGE))
@example(Case(**{"z" * 5000: 1}))
@example(Case(rules=cf.Rules(), **{"z" * 5000: 1}))  # was a message of 5,098 characters
def test_make_env(case: Case) -> None:
    holds("pettingzoo: raw_env and env", case)


def test_every_adapter_target_runs_here() -> None:
    assert set(fuzz_openspiel.NAMES) | set(fuzz_pettingzoo.NAMES) == TESTED


def test_the_payload_is_a_real_one() -> None:
    """The fuzz inputs' payload does run when unpickled (so a target that unpickled it would
    be caught), and the check of the targets reports it."""
    before = len(fuzz_openspiel.UNPICKLED)
    pickle.loads(base64.b64decode(PAYLOAD.split("=", 1)[1]))
    assert len(fuzz_openspiel.UNPICKLED) == before + 1
    guarded = fuzz_openspiel._never_unpickles(
        lambda: pickle.loads(pickle.dumps(fuzz_openspiel._Payload()))
    )
    with pytest.raises(AssertionError, match="unpickled"):
        guarded()


def test_a_refused_change_is_caught() -> None:
    """The PettingZoo targets' own check fails a refused call that changed the environment."""
    e = PLAYING.make()
    before = fuzz_pettingzoo.observable(e)
    e.reset(seed=99)
    with pytest.raises(AssertionError, match="changed the environment"):
        fuzz_pettingzoo._unchanged(e, before, "reset")
