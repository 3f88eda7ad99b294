"""SVG pictures (``chickenfoot.svg``): what is drawn, where, and that nothing overlaps.

The pictures are read back with ElementTree: every domino is a ``<g class="domino ...">``
with its tile and its box, so the checks do not depend on how a domino is drawn inside.
Two dominoes overlap when their boxes share interior area (touching edges do not count).
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.errors import ArgumentError
from strategies import positions, rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from pictures import catalogue

NS = {"svg": "http://www.w3.org/2000/svg"}
Box = tuple[float, float, float, float]


def read(picture: str) -> tuple[list[tuple[str, str, Box]], list[Box]]:
    """The dominoes ``(role, tile, box)`` and the dashed toe slots of a picture."""
    root = ET.fromstring(picture)
    dominoes = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        classes = g.get("class", "").split()
        if classes[:1] == ["domino"]:
            x0, y0, x1, y1 = map(float, g.get("data-box", "").split())
            dominoes.append((classes[1], g.get("data-tile", ""), (x0, y0, x1, y1)))
    slots = []
    for r in root.iter("{http://www.w3.org/2000/svg}rect"):
        if r.get("class") == "slot":
            x, y = float(r.get("x", "")), float(r.get("y", ""))
            slots.append((x, y, x + float(r.get("width", "")), y + float(r.get("height", ""))))
    return dominoes, slots


def overlap(a: Box, b: Box, eps: float = 1e-6) -> bool:
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def overlapping_pairs(boxes: list[Box]) -> list[tuple[int, int]]:
    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    pairs = []
    for n, i in enumerate(order):
        for j in order[n + 1 :]:
            if boxes[j][0] >= boxes[i][2]:
                break
            if overlap(boxes[i], boxes[j]):
                pairs.append((i, j))
    return pairs


def check(s: cf.State, picture: str, hands: Any = "none", seat: int | None = None) -> None:
    dominoes, slots = read(picture)
    table = [(role, tile, box) for role, tile, box in dominoes if role != "hand"]
    held = [(tile, box) for role, tile, box in dominoes if role == "hand"]
    # every board tile exactly once, and nothing else on the table
    assert sorted(tile for _, tile, _ in table) == sorted(str(m.tile) for m in s.board)
    # dominoes have the size of a domino: 2 by 1 lying, 1 by 2 standing
    for _, _, (x0, y0, x1, y1) in dominoes:
        assert sorted((round(x1 - x0, 6), round(y1 - y0, 6))) == [1.0, 2.0]
    # doubles on the table stand crosswise, other tiles lie along their line
    for role, tile, (x0, y0, x1, y1) in table:
        assert (y1 - y0 > x1 - x0) == cf.Tile.parse(tile).is_double, (role, tile)
    # nothing overlaps: dominoes, hands and the dashed slots of missing toes
    boxes = [box for _, _, box in dominoes] + slots
    assert overlapping_pairs(boxes) == []
    # slots: the toes the pending hub still needs
    assert len(slots) == (s.toes_needed if s.pending_hub is not None else 0)
    # hands: face up for the seats shown, face down for the others in a seat's view
    seats = [] if hands == "none" else list(range(s.players)) if hands == "all" else [hands]
    shown = [t for seat_ in seats for t in s.hand(seat_) if seat is None or seat_ == seat]
    hidden = sum(s.hand_sizes[k] for k in seats if seat is not None and k != seat)
    assert sorted(t for t, _ in held if t) == sorted(map(str, shown))
    assert sum(1 for t, _ in held if not t) == hidden


@pytest.mark.parametrize(
    ("stem", "state", "options"),
    [(stem, state, options) for stem, _, state, options in catalogue()],
    ids=[stem for stem, *_ in catalogue()],
)
def test_catalogue_pictures(stem: str, state: cf.State, options: dict[str, Any]) -> None:
    check(state, cf.svg(state, **options), options.get("hands", "none"), options.get("seat"))


@settings(max_examples=60, deadline=None)
@given(
    positions(rules(max_pip=13)),
    st.sampled_from(["none", "all", 0]),
    st.one_of(st.none(), st.just(1)),
)
def test_property_every_tile_once_and_nothing_overlaps(
    s: cf.State, hands: Any, seat: int | None
) -> None:
    check(s, cf.svg(s, hands=hands, seat=seat), hands, seat)


def test_the_overlap_check_can_fail() -> None:
    assert overlapping_pairs([(0, 0, 2, 1), (1.9, 0.5, 3.9, 1.5)]) == [(0, 1)]
    assert overlapping_pairs([(0, 0, 2, 1), (2, 0, 4, 1), (0, 1, 2, 2)]) == []


def test_highlights_and_captions() -> None:
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9")
    picture = cf.svg(s)
    root = ET.fromstring(picture)
    outlines = {
        g.get("data-tile"): [r.get("stroke") for r in g.findall("svg:rect", NS)][-1]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
    }
    assert outlines["9-9"] == "#e67e22"  # the pending hub, orange
    assert outlines["9-3"] == "#1e6fd9"  # the last tile laid, blue
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "seat 1 to play · boneyard 10 · 9-9 needs 5 more toes" in texts
    assert "last: seat 0 played 9-3@9-9" in texts
    # seat 1 holds no 9 and draws 6-3: the full picture names the tile, seat 0's view not
    drawn = s.apply("draw")
    assert ">last: seat 1 drew 6-3</text>" in cf.svg(drawn)
    assert ">last: seat 1 drew</text>" in cf.svg(drawn.view(0))
    assert "seat 1 to play (has drawn 6-3)" in cf.svg(drawn)
    # numerals above nine, dots up to nine
    big = cf.deal(cf.Rules(players=10, max_pip=15, hand_size=10), seed=1)
    assert ">15</text>" in cf.svg(big) and "<circle" not in cf.svg(big)


def test_size_sets_the_width() -> None:
    s = cf.deal(cf.Rules(), seed=1)
    head = cf.svg(s, size=900).split(">", 1)[0]
    assert 'width="900"' in head
    natural = cf.svg(s).split(">", 1)[0]
    assert 'width="900"' not in natural


def test_holder_mode_before_the_centre_is_laid() -> None:
    s = cf.deal(cf.Rules.preset("classic"), seed=3)
    picture = cf.svg(s)
    assert "the centre 9-9 is not laid yet" in picture and "<g class" not in picture


def test_jupyter_draws_states_and_views() -> None:
    s = cf.deal(cf.Rules(players=2), seed=3)
    assert s._repr_svg_() == cf.svg(s, hands="all")  # type: ignore[attr-defined]
    v = s.view(1)
    assert v._repr_svg_() == cf.svg(v, hands="all")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"size": 0}, ArgumentError, "size=0 is invalid: must be an int from 16 to 20000"),
        ({"size": 1.5}, ArgumentError, "size=1.5 is invalid: must be an int from 16 to 20000"),
        ({"hands": 4}, cf.SeatError, "hands=4 is invalid: must be 'none', 'all' or a seat from 0 to 3"),
        ({"hands": "some"}, cf.SeatError, "hands='some' is invalid: must be 'none', 'all' or a seat from 0 to 3"),
        ({"seat": -1}, cf.SeatError, "seat=-1 is invalid: must be a seat from 0 to 3"),
    ],
)  # fmt: skip
def test_bad_options(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    s = cf.deal(cf.Rules(), seed=1)
    with pytest.raises(error) as err:
        cf.svg(s, **kwargs)
    assert str(err.value) == message


def test_bad_positions() -> None:
    with pytest.raises(ArgumentError, match="expected a State or a View, got None"):
        cf.svg(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="a View is already one seat's picture"):
        cf.svg(cf.deal(cf.Rules(), seed=1).view(0), seat=1)


def read_targets(picture: str) -> list[tuple[str, Box]]:
    """The glowing places of a picture drawn with ``targets=``: ``(move, box)``."""
    root = ET.fromstring(picture)
    return [
        (g.get("data-move", ""), tuple(map(float, g.get("data-box", "").split())))  # type: ignore[misc]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "target"
    ]


@settings(max_examples=60, deadline=None)
@given(positions(), st.booleans())
def test_property_targets_lie_where_each_legal_move_lays_its_tile(
    s: cf.State, as_view: bool
) -> None:
    position = s.view(s.turn) if as_view else s
    legal = [m for m in s.legal_moves if isinstance(m, cf.Play)]
    picture = cf.svg(position, targets=s.legal_moves)
    targets = read_targets(picture)
    assert sorted(move for move, _ in targets) == sorted(m.notation() for m in legal)
    dominoes, slots = read(picture)
    boxes = {tile: box for _, tile, box in dominoes}
    for move, (x0, y0, x1, y1) in targets:
        play = cf.parse_move(move)
        assert isinstance(play, cf.Play)
        assert sorted((round(x1 - x0, 6), round(y1 - y0, 6))) == [1.0, 2.0]
        # no glowing place covers a domino of the table
        assert all(not overlap((x0, y0, x1, y1), b) for b in boxes.values()), move
        if play.anchor is None:  # the centre's lay (holder mode): the centre's place
            assert (x0, y0, x1, y1) == (-0.5, -1.0, 0.5, 1.0)
        elif s.pending_hub == play.anchor:  # a toe: the hub's first dashed slot
            assert any((x0, y0, x1, y1) == pytest.approx(slot, abs=1e-3) for slot in slots)
        else:  # beyond the line's last tile, on its row, next to it
            a = boxes[str(play.anchor)]
            assert (y0 + y1) / 2 == pytest.approx((a[1] + a[3]) / 2)
            gap = x0 - a[2] if x0 >= a[2] else a[0] - x1
            assert 0 <= gap < 0.5, (move, a, (x0, x1))


def test_targets_change_nothing_else_and_are_checked() -> None:
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9")
    assert cf.svg(s, targets=[]) == cf.svg(s) == cf.svg(s, targets=None)
    assert cf.svg(s, targets=["draw"]) == cf.svg(s)
    glowing = cf.svg(s, targets=["9-4@9-9"])
    assert glowing.count('class="target"') == 1 and "<title>9-4 on 9-9</title>" in glowing
    with pytest.raises(ArgumentError, match=r"targets: 7-1@7-7 has no open place on this table"):
        cf.svg(s, targets=["7-1@7-7"])  # 7-7 is not on the table
    with pytest.raises(ArgumentError, match="must be moves"):
        cf.svg(s, targets="9-4@9-9")  # type: ignore[arg-type]
    with pytest.raises(cf.ChickenFootError):
        cf.svg(s, targets=["nonsense"])
