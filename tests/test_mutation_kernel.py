"""The kernel (``chickenfoot._kernel``) and the State face: behaviour mutation testing found untested.

Issue 20 moved the rules kernel out of ``state.py``; the mutation run after the move
(``python bench/mutation.py _kernel state playout``) found these gaps. Each test names the
mutants it kills (``bench/mutation.md`` lists them, with the equivalent survivors).
Expected values are worked out from the rules (docs/rules.md) and the kernel's contract
(its docstrings), not copied from a run.

Positions are in the double-3 set, whose tile ids are ``high * (high + 1) / 2 + low``:
0-0 0, 1-0 1, 1-1 2, 2-0 3, 2-1 4, 2-2 5, 3-0 6, 3-1 7, 3-2 8, 3-3 9.
"""

from __future__ import annotations

import pytest

import chickenfoot._kernel.position as position_module
from chickenfoot import ArgumentError, Rules, State, apply, deal, render_compact

# -- the hook that makes positions States --------------------------------------------------------


def test_build_as_refuses_a_class_without_the_slots_of_a_position() -> None:
    # position.build_as mutants 5 (``getattr`` without its default: a class with no
    # ``__slots__`` raised AttributeError) and 9 (``TypeError(None)``), and 10 (``_face =
    # None``: no position could be built). The kernel builds positions as the class it is
    # handed, so a class whose slots are not a position's is refused before it is kept.
    class Plain:
        pass

    class Short:
        __slots__ = ("board", "rules")

    for cls in (Plain, Short):
        with pytest.raises(
            TypeError, match=rf"^{cls.__name__} does not have the slots of a position: \("
        ):
            position_module.build_as(cls)
    # the refused classes were not kept: positions are still States
    assert type(deal(Rules(players=2), seed=1)) is State
    assert position_module.is_state(deal(Rules(players=2), seed=1))


# -- the derived table after a play (lay) --------------------------------------------------------

SMALL = {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}
# bits of the tiles showing 0 or 1: 0-0, 1-0, 1-1, 2-0, 2-1, 3-0, 3-1
SHOWING_0_OR_1 = sum(1 << t for t in (0, 1, 2, 3, 4, 6, 7))


def test_the_last_toe_of_the_centre_leaves_no_hub_pending() -> None:
    # transitions.lay mutants 23 (``-2`` for ``-1``) and 24 (``need`` 1 for 0): the fields
    # the kernel's contract defines (position.py) after the centre's second toe, R6: no hub
    # is pending (-1, with 0 toes needed); the lines end in 0 (on 3-0) and 1 (on 3-1), and
    # every tile showing 0 or 1 has a play. (test_batch.py kills both too, slowly, by
    # comparing with the batch engine.)
    s = State.setup(
        Rules(**SMALL),
        board=["3-3", "3-0@3-3"],
        hands=[["3-1", "2-2"], ["2-0", "1-0"]],
        boneyard=["0-0", "1-1", "2-1", "3-2"],
    )
    assert (s._pending, s._need) == (9, 1)  # the centre 3-3 needs one more toe
    after = s.apply("3-1@3-3")
    assert (after._pending, after._need) == (-1, 0)
    assert after._nums == 0b11
    assert after._ends[0] == 1 << 6 and after._ends[1] == 1 << 7  # 3-0, 3-1
    # (the masks are over the largest set: look at the double-3 set's ten tiles)
    assert after._mask & ((1 << 10) - 1) == SHOWING_0_OR_1
    assert after.pending_hub is None and after.toes_needed == 0
    # position.settle mutant 32 (``-2`` for ``-1`` after the hub's last toe): the position
    # reader derives the same table from the same board
    read = State.setup(
        Rules(**SMALL),
        board=["3-3", "3-0@3-3", "3-1@3-3"],
        hands=[["2-2"], ["2-0", "1-0"]],
        boneyard=["0-0", "1-1", "2-1", "3-2"],
        turn=1,
    )
    assert read == after
    assert (read._pending, read._need, read._nums) == (-1, 0, 0b11)
    assert read._ends == after._ends and read._mask == after._mask


