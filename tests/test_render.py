"""The plain-text picture of a round (``chickenfoot.render``).

Expected pictures are written out by hand from the positions (the terms of docs/rules.md and the position format of docs/formats.md): which
tiles are hubs, toes and lines follows from the board order alone.
"""

from __future__ import annotations

import chickenfoot as cf
from chickenfoot.render import render, render_compact, render_table
from helpers import EXAMPLE_PARTS, example_position, feet, position

T = cf.Tile


# The rules and the board of the example position of docs/formats.md (helpers.EXAMPLE_PARTS:
# double-three, 2 toes on the centre, 1 per foot), for the positions built on it here.
SMALL = {"hand_size": 3, "opening_toes": 2, "foot_toes": 1}
EXAMPLE_BOARD = EXAMPLE_PARTS["board"]


def spec_example(turn: int = 0) -> cf.State:
    """The example position itself, with ``turn`` to play."""
    return example_position(turn=turn)


def test_spec_example_picture() -> None:
    assert render(spec_example()) == "\n".join(
        [
            "Table: centre 3-3",
            "  hub 3-3 (centre): toes 2/2",
            "    toe 3-2: 3|2 2|1 -> open 1 on 2-1",
            "    toe 3-1: 3|1 1|0 -> open 0 on 1-0",
            "Turn: seat 0",
            "Hands:",
            "  seat 0: 2-0 (1 tile, 2 points)",
            "  seat 1: 2-2 (1 tile, 4 points)",
            "Boneyard: 3 tiles",
        ]
    )


def test_feet_closed_lines_and_pending_foot() -> None:
    s = feet()
    assert render(s) == "\n".join(
        [
            "Table: centre 4-4",
            "  hub 4-4 (centre): toes 2/2",
            "    toe 4-1: 4|1 1|1 -> closed by the hub 1-1",
            "    toe 4-2: 4|2 2|0 0|0 -> closed by the hub 0-0",
            "  hub 1-1 (closes the line of toe 4-1): toes 2/2",
            "    toe 1-0: 1|0 -> open 0 on 1-0",
            "    toe 3-1: 1|3 -> open 3 on 3-1",
            "  hub 0-0 (closes the line of toe 4-2): toes 1/2",
            "    toe 3-0: 0|3 -> open 3 on 3-0",
            "Pending: the foot 0-0 needs 1 more toe",
            "Turn: seat 0",
            "Hands:",
            "  seat 0: 2-1 4-3 (2 tiles, 10 points)",
            "  seat 1: 2-2 3-3 (2 tiles, 10 points)",
            "Boneyard: 2 tiles",
        ]
    )


def test_opening_in_progress_names_the_centre() -> None:
    s = position(
        max_pip=3,
        board=["3-3", "3-2@3-3"],
        hands=[["2-0", "1-0"], ["3-1", "2-2"]],
        boneyard=["1-1", "3-0", "0-0", "2-1"],
        turn=1,
        **SMALL,
    )
    assert render_table(s) == "\n".join(
        [
            "Table: centre 3-3",
            "  hub 3-3 (centre): toes 1/2",
            "    toe 3-2: 3|2 -> open 2 on 3-2",
            "Pending: the centre 3-3 needs 1 more toe",
        ]
    )
    # A fresh deal: the centre alone, needing every toe.
    fresh = cf.deal(cf.Rules(), seed=5)
    assert render_table(fresh) == (
        "Table: centre 9-9\n  hub 9-9 (centre): toes 0/6\nPending: the centre 9-9 needs 6 more toes"
    )


def test_drawn_tile_is_shown_with_the_turn() -> None:
    # Seat 1 holds only 2-2, which fits nowhere (ends 0 and 1): it must draw, and the front
    # of the boneyard is 1-1.
    s = cf.apply(spec_example(turn=1), "draw")
    text = render(s)
    assert "Turn: seat 1 (has drawn 1-1)" in text.splitlines()
    assert "  seat 1: 1-1 2-2 (2 tiles, 6 points)" in text.splitlines()
    assert text.endswith("Boneyard: 2 tiles")


def test_out_shows_empty_hand_and_winner() -> None:
    # Seat 0 lays its last tile 2-0 on the open end 0 of 1-0 (the example's only legal move).
    s = cf.apply(spec_example(), "2-0@1-0")
    assert render(s) == "\n".join(
        [
            "Table: centre 3-3",
            "  hub 3-3 (centre): toes 2/2",
            "    toe 3-2: 3|2 2|1 -> open 1 on 2-1",
            "    toe 3-1: 3|1 1|0 0|2 -> open 2 on 2-0",
            "Over: seat 0 went out",
            "Hands:",
            "  seat 0: none (0 tiles, 0 points)",
            "  seat 1: 2-2 (1 tile, 4 points)",
            "Boneyard: 3 tiles",
        ]
    )


