"""Saving and loading states of the OpenSpiel game without pickle (docs/openspiel.md,
"Saving and loading states"; issue 18).

OpenSpiel saves a state of a Python game as three lines, ``history=...``, ``move_number=...``
and ``__dict__=`` followed by the base64 of the pickled Python attributes, and its C++ reader
(``PyState::Deserialize``, reached by ``game.deserialize_state`` and
``pyspiel.deserialize_game_and_state``) unpickles that last line: an edited string could run
any code. The history alone determines a state of this game (every tile dealt or drawn is a
chance outcome of its own), so the game saves and loads it without pickle. The contract:

- :func:`serialize` writes ``history=P:A,P:A,...`` (OpenSpiel's history: each entry's
  player, ``-1`` for chance, and action) and ``move_number=N``; for a state of
  ``game.new_state_from(position)``, whose history starts at that position, a third line
  ``start=`` and the position's JSON (the library's position format), nothing else;
- :func:`deserialize` reads that text, or OpenSpiel's, whose ``__dict__=`` line it skips
  without ever decoding it, by replaying the history on a new state of the game (or of
  ``new_state_from`` of the ``start`` position, read by ``State.from_json``) with every
  check: each entry's player is the one to act, each action is legal or a chance outcome on
  offer, ``move_number`` is the number of entries. Anything else raises
  :class:`~chickenfoot.FormatError` naming the part (``history[12]``, ``move_number``,
  ``start.hands[1]``, or ``""`` for the layout), with a message of one bounded line; the
  text is not changed;
- :class:`Start` holds the position of a ``new_state_from`` state, and refuses to be
  pickled: OpenSpiel's C++ serialization (``serialize_game_and_state``, ``pickle``) writes
  only the history outside its ``__dict__=`` line, which could not rebuild such a state;
- :func:`guard` wraps ``pyspiel.deserialize_game_and_state``: a document whose ``[Game]``
  section loads this game goes to :func:`deserialize`, every other one to OpenSpiel's
  function, unchanged. :func:`sections` splits a document exactly as OpenSpiel's C++
  ``DeserializeGameAndState`` does, so that both agree on which game a document loads.

It uses OpenSpiel only through the objects it is given (a game, a state, the function it
wraps), so it imports without OpenSpiel:

>>> sections("[Meta]\\nVersion: 1\\n\\n[Game]\\npython_chickenfoot\\n[State]\\nhistory=\\nmove_number=0\\n")
(b'python_chickenfoot', b'history=\\nmove_number=0')
>>> sections("[Game]\\nx\\n") is None  # a [Game] before any [Meta]: OpenSpiel refuses it too
True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, Final

from chickenfoot._checks import instance, listing
from chickenfoot.errors import ArgumentError, ChickenFootError, FormatError, brief
from chickenfoot.state import State

__all__ = ["Start", "deserialize", "guard", "sections", "serialize"]

CHANCE: Final = -1
"""OpenSpiel's player id of chance (``pyspiel.PlayerId.CHANCE``)."""
_ENTRY: Final = re.compile(r"(-?[0-9]{1,10}):(-?[0-9]{1,10})")
_NUMBER: Final = re.compile(r"-?[0-9]{1,10}")
_LAYOUT: Final = "a saved state is a line history=PLAYER:ACTION,... and a line move_number=N"
_HEADERS: Final = {b"[Meta]": 0, b"[Game]": 1, b"[State]": 2}
_MARK: Final = "_chickenfoot_guard"


class Start:
    """The position a state of ``new_state_from`` started at (shared by its clones)."""

    __slots__ = ("position",)

    def __init__(self, position: State) -> None:
        self.position = position

    def __deepcopy__(self, memo: Any) -> Start:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        raise ArgumentError(
            "a state of new_state_from cannot be saved by OpenSpiel's serialize_game_and_state "
            "or by pickle, whose history does not hold the position it started at: use "
            "state.serialize(), which writes it"
        )


def serialize(state: Any, start: Start | None = None) -> str:
    """``history=P:A,...``, ``move_number=N`` and, if given, ``start=JSON`` of ``state``."""
    entries = ",".join(f"{h.player}:{h.action}" for h in state.full_history())
    text = f"history={entries}\nmove_number={state.move_number()}"
    return text if start is None else f"{text}\nstart={start.position.to_json()}"


def deserialize(game: Any, text: object) -> Any:
    """A new state of ``game`` with the history saved in ``text``, replayed with every check."""
    text = instance(text, str, "deserialize_state")
    pieces = text.split("\n", 2)
    if (
        len(pieces) < 2
        or not pieces[0].startswith("history=")
        or not pieces[1].startswith("move_number=")
    ):
        raise FormatError("", f"{_LAYOUT}; got {brief(text)}")
    rest = pieces[2] if len(pieces) == 3 else ""
    if rest and not rest.startswith(("__dict__=", "start=")):
        raise FormatError(
            "",
            f"{_LAYOUT}, then at most a line start=POSITION or OpenSpiel's __dict__= line "
            f"(which is not read); got {brief(rest)} after them",
        )
    entries = _entries(game, pieces[0][len("history=") :])
    _move_number(pieces[1][len("move_number=") :], len(entries))
    if rest.startswith("start="):
        state = _start(game, rest[len("start=") :])
    else:
        state = game.new_initial_state()
    for k, (player, action) in enumerate(entries):
        _check(state, k, player, action)
        state.apply_action(action)
    return state


