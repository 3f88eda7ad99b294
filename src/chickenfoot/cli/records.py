"""``chickenfoot convert`` and the notation side of ``chickenfoot validate`` (docs/notation.md).

``convert IN OUT --to notation|json [--audience full|spectator|seat:K]`` turns a JSON record
or match document into the notation for an audience, a notation file into another
audience's copy, or a ``full`` notation file (one round, or one match) back into its JSON
document. ``validate`` reads a notation file game by game, every move checked, and names
the line and column of the first problem.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import IO, Any, TextIO

from chickenfoot.cli._common import MATCH_FORMAT, RECORD_FORMAT, UsageError, write
from chickenfoot.cli._documents import read_document
from chickenfoot.errors import FormatError, brief
from chickenfoot.match import Match
from chickenfoot.notation import (
    Audience,
    Game,
    NotationError,
    iter_games,
    read_match,
    write_game,
    write_match,
)
from chickenfoot.record import Record

__all__ = ["cmd_convert", "is_notation", "validate_notation"]


def is_notation(path: str) -> bool:
    """Whether ``path`` holds the notation (its first non-blank character is ``[``)."""
    if path == "-":
        return False  # standard input is read as JSON
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip()
    except OSError:
        return False  # the JSON reader says why it cannot be read
    return head.startswith(b"[")


def _open(path: str) -> tuple[IO[Any], str]:
    try:
        return open(path, "rb"), path
    except OSError as err:
        raise UsageError(f"cannot read {brief(path)}: {err.strerror or err}") from None


def _games(handle: IO[Any], name: str) -> Iterator[Game]:
    try:
        yield from iter_games(handle, strict=True)
    except NotationError as err:
        raise UsageError(f"{name}: {err}") from None


def validate_notation(path: str, out: TextIO) -> int:
    """Read every game of a notation file strictly; one line saying what it holds."""
    handle, name = _open(path)
    counts = {"full": 0, "seat": 0, "spectator": 0}
    matches = 0
    with handle:
        for game in _games(handle, name):
            if game.header("Match") == "begin":
                matches += 1
            elif game.header("Match") is None:
                counts[game.audience.kind] += 1
    rounds = sum(counts.values())
    kinds = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    text = f"{rounds} round{'s' * (rounds != 1)}" + (f": {kinds}" if kinds else "")
    if matches:
        text += f"; {matches} match{'es' * (matches != 1)}"
    write(out, f"{name}: a valid notation file ({text})")
    return 0


def _audience(text: str) -> Audience:
    try:
        return Audience.parse(text.replace(":", " ", 1) if text.startswith("seat:") else text)
    except FormatError:
        raise UsageError(f"--audience {brief(text)}: expected full, spectator or seat:K") from None


def _from_notation(path: str, to: str, audience: Audience) -> str:
    handle, name = _open(path)
    with handle:
        first = next(_games(handle, name), None)
        if first is None:
            raise UsageError(f"{name}: no game in the file")
        if first.header("Match") == "begin":
            return _match(path, to, audience)
        if to == "notation":
            parts = [_rewrite(first, name, audience)]
            parts += [_rewrite(g, name, audience) for g in _games(handle, name)]
            return "".join(parts)
        if next(_games(handle, name), None) is not None:
            raise UsageError(f"{name}: the file holds more than one round; a JSON record holds one")
    if first.record is None:
        raise UsageError(
            f"{name}: only a full copy converts to JSON (this is for {first.audience})"
        )
    return first.record.to_json()


def _match(path: str, to: str, audience: Audience) -> str:
    handle, name = _open(path)  # from its start again, with fresh line numbers
    with handle:
        try:
            games = read_match(handle, strict=True)
            match = None if games is None else games.to_match()
        except FormatError as err:
            raise UsageError(f"{name}: {err}") from None
    if match is None:
        raise UsageError(f"{name}: no match in the file")
    return match.to_json() if to == "json" else write_match(match, audience=audience)


def _rewrite(game: Game, name: str, audience: Audience) -> str:
    if game.record is None:
        raise UsageError(f"{name}: only a full copy can be written for another audience")
    return write_game(game, audience=audience)


def cmd_convert(args: argparse.Namespace, out: TextIO) -> int:
    """``chickenfoot convert IN OUT --to notation|json [--audience ...]``."""
    audience = _audience(args.audience)
    if audience.kind != "full" and args.to == "json":
        raise UsageError("--to json writes the full record: --audience is for the notation")
    if is_notation(args.input):
        text = _from_notation(args.input, args.to, audience)
    else:
        doc = read_document(args.input, kinds=(RECORD_FORMAT, MATCH_FORMAT))
        value = doc.value
        try:
            if args.to == "json":
                text = value.to_json()  # type: ignore[union-attr]
            elif isinstance(value, Match):
                text = write_match(value, audience=audience)
            else:
                assert isinstance(value, Record)
                text = write_game(value, audience=audience)
        except FormatError as err:
            raise UsageError(f"{doc.name}: {err}") from None
    if args.to == "json" and not text.endswith("\n"):
        text += "\n"
    if args.output == "-":
        out.write(text)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as err:
        raise UsageError(f"cannot write {brief(args.output)}: {err.strerror or err}") from None
    return 0
