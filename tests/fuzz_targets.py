"""Fuzz targets: every loader, parser and entry point of chickenfoot, fed hostile input.

Shared by ``tests/test_fuzz.py`` (a short fixed budget in the normal suite) and
``bench/fuzz.py`` (a time budget: ``nox -s fuzz -- SECONDS``), so both hold the library to
the same properties (issue 8; the bad-input contract of docs/formats.md). For every call of every target:

* it returns, or raises a :class:`chickenfoot.ChickenFootError` (a ``ValueError``), or a
  ``TypeError`` that the library raised itself (a ``raise`` statement in the package: a
  message written for the caller, not Python's own ``'int' object is not iterable``).
  Nothing else escapes: no ``RecursionError``, ``AttributeError``, ``IndexError``,
  ``KeyError``, ``NotImplementedError``, plain ``ValueError``, ``OverflowError``,
  ``MemoryError``;
* the message is not empty and has at most :data:`MAX_MESSAGE` characters;
* the call ends: one still running after :data:`HARD_LIMIT` is interrupted as a hang;
  ``nox -s fuzz`` (``bench/fuzz.py``) also reports a call that takes over
  :data:`MAX_SECONDS` as too slow (the suite does not time calls: a loaded machine makes
  any time figure flaky, and speed is measured by ``nox -s bench``);
* on success, a few checks per target: ``State.hand`` and ``State.view`` accept only seats,
  an accepted document reads back equal from its own ``to_dict()``, the command line
  returns 0 or 2 and prints nothing on stderr, or one ``chickenfoot: error: ...`` line.

Inputs: the documents of real positions, records, matches and views (:func:`pool`) and
rules, mutated (keys dropped, added and renamed, values replaced by other JSON types,
nesting up to 5,000 deep, integers such as ``10**5000``, strings of a few megabytes, floats,
NaN, booleans, ``None``); that JSON as text and as bytes; random and broken text; Python
values of every kind where Python values are taken; and command lines built from the real
subcommands and options.

:data:`TARGETS` maps each target's name to a :class:`Target` (its inputs, a Hypothesis
strategy of :class:`Case`, and the call); :func:`check` runs one case and returns a
:class:`Failure` or ``None``.

>>> describe(-(10**5000)), describe("9" * 5000), describe(nest(3000, 1, "list"))
('-10**5000', "'9' * 5000", '1 nested 3000 deep in lists')
>>> encode({"a": [1, 2.5, None, True, float("nan")]})
'{"a": [1, 2.5, null, true, NaN]}'
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import linecache
import math
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.cli import main as cli_main

__all__ = [
    "HARD_LIMIT",
    "MAX_MESSAGE",
    "MAX_SECONDS",
    "IN_SUITE",
    "TARGETS",
    "fuzzes",
    "holds",
    "Case",
    "Failure",
    "Target",
    "check",
    "describe",
    "encode",
    "nest",
    "pool",
]

MAX_MESSAGE = 500
"""The longest error message allowed, in characters (docs/api.md: messages are bounded)."""
MAX_SECONDS = 1.0
"""The longest a call may take."""
HARD_LIMIT = 10.0
"""A call still running after this long is interrupted (SIGALRM, main thread only)."""

PACKAGE = os.path.dirname(os.path.realpath(cf.__file__))
MISSING: Any = object()
"""An argument left out of the call (the function's default is used)."""


# -- describing inputs (bounded, never repr() of a huge int or a deep list) --------------------


def describe(value: Any, limit: int = 200) -> str:
    """A short, deterministic description of ``value`` for reports.

    >>> describe([1, "9-4", {"turn": 3**70}]), describe(b"x" * 100)
    ("[1, '9-4', {'turn': <integer of 111 bits>}]", "b'x' * 100")
    """
    return _cut(_describe(value, 3), limit)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


_NAMES: dict[int, str] = {}
"""``id()`` of the objects of :func:`pool` -> how they were made."""


def _describe(v: Any, level: int) -> str:
    name = _NAMES.get(id(v))
    if name is not None:
        return name
    if v is None or isinstance(v, (bool, float)):
        return repr(v)
    if isinstance(v, int):
        return _describe_int(v)
    if isinstance(v, (str, bytes, bytearray)):
        return _describe_text(v)
    if isinstance(v, (list, tuple, dict)):
        depth, leaf = _chain(v)
        if depth > 4:
            return f"{_describe(leaf, 0)} nested {depth} deep in {type(v).__name__}s"
        if level == 0:
            return {list: "[...]", tuple: "(...)", dict: "{...}"}[type(v)]
        if isinstance(v, dict):
            items = [
                f"{_describe(k, 0)}: {_describe(x, level - 1)}"
                for k, x in itertools.islice(v.items(), 8)
            ]
            return "{" + ", ".join(items) + (", ..." if len(v) > 8 else "") + "}"
        items = [_describe(x, level - 1) for x in itertools.islice(v, 8)]
        more = f", ... ({len(v)} items)" if len(v) > 8 else ""
        if isinstance(v, tuple):
            return "(" + ", ".join(items) + ("," if len(v) == 1 else "") + more + ")"
        return "[" + ", ".join(items) + more + "]"
    if isinstance(v, cf.Rounds):
        return f"Rounds({_describe(v.count, 0)})"
    if isinstance(v, cf.Threshold):
        return f"Threshold({_describe(v.points, 0)}, inclusive={_describe(v.inclusive, 0)})"
    if isinstance(v, (cf.Tile, cf.Move, cf.Rules, cf.State, cf.View, cf.Record, cf.Match)):
        try:
            return _cut(repr(v), 120)
        except Exception:
            return f"<a {type(v).__name__}>"
    if isinstance(v, (complex, range, frozenset, set)):
        return _cut(repr(v), 60)
    return f"<{type(v).__name__}>"


def _describe_int(v: int) -> str:
    if v.bit_length() <= 64:
        return repr(v)
    sign, a = ("-" if v < 0 else ""), abs(v)
    k = int(a.bit_length() * 0.30103)
    for kk in (k - 1, k, k + 1):
        p = 10**kk
        if a == p:
            return f"{sign}10**{kk}"
        if a == p - 1:
            return f"{sign}(10**{kk} - 1)"
    if a & (a - 1) == 0:
        return f"{sign}2**{a.bit_length() - 1}"
    return f"<{'negative ' if sign else ''}integer of {a.bit_length()} bits>"


def _describe_text(s: str | bytes | bytearray) -> str:
    n = len(s)
    if n <= 60:
        return repr(s)
    for size in range(1, 11):
        unit = s[:size]
        if n % size == 0 and unit * (n // size) == s:
            return f"{unit!r} * {n // size}"
    return f"{s[:40]!r} + ... ({n:,} in all)"


def _chain(v: Any) -> tuple[int, Any]:
    """How deep ``v`` nests as a chain of one-item lists, tuples or dicts, and the innermost."""
    depth = 0
    while isinstance(v, (list, tuple, dict)) and len(v) == 1:
        v = next(iter(v.values())) if isinstance(v, dict) else v[0]
        depth += 1
    return depth, v


# -- building values ---------------------------------------------------------------------------


def nest(depth: int, leaf: Any, kind: str) -> Any:
    """``leaf`` inside ``depth`` one-item lists (``kind="list"``), dicts or both alternately.

    >>> nest(3, 0, "list"), nest(2, None, "dict"), nest(3, 1, "mixed")
    ([[[0]]], {'a': {'a': None}}, [{'a': [1]}])
    """
    for i in range(depth):
        as_list = kind == "list" or (kind == "mixed" and i % 2 == 0)
        leaf = [leaf] if as_list else {"a": leaf}
    return leaf


@contextlib.contextmanager
def _any_int_digits() -> Iterator[None]:
    """Lift Python's limit on int <-> str conversions (for building inputs only)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # pragma: no cover - Pythons without the limit
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def int_text(v: int) -> str:
    """The decimal text of any integer, however long."""
    if v.bit_length() < 10_000:
        return str(v)
    with _any_int_digits():
        return str(v)


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def encode(value: Any) -> str:
    """JSON text of ``value`` without recursion: any depth, any integer, NaN as ``NaN``.

    Bytes are written as the string of their Latin-1 decoding, anything else that JSON has
    no form for as the string :func:`describe` gives.
    """
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        v = stack.pop()
        if type(v) is _Raw:
            out.append(v.text)
        elif v is None:
            out.append("null")
        elif v is True or v is False:
            out.append("true" if v else "false")
        elif isinstance(v, int):
            out.append(int_text(v))
        elif isinstance(v, float):
            if math.isnan(v):
                out.append("NaN")
            elif math.isinf(v):
                out.append("Infinity" if v > 0 else "-Infinity")
            else:
                out.append(repr(v))
        elif isinstance(v, str):
            out.append(json.dumps(v))
        elif isinstance(v, (bytes, bytearray)):
            out.append(json.dumps(bytes(v).decode("latin-1")))
        elif isinstance(v, dict):
            out.append("{")
            stack.append(_Raw("}"))
            items = list(v.items())
            for i in range(len(items) - 1, -1, -1):
                key, item = items[i]
                stack.append(item)
                stack.append(
                    _Raw(json.dumps(key if isinstance(key, str) else describe(key)) + ": ")
                )
                if i:
                    stack.append(_Raw(", "))
        elif isinstance(v, (list, tuple)):
            out.append("[")
            stack.append(_Raw("]"))
            for i in range(len(v) - 1, -1, -1):
                stack.append(v[i])
                if i:
                    stack.append(_Raw(", "))
        else:
            out.append(json.dumps(describe(v)))
    return "".join(out)


# -- hostile values ----------------------------------------------------------------------------


def _huge(digits: int, sign: int, form: str) -> int:
    if form == "pow10":
        return sign * 10**digits
    if form == "nines":
        return sign * (10**digits - 1)
    return sign * 2 ** (digits * 10 // 3)


def _long_text(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


EDGE_INTS = [-1, 0, 1, 2, 3, 4, 6, 7, 8, 9, 12, 18, 19, 54, 55, 91, 190, 2**31, 2**63, -(2**63)]
EDGE_INTS += [2**64, 10**18, 10**100]
HUGE_INTS = st.builds(
    _huge,
    st.sampled_from([4300, 4301, 5000, 20_000]),
    st.sampled_from([1, -1]),
    st.sampled_from(["pow10", "nines", "pow2"]),
)
"""Integers of 4,300 digits and more (Python refuses to print those over 4,300)."""
INTS = st.one_of(st.integers(-3, 30), st.sampled_from(EDGE_INTS), HUGE_INTS, st.integers())
FLOATS = st.one_of(
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 4.0, 9.0, 1e300, math.inf, -math.inf, math.nan]),
    st.floats(),
)

_NUMBER_TEXTS = st.one_of(
    st.integers(0, 20).map(str),
    st.sampled_from(["-1", "00", "09", "100", "9" * 4301, "\u0669", " 9", "9 ", "+9", "9.0", ""]),
)
TILE_TEXTS = st.builds("{}-{}".format, _NUMBER_TEXTS, _NUMBER_TEXTS)
MOVE_TEXTS = st.one_of(
    TILE_TEXTS,
    st.builds("{}@{}".format, TILE_TEXTS, TILE_TEXTS),
    TILE_TEXTS.map("draw:{}".format),
    st.sampled_from(
        ["draw", "pass", "Draw", "PASS", "draw:", "pass:", "@", "9-4@", "@9-9", "9-4@9-9@9-9"]
        + ["9-4 @ 9-9", "draw:9-4@9-9", "", " ", "\x00", "9-4\n", "9-9", "9-4@9-9\n", "draw "]
    ),
)
LONG_TEXTS = st.builds(
    _long_text,
    st.sampled_from(["x", "9", "9-4@9-9,", "\u00e9", "[", '"', "\\"]),
    st.sampled_from([1_001, 4_301, 100_000, 1_000_000, 3_000_000]),
)
"""Strings of a thousand characters to three million."""

# The rules object's fields in the order of docs/formats.md (test_rules_config writes them out
# and checks this order).
_FIELDS = list(cf.Rules().to_dict())
_DOC_KEYS = ["format", "version", "rules", "centre", "board", "hands", "boneyard", "turn"]
_DOC_KEYS += ["drawn", "start", "moves", "seed", "scores", "round", "seat", "hand"]
_DOC_KEYS += ["hand_sizes", "boneyard_size", "history", "outcome", "kind", "rounds"]
_DOC_KEYS += ["threshold", "inclusive"]
_WORDS = sorted(
    {*_FIELDS, *_DOC_KEYS, *cf.PRESETS}
    | {"chickenfoot/position", "chickenfoot/record", "chickenfoot/match", "chickenfoot/view"}
    | {"chickenfoot/rules", "set_aside", "holder", "one", "until_playable", "must_play"}
    | {"may_play", "shared", "zero_rounds", "out", "blocked", "true", "null", "NaN"}
)
KEY_NAMES = st.one_of(
    st.sampled_from(_WORDS),
    st.sampled_from(_WORDS).map(lambda k: k + "s"),
    st.sampled_from(_WORDS).map(lambda k: k.upper()),
    st.sampled_from(_WORDS).map(lambda k: " " + k),
    st.text(max_size=8),
)
"""Names for new and renamed keys: the real ones, near misses and random text."""

TEXTS = st.one_of(st.text(max_size=24), TILE_TEXTS, MOVE_TEXTS, st.sampled_from(_WORDS), LONG_TEXTS)
SMALL_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    FLOATS,
    st.text(max_size=8),
    TILE_TEXTS,
    st.sampled_from(_WORDS),
)
SCALARS = st.one_of(st.none(), st.booleans(), INTS, FLOATS, TEXTS)
DEPTHS = st.one_of(st.sampled_from([100, 999, 1000, 1001, 2000, 5000]), st.integers(2, 5000))
DEEP = st.builds(
    nest,
    DEPTHS,
    st.one_of(st.none(), st.integers(0, 9), TILE_TEXTS),
    st.sampled_from(["list", "dict", "mixed"]),
)
"""A value nested up to 5,000 deep."""
JSON_VALUES = st.one_of(
    SCALARS,
    st.recursive(
        SMALL_SCALARS,
        lambda kids: st.one_of(
            st.lists(kids, max_size=4), st.dictionaries(KEY_NAMES, kids, max_size=4)
        ),
        max_leaves=6,
    ),
    DEEP,
)
"""Any value that JSON has: hostile scalars, small containers, deep nesting."""


class _LookalikeMove:
    """Not a move, though it has what a move has (``notation``, ``tile``, ``anchor``)."""

    tile = cf.Tile(9, 4)
    anchor = cf.Tile(9, 9)

    def notation(self) -> str:
        return "9-4@9-9"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return "_LookalikeMove()"


def _odd_move() -> Any:
    """An instance of a :class:`~chickenfoot.Move` subclass that the library does not know
    (issue 8: ``apply`` raised ``NotImplementedError``), or, if the library refuses to be
    subclassed (one fix of that defect), an object that only looks like a move.
    """
    try:

        class _OddMove(cf.Move):
            __slots__ = ()

            def __repr__(self) -> str:
                return "_OddMove()"

    except TypeError:
        return _LookalikeMove()
    return _OddMove()


ODD_MOVE = _odd_move()


_OBJECTS: list[Any] = [
    cf.Tile(9, 4),
    cf.Tile(18, 17),
    cf.DRAW,
    cf.PASS,
    cf.Play(cf.Tile(9, 4), cf.Tile(9, 9)),
    cf.Play(cf.Tile(9, 9)),
    cf.Draw(cf.Tile(5, 3)),
    ODD_MOVE,
    _LookalikeMove(),
    cf.Rounds(3),
    cf.Threshold(100),
    complex(1, 2),
    frozenset({1}),
    range(3),
    Ellipsis,
    b"9-4",
    bytearray(b"9-9"),
    ("9-4", "9-9"),
    {"9-4"},
]
PY_VALUES = st.one_of(
    JSON_VALUES,
    st.binary(max_size=12),
    st.sampled_from(_OBJECTS),
    st.builds(object),
    st.deferred(lambda: st.sampled_from(pool().objects)),
    st.lists(SMALL_SCALARS, max_size=3).map(tuple),
)
"""Anything a Python caller could pass: JSON values, bytes, tuples, tiles, moves, states..."""


def _not_a_big_depth(value: Any) -> Any:
    """``value``, except that a positive int above 2 becomes its negative (perft cost)."""
    return -value if type(value) is int and value > 2 else value


# -- the pool of real objects and documents ----------------------------------------------------


@dataclass
class Pool:
    """Real objects (each named in :data:`_NAMES`) and their documents."""

    rules: list[cf.Rules]
    states: list[cf.State]
    records: list[cf.Record]
    matches: list[cf.Match]
    views: list[cf.View]
    docs: dict[str, list[tuple[str, str]]]
    """Document kind -> (name, JSON text); kinds: rules, position, record, match, view."""

    @property
    def objects(self) -> list[Any]:
        return [*self.rules, *self.states, *self.records, *self.matches, *self.views]


_RULES = {
    "Rules()": cf.Rules(),
    "Rules(players=2)": cf.Rules(players=2),
    "Rules.preset('classic', players=3)": cf.Rules.preset("classic", players=3),
    "Rules(players=7)": cf.Rules(players=7),
    "tiny": cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1),
    "tiny-holder": cf.Rules(
        players=3,
        max_pip=2,
        hand_size=1,
        opening_toes=1,
        foot_toes=1,
        centre="holder",
        draw="until_playable",
        drawn_tile="may_play",
        may_draw_instead=True,
        match=cf.Threshold(20, inclusive=True),
        tie_break="zero_rounds",
        first_leader=2,
    ),
    "big": cf.Rules(players=10, max_pip=15, hand_size=12),
}


def _named(obj: Any, name: str) -> Any:
    _NAMES[id(obj)] = name
    return obj


@functools.cache
def pool() -> Pool:
    """Positions, records, matches and views of real games under several rule sets."""
    p = Pool([], [], [], [], [], {k: [] for k in ("rules", "position", "record", "match", "view")})
    for rname, rules in _RULES.items():
        p.rules.append(_named(rules, rname))
        p.docs["rules"].append((f"{rname}.to_dict()", json.dumps(rules.to_dict())))
        for seed in (1, 2):
            rng = random.Random(seed)
            s = cf.deal(rules, seed=seed)
            path, moves = [s], []
            while not s.is_over():
                m = rng.choice(cf.legal_moves(s))
                s = cf.apply(s, m)
                path.append(s)
                moves.append(m)
            drawn = [k for k, x in enumerate(path) if x.drawn is not None][:1]
            keep = sorted({k for k in (0, 1, 6, 20, *drawn, len(path) - 1) if k < len(path)})
            for k in keep:
                what = f"deal({rname}, seed={seed}) after {k} moves"
                state = _named(path[k], what)
                p.states.append(state)
                p.docs["position"].append((f"position of {what}", state.to_json()))
                seat = (k + seed) % rules.players
                v = _named(state.view(seat), f"view of seat {seat} of {what}")
                p.views.append(v)
                p.docs["view"].append((f"{what}, view of seat {seat}", v.to_json()))
            for k in sorted({0, min(6, len(moves)), len(moves)}):
                rec = _named(cf.Record(path[0], moves[:k]), f"record of {k} moves of {rname}")
                p.records.append(rec)
                p.docs["record"].append((f"record of {k} moves of {rname}", rec.to_json()))
        m = cf.Match.start(rules, seed=3)
        plies = 0
        snapshots = {0}
        while not m.is_over() and plies < 400:
            m = m.apply(m.legal_moves[0])
            plies += 1
            if plies in (5, 60) or m.is_over() or (m.round is not None and not m.round.history):
                what = f"Match.start({rname}, seed=3) after {plies} moves"
                if plies not in snapshots and len(p.matches) < 40:
                    snapshots.add(plies)
                    p.matches.append(_named(m, what))
                    p.docs["match"].append((f"match of {what}", m.to_json()))
    partial = [{}, {"players": 3}, {"players": 7, "match": {"threshold": 100}}]
    partial += [{"max_pip": 3, "players": 2, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}]
    p.docs["rules"] += [(json.dumps(d), json.dumps(d)) for d in partial]
    return p


# -- cases and mutations -----------------------------------------------------------------------


class Case:
    """The arguments of one call, ``target.call(*args, **kwargs)``, and how they were made."""

    __slots__ = ("args", "kwargs", "note")

    def __init__(self, *args: Any, note: str = "", **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.note = note

    def __repr__(self) -> str:
        parts = [describe(a, 120) for a in self.args]
        parts += [f"{k}={describe(v, 120)}" for k, v in self.kwargs.items()]
        text = f"({', '.join(parts)})"
        if self.note:
            text = f"{self.note}  {text}"
        return _cut(text, 600)


@dataclass
class Doc:
    """A (possibly mutated) document and the story of how it was made."""

    value: Any
    note: str

    def __repr__(self) -> str:
        return self.note


def _join(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _slots(doc: Any, cap: int = 400) -> list[tuple[Any, Any, str]]:
    """``(parent, key, path)`` of every value under ``doc``, breadth first, at most ``cap``."""
    out: list[tuple[Any, Any, str]] = []
    queue = [(doc, "")]
    while queue and len(out) < cap:
        nxt = []
        for node, path in queue:
            keys: Any = list(node) if isinstance(node, dict) else range(len(node))
            for key in keys:
                child_path = _join(path, key)
                out.append((node, key, child_path))
                child = node[key]
                if isinstance(child, (dict, list)) and len(child) and len(child_path) < 60:
                    nxt.append((child, child_path))
        queue = nxt
    return out[:cap]


def _tweaks(value: Any) -> st.SearchStrategy[Any]:
    """Values close to ``value``: off by one, another type, longer, cut, repeated..."""
    if value is None:
        return st.sampled_from([0, "", [], {}, "null", False])
    if isinstance(value, bool):
        return st.sampled_from([not value, int(value), str(value).lower(), None])
    if isinstance(value, int):
        near = [value + 1, value - 1, -value - 1, value * 1000, True]
        if value.bit_length() < 64:
            near += [float(value), str(value)]
        return st.one_of(st.sampled_from(near), HUGE_INTS)
    if isinstance(value, float):
        return st.sampled_from([int(value) if math.isfinite(value) else 0, str(value), math.nan])
    if isinstance(value, str):
        near = [value + " ", " " + value, value.upper(), value[:-1], value + value, "9" + value]
        near += [value.replace("-", "@"), value.replace("9", "19"), value + "@" + value]
        times = [n for n in (100, 100_000) if len(value) * n <= 10**7]  # at most 10 MB
        return st.one_of(
            st.sampled_from(near),
            st.sampled_from(times).map(lambda n: value * n) if times else st.nothing(),
            st.just(value.encode()),
        )
    if isinstance(value, list):
        near = [[], value[:-1], value[::-1], value * 2, [*value, value[0] if value else None]]
        flat = len(value) <= 20 and not any(isinstance(v, (list, dict)) for v in value)
        return st.one_of(st.sampled_from(near), st.just(value * 20_000 if flat else value))
    if isinstance(value, dict):
        items = list(value.items())
        return st.sampled_from([{}, dict(items[:-1]), dict(items[::-1]), [value]])
    return st.just(value)


_OPS = ("replace", "drop", "rename", "add", "duplicate", "wrap", "nest", "tweak")


def _mutate(draw: st.DrawFn, doc: Any, values: st.SearchStrategy[Any]) -> tuple[Any, str]:
    """One mutation of ``doc`` (in place where it can be); returns the document and a note."""
    slots = _slots(doc) if isinstance(doc, (dict, list)) else []
    pick = draw(st.integers(0, len(slots)))
    op = draw(st.sampled_from(_OPS))
    if pick == 0:  # the document itself
        if op == "add" and isinstance(doc, dict):
            key, new = draw(KEY_NAMES), draw(values)
            doc[key] = new
            return doc, f"add {key!r}: {describe(new, 60)}"
        if op == "nest":
            depth = draw(DEPTHS)
            return nest(depth, doc, "list"), f"document nested {depth} deep"
        if op == "wrap":
            return [doc], "document wrapped in a list"
        new = draw(values)
        return new, f"document := {describe(new, 60)}"
    parent, key, path = slots[pick - 1]
    value = parent[key]
    if op == "drop":
        del parent[key]
        return doc, f"del {path}"
    if op == "rename" and isinstance(parent, dict):
        new_key = draw(KEY_NAMES)
        parent[new_key] = parent.pop(key)
        return doc, f"rename {path} -> {new_key!r}"
    if op == "add" and isinstance(value, dict):
        new_key, new = draw(KEY_NAMES), draw(values)
        value[new_key] = new
        return doc, f"{path}[{new_key!r}] := {describe(new, 60)}"
    if op == "add" and isinstance(value, list):
        pos, new = draw(st.integers(0, len(value))), draw(values)
        value.insert(pos, new)
        return doc, f"{path} insert at {pos}: {describe(new, 60)}"
    if op == "duplicate" and isinstance(parent, list):
        parent.insert(key, value)
        return doc, f"{path} twice"
    if op == "wrap":
        parent[key] = [value]
        return doc, f"{path} wrapped in a list"
    if op == "nest":
        depth, kind = draw(DEPTHS), draw(st.sampled_from(["list", "dict", "mixed"]))
        parent[key] = nest(depth, value, kind)
        return doc, f"{path} nested {depth} deep ({kind})"
    new = draw(_tweaks(value) if op == "tweak" else values)
    parent[key] = new
    return doc, f"{path} := {describe(new, 60)}"


@st.composite
def mutated(
    draw: st.DrawFn,
    kinds: tuple[str, ...],
    values: st.SearchStrategy[Any] = JSON_VALUES,
    max_steps: int = 3,
) -> Doc:
    """A document of one of ``kinds`` from the pool with up to ``max_steps`` mutations."""
    kind = draw(st.sampled_from(kinds))
    docs = pool().docs[kind]
    name, text = docs[draw(st.integers(0, len(docs) - 1))]
    doc = json.loads(text)
    notes = [name]
    for _ in range(draw(st.integers(0, max_steps))):
        doc, note = _mutate(draw, doc, values)
        notes.append(note)
    return Doc(doc, "; ".join(notes))


_KINDS = ("rules", "position", "record", "match", "view")


def documents(kind: str) -> st.SearchStrategy[Case]:
    """Mutated documents, mostly of ``kind``, sometimes of another kind or not documents."""
    own = mutated((kind,))
    return st.one_of(
        own, own, own, mutated(_KINDS), st.deferred(lambda: PY_VALUES).map(lambda v: Doc(v, ""))
    ).map(lambda d: Case(d.value, note=d.note))


_RAW_JSON = [
    "",
    " ",
    "null",
    "[]",
    "{}",
    "0",
    '"x"',
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "9" * 4301,
    "-" + "9" * 5000,
    "[" * 100_000,
    '{"a": ' * 50_000,
    "[" * 1000 + "]" * 1000,
    "\ufeff{}",
    '{"format": "chickenfoot/position", "format": 1}',
    '{"version": 1, "version": 1}',
]


@st.composite
def json_texts(draw: st.DrawFn, kind: str) -> Case:
    """JSON text for a ``from_json``: mutated documents, broken text, bytes, not text at all."""
    how = draw(st.sampled_from(["doc", "doc", "doc", "other", "cut", "raw", "value"]))
    if how == "value":
        value = draw(PY_VALUES)
        return Case(value)
    if how in ("doc", "other"):
        d = draw(mutated((kind,) if how == "doc" else _KINDS))
        text, note = encode(d.value), d.note
    elif how == "cut":
        docs = pool().docs[kind]
        name, text = docs[draw(st.integers(0, len(docs) - 1))]
        pos = draw(st.integers(0, len(text)))
        junk = draw(st.sampled_from(["", "}", "]", ",", '"', "NaN", "[" * 2000, "\x00", "\\u"]))
        rest = text[pos:] if draw(st.booleans()) else ""
        text, note = text[:pos] + junk + rest, f"{name}, cut at {pos} + {junk[:8]!r}"
    else:
        text = draw(st.one_of(st.text(max_size=64), LONG_TEXTS, st.sampled_from(_RAW_JSON)))
        note = ""
    form = draw(st.sampled_from(["str", "str", "utf-8", "utf-16"]))
    payload: str | bytes = text if form == "str" else text.encode(form, "surrogatepass")
    return Case(payload, note=f"{form} of {note}" if note else "")


# -- targets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One entry point: ``call(*case.args, **case.kwargs)`` for every ``case`` of ``inputs``.

    ``accept(case, result)`` checks a successful call and ``refuse(case, error)`` an error
    of the allowed kinds; each returns what is wrong, or ``None``. ``foreign`` names the
    errors of another library that the target's calls may raise too (OpenSpiel's
    ``SpielError`` for the calls that go through OpenSpiel): allowed whatever their message,
    which is not the library's to bound, and still judged by ``refuse``.
    """

    name: str
    inputs: st.SearchStrategy[Case]
    call: Callable[..., Any]
    accept: Callable[[Case, Any], str | None] | None = None
    refuse: Callable[[Case, BaseException], str | None] | None = None
    foreign: tuple[type[BaseException], ...] = ()


TARGETS: dict[str, Target] = {}

IN_SUITE: set[str] = set()
"""The targets a test of the normal suite runs: each test module that runs targets adds
their names here, and ``test_fuzz.test_every_target_runs_in_the_suite`` checks that every
registered target is among them."""


def _target(
    name: str,
    inputs: st.SearchStrategy[Case],
    call: Callable[..., Any],
    accept: Callable[[Case, Any], str | None] | None = None,
    refuse: Callable[[Case, BaseException], str | None] | None = None,
    foreign: tuple[type[BaseException], ...] = (),
) -> None:
    TARGETS[name] = Target(name, inputs, call, accept, refuse, foreign)


def _is(kind: type) -> Callable[[Case, Any], str | None]:
    def accept(case: Case, result: Any) -> str | None:
        if not isinstance(result, kind):
            return f"returned {describe(result, 60)}, not a {kind.__name__}"
        return None

    return accept


def _reads_back(kind: Any) -> Callable[[Case, Any], str | None]:
    """The result is a ``kind`` equal to ``kind.from_dict(result.to_dict())``."""

    def accept(case: Case, result: Any) -> str | None:
        if not isinstance(result, kind):
            return f"returned {describe(result, 60)}, not a {kind.__name__}"
        again = kind.from_dict(result.to_dict())
        if again != result:
            return f"accepted, but its to_dict() reads back as a different {kind.__name__}"
        return None

    return accept


STATES = st.deferred(lambda: st.sampled_from(pool().states))
RULES = st.deferred(lambda: st.sampled_from(pool().rules))
MATCHES = st.deferred(lambda: st.sampled_from(pool().matches))
RECORDS = st.deferred(lambda: st.sampled_from(pool().records))
SOME_STATE = st.one_of(STATES, STATES, STATES, PY_VALUES)
SOME_RULES = st.one_of(RULES, RULES, RULES, PY_VALUES)


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` with every :data:`MISSING` keyword argument left out."""
    return fn(*args, **{k: v for k, v in kwargs.items() if v is not MISSING})


# rules ----------------------------------------------------------------------------------------

_target("Rules.from_dict", documents("rules"), cf.Rules.from_dict, _reads_back(cf.Rules))

_COUNTS = st.one_of(st.integers(-1, 21), INTS, PY_VALUES)
_POINTS = st.one_of(st.integers(-1, 500), st.integers(10**6 - 1, 10**6 + 1), INTS, PY_VALUES)
_target("Rounds(count)", st.builds(Case, _COUNTS), cf.Rounds, _is(cf.Rounds))
_target(
    "Threshold(points)",
    st.builds(lambda p, i: Case(p, inclusive=i), _POINTS, st.one_of(st.booleans(), PY_VALUES)),
    cf.Threshold,
    _is(cf.Threshold),
)
# Match lengths that build (they check themselves, issue 18), for the rules to judge.
_MATCH_OBJECTS = st.one_of(
    st.builds(cf.Rounds, st.integers(1, 19)),
    st.builds(cf.Threshold, st.integers(0, 10**6), inclusive=st.booleans()),
    PY_VALUES,
)


@st.composite
def _rules_kwargs(draw: st.DrawFn, avoid: tuple[str, ...] = ()) -> dict[str, Any]:
    """Keyword arguments for ``Rules``: a real configuration's fields, some replaced."""
    base = draw(RULES)
    fields = {f: getattr(base, f) for f in _FIELDS}
    keep = draw(st.sets(st.sampled_from(_FIELDS)))
    kwargs = {f: v for f, v in fields.items() if f in keep}
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.one_of(st.sampled_from(_FIELDS), KEY_NAMES))
        if name in avoid:
            continue
        kwargs[name] = draw(_MATCH_OBJECTS if name == "match" else PY_VALUES)
    return kwargs


_target(
    "Rules(**kwargs)",
    _rules_kwargs().map(lambda kw: Case(**kw)),
    cf.Rules,
    _is(cf.Rules),
)


@st.composite
def _preset_cases(draw: st.DrawFn) -> Case:
    name = draw(st.one_of(st.sampled_from(sorted(cf.PRESETS)), PY_VALUES))
    players = draw(st.one_of(st.just(MISSING), st.integers(2, 8), PY_VALUES))
    changes = draw(_rules_kwargs(avoid=("players", "name"))) if draw(st.booleans()) else {}
    changes = {k: v for k, v in changes.items() if k not in ("players", "name")}
    return Case(name, players=players, **changes)


_target(
    "Rules.preset",
    _preset_cases(),
    lambda name, /, players=MISSING, **changes: _call(
        cf.Rules.preset, name, players=players, **changes
    ),
    _is(cf.Rules),
)


@st.composite
def _replace_cases(draw: st.DrawFn) -> Case:
    rules = draw(RULES)
    changes = draw(_rules_kwargs())
    return Case(rules, **changes)


_target(
    "Rules.replace", _replace_cases(), lambda rules, /, **kw: rules.replace(**kw), _is(cf.Rules)
)

# notation -------------------------------------------------------------------------------------

_MAX_PIPS = st.one_of(st.just(MISSING), st.integers(2, 18), st.integers(-2, 30), PY_VALUES)


def _notation_cases(texts: st.SearchStrategy[Any]) -> st.SearchStrategy[Case]:
    return st.builds(
        lambda text, max_pip: Case(text, max_pip=max_pip),
        st.one_of(texts, texts, TEXTS, PY_VALUES),
        _MAX_PIPS,
    )


_target(
    "parse_move",
    _notation_cases(MOVE_TEXTS),
    lambda text, max_pip=MISSING: _call(cf.parse_move, text, max_pip=max_pip),
    _is(cf.Move),
)
_target(
    "Move.parse",
    _notation_cases(MOVE_TEXTS),
    lambda text, max_pip=MISSING: _call(cf.Move.parse, text, max_pip=max_pip),
    _is(cf.Move),
)
_target(
    "Tile.parse",
    _notation_cases(TILE_TEXTS),
    lambda text, max_pip=MISSING: _call(cf.Tile.parse, text, max_pip=max_pip),
    _is(cf.Tile),
)
_NUMBERS = st.one_of(st.integers(-2, 20), PY_VALUES)
_target("Tile(a, b)", st.builds(Case, _NUMBERS, _NUMBERS), cf.Tile, _is(cf.Tile))
_target("Tile.from_id", st.builds(Case, _NUMBERS), cf.Tile.from_id, _is(cf.Tile))

# positions ------------------------------------------------------------------------------------

_target("State.from_dict", documents("position"), cf.State.from_dict, _reads_back(cf.State))
_target("State.from_json", json_texts("position"), cf.State.from_json, _reads_back(cf.State))

_SETUP_KEYS = ("hands", "boneyard", "centre", "board", "turn", "drawn")


def _as_objects(value: Any, levels: int = 2) -> Any:
    """Tile and placement notation in ``value`` (and in lists, two levels down) as objects."""
    if isinstance(value, list) and levels:
        return [_as_objects(v, levels - 1) for v in value]
    if isinstance(value, str) and len(value) < 12:
        with contextlib.suppress(cf.ChickenFootError):
            return cf.Tile.parse(value) if "@" not in value else cf.parse_move(value)
    return value


@st.composite
def _setup_cases(draw: st.DrawFn) -> Case:
    s = draw(STATES)
    doc = s.to_dict()
    parts = {k: doc[k] for k in _SETUP_KEYS}
    for key in _SETUP_KEYS[2:]:
        if draw(st.integers(0, 3)) == 0:
            del parts[key]  # left to its default
    notes = [describe(s)]
    for _ in range(draw(st.integers(0, 3))):
        parts, note = _mutate(draw, parts, PY_VALUES)
        notes.append(note)
    if not isinstance(parts, dict):
        parts = {"hands": parts, "boneyard": []}
    parts = {k: v for k, v in parts.items() if k in _SETUP_KEYS}
    parts.setdefault("hands", doc["hands"])
    parts.setdefault("boneyard", doc["boneyard"])
    if draw(st.booleans()):
        parts = {k: _as_objects(v) for k, v in parts.items()}
        notes.append("tiles as objects")
    rules = s.rules if draw(st.integers(0, 5)) else draw(PY_VALUES)
    return Case(rules, note="; ".join(notes), **parts)


_target("State.setup", _setup_cases(), cf.State.setup, _is(cf.State))

_MOVE_OBJECTS = st.one_of(
    st.builds(
        cf.Play,
        st.builds(cf.Tile, st.integers(0, 18), st.integers(0, 18)),
        st.one_of(st.none(), st.builds(cf.Tile, st.integers(0, 18), st.integers(0, 18))),
    ),
    st.builds(
        cf.Draw, st.one_of(st.none(), st.builds(cf.Tile, st.integers(0, 18), st.integers(0, 18)))
    ),
    st.sampled_from([cf.DRAW, cf.PASS, ODD_MOVE, _LookalikeMove()]),
)


@st.composite
def _moves_for(draw: st.DrawFn, state: Any) -> Any:
    """A move for ``state``: a legal one, its notation, another move, or anything at all."""
    legal = list(cf.legal_moves(state)) if isinstance(state, cf.State) else []
    how = draw(st.integers(0, 4))
    if how == 0 and legal:
        return draw(st.sampled_from(legal))
    if how == 1 and legal:
        return str(draw(st.sampled_from(legal)))
    if how == 2:
        return draw(_MOVE_OBJECTS)
    if how == 3:
        return draw(MOVE_TEXTS)
    return draw(PY_VALUES)


@st.composite
def _state_and_move(draw: st.DrawFn) -> Case:
    state = draw(SOME_STATE)
    return Case(state, draw(_moves_for(state)))


_target("apply", _state_and_move(), cf.apply, _is(cf.State))
_target(
    "State.apply",
    STATES.flatmap(lambda s: _moves_for(s).map(lambda m: Case(s, m))),
    lambda s, m: s.apply(m),
    _is(cf.State),
)
_target("is_legal", _state_and_move(), cf.is_legal, _is(bool))
_target(
    "legal_moves",
    st.one_of(STATES, PY_VALUES).map(Case),
    cf.legal_moves,
    _is(cf.LegalMoves),
)


def _refuse_seed_as_rules(case: Case, error: BaseException) -> str | None:
    if isinstance(error, cf.RulesError) and error.field in ("seed", "round"):
        return f"RulesError for {error.field}, which is not a rules field"
    return None


_target(
    "deal",
    st.builds(
        lambda rules, seed, rnd: Case(rules, seed=seed, round=rnd),
        SOME_RULES,
        st.one_of(INTS, INTS, PY_VALUES),
        st.one_of(st.just(MISSING), st.integers(0, 40), INTS, PY_VALUES),
    ),
    lambda rules, seed=MISSING, round=MISSING: _call(cf.deal, rules, seed=seed, round=round),
    _is(cf.State),
    _refuse_seed_as_rules,
)


@st.composite
def _perft_cases(draw: st.DrawFn) -> Case:
    s = draw(SOME_STATE)
    depth = draw(st.one_of(st.integers(0, 2), st.integers(max_value=-1), HUGE_INTS, PY_VALUES))
    if not (isinstance(s, cf.State) and s.is_over()):
        depth = _not_a_big_depth(depth)  # a big depth is a big (legal) computation
    return Case(s, depth)


def _count(case: Case, result: Any) -> str | None:
    if type(result) is not int or result < 0:
        return f"returned {describe(result, 60)}, not a count"
    return None


_target("perft", _perft_cases(), cf.perft, _count)


class _Policy:
    """A playout policy that answers ``value``, or the first legal move if ``value`` is None."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, state: cf.State, moves: cf.LegalMoves) -> Any:
        return moves[0] if self.value is None else self.value

    def __repr__(self) -> str:
        return f"policy answering {describe(self.value, 60)}"


_RNGS = st.one_of(
    st.just(MISSING), st.none(), st.builds(random.Random, st.integers(0, 100)), PY_VALUES
)


@st.composite
def _playout_cases(draw: st.DrawFn) -> Case:
    s = draw(SOME_STATE)
    if draw(st.integers(0, 3)) == 0:
        value = draw(st.one_of(st.none(), st.none(), _moves_for(s)))
        return Case(s, policy=_Policy(value))
    return Case(s, rng=draw(_RNGS))


def _finished(case: Case, result: Any) -> str | None:
    if not isinstance(result, cf.State) or not result.is_over():
        return f"returned {describe(result, 60)}, not a finished State"
    return None


_target("playout", _playout_cases(), lambda s, /, **kw: _call(cf.playout, s, **kw), _finished)

_SEATS = st.one_of(st.integers(-10, 20), INTS, PY_VALUES)


def _seat_only(case: Case, result: Any) -> str | None:
    state, seat = case.args
    if type(seat) is not int or not 0 <= seat < state.players:
        return f"accepted seat {describe(seat, 60)} of a {state.players}-seat round"
    return None


_target("State.hand", st.builds(Case, STATES, _SEATS), lambda s, x: s.hand(x), _seat_only)
_target("State.view", st.builds(Case, STATES, _SEATS), lambda s, x: s.view(x), _seat_only)

# records, matches, views ----------------------------------------------------------------------

_target("Record.from_dict", documents("record"), cf.Record.from_dict, _reads_back(cf.Record))
_target("Record.from_json", json_texts("record"), cf.Record.from_json, _reads_back(cf.Record))


@st.composite
def _record_cases(draw: st.DrawFn) -> Case:
    rec = draw(RECORDS)
    start: Any = rec.start if draw(st.integers(0, 5)) else draw(PY_VALUES)
    moves: Any = [m if draw(st.booleans()) else str(m) for m in rec.moves]
    how = draw(st.integers(0, 3))
    if how == 1:
        moves.append(draw(_moves_for(rec.final())))
    elif how == 2 and moves:
        moves[draw(st.integers(0, len(moves) - 1))] = draw(_moves_for(rec.start))
    elif how == 3:
        moves = draw(PY_VALUES)
    return Case(start, moves, note=describe(rec))


_target("Record(start, moves)", _record_cases(), cf.Record, _is(cf.Record))
_target(
    "Record.apply",
    RECORDS.flatmap(lambda r: _moves_for(r.final()).map(lambda m: Case(r, m))),
    lambda r, m: r.apply(m),
    _is(cf.Record),
)
_target("Match.from_dict", documents("match"), cf.Match.from_dict, _reads_back(cf.Match))
_target("Match.from_json", json_texts("match"), cf.Match.from_json, _reads_back(cf.Match))
_target(
    "Match.start",
    st.builds(lambda r, s: Case(r, seed=s), SOME_RULES, st.one_of(INTS, PY_VALUES)),
    lambda rules, seed: cf.Match.start(rules, seed=seed),
    _is(cf.Match),
)
_target(
    "Match.apply",
    MATCHES.flatmap(
        lambda m: _moves_for(m.round if m.round is not None else None).map(lambda x: Case(m, x))
    ),
    lambda m, x: m.apply(x),
    _is(cf.Match),
)
_target("View.from_dict", documents("view"), cf.View.from_dict, _reads_back(cf.View))
_target("View.from_json", json_texts("view"), cf.View.from_json, _reads_back(cf.View))

# the command line -----------------------------------------------------------------------------

_INT_ARGS = st.one_of(
    st.integers(-5, 50).map(str),
    st.sampled_from(["", "1.5", "1e3", "0x10", " 3", "\u0663", "9" * 4300, "9" * 4301]),
    st.sampled_from(["-" + "9" * 5000, "99999999999999999999"]),
    INTS.map(int_text),
    TEXTS,
)
_SET_ARGS = st.one_of(
    st.builds(
        "{}={}".format,
        st.one_of(st.sampled_from(_FIELDS), st.sampled_from(_FIELDS), KEY_NAMES),
        st.one_of(JSON_VALUES.map(encode), DEEP.map(encode), HUGE_INTS.map(int_text), TEXTS),
    ),
    TEXTS,
)
_OPTIONS: dict[str, st.SearchStrategy[str]] = {
    "--seed": _INT_ARGS,
    "--round": _INT_ARGS,
    "--players": _INT_ARGS,
    "--preset": st.one_of(st.sampled_from([*cf.PRESETS, "", "House", "x"]), TEXTS),
    "--set": _SET_ARGS,
}
_FLAGS = ["--compact", "--help", "-h", "--version", "--", "--se", "--set=", "-x", "--pl"]


@st.composite
def _argv(draw: st.DrawFn) -> list[str]:
    argv: list[str] = []
    if draw(st.integers(0, 9)):
        argv.append(draw(st.sampled_from(["demo", "rules"])))
    elif draw(st.booleans()):
        argv.append(draw(TEXTS))
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from([*_OPTIONS, *_OPTIONS, *_FLAGS]))
        if opt in _OPTIONS and draw(st.integers(0, 5)):
            value = draw(_OPTIONS[opt])
            argv += [f"{opt}={value}"] if draw(st.integers(0, 3)) == 0 else [opt, value]
        else:
            argv.append(opt)
    return argv


@dataclass
class CliRun:
    """What ``chickenfoot.cli.main(argv)`` returned and printed."""

    status: Any
    stdout: str
    stderr: str


def run_cli(argv: list[str]) -> CliRun:
    """Run the command line in this process, capturing stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli_main(argv)
    return CliRun(status, out.getvalue(), err.getvalue())


_ERROR_LINE = re.compile(r"chickenfoot: error: ([^\n]*)\n\Z")


def _cli_ok(case: Case, run: CliRun) -> str | None:
    if type(run.status) is not int:
        return f"main returned {describe(run.status, 60)}, not an int"
    head = " ".join(run.stderr[:200].split())
    if run.status == 0:
        if run.stderr:
            return f"exit status 0 with {len(run.stderr):,} characters on stderr"
        return None
    if "Traceback" in run.stderr:
        return "a traceback on stderr"
    line = _ERROR_LINE.match(run.stderr)
    if line is None:
        lines = run.stderr.count("\n")
        return f"stderr is not one 'chickenfoot: error: ...' line ({lines} lines): {head}"
    if len(line.group(1)) > MAX_MESSAGE:
        return f"an error line of {len(line.group(1)):,} characters: {head}"
    if run.status != 2:
        return f"exit status {run.status} (bad input exits with 2)"
    return None


_target("cli.main", _argv().map(Case), run_cli, _cli_ok)

# The document commands, reading a fuzzed document (any kind, mutated or broken) from a file.
_DOC_EXTRAS: dict[str, list[list[str]]] = {
    "show": [[], ["--long"], ["--seat", "1"], ["--seat", "x"]],
    "moves": [[]],
    "validate": [[]],
    "replay": [["--final"], ["--game", "1"]],
    "perft": [["--depth", "0"], ["--depth", "1"], ["--depth", "2"], ["--depth", "-1"]],
    "apply": [["draw"], ["pass"], ["9-3@9-9"], ["x"], ["2-0@1-0", "draw"]],
}


@st.composite
def _document_argv(draw: st.DrawFn) -> Case:
    kind = draw(st.sampled_from(["position", "record", "match", "view"]))
    doc = draw(json_texts(kind))
    command = draw(st.sampled_from(sorted(_DOC_EXTRAS)))
    extra = draw(st.sampled_from(_DOC_EXTRAS[command]))
    return Case([command, "FILE", *extra], doc.args[0], note=doc.note)


def run_cli_on_file(argv: list[str], text: Any) -> CliRun:
    """Write ``text`` (str, bytes, or any other value as its bounded description) to a file
    and run ``argv`` on it."""
    if isinstance(text, bytes):
        data = text
    elif isinstance(text, str):
        data = text.encode("utf-8", "surrogatepass")
    else:  # not text at all: what a file could hold of it
        data = describe(text, 2000).encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "doc.json")
        with open(path, "wb") as f:
            f.write(data)
        return run_cli([path if a == "FILE" else a for a in argv])


_target("cli.main on files", _document_argv(), run_cli_on_file, _cli_ok)


# -- the check ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    """A call that broke the property: which target, what went wrong, where, and the input."""

    target: str
    kind: str
    """What went wrong: ``RecursionError escaped``, ``message too long``, ``too slow``..."""
    detail: str
    error: str
    """The exception's type name (``""`` when the call returned)."""
    where: str
    """The innermost frame in the package (``state.py:805 in apply``), else the innermost."""
    message: str
    input: str
    seconds: float

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Failures with the same key are the same defect."""
        return (self.target, self.kind, self.error, self.where)

    def report(self) -> str:
        lines = [f"{self.target}: {self.kind}" + (f" ({self.detail})" if self.detail else "")]
        if self.error:
            lines.append(f"  raised {self.error} at {self.where}")
        if self.message:
            lines.append(f"  message: {self.message}")
        lines.append(f"  input: {self.input}")
        return "\n".join(lines)


class _Hang(BaseException):
    """Raised in a call that ran past :data:`HARD_LIMIT` (a BaseException: not caught by
    the library's ``except Exception``)."""


@contextlib.contextmanager
def _hard_limit(seconds: float) -> Iterator[None]:
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Hang

    old = signal.signal(signal.SIGALRM, on_alarm)
    # Repeating: an exception raised where Python ignores it (a gc callback) is tried again.
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@functools.cache
def _in_package(filename: str) -> bool:
    return os.path.realpath(filename).startswith(PACKAGE + os.sep)


def _frames(error: BaseException) -> list[tuple[str, int, str]]:
    out = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        out.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    return out


def _where(error: BaseException) -> str:
    frames = _frames(error)
    ours = [f for f in frames if _in_package(f[0])]
    filename, line, name = (ours or frames or [("?", 0, "?")])[-1]
    if not ours:
        filename = os.path.join(os.path.basename(os.path.dirname(filename)), filename)
    return f"{os.path.basename(filename) if ours else filename}:{line} in {name}"


def raised_by_library(error: BaseException) -> bool:
    """Whether ``error`` comes from a ``raise`` statement in the chickenfoot package."""
    frames = _frames(error)
    if not frames or not _in_package(frames[-1][0]):
        return False
    filename, line, _ = frames[-1]
    return linecache.getline(filename, line).lstrip().startswith("raise")


def _judge(target: Target, case: Case, result: Any, error: BaseException | None) -> tuple[str, str]:
    """``(kind, detail)`` of what is wrong with this outcome, or ``("", "")``."""
    if error is None:
        problem = target.accept(case, result) if target.accept is not None else None
        return ("wrong result", problem) if problem else ("", "")
    if isinstance(error, _Hang):
        return "hangs", f"still running after {HARD_LIMIT:.0f} s"
    if isinstance(error, target.foreign) and not isinstance(error, cf.ChickenFootError):
        problem = target.refuse(case, error) if target.refuse is not None else None
        return ("wrong error", problem) if problem else ("", "")
    allowed = isinstance(error, cf.ChickenFootError) or (
        isinstance(error, TypeError) and raised_by_library(error)
    )
    if not allowed:
        if isinstance(error, TypeError):
            return "TypeError from Python, not a message of the library", ""
        return f"{type(error).__name__} escaped", ""
    message = str(error)
    if not message.strip():
        return "empty message", ""
    if len(message) > MAX_MESSAGE:
        return "message too long", f"{len(message):,} characters"
    problem = target.refuse(case, error) if target.refuse is not None else None
    return ("wrong error", problem) if problem else ("", "")


def check(target: Target, case: Case, *, max_seconds: float | None = None) -> Failure | None:
    """Call ``target`` with ``case``; the :class:`Failure` if the property breaks, else None.

    ``max_seconds`` (``bench/fuzz.py`` gives :data:`MAX_SECONDS`) also counts a call that
    takes longer as a failure ("too slow").
    """
    result: Any = None
    error: BaseException | None = None
    start = time.perf_counter()
    try:
        with _hard_limit(HARD_LIMIT):
            result = target.call(*case.args, **case.kwargs)
    except (Exception, SystemExit, _Hang) as err:
        error = err
    seconds = time.perf_counter() - start
    kind, detail = _judge(target, case, result, error)
    if not kind and max_seconds is not None and seconds > max_seconds:
        kind, detail = "too slow", f"{seconds:.2f} s"
    if not kind:
        return None
    message = ""
    if error is not None:
        text = str(error)
        message = " ".join(text[:300].split()) + (
            f"... ({len(text):,} characters)" if len(text) > 300 else ""
        )
    return Failure(
        target=target.name,
        kind=kind,
        detail=detail,
        error="" if error is None else type(error).__name__,
        where="" if error is None else _where(error),
        message=message,
        input=repr(case),
        seconds=seconds,
    )


# -- running targets in the suite --------------------------------------------------------------


def fuzzes(
    name: str, n: int, *, tested: set[str] | None = None
) -> Callable[[Callable[[Case], None]], Callable[..., None]]:
    """Run the decorated test on ``n`` examples (scaled by the Hypothesis profile:
    ``strategies.examples``) of target ``name``, which joins :data:`IN_SUITE` (and
    ``tested``, a module's own list of the targets it runs)."""
    from hypothesis import HealthCheck, given, settings

    from strategies import examples

    IN_SUITE.add(name)
    if tested is not None:
        tested.add(name)

    def wrap(test: Callable[[Case], None]) -> Callable[..., None]:
        return settings(
            max_examples=examples(n),
            deadline=None,  # check() watches every call itself
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )(given(TARGETS[name].inputs)(test))

    return wrap


def holds(name: str, case: Case) -> None:
    """Assert that target ``name`` keeps the property on ``case``."""
    failure = check(TARGETS[name], case)
    assert failure is None, failure.report()
