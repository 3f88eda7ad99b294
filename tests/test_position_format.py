"""The position JSON document (docs/formats.md): the example, round trips, and every rejection
with the exact ``FormatError.path``."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from chickenfoot import FormatError, Rules, State, apply, deal, legal_moves
from chickenfoot.formats import position_from_dict, position_from_json
from helpers import EXAMPLE_PARTS

# The example of docs/formats.md ("Position"): its rules written out as the output writes them
# (every field), the rest shared with the other test files (helpers.EXAMPLE_PARTS).
EXAMPLE: dict[str, Any] = {
    "format": "chickenfoot/position",
    "version": 1,
    "rules": {
        "players": 2,
        "max_pip": 3,
        "hand_size": 3,
        "opening_toes": 2,
        "foot_toes": 1,
        "double_blank": 50,
        "centre": "set_aside",
        "draw": "one",
        "drawn_tile": "must_play",
        "may_draw_instead": False,
        "match": {"rounds": 4},
        "tie_break": "shared",
        "first_leader": 0,
    },
    **copy.deepcopy(EXAMPLE_PARTS),
}

KEYS = ["format", "version", "rules", "centre", "board", "hands", "boneyard", "turn", "drawn"]


def doc(**changes: Any) -> dict[str, Any]:
    """A deep copy of the example with top-level ``changes``."""
    d = copy.deepcopy(EXAMPLE)
    d.update(changes)
    return d


def rejected(obj: Any, path: str, reason: str) -> FormatError:
    """Reading ``obj`` fails at exactly ``path`` with ``reason`` in the message."""
    with pytest.raises(FormatError) as info:
        State.from_dict(obj)
    err = info.value
    assert err.path == path, (err.path, str(err))
    assert reason in err.reason, err.reason
    assert str(err) == (f"{path}: {err.reason}" if path else err.reason)
    assert isinstance(err, ValueError)
    return err


# -- the example and round trips -------------------------------------------------------------


def test_spec_example_reads_and_has_one_legal_move() -> None:
    s = State.from_dict(EXAMPLE)
    assert [str(m) for m in legal_moves(s)] == ["2-0@1-0"]
    assert (s.turn, s.drawn, s.centre_laid, s.toes_needed) == (0, None, True, 0)
    assert [(str(a), v) for a, v in s.open_ends] == [("1-0", 0), ("2-1", 1)]
    assert s.to_dict() == EXAMPLE
    assert list(s.to_dict()) == KEYS


def test_spec_example_from_json_text() -> None:
    text = json.dumps(EXAMPLE)
    s = State.from_json(text)
    assert s == State.from_dict(EXAMPLE) == position_from_json(text.encode())
    assert json.loads(s.to_json()) == EXAMPLE
    assert json.loads(s.to_json(indent=2)) == EXAMPLE


def test_rules_on_input_may_leave_out_defaults() -> None:
    rules = {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}
    s = State.from_dict(doc(rules=rules))
    assert s == State.from_dict(EXAMPLE)
    assert s.to_dict()["rules"] == EXAMPLE["rules"]  # always every field on output


def test_hands_in_any_order_on_input_id_order_on_output() -> None:
    d = doc(
        board=["3-3"],
        hands=[["3-2", "0-0", "2-0"], ["3-1", "1-0", "2-1"]],
        boneyard=["3-0", "1-1", "2-2"],
    )
    out = State.from_dict(d).to_dict()
    assert out["hands"] == [["0-0", "2-0", "3-2"], ["1-0", "2-1", "3-1"]]
    assert out["boneyard"] == ["3-0", "1-1", "2-2"]  # the draw order is kept


def test_tiles_in_either_order_on_input() -> None:
    d = doc(
        centre="3-3",
        board=["3-3", "2-3@3-3", "1-3@3-3", "0-1@1-3", "1-2@2-3"],
        hands=[["0-2"], ["2-2"]],
        boneyard=["1-1", "0-3", "0-0"],
    )
    assert State.from_dict(d).to_dict() == EXAMPLE


def _playouts(rules: Rules, seed: int) -> Iterator[State]:
    """Every position of a seeded round played by a seeded random choice of legal moves."""
    rng = random.Random(seed)
    s = deal(rules, seed=seed, round=seed % (rules.max_pip + 1))
    yield s
    while not s.is_over():
        s = apply(s, rng.choice(list(legal_moves(s))))
        yield s


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=2),
        Rules(players=7),
        Rules.preset("classic"),
        Rules(players=3, draw="until_playable", drawn_tile="may_play", may_draw_instead=True),
        Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1),
        Rules(players=2, max_pip=4, hand_size=5, opening_toes=3, centre="holder"),
    ],
    ids=lambda r: f"{r.players}p-d{r.max_pip}-{r.centre}-{r.draw}",
)
def test_round_trip_of_every_position_of_playouts(rules: Rules) -> None:
    for seed in range(3):
        for s in _playouts(rules, seed):
            d = s.to_dict()
            back = State.from_dict(d)
            assert back == s
            assert back.to_dict() == d
            assert State.from_json(s.to_json()) == s
            assert list(legal_moves(back)) == list(legal_moves(s))
            assert (back.outcome(), back.penalties()) == (s.outcome(), s.penalties())
            assert (back.pending_hub, back.toes_needed) == (s.pending_hub, s.toes_needed)
            assert back.open_ends == s.open_ends


def test_holder_mode_before_the_centre_is_laid() -> None:
    d = doc(
        rules={**EXAMPLE["rules"], "centre": "holder", "hand_size": 2},
        board=[],
        hands=[["1-0", "2-0"], ["1-1", "2-1"]],
        boneyard=["0-0", "3-3", "3-0", "3-1", "3-2", "2-2"],
    )
    s = State.from_dict(d)
    assert (s.centre_laid, [str(m) for m in legal_moves(s)]) == (False, ["draw"])
    assert s.to_dict() == d
    # The centre may also sit in a hand.
    d["hands"][0].append("3-3")
    d["boneyard"].remove("3-3")
    s = State.from_dict(d)
    assert [str(m) for m in legal_moves(s)] == ["3-3"]


def test_drawn_tile_round_trips() -> None:
    d = doc(hands=[["2-0", "3-0"], ["2-2"]], boneyard=["1-1", "0-0"], drawn="3-0")
    s = State.from_dict(d)
    assert s.drawn is not None and str(s.drawn) == "3-0"
    assert [str(m) for m in legal_moves(s)] == ["3-0@1-0"]  # only the drawn tile
    assert s.to_dict() == d


# -- rejections: header ---------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, [], "position", 1, [EXAMPLE]])
def test_document_must_be_an_object(value: Any) -> None:
    rejected(value, "", "expected a chickenfoot/position document (a JSON object), got ")


@pytest.mark.parametrize("key", KEYS)
def test_every_key_is_required(key: str) -> None:
    d = doc()
    del d[key]
    rejected(d, key, "missing")


@pytest.mark.parametrize("key", ["extra", "Turn", "moves", "rules "])
def test_unknown_keys_are_rejected(key: str) -> None:
    rejected(doc(**{key: 1}), key, "unknown key (a chickenfoot/position has format, version, ")


@pytest.mark.parametrize(
    "value", ["chickenfoot/record", "chickenfoot/match", "chickenfoot/Position", "", None, 1]
)
def test_wrong_format(value: Any) -> None:
    rejected(doc(format=value), "format", f"expected 'chickenfoot/position', got {value!r}")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (2, "version 2 is newer than this library reads (1)"),
        (10**30, "is newer than this library reads (1)"),
        (0, "version 0 is not a known version (1)"),
        (-1, "version -1 is not a known version (1)"),
        (True, "expected the integer 1, got True"),
        (1.0, "expected the integer 1, got 1.0"),
        ("1", "expected the integer 1, got '1'"),
        (None, "expected the integer 1, got None"),
    ],
)
def test_wrong_version(value: Any, reason: str) -> None:
    rejected(doc(version=value), "version", reason)


# -- rejections: rules ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "path"),
    [
        ({**EXAMPLE["rules"], "players": "2"}, "rules.players"),
        ({**EXAMPLE["rules"], "players": True}, "rules.players"),
        ({**EXAMPLE["rules"], "max_pip": 2}, "rules.hand_size"),  # 2 x 3 > 5 tiles dealt
        ({**EXAMPLE["rules"], "max_pip": 19}, "rules.max_pip"),
        ({**EXAMPLE["rules"], "hand_size": 5}, "rules.hand_size"),
        ({**EXAMPLE["rules"], "opening_toes": 4}, "rules.opening_toes"),
        ({**EXAMPLE["rules"], "foot_toes": 3}, "rules.foot_toes"),
        ({**EXAMPLE["rules"], "double_blank": -1}, "rules.double_blank"),
        ({**EXAMPLE["rules"], "centre": "middle"}, "rules.centre"),
        ({**EXAMPLE["rules"], "draw": "all"}, "rules.draw"),
        ({**EXAMPLE["rules"], "drawn_tile": None}, "rules.drawn_tile"),
        ({**EXAMPLE["rules"], "may_draw_instead": 0}, "rules.may_draw_instead"),
        ({**EXAMPLE["rules"], "match": {"rounds": 5}}, "rules.match"),
        ({**EXAMPLE["rules"], "match": {"rounds": 2, "inclusive": True}}, "rules.match"),
        ({**EXAMPLE["rules"], "tie_break": "coin"}, "rules.tie_break"),
        ({**EXAMPLE["rules"], "first_leader": 2}, "rules.first_leader"),
        ({**EXAMPLE["rules"], "colour": "red"}, "rules.colour"),
        ({"players": 2, "max_pip": 3}, "rules.hand_size"),
        ({"players": 2, "max_pip": 3, "hand_size": 3}, "rules.opening_toes"),
        ([], "rules"),
        (None, "rules"),
        ("house", "rules"),
    ],
)
def test_bad_rules_name_the_field(rules: Any, path: str) -> None:
    err = rejected(doc(rules=rules), path, "")
    if path != "rules":
        field = path.split(".")[1]
        assert field in err.reason


def test_tiles_outside_a_smaller_set() -> None:
    # Valid double-2 rules: what breaks is that the document's tiles are outside the set.
    rules = {**EXAMPLE["rules"], "max_pip": 2, "hand_size": 2, "match": {"rounds": 3}}
    rejected(doc(rules=rules), "centre", "'3-3' is not a tile of the double-2 set")


# -- rejections: centre and board --------------------------------------------------------


@pytest.mark.parametrize(
    ("centre", "reason"),
    [
        ("3-2", "3-2 is not a double"),
        ("4-4", "'4-4' is not a tile of the double-3 set"),
        ("33", "'33' is not a tile: expected H-L such as '9-4'"),
        ("", "is not a tile"),
        (33, "expected a tile such as '9-4', got a number"),
        (None, "expected a tile such as '9-4', got null"),
        (["3-3"], "expected a tile such as '9-4', got an array"),
    ],
)
def test_bad_centre(centre: Any, reason: str) -> None:
    rejected(doc(centre=centre), "centre", reason)


def test_centre_must_be_the_first_placement() -> None:
    rejected(
        doc(board=["2-2", "3-2@3-3"]),
        "board[0]",
        "the board must start with the centre 3-3, got '2-2'",
    )
    rejected(doc(board=["3-2@3-3", "3-3"]), "board[0]", "is not a tile")
    rejected(doc(board=[]), "board", "the board must start with the centre 3-3")
    rejected(doc(board=[None]), "board[0]", "expected a tile such as '9-4', got null")
    # A centre that differs from the board's first tile.
    d = doc(centre="2-2")
    rejected(d, "board[0]", "the board must start with the centre 2-2, got '3-3'")


@pytest.mark.parametrize("board", [None, "3-3", {"0": "3-3"}, 3])
def test_board_must_be_an_array(board: Any) -> None:
    rejected(doc(board=board), "board", "expected an array, got ")


@pytest.mark.parametrize(
    ("board", "path", "reason"),
    [
        (["3-3", "3-2"], "board[1]", "expected a placement TILE@ANCHOR, got '3-2'"),
        (["3-3", 32], "board[1]", "expected a placement TILE@ANCHOR, got 32"),
        (["3-3", "3-2@@3-3"], "board[1]", "expected a placement TILE@ANCHOR"),
        (["3-3", "3-2@3-3@3-3"], "board[1]", "expected a placement TILE@ANCHOR"),
        (["3-3", "3-2@"], "board[1]", "is not a tile"),
        (["3-3", "@3-3"], "board[1]", "is not a tile"),
        (["3-3", "4-3@3-3"], "board[1]", "'4-3' is not a tile of the double-3 set"),
        (["3-3", "3-2@4-4"], "board[1]", "'4-4' is not a tile of the double-3 set"),
        # An anchor not played earlier: never, or only later.
        (
            ["3-3", "3-2@3-3", "2-1@2-2"],
            "board[2]",
            "2-1@2-2: the anchor 2-2 was not played earlier",
        ),
        (
            ["3-3", "3-2@3-3", "1-0@3-1", "3-1@3-3"],
            "board[2]",
            "1-0@3-1: the anchor 3-1 was not played earlier",
        ),
        # A toe on a full hub (the centre takes 2 toes here).
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "3-0@3-3"],
            "board[3]",
            "3-0@3-3: 3-3 is not an open end (a closed line or a full hub)",
        ),
        # A play on a closed line: 1-1 closed the line of 3-1 and took its one toe.
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "1-1@3-1", "1-0@1-1", "2-1@3-1"],
            "board[5]",
            "2-1@3-1: 3-1 is not an open end (a closed line or a full hub)",
        ),
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "1-1@3-1", "1-0@1-1", "2-1@1-1"],
            "board[5]",
            "2-1@1-1: 1-1 is not an open end (a closed line or a full hub)",
        ),
        # A non-toe while a hub is pending: the centre in the opening, then a foot.
        (["3-3", "3-2@3-3", "2-1@3-2"], "board[2]", "2-1@3-2: the hub 3-3 still needs 1 toe(s)"),
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "1-1@3-1", "2-0@3-2"],
            "board[4]",
            "2-0@3-2: the hub 1-1 still needs 1 toe(s)",
        ),
        # Numbers that do not match.
        (["3-3", "2-1@3-3"], "board[1]", "2-1@3-3: 2-1 does not carry 3"),
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "1-1@3-1", "2-0@1-1"],
            "board[4]",
            "2-0@1-1: 2-0 does not carry 1",
        ),
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-2"],
            "board[3]",
            "1-0@3-2: 1-0 does not match the open end 2 of 3-2",
        ),
        # The same tile twice on the board: the second occurrence is named.
        (["3-3", "3-2@3-3", "3-2@3-3"], "board[2]", "3-2 appears twice (also at board[1])"),
        (
            ["3-3", "3-2@3-3", "3-1@3-3", "3-3@3-2"],
            "board[3]",
            "3-3 appears twice (also at board[0])",
        ),
    ],
)
def test_bad_placements(board: list[Any], path: str, reason: str) -> None:
    rejected(doc(board=board), path, reason)


# -- rejections: hands, boneyard, tiles ----------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "path", "reason"),
    [
        (None, "hands", "expected an array, got null"),
        ({"0": ["2-0"]}, "hands", "expected an array, got an object"),
        ([["2-0"]], "hands", "expected 2 hands (one per player), got 1"),
        ([["2-0"], ["2-2"], []], "hands", "expected 2 hands (one per player), got 3"),
        (["2-0", ["2-2"]], "hands[0]", "expected an array, got a string"),
        ([["2-0"], None], "hands[1]", "expected an array, got null"),
        ([["2-0"], [22]], "hands[1][0]", "expected a tile such as '9-4', got a number"),
        ([["2-0"], ["2-2", True]], "hands[1][1]", "expected a tile such as '9-4', got a boolean"),
        ([["2-0"], ["4-2"]], "hands[1][0]", "'4-2' is not a tile of the double-3 set"),
        ([["2-0"], ["2 2"]], "hands[1][0]", "'2 2' is not a tile"),
        ([["2-0", "0-2"], ["2-2"]], "hands[0][1]", "2-0 appears twice (also at hands[0][0])"),
        ([["2-0"], ["2-2", "2-0"]], "hands[1][1]", "2-0 appears twice (also at hands[0][0])"),
        ([["2-0", "2-1"], ["2-2"]], "hands[0][1]", "2-1 appears twice (also at board[4])"),
        ([["2-0", "3-3"], ["2-2"]], "hands[0][1]", "3-3 appears twice (also at board[0])"),
    ],
)
def test_bad_hands(hands: Any, path: str, reason: str) -> None:
    rejected(doc(hands=hands), path, reason)


@pytest.mark.parametrize(
    ("boneyard", "path", "reason"),
    [
        (None, "boneyard", "expected an array, got null"),
        ("1-1", "boneyard", "expected an array, got a string"),
        (["1-1", None, "0-0", "3-0"], "boneyard[1]", "got null"),
        (["1-1", "3-0", "0-0", "9-9"], "boneyard[3]", "'9-9' is not a tile of the double-3 set"),
        (["1-1", "3-0", "0-0", "1-1"], "boneyard[3]", "1-1 appears twice (also at boneyard[0])"),
        (["1-1", "3-0", "0-0", "2-0"], "boneyard[3]", "2-0 appears twice (also at hands[0][0])"),
        (["1-1", "3-0", "0-0", "1-0"], "boneyard[3]", "1-0 appears twice (also at board[3])"),
    ],
)
def test_bad_boneyard(boneyard: Any, path: str, reason: str) -> None:
    rejected(doc(boneyard=boneyard), path, reason)


def test_missing_tiles_are_named() -> None:
    rejected(doc(boneyard=["1-1", "3-0"]), "", "tiles missing from board, hands and boneyard: 0-0")
    rejected(
        doc(hands=[[], []], boneyard=["3-0"]),
        "",
        "tiles missing from board, hands and boneyard: 0-0, 1-1, 2-0, 2-2",
    )


def test_holder_mode_centre_must_be_somewhere() -> None:
    d = doc(
        rules={**EXAMPLE["rules"], "centre": "holder", "hand_size": 2},
        board=[],
        hands=[["2-0", "1-0"], ["2-1", "1-1"]],
        boneyard=["0-0", "3-0", "3-1", "3-2", "2-2"],
    )
    rejected(d, "", "tiles missing from board, hands and boneyard: 3-3")
    d["boneyard"].append("3-3")
    d["board"] = ["2-2"]
    rejected(d, "board[0]", "the board must start with the centre 3-3, got '2-2'")


# -- rejections: turn and drawn ------------------------------------------------------------


@pytest.mark.parametrize("turn", [2, -1, 10**20, True, False, 0.0, "0", None, [0]])
def test_bad_turn(turn: Any) -> None:
    rejected(doc(turn=turn), "turn", f"{turn!r} is not a seat (0 to 1)")


@pytest.mark.parametrize(
    ("drawn", "reason"),
    [
        ("2-2", "2-2 is not in the hand of seat 0"),  # seat 1 holds it
        ("1-1", "1-1 is not in the hand of seat 0"),  # in the boneyard
        ("1-0", "1-0 is not in the hand of seat 0"),  # on the board
        ("4-4", "'4-4' is not a tile of the double-3 set"),
        ("", "is not a tile"),
        (20, "expected a tile such as '9-4', got a number"),
        (False, "expected a tile such as '9-4', got a boolean"),
        (["2-0"], "expected a tile such as '9-4', got an array"),
    ],
)
def test_bad_drawn(drawn: Any, reason: str) -> None:
    rejected(doc(drawn=drawn), "drawn", reason)


def test_drawn_is_checked_against_the_seat_to_act() -> None:
    assert State.from_dict(doc(turn=1, drawn="2-2")).drawn is not None
    rejected(doc(turn=1, drawn="2-0"), "drawn", "2-0 is not in the hand of seat 1")


def test_hand_sizes_and_turn_history_are_not_checked() -> None:
    d = doc(hands=[["2-0", "2-2", "1-1", "3-0", "0-0"], []], boneyard=[], turn=1)
    s = State.from_dict(d)
    assert s.hand_sizes == (5, 0)


# -- rejections: JSON text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not valid JSON: Expecting value"),
        ("{", "not valid JSON: "),
        ("{'format': 1}", "not valid JSON: "),
        (json.dumps(EXAMPLE)[:-1], "not valid JSON: "),
        (json.dumps(EXAMPLE) + "x", "not valid JSON: Extra data"),
        (b"\xff\xfe\x00", "not valid JSON: "),
        ("[" * 100_000, "not valid JSON: nested too deeply"),
        ('{"turn": NaN}', "not valid JSON: NaN is not a JSON number"),
        ('{"turn": 1, "turn": 0}', "not valid JSON: the key 'turn' appears twice in an object"),
        ('{"version": ' + "1" * 5000 + "}", "not valid JSON: "),
    ],
)
def test_invalid_json_text(text: str | bytes, reason: str) -> None:
    with pytest.raises(FormatError) as info:
        State.from_json(text)
    assert info.value.path == ""
    assert reason in str(info.value)


def test_json_text_with_a_bad_part_names_its_path() -> None:
    d = doc()
    d["hands"][1][0] = "2-3"
    with pytest.raises(FormatError) as info:
        State.from_json(json.dumps(d))
    assert info.value.path == "hands[1][0]"


def test_nested_paths_are_prefixed() -> None:
    d = doc()
    d["hands"][1] = [5]
    with pytest.raises(FormatError) as info:
        position_from_dict(d, "start")
    assert info.value.path == "start.hands[1][0]"
    with pytest.raises(FormatError) as info:
        position_from_dict(doc(rules={"players": 1}), "round")
    assert info.value.path == "round.rules.players"


# -- no bare exceptions, ever ---------------------------------------------------------------

_ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2**70,
    1.5,
    "",
    "x",
    "3-3",
    "9-9",
    "0-0",
    "3-3@3-3",
    "2-0@1-0",
    [],
    [None],
    ["3-3"],
    [[]],
    {},
    {"rounds": 1},
]


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, (*path, key))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _paths(value, (*path, i))


def _mutations(base: dict[str, Any]) -> Iterator[Any]:
    """Every single-point mutation: delete a key or item, replace a value, truncate a list."""
    yield from _ODD_VALUES
    for path in _paths(base):
        if not path:
            continue
        *head, last = path
        for kind in ("delete", "truncate", "double", *range(len(_ODD_VALUES))):
            d = copy.deepcopy(base)
            parent: Any = d
            for key in head:
                parent = parent[key]
            if kind == "delete":
                del parent[last]
            elif kind in ("truncate", "double"):
                value = parent[last]
                if not isinstance(value, list) or not value:
                    continue
                parent[last] = value[: len(value) // 2] if kind == "truncate" else value + value
            else:
                assert isinstance(kind, int)
                parent[last] = copy.deepcopy(_ODD_VALUES[kind])
            yield d


@pytest.mark.parametrize(
    "base",
    [
        EXAMPLE,
        doc(turn=1, drawn="2-2"),
        deal(
            Rules.preset("classic", players=2, max_pip=3, hand_size=4, opening_toes=2, foot_toes=1),
            seed=1,
        ).to_dict(),
        deal(Rules(players=2, max_pip=4, hand_size=3, opening_toes=2), seed=2).to_dict(),
    ],
    ids=["example", "drawn", "holder", "deal"],
)
def test_mutated_documents_give_only_format_errors(base: dict[str, Any]) -> None:
    valid = 0
    invalid = 0
    for d in _mutations(base):
        try:
            s = State.from_dict(d)
        except FormatError as err:
            assert isinstance(err.path, str)
            invalid += 1
        else:
            # Whatever is accepted is consistent: it round-trips and has legal moves or is over.
            assert State.from_dict(s.to_dict()) == s
            assert bool(legal_moves(s)) != s.is_over()
            valid += 1
    assert invalid > 100


def test_mutated_json_text_gives_only_format_errors() -> None:
    rng = random.Random(5)
    text = json.dumps(EXAMPLE)
    rejected = 0
    for _ in range(1500):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            op = rng.randrange(3)
            if op == 0:
                del chars[i]
            elif op == 1:
                chars.insert(i, rng.choice('{}[]",:0123456789-@ tnfaelsru'))
            else:
                chars[i] = rng.choice('{}[]",:0123456789-@ tnfaelsru')
        mutated = "".join(chars)
        try:
            s = State.from_json(mutated)
        except FormatError as err:
            assert isinstance(err.path, str)
            rejected += 1
        else:
            assert State.from_json(s.to_json()) == s
    assert rejected > 1000
