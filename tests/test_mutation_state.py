"""State: behaviour that mutation testing (``nox -s mutation``) found untested.

Each test names the mutants it kills (``bench/mutation.md`` lists them with the equivalent
survivors). Expected values are worked out from the rules (docs/rules.md), the formats
(docs/formats.md) and the layout ``State.key`` is built from, not copied from a run.

Most positions are in the double-3 set, whose tile ids are ``high * (high + 1) / 2 + low``:
0-0 0, 1-0 1, 1-1 2, 2-0 3, 2-1 4, 2-2 5, 3-0 6, 3-1 7, 3-2 8, 3-3 9. Tile 0-0 has id 0,
which is what several mutants (``d <= 0`` for ``d < 0``, ``pending > 0`` for ``>= 0``)
get wrong.
"""

from __future__ import annotations

import json
import random

import pytest

import chickenfoot._kernel.legal as legal_module
import chickenfoot._kernel.position as position_module
from chickenfoot import (
    DRAW,
    PASS,
    ArgumentError,
    Draw,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Play,
    Rounds,
    Rules,
    RulesError,
    State,
    Threshold,
    Tile,
    apply,
    deal,
    is_legal,
    legal_moves,
    outcome,
    penalties,
)

SMALL = {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}
OPENED = ["3-3", "3-0@3-3", "3-1@3-3"]  # the centre and its two toes: open ends 0 and 1


def _refused(state: State, move: Move | str) -> str:
    """The message of the IllegalMoveError ``apply`` raises; ``is_legal`` must agree."""
    assert not is_legal(state, move)
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return str(info.value)


# -- a drawn tile ---------------------------------------------------------------------------------


def test_draw_until_playable_stops_once_the_drawn_tile_plays() -> None:
    # _draw_ok mutant 16 (``1 >> d`` for ``1 << d``: for any drawn tile but 0-0 the mask
    # test saw no playable tile, so drawing again was allowed). Seat 0 drew 1-0, which
    # plays on both open ends (0 on 3-0, 1 on 3-1): R9 says play it.
    rules = Rules(**SMALL, draw="until_playable")
    s = State.setup(
        rules,
        board=OPENED,
        hands=[["2-2", "1-0"], ["2-1", "2-0"]],
        boneyard=["1-1", "3-2", "0-0"],
        drawn="1-0",
    )
    assert [str(m) for m in legal_moves(s)] == ["1-0@3-0", "1-0@3-1"]
    assert _refused(s, "draw") == (
        "draw by seat 0: seat 0 has drawn 1-0 and must play it (e.g. 1-0@3-0)"
    )


@pytest.fixture
def drew_0_0() -> State:
    """Seat 0 holds 2-1 (plays on the open end 1) and has just drawn 0-0 (plays on 0)."""
    return State.setup(
        Rules(**SMALL),
        board=OPENED,
        hands=[["2-1", "0-0"], ["2-2", "2-0"]],
        boneyard=["1-1", "3-2", "1-0"],
        drawn="0-0",
    )


def test_after_drawing_0_0_only_0_0_may_be_played(drew_0_0: State) -> None:
    # _play_ok mutants 6, 7 (``d <= 0``, ``d < 1``: with 0-0, id 0, drawn the whole hand
    # was the source of plays) and _why_illegal mutants 34, 35 (the same test in the
    # reason: "not a legal move here").
    s = drew_0_0
    assert [str(m) for m in legal_moves(s)] == ["0-0@3-0"]
    assert _refused(s, "2-1@3-1") == (
        "2-1@3-1 by seat 0: only the drawn tile 0-0 may be played this turn"
    )


def test_after_drawing_0_0_a_second_draw_is_refused_for_the_drawn_tile(drew_0_0: State) -> None:
    # _why_illegal mutants 24, 25 (``s._drawn > 0``, ``>= 1``): the reason became "seat 0
    # can play (e.g. 0-0@3-0), so may not draw", as if nothing had been drawn.
    assert _refused(drew_0_0, "draw") == (
        "draw by seat 0: seat 0 has drawn 0-0 and must play it (e.g. 0-0@3-0)"
    )


