"""The fuzz targets of the command line's streams and of the ``play`` prompt (``fuzz_cli``),
for a short fixed budget, with the inputs of issue 18 (section 3) as explicit examples.

``bench/fuzz.py --target "cli play prompt" --target "cli streams"`` runs them for a time
budget.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example

import fuzz_cli
from fuzz_targets import IN_SUITE, Case, holds
from fuzz_targets import fuzzes as _fuzzes

# fuzz_cli registered these in the shared registry, and they run here
IN_SUITE.update(fuzz_cli.NAMES)
CLI_TESTED: set[str] = set()


def fuzzes(name: str, n: int) -> Callable[[Callable[[Case], None]], Callable[..., None]]:
    return _fuzzes(name, n, tested=CLI_TESTED)


ISSUE_ANSWERS = [
    "²",
    "٣",
    "save a\x00b",
    "save /dev/full",
    "save /nonexistent/dir/x.json",
    "save " + "x" * 300,
    "save dir",
    "\ufffd\ufffd\x01\x1b[2J",
    "y" * 100_000,
    "1",
    "save good.json",
]


@fuzzes("cli play prompt", 40)
@example(Case(0, ISSUE_ANSWERS, "greedy", 0))
@example(Case(1, [*ISSUE_ANSWERS, "quit"], "random", 1))
@example(Case(0, ["1"] * 6 + ["save a\x00b", "", "undo", "²", "save m.json"] * 2, "greedy", 0))
def test_cli_play_prompt(case: Case) -> None:
    holds("cli play prompt", case)


@fuzzes("cli streams", 60)
@example(Case(["rules"], "closed", 0, "empty", [], "ok"))
@example(Case(["--version"], "full, buffered", 0, "empty", [], "ok"))  # fails at the flush
@example(Case(["demo", "--players", "2"], "broken pipe, now", 100, "empty", [], "ok"))
@example(Case(["--help"], "full, now", 0, "empty", [], "ok"))
@example(Case(["show", "-"], "ok", 0, "none", [], "ok"))
@example(Case(["replay", "REC"], "ok", 0, "none", [], "ok"))
@example(Case(fuzz_cli.PLAY_ROUND, "ok", 0, "none", [], "ok"))
@example(Case(fuzz_cli.PLAY_ROUND, "ok", 0, "answers", ["1", "quit"], "closed"))
@example(Case(fuzz_cli.PLAY_ROUND, "ok", 0, "not UTF-8", [], "ok"))
@example(Case(["show", "POS"], "ascii", 0, "empty", [], "full"))
def test_cli_streams(case: Case) -> None:
    holds("cli streams", case)


def test_every_cli_target_runs_here() -> None:
    assert set(fuzz_cli.NAMES) == CLI_TESTED
