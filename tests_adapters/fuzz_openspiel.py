"""Fuzz targets of the OpenSpiel game (``chickenfoot.openspiel``), in the shared registry.

Importing this module registers them in ``fuzz_targets.TARGETS``; it imports OpenSpiel
first, so that without it the import fails and ``bench/fuzz.py`` skips the module.
``tests_adapters/test_fuzz_adapters.py`` runs each target for a short fixed budget, with
the inputs of issue 18 as explicit examples. The property is ``fuzz_targets.check``'s
(returns, or raises a ``ChickenFootError`` or the library's own ``TypeError`` with a bounded
message; under ``nox -s fuzz`` also in under a second), OpenSpiel's ``SpielError`` also allowed where the call goes
through OpenSpiel's own code (``foreign``). On top of it, checked in the calls themselves (a
breach raises ``AssertionError``, which ``check`` reports):

* no ``__dict__=`` line is ever unpickled: the pickles of the inputs record it if they are;
* a loaded state reads back as itself from its own ``serialize()``;
* a loaded game is a ``ChickenFootGame`` whose lengths fit OpenSpiel's C++ ints.

Inputs: the saved states of real games of five configurations (the deal, a decision, a
draw's chance node, the middle of a round, between two rounds of a match, the end), as the
game writes them and as OpenSpiel's C++ ``serialize_game_and_state`` does (with a pickled
``__dict__=`` line), mutated: lines dropped, duplicated, swapped, added or cut; history
entries replaced, dropped, duplicated, swapped, or given huge, negative or non-numeric
players and actions; ``move_number`` changed; the ``__dict__=`` line replaced by the pickle of
another state, a pickle whose loading would run code, base64 junk or text. Whole documents
mutated as well (sections, headers, comments, the game's parameters), as ``str``, ``bytes``
and ``bytearray``; game strings and parameter dicts of real configurations with values
replaced by any value.
"""

from __future__ import annotations

import base64
import functools
import pickle
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyspiel
from hypothesis import strategies as st

import chickenfoot as cf
import chickenfoot.openspiel._config as cfos_config  # the game parameters' defaults
from chickenfoot import openspiel as cfos
from fuzz_targets import (
    INTS,
    KEY_NAMES,
    PY_VALUES,
    TEXTS,
    Case,
    _is,
    _target,
    describe,
    int_text,
)

__all__ = ["CONFIGS", "NAMES", "UNPICKLED", "saved"]

NAMES: list[str] = []
"""The targets this module registers."""

CONFIGS = {
    "double6-2p": "python_chickenfoot(players=2,max_pip=6,hand_size=4)",
    "holder-3p": "python_chickenfoot(players=3,centre=holder,hand_size=7,opening_toes=4,"
    "draw=until_playable,drawn_tile=may_play,may_draw_instead=True,utility=zero_sum)",
    "match-2-rounds": "python_chickenfoot(players=2,max_pip=6,hand_size=7,scope=match,"
    "match_rounds=2)",
    "threshold-3p": "python_chickenfoot(players=3,max_pip=6,hand_size=5,scope=match,"
    "match_threshold=20)",
    "house-4p": "python_chickenfoot",
}
INT_MAX = 2**31 - 1
SPIEL = (pyspiel.SpielError,)


def _register(name: str, inputs: Any, call: Any, accept: Any = None, foreign: Any = ()) -> None:
    NAMES.append(name)
    _target(name, inputs, call, accept, foreign=foreign)


# -- the pickles that must never be loaded ---------------------------------------------------

UNPICKLED: list[str] = []
"""One entry for every pickle of the inputs that was loaded: must stay empty."""


def _record_unpickling(what: str) -> dict[str, Any]:
    UNPICKLED.append(what)
    return {}


class _Payload:
    """A pickle whose loading calls :func:`_record_unpickling` (a real payload could do
    anything there)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_record_unpickling, ("a __dict__ payload",))


def _never_unpickles(call: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        before = len(UNPICKLED)
        try:
            return call(*args)
        finally:
            if len(UNPICKLED) != before:
                raise AssertionError("a __dict__= line was unpickled")

    return run


# -- real saved states ------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    name: str
    game: Any
    own: str
    """``state.serialize()``: the game's own text."""
    cpp: str
    """The ``[State]`` section of OpenSpiel's C++ ``serialize_game_and_state``."""
    document: str
    """The whole C++ document."""

    def __repr__(self) -> str:
        return self.name