def test_a_drawn_0_0_with_an_empty_boneyard_is_not_yet_blocked() -> None:
    # _settle mutants 76, 77 (``drawn <= 0``, ``drawn < 1``): a position read with 0-0
    # just drawn, the boneyard empty and no tile playable was declared blocked at once;
    # R10: the seat that drew passes first, and then nobody can play. The open ends are 2
    # (on 2-0) and 1 (on 2-1); the hands hold 0-0 and 3-0.
    board = ["3-3", "3-1@3-3", "3-2@3-3", "1-1@3-1", "1-0@1-1", "2-2@3-2", "2-1@2-2", "2-0@1-0"]
    s = State.setup(Rules(**SMALL), board=board, hands=[["0-0"], ["3-0"]], boneyard=[], drawn="0-0")
    assert not s.is_over()
    assert [str(m) for m in legal_moves(s)] == ["pass"]
    end = apply(s, "pass")
    assert end.is_over()
    assert str(end.outcome()) == "blocked"


# -- the centre in holder mode --------------------------------------------------------------------


def test_the_centre_cannot_be_laid_on_0_0_in_holder_mode() -> None:
    # _play_ok mutants 23, 24 (``a <= 0``, ``a < 1``): before the centre is laid a play
    # on anchor 0-0 (id 0) was taken for the centre's lay without an anchor, and applied.
    rules = Rules(**SMALL, centre="holder")
    s = State.setup(
        rules,
        hands=[["3-3", "2-1", "0-0"], ["2-2", "2-0", "1-0"]],
        boneyard=["1-1", "3-2", "3-1", "3-0"],
    )
    assert [str(m) for m in legal_moves(s)] == ["3-3"]
    assert _refused(s, Play(Tile(3, 3), Tile(0, 0))) == (
        "3-3@0-0 by seat 0: the centre 3-3 is laid without an anchor (write 3-3)"
    )


# -- moves outside the set -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "named"),
    [
        (Play(Tile(10, 9), Tile(9, 9)), "'10-9@9-9' names 10-9"),  # the tile
        (Play(Tile(9, 0), Tile(10, 9)), "'9-0@10-9' names 10-9"),  # the anchor
        (Play(Tile(10, 0), Tile(9, 0)), "'10-0@9-0' names 10-0"),  # id 55, the set's size
        (Play(Tile(9, 0), Tile(10, 0)), "'9-0@10-0' names 10-0"),
        (Draw(Tile(10, 0)), "'draw:10-0' names 10-0"),
    ],
)
def test_a_move_object_outside_the_set_is_invalid_not_illegal(move: Move, named: str) -> None:
    # _check_in_set mutants 2, 7, 8 (the tile not checked), 9, 14, 15 (the anchor not
    # checked), 18 (``id > size``: 10-0 has id 55, the size of the double-9 set), 19-21
    # (the message) and apply mutant 56 (``_check_in_set(state, None)``): an
    # IllegalMoveError ("seat 0 does not hold ...") instead.
    s = deal(Rules(), seed=1)
    assert not is_legal(s, move)
    with pytest.raises(InvalidMoveError) as info:
        apply(s, move)
    assert str(info.value) == f"{named}, which is not in the double-9 set"


@pytest.mark.parametrize("text", ["10-0@9-0", "9-0@10-9", "draw:10-0"])
def test_notation_outside_the_set_is_refused_when_parsed(text: str) -> None:
    # apply mutant 26 (``parse_move`` without ``max_pip``: the text parsed in the double-18
    # set and the move object's message came instead).
    s = deal(Rules(), seed=1)
    assert not is_legal(s, text)
    with pytest.raises(InvalidMoveError) as info:
        apply(s, text)
    assert str(info.value) == f"'{text}' names a tile outside the double-9 set"


# -- reasons ----------------------------------------------------------------------------------------


def test_a_pass_is_refused_to_a_seat_that_can_draw_or_play() -> None:
    # _why_illegal mutants 11, 13, 14, 16 (the " or play" dropped, padded, upper-cased, or
    # given only for more than two moves): with may_draw_instead seat 0 has exactly one
    # play (2-1 on the open end 1) and the draw.
    rules = Rules(**SMALL, may_draw_instead=True)
    s = State.setup(
        rules, board=OPENED, hands=[["2-2", "2-1"], ["1-1", "2-0"]], boneyard=["0-0", "3-2", "1-0"]
    )
    assert [str(m) for m in legal_moves(s)] == ["2-1@3-1", "draw"]
    assert _refused(s, "pass") == "pass by seat 0: seat 0 can draw or play, so may not pass"


