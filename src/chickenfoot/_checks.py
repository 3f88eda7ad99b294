"""The argument checks of the public entry points: one place for the bad-input contract.

docs/api.md promises that a wrong value raises one of the library's errors with a short
message naming the argument, and that nothing else escapes. Every public function and
constructor of the package checks its arguments with these functions, before it changes
anything, instead of writing its own ``isinstance`` tests (the audit of issue 18 found the
entry points that wrote none).

The contract, for every function here:

- it takes the value and the argument's name as the caller wrote it (``"seed"``,
  ``"seeds[3]"``, ``"--round"``);
- it returns the value when it is acceptable (``integer`` with ``index=True`` returns a
  numpy integer as a Python ``int``; ``real`` returns a ``float``);
- otherwise it raises ``error`` (default :class:`~chickenfoot.ArgumentError`, also a
  ``TypeError``) with the one-line message ``NAME=VALUE is invalid: must be ...``, the value
  shown by :func:`~chickenfoot.errors.brief` (bounded, whatever it is);
- it never calls anything on the value but ``type``, ``isinstance``, comparisons of
  integers and floats, and ``len`` of a real sequence.

It imports only :mod:`chickenfoot.errors`, so every module, the rules kernel included, may
use it.

>>> integer(3, "depth", low=0)
3
>>> integer(True, "depth", low=0)
Traceback (most recent call last):
...
chickenfoot.errors.ArgumentError: depth=True is invalid: must be an integer of at least 0
>>> real(float("nan"), "follow")
Traceback (most recent call last):
...
chickenfoot.errors.ArgumentError: follow=nan is invalid: must be a finite number
"""

from __future__ import annotations

import math
import operator
import random
import sys
from collections.abc import Sequence
from typing import Any, Final, TypeVar

from chickenfoot.errors import MAX_DIGITS, ArgumentError, ChickenFootError, brief, within_digits

__all__ = [
    "choice",
    "flag",
    "function",
    "instance",
    "indent",
    "integer",
    "invalid",
    "listing",
    "random_generator",
    "real",
    "SEED_BOUND",
    "seed",
    "sequence",
]

T = TypeVar("T")
E = type[ChickenFootError]


def invalid(name: str, value: object, must: str, error: E = ArgumentError) -> ChickenFootError:
    """The error ``NAME=VALUE is invalid: must ...`` (``must`` starts with "must").

    >>> str(invalid("k", -1, "must be None or an int >= 0"))
    'k=-1 is invalid: must be None or an int >= 0'
    """
    label = name if len(name) <= 40 else brief(name, 40)
    return error(f"{label}={brief(value)} is invalid: {must}")


def _number(x: int | float) -> str:
    """A bound as the message shows it: ``1,000``, ``0.5``, ``1e+150``; a bound too large to
    print (another argument, e.g. ``high=n``) as :func:`~chickenfoot.errors.brief` says it."""
    if isinstance(x, int) and x.bit_length() > 128:
        return brief(x)
    return f"{x:,}" if isinstance(x, int) or (x.is_integer() and abs(x) < 1e16) else f"{x:g}"


def _range_words(low: int | float | None, high: int | float | None) -> str:
    if low is not None and high is not None:
        return f"from {_number(low)} to {_number(high)}"
    if low is not None:
        return f"of at least {_number(low)}"
    if high is not None:
        return f"of at most {_number(high)}"
    return ""


