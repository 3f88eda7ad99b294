"""Rules, deal and playout: behaviour that mutation testing (``nox -s mutation``) found untested.

Each test names the mutants it kills (``bench/mutation.md`` lists them with the equivalent
survivors). Expected values are worked out from the rules (docs/rules.md) and the formats
(docs/formats.md), not copied from a run.
"""

from __future__ import annotations

import random

import pytest

from chickenfoot import (
    ArgumentError,
    IllegalMoveError,
    Rules,
    RulesError,
    State,
    Threshold,
    apply,
    deal,
    is_legal,
    legal_moves,
    playout,
    shuffled_tiles,
)
from chickenfoot.tiles import DOUBLE_ID

FIELDS = (
    "players, max_pip, hand_size, opening_toes, foot_toes, double_blank, centre, draw, "
    "drawn_tile, may_draw_instead, match, tie_break, first_leader"
)


# -- rules: messages ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "shown"),
    [
        (40, "f" * 40),  # up to 40 characters: the name as it is
        (41, repr("f" * 40) + "... (41 characters)"),  # longer: cut to 40, length said
        (61, repr("f" * 40) + "... (61 characters)"),
    ],
)
def test_an_unknown_field_name_is_cut_to_40_characters(length: int, shown: str) -> None:
    # rules._fail mutants 3-10: the bound (``< 40``, ``<= 41``, always kept), the value cut
    # (``brief(None, ...)``, ``brief(40)``) and the limit (none, 41, brief's default of 60).
    name = "f" * length
    message = f"{shown}=1 is invalid: not a rules field (fields: {FIELDS})"
    with pytest.raises(RulesError) as info:
        Rules(**{name: 1})
    assert str(info.value) == message
    assert info.value.field == name
    with pytest.raises(RulesError) as info:
        Rules.from_dict({name: 1})
    assert str(info.value) == message


def test_a_threshold_with_a_non_boolean_inclusive_gets_its_whole_message() -> None:
    # Rules.__attrs_post_init__ mutant 193 (``XXinclusive must be true or falseXX``): the
    # other texts of what would be valid are whole in test_messages.py, this one was not.
    # (Issue 18: the Threshold checks itself now, with its own whole message.)
    with pytest.raises(RulesError) as info:
        Rules(match=Threshold(100, inclusive=1))  # type: ignore[arg-type]
    assert str(info.value) == "inclusive=1 is invalid: must be true or false"
    assert info.value.field == "match"


@pytest.mark.parametrize(("key", "shown"), [(5, "5"), (("a", 1), "('a', 1)"), (b"x", "b'x'")])
def test_a_key_that_is_not_a_string_is_named_by_its_repr(key: object, shown: str) -> None:
    # Rules.from_dict mutants 16 (the key used as it is: ``len()`` of an int raised
    # TypeError) and 17 (``brief(None)``): a JSON-like mapping may have any keys.
    with pytest.raises(RulesError) as info:
        Rules.from_dict({key: 1})
    assert str(info.value) == f"{shown}=1 is invalid: not a rules field (fields: {FIELDS})"
    assert info.value.field == shown


# -- deal ---------------------------------------------------------------------------------------


def test_shuffled_tiles_defaults_to_round_0() -> None:
    # deal.shuffled_tiles mutant 1 (default ``round=1``). docs/formats.md, seeded deals: the
    # tiles to deal in id order (55 in the double-9 set, without the centre 9-9, id 54, in
    # set_aside mode), shuffled by random.Random("7:0").
    expected = [t for t in range(55) if t != 54]
    random.Random("7:0").shuffle(expected)
    assert shuffled_tiles(Rules(), 7) == expected
    assert shuffled_tiles(Rules(), 7, 0) == expected
    hand = deal(Rules(), seed=7).hand(0)
    assert sorted(t.id for t in hand) == sorted(expected[:11])


@pytest.mark.parametrize("rules", ["house", None, {"players": 4}])
def test_deal_needs_a_rules_object(rules: object) -> None:
    # deal mutants 3-9: the message, its value and the error's field.
    with pytest.raises(RulesError) as info:
        deal(rules, seed=1)  # type: ignore[arg-type]
    assert str(info.value) == f"rules={rules!r} is invalid: must be a Rules object"
    assert info.value.field == "rules"


ROUND_RULE = "must be a non-negative integer of at most 4,000 digits"


@pytest.mark.parametrize(
    ("round", "shown"),
    [
        (-1, "-1"),
        (1.5, "1.5"),
        ("0", "'0'"),
        (False, "False"),
        (10**4000, "an integer of about 4,001 digits"),
    ],
)
def test_deal_rejects_a_round_that_is_not_a_small_enough_count(round: object, shown: str) -> None:
    # deal mutants 25, 26: the end of the text changed (test_cli.py checks only the start
    # of the message, test_hardening.py only that a huge round is an ArgumentError).
    with pytest.raises(ArgumentError) as info:
        deal(Rules(), seed=1, round=round)  # type: ignore[arg-type]
    assert str(info.value) == f"round={shown} is invalid: {ROUND_RULE}"


