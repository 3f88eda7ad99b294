"""Render the picture catalogue: a dozen real positions to SVG, and to PNG with headless Chromium.

    nox -s pictures                     # installs chromium when it can, writes build/pictures/
    python tools/pictures.py --out DIR [--png] [--chromium PATH]

Every position comes from a seeded deal and seeded random legal moves, searched for the
situation it shows (an opening, a pending foot, a late 8-player double-12 table, ...), so
the catalogue is the same on every machine. ``CATALOGUE`` is also read by the tests
(``tests/test_picture.py`` checks every picture: nothing overlaps, every board tile is drawn
exactly once) and by the documentation build (``tools/docs_hooks.py`` draws the pictures
page from it).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chickenfoot as cf

Picture = tuple[str, str, cf.State, dict[str, Any]]
"""(file stem, caption, position, keyword options of ``chickenfoot.svg``)."""


def _walk(
    rules: cf.Rules, seed: int, until: Callable[[cf.State], bool], *, tries: int = 200
) -> cf.State:
    """The first position along seeded random rounds where ``until`` holds."""
    for attempt in range(tries):
        rng = random.Random(f"pictures:{seed}:{attempt}")
        s = cf.deal(rules, seed + attempt)
        while True:
            if until(s):
                return s
            if s.is_over():
                break
            s = s.apply(rng.choice(s.legal_moves))
    raise LookupError(f"no position found for seed {seed}")


def _pending_foot(s: cf.State) -> bool:
    hub = s.pending_hub
    return hub is not None and hub != s.centre and len(s.board) > 12


def _late(fraction: float) -> Callable[[cf.State], bool]:
    def check(s: cf.State) -> bool:
        dealt = s.rules.players * s.rules.hand_size
        return sum(s.hand_sizes) + s.boneyard_size <= (1 - fraction) * (dealt + 0) and (
            s.pending_hub is None and not s.is_over()
        )

    return check


def catalogue() -> list[Picture]:
    """The positions drawn by ``nox -s pictures``, checked by the tests, shown in the docs."""
    house = cf.Rules()
    big = cf.Rules(players=8)
    out: list[Picture] = []
    s = cf.deal(house, seed=1)
    out.append(("opening", "A fresh deal: the centre 9-9 waits for its six toes.", s, {"hands": 0}))
    s = _walk(house, 2, lambda s: len(s.board) == 4)
    out.append(("opening-toes", "The opening under way: three toes laid, three to come.", s, {}))
    s = _walk(house, 3, lambda s: s.pending_hub is None and len(s.board) == 14)
    out.append(
        ("early", "Early in a round of the house rules: every line open.", s, {"hands": "all"})
    )
    s = _walk(house, 4, _pending_foot)
    out.append(
        (
            "foot-pending",
            "A double closed a line: its foot needs toes before anything else is played.",
            s,
            {"hands": "all"},
        )
    )
    s = _walk(house, 5, lambda s: s.is_over() and len(s.board) > 30)
    out.append(("house-over", "A round of the house rules at its end.", s, {"hands": "all"}))
    s = _walk(big, 6, _late(0.7))
    out.append(
        ("eight-players", "Eight players, double-twelve, late in the round.", s, {"hands": "all"})
    )
    out.append(
        ("eight-players-view", "The same table as seat 3 sees it.", s, {"seat": 3, "hands": "all"})
    )
    s = _walk(big, 7, lambda s: _pending_foot(s) and len(s.board) > 30)
    out.append(("eight-players-foot", "Eight players: a foot pending far from the centre.", s, {}))
    classic = cf.Rules.preset("classic")
    s = cf.deal(classic, seed=8)
    out.append(
        (
            "classic-holder",
            "Classic rules: the centre is in a hand, not yet laid.",
            s,
            {"hands": "all"},
        )
    )
    s = _walk(cf.Rules.preset("four-toe"), 9, lambda s: len(s.board) > 20)
    out.append(("four-toe", "The four-toe opening, some way in.", s, {}))
    s = _walk(cf.Rules(players=10, max_pip=15, hand_size=10), 10, _late(0.6))
    out.append(("double-15", "Ten players with double-fifteen: numerals above nine.", s, {}))
    blocked = cf.Rules(players=2, max_pip=6, hand_size=7)
    s = _walk(
        blocked, 11, lambda s: s.is_over() and s.outcome() == cf.Outcome(cf.Termination.BLOCKED)
    )
    out.append(("blocked", "Double-six, two players: a blocked round.", s, {"hands": "all"}))
    return out


def find_chromium(explicit: str | None = None) -> str | None:
    """The headless browser to use: ``explicit``, ``$CHROMIUM``, or one on the PATH."""
    for name in (
        explicit,
        os.environ.get("CHROMIUM"),
        "chromium",
        "chromium-browser",
        "google-chrome",
    ):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def to_png(chromium: str, svg_path: Path, png_path: Path, width: int, height: int) -> None:
    """Screenshot ``svg_path`` at its own size with headless Chromium."""
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--screenshot={png_path}",
            f"--window-size={width},{height}",
            svg_path.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", default="build/pictures", help="directory for the pictures")
    ap.add_argument("--png", action="store_true", help="also screenshot each SVG to PNG")
    ap.add_argument("--chromium", help="path of the headless browser (default: on the PATH)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium = find_chromium(args.chromium) if args.png else None
    if args.png and chromium is None:
        print("no chromium found: install it (apt-get install chromium) or pass --chromium")
        return 1
    for stem, caption, state, options in catalogue():
        picture = cf.svg(state, **options)
        path = out / f"{stem}.svg"
        path.write_text(picture)
        line = f"{path}  ({caption})"
        if chromium is not None:
            head = picture.split(">", 1)[0]
            width = int(head.split('width="')[1].split('"')[0])
            height = int(head.split('height="')[1].split('"')[0])
            to_png(chromium, path, path.with_suffix(".png"), width, height)
            line += f"  -> {path.with_suffix('.png')} {width}x{height}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
