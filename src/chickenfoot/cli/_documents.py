"""Reading any chickenfoot document from a file or standard input, with messages naming both.

It stands above every reader, the play save (:mod:`chickenfoot.cli._save`) included, so no
command module reads documents on its own.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

import attrs

from chickenfoot.cli._common import (
    KINDS,
    MATCH_FORMAT,
    PLAY_FORMAT,
    POSITION,
    RECORD_FORMAT,
    RULES,
    VIEW_FORMAT,
    UsageError,
)
from chickenfoot.cli._save import PlaySave
from chickenfoot.errors import FormatError, RulesError, brief
from chickenfoot.formats import MAX_DOCUMENT, loads, position_from_dict
from chickenfoot.match import Match
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.state import State
from chickenfoot.view import View

__all__ = ["Document", "describe_kind", "read_document", "read_text"]


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
