"""Puzzles (docs/puzzles.md): every answer is the unique best, proven, and graded as documented.

Each puzzle :func:`chickenfoot.puzzles.cut` yields is checked again from scratch: its values
are the solver's (and, on small sets, the naive brute force's of ``test_solve.py``), its
answer beats every other legal move for the seat to act by the margin, and its grade is
``grade(misses, lures)`` computed here from the agents and the values. The grade never
falls when misses or lures grow. Bad input raises the library's errors; the command line
prints puzzles that read back, and one error line for bad options, never a traceback.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import subprocess
import sys

import pytest

import chickenfoot as cf
from chickenfoot.agents import GreedyAgent, HeuristicAgent
from chickenfoot.notation import comment_eval, iter_games, read_game, write_game
from chickenfoot.puzzles import LURE, MARGIN, Puzzle, cut, grade
from chickenfoot.record import Record
from test_solve import brute

SMALL = cf.Rules(players=3, max_pip=6, hand_size=5, opening_toes=3, foot_toes=2)


def check(p: Puzzle, margin: int = MARGIN) -> None:
    """Everything a puzzle claims, recomputed without the puzzles module."""
    s, me = p.state, p.state.turn
    assert len(s.legal_moves) >= 2 and p.answer in s.legal_moves
    assert list(p.values) == list(s.legal_moves)
    assert dict(p.values) == dict(cf.solve(s, nodes=10**7).values)
    best = p.values[p.answer][me]
    others = [v[me] for m, v in p.values.items() if m is not p.answer]
    assert all(o >= best + margin for o in others), (p, others)
    assert p.margin == min(others) - best >= margin
    assert p.lures == sum(1 for o in others if o - best <= LURE)
    view, legal = s.view(me), s.legal_moves
    picks = [GreedyAgent().choose(view, legal, None), HeuristicAgent().choose(view, legal, None)]
    assert p.misses == sum(1 for m in picks if m is not p.answer)
    assert p.grade == grade(misses=p.misses, lures=p.lures) == 1 + p.misses + min(p.lures, 2)


def test_every_cut_puzzle_has_the_unique_best_answer_the_solver_proves() -> None:
    found = list(cut(cf.Rules(), seeds=range(40)))
    assert len(found) >= 5
    for p in found:
        check(p)
        assert p.tiles <= 14 and p.seed is not None and p.ply is not None
        replay = cf.deal(cf.Rules(), p.seed)  # the source round, replayed by the heuristic players
        rng = random.Random(p.seed)
        for _ in range(p.ply):
            replay = replay.apply(
                HeuristicAgent().choose(replay.view(replay.turn), replay.legal_moves, rng)
            )
        assert replay == p.state
        assert p.played is HeuristicAgent().choose(
            replay.view(replay.turn), replay.legal_moves, rng
        )


def test_small_set_puzzles_agree_with_the_brute_force() -> None:
    found = list(cut(SMALL, seeds=range(60), tiles=9, margin=3, backend="python"))
    assert len(found) >= 5
    for p in found:
        check(p, margin=3)
        for m, v in p.values.items():
            assert brute(p.state.apply(m)) == v


def test_a_larger_margin_keeps_a_subset_and_the_grades() -> None:
    loose = {p.id: p for p in cut(cf.Rules(), seeds=range(30), margin=1)}
    strict = list(cut(cf.Rules(), seeds=range(30), margin=10))
    assert strict and len(strict) < len(loose)
    for p in strict:
        check(p, margin=10)
        assert loose[p.id].answer is p.answer and loose[p.id].grade == p.grade


def test_the_grade_is_monotone_in_misses_and_lures_and_spans_one_to_five() -> None:
    seen = set()
    for misses in range(3):
        for lures in range(8):
            g = grade(misses=misses, lures=lures)
            seen.add(g)
            assert 1 <= g <= 5
            if misses < 2:
                assert grade(misses=misses + 1, lures=lures) > g
            assert grade(misses=misses, lures=lures + 1) >= g
    assert seen == {1, 2, 3, 4, 5}
    for bad in ({"misses": 3, "lures": 0}, {"misses": -1, "lures": 0}, {"misses": 0, "lures": -1}):
        with pytest.raises(cf.ArgumentError):
            grade(**bad)


SMALL_RULES = cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
BOARD = ["3-3", "3-2@3-3", "3-1@3-3", "1-0@3-1", "2-1@3-2"]


def test_puzzle_of_a_position_and_its_refusals() -> None:
    s = cf.State.setup(
        SMALL_RULES, board=BOARD, hands=[["2-0", "1-1"], ["2-2"]], boneyard=["3-0", "0-0"]
    )
    p = Puzzle.of(s)
    check(p)
    assert (str(p.answer), p.margin, p.id, p.seed, p.played) == ("2-0@1-0", 50, "-", None, None)
    one = cf.State.setup(
        SMALL_RULES, board=BOARD, hands=[["2-0"], ["2-2"]], boneyard=["1-1", "3-0", "0-0"]
    )
    with pytest.raises(cf.ArgumentError, match="seat 0 has one legal move, 2-0@1-0"):
        Puzzle.of(one)
    over = cf.State.setup(SMALL_RULES, board=BOARD[:3], hands=[["2-1", "1-0"], []],
                          boneyard=["0-0", "1-1", "2-0", "2-2", "3-0"])  # fmt: skip
    with pytest.raises(cf.ArgumentError, match="the round is over"):
        Puzzle.of(over)
    with pytest.raises(cf.ArgumentError, match="fewer than margin=51"):
        Puzzle.of(s, margin=51)
    with pytest.raises(cf.BudgetError):
        Puzzle.of(s, nodes=2)
    for kwargs in ({"nodes": 0}, {"nodes": 10**12}, {"margin": 0}, {"margin": 10**6},
                   {"backend": "gpu"}, {"margin": 2.5}):  # fmt: skip
        with pytest.raises(cf.ArgumentError):
            Puzzle.of(s, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(cf.ArgumentError, match="needs a State"):
        Puzzle.of(s.view(0))  # type: ignore[arg-type]


def test_cut_checks_its_options_before_any_round() -> None:
    for kwargs in ({"tiles": 0}, {"tiles": 41}, {"margin": 0}, {"nodes": 0}, {"nodes": -5},
                   {"backend": "fast"}, {"rules": "house"}):  # fmt: skip
        with pytest.raises(cf.ArgumentError):
            cut(**kwargs)  # type: ignore[arg-type]
    for seeds in (["7"], [1.5], [True], [10**5000]):
        with pytest.raises(cf.ArgumentError):
            next(cut(seeds=seeds))  # type: ignore[arg-type]
    assert list(cut(seeds=range(3), margin=1000)) == []  # no round has a puzzle that decisive


def test_documents_and_notation_carry_the_puzzle() -> None:
    p = next(cut(cf.Rules(), seeds=range(10)))
    doc = json.loads(json.dumps(p.to_dict()))
    assert doc["format"] == "chickenfoot/puzzle" and doc["version"] == 1
    assert cf.State.from_dict(doc["position"]) == p.state
    assert doc["answer"] == str(p.answer) and doc["grade"] == p.grade and doc["id"] == p.id
    assert doc["values"] == {str(m): list(v) for m, v in p.values.items()}
    text = write_game(p.to_game())
    back = read_game(io.StringIO(text), strict=True)
    assert back.record == Record(p.state, [p.answer])
    assert back.moves[0].glyphs == ("!",) and back.header("Event") == f"chickenfoot puzzle {p.id}"
    ev = comment_eval(back.moves[0].comments[0])
    assert ev is not None and ev.penalties == tuple(map(float, p.values[p.answer]))
    second = back.moves[0].variations[0][0]
    assert p.values[cf.parse_move(second.move)][p.seat] == p.values[p.answer][p.seat] + p.margin


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chickenfoot", "puzzles", *argv],
                          check=False, capture_output=True, text=True, timeout=300)  # fmt: skip


def test_cli_prints_puzzles_in_the_notation_and_as_json() -> None:
    proc = run("--count", "3", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    games = list(iter_games(io.StringIO(proc.stdout)))
    assert len(games) == 3
    want = list(itertools.islice(cut(cf.Rules(), seeds=range(1, 1000)), 3))
    assert [g.header("Event") for g in games] == [f"chickenfoot puzzle {p.id}" for p in want]
    proc = run("--count", "2", "--json", "--players", "3", "--margin", "8")
    assert proc.returncode == 0, proc.stderr
    docs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(docs) == 2 and all(
        d["margin"] >= 8 and d["position"]["rules"]["players"] == 3 for d in docs
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--count", "0"],
        ["--count", "100000000"],
        ["--nodes", "0"],
        ["--margin", "0"],
        ["--tiles", "99"],
        ["--rounds", "0"],
        ["--seed", "-3"],
        ["--count", "many"],
        ["--players", "1"],
    ],
)
def test_cli_bad_options_give_one_error_line(argv: list[str]) -> None:
    proc = run(*argv)
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    assert proc.stderr.startswith("chickenfoot") and "Traceback" not in proc.stderr, proc.stderr


def test_cli_says_when_the_rounds_hold_fewer_puzzles_than_asked() -> None:
    proc = run("--count", "5", "--rounds", "2", "--margin", "1000")
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr.strip() == (
        "chickenfoot puzzles: found 0 of the 5 puzzles asked for in 2 rounds (seeds 0 to 1)"
    )
