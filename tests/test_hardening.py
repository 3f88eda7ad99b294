"""Issue 8 defects, each with the test that would have caught it: shared immutable objects
stay intact, interning holds under threads, and error messages stay bounded."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.errors import brief

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
    rules = [cf.Rules(players=10, max_pip=15, hand_size=8), cf.Rules.preset("classic", players=8)]
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
    assert (split, bad, rounds) == (0, 0, 16)


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
        (lambda: cf.deal(cf.Rules(), seed=float(1)), cf.RulesError),
        (lambda: cf.deal(cf.Rules(), seed=1, round=HUGE), cf.RulesError),
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