def test_the_table_after_going_out_is_the_table_of_the_last_play() -> None:
    # transitions.do_play mutant 48 (``None`` for the numbers the lines end in, in the state
    # of a seat that has just gone out). Seat 0 lays its last tile 1-0 on 3-1: the end 1
    # closes and the new end is 0, so both lines end in 0 (on 3-0 and on 1-0), R10: seat 0
    # went out.
    s = State.setup(
        Rules(**SMALL),
        board=["3-3", "3-0@3-3", "3-1@3-3"],
        hands=[["1-0"], ["2-2", "2-0"]],
        boneyard=["0-0", "1-1", "2-1", "3-2"],
    )
    end = s.apply("1-0@3-1")
    assert end.is_over() and str(end.outcome()) == "seat 0 went out"
    assert end._ends[0] == (1 << 6) | (1 << 1) and end._ends[1] == 0
    assert end._nums == 0b1
    assert (end._pending, end._need) == (-1, 0)


def test_a_position_read_before_the_centre_has_one_open_end_row_per_number() -> None:
    # position.settle mutants 5 (a row too many in ``_ends``) and 9 (``need`` 1 on an empty
    # board): the fields the kernel's contract defines for a holder-mode position read before
    # the centre is laid (R5): ``_ends`` has one row per number 0..max_pip, all empty; no hub
    # needs toes; the only play is the centre 3-3 (id 9). (test_batch.py kills both too.)
    s = State.setup(
        Rules(**SMALL, centre="holder"),
        hands=[["3-3", "2-1", "0-0"], ["2-2", "2-0", "1-0"]],
        boneyard=["1-1", "3-2", "3-1", "3-0"],
    )
    assert s._ends == (0, 0, 0, 0)
    assert s._need == 0 and s._nums == 0
    assert s._mask == 1 << 9
    assert [str(m) for m in s.legal_moves] == ["3-3"]


# -- apply's errors --------------------------------------------------------------------------


def test_an_attribute_error_of_the_moves_own_making_is_not_blamed_on_the_state() -> None:
    # transitions.apply mutant 38 (``is_state(None)`` in the ``except AttributeError``:
    # every AttributeError raised while applying a move to a real State became "apply needs a
    # State, got State(...)"). apply names the state only when it is not a State; an error
    # raised by the move's own code (here a str subclass whose ``startswith`` fails) goes
    # through unchanged.
    class Odd(str):
        def startswith(self, *args: object) -> bool:
            raise AttributeError("odd text")

    s = deal(Rules(players=2), seed=1)
    with pytest.raises(AttributeError, match=r"^odd text$"):
        apply(s, Odd("draw:1-0"))
    with pytest.raises(ArgumentError, match=r"^apply needs a State, got None$"):
        apply(None, Odd("draw:1-0"))  # type: ignore[arg-type]


# -- the State face --------------------------------------------------------------------------


def test_str_of_a_state_is_its_compact_picture_80_columns_wide() -> None:
    # state.State.__str__ mutants 1-5 (``draw_state`` given ``None`` for the state or the
    # width, an argument dropped, or 81 columns): no test of the suite printed a State.
    # ``print(state)`` draws what render_compact draws, 80 columns wide (the docstring's
    # example: seat 0's first row of 17 tiles is 77 columns, so 9-3 goes to the next row).
    s = deal(Rules(players=2), seed=1).apply("9-0@9-9")
    text = str(s)
    assert text == render_compact(s) == render_compact(s, width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "  seat 0: 1-1 2-1 2-2 3-3 4-1 4-2 4-3 4-4 5-0 5-5 6-0 6-1 7-2 7-4 8-0 8-3 8-7\n" in text
