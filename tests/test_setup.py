"""``State.setup``: a position from given hands, checked exactly as ``State.from_dict``.

Every expectation here is one of two kinds: the state (or the error) that
``State.from_dict`` gives for the equivalent position document, which is the contract of
``setup`` (its docstring: "The checks are those of :meth:`from_dict`, with the same
errors"), or a default spelled out in that docstring and checked by hand.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import (
    DRAW,
    PASS,
    Draw,
    FormatError,
    Move,
    Play,
    Rules,
    RulesError,
    State,
    Tile,
    deal,
    legal_moves,
)
from chickenfoot.moves import Event
from helpers import EXAMPLE_PARTS as PARTS
from helpers import EXAMPLE_RULES as RULES
from helpers import position_document as document
from strategies import examples, positions, rules, seeds

# RULES and PARTS are the example position of docs/formats.md (double-three, 2 players, 2
# opening toes, 1 toe a foot), which most positions here are or change.


def setup_error(rules: Rules, parts: dict[str, Any]) -> FormatError:
    with pytest.raises(FormatError) as info:
        State.setup(rules, **parts)
    return info.value


def from_dict_error(rules: Rules, parts: dict[str, Any]) -> FormatError:
    with pytest.raises(FormatError) as info:
        State.from_dict(document(rules, parts))
    return info.value


# -- the same state as from_dict ---------------------------------------------------------------


def test_the_spec_example() -> None:
    s = State.setup(RULES, **PARTS)
    assert s == State.from_dict(document(RULES, PARTS))
    assert s.to_dict() == document(RULES, PARTS)
    # docs/formats.md: the example's legal moves are ["2-0@1-0"].
    assert [str(m) for m in s.legal_moves] == ["2-0@1-0"]
    assert s.history == ()


@given(positions())
def test_setup_builds_what_from_dict_builds(s: State) -> None:
    doc = s.to_dict()
    parts = {k: doc[k] for k in PARTS}
    from_text = State.setup(s.rules, **parts)
    from_objects = State.setup(
        s.rules,
        centre=s.centre,
        board=s.board,
        hands=s.hands,
        boneyard=s.boneyard,
        turn=s.turn,
        drawn=s.drawn,
    )
    ref = State.from_dict(doc)
    assert from_text == from_objects == ref == s
    assert from_text.to_dict() == from_objects.to_dict() == doc
    # Derived parts too (not in ==): the outcome, the legal moves and the fresh history.
    assert from_objects.outcome() == ref.outcome() == s.outcome()
    assert legal_moves(from_objects) == legal_moves(ref) == legal_moves(s)
    assert from_objects.history == from_text.history == ref.history


@settings(max_examples=examples(40))
@given(positions(), st.randoms(use_true_random=False))
def test_tiles_and_placements_as_objects_or_notation_mixed(s: State, rng: Any) -> None:
    def mixed(items: Any) -> list[Any]:
        return [x if rng.random() < 0.5 else str(x) for x in items]

    # Hands in any order, in tuples or lists: the set of tiles is what counts.
    hands = tuple(rng.sample(mixed(h), len(h)) for h in s.hands)
    got = State.setup(
        s.rules,
        centre=rng.choice([s.centre, str(s.centre)]),
        board=tuple(mixed(s.board)),
        hands=hands,
        boneyard=mixed(s.boneyard),
        turn=s.turn,
        drawn=None if s.drawn is None else rng.choice([s.drawn, str(s.drawn)]),
    )
    assert got == s and got.to_dict() == s.to_dict()


def test_placements_may_be_play_objects_and_tiles_may_be_written_either_way() -> None:
    s = State.setup(
        RULES,
        centre=Tile(3, 3),
        board=[Play(Tile(3, 3)), Play(Tile(3, 2), Tile(3, 3)), "1-3@3-3", "0-1@1-3", "2-1@3-2"],
        hands=[[Tile(2, 0)], ["2-2"]],
        boneyard=["1-1", Tile(3, 0), "0-0"],
    )
    assert s == State.from_dict(document(RULES, PARTS))


# -- defaults ------------------------------------------------------------------------------------


def test_defaults_centre_board_turn_and_drawn() -> None:
    hands = [["3-2", "3-1", "0-0"], ["1-1", "2-2", "2-0"]]
    boneyard = ["1-0", "2-1", "3-0"]
    s = State.setup(RULES, hands=hands, boneyard=boneyard)
    # Round 0 of double-three has centre 3-3 (R3); set aside, it is the whole board (R4);
    # first_leader defaults to 0 (R5); nothing drawn.
    assert s.centre == Tile(3, 3)
    assert s.board == (Play(Tile(3, 3)),)
    assert s.turn == 0 and s.drawn is None and s.history == ()
    assert s == State.setup(RULES, hands=hands, boneyard=boneyard, centre="3-3", board=["3-3"])
    # Seat 0 holds 3-2 and 3-1, the toes of 3-3.
    assert [str(m) for m in s.legal_moves] == ["3-1@3-3", "3-2@3-3"]
    assert State.setup(RULES.replace(first_leader=1), hands=hands, boneyard=boneyard).turn == 1


def test_default_centre_follows_the_set_and_the_board_follows_the_centre() -> None:
    # Double-two, centre set aside: the tiles without 2-2, dealt one each.
    r = Rules(players=2, max_pip=2, hand_size=1, opening_toes=2, foot_toes=1)
    s = State.setup(r, hands=[["2-1"], ["2-0"]], boneyard=["0-0", "1-0", "1-1"])
    assert s.centre == Tile(2, 2) and s.board == (Play(Tile(2, 2)),)
    # An explicit centre of another round: the default board is that centre alone.
    t = State.setup(r, centre="1-1", hands=[["2-1"], ["2-0"]], boneyard=["0-0", "1-0", "2-2"])
    assert t.centre == Tile(1, 1) and t.board == (Play(Tile(1, 1)),)


def test_holder_mode_defaults_to_an_empty_board_and_the_first_leader() -> None:
    r = RULES.replace(centre="holder", first_leader=1)
    hands = [["3-3", "3-1", "0-0"], ["1-1", "2-2", "2-0"]]
    s = State.setup(r, hands=hands, boneyard=["1-0", "2-1", "3-0", "3-2"])
    assert s.board == () and s.centre == Tile(3, 3) and not s.centre_laid
    # turn is rules.first_leader, not the holder of the centre (that is deal's rule):
    # seat 1 does not hold 3-3, so it draws (docs/formats.md, "Order of the legal moves", holder mode).
    assert s.turn == 1 and list(s.legal_moves) == [DRAW]
    assert s.to_dict()["board"] == [] and s == State.from_dict(s.to_dict())


@given(rules(), seeds())
def test_defaults_rebuild_round_zero_of_a_deal(r: Rules, seed: int) -> None:
    d = deal(r, seed)
    s = State.setup(r, hands=d.hands, boneyard=d.boneyard)
    # Round 0: the centre is N-N; the default turn is first_leader, which is the deal's
    # turn except in holder mode when another seat holds the centre.
    assert s == State.from_dict({**d.to_dict(), "turn": r.first_leader})
    if r.centre == "set_aside" or d.turn == r.first_leader:
        assert s == d


# -- history -------------------------------------------------------------------------------------


def test_a_set_up_position_starts_a_fresh_history() -> None:
    s = State.setup(RULES, **PARTS)
    assert s.history == ()
    assert s.apply("2-0@1-0").history == (Event(0, Play(Tile(2, 0), Tile(1, 0))),)
    # Seat 0 holds no 3 (nothing fits the centre 3-3) and has drawn 0-0, which does not
    # fit either: the position remembers that draw, and the forced pass follows it.
    hands = [["0-0", "1-1", "2-0"], ["3-2", "3-1", "2-2"]]
    drew = State.setup(RULES, hands=hands, boneyard=["1-0", "2-1", "3-0"], drawn="0-0")
    assert drew.history == (Event(0, Draw(Tile(0, 0))),)
    assert list(drew.legal_moves) == [PASS]
    assert drew.apply("pass").history == (Event(0, Draw(Tile(0, 0))), Event(0, PASS))


# -- errors: exactly those of from_dict --------------------------------------------------------

BAD: list[tuple[str, dict[str, Any], str, str]] = [
    # (name, changed parts, path, a fragment of the message)
    ("duplicated tile", {"boneyard": ["1-1", "3-0", "2-0"]}, "boneyard[2]", "appears twice"),
    ("duplicated in a hand", {"hands": [["2-0", "2-0"], ["2-2"]]}, "hands[0][1]", "twice"),
    ("tile on board and in hand", {"hands": [["2-0"], ["3-2"]]}, "hands[1][0]", "board[1]"),
    (
        "missing tile",
        {"boneyard": ["1-1", "3-0"]},
        "",
        "missing from board, hands and boneyard: 0-0",
    ),
    ("turn too big", {"turn": 2}, "turn", "2 is not a seat (0 to 1)"),
    ("turn negative", {"turn": -1}, "turn", "not a seat"),
    ("turn a string", {"turn": "0"}, "turn", "not a seat"),
    ("turn a boolean", {"turn": True}, "turn", "not a seat"),
    ("turn a float", {"turn": 1.0}, "turn", "not a seat"),
    ("drawn not in the hand", {"drawn": "2-2"}, "drawn", "2-2 is not in the hand of seat 0"),
    ("drawn outside the set", {"drawn": "4-4"}, "drawn", "4-4"),
    ("drawn not a tile", {"drawn": 7}, "drawn", "expected a tile"),
    (
        "placement before the opening is done",
        {"board": ["3-3", "3-2@3-3", "1-0@3-2", "3-1@3-3", "2-1@3-2"]},
        "board[2]",
        "still needs 1 toe(s)",
    ),
    (
        "placement that does not match",
        {"board": ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-2", "2-1@3-1"]},
        "board[3]",
        "does not match the open end 2 of 3-2",
    ),
    (
        "anchor not played yet",
        {"board": ["3-3", "3-2@3-3", "3-1@3-3", "2-1@1-0", "1-0@3-1"]},
        "board[3]",
        "was not played earlier",
    ),
    ("board starting with a toe", {"board": ["3-2@3-3"]}, "board[0]", "'3-2@3-3' is not a tile"),
    ("board without the centre", {"board": ["3-2"]}, "board[0]", "must start with the centre 3-3"),
    ("empty board", {"board": []}, "board", "must start with the centre 3-3"),
    ("three hands", {"hands": [["2-0"], ["2-2"], []]}, "hands", "expected 2 hands"),
    ("one hand", {"hands": [["2-0", "2-2"]]}, "hands", "expected 2 hands"),
    ("hands not an array", {"hands": "2-0"}, "hands", "expected an array"),
    ("a hand not an array", {"hands": [["2-0"], "2-2"]}, "hands[1]", "expected an array"),
    ("tile outside the set", {"hands": [["4-0"], ["2-2", "2-0"]]}, "hands[0][0]", "4-0"),
    ("tile not a string", {"hands": [[5], ["2-2"]]}, "hands[0][0]", "expected a tile"),
    ("boneyard not an array", {"boneyard": None}, "boneyard", "expected an array"),
    ("centre not a double", {"centre": "3-2"}, "centre", "3-2 is not a double"),
    ("centre not a tile", {"centre": "x"}, "centre", "'x'"),
]


@pytest.mark.parametrize(
    ("changes", "path", "fragment"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_errors_are_those_of_from_dict(changes: dict[str, Any], path: str, fragment: str) -> None:
    parts = {**copy.deepcopy(PARTS), **changes}
    ours = setup_error(RULES, parts)
    theirs = from_dict_error(RULES, parts)
    assert (ours.path, str(ours)) == (theirs.path, str(theirs))
    assert ours.path == path, str(ours)
    assert fragment in ours.reason, ours.reason


@pytest.mark.parametrize(
    "changes",
    [
        {"hands": [[Tile(2, 0), Tile(2, 0)], [Tile(2, 2)]]},
        {"board": [Tile(3, 3), Play(Tile(3, 2), Tile(3, 3)), Play(Tile(1, 0), Tile(3, 2))]},
        {"drawn": Tile(2, 2)},
        {"boneyard": [Tile(1, 1), Tile(3, 0)]},
    ],
    ids=["duplicate", "placement", "drawn", "missing"],
)
def test_errors_with_objects_name_the_same_parts(changes: dict[str, Any]) -> None:
    def text(value: Any) -> Any:
        return [text(x) for x in value] if isinstance(value, list) else str(value)

    as_text = {k: text(v) for k, v in changes.items()}
    ours = setup_error(RULES, {**PARTS, **changes})
    theirs = from_dict_error(RULES, {**PARTS, **as_text})
    assert (ours.path, str(ours)) == (theirs.path, str(theirs))


def test_holder_mode_centre_must_be_somewhere() -> None:
    r = RULES.replace(centre="holder")
    parts = {
        "hands": [["3-2", "3-1", "0-0"], ["1-1", "2-2", "2-0"]],
        "boneyard": ["1-0", "2-1", "3-0"],
    }
    ours = setup_error(r, parts)
    theirs = from_dict_error(r, {**parts, "centre": "3-3", "board": [], "turn": 0, "drawn": None})
    assert (ours.path, str(ours)) == (theirs.path, str(theirs))
    assert ours.path == "" and "3-3" in ours.reason


@pytest.mark.parametrize("value", [None, {"players": 2}, "house", 4, Rules])
def test_rules_must_be_a_rules_object(value: Any) -> None:
    with pytest.raises(RulesError) as info:
        State.setup(value, hands=PARTS["hands"], boneyard=PARTS["boneyard"])
    assert info.value.field == "rules"
    assert "must be a Rules object" in str(info.value)


# -- inputs are left alone -----------------------------------------------------------------------


@pytest.mark.parametrize("as_objects", [False, True])
def test_no_input_is_modified(as_objects: bool) -> None:
    hands: list[list[Any]] = [["2-0"], ["2-2"]]
    board: list[Any] = ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"]
    boneyard: list[Any] = ["1-1", "3-0", "0-0"]
    if as_objects:
        hands = [[Tile.parse(t) for t in h] for h in hands]
        board = [Tile(3, 3), *(Move.parse(m) for m in board[1:])]
        boneyard = [Tile.parse(t) for t in boneyard]
    before = copy.deepcopy((hands, board, boneyard))
    s = State.setup(RULES, hands=hands, board=board, boneyard=boneyard)
    assert s == State.from_dict(document(RULES, PARTS))
    assert (hands, board, boneyard) == before
    s.apply("2-0@1-0")
    assert (hands, board, boneyard) == before
    # A rejected call leaves its inputs alone too.
    bad_hands = [hands[0], hands[1], []]
    before_bad = copy.deepcopy(bad_hands)
    with pytest.raises(FormatError):
        State.setup(RULES, hands=bad_hands, board=board, boneyard=boneyard)
    assert bad_hands == before_bad and (hands, board, boneyard) == before
