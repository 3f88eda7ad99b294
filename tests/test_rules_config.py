"""The rules configuration (the variants of docs/rules.md and the rules object of docs/formats.md): validation,
derived defaults, presets, ``replace`` and the dict form."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from chickenfoot import PRESETS, Rounds, Rules, RulesError, Threshold, half_match

FIELDS = [
    "players",
    "max_pip",
    "hand_size",
    "opening_toes",
    "foot_toes",
    "double_blank",
    "centre",
    "draw",
    "drawn_tile",
    "may_draw_instead",
    "match",
    "tie_break",
    "first_leader",
]

# A tiny but valid configuration, for the fields that do not depend on the set.
TINY: dict[str, Any] = {
    "players": 2,
    "max_pip": 3,
    "hand_size": 3,
    "opening_toes": 2,
    "foot_toes": 1,
}


def rejects(field: str, valid: str, **kwargs: Any) -> RulesError:
    """``Rules(**kwargs)`` fails on ``field``, naming the field, the value and ``valid``."""
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    err = info.value
    assert err.field == field
    assert isinstance(err, ValueError)
    message = str(err)
    if field in kwargs:
        assert message.startswith(f"{field}={kwargs[field]!r} is invalid: "), message
    assert valid in message, message
    return err


# -- defaults -------------------------------------------------------------------------------


def test_house_defaults_and_the_spec_rules_json() -> None:
    assert Rules().to_dict() == {
        "players": 4,
        "max_pip": 9,
        "hand_size": 11,
        "opening_toes": 6,
        "foot_toes": 3,
        "double_blank": 50,
        "centre": "set_aside",
        "draw": "one",
        "drawn_tile": "must_play",
        "may_draw_instead": False,
        "match": {"rounds": 10},
        "tie_break": "shared",
        "first_leader": 0,
    }
    assert list(Rules().to_dict()) == FIELDS


@pytest.mark.parametrize(
    ("players", "max_pip", "hand_size", "rounds"),
    [
        (2, 9, 20, 10),
        (3, 9, 14, 10),
        (4, 9, 11, 10),
        (5, 9, 9, 10),
        (6, 9, 7, 10),
        (7, 12, 10, 13),
        (8, 12, 9, 13),
    ],
)
def test_derived_defaults_from_players(
    players: int, max_pip: int, hand_size: int, rounds: int
) -> None:
    rules = Rules(players=players)
    assert (rules.max_pip, rules.hand_size, rules.match) == (max_pip, hand_size, Rounds(rounds))
    assert rules.rounds_in_cycle == rounds
    assert Rules(players=players, max_pip=max_pip) == rules


def test_rounds_default_follows_a_custom_max_pip() -> None:
    assert Rules(**TINY).match == Rounds(4)
    assert Rules(players=2, max_pip=15, hand_size=30).match == Rounds(16)
    assert Rules(players=9, max_pip=12, hand_size=10).match == Rounds(13)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 4, "max_pip": 3},
        {"players": 9},
        {"players": 7, "max_pip": 9},
        {"players": 6, "max_pip": 12},
        {"players": 2, "max_pip": 18},
    ],
)
def test_hand_size_is_required_outside_the_r2_table(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert info.value.field == "hand_size"
    players = kwargs["players"]
    max_pip = kwargs.get("max_pip", 12)
    assert str(info.value) == (
        f"hand_size is required: (players={players}, max_pip={max_pip}) is not in the R2 table "
        "(2-6 players with max_pip=9, 7-8 with max_pip=12)"
    )


def test_more_players_with_a_custom_set_and_hand_size() -> None:
    rules = Rules(players=10, max_pip=15, hand_size=13)
    assert (rules.players, rules.set_size, rules.hand_size) == (10, 136, 13)


# -- validation of every field ------------------------------------------------------------


@pytest.mark.parametrize("value", [1, 0, -2, True, 4.0, "4", None])
def test_players_validation(value: Any) -> None:
    rejects("players", "must be an integer of at least 2", players=value)


@pytest.mark.parametrize("value", [1, 19, 0, True, 9.0, "9", None])
def test_max_pip_validation(value: Any) -> None:
    rejects("max_pip", "must be an integer from 2 to 18", players=4, max_pip=value, hand_size=3)


@pytest.mark.parametrize("value", [0, -1, True, 11.0, "11", None])
def test_hand_size_must_be_a_positive_integer(value: Any) -> None:
    rejects("hand_size", "must be an integer from 1 to 13", hand_size=value)


def test_hand_size_must_fit_the_tiles_dealt() -> None:
    rejects(
        "hand_size",
        "from 1 to 27 (2 players x hand_size <= 54 tiles dealt)",
        players=2,
        hand_size=28,
    )
    assert Rules(players=2, hand_size=27).hand_size == 27
    # In holder mode the centre is dealt too.
    assert Rules(players=5, hand_size=11, centre="holder").hand_size == 11
    rejects(
        "hand_size",
        "from 1 to 11 (5 players x hand_size <= 55 tiles dealt)",
        players=5,
        hand_size=12,
        centre="holder",
    )
    rejects(
        "hand_size",
        "from 1 to 10 (5 players x hand_size <= 54 tiles dealt)",
        players=5,
        hand_size=11,
    )
    rejects(
        "hand_size",
        "from 1 to 4 (2 players x hand_size <= 9 tiles dealt)",
        **{**TINY, "hand_size": 5},
    )


@pytest.mark.parametrize("value", [0, 10, -1, True, 6.0, "6", None])
def test_opening_toes_validation(value: Any) -> None:
    rejects("opening_toes", "must be an integer from 1 to max_pip (9)", opening_toes=value)


def test_opening_toes_range_follows_the_set() -> None:
    assert Rules(opening_toes=1).opening_toes == 1
    assert Rules(opening_toes=9).opening_toes == 9
    assert Rules(players=7, opening_toes=12).opening_toes == 12
    rejects("opening_toes", "from 1 to max_pip (12)", players=7, opening_toes=13)
    # Tiny sets must give opening toes that fit: the default 6 does not fit double-3.
    rejects("opening_toes", "from 1 to max_pip (3)", players=2, max_pip=3, hand_size=3)


@pytest.mark.parametrize("value", [0, 9, -1, True, 3.0, "3", None])
def test_foot_toes_validation(value: Any) -> None:
    rejects("foot_toes", "must be an integer from 1 to max_pip - 1 (8)", foot_toes=value)


def test_foot_toes_range_follows_the_set() -> None:
    assert Rules(foot_toes=8).foot_toes == 8
    assert Rules(foot_toes=1).foot_toes == 1
    rejects("foot_toes", "from 1 to max_pip - 1 (2)", **{**TINY, "foot_toes": 3})


@pytest.mark.parametrize("value", [-1, True, False, 25.0, "25", None, 1001, 2**63 - 1])
def test_double_blank_validation(value: Any) -> None:
    rejects("double_blank", "must be an integer from 0 to 1,000", double_blank=value)


@pytest.mark.parametrize("value", [0, 25, 50, 1000])
def test_double_blank_accepts_zero_to_the_bound(value: int) -> None:
    assert Rules(double_blank=value).double_blank == value


def test_no_penalty_of_any_rules_reaches_two_to_the_24() -> None:
    # Issue 18: the documented ranges keep every penalty, score and total exact as an int32
    # and even as a float32 reward. The worst seat: double-18, two players of one tile each
    # (so 187 tiles in the boneyard), the 0-0 at the bound.
    from chickenfoot.rules import MAX_DOUBLE_BLANK, MAX_THRESHOLD

    worst = Rules(players=2, max_pip=18, hand_size=1, centre="holder", double_blank=1000)
    # every tile but the other seat's (the 1-0, worth 1): all pips of the set, 3,420, and
    # the 0-0 at 1,000 instead of 0
    assert worst.max_penalty == 3420 - 1 + MAX_DOUBLE_BLANK == 4419
    assert MAX_THRESHOLD + worst.max_penalty < 2**24


@pytest.mark.parametrize(
    ("field", "value", "valid"),
    [
        ("centre", "holders", "must be 'set_aside' or 'holder'"),
        ("centre", None, "must be 'set_aside' or 'holder'"),
        ("centre", "SET_ASIDE", "must be 'set_aside' or 'holder'"),
        ("draw", "two", "must be 'one' or 'until_playable'"),
        ("draw", 1, "must be 'one' or 'until_playable'"),
        ("drawn_tile", "may", "must be 'must_play' or 'may_play'"),
        ("drawn_tile", True, "must be 'must_play' or 'may_play'"),
        ("tie_break", "none", "must be 'shared' or 'zero_rounds'"),
        ("tie_break", ["shared"], "must be 'shared' or 'zero_rounds'"),
        ("may_draw_instead", 1, "must be true or false"),
        ("may_draw_instead", 0, "must be true or false"),
        ("may_draw_instead", "false", "must be true or false"),
        ("may_draw_instead", None, "must be true or false"),
    ],
)
def test_choice_fields_validation(field: str, value: Any, valid: str) -> None:
    rejects(field, valid, **{field: value})


def test_choice_fields_accept_every_spec_value() -> None:
    choices: dict[str, tuple[Any, ...]] = {
        "centre": ("set_aside", "holder"),
        "draw": ("one", "until_playable"),
        "drawn_tile": ("must_play", "may_play"),
        "tie_break": ("shared", "zero_rounds"),
        "may_draw_instead": (False, True),
    }
    for field, values in choices.items():
        for value in values:
            assert getattr(Rules(**{field: value}), field) == value


@pytest.mark.parametrize("value", [-1, 4, True, 0.0, "0", None])
def test_first_leader_validation(value: Any) -> None:
    rejects("first_leader", "must be a seat from 0 to 3", first_leader=value)


def test_first_leader_any_seat() -> None:
    assert [Rules(players=3, first_leader=s).first_leader for s in range(3)] == [0, 1, 2]
    rejects("first_leader", "must be a seat from 0 to 2", players=3, first_leader=3)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Rounds(0), "rounds=0 is invalid: must be an integer from 1 to 19"),
        (lambda: Rounds(20), "rounds=20 is invalid: must be an integer from 1 to 19"),
        (lambda: Rounds(True), "rounds=True is invalid: must be an integer from 1 to 19"),
        (lambda: Rounds("5"), "rounds='5' is invalid: must be an integer from 1 to 19"),
        (lambda: Threshold(-1), "threshold=-1 is invalid: must be an integer from 0 to 1,000,000"),
        (lambda: Threshold(True), "threshold=True is invalid: must be an integer from 0 to 1,000,000"),
        (lambda: Threshold(100.0), "threshold=100.0 is invalid: must be an integer from 0 to 1,000,000"),
        (lambda: Threshold(10**6 + 1), "threshold=1000001 is invalid: must be an integer from 0 to 1,000,000"),
        (lambda: Threshold(10**5000), "threshold=an integer of about 5,001 digits is invalid: must be an integer from 0 to 1,000,000"),
        (lambda: Threshold(100, inclusive=1), "inclusive=1 is invalid: must be true or false"),
    ],
)  # fmt: skip
def test_match_lengths_check_themselves(build: Any, message: str) -> None:
    # Issue 18: a Threshold(10**5000) used to be accepted and to explode far from the cause.
    with pytest.raises(RulesError) as info:
        build()
    assert str(info.value) == message
    assert info.value.field == "match"


@pytest.mark.parametrize(
    ("match", "valid"),
    [
        (Rounds(11), "rounds must be an integer from 1 to 10"),
        ({"rounds": 5}, "must be Rounds(k) or Threshold(T, inclusive=...)"),
        (5, "must be Rounds(k) or Threshold(T, inclusive=...)"),
        (None, "must be Rounds(k) or Threshold(T, inclusive=...)"),
    ],
)
def test_match_validation(match: Any, valid: str) -> None:
    rejects("match", valid, match=match)


def test_match_accepts_rounds_one_to_n_plus_one_and_any_threshold() -> None:
    assert Rules(match=Rounds(1)).match == Rounds(1)
    assert Rules(match=Rounds(10)).match == Rounds(10)
    assert Rules(players=8, match=Rounds(13)).match == Rounds(13)
    rejects("match", "rounds must be an integer from 1 to 13", players=8, match=Rounds(14))
    assert Rules(match=Threshold(0)).match == Threshold(0, inclusive=False)
    assert Rules(match=Threshold(250, inclusive=True)).match.to_dict() == {
        "threshold": 250,
        "inclusive": True,
    }


def test_half_match() -> None:
    assert (half_match(9), half_match(12), half_match(2), half_match(3)) == (
        Rounds(5),
        Rounds(7),
        Rounds(2),
        Rounds(2),
    )
    assert Rules(match=half_match(9)).match == Rounds(5)


def test_unknown_field_is_a_rules_error_naming_it() -> None:
    builds: list[Callable[[], Rules]] = [
        lambda: Rules(toes=4),  # type: ignore[call-arg]
        lambda: Rules().replace(toes=4),
        lambda: Rules.preset("house", toes=4),
        lambda: Rules.from_dict({"toes": 4}),
    ]
    for build in builds:
        with pytest.raises(RulesError) as info:
            build()
        assert info.value.field == "toes"
        assert str(info.value).startswith("toes=4 is invalid: not a rules field (fields: players, ")


def test_nothing_is_silently_adjusted() -> None:
    # An impossible combination is refused, not repaired.
    rejects("hand_size", "from 1 to 7", players=7, max_pip=9, hand_size=10)
    rejects("opening_toes", "from 1 to max_pip (2)", players=2, max_pip=2, hand_size=2)


# -- immutability, equality, pickling ----------------------------------------------------


def test_rules_are_frozen_hashable_and_keyword_only() -> None:
    rules = Rules()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.players = 3  # type: ignore[misc]
    assert rules == Rules(players=4) and hash(rules) == hash(Rules(players=4))
    assert rules != Rules(double_blank=25)
    assert len({Rules(), Rules(), Rules.preset("house")}) == 1
    with pytest.raises(TypeError):
        Rules(4)  # type: ignore[call-arg]


def test_rules_pickle_and_copy() -> None:
    for rules in (Rules(), Rules.preset("classic", players=8), Rules(match=Threshold(100))):
        assert pickle.loads(pickle.dumps(rules)) == rules
        assert copy.deepcopy(rules) == rules
        assert copy.copy(rules) == rules


# -- presets --------------------------------------------------------------------------------


def test_presets_by_name() -> None:
    assert list(PRESETS) == ["house", "four-toe", "classic"]
    assert Rules.preset("house") == Rules()
    assert Rules.preset("house", players=3) == Rules(players=3)
    assert Rules.preset("four-toe", players=6) == Rules(players=6, opening_toes=4)
    classic = Rules.preset("classic", players=5)
    assert classic == Rules(
        players=5, hand_size=7, centre="holder", opening_toes=4, tie_break="zero_rounds"
    )
    assert Rules.preset("classic", players=7).max_pip == 12
    assert Rules.preset("classic", players=6).max_pip == 9
    assert Rules.preset("four-toe", double_blank=0).double_blank == 0


def test_unknown_preset() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("chicken")
    assert info.value.field == "preset"
    assert str(info.value) == (
        "preset='chicken' is invalid: must be one of 'house', 'four-toe', 'classic'"
    )


def test_preset_values_are_validated() -> None:
    # Beyond 8 players the classic 7 tiles each still fit double-12 ...
    assert Rules.preset("classic", players=9).max_pip == 12
    # (holder mode deals the whole set: 13 x 7 = 91 tiles fit) ... until they do not.
    assert Rules.preset("classic", players=13).hand_size == 7
    with pytest.raises(RulesError) as info:
        Rules.preset("classic", players=14)
    assert info.value.field == "hand_size"
    assert str(info.value).endswith("(14 players x hand_size <= 91 tiles dealt)")
    assert Rules.preset("classic", players=14, max_pip=13).hand_size == 7


# -- replace --------------------------------------------------------------------------------


def test_replace_changes_only_the_named_fields_and_validates() -> None:
    base = Rules(players=3, first_leader=2)
    changed = base.replace(double_blank=25, draw="until_playable")
    assert (changed.double_blank, changed.draw) == (25, "until_playable")
    assert changed.replace(double_blank=50, draw="one") == base
    assert (base.double_blank, base.draw) == (50, "one")
    with pytest.raises(RulesError) as info:
        base.replace(first_leader=3)
    assert info.value.field == "first_leader"
    with pytest.raises(RulesError) as info:
        base.replace(opening_toes=0)
    assert info.value.field == "opening_toes"


# -- the dict form --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=8),
        Rules(**TINY),
        Rules.preset("classic", players=2),
        Rules(
            players=3,
            double_blank=0,
            draw="until_playable",
            drawn_tile="may_play",
            may_draw_instead=True,
            match=Threshold(150, inclusive=True),
            tie_break="zero_rounds",
            first_leader=2,
        ),
        Rules(match=Threshold(0)),
    ],
)
def test_to_dict_from_dict_round_trip(rules: Rules) -> None:
    d = rules.to_dict()
    assert list(d) == FIELDS
    assert Rules.from_dict(d) == rules


def test_from_dict_missing_fields_take_their_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    seven = Rules.from_dict({"players": 7})
    assert (seven.max_pip, seven.hand_size, seven.match) == (12, 10, Rounds(13))
    assert Rules.from_dict(
        {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}
    ).match == Rounds(4)


@pytest.mark.parametrize(
    ("match", "expected"),
    [
        ({"rounds": 3}, Rounds(3)),
        ({"threshold": 100}, Threshold(100, inclusive=False)),
        ({"threshold": 100, "inclusive": False}, Threshold(100, inclusive=False)),
        ({"threshold": 100, "inclusive": True}, Threshold(100, inclusive=True)),
        ({"threshold": 0}, Threshold(0)),
    ],
)
def test_from_dict_match_forms(match: dict[str, Any], expected: Any) -> None:
    assert Rules.from_dict({"match": match}).match == expected


@pytest.mark.parametrize(
    "match",
    [
        {"rounds": 3, "inclusive": False},
        {"rounds": 3, "threshold": 100},
        {"threshold": 100, "inclusive": False, "extra": 1},
        {"inclusive": True},
        {},
        {"Rounds": 3},
        [3],
        3,
        "rounds",
        None,
    ],
)
def test_from_dict_bad_match_shapes(match: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"match": match})
    assert info.value.field == "match"
    assert str(info.value) == (
        f"match={match!r} is invalid: must be "
        '{"rounds": k} or {"threshold": T, "inclusive": false}'
    )


@pytest.mark.parametrize(
    ("match", "valid"),
    [
        ({"rounds": 0}, "rounds=0 is invalid: must be an integer from 1 to 19"),
        ({"rounds": 11}, "rounds must be an integer from 1 to 10"),
        ({"rounds": True}, "rounds=True is invalid: must be an integer from 1 to 19"),
        ({"rounds": 3.0}, "rounds=3.0 is invalid: must be an integer from 1 to 19"),
        ({"threshold": -5}, "threshold=-5 is invalid: must be an integer from 0 to 1,000,000"),
        ({"threshold": False}, "threshold=False is invalid: must be an integer from 0 to"),
        ({"threshold": "100"}, "threshold='100' is invalid: must be an integer from 0 to"),
        ({"threshold": 10**5000}, "threshold=an integer of about 5,001 digits is invalid"),
        ({"threshold": 100, "inclusive": 1}, "inclusive=1 is invalid: must be true or false"),
        ({"threshold": 100, "inclusive": None}, "inclusive=None is invalid: must be true or"),
    ],
)
def test_from_dict_bad_match_values(match: dict[str, Any], valid: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"match": match})
    assert info.value.field == "match"
    assert valid in str(info.value)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("players", "4"),
        ("players", 4.0),
        ("players", True),
        ("max_pip", True),
        ("max_pip", None),
        ("hand_size", True),
        ("hand_size", [11]),
        ("opening_toes", False),
        ("opening_toes", 4.5),
        ("foot_toes", True),
        ("double_blank", True),
        ("double_blank", "50"),
        ("centre", 0),
        ("draw", None),
        ("drawn_tile", {"must": "play"}),
        ("may_draw_instead", 0),
        ("may_draw_instead", "true"),
        ("tie_break", True),
        ("first_leader", True),
        ("first_leader", "0"),
    ],
)
def test_from_dict_wrong_types_name_the_field(field: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({field: value})
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}={value!r} is invalid: ")


@pytest.mark.parametrize("obj", [None, [], "house", 4, [("players", 4)]])
def test_from_dict_needs_an_object(obj: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(obj)
    assert info.value.field == "rules"
    assert str(info.value) == f"rules={obj!r} is invalid: must be a JSON object"


def test_from_dict_does_not_change_its_input() -> None:
    d = {"players": 3, "match": {"threshold": 100}}
    Rules.from_dict(d)
    assert d == {"players": 3, "match": {"threshold": 100}}


def test_more_players_than_tiles_dealt_names_players() -> None:
    # double-18 has 190 tiles; set aside the centre and 189 are dealt.
    with pytest.raises(RulesError, match=r"^players=190 is invalid: must be at most 189") as info:
        Rules(players=190, max_pip=18, hand_size=1)
    assert info.value.field == "players"
    # in holder mode the centre is dealt too: 190 players get one tile each, 191 cannot
    assert Rules(players=190, max_pip=18, hand_size=1, centre="holder").players == 190
    with pytest.raises(RulesError, match=r"^players=191 is invalid: must be at most 190"):
        Rules(players=191, max_pip=18, hand_size=1, centre="holder")