def _start(game: Any, text: str) -> Any:
    """``game.new_state_from`` the position whose JSON is ``text``."""
    try:
        return game.new_state_from(State.from_json(text))
    except FormatError as err:
        raise FormatError(f"start.{err.path}" if err.path else "start", err.reason) from None
    except ChickenFootError as err:  # not a position of this game (its rules, its scope)
        raise FormatError("start", str(err)) from None


def _entries(game: Any, body: str) -> list[tuple[int, int]]:
    if not body:
        return []
    count = body.count(",") + 1
    limit = int(game.max_history_length())
    if count > limit:
        raise FormatError(
            "history", f"{count:,} entries: a game of these parameters has at most {limit:,}"
        )
    out = []
    for k, item in enumerate(body.split(",")):
        m = _ENTRY.fullmatch(item)
        if m is None:
            raise FormatError(
                f"history[{k}]",
                f"{brief(item)} is not PLAYER:ACTION (two integers of at most 10 digits)",
            )
        out.append((int(m[1]), int(m[2])))
    return out


def _move_number(text: str, count: int) -> None:
    if _NUMBER.fullmatch(text) is None:
        raise FormatError("move_number", f"{brief(text)} is not an integer of at most 10 digits")
    if int(text) != count:
        raise FormatError(
            "move_number", f"{int(text):,} does not match the history, which has {count:,} entries"
        )


def _check(state: Any, k: int, player: int, action: int) -> None:
    """Refuse history entry ``k`` unless ``state`` may take it."""
    where, entry = f"history[{k}]", f"{player}:{action}"
    if state.is_terminal():
        raise FormatError(where, f"{entry}: the game is over after {k:,} entries")
    turn = int(state.current_player())
    if player != turn:
        who = "chance (a deal or a draw)" if turn == CHANCE else f"seat {turn}"
        raise FormatError(where, f"{entry}: {player} is not the player to act, {who} is")
    if turn == CHANCE:
        offered = [a for a, _ in state.chance_outcomes()]
        if action not in offered:
            raise FormatError(
                where,
                f"{entry}: {action} is not a chance outcome on offer (tile ids {listing(offered)})",
            )
    else:
        legal = state.legal_actions()
        if action not in legal:
            named = [state.action_to_string(turn, a) for a in legal]
            raise FormatError(
                where,
                f"{entry}: action {action} is not legal for seat {turn} here (legal: "
                f"{listing(named)})",
            )


def sections(data: object) -> tuple[bytes, bytes] | None:
    """The ``[Game]`` and ``[State]`` sections of a ``serialize_game_and_state`` document,
    split as OpenSpiel's C++ ``DeserializeGameAndState`` splits it (blank lines and lines
    starting with ``#`` skipped, the headers in order); ``None`` if OpenSpiel would refuse
    the layout, or would not take ``data`` as a string at all (pybind11 takes ``str``, as
    UTF-8, ``bytes`` and ``bytearray``)."""
    if isinstance(data, str):
        try:
            raw = data.encode()
        except UnicodeEncodeError:  # pybind11 refuses such a str as well
            return None
    elif isinstance(data, (bytes, bytearray)):
        raw = bytes(data)
    else:
        return None
    parts: list[list[bytes]] = [[], [], []]
    section = -1
    for line in raw.split(b"\n"):
        if not line or line.startswith(b"#"):
            continue
        header = _HEADERS.get(line)
        if header is not None:
            if section != header - 1:
                return None
            section = header
        elif section < 0:
            return None
        else:
            parts[section].append(line)
    return b"\n".join(parts[1]), b"\n".join(parts[2])


def guard(
    original: Callable[[Any], Any], name: str, kind: type, load: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    """``original`` (``pyspiel.deserialize_game_and_state``), except that a document whose
    ``[Game]`` section (which must name ``name``) ``load`` makes a ``kind`` is read with
    :func:`deserialize`. Wrapping the wrapper again wraps the original instead."""
    if getattr(original, _MARK, False):
        original = original.__wrapped__  # type: ignore[attr-defined]

    @functools.wraps(original)
    def deserialize_game_and_state(data: Any) -> Any:
        parts = sections(data)
        if parts is not None and name.encode() in parts[0]:
            try:
                game = load(parts[0])
            except Exception:  # OpenSpiel's own refusal: ``original`` gives it unchanged
                game = None
            if isinstance(game, kind):
                return game, deserialize(game, parts[1].decode("utf-8", "replace"))
        return original(data)

    deserialize_game_and_state.__doc__ = (
        f"{original.__doc__ or ''}\n\nWrapped by chickenfoot.openspiel: the states of "
        f"{name} are rebuilt from their history, never unpickled (docs/openspiel.md)."
    )
    setattr(deserialize_game_and_state, _MARK, True)
    return deserialize_game_and_state
