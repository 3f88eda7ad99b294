"""Fuzzing in the normal suite: every loader, parser and entry point fed hostile input.

The targets, their inputs and the property live in ``fuzz_targets`` and are shared with
``bench/fuzz.py`` (``nox -s fuzz -- SECONDS`` runs them for a time budget). Here each target
runs a short fixed number of examples (scaled by the Hypothesis profile, see
``strategies.examples``), plus the inputs of issue 8 as explicit examples, so that every run
tries them. The property, for every call: it returns, or raises a ``ChickenFootError`` or a
``TypeError`` raised by the library itself; the message has at most 500 characters; the
call ends (a hang is interrupted; speed is for nox -s fuzz and nox -s bench); and the per-target checks on success hold (see ``fuzz_targets``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example

import chickenfoot as cf
from fuzz_targets import (
    IN_SUITE,
    ODD_MOVE,
    TARGETS,
    Case,
    encode,
    fuzzes,
    holds,
    nest,
    pool,
)

TESTED = IN_SUITE  # the shared registry of the targets the suite runs


# The inputs of issue 8, tried on every run.
S = pool().states[0]  # deal(Rules(), seed=1): four seats, nothing played
HUGE = 10**5000
DEEP_LIST = nest(5000, 1, "list")
LONG = "9-4" * 1_000_000


def _position(**changes: Any) -> dict[str, Any]:
    doc = S.to_dict()
    doc.update(changes)
    return doc


def _deep_hand(depth: int) -> dict[str, Any]:
    doc = S.to_dict()
    doc["hands"][2][5] = nest(depth, "9-4", "list")
    return doc


def _record(**changes: Any) -> dict[str, Any]:
    doc = cf.Record(S).to_dict()
    doc.update(changes)
    return doc


OVER = cf.Match.from_scores(cf.Rules(players=2, match=cf.Rounds(1)), seed=0, scores=[(0, 9)])


def _match(**changes: Any) -> dict[str, Any]:
    doc = cf.Match.start(cf.Rules(), seed=1).to_dict()
    doc.update(changes)
    return doc


# -- rules ---------------------------------------------------------------------------------------


@fuzzes("Rules.from_dict", 90)
@example(Case({"players": DEEP_LIST}))
@example(Case({"match": {"rounds": nest(1000, 1, "list")}}))
@example(Case({"players": -HUGE}))
@example(Case({"double_blank": LONG}))
@example(Case({HUGE: 1}))
def test_rules_from_dict(case: Case) -> None:
    holds("Rules.from_dict", case)


@fuzzes("Rules(**kwargs)", 90)
@example(Case(players=-HUGE))
@example(Case(players=DEEP_LIST))
@example(Case(match=cf.Rounds(19)))
@example(Case(centre=LONG))
def test_rules_kwargs(case: Case) -> None:
    holds("Rules(**kwargs)", case)


@fuzzes("Rounds(count)", 30)
@example(Case(HUGE))
@example(Case(-HUGE))
@example(Case(LONG))
def test_rounds(case: Case) -> None:
    holds("Rounds(count)", case)


@fuzzes("Threshold(points)", 30)
@example(Case(HUGE, inclusive=False))
@example(Case(10**6 + 1, inclusive=False))
@example(Case(100, inclusive=LONG))
def test_threshold(case: Case) -> None:
    holds("Threshold(points)", case)


@fuzzes("Rules.preset", 60)
@example(Case(["x"], players=4))
@example(Case(LONG, players=4))
@example(Case("house", players=HUGE))
def test_rules_preset(case: Case) -> None:
    holds("Rules.preset", case)


@fuzzes("Rules.replace", 60)
@example(Case(cf.Rules(), double_blank=-HUGE))
def test_rules_replace(case: Case) -> None:
    holds("Rules.replace", case)


# -- notation ------------------------------------------------------------------------------------


@fuzzes("parse_move", 120)
@example(Case("9-9", max_pip="9"))
@example(Case(DEEP_LIST, max_pip=9))
@example(Case(HUGE, max_pip=9))
@example(Case(LONG, max_pip=9))
@example(Case("9" * 5000 + "-0", max_pip=9))
def test_parse_move(case: Case) -> None:
    holds("parse_move", case)


@fuzzes("Move.parse", 60)
@example(Case("9-9", max_pip="9"))
@example(Case("9-4@9-9", max_pip=None))
def test_move_parse(case: Case) -> None:
    holds("Move.parse", case)


@fuzzes("Tile.parse", 90)
@example(Case("9-9", max_pip="9"))
@example(Case(DEEP_LIST, max_pip=9))
@example(Case(LONG, max_pip=9))
def test_tile_parse(case: Case) -> None:
    holds("Tile.parse", case)


@fuzzes("Tile(a, b)", 60)
@example(Case(HUGE, 0))
@example(Case(DEEP_LIST, 0))
def test_tile_new(case: Case) -> None:
    holds("Tile(a, b)", case)


@fuzzes("Tile.from_id", 45)
@example(Case(-HUGE))
@example(Case(LONG))
def test_tile_from_id(case: Case) -> None:
    holds("Tile.from_id", case)


# -- positions -----------------------------------------------------------------------------------


@fuzzes("State.from_dict", 90)
@example(Case(_deep_hand(1000)))
@example(Case(_deep_hand(5000)))
@example(Case(_position(turn=HUGE)))
@example(Case(_position(turn=LONG)))
@example(Case(_match()))
@example(Case(_position(version=HUGE)))
@example(Case(_position(version=10**4300 - 1)))
def test_state_from_dict(case: Case) -> None:
    holds("State.from_dict", case)


@fuzzes("State.from_json", 90)
@example(Case(encode(_deep_hand(1000))))
@example(Case(encode(_deep_hand(5000))))
@example(Case(encode(_position(hands=[[LONG], [], [], []]))))
@example(Case(json.dumps(_match())))
def test_state_from_json(case: Case) -> None:
    holds("State.from_json", case)


@fuzzes("State.setup", 60)
@example(Case(cf.Rules(), hands=[[DEEP_LIST]] * 4, boneyard=[]))
@example(Case(cf.Rules(), hands=[[], [], [], []], boneyard=[], turn=HUGE))
@example(Case(cf.Rules(), hands=[[LONG], [], [], []], boneyard=[]))
def test_state_setup(case: Case) -> None:
    holds("State.setup", case)


@fuzzes("apply", 90)
@example(Case(S, ODD_MOVE))
@example(Case(S.to_dict(), "9-2@9-9"))
@example(Case(None, "9-2@9-9"))
@example(Case(S, DEEP_LIST))
@example(Case(S, HUGE))
@example(Case(S, LONG))
def test_apply(case: Case) -> None:
    holds("apply", case)


@fuzzes("State.apply", 45)
@example(Case(S, ODD_MOVE))
def test_state_apply(case: Case) -> None:
    holds("State.apply", case)


@fuzzes("is_legal", 60)
@example(Case(None, "9-2@9-9"))
@example(Case(S, ODD_MOVE))
def test_is_legal(case: Case) -> None:
    holds("is_legal", case)


@fuzzes("legal_moves", 45)
@example(Case(None))
@example(Case(S.to_dict()))
def test_legal_moves(case: Case) -> None:
    holds("legal_moves", case)


@fuzzes("deal", 75)
@example(Case(cf.Rules(), seed=HUGE))
@example(Case(cf.Rules(), seed="abc"))
@example(Case(cf.Rules(), seed=1, round=HUGE))
@example(Case(cf.Rules(), seed=DEEP_LIST))
def test_deal(case: Case) -> None:
    holds("deal", case)


@fuzzes("perft", 60)
@example(Case(S, -1))
@example(Case(S, -HUGE))
@example(Case(S, DEEP_LIST))
@example(Case(None, 1))
def test_perft(case: Case) -> None:
    holds("perft", case)


@fuzzes("playout", 45)
@example(Case(S, rng=5))
@example(Case(S, rng="abc"))
@example(Case(None))
def test_playout(case: Case) -> None:
    holds("playout", case)


@fuzzes("State.hand", 60)
@example(Case(S, 4))
@example(Case(S, -1))
@example(Case(S, HUGE))
@example(Case(S, "0"))
def test_state_hand(case: Case) -> None:
    holds("State.hand", case)


@fuzzes("State.view", 45)
@example(Case(S, -1))
@example(Case(S, HUGE))
def test_state_view(case: Case) -> None:
    holds("State.view", case)


# -- records, matches, views ---------------------------------------------------------------------


@fuzzes("Record.from_dict", 60)
@example(Case(_record(moves=[DEEP_LIST])))
@example(Case(_record(moves=[LONG])))
@example(Case(_record(moves=LONG)))
def test_record_from_dict(case: Case) -> None:
    holds("Record.from_dict", case)


@fuzzes("Record.from_json", 60)
@example(Case(encode(_record(moves=nest(1000, "draw", "list")))))
@example(Case(encode(_record(start=_deep_hand(1000)))))
def test_record_from_json(case: Case) -> None:
    holds("Record.from_json", case)


@fuzzes("Record(start, moves)", 60)
@example(Case(S, 5))
@example(Case(S, [DEEP_LIST]))
@example(Case(S, [ODD_MOVE]))
@example(Case(HUGE, []))
def test_record_new(case: Case) -> None:
    holds("Record(start, moves)", case)


@fuzzes("Record.apply", 45)
@example(Case(cf.Record(S), ODD_MOVE))
@example(Case(cf.Record(S), LONG))
def test_record_apply(case: Case) -> None:
    holds("Record.apply", case)


@fuzzes("Match.from_dict", 60)
@example(Case(_match(seed=DEEP_LIST)))
@example(Case(_match(scores=[[LONG, 0, 0, 0]])))
@example(Case(_match(round=_deep_hand(1000))))
def test_match_from_dict(case: Case) -> None:
    holds("Match.from_dict", case)


@fuzzes("Match.from_json", 60)
@example(Case(encode(_match(rules={"players": nest(1000, 4, "list")}))))
def test_match_from_json(case: Case) -> None:
    holds("Match.from_json", case)


@fuzzes("Match.start", 45)
@example(Case(cf.Rules(), seed=HUGE))
@example(Case(cf.Rules(), seed=DEEP_LIST))
def test_match_start(case: Case) -> None:
    holds("Match.start", case)


@fuzzes("Match.apply", 45)
@example(Case(cf.Match.start(cf.Rules(), seed=1), ODD_MOVE))
@example(Case(cf.Match.start(cf.Rules(), seed=1), LONG))
@example(Case(OVER, LONG))
@example(Case(OVER, DEEP_LIST))
@example(Case(OVER, HUGE))
def test_match_apply(case: Case) -> None:
    holds("Match.apply", case)


@fuzzes("View.from_dict", 37)
@example(Case({**S.view(0).to_dict(), "hand": [DEEP_LIST]}))
@example(Case({**S.view(0).to_dict(), "seat": HUGE}))
def test_view_from_dict(case: Case) -> None:
    holds("View.from_dict", case)


@fuzzes("View.from_json", 37)
@example(Case(encode({**S.view(0).to_dict(), "history": [nest(1000, 0, "list")]})))
def test_view_from_json(case: Case) -> None:
    holds("View.from_json", case)


# -- the command line ----------------------------------------------------------------------------


@fuzzes("cli.main", 60)
@example(Case(["rules", "--set", "match=" + "[" * 1000 + "]" * 1000]))
@example(Case(["rules", "--set", "match=" + "[" * 5000]))
@example(Case(["demo", "--set", "double_blank=" + "9" * 4300]))
@example(Case(["demo", "--seed", "9" * 5000]))
@example(Case(["rules", "--preset", "x" * 100_000]))
def test_cli(case: Case) -> None:
    holds("cli.main", case)


@fuzzes("cli.main on files", 40)
@example(Case(["show", "FILE"], "[" * 100_000))
@example(Case(["validate", "FILE"], b"\xff\xfe not utf-8"))
@example(Case(["perft", "FILE", "--depth", "2"], S.to_json()))
@example(Case(["apply", "FILE", "x"], S.to_json()))
def test_cli_on_files(case: Case) -> None:
    holds("cli.main on files", case)


# -- the fuzz targets themselves -----------------------------------------------------------------


def test_every_target_runs_in_the_suite() -> None:
    assert set(TARGETS) == TESTED


OTHER_FORMATS = [
    ("position", cf.State.from_dict),
    ("record", cf.Record.from_dict),
    ("match", cf.Match.from_dict),
    ("view", cf.View.from_dict),
]


@pytest.mark.parametrize("kind, load", OTHER_FORMATS, ids=[k for k, _ in OTHER_FORMATS])
def test_a_document_of_another_format_is_named_as_such(
    kind: str, load: Callable[[Any], Any]
) -> None:
    """Issue 8: ``State.from_json(<a match document>)`` said ``centre: missing``."""
    for other, text in ((k, docs[0][1]) for k, docs in pool().docs.items()):
        if other in (kind, "rules"):
            continue
        with pytest.raises(cf.FormatError) as info:
            load(json.loads(text))
        assert f"chickenfoot/{other}" in str(info.value), (other, str(info.value))
