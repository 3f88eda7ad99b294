"""Saving and loading states of the OpenSpiel game (docs/openspiel.md, "Saving and loading
states"; issue 18): a saved state is its action history, and loading one replays that
history through the game with every check. OpenSpiel's own reader of Python games unpickles
the ``__dict__=`` line of the string, so an edited string could run code; the game's reader
never decodes that line."""

from __future__ import annotations

import base64
import os
import pickle
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import chickenfoot as cf  # noqa: E402
from chickenfoot import openspiel as cfos  # noqa: E402
from chickenfoot.openspiel import _serial  # noqa: E402

SMALL = "python_chickenfoot(players=2,max_pip=6,hand_size=4)"
CONFIGS = [
    SMALL,
    "python_chickenfoot(players=3,centre=holder,hand_size=7,opening_toes=4,draw=until_playable,"
    "drawn_tile=may_play,may_draw_instead=True,utility=zero_sum)",
    "python_chickenfoot(players=2,max_pip=6,hand_size=7,scope=match,match_rounds=2)",
    "python_chickenfoot(players=3,max_pip=6,hand_size=5,scope=match,match_threshold=20)",
    "python_chickenfoot",
]


def _path(text: str, seed: int) -> list[Any]:
    """Every state of one random game of ``text``, from the start to the end."""
    state = pyspiel.load_game(text).new_initial_state()
    rng = random.Random(seed)
    path = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        path.append(state.clone())
    return path


def _points(path: list[Any]) -> dict[str, Any]:
    """States at the points worth saving: the deal, the first decision, a draw's chance node,
    the middle of a round, between two rounds of a match, the end."""
    points = {"start": path[0], "mid-deal": path[3], "end": path[-1]}
    points["first decision"] = next(s for s in path if s.current_player() >= 0)
    drawing = [s for s in path if s.round_state is not None and s.is_chance_node()]
    if drawing:
        points["drawing"] = drawing[0]
    points["mid-round"] = path[len(path) // 2]
    between = [s for s in path if s.rounds_played and s.round_state is None and not s.is_terminal()]
    if between:
        points["between rounds"] = between[0]
    return points


def _same(a: Any, b: Any) -> None:
    assert a.history() == b.history()
    assert a.move_number() == b.move_number()
    assert str(a) == str(b)
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.chance_outcomes() == b.chance_outcomes()
    assert a.returns() == b.returns()
    assert a.round_state == b.round_state
    assert a.scores == b.scores
    if not a.is_chance_node() and not a.is_terminal():
        seat = a.current_player()
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)