def _points(path: list[Any]) -> dict[str, Any]:
    points = {"start": path[0], "mid-deal": path[min(3, len(path) - 1)], "end": path[-1]}
    points["decision"] = next(s for s in path if s.current_player() >= 0)
    drawing = [s for s in path if s.round_state is not None and s.is_chance_node()]
    if drawing:
        points["drawing"] = drawing[0]
    points["mid-round"] = path[len(path) // 2]
    between = [s for s in path if s.rounds_played and s.round_state is None and not s.is_terminal()]
    if between:
        points["between rounds"] = between[0]
    return points


@functools.cache
def saved() -> list[Saved]:
    """The saved states of one random game of each configuration, at each point."""
    out = []
    for config, text in CONFIGS.items():
        game = pyspiel.load_game(text)
        state = game.new_initial_state()
        rng = random.Random(1)
        path = [state.clone()]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            path.append(state.clone())
        for point, s in _points(path).items():
            document = pyspiel.serialize_game_and_state(game, s)
            section = document.split("[State]\n", 1)[1].rstrip("\n")
            out.append(Saved(f"{config} at {point}", game, s.serialize(), section, document))
    # states of new_state_from: their text has a start= line, and OpenSpiel cannot save them
    game = pyspiel.load_game(CONFIGS["double6-2p"])
    state = game.new_state_from(cf.deal(game.config.rules, seed=3))
    for moves in range(4):
        own = state.serialize()
        document = f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{own}\n"
        out.append(Saved(f"new_state_from after {moves} moves", game, own, own, document))
        state.apply_action(state.legal_actions()[-1])
    return out


GAMES = st.deferred(lambda: st.sampled_from(list({id(s.game): s.game for s in saved()}.values())))
SAVED = st.deferred(lambda: st.sampled_from(saved()))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@functools.cache
def _dict_lines() -> list[str]:
    """``__dict__=`` lines: real pickles of other states, a payload, and junk."""
    real = [s.cpp.split("\n")[2] for s in saved()[::4] if "\n__dict__=" in s.cpp]
    payloads = [pickle.dumps(_Payload()), pickle.dumps({"_core": _Payload(), "_over": True})]
    junk = [_b64(b""), _b64(b"\x80\x04junk"), _b64(bytes(range(256))), "%%%", "AAAA====", ""]
    return real + [f"__dict__={_b64(p)}" for p in payloads] + [f"__dict__={j}" for j in junk]


# -- mutations of a state's text --------------------------------------------------------------


def _few_commas(text: str) -> str:
    """``text`` with at most 100 commas: OpenSpiel's C++ parser of game strings takes time
    quadratic in their commas (2 s for 100,000), which is OpenSpiel's, not the game's."""
    return text if text.count(",") <= 100 else text.replace(",", ";")


_TEXTS = TEXTS.map(_few_commas)

_ENTRY_NUMBERS = st.one_of(
    st.integers(-5, 60), st.sampled_from([-1, -4, 189, 2458, 2459]), INTS.map(int_text)
)
_ENTRY = st.one_of(
    st.builds("{}:{}".format, _ENTRY_NUMBERS, _ENTRY_NUMBERS),
    _TEXTS,
    st.sampled_from(["", ":", "-1:", ":1", "1:2:3", " 0:1", "0:1 ", "-1:+1", "0x1:2", "1e3:0"]),
)
_LINES = st.one_of(
    st.sampled_from(["history=", "move_number=0", "__dict__=", "", "#", "[State]", "history"]),
    _TEXTS,
)


def _mutate_history(draw: st.DrawFn, line: str) -> tuple[str, str]:
    entries = line[len("history=") :].split(",") if line != "history=" else []
    op = draw(st.sampled_from(["replace", "drop", "duplicate", "swap", "insert", "number", "sep"]))
    if not entries and op != "insert":
        op = "insert"
    k = draw(st.integers(0, max(len(entries) - 1, 0)))
    if op == "replace":
        entries[k] = draw(_ENTRY)
        note = f"history[{k}] := {describe(entries[k], 40)}"
    elif op == "drop":
        del entries[k]
        note = f"del history[{k}]"
    elif op == "duplicate":
        entries.insert(k, entries[k])
        note = f"history[{k}] twice"
    elif op == "swap":
        j = draw(st.integers(0, len(entries) - 1))
        entries[k], entries[j] = entries[j], entries[k]
        note = f"history[{k}] <-> history[{j}]"
    elif op == "insert":
        entries.insert(k, draw(_ENTRY))
        note = f"history insert at {k}: {describe(entries[k], 40)}"
    elif op == "number":  # one number of an entry: huge, negative, off by one
        player, _, action = entries[k].partition(":")
        value = int_text(draw(_ENTRY_NUMBERS.filter(lambda v: isinstance(v, int)) | INTS))
        entries[k] = f"{value}:{action}" if draw(st.booleans()) else f"{player}:{value}"
        note = f"history[{k}] := {describe(entries[k], 40)}"
    else:
        sep = draw(st.sampled_from([";", ", ", ",,", " ", "\t"]))
        return "history=" + sep.join(entries), f"history joined by {sep!r}"
    return "history=" + ",".join(entries), note


def _mutate_state(draw: st.DrawFn, lines: list[str]) -> tuple[list[str], str]:
    lines = list(lines)
    op = draw(st.sampled_from(["history", "history", "history", "number", "dict", "lines"]))
    if op == "history" and lines and lines[0].startswith("history="):
        lines[0], note = _mutate_history(draw, lines[0])
        return lines, note
    if op == "number" and len(lines) > 1:
        value = draw(st.one_of(INTS.map(int_text), _TEXTS))
        lines[1] = f"move_number={value}"
        return lines, f"move_number := {describe(value, 40)}"
    if op == "dict":
        line = draw(st.sampled_from(_dict_lines()))
        if len(lines) > 2:
            lines[2] = line
        else:
            lines.append(line)
        return lines, f"__dict__ line := {describe(line, 40)}"
    how = draw(st.sampled_from(["drop", "duplicate", "swap", "insert", "cut"]))
    k = draw(st.integers(0, max(len(lines) - 1, 0)))
    if how == "drop" and lines:
        del lines[k]
        return lines, f"del line {k}"
    if how == "duplicate" and lines:
        lines.insert(k, lines[k])
        return lines, f"line {k} twice"
    if how == "swap" and len(lines) > 1:
        j = draw(st.integers(0, len(lines) - 1))
        lines[k], lines[j] = lines[j], lines[k]
        return lines, f"lines {k} <-> {j}"
    if how == "cut":
        text = "\n".join(lines)
        at = draw(st.integers(0, len(text)))
        return text[:at].split("\n"), f"cut at {at}"
    new = draw(_LINES)
    lines.insert(k, new)
    return lines, f"insert line {k}: {describe(new, 40)}"


@st.composite
def _state_lines(draw: st.DrawFn) -> tuple[Saved, list[str], str]:
    s = draw(SAVED)
    own = draw(st.booleans())
    lines = (s.own if own else s.cpp).split("\n")
    notes = [f"{s.name}, {'own text' if own else 'C++ text'}"]
    for _ in range(draw(st.integers(0, 3))):
        lines, note = _mutate_state(draw, lines)
        notes.append(note)
    return s, lines, "; ".join(notes)


@st.composite
def _state_texts(draw: st.DrawFn) -> Case:
    s, lines, note = draw(_state_lines())
    game = s.game if draw(st.integers(0, 9)) else draw(GAMES)
    if game is not s.game:
        note += f"; read by the game {game}"
    if draw(st.integers(0, 19)) == 0:
        return Case(game, draw(PY_VALUES), note="not text")
    return Case(game, "\n".join(lines), note=note)


def _reads_back(case: Case, result: Any) -> str | None:
    state = result[1] if isinstance(result, tuple) else result
    if not isinstance(state, cfos.ChickenFootState):
        return f"returned {describe(result, 60)}, not a ChickenFootState"
    again = state.get_game().deserialize_state(state.serialize())
    if again.history() != state.history() or str(again) != str(state):
        return "accepted, but its own serialize() reads back as another state"
    return None


_register(
    "openspiel: game.deserialize_state",
    _state_texts(),
    _never_unpickles(lambda game, text: game.deserialize_state(text)),
    _reads_back,
)


# -- whole documents --------------------------------------------------------------------------

_PARAMETER = re.compile(r"(\w+)=([^,()]*)")
_VALUE_TEXTS = st.one_of(
    INTS.map(int_text), st.sampled_from(["True", "False", "1.5", "-1", "", "x(y)", "a=b"]), _TEXTS
)
_HEADERS = ["[Meta]", "[Game]", "[State]", "[GameRNGState]", "Version: 1", "# comment", ""]


@st.composite
def _documents(draw: st.DrawFn) -> Case:
    s, state, note = draw(_state_lines())
    notes = [note]
    game = str(s.game)
    for _ in range(draw(st.integers(0, 2))):
        params = _PARAMETER.findall(game)
        name, _ = draw(st.sampled_from(params))
        value = draw(_VALUE_TEXTS)
        game = re.sub(rf"\b{name}=[^,()]*", f"{name}={value}".replace("\\", "\\\\"), game, count=1)
        notes.append(f"game {name}={describe(value, 40)}")
    lines = ["# Automatically generated", "[Meta]", "Version: 1", "", "[Game]", game, "[State]"]
    lines += [*state, ""]
    for _ in range(draw(st.integers(0, 2))):
        k = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "duplicate", "swap", "insert"]))
        if how == "drop":
            del lines[k]
        elif how == "duplicate":
            lines.insert(k, lines[k])
        elif how == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        else:
            lines.insert(k, draw(st.one_of(st.sampled_from(_HEADERS), _TEXTS)))
        notes.append(f"document line {k}: {how}")
    text = "\n".join(lines)
    form = draw(st.sampled_from(["str", "str", "bytes", "bytearray", "not utf-8"]))
    data: Any = text
    if form != "str":
        raw = text.encode("utf-8", "surrogatepass")
        data = bytearray(raw) if form == "bytearray" else raw
        if form == "not utf-8":
            data = b"#\xff\xfe\n" + raw
    return Case(data, note=f"{form} of {'; '.join(notes)}")


