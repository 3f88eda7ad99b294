"""Deprecation machinery: how a public name is retired without breaking anyone at once.

The policy (docs/stability.md): a public name (one listed in ``chickenfoot.__all__``, or a
public method or argument of one) is deprecated in a minor release, keeps working with a
:class:`ChickenFootDeprecationWarning` (a :class:`DeprecationWarning`) for at least one
further minor release, and is removed only in the next major release. The warning names
what to use instead and the release that removes it, and points at the caller's line.

>>> import warnings
>>> @deprecated(since="0.2", removed_in="1.0", instead="chickenfoot.table.Table.find")
... def where(tile):
...     return tile
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     where("9-3")
'9-3'
>>> print(caught[0].message)
where is deprecated since 0.2 and will be removed in 1.0; use chickenfoot.table.Table.find instead
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["ChickenFootDeprecationWarning", "deprecated", "warn_deprecated"]

P = ParamSpec("P")
R = TypeVar("R")


class ChickenFootDeprecationWarning(DeprecationWarning):
    """A library feature that still works but will be removed; the message says the way out."""


def warn_deprecated(
    what: str, *, since: str, removed_in: str, instead: str, stacklevel: int = 2
) -> None:
    """Warn that ``what`` is deprecated (for arguments and values; functions use :func:`deprecated`).

    ``stacklevel`` counts as for :func:`warnings.warn` from the caller of this function: 2
    points at the line that called the function that calls this one.
    """
    warnings.warn(
        f"{what} is deprecated since {since} and will be removed in {removed_in}; "
        f"use {instead} instead",
        ChickenFootDeprecationWarning,
        stacklevel=stacklevel + 1,
    )


def deprecated(
    *, since: str, removed_in: str, instead: str
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a function or method deprecated: each call warns, then runs it unchanged.

    The docstring gains a "Deprecated" note, so the API reference shows it too.
    """

    def mark(func: Callable[P, R]) -> Callable[P, R]:
        name = func.__qualname__

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            warn_deprecated(name, since=since, removed_in=removed_in, instead=instead, stacklevel=2)
            return func(*args, **kwargs)

        note = f"Deprecated since {since}, removed in {removed_in}: use {instead}."
        wrapper.__doc__ = f"{func.__doc__ or ''}\n\n{note}".strip()
        return wrapper

    return mark
