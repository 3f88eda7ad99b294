"""Render the picture catalogue: a dozen real positions to SVG, and to PNG with headless Chromium.

    nox -s pictures                     # installs chromium when it can, writes build/pictures/
    python tools/pictures.py --out DIR [--png] [--chromium PATH]
    python tools/pictures.py --docs     # redraw the pictures committed under docs/img/

Every position comes from a seeded deal and seeded random legal moves, searched for the
situation it shows (an opening, a pending foot, a late 8-player double-12 table, ...), so
the catalogue is the same on every machine. ``CATALOGUE`` is also read by the tests
(``tests/test_picture.py`` checks every picture: nothing overlaps, every board tile is drawn
exactly once) and by the documentation build (``tools/docs_hooks.py`` draws the pictures
page from it). ``docs_images()`` are the pictures committed under ``docs/img/`` (the
README's and the home page's, the tutorial's), drawn from positions of the catalogue or of
the tutorial; ``tests/test_docs_pictures.py`` checks that they are current.
"""

from __future__ import annotations

import argparse
import os
import random
import re
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


def _feet_built(s: cf.State) -> bool:
    """Mid-round with a foot built: the first double after the centre has its three toes."""
    hubs = s.table.hubs
    return (
        len(hubs) >= 2
        and hubs[1].is_complete
        and len(hubs[1].lines) == 3
        and s.pending_hub is None
        and not s.is_over()
        and 20 <= len(s.board) <= 30
    )


TUTORIAL_MOVES = "9-8@9-9 draw pass 9-5@9-9 9-4@9-9 9-3@9-9 draw pass draw 9-6@9-9 9-2@9-9 4-1@9-4"
"""The moves of the tutorial's position (docs/tutorial.md, "The table as a structure")."""


def tutorial_position() -> cf.State:
    """The tutorial's table: the house rules' seed-1 deal after ``TUTORIAL_MOVES``."""
    s = cf.deal(cf.Rules(), seed=1)
    for move in TUTORIAL_MOVES.split():
        s = s.apply(move)
    return s


NOTATION_MOVES = "4-2@4-4 4-1@4-4 1-1@4-1 draw pass 2-1@1-1 2-0@2-1 draw 3-0@2-0 3-3@3-0 3-1@3-3"
"""The example round of the notation's page (docs/notation.md)."""


def notation_example() -> cf.State:
    """The notation page's example round at its end: two seats on the double-4 set."""
    rules = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
    s = cf.deal(rules, seed=21)
    for move in NOTATION_MOVES.split():
        s = s.apply(move)
    return s


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
    s = _walk(house, 31, _feet_built)
    out.append(
        (
            "four-players",
            "Four players, house rules, mid-round: three doubles laid, each with its foot.",
            s,
            {"hands": "all"},
        )
    )
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


DocsImage = tuple[str, cf.State, dict[str, Any]]
"""(file name under ``docs/img/``, position, keyword options of ``chickenfoot.svg``)."""


PUZZLES = ("196.54", "196.50", "68.52")
"""The puzzles shown on docs/puzzles.md, by id (``SEED.PLY`` of ``chickenfoot.puzzles.cut``)."""


def puzzle_positions() -> list[tuple[str, cf.State]]:
    """The positions of ``PUZZLES``, cut again from their rounds."""
    from chickenfoot.puzzles import cut

    seeds = sorted({int(name.split(".")[0]) for name in PUZZLES})
    found = {p.id: p.state for p in cut(cf.Rules(), seeds=seeds)}
    return [(name, found[name]) for name in PUZZLES]


def docs_images() -> list[DocsImage]:
    """The pictures committed under ``docs/img/``, as ``--docs`` draws them.

    ``four-players.png`` is the README's and the home page's picture: the catalogue's
    ``four-players`` drawn at twice its natural size, so that shown at the width of a page
    (700 to 900 pixels) its pips and numbers still read. ``tutorial-table.svg`` is the
    tutorial's position as the player to act sees it, drawn by the code the tutorial shows
    beside it. ``eight-players.png`` and ``foot-pending.png`` are the catalogue's pictures
    of those names at their natural size (the eight-player table is linked under the
    README's picture). ``puzzle-SEED-PLY.svg`` are the puzzles of docs/puzzles.md, every
    hand shown and the places of the legal moves glowing.
    """
    pictures = {stem: (state, options) for stem, _, state, options in catalogue()}
    four, four_options = pictures["four-players"]
    natural = _width(cf.svg(four, **four_options))
    return [
        ("four-players.png", four, {**four_options, "size": 2 * natural}),
        ("tutorial-table.svg", tutorial_position(), {"seat": 1, "size": 600}),
        ("eight-players.png", *pictures["eight-players"]),
        ("foot-pending.png", *pictures["foot-pending"]),
        ("notation-example.svg", notation_example(), {"hands": "all", "size": 480}),
        *(
            (f"puzzle-{name.replace('.', '-')}.svg", s, {"hands": "all", "targets": s.legal_moves})
            for name, s in puzzle_positions()
        ),
    ]


def _width(picture: str) -> int:
    """The width of an SVG picture, in pixels (its root's ``width``)."""
    return int(re.search(r'<svg [^>]*?width="(\d+)"', picture)[1])  # type: ignore[index]


def _height(picture: str) -> int:
    """The height of an SVG picture, in pixels (its root's ``height``)."""
    return int(re.search(r'<svg [^>]*?height="(\d+)"', picture)[1])  # type: ignore[index]


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
    ap.add_argument(
        "--docs", action="store_true", help="redraw the pictures committed under docs/img/"
    )
    args = ap.parse_args(argv)
    if args.docs:
        return draw_docs_images(Path(__file__).resolve().parent.parent / "docs" / "img", args)
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
            width, height = _width(picture), _height(picture)
            to_png(chromium, path, path.with_suffix(".png"), width, height)
            line += f"  -> {path.with_suffix('.png')} {width}x{height}"
        print(line)
    return 0


def draw_docs_images(img: Path, args: argparse.Namespace) -> int:
    """Write ``docs_images()`` into ``img``: SVG as drawn, PNG screenshotted with Chromium."""
    chromium = find_chromium(args.chromium)
    for name, state, options in docs_images():
        picture = cf.svg(state, **options)
        path = img / name
        if path.suffix == ".svg":
            path.write_text(picture, encoding="utf-8")
        elif chromium is None:
            print(f"{path}: skipped, no chromium (apt-get install chromium, or --chromium)")
            continue
        else:
            svg_path = Path(args.out) / f"{path.stem}.svg"
            svg_path.parent.mkdir(parents=True, exist_ok=True)
            svg_path.write_text(picture, encoding="utf-8")
            to_png(chromium, svg_path, path, _width(picture), _height(picture))
        print(f"{path}  {_width(picture)}x{_height(picture)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
