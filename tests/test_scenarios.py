"""Scenario tests: one or more hand-built positions for every rule and variant of docs/rules.md.

Every position is a small set (double-3 or double-4) written out tile by tile, so each
expected legal-move list below was worked out by hand from docs/rules.md and the move order of docs/formats.md (plays
sorted by tile id, then anchor id; ``draw``; ``pass``). Tile ids used in the reasoning:

    0-0:0  1-0:1  1-1:2  2-0:3  2-1:4  2-2:5  3-0:6  3-1:7  3-2:8  3-3:9
    4-0:10 4-1:11 4-2:12 4-3:13 4-4:14
"""

from __future__ import annotations

from typing import Any

import pytest

from chickenfoot import (
    DRAW,
    PASS,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    Phase,
    Rounds,
    Rules,
    State,
    Termination,
    Threshold,
    apply,
    deal,
    legal_moves,
    outcome,
    parse_move,
    penalties,
    set_size,
    tiles_of_set,
)
from chickenfoot.match import Match
from chickenfoot.tiles import Tile  # not in chickenfoot.__all__ yet

# Double-3, two players, 2 opening toes and 1 toe per foot (the rules of the docs/formats.md example).
D3 = {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}
# Double-4, two players, 2 opening toes and the house 3 toes per foot.
D4 = {"players": 2, "max_pip": 4, "hand_size": 4, "opening_toes": 2, "foot_toes": 3}


def position(
    rules: dict[str, Any],
    board: list[str],
    hands: list[list[str]],
    boneyard: list[str],
    *,
    turn: int = 0,
    drawn: str | None = None,
    centre: str | None = None,
) -> State:
    """Read a hand-written position document (every tile of the set exactly once)."""
    return State.from_dict(
        {
            "format": "chickenfoot/position",
            "version": 1,
            "rules": rules,
            "centre": centre if centre is not None else board[0],
            "board": board,
            "hands": hands,
            "boneyard": boneyard,
            "turn": turn,
            "drawn": drawn,
        }
    )


def moves(state: State) -> list[str]:
    """The legal moves in notation, in the documented order."""
    return [str(m) for m in legal_moves(state)]


def strs(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(t) for t in tiles]


def play(state: State, *texts: str) -> State:
    """Apply each move in turn, checking first that it is listed as legal."""
    for text in texts:
        listed = "draw" if text.startswith("draw:") else text  # draw:X-Y is never listed
        assert listed in moves(state), (text, moves(state))
        state = apply(state, text)
    return state


def assert_illegal(state: State, move: str, reason: str) -> None:
    """``apply`` rejects ``move`` naming it, the seat and ``reason``; ``state`` is unchanged."""
    before = state.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    message = str(info.value)
    assert message.startswith(f"{parse_move(move)} by seat {state.turn}: "), message
    assert reason in message, message
    assert parse_move(move) not in legal_moves(state)
    assert state.to_dict() == before


def ends(state: State) -> list[tuple[str, int]]:
    return [(str(anchor), number) for anchor, number in state.open_ends]


# -- R1-R5: players, set, deal, match length, set-up, first player --------------------------


@pytest.mark.parametrize(
    ("players", "max_pip", "tiles"),
    [(2, 9, 55), (3, 9, 55), (4, 9, 55), (5, 9, 55), (6, 9, 55), (7, 12, 91), (8, 12, 91)],
)
def test_r1_players_choose_double_nine_or_double_twelve(
    players: int, max_pip: int, tiles: int
) -> None:
    rules = Rules(players=players)
    assert (rules.max_pip, rules.set_size, set_size(max_pip)) == (max_pip, tiles, tiles)
    s = deal(rules, seed=11)
    everything = [m.tile for m in s.board] + [t for h in s.hands for t in h] + list(s.boneyard)
    assert sorted(everything) == list(tiles_of_set(max_pip))


@pytest.mark.parametrize(
    ("players", "hand_size"), [(2, 20), (3, 14), (4, 11), (5, 9), (6, 7), (7, 10), (8, 9)]
)
def test_r2_deal_gives_the_table_hand_size_and_the_rest_is_the_boneyard(
    players: int, hand_size: int
) -> None:
    rules = Rules(players=players)
    assert rules.hand_size == hand_size
    for seed in (0, 1, 99):
        s = deal(rules, seed=seed)
        assert s.hand_sizes == (hand_size,) * players
        assert s.boneyard_size == rules.set_size - 1 - players * hand_size


def test_r3_one_round_per_double_from_n_n_down_to_0_0() -> None:
    assert Rules().match == Rounds(10)
    assert Rules(players=7).match == Rounds(13)
    rules = Rules()
    assert [rules.centre_of_round(k) for k in range(10)] == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    for k in range(10):
        s = deal(rules, seed=5, round=k)
        assert s.centre is Tile(9 - k, 9 - k)
        assert strs(tuple(m.tile for m in s.board)) == [f"{9 - k}-{9 - k}"]
    twelve = Rules(players=8)
    assert deal(twelve, seed=5, round=12).centre is Tile(0, 0)
    assert deal(twelve, seed=5, round=0).centre is Tile(12, 12)


