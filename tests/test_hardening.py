"""Issue 8 defects, each with the test that would have caught it: shared immutable objects
stay intact, interning holds under threads, and error messages stay bounded."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from hypothesis import given, settings

import chickenfoot as cf
from chickenfoot.errors import brief
from strategies import examples, positions

# -- shared immutable objects ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "name"),
    [
        (cf.Tile(4, 0), "high"),
        (cf.Tile(4, 0), "low"),
        (cf.Tile(4, 0), "id"),
        (cf.parse_move("9-4@9-9"), "anchor"),
        (cf.parse_move("9-4@9-9"), "tile"),
        (cf.parse_move("9-4@9-9"), "_t"),
        (cf.parse_move("draw:5-3"), "tile"),
        (cf.DRAW, "tile"),
    ],
)
def test_shared_tiles_and_moves_refuse_deletion(obj: Any, name: str) -> None:
    before = getattr(obj, name)
    with pytest.raises(AttributeError, match="immutable"):
        delattr(obj, name)
    with pytest.raises(AttributeError, match="immutable"):
        setattr(obj, name, None)
    assert getattr(obj, name) == before
    # Everything that shares the object still works.
    s = cf.deal(cf.Rules(), seed=1)
    assert [str(m) for m in s.legal_moves] == ["9-0@9-9", "9-3@9-9", "9-8@9-9"]


# -- interning under threads -----------------------------------------------------------------

# Run in a fresh interpreter: the moves must not be interned yet when the threads start,
# and clearing the tables in this process would break identity for everything else.
_RACE = textwrap.dedent(
    """
    import sys, threading, random
    sys.setswitchinterval(1e-6)
    import chickenfoot as cf
    from chickenfoot.moves import play_by_ids
    from chickenfoot.tiles import set_size

    size = set_size(12)
    pairs = [(t, a) for t in range(size) for a in range(-1, size)]
    random.Random(0).shuffle(pairs)
    threads, barrier, seen = 8, threading.Barrier(8), []

    def intern():
        barrier.wait()
        seen.append([play_by_ids(t, a) for t, a in pairs])

    def play(rules, seed, out):
        barrier.wait()
        s = cf.deal(rules, seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            moves = cf.legal_moves(s)
            m = rng.choice(moves)
            assert m in moves and cf.is_legal(s, m)
            s = cf.apply(s, m)
        out.append((seed, s))

    workers = [threading.Thread(target=intern) for _ in range(threads)]
    for w in workers: w.start()
    for w in workers: w.join()
    split = sum(any(run[i] is not seen[0][i] for run in seen) for i in range(len(pairs)))

    # Whole rounds in threads, on sets whose moves were never built in this process.
    results = []
    rules = [
        cf.Rules(players=10, max_pip=15, hand_size=8),
        cf.Rules.preset("classic", players=8),
        cf.Rules(players=3, max_pip=18, hand_size=20, draw="until_playable", drawn_tile="may_play"),
    ]
    for r in rules:
        barrier = threading.Barrier(threads)
        workers = [threading.Thread(target=play, args=(r, seed, results)) for seed in range(threads)]
        for w in workers: w.start()
        for w in workers: w.join()
    bad = 0
    for r in rules:
        for seed, s in [x for x in results if x[1].rules == r]:
            replay, rng = cf.deal(r, seed=seed), random.Random(seed)
            while not replay.is_over():
                replay = cf.apply(replay, rng.choice(cf.legal_moves(replay)))
            bad += replay != s
    print(split, bad, len(results))
    """
)


def test_interning_is_atomic_under_threads() -> None:
    # Eight threads behind a barrier, a 1 µs switch interval: every thread must get the
    # very same object for each move, and rounds played in threads must equal their replays.
    done = subprocess.run(
        [sys.executable, "-c", _RACE], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    split, bad, rounds = map(int, done.stdout.split())
    assert (split, bad, rounds) == (0, 0, 24)


# -- bounded messages --------------------------------------------------------------------------

HUGE = 10**5000
DEEP: list[Any] = []
for _ in range(5000):
    DEEP = [DEEP]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: cf.Rules(players=-HUGE), cf.RulesError),
        (lambda: cf.Rules(players=HUGE), cf.RulesError),
        (lambda: cf.Rules(double_blank="x" * 5_000_000), cf.RulesError),
        (lambda: cf.Rules.from_dict({"players": DEEP}), cf.RulesError),
        (lambda: cf.deal(cf.Rules(), seed=float(1)), cf.ArgumentError),
        (lambda: cf.deal(cf.Rules(), seed=1, round=HUGE), cf.ArgumentError),
        (lambda: cf.parse_move(DEEP), cf.InvalidMoveError),
        (lambda: cf.parse_move("x" * 5_000_000), cf.InvalidMoveError),
        (lambda: cf.apply(cf.deal(cf.Rules(), seed=1), DEEP), cf.InvalidMoveError),
        (lambda: cf.State.from_dict({**cf.deal(cf.Rules(), seed=1).to_dict(), "turn": HUGE}), cf.FormatError),
        (lambda: cf.State.from_dict({**cf.deal(cf.Rules(), seed=1).to_dict(), "turn": DEEP}), cf.FormatError),
        (lambda: cf.State.from_json('{"format": ' + "[" * 900 + "]" * 900 + "}"), cf.FormatError),
        (lambda: cf.Record.from_json('{"format": "chickenfoot/record", "version": 1, "start": ' + "[" * 900 + "]" * 900 + ', "moves": []}'), cf.FormatError),
        (lambda: cf.Match.from_json('{"format": "chickenfoot/match", "version": 1, "rules": {}, "seed": ' + "[" * 900 + "]" * 900 + ', "scores": [], "round": null}'), cf.FormatError),
        (lambda: cf.Tile.parse("9" * 5_000_000), cf.InvalidMoveError),
    ],
)  # fmt: skip
def test_deep_huge_and_long_values_give_short_library_errors(call: Any, error: type) -> None:
    with pytest.raises(error) as info:
        call()
    assert len(str(info.value)) < 400, str(info.value)[:400]


def test_brief_says_what_was_cut() -> None:
    assert brief("x" * 100) == repr("x" * 60) + "... (100 characters)"
    assert brief(b"y" * 100) == repr(b"y" * 60) + "... (100 bytes)"
    # Integers up to 128 bits print whole; 10**100 (333 bits, 101 digits) is described.
    assert brief(2**128 - 1) == repr(2**128 - 1)
    assert brief(10**100) == "an integer of about 101 digits"
    assert brief(-(10**5000)) == "a negative integer of about 5,001 digits"
    assert brief({"b": 1, "a": 2}) == "{'b': 1, 'a': 2}"  # short values: the plain repr


def test_a_broken_repr_is_not_called_twice() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert brief(Broken()) == "<a Broken>"


# -- one policy for bad arguments --------------------------------------------------------------

S = cf.deal(cf.Rules(), seed=1)


def test_move_cannot_be_extended() -> None:
    # The moves are a closed set; a Move subclass would reach code that expects one of
    # Play, Draw and Pass (it used to escape as NotImplementedError from apply and Record).
    with pytest.raises(TypeError, match="Move cannot be extended"):

        class Odd(cf.Move):
            __slots__ = ()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: cf.perft(S, -1), cf.ArgumentError, "depth=-1 is invalid: must be a non-negative integer"),
        (lambda: cf.perft(None, 1), cf.ArgumentError, "perft needs a State, got None"),
        (lambda: cf.Rules.preset(["x"]), cf.RulesError, "preset=['x'] is invalid: must be one of"),
        (lambda: cf.parse_move("9-9", max_pip="9"), cf.ArgumentError, "max_pip='9' is invalid: must be an integer 0 to 18"),
        (lambda: cf.Tile.parse("9-9", max_pip=None), cf.ArgumentError, "max_pip=None is invalid"),
        (lambda: cf.Record(S, 5), cf.FormatError, "moves: expected a sequence of moves, got 5"),
        (lambda: cf.apply(S, object()), cf.InvalidMoveError, "is not a move (expected a Move or its notation)"),
        (lambda: cf.Record(S, [[[[[[[[[[[]]]]]]]]]]]), cf.FormatError, "moves[0]: "),
        (lambda: cf.legal_moves(None), cf.ArgumentError, "legal_moves needs a State, got None"),
        (lambda: cf.apply({"turn": 0}, "9-2@9-9"), cf.ArgumentError, "apply needs a State, got {'turn': 0}"),
        (lambda: cf.apply(None, cf.PASS), cf.ArgumentError, "apply needs a State, got None"),
        (lambda: cf.is_legal(None, "pass"), cf.ArgumentError, "is_legal needs a State, got None"),
        (lambda: cf.outcome(None), cf.ArgumentError, "outcome needs a State, got None"),
        (lambda: cf.penalties(None), cf.ArgumentError, "penalties needs a State, got None"),
        (lambda: cf.view(None, 0), cf.ArgumentError, "view needs a State, got None"),
        (lambda: cf.playout(None), cf.ArgumentError, "playout needs a State, got None"),
        (lambda: cf.playout(S, 5), cf.ArgumentError, "rng=5 is invalid: must be a random.Random or None"),
        (lambda: cf.playout(S, policy=5), cf.ArgumentError, "policy=5 is invalid: must be callable"),
        (lambda: S.hand(4), cf.SeatError, "seat 4 is not a seat of this round (0 to 3)"),
        (lambda: S.hand(-1), cf.SeatError, "seat -1 is not a seat of this round (0 to 3)"),
        (lambda: S.hand("0"), cf.SeatError, "seat '0' is not a seat of this round (0 to 3)"),
        (lambda: cf.deal(cf.Rules(), seed="abc"), cf.ArgumentError, "seed='abc' is invalid: must be an integer"),
        (lambda: cf.State.from_json(cf.Match.start(cf.Rules(), seed=1).to_json()), cf.FormatError, "format: expected 'chickenfoot/position', got 'chickenfoot/match'"),
        (lambda: cf.Record.from_dict(S.to_dict()), cf.FormatError, "format: expected 'chickenfoot/record', got 'chickenfoot/position'"),
    ],
)  # fmt: skip
def test_every_bad_argument_raises_the_library_error_naming_it(
    call: Any, error: type, message: str
) -> None:
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)
    assert isinstance(info.value, cf.ChickenFootError) and isinstance(info.value, ValueError)


def test_argument_errors_are_also_type_errors() -> None:
    # Code that catches the conventional TypeError for a wrong type keeps working.
    with pytest.raises(TypeError):
        cf.legal_moves("not a state")
    assert issubclass(cf.ArgumentError, TypeError) and issubclass(cf.ArgumentError, ValueError)


def test_the_hot_paths_still_accept_states_after_a_bad_call() -> None:
    with pytest.raises(cf.ArgumentError):
        cf.apply(None, "9-3@9-9")
    assert str(cf.apply(S, "9-3@9-9").board[-1]) == "9-3@9-9"


# -- the command line: one line, exit status 2 -------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "--set", "match=" + "[" * 1000],
        ["rules", "--set", "match=" + "[" * 1000 + "]" * 1000],
        ["demo", "--set", "double_blank=" + "9" * 4300],
        ["rules", "--set", "players=" + "9" * 5000],
        ["demo", "--seed", "9" * 5000],
        ["demo", "--round", "-1"],
        ["rules", "--set", "x" * 100_000],
    ],
    ids=lambda argv: f"{argv[0]} {argv[1]} {argv[2][:12]}",
)
def test_the_command_line_never_prints_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from chickenfoot.cli import main

    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("chickenfoot: error: ")
    assert "Traceback" not in err and len(err) < 600


# -- memory before rejection -------------------------------------------------------------------


def test_a_huge_document_is_refused_before_it_is_parsed() -> None:
    # 50 MB of tile strings in one hand: refused by its length, without building the list
    # (which would take hundreds of MB).
    import tracemalloc

    doc = S.to_dict()
    head = cf.State.from_dict(doc).to_json()[:-1]
    text = head + ', "pad": [' + '"9-9",' * 8_000_000 + '"9-9"]}'
    data = text.encode()
    tracemalloc.start()
    try:
        with pytest.raises(cf.FormatError, match=r"^the document is [\d,]+ characters long"):
            cf.State.from_json(text)
        with pytest.raises(cf.FormatError, match="at most 4,194,304 are read"):
            cf.Match.from_json(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # no copy of the 48 MB text, no parsed list
    from chickenfoot.formats import MAX_DOCUMENT, loads

    assert loads(" " * (MAX_DOCUMENT - 2) + "[]") == []  # the limit itself is accepted


# -- a key stable across processes ---------------------------------------------------------------


@settings(max_examples=examples(100))
@given(positions(), positions())
def test_keys_are_equal_exactly_when_states_are(a: cf.State, b: cf.State) -> None:
    assert (a.key() == b.key()) == (a == b)
    assert all(type(x) is int for x in a.key())
    assert cf.State.from_json(a.to_json()).key() == a.key()


def test_the_key_hashes_the_same_in_every_process() -> None:
    # String hashes change with PYTHONHASHSEED; the key holds integers only.
    code = (
        "import chickenfoot as cf; s = cf.deal(cf.Rules.preset('classic'), seed=3);"
        "s = s.apply(s.legal_moves[0]); print(hash(s.key()))"
    )
    hashes = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("0", "1", "12345")
    }
    s = cf.deal(cf.Rules.preset("classic"), seed=3)
    assert hashes == {str(hash(s.apply(s.legal_moves[0]).key()))}
