"""The exact solver for open hands, the double-dummy analogue (docs/solve.md).

A :class:`~chickenfoot.State` knows every hand and the boneyard's order, so the rest of its
round is a game of perfect information with no chance. :func:`solve` gives its value exactly:
the vector of the seats' final penalties when every seat, at each of its moves, takes the
move with its lowest final penalty assuming the others do the same (max^n), and among moves
equal for it the first in the order of the legal moves (docs/formats.md). The search is
bounded by a number of nodes; when they run out it raises :class:`~chickenfoot.BudgetError`
rather than answer with a value that is not exact.

>>> from chickenfoot import Rules, State, solve
>>> small = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
>>> s = State.setup(small, board=["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
...                 hands=[["2-0", "1-1"], ["2-2"]], boneyard=["3-0", "0-0"])
>>> sol = solve(s)
>>> {str(m): v for m, v in sol.values.items()}
{'1-1@2-1': (52, 7), '2-0@1-0': (2, 0)}
>>> str(sol.best), sol.value
('2-0@1-0', (2, 0))

Seat 0 to play: laying ``1-1`` makes a foot nobody can serve, the round blocks, and seat 0
keeps ``2-0`` and draws ``0-0`` (50 points); after ``2-0`` seat 1 goes out first, but seat 0
keeps only 2 points.

Two paths make exactly the same choices and count the same nodes: compiled (numba, the
``chickenfoot[fast]`` extra, :mod:`chickenfoot._jit.solve`) and pure Python.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from chickenfoot import _checks as checks
from chickenfoot._kernel import do_draw, do_pass, do_play, generate
from chickenfoot.errors import ArgumentError, BudgetError, brief
from chickenfoot.moves import DRAW, PASS, Move, Play, play_by_ids
from chickenfoot.rules import Rules
from chickenfoot.state import State
from chickenfoot.tiles import PIPS, WITH, set_size

__all__ = [
    "BACKENDS",
    "DEFAULT_NODES",
    "MAX_NODES",
    "TABLE_BYTES",
    "TABLE_ENTRIES",
    "Solution",
    "capacity",
    "key_words",
    "solve",
]

BACKENDS: Final = ("auto", "numba", "python")
"""The values of ``solve(backend=...)``."""
DEFAULT_NODES: Final = 1_000_000
"""The node budget of :func:`solve` when none is given."""
MAX_NODES: Final = 1_000_000_000
"""The largest node budget :func:`solve` accepts."""
TABLE_ENTRIES: Final = 1 << 18
"""At most this many positions are remembered by one search (its transposition table);
fewer for big tables, so that the compiled table stays within :data:`TABLE_BYTES`."""
TABLE_BYTES: Final = 64 << 20
"""The most memory the compiled transposition table takes (64 MiB)."""


@attrs.frozen(repr=False)
class Solution:
    """The exact value of a position (:func:`solve`).

    ``values`` maps every legal move, in the order of the legal moves, to the vector of the
    seats' final penalties after it (one per seat, seat 0 first); ``best`` is the move the
    seat to act takes (its lowest penalty, the first among equals); ``nodes`` is the number
    of positions the search visited, the position itself included.
    """

    values: Mapping[Move, tuple[int, ...]]
    best: Move
    nodes: int

    @property
    def value(self) -> tuple[int, ...]:
        """The position's value: the vector of its best move."""
        return self.values[self.best]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``best`` and the ``values`` keyed by move notation, and ``nodes``.

        >>> from chickenfoot import Rules, State
        >>> s = State.setup(Rules(players=2, max_pip=3, hand_size=3, opening_toes=2,
        ...     foot_toes=1), board=["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"],
        ...     hands=[["2-0", "1-1"], ["2-2"]], boneyard=["3-0", "0-0"])
        >>> solve(s).to_dict()
        {'best': '2-0@1-0', 'value': [2, 0], 'values': {'1-1@2-1': [52, 7], '2-0@1-0': [2, 0]}, 'nodes': 8}
        """
        return {
            "best": str(self.best),
            "value": list(self.value),
            "values": {str(m): list(v) for m, v in self.values.items()},
            "nodes": self.nodes,
        }

    def __repr__(self) -> str:
        values = ", ".join(f"{str(m)!r}: {v}" for m, v in self.values.items())
        return (
            f"Solution(best={str(self.best)!r}, value={self.value}, nodes={self.nodes:,}, "
            f"values={{{values}}})"
        )


def solve(state: State, *, nodes: int = DEFAULT_NODES, backend: str = "auto") -> Solution:
    """Solve ``state`` exactly: the max^n value of each legal move (module docstring).

    ``nodes`` bounds the positions visited (1 to :data:`MAX_NODES`); a search that needs
    more raises :class:`~chickenfoot.BudgetError` naming the budget. ``backend`` is
    ``"numba"`` (compiled, the ``chickenfoot[fast]`` extra), ``"python"``, or ``"auto"``
    (the default: compiled when numba can be imported); both give the same solution.
    A finished round, a :class:`~chickenfoot.View` (hidden hands: sample it first) or a
    budget out of range raise :class:`~chickenfoot.ArgumentError`.
    """
    if not isinstance(state, State):
        raise ArgumentError(
            f"solve needs a State (every hand open), got {brief(state)}; to solve what a "
            "seat sees, sample its View first (View.sample) and solve each sample"
        )
    budget = checks.integer(nodes, "nodes", low=1, high=MAX_NODES)
    compiled = _resolve(checks.choice(backend, "backend", BACKENDS))
    if state._outcome is not None:
        raise ArgumentError(
            f"the round is over ({state._outcome}): nothing to solve; its value is "
            f"state.penalties() = {state.penalties()}"
        )
    legal = list(generate(state))
    if compiled:
        found, visited = _compiled(state, legal, budget)
    else:
        found, visited = _search(state, legal, budget)
    if found is None:
        raise BudgetError(
            f"nodes={budget} is not enough: solving this position exactly takes more than "
            f"{budget:,} node{'s' if budget > 1 else ''} (give a larger budget)",
            nodes=budget,
        )
    me = state.turn
    best = 0
    for i, v in enumerate(found):
        if v[me] < found[best][me]:
            best = i
    return Solution(MappingProxyType(dict(zip(legal, found, strict=True))), legal[best], visited)


def _child(s: State, m: Move) -> State:
    if m is DRAW:
        return do_draw(s, s._bone[0])
    if m is PASS:
        return do_pass(s)
    assert isinstance(m, Play)
    return do_play(s, m)


def capacity(rules: Rules) -> int:
    """How many positions one search remembers under ``rules`` (both paths alike):
    :data:`TABLE_ENTRIES`, halved until twice as many slots of the compiled table (a
    stamp, a key of :func:`key_words` words and a penalty per seat, a word each) fit in
    :data:`TABLE_BYTES`.

    >>> capacity(Rules()), capacity(Rules(players=8))
    (262144, 131072)
    """
    entry = 8 * (1 + key_words(rules) + rules.players)
    cap = TABLE_ENTRIES
    while cap > 1 and 2 * cap * entry > TABLE_BYTES:
        cap //= 2
    return cap


def key_words(rules: Rules) -> int:
    """The words of a compiled table key: the hands, the anchors and their sides, a word
    of scalars."""
    words = (rules.set_size + 63) // 64
    return rules.players * words + 2 * words + 1


def _key(s: State) -> tuple[Any, ...]:
    """What the rest of the round depends on (the kernel's key holds the same)."""
    return (s.turn, s._drawn, s._pending, s._need, len(s._bone), bool(s.board), s._hands, s._ends)


def _search(
    root: State, legal: Sequence[Move], budget: int
) -> tuple[list[tuple[int, ...]] | None, int]:
    """The pure search: each root move's vector (``None`` once past ``budget``) and the
    nodes visited. A stack of frames ``[state, moves, next index, best, key]``, not
    Python's recursion, so that long rounds need no deep recursion."""
    table: dict[tuple[Any, ...], tuple[int, ...]] = {}
    cap = capacity(root.rules)
    found: list[tuple[int, ...]] = []
    nodes = 1
    stack: list[list[Any]] = [[root, legal, 0, None, None]]
    ret: tuple[int, ...] | None = None
    while stack:
        frame = stack[-1]
        s, moves = frame[0], frame[1]
        if ret is not None:  # a child's value: keep the first lowest for the seat to act
            me = s.turn
            best = frame[3]
            if best is None or ret[me] < best[me]:
                frame[3] = best = ret
            if len(stack) == 1:
                found.append(ret)
            elif best[me] == 0:  # nothing is lower: later moves could only tie
                frame[2] = len(moves)
            ret = None
        i = frame[2]
        if i == len(moves):
            stack.pop()
            ret = frame[3]
            if stack and len(table) < cap:
                table[frame[4]] = ret
            continue
        frame[2] = i + 1
        child = _child(s, moves[i])
        nodes += 1
        if nodes > budget:
            return None, nodes
        if child._outcome is not None:
            ret = child.penalties()
            continue
        key = _key(child)
        hit = table.get(key)
        if hit is not None:
            ret = hit
            continue
        stack.append([child, generate(child), 0, None, key])
    return found, nodes


# -- the compiled path (numba): the typed boundary of chickenfoot._jit.solve -----------------

_MODULES: dict[str, Any] = {}
_CACHE: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # the sets' tables, the tables' arrays
_FOUND: list[bool] = []
_LOCK: Final = threading.Lock()  # one compiled search at a time owns the shared table


def _available() -> bool:
    """Whether numba can be imported (without importing it; looked up once a process)."""
    if not _FOUND:
        _FOUND.append(importlib.util.find_spec("numba") is not None)
    return _FOUND[0]


def _resolve(backend: str) -> bool:
    """Whether the search runs compiled; ``"numba"`` without numba names the extra."""
    if backend == "python":
        return False
    if backend == "numba" and not _available():
        raise ArgumentError(
            "backend='numba' needs numba, which is not installed: "
            "pip install 'chickenfoot[fast]' (or use backend='python')"
        )
    return _available()


def _load() -> Any:
    if not _MODULES:
        _MODULES["np"] = importlib.import_module("numpy")
        _MODULES["kernel"] = importlib.import_module("chickenfoot._jit.solve")
    return _MODULES["kernel"]


def _tables(rules: Rules) -> tuple[Any, ...]:
    """``(px, py, val, withw, loww)`` of the rules' set (cached): each tile's pips and
    points, the tiles showing each number, and the non-doubles whose low number it is."""
    key = ("set", rules.max_pip, rules.double_blank)
    got = _CACHE.get(key)
    if got is None:
        np = _MODULES["np"]
        size = set_size(rules.max_pip)
        words = (size + 63) // 64
        full = (1 << size) - 1
        px = np.array([PIPS[t][0] for t in range(size)], dtype=np.int64)
        py = np.array([PIPS[t][1] for t in range(size)], dtype=np.int64)
        val = px + py
        val[0] = rules.double_blank
        low = [0] * (rules.max_pip + 1)
        for t in range(size):
            if PIPS[t][0] != PIPS[t][1]:
                low[PIPS[t][1]] |= 1 << t

        def rows(masks: Sequence[int]) -> Any:
            data = b"".join((m & full).to_bytes(8 * words, "little") for m in masks)
            return np.frombuffer(data, dtype="<u8").reshape(len(masks), words).copy()

        withw = rows([WITH[v] for v in range(rules.max_pip + 1)])
        got = _CACHE[key] = (px, py, val, withw, rows(low))
    return got


def _table(rules: Rules) -> tuple[Any, ...]:
    """The transposition table's arrays under ``rules`` (kept between calls: an entry
    counts only under the stamp of its own search, so nothing is ever cleared)."""
    width, players = key_words(rules), rules.players
    key = ("table", width, players)
    got = _CACHE.get(key)
    if got is None:
        np = _MODULES["np"]
        slots = 2 * capacity(rules)
        got = _CACHE[key] = (
            np.zeros((slots, 1 + width + players), dtype=np.uint64),
            np.zeros(1, dtype=np.int64),
        )
    return got


def _compiled(
    state: State, legal: Sequence[Move], budget: int
) -> tuple[list[tuple[int, ...]] | None, int]:
    """The compiled search, with the pure search's answer and node count."""
    kernel = _load()
    np = _MODULES["np"]
    rules = state.rules
    p = rules.players
    words = (rules.set_size + 63) // 64
    full = (1 << rules.set_size) - 1
    nbytes = 8 * words
    parts = [h.to_bytes(nbytes, "little") for h in state._hands]
    parts += [e.to_bytes(nbytes, "little") for e in state._ends]
    parts.append((state._mask & full).to_bytes(nbytes, "little"))
    bits = np.frombuffer(b"".join(parts), dtype="<u8")
    sc = np.array(
        [
            state.turn,
            state._drawn,
            state._pending,
            state._need,
            state._nums,
            1 if state.board else 0,
            state._centre,
        ],
        dtype=np.int64,
    )
    bone = np.array(state._bone, dtype=np.int64)
    cf = np.array(
        [
            p,
            words,
            rules.max_pip + 1,
            rules.draw == "until_playable",
            rules.may_draw_instead,
            rules.drawn_tile == "may_play",
            rules.opening_toes,
            rules.foot_toes,
            capacity(rules),
        ],
        dtype=np.int64,
    )
    in_play = sum(h.bit_count() for h in state._hands) + len(state._bone)
    depth = in_play + 2 * len(state._bone) + (in_play + 2) * (p + 1) + 4
    out = np.zeros((len(legal), p), dtype=np.int64)
    codes = np.zeros((len(legal), 3), dtype=np.int64)
    with _LOCK:
        table, stamp = _table(rules)
        stamp[0] += 1
        visited = int(kernel.solve(bits, sc, bone, *_tables(rules), cf, budget, depth,
                                   table, int(stamp[0]), out, codes))  # fmt: skip
    if visited > budget:
        return None, visited
    for m, (kind, t, a) in zip(legal, codes.tolist(), strict=True):
        made = DRAW if kind == 1 else PASS if kind == 2 else play_by_ids(t, a)
        if made is not m:  # pragma: no cover - the kernel lists the moves in legal order
            raise AssertionError(f"the compiled solver listed {made} where {m} is legal")
    return [tuple(int(x) for x in row) for row in out.tolist()], visited
