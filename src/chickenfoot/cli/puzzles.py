"""``chickenfoot puzzles``: puzzles cut from seeded rounds, proven by the solver (docs: Puzzles).

The puzzles are :func:`chickenfoot.puzzles.cut`'s; this module reads the options and
prints them in the game notation (one game per puzzle) or, with ``--json``, one
``chickenfoot/puzzle`` document per line.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_options(p)
>>> p.parse_args(["--count", "5"]).count
5
"""

from __future__ import annotations

import argparse
import itertools
import json
from typing import TextIO

from chickenfoot.cli._common import PROG, UsageError, rules_from_args, rules_options, write
from chickenfoot.cli._streams import write_error
from chickenfoot.errors import brief
from chickenfoot.notation import write_game
from chickenfoot.puzzles import MARGIN, MAX_MARGIN, MAX_TILES, NODES, TILES, cut
from chickenfoot.solve import MAX_NODES

__all__ = ["DESCRIPTION", "EXAMPLES", "MAX_COUNT", "MAX_ROUNDS", "add_options", "cmd_puzzles"]

MAX_COUNT = 100_000
"""The most puzzles one run prints."""
MAX_ROUNDS = 10_000_000
"""The most rounds one run plays."""
MAX_SEED = 2**64 - 1
"""The largest first seed (seeds are counted up from it)."""

DESCRIPTION = (
    "Cut puzzles from rounds played by heuristic bots at every seat, dealt by the seeds S, S+1, ...: "
    "positions where the seat to act has one move better for it than every other by at "
    "least --margin points, as the exact solver proves with every hand open. Each is graded "
    "from 1 (easy) to 5 (hard). Prints them in the game notation (the answer marked !, the "
    "next best as a variation), or one JSON document per line with --json. Stops after "
    "--count puzzles or --rounds rounds, whichever comes first."
)
EXAMPLES = (
    "chickenfoot puzzles --count 20 > puzzles.cfn",
    "chickenfoot puzzles --count 100 --json --seed 1000",
    "chickenfoot puzzles --players 3 --margin 10 --tiles 12",
)


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``puzzles``."""
    p.add_argument(
        "--count", type=int, default=10, metavar="N",
        help=f"puzzles to print (default: 10, at most {MAX_COUNT:,})",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=int, default=0, metavar="S",
        help="the seed of the first round (default: 0)",
    )  # fmt: skip
    p.add_argument(
        "--rounds", type=int, metavar="R",
        help="the most rounds to play (default: 100 per puzzle asked for)",
    )  # fmt: skip
    p.add_argument(
        "--margin", type=int, default=MARGIN, metavar="M",
        help=f"points by which the answer beats every other move (default: {MARGIN})",
    )  # fmt: skip
    p.add_argument(
        "--tiles", type=int, default=TILES, metavar="T",
        help=f"look at positions with at most T tiles in the hands (default: {TILES})",
    )  # fmt: skip
    p.add_argument(
        "--nodes", type=int, default=NODES, metavar="N",
        help=f"the solver's budget per position; harder ones are skipped (default: {NODES:,})",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="one JSON document per line")
    rules_options(p)


def _within(value: int | None, option: str, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise UsageError(f"{option} {brief(value)} is invalid: must be from {low:,} to {high:,}")


def cmd_puzzles(args: argparse.Namespace, out: TextIO) -> int:
    """Print the puzzles; a line on stderr when the rounds held fewer than asked for."""
    _within(args.count, "--count", 1, MAX_COUNT)
    _within(args.seed, "--seed", 0, MAX_SEED)
    _within(args.rounds, "--rounds", 1, MAX_ROUNDS)
    _within(args.margin, "--margin", 1, MAX_MARGIN)
    _within(args.tiles, "--tiles", 1, MAX_TILES)
    _within(args.nodes, "--nodes", 1, MAX_NODES)
    rules = rules_from_args(args.preset, args.players, args.changes)
    rounds = args.rounds if args.rounds is not None else min(MAX_ROUNDS, 100 * args.count)
    seeds = range(args.seed, args.seed + rounds)
    found = cut(rules, seeds=seeds, margin=args.margin, tiles=args.tiles, nodes=args.nodes)
    printed = 0
    for puzzle in itertools.islice(found, args.count):
        if args.json:
            write(out, json.dumps(puzzle.to_dict()))
        else:
            out.write(write_game(puzzle.to_game()) + "\n")
        printed += 1
    if printed < args.count:
        write_error(
            f"{PROG} puzzles: found {printed} of the {args.count} puzzles asked for in "
            f"{rounds:,} rounds (seeds {seeds[0]} to {seeds[-1]})"
        )
    return 0
