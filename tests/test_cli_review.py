"""The review after a round and the hints of ``chickenfoot play`` (docs/analysis.md).

Sessions are driven through :class:`Session` with scripted answers, and once through the
real command line in a subprocess (``play --hints``).
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import chickenfoot as cf
import chickenfoot.analysis as analysis
from chickenfoot.analysis import analyse, best_of, evaluate
from chickenfoot.cli import analyse as analyse_cli
from chickenfoot.cli._review import (
    HINT_ITERATIONS,
    REVIEW_ITERATIONS,
    finished_record,
    review_lines,
)
from chickenfoot.cli.play import Game, Session
from chickenfoot.match import Match
from chickenfoot.record import Record
from chickenfoot.solve import MAX_NODES as SOLVE_MAX_NODES
from chickenfoot.specs import Trust, agents_of

RULES = cf.Rules(players=3, max_pip=5, hand_size=4, opening_toes=3, foot_toes=2)


def session(
    game: Game, answer: Callable[[str], str], *, hints: bool = False, review: bool = False
) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    players = game.rules.players
    named = agents_of("greedy", players - 1, "--bots", trust=Trust.user())

    def ask(prompt: str) -> str:
        out.write(prompt + "\n")
        return answer(prompt)

    s = Session(
        game,
        seat=0,
        bots=dict(zip(range(1, players), named, strict=True)),
        rng=random.Random(0),
        out=out,
        ask=ask,
        header="test",
        hints=hints,
        review=review,
    )
    return s, out


def scripted(*lines: str) -> Callable[[str], str]:
    queue = list(lines)

    def answer(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return answer


def last_first(prompt: str) -> str:
    """The last legal move at every decision (seldom the best); Enter between rounds."""
    if prompt.startswith("Enter: deal round"):
        return ""
    return re.search(r"\[1-(\d+)", prompt).group(1)  # type: ignore[union-attr]


def test_the_cli_budgets_are_the_library_s() -> None:
    assert analyse_cli.DEFAULT_ITERATIONS == analysis.DEFAULT_ITERATIONS
    assert analyse_cli.DEFAULT_NODES == analysis.DEFAULT_NODES
    assert analyse_cli.MAX_ITERATIONS == analysis.MAX_ITERATIONS
    assert analyse_cli.MAX_NODES == SOLVE_MAX_NODES


def test_play_review_shows_the_round_s_decisions_biggest_loss_first() -> None:
    game = Game(record=Record(cf.deal(RULES, seed=4)))
    s, out = session(game, last_first, review=True)
    assert s.run() == 0
    text = out.getvalue()
    assert "Your decisions in this round, biggest loss first" in text
    after = text.split("Your decisions in this round, biggest loss first")[1]
    losses = [float(x) for x in re.findall(r"was better by ([0-9.]+) expected", after)]
    assert losses == sorted(losses, reverse=True)
    rec = s.game.record
    assert rec is not None
    want = [
        d
        for d in analyse(rec, seats=0, iterations=REVIEW_ITERATIONS, nodes=None).review()
        if d.loss > 0
    ]
    assert len(losses) == min(5, len(want)) > 0
    first = want[0]
    assert f"you played {first.move}; {first.best} was better" in after


def test_between_rounds_review_is_a_command_and_is_offered() -> None:
    m = Match.start(RULES, seed=2)
    answers: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith("Enter: deal round"):
            answers.append(prompt)
            if len(answers) == 1:
                return "review"
            raise EOFError
        return "1"

    s, out = session(Game(match=m), answer)
    assert s.run() == 0
    text = out.getvalue()
    assert "Type review at the prompt to see your decisions, biggest loss first." in text
    assert "Your decisions in this round, biggest loss first" in text
    assert "(or review, save FILE, undo, quit, help)" in answers[0]


def test_the_finished_round_of_a_match_is_its_record() -> None:
    m = Match.start(RULES, seed=5)
    rng = random.Random(1)
    while m.rounds_played == 0:
        m = m.apply(rng.choice(list(m.legal_moves)))
    assert m.last_round is not None
    rec = finished_record(Game(match=m), m.last_round)
    assert rec is not None and rec.final() == m.last_round
    assert rec.start == cf.deal(RULES, 5, 0)


def test_hints_are_the_search_player_s_best_from_the_seat_s_view() -> None:
    start = cf.deal(RULES, seed=4)
    game = Game(record=Record(start))
    s, out = session(game, scripted("hint", "quit"), hints=True)
    assert s.run() == 0
    state = s.game.state
    assert state is not None
    v = state.view(0)
    best = best_of(evaluate(v, iterations=HINT_ITERATIONS, seed=len(v.history)))
    assert f"Hint: {best.move} (expected penalty" in out.getvalue()


def test_hints_off_say_so_and_the_game_goes_on() -> None:
    game = Game(record=Record(cf.deal(RULES, seed=4)))
    s, out = session(game, scripted("hint", "quit"))
    assert s.run() == 0
    assert "Hints are off at this table: start it with chickenfoot play --hints." in out.getvalue()
    assert "Hint:" not in out.getvalue()


def test_review_lines_of_a_seat_without_a_choice() -> None:
    start = cf.deal(RULES, seed=1)
    rec = Record(start, [start.legal_moves[0]])
    assert list(review_lines(rec, 2)) == [
        "You had no choice to make in this round: nothing to review."
    ]


def test_play_hints_on_the_command_line_tell_the_table() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", "--round", "--players", "3"]
        + ["--bots", "greedy", "--seed", "3", "--hints"],
        input="hint\nquit\n",
        capture_output=True,
        text=True,
        env={**env, "NO_COLOR": "1", "TERM": "dumb"},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Hints are on at this table" in done.stdout
    assert "Hint: " in done.stdout and "Traceback" not in done.stderr


def test_play_on_a_terminal_with_hints_and_the_review(tmp_path: Path) -> None:
    """A pty, rich drawing: hint at the first decision, then move 1 to the end of the
    round; the review comes after it, and no traceback anywhere."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "chickenfoot", "play", "--round", "--players", "3", "--bots", "greedy"]
        + ["--seed", "3", "--hints", "--review"],
        env={**env, "PYTHONUNBUFFERED": "1"},
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 100),
    )
    seen: list[str] = []
    child.expect(r"move \[1-\d+, help\]> ")
    seen.append(child.before)
    child.sendline("hint")
    child.expect(r"Hint: \S+ \(expected penalty")
    for _ in range(200):
        i = child.expect([r"move \[1-\d+, help\]> ", "biggest loss first", pexpect.EOF])
        seen.append(child.before)
        if i:
            break
        child.sendline("1")
    child.expect(pexpect.EOF)
    seen.append(child.before)
    child.close()
    text = "".join(seen)
    assert "Hints are on at this table" in text
    assert "Traceback" not in text and child.exitstatus == 0


def test_help_names_hint_and_review() -> None:
    game = Game(record=Record(cf.deal(RULES, seed=4)))
    s, out = session(game, scripted("help", "quit"))
    assert s.run() == 0
    assert "  hint        the search player's move from your view" in out.getvalue()
    assert "  review      between rounds: your decisions" in out.getvalue()