def test_r3_threshold_matches_wrap_from_0_0_back_to_n_n() -> None:
    rules = Rules(match=Threshold(100))
    assert [rules.centre_of_round(k) for k in (9, 10, 11, 20)] == [0, 9, 8, 9]
    assert deal(rules, seed=3, round=10).centre is Tile(9, 9)


def test_r4_centre_is_laid_before_the_deal_and_never_in_a_hand() -> None:
    for players in (2, 4, 7):
        rules = Rules(players=players)
        for k in (0, 3, 9):
            s = deal(rules, seed=k * 31 + players, round=k)
            assert [m.tile for m in s.board] == [s.centre]
            assert s.board[0].anchor is None
            assert all(s.centre not in hand for hand in s.hands)
            assert s.centre not in s.boneyard
            assert s.phase is Phase.OPENING
            assert (s.pending_hub, s.toes_needed) == (s.centre, 6)
            assert s.drawn is None


def test_r4_boneyard_is_drawn_from_the_front() -> None:
    s = deal(Rules(players=2), seed=8)
    # Find a turn with no legal play by playing the first move until a draw comes up.
    while DRAW not in legal_moves(s):
        s = apply(s, legal_moves(s)[0])
    front = s.boneyard[0]
    after = apply(s, DRAW)
    assert after.drawn is front
    assert after.boneyard == s.boneyard[1:]
    assert front in after.hand(s.turn)


@pytest.mark.parametrize("first_leader", [0, 1, 3])
def test_r5_first_turn_moves_one_seat_each_round(first_leader: int) -> None:
    rules = Rules(first_leader=first_leader)
    for k in range(10):
        assert rules.leader_of_round(k) == (first_leader + k) % 4
        assert deal(rules, seed=17, round=k).turn == (first_leader + k) % 4
    assert Rules(players=3).leader_of_round(4) == 1


# -- R6: the opening ----------------------------------------------------------------------


def opening() -> State:
    return position(
        D3,
        ["3-3"],
        [["1-0", "3-0", "3-1"], ["2-1", "3-2", "0-0"]],
        ["1-1", "2-0", "2-2"],
    )


def test_r6_opening_only_toes_on_the_centre_until_it_has_them() -> None:
    s = opening()
    assert s.phase is Phase.OPENING
    assert (s.pending_hub, s.toes_needed, s.open_ends) == (Tile(3, 3), 2, ())
    assert moves(s) == ["3-0@3-3", "3-1@3-3"]  # 1-0 carries no 3
    s = play(s, "3-1@3-3")
    assert (s.turn, s.toes_needed, s.phase) == (1, 1, Phase.OPENING)
    # 2-1 matches the open end 1 of 3-1, but the centre still needs a toe.
    assert moves(s) == ["3-2@3-3"]
    assert_illegal(s, "2-1@3-1", "the centre 3-3 needs 1 more toe")
    s = play(s, "3-2@3-3")
    assert (s.turn, s.toes_needed, s.pending_hub, s.phase) == (0, 0, None, Phase.OPEN)
    assert ends(s) == [("3-1", 1), ("3-2", 2)]


def test_r6_full_centre_takes_no_more_toes() -> None:
    s = play(opening(), "3-1@3-3", "3-2@3-3")
    assert moves(s) == ["1-0@3-1"]  # 3-0 carries the centre's number, but it is full
    assert_illegal(s, "3-0@3-3", "3-3 is a hub with all its toes; it takes no more")


def test_r6_toe_is_laid_with_the_hubs_number_inside() -> None:
    s = play(opening(), "3-0@3-3", "3-2@3-3")
    assert ends(s) == [("3-0", 0), ("3-2", 2)]


# -- R7: open play --------------------------------------------------------------------------


def two_ends_with_one() -> State:
    # 3-1 ends in 1, and 2-1 (laid on the 2 of 3-2) ends in 1 as well.
    return position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2"],
        [["1-0", "1-1"], ["2-0", "3-0", "2-2"]],
        ["0-0"],
    )


def test_r7_open_play_on_any_line_whose_end_matches() -> None:
    s = two_ends_with_one()
    assert s.phase is Phase.OPEN
    assert ends(s) == [("2-1", 1), ("3-1", 1)]
    # Two open ends with the same number are two anchors: two moves per fitting tile.
    assert moves(s) == ["1-0@2-1", "1-0@3-1", "1-1@2-1", "1-1@3-1"]


def test_r7_same_number_on_two_ends_gives_different_positions() -> None:
    s = two_ends_with_one()
    a = apply(s, "1-0@2-1")
    b = apply(s, "1-0@3-1")
    assert a != b
    assert ends(a) == [("1-0", 0), ("3-1", 1)]
    assert ends(b) == [("1-0", 0), ("2-1", 1)]


def test_r7_other_number_becomes_the_new_open_end() -> None:
    s = play(two_ends_with_one(), "1-0@3-1")
    assert s.turn == 1
    # Seat 1: 2-0 fits the new end 0 of 1-0; 3-0 too; 2-2 fits nothing.
    assert moves(s) == ["2-0@1-0", "3-0@1-0"]
    s = play(s, "2-0@1-0")
    assert ends(s) == [("2-0", 2), ("2-1", 1)]
    assert_illegal(s, "1-1@1-0", "1-0 is not an open end")


