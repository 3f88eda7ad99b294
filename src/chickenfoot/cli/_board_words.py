"""The table's text picture and the score sheet in the language in use: :func:`said_board`,
:func:`sheet_lines`.

The library draws the table in English (:func:`~chickenfoot.render.render_compact`, a
stable format that ``show`` and the tests read); ``chickenfoot play`` says its words in the
person's language, row by row, each row's shape matched whole and said as one sentence with
named placeholders (the tiles and numbers as they are). A row of another shape stays as it
is; in English nothing changes.

>>> from chickenfoot import Rules, deal
>>> from chickenfoot._i18n import use
>>> from chickenfoot.render import render_compact
>>> picture = render_compact(deal(Rules(players=2), seed=1).view(0))
>>> said_board(picture) == picture
True
>>> with use("hr"):
...     print(said_board(picture).splitlines()[1])
Na potezu: mjesto 0 · hrpa: 14
"""

from __future__ import annotations

import re
from collections.abc import Callable

from chickenfoot._i18n import current, ngettext
from chickenfoot._i18n import gettext as _
from chickenfoot.cli.files import match_lines
from chickenfoot.match import Match
from chickenfoot.rules import Rounds

__all__ = ["said_board", "sheet_lines"]

_HUB = re.compile(r"(centre|foot) (\d+-\d+)  \((\d+)/(\d+) toes(?:, needs (\d+) more toes?)?\)")
_CLOSED = re.compile(r"(  [├└] .*) ▪ foot (\d+-\d+)")
_TURN = re.compile(r"seat (\d+) to play(?: · has drawn (\d+-\d+))? · boneyard (\d+)")
_OUT = re.compile(r"over: seat (\d+) went out · boneyard (\d+)")
_BLOCKED = re.compile(
    r"over: blocked \(the boneyard is empty and nobody can play\) · boneyard (\d+)"
)
_EMPTY = re.compile(r"table empty: the centre (\d+-\d+) is not laid yet")
_HAND = re.compile(r"([> ]) seat (\d+): .*")
_TAIL = re.compile(r"\((\d+) tiles?, (\d+) points\)$")
_COUNT = re.compile(r"  seat (\d+): (\d+) tiles?")


def _hub(m: re.Match[str]) -> str:
    values = {"hub": m[2], "laid": m[3], "required": m[4]}
    centre = m[1] == "centre"
    if m[5] is None:
        if centre:
            return _("centre {hub}  ({laid}/{required} toes)", **values)
        return _("foot {hub}  ({laid}/{required} toes)", **values)
    n = int(m[5])
    if centre:
        return ngettext(
            "centre {hub}  ({laid}/{required} toes, needs {n} more toe)",
            "centre {hub}  ({laid}/{required} toes, needs {n} more toes)",
            n,
            n=n,
            **values,
        )
    return ngettext(
        "foot {hub}  ({laid}/{required} toes, needs {n} more toe)",
        "foot {hub}  ({laid}/{required} toes, needs {n} more toes)",
        n,
        n=n,
        **values,
    )


def _tail(m: re.Match[str]) -> str:
    n = int(m[1])
    return ngettext(
        "({n} tile, {points} points)", "({n} tiles, {points} points)", n, n=n, points=m[2]
    )


def _turn(m: re.Match[str]) -> str:
    if m[2] is None:
        return _("seat {seat} to play · boneyard: {n}", seat=m[1], n=m[3])
    return _("seat {seat} to play · has drawn {tile} · boneyard: {n}", seat=m[1], tile=m[2], n=m[3])


_ROWS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_HUB, _hub),
    (_CLOSED, lambda m: m[1] + " ▪ " + _("foot {hub}", hub=m[2])),
    (_TURN, _turn),
    (_OUT, lambda m: _("over: seat {seat} went out · boneyard: {n}", seat=m[1], n=m[2])),
    (_BLOCKED, lambda m: _("over: blocked, nobody can play · boneyard: {n}", n=m[1])),
    (_EMPTY, lambda m: _("the table is empty: the centre {centre} is not laid yet", centre=m[1])),
    (
        _COUNT,
        lambda m: (
            "  "
            + ngettext(
                "seat {seat}: {n} tile", "seat {seat}: {n} tiles", int(m[2]), seat=m[1], n=m[2]
            )
        ),
    ),
)


def said_board(picture: str) -> str:
    """``picture`` (of :func:`~chickenfoot.render.render_compact`) in the language in use."""
    if current().lang == "en":
        return picture
    rows: list[str] = []
    indent: tuple[int, int] | None = None  # a hand's continuation rows: old and new indent
    for row in picture.split("\n"):
        if indent is not None and row.startswith(" " * indent[0]) and row[indent[0] :][:1] != " ":
            rows.append(" " * indent[1] + _TAIL.sub(_tail, row[indent[0] :]))
            continue
        indent = None
        hand = _HAND.fullmatch(row)
        if hand is not None and _COUNT.fullmatch(row) is None:
            head = f"{hand[1]} " + _("seat {seat}: ", seat=hand[2])
            rows.append(head + _TAIL.sub(_tail, row[len(f"{hand[1]} seat {hand[2]}: ") :]))
            indent = (len(f"{hand[1]} seat {hand[2]}: "), len(head))
            continue
        for pattern, say in _ROWS:
            found = pattern.fullmatch(row)
            if found is not None:
                rows.append(say(found))
                break
        else:
            rows.append(row)
    return "\n".join(rows)


def sheet_lines(m: Match) -> list[str]:
    """The score sheet of ``m`` as ``play`` shows it (its title, a row per finished round,
    the totals), in the language in use; in English, ``show``'s (:func:`match_lines`).

    >>> from chickenfoot import Rules
    >>> from chickenfoot._i18n import use
    >>> m = Match.start(Rules(players=2), seed=3)
    >>> with use("ro"):
    ...     sheet_lines(m)
    ['Partida: sămânța 3, 0 din 10 runde jucate']
    """
    if current().lang == "en":
        return match_lines(m)[:-1]
    rules, played = m.rules, m.rounds_played
    length = rules.match
    if isinstance(length, Rounds):
        title = ngettext(
            "Match: seed {seed}, {played} of {n} round played",
            "Match: seed {seed}, {played} of {n} rounds played",
            length.count,
            seed=m.seed,
            played=played,
            n=length.count,
        )
    else:
        title = _("Match: seed {seed}, {played} rounds played", seed=m.seed, played=played)
    lines = [title]
    if m.scores:
        heads = [_("round"), _("centre")] + [_("seat {seat}", seat=s) for s in range(rules.players)]
        rows = [
            [str(k + 1), f"{rules.centre_of_round(k)}-{rules.centre_of_round(k)}", *map(str, row)]
            for k, row in enumerate(m.scores)
        ]
        rows.append([_("total"), "", *map(str, m.totals)])
        widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
        for r in [heads, *rows]:
            lines.append("  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)))
    return lines
