"""Numeric encodings of moves and player views, for learning agents and game frameworks.

One encoding, used by the OpenSpiel game and the PettingZoo environment (and meant for any
other host): an :class:`Encoding` is built for a rules configuration and gives

- a fixed **action space** of ``num_actions`` integers, lossless for play: every legal
  move of every position under those rules has exactly one action id, and every action
  id names at most one move;
- a fixed-size **observation** of a player's :class:`~chickenfoot.View`, as a flat
  ``float32`` vector or as named planes.

It needs numpy (installed by the ``openspiel`` and ``pettingzoo`` extras, or on its own);
the rest of the library does not.

Actions. Let ``S`` be the number of tiles in the set and ``N`` its highest number. A play
of the tile with id ``t`` (tile ids as in the rules: ``a*(a+1)/2 + b`` for ``a-b``) gets
the ``2N + 3`` actions ``t * (2N + 3) + slot``, where the slot says where it is laid:

- slot ``0``: with no anchor (laying the centre in holder mode);
- slot ``1 + k`` (``k`` from 0 to ``N``): against the tile ``H-k`` (``H`` the tile's
  higher number), i.e. matching ``H``;
- slot ``N + 2 + k``: against the tile ``L-k`` (``L`` the lower number), matching ``L``.

A tile and its anchor share exactly one number, so a play has one action (a double uses
the first range). After the plays come ``draw`` (``S * (2N + 3)``) and ``pass`` (the last
action): ``num_actions = S * (2N + 3) + 2``, 1,157 for double-nine and 2,459 for
double-twelve. Drawing a named tile (``draw:X-Y``) is chance, not a player's action.

Observations, from the viewer's seat (seats are rotated so that index 0 is the viewer and
1 is the next to play after them); every field is a block of the flat vector, in this
order:

============== ============ ================================================================
field          size         content
============== ============ ================================================================
hand           S            1 for each tile in the viewer's hand
table          S            1 for each tile on the table
anchors        S            1 for each tile that is an open line end (a place to lay against)
open_numbers   N + 1        how many open line ends show each number
pending        S            1 for the pending hub (the centre during the opening, or a foot)
toes_needed    1            how many toes the pending hub still needs (0 if none)
centre         N + 1        1 for the centre's number
drawn          S            1 for the tile the viewer drew this turn
hand_sizes     P            tiles in each hand, viewer first
boneyard       1            tiles left in the boneyard
turn           P            1 for the seat to act, viewer first (all 0 once the round is over)
history        H * (P + 3)  the last H public events, newest first: the seat (P, rotated),
                            then play / draw / pass (3); H = ``history`` (default 0)
============== ============ ================================================================

>>> from chickenfoot import Rules, deal
>>> from chickenfoot.encoding import Encoding
>>> enc = Encoding(Rules())
>>> enc.num_actions, enc.observation_size
(1157, 305)
>>> s = deal(Rules(), seed=1)
>>> [enc.action(m) for m in s.legal_moves]
[955, 1018, 1123]
>>> [str(enc.move(a)) for a in (955, enc.draw_action, enc.pass_action)]
['9-0@9-9', 'draw', 'pass']
>>> v = s.view(0)
>>> x = enc.observe(v)
>>> x.shape, x.dtype, int(x[: enc.size("hand")].sum())
((305,), dtype('float32'), 11)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from chickenfoot.errors import ArgumentError, brief
from chickenfoot.moves import DRAW, PASS, Draw, Move, Pass, Play, play_by_ids
from chickenfoot.rules import Rules
from chickenfoot.state import State
from chickenfoot.tiles import PIPS, Tile, tile_id
from chickenfoot.view import View

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["Encoding"]


class Encoding:
    """The action space and observation encoding for one rules configuration.

    ``history`` is how many recent public events the observation carries (0 to 64).
    Encodings are immutable and cheap to build; equal rules and history give equal ones.
    """

    __slots__ = (
        "_anchor_slot",
        "_fields",
        "_offsets",
        "_slot_anchor",
        "history",
        "max_pip",
        "num_actions",
        "observation_size",
        "players",
        "rules",
        "set_size",
        "slots",
    )

    rules: Rules
    """The rules the encoding is for."""
    history: int
    """How many recent public events an observation carries."""
    max_pip: int
    set_size: int
    players: int
    slots: int
    """Actions per tile: ``2 * max_pip + 3``."""
    num_actions: int
    """The size of the action space: ``set_size * slots + 2``."""
    observation_size: int
    """The length of the flat observation vector."""
    _fields: tuple[tuple[str, int], ...]
    _offsets: dict[str, tuple[int, int]]
    _anchor_slot: tuple[dict[int, int], ...]
    _slot_anchor: tuple[tuple[int | None, ...], ...]

    def __init__(self, rules: Rules, *, history: int = 0) -> None:
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules={brief(rules)} is invalid: must be a Rules object")
        if type(history) is not int or not 0 <= history <= 64:
            raise ArgumentError(f"history={brief(history)} is invalid: must be an int from 0 to 64")
        n, s, p = rules.max_pip, rules.set_size, rules.players
        set_ = object.__setattr__
        set_(self, "rules", rules)
        set_(self, "history", history)
        set_(self, "max_pip", n)
        set_(self, "set_size", s)
        set_(self, "players", p)
        set_(self, "slots", 2 * n + 3)
        set_(self, "num_actions", s * (2 * n + 3) + 2)
        fields = (
            ("hand", s),
            ("table", s),
            ("anchors", s),
            ("open_numbers", n + 1),
            ("pending", s),
            ("toes_needed", 1),
            ("centre", n + 1),
            ("drawn", s),
            ("hand_sizes", p),
            ("boneyard", 1),
            ("turn", p),
            ("history", history * (p + 3)),
        )
        offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in fields:
            offsets[name] = (at, at + size)
            at += size
        set_(self, "_fields", fields)
        set_(self, "_offsets", offsets)
        set_(self, "observation_size", at)
        # (tile id, anchor id) <-> slot, for every tile of the set
        anchor_slot: list[dict[int, int]] = []
        slot_anchor: list[list[int | None]] = []
        for t in range(s):
            hi, lo = PIPS[t]
            row: dict[int, int] = {-1: 0}
            back: list[int | None] = [-1] + [None] * (2 * n + 2)
            for k in range(n + 1):
                a = tile_id(hi, k)
                if a != t:
                    row[a] = 1 + k
                    back[1 + k] = a
            if lo != hi:
                for k in range(n + 1):
                    a = tile_id(lo, k)
                    if a != t and a not in row:
                        row[a] = n + 2 + k
                        back[n + 2 + k] = a
            anchor_slot.append(row)
            slot_anchor.append(back)
        set_(self, "_anchor_slot", tuple(anchor_slot))
        set_(self, "_slot_anchor", tuple(tuple(b) for b in slot_anchor))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Encoding is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Encoding):
            return NotImplemented
        return self.rules == other.rules and self.history == other.history

    def __hash__(self) -> int:
        return hash((self.rules, self.history))

    def __repr__(self) -> str:
        return (
            f"Encoding(players={self.players}, max_pip={self.max_pip}, history={self.history}, "
            f"num_actions={self.num_actions}, observation_size={self.observation_size})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.rules, self.history))

    # -- actions -----------------------------------------------------------------------------

    @property
    def draw_action(self) -> int:
        """The action id of ``draw``."""
        return self.num_actions - 2

    @property
    def pass_action(self) -> int:
        """The action id of ``pass``."""
        return self.num_actions - 1

    def action(self, move: Move | str) -> int:
        """The action id of ``move`` (a :class:`~chickenfoot.Move` or its notation).

        A named draw (``draw:X-Y``) is the draw action. Raises
        :class:`~chickenfoot.InvalidMoveError` for text that is not a move of this set, and
        :class:`~chickenfoot.ArgumentError` for a play no position could have (a tile laid
        against a tile it shares no number with).
        """
        if isinstance(move, str):
            from chickenfoot.moves import parse_move

            move = parse_move(move, max_pip=self.max_pip)
        if isinstance(move, Draw):
            return self.draw_action
        if isinstance(move, Pass):
            return self.pass_action
        if not isinstance(move, Play):
            raise ArgumentError(f"expected a Move or move notation, got {brief(move)}")
        t = move.tile.id
        a = -1 if move.anchor is None else move.anchor.id
        if t >= self.set_size or a >= self.set_size:
            raise ArgumentError(f"{move} is not a move of the double-{self.max_pip} set")
        slot = self._anchor_slot[t].get(a)
        if slot is None:
            raise ArgumentError(f"{move} is not a move any position can have: no number in common")
        return t * self.slots + slot

    def move(self, action: int | np.integer[Any]) -> Move:
        """The move of action id ``action``; raises :class:`~chickenfoot.ArgumentError` for
        an id outside ``range(num_actions)`` or one that names no move (an unused slot)."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ArgumentError(f"action={brief(action)} is invalid: must be an int")
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise ArgumentError(
                f"action={brief(action)} is invalid: must be from 0 to {self.num_actions - 1}"
            )
        if action == self.draw_action:
            return DRAW
        if action == self.pass_action:
            return PASS
        t, slot = divmod(action, self.slots)
        a = self._slot_anchor[t][slot]
        if a is None:
            raise ArgumentError(
                f"action={action} names no move (tile {Tile.from_id(t)}, slot {slot})"
            )
        return play_by_ids(t, a)

    def legal_actions(self, position: State | View) -> list[int]:
        """The action ids of ``position``'s legal moves, in increasing order."""
        action = self.action
        return sorted(action(m) for m in _legal(position))

    def legal_mask(self, position: State | View) -> NDArray[np.bool_]:
        """A boolean vector of ``num_actions``: True for each legal move of ``position``."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        for a in self.legal_actions(position):
            mask[a] = True
        return mask

    # -- observations ------------------------------------------------------------------------

    @property
    def fields(self) -> tuple[tuple[str, int], ...]:
        """The observation's fields as ``(name, size)``, in the order of the flat vector."""
        return self._fields

    def size(self, name: str) -> int:
        """The size of one field of the observation."""
        lo, hi = self._span(name)
        return hi - lo

    def _span(self, name: str) -> tuple[int, int]:
        try:
            return self._offsets[name]
        except (KeyError, TypeError):
            names = ", ".join(n for n, _ in self._fields)
            raise ArgumentError(f"no observation field {brief(name)} (fields: {names})") from None

    def observe(self, view: View, out: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
        """The flat ``float32`` observation of ``view`` (written into ``out`` if given)."""
        if not isinstance(view, View):
            raise ArgumentError(f"observe needs a View (state.view(seat)), got {brief(view)}")
        if view.rules != self.rules:
            raise ArgumentError("the view's rules are not the rules of this encoding")
        if out is None:
            out = np.zeros(self.observation_size, dtype=np.float32)
        else:
            shape = (self.observation_size,)
            if (
                not isinstance(out, np.ndarray)
                or out.shape != shape
                or out.dtype != np.float32
                or not out.flags.writeable
            ):
                raise ArgumentError(
                    f"out={brief(out)} is invalid: must be a writeable numpy float32 array of "
                    f"shape {shape}"
                )
            out[:] = 0.0
        o = self._offsets
        p = self.players
        me = view.seat

        def ids(name: str, tiles: Iterable[Tile]) -> None:
            base = o[name][0]
            for t in tiles:
                out[base + t.id] = 1.0

        ids("hand", view.hand)
        ids("table", (m.tile for m in view.board))
        ends = view.open_ends
        ids("anchors", (a for a, _ in ends))
        base = o["open_numbers"][0]
        for _, number in ends:
            out[base + number] += 1.0
        if view.pending_hub is not None:
            ids("pending", (view.pending_hub,))
            out[o["toes_needed"][0]] = view.toes_needed
        out[o["centre"][0] + view.centre.high] = 1.0
        if view.drawn is not None:
            ids("drawn", (view.drawn,))
        base = o["hand_sizes"][0]
        for seat, size in enumerate(view.hand_sizes):
            out[base + (seat - me) % p] = size
        out[o["boneyard"][0]] = view.boneyard_size
        if not view.is_over():
            out[o["turn"][0] + (view.turn - me) % p] = 1.0
        if self.history:
            base = o["history"][0]
            width = p + 3
            for i, event in enumerate(reversed(view.history[-self.history :])):
                at = base + i * width
                out[at + (event.seat - me) % p] = 1.0
                kind = (
                    0 if isinstance(event.move, Play) else 1 if isinstance(event.move, Draw) else 2
                )
                out[at + p + kind] = 1.0
        return out

    def planes(self, view: View) -> dict[str, NDArray[np.float32]]:
        """The observation of ``view`` as named fields (views into one flat vector)."""
        flat = self.observe(view)
        return {name: flat[lo:hi] for name, (lo, hi) in self._offsets.items()}


def _rebuild(rules: Rules, history: int) -> Encoding:
    return Encoding(rules, history=history)


def _legal(position: State | View) -> Iterable[Move]:
    if isinstance(position, State | View):
        return position.legal_moves
    raise ArgumentError(f"expected a State or a View, got {brief(position)}")