def test_r7_tile_must_match_the_end_it_is_laid_on() -> None:
    s = two_ends_with_one()
    s = play(s, "1-0@3-1")
    assert_illegal(s, "2-2@1-0", "2-2 does not match the open end 0 of 1-0")


# -- R8: doubles on a line ----------------------------------------------------------------


def foot_position() -> State:
    return position(
        D4,
        ["4-4", "4-1@4-4", "4-3@4-4"],
        [["1-1", "2-1", "3-3", "0-0"], ["1-0", "3-2", "3-0", "2-2"]],
        ["3-1", "4-0", "4-2", "2-0"],
    )


def test_r8_double_on_line_becomes_pending_hub_needing_three_toes() -> None:
    s = foot_position()
    assert moves(s) == ["1-1@4-1", "2-1@4-1", "3-3@4-3"]
    s = play(s, "1-1@4-1")
    assert (s.turn, s.phase, s.pending_hub, s.toes_needed) == (
        1,
        Phase.FOOT_PENDING,
        Tile(1, 1),
        3,
    )
    # The line of 4-1 is closed and the hub is not an open end.
    assert ends(s) == [("4-3", 3)]
    # Seat 1 has 3-2 and 3-0 matching 4-3, but only toes on the foot are legal.
    assert moves(s) == ["1-0@1-1"]
    assert_illegal(s, "3-0@4-3", "the foot on 1-1 needs 3 more toes")
    s = play(s, "1-0@1-1")
    assert (s.turn, s.toes_needed) == (0, 2)
    assert moves(s) == ["2-1@1-1"]  # the rule binds every player
    assert_illegal(s, "3-3@4-3", "the foot on 1-1 needs 2 more toes")
    s = play(s, "2-1@1-1")
    assert (s.turn, s.toes_needed) == (1, 1)
    assert moves(s) == ["draw"]  # seat 1 holds no 1
    s = play(s, "draw")
    assert (s.turn, s.drawn) == (1, Tile(3, 1))
    assert moves(s) == ["3-1@1-1"]
    s = play(s, "3-1@1-1")
    assert (s.turn, s.phase, s.pending_hub, s.toes_needed) == (0, Phase.OPEN, None, 0)
    # The toes are open lines like any other.
    assert ends(s) == [("1-0", 0), ("2-1", 2), ("3-1", 3), ("4-3", 3)]
    assert moves(s) == ["0-0@1-0", "3-3@3-1", "3-3@4-3"]


def test_r8_full_foot_takes_no_more_and_its_line_stays_closed() -> None:
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "1-1@3-1", "1-0@1-1"],
        [["2-1", "0-0"], ["2-0", "3-0"]],
        ["2-2"],
    )
    assert s.phase is Phase.OPEN
    assert ends(s) == [("1-0", 0), ("3-2", 2)]
    assert moves(s) == ["0-0@1-0", "2-1@3-2"]
    assert_illegal(s, "2-1@1-1", "1-1 is a hub with all its toes; it takes no more")
    assert_illegal(s, "2-1@3-1", "3-1 is not an open end")


def test_r8_toe_must_carry_the_hubs_number() -> None:
    s = play(foot_position(), "1-1@4-1")
    assert_illegal(s, "3-0@1-1", "3-0 does not carry 1, so it is not a toe of 1-1")


# -- R9: the turn ---------------------------------------------------------------------------


def no_play(front: str, rest: list[str], rules: dict[str, Any] | None = None) -> State:
    """Seat 0 holds 0-0 and 2-2, which fit neither open end (both are 1)."""
    return position(
        rules or D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2"],
        [["0-0", "2-2"], ["1-1", "3-0"]],
        [front, *rest],
    )


def test_r9_player_who_can_play_must_play() -> None:
    s = two_ends_with_one()
    assert_illegal(s, "draw", "seat 0 can play (e.g. 1-0@2-1), so may not draw")
    assert_illegal(s, "pass", "seat 0 can play (e.g. 1-0@2-1), so may not pass")


def test_r9_draw_one_and_play_it_where_it_fits() -> None:
    s = no_play("1-0", ["2-0"])
    assert moves(s) == ["draw"]
    assert_illegal(s, "pass", "seat 0 can draw, so may not pass")
    s = play(s, "draw")
    assert (s.turn, s.drawn, strs(s.boneyard)) == (0, Tile(1, 0), ["2-0"])
    assert strs(s.hand(0)) == ["0-0", "1-0", "2-2"]
    # It fits in two places: the player chooses, and must play it.
    assert moves(s) == ["1-0@2-1", "1-0@3-1"]
    assert_illegal(s, "pass", "seat 0 can play (e.g. 1-0@2-1), so may not pass")
    after = play(s, "1-0@3-1")
    assert (after.turn, after.drawn) == (1, None)
    assert strs(after.hand(0)) == ["0-0", "2-2"]