def test_a_foot_0_0_names_its_missing_toe() -> None:
    # _why_illegal mutants 51, 52 (``pending > 0``, ``>= 1``: a pending foot 0-0, id 0,
    # was not seen, "not a legal move here") and 64 ("1 more toes"). 0-0 was laid on the
    # open end 0 of 3-0 and needs foot_toes = 1 toe: only 2-0 can give it.
    s = State.setup(
        Rules(**SMALL),
        board=[*OPENED, "0-0@3-0"],
        hands=[["2-1", "2-2"], ["1-1", "2-0"]],
        boneyard=["1-0", "3-2"],
        turn=1,
    )
    assert (str(s.pending_hub), s.toes_needed) == ("0-0", 1)
    assert [str(m) for m in legal_moves(s)] == ["2-0@0-0"]
    assert _refused(s, "1-1@3-1") == "1-1@3-1 by seat 1: the foot on 0-0 needs 1 more toe"


# -- the key ---------------------------------------------------------------------------------------


def test_the_key_is_laid_out_field_by_field() -> None:
    # State.key mutants: the layout is (players, max_pip, hand_size, opening_toes,
    # foot_toes, double_blank, centre is holder, draw is until_playable, drawn_tile is
    # may_play, may_draw_instead, the match as (0, rounds, 0) or (1, points, inclusive),
    # tie_break is zero_rounds, first_leader, centre id, turn, drawn id or -1, board
    # length, the board's tile ids, their anchor ids (-1: none), each hand as a bitmask
    # of tile ids, the boneyard's ids front first). Keys may be stored (``list(key)`` is
    # JSON), so a flipped flag or a relabelled match is a different key; mutants that
    # kept the key one-to-one (``!= "holder"``, ``(0, count, 1)``, ``(2, points, ...)``)
    # or dropped a rules field (``== "XXholderXX"`` made it always 0) are caught here.
    s = State.setup(
        Rules(**SMALL, match=Rounds(3)),
        board=OPENED,
        hands=[["2-2", "1-0"], ["2-1", "2-0"]],
        boneyard=["1-1", "3-2", "0-0"],
        drawn="1-0",
    )
    rules = (2, 3, 3, 2, 1, 50, 0, 0, 0, 0, 0, 3, 0, 0, 0)
    board = (3, 9, 6, 7, -1, 9, 9)
    hands = (1 << 5 | 1 << 1, 1 << 4 | 1 << 3)
    assert s.key() == (*rules, 9, 0, 1, *board, *hands, 2, 8, 0)

    every_flag = Rules(
        **SMALL,
        double_blank=25,
        centre="holder",
        draw="until_playable",
        drawn_tile="may_play",
        may_draw_instead=True,
        match=Threshold(100, inclusive=True),
        tie_break="zero_rounds",
        first_leader=1,
    )
    s = State.setup(
        every_flag,
        hands=[["2-1", "0-0"], ["3-3", "2-0"]],
        boneyard=["1-0", "1-1", "2-2", "3-0", "3-1", "3-2"],
    )
    rules = (2, 3, 3, 2, 1, 25, 1, 1, 1, 1, 1, 100, 1, 1, 1)
    hands = (1 << 4 | 1 << 0, 1 << 9 | 1 << 3)
    assert s.key() == (*rules, 9, 1, -1, 0, *hands, 1, 2, 5, 6, 7, 8)
    s = State.setup(
        Rules(**SMALL, match=Threshold(100)),
        hands=[["2-1", "0-0"], ["3-2", "2-0"]],
        boneyard=["1-0", "1-1", "2-2", "3-0", "3-1"],
    )
    assert s.key()[10:16] == (1, 100, 0, 0, 0, 9)  # inclusive false; centre 3-3 set aside


# -- the move memos ---------------------------------------------------------------------------------


