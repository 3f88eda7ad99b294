"""The ladder's ratings picture (chickenfoot.ladder.ratings_svg): its structure. Drawn in
Chromium: tests/test_ladder_browser.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from chickenfoot.ladder import Rating, ratings_svg

NS = "{http://www.w3.org/2000/svg}"
RATINGS = [
    Rating("ismcts:50ms", 31.5, 1.2),
    Rating("engine:'./bot --x=1 & <y>'", 25.0, 2.5),
    Rating("random", 12.25, 0.75),
]


def _groups(picture: str) -> list[ET.Element]:
    root = ET.fromstring(picture)  # well-formed XML, names escaped
    assert root.tag == f"{NS}svg"
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "rating"]


def test_one_group_per_rating_in_order_with_its_numbers() -> None:
    groups = _groups(ratings_svg(RATINGS))
    assert [g.get("data-agent") for g in groups] == [r.agent for r in RATINGS]
    assert [float(g.get("data-mu", "")) for g in groups] == [31.5, 25.0, 12.25]
    assert [float(g.get("data-sigma", "")) for g in groups] == [1.2, 2.5, 0.75]


def test_the_bar_spans_two_sigma_each_side_of_the_dot() -> None:
    groups = _groups(ratings_svg(RATINGS))
    xs = []
    for g, r in zip(groups, RATINGS, strict=True):
        line = g.find(f"{NS}line")
        dot = g.find(f"{NS}circle")
        assert line is not None and dot is not None
        x1, x2, cx = float(line.get("x1", "")), float(line.get("x2", "")), float(dot.get("cx", ""))
        assert abs((cx - x1) - (x2 - cx)) < 0.2  # the dot in the middle
        xs.append((x1, cx, x2, r))
    # one scale for every row: pixels per point the same
    scales = {round((x2 - x1) / (4 * r.sigma), 1) for x1, _, x2, r in xs}
    assert len(scales) == 1
    assert xs[0][1] > xs[1][1] > xs[2][1]  # higher mu further right
    rows = [float(g.find(f"{NS}circle").get("cy", "")) for g in groups]  # type: ignore[union-attr]
    assert rows == sorted(rows)  # listed top down


def test_an_empty_ladder_draws_an_empty_axis() -> None:
    picture = ratings_svg([])
    assert _groups(picture) == [] and picture.count("<text") >= 2
