"""Tiles, tile ids and the tiles of a double-N set (the terms of docs/rules.md).

A :class:`Tile` is an immutable value, interned: ``Tile(9, 4) is Tile(4, 9)``. Its id is
``high * (high + 1) // 2 + low``; tiles order by id everywhere.

>>> t = Tile(4, 9)
>>> t, str(t), t.id, t.pips, t.is_double
(Tile(9, 4), '9-4', 49, 13, False)
>>> Tile.parse("4-9") is t
True
>>> [str(x) for x in tiles_of_set(2)]
['0-0', '1-0', '1-1', '2-0', '2-1', '2-2']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from chickenfoot.errors import ArgumentError, InvalidMoveError, brief

__all__ = ["MAX_PIP", "Tile", "set_size", "tile_id", "tiles_of_set"]

MAX_PIP: Final = 18
"""The largest pip number any supported set has (double-eighteen)."""

_TILE_TEXT: Final = re.compile(r"(0|[1-9][0-9]*)-(0|[1-9][0-9]*)\Z")


def tile_id(a: int, b: int) -> int:
    """The id of tile ``a-b`` (either order); the numbers are from 0 to :data:`MAX_PIP`.

    >>> tile_id(0, 0), tile_id(1, 0), tile_id(0, 1), tile_id(9, 9)
    (0, 1, 1, 54)
    """
    for name, number in (("a", a), ("b", b)):
        if type(number) is not int or not 0 <= number <= MAX_PIP:
            raise ArgumentError(
                f"{name}={brief(number)} is invalid: must be an integer from 0 to {MAX_PIP}"
            )
    return _id(a, b)


def _id(a: int, b: int) -> int:
    if a < b:
        a, b = b, a
    return a * (a + 1) // 2 + b


def set_size(max_pip: int) -> int:
    """How many tiles a double-``max_pip`` set has (``max_pip`` from 0 to :data:`MAX_PIP`).

    >>> set_size(9), set_size(12)
    (55, 91)
    """
    if type(max_pip) is not int or not 0 <= max_pip <= MAX_PIP:
        raise ArgumentError(
            f"max_pip={brief(max_pip)} is invalid: must be an integer from 0 to {MAX_PIP}"
        )
    return (max_pip + 1) * (max_pip + 2) // 2


class Tile:
    """One domino tile ``high-low`` (``high >= low``), interned and immutable.

    Construct with either order of the numbers, parse with :meth:`parse`, or look up by id
    with :meth:`from_id`. Tiles compare equal only to themselves and order by id.

    >>> Tile(3, 5) == Tile(5, 3), Tile(1, 0) < Tile(1, 1), Tile.from_id(2)
    (True, True, Tile(1, 1))
    >>> Tile(9, 4).other(4), Tile(9, 4).has(9)
    (9, True)
    """

    __slots__ = ("high", "id", "low")
    high: int
    low: int
    id: int

    def __new__(cls, a: int, b: int) -> Tile:
        if (
            type(a) is not int
            or type(b) is not int
            or not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP)
        ):
            raise InvalidMoveError(
                f"{brief(a)}-{brief(b)} is not a tile: numbers must be integers from 0 to {MAX_PIP}"
            )
        return BY_ID[_id(a, b)]

    @classmethod
    def _create(cls, high: int, low: int) -> Tile:
        self = object.__new__(cls)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "id", _id(high, low))
        return self

    @classmethod
    def from_id(cls, tid: int) -> Tile:
        """The tile with id ``tid``.

        >>> Tile.from_id(49)
        Tile(9, 4)
        """
        if type(tid) is not int or not 0 <= tid < len(BY_ID):
            raise InvalidMoveError(f"{brief(tid)} is not a tile id (0 to {len(BY_ID) - 1})")
        return BY_ID[tid]

    @classmethod
    def parse(cls, text: str, *, max_pip: int = MAX_PIP) -> Tile:
        """Parse ``H-L`` (either order); a number above ``max_pip`` is an error.

        >>> Tile.parse("12-0")
        Tile(12, 0)
        >>> Tile.parse("10-2", max_pip=9)
        Traceback (most recent call last):
        ...
        chickenfoot.errors.InvalidMoveError: '10-2' is not a tile of the double-9 set
        """
        if type(max_pip) is not int or not 0 <= max_pip <= MAX_PIP:
            raise ArgumentError(f"max_pip={brief(max_pip)} is invalid: must be an integer 0 to 18")
        m = _TILE_TEXT.match(text) if isinstance(text, str) else None
        if m is None:
            raise InvalidMoveError(f"{brief(text)} is not a tile: expected H-L such as '9-4'")
        # Compare the digits as text first: a thousand-digit number must not reach int().
        limit = min(max_pip, MAX_PIP)
        if any(len(g) > 2 or int(g) > limit for g in m.groups()):
            raise InvalidMoveError(f"{brief(text)} is not a tile of the double-{max_pip} set")
        return BY_ID[_id(int(m.group(1)), int(m.group(2)))]

    @property
    def pips(self) -> int:
        """``high + low``."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """Whether both numbers are equal."""
        return self.high == self.low

    def has(self, number: int) -> bool:
        """Whether either side shows ``number``."""
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The number on the side opposite ``number`` (which the tile must show).

        >>> Tile(9, 4).other(7)
        Traceback (most recent call last):
        ...
        chickenfoot.errors.ArgumentError: number=7 is invalid: must be a number 9-4 shows (9 or 4)
        """
        if type(number) is int:
            if number == self.high:
                return self.low
            if number == self.low:
                return self.high
        shows = f"{self.high}" if self.high == self.low else f"{self.high} or {self.low}"
        raise ArgumentError(
            f"number={brief(number)} is invalid: must be a number {self} shows ({shows})"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tile, (self.high, self.low))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: Any) -> Tile:
        return self

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.id < other.id

    def __le__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.id <= other.id

    def __gt__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.id > other.id

    def __ge__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.id >= other.id

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


BY_ID: Final[tuple[Tile, ...]] = tuple(
    Tile._create(a, b) for a in range(MAX_PIP + 1) for b in range(a + 1)
)
"""Every tile of the largest set, by id: the interned tiles (shared with the kernel and the
modules that turn tile ids back into tiles; not in ``__all__``)."""


def tiles_of_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of the double-``max_pip`` set, in id order (ids ``0 .. set_size - 1``)."""
    return BY_ID[: set_size(max_pip)]  # (set_size checks max_pip)


def iter_bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first (internal helper for tile bitmasks)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# Tables over every supported tile id (the ids of a double-N set are 0 .. set_size(N) - 1,
# so one global table serves every set).
PIPS: Final[tuple[tuple[int, int], ...]] = tuple((t.high, t.low) for t in BY_ID)
"""``PIPS[id] == (high, low)``."""
WITH: Final[tuple[int, ...]] = tuple(
    sum(1 << t.id for t in BY_ID if t.has(v)) for v in range(MAX_PIP + 1)
)
"""``WITH[v]``: bitmask of the tiles showing ``v``."""
DOUBLE_ID: Final[tuple[int, ...]] = tuple(_id(v, v) for v in range(MAX_PIP + 1))
"""``DOUBLE_ID[v]``: the id of ``v-v``."""
