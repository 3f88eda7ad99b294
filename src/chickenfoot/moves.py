"""Moves and their notation (the move notation of docs/formats.md): plays, draws and passes.

Moves are interned immutable values, so they compare and hash by identity at C speed.

>>> m = parse_move("4-9@9-9")
>>> m, str(m), m.tile, m.anchor
(Play(Tile(9, 4), Tile(9, 9)), '9-4@9-9', Tile(9, 4), Tile(9, 9))
>>> parse_move("draw") is DRAW, str(parse_move("draw:5-3")), parse_move("pass") is PASS
(True, 'draw:5-3', True)
>>> str(Play(Tile(9, 9)))  # laying the centre in holder mode has no anchor
'9-9'
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from chickenfoot.deprecation import deprecated
from chickenfoot.errors import ArgumentError, InvalidMoveError, brief
from chickenfoot.tiles import BY_ID, MAX_PIP, Tile, tile_id

__all__ = ["DRAW", "PASS", "Draw", "Event", "Move", "Pass", "Play", "parse_move"]


class Move:
    """Base class of :class:`Play`, :class:`Draw` and :class:`Pass`, the only moves there
    are: it cannot be extended outside this module.
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.__module__ != __name__:
            raise TypeError(
                f"{cls.__name__}: the moves are Play, Draw and Pass; Move cannot be extended"
            )
        super().__init_subclass__(**kwargs)

    @staticmethod
    def parse(text: str, *, max_pip: int = MAX_PIP) -> Move:
        """Same as :func:`parse_move`."""
        return parse_move(text, max_pip=max_pip)

    def notation(self) -> str:  # pragma: no cover - overridden
        """The move in the library's move notation (docs: Formats, "Move notation"), as
        ``str(move)``: ``9-4@9-9``, ``draw``, ``draw:5-3``, ``pass``."""
        raise NotImplementedError

    @deprecated(since="0.1", removed_in="1.0", instead="Move.notation() or str(move)")
    def uci(self) -> str:
        """The move notation: the old name of :meth:`notation` (UCI is chess's engine
        protocol, not this notation)."""
        return self.notation()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: Any) -> Move:
        return self

    def __str__(self) -> str:
        return self.notation()


class Play(Move):
    """Lay ``tile`` against ``anchor`` (a hub or the last tile of a line).

    ``anchor`` is ``None`` only for laying the centre in ``holder`` mode.

    >>> Play(Tile(4, 7), Tile(9, 4)).notation()
    '7-4@9-4'
    >>> Play(Tile(4, 7), Tile(9, 4)) is Play(Tile(7, 4), Tile(4, 9))
    True
    """

    __slots__ = ("_a", "_t", "anchor", "tile")
    tile: Tile
    anchor: Tile | None
    _t: int
    _a: int

    def __new__(cls, tile: Tile, anchor: Tile | None = None) -> Play:
        if not isinstance(tile, Tile) or not (anchor is None or isinstance(anchor, Tile)):
            raise InvalidMoveError(
                f"Play({brief(tile)}, {brief(anchor)}): expected a Tile and a Tile or None"
            )
        return play_by_ids(tile.id, -1 if anchor is None else anchor.id)

    def notation(self) -> str:
        """The notation ``TILE@ANCHOR`` (or ``TILE`` for the centre lay)."""
        return str(self.tile) if self.anchor is None else f"{self.tile}@{self.anchor}"

    @property
    def joins(self) -> int | None:
        """The number where the tile meets its anchor: the hub's number for a toe (an
        anchor that is a double), else the number the tile shares with the anchor's open
        end; ``None`` for the centre, which is laid against nothing (and for a tile that
        shares no number with its anchor, which no position allows).

        >>> [parse_move(m).joins for m in ("9-3@9-9", "3-1@9-3", "3-3@9-3", "9-9")]
        [9, 3, 3, None]
        """
        a = self.anchor
        if a is None:
            return None
        if a.high == a.low:
            return a.high
        t = self.tile
        if a.has(t.high):
            return t.high
        return t.low if a.has(t.low) else None

    @property
    def opens(self) -> int | None:
        """The number the play leaves open: the tile's other number, which the next tile
        on this line must carry; for a double (the centre, or a foot closing its line) its
        own number, which its toes must carry. ``None`` only where :attr:`joins` is for a
        tile that shares no number with its anchor.

        >>> [parse_move(m).opens for m in ("9-3@9-9", "3-1@9-3", "3-3@9-3", "9-9")]
        [3, 1, 3, 9]
        """
        t = self.tile
        if t.high == t.low:
            return t.high
        joined = self.joins
        return None if joined is None else t.other(joined)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.tile, self.anchor))

    def __repr__(self) -> str:
        if self.anchor is None:
            return f"Play({self.tile!r})"
        return f"Play({self.tile!r}, {self.anchor!r})"


PLAY_ROWS: Final[list[dict[int, Play]]] = [{} for _ in BY_ID]
"""The interned plays: ``PLAY_ROWS[t][a]`` is tile id ``t`` on anchor id ``a`` (filled on
demand by :func:`play_by_ids`; shared with the kernel and the playout loop, not in ``__all__``)."""


