"""How a page's picture of the table follows a move without being sent again: the lines
of the new picture told against the lines of the one the page holds
(:func:`picture_patch`; the table page rebuilds it, ``static/table.js``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["picture_patch"]


def picture_patch(before: Sequence[str], after: Sequence[str]) -> list[list[int] | str]:
    """The lines of a picture ``after``, told against the lines of the one ``before``:
    ``[start, count]`` copies ``count`` lines of ``before`` from ``start``, a string is a
    new line. A move changes a few lines of the table's picture (a domino is one line), so
    the change is a few hundred bytes where the picture is tens of thousands.

    >>> picture_patch(["<svg>", "a", "b", "</svg>"], ["<svg>", "a", "c", "b", "</svg>"])
    [[0, 2], 'c', [2, 2]]
    """
    where: dict[str, int] = {}
    for i, line in enumerate(before):
        where.setdefault(line, i)
    parts: list[list[int] | str] = []
    run: list[int] | None = None
    for line in after:
        if run is not None and run[0] + run[1] < len(before) and before[run[0] + run[1]] == line:
            run[1] += 1
            continue
        j = where.get(line)
        if j is None:
            run = None
            parts.append(line)
        else:
            run = [j, 1]
            parts.append(run)
    return parts