@pytest.fixture
def no_unpickling(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """``pickle.loads`` made to record and refuse: OpenSpiel's C++ reader looks it up at
    each call, so any unpickling of a state's ``__dict__`` shows here."""
    calls: list[bytes] = []

    def refuse(data: bytes, *args: Any, **kwargs: Any) -> Any:
        calls.append(data)
        raise AssertionError("a state was unpickled")

    monkeypatch.setattr(pickle, "loads", refuse)
    return calls


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", CONFIGS)
def test_states_round_trip_through_both_readers(text: str, no_unpickling: list[bytes]) -> None:
    seen = set()
    for seed in (1, 2):
        for name, state in _points(_path(text, seed)).items():
            seen.add(name)
            game = state.get_game()
            own = state.serialize()
            assert "__dict__" not in own and own.startswith("history=")
            _same(game.deserialize_state(own), state)
            # OpenSpiel's C++ serialization (its [State] carries a pickled __dict__= line)
            cpp = pyspiel.serialize_game_and_state(game, state)
            assert "\n__dict__=" in cpp
            game2, again = pyspiel.deserialize_game_and_state(cpp)
            assert isinstance(game2, cfos.ChickenFootGame) and str(game2) == str(game)
            _same(again, state)
            (state_section,) = re.findall(r"\[State\]\n(.*)\n\Z", cpp, flags=re.S)
            _same(game.deserialize_state(state_section), state)
            # the game's own state text in a whole document, and as bytes
            doc = cpp.replace(state_section, own)
            _same(pyspiel.deserialize_game_and_state(doc)[1], state)
            _same(pyspiel.deserialize_game_and_state(doc.encode())[1], state)
            # a loaded state plays on like the original
            if not state.is_terminal():
                copy = game.deserialize_state(own)
                if state.is_chance_node():
                    action = state.chance_outcomes()[-1][0]
                else:
                    action = state.legal_actions()[-1]
                copy.apply_action(action)
                original = state.clone()
                original.apply_action(action)
                _same(copy, original)
    assert no_unpickling == []
    assert {"start", "mid-deal", "first decision", "mid-round", "end"} <= seen


def test_every_kind_of_point_is_covered() -> None:
    """The configurations above reach a draw's chance node and the gap between rounds."""
    names: set[str] = set()
    for text in CONFIGS:
        names |= set(_points(_path(text, 1)))
    assert {"drawing", "between rounds"} <= names


def test_random_sim_test_still_serializes() -> None:
    """OpenSpiel's own round trip (C++ on both sides, in one process) keeps working."""
    for text in CONFIGS[:4]:
        pyspiel.random_sim_test(pyspiel.load_game(text), num_sims=2, serialize=True, verbose=False)


# -- the security hole -----------------------------------------------------------------------


class _Payload:
    """Unpickling this creates a file: what an edited ``__dict__=`` line can do."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (self.path, "w"))


def _with_dict(state_text: str, payload: bytes) -> str:
    history, number = state_text.split("\n")[:2]
    return f"{history}\n{number}\n__dict__={base64.b64encode(payload).decode()}"


def _readers(game: Any) -> dict[str, Callable[[str], Any]]:
    def whole(state_text: str) -> Any:
        return pyspiel.deserialize_game_and_state(
            f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{state_text}\n"
        )[1]

    def whole_bytes(state_text: str) -> Any:  # a comment line that is not UTF-8 at all
        data = f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{state_text}\n".encode()
        return pyspiel.deserialize_game_and_state(b"#\xff\xfe\n" + data)[1]

    return {
        "game.deserialize_state": game.deserialize_state,
        "pyspiel.deserialize_game_and_state": whole,
        "pyspiel.deserialize_game_and_state(bytes)": whole_bytes,
    }


@pytest.mark.parametrize(
    "reader",
    [
        "game.deserialize_state",
        "pyspiel.deserialize_game_and_state",
        "pyspiel.deserialize_game_and_state(bytes)",
    ],
)
def test_a_pickle_payload_is_never_unpickled(reader: str, tmp_path: Path) -> None:
    path = _path(SMALL, 3)
    state = path[12]
    game = state.get_game()
    read = _readers(game)[reader]
    target = tmp_path / "pwned"
    payload = pickle.dumps({"_core": _Payload(target)})
    # with the history of a real state: the line is ignored, the history gives the state
    _same(read(_with_dict(state.serialize(), payload)), state)
    assert not target.exists()
    # with a history that contradicts the game: refused, and still nothing ran
    for bad in ("history=0:5\nmove_number=1", "history=-1:0,-1:0\nmove_number=2", "junk\nx"):
        with pytest.raises(cf.FormatError):
            read(_with_dict(bad, payload))
    assert not target.exists()
    # a __dict__ line that is not even base64 is ignored as well
    _same(read(state.serialize() + "\n__dict__=%%% not base64 %%%"), state)
    assert os.listdir(tmp_path) == []


def test_games_wrapping_the_game_replay_their_history(tmp_path: Path) -> None:
    """OpenSpiel's game transforms save a state as its actions, one a line, and load it by
    replaying them through the game: their reader never unpickles either."""
    target = tmp_path / "pwned"
    payload = base64.b64encode(pickle.dumps(_Payload(target))).decode()
    for transform in ("misere", "zerosum", "cached_tree"):
        game = pyspiel.load_game(f"{transform}(game={SMALL})")
        state = game.new_initial_state()
        for _ in range(3):
            state.apply_action(state.chance_outcomes()[0][0])
        text = pyspiel.serialize_game_and_state(game, state)
        assert pyspiel.deserialize_game_and_state(text)[1].history() == state.history()
        head = text.split("[State]\n")[0]
        with pytest.raises((ValueError, pyspiel.SpielError)):  # OpenSpiel's own refusal
            pyspiel.deserialize_game_and_state(f"{head}[State]\n__dict__={payload}\n")
        with pytest.raises(cf.ArgumentError, match="not a tile id undealt"):  # the game's check
            pyspiel.deserialize_game_and_state(f"{head}[State]\n0\n0\n")
    assert not target.exists()


def test_other_games_go_to_openspiel_unchanged() -> None:
    wrapped = pyspiel.deserialize_game_and_state
    original = wrapped.__wrapped__
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in (4, 0, 8):
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    for data in (text, text.encode()):
        mine, theirs = wrapped(data), original(data)
        assert str(mine[0]) == str(theirs[0]) and mine[1].history() == theirs[1].history()
    for junk in ("", "x", "[Game]\n[Meta]\n", "[Meta]\n[Game]\nnot_a_game\n[State]\n"):
        with pytest.raises(pyspiel.SpielError):
            wrapped(junk)
    with pytest.raises(TypeError):  # not a string: pybind11's own refusal, as before
        wrapped(5)
    # wrapping the wrapper (the module imported again) wraps OpenSpiel's function instead
    again = _serial.guard(wrapped, cfos.GAME_NAME, cfos.ChickenFootGame, pyspiel.deserialize_game)
    assert again.__wrapped__ is original and again is not wrapped
    assert "never unpickled" in wrapped.__doc__


# -- contradictions and junk -----------------------------------------------------------------


def _cases(state: Any) -> dict[str, tuple[str, str]]:
    """Edited forms of ``state``'s text: name -> (text, the path the error must name)."""
    entries = [f"{h.player}:{h.action}" for h in state.full_history()]
    n = len(entries)
    first = next(k for k, h in enumerate(state.full_history()) if h.player >= 0)
    turn = state.full_history()[first].player
    enc = state.get_game().config.enc
    legal_then = _replay(state, first).legal_actions()
    illegal = next(a for a in range(enc.num_actions) if a not in legal_then and _names(enc, a))

    def text(items: list[str], number: int | str | None = None) -> str:
        return f"history={','.join(items)}\nmove_number={len(items) if number is None else number}"

    def at(k: int, entry: str) -> str:
        return text([*entries[:k], entry, *entries[k + 1 :]])

    dealt = int(entries[0].split(":")[1])
    return {
        "a decision at a chance node": (at(0, "0:0"), "history[0]"),
        "chance at a decision": (at(first, f"-1:{dealt}"), f"history[{first}]"),
        "the wrong seat": (at(first, f"{1 - turn}:{legal_then[0]}"), f"history[{first}]"),
        "an illegal action": (at(first, f"{turn}:{illegal}"), f"history[{first}]"),
        "an action outside the space": (at(first, f"{turn}:{10**6}"), f"history[{first}]"),
        "a tile dealt twice": (at(1, entries[0]), "history[1]"),
        "a chance outcome that is no tile": (at(0, "-1:999"), "history[0]"),
        "move_number too small": (text(entries, n - 1), "move_number"),
        "move_number too large": (text(entries, n + 1), "move_number"),
        "move_number negative": (text(entries, -1), "move_number"),
        "move_number huge": (text(entries, "1" + "0" * 5000), "move_number"),
        "move_number not a number": (text(entries).replace(f"={n}", "=ten"), "move_number"),
        "a huge action": (at(0, "-1:" + "9" * 5000), "history[0]"),
        "a huge player": (at(0, "9" * 30 + ":1"), "history[0]"),
        "an entry of three parts": (at(0, "-1:1:2"), "history[0]"),
        "an empty entry": (at(0, ""), "history[0]"),
        "spaces": (at(0, " -1:1"), "history[0]"),
        "a plus sign": (at(0, "-1:+1"), "history[0]"),
        "unicode digits": (at(0, "-1:\u0663"), "history[0]"),
        "lines swapped": (text(entries).split("\n")[1] + "\nhistory=" + ",".join(entries), ""),
        "no move_number line": (f"history={','.join(entries)}", ""),
        "a line of junk": (text(entries) + "\njunk", ""),
        "history twice": (text(entries) + "\nhistory=", ""),
        "empty text": ("", ""),
    }


def _replay(state: Any, k: int) -> Any:
    s = state.get_game().new_initial_state()
    for action in state.history()[:k]:
        s.apply_action(action)
    return s


def _names(enc: Any, action: int) -> bool:
    try:
        enc.move(action)
    except cf.ArgumentError:
        return False
    return True


@pytest.mark.parametrize("text", [SMALL, CONFIGS[2]])
def test_contradictions_and_junk_are_format_errors(text: str, no_unpickling: list[bytes]) -> None:
    path = _path(text, 5)
    end = path[-1]
    game = end.get_game()
    readers = _readers(game)
    for name, (bad, where) in _cases(end).items():
        for reader, read in readers.items():
            with pytest.raises(cf.FormatError) as info:
                read(bad)
            err = info.value
            assert err.path == where, (name, reader, str(err))
            message = str(err)
            assert "\n" not in message and 0 < len(message) <= 500, (name, message)
    # past the end of the game: an entry after the last one
    entries = [f"{h.player}:{h.action}" for h in end.full_history()]
    extra = f"history={','.join([*entries, '0:0'])}\nmove_number={len(entries) + 1}"
    with pytest.raises(cf.FormatError, match=rf"history\[{len(entries)}\]: .*over"):
        game.deserialize_state(extra)
    assert no_unpickling == []


def test_refusals_name_the_reason() -> None:
    state = _path(SMALL, 5)[-1]
    game = state.get_game()
    n = len(state.history())
    messages = {name: _message(game, text) for name, (text, _) in _cases(state).items()}
    assert messages["a decision at a chance node"].endswith(
        "0 is not the player to act, chance (a deal or a draw) is"
    )
    assert re.search(r"1:\d+: 1 is not the player to act, seat 0 is$", messages["the wrong seat"])
    assert re.search(
        r"action \d+ is not legal for seat 0 here \(legal: ", messages["an illegal action"]
    )
    assert "is not a chance outcome on offer (tile ids 0, 1, 2" in messages["a tile dealt twice"]
    assert messages["move_number too small"] == (
        f"move_number: {n - 1} does not match the history, which has {n} entries"
    )
    assert messages["a huge action"].endswith(
        "... (5,003 characters) is not PLAYER:ACTION (two integers of at most 10 digits)"
    )
    assert "history=PLAYER:ACTION,... and a line move_number=N" in messages["empty text"]


def _message(game: Any, text: str) -> str:
    with pytest.raises(cf.FormatError) as info:
        game.deserialize_state(text)
    return str(info.value)


def test_too_long_a_history_is_refused_before_it_is_read() -> None:
    game = pyspiel.load_game(SMALL)
    n = game.max_history_length() + 1
    with pytest.raises(cf.FormatError, match=r"history: .* entries: a game of .* has at most"):
        game.deserialize_state(f"history={','.join(['-1:0'] * n)}\nmove_number={n}")
    with pytest.raises(cf.FormatError, match="history"):
        game.deserialize_state("history=" + "," * 10**6 + "\nmove_number=0")


def test_a_state_text_that_is_no_string() -> None:
    game = pyspiel.load_game(SMALL)
    for bad in (5, None, b"history=\nmove_number=0", ["history="]):
        with pytest.raises(cf.ArgumentError, match="deserialize_state needs a str"):
            game.deserialize_state(bad)


# -- states of new_state_from ------------------------------------------------------------------


def test_states_from_a_position_save_their_start(no_unpickling: list[bytes]) -> None:
    """A state of ``new_state_from`` has no deal in its history: its text carries the
    position it started at (the library's JSON), and OpenSpiel's serialization, which would
    lose it, refuses it rather than writing a string that loads as another state."""
    rules = cf.Rules(players=3, max_pip=6, hand_size=5)
    game = cfos.load_game(rules)
    rng = random.Random(2)
    for position in (cf.deal(rules, seed=4), cf.deal(rules, seed=5).view(1).sample(rng)):
        state = game.new_state_from(position)
        for _ in range(4):
            text = state.serialize()
            assert text.count("\n") == 2 and text.split("\n")[2].startswith("start={")
            _same(game.deserialize_state(text), state)
            doc = f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{text}\n"
            _same(pyspiel.deserialize_game_and_state(doc)[1], state)
            with pytest.raises(cf.ArgumentError, match="new_state_from cannot be saved"):
                pyspiel.serialize_game_and_state(game, state)
            with pytest.raises(cf.ArgumentError, match="new_state_from cannot be saved"):
                pickle.dumps(state)
            clone = state.clone()
            _same(clone, state)
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            elif not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
    assert no_unpickling == []


def test_a_bad_start_position_is_a_format_error() -> None:
    rules = cf.Rules(players=3, max_pip=6, hand_size=5)
    game = cfos.load_game(rules)
    text = game.new_state_from(cf.deal(rules, seed=4)).serialize()
    cases = {
        "start.turn": text.replace('"turn": ', '"turn": 9'),
        "start": text.replace("start={", "start=["),
    }
    for path, bad in cases.items():
        with pytest.raises(cf.FormatError) as info:
            game.deserialize_state(bad)
        assert info.value.path == path, str(info.value)
    with pytest.raises(cf.FormatError, match=r"start: .*rules of this game"):
        cfos.load_game(cf.Rules(players=3, max_pip=6, hand_size=4)).deserialize_state(text)
    with pytest.raises(cf.FormatError, match=r"start: .*scope 'round'"):
        cfos.load_game(rules, scope="match").deserialize_state(text)