def test_the_move_memos_stay_within_their_limit_and_are_reused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # _remember mutants 2-10, _tile_group 11, 12, _hub_group 9, 10 and _generate 24, 44.
    # The memos of groups of plays (_GROUPS, _TOES) count their entries in _memo_size and
    # are emptied together when they hold _MEMO_LIMIT entries. The mutants broke the count
    # (``= None`` or ``[1]`` after emptying: an error at the next entry; ``= 1`` after
    # emptying, ``= 1``, ``-= 1``, ``+= 2``: the memos grew without bound or were emptied
    # early), emptied them one entry late (``>``), or stored or looked up a group under
    # the wrong key or value, so it was never found again: listing the same moves again
    # added entries. First fresh memos with a limit of 8, so a few playouts empty them
    # many times; then a limit they never reach, each position's moves listed twice.
    def entries() -> int:
        return sum(len(memo) for memo in (*legal_module._GROUPS, *legal_module._TOES))

    def fresh_memos(limit: int) -> None:
        monkeypatch.setattr(legal_module, "_GROUPS", [{} for _ in legal_module._GROUPS])
        monkeypatch.setattr(legal_module, "_TOES", [{} for _ in legal_module._TOES])
        monkeypatch.setattr(legal_module, "_memo_size", [0])
        monkeypatch.setattr(legal_module, "_MEMO_LIMIT", limit)

    fresh_memos(8)
    emptied = 0
    for seed in range(3):
        s = deal(Rules(), seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            before = entries()
            moves = legal_moves(s)
            assert legal_module._memo_size[0] == entries() <= 8
            emptied += entries() < before
            s = apply(s, rng.choice(moves))
    assert emptied > 0

    fresh_memos(1 << 20)
    for seed in range(3):
        s = deal(Rules(), seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            moves = legal_moves(s)
            now = entries()
            assert legal_module._memo_size[0] == now
            assert legal_moves(s) == moves
            assert legal_module._memo_size[0] == entries() == now
            s = apply(s, rng.choice(moves))


def test_the_union_memo_holds_the_first_65536_sets_of_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # _union mutants 18-21 (the bound ``len(_UNION) < 1 << 16`` as ``<=``, ``1 >> 16``,
    # ``2 << 16``, ``1 << 17``: one entry too many, nothing kept, or twice or four times the
    # memory) and 22 (``None`` kept instead of the mask). _union memoises, per bitmask of
    # numbers, the bitmask of the tiles showing any of them; a simulator meets new sets of
    # numbers for as long as it runs, so the memo keeps the first 65,536 and no more.
    memo: dict[int, int] = {}
    monkeypatch.setattr(position_module, "UNION", memo)
    limit = 1 << 16
    for nums in range(1, limit + 100):
        position_module.union(nums)
    assert sorted(memo) == list(range(1, limit + 1))

    def showing(numbers: set[int]) -> int:  # worked out from the tiles, not by _union
        tiles = [Tile(h, low) for h in range(19) for low in range(h + 1)]
        return sum(1 << t.id for t in tiles if t.high in numbers or t.low in numbers)

    for nums in (1, 0b101, 1 << 15, limit - 1, limit):
        numbers = {v for v in range(19) if nums >> v & 1}
        assert memo[nums] == position_module.union(nums) == showing(numbers)
    assert position_module.union(limit + 7) == showing({0, 1, 2, 16})  # past the bound
    assert limit + 7 not in memo


# -- the entry points and their messages ------------------------------------------------------------

# Any value but None: the existing tests pass None, whose message a mutant that names
# ``None`` instead of the value (``brief(None)``, ``_not_a_state(None, ...)``) repeats.
NOT_A_STATE = "9-9@9-9"


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: legal_moves(NOT_A_STATE), "legal_moves"),
        (lambda: is_legal(NOT_A_STATE, "pass"), "is_legal"),
        (lambda: apply(NOT_A_STATE, PASS), "apply"),
        (lambda: apply(NOT_A_STATE, 42), "apply"),
        (lambda: outcome(NOT_A_STATE), "outcome"),
        (lambda: penalties(NOT_A_STATE), "penalties"),
    ],
    ids=["legal_moves", "is_legal", "apply-a-move", "apply-a-non-move", "outcome", "penalties"],
)
def test_a_value_that_is_not_a_state_is_named(call: object, where: str) -> None:
    # legal_moves mutant 6, is_legal 2, apply 45-50, outcome 2, penalties 2 (the value or
    # the function's name lost). apply has two such checks: after an AttributeError
    # (``PASS`` asks the value for its outcome) and after the move matched no kind (42).
    with pytest.raises(ArgumentError) as info:
        call()
    assert str(info.value) == f"{where} needs a State, got '9-9@9-9'"


def test_setup_names_a_rules_value_that_is_not_rules() -> None:
    # State.setup mutant 6 (``brief(None)``).
    with pytest.raises(RulesError) as info:
        State.setup("double-9", hands=[], boneyard=[])
    assert str(info.value) == "rules='double-9' is invalid: must be a Rules object"
    assert info.value.field == "rules"