_register(
    "openspiel: pyspiel.deserialize_game_and_state",
    _documents(),
    _never_unpickles(lambda data: pyspiel.deserialize_game_and_state(data)),  # noqa: PLW0108 - looked up at each call
    _reads_back,
    SPIEL,
)


# -- game parameters -----------------------------------------------------------------------------


def _fits(case: Case, game: Any) -> str | None:
    if not isinstance(game, cfos.ChickenFootGame):
        return f"returned {describe(game, 60)}, not a ChickenFootGame"
    lengths = (game.max_game_length(), game.max_history_length(), game.max_move_number())
    if not all(0 < n <= INT_MAX for n in lengths) or lengths[0] > lengths[1]:
        return f"lengths {lengths} do not fit OpenSpiel's C++ ints"
    game.new_initial_state()
    return None


@functools.cache
def _real_parameters() -> list[dict[str, Any]]:
    return [dict(pyspiel.load_game(text).get_parameters()) for text in CONFIGS.values()]


_REAL_NAMES = st.sampled_from(sorted(cfos_config.DEFAULTS))
# one name in five is not a parameter's (st.one_of would flatten KEY_NAMES' own branches)
_PARAMETER_NAMES = st.integers(0, 4).flatmap(lambda k: KEY_NAMES if k == 0 else _REAL_NAMES)
_WORDS = ["round", "match", "auto", "penalty", "zero_sum", "win", "holder", "set_aside", "one"]
_WORDS += ["until_playable", "must_play", "may_play", "shared", "zero_rounds", "x"]
_EDGES = [-(2**31), -1, 0, 1, 2, 3, 6, 9, 12, 18, 19, 20, 189, 190, 1000, 1001, 10**6, INT_MAX]
_EDGES += [10**6 + 1, 723_058, 723_059, 174_082, 174_083]
# Values of the parameter's own type mostly (an OpenSpiel type error refuses the others
# before the game sees them), any value sometimes.
_TYPED: dict[type, Any] = {
    int: st.one_of(st.integers(-3, 30), st.sampled_from(_EDGES), st.integers(-(2**31), INT_MAX)),
    bool: st.booleans(),
    str: st.one_of(st.sampled_from(_WORDS), st.text("abcdefghijklmnopqrstuvwxyz_", max_size=12)),
}


