"""``chickenfoot analyse FILE [--seat K] [--json]`` (docs/analysis.md).

Reads one round (a JSON record, or a ``full`` notation file of one round), analyses the
decisions of the chosen seats (:func:`chickenfoot.analysis.analyse`) and writes the round
in the notation with evaluations, glyphs and the better moves as variations, or, with
``--json``, one JSON object per decision, one per line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TextIO

from chickenfoot.cli._common import RECORD_FORMAT, UsageError, ascii_number, write
from chickenfoot.errors import FormatError, brief

if TYPE_CHECKING:
    from chickenfoot.record import Record

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_NODES",
    "MAX_ITERATIONS",
    "MAX_NODES",
    "add_arguments",
    "add_command",
    "add_play_options",
    "cmd_analyse",
]

# The library's budgets, written here so that building the parser of every command does not
# import the analysis (tests/test_cli_analyse.py holds them equal to chickenfoot.analysis's).
DEFAULT_ITERATIONS: Final = 200
DEFAULT_NODES: Final = 50_000
MAX_ITERATIONS: Final = 100_000
MAX_NODES: Final = 1_000_000_000


def add_command(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``analyse`` with ``command(name, help, description, *examples)`` (the command
    line's own maker of subcommands)."""
    add_arguments(
        command(
            "analyse",
            "analyse a round move by move: losses, glyphs, better moves",
            "Value every decision of the chosen seats in a round from what the seat knew "
            "(sampled deals) and, in hindsight, with the hands open (the exact solver); "
            "write the round in the notation with evaluations, glyphs and the better moves "
            "(docs/analysis.md), or with --json one object per decision, one per line.",
            "chickenfoot analyse round.json --seat 0",
            "chickenfoot analyse round.cfn --json --iterations 400",
        )
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``chickenfoot analyse``."""
    p.add_argument(
        "file", metavar="FILE", help="a JSON record, or a full notation file of one round"
    )
    p.add_argument(
        "--seat",
        action="append",
        metavar="K",
        help="analyse seat K's decisions (repeat for more; default: every seat that moved)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per decision, per line")
    p.add_argument(
        "--iterations",
        default=str(DEFAULT_ITERATIONS),
        metavar="N",
        help=f"deals sampled per decision, 1 to {MAX_ITERATIONS:,} (default {DEFAULT_ITERATIONS})",
    )
    p.add_argument(
        "--nodes",
        default=str(DEFAULT_NODES),
        metavar="N",
        help=f"the solver's budget per decision for the hindsight, 1 to {MAX_NODES:,} "
        f"(default {DEFAULT_NODES:,})",
    )
    p.add_argument("--no-hindsight", action="store_true", help="leave out the open hands' verdict")
    p.add_argument("--seed", default="0", metavar="S", help="seed of the sampled deals (default 0)")


def _number(text: str, option: str, low: int, high: int) -> int:
    n = ascii_number(text.removeprefix("-"), 40)
    if n is not None and text.startswith("-"):
        n = -n
    if n is None or not low <= n <= high:
        shown = text if len(text) <= 40 and text.isascii() and text.isprintable() else brief(text)
        raise UsageError(
            f"{option} {shown} is invalid: must be an integer from {low:,} to {high:,}"
        )
    return n


def add_play_options(p: argparse.ArgumentParser) -> None:
    """``play --hints`` and ``play --review``."""
    p.add_argument(
        "--hints",
        action="store_true",
        help="allow hints: type hint at your turn for the search player's move "
        "(the table says that hints are on)",
    )
    p.add_argument(
        "--review",
        action="store_true",
        help="show the review of your decisions at the end of every round "
        "(without it, type review between rounds)",
    )


def _record(path: str) -> Record:
    from chickenfoot.cli._documents import read_document
    from chickenfoot.cli.records import is_notation
    from chickenfoot.notation import iter_games
    from chickenfoot.record import Record

    if not is_notation(path):
        doc = read_document(path, kinds=(RECORD_FORMAT,))
        assert isinstance(doc.value, Record)
        return doc.value
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below, errors said here
    except OSError as err:
        raise UsageError(f"cannot read {brief(path)}: {err.strerror or err}") from None
    with handle:
        try:
            games = iter_games(handle, strict=True)
            game = next(games, None)
            if game is None:
                raise UsageError(f"{path}: no game in the file")
            if game.header("Match") is not None:
                raise UsageError(f"{path}: a match; analyse takes one round (a record)")
            if next(games, None) is not None:
                raise UsageError(f"{path}: the file holds more than one round; analyse takes one")
        except FormatError as err:
            raise UsageError(f"{path}: {err}") from None
    if game.record is None:
        raise UsageError(
            f"{path}: only a full copy can be analysed (this one is for {game.audience})"
        )
    return game.record


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> int:
    """``chickenfoot analyse FILE [--seat K] [--json] [--iterations N] [--nodes N]``."""
    from chickenfoot.analysis import analyse, annotated_text

    iterations = _number(args.iterations, "--iterations", 1, MAX_ITERATIONS)
    nodes = None if args.no_hindsight else _number(args.nodes, "--nodes", 1, MAX_NODES)
    seed = _number(args.seed, "--seed", 0, 2**63 - 1)
    record = _record(args.file)
    players = record.start.players
    seats = None
    if args.seat:
        seats = [_number(k, "--seat", 0, players - 1) for k in args.seat]
    try:
        result = analyse(record, seats=seats, iterations=iterations, nodes=nodes, seed=seed)
    except FormatError as err:
        raise UsageError(f"{args.file}: {err}") from None
    if args.json:
        for obj in result.to_dicts():
            write(out, json.dumps(obj))
    else:
        out.write(annotated_text(record, result))
    return 0
