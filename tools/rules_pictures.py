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

import random
from collections.abc import Callable
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


def rules_pictures() -> list[RulesPicture]:
    """The rules page's pictures, in the order of the page."""
    out: list[RulesPicture] = []

    s = _walk(HOUSE, 1, _opening)
    out.append(
        (
            "centre-toes",
            f"R6, the opening: the centre {s.centre} has {len(s.board) - 1} of its "
            f"{s.rules.opening_toes} toes, and until it has them all the only plays are toes "
            f"on it. Glowing: where seat {s.turn} can lay a tile ({_moves(_plays(s))}).",
            s,
            {"hands": s.turn, "targets": _plays(s)},
        )
    )

    s = _walk(HOUSE, 2, _lines)
    ends = sorted({ln.open_end for ln in s.table.hubs[0].lines if ln.open_end is not None})
    out.append(
        (
            "lines",
            f"R7, open play: each toe of the centre has grown a line; a tile joins a line at "
            f"its open end ({', '.join(map(str, ends))} here), and its other number becomes "
            f"the new end. Glowing: seat {s.turn}'s plays ({_moves(_plays(s))}).",
            s,
            {"hands": s.turn, "targets": _plays(s)},
        )
    )

    s = _walk(HOUSE, 3, _foot_built)
    foot = s.table.hubs[1]
    out.append(
        (
            "foot",
            f"R8, a double and its foot: {foot.tile} was laid on an open end, which closed "
            f"that line, and took its {s.rules.foot_toes} toes; they are open lines like any "
            "other.",
            s,
            {},
        )
    )

    s = _walk(HOUSE, 4, _foot_pending)
    hub = s.table.hubs[1]
    out.append(
        (
            "pending",
            f"R8, a pending double: {hub.tile} has {len(hub.lines)} of its "
            f"{s.rules.foot_toes} toes. Until it has them, nothing is played anywhere else: "
            f"seat {s.turn}'s only plays are toes on it (glowing: {_moves(_plays(s))}).",
            s,
            {"hands": s.turn, "targets": _plays(s)},
        )
    )

    s = _walk(HOUSE, 5, _forced_draw)
    numbers = sorted({n for _, n in s.table.open_ends})
    out.append(
        (
            "forced-draw",
            f"R9, a forced draw: no tile in seat {s.turn}'s hand shows an open number "
            f"({', '.join(map(str, numbers))}), so its only move is to draw; the drawn tile "
            "is played if it fits, else the seat passes.",
            s,
            {"hands": s.turn},
        )
    )

    s = _walk(HOUSE, 6, _out)
    outcome = s.outcome()
    assert outcome is not None
    penalties = ", ".join(f"seat {seat} {p}" for seat, p in enumerate(s.penalties()))
    out.append(
        (
            "round-end",
            f"R10 and R11, the end of a round: seat {outcome.seat} laid its last tile, so the "
            f"round is over, and every seat scores the pips left in its hand ({penalties}).",
            s,
            {"hands": "all"},
        )
    )
    return out
