"""Text pictures for the command line: :mod:`chickenfoot.render`'s, for states and views."""

from __future__ import annotations

from chickenfoot.render import render, render_compact
from chickenfoot.state import State
from chickenfoot.view import View


def picture(obj: State | View, *, long: bool = False) -> str:
    """The compact picture (every hand for a position, one seat's for a view), or with
    ``long`` the detailed ASCII one of :func:`~chickenfoot.render.render` (positions only).
    """
    if long and isinstance(obj, State):
        return render(obj)
    return render_compact(obj)
