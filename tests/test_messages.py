"""Whole error messages where the message is the contract (mutation testing found that
substring checks let padded or truncated messages pass), Move.parse with max_pip, and the
state's repr."""

from __future__ import annotations

from typing import Any

import pytest

import chickenfoot as cf

# Each expected text follows from the house rules for 4 players: double-nine (55 tiles),
# the centre set aside (54 dealt, so at most 54 // 4 = 13 each), opening_toes 1 to 9,
# foot_toes 1 to 8, a match of 1 to N + 1 = 10 rounds, seats 0 to 3.
RULES_MESSAGES = [
    ({"players": 1}, "players", "players=1 is invalid: must be an integer of at least 2"),
    ({"max_pip": 1}, "max_pip", "max_pip=1 is invalid: must be an integer from 2 to 18"),
    ({"max_pip": 19}, "max_pip", "max_pip=19 is invalid: must be an integer from 2 to 18"),
    (
        {"hand_size": 14},
        "hand_size",
        "hand_size=14 is invalid: must be an integer from 1 to 13 "
        "(4 players x hand_size <= 54 tiles dealt)",
    ),
    (
        {"players": 7, "max_pip": 9},
        "hand_size",
        "hand_size is required: (players=7, max_pip=9) is not in the R2 table "
        "(2-6 players with max_pip=9, 7-8 with max_pip=12)",
    ),
    (
        {"opening_toes": 10},
        "opening_toes",
        "opening_toes=10 is invalid: must be an integer from 1 to max_pip (9)",
    ),
    (
        {"foot_toes": 9},
        "foot_toes",
        "foot_toes=9 is invalid: must be an integer from 1 to max_pip - 1 (8)",
    ),
    (
        {"double_blank": -1},
        "double_blank",
        "double_blank=-1 is invalid: must be an integer from 0 to 1,000",
    ),
    ({"centre": "x"}, "centre", "centre='x' is invalid: must be 'set_aside' or 'holder'"),
    ({"draw": "two"}, "draw", "draw='two' is invalid: must be 'one' or 'until_playable'"),
    (
        {"drawn_tile": "x"},
        "drawn_tile",
        "drawn_tile='x' is invalid: must be 'must_play' or 'may_play'",
    ),
    (
        {"may_draw_instead": 1},
        "may_draw_instead",
        "may_draw_instead=1 is invalid: must be true or false",
    ),
    (
        {"match": cf.Rounds(11)},
        "match",
        "match=Rounds(count=11) is invalid: rounds must be an integer from 1 to 10",
    ),
    (
        {"double_blank": 1001},
        "double_blank",
        "double_blank=1001 is invalid: must be an integer from 0 to 1,000",
    ),
    (
        {"match": 5},
        "match",
        "match=5 is invalid: must be Rounds(k) or Threshold(T, inclusive=...)",
    ),
    (
        {"tie_break": "x"},
        "tie_break",
        "tie_break='x' is invalid: must be 'shared' or 'zero_rounds'",
    ),
    ({"first_leader": 4}, "first_leader", "first_leader=4 is invalid: must be a seat from 0 to 3"),
    (
        {"colour": "red"},
        "colour",
        "colour='red' is invalid: not a rules field (fields: players, max_pip, hand_size, "
        "opening_toes, foot_toes, double_blank, centre, draw, drawn_tile, may_draw_instead, "
        "match, tie_break, first_leader)",
    ),
]


@pytest.mark.parametrize(("fields", "field", "message"), RULES_MESSAGES)
def test_rules_errors_say_exactly_this(fields: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(cf.RulesError) as info:
        cf.Rules(**fields)
    assert str(info.value) == message
    assert info.value.field == field


def test_move_parse_honours_max_pip() -> None:
    assert cf.Move.parse("10-2@10-10", max_pip=12) is cf.parse_move("10-2@10-10")
    with pytest.raises(cf.InvalidMoveError) as info:
        cf.Move.parse("10-2@9-9", max_pip=9)
    assert str(info.value) == "'10-2@9-9' names a tile outside the double-9 set"
    assert cf.Move.parse("9-2@9-9", max_pip=9) is cf.parse_move("9-2@9-9")


def test_state_repr_shows_the_drawn_tile() -> None:
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9")
    assert repr(s) == (
        "<State turn=1 phase=opening board=[9-9 9-3@9-9] hands=[10, 11, 11, 11] boneyard=10>"
    )
    # Seat 1 has no 9 (its only move is to draw): it draws 6-3, the front of the boneyard.
    assert repr(s.apply("draw")) == (
        "<State turn=1 phase=opening board=[9-9 9-3@9-9] hands=[10, 12, 11, 11] boneyard=9 "
        "drawn=6-3>"
    )
