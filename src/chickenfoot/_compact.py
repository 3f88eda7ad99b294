"""The compact text picture, drawn (private): what ``render_compact``, ``str(state)`` and
``str(view)`` print.

:func:`chickenfoot.render_compact` (in :mod:`chickenfoot.render`) checks its arguments and
draws with :func:`draw_state` or :func:`draw_view`; :meth:`State.__str__ <chickenfoot.State.__str__>` and
:meth:`View.__str__ <chickenfoot.View.__str__>` call it directly, knowing what they are, so
this module stands below both and imports neither (their names here are types only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chickenfoot.outcome import Outcome, Termination
from chickenfoot.table import Table

if TYPE_CHECKING:
    from chickenfoot.state import State
    from chickenfoot.view import View

__all__ = ["draw_state", "draw_view", "plural"]


def plural(count: int, word: str) -> str:
    """``1 tile``, ``2 tiles``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _ending(result: Outcome) -> str:
    if result.termination is Termination.OUT:
        return f"over: seat {result.seat} went out"
    return "over: blocked (the boneyard is empty and nobody can play)"


def _compact_table(table: Table, centre_text: str) -> list[str]:
    if table.centre is None:
        return [f"table empty: the centre {centre_text} is not laid yet"]
    last = table.last
    out = []
    for hub in table.hubs:
        head = f"centre {hub.tile}" if hub.is_centre else f"foot {hub.tile}"
        count = f"{len(hub.lines)}/{hub.toes_required} toes"
        if hub is table.pending_hub:
            more = plural(table.toes_needed, "more toe")
            count += f", needs {more}"
        out.append(f"{head}  ({count})")
        for i, line in enumerate(hub.lines):
            branch = "└" if i == len(hub.lines) - 1 else "├"
            tiles = " ".join(
                f"{p}*" if last is not None and p.tile == last.tile else str(p) for p in line.tiles
            )
            closed = line.closed_by
            end = f"→ {line.open_end}" if closed is None else f"▪ foot {closed}"
            out.append(f"  {branch} {tiles} {end}")
    return out


def _wrapped(head: str, words: list[str], tail: str, width: int) -> list[str]:
    """``head``, the words and ``tail`` on rows of at most ``width`` characters (as far as
    the words allow), continuation rows indented under the first word."""
    rows: list[str] = []
    row = head
    for word in [*words, tail]:
        at_start = row == head
        if not at_start and len(row) + 1 + len(word) > width:
            rows.append(row)
            row = " " * len(head) + word
        else:
            row = row + word if at_start else f"{row} {word}"
    rows.append(row)
    return rows


def _table_and_status(position: State | View) -> list[str]:
    out = _compact_table(position.table, str(position.centre))
    result = position.outcome()
    if result is None:
        status = f"seat {position.turn} to play"
        drawn = position.drawn
        if drawn is not None:
            status += f" · has drawn {drawn}"
    else:
        status = _ending(result)
    out.append(f"{status} · boneyard {position.boneyard_size}")
    return out


def draw_state(state: State, *, width: int) -> str:
    """The picture :func:`chickenfoot.render_compact` documents, of a state: every hand
    (trusted arguments)."""
    out = _table_and_status(state)
    points = state.penalties()
    for s, hand in enumerate(state.hands):
        words = [str(t) for t in hand] or ["none"]
        count = f"({plural(len(hand), 'tile')}, {points[s]} points)"
        out.extend(_wrapped(f"  seat {s}: ", words, count, width))
    return "\n".join(out)


def draw_view(view: View, *, width: int) -> str:
    """The picture :func:`chickenfoot.render_compact` documents, of a view: its seat's hand,
    the others as counts (trusted arguments)."""
    out = _table_and_status(view)
    for s, size in enumerate(view.hand_sizes):
        if s == view.seat:
            words = [str(t) for t in view.hand] or ["none"]
            count = f"({plural(size, 'tile')}, {view.penalty} points)"
            out.extend(_wrapped(f"> seat {s}: ", words, count, width))
        else:
            out.append(f"  seat {s}: {plural(size, 'tile')}")
    return "\n".join(out)
