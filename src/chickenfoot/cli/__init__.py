"""The ``chickenfoot`` command line (standard library only).

Subcommands:

- ``chickenfoot demo [--seed S] [--players P] [--preset NAME] [--round K] [--set FIELD=VALUE]``
  plays one seeded round among random players and prints every move, the table at the end,
  the outcome and the penalties.
- ``chickenfoot rules [--preset NAME] [--players P] [--set FIELD=VALUE] [--compact]`` prints
  the rules JSON (SPEC section 5) of a preset.

Bad input (an unknown preset, an impossible rules configuration, a malformed option) prints
one line, ``chickenfoot: error: ...``, on stderr and returns 2; never a traceback.

>>> main(["rules", "--players", "1"])  # prints the error line on stderr
2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn, TextIO

from chickenfoot import __version__
from chickenfoot.deal import deal
from chickenfoot.errors import ChickenFootError, RulesError, brief
from chickenfoot.moves import Draw
from chickenfoot.render import render
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.state import State, legal_moves

__all__ = ["demo_lines", "main", "play_demo", "rules_from_args"]

PROG = "chickenfoot"
EXIT_OK = 0
EXIT_USAGE = 2
"""Exit status for anything wrong with the command line, the rules it names included."""


class UsageError(Exception):
    """A bad command line: ``main`` prints it as one line and returns :data:`EXIT_USAGE`."""


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that raises :class:`UsageError` instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _set_option(text: str) -> tuple[str, Any]:
    """Parse ``FIELD=VALUE`` for ``--set``; VALUE is JSON, or a plain string if it is not."""
    field, sep, raw = text.partition("=")
    if not sep or not field:
        raise argparse.ArgumentTypeError(
            f"expected FIELD=VALUE (e.g. double_blank=25), got {brief(text)}"
        )
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON (or too deep, or too long a number)
        value = raw
    return field, value


def _build_parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        description="The rules of the domino game Chicken Foot.",
        epilog="Run 'chickenfoot COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    def rules_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--preset",
            default="house",
            metavar="NAME",
            help=f"rules preset: {', '.join(PRESETS)} (default: house)",
        )
        p.add_argument(
            "--players",
            type=int,
            default=4,
            metavar="P",
            help="number of players: 2 to 8, or more with --set max_pip=... --set hand_size=... "
            "(default: 4)",
        )
        p.add_argument(
            "--set",
            type=_set_option,
            action="append",
            default=[],
            dest="changes",
            metavar="FIELD=VALUE",
            help="override one rules field, VALUE in JSON "
            "(e.g. --set double_blank=25 --set 'match={\"rounds\": 1}'); repeatable",
        )

    demo = commands.add_parser(
        "demo",
        help="play one seeded round among random players",
        description="Play one seeded round among random players and print every move, the "
        "table at the end, the outcome and the penalties. The same options always print the "
        "same game.",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="S",
        help="seed of the deal and of the players' choices (default: 1)",
    )
    demo.add_argument(
        "--round",
        type=int,
        default=0,
        metavar="K",
        help="round of the match to deal, 0-based: its centre is N-K (default: 0)",
    )
    rules_options(demo)

    rules = commands.add_parser(
        "rules",
        help="print the rules JSON of a preset",
        description="Print the rules configuration (SPEC section 5 JSON) of a preset.",
    )
    rules_options(rules)
    rules.add_argument("--compact", action="store_true", help="print on one line")
    return parser


def rules_from_args(preset: str, players: int, changes: Sequence[tuple[str, Any]] = ()) -> Rules:
    """The rules of ``preset`` for ``players`` with ``changes`` (JSON field values) applied.

    Raises :class:`~chickenfoot.RulesError` naming the field for anything invalid.

    >>> rules_from_args("classic", 7).hand_size
    7
    >>> rules_from_args("house", 4, [("match", {"rounds": 1})]).match
    Rounds(count=1)
    >>> try:
    ...     rules_from_args("house", 10)
    ... except RulesError as err:
    ...     print(err.field)
    hand_size
    >>> rules_from_args("house", 10, [("max_pip", 15), ("hand_size", 12)]).set_size
    136
    """
    if preset not in PRESETS:
        raise RulesError(
            f"preset={brief(preset)} is invalid: must be one of {', '.join(map(repr, PRESETS))}",
            field="preset",
        )
    # Built from the JSON form, so that ``--set`` values read as in a rules document.
    return Rules.from_dict({"players": players, **PRESETS[preset], **dict(changes)})


def play_demo(rules: Rules, seed: int, round: int = 0) -> Iterator[tuple[int, str, State]]:
    """Play one round among random players: yield ``(seat, move text, state after)``.

    The round is ``deal(rules, seed, round)``; a ``random.Random(seed)`` picks each move
    among the legal moves. A draw is given as ``draw:X-Y``, naming the tile drawn (the
    front of the boneyard), so every move text replays with :func:`~chickenfoot.apply`.

    >>> from chickenfoot import Rules
    >>> moves = list(play_demo(Rules(), seed=1))
    >>> moves[0][:2]
    (0, '9-0@9-9')
    >>> moves[-1][2].is_over()
    True
    """
    state = deal(rules, seed, round)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.turn
        move = rng.choice(legal_moves(state))
        state = state.apply(move)
        if isinstance(move, Draw):
            assert state.drawn is not None
            move = Draw(state.drawn)
        yield seat, str(move), state


def demo_lines(rules: Rules, seed: int, round: int = 0, *, label: str = "") -> Iterator[str]:
    """The lines that ``chickenfoot demo`` prints for one seeded round.

    ``label`` names the rules in the header line (e.g. ``house rules``).

    >>> from chickenfoot import Rules
    >>> lines = list(demo_lines(Rules(players=2), seed=1))
    >>> lines[:2]
    ['Chicken Foot demo: 2 players, double-9, seed 1, round 0 (centre 9-9)', 'seat 0: 9-0@9-9']
    >>> lines[-4:]
    ['Outcome: blocked after 68 moves', 'Penalties:', '  seat 0: 42', '  seat 1: 49']
    """
    named = f"{label}, " if label else ""
    centre = rules.centre_of_round(round)
    yield (
        f"Chicken Foot demo: {named}{rules.players} players, double-{rules.max_pip}, "
        f"seed {seed}, round {round} (centre {centre}-{centre})"
    )
    state = deal(rules, seed, round)
    moves = 0
    for seat, text, after in play_demo(rules, seed, round):
        yield f"seat {seat}: {text}"
        state = after
        moves += 1
    yield ""
    yield from render(state).splitlines()
    yield ""
    yield f"Outcome: {state.outcome()} after {moves} moves"
    yield "Penalties:"
    for seat, points in enumerate(state.penalties()):
        yield f"  seat {seat}: {points}"


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    rules = rules_from_args(args.preset, args.players, args.changes)
    label = f"{args.preset} rules"
    if args.changes:
        label += " with " + " ".join(
            f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in args.changes
        )
    lines = list(demo_lines(rules, args.seed, args.round, label=label))
    out.write("\n".join(lines) + "\n")  # all or nothing: errors come before any output
    return EXIT_OK


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    rules = rules_from_args(args.preset, args.players, args.changes)
    out.write(json.dumps(rules.to_dict(), indent=None if args.compact else 2) + "\n")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    >>> main(["rules", "--preset", "four-toe", "--players", "3"])
    {
      "players": 3,
      "max_pip": 9,
      "hand_size": 14,
      "opening_toes": 4,
      "foot_toes": 3,
      "double_blank": 50,
      "centre": "set_aside",
      "draw": "one",
      "drawn_tile": "must_play",
      "may_draw_instead": false,
      "match": {
        "rounds": 10
      },
      "tie_break": "shared",
      "first_leader": 0
    }
    0
    """
    try:
        args = _build_parser().parse_args(argv)
        command = {"demo": _demo, "rules": _rules}[args.command]
        return command(args, sys.stdout)
    except (UsageError, ChickenFootError) as err:
        _error(str(err))
        return EXIT_USAGE
    except SystemExit as exit:  # --help and --version print, then exit through here
        return exit.code if isinstance(exit.code, int) else EXIT_OK
    except BrokenPipeError:  # e.g. ``chickenfoot demo | head``: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (RecursionError, MemoryError, OverflowError, ValueError, TypeError) as err:
        # Never a traceback: an input too big or too deep for Python itself.
        _error(f"{type(err).__name__}: {brief(str(err), 200)}")
        return EXIT_USAGE


def _error(message: str) -> None:
    line = " ".join(message.split())  # one line, whatever the message holds
    if len(line) > 400:  # e.g. argparse quoting a 5,000-digit number in full
        line = f"{line[:400]}... ({len(line):,} characters)"
    print(f"{PROG}: error: {line}", file=sys.stderr)
