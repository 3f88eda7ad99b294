"""The fuzz targets of saved games (``fuzz_saves``) on a short fixed budget, with the saves of
issue 29 (part 1) as explicit examples: reading a save, or opening it with ``chickenfoot
play FILE``, runs no program and imports no module that the file names.

``bench/fuzz.py --target "cli play SAVE (runs nothing)"`` runs them for a time budget.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example

import chickenfoot as cf
import fuzz_saves
from chickenfoot.cli._save import PlaySave
from fuzz_saves import SPECS, Guard, RanError, named_modules, play_save
from fuzz_targets import IN_SUITE, Case, holds
from fuzz_targets import fuzzes as _fuzzes

IN_SUITE.update(fuzz_saves.NAMES)  # each runs below
SAVES_TESTED: set[str] = set()


def fuzzes(name: str, n: int) -> Callable[[Callable[[Case], None]], Callable[..., None]]:
    return _fuzzes(name, n, tested=SAVES_TESTED)


RULES = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
MATCH = cf.Match.start(RULES.replace(match=cf.Rounds(2)), seed=2)  # seat 0 opens


def save(bot: str, *, seat: int = 1) -> str:
    """A save of a match against one bot ``bot``; seat 1 (the person) is not first to act,
    so the bot moves before the person is asked anything."""
    return PlaySave(MATCH, seat=seat, bots=(bot,), seed=2).to_json()


ENGINE = "engine:sh -c 'touch RAN'"
MODULE = "cf_sidecar:Bot"


@fuzzes("PlaySave.from_json (runs nothing)", 40)
@example(Case(save(ENGINE)))
@example(Case(save(MODULE)))
@example(Case(save("os:system")))
@example(Case(save("subprocess:Popen").encode()))
def test_reading_a_save_runs_nothing(case: Case) -> None:
    holds("PlaySave.from_json (runs nothing)", case)


# Fails on main before issue 29 part 1: `play FILE` imports a module:Class bot of the save
# while it reads it (cf_sidecar, mybot, os), and starts an engine: bot's program at the bot's
# first decision (the seat=0 example: the person opens, the bot at seat 1 is asked next).
@fuzzes("cli play SAVE (runs nothing)", 25)
@example(Case(["play"], save(MODULE)))
@example(Case(["play"], save(ENGINE)))
@example(Case(["play"], save("engine:python3 -c \"open('RAN', 'w')\"", seat=0)))
@example(Case(["play"], save("mybot:Bot")))
@example(Case(["play"], save("os:system")))
@example(Case(["validate"], save(MODULE)))
@example(Case(["show"], save(ENGINE)))
def test_opening_a_save_runs_nothing(case: Case) -> None:
    holds("cli play SAVE (runs nothing)", case)


def test_every_save_target_runs_here() -> None:
    assert set(fuzz_saves.NAMES) == SAVES_TESTED


# -- the guard itself: it must see what it is there to see ------------------------------------


def test_the_guard_sees_a_program_started_and_a_named_module_imported(tmp_path: Path) -> None:
    import importlib
    import subprocess

    guard = Guard({"cf_sidecar"})
    with guard.watching():
        with pytest.raises(RanError):
            subprocess.run(["true"], check=False)
        with pytest.raises(RanError):
            importlib.import_module("cf_sidecar")
        with pytest.raises(RanError):
            __import__("cf_sidecar.sub")
    assert len(guard.events) == 3, guard.events
    subprocess.run(["true"], check=True)  # outside a watched call: as usual


def test_the_play_target_sees_a_bot_that_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted module leaves its mark however it is imported (here by the command
    line's own --bots, which may run code: the user typed it)."""
    with pytest.raises(RanError, match="imported 'cf_sidecar'"):
        fuzz_saves._guarded(
            {"bots": [MODULE]}, lambda: cf.cli.main(["play", "--bots", MODULE, "--seed", "1"])
        )


def test_the_specs_cover_every_form() -> None:
    kinds = {s.strip().split(":")[0].lower() for s in SPECS}
    assert {"engine", "search", "random", "cf_sidecar", "os", "module"} <= kinds
    assert {"cf_sidecar", "os", "subprocess"} <= named_modules({"bots": SPECS})


def test_a_plain_save_plays_and_says_nothing_on_stderr() -> None:
    run = play_save(["play"], save("greedy"))
    assert run.status == 0 and not run.stderr and not run.events
