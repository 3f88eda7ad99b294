"""The fast reader's compiled replay (numba, the ``fast`` extra): a plain ``full`` game's
moves as action ids, judged and made by :func:`chickenfoot._jit.replay.replay_deal`.

The kernel is the batch engine's rules (:mod:`chickenfoot._jit.rules`, held to the core
after every move by the batch tests), on one round's arrays built here. It checks every
move as ``apply`` does, and the seat written before it; the position it reaches is turned
into a :class:`~chickenfoot.State` as the batch engine turns its rounds into states
(``chickenfoot.batch._convert``), with the history the core keeps (each draw with its
tile). At the first move it refuses it says so, and the fast reader replays the game in
pure Python, which finds the same move and says why.

numba is imported here lazily, and only from the :data:`COMPILED_FROM`-th plain game a
process reads: a file of a few games is not worth numba's import. Without numba nothing
changes but the speed (``tests/test_notation_compiled.py`` holds the two replays equal,
field by field).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any, Final, cast

from chickenfoot._kernel import BLOCKED, OUT, make, union
from chickenfoot.moves import DRAW, DRAWS, PASS, Move, Play, play_by_ids
from chickenfoot.tiles import PIPS, WITH

if TYPE_CHECKING:
    from chickenfoot.rules import Rules
    from chickenfoot.state import State

__all__ = ["COMPILED_FROM", "action_of", "ready", "replayed"]

COMPILED_FROM: Final = 64
"""The plain games a process reads in pure Python before it loads the compiled replay."""

_IS_PLAY: Final[Callable[[object], bool]] = Play.__instancecheck__
_FOUND: list[bool] = []
_MODULES: dict[str, Any] = {}
_LANES: dict[Rules, _Lane] = {}
_LAST: list[_Lane | None] = [None]
_SEEN: list[int] = [0]


def ready() -> bool:
    """Whether the compiled replay is to be used for the next plain game: numba can be
    imported and the process has read :data:`COMPILED_FROM` plain games (counted here)."""
    if _SEEN[0] < COMPILED_FROM:
        _SEEN[0] += 1
        return False
    if not _FOUND:
        _FOUND.append(importlib.util.find_spec("numba") is not None)
    return _FOUND[0]


def action_of(move: Move, max_pip: int) -> int:
    """The action id of ``move`` (:class:`chickenfoot.encoding.Encoding`'s layout) in the
    double-``max_pip`` set; -1 for a named draw (not replayed here: the draw action takes
    the boneyard's next tile) and for a play no position could have."""
    slots = 2 * max_pip + 3
    size = (max_pip + 1) * (max_pip + 2) // 2
    if move is DRAW:
        return size * slots
    if move is PASS:
        return size * slots + 1
    if not isinstance(move, Play):
        return -1
    t = move.tile.id
    if move.anchor is None:
        return t * slots
    a = move.anchor.id
    hi, lo = PIPS[t]
    x, y = PIPS[a]
    if a == t:
        return -1
    if hi in (x, y):  # slot 1 + k: the anchor is hi-k
        return t * slots + 1 + (y if x == hi else x)
    if lo in (x, y):  # slot max_pip + 2 + k: the anchor is lo-k
        return t * slots + max_pip + 2 + (y if x == lo else x)
    return -1


class _Lane:
    """One round's arrays under ``rules`` (the layout of :mod:`chickenfoot._jit.rules`),
    the rules' numbers and tables, and the kernel (loaded, compiled or read from numba's
    cache, on the first lane made)."""

    def __init__(self, rules: Rules) -> None:
        if not _MODULES:
            _MODULES["np"] = importlib.import_module("numpy")
            _MODULES["kernel"] = importlib.import_module("chickenfoot._jit.replay")
        np = _MODULES["np"]
        n, s, p = rules.max_pip, rules.set_size, rules.players
        v, w, slots = n + 1, (s + 63) // 64, 2 * n + 3
        a = s * slots + 2
        dealt = s - (1 if rules.centre == "set_aside" else 0)
        self.cf = np.array(
            [s, v, w, p, slots, a, a - 2, a - 1, rules.draw == "until_playable",
             rules.may_draw_instead, rules.drawn_tile == "may_play", rules.opening_toes,
             rules.foot_toes, rules.hand_size, rules.centre == "set_aside",
             dealt - p * rules.hand_size],
            dtype=np.int64,
        )  # fmt: skip
        full = (1 << s) - 1
        with_ = np.array(
            [[(WITH[x] & full) >> (64 * k) & 0xFFFF_FFFF_FFFF_FFFF for k in range(w)]
             for x in range(v)],
            dtype=np.uint64,
        )  # fmt: skip
        px = np.array([PIPS[t][0] for t in range(s)], dtype=np.int64)
        py = np.array([PIPS[t][1] for t in range(s)], dtype=np.int64)
        pip = px + py
        pip[0] = rules.double_blank
        slot = np.full((s, s + 1), -1, dtype=np.int64)
        anch = np.full((s, slots), -2, dtype=np.int64)
        for t in range(s):
            for anchor in (-1, *range(s)):
                x = action_of(play_by_ids(t, anchor), n) if anchor != t else -1
                if x >= 0:
                    slot[t, s if anchor < 0 else anchor] = x - t * slots
                    anch[t, x - t * slots] = anchor
        self.tb = (with_, px, py, pip, slot, anch)
        z = np.zeros
        self.st = (z((1, p, w), np.uint64), z((1, v, w), np.uint64), z((1, w), np.uint64),
                   z((1, w), np.uint64), z((1, s), np.int16), *(z(1, np.int64) for _ in range(9)),
                   z((1, s), np.int32), z(1, np.int64), z(1, np.int64))  # fmt: skip
        self.row = z(a, np.int64)
        self.out = z(8 + (p + v) * w + p, np.uint64)
        self.words = w
        self.rules = rules
        self.run = _MODULES["kernel"].replay_deal


def replayed(
    rules: Rules,
    spec: list[int],
    moves: Sequence[Move],
    seats: Sequence[int],
    draws: Sequence[bool],
    board: tuple[Play, ...],
    bone: tuple[int, ...],
) -> tuple[State, list[int]] | None:
    """The position after ``moves`` from the deal ``spec`` (a round not over, its board
    ``board`` and boneyard ``bone``), each made by seat ``seats[i]`` (``draws[i]``:
    whether it is a draw), and every seat's penalty there; ``None`` when some move is not
    a legal move of that seat there (or is a named draw).

    ``spec`` is the kernel's input: the seat to act, the centre, whether it is laid, the
    move count, then each seat's tile count and tiles, the boneyard, each move's action
    id (:func:`action_of`), each move's seat."""
    last = _LAST[0]
    if last is not None and last.rules is rules:  # the rules of the game before (most files)
        lane = last
    else:
        got = _LANES.get(rules)
        if got is None:
            if len(_LANES) >= 64:
                _LANES.clear()
            got = _LANES[rules] = _Lane(rules)
        lane = _LAST[0] = got
    np = _MODULES["np"]
    out = lane.out
    lane.run(lane.st, lane.cf, lane.tb, lane.row, np.array(spec, dtype=np.int64), out)
    o = out.tolist()
    if o[0] != len(moves):
        return None
    p, w = rules.players, lane.words
    if w == 1:
        hands = tuple(o[8 : 8 + p])
        ends = tuple(o[8 + p : 8 + p + rules.max_pip + 1])
    else:
        hands = tuple(_joined(o, 8 + k * w, w) for k in range(p))
        ends = tuple(_joined(o, 8 + (p + k) * w, w) for k in range(rules.max_pip + 1))
    logged = list(moves)  # the history keeps each draw with its tile: the boneyard's next
    for at, tile in zip(compress(range(len(moves)), draws), bone, strict=False):
        logged[at] = DRAWS[tile]
    log: Any = None
    for move, seat in zip(logged, seats, strict=True):
        log = (log, seat, move)
    plays = cast("tuple[Play, ...]", tuple(compress(moves, map(_IS_PLAY, moves))))
    drawn, pending, nums, result = o[2] - 1, o[4] - 1, o[6], o[7] - 1
    laid = board + plays
    if not laid:
        mask = 1 << spec[1]
    elif pending >= 0:
        mask = WITH[PIPS[pending][0]]
    else:
        mask = union(nums)
    final = make(
        rules,
        spec[1],
        laid,
        hands,
        bone[o[3] :],
        o[1],
        drawn,
        ends,
        pending,
        o[5] if pending >= 0 else 0,
        mask,
        nums,
        None if result < 0 else BLOCKED if result == p else OUT[result],
        log,
    )
    return final, o[8 + (p + rules.max_pip + 1) * w :]


def _joined(words: list[int], at: int, w: int) -> int:
    out = 0
    for k in range(w):
        out |= words[at + k] << (64 * k)
    return out