def test_blocked_with_a_foot_that_can_never_be_served() -> None:
    # Every tile carrying 1 is on the table when 1-1 closes the line of 3-2, so its foot
    # stays pending; the boneyard is empty and 2-0, 2-2 carry no 1: blocked (R10).
    s = position(
        max_pip=3,
        board=[*EXAMPLE_BOARD, "0-0@1-0", "3-0@0-0", "1-1@2-1"],
        hands=[["2-0"], ["2-2"]],
        boneyard=[],
        **SMALL,
    )
    assert s.outcome() == cf.Outcome(cf.Termination.BLOCKED)
    assert render(s) == "\n".join(
        [
            "Table: centre 3-3",
            "  hub 3-3 (centre): toes 2/2",
            "    toe 3-2: 3|2 2|1 1|1 -> closed by the hub 1-1",
            "    toe 3-1: 3|1 1|0 0|0 -> closed by the hub 0-0",
            "  hub 0-0 (closes the line of toe 3-1): toes 1/1",
            "    toe 3-0: 0|3 -> open 3 on 3-0",
            "  hub 1-1 (closes the line of toe 3-2): toes 0/1",
            "Pending: the foot 1-1 needs 1 more toe",
            "Over: blocked (the boneyard is empty and nobody can play)",
            "Hands:",
            "  seat 0: 2-0 (1 tile, 2 points)",
            "  seat 1: 2-2 (1 tile, 4 points)",
            "Boneyard: 0 tiles",
        ]
    )


def test_double_blank_points_follow_the_rules() -> None:
    s = position(
        max_pip=3,
        board=EXAMPLE_BOARD,
        hands=[["2-0", "0-0"], ["2-2"]],
        boneyard=["1-1", "3-0"],
        double_blank=25,
        **SMALL,
    )
    assert "  seat 0: 0-0 2-0 (2 tiles, 27 points)" in render(s).splitlines()


def test_holder_mode_before_the_centre_is_laid() -> None:
    s = cf.deal(cf.Rules.preset("classic"), seed=3)
    assert not s.centre_laid
    assert s.table.hubs == ()
    lines = render(s).splitlines()
    assert lines[0] == "Table: empty (the centre 9-9 is not laid yet)"
    assert lines[1] == f"Turn: seat {s.turn}"
    assert lines[-1] == f"Boneyard: {55 - 4 * 7} tiles"


FEET_TABLE = [
    "centre 4-4  (2/2 toes)",
    "  ├ 4|1 1|1 ▪ foot 1-1",
    "  └ 4|2 2|0 0|0 ▪ foot 0-0",
    "foot 1-1  (2/2 toes)",
    "  ├ 1|0 → 0",
    "  └ 1|3 → 3",
    "foot 0-0  (1/2 toes, needs 1 more toe)",
    "  └ 0|3* → 3",
]


def test_compact_picture_of_a_whole_table() -> None:
    assert render_compact(feet()) == "\n".join(
        [
            *FEET_TABLE,
            "seat 0 to play · boneyard 2",
            "  seat 0: 2-1 4-3 (2 tiles, 10 points)",
            "  seat 1: 2-2 3-3 (2 tiles, 10 points)",
        ]
    )


def test_compact_picture_as_one_seat_sees_it() -> None:
    expected = "\n".join(
        [
            *FEET_TABLE,
            "seat 0 to play · boneyard 2",
            "  seat 0: 2 tiles",
            "> seat 1: 2-2 3-3 (2 tiles, 10 points)",
        ]
    )
    assert render_compact(feet(), seat=1) == expected
    assert render_compact(feet().view(1)) == expected


def test_compact_picture_status_rows() -> None:
    drawn = cf.apply(spec_example(turn=1), "draw")
    assert render_compact(drawn).splitlines()[3] == "seat 1 to play · has drawn 1-1 · boneyard 2"
    out = cf.apply(spec_example(), "2-0@1-0")
    lines = render_compact(out).splitlines()
    assert lines[:3] == ["centre 3-3  (2/2 toes)", "  ├ 3|2 2|1 → 1", "  └ 3|1 1|0 0|2* → 2"]
    assert lines[3] == "over: seat 0 went out · boneyard 3"
    assert lines[4] == "  seat 0: none (0 tiles, 0 points)"
    holder = cf.deal(cf.Rules.preset("classic", players=2), seed=3)
    assert render_compact(holder).splitlines()[0] == "table empty: the centre 9-9 is not laid yet"


def test_compact_picture_wraps_long_hands() -> None:
    # Two players with double-nine hold 20 tiles each: 20 * 4 characters do not fit in 80.
    s = cf.deal(cf.Rules(players=2), seed=1)
    rows = render_compact(s).splitlines()
    seat0 = [r for r in rows if r.startswith("  seat 0: ")]
    assert len(seat0) == 1
    first = rows.index(seat0[0])
    block = [seat0[0]]
    for row in rows[first + 1 :]:
        if not row.startswith(" " * 10):
            break
        block.append(row)
    assert len(block) > 1 and all(len(r) <= 80 for r in block)
    # the continuation rows stand under the first tile, and nothing is lost
    assert " ".join(r.strip() for r in block).removeprefix("seat 0: ") == (
        " ".join(map(str, s.hand(0))) + f" (20 tiles, {s.penalties()[0]} points)"
    )
    # a wider terminal keeps the row whole
    assert "  seat 0: " + " ".join(map(str, s.hand(0))) in render_compact(s, width=200)
