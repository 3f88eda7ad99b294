"""The rules page's pictures (``tools/rules_pictures.py``, drawn at site build time by
``tools/docs_hooks.py``): each position shows the rule its caption names, and the page holds
a marker for each picture, once, under that rule's heading."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import chickenfoot as cf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from rules_pictures import rules_pictures

ROOT = Path(__file__).resolve().parent.parent

PICTURES = {stem: (caption, state, options) for stem, caption, state, options in rules_pictures()}
MARKER = re.compile(r"<!-- rules-picture: ([\w-]+) -->")


def _plays(s: cf.State) -> list[str]:
    return [str(m) for m in s.legal_moves if isinstance(m, cf.Play)]


def _rule_of_each_marker() -> dict[str, str]:
    """Each marker's stem and the heading of the section it stands in."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for m in MARKER.finditer(text):
        assert m[1] not in out, f"the picture {m[1]} is placed twice"
        heading = re.findall(r"^#+ (.+)$", text[: m.start()], re.MULTILINE)[-1]
        out[m[1]] = heading
    return out


def test_every_picture_is_placed_once_under_its_rule() -> None:
    placed = _rule_of_each_marker()
    assert sorted(placed) == sorted(PICTURES)
    for stem, heading in placed.items():
        rule = heading.split(" ")[0]  # "R6"
        assert rule in PICTURES[stem][0].split(",")[0], (stem, heading)


def test_centre_and_its_toes() -> None:
    caption, s, options = PICTURES["centre-toes"]
    assert s.phase is cf.Phase.OPENING and s.centre == cf.Tile(9, 9)
    toes = len(s.board) - 1
    assert 0 < toes < s.rules.opening_toes
    assert f"has {toes} of its {s.rules.opening_toes} toes" in caption
    assert all(p.endswith("@9-9") for p in _plays(s)) and _plays(s)  # toes on the centre only
    assert [str(m) for m in options["targets"]] == _plays(s)


def test_lines() -> None:
    caption, s, options = PICTURES["lines"]
    assert s.phase is cf.Phase.OPEN and len(s.table.hubs) == 1
    assert all(len(line.tiles) >= 2 for line in s.table.hubs[0].lines)
    for _, number in s.table.open_ends:
        assert str(number) in caption
    assert [str(m) for m in options["targets"]] == _plays(s)


def test_a_double_and_its_foot() -> None:
    caption, s, _ = PICTURES["foot"]
    foot = s.table.hubs[1]
    assert foot.tile.is_double and not foot.is_centre and foot.is_complete
    assert len(foot.lines) == s.rules.foot_toes and s.phase is cf.Phase.OPEN
    assert str(foot.tile) in caption


def test_a_pending_double_blocks_play_elsewhere() -> None:
    caption, s, options = PICTURES["pending"]
    assert s.phase is cf.Phase.FOOT_PENDING
    hub = s.pending_hub
    assert hub is not None and hub != s.centre and str(hub) in caption
    assert _plays(s) and all(p.endswith(f"@{hub}") for p in _plays(s))
    # elsewhere on the table there are open ends where the seat's tiles would fit otherwise
    assert [str(m) for m in options["targets"]] == _plays(s)


def test_a_forced_draw() -> None:
    caption, s, options = PICTURES["forced-draw"]
    assert [str(m) for m in s.legal_moves] == ["draw"] and s.drawn is None
    numbers = {n for _, n in s.table.open_ends}
    assert all(not ({t.high, t.low} & numbers) for t in s.hand(s.turn))
    assert options["hands"] == s.turn and f"seat {s.turn}" in caption


def test_the_end_of_a_round_and_its_penalties() -> None:
    caption, s, options = PICTURES["round-end"]
    outcome = s.outcome()
    assert outcome is not None and outcome.termination is cf.Termination.OUT
    assert s.hand(outcome.seat) == ()
    for seat, points in enumerate(s.penalties()):
        assert points == sum(50 if t == cf.Tile(0, 0) else t.pips for t in s.hand(seat))
        assert f"seat {seat} {points}" in caption
    assert options["hands"] == "all"


@pytest.mark.parametrize("stem", sorted(PICTURES))
def test_each_picture_draws_its_glowing_places(stem: str) -> None:
    _, s, options = PICTURES[stem]
    picture = cf.svg(s, **options)
    assert picture.startswith("<svg")
    for move in options.get("targets", []):
        assert f'data-move="{move}"' in picture, (stem, str(move))


# -- the table in brief: the page's first picture, its parts numbered (issue 50, item 3) -----------


def test_the_page_opens_with_the_game_in_brief_and_the_numbered_table() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    first_heading = text.index("\n## ")
    assert text.index("**Chicken Foot in brief.**") < text.index("<!-- rules-table -->")
    assert text.index("<!-- rules-table -->") < first_heading  # before the terms and rules


def test_each_badge_of_the_numbered_table_marks_the_part_its_legend_names() -> None:
    from rules_pictures import labelled_table

    alt, svg, legend, centre = labelled_table()
    names = [name for name, _ in legend]
    assert names == ["The centre", "A toe", "A line (an arm)", "An open end",
                     "A double with its foot", "The foot's toes", "The boneyard"]  # fmt: skip
    badges = re.findall(r'data-label="(\d+)"><circle cx="([-\d.e]+)" cy="([-\d.e]+)"', svg)
    assert [int(n) for n, _, _ in badges] == list(range(1, len(legend) + 1))
    boxes = {
        t: [float(v) for v in b.split()]
        for t, b in re.findall(
            r'<g class="domino[^"]*" data-tile="([^"]*)" data-box="([^"]*)"', svg
        )
    }
    tiles = [re.search(r"\d+-\d+", what) for _, what in legend[:6]]
    assert tiles[0] is not None and tiles[0][0] == centre
    for (n, x, y), found in zip(badges, tiles, strict=False):
        assert found is not None, n
        x0, y0, x1, _ = boxes[found[0]]
        # on a top corner of the tile it names
        assert float(y) == pytest.approx(y0) and float(x) in (pytest.approx(x0), pytest.approx(x1))
    # every number of the alt text is a part of the legend, in order
    assert [int(n) for n in re.findall(r"(\d) ", alt)] == list(range(1, len(legend) + 1))
