"""The rules page's pictures: one real position for each rule a picture explains.

``tools/docs_hooks.py`` draws each with ``chickenfoot.svg`` when the site is built and puts
it where ``docs/rules.md`` holds its marker (``<!-- rules-picture: STEM -->``); nothing is
committed, so a picture can never disagree with the library. Each position is found along
seeded random rounds (the same on every machine) by a test of the situation it shows, and
its caption is written from the position itself (its centre, its pending double, its
penalties): a caption cannot say what the position does not hold.
``tests/test_rules_pictures.py`` checks that each position shows its rule.
"""

from __future__ import annotations

import importlib.util
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chickenfoot as cf

RulesPicture = tuple[str, str, cf.State, dict[str, Any]]
"""(stem, caption, position, keyword options of ``chickenfoot.svg``)."""

HOUSE = cf.Rules(players=3)
"""Three players, house rules: a double-nine table small enough to read on a phone."""


def _walk(rules: cf.Rules, seed: int, until: Callable[[cf.State], bool]) -> cf.State:
    """The first position along seeded random rounds where ``until`` holds."""
    for attempt in range(500):
        rng = random.Random(f"rules-pictures:{seed}:{attempt}")
        s = cf.deal(rules, seed + attempt)
        while True:
            if until(s):
                return s
            if s.is_over():
                break
            s = s.apply(rng.choice(s.legal_moves))
    raise LookupError(f"no position found for seed {seed}")


def _moves(moves: Any) -> str:
    return ", ".join(str(m) for m in moves)


def _plays(s: cf.State) -> list[cf.Move]:
    return [m for m in s.legal_moves if isinstance(m, cf.Play)]


def _opening(s: cf.State) -> bool:
    return s.phase is cf.Phase.OPENING and len(s.board) == 4 and len(_plays(s)) >= 2


def _lines(s: cf.State) -> bool:
    hubs = s.table.hubs
    return (
        s.phase is cf.Phase.OPEN
        and len(hubs) == 1
        and all(len(line.tiles) >= 2 for line in hubs[0].lines)
        and len(s.board) <= 16
        and 3 <= len(_plays(s)) <= 5
    )


def _foot_built(s: cf.State) -> bool:
    hubs = s.table.hubs
    return (
        s.phase is cf.Phase.OPEN and len(hubs) == 2 and hubs[1].is_complete and len(s.board) <= 20
    )


def _foot_pending(s: cf.State) -> bool:
    hubs = s.table.hubs
    return (
        s.phase is cf.Phase.FOOT_PENDING
        and len(hubs) == 2
        and len(hubs[1].lines) == 1  # one toe laid, two to come
        and len(s.board) <= 20
        and len(_plays(s)) >= 1
    )


def _forced_draw(s: cf.State) -> bool:
    return (
        s.phase is cf.Phase.OPEN
        and s.drawn is None
        and [str(m) for m in s.legal_moves] == ["draw"]
        and len(s.board) <= 30
    )


def _out(s: cf.State) -> bool:
    outcome = s.outcome()
    return (
        outcome is not None
        and outcome.termination is cf.Termination.OUT
        and all(p > 0 for seat, p in enumerate(s.penalties()) if seat != outcome.seat)
    )


PictureFacts = tuple[str, dict[str, Any], cf.State, dict[str, Any]]
"""(stem, what its caption states, position, keyword options of ``chickenfoot.svg``)."""


