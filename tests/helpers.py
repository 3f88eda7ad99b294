"""Plain helpers and data that several test files share, so that none keeps its own copy.

Test files import from it as they import from ``strategies`` (``from helpers import ...``:
pytest puts ``tests/`` on ``sys.path``). It holds the example position of docs/formats.md
and builders of position documents and states, the pieces that drive ``chickenfoot play``
in a pseudo-terminal, and a search for a position where a seat has a choice to make. Shared
fixtures live in ``conftest.py``; Hypothesis strategies in ``strategies.py``. Whatever a
test checks is written out in the test itself: what is here only sets the scene.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chickenfoot import Rules, State, deal

SRC = Path(__file__).resolve().parent.parent / "src"
"""The package's source tree, for the ``PYTHONPATH`` of a child process."""

# -- positions -----------------------------------------------------------------------------------

# The example position of docs/formats.md ("Position"): double-three, 2 players, 2 opening
# toes, 1 toe a foot. Seat 0 goes out with its last tile, 2-0@1-0; seat 1 keeps 2-2 (4 pips).
EXAMPLE_RULES = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
EXAMPLE_PARTS: dict[str, Any] = {
    "centre": "3-3",
    "board": ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
    "hands": [["2-0"], ["2-2"]],
    "boneyard": ["1-1", "3-0", "0-0"],
    "turn": 0,
    "drawn": None,
}
"""Everything of the example but its format, version and rules (copy it before changing it)."""


def position_document(rules: Rules, parts: dict[str, Any]) -> dict[str, Any]:
    """The position document (docs/formats.md) of ``parts`` under ``rules``."""
    return {"format": "chickenfoot/position", "version": 1, "rules": rules.to_dict(), **parts}


def example_position(rules: Rules = EXAMPLE_RULES, **changes: Any) -> State:
    """The example position of docs/formats.md under ``rules``, with top-level ``changes``."""
    return State.from_dict(position_document(rules, {**EXAMPLE_PARTS, **changes}))


def position(
    *,
    max_pip: int,
    board: list[str],
    hands: list[list[str]],
    boneyard: list[str],
    turn: int = 0,
    drawn: str | None = None,
    **rules: Any,
) -> State:
    """The position with the double-``max_pip`` centre, one seat a hand, and these ``rules``."""
    doc = {
        "format": "chickenfoot/position",
        "version": 1,
        "rules": {"players": len(hands), "max_pip": max_pip, **rules},
        "centre": f"{max_pip}-{max_pip}",
        "board": board,
        "hands": hands,
        "boneyard": boneyard,
        "turn": turn,
        "drawn": drawn,
    }
    return State.from_dict(doc)


def feet() -> State:
    """A table with feet: double-four, 2 toes on the centre and 2 on each foot.

    1-1 closes the line of 4-1 and gets both its toes; 0-0 closes the line of 4-2 and has
    one of its two.
    """
    return position(
        max_pip=4,
        board=[
            *("4-4", "4-1@4-4", "4-2@4-4", "1-1@4-1", "1-0@1-1", "3-1@1-1"),
            *("2-0@4-2", "0-0@2-0", "3-0@0-0"),
        ],
        hands=[["2-1", "4-3"], ["2-2", "3-3"]],
        boneyard=["3-2", "4-0"],
        hand_size=3,
        opening_toes=2,
        foot_toes=2,
    )


def decision(rules: Rules, want: Callable[[State], bool]) -> State:
    """A position where seat 0 must choose between moves and ``want`` holds, found by random
    play (``random.Random(0)``) through the deals of seeds 0 to 299, the first one met."""
    rng = random.Random(0)
    for deal_seed in range(300):
        s = deal(rules, deal_seed)
        while not s.is_over():
            if s.turn == 0 and len(s.legal_moves) > 1 and want(s):
                return s
            s = s.apply(rng.choice(s.legal_moves))
    raise AssertionError("no such position")  # pragma: no cover


# -- chickenfoot play in a pseudo-terminal -------------------------------------------------------

WITHOUT_RICH = (
    "import runpy, sys; sys.modules['rich'] = None; "
    "runpy.run_module('chickenfoot', run_name='__main__', alter_sys=True)"
)
"""``python -c`` this: the command line as if the ``cli`` extra (rich) were not installed."""


class Transcript:
    """A pexpect ``logfile_read``: keeps everything the child printed, in ``parts``."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


# -- data sets -----------------------------------------------------------------------------------


def file_digests(root: Path) -> dict[str, str]:
    """Every file under ``root`` (a data set's directory): its path there and its sha256."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
