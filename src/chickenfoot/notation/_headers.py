"""Headers of the notation: their names, the rules' text, and the deal and result headers.

>>> from chickenfoot import Rules
>>> rules_text(Rules()), rules_text(Rules.preset("classic", players=3, double_blank=25))
('house', 'classic players=3 double_blank=25')
>>> rules_from_text('house players=6 match={"rounds":3}').match
Rounds(count=3)
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from chickenfoot.errors import FormatError, RulesError, brief
from chickenfoot.formats import rules_from_dict
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.tiles import BY_ID, PIPS

if TYPE_CHECKING:
    from chickenfoot.notation._model import Audience
    from chickenfoot.outcome import Outcome
    from chickenfoot.state import State

__all__ = [
    "HIDDEN",
    "ROUND_HEADERS",
    "deal_headers",
    "escape",
    "hidden_run",
    "is_known",
    "result_headers",
    "rules_from_text",
    "rules_text",
    "unescape",
]

HIDDEN: Final = "??"
"""A tile the audience may not see."""

ROUND_HEADERS: Final = (
    "Notation",
    "Match",
    "Event",
    "Site",
    "Date",
    "Time",
    "Annotator",
    "Rules",
    "Seed",
    "Round",
    "Commitment",
    "DealSeed",
    "Audience",
    "Centre",
    "Board",
    "Boneyard",
    "Turn",
    "Drawn",
    "Result",
    "Termination",
    "Winner",
    "Scores",
    "Totals",
    "Winners",
)
"""The fixed header names; per seat ``Name{K}``, ``Agent{K}`` and ``Hand{K}`` as well."""
_FIXED: Final = frozenset(ROUND_HEADERS)
_PER_SEAT: Final = re.compile(r"(?:Name|Agent|Hand)(?:0|[1-9][0-9]?)\Z")


def is_known(name: str) -> bool:
    """Whether ``name`` is a header of the notation (``Hand3`` is; ``Colour`` is not)."""
    return name in _FIXED or _PER_SEAT.match(name) is not None


@functools.lru_cache(maxsize=256)
def rules_text(rules: Rules) -> str:
    """The ``Rules`` header: the nearest preset's name, ``players=K`` when not 4, then
    each field that differs from that preset for that many players, as ``field=JSON``."""
    best: tuple[int, str, list[str]] | None = None
    mine = rules.to_dict()
    players = [] if rules.players == 4 else [f"players={rules.players}"]
    for name in PRESETS:
        base = _base(name, rules.players)
        changes = [
            f"{key}={json.dumps(value, separators=(',', ':'))}"
            for key, value in mine.items()
            if base[key] != value and key != "players"
        ]
        if best is None or len(changes) < best[0]:
            best = (len(changes), name, changes)
    assert best is not None
    return " ".join([best[1], *players, *best[2]])


def rules_from_text(text: str) -> Rules:
    """Read a ``Rules`` header (a preset's name and ``field=JSON`` changes)."""
    name, *words = text.split(" ")
    if name not in PRESETS:
        raise FormatError("Rules", f"{brief(name)} is not a preset ({', '.join(PRESETS)})")
    changes: dict[str, Any] = {}
    for change in words:
        key, sep, raw = change.partition("=")
        if not sep or key not in _FIELDS or key in changes or len(raw) > 200:
            raise FormatError("Rules", f"{brief(change)} is not a change FIELD=VALUE")
        try:
            changes[key] = json.loads(raw)
        except ValueError:
            raise FormatError("Rules", f"{brief(raw)} is not a JSON value") from None
    players = changes.get("players", 4)
    if type(players) is not int or not 2 <= players <= 100:
        raise FormatError("Rules", f"players={brief(players)} is not a number of seats")
    fields = _base(name, players)
    fields.update(changes)
    return rules_from_dict(fields, "Rules")


_FIELDS: Final = frozenset(Rules().to_dict())


def _base(name: str, players: int) -> dict[str, Any]:
    """The fields a ``Rules`` header starts from: the preset for ``players`` seats, or for
    4 seats when the R2 table has no row for ``players`` (then every field is written)."""
    try:
        return Rules.preset(name, players=players).to_dict()
    except RulesError:
        return Rules.preset(name).to_dict()


_TILE_TEXT: Final = tuple(str(t) for t in BY_ID)


def _tiles(tiles: Any) -> str:
    text = _TILE_TEXT
    return " ".join([text[t.id] for t in tiles])


_HAND_NAMES: Final = tuple(f"Hand{seat}" for seat in range(100))
_BYTE_TEXTS: list[tuple[tuple[str, ...], ...]] = []
"""``_BYTE_TEXTS[k][b]``: the texts of the tiles of the bits of byte ``b`` at byte ``k`` of
a tile bitmask, lowest first (built on the first use)."""


def _mask_text(mask: int) -> str:
    """The texts of the tiles of the bitmask ``mask`` in id order (a hand, as
    :attr:`~chickenfoot.State.hands` lists it), a byte of the mask at a time."""
    rows = _BYTE_TEXTS
    if not rows:
        text = _TILE_TEXT
        for k in range(-(-len(text) // 8)):
            rows.append(
                tuple(
                    tuple(text[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < len(text))
                    for b in range(256)
                )
            )
    parts: list[str] = []
    k = 0
    while mask:
        b = mask & 255
        if b:
            parts += rows[k][b]
        mask >>= 8
        k += 1
    return " ".join(parts)


def deal_headers(start: State, audience: Audience) -> list[tuple[str, str]]:
    """The headers of the start position, as ``audience`` may see it."""
    out = [("Centre", _TILE_TEXT[start._centre])]
    if start.board:
        out.append(("Board", " ".join(m.notation() for m in start.board)))
    # The kernel's representation (chickenfoot._kernel): one tile bitmask per hand, the
    # boneyard's tile ids front first.
    for seat, hand in enumerate(start._hands):
        shown = _mask_text(hand) if audience.sees(seat) else hidden_run(hand.bit_count())
        out.append((_HAND_NAMES[seat], shown))
    text = _TILE_TEXT
    bone = start._bone
    shown = " ".join([text[t] for t in bone]) if audience.kind == "full" else hidden_run(len(bone))
    out.append(("Boneyard", shown))
    out.append(("Turn", str(start.turn)))
    drawn = start.drawn
    if drawn is not None:
        out.append(("Drawn", str(drawn) if audience.sees(start.turn) else HIDDEN))
    return out


def hidden_run(n: int) -> str:
    """``n`` hidden tiles: ``?? ?? ??``."""
    return " ".join([HIDDEN] * n)


def result_headers(final: State) -> list[tuple[str, str]]:
    """``Result`` (every seat's penalty), ``Termination`` and ``Winner``; ``*`` while the
    round goes on. A round's end reveals them to every audience."""
    outcome = final.outcome()
    return result_of(outcome, None if outcome is None else _penalties(final))


_BYTE_PIPS: list[tuple[int, ...]] = []
"""``_BYTE_PIPS[k][b]``: the pips of the tiles of the bits of byte ``b`` at byte ``k`` of a
tile bitmask (built on the first use)."""


def _penalties(final: State) -> list[int]:
    """``final.penalties()``, a byte of each hand's mask at a time."""
    rows = _BYTE_PIPS
    if not rows:
        pips = [a + b for a, b in PIPS]
        for k in range(-(-len(pips) // 8)):
            rows.append(
                tuple(
                    sum(pips[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < len(pips))
                    for b in range(256)
                )
            )
    blank = final.rules.double_blank
    out = []
    for hand in final._hands:  # the kernel's representation: one tile bitmask per hand
        total = blank if hand & 1 else 0
        rest, k = hand, 0
        while rest:
            total += rows[k][rest & 255]
            rest >>= 8
            k += 1
        out.append(total)
    return out


def result_of(outcome: Outcome | None, pens: Sequence[int] | None) -> list[tuple[str, str]]:
    """:func:`result_headers` of a round that ended as ``outcome`` with the penalties
    ``pens`` (``None`` while it goes on)."""
    if outcome is None or pens is None:
        return [("Result", "*"), ("Termination", "*"), ("Winner", "*")]
    if outcome.seat is not None:
        winners: list[int] = [outcome.seat]
    else:
        low = min(pens)
        winners = [s for s, p in enumerate(pens) if p == low]
    return [
        ("Result", " ".join(map(str, pens))),
        ("Termination", outcome.termination.value),
        ("Winner", " ".join(map(str, winners))),
    ]


def escape(value: str) -> str:
    """A header value with ``\\`` and ``"`` escaped; line breaks are refused."""
    if "\n" in value or "\r" in value:
        raise FormatError("headers", f"a header value is one line: {brief(value)}")
    return value.replace("\\", "\\\\").replace('"', '\\"')


_UNESCAPE: Final = re.compile(r"\\(.)")


def unescape(raw: str) -> str:
    """The value of a header as written between its quotes."""
    if "\\" not in raw:
        return raw
    replace: Callable[[re.Match[str]], str] = lambda m: m.group(1)  # noqa: E731
    return _UNESCAPE.sub(replace, raw)
