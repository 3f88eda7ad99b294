"""Records (``chickenfoot/record``, docs/formats.md): build, save, load, replay, bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot import (
    DRAW,
    Draw,
    FormatError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Play,
    Rounds,
    Rules,
    State,
    Threshold,
    Tile,
    deal,
)
from chickenfoot.record import RECORD_FORMAT, Record, RecordMoveError
from helpers import example_position
from strategies import preset_or_tiny_rules

DATA = Path(__file__).parent / "data"

START = deal(Rules(), seed=1)
# Seed 1, round 0 of the house rules: seat 0 holds 9-0, 9-3 and 9-8 (the only toes it has);
# seat 1 holds no tile with a 9, so after 9-3@9-9 it must draw.


def test_a_record_replays_its_moves() -> None:
    rec = Record(START, ["9-3@9-9", "draw"])
    s1 = START.apply("9-3@9-9")
    s2 = s1.apply("draw")
    assert rec.start is START
    assert rec.moves == (Play(Tile(9, 3), Tile(9, 9)), DRAW)
    assert rec.states() == (START, s1, s2)
    assert rec.final() == s2 and rec.final().drawn is not None


def test_moves_may_be_objects_or_notation_and_are_saved_canonically() -> None:
    rec = Record(START, ["3-9@9-9", DRAW])
    assert rec.moves == (Play(Tile(9, 3), Tile(9, 9)), DRAW)
    assert rec.to_dict()["moves"] == ["9-3@9-9", "draw"]
    assert Record(START, iter(["9-0@9-9"])).moves == (Play(Tile(9, 0), Tile(9, 9)),)


def test_a_record_with_no_moves() -> None:
    rec = Record(START)
    assert rec.moves == () and rec.states() == (START,) and rec.final() is START
    assert Record.from_json(rec.to_json()) == rec


def test_named_draws_are_kept() -> None:
    s = START.apply("9-3@9-9")  # seat 1 must draw
    back = s.boneyard[-1]
    rec = Record(START, ["9-3@9-9", f"draw:{back}"])
    assert rec.moves[1] is Draw(back)
    assert rec.final().drawn is back and back not in rec.final().boneyard
    assert rec.to_dict()["moves"][1] == f"draw:{back}"
    assert Record.from_json(rec.to_json()).final() == rec.final()


def test_apply_extends_a_record_without_changing_it() -> None:
    rec = Record(START, ["9-3@9-9"])
    longer = rec.apply("draw")
    assert rec.moves == (Play(Tile(9, 3), Tile(9, 9)),) and len(rec.states()) == 2
    assert longer == Record(START, ["9-3@9-9", "draw"])
    assert longer.states() == Record(START, ["9-3@9-9", "draw"]).states()
    with pytest.raises(RecordMoveError) as err:
        rec.apply("pass")
    assert err.value.index == 1 and err.value.path == "moves[1]" and err.value.text == "pass"
    with pytest.raises(RecordMoveError) as err:
        rec.apply(3)
    assert err.value.index == 1 and err.value.error is None


def test_document_shape_and_round_trip() -> None:
    rec = Record(START, ["9-8@9-9", "draw"])
    d = rec.to_dict()
    assert list(d) == ["format", "version", "start", "moves"]
    assert d["format"] == RECORD_FORMAT == "chickenfoot/record" and d["version"] == 1
    assert d["start"] == START.to_dict() and d["moves"] == ["9-8@9-9", "draw"]
    assert Record.from_dict(json.loads(rec.to_json(indent=2))) == rec
    assert Record.from_json(rec.to_json()).final() == rec.final()


# -- an illegal move is named by its index, its text and the reason ------------------------------


def test_an_illegal_move_names_index_text_and_reason() -> None:
    with pytest.raises(RecordMoveError) as err:
        Record(START, ["9-3@9-9", "draw", "9-3@9-9"])
    e = err.value
    assert isinstance(e, FormatError)
    assert e.path == "moves[2]" and e.index == 2 and e.text == "9-3@9-9"
    assert isinstance(e.error, IllegalMoveError)
    assert e.reason == str(e.error)
    assert str(e) == f"moves[2]: '9-3@9-9' cannot be played: {e.error}"


def test_the_reason_is_the_rules_reason() -> None:
    # Seat 0 holds 9-3 and so must play: the centre needs 6 toes and nothing else goes.
    with pytest.raises(RecordMoveError) as err:
        Record.from_dict(Record(START).to_dict() | {"moves": ["pass"]})
    with pytest.raises(IllegalMoveError) as direct:
        START.apply("pass")
    assert err.value.index == 0 and err.value.text == "pass"
    assert err.value.reason == str(direct.value)
    assert "seat 0 can play" in err.value.reason


@pytest.mark.parametrize(
    ("moves", "index", "text", "cause"),
    [
        (["9-0@9-9", "9 - 1@9-9"], 1, "9 - 1@9-9", InvalidMoveError),
        (["10-9@9-9"], 0, "10-9@9-9", InvalidMoveError),  # not in the double-nine set
        (["9-3@9-9", "hop"], 1, "hop", InvalidMoveError),
        (["9-3@9-9", "9-3@9-9"], 1, "9-3@9-9", IllegalMoveError),
        (["9-3@9-9", "draw:9-9"], 1, "draw:9-9", IllegalMoveError),  # 9-9 is the centre
    ],
)
def test_unreadable_and_illegal_moves(
    moves: list[str], index: int, text: str, cause: type[Exception]
) -> None:
    doc = Record(START).to_dict() | {"moves": moves}
    with pytest.raises(RecordMoveError) as err:
        Record.from_dict(doc)
    assert err.value.path == f"moves[{index}]" and err.value.index == index
    assert err.value.text == text and isinstance(err.value.error, cause)
    assert repr(text) in str(err.value)


def test_moves_after_the_end_of_the_round() -> None:
    start = example_position()  # seat 0 goes out with 2-0@1-0
    rec = Record(start, ["2-0@1-0"])
    assert rec.final().is_over()
    with pytest.raises(RecordMoveError, match="the round is over") as err:
        Record(start, ["2-0@1-0", "draw"])
    assert err.value.index == 1


def test_entries_that_are_not_moves() -> None:
    with pytest.raises(RecordMoveError) as err:
        Record.from_dict(Record(START).to_dict() | {"moves": ["9-3@9-9", 7]})
    assert err.value.path == "moves[1]" and err.value.text == "7" and err.value.error is None
    with pytest.raises(RecordMoveError) as err:
        Record(START, [None])
    assert err.value.index == 0


def _doc(**changes: Any) -> dict[str, Any]:
    return Record(START, ["9-3@9-9"]).to_dict() | changes


BAD_DOCUMENTS: list[tuple[str, Any, str]] = [
    ("not an object", "record", ""),
    ("wrong format", _doc(format="chickenfoot/match"), "format"),
    ("newer version", _doc(version=2), "version"),
    ("missing moves", {k: v for k, v in _doc().items() if k != "moves"}, "moves"),
    ("unknown key", _doc(result="1-0"), "result"),
    ("moves not an array", _doc(moves="9-3@9-9"), "moves"),
    ("start not a position", _doc(start=None), "start"),
    ("start of another format", _doc(start=START.to_dict() | {"format": "x"}), "start.format"),
    ("bad turn", _doc(start=START.to_dict() | {"turn": 9}), "start.turn"),
    ("bad tile", _doc(start=START.to_dict() | {"boneyard": ["x"]}), "start.boneyard[0]"),
    ("bad rules", _doc(start=START.to_dict() | {"rules": {"players": 0}}), "start.rules.players"),
]


@pytest.mark.parametrize(
    ("doc", "path"), [(d, p) for _, d, p in BAD_DOCUMENTS], ids=[n for n, _, _ in BAD_DOCUMENTS]
)
def test_bad_record_documents_name_the_bad_part(doc: Any, path: str) -> None:
    with pytest.raises(FormatError) as err:
        Record.from_dict(doc)
    assert err.value.path == path, str(err.value)


def test_bad_json_text_and_bad_start() -> None:
    with pytest.raises(FormatError, match="not valid JSON"):
        Record.from_json("[")
    with pytest.raises(FormatError) as err:
        Record(START.to_dict(), [])
    assert err.value.path == "start"
    with pytest.raises(FormatError, match="expected a sequence of moves") as err:
        Record(START, "9-3@9-9")
    assert err.value.path == "moves"


def test_repr() -> None:
    rec = Record(START, ["9-3@9-9"])
    assert repr(rec).startswith("<Record moves=[9-3@9-9] final=<State turn=1 ")


# -- conformance: every vector's successors, replayed as one-move records -------------------------


def _vectors() -> list[dict[str, Any]]:
    with (DATA / "vectors.jsonl").open() as f:
        return [json.loads(line) for line in f]


def test_one_move_records_of_the_conformance_vectors() -> None:
    checked = rejected = 0
    for v in _vectors():
        start = State.from_dict(v["position"])
        for text, after in v["after"].items():
            final = Record(start, [text]).final()
            if after == "over":
                assert final.is_over(), v["id"]
            else:
                assert final.to_dict() == after, v["id"]
            checked += 1
        for text in v["illegal"]:
            with pytest.raises(RecordMoveError) as err:
                Record(start, [text])
            assert err.value.index == 0 and isinstance(err.value.error, IllegalMoveError)
            rejected += 1
    assert checked > 900 and rejected > 2000


# -- property: replaying a record reproduces its final state -------------------------------------


@st.composite
def round_rules(draw: st.DrawFn) -> Rules:
    rules = draw(preset_or_tiny_rules())
    players = rules.players
    return rules.replace(
        match=draw(st.sampled_from([Rounds(1), Threshold(100)])),
        draw=draw(st.sampled_from(["one", "until_playable"])),
        drawn_tile=draw(st.sampled_from(["must_play", "may_play"])),
        may_draw_instead=draw(st.booleans()),
        first_leader=draw(st.integers(0, players - 1)),
    )


@given(
    rules=round_rules(),
    seed=st.integers(-(2**40), 2**40),
    round=st.integers(0, 30),
    choices=st.randoms(use_true_random=False),
    length=st.integers(0, 300),
)
def test_property_replaying_a_record_reproduces_its_final_state(
    rules: Rules, seed: int, round: int, choices: random.Random, length: int
) -> None:
    start = state = deal(rules, seed, round)
    path = [start]
    moves: list[Move] = []
    for _ in range(length):
        legal = state.legal_moves
        if not legal:
            break
        move = choices.choice(legal)
        if move is DRAW and choices.random() < 0.3:
            move = Draw(choices.choice(state.boneyard))  # a named draw, as logs have
        moves.append(move)
        state = state.apply(move)
        path.append(state)
    rec = Record(start, moves)
    assert rec.final() == state and list(rec.states()) == path
    loaded = Record.from_json(rec.to_json())
    assert loaded == rec and loaded.final() == state and loaded.final().to_dict() == state.to_dict()
    # Replaying the saved notation move by move gives the same positions.
    replayed = Record(State.from_dict(rec.to_dict()["start"]))
    for text in rec.to_dict()["moves"]:
        replayed = replayed.apply(text)
    assert replayed.states() == rec.states()
