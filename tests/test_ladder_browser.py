"""The ladder's ratings picture drawn by a real browser: Debian's Chromium through
Playwright (never a browser download; ``nox -s serve_browser`` runs this file too). The
picture renders, every row's label, bar and dot are on the page and apart from the next
row's, and a screenshot is left in ``build/ladder_screens/`` to look at."""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

from playwright import sync_api

from chickenfoot.ladder import Rating, ratings_svg

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "build" / "ladder_screens"))
RATINGS = [
    Rating("ismcts:50ms", 31.5, 1.2),
    Rating("search:50ms", 29.0, 1.1),
    Rating("heuristic", 25.0, 1.0),
    Rating("engine:node examples/engine.js", 22.0, 2.5),
    Rating("random", 12.25, 0.75),
]


def test_chromium_draws_every_row_apart() -> None:
    picture = ratings_svg(RATINGS, title="Ratings at 4 seats")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 700, "height": 320})
            page.set_content(f"<!doctype html><html><body style='margin:0'>{picture}</body></html>")
            rows = page.locator("svg g.rating")
            assert rows.count() == len(RATINGS)
            boxes = []
            for k in range(rows.count()):
                row = rows.nth(k)
                label = row.locator("text").bounding_box()
                dot = row.locator("circle").bounding_box()
                bar = row.locator("line").bounding_box()
                assert label and dot and bar and label["width"] > 20
                assert label["x"] + label["width"] <= bar["x"] + 1  # the label left of the bar
                assert (
                    bar["x"] <= dot["x"] and dot["x"] + dot["width"] <= bar["x"] + bar["width"] + 1
                )
                boxes.append(dot)
            for upper, lower in itertools.pairwise(boxes):
                assert upper["y"] + upper["height"] <= lower["y"]  # rows do not overlap
            svg = page.locator("svg").bounding_box()
            assert svg and svg["width"] == 640
            page.screenshot(path=str(SHOTS / "ratings.png"), full_page=True)
        finally:
            browser.close()