def _words() -> Any:
    # loaded by path, as docs_hooks loads this module: tools/ is not a package
    spec = importlib.util.spec_from_file_location(
        "cf_rules_words", Path(__file__).with_name("rules_words.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def picture_facts() -> list[PictureFacts]:
    """The rules page's pictures, in the order of the page, with what each caption states.

    The positions are found once (seconds of seeded play); :func:`caption` writes each
    caption from its facts in any language of ``tools/rules_words.py``.
    """
    out: list[PictureFacts] = []

    s = _walk(HOUSE, 1, _opening)
    facts = {
        "centre": str(s.centre),
        "laid": len(s.board) - 1,
        "toes": s.rules.opening_toes,
        "seat": s.turn,
        "plays": _moves(_plays(s)),
    }
    out.append(("centre-toes", facts, s, {"hands": s.turn, "targets": _plays(s)}))

    s = _walk(HOUSE, 2, _lines)
    ends = sorted({ln.open_end for ln in s.table.hubs[0].lines if ln.open_end is not None})
    facts = {"ends": ", ".join(map(str, ends)), "seat": s.turn, "plays": _moves(_plays(s))}
    out.append(("lines", facts, s, {"hands": s.turn, "targets": _plays(s)}))

    s = _walk(HOUSE, 3, _foot_built)
    facts = {"foot": str(s.table.hubs[1].tile), "toes": s.rules.foot_toes}
    out.append(("foot", facts, s, {}))

    s = _walk(HOUSE, 4, _foot_pending)
    hub = s.table.hubs[1]
    facts = {
        "hub": str(hub.tile),
        "laid": len(hub.lines),
        "toes": s.rules.foot_toes,
        "seat": s.turn,
        "plays": _moves(_plays(s)),
    }
    out.append(("pending", facts, s, {"hands": s.turn, "targets": _plays(s)}))

    s = _walk(HOUSE, 5, _forced_draw)
    numbers = sorted({n for _, n in s.table.open_ends})
    facts = {"seat": s.turn, "numbers": ", ".join(map(str, numbers))}
    out.append(("forced-draw", facts, s, {"hands": s.turn}))

    s = _walk(HOUSE, 6, _out)
    outcome = s.outcome()
    assert outcome is not None
    facts = {"seat": outcome.seat, "penalties": list(enumerate(s.penalties()))}
    out.append(("round-end", facts, s, {"hands": "all"}))
    return out


def caption(stem: str, facts: dict[str, Any], *, lang: str = "en") -> str:
    """The caption of the picture ``stem`` in ``lang``, written from its facts."""
    words = _words().CAPTIONS[lang]
    values = dict(facts)
    if "penalties" in values:
        values["penalties"] = ", ".join(
            words["seat-points"].format(seat=seat, points=points)
            for seat, points in values["penalties"]
        )
    return str(words[stem].format(**values))


def rules_pictures(*, lang: str = "en") -> list[RulesPicture]:
    """The rules page's pictures, in the order of the page, captioned in ``lang``."""
    return [
        (stem, caption(stem, facts, lang=lang), s, options)
        for stem, facts, s, options in picture_facts()
    ]


# -- the table in brief: one picture with its parts numbered, for the top of the page ------------

BADGE = "#c2410c"
"""The colour of a numbered badge: dark orange, white figures on it (contrast 5.2:1)."""
_BOX = re.compile(r'<g class="domino[^"]*" data-tile="([^"]*)" data-box="([^"]*)"')
_VIEW = re.compile(r'viewBox="([^"]*)"')


def _badge(n: int, x: float, y: float) -> str:
    return (
        f'<g class="badge" data-label="{n}"><circle cx="{x:g}" cy="{y:g}" r="0.42" '
        f'fill="{BADGE}" stroke="#ffffff" stroke-width="0.07"/><text x="{x:g}" '
        f'y="{y + 0.19:.3g}" font-size="0.55" font-weight="bold" text-anchor="middle" '
        f'fill="#ffffff">{n}</text></g>'
    )


def labelled_table(*, lang: str = "en") -> tuple[str, str, list[tuple[str, str]], str]:
    """The rules page's first picture: a table with a foot built, its parts numbered.

    Returns ``(alt, svg, legend, tile)``: the picture's text alternative, the SVG (the
    table by ``chickenfoot.svg`` with numbered badges laid over it, and a face-down
    boneyard drawn beside it), the legend (each number's part, a name and what it is, in
    the badges' order), and the tile the first badge marks (the centre), for the tests.
    The words are in ``lang`` (``tools/rules_words.py``); the picture is the same in all.
    Each badge sits on the corner of the tile it names, found by the tile's ``data-box``
    in the picture: what it marks is what the position holds.
    """
    s = _walk(HOUSE, 3, _foot_built)
    centre, foot = s.table.hubs
    picture = cf.svg(s)
    boxes = {tile: tuple(float(v) for v in box.split()) for tile, box in _BOX.findall(picture)}
    grown = next(line for line in centre.lines if len(line.tiles) >= 2)
    ending = next(line for line in centre.lines if line.open_end is not None)
    toe, arm, end = grown.tiles[0].tile, grown.tiles[1].tile, ending.tiles[-1].tile
    words = _words().TABLE[lang]
    facts = {
        "centre": centre.tile,
        "toe": toe,
        "arm": arm,
        "end": end,
        "number": ending.open_end,
        "foot": foot.tile,
        "opening_toes": s.rules.opening_toes,
        "foot_toes": s.rules.foot_toes,
        "foot_toe_tiles": _moves(ln.tiles[0].tile for ln in foot.lines),
        "boneyard": len(s.boneyard),
    }
    parts = [
        (tile, words[part], words[f"{part}-what"].format(**facts))
        for tile, part in (
            (centre.tile, "centre"),
            (toe, "toe"),
            (arm, "line"),
            (end, "end"),
            (foot.tile, "foot"),
            (foot.lines[0].tiles[0].tile, "foot-toes"),
        )
    ]
    view, size = _VIEW.search(picture), re.search(r'width="([\d.]+)"', picture)
    assert view is not None and size is not None, "an SVG picture with no viewBox or width"
    x0, y0, w, h = (float(v) for v in view[1].split())
    # room on the right for the boneyard: a face-down pile, drawn here
    pile_x, pile_y = x0 + w + 0.4, y0 + h / 2 - 1.2
    pile = "".join(
        f'<rect x="{pile_x + 0.18 * k:.3g}" y="{pile_y - 0.18 * k:.3g}" width="1" height="2" '
        f'rx="0.14" fill="#2f4f7f" stroke="#f4f1e6" stroke-width="0.05"/>'
        for k in range(3)
    )
    # each badge on the tile's top corner; the open end's on the side the line runs to
    corner = {str(t): boxes[str(t)][0] for t, _, _ in parts}
    before = boxes[str(ending.tiles[-2].tile if len(ending.tiles) > 1 else centre.tile)]
    if boxes[str(end)][0] > before[0]:
        corner[str(end)] = boxes[str(end)][2]
    badges = [_badge(n, corner[str(t)], boxes[str(t)][1]) for n, (t, _, _) in enumerate(parts, 1)]
    boneyard_n = len(parts) + 1
    badges.append(_badge(boneyard_n, pile_x, pile_y - 0.36))
    legend = [(name, what) for _, name, what in parts]
    legend.append((words["boneyard"], words["boneyard-what"].format(**facts)))
    wide = w + 2.4
    out = picture.replace(
        f'viewBox="{x0:g} {y0:g} {w:g} {h:g}"', f'viewBox="{x0:g} {y0:g} {wide:g} {h:g}"', 1
    )
    width = float(size[1])
    out = out.replace(f'width="{width:g}"', f'width="{round(width * wide / w)}"', 1)
    out = out.replace(
        f'<rect x="{x0:g}" y="{y0:g}" width="{w:g}" height="{h:g}"',
        f'<rect x="{x0:g}" y="{y0:g}" width="{wide:g}" height="{h:g}"', 1,
    )  # fmt: skip
    out = out.replace("</svg>", pile + "".join(badges) + "</svg>")
    alt = str(words["alt"])
    return alt, out, legend, str(centre.tile)