def test_r9_unplayable_draw_passes_and_only_one_tile_is_drawn() -> None:
    s = play(no_play("2-0", ["1-0"]), "draw")
    assert (s.drawn, moves(s)) == (Tile(2, 0), ["pass"])
    assert_illegal(s, "draw", "seat 0 has drawn 2-0, which has no play, and must pass")
    s = play(s, "pass")
    assert (s.turn, s.drawn, strs(s.boneyard)) == (1, None, ["1-0"])
    assert strs(s.hand(0)) == ["0-0", "2-0", "2-2"]


def test_r9_empty_boneyard_and_no_play_passes() -> None:
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2"],
        [["0-0", "2-2"], ["1-1", "3-0", "1-0", "2-0"]],
        [],
    )
    assert not s.is_over()  # seat 1 can still play
    assert moves(s) == ["pass"]
    assert_illegal(s, "draw", "the boneyard is empty")
    s = play(s, "pass")
    assert (s.turn, s.drawn) == (1, None)
    assert moves(s) == ["1-0@2-1", "1-0@3-1", "1-1@2-1", "1-1@3-1"]


def test_r9_only_the_drawn_tile_may_be_played() -> None:
    s = play(no_play("1-0", ["2-0"]), "draw")
    assert_illegal(s, "2-2@3-1", "only the drawn tile 1-0 may be played this turn")


def test_draw_of_a_named_tile_is_legal_when_draw_is() -> None:
    s = no_play("2-0", ["1-0"])
    assert moves(s) == ["draw"]  # draw:X-Y is never listed
    after = apply(s, "draw:1-0")
    assert (after.drawn, strs(after.boneyard)) == (Tile(1, 0), ["2-0"])
    assert moves(after) == ["1-0@2-1", "1-0@3-1"]
    assert after == apply(s, parse_move("draw:1-0"))
    assert_illegal(s, "draw:2-2", "2-2 is not in the boneyard")
    # Where a plain draw is illegal, so is a named one.
    assert_illegal(two_ends_with_one(), "draw:0-0", "so may not draw")
    with pytest.raises(InvalidMoveError, match="'draw:4-0'"):
        apply(s, "draw:4-0")


# -- R10: end of round ---------------------------------------------------------------------


def test_r10_laying_the_last_tile_ends_the_round() -> None:
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3"],
        [["2-0"], ["1-0", "2-2"]],
        ["0-0", "1-1", "2-1", "3-0"],
    )
    assert moves(s) == ["2-0@3-2"]
    s = play(s, "2-0@3-2")
    assert s.is_over()
    assert s.phase is Phase.OVER
    assert outcome(s) == s.outcome() == Outcome(Termination.OUT, 0)
    assert s.turn == 0
    assert moves(s) == []
    assert strs(s.boneyard) == ["0-0", "1-1", "2-1", "3-0"]
    assert penalties(s) == (0, 5)
    assert_illegal(s, "pass", "the round is over (seat 0 went out)")
    assert_illegal(s, "1-0@2-0", "the round is over")


def test_r10_going_out_on_a_double_whose_toes_are_missing() -> None:
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3"],
        [["1-1"], ["1-0", "2-2"]],
        ["0-0", "2-0", "2-1", "3-0"],
    )
    assert moves(s) == ["1-1@3-1"]
    s = play(s, "1-1@3-1")
    assert s.outcome() == Outcome(Termination.OUT, 0)
    assert (s.turn, s.drawn, s.pending_hub, s.toes_needed) == (0, None, Tile(1, 1), 1)
    assert s.boneyard_size == 4  # nothing is drawn
    assert moves(s) == []
    assert penalties(s) == (0, 5)


def test_r10_blocked_at_once_when_nobody_can_play() -> None:
    # Seat 0 closes the last line with 1-1; every tile with a 1 is already on the table, so
    # the foot can never be filled. Seat 1 never passes: the round is over at once.
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2", "1-0@2-1"],
        [["1-1", "2-2"], ["2-0", "3-0", "0-0"]],
        [],
    )
    assert moves(s) == ["1-1@3-1"]
    s = play(s, "1-1@3-1")
    assert s.outcome() == Outcome(Termination.BLOCKED, None)
    assert s.is_over()
    assert (s.turn, moves(s)) == (1, [])
    assert penalties(s) == (4, 55)
    assert_illegal(s, "pass", "the round is over (blocked)")


def test_r10_foot_whose_toes_no_longer_exist_stays_pending_until_blocked() -> None:
    s = position(
        {**D3, "foot_toes": 2},
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2", "1-1@3-1"],
        [["1-0", "2-2"], ["0-0", "3-0"]],
        ["2-0"],
    )
    assert (s.pending_hub, s.toes_needed) == (Tile(1, 1), 2)
    assert moves(s) == ["1-0@1-1"]
    s = play(s, "1-0@1-1")
    # No tile with a 1 is left anywhere, but the foot still needs a toe.
    assert (s.turn, s.pending_hub, s.toes_needed, s.is_over()) == (1, Tile(1, 1), 1, False)
    assert moves(s) == ["draw"]
    s = play(s, "draw")
    assert (s.drawn, moves(s)) == (Tile(2, 0), ["pass"])  # 2-0 would fit 1-0, not the foot
    assert not s.is_over()  # checked only when nothing has been drawn
    s = play(s, "pass")
    assert s.outcome() == Outcome(Termination.BLOCKED)
    assert (s.turn, s.pending_hub, s.toes_needed) == (0, Tile(1, 1), 1)
    assert penalties(s) == (4, 55)