def _typed(draw: st.DrawFn, name: str) -> Any:
    kind = type(cfos_config.DEFAULTS.get(name, ""))
    return draw(_TYPED[kind])


def _as_text(value: Any) -> str:
    return int_text(value) if type(value) is int else str(value)


@st.composite
def _game_strings(draw: st.DrawFn) -> Case:
    params = {k: str(v) for k, v in draw(st.sampled_from(_real_parameters())).items()}
    notes = []
    for _ in range(draw(st.integers(0, 3))):
        name = draw(_PARAMETER_NAMES)
        if draw(st.integers(0, 5)) == 0:
            params.pop(name, None)
            notes.append(f"del {name}")
        else:
            typed = draw(st.integers(0, 3))
            params[name] = _as_text(_typed(draw, name)) if typed else draw(_VALUE_TEXTS)
            notes.append(f"{name}={describe(params[name], 40)}")
    inside = ",".join(f"{k}={v}" for k, v in params.items())
    return Case(f"python_chickenfoot({inside})", note="; ".join(notes))


_register(
    "openspiel: pyspiel.load_game(text)",
    _game_strings(),
    pyspiel.load_game,
    _fits,
    SPIEL,
)

# pyspiel converts a parameters dict before the game sees it, and refuses an int that does
# not fit a C++ int with pybind11's RuntimeError (docs/openspiel.md): only values it converts.
_CONVERTIBLE = st.one_of(
    st.integers(-(2**31), INT_MAX),
    st.sampled_from([-1, 0, 1, 2, 6, 19, 190, 10**6, 10**6 + 1]),
    st.booleans(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["round", "match", "holder", "set_aside", "one", "until_playable"]),
)