@pytest.mark.parametrize(("value", "shown"), [(42, "42"), (Tile(9, 3), "Tile(9, 3)")])
def test_apply_names_a_value_that_is_not_a_move(value: object, shown: str) -> None:
    # apply mutant 54 (``brief(None)``).
    s = deal(Rules(), seed=1)
    with pytest.raises(InvalidMoveError) as info:
        apply(s, value)
    assert str(info.value) == f"{shown} is not a move (expected a Move or its notation)"
    assert not is_legal(s, value)


def test_the_state_methods_give_what_the_functions_give() -> None:
    # State.is_legal mutants 1-4 (the state or the move not passed on) and State.to_json
    # 2, 4 (``indent`` not passed on). This deal's legal moves are 9-0, 9-3 and 9-8 on
    # the centre 9-9 (legal_moves' documented example).
    s = deal(Rules(), seed=1)
    assert s.is_legal("9-3@9-9") is True
    assert s.is_legal(Play(Tile(9, 8), Tile(9, 9))) is True
    assert s.is_legal("9-4@9-9") is False
    assert s.is_legal(DRAW) is False
    assert s.to_json(indent=2) == json.dumps(s.to_dict(), indent=2)
    assert s.to_json() == json.dumps(s.to_dict())
    assert "\n  " in s.to_json(indent=2)


def test_the_repr_shows_a_drawn_0_0(drew_0_0: State) -> None:
    # State.__repr__ mutants 10, 11 (``_drawn > 0``, ``>= 1``: 0-0, id 0, not shown). Two
    # toes on the centre are all SMALL's opening needs: the phase is "open".
    assert repr(drew_0_0) == (
        "<State turn=0 phase=open board=[3-3 3-0@3-3 3-1@3-3] hands=[2, 2] boneyard=3 drawn=0-0>"
    )


# -- LegalMoves -------------------------------------------------------------------------------------


def test_legal_moves_take_notation_count_and_show_their_moves() -> None:
    # LegalMoves.__contains__ mutants 1-3 (notation not parsed, or text that is not a
    # move counted in), count 1-6 and __repr__ 1, 2. The moves of this deal are 9-0, 9-3
    # and 9-8 on the centre (legal_moves' documented example).
    moves = legal_moves(deal(Rules(), seed=1))
    assert "9-3@9-9" in moves
    assert "9-4@9-9" not in moves  # a move, but not a legal one
    assert "junk" not in moves  # not a move at all
    assert moves.count() == 3
    counts = [moves.count(m) for m in ("9-0@9-9", moves[1], "9-4@9-9", DRAW, "junk")]
    assert counts == [1, 1, 0, 0, 0]
    assert repr(moves) == "<LegalMoves (9-0@9-9, 9-3@9-9, 9-8@9-9)>"


# -- is_legal ---------------------------------------------------------------------------------------


def test_is_legal_reads_notation_and_draws_of_a_named_tile() -> None:
    # is_legal mutants 8, 9 (notation not parsed: a legal move in text was refused),
    # 22 (``or``: AttributeError for an object that is not a move), 23-26 (``draw:X-Y``
    # refused when legal, or accepted for a tile outside the boneyard) and 27 (anything
    # that is not a move accepted). After 9-3@9-9 seat 1 has no 9: it must draw, and
    # may name any tile of the boneyard (the draw is its only listed move).
    s = deal(Rules(), seed=1)
    assert is_legal(s, "9-3@9-9") is True
    assert is_legal(s, Draw(s.boneyard[-1])) is False  # seat 0 can play: no draw at all
    s = apply(s, "9-3@9-9")
    assert [str(m) for m in legal_moves(s)] == ["draw"]
    back, held = s.boneyard[-1], s.hand(1)[0]
    assert is_legal(s, f"draw:{back}") is True
    assert is_legal(s, Draw(back)) is True
    assert is_legal(s, Draw(held)) is False  # a tile in a hand, not in the boneyard
    for value in (42, None, Tile(9, 9)):  # not moves
        assert is_legal(s, value) is False


def test_drawing_from_an_empty_boneyard_is_refused_with_the_reason() -> None:
    # _why_illegal mutant 19 (the reason padded).
    board = ["3-3", "3-1@3-3", "3-2@3-3", "1-1@3-1", "1-0@1-1", "2-2@3-2", "2-1@2-2"]
    s = State.setup(Rules(**SMALL), board=board, hands=[["0-0", "2-0"], ["3-0"]], boneyard=[])
    assert [str(m) for m in legal_moves(s)] == ["0-0@1-0", "2-0@1-0"]  # both on the open end 0
    assert _refused(s, "draw") == "draw by seat 0: the boneyard is empty"