def test_r10_blocked_position_read_from_json_is_over() -> None:
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2", "1-0@2-1", "1-1@3-1"],
        [["2-2"], ["2-0", "3-0", "0-0"]],
        [],
        turn=1,
    )
    assert s.outcome() == Outcome(Termination.BLOCKED)
    assert moves(s) == []


def test_r10_drawn_tile_pending_means_not_yet_blocked() -> None:
    # Seat 1 drew the last tile (2-0), which does not fit the foot: pass, then blocked.
    s = position(
        D3,
        ["3-3", "3-1@3-3", "3-2@3-3", "2-1@3-2", "1-0@2-1", "1-1@3-1"],
        [["2-2"], ["2-0", "3-0", "0-0"]],
        [],
        turn=1,
        drawn="2-0",
    )
    assert not s.is_over()
    assert moves(s) == ["pass"]
    s = play(s, "pass")
    assert s.outcome() == Outcome(Termination.BLOCKED)
    assert s.turn == 0


def test_r10_empty_hand_is_over_and_out_for_the_lowest_such_seat() -> None:
    rules = {**D3, "players": 3}
    s = position(
        rules,
        ["3-3", "3-1@3-3", "3-2@3-3"],
        [["1-0"], [], []],
        ["0-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
    )
    assert s.outcome() == Outcome(Termination.OUT, 1)
    assert (moves(s), s.phase) == ([], Phase.OVER)
    # Whatever else holds: a drawn tile, a pending opening, the turn elsewhere.
    s = position(
        rules,
        ["3-3"],
        [["0-0", "1-0"], ["3-1", "3-2"], []],
        ["1-1", "2-0", "2-1", "2-2", "3-0"],
        turn=1,
        drawn="3-2",
    )
    assert s.outcome() == Outcome(Termination.OUT, 2)
    assert moves(s) == []
    assert penalties(s) == (51, 9, 0)


# -- R11: round score -------------------------------------------------------------------------


def scored(double_blank: int | None) -> State:
    rules = dict(D3) if double_blank is None else {**D3, "double_blank": double_blank}
    return position(
        rules,
        ["3-3", "3-1@3-3", "3-2@3-3"],
        [["0-0", "1-0", "2-2"], ["3-0", "2-1"]],
        ["1-1", "2-0"],
    )


def test_r11_penalties_are_pips_in_hand_with_double_blank_fifty() -> None:
    s = scored(None)
    assert s.rules.double_blank == 50
    assert penalties(s) == s.penalties() == (50 + 1 + 4, 3 + 3)


@pytest.mark.parametrize(("double_blank", "seat0"), [(25, 30), (0, 5), (7, 12)])
def test_variant_double_blank(double_blank: int, seat0: int) -> None:
    assert penalties(scored(double_blank)) == (seat0, 6)


def test_r11_penalties_defined_mid_round_and_on_the_deal() -> None:
    s = deal(Rules(), seed=4)
    expected = tuple(
        sum(t.pips for t in hand) + (50 if Tile(0, 0) in hand else 0) for hand in s.hands
    )
    assert penalties(s) == expected


# -- R12: result ------------------------------------------------------------------------------


def test_r12_house_match_has_no_tie_break() -> None:
    rules = Rules()
    assert (rules.tie_break, rules.match) == ("shared", Rounds(10))


# -- Variants: opening_toes, foot_toes ------------------------------------------------------


def test_variant_opening_toes_four() -> None:
    s = position(
        {**D4, "opening_toes": 4},
        ["4-4", "4-0@4-4", "4-1@4-4"],
        [["4-2", "1-0", "2-1"], ["4-3", "0-0", "3-3"]],
        ["1-1", "2-0", "2-2", "3-0", "3-1", "3-2"],
    )
    assert (s.phase, s.toes_needed) == (Phase.OPENING, 2)
    assert moves(s) == ["4-2@4-4"]  # 1-0 and 2-1 would fit lines, but the opening goes on
    s = play(s, "4-2@4-4")
    assert (s.phase, s.toes_needed) == (Phase.OPENING, 1)
    assert moves(s) == ["4-3@4-4"]
    s = play(s, "4-3@4-4")
    assert (s.phase, s.turn) == (Phase.OPEN, 0)
    assert ends(s) == [("4-0", 0), ("4-1", 1), ("4-2", 2), ("4-3", 3)]
    assert moves(s) == ["1-0@4-0", "1-0@4-1", "2-1@4-1", "2-1@4-2"]


def test_variant_four_toe_preset_deal_needs_four_toes() -> None:
    s = deal(Rules.preset("four-toe"), seed=2)
    assert (s.pending_hub, s.toes_needed) == (Tile(9, 9), 4)


def test_variant_opening_toes_one() -> None:
    s = position(
        {**D3, "opening_toes": 1},
        ["3-3"],
        [["3-1", "1-0"], ["2-1", "0-0"]],
        ["1-1", "2-0", "2-2", "3-0", "3-2"],
    )
    assert moves(s) == ["3-1@3-3"]
    s = play(s, "3-1@3-3")
    assert s.phase is Phase.OPEN
    assert moves(s) == ["2-1@3-1"]


def test_variant_foot_toes_one_and_two() -> None:
    board = ["3-3", "3-1@3-3", "3-2@3-3"]
    hands = [["1-1", "0-0"], ["1-0", "2-1"]]
    bone = ["2-0", "2-2", "3-0"]
    one = play(position(D3, board, hands, bone), "1-1@3-1")
    two = play(position({**D3, "foot_toes": 2}, board, hands, bone), "1-1@3-1")
    assert (one.pending_hub, one.toes_needed) == (two.pending_hub, 1)
    assert two.toes_needed == 2
    assert moves(one) == moves(two) == ["1-0@1-1", "2-1@1-1"]
    one = play(one, "1-0@1-1")
    two = play(two, "1-0@1-1")
    assert (one.phase, one.turn) == (Phase.OPEN, 0)
    assert moves(one) == ["0-0@1-0"]
    assert (two.phase, two.toes_needed) == (Phase.FOOT_PENDING, 1)
    assert moves(two) == ["draw"]  # 0-0 fits 1-0, but the foot needs another toe


# -- Variant: centre = "holder" -------------------------------------------------------------

HOLDER = {**D3, "centre": "holder", "hand_size": 2}


def test_variant_holder_holder_lays_the_centre_then_next_seat_plays() -> None:
    s = position(
        HOLDER,
        [],
        [["1-0", "3-3"], ["3-1", "2-0"]],
        ["0-0", "1-1", "2-1", "2-2", "3-0", "3-2"],
        centre="3-3",
    )
    assert (s.phase, s.centre_laid, s.pending_hub) == (Phase.SEEKING_CENTRE, False, None)
    assert moves(s) == ["3-3"]
    assert_illegal(s, "draw", "seat 0 holds the centre 3-3 and must lay it")
    assert_illegal(s, "1-0@3-3", "the centre 3-3 must be laid first")
    assert_illegal(s, "3-3@3-1", "the centre 3-3 is laid without an anchor")
    s = play(s, "3-3")
    assert strs(tuple(m.tile for m in s.board)) == ["3-3"]
    assert s.board[0].anchor is None
    assert (s.turn, s.phase, s.pending_hub, s.toes_needed) == (1, Phase.OPENING, Tile(3, 3), 2)
    assert moves(s) == ["3-1@3-3"]
    assert s.to_dict()["board"] == ["3-3"]


def holder_in_boneyard(**variant: Any) -> State:
    return position(
        {**HOLDER, **variant},
        [],
        [["2-0", "1-0"], ["2-1", "1-1"]],
        ["0-0", "3-3", "3-0", "3-1", "3-2", "2-2"],
        centre="3-3",
    )


def test_variant_holder_nobody_holds_it_so_players_draw_until_someone_lays_it() -> None:
    s = holder_in_boneyard()
    assert moves(s) == ["draw"]
    s = play(s, "draw")
    assert (s.drawn, moves(s)) == (Tile(0, 0), ["pass"])
    s = play(s, "pass")
    assert (s.turn, moves(s)) == (1, ["draw"])
    s = play(s, "draw")
    assert (s.drawn, moves(s)) == (Tile(3, 3), ["3-3"])
    assert_illegal(s, "pass", "so may not pass")
    s = play(s, "3-3")
    assert (s.turn, s.phase, s.toes_needed, s.drawn) == (0, Phase.OPENING, 2, None)
    assert strs(s.hand(1)) == ["1-1", "2-1"]
    assert moves(s) == ["draw"]  # seat 0 holds no 3
    s = play(s, "draw")
    assert moves(s) == ["3-0@3-3"]


def test_variant_holder_with_may_play_the_drawer_may_pass() -> None:
    s = play(holder_in_boneyard(drawn_tile="may_play"), "draw", "pass", "draw")
    assert (s.turn, s.drawn) == (1, Tile(3, 3))
    assert moves(s) == ["3-3", "pass"]
    s = play(s, "pass")
    assert (s.turn, s.centre_laid) == (0, False)
    assert Tile(3, 3) in s.hand(1)
    # Seat 0 does not hold the centre: it draws; 3-0 cannot be laid before the centre.
    s = play(s, "draw")
    assert (s.drawn, moves(s)) == (Tile(3, 0), ["pass"])
    s = play(s, "pass")
    assert (s.turn, moves(s)) == (1, ["3-3"])  # now the holder, with nothing drawn


def test_variant_holder_with_until_playable_draws_on_to_the_centre() -> None:
    s = holder_in_boneyard(draw="until_playable")
    s = play(s, "draw")
    assert (s.drawn, moves(s)) == (Tile(0, 0), ["draw"])
    s = play(s, "draw")
    assert (s.turn, s.drawn, moves(s)) == (0, Tile(3, 3), ["3-3"])
    s = play(s, "3-3")
    assert (s.turn, s.phase) == (1, Phase.OPENING)


def test_variant_holder_with_empty_boneyard_nonholder_passes() -> None:
    s = position(
        HOLDER,
        [],
        [["2-0", "1-0"], ["3-3", "1-1", "0-0", "2-1", "2-2", "3-0", "3-1", "3-2"]],
        [],
        centre="3-3",
    )
    assert not s.is_over()
    assert moves(s) == ["pass"]
    s = play(s, "pass")
    assert moves(s) == ["3-3"]


def test_variant_holder_may_draw_instead_does_not_apply_before_the_centre() -> None:
    s = position(
        {**HOLDER, "may_draw_instead": True},
        [],
        [["1-0", "3-3"], ["3-1", "2-0"]],
        ["0-0", "1-1", "2-1", "2-2", "3-0", "3-2"],
        centre="3-3",
    )
    assert moves(s) == ["3-3"]
    s = play(s, "3-3")
    assert moves(s) == ["3-1@3-3", "draw"]  # once the centre is on the table


def test_variant_holder_deal_deals_the_whole_set_and_the_holder_opens() -> None:
    rules = Rules.preset("classic")
    for seed in range(40):
        for k in (0, 4):
            s = deal(rules, seed=seed, round=k)
            assert s.board == ()
            assert s.hand_sizes == (7, 7, 7, 7)
            assert s.boneyard_size == 55 - 28
            holders = [seat for seat, hand in enumerate(s.hands) if s.centre in hand]
            if holders:
                assert s.turn == holders[0]
                assert moves(s) == [str(s.centre)]
            else:
                assert s.turn == k % 4
                assert moves(s) == ["draw"]
                assert s.centre in s.boneyard


def test_variant_holder_first_leader_opens_when_nobody_holds_the_centre() -> None:
    rules = Rules.preset("classic", first_leader=3)
    found = 0
    for seed in range(60):
        s = deal(rules, seed=seed, round=1)
        if s.centre in s.boneyard:
            assert s.turn == (3 + 1) % 4
            found += 1
    assert found > 0


# -- Variant: draw = "until_playable" ---------------------------------------------------------


def until_playable(bone: list[str]) -> State:
    return position(
        {**D3, "draw": "until_playable"},
        ["3-3", "3-1@3-3", "3-2@3-3"],
        [["3-0"], [t for t in ("1-0", "1-1", "2-0", "2-1", "2-2", "0-0") if t not in bone]],
        bone,
    )


def test_variant_until_playable_draws_again_after_an_unplayable_draw() -> None:
    s = until_playable(["0-0", "2-0", "1-0"])
    assert moves(s) == ["draw"]
    s = play(s, "draw")
    assert (s.turn, s.drawn, moves(s)) == (0, Tile(0, 0), ["draw"])
    assert_illegal(s, "pass", "so may not pass")
    s = play(s, "draw")
    assert (s.turn, s.drawn, moves(s)) == (0, Tile(2, 0), ["2-0@3-2"])
    assert strs(s.hand(0)) == ["0-0", "2-0", "3-0"]
    s = play(s, "2-0@3-2")
    assert (s.turn, s.drawn, strs(s.boneyard)) == (1, None, ["1-0"])


def test_variant_until_playable_stops_when_the_boneyard_is_empty() -> None:
    s = until_playable(["0-0"])
    s = play(s, "draw")
    assert (s.drawn, s.boneyard_size, moves(s)) == (Tile(0, 0), 0, ["pass"])
    s = play(s, "pass")
    assert (s.turn, s.is_over()) == (1, False)


# -- Variant: drawn_tile = "may_play" -----------------------------------------------------------


def test_variant_may_play_lists_pass_after_a_playable_draw() -> None:
    s = no_play("1-0", ["2-0"], {**D3, "drawn_tile": "may_play"})
    assert moves(s) == ["draw"]  # pass is not offered before the draw
    s = play(s, "draw")
    assert moves(s) == ["1-0@2-1", "1-0@3-1", "pass"]
    assert_illegal(s, "draw", "seat 0 has drawn 1-0 and must play it (e.g. 1-0@2-1) or pass")
    s = play(s, "pass")
    assert (s.turn, s.drawn) == (1, None)
    assert strs(s.hand(0)) == ["0-0", "1-0", "2-2"]


def test_variant_may_play_unplayable_draw_just_passes() -> None:
    s = play(no_play("2-0", ["1-0"], {**D3, "drawn_tile": "may_play"}), "draw")
    assert moves(s) == ["pass"]


def test_variant_may_play_with_until_playable_never_lists_draw_and_pass_together() -> None:
    rules = {**D3, "drawn_tile": "may_play", "draw": "until_playable"}
    s = play(no_play("2-0", ["1-0"], rules), "draw")
    assert moves(s) == ["draw"]
    s = play(s, "draw")
    assert moves(s) == ["1-0@2-1", "1-0@3-1", "pass"]


# -- Variant: may_draw_instead ---------------------------------------------------------------


def draw_instead(**variant: Any) -> State:
    return position(
        {**D3, "may_draw_instead": True, **variant},
        ["3-3", "3-1@3-3", "3-2@3-3"],
        [["2-1", "0-0"], ["1-1", "2-0", "2-2"]],
        ["3-0", "1-0"],
    )


def test_variant_may_draw_instead_lists_draw_beside_the_plays() -> None:
    s = draw_instead()
    assert moves(s) == ["2-1@3-1", "2-1@3-2", "draw"]
    s = play(s, "draw")
    assert (s.turn, s.drawn, moves(s)) == (0, Tile(3, 0), ["pass"])
    assert_illegal(s, "2-1@3-1", "only the drawn tile 3-0 may be played this turn")
    s = play(s, "pass")
    assert (s.turn, strs(s.hand(0))) == (1, ["0-0", "2-1", "3-0"])


def test_variant_may_draw_instead_drawn_tile_must_be_played_if_it_fits() -> None:
    s = play(draw_instead(), "draw:1-0")
    assert moves(s) == ["1-0@3-1"]
    assert_illegal(s, "2-1@3-2", "only the drawn tile 1-0 may be played this turn")


def test_variant_may_draw_instead_in_the_opening_and_not_with_empty_boneyard() -> None:
    s = position(
        {**D3, "may_draw_instead": True},
        ["3-3"],
        [["3-0", "0-0"], ["1-1"]],
        ["1-0", "2-0", "2-1", "2-2", "3-1", "3-2"],
    )
    assert moves(s) == ["3-0@3-3", "draw"]
    empty = position(
        {**D3, "may_draw_instead": True},
        ["3-3"],
        [["3-0", "0-0"], ["1-0", "1-1", "2-0", "2-1", "2-2", "3-1", "3-2"]],
        [],
    )
    assert moves(empty) == ["3-0@3-3"]


# -- Presets ----------------------------------------------------------------------------------


def test_presets_house_four_toe_classic() -> None:
    assert Rules.preset("house") == Rules()
    assert Rules.preset("house", players=7) == Rules(players=7)
    assert Rules.preset("four-toe") == Rules(opening_toes=4)
    classic = Rules.preset("classic")
    assert (classic.max_pip, classic.hand_size, classic.centre) == (9, 7, "holder")
    assert (classic.opening_toes, classic.tie_break) == (4, "zero_rounds")
    assert (classic.foot_toes, classic.double_blank, classic.draw) == (3, 50, "one")
    for players, max_pip in ((2, 9), (6, 9), (7, 12), (8, 12)):
        c = Rules.preset("classic", players=players)
        assert (c.players, c.max_pip, c.hand_size) == (players, max_pip, 7)
    s = deal(classic, seed=1)
    assert s.hand_sizes == (7, 7, 7, 7)


# -- Bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("2-2@3-1", "seat 0 does not hold 2-2"),
        ("1-0@0-0", "0-0 is not on the table"),
        ("1-0", "1-0 needs an anchor (write 1-0@ANCHOR)"),
        ("3-3", "seat 0 does not hold 3-3"),
        ("1-0@3-3", "3-3 is a hub with all its toes"),
        ("1-0@3-2", "3-2 is not an open end"),
        ("pass", "seat 0 can play (e.g. 1-0@2-1), so may not pass"),
        ("draw", "seat 0 can play (e.g. 1-0@2-1), so may not draw"),
    ],
)
def test_illegal_moves_name_the_move_the_seat_and_why(move: str, reason: str) -> None:
    assert_illegal(two_ends_with_one(), move, reason)


