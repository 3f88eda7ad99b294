"""What every command shares: the usage error, exit statuses, document kinds, rules from options.

Reading documents is :mod:`chickenfoot.cli._documents` (it stands on the play save, which
stands on this module).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, TextIO

from chickenfoot._i18n import choose, from_environment
from chickenfoot.errors import RulesError, brief
from chickenfoot.match import MATCH_FORMAT
from chickenfoot.record import RECORD_FORMAT
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.view import VIEW_FORMAT

PROG = "chickenfoot"
EXIT_OK = 0
EXIT_FAILURE = 1
"""Exit status when the output could not be written (standard output closed or full, or a
pipe whose reader went away), or the system refused something else."""
EXIT_USAGE = 2
"""Exit status for anything wrong with the command line, the files it names included."""
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""

__all__ = [
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "KINDS",
    "MATCH_FORMAT",
    "PLAY_FORMAT",
    "POSITION",
    "PROG",
    "RECORD_FORMAT",
    "RULES",
    "VIEW_FORMAT",
    "Formatter",
    "Parser",
    "UsageError",
    "language",
    "ascii_number",
    "rules_from_args",
    "rules_options",
    "set_option",
    "write",
]

POSITION = "chickenfoot/position"
PLAY_FORMAT = "chickenfoot/play"
"""The saved game of ``chickenfoot play`` (:mod:`chickenfoot.cli._save`)."""
RULES = "rules"
KINDS = (POSITION, RECORD_FORMAT, MATCH_FORMAT, VIEW_FORMAT, PLAY_FORMAT)


class UsageError(Exception):
    """A bad command line: ``main`` prints it as one line and returns :data:`EXIT_USAGE`."""


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that raises :class:`UsageError` instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class Formatter(argparse.HelpFormatter):
    """Wraps the paragraphs of descriptions and epilogs, but keeps example blocks (a
    paragraph whose later lines are indented) line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        blocks = []
        for block in text.split("\n\n"):
            if "\n  " in block:
                blocks.append("\n".join(indent + line for line in block.splitlines()))
            else:
                blocks.append(
                    textwrap.fill(
                        " ".join(block.split()),
                        width,
                        initial_indent=indent,
                        subsequent_indent=indent,
                    )
                )
        return "\n\n".join(blocks)


def ascii_number(text: str, digits: int) -> int | None:
    """``text`` as a number when it is 1 to ``digits`` ASCII digits, else ``None``.

    Not ``str.isdigit``, which also holds for ``²`` (that ``int()`` refuses) and ``٣``
    (that it reads as 3).

    >>> ascii_number("12", 3), ascii_number("²", 3), ascii_number("٣", 3), ascii_number("1234", 3)
    (12, None, None, None)
    """
    if not 1 <= len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def set_option(text: str) -> tuple[str, Any]:
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


def rules_options(p: argparse.ArgumentParser, *, defaults: bool = True) -> None:
    """``--preset``, ``--players`` and ``--set``; ``defaults=False`` leaves them ``None``
    so a command can tell whether they were given."""
    p.add_argument(
        "--preset",
        default="house" if defaults else None,
        metavar="NAME",
        help=f"rules preset: {', '.join(PRESETS)} (default: house)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=4 if defaults else None,
        metavar="P",
        help="number of players: 2 to 8, or more with --set max_pip=... --set hand_size=... "
        "(default: 4)",
    )
    p.add_argument(
        "--set",
        type=set_option,
        action="append",
        default=[],
        dest="changes",
        metavar="FIELD=VALUE",
        help="override one rules field, VALUE in JSON "
        "(e.g. --set double_blank=25 --set 'match={\"rounds\": 1}'); repeatable",
    )


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


def write(out: TextIO, text: str) -> None:
    """Write ``text`` and a newline."""
    out.write(text + "\n")


def language(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> str:
    """The language of ``play`` and ``demo`` (docs/cli.md, "Languages"): ``--lang``, else
    the environment's ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``; one that is not spoken here
    is English, said in one line on standard error.

    >>> language(argparse.Namespace(lang="hr"))
    'hr'
    >>> language(argparse.Namespace(lang=None), {"LANG": "el_GR.UTF-8"})
    'el'
    """
    value = getattr(args, "lang", None)
    env = os.environ if environ is None else environ
    lang, note = choose(value) if value is not None else from_environment(env)
    if note is not None and sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(note + "\n")
    return lang
