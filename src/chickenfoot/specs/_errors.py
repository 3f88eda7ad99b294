"""The errors of agent specs, and how an exception is said on one line.

Both errors are :class:`~chickenfoot.errors.ChickenFootError` (a ``ValueError``); their
public home is :mod:`chickenfoot.specs`.
"""

from __future__ import annotations

from chickenfoot.errors import ChickenFootError

__all__ = ["SpecError", "UntrustedSpecError", "said"]

_MESSAGE = 200
"""How much of an exception's message an error line quotes."""


class SpecError(ChickenFootError):
    """An agent spec that is not one: unknown, malformed, or naming something that cannot
    be imported or is not an agent. The command line reports it as any usage error."""


class UntrustedSpecError(SpecError):
    """A well-formed spec that would run code (``engine:COMMAND``, ``module:Class``) where
    the :class:`Trust` it was built with allows built-in agents only."""


def said(err: BaseException) -> str:
    """``Type: message`` of an exception, bounded, on one line.

    >>> said(ValueError("no  good")), said(KeyError())
    ('ValueError: no good', 'KeyError')
    """
    try:
        text = " ".join(str(err).split())
    except Exception:  # a hostile __str__
        text = ""
    if len(text) > _MESSAGE:
        text = f"{text[:_MESSAGE]}... ({len(text):,} characters)"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