def test_deal_accepts_seeds_and_rounds_of_4000_digits() -> None:
    # The bound is exactly the one the message states (it was 13,000 bits, about 3,914
    # digits, while the message promised 4,000): 10**4000 - 1 has 4,000 digits.
    top = 10**4000 - 1
    for seed, round in ((top, 0), (-top, 0), (1, top)):
        s = deal(Rules(), seed=seed, round=round)
        assert s.centre.id == DOUBLE_ID[9 - round % 10]
    with pytest.raises(ArgumentError, match="at most 4,000 digits"):
        deal(Rules(), seed=top + 1)


def test_deal_accepts_a_seed_and_a_round_of_13000_bits() -> None:
    # deal mutants 13 and 22 (``bit_length() >= 13000``): 2**12999 has 13,000 bits and
    # 3,914 digits, within the 4,000 digits allowed. The generator's seed is the text
    # "S:k", so the deal is the shuffle of that text.
    big = 2**12999
    for seed, round in ((big, 0), (-big, 0), (1, big)):
        s = deal(Rules(), seed=seed, round=round)
        centre = 9 - round % 10
        assert s.centre.id == DOUBLE_ID[centre]
        tiles = [t for t in range(55) if t != DOUBLE_ID[centre]]
        random.Random(f"{seed}:{round}").shuffle(tiles)
        assert [t.id for t in s.boneyard] == tiles[44:]


# -- playout ------------------------------------------------------------------------------------


VARIANTS = [
    Rules(),
    Rules(may_draw_instead=True),
    Rules(drawn_tile="may_play"),
    Rules(draw="until_playable"),
    Rules.preset("classic"),
]


def _api_loop(s: State, rng: random.Random) -> State:
    while not s.is_over():
        s = apply(s, rng.choice(legal_moves(s)))
    return s


@pytest.mark.parametrize(
    "rules", VARIANTS, ids=["house", "draw-instead", "may-play", "until-playable", "classic"]
)
def test_a_random_playout_keeps_the_whole_history(rules: Rules) -> None:
    # _random_playout mutants 33, 57, 59, 106, 108, 173, 270 (``log = None`` at the start,
    # after a forced draw, a forced pass, a draw instead of a play, a pass with a playable
    # drawn tile, a play, and in the final state): the history, which is not part of
    # equality, lost moves. The moves made before the playout started stay at its front.
    for seed in range(4):
        s = deal(rules, seed=seed)
        for _ in range(3):
            s = apply(s, legal_moves(s)[0])
        before = s.history
        assert len(before) == 3
        end = playout(s, random.Random(seed))
        slow = _api_loop(s, random.Random(seed))
        assert end == slow
        assert end.history[:3] == before
        assert end.history == slow.history


def test_a_random_playout_may_pass_with_a_drawn_0_0() -> None:
    # _random_playout mutants 98, 99 (``d <= 0``, ``d < 1`` where the extra move is chosen):
    # tile 0-0 has id 0, so when 0-0 is the drawn tile the extra move (here: pass, as
    # drawn_tile is may_play) was taken for a draw. Seat 0 drew 0-0, which plays on the
    # open end 0 of 3-0: the legal moves are 0-0@3-0 and pass.
    rules = Rules(
        players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1, drawn_tile="may_play"
    )
    s = State.setup(
        rules,
        board=["3-3", "3-0@3-3", "3-1@3-3"],
        hands=[["2-2", "0-0"], ["2-1", "2-0"]],
        boneyard=["1-1", "3-2", "1-0"],
        drawn="0-0",
    )
    assert [str(m) for m in legal_moves(s)] == ["0-0@3-0", "pass"]
    first = set()
    for seed in range(12):
        end = playout(s, random.Random(seed))
        slow = _api_loop(s, random.Random(seed))
        assert end == slow
        assert end.history == slow.history
        first.add(str(end.history[1].move))  # history[0] is seat 0's draw of 0-0
    assert first == {"0-0@3-0", "pass"}


@pytest.mark.parametrize("seed", range(3))
def test_a_play_after_a_random_playout_is_refused_as_the_round_is_over(seed: int) -> None:
    # _random_playout mutant 267 (the final state built with ``mask=None``): checking a
    # play reads the mask before the outcome and raised TypeError.
    s = deal(Rules(), seed=seed)
    m = legal_moves(s)[0]
    end = playout(s, random.Random(seed))
    assert end.is_over()
    reason = f"seat {end.outcome().seat} went out" if end.outcome().seat is not None else "blocked"
    assert not is_legal(end, m)
    assert m not in legal_moves(end)
    with pytest.raises(IllegalMoveError) as info:
        apply(end, m)
    assert str(info.value) == f"{m} by seat {end.turn}: the round is over ({reason})"


def test_playout_of_a_non_state_names_the_value() -> None:
    # playout mutant 3 (``brief(None)``: "got None"); test_hardening.py matches only the
    # start of this message.
    with pytest.raises(ArgumentError) as info:
        playout("9-9@9-9")  # type: ignore[arg-type]
    assert str(info.value) == "playout needs a State, got '9-9@9-9'"
