"""The pictures committed under docs/img/: current, readable at page width, and shown.

``tools/pictures.py`` (``docs_images()``) says how each is drawn; ``python
tools/pictures.py --docs`` redraws them. An SVG must be exactly what ``chickenfoot.svg``
draws today; a PNG (a Chromium screenshot, not reproducible byte for byte everywhere) must
have the size of today's drawing. The README's and the home page's picture must read at
the width of a page, and the tutorial must show the code that draws its picture.
"""

from __future__ import annotations

import re
import struct
import sys
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from pictures import TUTORIAL_MOVES, catalogue, docs_images

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"

REDRAW = "redraw it: python tools/pictures.py --docs"
HERO = "four-players.png"
BIG = "eight-players.png"
GITHUB_RAW = "https://github.com/chickenfoot/chickenfoot/raw/main/docs/img/"

PAGE_WIDTH = 688
"""The width of the content column, in CSS pixels, on a 1280-pixel laptop screen."""


def _svg_size(picture: str) -> tuple[int, int]:
    head = re.search(r"<svg [^>]*>", picture)
    assert head is not None
    width = re.search(r'width="(\d+)"', head[0])
    height = re.search(r'height="(\d+)"', head[0])
    assert width is not None and height is not None
    return int(width[1]), int(height[1])


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize(
    ("name", "state", "options"), docs_images(), ids=[name for name, *_ in docs_images()]
)
def test_committed_picture_is_current(name: str, state: cf.State, options: dict[str, Any]) -> None:
    path = IMG / name
    assert path.exists(), f"docs/img/{name} is missing: {REDRAW}"
    picture = cf.svg(state, **options)
    if path.suffix == ".svg":
        assert path.read_text(encoding="utf-8") == picture, f"docs/img/{name} is stale: {REDRAW}"
    else:
        assert _png_size(path) == _svg_size(picture), f"docs/img/{name} is stale: {REDRAW}"


def test_the_hero_reads_at_page_width() -> None:
    """The README's picture is shown at no less than its natural size on a laptop.

    Its natural size is what ``chickenfoot.svg`` draws by default (24 pixels a domino's
    width), where pips and numerals are just large enough to count; the eight-player table
    is twice the page's width and its pips blur when it is shrunk to fit.
    """
    _, _, state, options = next(p for p in catalogue() if p[0] == "four-players")
    natural_width, _ = _svg_size(cf.svg(state, **options))
    assert natural_width <= PAGE_WIDTH
    png_width, _ = _png_size(IMG / HERO)
    assert png_width >= 2 * natural_width  # sharp on a high-density screen and on GitHub
    _, _, big, big_options = next(p for p in catalogue() if p[0] == "eight-players")
    assert _svg_size(cf.svg(big, **big_options))[0] > PAGE_WIDTH  # why it is not the hero


@pytest.mark.parametrize(
    ("page", "prefix"), [("README.md", GITHUB_RAW), ("docs/index.md", "img/")], ids=str
)
def test_the_hero_is_shown_with_the_big_table_a_click_away(page: str, prefix: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert images[0] == prefix + HERO, images  # README: an absolute URL, as PyPI shows it
    after = text[text.index(prefix + HERO) :]
    assert f"]({prefix}{BIG})" in after.split("\n\n", 2)[1], "link the big table under it"


def test_the_tutorial_shows_the_code_of_its_picture() -> None:
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    moves = re.findall(r'"([^"]+)"', text[text.index("s = cf.deal(cf.Rules(), seed=1)") :])
    assert moves[: len(TUTORIAL_MOVES.split())] == TUTORIAL_MOVES.split()
    name, _, options = next(p for p in docs_images() if p[0] == "tutorial-table.svg")
    call = "cf.svg(s, " + ", ".join(f"{k}={v!r}" for k, v in options.items()) + ")"
    code = text.index(call)
    image = text.index(f"](img/{name})")
    assert code < image, "the code that draws the picture comes just before it"
    assert "```" in text[code:image] and text[code:image].count("\n\n") <= 3