def play_by_ids(t: int, a: int) -> Play:
    """The interned :class:`Play` of tile id ``t`` on anchor id ``a`` (-1: no anchor)."""
    row = PLAY_ROWS[t]
    m = row.get(a)
    if m is None:
        m = object.__new__(Play)
        osa = object.__setattr__
        osa(m, "tile", BY_ID[t])
        osa(m, "anchor", None if a < 0 else BY_ID[a])
        osa(m, "_t", t)
        osa(m, "_a", a)
        # setdefault is one atomic step: two threads that both missed still share the one
        # object stored first, so moves stay comparable by identity.
        m = row.setdefault(a, m)
    return m


class Draw(Move):
    """Draw from the boneyard: the front tile (``draw``) or a named one (``draw:5-3``).

    >>> Draw() is DRAW, Draw(Tile(5, 3)).notation()
    (True, 'draw:5-3')
    """

    __slots__ = ("tile",)
    tile: Tile | None

    def __new__(cls, tile: Tile | None = None) -> Draw:
        if tile is None:
            return DRAW
        if not isinstance(tile, Tile):
            raise InvalidMoveError(f"Draw({brief(tile)}): expected a Tile or None")
        return DRAWS[tile.id]

    @classmethod
    def _create(cls, tile: Tile | None) -> Draw:
        m = object.__new__(cls)
        object.__setattr__(m, "tile", tile)
        return m

    def notation(self) -> str:
        """``draw`` or ``draw:TILE``."""
        return "draw" if self.tile is None else f"draw:{self.tile}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Draw, (self.tile,))

    def __repr__(self) -> str:
        return "Draw()" if self.tile is None else f"Draw({self.tile!r})"


class Pass(Move):
    """Pass the turn to the next seat.

    >>> Pass() is PASS, PASS.notation()
    (True, 'pass')
    """

    __slots__ = ()

    def __new__(cls) -> Pass:
        return PASS

    def notation(self) -> str:
        """``pass``."""
        return "pass"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pass, ())

    def __repr__(self) -> str:
        return "Pass()"


DRAW: Final[Draw] = Draw._create(None)
"""The move ``draw``: take the front tile of the boneyard."""
DRAWS: Final[tuple[Draw, ...]] = tuple(Draw._create(t) for t in BY_ID)
"""The interned ``draw:X-Y`` moves, by tile id (shared with the kernel, not in ``__all__``)."""
PASS: Final[Pass] = object.__new__(Pass)
"""The move ``pass``."""


class Event(NamedTuple):
    """One entry of a round's history: ``seat`` made ``move``.

    In a state's history every draw names its tile (``draw:5-3``); in a player's view only
    that player's own draws do, and the others' are plain ``draw``.

    >>> e = Event(2, parse_move("9-4@9-9"))
    >>> e.seat, str(e.move), str(e)
    (2, '9-4@9-9', '2:9-4@9-9')
    """

    seat: int
    move: Move

    def __str__(self) -> str:
        return f"{self.seat}:{self.move}"


def _check_max_pip(max_pip: object) -> None:
    if type(max_pip) is not int or not 0 <= max_pip <= MAX_PIP:
        raise ArgumentError(f"max_pip={brief(max_pip)} is invalid: must be an integer 0 to 18")


_NUM = r"(?:0|[1-9][0-9]*)"
_MOVE_TEXT: Final = re.compile(rf"({_NUM})-({_NUM})(?:@({_NUM})-({_NUM}))?\Z")
_DRAW_TEXT: Final = re.compile(rf"draw:({_NUM})-({_NUM})\Z")


def parse_move(text: str, *, max_pip: int = MAX_PIP) -> Move:
    """Parse move notation (docs/formats.md, "Move notation"): ``9-4@9-9``, ``9-9``, ``draw``, ``draw:5-3``, ``pass``.

    Numbers above ``max_pip`` do not name a tile. Errors quote the text.

    >>> parse_move("7-4@4-9")
    Play(Tile(7, 4), Tile(9, 4))
    >>> parse_move("9-4 @ 9-9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chickenfoot.errors.InvalidMoveError: '9-4 @ 9-9' is not a move: expected TILE@ANCHOR ...
    """
    _check_max_pip(max_pip)
    if not isinstance(text, str):
        raise InvalidMoveError(f"{brief(text)} is not a move: expected a string")
    if text == "draw":
        return DRAW
    if text == "pass":
        return PASS
    is_draw = text.startswith("draw:")
    m = _DRAW_TEXT.match(text) if is_draw else _MOVE_TEXT.match(text)
    if m is not None:
        # Compare the digits as text first: a thousand-digit number must not reach int().
        groups = [g for g in m.groups() if g is not None]
        if any(len(g) > 2 or int(g) > min(max_pip, MAX_PIP) for g in groups):
            raise InvalidMoveError(f"{brief(text)} names a tile outside the double-{max_pip} set")
        nums = [int(g) for g in groups]
        if is_draw:
            return DRAWS[tile_id(nums[0], nums[1])]
        return play_by_ids(
            tile_id(nums[0], nums[1]), tile_id(nums[2], nums[3]) if len(nums) == 4 else -1
        )
    raise InvalidMoveError(
        f"{brief(text)} is not a move: expected TILE@ANCHOR (e.g. '9-4@9-9'), TILE, "
        "'draw', 'draw:TILE' or 'pass'"
    )