def integer(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    index: bool = False,
    error: E = ArgumentError,
    must: str | None = None,
) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) from ``low`` to ``high`` (each optional).

    ``index=True`` also takes any other integer type (numpy's), returned as an ``int``.
    ``must`` replaces the message's words (``must be an integer from LOW to HIGH``) where
    the caller says more, e.g. ``must be None or a seat from 0 to 3``.

    >>> integer(5, "n", low=1, high=4)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: n=5 is invalid: must be an integer from 1 to 4
    """
    n: Any = value
    if index and type(n) is not int and not isinstance(n, bool) and hasattr(type(n), "__index__"):
        try:
            n = operator.index(n)
        except Exception:  # a hostile __index__: the value is simply not an integer
            n = value
    if type(n) is not int or (low is not None and n < low) or (high is not None and n > high):
        words = must or f"must be an integer {_range_words(low, high)}".rstrip()
        raise invalid(name, value, words, error)
    return n


def real(
    value: object,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    above: float | None = None,
    error: E = ArgumentError,
) -> float:
    """``value`` as a ``float`` if it is a finite real number (an int or a float, numpy's
    included, not a ``bool``) from ``low`` to ``high`` and, if given, above ``above``.

    >>> real(2, "weight")
    2.0
    >>> real(0.0, "seconds", above=0)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: seconds=0.0 is invalid: must be a finite number above 0
    """
    x: Any = value
    ok = (not isinstance(x, bool) and isinstance(x, (int, float))) or _numpy_real(x)
    if ok:
        try:
            x = float(x)
        except OverflowError:  # an int too large for a float
            ok = False
    if ok:
        ok = math.isfinite(x) and (low is None or x >= low) and (high is None or x <= high)
        ok = ok and (above is None or x > above)
    if not ok:
        words = _range_words(low, high)
        if above is not None:
            words = f"above {_number(above)}" + (f" and {words}" if words else "")
        raise invalid(name, value, f"must be a finite number {words}".rstrip(), error)
    return float(x)


def _numpy_real(x: object) -> bool:
    kind = type(x)
    return (
        kind.__module__ == "numpy"
        and hasattr(kind, "dtype")
        and getattr(getattr(x, "dtype", None), "kind", "") in "iuf"
        and getattr(x, "ndim", 1) == 0
    )


def flag(value: object, name: str, *, error: E = ArgumentError) -> bool:
    """``value`` if it is ``True`` or ``False`` (not ``0``, ``1`` or ``"no"``)."""
    if type(value) is not bool:
        raise invalid(name, value, "must be True or False", error)
    return value


def choice(value: object, name: str, options: Sequence[str], *, error: E = ArgumentError) -> str:
    """``value`` if it is one of the strings ``options``.

    >>> choice("fast", "rollout", ("greedy", "random"))
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: rollout='fast' is invalid: must be 'greedy' or 'random'
    """
    if not isinstance(value, str) or value not in options:
        names = [repr(o) for o in options]
        words = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        raise invalid(name, value, f"must be {words}", error)
    return value


def instance(value: object, kind: type[T], who: str, *, error: E = ArgumentError) -> T:
    """``value`` if it is a ``kind``; else ``WHO needs a KIND, got VALUE``.

    >>> instance("x", int, "perft")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: perft needs an int, got 'x'
    """
    if not isinstance(value, kind):
        name = kind.__name__
        article = "an" if name[:1].lower() in "aeiou" else "a"
        raise error(f"{who} needs {article} {name}, got {brief(value)}")
    return value


def random_generator(value: object, name: str = "rng") -> random.Random:
    """``value`` if it is a :class:`random.Random` (its subclasses included): the library
    draws with its methods, so a numpy ``Generator``, a seed or ``None`` is not one.

    >>> random_generator(5, "rng")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: rng=5 is invalid: must be a random.Random (e.g. random.Random(0))
    """
    if not isinstance(value, random.Random):
        raise invalid(name, value, "must be a random.Random (e.g. random.Random(0))")
    return value


def function(value: T, name: str) -> T:
    """``value`` if it is callable."""
    if not callable(value):
        raise invalid(name, value, "must be callable")
    return value


def sequence(
    value: object,
    name: str,
    what: str = "items",
    *,
    low: int | None = None,
    high: int | None = None,
) -> Sequence[Any]:
    """``value`` if it is a sequence (a list, a tuple...) but not text, of ``low`` to
    ``high`` items (each optional; a ``range`` too long for ``len`` has too many).

    >>> sequence("ab", "agents", "agents")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: agents='ab' is invalid: must be a sequence of agents
    >>> sequence(range(10**20), "seeds", "ints", low=2, high=2)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: seeds has more than 9,223,372,036,854,775,807 items: must have 2
    """
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise invalid(name, value, f"must be a sequence of {what}")
    if low is not None or high is not None:
        try:
            size: int | None = len(value)
        except OverflowError:  # a range of more than sys.maxsize items
            size = None
        if size is None or (low is not None and size < low) or (high is not None and size > high):
            had = f"more than {sys.maxsize:,} items" if size is None else f"{size:,} item"
            had += "" if size == 1 or size is None else "s"
            words = f"{low:,}" if low == high else _range_words(low, high)
            raise ArgumentError(f"{name} has {had}: must have {words}")
    return value


SEED_WORDS: Final = f"must be an integer of at most {MAX_DIGITS:,} digits"
SEED_BOUND: Final = 10**MAX_DIGITS
"""Seeds and round numbers are strictly between ``-SEED_BOUND`` and ``SEED_BOUND``."""


def seed(value: object, name: str = "seed", *, low: int | None = None, index: bool = False) -> int:
    """``value`` if it is an integer of at most :data:`~chickenfoot.errors.MAX_DIGITS`
    digits (and at least ``low``): a seed or a round number, which a deal writes as text.

    >>> seed(10**4000, "seed")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.ArgumentError: seed=an integer of about 4,001 digits is invalid: must be an integer of at most 4,000 digits
    """
    n: Any = value
    if type(n) is int and -SEED_BOUND < n < SEED_BOUND and (low is None or n >= low):
        return n  # the common case first: deals check their seed and round on every call
    if index and type(n) is not int and not isinstance(n, bool) and hasattr(type(n), "__index__"):
        try:
            n = operator.index(n)
        except Exception:  # a hostile __index__: the value is simply not an integer
            n = value
    if type(n) is not int or not within_digits(n) or (low is not None and n < low):
        if low == 0:
            words = f"must be a non-negative integer of at most {MAX_DIGITS:,} digits"
        else:
            words = SEED_WORDS + ("" if low is None else f" and at least {low:,}")
        raise invalid(name, value, words)
    return n


MAX_INDENT: Final = 16


def indent(value: object) -> int | None:
    """The ``indent`` of a ``to_json``: ``None`` (one line) or 0 to 16 spaces.

    >>> indent(2), indent(None)
    (2, None)
    """
    if value is None:
        return None
    return integer(value, "indent", low=0, high=MAX_INDENT)


def listing(items: Sequence[object], limit: int = 6) -> str:
    """At most ``limit`` items joined by commas, then how many more: for bounded messages.

    >>> listing(["9-9", "9-8"]), listing(range(20), 3)
    ('9-9, 9-8', '0, 1, 2 and 17 more')
    """
    shown = ", ".join(str(x) for x in list(items[:limit]))
    rest = len(items) - limit
    return f"{shown} and {rest:,} more" if rest > 0 else shown