def test_illegal_move_by_the_second_seat_names_that_seat() -> None:
    s = play(two_ends_with_one(), "1-0@3-1")
    assert_illegal(s, "1-1@2-1", "seat 1 does not hold 1-1")


@pytest.mark.parametrize("text", ["4-0@3-1", "3-1@4-4", "draw:4-4", "junk", "1-0@", "PASS"])
def test_unparseable_or_out_of_set_move_is_invalid_and_quotes_the_text(text: str) -> None:
    s = two_ends_with_one()
    before = s.to_dict()
    with pytest.raises(InvalidMoveError) as info:
        apply(s, text)
    assert repr(text) in str(info.value)
    assert text not in moves(s)
    assert s.to_dict() == before


def test_moves_are_accepted_as_objects_or_text_in_either_order() -> None:
    s = two_ends_with_one()
    a = apply(s, "0-1@1-2")
    assert a == apply(s, parse_move("1-0@2-1")) == apply(s, legal_moves(s)[0])
    assert str(a.board[-1]) == "1-0@2-1"
    assert PASS not in legal_moves(s)


def test_r12_after_the_last_round_the_lowest_total_wins_and_ties_share() -> None:
    rules = Rules(players=3, match=Rounds(2))
    assert not Match.from_scores(rules, seed=1, scores=[(9, 0, 4)]).is_over()
    result = Match.from_scores(rules, seed=1, scores=[(9, 0, 4), (0, 7, 2)]).result()
    assert (result.is_over(), result.totals, result.winners) == (True, (9, 7, 6), (2,))
    shared = Match.from_scores(rules, seed=1, scores=[(9, 0, 4), (0, 6, 2)]).result()
    # Seat 1 scored a zero round and seat 2 did not: the house rules still share the win.
    assert (shared.totals, shared.winners) == ((9, 6, 6), (1, 2))
