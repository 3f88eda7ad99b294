"""What every command shares: the usage error, reading documents, rules from options."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import attrs

from chickenfoot.errors import FormatError, RulesError, brief
from chickenfoot.formats import MAX_DOCUMENT, loads, position_from_dict
from chickenfoot.match import MATCH_FORMAT, Match
from chickenfoot.record import RECORD_FORMAT, Record
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.state import State
from chickenfoot.view import VIEW_FORMAT, View

if TYPE_CHECKING:
    from chickenfoot.cli._save import PlaySave

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
    "Document",
    "Formatter",
    "Parser",
    "UsageError",
    "ascii_number",
    "describe_kind",
    "read_document",
    "read_text",
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


# -- documents ------------------------------------------------------------------------------


@attrs.frozen
class Document:
    """A document read from a file: its kind (a ``format`` name, or ``rules``) and value."""

    kind: str
    value: Rules | State | Record | Match | View | PlaySave
    name: str
    """The file it came from (``<stdin>`` for ``-``)."""

    def position(self, what: str) -> State:
        """The position to work on: a position, a record's final one, a match's round (of
        a play save: of its game)."""
        v = self.value
        if not isinstance(v, (Rules, State, Record, Match, View)):  # a play save
            v = v.game
        if isinstance(v, State):
            return v
        if isinstance(v, Record):
            return v.final()
        if isinstance(v, Match):
            if v.round is None:
                raise UsageError(f"{self.name}: the match is over ({v.result()}), so {what}")
            return v.round
        raise UsageError(f"{self.name}: {describe_kind(self.kind)} has no full position to {what}")


def describe_kind(kind: str) -> str:
    """``a position``, ``a record``... for messages."""
    return {
        POSITION: "a position",
        RECORD_FORMAT: "a record",
        MATCH_FORMAT: "a match",
        VIEW_FORMAT: "a view",
        PLAY_FORMAT: "a saved game of chickenfoot play",
        RULES: "a rules object",
    }[kind]


def read_text(path: str, stdin: TextIO | None = None) -> tuple[str, str]:
    """The text of ``path`` (``-``: standard input) and the name to use in messages.

    At most :data:`~chickenfoot.formats.MAX_DOCUMENT` characters and one more are read, so
    the reader refuses a huge file without holding it all.
    """
    if path == "-":
        source = sys.stdin if stdin is None else stdin
        if source is None:  # ``<&-``: Python has no sys.stdin at all
            raise UsageError("cannot read standard input: it is closed")
        try:
            return source.read(MAX_DOCUMENT + 1), "<stdin>"
        except UnicodeDecodeError:
            raise UsageError("<stdin>: not text (UTF-8 JSON expected)") from None
        except (OSError, ValueError) as err:  # ValueError: a closed file object
            reason = (err.strerror or str(err)) if isinstance(err, OSError) else "it is closed"
            raise UsageError(f"cannot read standard input: {reason[:100]}") from None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(MAX_DOCUMENT + 1), path
    except UnicodeDecodeError:
        raise UsageError(f"{brief(path)}: not a text file (UTF-8 JSON expected)") from None
    except OSError as err:
        raise UsageError(f"cannot read {brief(path)}: {err.strerror or err}") from None
    except ValueError as err:  # a NUL byte in the name
        raise UsageError(f"cannot read {brief(path)}: {str(err)[:100]}") from None


def read_document(path: str, *, kinds: Sequence[str] = (*KINDS, RULES)) -> Document:
    """Read and check any chickenfoot document from ``path``; its kind comes from ``format``.

    A JSON object without ``format`` is read as a rules object. Errors name the file and
    the path inside it: ``game.json: hands[2][5]: ...``.
    """
    text, name = read_text(path)
    try:
        doc = loads(text)
        kind = _kind_of(doc)
        if kind not in kinds:
            names = [describe_kind(k) for k in kinds]
            wanted = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
            raise UsageError(f"{name}: this is {describe_kind(kind)}; expected {wanted}")
        value: Rules | State | Record | Match | View | PlaySave
        if kind == POSITION:
            value = position_from_dict(doc)
        elif kind == RECORD_FORMAT:
            value = Record.from_dict(doc)
        elif kind == MATCH_FORMAT:
            value = Match.from_dict(doc)
        elif kind == VIEW_FORMAT:
            value = View.from_dict(doc)
        elif kind == PLAY_FORMAT:
            from chickenfoot.cli._save import PlaySave  # it reads agent names: imported late

            value = PlaySave.from_dict(doc)
        else:
            value = Rules.from_dict(doc)
    except (FormatError, RulesError) as err:
        raise UsageError(f"{name}: {err}") from None
    return Document(kind, value, name)


def _kind_of(doc: Any) -> str:
    if not isinstance(doc, dict):
        raise FormatError("", f"expected a JSON object (a chickenfoot document), got {brief(doc)}")
    if "format" not in doc:
        return RULES
    fmt = doc["format"]
    if fmt not in KINDS:
        known = ", ".join(KINDS)
        raise FormatError("format", f"{brief(fmt)} is not a chickenfoot document ({known})")
    return str(fmt)


def write(out: TextIO, text: str) -> None:
    """Write ``text`` and a newline."""
    out.write(text + "\n")
