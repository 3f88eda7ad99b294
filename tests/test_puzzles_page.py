"""The Puzzles page's data (``docs/puzzles/puzzles.json``): made by
``tools/puzzles_page.py`` from ``chickenfoot.puzzles``, committed, and the same when made
again; each puzzle's answer, values and picture are the library's. The page in a browser
is ``tests/test_play_review_browser.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from chickenfoot import Rules
from chickenfoot.puzzles import cut

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import puzzles_page  # noqa: E402


def test_making_the_puzzles_pages_data_again_gives_the_committed_file() -> None:
    assert puzzles_page.text() == puzzles_page.OUT.read_text(encoding="utf-8"), (
        "docs/puzzles/puzzles.json is stale: python tools/puzzles_page.py"
    )


def test_each_puzzle_is_the_solvers_with_its_legal_moves_and_their_places() -> None:
    data = json.loads(puzzles_page.OUT.read_text(encoding="utf-8"))
    assert data["format"] == "chickenfoot/puzzles-page" and data["version"] == 1
    found = {p.id: p for p in cut(Rules(), seeds=[1, 3, 7, 68, 196])}
    assert len(data["puzzles"]) >= 3
    for entry in data["puzzles"]:
        p = found[entry["id"]]
        assert entry["legal"] == [str(m) for m in p.state.legal_moves]
        assert entry["answer"] == str(p.answer) in entry["legal"]
        assert entry["values"] == [list(p.values[m]) for m in p.state.legal_moves]
        me = entry["seat"]
        best = entry["values"][entry["legal"].index(entry["answer"])][me]
        others = [v[me] for m, v in zip(entry["legal"], entry["values"], strict=True)
                  if m != entry["answer"]]  # fmt: skip
        assert min(others) - best == entry["margin"] >= 5
        for move in entry["legal"]:
            if move not in ("draw", "pass"):
                assert f'data-move="{move}"' in entry["svg"]
