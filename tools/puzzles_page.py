"""The puzzles the Puzzles page plays (``docs/puzzles/puzzles.json``), made from
``chickenfoot.puzzles``.

``python tools/puzzles_page.py`` writes the file; ``tests/test_puzzles_page.py`` checks that
making it again gives the same bytes (the solver is exact and the rounds seeded, so any
checkout does). The page (``docs/puzzles/play.js``, plain JavaScript) needs no Python in
the browser: each puzzle carries its picture (``chickenfoot.picture``, every hand open,
the place of each legal move drawn and hidden until the answer shows it), its legal moves
in the legal order, the answer, and the solver's vector of final penalties after each
legal move, seat 0 first.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from chickenfoot import Rules
from chickenfoot.picture import svg
from chickenfoot.puzzles import Puzzle, cut

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "puzzles" / "puzzles.json"
CHOSEN = ("196.54", "1.50", "196.50", "7.49", "68.52", "3.45")
"""The puzzles played, easiest first: the three the page explains (cut from rounds 68 and
196) and three of the first rounds' (``cut(Rules(), seeds=range(8))``)."""
SEEDS = (1, 3, 7, 68, 196)
"""The rounds they are cut from (house rules, four seats)."""


def _entry(p: Puzzle) -> dict[str, Any]:
    legal = [str(m) for m in p.state.legal_moves]
    return {
        "id": p.id,
        "grade": p.grade,
        "seat": p.seat,
        "players": p.state.rules.players,
        "tiles": p.tiles,
        "margin": p.margin,
        "hands": [[str(t) for t in p.state.hand(s)] for s in range(p.state.rules.players)],
        "boneyard": len(p.state.boneyard),
        "legal": legal,
        "answer": str(p.answer),
        "values": [list(p.values[m]) for m in p.state.legal_moves],
        "svg": svg(p.state, hands="all", targets=p.state.legal_moves, room_for_places=True),
    }


def page_data() -> dict[str, Any]:
    """What ``docs/puzzles/puzzles.json`` holds: the format, then the puzzles of ``CHOSEN``."""
    found = {p.id: p for p in cut(Rules(), seeds=SEEDS)}
    missing = [name for name in CHOSEN if name not in found]
    if missing:
        raise SystemExit(f"tools/puzzles_page.py: no puzzle {missing} in rounds {SEEDS}")
    return {
        "format": "chickenfoot/puzzles-page",
        "version": 1,
        "rules": "house",
        "puzzles": [_entry(found[name]) for name in CHOSEN],
    }


def text() -> str:
    """The file's text: the same bytes for the same library."""
    return json.dumps(page_data(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