@st.composite
def _parameter_dicts(draw: st.DrawFn, values: Any) -> Case:
    params = dict(draw(st.sampled_from(_real_parameters())))
    for _ in range(draw(st.integers(0, 3))):
        name = draw(_PARAMETER_NAMES)
        if draw(st.integers(0, 5)) == 0:
            params.pop(name, None)
        else:
            params[name] = _typed(draw, name) if draw(st.integers(0, 3)) else draw(values)
    return Case(params)


_register(
    "openspiel: pyspiel.load_game(name, params)",
    _parameter_dicts(_CONVERTIBLE),
    lambda params: pyspiel.load_game(cfos.GAME_NAME, params),
    _fits,
    SPIEL,
)
_register(
    "openspiel: ChickenFootGame(params)",
    st.one_of(_parameter_dicts(st.one_of(INTS, PY_VALUES)), PY_VALUES.map(Case)),
    cfos.ChickenFootGame,
    _fits,
)


# -- the observer ---------------------------------------------------------------------------------

_OBS_TYPES = st.one_of(
    st.none(),
    st.builds(
        pyspiel.IIGObservationType,
        perfect_recall=st.booleans(),
        public_info=st.booleans(),
        private_info=st.sampled_from(list(pyspiel.PrivateInfoType.__members__.values())),
    ),
    PY_VALUES,
)
_OBS_PARAMS = st.one_of(
    st.none(), st.just({}), st.dictionaries(st.text(max_size=8), PY_VALUES, max_size=2), PY_VALUES
)
_register(
    "openspiel: make_py_observer",
    st.builds(Case, GAMES, _OBS_TYPES, _OBS_PARAMS),
    lambda game, kind, params: game.make_py_observer(kind, params),
    _is(cfos.ChickenFootObserver),
)
